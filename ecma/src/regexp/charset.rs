//! Character sets as sorted ranges, the built-in class escapes (`\d`, `\s`, `\w`) and the
//! legacy (non-Unicode) case folding of 22.2.2.7.3 Canonicalize.
//!
//! A "character" here is a code unit in legacy mode and a code point in Unicode mode; the
//! set does not care, it only holds `u32` values.

use std::collections::HashMap;
use std::sync::OnceLock;

/// The largest code point.
pub(super) const MAX_CODE_POINT: u32 = 0x10FFFF;
/// The largest code unit: the largest character of legacy (non-Unicode) mode.
pub(super) const MAX_CODE_UNIT: u32 = 0xFFFF;

/// A set of characters: sorted, disjoint, non-adjacent inclusive ranges.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct CharSet {
    ranges: Vec<(u32, u32)>,
}

impl CharSet {
    pub(super) fn new() -> CharSet {
        CharSet { ranges: Vec::new() }
    }

    pub(super) fn from_ranges(ranges: &[(u32, u32)]) -> CharSet {
        let mut s = CharSet::new();
        for &(lo, hi) in ranges {
            s.add_range(lo, hi);
        }
        s
    }

    pub(super) fn single(c: u32) -> CharSet {
        CharSet { ranges: vec![(c, c)] }
    }

    pub(super) fn ranges(&self) -> &[(u32, u32)] {
        &self.ranges
    }

    pub(super) fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Number of ranges (not characters).
    pub(super) fn range_count(&self) -> usize {
        self.ranges.len()
    }

    pub(super) fn contains(&self, c: u32) -> bool {
        self.ranges
            .binary_search_by(|&(lo, hi)| {
                if hi < c {
                    std::cmp::Ordering::Less
                } else if lo > c {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                }
            })
            .is_ok()
    }

    pub(super) fn add(&mut self, c: u32) {
        self.add_range(c, c);
    }

    pub(super) fn add_range(&mut self, lo: u32, hi: u32) {
        debug_assert!(lo <= hi);
        // The first range that could touch [lo, hi]: its end reaches lo - 1 or beyond.
        let start = self.ranges.partition_point(|&(_, h)| h.saturating_add(1) < lo);
        let mut end = start;
        let (mut new_lo, mut new_hi) = (lo, hi);
        while end < self.ranges.len() && self.ranges[end].0 <= hi.saturating_add(1) {
            new_lo = new_lo.min(self.ranges[end].0);
            new_hi = new_hi.max(self.ranges[end].1);
            end += 1;
        }
        self.ranges.splice(start..end, [(new_lo, new_hi)]);
    }

    pub(super) fn add_set(&mut self, other: &CharSet) {
        for &(lo, hi) in &other.ranges {
            self.add_range(lo, hi);
        }
    }

    /// The complement within `0..=max`.
    pub(super) fn complement(&self, max: u32) -> CharSet {
        let mut out = Vec::with_capacity(self.ranges.len() + 1);
        let mut next = 0u32;
        for &(lo, hi) in &self.ranges {
            if lo > max {
                break;
            }
            if lo > next {
                out.push((next, lo - 1));
            }
            next = hi.saturating_add(1);
        }
        if next <= max && self.ranges.last().is_none_or(|&(_, hi)| hi < max) {
            out.push((next, max));
        }
        CharSet { ranges: out }
    }

    /// Iterates over every character (use on small sets only).
    pub(super) fn chars(&self) -> impl Iterator<Item = u32> + '_ {
        self.ranges.iter().flat_map(|&(lo, hi)| lo..=hi)
    }
}

/// `\d`: DecimalDigit.
pub(super) fn digit_set() -> CharSet {
    CharSet::from_ranges(&[(0x30, 0x39)])
}

/// `\s`: WhiteSpace and LineTerminator (12.2, 12.3); USP is the Zs category.
pub(super) fn space_set() -> CharSet {
    CharSet::from_ranges(&[
        (0x09, 0x0D), // TAB LF VT FF CR
        (0x20, 0x20),
        (0xA0, 0xA0),
        (0x1680, 0x1680),
        (0x2000, 0x200A),
        (0x2028, 0x2029),
        (0x202F, 0x202F),
        (0x205F, 0x205F),
        (0x3000, 0x3000),
        (0xFEFF, 0xFEFF),
    ])
}

/// `\w`: WordCharacters (22.2.2.9.4). With both Unicode mode and ignoreCase it also holds
/// the characters that Canonicalize to a basic word character: U+017F LATIN SMALL LETTER
/// LONG S (to `s`) and U+212A KELVIN SIGN (to `k`).
pub(super) fn word_set(unicode_ignore_case: bool) -> CharSet {
    let mut s = CharSet::from_ranges(&[(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)]);
    if unicode_ignore_case {
        s.add(0x017F);
        s.add(0x212A);
    }
    s
}

/// Line terminators, the characters `.` does not match without `s`.
pub(super) fn line_terminator_set() -> CharSet {
    CharSet::from_ranges(&[(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)])
}

/// Legacy case folding: the equivalence classes of code units under Canonicalize with
/// ignoreCase and neither Unicode flag, keeping only the classes with two or more members.
struct LegacyFold {
    /// Class index of each code unit that shares its canonical value with another one.
    class_of: HashMap<u16, usize>,
    /// Members of each class, sorted.
    classes: Vec<Vec<u16>>,
    /// Every code unit that appears in some class, sorted.
    members: Vec<u16>,
}

/// 22.2.2.7.3 Canonicalize (rer, ch) with rer.[[IgnoreCase]] true and HasEitherUnicodeFlag
/// false: the single-code-unit full uppercase of `ch`, unless that maps a non-ASCII unit to
/// an ASCII one.
fn canonicalize_legacy(ch: u16) -> u16 {
    // 1-2. Surrogates are not characters; they have no case.
    let Some(c) = char::from_u32(u32::from(ch)) else {
        return ch;
    };
    // 3-4. toUppercase per the Unicode Default Case Conversion algorithm; if the result is
    // not exactly one code unit, return ch.
    let mut upper = c.to_uppercase();
    let (Some(u), None) = (upper.next(), upper.next()) else {
        return ch;
    };
    let Ok(cu) = u16::try_from(u32::from(u)) else {
        return ch;
    };
    // 5-6. Do not map non-ASCII characters to ASCII.
    if ch >= 128 && cu < 128 {
        return ch;
    }
    cu
}

fn legacy_fold() -> &'static LegacyFold {
    static FOLD: OnceLock<LegacyFold> = OnceLock::new();
    FOLD.get_or_init(|| {
        let canon: Vec<u16> = (0..=u16::MAX).map(canonicalize_legacy).collect();
        // A class is keyed by its canonical value: the units mapping to it, and the value
        // itself when it is its own canonical form.
        let mut by_canon: HashMap<u16, Vec<u16>> = HashMap::new();
        for (unit, &c) in (0..=u16::MAX).zip(&canon) {
            if c != unit {
                by_canon.entry(c).or_default().push(unit);
            }
        }
        let mut classes: Vec<Vec<u16>> = by_canon
            .into_iter()
            .map(|(c, mut members)| {
                if canon[usize::from(c)] == c {
                    members.push(c);
                }
                members.sort_unstable();
                members
            })
            .filter(|members| members.len() > 1)
            .collect();
        classes.sort();
        let mut class_of = HashMap::new();
        let mut members = Vec::new();
        for (index, class) in classes.iter().enumerate() {
            for &unit in class {
                class_of.insert(unit, index);
                members.push(unit);
            }
        }
        members.sort_unstable();
        LegacyFold { class_of, classes, members }
    })
}

/// All code units that match `c` case-insensitively in legacy mode (always including `c`).
pub(super) fn legacy_case_equivalents(c: u32) -> CharSet {
    let fold = legacy_fold();
    let mut set = CharSet::single(c);
    if let Ok(unit) = u16::try_from(c) {
        if let Some(&class) = fold.class_of.get(&unit) {
            for &member in &fold.classes[class] {
                set.add(u32::from(member));
            }
        }
    }
    set
}

/// Closes a set of code units under legacy case equivalence: the characters `ch` such that
/// some member `a` has Canonicalize(a) = Canonicalize(ch).
pub(super) fn legacy_case_closure(set: &CharSet) -> CharSet {
    let fold = legacy_fold();
    let mut out = set.clone();
    for &unit in &fold.members {
        if set.contains(u32::from(unit)) {
            for &member in &fold.classes[fold.class_of[&unit]] {
                out.add(u32::from(member));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_range_merges_overlapping_and_adjacent() {
        let mut s = CharSet::new();
        s.add_range(10, 20);
        s.add_range(30, 40);
        s.add_range(21, 29);
        assert_eq!(s.ranges(), &[(10, 40)]);
        s.add_range(5, 5);
        s.add_range(50, 60);
        s.add_range(0, 100);
        assert_eq!(s.ranges(), &[(0, 100)]);
        let mut t = CharSet::new();
        t.add(3);
        t.add(1);
        t.add(2);
        assert_eq!(t.ranges(), &[(1, 3)]);
        assert!(t.contains(2) && !t.contains(4));
    }

    #[test]
    fn complement_covers_the_gaps() {
        let s = CharSet::from_ranges(&[(0, 0), (5, 9), (0xFFFF, 0xFFFF)]);
        assert_eq!(s.complement(0xFFFF).ranges(), &[(1, 4), (10, 0xFFFE)]);
        assert_eq!(CharSet::new().complement(10).ranges(), &[(0, 10)]);
        assert!(CharSet::from_ranges(&[(0, 10)]).complement(10).is_empty());
    }

    #[test]
    fn legacy_canonicalize_follows_the_spec_rules() {
        assert_eq!(canonicalize_legacy(u16::from(b'a')), u16::from(b'A'));
        // U+017F uppercases to 'S', which is ASCII: the character stays itself.
        assert_eq!(canonicalize_legacy(0x017F), 0x017F);
        // U+00DF uppercases to "SS", two characters: it stays itself.
        assert_eq!(canonicalize_legacy(0x00DF), 0x00DF);
        // Final sigma and sigma both uppercase to U+03A3.
        assert_eq!(canonicalize_legacy(0x03C2), 0x03A3);
        assert_eq!(canonicalize_legacy(0xD800), 0xD800);
        let sigma: Vec<u32> = legacy_case_equivalents(0x03C3).chars().collect();
        assert_eq!(sigma, vec![0x03A3, 0x03C2, 0x03C3]);
        let s: Vec<u32> = legacy_case_equivalents(u32::from(b's')).chars().collect();
        assert_eq!(s, vec![0x53, 0x73]);
    }
}
