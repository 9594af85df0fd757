//! ECMAScript regular expressions for the RegExp builtins, independent of the object model.
//!
//! ```text
//!  pattern, flags (UTF-16)
//!     │ Flags::parse            flags.rs   dgimsuvy, no repeats, not both u and v
//!     │ parse::parse            parse.rs, class.rs   every early error, V8's messages
//!     ▼
//!   Node tree                   ast.rs     + scan guard and attempt-cost analyses
//!     │ rewrite_empty_loops     rewrite.rs loops over empty-matching bodies reshaped
//!     │ emit::Emitter           emit.rs    a pattern regress reads exactly as meant
//!     ▼
//!   regress::Regex  ──exec_at──▶ MatchResult (code-unit ranges of every capture)
//! ```
//!
//! Matching is done by the `regress` crate, reached only from this module so that it can
//! be replaced. We parse and check the pattern ourselves first: regress accepts some
//! patterns the spec rejects, reads some Annex B syntax differently, folds case wrongly in
//! legacy mode and words its errors differently; the emitter gives it a pattern in which
//! those differences cannot show (see `emit.rs`).
//!
//! # Interrupts
//!
//! regress has no step limit and no cancellation hook: one match attempt (matching at one
//! start position, with all its backtracking) cannot be interrupted, and catastrophic
//! backtracking inside it runs to the end. What we control is the scan over start
//! positions, done one of two ways:
//!
//! - Native: regress scans the input itself, fastest. The interrupt is polled once, before.
//!   Used when one attempt is cheap (bounded by a small constant: no unbounded quantifier,
//!   no backreference, few paths; see `ast::attempt_cost`), so that the scan is linear in
//!   the input; and for inputs of at most [`SHORT_INPUT`] code units from `lastIndex`,
//!   where the scan makes at most that many attempts.
//! - Probe: otherwise, a second regex is compiled (once, on first use) from the pattern
//!   `P` as `(?:P)|([F])`. At a start position where `P` fails but the next character is
//!   in `F` (the characters a match of `P` can start with; `()` when unknown), the second
//!   alternative matches and its group marks the attempt as failed. regress returns, we
//!   poll the interrupt and resume one character later; positions outside `F` are still
//!   skipped inside regress. So the interrupt is polled between any two attempts that can
//!   do real work: a quadratic scan such as `/a*a*b/` over a long run of `a` stays
//!   interruptible. It costs about two to five times a native scan where attempts fail
//!   often. Sticky regexps use the probe without a guard on long inputs: it makes exactly
//!   one attempt at `lastIndex`, where a native scan would go on to the end of the input.
//!
//! Not interruptible: the work inside one attempt (exponential backtracking such as
//! `/(a+)+b/` on a long run of `a` stays stuck in that attempt), a scan of a short input,
//! and compiling.
//!
//! # Known differences from ECMA-262
//!
//! - regress 0.12 does not save a loop's state when it enters the loop, so a loop nested in
//!   another loop can lose its iteration count on backtracking; with a body that can match
//!   empty this loops forever, growing memory (`/(?:(?:s*)*!)*\d/` on `"s!"`). `rewrite.rs`
//!   reshapes the common forms; exotic ones remain (for instance a `{1,2}` loop over a
//!   capturing group that can match empty, inside another loop). The fix is one line in
//!   regress (push `SetLoopData` before resetting `iters` in `Insn::EnterLoop`).
//! - Legacy-mode case-insensitive backreferences compare with regress's simple uppercase,
//!   without Canonicalize's rule that keeps non-ASCII characters from matching ASCII ones:
//!   `/(\u017f)\1/i` matches `"\u017fs"`. Everything else folds with the exact rule.
//! - `v` mode with ignoreCase: set operations and complements over classes holding strings
//!   are left to regress, which folds only the final set (see `emit.rs`).
//! - Unicode data (properties, case folding in Unicode modes, ID_Start for group names)
//!   comes from regress's tables; the legacy folding from Rust's `char::to_uppercase`.

mod ast;
mod charset;
mod class;
mod emit;
mod flags;
mod parse;
mod rewrite;
mod subst;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_exec;

pub use flags::Flags;
pub use subst::{advance_string_index, escape_source, get_substitution, regexp_escape, NamedCaptureLookup};

use std::fmt;
use std::ops::Range;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::OnceLock;

/// One attempt costing at most this much (see `ast::attempt_cost`) lets regress scan on its
/// own.
const NATIVE_ATTEMPT_COST: u64 = 1 << 16;

/// Inputs this short (counted from `lastIndex`) are scanned natively whatever the pattern.
pub const SHORT_INPUT: usize = 256;

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
    /// regress failed internally (it panicked; the panic was caught). The builtin should
    /// throw an error rather than report "no match".
    Internal,
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
    /// The pattern as given to regress.
    regex: regress::Regex,
    /// The probe pattern (see the module docs), empty if the native scan always serves.
    probe_source: Vec<u32>,
    /// The probe regex, compiled on first use; None if that failed (then we scan natively).
    probe: OnceLock<Option<regress::Regex>>,
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
        let (parsed_flags, mut parsed) = parse_pattern(pattern, flags)?;
        let unicode = parsed_flags.either_unicode();
        let syntax_error = |message: &str| syntax_error(pattern, &parsed_flags, message);
        rewrite::rewrite_empty_loops(&mut parsed.node);

        let ctx = ast::Ctx {
            unicode,
            sets: parsed_flags.unicode_sets,
            ignore_case: parsed_flags.ignore_case,
            dot_all: parsed_flags.dot_all,
            global_ignore_case: parsed_flags.ignore_case && unicode,
        };
        let mut emitter = emit::Emitter::new();
        emitter.node(&parsed.node, &ctx);
        let emitted = emitter.out;
        let expensive = ast::attempt_cost(&parsed.node) > NATIVE_ATTEMPT_COST;
        let guard = if expensive && !parsed_flags.sticky { ast::first_chars(&parsed.node, &ctx) } else { None };
        let probe_source = if guard.as_ref().is_some_and(|g| g.is_empty()) {
            // Nothing can start a match: every attempt fails at once, scan natively.
            Vec::new()
        } else if expensive || parsed_flags.sticky {
            let mut probe = emit::Emitter::new();
            probe.push_str("(?:");
            probe.out.extend_from_slice(&emitted);
            probe.push_str(")|(");
            // The guard consumes its character (only where the probe's match starts is
            // used; a lookahead costs regress much more at every position). A guard with
            // many ranges would cost more to test than it saves.
            if let Some(guard) = guard.as_ref().filter(|g| g.range_count() <= 64) {
                probe.set_class(guard, false);
            }
            probe.push_str(")");
            probe.out
        } else {
            Vec::new()
        };

        let regress_flags = regress_flags(&parsed_flags);
        let regex = match compile(&emitted, regress_flags) {
            Ok(Ok(regex)) => regex,
            Ok(Err(e)) => return Err(syntax_error(&regress_message(&e.text))),
            Err(_) => return Err(syntax_error(parse::msg::TOO_LARGE)),
        };

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
            regex,
            probe_source,
            probe: OnceLock::new(),
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
    /// `interrupt` is polled before matching and between match attempts as the module docs
    /// describe; when it returns true, matching stops with [`ExecError::Interrupted`].
    pub fn exec_at(
        &self,
        input: &[u16],
        last_index: usize,
        interrupt: &dyn Fn() -> bool,
    ) -> Result<Option<MatchResult>, ExecError> {
        if interrupt() {
            return Err(ExecError::Interrupted);
        }
        if last_index > input.len() {
            return Ok(None);
        }
        let unicode = self.flags.either_unicode();
        let mut pos = last_index;
        if unicode && pos > 0 && pos < input.len() && is_trail(input[pos]) && is_lead(input[pos - 1]) {
            pos -= 1;
        }
        let probe = if input.len() - pos > short_input() && !self.probe_source.is_empty() {
            self.probe.get_or_init(|| compile(&self.probe_source, self.regress_flags()).ok()?.ok()).as_ref()
        } else {
            None
        };
        let Some(probe) = probe else {
            let m = self.find(&self.regex, input, pos)?;
            return Ok(m.filter(|m| !self.flags.sticky || m.start() == pos).map(|m| self.result(&m)));
        };
        let marker = self.group_count + 1;
        loop {
            let Some(m) = self.find(probe, input, pos)? else {
                return Ok(None);
            };
            if m.group(marker).is_none() {
                if self.flags.sticky && m.start() != pos {
                    return Ok(None);
                }
                return Ok(Some(self.result(&m)));
            }
            // The probe alternative matched: the pattern failed at m.start().
            if self.flags.sticky {
                return Ok(None);
            }
            pos = advance_string_index(input, m.start(), unicode);
            if pos > input.len() {
                return Ok(None);
            }
            if interrupt() {
                return Err(ExecError::Interrupted);
            }
        }
    }

    fn regress_flags(&self) -> regress::Flags {
        regress_flags(&self.flags)
    }

    /// One regress search from `pos`, with a regress panic turned into an error.
    fn find(&self, regex: &regress::Regex, input: &[u16], pos: usize) -> Result<Option<regress::Match>, ExecError> {
        let unicode = self.flags.either_unicode();
        catch_unwind(AssertUnwindSafe(|| {
            if unicode {
                regex.find_from_utf16(input, pos).next()
            } else {
                regex.find_from_ucs2(input, pos).next()
            }
        }))
        .map_err(|_| ExecError::Internal)
    }

    fn result(&self, m: &regress::Match) -> MatchResult {
        MatchResult { captures: m.groups().take(self.group_count + 1).collect() }
    }
}

#[cfg(test)]
thread_local! {
    /// Lets tests take the probe path on short inputs.
    pub(crate) static SHORT_INPUT_OVERRIDE: std::cell::Cell<Option<usize>> =
        const { std::cell::Cell::new(None) };
}

fn short_input() -> usize {
    #[cfg(test)]
    if let Some(n) = SHORT_INPUT_OVERRIDE.with(|o| o.get()) {
        return n;
    }
    SHORT_INPUT
}

/// The flags given to regress. Legacy mode folds case in the emitted pattern (emit.rs).
fn regress_flags(flags: &Flags) -> regress::Flags {
    regress::Flags {
        icase: flags.ignore_case && flags.either_unicode(),
        multiline: flags.multiline,
        dot_all: flags.dot_all,
        unicode: flags.either_unicode(),
        unicode_sets: flags.unicode_sets,
        ..Default::default()
    }
}

/// Compiles an emitted pattern; a panic in regress is caught (Err(())).
fn compile(pattern: &[u32], flags: regress::Flags) -> Result<Result<regress::Regex, regress::Error>, ()> {
    catch_unwind(AssertUnwindSafe(|| regress::Regex::from_unicode(pattern.iter().copied(), flags))).map_err(|_| ())
}

fn is_lead(u: u16) -> bool {
    (0xD800..=0xDBFF).contains(&u)
}

fn is_trail(u: u16) -> bool {
    (0xDC00..=0xDFFF).contains(&u)
}

/// regress's errors on an emitted pattern that passed our checks: its limits, mostly.
fn regress_message(text: &str) -> String {
    match text {
        "Capture group count limit exceeded" => parse::msg::TOO_MANY_CAPTURES.to_string(),
        "Loop count limit exceeded" | "Regular expression is too deeply nested" => parse::msg::TOO_LARGE.to_string(),
        "Invalid property name" => parse::msg::INVALID_PROPERTY_NAME.to_string(),
        other => other.to_string(),
    }
}
