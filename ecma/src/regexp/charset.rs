//! Character sets as sorted ranges and the built-in class escapes (`\d`, `\s`, `\w`).
//!
//! A "character" here is a code unit in legacy mode and a code point in Unicode mode; the
//! set does not care, it only holds `u32` values.

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
        if other.ranges.len() <= 4 {
            for &(lo, hi) in &other.ranges {
                self.add_range(lo, hi);
            }
            return;
        }
        // Merge the two sorted lists, joining ranges that overlap or touch.
        let mut all: Vec<(u32, u32)> = Vec::with_capacity(self.ranges.len() + other.ranges.len());
        let (a, b) = (&self.ranges, &other.ranges);
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            let next = if j == b.len() || (i < a.len() && a[i].0 <= b[j].0) {
                i += 1;
                a[i - 1]
            } else {
                j += 1;
                b[j - 1]
            };
            match all.last_mut() {
                Some(last) if next.0 <= last.1.saturating_add(1) => last.1 = last.1.max(next.1),
                _ => all.push(next),
            }
        }
        self.ranges = all;
    }

    /// The characters in both sets.
    pub(super) fn intersect(&self, other: &CharSet) -> CharSet {
        let (a, b) = (&self.ranges, &other.ranges);
        let (mut i, mut j) = (0, 0);
        let mut out = Vec::new();
        while i < a.len() && j < b.len() {
            let lo = a[i].0.max(b[j].0);
            let hi = a[i].1.min(b[j].1);
            if lo <= hi {
                out.push((lo, hi));
            }
            if a[i].1 < b[j].1 {
                i += 1;
            } else {
                j += 1;
            }
        }
        CharSet { ranges: out }
    }

    /// The characters of `self` not in `other`.
    pub(super) fn subtract(&self, other: &CharSet) -> CharSet {
        self.intersect(&other.complement(MAX_CODE_POINT))
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
    #[cfg(test)]
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
}
