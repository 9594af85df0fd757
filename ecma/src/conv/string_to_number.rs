//! String → Number conversions: StringToNumber (the ToNumber of a string, 7.1.4.1.1),
//! the global `parseInt` (19.2.5) and `parseFloat` (19.2.4).
//!
//! Inputs are JavaScript strings as code unit slices (`&[u16]`, or `&[u8]` for one-byte
//! strings, through [`CodeUnit`]). Decimal text is validated here against the spec
//! grammar and then handed to Rust's `str::parse::<f64>`, which is correctly rounded
//! for any number of digits; Rust's own grammar is more permissive ("inf", "NaN",
//! "infinity") so it never sees text that JavaScript would reject. Power-of-two radixes
//! (0x/0o/0b literals, parseInt with radix 2, 4, 8, 16, 32) are rounded exactly once
//! (to nearest, ties to even); parseInt in the other radixes reproduces V8's chunked
//! approximation, which the spec permits, so results print as in node.

use super::string_ops::{is_trimmable, trim_range, CodeUnit, TrimWhere};

/// The value of an ASCII digit or letter in radixes up to 36, or `None`.
#[inline]
fn digit_value(u: u16) -> Option<u32> {
    let v = match u {
        0x30..=0x39 => u - 0x30,
        0x41..=0x5A => u - 0x41 + 10,
        0x61..=0x7A => u - 0x61 + 10,
        _ => return None,
    };
    Some(v as u32)
}

/// The number whose digits in the power-of-two `radix` are `digits` (each already
/// < radix), rounded to the nearest double with ties to even, in one pass without big
/// integers. Used for 0x/0o/0b literals and parseInt.
fn power_of_two_digits_to_f64(digits: impl Iterator<Item = u32>, radix: u32) -> f64 {
    debug_assert!(radix.is_power_of_two() && (2..=32).contains(&radix));
    let bits = radix.trailing_zeros();
    // The leading digits go into a 64-bit significand; the first significant digit has
    // at least one bit set, so it holds at least 64 − bits + 1 ≥ 60 significant bits.
    let mut significand = 0u64;
    let mut used = 0;
    // Digits past the significand only scale the value and decide the rounding.
    let mut exponent = 0i64;
    let mut sticky = false;
    for d in digits.skip_while(|&d| d == 0) {
        if used + bits <= 64 {
            significand = (significand << bits) | d as u64;
            used += bits;
        } else {
            exponent += bits as i64;
            sticky |= d != 0;
        }
    }
    // Fold the dropped bits into the last bit ("round to odd"): with at least two bits
    // to spare beyond the double's 53, the final `u64 as f64` (round to nearest even)
    // then rounds exactly as the whole number would.
    if sticky {
        significand |= 1;
    }
    // The scaling is exact (a power of two) unless it overflows to Infinity, which is
    // then the right answer.
    (significand as f64) * 2f64.powi(exponent.min(2000) as i32)
}

/// parseInt's value for radixes that are neither 10 nor a power of two, where 19.2.5
/// step 14 allows an implementation-approximated integer. To print what node prints,
/// this accumulates like V8: digits are gathered exactly into 32-bit chunks (as many as
/// keep `radix^k` below 2^32 / 36), and each chunk is folded into the running double
/// with one multiply and one add, so values above 2^53 carry V8's rounding.
fn chunked_digits_to_f64(digits: impl Iterator<Item = u32>, radix: u32) -> f64 {
    const MAX_MULTIPLIER: u32 = u32::MAX / 36;
    let mut value = 0.0f64;
    let mut part = 0u32;
    let mut multiplier = 1u32;
    for d in digits {
        let m = multiplier * radix;
        if m > MAX_MULTIPLIER {
            value = value * multiplier as f64 + part as f64;
            part = 0;
            multiplier = radix;
        } else {
            multiplier = m;
        }
        part = part * radix + d;
    }
    value * multiplier as f64 + part as f64
}

/// The longest prefix of `s` (starting at `start`) that matches StrUnsignedDecimalLiteral
/// without "Infinity": `digits [. digits] [e [+-] digits]` or `. digits [e ...]`. Returns
/// the end of the match, or `None` if not even one digit matches.
fn scan_decimal<T: CodeUnit>(s: &[T], start: usize) -> Option<usize> {
    let at = |i: usize| s.get(i).map(|u| u.unit());
    let is_digit = |i: usize| matches!(at(i), Some(0x30..=0x39));
    let mut i = start;
    let mut any_digit = false;
    while is_digit(i) {
        i += 1;
        any_digit = true;
    }
    if at(i) == Some(b'.' as u16) {
        let mut j = i + 1;
        while is_digit(j) {
            j += 1;
            any_digit = true;
        }
        // "5." is a literal (DecimalDigits . DecimalDigits_opt), "." alone is not.
        if any_digit {
            i = j;
        }
    }
    if !any_digit {
        return None;
    }
    // ExponentPart only if at least one digit follows the optional sign.
    if matches!(at(i), Some(0x45 | 0x65)) {
        let mut j = i + 1;
        if matches!(at(j), Some(0x2B | 0x2D)) {
            j += 1;
        }
        if is_digit(j) {
            while is_digit(j) {
                j += 1;
            }
            i = j;
        }
    }
    Some(i)
}

/// Parses `s[start..end]`, which [`scan_decimal`] matched, as a correctly rounded double.
fn parse_decimal<T: CodeUnit>(s: &[T], start: usize, end: usize, negative: bool) -> f64 {
    let mut text = String::with_capacity(end - start + 2);
    if negative {
        text.push('-');
    }
    let mut i = start;
    while i < end {
        let c = s[i].unit() as u8;
        if c == b'e' || c == b'E' {
            break;
        }
        text.push(c as char);
        i += 1;
    }
    if i < end {
        // Clamp the exponent: beyond ±10^6 (more than any digit count we could be given
        // shifts it) the result is already 0 or Infinity, and the clamp keeps huge
        // exponent strings ("1e99999999999999999999") from overflowing.
        i += 1;
        let mut exp_negative = false;
        if matches!(s[i].unit(), 0x2B | 0x2D) {
            exp_negative = s[i].unit() == 0x2D;
            i += 1;
        }
        let limit: i64 = 1_000_000_000;
        let mut exp: i64 = 0;
        while i < end {
            exp = (exp * 10 + (s[i].unit() - 0x30) as i64).min(limit);
            i += 1;
        }
        text.push('e');
        if exp_negative {
            text.push('-');
        }
        text.push_str(&exp.to_string());
    }
    text.parse::<f64>().unwrap_or(f64::NAN)
}

/// ECMA-262 7.1.4.1.1 StringToNumber(str): the ToNumber of a string.
///
/// Leading and trailing StrWhiteSpaceChar are ignored; the empty (or all-whitespace)
/// string is 0; `Infinity` with an optional sign; `0x`/`0o`/`0b` integers without a
/// sign; decimal literals with optional sign, fraction and exponent. Anything else
/// (including numeric separators `1_000`, `inf`, `NaN`, a sign before `0x`) is NaN.
pub fn string_to_number<T: CodeUnit>(s: &[T]) -> f64 {
    // 1–2. Parse StringNumericLiteral; whitespace around the literal is allowed.
    let range = trim_range(s, TrimWhere::Both);
    let s = &s[range];
    // StringNumericLiteral ::: StrWhiteSpace_opt → 0.
    if s.is_empty() {
        return 0.0;
    }
    let at = |i: usize| s.get(i).map(|u| u.unit());
    // NonDecimalIntegerLiteral: 0x / 0o / 0b followed by at least one digit.
    if s.len() > 2 && at(0) == Some(b'0' as u16) {
        let radix = match at(1) {
            Some(0x58 | 0x78) => 16,
            Some(0x4F | 0x6F) => 8,
            Some(0x42 | 0x62) => 2,
            _ => 0,
        };
        if radix != 0 {
            let body = &s[2..];
            if !body.iter().all(|u| digit_value(u.unit()).is_some_and(|d| d < radix)) {
                return f64::NAN;
            }
            let digits = body.iter().map(|u| digit_value(u.unit()).unwrap_or(0));
            return power_of_two_digits_to_f64(digits, radix);
        }
    }
    // StrDecimalLiteral ::: [+-] StrUnsignedDecimalLiteral.
    let (negative, start) = match at(0) {
        Some(0x2B) => (false, 1),
        Some(0x2D) => (true, 1),
        _ => (false, 0),
    };
    if is_infinity(&s[start..]) && s.len() - start == 8 {
        return if negative { f64::NEG_INFINITY } else { f64::INFINITY };
    }
    match scan_decimal(s, start) {
        Some(end) if end == s.len() => parse_decimal(s, start, end, negative),
        _ => f64::NAN,
    }
}

/// Whether `s` starts with "Infinity".
fn is_infinity<T: CodeUnit>(s: &[T]) -> bool {
    const INFINITY: &[u8] = b"Infinity";
    s.len() >= INFINITY.len() && s.iter().zip(INFINITY).all(|(u, &b)| u.unit() == b as u16)
}

/// ECMA-262 19.2.4 parseFloat(string), steps 2–6, on the already ToString'd input:
/// the longest prefix (after leading whitespace) that is a StrDecimalLiteral, or NaN.
pub fn parse_float<T: CodeUnit>(s: &[T]) -> f64 {
    // 2. Let trimmedString be ! TrimString(inputString, start).
    let start = s.iter().position(|u| !is_trimmable(u.unit())).unwrap_or(s.len());
    let s = &s[start..];
    let (negative, start) = match s.first().map(|u| u.unit()) {
        Some(0x2B) => (false, 1),
        Some(0x2D) => (true, 1),
        _ => (false, 0),
    };
    // 3–4. The longest prefix satisfying StrDecimalLiteral ("Infinity" included).
    if is_infinity(&s[start..]) {
        return if negative { f64::NEG_INFINITY } else { f64::INFINITY };
    }
    match scan_decimal(s, start) {
        // 5. Let parsedNumber be ParseText(numberString, StrDecimalLiteral); 6. return
        // its StringNumericValue (−0 for "-0").
        Some(end) => parse_decimal(s, start, end, negative),
        // 4. If neither trimmedString nor any prefix satisfies the syntax, return NaN.
        None => f64::NAN,
    }
}

/// ECMA-262 19.2.5 parseInt(string, radix), steps 2–16, on the already ToString'd input
/// and `radix` = ToInt32(radix) (0 when radix is undefined).
pub fn parse_int<T: CodeUnit>(s: &[T], radix: i32) -> f64 {
    // 2. Let S be ! TrimString(inputString, start).
    let start = s.iter().position(|u| !is_trimmable(u.unit())).unwrap_or(s.len());
    let mut s = &s[start..];
    // 3–5. The sign.
    let mut negative = false;
    if let Some(first) = s.first().map(|u| u.unit()) {
        if first == 0x2D {
            negative = true;
        }
        if first == 0x2B || first == 0x2D {
            s = &s[1..];
        }
    }
    // 6–9. R, and whether a 0x prefix may be stripped.
    let mut strip_prefix = true;
    let mut r = radix;
    if r != 0 {
        if !(2..=36).contains(&r) {
            return f64::NAN;
        }
        if r != 16 {
            strip_prefix = false;
        }
    } else {
        r = 10;
    }
    // 10. Strip "0x" / "0X" and use radix 16.
    if strip_prefix && s.len() >= 2 && s[0].unit() == 0x30 && matches!(s[1].unit(), 0x58 | 0x78) {
        s = &s[2..];
        r = 16;
    }
    let r = r as u32;
    // 11–12. Z is the longest prefix of radix-R digits.
    let end = s.iter().position(|u| digit_value(u.unit()).is_none_or(|d| d >= r)).unwrap_or(s.len());
    let z = &s[..end];
    // 13. If Z is empty, return NaN.
    if z.is_empty() {
        return f64::NAN;
    }
    // 14. mathInt is the integer value Z represents in radix R. For radix 10 the digits
    // go through the correctly rounded decimal parser; other radixes are exact too.
    let digits = z.iter().map(|u| digit_value(u.unit()).unwrap_or(0));
    let value = if r == 10 {
        parse_decimal(z, 0, z.len(), false)
    } else if r.is_power_of_two() {
        power_of_two_digits_to_f64(digits, r)
    } else {
        // Leading zeros are skipped before chunking, which shifts the chunk boundaries.
        chunked_digits_to_f64(digits.skip_while(|&d| d == 0), r)
    };
    // 15–16. sign × mathInt, with −0 for a negative zero.
    if negative {
        -value
    } else {
        value
    }
}

/// Whether `s` is an array index (6.1.7: a canonical numeric string for an integer in
/// 0..2^32 − 1, i.e. ToString(ToUint32(s)) is s and the value is not 2^32 − 1), and
/// its value. "0" is an index, "01", "+1", "1.0" and "4294967295" are not.
pub fn array_index<T: CodeUnit>(s: &[T]) -> Option<u32> {
    let (&first, rest) = s.split_first()?;
    if s.len() > 10 || !(0x30..=0x39).contains(&first.unit()) || (first.unit() == 0x30 && !rest.is_empty()) {
        return None;
    }
    let mut value = 0u64;
    for u in s {
        let d = u.unit().wrapping_sub(0x30);
        if d > 9 {
            return None;
        }
        value = value * 10 + d as u64;
    }
    u32::try_from(value).ok().filter(|&v| v != u32::MAX)
}

/// 7.1.21 CanonicalNumericIndexString(argument): the Number whose ToString is exactly
/// `s` (and −0 for "-0"), or `None` (undefined) if `s` is not such a string.
pub fn canonical_numeric_index_string<T: CodeUnit>(s: &[T]) -> Option<f64> {
    // 1. If argument is "-0", return −0𝔽.
    if s.len() == 2 && s[0].unit() == 0x2D && s[1].unit() == 0x30 {
        return Some(-0.0);
    }
    // 2. Let n be ! ToNumber(argument).
    let n = string_to_number(s);
    // 3. If ! ToString(n) is argument, return n; 4. return undefined.
    let text = crate::conv::number_to_string::number_to_string(n);
    (text.len() == s.len() && text.bytes().zip(s).all(|(b, u)| b as u16 == u.unit())).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conv::string_ops::str_to_utf16;

    /// Formats like node's console.log of a number, with "-0" for negative zero.
    fn show(x: f64) -> String {
        if x == 0.0 && x.is_sign_negative() {
            "-0".to_owned()
        } else {
            crate::conv::number_to_string::number_to_string(x)
        }
    }

    // (input, Number(s), parseFloat(s), parseInt(s)) from node.
    const CASES: &[(&str, &str, &str, &str)] = &[
        ("", "0", "NaN", "NaN"),
        (" ", "0", "NaN", "NaN"),
        ("\u{a0}\u{2028}\u{feff} 12 \u{3000}\n", "12", "12", "12"),
        ("1e1000", "Infinity", "Infinity", "1"),
        ("-1e1000", "-Infinity", "-Infinity", "-1"),
        ("1e-1000", "0", "0", "1"),
        (".5", "0.5", "0.5", "NaN"),
        ("5.", "5", "5", "5"),
        (".", "NaN", "NaN", "NaN"),
        ("1_000", "NaN", "1", "1"),
        ("0x1F", "31", "0", "31"),
        ("0X1f", "31", "0", "31"),
        ("-0x10", "NaN", "-0", "-16"),
        ("+0x10", "NaN", "0", "16"),
        ("0x", "NaN", "0", "NaN"),
        ("0o17", "15", "0", "0"),
        ("0b101", "5", "0", "0"),
        ("0b102", "NaN", "0", "0"),
        ("0o8", "NaN", "0", "0"),
        ("Infinity", "Infinity", "Infinity", "NaN"),
        ("-Infinity", "-Infinity", "-Infinity", "NaN"),
        ("+Infinity", "Infinity", "Infinity", "NaN"),
        ("infinity", "NaN", "NaN", "NaN"),
        ("INFINITY", "NaN", "NaN", "NaN"),
        ("inf", "NaN", "NaN", "NaN"),
        ("NaN", "NaN", "NaN", "NaN"),
        ("1e", "NaN", "1", "1"),
        ("1e+", "NaN", "1", "1"),
        ("+.5e-2", "0.005", "0.005", "NaN"),
        ("-0", "-0", "-0", "-0"),
        ("  -0  ", "-0", "-0", "-0"),
        ("00012", "12", "12", "12"),
        ("1.2.3", "NaN", "1.2", "1"),
        ("12abc", "NaN", "12", "12"),
        ("0x1fffffffffffff1", "144115188075855860", "0", "144115188075855860"),
        ("0b111111111111111111111111111111111111111111111111111111111111", "1152921504606847000", "0", "0"),
        (
            "123456789012345678901234567890",
            "1.2345678901234568e+29",
            "1.2345678901234568e+29",
            "1.2345678901234568e+29",
        ),
        ("1e99999999999999999999", "Infinity", "Infinity", "1"),
        ("1e-99999999999999999999", "0", "0", "1"),
        ("\u{180e}1", "NaN", "NaN", "NaN"),
        ("1\u{180e}", "NaN", "1", "1"),
        ("\u{663}", "NaN", "NaN", "NaN"),
        ("1 2", "NaN", "1", "1"),
        ("+-1", "NaN", "NaN", "NaN"),
        ("- 1", "NaN", "NaN", "NaN"),
        ("0x1p3", "NaN", "0", "1"),
        ("1d", "NaN", "1", "1"),
        ("1f", "NaN", "1", "1"),
        ("0.1e-0", "0.1", "0.1", "0"),
        ("1E5", "100000", "100000", "1"),
        ("\u{200b}1", "NaN", "NaN", "NaN"),
        ("\u{2028}1\u{2029}", "1", "1", "1"),
        ("\u{85}1", "NaN", "NaN", "NaN"),
    ];

    #[test]
    fn string_to_number_matches_node() {
        for &(s, number, _, _) in CASES {
            assert_eq!(show(string_to_number(&str_to_utf16(s))), number, "Number({s:?})");
        }
        // The smallest subnormal written out in full (from node: 5e-324).
        let long = format!("0.{}49406564584124654", "0".repeat(323));
        assert_eq!(show(string_to_number(&str_to_utf16(&long))), "5e-324");
        // One-byte strings work the same.
        assert_eq!(string_to_number(b"\xa0 0x10 ".as_slice()), 16.0);
    }

    #[test]
    fn parse_float_matches_node() {
        for &(s, _, float, _) in CASES {
            assert_eq!(show(parse_float(&str_to_utf16(s))), float, "parseFloat({s:?})");
        }
        let more: &[(&str, &str)] = &[
            ("Infinityx", "Infinity"),
            ("-Infinity1", "-Infinity"),
            ("1e5x", "100000"),
            ("1e+x", "1"),
            ("  .5.", "0.5"),
            (".e1", "NaN"),
            ("-.5", "-0.5"),
            ("+.", "NaN"),
            ("1.e3", "1000"),
            ("0x10", "0"),
            ("1_0", "1"),
            ("-", "NaN"),
            ("Infin", "NaN"),
            ("1.5e-3.2", "0.0015"),
            ("\u{a0}\u{1680}3.25", "3.25"),
        ];
        for &(s, float) in more {
            assert_eq!(show(parse_float(&str_to_utf16(s))), float, "parseFloat({s:?})");
        }
    }

    #[test]
    fn parse_int_matches_node() {
        for &(s, _, _, int) in CASES {
            assert_eq!(show(parse_int(&str_to_utf16(s), 0)), int, "parseInt({s:?})");
        }
        // (input, ToInt32(radix), parseInt(s, radix)) from node.
        let with_radix: &[(&str, i32, &str)] = &[
            ("  0x1F", 0, "31"),
            ("0x1F", 16, "31"),
            ("0x1F", 10, "0"),
            ("1F", 16, "31"),
            ("z", 36, "35"),
            ("Z", 36, "35"),
            ("10", 2, "2"),
            ("12", 2, "1"),
            ("-0", 10, "-0"),
            ("-0x", 16, "NaN"),
            ("0x", 16, "NaN"),
            ("", 10, "NaN"),
            ("11", 1, "NaN"),
            ("11", 37, "NaN"),
            ("11", -1, "NaN"),
            ("11", 0, "11"),
            ("-ff", 16, "-255"),
            ("  +7", 8, "7"),
            ("9007199254740993", 10, "9007199254740992"),
            ("9007199254740993", 8, "NaN"),
            ("zzzzzzzzzzzzzzzzzzzz", 36, "1.3367494538843734e+31"),
            ("0.00000001", 10, "0"),
            ("1e3", 10, "1"),
            ("12345678901234567890123", 10, "1.2345678901234568e+22"),
            ("123456789abcdef123456789", 16, "5.63400266768102e+27"),
            ("12121212121212121212121212121", 3, "42893985853051"),
            // Above 2^53 in radixes other than 10 and powers of two, node's value carries
            // V8's chunked rounding, which differs from the exact rounding in the last bit.
            ("0xuzdgah37in5spac", 36, "7.485701720906247e+24"),
            ("3488070032251498000", 36, "3.2154760669624503e+28"),
            ("4y6yumax0tvlun", 36, "844349027549907100000"),
            ("0pizghepby4vhm", 36, "120958363743018860000"),
            ("12121212121212121212121212121212121212", 3, "844282323545620100"),
            ("66666666666666666666666", 7, "27368747340080914000"),
        ];
        for &(s, r, int) in with_radix {
            assert_eq!(show(parse_int(&str_to_utf16(s), r)), int, "parseInt({s:?}, {r})");
        }
        let ones = "1".repeat(100);
        assert_eq!(show(parse_int(&str_to_utf16(&ones), 2)), "1.2676506002282294e+30");
    }

    #[test]
    fn array_indices() {
        let cases: &[(&str, Option<u32>)] = &[
            ("0", Some(0)),
            ("7", Some(7)),
            ("4294967294", Some(4294967294)),
            ("4294967295", None),
            ("4294967296", None),
            ("99999999999", None),
            ("01", None),
            ("00", None),
            ("+1", None),
            ("-0", None),
            ("1.0", None),
            ("1e3", None),
            ("", None),
            (" 1", None),
        ];
        for &(s, expected) in cases {
            assert_eq!(array_index(s.as_bytes()), expected, "{s:?}");
            assert_eq!(array_index(&str_to_utf16(s)), expected, "{s:?}");
        }
    }

    #[test]
    fn canonical_numeric_strings() {
        let z = canonical_numeric_index_string(b"-0".as_slice()).unwrap();
        assert!(z == 0.0 && z.is_sign_negative());
        assert_eq!(canonical_numeric_index_string(b"1.5".as_slice()), Some(1.5));
        assert_eq!(canonical_numeric_index_string(b"1e+21".as_slice()), Some(1e21));
        assert_eq!(canonical_numeric_index_string(b"-Infinity".as_slice()), Some(f64::NEG_INFINITY));
        assert!(canonical_numeric_index_string(b"NaN".as_slice()).is_some_and(f64::is_nan));
        assert_eq!(canonical_numeric_index_string(b"1.50".as_slice()), None);
        assert_eq!(canonical_numeric_index_string(b"01".as_slice()), None);
        assert_eq!(canonical_numeric_index_string(b"".as_slice()), None);
        assert_eq!(canonical_numeric_index_string(b"1e21".as_slice()), None);
    }

    #[test]
    fn power_of_two_radix_rounds_to_even() {
        // 2^53 + 1 is halfway between 2^53 and 2^53 + 2: ties to even gives 2^53; 2^53 + 3
        // rounds up to 2^53 + 4 (node: 9007199254740992 and 9007199254740996).
        assert_eq!(show(string_to_number(b"0x20000000000001".as_slice())), "9007199254740992");
        assert_eq!(show(string_to_number(b"0x20000000000003".as_slice())), "9007199254740996");
        assert_eq!(show(parse_int(b"20000000000003".as_slice(), 16)), "9007199254740996");
        // Past the double range.
        let huge = format!("0x{}", "f".repeat(300));
        assert_eq!(show(string_to_number(huge.as_bytes())), "Infinity");
    }
}
