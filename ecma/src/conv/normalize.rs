//! Unicode normalization for String.prototype.normalize (22.1.3.15), with ICU4X's
//! normalizers and their compiled data.
//!
//! A string may hold lone surrogates, which normalization leaves as they are: each is a
//! starter that decomposes to itself and composes with nothing, so the text between two of
//! them normalizes on its own and the lone surrogates are copied in between.

use core::fmt;

use icu_normalizer::{ComposingNormalizerBorrowed, DecomposingNormalizerBorrowed};

/// The normalization forms `normalize` accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    Nfc,
    Nfd,
    Nfkc,
    Nfkd,
}

impl Form {
    /// The form a `normalize` argument names, if any.
    pub fn from_name(name: &str) -> Option<Form> {
        match name {
            "NFC" => Some(Form::Nfc),
            "NFD" => Some(Form::Nfd),
            "NFKC" => Some(Form::Nfkc),
            "NFKD" => Some(Form::Nfkd),
            _ => None,
        }
    }
}

/// The UTF-16 text written so far, refusing to grow past `max_len` units.
struct Limited {
    out: Vec<u16>,
    max_len: usize,
}

impl fmt::Write for Limited {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        s.encode_utf16().try_for_each(|u| self.push(u))
    }
}

impl Limited {
    fn push(&mut self, u: u16) -> fmt::Result {
        if self.out.len() >= self.max_len {
            return Err(fmt::Error);
        }
        self.out.push(u);
        Ok(())
    }

    /// Appends the normalization of `units`, which hold no lone surrogate.
    fn normalize(&mut self, units: &[u16], form: Form) -> fmt::Result {
        if units.is_empty() {
            return Ok(());
        }
        let text: String =
            char::decode_utf16(units.iter().copied()).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER)).collect();
        match form {
            Form::Nfc => ComposingNormalizerBorrowed::new_nfc().normalize_to(&text, self),
            Form::Nfkc => ComposingNormalizerBorrowed::new_nfkc().normalize_to(&text, self),
            Form::Nfd => DecomposingNormalizerBorrowed::new_nfd().normalize_to(&text, self),
            Form::Nfkd => DecomposingNormalizerBorrowed::new_nfkd().normalize_to(&text, self),
        }
    }
}

/// 22.1.3.15 String.prototype.normalize, step 6: `units` normalized to `form`, or None when
/// the result would be longer than `max_len` units (a compatibility decomposition can make
/// a string eighteen times as long; the result never grows past the limit to find out).
pub fn normalize(units: &[u16], form: Form, max_len: usize) -> Option<Vec<u16>> {
    let mut w = Limited { out: Vec::with_capacity(units.len().min(max_len)), max_len };
    let mut start = 0;
    let mut i = 0;
    while i < units.len() {
        let u = units[i];
        if (0xD800..0xDC00).contains(&u) && units.get(i + 1).is_some_and(|t| (0xDC00..0xE000).contains(t)) {
            i += 2;
            continue;
        }
        if (0xD800..0xE000).contains(&u) {
            w.normalize(&units[start..i], form).ok()?;
            w.push(u).ok()?;
            start = i + 1;
        }
        i += 1;
    }
    w.normalize(&units[start..], form).ok()?;
    Some(w.out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conv::string_ops::str_to_utf16;

    fn norm(s: &str, form: Form) -> String {
        String::from_utf16(&normalize(&str_to_utf16(s), form, usize::MAX).unwrap()).unwrap()
    }

    #[test]
    fn the_four_forms_match_node() {
        // "\u1E9B\u0323".normalize(form) in node.
        let s = "\u{1E9B}\u{0323}";
        assert_eq!(norm(s, Form::Nfc), "\u{1E9B}\u{0323}");
        assert_eq!(norm(s, Form::Nfd), "\u{017F}\u{0323}\u{0307}");
        assert_eq!(norm(s, Form::Nfkc), "\u{1E69}");
        assert_eq!(norm(s, Form::Nfkd), "\u{0073}\u{0323}\u{0307}");
        assert_eq!(norm("A\u{030A}", Form::Nfc), "\u{00C5}");
        assert_eq!(norm("\u{FDFA}", Form::Nfkd).chars().count(), 18);
    }

    #[test]
    fn lone_surrogates_stay_and_split_the_text() {
        // "e\uD800\u0301".normalize() in node: the accent does not reach the "e".
        let units = [0x65, 0xD800, 0x301, 0xDC00, 0x41, 0x30A];
        assert_eq!(normalize(&units, Form::Nfc, usize::MAX).unwrap(), [0x65, 0xD800, 0x301, 0xDC00, 0xC5]);
        // A pair is one code point and passes through.
        let pair = str_to_utf16("\u{1F600}e\u{0301}");
        assert_eq!(normalize(&pair, Form::Nfc, usize::MAX).unwrap(), str_to_utf16("\u{1F600}\u{00E9}"));
    }

    #[test]
    fn the_result_stops_at_the_limit() {
        let units = str_to_utf16("\u{FDFA}\u{FDFA}");
        assert_eq!(normalize(&units, Form::Nfkd, 36).map(|v| v.len()), Some(36));
        assert_eq!(normalize(&units, Form::Nfkd, 35), None);
        assert_eq!(normalize(&[0xD800, 0xD800], Form::Nfc, 1), None);
    }
}
