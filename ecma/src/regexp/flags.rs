//! RegExp flags: validation of the flags string (22.2.3.1 RegExpInitialize steps 5-7 and
//! 22.2.3.4 ParsePattern step 1) and their canonical spelling.

use super::RegExpError;

/// The flags of a regular expression, as validated from its flags string.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    /// `d`: build `indices` arrays on matches.
    pub has_indices: bool,
    /// `g`: global matching (the builtins use and update `lastIndex`).
    pub global: bool,
    /// `i`: case-insensitive matching.
    pub ignore_case: bool,
    /// `m`: `^` and `$` also match at line terminators.
    pub multiline: bool,
    /// `s`: `.` also matches line terminators.
    pub dot_all: bool,
    /// `u`: Unicode mode (code points, strict syntax).
    pub unicode: bool,
    /// `v`: Unicode sets mode (Unicode mode plus set operations and strings in classes).
    pub unicode_sets: bool,
    /// `y`: sticky, the match must start exactly at `lastIndex`.
    pub sticky: bool,
}

impl Flags {
    /// Parses a flags string. Every code unit must be one of `dgimsuvy`, none may repeat,
    /// and `u` and `v` exclude each other.
    pub fn parse(flags: &[u16]) -> Result<Flags, RegExpError> {
        let invalid = || RegExpError {
            message: format!("Invalid flags supplied to RegExp constructor '{}'", String::from_utf16_lossy(flags)),
        };
        let mut f = Flags::default();
        for &unit in flags {
            let slot = match unit {
                0x64 => &mut f.has_indices,  // d
                0x67 => &mut f.global,       // g
                0x69 => &mut f.ignore_case,  // i
                0x6D => &mut f.multiline,    // m
                0x73 => &mut f.dot_all,      // s
                0x75 => &mut f.unicode,      // u
                0x76 => &mut f.unicode_sets, // v
                0x79 => &mut f.sticky,       // y
                _ => return Err(invalid()),
            };
            if *slot {
                return Err(invalid());
            }
            *slot = true;
        }
        if f.unicode && f.unicode_sets {
            return Err(invalid());
        }
        Ok(f)
    }

    /// True in either Unicode mode (`u` or `v`): the pattern and the input are read as
    /// code points (HasEitherUnicodeFlag).
    pub fn either_unicode(&self) -> bool {
        self.unicode || self.unicode_sets
    }

    /// The flags in the canonical order `dgimsuvy`, as the `flags` getter spells them for
    /// a RegExp whose flag properties are the built-in ones.
    pub fn canonical(&self) -> String {
        let mut s = String::with_capacity(8);
        for (on, c) in [
            (self.has_indices, 'd'),
            (self.global, 'g'),
            (self.ignore_case, 'i'),
            (self.multiline, 'm'),
            (self.dot_all, 's'),
            (self.unicode, 'u'),
            (self.unicode_sets, 'v'),
            (self.sticky, 'y'),
        ] {
            if on {
                s.push(c);
            }
        }
        s
    }
}
