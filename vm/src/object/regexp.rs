//! The compiled matcher a RegExp object holds (`ecma::regexp` behind a small interface, so
//! the engine can be replaced).

/// A compiled regular expression (the `regexp` module's matcher) and the flags that affect
/// matching.
pub struct Matcher {
    compiled: ecma::regexp::CompiledRegExp,
    /// The `g` flag.
    pub global: bool,
    /// The `y` flag.
    pub sticky: bool,
    /// The `d` flag.
    pub has_indices: bool,
    /// Number of capture groups (without the whole match).
    pub captures: usize,
    /// Capture group names (empty strings for unnamed groups), if any group is named.
    pub names: Vec<String>,
}

/// One match: the whole match and each group as a code unit range.
pub struct MatchResult {
    /// `[start, end)` of each group, group 0 being the whole match.
    pub groups: Vec<Option<(usize, usize)>>,
}

/// Why matching stopped without an answer.
pub enum MatchError {
    /// The runtime's interrupt was requested.
    Interrupted,
    /// The matcher's backtracking stack outgrew its limit.
    StackOverflow,
}

impl Matcher {
    /// Compiles `pattern` with `flags` (validated here: a bad flag is an error).
    pub(crate) fn new(pattern: &[u16], flags: &[u16]) -> Result<Matcher, String> {
        let compiled = ecma::regexp::CompiledRegExp::new(pattern, flags).map_err(|e| e.message)?;
        let f = compiled.flags();
        let captures = compiled.group_count();
        let names = if compiled.has_named_groups() {
            (0..=captures)
                .skip(1)
                .map(|i| compiled.name_of_group(i).map(String::from_utf16_lossy).unwrap_or_default())
                .collect()
        } else {
            Vec::new()
        };
        Ok(Matcher { global: f.global, sticky: f.sticky, has_indices: f.has_indices, captures, names, compiled })
    }

    /// The first match starting at or after `start` (exactly at `start` if sticky, or
    /// whatever the flag when `scan`).
    pub(crate) fn exec(
        &self,
        text: crate::string::StrView<'_>,
        start: usize,
        scan: bool,
        interrupt: &dyn Fn() -> bool,
    ) -> Result<Option<MatchResult>, MatchError> {
        let subject = match text {
            crate::string::StrView::Latin1(b) => ecma::regexp::Subject::Latin1(b),
            crate::string::StrView::Utf16(u) => ecma::regexp::Subject::Utf16(u),
        };
        let found = if scan {
            self.compiled.search(subject, start, interrupt)
        } else {
            self.compiled.exec_at(subject, start, interrupt)
        };
        match found {
            Ok(Some(m)) => Ok(Some(MatchResult {
                groups: (0..=self.captures).map(|i| m.group(i).map(|r| (r.start, r.end))).collect(),
            })),
            Ok(None) => Ok(None),
            Err(ecma::regexp::ExecError::Interrupted) => Err(MatchError::Interrupted),
            Err(ecma::regexp::ExecError::StackOverflow) => Err(MatchError::StackOverflow),
        }
    }

    /// The flags.
    pub(crate) fn flags(&self) -> ecma::regexp::Flags {
        self.compiled.flags()
    }

    /// The `source` text (EscapeRegExpPattern).
    pub(crate) fn escaped_source(&self) -> Vec<u16> {
        ecma::regexp::escape_source(self.compiled.source())
    }
}
