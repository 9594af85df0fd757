//! An in-process FileCheck: the subset of LLVM FileCheck's semantics that Iris's lit-tests use.
//!
//! ```text
//!  check file ─ parse_checks(prefixes) ─▶ [Directive] ─┐
//!  command output ──────────────────────────────────────┴─ check() ─▶ Ok | Failure (line, message)
//! ```
//!
//! Directives (with the default prefix `CHECK`; any prefix given by `--check-prefix(es)`):
//! `CHECK:` (a match anywhere after the previous match), `CHECK-NEXT:` (on the line right after
//! the previous match), `CHECK-SAME:` (on the same line as the previous match), `CHECK-NOT:` (no
//! match between the surrounding positive matches), `CHECK-DAG:` (a group matched in any order),
//! `CHECK-LABEL:` (matched first, splitting the input into independent regions), and
//! `CHECK-EMPTY:` (the next line is empty).
//!
//! Patterns are literal text with `{{regex}}` blocks, `[[NAME:regex]]` variable definitions and
//! `[[NAME]]` uses of a variable defined by an earlier directive. As in LLVM, a run of spaces or
//! tabs in a pattern matches any run of horizontal whitespace (unless `--strict-whitespace`),
//! the pattern's leading and trailing whitespace is ignored, and `--match-full-lines` makes a
//! positive match cover a whole line. Regexes are the `regex` crate's syntax in multi-line mode,
//! so `{{^}}` and `{{$}}` anchor at line boundaries.

use std::collections::HashMap;
use std::fmt;

use regex::Regex;

/// What a directive asks of the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `CHECK:` a match at or after the previous match.
    Plain,
    /// `CHECK-NEXT:` a match on the line right after the previous match.
    Next,
    /// `CHECK-SAME:` a match on the same line as the previous match.
    Same,
    /// `CHECK-NOT:` no match between the neighbouring positive matches.
    Not,
    /// `CHECK-DAG:` consecutive DAG directives match in any order.
    Dag,
    /// `CHECK-LABEL:` a unique anchor matched before everything else.
    Label,
    /// `CHECK-EMPTY:` the next line is empty.
    Empty,
}

impl Kind {
    /// The suffix after the prefix, `""` for plain checks.
    pub fn suffix(self) -> &'static str {
        match self {
            Kind::Plain => "",
            Kind::Next => "-NEXT",
            Kind::Same => "-SAME",
            Kind::Not => "-NOT",
            Kind::Dag => "-DAG",
            Kind::Label => "-LABEL",
            Kind::Empty => "-EMPTY",
        }
    }

    const ALL: [Kind; 7] = [Kind::Next, Kind::Same, Kind::Not, Kind::Dag, Kind::Label, Kind::Empty, Kind::Plain];
}

/// FileCheck's options, as given on the `%FileCheck` command line.
#[derive(Clone, Debug)]
pub struct Options {
    /// Directive prefixes; `["CHECK"]` by default.
    pub prefixes: Vec<String>,
    /// Positive matches must cover whole lines (leading/trailing whitespace aside).
    pub match_full_lines: bool,
    /// Whitespace in patterns is matched exactly.
    pub strict_whitespace: bool,
    /// An empty input is not an error.
    pub allow_empty: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            prefixes: vec!["CHECK".to_string()],
            match_full_lines: false,
            strict_whitespace: false,
            allow_empty: false,
        }
    }
}

/// One piece of a pattern.
#[derive(Clone, Debug, PartialEq)]
enum Piece {
    Literal(String),
    Regex(String),
    Def { name: String, regex: String },
    Use(String),
}

/// One parsed directive.
#[derive(Clone, Debug)]
pub struct Directive {
    /// Its kind.
    pub kind: Kind,
    /// The prefix that introduced it.
    pub prefix: String,
    /// 1-based line in the check file.
    pub line: usize,
    /// The pattern text as written (trimmed).
    pub text: String,
    pieces: Vec<Piece>,
}

impl Directive {
    /// `PREFIX-KIND: text`, for messages.
    pub fn spelling(&self) -> String {
        format!("{}{}: {}", self.prefix, self.kind.suffix(), self.text)
    }
}

/// A check failure: where in the check file, and why.
#[derive(Clone, Debug)]
pub struct Failure {
    /// 1-based line of the failing directive in the check file (0 for file-level errors).
    pub line: usize,
    /// A multi-line explanation with input context.
    pub message: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}

/// Finds the directives with the given prefixes in `check_text`. A prefix counts only where it
/// is not preceded by a word character and is followed by one of the suffixes and `:`.
pub fn parse_checks(check_text: &str, opts: &Options) -> Result<Vec<Directive>, Failure> {
    let mut out = Vec::new();
    for (idx, line) in check_text.lines().enumerate() {
        let lineno = idx + 1;
        // A line holds at most one directive: the earliest one.
        let mut best: Option<(usize, &str, Kind, usize)> = None; // (start, prefix, kind, text start)
        for prefix in &opts.prefixes {
            let mut from = 0;
            while let Some(rel) = line[from..].find(prefix.as_str()) {
                let start = from + rel;
                from = start + 1;
                if start > 0 && is_word(line.as_bytes()[start - 1]) {
                    continue;
                }
                let rest = &line[start + prefix.len()..];
                let found = Kind::ALL.iter().find_map(|&k| {
                    let s = k.suffix();
                    (rest.starts_with(s) && rest[s.len()..].starts_with(':'))
                        .then_some((k, start + prefix.len() + s.len() + 1))
                });
                if let Some((kind, text_start)) = found {
                    if best.is_none_or(|b| start < b.0) {
                        best = Some((start, prefix.as_str(), kind, text_start));
                    }
                    break;
                }
            }
        }
        let Some((_, prefix, kind, text_start)) = best else { continue };
        let raw = &line[text_start..];
        let text = if opts.strict_whitespace { raw.strip_prefix(' ').unwrap_or(raw) } else { raw.trim() };
        let text = text.trim_end().to_string();
        if text.is_empty() && kind != Kind::Empty {
            return Err(Failure {
                line: lineno,
                message: format!("line {lineno}: found empty check string with prefix '{prefix}{}:' (use {prefix}-EMPTY: for an empty line)", kind.suffix()),
            });
        }
        if !text.is_empty() && kind == Kind::Empty {
            return Err(Failure { line: lineno, message: format!("line {lineno}: {prefix}-EMPTY: takes no pattern") });
        }
        let pieces =
            parse_pattern(&text).map_err(|m| Failure { line: lineno, message: format!("line {lineno}: {m}") })?;
        out.push(Directive { kind, prefix: prefix.to_string(), line: lineno, text, pieces });
    }
    if out.is_empty() {
        return Err(Failure {
            line: 0,
            message: format!(
                "no check strings found with prefix{} {}",
                if opts.prefixes.len() > 1 { "es" } else { "" },
                opts.prefixes.iter().map(|p| format!("'{p}:'")).collect::<Vec<_>>().join(", ")
            ),
        });
    }
    if matches!(out[0].kind, Kind::Next | Kind::Same) {
        let d = &out[0];
        return Err(Failure {
            line: d.line,
            message: format!(
                "line {}: found '{}{}:' without a previous '{}:' line",
                d.line,
                d.prefix,
                d.kind.suffix(),
                d.prefix
            ),
        });
    }
    Ok(out)
}

fn is_var_name(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn parse_pattern(text: &str) -> Result<Vec<Piece>, String> {
    let mut pieces = Vec::new();
    let mut lit = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("{{") {
            let end = after.find("}}").ok_or_else(|| format!("unterminated regex '{{{{' in '{text}'"))?;
            if !lit.is_empty() {
                pieces.push(Piece::Literal(std::mem::take(&mut lit)));
            }
            let re = &after[..end];
            Regex::new(re).map_err(|e| format!("invalid regex {{{{{re}}}}}: {e}"))?;
            pieces.push(Piece::Regex(re.to_string()));
            rest = &after[end + 2..];
            continue;
        }
        if let Some(after) = rest.strip_prefix("[[") {
            if let Some(end) = after.find("]]") {
                let body = &after[..end];
                let piece = match body.split_once(':') {
                    Some((name, re)) if is_var_name(name) => {
                        Regex::new(re).map_err(|e| format!("invalid regex in [[{body}]]: {e}"))?;
                        Some(Piece::Def { name: name.to_string(), regex: re.to_string() })
                    }
                    None if is_var_name(body) => Some(Piece::Use(body.to_string())),
                    _ => None,
                };
                if let Some(piece) = piece {
                    if !lit.is_empty() {
                        pieces.push(Piece::Literal(std::mem::take(&mut lit)));
                    }
                    pieces.push(piece);
                    rest = &after[end + 2..];
                    continue;
                }
            }
            if after.starts_with('#') {
                return Err(format!("numeric variables ([[#...]]) are not supported in '{text}'"));
            }
        }
        let c = rest.chars().next().expect("non-empty");
        lit.push(c);
        rest = &rest[c.len_utf8()..];
    }
    if !lit.is_empty() {
        pieces.push(Piece::Literal(lit));
    }
    Ok(pieces)
}

/// A compiled pattern: its regex and the capture group names of the variables it defines.
struct Compiled {
    re: Regex,
    defs: Vec<(String, String)>, // (variable, group name)
}

fn compile(d: &Directive, vars: &HashMap<String, String>, opts: &Options, positive: bool) -> Result<Compiled, String> {
    let mut body = String::new();
    let mut defs = Vec::new();
    for piece in &d.pieces {
        match piece {
            Piece::Literal(s) => {
                if opts.strict_whitespace {
                    body.push_str(&regex::escape(s));
                } else {
                    // A run of spaces/tabs matches any run of horizontal whitespace.
                    let mut in_ws = false;
                    let mut word = String::new();
                    for c in s.chars() {
                        if c == ' ' || c == '\t' {
                            if !word.is_empty() {
                                body.push_str(&regex::escape(&word));
                                word.clear();
                            }
                            in_ws = true;
                        } else {
                            if in_ws {
                                body.push_str("[ \\t]+");
                                in_ws = false;
                            }
                            word.push(c);
                        }
                    }
                    body.push_str(&regex::escape(&word));
                    if in_ws {
                        body.push_str("[ \\t]+");
                    }
                }
            }
            Piece::Regex(re) => {
                body.push_str("(?:");
                body.push_str(re);
                body.push(')');
            }
            Piece::Def { name, regex } => {
                if defs.iter().any(|(n, _)| n == name) {
                    return Err(format!("variable '{name}' defined twice in one pattern"));
                }
                let group = format!("v{}_{}", defs.len(), name);
                body.push_str(&format!("(?P<{group}>{regex})"));
                defs.push((name.clone(), group));
            }
            Piece::Use(name) => {
                if defs.iter().any(|(n, _)| n == name) {
                    return Err(format!("variable '{name}' is used in the pattern that defines it (not supported)"));
                }
                let value = vars.get(name).ok_or_else(|| format!("undefined variable '{name}'"))?;
                body.push_str(&regex::escape(value));
            }
        }
    }
    let full = if opts.match_full_lines && positive {
        if opts.strict_whitespace {
            // Trailing whitespace is never significant: editors strip it from check lines.
            format!("(?m)^{body}[ \\t]*$")
        } else {
            format!("(?m)^[ \\t]*{body}[ \\t]*$")
        }
    } else {
        format!("(?m){body}")
    };
    let re = Regex::new(&full).map_err(|e| format!("invalid pattern: {e}"))?;
    Ok(Compiled { re, defs })
}

/// A match: byte range in the input.
#[derive(Clone, Copy, Debug)]
struct Span {
    start: usize,
    end: usize,
}

struct Checker<'a> {
    input: &'a str,
    check_name: &'a str,
    opts: &'a Options,
    vars: HashMap<String, String>,
}

fn line_of(input: &str, pos: usize) -> usize {
    input[..pos.min(input.len())].bytes().filter(|&b| b == b'\n').count() + 1
}

fn line_text(input: &str, pos: usize) -> &str {
    let pos = pos.min(input.len());
    let start = input[..pos].rfind('\n').map_or(0, |i| i + 1);
    let end = input[pos..].find('\n').map_or(input.len(), |i| pos + i);
    &input[start..end]
}

impl<'a> Checker<'a> {
    fn fail(&self, d: &Directive, what: &str, pos: usize, extra: Option<(&str, usize)>) -> Failure {
        let mut message = format!(
            "{}:{}: error: {}{}: {what}\n    {}\n",
            self.check_name,
            d.line,
            d.prefix,
            d.kind.suffix(),
            d.spelling()
        );
        let line = line_of(self.input, pos);
        message.push_str(&format!("note: scanning from output line {line}:\n    {}\n", line_text(self.input, pos)));
        if let Some((note, at)) = extra {
            message.push_str(&format!(
                "note: {note} (output line {}):\n    {}\n",
                line_of(self.input, at),
                line_text(self.input, at)
            ));
        }
        Failure { line: d.line, message }
    }

    fn compile(&self, d: &Directive, positive: bool) -> Result<Compiled, Failure> {
        compile(d, &self.vars, self.opts, positive).map_err(|m| Failure {
            line: d.line,
            message: format!("{}:{}: error: {}\n    {}\n", self.check_name, d.line, m, d.spelling()),
        })
    }

    /// The first match of `d` in `[from, limit)`, recording the variables it defines.
    fn find(&mut self, d: &Directive, from: usize, limit: usize, avoid: &[Span]) -> Result<Option<Span>, Failure> {
        let c = self.compile(d, d.kind != Kind::Not)?;
        let mut at = from;
        while at <= limit {
            let Some(caps) = c.re.captures_at(self.input, at) else { return Ok(None) };
            let m = caps.get(0).expect("group 0");
            if m.end() > limit {
                return Ok(None);
            }
            if avoid
                .iter()
                .any(|s| m.start() < s.end && s.start < m.end() || (m.start() == m.end() && m.start() == s.start))
            {
                // DAG matches may not overlap: look again one character further.
                at = m.start() + self.input[m.start()..].chars().next().map_or(1, |c| c.len_utf8());
                continue;
            }
            for (name, group) in &c.defs {
                let value = caps.name(group).map_or("", |g| g.as_str()).to_string();
                self.vars.insert(name.clone(), value);
            }
            return Ok(Some(Span { start: m.start(), end: m.end() }));
        }
        Ok(None)
    }

    fn check_nots(&mut self, nots: &[&Directive], from: usize, to: usize) -> Result<(), Failure> {
        for d in nots {
            let c = self.compile(d, false)?;
            if let Some(m) = c.re.find_at(self.input, from) {
                if m.end() <= to {
                    return Err(self.fail(d, "excluded string found in input", from, Some(("found here", m.start()))));
                }
            }
        }
        Ok(())
    }

    /// Checks the directives of one label region `[start, end)`. `prev_end` is where the previous
    /// match (the label, if any) ended, for NEXT/SAME/EMPTY; `None` at the start of the input.
    fn region(
        &mut self,
        dirs: &[&Directive],
        start: usize,
        end: usize,
        mut prev_end: Option<usize>,
    ) -> Result<(), Failure> {
        let mut cur = start;
        let mut nots: Vec<&Directive> = Vec::new();
        let mut i = 0;
        while i < dirs.len() {
            let d = dirs[i];
            match d.kind {
                Kind::Label => unreachable!("labels are split off by check()"),
                Kind::Not => {
                    nots.push(d);
                    i += 1;
                }
                Kind::Dag => {
                    let mut matched: Vec<Span> = Vec::new();
                    while i < dirs.len() && dirs[i].kind == Kind::Dag {
                        let d = dirs[i];
                        match self.find(d, cur, end, &matched)? {
                            Some(m) => matched.push(m),
                            None => return Err(self.fail(d, "expected string not found in input", cur, None)),
                        }
                        i += 1;
                    }
                    let first = matched.iter().map(|s| s.start).min().unwrap_or(cur);
                    let last = matched.iter().map(|s| s.end).max().unwrap_or(cur);
                    self.check_nots(&nots, cur, first)?;
                    nots.clear();
                    cur = last;
                    prev_end = Some(last);
                }
                Kind::Empty => {
                    // The line after the one holding the previous match must be empty.
                    let line_start = match prev_end {
                        None => 0,
                        Some(p) => match self.input[p..].find('\n') {
                            Some(nl) => p + nl + 1,
                            None => return Err(self.fail(d, "no line after the previous match", p, None)),
                        },
                    };
                    if line_start >= self.input.len() || self.input.as_bytes()[line_start] != b'\n' {
                        return Err(self.fail(d, "the next line is not empty", line_start.min(self.input.len()), None));
                    }
                    if line_start > end {
                        return Err(self.fail(d, "the next line is past the next label", cur, None));
                    }
                    self.check_nots(&nots, cur, line_start)?;
                    nots.clear();
                    cur = line_start;
                    prev_end = Some(line_start);
                    i += 1;
                }
                Kind::Plain | Kind::Next | Kind::Same => {
                    let Some(m) = self.find(d, cur, end, &[])? else {
                        return Err(self.fail(d, "expected string not found in input", cur, None));
                    };
                    if d.kind != Kind::Plain {
                        let from = prev_end.unwrap_or(0);
                        let newlines = self.input[from..m.start].bytes().filter(|&b| b == b'\n').count();
                        let want = if d.kind == Kind::Next { 1 } else { 0 };
                        if newlines != want {
                            let what = match (d.kind, newlines) {
                                (Kind::Next, 0) => "is on the same line as the previous match",
                                (Kind::Next, _) => "is not on the line after the previous match",
                                _ => "is not on the same line as the previous match",
                            };
                            return Err(self.fail(d, what, from, Some(("match found here", m.start))));
                        }
                    }
                    self.check_nots(&nots, cur, m.start)?;
                    nots.clear();
                    cur = m.end;
                    prev_end = Some(m.end);
                    i += 1;
                }
            }
        }
        self.check_nots(&nots, cur, end)
    }
}

/// Checks `input` against `dirs`. `check_name` names the check file in messages.
pub fn check(input: &str, dirs: &[Directive], opts: &Options, check_name: &str) -> Result<(), Failure> {
    if input.is_empty() && !opts.allow_empty {
        return Err(Failure {
            line: 0,
            message: format!("{check_name}: error: the input is empty (FileCheck's --allow-empty permits that)\n"),
        });
    }
    let mut ck = Checker { input, check_name, opts, vars: HashMap::new() };
    // Labels first: each matched after the previous one; they split the input into regions.
    let mut label_spans = Vec::new();
    let mut cur = 0;
    for d in dirs.iter().filter(|d| d.kind == Kind::Label) {
        match ck.find(d, cur, input.len(), &[])? {
            Some(m) => {
                label_spans.push(m);
                cur = m.end;
            }
            None => return Err(ck.fail(d, "expected string not found in input", cur, None)),
        }
    }
    let mut group: Vec<&Directive> = Vec::new();
    let mut label_idx = 0;
    let mut region_start = 0;
    let mut prev_end = None;
    for d in dirs {
        if d.kind == Kind::Label {
            let span = label_spans[label_idx];
            ck.region(&group, region_start, span.start, prev_end)?;
            group.clear();
            region_start = span.end;
            prev_end = Some(span.end);
            label_idx += 1;
        } else {
            group.push(d);
        }
    }
    ck.region(&group, region_start, input.len(), prev_end)
}

/// Escapes an output line so that it matches itself as a pattern (for regen).
pub fn escape_line(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("{{") {
            out.push_str("{{\\{\\{}}");
            rest = r;
        } else if let Some(r) = rest.strip_prefix("[[") {
            out.push_str("{{\\[\\[}}");
            rest = r;
        } else {
            let c = rest.chars().next().expect("non-empty");
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// The directives that match `output` line by line: `PREFIX:` for the first line, `PREFIX-NEXT:`
/// for the others and `PREFIX-EMPTY:` for empty ones, each after `comment` (e.g. `//`). With
/// `align`, the patterns start in one column; without, one space follows the colon (as
/// `--strict-whitespace` wants).
///
/// Each `(text, pattern)` of `generalize` replaces `text` (e.g. the test's absolute path, which
/// differs between checkouts) in every line by `pattern` (e.g. `{{.*}}name.js`).
pub fn generate_checks(
    output: &str,
    prefix: &str,
    comment: &str,
    align: bool,
    generalize: &[(String, String)],
) -> String {
    let mut out = String::new();
    let width = if align { prefix.len() + "-NEXT:".len() } else { 0 };
    for (i, line) in output.lines().enumerate() {
        let line = line.trim_end();
        let tag = if line.trim().is_empty() {
            format!("{prefix}-EMPTY:")
        } else if i == 0 {
            format!("{prefix}:")
        } else {
            format!("{prefix}-NEXT:")
        };
        if line.trim().is_empty() {
            if i == 0 {
                // A leading empty line: anchor on the start of the input instead.
                out.push_str(&format!("{comment} {prefix}:{{{{^$}}}}\n"));
            } else {
                out.push_str(&format!("{comment} {tag}\n"));
            }
        } else {
            let mut text = escape_line(line);
            for (from, to) in generalize {
                if !from.is_empty() {
                    text = text.replace(from.as_str(), to);
                }
            }
            out.push_str(&format!("{comment} {tag:<width$} {text}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(checks: &str, input: &str) -> Result<(), Failure> {
        run_with(checks, input, Options::default())
    }

    fn run_with(checks: &str, input: &str, opts: Options) -> Result<(), Failure> {
        let dirs = parse_checks(checks, &opts)?;
        check(input, &dirs, &opts, "t.js")
    }

    fn fails(checks: &str, input: &str) -> String {
        match run(checks, input) {
            Ok(()) => panic!("expected a failure for checks {checks:?} on {input:?}"),
            Err(f) => f.message,
        }
    }

    #[test]
    fn plain_matches_in_order() {
        run("// CHECK: a\n// CHECK: c\n", "a\nb\nc\n").unwrap();
        assert!(fails("// CHECK: c\n// CHECK: a\n", "a\nb\nc\n").contains("expected string not found"));
    }

    #[test]
    fn plain_matches_substring_and_later_on_same_line() {
        run("// CHECK: foo\n// CHECK: bar\n", "xx foo yy bar\n").unwrap();
    }

    #[test]
    fn next_requires_following_line() {
        run("// CHECK: a\n// CHECK-NEXT: b\n", "a\nb\n").unwrap();
        assert!(fails("// CHECK: a\n// CHECK-NEXT: c\n", "a\nb\nc\n").contains("not on the line after"));
        assert!(fails("// CHECK: a\n// CHECK-NEXT: b\n", "a b\n").contains("same line"));
    }

    #[test]
    fn same_requires_same_line() {
        run("// CHECK: a\n// CHECK-SAME: b\n", "a b\n").unwrap();
        assert!(fails("// CHECK: a\n// CHECK-SAME: b\n", "a\nb\n").contains("not on the same line"));
    }

    #[test]
    fn not_between_matches() {
        run("// CHECK: a\n// CHECK-NOT: x\n// CHECK: b\n", "a\ny\nb\nx\n").unwrap();
        assert!(fails("// CHECK: a\n// CHECK-NOT: x\n// CHECK: b\n", "a\nx\nb\n").contains("excluded string found"));
        // A trailing NOT extends to the end of the input.
        assert!(fails("// CHECK: a\n// CHECK-NOT: x\n", "a\nb\nx\n").contains("excluded"));
        // A leading NOT starts at the beginning.
        assert!(fails("// CHECK-NOT: x\n// CHECK: a\n", "x\na\n").contains("excluded"));
        run("// CHECK-NOT: x\n// CHECK: a\n", "a\nx\n").unwrap();
    }

    #[test]
    fn labels_split_regions() {
        let checks = "// CHECK-LABEL: function f\n// CHECK: ret\n// CHECK-LABEL: function g\n// CHECK: call\n";
        run(checks, "function f\n ret\nfunction g\n call\n").unwrap();
        // `call` lies in f's region only: g's region has none.
        let msg = fails(checks, "function f\n call\n ret\nfunction g\n ret\n");
        assert!(msg.contains("CHECK: call"), "{msg}");
        // A check in f's region may not find its match past g's label.
        let msg = fails(
            "// CHECK-LABEL: function f\n// CHECK: x\n// CHECK-LABEL: function g\n",
            "function f\nfunction g\nx\n",
        );
        assert!(msg.contains("CHECK: x"), "{msg}");
        // NEXT right after a label refers to the label's line.
        run("// CHECK-LABEL: function f\n// CHECK-NEXT: a\n", "function f\na\n").unwrap();
    }

    #[test]
    fn empty_checks_empty_line() {
        run("// CHECK: a\n// CHECK-EMPTY:\n// CHECK-NEXT: b\n", "a\n\nb\n").unwrap();
        assert!(fails("// CHECK: a\n// CHECK-EMPTY:\n", "a\nb\n").contains("not empty"));
        assert!(
            fails("// CHECK: a\n// CHECK-EMPTY:\n// CHECK-NEXT: b\n", "a\n\n\nb\n").contains("not on the line after")
        );
    }

    #[test]
    fn regex_blocks() {
        run("// CHECK: value {{[0-9]+}} end\n", "value 1234 end\n").unwrap();
        assert!(fails("// CHECK: value {{[0-9]+}} end\n", "value abc end\n").contains("not found"));
        // Regex metacharacters in literal text are literal.
        run("// CHECK: a.b(c)*\n", "a.b(c)*\n").unwrap();
        assert!(fails("// CHECK: a.b\n", "axb\n").contains("not found"));
    }

    #[test]
    fn variables_capture_and_reuse() {
        let checks = "// CHECK: %[[X:[0-9]+]] = load\n// CHECK: return %[[X]]\n";
        run(checks, "%7 = load\nreturn %7\n").unwrap();
        assert!(fails(checks, "%7 = load\nreturn %8\n").contains("not found"));
        // Redefinition takes the newest value.
        run("// CHECK: [[V:[a-z]+]]=1\n// CHECK: [[V:[a-z]+]]=2\n// CHECK: use [[V]]\n", "a=1\nb=2\nuse b\n").unwrap();
        assert!(fails("// CHECK: [[U]]\n", "x\n").contains("undefined variable"));
    }

    #[test]
    fn whitespace_is_canonical_by_default() {
        run("// CHECK: a b\n", "a    b\n").unwrap();
        run("// CHECK: a   b\n", "a\tb\n").unwrap();
        assert!(
            run_with("// CHECK: a b\n", "a  b\n", Options { strict_whitespace: true, ..Options::default() }).is_err()
        );
    }

    #[test]
    fn full_lines() {
        let opts = Options { match_full_lines: true, ..Options::default() };
        run_with("// CHECK: abc\n", "  abc  \n", opts.clone()).unwrap();
        assert!(run_with("// CHECK: ab\n", "abc\n", opts.clone()).is_err());
        // With strict whitespace, leading whitespace counts and trailing whitespace does not.
        let strict = Options { strict_whitespace: true, ..opts.clone() };
        run_with("// CHECK:   abc\n", "  abc \n", strict.clone()).unwrap();
        assert!(run_with("// CHECK: abc\n", "  abc\n", strict).is_err());
        // NOT patterns are never anchored.
        assert!(run_with("// CHECK: x\n// CHECK-NOT: b\n", "x\nabc\n", opts).is_err());
    }

    #[test]
    fn dag_any_order_no_overlap() {
        run("// CHECK-DAG: b\n// CHECK-DAG: a\n// CHECK: c\n", "a\nb\nc\n").unwrap();
        // Two DAGs for the same text need two occurrences.
        assert!(fails("// CHECK-DAG: a\n// CHECK-DAG: a\n", "a\n").contains("not found"));
        run("// CHECK-DAG: a\n// CHECK-DAG: a\n", "a\na\n").unwrap();
    }

    #[test]
    fn prefixes() {
        let opts = Options { prefixes: vec!["OPT".into()], ..Options::default() };
        run_with("// CHECK: nope\n// OPT: yes\n", "yes\n", opts).unwrap();
        // A prefix inside a word is not a directive.
        assert!(parse_checks("// XCHECK: a\n", &Options::default()).is_err());
        // A prefix followed by an unknown suffix is not a directive.
        assert!(parse_checks("// CHECK-FOO: a\n", &Options::default()).is_err());
    }

    #[test]
    fn parse_errors() {
        assert!(parse_checks("// CHECK:\n", &Options::default()).unwrap_err().message.contains("empty check string"));
        assert!(parse_checks("// CHECK: {{[}}\n", &Options::default()).is_err());
        assert!(parse_checks("// CHECK: {{abc\n", &Options::default()).unwrap_err().message.contains("unterminated"));
        assert!(parse_checks("no checks\n", &Options::default()).unwrap_err().message.contains("no check strings"));
    }

    #[test]
    fn empty_input_rejected_unless_allowed() {
        assert!(fails("// CHECK-NOT: x\n", "").contains("empty"));
        run_with("// CHECK-NOT: x\n", "", Options { allow_empty: true, ..Options::default() }).unwrap();
    }

    #[test]
    fn failure_names_line_and_context() {
        let msg = fails("// first\n// CHECK: a\n// CHECK-NEXT: zzz\n", "a\nb\n");
        assert!(msg.starts_with("t.js:3: error: CHECK-NEXT:"), "{msg}");
        assert!(msg.contains("output line 1"), "{msg}");
    }

    #[test]
    fn generated_checks_match_their_output() {
        let output = "function f(x)\n  %0 = {{weird}} [[x]]\n\n  return %0\n";
        let checks = generate_checks(output, "CHECK", "//", true, &[]);
        assert!(checks.contains("// CHECK-EMPTY:"), "{checks}");
        run(&checks, output).unwrap();
        let opts = Options { match_full_lines: true, ..Options::default() };
        let dirs = parse_checks(&checks, &opts).unwrap();
        check(output, &dirs, &opts, "t").unwrap();
        // Unaligned checks work with strict whitespace.
        let strict = Options { match_full_lines: true, strict_whitespace: true, ..Options::default() };
        let plain = generate_checks(output, "CHECK", "//", false, &[]);
        let dirs2 = parse_checks(&plain, &strict).unwrap();
        check(output, &dirs2, &strict, "t").unwrap();
        // And they fail when the output changes.
        assert!(check("function f(x)\n  %0 = {{weird}} [[y]]\n\n  return %0\n", &dirs, &opts, "t").is_err());
    }

    #[test]
    fn generated_checks_generalize_paths() {
        let output = "module \"/home/me/t/a.js\"\nok\n";
        let checks = generate_checks(output, "CHECK", "//", false, &[("/home/me/t/a.js".into(), "{{.*}}a.js".into())]);
        assert!(checks.starts_with("// CHECK: module \"{{.*}}a.js\"\n"), "{checks}");
        run(&checks, "module \"/elsewhere/a.js\"\nok\n").unwrap();
    }

    #[test]
    fn generated_checks_leading_empty_line() {
        let output = "\nx\n";
        let checks = generate_checks(output, "CHECK", "//", true, &[]);
        run(&checks, output).unwrap();
    }
}
