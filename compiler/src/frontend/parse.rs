//! Parsing a script with swc, and mapping swc byte positions to lines and UTF-16 columns.
//!
//! The source is handed to swc as a `StringInput` starting at `BytePos(1)` (swc reserves
//! position 0 for dummy spans), so a position `p` is the byte offset `p - 1`. Both the fatal
//! error and the recovered errors swc collects become diagnostics; a script with any error
//! is rejected, except for a few forms swc (47) rejects that are JavaScript: those are
//! parsed again written as forms of the same length that it accepts, and the line table
//! says where they are (see `Fix`).

use swc_common::{input::StringInput, BytePos, Span, Spanned};
use swc_ecma_ast::{EsVersion, Module, Script};
use swc_ecma_parser::{lexer::Lexer, Context, EsSyntax, Parser, Syntax};

use super::Diagnostic;

/// The position swc gives the first byte of the source.
pub const BASE: u32 = 1;

/// The spacing of column checkpoints on non-ASCII lines.
const CHECKPOINT: usize = 256;

/// Line starts of a source text, for position → (line, column) lookups.
#[derive(Clone, Debug)]
pub struct LineTable {
    /// Byte offset of the first character of each line.
    starts: Vec<u32>,
    /// Whether each line is pure ASCII (then columns are byte differences).
    ascii: Vec<bool>,
    /// On non-ASCII lines, (byte offset, UTF-16 column) pairs at character boundaries every
    /// `CHECKPOINT` bytes or so, so a lookup scans a bounded stretch of text.
    checkpoints: Vec<(u32, u32)>,
    /// The source text (needed to count UTF-16 units on non-ASCII lines).
    text: String,
    /// The `for (using x = ...; ...)` heads, as the position of their `using` (or `await`)
    /// and whether they are `await using` (see `Fix::ForUsing`), sorted.
    for_using: Vec<(u32, bool)>,
    /// The calls that are assignment targets, by position (see `Fix::CallTarget`), sorted.
    call_targets: Vec<u32>,
    /// The initializers of `for (var x = init in obj)` heads, by the position of their `var`
    /// (see `Fix::ForInInit`), sorted.
    for_in_inits: Vec<(u32, Box<swc_ecma_ast::Expr>)>,
    /// The line and column of the text's first character in its file: (1, 1), or where a
    /// function compiled lazily on its own starts.
    origin: (u32, u32),
}

impl LineTable {
    /// The line table of `source`. Line terminators are those of ECMAScript: LF, CR, CRLF,
    /// U+2028 and U+2029.
    pub fn new(source: &str) -> LineTable {
        let bytes = source.as_bytes();
        let mut starts = vec![0u32];
        let mut ascii = Vec::new();
        let mut line_start = 0usize;
        // The terminators' first bytes: LF, CR, and 0xE2, which starts U+2028 and U+2029
        // (E2 80 A8, E2 80 A9) among other characters.
        for i in memchr::memchr3_iter(b'\n', b'\r', 0xE2, bytes) {
            if i < line_start {
                continue; // the LF of a CRLF
            }
            let next = match bytes[i] {
                b'\n' => i + 1,
                b'\r' if bytes.get(i + 1) == Some(&b'\n') => i + 2,
                b'\r' => i + 1,
                _ if matches!(bytes.get(i + 1..i + 3), Some([0x80, 0xA8 | 0xA9])) => i + 3,
                _ => continue,
            };
            ascii.push(bytes[line_start..i].is_ascii());
            starts.push(next as u32);
            line_start = next;
        }
        ascii.push(bytes[line_start..].is_ascii());
        let mut checkpoints = Vec::new();
        for (line, &is_ascii) in ascii.iter().enumerate() {
            if is_ascii {
                continue;
            }
            let start = starts[line] as usize;
            let end = starts.get(line + 1).map_or(source.len(), |&e| e as usize);
            let mut col = 0u32;
            let mut last = start;
            for (i, ch) in source[start..end].char_indices() {
                let at = start + i;
                if at - last >= CHECKPOINT {
                    checkpoints.push((at as u32, col));
                    last = at;
                }
                col += ch.len_utf16() as u32;
            }
        }
        LineTable {
            starts,
            ascii,
            checkpoints,
            text: source.to_string(),
            for_using: Vec::new(),
            call_targets: Vec::new(),
            for_in_inits: Vec::new(),
            origin: (1, 1),
        }
    }

    /// The table of a text that starts at line `line`, column `col` of its file.
    pub fn set_origin(&mut self, line: u32, col: u32) {
        self.origin = (line.max(1), col.max(1));
    }

    /// Whether the `const` declaration at `pos` heading a `for` statement is really a
    /// `using` declaration (`Some(true)`: `await using`). swc parses `using` declarations
    /// in blocks and for-of heads but not as the first part of a `for (;;)` head, so those
    /// are parsed as `const` declarations at the same positions (see `Fix::ForUsing`).
    pub fn for_using(&self, pos: BytePos) -> Option<bool> {
        let at = pos.0.checked_sub(BASE)?;
        self.for_using.binary_search_by_key(&at, |&(p, _)| p).ok().map(|i| self.for_using[i].1)
    }

    /// Whether the member expression at `pos` is really a call that is an assignment target
    /// (`f() = 1`, which sloppy code evaluates and then throws a ReferenceError for): swc
    /// rejects those, so they are parsed as `f[...]` (or `f.$` without arguments) at the
    /// same positions (see `parse_goal`).
    pub fn call_target(&self, pos: BytePos) -> bool {
        pos.0.checked_sub(BASE).is_some_and(|at| self.call_targets.binary_search(&at).is_ok())
    }

    /// The initializer of the `for (var x = init in obj)` head whose `var` is at `pos`
    /// (Annex B, sloppy code only): swc takes `init in obj` for the initializer, so the head
    /// is parsed without it and the initializer on its own (see `Fix::ForInInit`).
    pub fn for_in_init(&self, pos: BytePos) -> Option<&swc_ecma_ast::Expr> {
        let at = pos.0.checked_sub(BASE)?;
        let i = self.for_in_inits.binary_search_by_key(&at, |(p, _)| *p).ok()?;
        Some(&self.for_in_inits[i].1)
    }

    /// Whether the text in `range` has a form the parser saw rewritten that strict code
    /// rejects (a call as an assignment target, an initializer in a for-in head): IRGen
    /// reports those, so a function containing one is compiled with the program.
    pub fn has_strict_rewrite(&self, range: ir::TextRange) -> bool {
        let within = |at: u32| (range.start..range.end).contains(&at);
        let first_at_or_after = |v: &[u32]| v.partition_point(|&p| p < range.start);
        let calls = &self.call_targets[first_at_or_after(&self.call_targets)..];
        calls.first().is_some_and(|&p| within(p)) || self.for_in_inits.iter().any(|(p, _)| within(*p))
    }

    /// The 1-based line and 1-based UTF-16 column of byte offset `offset`.
    pub fn loc(&self, offset: u32) -> (u32, u32) {
        let offset = offset.min(self.text.len() as u32);
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.starts[line];
        let col = if self.ascii[line] {
            offset - start
        } else {
            let mut end = offset as usize;
            while !self.text.is_char_boundary(end) {
                end -= 1;
            }
            let (from, base) = match self.checkpoints.binary_search_by_key(&(end as u32), |&(o, _)| o) {
                Ok(i) => self.checkpoints[i],
                Err(0) => (start, 0),
                Err(i) => self.checkpoints[i - 1],
            };
            let (from, base) = if from < start { (start, 0) } else { (from, base) };
            base + self.text[from as usize..end].encode_utf16().count() as u32
        };
        let col = if line == 0 { col + self.origin.1 } else { col + 1 };
        (line as u32 + self.origin.0, col)
    }

    /// The line and column of swc position `pos`.
    pub fn pos(&self, pos: BytePos) -> (u32, u32) {
        self.loc(pos.0.saturating_sub(BASE))
    }

    /// The text of 1-based line `line` of `source` without its terminator.
    pub fn line_text<'s>(&self, source: &'s str, line: u32) -> Option<&'s str> {
        let i = (line as usize).checked_sub(1)?;
        let start = *self.starts.get(i)? as usize;
        let end = self.starts.get(i + 1).map_or(source.len(), |&e| e as usize);
        let text = source.get(start..end)?;
        Some(text.trim_end_matches(['\n', '\r', '\u{2028}', '\u{2029}']))
    }

    /// The source text covered by `span`.
    pub fn slice(&self, span: Span) -> &str {
        let r = self.range(span);
        self.text.get(r.start as usize..r.end as usize).unwrap_or("")
    }

    /// The byte range of the source text covered by `span`.
    pub fn range(&self, span: Span) -> ir::TextRange {
        let lo = (span.lo.0.saturating_sub(BASE) as usize).min(self.text.len());
        let hi = (span.hi.0.saturating_sub(BASE) as usize).clamp(lo, self.text.len());
        ir::TextRange { start: lo as u32, end: hi as u32 }
    }

    /// The whole source text, taken out (for the module compiled from it): the table has
    /// no text left after this.
    pub fn take_text(&mut self) -> String {
        std::mem::take(&mut self.text)
    }

    /// A diagnostic at the start of `span`.
    pub fn diag(&self, span: Span, message: impl Into<String>) -> Diagnostic {
        let (line, col) = self.pos(span.lo);
        Diagnostic::new(message, line, col)
    }
}

/// A parsed script and its line table.
pub struct ParsedScript {
    /// The swc AST.
    pub script: Script,
    /// Positions → lines and columns.
    pub lines: LineTable,
    /// Errors swc recovered from that may be allowed by Annex B: a function declaration as
    /// the body of an `if` (B.3.3, sloppy code only). The early error pass decides.
    pub deferred: Vec<(Span, String)>,
}

/// Parses `source` as a script (sloppy unless it starts with `"use strict"` or `strict`).
pub fn parse_script(source: &str, strict: bool) -> Result<ParsedScript, Vec<Diagnostic>> {
    let (script, lines, deferred) = parse_goal(source, strict, Allow::default(), |p| p.parse_script())?;
    Ok(ParsedScript { script, lines, deferred })
}

/// What direct eval code may contain beyond a script: `new.target` (in a function) and
/// `super` (in a method; the early error pass decides which forms).
#[derive(Clone, Copy, Debug, Default)]
pub struct Allow {
    /// `new.target`.
    pub new_target: bool,
    /// `super.x` and `super()`.
    pub super_: bool,
}

/// Parses direct eval code as a script with what its caller `allow`s.
pub fn parse_eval(source: &str, strict: bool, allow: Allow) -> Result<ParsedScript, Vec<Diagnostic>> {
    let (script, lines, deferred) = parse_goal(source, strict, allow, |p| p.parse_script())?;
    Ok(ParsedScript { script, lines, deferred })
}

/// Parses the source text of one function, compiled lazily on its own (a function
/// expression, a function declaration's text or an arrow function), as a script of one
/// expression statement; `origin` is the line and column where the text starts in its file.
pub fn parse_function(
    source: &str,
    strict: bool,
    allow: Allow,
    origin: (u32, u32),
) -> Result<ParsedScript, Vec<Diagnostic>> {
    let (expr, mut lines, deferred) = parse_goal(source, strict, allow, |p| p.parse_expr())?;
    lines.set_origin(origin.0, origin.1);
    let span = expr.span();
    let body = vec![swc_ecma_ast::Stmt::Expr(swc_ecma_ast::ExprStmt { span, expr })];
    Ok(ParsedScript { script: Script { span, body, shebang: None }, lines, deferred })
}

/// A parsed module and its line table.
pub struct ParsedModule {
    /// The swc AST.
    pub module: Module,
    /// Positions → lines and columns.
    pub lines: LineTable,
}

/// Parses `source` with the Module goal (strict, `import`/`export`, top-level `await`).
pub fn parse_module(source: &str) -> Result<ParsedModule, Vec<Diagnostic>> {
    let (module, lines, deferred) = parse_goal(source, true, Allow::default(), |p| p.parse_module())?;
    if let Some((span, message)) = deferred.into_iter().next() {
        return Err(vec![lines.diag(span, message)]);
    }
    Ok(ParsedModule { module, lines })
}

type Deferred = Vec<(Span, String)>;

/// From this size on, the nesting check runs on a thread of its own beside the line table
/// (on typescript.js, 9 MB, they take 27 and 14 ms).
const PARALLEL_SCAN: usize = 1 << 20;

/// The line table of `source` and its nesting check, side by side when it is large.
fn lines_and_nesting(source: &str) -> (LineTable, Result<(), super::nesting::TooDeep>) {
    if source.len() < PARALLEL_SCAN {
        return (LineTable::new(source), super::nesting::check(source));
    }
    std::thread::scope(|s| {
        let nesting =
            std::thread::Builder::new().name("iris-nesting".into()).spawn_scoped(s, || super::nesting::check(source));
        let lines = LineTable::new(source);
        let nesting = match nesting {
            Ok(handle) => handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            // No thread to be had: check here.
            Err(_) => super::nesting::check(source),
        };
        (lines, nesting)
    })
}

/// Parses `source` with `goal`, returning the AST, the line table and the errors that
/// early error checking decides (see `ParsedScript::deferred`).
fn parse_goal<T>(
    source: &str,
    strict: bool,
    allow: Allow,
    goal: impl Fn(&mut Parser<Lexer<'_>>) -> swc_ecma_parser::PResult<T>,
) -> Result<(T, LineTable, Deferred), Vec<Diagnostic>> {
    let len = u32::try_from(source.len()).ok().filter(|&l| l < u32::MAX - 16);
    let Some(len) = len else {
        return Err(vec![Diagnostic::new("the source file is too large", 1, 1)]);
    };
    let (mut lines, nesting) = ir::timing::time("line table, nesting check", || lines_and_nesting(source));
    nesting.map_err(|e| vec![e.diagnostic(&lines)])?;
    let mut text = std::borrow::Cow::Borrowed(source);
    let split = |errors: Vec<swc_ecma_parser::error::Error>| -> (Vec<_>, Vec<_>) {
        errors.into_iter().partition(|e| {
            matches!(e.kind(), swc_ecma_parser::error::SyntaxError::DeclNotAllowed)
                && lines.slice(e.span()).starts_with("function")
        })
    };
    let (mut ast, all) = run_swc(&text, len, strict, allow, &goal);
    let (mut deferred, mut errors) = split(all);
    let mut fixes = Vec::new();
    // Forms swc rejects that are JavaScript (see `Fix`): parse again with the form rewritten
    // to one of the same length (so every position stays), as long as that gets the parser
    // past it, and remember where.
    while !errors.is_empty() && fixes.len() < MAX_FIXES {
        let Some(fix) = errors.iter().find_map(|e| Fix::find(&text, e)) else { break };
        let mut fixed = text.clone().into_owned();
        fix.apply(&mut fixed);
        let (again, all) = run_swc(&fixed, len, strict, allow, &goal);
        let (again_deferred, again_errors) = split(all);
        if again_errors.iter().any(|e| (e.span().lo.0.saturating_sub(BASE) as usize) < fix.end()) {
            break;
        }
        (text, ast, deferred, errors) = (std::borrow::Cow::Owned(fixed), again, again_deferred, again_errors);
        fixes.push(fix);
    }
    if let (true, Some(ast)) = (errors.is_empty(), ast) {
        for fix in fixes {
            match fix {
                Fix::ForUsing { at, is_await } => lines.for_using.push((at as u32, is_await)),
                Fix::CallTarget { at, .. } => lines.call_targets.push(at as u32),
                Fix::ForInInit { var_at, init, .. } => lines.for_in_inits.push((var_at as u32, init)),
            }
        }
        lines.for_using.sort_unstable();
        lines.call_targets.sort_unstable();
        lines.for_in_inits.sort_unstable_by_key(|(p, _)| *p);
        let deferred = deferred.into_iter().map(|e| (e.span(), e.kind().msg().into_owned())).collect();
        return Ok((ast, lines, deferred));
    }
    let errors: Vec<_> = errors.into_iter().chain(deferred).collect();
    let mut diags: Vec<(u32, Diagnostic)> = errors
        .into_iter()
        .map(|e| {
            let span = e.span();
            let message = e.kind().msg().into_owned();
            (span.lo.0, lines.diag(span, message))
        })
        .collect();
    diags.sort_by_key(|(pos, _)| *pos);
    diags.dedup_by(|a, b| a.1 == b.1);
    if diags.is_empty() {
        diags.push((0, Diagnostic::new("invalid script", 1, 1)));
    }
    Err(diags.into_iter().map(|(_, d)| d).collect())
}

/// The most rewritten forms one source may have.
const MAX_FIXES: usize = 1000;

/// A form swc 47 rejects that is JavaScript, rewritten to one it parses, of the same length.
#[derive(Clone, Debug)]
enum Fix {
    /// `for (using x = v; ...)`, `for (await using x = v; ...)` (swc parses `using` in blocks
    /// and for-of heads only): the `using` (or `await`) at byte `at` is written as `const`
    /// (`await using` as `const      `); the line table remembers it (`for_using`).
    ForUsing { at: usize, is_await: bool },
    /// A call as the target of `=`, a compound assignment, `++`/`--` or a for-in/of head
    /// (Annex B's runtime errors for function call assignment targets): the call at byte
    /// `at` has its parentheses at `open` and `close`, written as `[` `]` (`f(a, b)` →
    /// `f[a, b]`) or, without arguments, as `.$` (`f()` → `f.$`); the line table remembers
    /// it (`call_target`).
    CallTarget { at: usize, open: usize, close: usize, empty: bool },
    /// `for (var x = init in obj)` (Annex B): swc lets the initializer take `in obj`. The
    /// ` = init` from `eq` to the `in` at `in_at` is blanked out, and the initializer, parsed
    /// on its own, is kept by the position `var_at` of the `var` (`for_in_init`).
    ForInInit { var_at: usize, eq: usize, in_at: usize, init: Box<swc_ecma_ast::Expr> },
}

impl Fix {
    /// The fix for swc's error `e` in `text`, if it is one of these forms.
    fn find(text: &str, e: &swc_ecma_parser::error::Error) -> Option<Fix> {
        use swc_ecma_parser::error::SyntaxError as E;
        let lo = e.span().lo.0.checked_sub(BASE)? as usize;
        if let Some((at, is_await)) = for_using_head(text, lo) {
            return Some(Fix::ForUsing { at, is_await });
        }
        if let Some(fix) = for_in_init(text, lo) {
            return Some(fix);
        }
        match e.kind() {
            E::TS2406 | E::InvalidAssignTarget | E::NotSimpleAssign => {
                let hi = e.span().hi.0.checked_sub(BASE)? as usize;
                call_target(text, lo, hi)
            }
            _ => None,
        }
    }

    fn apply(&self, text: &mut String) {
        match *self {
            Fix::ForUsing { at, is_await } => {
                if is_await {
                    let using = at + 5 + text[at + 5..].find("using").expect("for_using_head saw it");
                    text.replace_range(using..using + 5, "     ");
                }
                text.replace_range(at..at + 5, "const");
            }
            Fix::CallTarget { open, close, empty, .. } => {
                let (o, c) = if empty { (".", "$") } else { ("[", "]") };
                text.replace_range(close..close + 1, c);
                text.replace_range(open..open + 1, o);
            }
            Fix::ForInInit { eq, in_at, .. } => text.replace_range(eq..in_at, &" ".repeat(in_at - eq)),
        }
    }

    /// Where the rewritten text ends: a fix that works gets the parser past it.
    fn end(&self) -> usize {
        match *self {
            Fix::ForUsing { at, .. } => at + 5,
            Fix::CallTarget { close, .. } => close + 1,
            Fix::ForInInit { in_at, .. } => in_at,
        }
    }
}

/// `text`, which starts at byte `at` of the source, parsed as one whole expression.
fn parse_expr_at(text: &str, at: usize) -> Option<Box<swc_ecma_ast::Expr>> {
    let len = u32::try_from(text.len()).ok()?;
    let start = BASE + u32::try_from(at).ok()?;
    let input = StringInput::new(text, BytePos(start), BytePos(start + len));
    let mut parser = Parser::new_from(Lexer::new(Syntax::Es(EsSyntax::default()), EsVersion::latest(), input, None));
    let expr = parser.parse_expr().ok()?;
    let whole = expr.span().hi.0 == start + len - (text.len() - text.trim_end().len()) as u32;
    (parser.take_errors().is_empty() && whole).then_some(expr)
}

/// When swc's error at byte `lo` of `text` is inside a `for (var x = init in obj)` head:
/// the fix that blanks out ` = init`. The initializer ends at the first `in` outside
/// brackets (Initializer[~In]), found with swc's lexer, and must parse as an expression.
fn for_in_init(text: &str, lo: usize) -> Option<Fix> {
    // The nearest `for ( var x =` before the error.
    let mut search = &text[..lo.min(text.len())];
    let (var_at, eq) = loop {
        let f = search.rfind("for")?;
        if lo - f > 100_000 {
            return None;
        }
        search = &text[..f];
        if let Some(found) = var_head(text, f) {
            break found;
        }
    };
    // The first `in` outside brackets after `=`.
    let rest = &text[eq + 1..];
    let len = u32::try_from(rest.len()).ok()?;
    let start = BASE + u32::try_from(eq + 1).ok()?;
    let input = StringInput::new(rest, BytePos(start), BytePos(start + len));
    let lexer = Lexer::new(Syntax::Es(EsSyntax::default()), EsVersion::latest(), input, None);
    // Tokens are told apart by their text (strings and templates keep their quotes).
    let mut depth = 0usize;
    let mut in_at = None;
    for t in lexer.take(100_000) {
        let (tlo, thi) = ((t.span.lo.0 - BASE) as usize, (t.span.hi.0 - BASE) as usize);
        match text.get(tlo..thi).unwrap_or("") {
            "(" | "[" | "{" | "${" => depth += 1,
            ")" | "]" | "}" if depth == 0 => return None,
            ")" | "]" | "}" => depth -= 1,
            ";" if depth == 0 => return None,
            "in" if depth == 0 => {
                in_at = Some(tlo);
                break;
            }
            _ => {}
        }
    }
    let in_at = in_at?;
    let init = parse_expr_at(&text[eq + 1..in_at], eq + 1)?;
    Some(Fix::ForInInit { var_at, eq, in_at, init })
}

/// When `for` at byte `f` of `text` starts `for ( var x =`: the offsets of `var` and `=`.
fn var_head(text: &str, f: usize) -> Option<(usize, usize)> {
    word_before(&text[..f + 3], "for")?;
    let after_for = &text[f + 3..];
    let paren = after_for.trim_start().strip_prefix('(')?;
    let after_paren = paren.trim_start();
    let var_at = text.len() - after_paren.len();
    let after_var = after_paren.strip_prefix("var")?;
    if !after_var.starts_with(char::is_whitespace) {
        return None;
    }
    let name = after_var.trim_start();
    let name_len = name.find(|c: char| !is_ident_char(c)).unwrap_or(name.len());
    if name_len == 0 {
        return None;
    }
    let after_name = name[name_len..].trim_start();
    if !after_name.starts_with('=') || after_name.starts_with("==") || after_name.starts_with("=>") {
        return None;
    }
    Some((var_at, text.len() - after_name.len()))
}

/// When `text[lo..hi]`, which swc rejects as an assignment target, is a call `f(args)` that
/// is the target of `=`, a compound assignment (not a logical one), `++`/`--` or a for-in/of
/// head: the fix that writes it as a member expression. Arguments with spread or a trailing
/// comma are not rewritten.
fn call_target(text: &str, lo: usize, hi: usize) -> Option<Fix> {
    let target = text.get(lo..hi)?;
    if !target.ends_with(')') {
        return None;
    }
    let after = text[hi..].trim_start();
    if ["&&=", "||=", "??="].iter().any(|op| after.starts_with(op)) {
        return None;
    }
    let expr = parse_expr_at(target, lo)?;
    let swc_ecma_ast::Expr::Call(call) = &*expr else { return None };
    let swc_ecma_ast::Callee::Expr(callee) = &call.callee else { return None };
    if call.args.iter().any(|a| a.spread.is_some()) {
        return None;
    }
    let callee_end = (callee.span().hi.0 - BASE) as usize;
    let open = callee_end + text[callee_end..hi].find('(')?;
    let first_arg = call.args.first().map_or(hi - 1, |a| (a.expr.span().lo.0 - BASE) as usize);
    if open >= first_arg {
        return None;
    }
    Some(Fix::CallTarget { at: lo, open, close: hi - 1, empty: call.args.is_empty() })
}

/// One parse of `text` (`len` bytes) with swc: the AST if it parsed, and every error.
fn run_swc<T>(
    text: &str,
    len: u32,
    strict: bool,
    allow: Allow,
    goal: &impl Fn(&mut Parser<Lexer<'_>>) -> swc_ecma_parser::PResult<T>,
) -> (Option<T>, Vec<swc_ecma_parser::error::Error>) {
    let input = StringInput::new(text, BytePos(BASE), BytePos(BASE + len));
    let syntax = Syntax::Es(EsSyntax {
        allow_return_outside_function: false,
        explicit_resource_management: true,
        import_attributes: true,
        // Parsed so that IRGen can say they are not supported yet.
        decorators: true,
        decorators_before_export: true,
        auto_accessors: true,
        allow_super_outside_method: allow.super_,
        ..EsSyntax::default()
    });
    let lexer = Lexer::new(syntax, EsVersion::latest(), input, None);
    let mut parser = Parser::new_from(lexer);
    if strict {
        let ctx = parser.ctx() | Context::Strict;
        parser.set_ctx(ctx);
    }
    let result = goal(&mut parser);
    let mut errors = parser.take_errors();
    if allow.new_target {
        errors.retain(|e| !matches!(e.kind(), swc_ecma_parser::error::SyntaxError::InvalidNewTarget));
    }
    match result {
        Ok(ast) => (Some(ast), errors),
        Err(e) => {
            errors.push(e);
            (None, errors)
        }
    }
}

/// When `word` ends `s` as a whole word: the text before it.
fn word_before<'s>(s: &'s str, word: &str) -> Option<&'s str> {
    let before = s.strip_suffix(word)?;
    (!before.ends_with(is_ident_char)).then_some(before)
}

/// Whether `c` may be part of an identifier (or an escape in one).
fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$' || c == '\\'
}

/// When swc reports an error at byte offset `at` of `text` because it took `using` in
/// `for (using x = ...` (or `await using`, where `await` is a keyword) for an expression, the
/// offset of that `using` (or `await`) and whether it is `await using`. The binding must
/// follow `using` on the same line (or it is not a declaration) and be followed by `=` (a
/// `for (;;)` head, not for-in or for-of); the error position is the parser's, so this is
/// code, not a comment or a string.
fn for_using_head(text: &str, at: usize) -> Option<(usize, bool)> {
    let after = text.get(at..)?;
    let (before_name, after_name) = if after.starts_with('=') {
        // `for (using of = ...`: swc took `of` for a for-of and stops at `=`.
        (word_before(text[..at].trim_end_matches([' ', '\t']), "of")?, after)
    } else {
        let name_len = after.find(|c: char| !is_ident_char(c)).unwrap_or(after.len());
        if name_len == 0 || after.starts_with(|c: char| c.is_ascii_digit()) {
            return None;
        }
        (&text[..at], &after[name_len..])
    };
    let rest = after_name.trim_start();
    if !rest.starts_with('=') || rest.starts_with("==") || rest.starts_with("=>") {
        return None;
    }
    let inline_space = |s: &str| s.trim_end_matches([' ', '\t']).len();
    let before_using = word_before(&before_name[..inline_space(before_name)], "using")?;
    let (start, before_head) = match word_before(&before_using[..inline_space(before_using)], "await") {
        Some(before_await) if inline_space(before_using) < before_using.len() => (before_await.len(), before_await),
        _ => (before_using.len(), before_using),
    };
    let before_paren = before_head.trim_end().strip_suffix('(')?;
    word_before(before_paren.trim_end(), "for")?;
    Some((start, start != before_using.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_utf16_units() {
        let t = LineTable::new("a\n😀b\r\nc\u{2028}d");
        assert_eq!(t.loc(0), (1, 1));
        assert_eq!(t.loc(2), (2, 1));
        assert_eq!(t.loc(6), (2, 3)); // after the astral character (2 units)
        assert_eq!(t.loc(9), (3, 1));
        assert_eq!(t.loc(13), (4, 1));
    }

    #[test]
    fn line_terminators_are_ecmascripts() {
        // A lone CR and U+2029 end lines; U+2027 and € (also E2 ..) do not.
        let t = LineTable::new("a\rb\u{2029}c\u{2027}€d\r\n\ne");
        assert_eq!(t.loc(2), (2, 1));
        assert_eq!(t.loc(6), (3, 1));
        assert_eq!(t.loc(13), (3, 4), "after two three-byte characters, one unit each");
        assert_eq!(t.loc(16), (4, 1));
        assert_eq!(t.loc(17), (5, 1));
    }

    #[test]
    fn long_non_ascii_lines_use_checkpoints() {
        let line = "é".repeat(2000) + "x";
        let t = LineTable::new(&format!("a\n{line}"));
        assert_eq!(t.loc(2 + 4000), (2, 2001));
        assert_eq!(t.loc(2 + 1001), (2, 501));
        assert_eq!(t.loc(2 + 1000), (2, 501));
        assert_eq!(t.loc(2), (2, 1));
    }

    #[test]
    fn syntax_error_has_position() {
        let errs = parse_script("var a = 1;\nvar b = ;\n", false).err().expect("error");
        assert_eq!(errs[0].line, 2);
        assert_eq!(errs[0].col, 9);
    }

    #[test]
    fn for_using_heads_parse_as_using() {
        let src = "for (using x = a, y = b; ; ) {}\nfor ( using\tof = c;;) ;";
        let p = parse_script(src, false).expect("parses");
        assert_eq!(p.lines.for_using(BytePos(BASE + 5)), Some(false));
        assert_eq!(p.lines.for_using(BytePos(BASE + src.rfind("using").unwrap() as u32)), Some(false));
        assert_eq!(p.lines.for_using(BytePos(BASE + 4)), None);
        let src = "async function f() { for (await  using x = a;;) {} }";
        let p = parse_script(src, false).expect("parses");
        assert_eq!(p.lines.for_using(BytePos(BASE + src.find("await").unwrap() as u32)), Some(true));
        // Not declarations: a line break after `using`, `await` as an identifier, for-in.
        assert!(parse_script("for (using\nx = a;;) {}", false).is_err());
        assert!(parse_script("function f() { for (await using x = a;;) {} }", false).is_err());
        assert!(parse_script("for (using x in a) {}", false).is_err());
        assert!(parse_script("'for (using x = a;;)'; x(", false).is_err());
    }

    #[test]
    fn call_targets_parse_as_members() {
        let src = "f(a, b) = 1; o.m() += 2; g()++; for (h(x) in y) ;";
        let p = parse_script(src, false).expect("parses");
        for (call, expected) in [("f(", true), ("o.m(", true), ("g(", true), ("h(", true), ("a,", false)] {
            let at = BASE + src.find(call).unwrap() as u32;
            assert_eq!(p.lines.call_target(BytePos(at)), expected, "{call}");
        }
        assert_eq!(p.lines.slice(p.script.span), src, "the line table keeps the source text");
        // Not rewritten: logical assignment, optional calls, spread and `new`.
        for bad in ["f() &&= 1", "f?.() = 1", "f(...a) = 1", "new F() = 1", "f(a,) = 1"] {
            assert!(parse_script(bad, false).is_err(), "{bad}");
        }
    }

    #[test]
    fn strict_option_applies() {
        assert!(parse_script("with (a) {}", false).is_ok());
        assert!(parse_script("with (a) {}", true).is_err());
        assert!(parse_script("'use strict'; with (a) {}", false).is_err());
    }
}
