//! ECMAScript regular expressions for the RegExp builtins, independent of the object model.
//!
//! ```text
//!  pattern, flags (UTF-16)
//!     │ Flags::parse            flags.rs   dgimsuvy, no repeats, not both u and v
//!     │ parse::parse            parse.rs, class.rs   every early error, V8's messages
//!     ▼
//!   Node tree                   ast.rs
//!     │ compile::compile        compile.rs classes as sets (case closure, v-mode algebra)
//!     ▼
//!   Program                     program.rs flat bytecode + how to scan for a start
//!     │ exec::Matcher           exec.rs    backtracking with an explicit stack
//!     ▼
//!   MatchResult (code-unit ranges of every capture)
//! ```
//!
//! Unicode data (properties, case folding, ID_Start for group names) is in `unicode.rs`.
//!
//! # Interrupts and limits
//!
//! The matcher counts its steps and polls the interrupt callback every few thousand, inside
//! a match attempt as well as between attempts, so catastrophic backtracking (`/(a+)+b/` on
//! a long run of `a`) stops soon after the embedder asks. Its stack is bounded; a match that
//! needs more fails with [`ExecError::StackOverflow`]. Compiling is linear in the pattern
//! but for counted repetitions, which are loops, not copies.

mod ast;
mod charset;
mod class;
mod compile;
mod exec;
mod flags;
mod parse;
mod program;
mod subst;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_exec;
mod unicode;

pub use flags::Flags;
pub use subst::{advance_string_index, escape_source, get_substitution, regexp_escape, NamedCaptureLookup};

use std::fmt;
use std::ops::Range;

/// A pattern or flags that do not form a valid regular expression: a SyntaxError with
/// this message, worded as V8 words it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegExpError {
    /// The whole message, e.g. `Invalid regular expression: /(/: Unterminated group`.
    pub message: String,
}

impl fmt::Display for RegExpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RegExpError {}

/// Why a match stopped without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExecError {
    /// The interrupt callback asked to stop.
    Interrupted,
    /// The backtracking stack outgrew its limit (a RangeError, as a too deep recursion).
    StackOverflow,
}

/// The code units of a subject string.
#[derive(Clone, Copy, Debug)]
pub enum Subject<'a> {
    /// One unit per byte (Latin-1).
    Latin1(&'a [u8]),
    /// UTF-16 units.
    Utf16(&'a [u16]),
}

impl Subject<'_> {
    fn len(&self) -> usize {
        match self {
            Subject::Latin1(b) => b.len(),
            Subject::Utf16(u) => u.len(),
        }
    }

    fn at(&self, i: usize) -> u16 {
        match self {
            Subject::Latin1(b) => u16::from(b[i]),
            Subject::Utf16(u) => u[i],
        }
    }
}

/// A named capture group. With duplicate names (allowed in different alternatives), one
/// name covers several groups, of which at most one participates in a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupName {
    /// The name as UTF-16.
    pub name: Vec<u16>,
    /// The capture indices (1-based) carrying this name, ascending.
    pub indices: Vec<usize>,
}

/// A successful match: code-unit ranges into the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchResult {
    /// Index 0 is the whole match; index `n` the `n`th capture, None if it did not
    /// participate.
    pub captures: Vec<Option<Range<usize>>>,
}

impl MatchResult {
    /// The range of the whole match.
    pub fn range(&self) -> Range<usize> {
        self.captures.first().cloned().flatten().unwrap_or(0..0)
    }

    /// Where the match starts (the `index` property).
    pub fn start(&self) -> usize {
        self.range().start
    }

    /// Where the match ends (the next `lastIndex` for global and sticky regexps).
    pub fn end(&self) -> usize {
        self.range().end
    }

    /// Capture `index` (0 is the whole match).
    pub fn group(&self, index: usize) -> Option<Range<usize>> {
        self.captures.get(index).cloned().flatten()
    }
}

/// A compiled regular expression.
#[derive(Clone, Debug)]
pub struct CompiledRegExp {
    source: Vec<u16>,
    original_flags: Vec<u16>,
    flags: Flags,
    group_count: usize,
    group_names: Vec<GroupName>,
    /// Name of each capture (index 0 unused).
    name_of_group: Vec<Option<usize>>,
    program: program::Program,
}

/// Checks that `pattern` with `flags` forms a regular expression (22.2.3.1 RegExpInitialize
/// steps 5-12, without compiling it): the early errors of a regular expression literal,
/// reported exactly as `new RegExp(pattern, flags)` reports them at run time.
pub fn check_syntax(pattern: &[u16], flags: &[u16]) -> Result<(), RegExpError> {
    parse_pattern(pattern, flags).map(|_| ())
}

/// Validates the flags and parses the pattern in the mode they select.
fn parse_pattern(pattern: &[u16], flags: &[u16]) -> Result<(Flags, parse::Parsed), RegExpError> {
    let parsed_flags = Flags::parse(flags)?;
    let unicode = parsed_flags.either_unicode();
    // 22.2.3.4 ParsePattern: in Unicode mode the pattern is read as code points, in legacy
    // mode as code units.
    let chars: Vec<u32> = if unicode {
        char::decode_utf16(pattern.iter().copied())
            .map(|r| match r {
                Ok(c) => u32::from(c),
                Err(e) => u32::from(e.unpaired_surrogate()),
            })
            .collect()
    } else {
        pattern.iter().map(|&u| u32::from(u)).collect()
    };
    let parsed = parse::parse(&chars, unicode, parsed_flags.unicode_sets)
        .map_err(|message| syntax_error(pattern, &parsed_flags, message))?;
    Ok((parsed_flags, parsed))
}

/// The SyntaxError for `message` about `pattern`, worded as V8 words it.
fn syntax_error(pattern: &[u16], flags: &Flags, message: &str) -> RegExpError {
    RegExpError {
        message: format!(
            "Invalid regular expression: /{}/{}: {}",
            String::from_utf16_lossy(pattern),
            flags.canonical(),
            message
        ),
    }
}

impl CompiledRegExp {
    /// Compiles `pattern` with `flags` (22.2.3.1 RegExpInitialize steps 5-12): validates the
    /// flags, parses the pattern in the mode they select and reports the first early error.
    pub fn new(pattern: &[u16], flags: &[u16]) -> Result<CompiledRegExp, RegExpError> {
        let (parsed_flags, parsed) = parse_pattern(pattern, flags)?;
        let ctx = ast::Ctx {
            unicode: parsed_flags.either_unicode(),
            sets: parsed_flags.unicode_sets,
            ignore_case: parsed_flags.ignore_case,
            multiline: parsed_flags.multiline,
            dot_all: parsed_flags.dot_all,
        };
        let program = compile::compile(&parsed.node, parsed.group_count, &ctx);
        let group_count = parsed.group_count as usize;
        let mut group_names: Vec<GroupName> = Vec::new();
        let mut name_of_group = vec![None; group_count + 1];
        for (name, index) in &parsed.names {
            let utf16: Vec<u16> = name
                .iter()
                .flat_map(|&c| {
                    let mut buf = [0u16; 2];
                    let n = char::from_u32(c).map_or(0, |ch| ch.encode_utf16(&mut buf).len());
                    buf.into_iter().take(n)
                })
                .collect();
            let slot = match group_names.iter().position(|g| g.name == utf16) {
                Some(slot) => slot,
                None => {
                    group_names.push(GroupName { name: utf16, indices: Vec::new() });
                    group_names.len() - 1
                }
            };
            group_names[slot].indices.push(*index as usize);
            name_of_group[*index as usize] = Some(slot);
        }

        Ok(CompiledRegExp {
            source: pattern.to_vec(),
            original_flags: flags.to_vec(),
            flags: parsed_flags,
            group_count,
            group_names,
            name_of_group,
            program,
        })
    }

    /// The pattern as given ([[OriginalSource]]); see [`escape_source`] for `source`.
    pub fn source(&self) -> &[u16] {
        &self.source
    }

    /// The flags string as given ([[OriginalFlags]]).
    pub fn original_flags(&self) -> &[u16] {
        &self.original_flags
    }

    /// The parsed flags.
    pub fn flags(&self) -> Flags {
        self.flags
    }

    /// Number of capturing groups (not counting the whole match).
    pub fn group_count(&self) -> usize {
        self.group_count
    }

    /// The group names in order of first appearance, each with its capture indices.
    pub fn group_names(&self) -> &[GroupName] {
        &self.group_names
    }

    /// True if the pattern has a named group (the match gets a `groups` object).
    pub fn has_named_groups(&self) -> bool {
        !self.group_names.is_empty()
    }

    /// The name of capture `index`, if it is a named group.
    pub fn name_of_group(&self, index: usize) -> Option<&[u16]> {
        let slot = (*self.name_of_group.get(index)?)?;
        Some(&self.group_names[slot].name)
    }

    /// The range captured under `name` in `m`: that of the one participating group among
    /// those carrying the name, or None.
    pub fn named_capture(&self, m: &MatchResult, name: &GroupName) -> Option<Range<usize>> {
        name.indices.iter().find_map(|&i| m.group(i))
    }

    /// Runs the matcher from `last_index` (22.2.7.2 RegExpBuiltinExec steps 11-13): the
    /// leftmost match starting at or after `last_index`, or for a sticky regexp only one
    /// starting exactly there. Ranges are in code units. `last_index` past the end gives
    /// no match. In Unicode mode, a `last_index` between the halves of a surrogate pair
    /// starts at the pair, as V8 and SpiderMonkey do (the spec's "character obtained from
    /// element lastIndex"); the result's `start()` is then `last_index - 1`.
    ///
    /// `interrupt` is polled before matching and every few thousand steps of it; when it
    /// returns true, matching stops with [`ExecError::Interrupted`].
    pub fn exec_at(
        &self,
        input: Subject<'_>,
        last_index: usize,
        interrupt: &dyn Fn() -> bool,
    ) -> Result<Option<MatchResult>, ExecError> {
        self.run(input, last_index, self.flags.sticky, interrupt)
    }

    /// Like [`exec_at`](Self::exec_at) but scanning whatever the `y` flag says: the leftmost
    /// match starting at or after `last_index` (what sticky attempts at `last_index`,
    /// `last_index + 1`, ... find first, as RegExp.prototype[@@split] makes them).
    pub fn search(
        &self,
        input: Subject<'_>,
        last_index: usize,
        interrupt: &dyn Fn() -> bool,
    ) -> Result<Option<MatchResult>, ExecError> {
        self.run(input, last_index, false, interrupt)
    }

    fn run(
        &self,
        input: Subject<'_>,
        last_index: usize,
        sticky: bool,
        interrupt: &dyn Fn() -> bool,
    ) -> Result<Option<MatchResult>, ExecError> {
        if interrupt() {
            return Err(ExecError::Interrupted);
        }
        if last_index > input.len() {
            return Ok(None);
        }
        let mut pos = last_index;
        if self.flags.either_unicode()
            && pos > 0
            && pos < input.len()
            && is_trail(input.at(pos))
            && is_lead(input.at(pos - 1))
        {
            pos -= 1;
        }
        match input {
            Subject::Latin1(b) => Ok(exec::Matcher::new(&self.program, b, interrupt).find(pos, sticky)?.map(result)),
            Subject::Utf16(u) => Ok(exec::Matcher::new(&self.program, u, interrupt).find(pos, sticky)?.map(result)),
        }
    }
}

/// The match of the matcher's capture slots (start and end of each group, `usize::MAX`
/// where unset).
fn result(slots: &[usize]) -> MatchResult {
    let captures = slots
        .chunks(2)
        .map(|pair| (pair[0] != usize::MAX && pair[1] != usize::MAX).then(|| pair[0]..pair[1]))
        .collect();
    MatchResult { captures }
}

fn is_lead(u: u16) -> bool {
    (0xD800..=0xDBFF).contains(&u)
}

fn is_trail(u: u16) -> bool {
    (0xDC00..=0xDFFF).contains(&u)
}
