//! A parser for the HIR text form written by `dump.rs`, so passes can be tested on
//! hand-written IR and dumps can be read back (`dump → parse → dump` is the identity).
//!
//! The text is line-oriented: a `module` line, `scope` sections, and `function` sections made
//! of `%BBN:` labels and instruction lines. `;` starts a comment that runs to the end of the
//! line. See `dump.rs` for the syntax of each construct. Hand-written IR may leave out what
//! the dump always writes: the `module` line, result types (computed from the instruction
//! table then), and the names after `$S.I` and `@F` immediates (checked when present). Value
//! and block numbers may be any distinct numbers; forward references are allowed.
//!
//! Every error carries the 1-based line and column where it was found.

use hashbrown::HashMap;

use crate::dump::parse_var_kind;
use crate::function::{Function, FunctionKind, Literal};
use crate::inst::{BinOp, ErrorKind, Imm, ImmKind, Loc, Opcode, ResultRule, UnOp};
use crate::module::{
    ExportEntry, FuncId, ImportEntry, ImportName, Module, ModuleRecord, ModuleRequest, ScopeData, ScopeId, Var, VarData,
};
use crate::types::Type;
use crate::{Block, Value};

/// A syntax or reference error in HIR text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column (in characters).
    pub col: u32,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for ParseError {}

/// Parses a module from its text form.
pub fn parse_module(text: &str) -> Result<Module, ParseError> {
    let mut p = Parser { module: Module::new(""), checks: Vec::new() };
    p.module_text(text)?;
    p.check_references()?;
    Ok(p.module)
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Str(Vec<u16>),
    Num(f64),
    Value(u32),
    Block(u32),
    Scope(u32),
    Var(u32, u32),
    Func(u32),
    Hash(u32),
    Punct(char),
}

impl Tok {
    fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Str(_) => "a string".into(),
            Tok::Num(_) => "a number".into(),
            Tok::Value(n) => format!("`%{n}`"),
            Tok::Block(n) => format!("`%BB{n}`"),
            Tok::Scope(n) => format!("`${n}`"),
            Tok::Var(s, i) => format!("`${s}.{i}`"),
            Tok::Func(n) => format!("`@{n}`"),
            Tok::Hash(n) => format!("`#{n}`"),
            Tok::Punct(c) => format!("`{c}`"),
        }
    }
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    col: u32,
}

/// Splits one line into tokens; `;` outside a string ends the line.
fn lex_line(line: &str, line_no: u32) -> Result<Vec<Token>, ParseError> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let err = |col: usize, message: String| ParseError { line: line_no, col: col as u32 + 1, message };
    let digits = |i: &mut usize| -> Option<u32> {
        let start = *i;
        while *i < chars.len() && chars[*i].is_ascii_digit() {
            *i += 1;
        }
        chars[start..*i].iter().collect::<String>().parse().ok()
    };
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c == ';' {
            break;
        }
        let tok = match c {
            '"' => {
                i += 1;
                let mut units: Vec<u16> = Vec::new();
                loop {
                    let Some(&c) = chars.get(i) else {
                        return Err(err(start, "unterminated string".into()));
                    };
                    i += 1;
                    match c {
                        '"' => break,
                        '\\' => {
                            let Some(&e) = chars.get(i) else {
                                return Err(err(i - 1, "unterminated escape".into()));
                            };
                            i += 1;
                            match e {
                                'n' => units.push(0x0A),
                                'r' => units.push(0x0D),
                                't' => units.push(0x09),
                                'b' => units.push(0x08),
                                'f' => units.push(0x0C),
                                'v' => units.push(0x0B),
                                '0' => units.push(0),
                                'x' => {
                                    let hex: String =
                                        chars.get(i..i + 2).map(|s| s.iter().collect()).unwrap_or_default();
                                    let v = u16::from_str_radix(&hex, 16)
                                        .map_err(|_| err(i - 2, "bad \\x escape".into()))?;
                                    i += 2;
                                    units.push(v);
                                }
                                'u' if chars.get(i) == Some(&'{') => {
                                    let close = chars[i..]
                                        .iter()
                                        .position(|&c| c == '}')
                                        .ok_or_else(|| err(i - 2, "bad \\u{} escape".into()))?;
                                    let hex: String = chars[i + 1..i + close].iter().collect();
                                    let cp = u32::from_str_radix(&hex, 16)
                                        .ok()
                                        .and_then(char::from_u32)
                                        .ok_or_else(|| err(i - 2, "bad \\u{} escape".into()))?;
                                    i += close + 1;
                                    let mut buf = [0u16; 2];
                                    units.extend_from_slice(cp.encode_utf16(&mut buf));
                                }
                                'u' => {
                                    let hex: String =
                                        chars.get(i..i + 4).map(|s| s.iter().collect()).unwrap_or_default();
                                    let v = u16::from_str_radix(&hex, 16)
                                        .map_err(|_| err(i - 2, "bad \\u escape".into()))?;
                                    i += 4;
                                    units.push(v);
                                }
                                other => {
                                    let mut buf = [0u16; 2];
                                    units.extend_from_slice(other.encode_utf16(&mut buf));
                                }
                            }
                        }
                        c => {
                            let mut buf = [0u16; 2];
                            units.extend_from_slice(c.encode_utf16(&mut buf));
                        }
                    }
                }
                Tok::Str(units)
            }
            '%' => {
                i += 1;
                if chars[i..].starts_with(&['B', 'B']) {
                    i += 2;
                    Tok::Block(digits(&mut i).ok_or_else(|| err(start, "expected a block number after `%BB`".into()))?)
                } else {
                    Tok::Value(digits(&mut i).ok_or_else(|| err(start, "expected a value number after `%`".into()))?)
                }
            }
            '$' => {
                i += 1;
                let s = digits(&mut i).ok_or_else(|| err(start, "expected a scope number after `$`".into()))?;
                if chars.get(i) == Some(&'.') {
                    i += 1;
                    let v = digits(&mut i).ok_or_else(|| err(start, "expected a variable index after `$S.`".into()))?;
                    Tok::Var(s, v)
                } else {
                    Tok::Scope(s)
                }
            }
            '@' => {
                i += 1;
                Tok::Func(digits(&mut i).ok_or_else(|| err(start, "expected a function number after `@`".into()))?)
            }
            '#' => {
                i += 1;
                Tok::Hash(digits(&mut i).ok_or_else(|| err(start, "expected a number after `#`".into()))?)
            }
            c if c.is_ascii_digit() || (c == '-' && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit())) => {
                i += 1;
                while i < chars.len() {
                    let d = chars[i];
                    let sign_after_e = (d == '+' || d == '-') && matches!(chars[i - 1], 'e' | 'E');
                    if d.is_ascii_digit() || d == '.' || d == 'e' || d == 'E' || sign_after_e {
                        i += 1;
                    } else {
                        break;
                    }
                }
                let text: String = chars[start..i].iter().collect();
                Tok::Num(text.parse().map_err(|_| err(start, format!("bad number `{text}`")))?)
            }
            '-' if chars[i + 1..].starts_with(&['I', 'n', 'f', 'i', 'n', 'i', 't', 'y']) => {
                i += 9;
                Tok::Num(f64::NEG_INFINITY)
            }
            c if c.is_alphabetic() || c == '_' => {
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                Tok::Ident(chars[start..i].iter().collect())
            }
            '=' | ',' | ':' | '(' | ')' | '[' | ']' | '|' | '*' => {
                i += 1;
                Tok::Punct(c)
            }
            other => return Err(err(start, format!("unexpected character `{other}`"))),
        };
        out.push(Token { tok, col: start as u32 + 1 });
    }
    Ok(out)
}

/// A reference to check once the whole module is read (scopes and functions may be
/// referred to before they are defined).
enum Check {
    Scope(ScopeId),
    Func(FuncId, Option<Vec<u16>>),
    Var(Var, Option<Vec<u16>>),
}

struct Parser {
    module: Module,
    checks: Vec<(Check, u32, u32)>,
}

/// The tokens of one line and a cursor.
struct Line {
    no: u32,
    toks: Vec<Token>,
    pos: usize,
    end_col: u32,
}

impl Line {
    fn err(&self, message: impl Into<String>) -> ParseError {
        let col = self.toks.get(self.pos).map_or(self.end_col, |t| t.col);
        ParseError { line: self.no, col, message: message.into() }
    }
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }
    fn col(&self) -> u32 {
        self.toks.get(self.pos).map_or(self.end_col, |t| t.col)
    }
    fn next(&mut self, what: &str) -> Result<Tok, ParseError> {
        match self.toks.get(self.pos) {
            Some(t) => {
                self.pos += 1;
                Ok(t.tok.clone())
            }
            None => Err(self.err(format!("expected {what}, found the end of the line"))),
        }
    }
    fn unexpected(&self, what: &str) -> ParseError {
        match self.peek() {
            Some(t) => self.err(format!("expected {what}, found {}", t.describe())),
            None => self.err(format!("expected {what}, found the end of the line")),
        }
    }
    fn is_punct(&self, c: char) -> bool {
        self.peek() == Some(&Tok::Punct(c))
    }
    fn is_ident(&self, s: &str) -> bool {
        matches!(self.peek(), Some(Tok::Ident(i)) if i == s)
    }
    fn eat_punct(&mut self, c: char) -> bool {
        if self.is_punct(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn expect_punct(&mut self, c: char) -> Result<(), ParseError> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            Err(self.unexpected(&format!("`{c}`")))
        }
    }
    fn expect_ident(&mut self, s: &str) -> Result<(), ParseError> {
        if self.is_ident(s) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.unexpected(&format!("`{s}`")))
        }
    }
    fn ident(&mut self, what: &str) -> Result<String, ParseError> {
        match self.peek() {
            Some(Tok::Ident(s)) => {
                let s = s.clone();
                self.pos += 1;
                Ok(s)
            }
            _ => Err(self.unexpected(what)),
        }
    }
    fn string(&mut self, what: &str) -> Result<Vec<u16>, ParseError> {
        match self.peek() {
            Some(Tok::Str(s)) => {
                let s = s.clone();
                self.pos += 1;
                Ok(s)
            }
            _ => Err(self.unexpected(what)),
        }
    }
    fn uint(&mut self, what: &str) -> Result<u32, ParseError> {
        match self.peek() {
            Some(&Tok::Num(n))
                if n >= 0.0 && n <= u32::MAX as f64 && n.fract() == 0.0 && !(n == 0.0 && n.is_sign_negative()) =>
            {
                self.pos += 1;
                Ok(n as u32)
            }
            _ => Err(self.unexpected(what)),
        }
    }
    fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }
    fn expect_end(&self) -> Result<(), ParseError> {
        if self.at_end() {
            Ok(())
        } else {
            Err(self.unexpected("the end of the line"))
        }
    }
    /// `key=` of a header attribute.
    fn key(&mut self, key: &str) -> Result<(), ParseError> {
        self.expect_ident(key)?;
        self.expect_punct('=')
    }
    fn opt_scope(&mut self) -> Result<Option<ScopeId>, ParseError> {
        match self.peek() {
            Some(Tok::Scope(s)) => {
                let s = ScopeId(*s);
                self.pos += 1;
                Ok(Some(s))
            }
            Some(Tok::Ident(i)) if i == "none" => {
                self.pos += 1;
                Ok(None)
            }
            _ => Err(self.unexpected("a scope `$N` or `none`")),
        }
    }
}

/// An operand as written, before values are resolved.
enum RawOperand {
    Value(u32, u32),
    Literal(Literal),
}

/// An instruction as written.
struct RawInst {
    line: u32,
    col: u32,
    result: Option<u32>,
    opcode: Opcode,
    imm: Imm,
    args: Vec<RawOperand>,
    targets: Vec<(u32, u32)>,
    ty: Option<Type>,
    loc: Loc,
}

impl Parser {
    fn module_text(&mut self, text: &str) -> Result<(), ParseError> {
        let mut lines = Vec::new();
        for (n, raw) in text.lines().enumerate() {
            let no = n as u32 + 1;
            let toks = lex_line(raw, no)?;
            if !toks.is_empty() {
                lines.push(Line { no, toks, pos: 0, end_col: raw.chars().count() as u32 + 1 });
            }
        }
        let mut i = 0;
        if let Some(first) = lines.first_mut() {
            if first.is_ident("module") {
                first.pos += 1;
                self.module.source_name = String::from_utf16_lossy(&first.string("the source name")?);
                if first.is_ident("top_level") {
                    first.key("top_level")?;
                    let col = first.col();
                    match first.next("a function")? {
                        Tok::Func(f) => {
                            self.module.top_level = Some(FuncId(f));
                            self.checks.push((Check::Func(FuncId(f), None), first.no, col));
                        }
                        _ => {
                            return Err(ParseError { line: first.no, col, message: "expected a function `@N`".into() })
                        }
                    }
                }
                first.expect_end()?;
                i = 1;
            }
        }
        while i < lines.len() {
            let line = &lines[i];
            if line.is_ident("module_record") && self.module.module_record.is_none() {
                i = self.module_record(&mut lines, i)?;
            } else if line.is_ident("scope") {
                i = self.scope(&mut lines, i)?;
            } else if line.is_ident("function") {
                i = self.function(&mut lines, i)?;
            } else {
                return Err(line.unexpected("`scope` or `function`"));
            }
        }
        Ok(())
    }

    /// `module_record` and its `request`, `import` and `export` lines (see `dump`).
    fn module_record(&mut self, lines: &mut [Line], mut i: usize) -> Result<usize, ParseError> {
        let line = &mut lines[i];
        line.expect_ident("module_record")?;
        line.key("scope")?;
        let col = line.col();
        let Some(scope) = line.opt_scope()? else {
            return Err(ParseError { line: line.no, col, message: "expected a scope `$N`".into() });
        };
        self.checks.push((Check::Scope(scope), line.no, col));
        line.key("module_slot")?;
        let module_slot = line.uint("a slot")?;
        line.key("tla")?;
        let has_tla = match line.ident("`true` or `false`")?.as_str() {
            "true" => true,
            "false" => false,
            _ => {
                line.pos -= 1;
                return Err(line.unexpected("`true` or `false`"));
            }
        };
        line.expect_end()?;
        let mut record = ModuleRecord {
            scope,
            module_slot,
            has_tla,
            requests: Vec::new(),
            imports: Vec::new(),
            exports: Vec::new(),
        };
        i += 1;
        while let Some(line) = lines.get_mut(i) {
            if line.is_ident("request") {
                line.pos += 1;
                let n = Self::hash(line)?;
                if n as usize != record.requests.len() {
                    line.pos -= 1;
                    return Err(line.err(format!("expected request #{}", record.requests.len())));
                }
                let specifier = line.string("the specifier")?;
                let specifier = self.module.atom_utf16(&specifier);
                line.key("loc")?;
                let loc = Self::loc_value(line)?;
                let defer = line.is_ident("defer");
                if defer {
                    line.pos += 1;
                }
                let mut attributes = Vec::new();
                if line.is_ident("with") {
                    line.pos += 1;
                    while !line.at_end() {
                        let k = line.string("an attribute key")?;
                        line.expect_punct('=')?;
                        let v = line.string("an attribute value")?;
                        attributes.push((self.module.atom_utf16(&k), self.module.atom_utf16(&v)));
                    }
                }
                line.expect_end()?;
                record.requests.push(ModuleRequest { specifier, attributes, defer, loc });
            } else if line.is_ident("import") {
                line.pos += 1;
                let slot = Self::slot_of(line, scope)?;
                line.expect_ident("from")?;
                let request = Self::request(line, &record)?;
                let name = self.import_name(line)?;
                line.expect_end()?;
                record.imports.push(ImportEntry { request, name, slot });
            } else if line.is_ident("export") {
                line.pos += 1;
                let entry = if line.eat_punct('*') {
                    line.expect_ident("from")?;
                    ExportEntry::Star { request: Self::request(line, &record)? }
                } else {
                    let name = line.string("the export name")?;
                    let name = self.module.atom_utf16(&name);
                    if line.eat_punct('=') {
                        ExportEntry::Local { name, slot: Self::slot_of(line, scope)? }
                    } else {
                        line.expect_ident("from")?;
                        let request = Self::request(line, &record)?;
                        ExportEntry::Indirect { name, request, import: self.import_name(line)? }
                    }
                };
                line.expect_end()?;
                record.exports.push(entry);
            } else {
                break;
            }
            i += 1;
        }
        self.module.module_record = Some(record);
        Ok(i)
    }

    fn hash(line: &mut Line) -> Result<u32, ParseError> {
        match line.next("`#N`")? {
            Tok::Hash(n) => Ok(n),
            _ => {
                line.pos -= 1;
                Err(line.unexpected("`#N`"))
            }
        }
    }

    /// `#N`, a request of `record`.
    fn request(line: &mut Line, record: &ModuleRecord) -> Result<u32, ParseError> {
        let n = Self::hash(line)?;
        if n as usize >= record.requests.len() {
            line.pos -= 1;
            return Err(line.err(format!("no request #{n}")));
        }
        Ok(n)
    }

    /// `$S.N`, a variable of the module scope `scope`.
    fn slot_of(line: &mut Line, scope: ScopeId) -> Result<u32, ParseError> {
        match line.next("a variable `$S.N`")? {
            Tok::Var(s, n) if s == scope.0 => Ok(n),
            _ => {
                line.pos -= 1;
                Err(line.unexpected(&format!("a variable of the module scope ${}", scope.0)))
            }
        }
    }

    /// A quoted export name or `*`.
    fn import_name(&mut self, line: &mut Line) -> Result<ImportName, ParseError> {
        if line.eat_punct('*') {
            return Ok(ImportName::Namespace);
        }
        if line.is_ident("source") {
            line.pos += 1;
            return Ok(ImportName::Source);
        }
        if line.is_ident("defer") {
            line.pos += 1;
            return Ok(ImportName::Deferred);
        }
        let n = line.string("a name or `*`")?;
        Ok(ImportName::Name(self.module.atom_utf16(&n)))
    }

    fn scope(&mut self, lines: &mut [Line], mut i: usize) -> Result<usize, ParseError> {
        let line = &mut lines[i];
        line.expect_ident("scope")?;
        let id = match line.next("a scope")? {
            Tok::Scope(s) => s,
            _ => {
                line.pos -= 1;
                return Err(line.unexpected("a scope `$N`"));
            }
        };
        if id as usize != self.module.scopes.len() {
            line.pos -= 1;
            return Err(line.err(format!("scopes must be numbered in order: expected ${}", self.module.scopes.len())));
        }
        line.expect_ident("in")?;
        let col = line.col();
        let function = match line.next("a function")? {
            Tok::Func(f) => FuncId(f),
            _ => {
                line.pos -= 1;
                return Err(line.unexpected("a function `@N`"));
            }
        };
        self.checks.push((Check::Func(function, None), line.no, col));
        line.key("parent")?;
        let col = line.col();
        let parent = line.opt_scope()?;
        if let Some(p) = parent {
            self.checks.push((Check::Scope(p), line.no, col));
        }
        line.expect_end()?;
        let mut vars = Vec::new();
        i += 1;
        while let Some(line) = lines.get_mut(i) {
            let Some(Tok::Var(s, v)) = line.peek().cloned() else { break };
            if s != id || v as usize != vars.len() {
                return Err(line.err(format!("expected variable ${id}.{}", vars.len())));
            }
            line.pos += 1;
            let kind_text = line.ident("a variable kind")?;
            let kind = parse_var_kind(&kind_text).ok_or_else(|| {
                line.pos -= 1;
                line.err(format!("unknown variable kind `{kind_text}`"))
            })?;
            let name = line.string("the variable's name")?;
            line.expect_end()?;
            let name = self.module.atom_utf16(&name);
            vars.push(VarData { name, kind });
            i += 1;
        }
        self.module.scopes.push(ScopeData { parent, function, vars });
        Ok(i)
    }

    fn function(&mut self, lines: &mut [Line], mut i: usize) -> Result<usize, ParseError> {
        let line = &mut lines[i];
        line.expect_ident("function")?;
        let id = match line.next("a function")? {
            Tok::Func(f) => f,
            _ => {
                line.pos -= 1;
                return Err(line.unexpected("a function `@N`"));
            }
        };
        if id as usize != self.module.functions.len() {
            line.pos -= 1;
            return Err(
                line.err(format!("functions must be numbered in order: expected @{}", self.module.functions.len()))
            );
        }
        let name = line.string("the function's name")?;
        let name = self.module.atom_utf16(&name);
        line.expect_punct('(')?;
        let mut params = Vec::new();
        if !line.eat_punct(')') {
            loop {
                let p = line.string("a parameter name")?;
                params.push(self.module.atom_utf16(&p));
                if line.eat_punct(')') {
                    break;
                }
                line.expect_punct(',')?;
            }
        }
        line.key("kind")?;
        let kind_text = line.ident("a function kind")?;
        let kind = FunctionKind::parse(&kind_text).ok_or_else(|| {
            line.pos -= 1;
            line.err(format!("unknown function kind `{kind_text}`"))
        })?;
        let strict = match line.ident("`strict` or `sloppy`")?.as_str() {
            "strict" => true,
            "sloppy" => false,
            _ => {
                line.pos -= 1;
                return Err(line.unexpected("`strict` or `sloppy`"));
            }
        };
        line.key("parent")?;
        let col = line.col();
        let parent_scope = line.opt_scope()?;
        if let Some(p) = parent_scope {
            self.checks.push((Check::Scope(p), line.no, col));
        }
        line.key("length")?;
        let length = line.uint("the function's length")?;
        let mut func = Function::new(name, kind, strict);
        func.params = params;
        func.length = length;
        func.parent_scope = parent_scope;
        if line.is_ident("loc") {
            line.key("loc")?;
            func.loc = Self::loc_value(line)?;
        }
        if line.is_ident("source") {
            line.key("source")?;
            let s = line.string("the source text")?;
            func.source = Some(self.module.add_source_text(&String::from_utf16_lossy(&s)));
        }
        if line.is_ident("once") {
            line.expect_ident("once")?;
            func.run_once = true;
        }
        if line.is_ident("lazy") {
            line.key("lazy")?;
            let s = line.string("the lazy function's scope")?;
            func.lazy = Some(self.module.atom_utf16(&s));
        }
        line.expect_end()?;
        i += 1;

        // Blocks and instructions as written.
        let mut blocks: Vec<(u32, Vec<RawInst>)> = Vec::new();
        let mut block_names: HashMap<u32, usize> = HashMap::new();
        while let Some(line) = lines.get_mut(i) {
            if line.is_ident("function") || line.is_ident("scope") {
                break;
            }
            if let Some(Tok::Block(b)) = line.peek().cloned() {
                if line.toks.get(1).map(|t| &t.tok) == Some(&Tok::Punct(':')) {
                    if block_names.insert(b, blocks.len()).is_some() {
                        return Err(line.err(format!("block %BB{b} is defined twice")));
                    }
                    line.pos = 2;
                    line.expect_end()?;
                    blocks.push((b, Vec::new()));
                    i += 1;
                    continue;
                }
            }
            let Some(block) = blocks.last_mut() else {
                return Err(line.unexpected("a block label `%BBN:`"));
            };
            let inst = self.inst(line)?;
            block.1.push(inst);
            i += 1;
        }
        if blocks.is_empty() {
            let line = &lines[i - 1];
            return Err(ParseError {
                line: line.no,
                col: line.end_col,
                message: "a function needs at least one block".into(),
            });
        }
        self.build_function(func, blocks, &block_names)?;
        Ok(i)
    }

    fn loc_value(line: &mut Line) -> Result<Loc, ParseError> {
        let l = line.uint("a line number")?;
        line.expect_punct(':')?;
        let c = line.uint("a column number")?;
        Ok(Loc { line: l, col: c })
    }

    fn inst(&mut self, line: &mut Line) -> Result<RawInst, ParseError> {
        let col = line.col();
        let mut result = None;
        if let Some(&Tok::Value(v)) = line.peek() {
            line.pos += 1;
            line.expect_punct('=')?;
            result = Some(v);
        }
        let mn_col = line.col();
        let mnemonic = line.ident("an instruction mnemonic")?;
        let opcode = Opcode::from_mnemonic(&mnemonic).ok_or_else(|| ParseError {
            line: line.no,
            col: mn_col,
            message: format!("unknown instruction `{mnemonic}`"),
        })?;
        let info = opcode.info();
        match (result.is_some(), info.result == ResultRule::None) {
            (true, true) => {
                return Err(ParseError { line: line.no, col, message: format!("`{mnemonic}` has no result") });
            }
            (false, false) => {
                return Err(ParseError {
                    line: line.no,
                    col,
                    message: format!("`{mnemonic}` has a result: write `%N = {mnemonic} ...`"),
                });
            }
            _ => {}
        }
        let imm = self.imm(line, info.imm)?;
        let mut args = Vec::new();
        let mut targets = Vec::new();
        let list_ends = |line: &Line| line.at_end() || line.is_punct(':') || line.is_ident("at");
        if !list_ends(line) {
            loop {
                if opcode == Opcode::Phi {
                    line.expect_punct('[')?;
                    args.push(Self::operand(line, &mut self.module)?);
                    line.expect_punct(',')?;
                    let tcol = line.col();
                    match line.next("a block")? {
                        Tok::Block(b) => targets.push((b, tcol)),
                        _ => {
                            line.pos -= 1;
                            return Err(line.unexpected("a block `%BBN`"));
                        }
                    }
                    line.expect_punct(']')?;
                } else if let Some(&Tok::Block(b)) = line.peek() {
                    targets.push((b, line.col()));
                    line.pos += 1;
                } else {
                    if !targets.is_empty() {
                        return Err(line.err("value operands must come before block targets"));
                    }
                    args.push(Self::operand(line, &mut self.module)?);
                }
                if !line.eat_punct(',') {
                    break;
                }
            }
        }
        let mut ty = None;
        if line.eat_punct(':') {
            let tcol = line.col();
            let mut text = line.ident("a type")?;
            while line.eat_punct('|') {
                text.push('|');
                text.push_str(&line.ident("a type")?);
            }
            ty = Some(Type::parse(&text).ok_or_else(|| ParseError {
                line: line.no,
                col: tcol,
                message: format!("unknown type `{text}`"),
            })?);
            if result.is_none() {
                return Err(ParseError {
                    line: line.no,
                    col: tcol,
                    message: "an instruction without a result has no type".into(),
                });
            }
        }
        let mut loc = Loc::default();
        if line.is_ident("at") {
            line.pos += 1;
            loc = Self::loc_value(line)?;
        }
        line.expect_end()?;
        Ok(RawInst { line: line.no, col, result, opcode, imm, args, targets, ty, loc })
    }

    fn operand(line: &mut Line, module: &mut Module) -> Result<RawOperand, ParseError> {
        let col = line.col();
        let tok = line.next("an operand")?;
        Ok(match tok {
            Tok::Value(v) => RawOperand::Value(v, col),
            Tok::Num(n) => RawOperand::Literal(Literal::Number(n)),
            Tok::Str(s) => RawOperand::Literal(Literal::String(module.atom_utf16(&s))),
            Tok::Ident(i) => RawOperand::Literal(match i.as_str() {
                "undefined" => Literal::Undefined,
                "null" => Literal::Null,
                "empty" => Literal::Empty,
                "true" => Literal::Bool(true),
                "false" => Literal::Bool(false),
                "NaN" => Literal::Number(f64::NAN),
                "Infinity" => Literal::Number(f64::INFINITY),
                _ => {
                    line.pos -= 1;
                    return Err(line.unexpected("an operand"));
                }
            }),
            _ => {
                line.pos -= 1;
                return Err(line.unexpected("an operand"));
            }
        })
    }

    fn imm(&mut self, line: &mut Line, kind: ImmKind) -> Result<Imm, ParseError> {
        let col = line.col();
        let no = line.no;
        let bad = |line: &Line, what: &str| line.unexpected(what);
        Ok(match kind {
            ImmKind::None => Imm::None,
            ImmKind::Name => {
                let s = line.string("a name immediate (a string)")?;
                Imm::Name(self.module.atom_utf16(&s))
            }
            ImmKind::Index | ImmKind::Flags | ImmKind::Builtin => {
                let Some(&Tok::Hash(n)) = line.peek() else {
                    return Err(bad(line, "an immediate `#N`"));
                };
                line.pos += 1;
                match kind {
                    ImmKind::Index => Imm::Index(n),
                    ImmKind::Flags => Imm::Flags(n),
                    _ => Imm::Builtin(u8::try_from(n).map_err(|_| ParseError {
                        line: no,
                        col,
                        message: "builtin number out of range".into(),
                    })?),
                }
            }
            ImmKind::Scope => {
                let Some(&Tok::Scope(s)) = line.peek() else {
                    return Err(bad(line, "a scope immediate `$S`"));
                };
                line.pos += 1;
                self.checks.push((Check::Scope(ScopeId(s)), no, col));
                Imm::Scope(ScopeId(s))
            }
            ImmKind::Var => {
                let Some(&Tok::Var(s, i)) = line.peek() else {
                    return Err(bad(line, "a variable immediate `$S.I`"));
                };
                line.pos += 1;
                let var = Var { scope: ScopeId(s), index: i };
                let name = if line.eat_punct(':') { Some(line.string("the variable's name")?) } else { None };
                self.checks.push((Check::Var(var, name), no, col));
                Imm::Var(var)
            }
            ImmKind::Func => {
                let Some(&Tok::Func(f)) = line.peek() else {
                    return Err(bad(line, "a function immediate `@F`"));
                };
                line.pos += 1;
                let name = if line.eat_punct(':') { Some(line.string("the function's name")?) } else { None };
                self.checks.push((Check::Func(FuncId(f), name), no, col));
                Imm::Func(FuncId(f))
            }
            ImmKind::BinOp => {
                let s = String::from_utf16_lossy(&line.string("a binary operator (a string)")?);
                Imm::BinOp(BinOp::parse(&s).ok_or_else(|| ParseError {
                    line: no,
                    col,
                    message: format!("unknown binary operator {s:?}"),
                })?)
            }
            ImmKind::UnOp => {
                let s = String::from_utf16_lossy(&line.string("a unary operator (a string)")?);
                Imm::UnOp(UnOp::parse(&s).ok_or_else(|| ParseError {
                    line: no,
                    col,
                    message: format!("unknown unary operator {s:?}"),
                })?)
            }
            ImmKind::RegExp => {
                let p = line.string("a regexp pattern (a string)")?;
                let f = line.string("regexp flags (a string)")?;
                Imm::RegExp(self.module.atom_utf16(&p), self.module.atom_utf16(&f))
            }
            ImmKind::Error => {
                let k = line.ident("an error kind")?;
                let kind = ErrorKind::from_name(&k).ok_or_else(|| ParseError {
                    line: no,
                    col,
                    message: format!("unknown error kind `{k}`"),
                })?;
                let m = line.string("an error message")?;
                Imm::Error(kind, self.module.atom_utf16(&m))
            }
        })
    }

    fn build_function(
        &mut self,
        mut func: Function,
        blocks: Vec<(u32, Vec<RawInst>)>,
        block_names: &HashMap<u32, usize>,
    ) -> Result<(), ParseError> {
        let block_ids: Vec<Block> = blocks.iter().map(|_| func.add_block()).collect();
        let resolve_block = |name: u32, line: u32, col: u32| -> Result<Block, ParseError> {
            block_names.get(&name).map(|&i| block_ids[i]).ok_or_else(|| ParseError {
                line,
                col,
                message: format!("unknown block %BB{name}"),
            })
        };
        let mut value_names: HashMap<u32, Value> = HashMap::new();
        let mut made = Vec::new();
        for (bi, (_, insts)) in blocks.iter().enumerate() {
            for raw in insts {
                let targets = raw
                    .targets
                    .iter()
                    .map(|&(b, col)| resolve_block(b, raw.line, col))
                    .collect::<Result<Vec<_>, _>>()?;
                let inst = func.make_inst(raw.opcode, Vec::new(), targets, raw.imm, raw.loc);
                func.append_inst(block_ids[bi], inst);
                if let Some(name) = raw.result {
                    if value_names.insert(name, func.result(inst)).is_some() {
                        return Err(ParseError {
                            line: raw.line,
                            col: raw.col,
                            message: format!("value %{name} is defined twice"),
                        });
                    }
                }
                made.push((inst, raw));
            }
        }
        for (inst, raw) in &made {
            let mut args = Vec::with_capacity(raw.args.len());
            for a in &raw.args {
                args.push(match *a {
                    RawOperand::Value(n, col) => *value_names.get(&n).ok_or_else(|| ParseError {
                        line: raw.line,
                        col,
                        message: format!("unknown value %{n}"),
                    })?,
                    RawOperand::Literal(lit) => func.literal(lit),
                });
            }
            func.insts[*inst].args = args.into_iter().collect();
        }
        // Types: as written, else from the table in layout order (forward references start
        // from the widest type).
        for (inst, raw) in &made {
            if let Some(r) = func.insts[*inst].result {
                func.values[r].ty = raw.ty.unwrap_or(Type::ANY.union(Type::EMPTY));
            }
        }
        for (inst, raw) in &made {
            if raw.ty.is_none() {
                if let Some(r) = func.insts[*inst].result {
                    func.values[r].ty = func.result_type(*inst);
                }
            }
        }
        self.module.functions.push(func);
        Ok(())
    }

    fn check_references(&self) -> Result<(), ParseError> {
        let m = &self.module;
        for (check, line, col) in &self.checks {
            let err = |message: String| Err(ParseError { line: *line, col: *col, message });
            match check {
                Check::Scope(s) => {
                    if m.scopes.get(*s).is_none() {
                        return err(format!("unknown scope ${}", s.0));
                    }
                }
                Check::Func(f, name) => match m.functions.get(*f) {
                    None => return err(format!("unknown function @{}", f.0)),
                    Some(func) => {
                        if let Some(name) = name {
                            if m.atom_units(func.name) != name.as_slice() {
                                return err(format!(
                                    "function @{} is named {}",
                                    f.0,
                                    crate::dump::quote_atom(m, func.name)
                                ));
                            }
                        }
                    }
                },
                Check::Var(v, name) => {
                    let Some(scope) = m.scopes.get(v.scope) else {
                        return err(format!("unknown scope ${}", v.scope.0));
                    };
                    let Some(data) = scope.vars.get(v.index as usize) else {
                        return err(format!("scope ${} has no variable {}", v.scope.0, v.index));
                    };
                    if let Some(name) = name {
                        if m.atom_units(data.name) != name.as_slice() {
                            return err(format!(
                                "variable ${}.{} is named {}",
                                v.scope.0,
                                v.index,
                                crate::dump::quote_atom(m, data.name)
                            ));
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dump::{dump_module, dump_module_with, DumpOptions};
    use crate::function::Function;

    const SAMPLE: &str = r#"module "app.js" top_level=@0

scope $0 in @0 parent=none
  $0.0 let "x"
  $0.1 internal "a\"b\\c\n\uD800"

scope $1 in @1 parent=$0

function @0 ""() kind=toplevel sloppy parent=none length=0
%BB0:
  %0 = create_scope $0 undefined : environment
  store_frame $0.0:"x" empty, %0
  %1 = create_closure @1:"f" %0 : closure
  %2 = load_frame $0.0:"x" %0 : any|empty
  %3 = throw_if_empty "x" %2 : any
  %4 = call %1, undefined, 1, -0, NaN, -Infinity, 1.5e-7, "s\u0001" : any
  cond_branch %4, %BB1, %BB2
%BB1:
  %5 = binary_op "+" %3, 1 : string|number|bigint
  branch %BB2
%BB2:
  %6 = phi [%4, %BB0], [%5, %BB1] : any
  try_start %BB3, %BB4
%BB3:
  throw_error TypeError "oops"
%BB4:
  %7 = catch : any
  %8 = create_regexp "a+" "gi" : regexp
  %9 = call_builtin #3 %8, %7 : any
  %10 = unary_op "typeof" %9 : string
  define_own_property #1 %10, %8, "k"
  return %6

function @1 "f"("a", "b") kind=arrow strict parent=$0 length=2 loc=3:14 source="(a, b) => a"
%BB0:
  %0 = load_param #1 : any
  %1 = get_parent_scope $0 : environment
  %2 = resolve_scope $0 %1 : environment
  return %0
"#;

    #[test]
    fn dump_parse_dump_is_identity() {
        let m = parse_module(SAMPLE).unwrap();
        let text = dump_module(&m);
        assert_eq!(text, SAMPLE);
        let again = dump_module(&parse_module(&text).unwrap());
        assert_eq!(again, text);
    }

    #[test]
    fn every_opcode_and_immediate_kind_round_trips() {
        use crate::inst::{Arity, ErrorKind};
        use crate::module::VarKind;
        let mut m = Module::new("all.js");
        let fname = m.atom("f");
        let f = m.add_function(Function::new(fname, FunctionKind::Normal, false));
        let scope = m.add_scope(None, f);
        let x = m.atom("x\u{2028}");
        let var = m.add_var(scope, x, VarKind::Const);
        let (pat, flags, msg) = (m.atom("a\\d+"), m.atom("gu"), m.atom("bad \"thing\""));
        let func = &mut m.functions[f];
        let blocks: Vec<Block> = (0..Opcode::ALL.len()).map(|_| func.add_block()).collect();
        for (k, &op) in Opcode::ALL.iter().enumerate() {
            let info = op.info();
            let n = |a: Arity| match a {
                Arity::Exactly(n) | Arity::AtLeast(n) => n as usize,
            };
            let lits = [Literal::Number(-0.0), Literal::String(x), Literal::Empty, Literal::Bool(false)];
            let mut args: Vec<Value> = (0..n(info.args)).map(|i| func.literal(lits[i % lits.len()])).collect();
            let mut targets: Vec<Block> = (0..n(info.targets)).map(|i| blocks[(k + i + 1) % blocks.len()]).collect();
            if op == Opcode::Phi {
                args.push(func.literal(Literal::Number(1e-7)));
                targets.push(blocks[0]);
            }
            let imm = match info.imm {
                ImmKind::None => Imm::None,
                ImmKind::Name => Imm::Name(x),
                ImmKind::Index => Imm::Index(7),
                ImmKind::Flags => Imm::Flags(3),
                ImmKind::Scope => Imm::Scope(scope),
                ImmKind::Var => Imm::Var(var),
                ImmKind::Func => Imm::Func(f),
                ImmKind::BinOp => Imm::BinOp(BinOp::UShr),
                ImmKind::UnOp => Imm::UnOp(UnOp::TypeOf),
                ImmKind::Builtin => Imm::Builtin(200),
                ImmKind::RegExp => Imm::RegExp(pat, flags),
                ImmKind::Error => Imm::Error(ErrorKind::RangeError, msg),
            };
            let inst = func.make_inst(op, args, targets, imm, Loc { line: k as u32 + 1, col: 2 });
            func.append_inst(blocks[k], inst);
        }
        let opts = DumpOptions { locations: true };
        let text = dump_module_with(&m, &opts);
        let back = parse_module(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(dump_module_with(&back, &opts), text);
        assert!(text.contains("load_frame $0.0:\"x\\u2028\" -0 : any|empty at"), "{text}");
        assert!(text.contains("throw_error RangeError \"bad \\\"thing\\\"\" at"), "{text}");
        assert!(text.contains("create_regexp \"a\\\\d+\" \"gu\" : regexp"), "{text}");
    }

    #[test]
    fn locations_round_trip() {
        let text = "module \"t.js\"\n\nfunction @0 \"\"() kind=toplevel sloppy parent=none length=0\n%BB0:\n  %0 = load_param #0 : any at 2:5\n  return %0 at 3:1\n";
        let m = parse_module(text).unwrap();
        let opts = DumpOptions { locations: true };
        assert_eq!(dump_module_with(&m, &opts), text);
    }

    #[test]
    fn hand_written_ir_may_omit_types_and_use_any_numbers() {
        let text = "function @0 \"g\"() kind=function strict parent=none length=0\n\
                    %BB7:\n  %10 = load_param #1\n  branch %BB3\n%BB3:\n  %4 = binary_op \"-\" %10, 2\n  return %4\n";
        let m = parse_module(text).unwrap();
        assert_eq!(
            dump_module(&m),
            "module \"\"\n\nfunction @0 \"g\"() kind=function strict parent=none length=0\n\
             %BB0:\n  %0 = load_param #1 : any\n  branch %BB1\n%BB1:\n  %1 = binary_op \"-\" %0, 2 : number|bigint\n  return %1\n"
        );
    }

    fn err_of(text: &str) -> ParseError {
        parse_module(text).unwrap_err()
    }

    #[test]
    fn errors_carry_line_and_column() {
        let head = "function @0 \"g\"() kind=function strict parent=none length=0\n%BB0:\n";
        let e = err_of(&format!("{head}  %0 = frobnicate 1\n"));
        assert_eq!((e.line, e.col), (3, 8), "{e}");
        assert!(e.message.contains("unknown instruction"), "{e}");

        let e = err_of(&format!("{head}  return %7\n"));
        assert_eq!((e.line, e.col), (3, 10), "{e}");
        assert!(e.message.contains("unknown value %7"), "{e}");

        let e = err_of(&format!("{head}  branch %BB9\n"));
        assert_eq!((e.line, e.col), (3, 10), "{e}");

        let e = err_of(&format!("{head}  return \"abc\n"));
        assert_eq!((e.line, e.col), (3, 10), "{e}");
        assert!(e.message.contains("unterminated"), "{e}");

        let e = err_of(&format!("{head}  %0 = load_frame $4.0 undefined\n"));
        assert!(e.message.contains("unknown scope $4"), "{e}");
        assert_eq!((e.line, e.col), (3, 19), "{e}");

        let e = err_of(&format!("{head}  branch %BB0\n  %1 = load_param #0 : numbr\n"));
        assert_eq!((e.line, e.col), (4, 24), "{e}");

        let e = err_of(&format!("{head}  return 1 : number\n"));
        assert_eq!((e.line, e.col), (3, 14), "{e}");

        let e = err_of("function @1 \"g\"() kind=function strict parent=none length=0\n%BB0:\n  return 1\n");
        assert_eq!((e.line, e.col), (1, 10), "{e}");
    }

    #[test]
    fn names_after_references_are_checked() {
        let text = "scope $0 in @0 parent=none\n  $0.0 var \"x\"\n\
                    function @0 \"g\"() kind=function strict parent=none length=0\n%BB0:\n  %0 = load_frame $0.0:\"y\" undefined\n  return %0\n";
        let e = err_of(text);
        assert_eq!(e.line, 5);
        assert!(e.message.contains("named \"x\""), "{e}");
    }
}
