//! Helpers on JavaScript strings as UTF-16 code unit sequences.
//!
//! JavaScript strings may hold lone surrogates, so nothing here assumes well-formed
//! UTF-16: code points are decoded per ECMA-262 11.1.4 CodePointAt (a lone surrogate
//! decodes to itself), case conversion passes lone surrogates through untouched, and
//! conversion to a Rust `String` replaces them with U+FFFD for printing.
//!
//! The VM keeps one-byte (Latin-1) and two-byte strings; the [`CodeUnit`] trait lets the
//! scanning helpers take either `&[u8]` or `&[u16]` without copying.

use std::ops::Range;

/// A JavaScript string code unit: `u16`, or `u8` for one-byte (Latin-1) strings whose
/// code units are all below 0x100.
pub trait CodeUnit: Copy {
    /// The UTF-16 code unit value.
    fn unit(self) -> u16;
}

impl CodeUnit for u16 {
    #[inline]
    fn unit(self) -> u16 {
        self
    }
}

impl CodeUnit for u8 {
    #[inline]
    fn unit(self) -> u16 {
        self as u16
    }
}

/// ECMA-262 12.2 WhiteSpace: TAB, VT, FF, ZWNBSP (U+FEFF) and every code point of
/// general category Zs (SPACE, NBSP, OGHAM SPACE MARK, U+2000–U+200A, NARROW NBSP,
/// MEDIUM MATHEMATICAL SPACE, IDEOGRAPHIC SPACE). U+180E is no longer Zs and is not
/// whitespace.
#[inline]
pub fn is_whitespace(u: u16) -> bool {
    match u {
        0x09 | 0x0B | 0x0C | 0x20 | 0xA0 => true,
        0..=0xFF => false,
        0x1680 | 0x2000..=0x200A | 0x202F | 0x205F | 0x3000 | 0xFEFF => true,
        _ => false,
    }
}

/// ECMA-262 12.3 LineTerminator: LF, CR, LINE SEPARATOR, PARAGRAPH SEPARATOR.
#[inline]
pub fn is_line_terminator(u: u16) -> bool {
    matches!(u, 0x0A | 0x0D | 0x2028 | 0x2029)
}

/// WhiteSpace or LineTerminator: the code units `String.prototype.trim` removes
/// (22.1.3.32.1 TrimString) and StrWhiteSpaceChar of StringToNumber (7.1.4.1.1).
#[inline]
pub fn is_trimmable(u: u16) -> bool {
    is_whitespace(u) || is_line_terminator(u)
}

/// Which ends [`trim_range`] trims (the `where` of 22.1.3.32.1 TrimString).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrimWhere {
    /// `trimStart`.
    Start,
    /// `trimEnd`.
    End,
    /// `trim`.
    Both,
}

/// 22.1.3.32.1 TrimString steps 3–5: the range of `s` left after removing leading
/// and/or trailing WhiteSpace and LineTerminator code units.
pub fn trim_range<T: CodeUnit>(s: &[T], where_: TrimWhere) -> Range<usize> {
    let mut start = 0;
    let mut end = s.len();
    if where_ != TrimWhere::End {
        while start < end && is_trimmable(s[start].unit()) {
            start += 1;
        }
    }
    if where_ != TrimWhere::Start {
        while end > start && is_trimmable(s[end - 1].unit()) {
            end -= 1;
        }
    }
    start..end
}

/// Whether `u` is a leading (high) surrogate, U+D800–U+DBFF.
#[inline]
pub fn is_leading_surrogate(u: u16) -> bool {
    (0xD800..=0xDBFF).contains(&u)
}

/// Whether `u` is a trailing (low) surrogate, U+DC00–U+DFFF.
#[inline]
pub fn is_trailing_surrogate(u: u16) -> bool {
    (0xDC00..=0xDFFF).contains(&u)
}

/// 11.1.3 UTF16SurrogatePairToCodePoint.
#[inline]
pub fn surrogate_pair_to_code_point(lead: u16, trail: u16) -> u32 {
    ((lead as u32 - 0xD800) << 10) + (trail as u32 - 0xDC00) + 0x10000
}

/// The record returned by 11.1.4 CodePointAt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodePoint {
    /// `[[CodePoint]]`: the code point (a lone surrogate's own value if unpaired).
    pub code_point: u32,
    /// `[[CodeUnitCount]]`: 1 or 2.
    pub code_unit_count: u8,
    /// `[[IsUnpairedSurrogate]]`.
    pub is_unpaired_surrogate: bool,
}

/// 11.1.4 CodePointAt(string, position). `position` must be `< s.len()`.
pub fn code_point_at<T: CodeUnit>(s: &[T], position: usize) -> CodePoint {
    // 1–3. first is the code unit at position; cp is its value.
    let first = s[position].unit();
    let single = |unpaired| CodePoint { code_point: first as u32, code_unit_count: 1, is_unpaired_surrogate: unpaired };
    // 4. Not a surrogate: a one-unit code point.
    if !(0xD800..=0xDFFF).contains(&first) {
        return single(false);
    }
    // 5. A trailing surrogate or a leading one at the end is unpaired.
    if is_trailing_surrogate(first) || position + 1 == s.len() {
        return single(true);
    }
    // 6–7. A leading surrogate not followed by a trailing one is unpaired.
    let second = s[position + 1].unit();
    if !is_trailing_surrogate(second) {
        return single(true);
    }
    // 8–9. A pair.
    CodePoint {
        code_point: surrogate_pair_to_code_point(first, second),
        code_unit_count: 2,
        is_unpaired_surrogate: false,
    }
}

/// Iterator over the code points of a UTF-16 string per 11.1.5 StringToCodePoints: a
/// lone surrogate yields its own value. This is also the iteration order of
/// `String.prototype[@@iterator]`, whose items are the code units of each code point.
#[derive(Clone, Debug)]
pub struct CodePoints<'a, T: CodeUnit> {
    units: &'a [T],
    pos: usize,
}

impl<T: CodeUnit> CodePoints<'_, T> {
    /// The index of the next code unit to decode.
    pub fn position(&self) -> usize {
        self.pos
    }
}

impl<T: CodeUnit> Iterator for CodePoints<'_, T> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        if self.pos >= self.units.len() {
            return None;
        }
        let cp = code_point_at(self.units, self.pos);
        self.pos += cp.code_unit_count as usize;
        Some(cp.code_point)
    }
}

/// The code points of `s` (11.1.5 StringToCodePoints).
pub fn code_points<T: CodeUnit>(s: &[T]) -> CodePoints<'_, T> {
    CodePoints { units: s, pos: 0 }
}

/// 11.1.1 UTF16EncodeCodePoint: appends the one or two code units of `cp` (which must be
/// ≤ 0x10FFFF; surrogate values are appended as themselves).
pub fn push_code_point(out: &mut Vec<u16>, cp: u32) {
    debug_assert!(cp <= 0x10FFFF);
    if cp < 0x10000 {
        out.push(cp as u16);
    } else {
        let c = cp - 0x10000;
        out.push(0xD800 + (c >> 10) as u16);
        out.push(0xDC00 + (c & 0x3FF) as u16);
    }
}

/// The index `String.prototype.at` (22.1.3.1) and `Array.prototype.at` read: `relative`
/// is ToIntegerOrInfinity(index) (steps 3–5 resolve a negative index from the end).
/// Returns `None` when the result is out of range (step 6: return undefined).
pub fn relative_index(len: usize, relative: f64) -> Option<usize> {
    // 4–5. k = relativeIndex if ≥ 0, else len + relativeIndex.
    let k = if relative >= 0.0 { relative } else { len as f64 + relative };
    // 6. If k < 0 or k ≥ len, return undefined.
    if k < 0.0 || k >= len as f64 {
        None
    } else {
        Some(k as usize)
    }
}

/// 22.1.3.10 String.prototype.isWellFormed: no lone surrogates.
pub fn is_well_formed<T: CodeUnit>(s: &[T]) -> bool {
    let mut i = 0;
    while i < s.len() {
        let cp = code_point_at(s, i);
        if cp.is_unpaired_surrogate {
            return false;
        }
        i += cp.code_unit_count as usize;
    }
    true
}

/// 22.1.3.33 String.prototype.toWellFormed: lone surrogates replaced by U+FFFD.
pub fn to_well_formed<T: CodeUnit>(s: &[T]) -> Vec<u16> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        let cp = code_point_at(s, i);
        if cp.is_unpaired_surrogate {
            out.push(0xFFFD);
        } else {
            push_code_point(&mut out, cp.code_point);
        }
        i += cp.code_unit_count as usize;
    }
    out
}

/// UTF-16 → Rust `String` for printing and host interfaces: lone surrogates become
/// U+FFFD (REPLACEMENT CHARACTER).
pub fn utf16_to_string_lossy<T: CodeUnit>(s: &[T]) -> String {
    let mut out = String::with_capacity(s.len());
    for cp in code_points(s) {
        out.push(char::from_u32(cp).unwrap_or('\u{FFFD}'));
    }
    out
}

/// Rust `&str` → UTF-16 code units.
pub fn str_to_utf16(s: &str) -> Vec<u16> {
    s.encode_utf16().collect()
}

/// The first index ≥ `from` at which `needle` occurs in `haystack` (StringIndexOf,
/// 6.1.4.1; the search of `String.prototype.indexOf` and `includes`). An empty needle
/// is found at `from` when `from ≤ len`.
pub fn index_of<A: CodeUnit, B: CodeUnit>(haystack: &[A], needle: &[B], from: usize) -> Option<usize> {
    let len = haystack.len();
    if needle.is_empty() {
        return (from <= len).then_some(from);
    }
    if needle.len() > len {
        return None;
    }
    let first = needle[0].unit();
    (from..=len - needle.len()).find(|&i| {
        haystack[i].unit() == first
            && haystack[i + 1..i + needle.len()].iter().zip(&needle[1..]).all(|(a, b)| a.unit() == b.unit())
    })
}

/// The last index ≤ `from` at which `needle` occurs in `haystack` (the search of
/// `String.prototype.lastIndexOf`, 22.1.3.11 steps 9–11).
pub fn last_index_of<A: CodeUnit, B: CodeUnit>(haystack: &[A], needle: &[B], from: usize) -> Option<usize> {
    if needle.len() > haystack.len() {
        return None;
    }
    let start = from.min(haystack.len() - needle.len());
    (0..=start).rev().find(|&i| haystack[i..i + needle.len()].iter().zip(needle).all(|(a, b)| a.unit() == b.unit()))
}

/// Code unit order of two strings (IsLessThan on strings, 7.2.13 step 3, and
/// `Array.prototype.sort`'s default comparison), across one- and two-byte strings.
pub fn compare<A: CodeUnit, B: CodeUnit>(a: &[A], b: &[B]) -> std::cmp::Ordering {
    a.iter().map(|u| u.unit()).cmp(b.iter().map(|u| u.unit()))
}

/// Whether two strings have the same code units, across one- and two-byte strings.
pub fn equals<A: CodeUnit, B: CodeUnit>(a: &[A], b: &[B]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.unit() == y.unit())
}

/// Which case [`convert_case`] maps to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Case {
    Upper,
    Lower,
}

/// Maps the well-formed run `units` (no lone surrogates) to `case`, appending to `out`.
fn convert_run(units: &[u16], case: Case, out: &mut Vec<u16>) {
    let text: String = char::decode_utf16(units.iter().copied()).map(|c| c.unwrap_or('\u{FFFD}')).collect();
    // `str::to_lowercase` applies the Final_Sigma rule of Unicode's SpecialCasing
    // (Σ → ς at the end of a word), which JavaScript's locale-independent
    // toLowerCase also applies; `char::to_lowercase` alone would not.
    let mapped = match case {
        Case::Upper => text.to_uppercase(),
        Case::Lower => text.to_lowercase(),
    };
    out.extend(mapped.encode_utf16());
}

/// The case mapping of a Latin-1 character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Latin1Case {
    One(u16),
    /// "ß" upper-cases to "SS".
    TwoS,
}

/// The full case mapping of Latin-1 character `b` (what `convert_run` gives, checked for all
/// 256 in the tests): letters A-Z and U+00C0-U+00DE (but ×) are the upper case of a-z and
/// U+00E0-U+00FE (but ÷), 0x20 apart; upper-casing takes ß to SS, µ to U+039C (Greek capital
/// mu) and ÿ to U+0178 (Latin capital Y with diaeresis), outside Latin-1.
fn latin1_case(b: u8, case: Case) -> Latin1Case {
    let c = b as u16;
    Latin1Case::One(match case {
        Case::Lower if b.is_ascii_uppercase() || ((0xC0..=0xDE).contains(&b) && b != 0xD7) => c + 0x20,
        Case::Upper if b.is_ascii_lowercase() || ((0xE0..=0xFE).contains(&b) && b != 0xF7) => c - 0x20,
        Case::Upper if b == 0xDF => return Latin1Case::TwoS,
        Case::Upper if b == 0xB5 => 0x39C,
        Case::Upper if b == 0xFF => 0x178,
        _ => c,
    })
}

/// toLowerCase of one-byte (Latin-1) text, which stays Latin-1 and as long.
pub fn latin1_to_lower(s: &[u8]) -> Vec<u8> {
    s.iter()
        .map(|&b| match latin1_case(b, Case::Lower) {
            Latin1Case::One(c) => c as u8,
            Latin1Case::TwoS => unreachable!("only upper-casing expands"),
        })
        .collect()
}

/// toUpperCase of one-byte (Latin-1) text when the result is Latin-1 too (`None` if it
/// has µ or ÿ, whose capitals are not: `to_upper_case` makes that result). It is
/// `latin1_upper_len(s)` long.
pub fn latin1_to_upper(s: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(latin1_upper_len(s));
    for &b in s {
        match latin1_case(b, Case::Upper) {
            Latin1Case::One(c) => out.push(u8::try_from(c).ok()?),
            Latin1Case::TwoS => out.extend_from_slice(b"SS"),
        }
    }
    Some(out)
}

/// The length of toUpperCase of one-byte text (each ß becomes SS; every other Latin-1
/// character one unit), known before the result is made.
pub fn latin1_upper_len(s: &[u8]) -> usize {
    s.len() + s.iter().filter(|&&b| b == 0xDF).count()
}

/// 22.1.3.28.1 TransformCase: full Unicode default case conversion of a UTF-16 string,
/// with SpecialCasing's unconditional mappings (ß → SS, ŉ → ʼN, ﬃ → FFI, İ → i̇) and the
/// Final_Sigma condition, and lone surrogates left as they are. A lone surrogate is
/// neither cased nor case-ignorable, so it ends a word for Final_Sigma just as splitting
/// the string into well-formed runs at lone surrogates does here.
fn convert_case<T: CodeUnit>(s: &[T], case: Case) -> Vec<u16> {
    let mut out = Vec::with_capacity(s.len());
    // Fast path: Latin-1 text (every one-byte string) maps unit by unit, with no context
    // (Final_Sigma needs a sigma), through `latin1_case`.
    if s.iter().all(|u| u.unit() < 0x100) {
        for u in s {
            match latin1_case(u.unit() as u8, case) {
                Latin1Case::One(c) => out.push(c),
                Latin1Case::TwoS => out.extend([0x53, 0x53]),
            }
        }
        return out;
    }
    let mut run: Vec<u16> = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let cp = code_point_at(s, i);
        if cp.is_unpaired_surrogate {
            convert_run(&run, case, &mut out);
            run.clear();
            out.push(cp.code_point as u16);
        } else {
            push_code_point(&mut run, cp.code_point);
        }
        i += cp.code_unit_count as usize;
    }
    convert_run(&run, case, &mut out);
    out
}

/// 22.1.3.30 String.prototype.toUpperCase (and toLocaleUpperCase, which behaves the
/// same without locale data).
pub fn to_upper_case<T: CodeUnit>(s: &[T]) -> Vec<u16> {
    convert_case(s, Case::Upper)
}

/// 22.1.3.29 String.prototype.toLowerCase (and toLocaleLowerCase, which behaves the
/// same without locale data).
pub fn to_lower_case<T: CodeUnit>(s: &[T]) -> Vec<u16> {
    convert_case(s, Case::Lower)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(s: &str) -> Vec<u16> {
        str_to_utf16(s)
    }

    #[test]
    fn latin1_case_mapping_is_the_general_one() {
        for b in 0..=255u8 {
            for case in [Case::Upper, Case::Lower] {
                let mut general = Vec::new();
                convert_run(&[b as u16], case, &mut general);
                let fast = match latin1_case(b, case) {
                    Latin1Case::One(c) => vec![c],
                    Latin1Case::TwoS => vec![0x53, 0x53],
                };
                assert_eq!(fast, general, "{case:?} of U+{b:04X}");
            }
        }
        assert_eq!(to_upper_case(&[0xDFu8, 0x61, 0xFF]), [0x53, 0x53, 0x41, 0x178]);
        let all: Vec<u8> = (0..=255).collect();
        let wide = |v: Vec<u8>| v.into_iter().map(u16::from).collect::<Vec<u16>>();
        assert_eq!(wide(latin1_to_lower(&all)), to_lower_case(&all));
        let no_mu_or_y: Vec<u8> = (0..=254).filter(|&b| b != 0xB5).collect();
        let upper = latin1_to_upper(&no_mu_or_y).expect("Latin-1 capitals");
        assert_eq!(upper.len(), latin1_upper_len(&no_mu_or_y));
        assert_eq!(wide(upper), to_upper_case(&no_mu_or_y));
        assert_eq!(latin1_to_upper(b"a\xB5"), None);
        assert_eq!(latin1_to_upper(b"\xFF"), None);
        assert_eq!(to_lower_case(&u("\u{C0}B\u{D7}")), u("\u{E0}b\u{D7}"));
    }

    #[test]
    fn whitespace_predicates() {
        // Every code unit that node's "x".trim() removes, from a scan of 0..=0xFFFF:
        // [...Array(65536).keys()].filter(c => String.fromCharCode(c).trim() === "").
        let expected: &[u16] = &[
            0x9, 0xa, 0xb, 0xc, 0xd, 0x20, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006,
            0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
        ];
        let got: Vec<u16> = (0..=0xFFFFu16).filter(|&c| is_trimmable(c)).collect();
        assert_eq!(got, expected);
        assert!(!is_whitespace(0x180E));
        assert!(!is_whitespace(0x200B));
        assert!(!is_whitespace(0x85));
        assert!(is_line_terminator(0x2028) && !is_whitespace(0x2028));
    }

    #[test]
    fn trim() {
        let s = u("\u{feff} \u{3000}a b\n\u{2029}");
        assert_eq!(trim_range(&s, TrimWhere::Both), 3..6);
        assert_eq!(trim_range(&s, TrimWhere::Start), 3..8);
        assert_eq!(trim_range(&s, TrimWhere::End), 0..6);
        let blank = u(" \t\n");
        assert!(trim_range(&blank, TrimWhere::Both).is_empty());
        assert_eq!(trim_range(b"  x ".as_slice(), TrimWhere::Both), 2..3);
        assert_eq!(trim_range(b"\xa0x".as_slice(), TrimWhere::Start), 1..2);
    }

    #[test]
    fn code_point_at_cases() {
        let s: Vec<u16> = vec![0x61, 0xD83D, 0xDE00, 0xDC00, 0xD800, 0x62, 0xD800];
        let cp = |i| {
            let c = code_point_at(&s, i);
            (c.code_point, c.code_unit_count, c.is_unpaired_surrogate)
        };
        assert_eq!(cp(0), (0x61, 1, false));
        assert_eq!(cp(1), (0x1F600, 2, false));
        // "\uD83D\uDE00".codePointAt(1) === 0xDE00 in node: starting on the trail unit.
        assert_eq!(cp(2), (0xDE00, 1, true));
        assert_eq!(cp(3), (0xDC00, 1, true));
        assert_eq!(cp(4), (0xD800, 1, true));
        assert_eq!(cp(6), (0xD800, 1, true));
        let all: Vec<u32> = code_points(&s).collect();
        assert_eq!(all, vec![0x61, 0x1F600, 0xDC00, 0xD800, 0x62, 0xD800]);
    }

    #[test]
    fn relative_indices() {
        // "abc".at(i) in node: 0 → a, -1 → c, 3 → undefined, -4 → undefined.
        assert_eq!(relative_index(3, 0.0), Some(0));
        assert_eq!(relative_index(3, -1.0), Some(2));
        assert_eq!(relative_index(3, 3.0), None);
        assert_eq!(relative_index(3, -4.0), None);
        assert_eq!(relative_index(3, f64::INFINITY), None);
        assert_eq!(relative_index(3, f64::NEG_INFINITY), None);
        assert_eq!(relative_index(0, -0.0), None);
    }

    #[test]
    fn encode_and_print() {
        let mut v = Vec::new();
        push_code_point(&mut v, 0x1F600);
        push_code_point(&mut v, 0x41);
        push_code_point(&mut v, 0xDC00);
        assert_eq!(v, vec![0xD83D, 0xDE00, 0x41, 0xDC00]);
        assert_eq!(utf16_to_string_lossy(&v), "😀A\u{FFFD}");
        assert_eq!(utf16_to_string_lossy(b"caf\xe9".as_slice()), "café");
        assert!(is_well_formed(&v[..3]));
        assert!(!is_well_formed(&v));
        assert_eq!(to_well_formed(&[0x61u16, 0xD800, 0xD83D, 0xDE00]), vec![0x61, 0xFFFD, 0xD83D, 0xDE00]);
    }

    #[test]
    fn searching_matches_node() {
        // "abcabc".indexOf("bc", k) / lastIndexOf("bc", k) in node.
        let s = u("abcabc");
        let bc = u("bc");
        assert_eq!(index_of(&s, &bc, 0), Some(1));
        assert_eq!(index_of(&s, &bc, 2), Some(4));
        assert_eq!(index_of(&s, &bc, 5), None);
        assert_eq!(index_of(&s, &u(""), 6), Some(6));
        assert_eq!(index_of(&s, &u(""), 7), None);
        assert_eq!(index_of(&s, &u("abcabcd"), 0), None);
        assert_eq!(last_index_of(&s, &bc, 6), Some(4));
        assert_eq!(last_index_of(&s, &bc, 3), Some(1));
        assert_eq!(last_index_of(&s, &bc, 0), None);
        assert_eq!(last_index_of(&s, &u(""), 9), Some(6));
        // Mixed widths.
        assert_eq!(index_of(b"caf\xe9!".as_slice(), &u("\u{e9}!"), 0), Some(3));
        assert_eq!(compare(b"ab".as_slice(), &u("ab")), std::cmp::Ordering::Equal);
        assert_eq!(compare(&u("\u{ff}"), &u("\u{100}")), std::cmp::Ordering::Less);
        // Code unit order, not code point order: U+FF61 > U+D83D U+DE00 ("😀").
        assert_eq!(compare(&u("\u{ff61}"), &u("😀")), std::cmp::Ordering::Greater);
        assert_eq!(compare(&u("a"), &u("ab")), std::cmp::Ordering::Less);
        assert!(equals(b"abc".as_slice(), &u("abc")));
        assert!(!equals(b"abc".as_slice(), &u("abd")));
    }

    #[test]
    fn case_conversion_matches_node() {
        // (input, toUpperCase(), toLowerCase()) from node.
        let cases: &[(&str, &str, &str)] = &[
            ("Hello, World!", "HELLO, WORLD!", "hello, world!"),
            ("ß", "SS", "ß"),
            ("straße", "STRASSE", "straße"),
            ("ΑΣ", "ΑΣ", "ας"),
            ("ΑΣ Α", "ΑΣ Α", "ας α"),
            ("Σ", "Σ", "σ"),
            ("ΑΣΑ", "ΑΣΑ", "ασα"),
            ("ΑΣ.", "ΑΣ.", "ας."),
            ("Α.Σ", "Α.Σ", "α.ς"),
            ("A\u{301}Σ", "A\u{301}Σ", "a\u{301}ς"),
            ("ΑΣ\u{301}", "ΑΣ\u{301}", "ας\u{301}"),
            ("ΌΣΟΣ ΣΑΣ", "ΌΣΟΣ ΣΑΣ", "όσος σας"),
            ("İ", "İ", "i\u{307}"),
            ("ŉ", "ʼN", "ŉ"),
            ("ǰ", "J\u{30c}", "ǰ"),
            ("ﬃ", "FFI", "ﬃ"),
            ("ΐ", "\u{399}\u{308}\u{301}", "ΐ"),
            ("ᾳ", "ΑΙ", "ᾳ"),
            ("ᾼ", "ΑΙ", "ᾳ"),
            ("ǅ", "Ǆ", "ǆ"),
            ("ſ", "S", "ſ"),
            ("\u{212a}", "\u{212a}", "k"),
            ("ẞ", "ẞ", "ß"),
            ("µ", "Μ", "µ"),
            ("ÿ", "Ÿ", "ÿ"),
            ("\u{10400}", "\u{10400}", "\u{10428}"),
            ("\u{10428}", "\u{10400}", "\u{10428}"),
            ("a😀z", "A😀Z", "a😀z"),
            ("ꭰ", "Ꭰ", "ꭰ"),
        ];
        for &(s, up, low) in cases {
            assert_eq!(to_upper_case(&u(s)), u(up), "{s:?}.toUpperCase()");
            assert_eq!(to_lower_case(&u(s)), u(low), "{s:?}.toLowerCase()");
        }
    }

    #[test]
    fn case_conversion_keeps_lone_surrogates() {
        // From node: "a\ud800b".toUpperCase() === "A\ud800B", "ΑΣ\ud800".toLowerCase() ===
        // "ας\ud800", "Α\ud800Σ".toLowerCase() === "α\ud800σ".
        assert_eq!(to_upper_case(&[0x61u16, 0xD800, 0x62]), vec![0x41, 0xD800, 0x42]);
        assert_eq!(to_lower_case(&[0xDC00u16, 0x41]), vec![0xDC00, 0x61]);
        assert_eq!(to_lower_case(&[0x391u16, 0x3A3, 0xD800]), vec![0x3B1, 0x3C2, 0xD800]);
        assert_eq!(to_lower_case(&[0x391u16, 0xD800, 0x3A3]), vec![0x3B1, 0xD800, 0x3C3]);
        // One-byte input.
        assert_eq!(to_upper_case(b"stra\xdfe".as_slice()), u("STRASSE"));
    }
}
