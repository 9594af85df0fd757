//! Early errors swc does not report (ECMA-262 "Static Semantics: Early Errors").
//!
//! swc checks most of the grammar's early errors (labels, `break`/`continue` targets,
//! `return` outside functions, strict-mode reserved words, invalid simple assignment
//! targets, ...). What it leaves out, and this pass checks:
//! - redeclarations: duplicate lexical names in a block, switch, function body or script;
//!   lexical names that are also `var` names of the same scope; lexical names that are
//!   parameters; catch parameters redeclared in the catch block; `for (let ...)` names
//!   redeclared by `var` in the body (sloppy duplicate block functions are allowed, Annex B);
//! - duplicate parameters in strict functions, arrows, methods and functions with
//!   non-simple parameter lists; `eval`/`arguments` as names of functions whose own body
//!   is strict, and as shorthand destructuring assignment targets in strict code;
//! - `super(...)` outside derived class constructors and `super.x` outside methods;
//! - duplicate `__proto__: value` in an object literal;
//! - static class methods named `prototype`;
//! - `continue` to a label that is not on a loop; labelled functions as loop/if bodies;
//! - keywords written with escapes used as identifiers; legacy octal and `\8`/`\9`
//!   escapes in strict code and in templates;
//! - regular expression literals: flags, and the pattern (parsed by `ecma::regexp`, the
//!   parser the VM compiles with);
//! - class elements: duplicate private names (but a getter/setter pair), `#constructor`,
//!   fields named `constructor` (and static `prototype`), `arguments` and `super()` in field
//!   initializers and static blocks, redeclarations in static blocks;
//! - source text swc accepts: a line break instead of a `for (;;)` semicolon, an
//!   expression statement starting with `let [`, contextual keywords (`get`, `set`,
//!   `static`, `new.target`) and identifiers with invalid escapes, initializers of
//!   destructuring `for-in` heads.
//!
//! The checks run inside the one walk of scope analysis (`scope::analyze`): at each node
//! the analyzer calls the `Checker` with the node and with the declarations it hoisted
//! there, and the `Checker` keeps what the checks depend on (strictness, where `super` is
//! allowed, the labels in scope, whether `await` is a keyword) and collects the errors.

use hashbrown::{HashMap, HashSet};
use swc_common::Span;
use swc_ecma_ast::*;

use super::scope::{collect_var_names, fn_decl_of, has_use_strict, pat_names, LexicalDecl, Named};
use super::LineTable;

#[derive(Clone, Copy)]
struct Ctx {
    strict: bool,
    super_call: bool,
    super_prop: bool,
    /// In a field initializer or a static block (through arrows): `arguments` is an error.
    no_arguments: bool,
    /// In the parameters or body of an async function: `await` is a keyword (it reaches
    /// the AST as an identifier only when written with escapes).
    in_async: bool,
}

/// The context a function, class or initializer replaced, for `Checker::leave`.
pub(super) struct Outer {
    ctx: Ctx,
    labels: Option<Vec<(String, bool)>>,
}

/// What kind of function body is being checked, for `super`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum FnCtx {
    Plain,
    Method,
    Constructor { derived: bool },
}

/// The function `Checker::enter_function` enters.
pub(super) struct FunctionHead<'a> {
    pub params: &'a [&'a Pat],
    pub body: &'a [Stmt],
    pub kind: FnCtx,
    pub name: Option<&'a Ident>,
    pub is_async: bool,
    pub arrow: bool,
}

pub(super) struct Checker<'l> {
    errors: Vec<(Span, String)>,
    ctx: Ctx,
    /// The labels enclosing the current statement in this function, and whether each
    /// labels an iteration statement.
    labels: Vec<(String, bool)>,
    /// swc's recovered errors not yet excused by Annex B.
    deferred: Vec<(Span, String)>,
    /// The source, for checks of the text swc does not keep (escapes, semicolons).
    lines: &'l LineTable,
}

impl<'l> Checker<'l> {
    /// A checker of a script (strict if `strict`); `deferred` are the errors swc recovered
    /// from that Annex B may allow (see `ParsedScript::deferred`).
    pub(super) fn new(lines: &'l LineTable, strict: bool, deferred: &[(Span, String)]) -> Checker<'l> {
        Checker {
            errors: Vec::new(),
            ctx: Ctx { strict, super_call: false, super_prop: false, no_arguments: false, in_async: false },
            labels: Vec::new(),
            deferred: deferred.to_vec(),
            lines,
        }
    }

    /// The source's line table.
    pub(super) fn lines(&self) -> &'l LineTable {
        self.lines
    }

    /// Every error found, in source order.
    pub(super) fn finish(mut self) -> Vec<(Span, String)> {
        self.errors.append(&mut self.deferred);
        self.errors.sort_by_key(|(s, _)| s.lo);
        self.errors.dedup();
        self.errors
    }

    fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.errors.push((span, msg.into()));
    }

    fn redeclared(&mut self, span: Span, name: &str) {
        self.error(span, format!("Identifier '{name}' has already been declared"));
    }

    /// Redeclarations in one scope: `lexical` are its lexical declarations, `vars` the
    /// `var` names (and, at a function's top level, function declarations) that reach it,
    /// `outer` names no lexical declaration may repeat (parameters, catch parameters).
    pub(super) fn redeclarations(&mut self, lexical: &[LexicalDecl], vars: &[Named], outer: &[Named]) {
        let mut seen: HashMap<&str, bool> = HashMap::new();
        for l in lexical {
            if let Some(&prev_plain) = seen.get(l.name.as_str()) {
                if !(prev_plain && l.plain_function && !self.ctx.strict) {
                    self.redeclared(l.span, &l.name);
                }
            } else {
                seen.insert(&l.name, l.plain_function);
            }
        }
        for (name, span) in outer.iter().chain(vars) {
            if let Some(l) = lexical.iter().find(|l| l.name == *name) {
                let at = if l.span.lo > span.lo { l.span } else { *span };
                self.redeclared(at, name);
            }
        }
    }

    /// The statement `s` itself (the analyzer walks its parts): labels, `for` heads,
    /// `continue` targets, `let [` and the catch parameter.
    pub(super) fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Labeled(l) => {
                if let Stmt::Decl(Decl::Fn(f)) = &*l.body {
                    if f.function.is_async {
                        self.error(l.span, "Async function declarations cannot be labelled");
                    }
                }
                self.ident(&l.label);
            }
            Stmt::Try(t) => {
                let Some(h) = &t.handler else { return };
                let mut params = Vec::new();
                if let Some(p) = &h.param {
                    pat_names(p, &mut params);
                    self.duplicates(&params);
                }
                // Annex B: `var e` (also in a for-of head) may redeclare a simple catch
                // parameter, but not a destructured one.
                if !matches!(h.param, Some(Pat::Ident(_))) {
                    let mut vars = Vec::new();
                    collect_var_names(&h.body.stmts, &mut vars);
                    for (name, span) in &vars {
                        if params.iter().any(|(n, _)| n == name) {
                            self.redeclared(*span, name);
                        }
                    }
                }
            }
            Stmt::For(f) => {
                self.for_semicolons(f);
                if let Some(VarDeclOrExpr::VarDecl(v)) = &f.init {
                    self.for_head(v, &f.body);
                }
            }
            Stmt::ForIn(f) => {
                // Annex B.3.5 allows an initializer only for a single identifier binding.
                if let ForHead::VarDecl(v) = &f.left {
                    if let Some(d) = v.decls.first() {
                        if d.init.is_some() && !matches!(d.name, Pat::Ident(_)) {
                            self.error(d.span, "for-in loop variable declaration may not have an initializer.");
                        }
                    }
                }
                self.for_in_of_head(&f.left, &f.body);
            }
            Stmt::ForOf(f) => self.for_in_of_head(&f.left, &f.body),
            Stmt::Decl(Decl::Class(c)) => self.ident(&c.ident),
            Stmt::Expr(e) => {
                // ExpressionStatement: [lookahead ∉ { `let [` }].
                let text = self.lines.slice(e.span);
                if let Some(rest) = text.strip_prefix("let") {
                    let after = e.span.lo + swc_common::BytePos(3);
                    if !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$' || c == '\\')
                        && self.next_token_char(after) == Some('[')
                    {
                        self.error(e.span, "Lexical declaration cannot appear in a single-statement context");
                    }
                }
            }
            Stmt::Continue(c) => {
                if let Some(l) = &c.label {
                    if let Some((_, is_loop)) = self.labels.iter().rev().find(|(n, _)| *n == *l.sym) {
                        if !is_loop {
                            self.error(
                                l.span,
                                format!(
                                    "Illegal continue statement: '{}' does not denote an iteration statement",
                                    l.sym
                                ),
                            );
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// Enters the body of labelled statement `l`.
    pub(super) fn push_label(&mut self, l: &LabeledStmt) {
        self.labels.push((l.label.sym.to_string(), labels_loop(&l.body)));
    }

    /// Leaves the body of the innermost labelled statement.
    pub(super) fn pop_label(&mut self) {
        self.labels.pop();
    }

    /// A branch of an `if`: Annex B allows a plain function declaration there in sloppy
    /// code (as if it were in a block).
    pub(super) fn if_branch(&mut self, s: &Stmt) {
        if let Stmt::Decl(Decl::Fn(f)) = s {
            if !self.ctx.strict && !f.function.is_generator && !f.function.is_async {
                let lo = f.function.span.lo;
                self.deferred.retain(|(span, _)| span.lo != lo);
            }
        }
    }

    /// The body of an `if`, a loop or `with`: a labelled or async function declaration is
    /// not allowed there.
    pub(super) fn body_stmt(&mut self, s: &Stmt) {
        if let Stmt::Labeled(l) = s {
            if fn_decl_of(s).is_some() {
                self.error(l.span, "Labelled function declarations are not allowed as the body of a statement");
            }
        }
        if let Stmt::Decl(Decl::Fn(f)) = s {
            if f.function.is_async {
                self.error(f.function.span, "Async function declarations are not allowed as the body of a statement");
            }
        }
    }

    /// `async` and the name of an async method must be on one line (otherwise `async` is a
    /// property of its own and the method lacks a comma before it).
    fn async_method_head(&mut self, lo: swc_common::BytePos, key: &PropName, is_async: bool) {
        if !is_async {
            return;
        }
        let head = self.lines.slice(Span::new(lo, prop_name_span(key).lo.max(lo)));
        if let Some(at) = head.find("async") {
            if head[at + 5..].contains(['\n', '\r', '\u{2028}', '\u{2029}']) {
                self.error(Span::new(lo, lo), "Line terminator not permitted between 'async' and the method name");
            }
        }
    }

    /// An identifier: reserved words can only get here written with escapes.
    pub(super) fn ident(&mut self, i: &Ident) {
        let name: &str = &i.sym;
        if self.ctx.no_arguments && name == "arguments" {
            self.error(i.span, "'arguments' is not allowed in class field initializer or static initialization block");
        }
        if is_reserved(name) || (self.ctx.strict && is_strict_reserved(name)) || (self.ctx.in_async && name == "await")
        {
            self.error(i.span, format!("Keyword must not contain escaped characters ('{name}')"));
        }
        let raw = self.lines.slice(i.span);
        if raw.contains('\\') {
            if let Err(m) = check_identifier_escapes(raw) {
                self.error(i.span, m);
            }
        }
    }

    /// A contextual keyword (`get`, `set`, `static`, `async`, `new.target`) must be written
    /// without escapes: the text of `span` up to `end` must not contain a backslash.
    fn no_escape_before(&mut self, span: Span, end: swc_common::BytePos, what: &str) {
        let text = self.lines.slice(Span::new(span.lo, end.max(span.lo)));
        if text.contains('\\') {
            self.error(span, format!("Keyword must not contain escaped characters ('{what}')"));
        }
    }

    /// The text from `pos` on, skipping white space, line terminators and comments.
    fn next_token_char(&self, pos: swc_common::BytePos) -> Option<char> {
        let text = self.lines.slice(Span::new(pos, swc_common::BytePos(u32::MAX - 1)));
        let mut rest = text;
        loop {
            let trimmed = rest.trim_start();
            if let Some(r) = trimmed.strip_prefix("//") {
                rest = r.find(['\n', '\r', '\u{2028}', '\u{2029}']).map_or("", |i| &r[i..]);
            } else if let Some(r) = trimmed.strip_prefix("/*") {
                rest = r.find("*/").map_or("", |i| &r[i + 2..]);
            } else {
                return trimmed.chars().next();
            }
        }
    }

    /// Strict directive prologues must not contain legacy octal escapes before or after
    /// "use strict".
    /// Direct eval code in a method (`super.x` allowed), a derived constructor (`super()`
    /// allowed too), or a field initializer or static block (`arguments` not allowed:
    /// PerformEval's additional early errors for eval inside an initializer).
    pub(super) fn eval_context(&mut self, super_prop: bool, super_call: bool, no_arguments: bool) {
        self.ctx.super_prop = super_prop;
        self.ctx.super_call = super_call;
        self.ctx.no_arguments = no_arguments;
    }

    pub(super) fn directives(&mut self, stmts: &[Stmt]) {
        if !self.ctx.strict {
            return;
        }
        for s in stmts {
            let Stmt::Expr(ExprStmt { expr, .. }) = s else { break };
            let Expr::Lit(Lit::Str(st)) = &**expr else { break };
            if st.raw.as_ref().is_some_and(|r| legacy_escape(r)) {
                self.error(st.span, "Octal escape sequences are not allowed in strict mode");
            }
        }
    }

    /// A string literal: legacy octal and `\8`/`\9` escapes are errors in strict code.
    fn string(&mut self, st: &Str) {
        // Escapes are what these rules are about (and most strings have none).
        if let Some(raw) = st.raw.as_ref().filter(|raw| memchr::memchr(b'\\', raw.as_bytes()).is_some()) {
            if self.ctx.strict && legacy_escape(raw) {
                self.error(st.span, "Octal escape sequences are not allowed in strict mode");
            }
            if bad_unicode_escape(raw) {
                self.error(st.span, "Invalid Unicode escape sequence");
            }
        }
    }

    /// The two semicolons of `for (init; test; update)` are never inserted automatically
    /// (swc accepts a line break instead of them).
    fn for_semicolons(&mut self, f: &ForStmt) {
        use swc_common::Spanned;
        let first = match &f.init {
            Some(VarDeclOrExpr::VarDecl(v)) => v.span.hi,
            Some(VarDeclOrExpr::Expr(e)) => e.span().hi,
            None => {
                // Just after the `(`.
                let text = self.lines.slice(f.span);
                match text.find('(') {
                    Some(i) => f.span.lo + swc_common::BytePos(i as u32 + 1),
                    None => return,
                }
            }
        };
        if self.next_token_char(first) != Some(';') {
            self.error(f.span, "Missing semicolon in for statement header");
            return;
        }
        let second = match &f.test {
            Some(t) => t.span().hi,
            None => {
                let text = self.lines.slice(Span::new(first, f.span.hi));
                match text.find(';') {
                    Some(i) => first + swc_common::BytePos(i as u32 + 1),
                    None => return,
                }
            }
        };
        if self.next_token_char(second) != Some(';') {
            self.error(f.span, "Missing semicolon in for statement header");
        }
    }

    /// A `for` head's `let`/`const` names: no duplicates, and no `var` of the body repeats
    /// them.
    fn for_head(&mut self, v: &VarDecl, body: &Stmt) {
        if v.kind == VarDeclKind::Var {
            return;
        }
        self.for_declaration(&v.decls, body);
    }

    /// A ForDeclaration's names may not repeat, be redeclared by a `var` of the body, or
    /// (as lexically bound names) be `let`.
    fn for_declaration(&mut self, decls: &[VarDeclarator], body: &Stmt) {
        let mut names = Vec::new();
        for d in decls {
            pat_names(&d.name, &mut names);
        }
        for (name, span) in &names {
            if name == "let" {
                self.error(*span, "let is disallowed as a lexically bound name");
            }
        }
        self.duplicates(&names);
        let mut vars = Vec::new();
        collect_var_names(std::slice::from_ref(body), &mut vars);
        for (name, span) in &vars {
            if names.iter().any(|(n, _)| n == name) {
                self.redeclared(*span, name);
            }
        }
    }

    fn for_in_of_head(&mut self, left: &ForHead, body: &Stmt) {
        match left {
            ForHead::VarDecl(v) => self.for_head(v, body),
            ForHead::Pat(p) => self.assignment_pattern(p),
            ForHead::UsingDecl(u) => self.for_declaration(&u.decls, body),
        }
    }

    fn duplicates(&mut self, names: &[Named]) {
        let mut seen = HashSet::new();
        for (n, span) in names {
            if !seen.insert(n.as_str()) {
                self.redeclared(*span, n);
            }
        }
    }

    /// A destructuring assignment pattern: `eval`/`arguments` are not targets in strict
    /// code.
    fn assignment_pattern(&mut self, p: &Pat) {
        if self.ctx.strict {
            self.strict_targets(p);
        }
    }

    fn strict_targets(&mut self, p: &Pat) {
        match p {
            Pat::Ident(b) => self.strict_simple_target(&b.id),
            Pat::Array(a) => {
                for e in a.elems.iter().flatten() {
                    self.strict_targets(e);
                }
            }
            Pat::Rest(r) => self.strict_targets(&r.arg),
            Pat::Object(o) => {
                for prop in &o.props {
                    match prop {
                        ObjectPatProp::KeyValue(kv) => self.strict_targets(&kv.value),
                        ObjectPatProp::Assign(a) => self.strict_simple_target(&a.key.id),
                        ObjectPatProp::Rest(r) => self.strict_targets(&r.arg),
                    }
                }
            }
            Pat::Assign(a) => self.strict_targets(&a.left),
            _ => {}
        }
    }

    /// `eval = 1`, `arguments++` in strict code.
    fn strict_simple_target(&mut self, i: &Ident) {
        if self.ctx.strict && (&*i.sym == "eval" || &*i.sym == "arguments") {
            self.error(i.span, format!("Unexpected eval or arguments in strict mode ('{}')", i.sym));
        }
    }

    /// A property name: an identifier's escapes (a computed key is walked as an
    /// expression).
    pub(super) fn prop_name(&mut self, key: &PropName) {
        if let PropName::Ident(i) = key {
            let raw = self.lines.slice(i.span);
            if raw.contains('\\') {
                if let Err(m) = check_identifier_escapes(raw) {
                    self.error(i.span, m);
                }
            }
        }
    }

    /// Enters function `f` before the analyzer walks its parameters and body; `leave`
    /// returns to the enclosing context. The name is checked with the function's own
    /// strictness but the enclosing `await`.
    pub(super) fn enter_function(&mut self, f: FunctionHead<'_>) -> Outer {
        let outer = Outer { ctx: self.ctx, labels: Some(std::mem::take(&mut self.labels)) };
        let saved = self.ctx;
        let own_strict = has_use_strict(f.body);
        self.ctx.strict = saved.strict || own_strict;
        self.directives(f.body);
        if let Some(n) = f.name {
            self.ident(n);
        }
        self.ctx.in_async = f.is_async;
        if !f.arrow {
            self.ctx.no_arguments = false;
        }
        match f.kind {
            FnCtx::Plain => {
                if !f.arrow {
                    self.ctx.super_call = false;
                    self.ctx.super_prop = false;
                }
            }
            FnCtx::Method => {
                self.ctx.super_call = false;
                self.ctx.super_prop = true;
            }
            FnCtx::Constructor { derived } => {
                self.ctx.super_call = derived;
                self.ctx.super_prop = true;
            }
        }
        let newly_strict = own_strict && !saved.strict;
        if newly_strict {
            if let Some(n) = f.name {
                self.strict_simple_target(n);
            }
        }
        let mut names = Vec::new();
        for p in f.params {
            pat_names(p, &mut names);
        }
        let simple = f.params.iter().all(|p| matches!(p, Pat::Ident(_)));
        if self.ctx.strict || f.arrow || !simple || f.kind != FnCtx::Plain {
            self.duplicates(&names);
        }
        if newly_strict {
            for (n, span) in &names {
                if n == "eval" || n == "arguments" {
                    self.error(*span, format!("Unexpected eval or arguments in strict mode ('{n}')"));
                }
            }
        }
        outer
    }

    /// Enters a class (all of it is strict code).
    pub(super) fn enter_class(&mut self) -> Outer {
        let outer = Outer { ctx: self.ctx, labels: None };
        self.ctx.strict = true;
        outer
    }

    /// Enters a field initializer or a static block: like a method body (`super.x` but
    /// not `super()`), without `arguments`.
    pub(super) fn enter_initializer(&mut self, static_block: bool) -> Outer {
        let labels = static_block.then(|| std::mem::take(&mut self.labels));
        let outer = Outer { ctx: self.ctx, labels };
        self.ctx.super_call = false;
        self.ctx.super_prop = true;
        self.ctx.no_arguments = true;
        outer
    }

    /// Returns to the context `outer` was saved from.
    pub(super) fn leave(&mut self, outer: Outer) {
        self.ctx = outer.ctx;
        if let Some(labels) = outer.labels {
            self.labels = labels;
        }
    }

    /// A class member itself (the analyzer walks its keys, functions and initializers).
    pub(super) fn class_member(&mut self, m: &ClassMember) {
        match m {
            ClassMember::Method(m) => {
                self.no_escape_before(m.span, prop_name_span(&m.key).lo, "static");
                self.async_method_head(m.span.lo, &m.key, m.function.is_async);
                if m.is_static && static_name(&m.key) == Some("prototype") {
                    self.error(m.span, "Classes may not have a static property named 'prototype'");
                }
            }
            ClassMember::PrivateMethod(m) => self.private_name(&m.key),
            ClassMember::ClassProp(p) => {
                let name = if matches!(p.key, PropName::Computed(_)) { None } else { static_name(&p.key) };
                if name == Some("constructor") || (p.is_static && name == Some("prototype")) {
                    self.error(p.span, format!("Classes may not have a field named '{}'", name.unwrap_or_default()));
                }
            }
            ClassMember::PrivateProp(p) => self.private_name(&p.key),
            _ => {}
        }
    }

    /// The name of a private element: not `#constructor`, no ZWJ/ZWNJ escape first.
    fn private_name(&mut self, p: &PrivateName) {
        if &*p.name == "constructor" {
            self.error(p.span, "Classes may not have a private field named '#constructor'");
        }
        let raw = self.lines.slice(p.span);
        if let Some(rest) = raw.strip_prefix('#') {
            if rest.contains('\\') {
                if let Err(m) = check_identifier_escapes(rest) {
                    self.error(p.span, m);
                }
            }
        }
    }

    /// Each private name is declared once, except a getter and a setter of the same
    /// placement (static or not).
    pub(super) fn private_duplicates(&mut self, class: &Class) {
        // name → (getter, setter, static, other)
        let mut seen: HashMap<String, (bool, bool, bool, bool)> = HashMap::new();
        for m in &class.body {
            let (name, span, kind, is_static) = match m {
                ClassMember::PrivateProp(p) => (p.key.name.to_string(), p.key.span, None, p.is_static),
                ClassMember::PrivateMethod(pm) => (pm.key.name.to_string(), pm.key.span, Some(pm.kind), pm.is_static),
                _ => continue,
            };
            let entry = seen.entry(name.clone()).or_insert((false, false, is_static, false));
            let dup = match kind {
                Some(MethodKind::Getter) => {
                    let d = entry.0 || entry.3 || ((entry.1) && entry.2 != is_static);
                    entry.0 = true;
                    d
                }
                Some(MethodKind::Setter) => {
                    let d = entry.1 || entry.3 || ((entry.0) && entry.2 != is_static);
                    entry.1 = true;
                    d
                }
                _ => {
                    let d = entry.0 || entry.1 || entry.3;
                    entry.3 = true;
                    d
                }
            };
            if dup {
                self.error(span, format!("Identifier '#{name}' has already been declared"));
            }
        }
    }

    /// The expression `e` itself (the analyzer walks its parts).
    pub(super) fn expr(&mut self, e: &Expr) {
        match e {
            Expr::Object(o) => {
                let mut proto: Option<Span> = None;
                for p in &o.props {
                    let PropOrSpread::Prop(p) = p else { continue };
                    match &**p {
                        Prop::KeyValue(kv) => {
                            if static_name(&kv.key) == Some("__proto__") && !matches!(kv.key, PropName::Computed(_)) {
                                if proto.is_some() {
                                    self.error(
                                        prop_name_span(&kv.key),
                                        "Duplicate __proto__ fields are not allowed in object literals",
                                    );
                                }
                                proto = Some(prop_name_span(&kv.key));
                            }
                        }
                        Prop::Getter(g) => self.no_escape_before(g.span, prop_name_span(&g.key).lo, "get"),
                        Prop::Setter(s) => self.no_escape_before(s.span, prop_name_span(&s.key).lo, "set"),
                        Prop::Method(m) => self.async_method_head(m.function.span.lo, &m.key, m.function.is_async),
                        Prop::Shorthand(i) => self.ident(i),
                        Prop::Assign(_) => {}
                    }
                }
            }
            Expr::Ident(i) => self.ident(i),
            Expr::Class(c) => {
                if let Some(i) = &c.ident {
                    self.ident(i);
                }
            }
            Expr::Lit(Lit::Str(st)) => self.string(st),
            Expr::Lit(Lit::Regex(re)) => {
                if let Err(msg) = check_regexp(&re.exp, &re.flags) {
                    self.error(re.span, msg);
                }
            }
            Expr::Unary(u) if u.op == UnaryOp::Delete && self.ctx.strict => {
                if let Expr::Ident(i) = u.arg.unwrap_parens() {
                    self.error(i.span, "Delete of an unqualified identifier in strict mode.");
                }
            }
            Expr::Update(u) => {
                if let Expr::Ident(i) = u.arg.unwrap_parens() {
                    self.strict_simple_target(i);
                }
            }
            Expr::Assign(a) => match &a.left {
                AssignTarget::Simple(SimpleAssignTarget::Ident(b)) => self.strict_simple_target(&b.id),
                AssignTarget::Simple(SimpleAssignTarget::Paren(p)) => {
                    if let Expr::Ident(i) = p.expr.unwrap_parens() {
                        self.strict_simple_target(i);
                    }
                }
                AssignTarget::Pat(AssignTargetPat::Array(p)) if self.ctx.strict => {
                    self.strict_targets(&Pat::Array(p.clone()))
                }
                AssignTarget::Pat(AssignTargetPat::Object(p)) if self.ctx.strict => {
                    self.strict_targets(&Pat::Object(p.clone()))
                }
                _ => {}
            },
            Expr::Call(c) => {
                if let Callee::Super(s) = &c.callee {
                    if !self.ctx.super_call {
                        self.error(s.span, "'super' keyword unexpected here");
                    }
                }
            }
            Expr::Tpl(t) => {
                for q in &t.quasis {
                    if legacy_escape(&q.raw) || bad_unicode_escape(&q.raw) || q.cooked.is_none() {
                        self.error(q.span, "Invalid escape sequence in template");
                    }
                }
            }
            Expr::MetaProp(m) if self.lines.slice(m.span).contains('\\') => {
                self.error(m.span, "Keyword must not contain escaped characters ('new.target')");
            }
            Expr::New(n) => {
                // `new import(x)` (and `new import(x).y`): an ImportCall is not a
                // MemberExpression, so it cannot be `new`'s callee without parentheses.
                let mut callee = &*n.callee;
                while let Expr::Member(m) = callee {
                    callee = &m.obj;
                }
                if let Expr::Call(CallExpr { callee: Callee::Import(_), .. }) = callee {
                    self.error(n.span, "Cannot use new with import");
                }
            }
            _ => {}
        }
    }

    /// `super.x` (as an expression or an assignment target).
    pub(super) fn super_prop(&mut self, span: Span) {
        if !self.ctx.super_prop {
            self.error(span, "'super' keyword unexpected here");
        }
    }
}

/// Checks the escapes of an identifier's source text: `\\uXXXX` or `\\u{X...}` (hex digits
/// only), and not a ZWNJ/ZWJ as the first character (which swc lets through).
fn check_identifier_escapes(raw: &str) -> Result<(), String> {
    let bad = || Err("Invalid Unicode escape sequence in identifier".to_string());
    let mut chars = raw.char_indices().peekable();
    let mut first = true;
    while let Some((_, c)) = chars.next() {
        let cp = if c == '\\' {
            if chars.next().map(|(_, c)| c) != Some('u') {
                return bad();
            }
            let mut value: u32 = 0;
            if chars.peek().map(|&(_, c)| c) == Some('{') {
                chars.next();
                let mut n = 0;
                loop {
                    match chars.next() {
                        Some((_, '}')) if n > 0 => break,
                        Some((_, h)) if h.is_ascii_hexdigit() => {
                            value = value.saturating_mul(16).saturating_add(h.to_digit(16).unwrap_or(0));
                            n += 1;
                        }
                        _ => return bad(),
                    }
                }
            } else {
                for _ in 0..4 {
                    match chars.next() {
                        Some((_, h)) if h.is_ascii_hexdigit() => value = value * 16 + h.to_digit(16).unwrap_or(0),
                        _ => return bad(),
                    }
                }
            }
            if first && (value == 0x200C || value == 0x200D) {
                return bad();
            }
            value
        } else {
            c as u32
        };
        let _ = cp;
        first = false;
    }
    Ok(())
}

/// Words that are never identifiers (they reach the AST as identifiers only when written
/// with Unicode escapes).
fn is_reserved(name: &str) -> bool {
    matches!(
        name,
        "break"
            | "case"
            | "catch"
            | "class"
            | "const"
            | "continue"
            | "debugger"
            | "default"
            | "delete"
            | "do"
            | "else"
            | "enum"
            | "export"
            | "extends"
            | "false"
            | "finally"
            | "for"
            | "function"
            | "if"
            | "import"
            | "in"
            | "instanceof"
            | "new"
            | "null"
            | "return"
            | "super"
            | "switch"
            | "this"
            | "throw"
            | "true"
            | "try"
            | "typeof"
            | "var"
            | "void"
            | "while"
            | "with"
    )
}

/// Words reserved in strict mode code.
fn is_strict_reserved(name: &str) -> bool {
    matches!(
        name,
        "implements" | "interface" | "let" | "package" | "private" | "protected" | "public" | "static" | "yield"
    )
}

/// Whether the raw text of a string or template contains a legacy octal escape (`\1`,
/// `\01`) or a non-octal decimal escape (`\8`, `\9`).
pub(crate) fn legacy_escape(raw: &str) -> bool {
    let b = raw.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            let c = b[i + 1];
            if matches!(c, b'1'..=b'9') || (c == b'0' && b.get(i + 2).is_some_and(|d| d.is_ascii_digit())) {
                return true;
            }
            i += 2;
        } else {
            i += 1;
        }
    }
    false
}

/// Whether the raw text contains `\u{...}` with a numeric separator (not allowed there).
fn bad_unicode_escape(raw: &str) -> bool {
    let b = raw.as_bytes();
    let mut i = 0;
    while i + 2 < b.len() {
        if b[i] == b'\\' {
            if b[i + 1] == b'u' && b[i + 2] == b'{' {
                let mut j = i + 3;
                while j < b.len() && b[j] != b'}' {
                    if b[j] == b'_' {
                        return true;
                    }
                    j += 1;
                }
            }
            i += 2;
        } else {
            i += 1;
        }
    }
    false
}

/// Checks a regular expression literal's flags and pattern with the VM's own parser
/// (`ecma::regexp`), so that a literal is an early error exactly when `new RegExp` of the same
/// source would throw. The message is the whole SyntaxError message.
fn check_regexp(pattern: &str, flags: &str) -> Result<(), String> {
    if pattern.contains(['\u{2028}', '\u{2029}']) {
        return Err(
            "Invalid regular expression: line terminators are not allowed in regular expression literals".into()
        );
    }
    let flags: Vec<u16> = flags.encode_utf16().collect();
    if ecma::regexp::Flags::parse(&flags).is_err() {
        // V8's wording for a literal (the constructor names itself instead).
        return Err("Invalid regular expression flags".into());
    }
    let pattern: Vec<u16> = pattern.encode_utf16().collect();
    ecma::regexp::check_syntax(&pattern, &flags).map_err(|e| e.message)
}

/// Whether a labelled statement's body (through more labels) is an iteration statement.
fn labels_loop(s: &Stmt) -> bool {
    match s {
        Stmt::Labeled(l) => labels_loop(&l.body),
        Stmt::While(_) | Stmt::DoWhile(_) | Stmt::For(_) | Stmt::ForIn(_) | Stmt::ForOf(_) => true,
        _ => false,
    }
}

/// The string value of a non-computed property name that is an identifier or a string.
fn static_name(key: &PropName) -> Option<&str> {
    match key {
        PropName::Ident(i) => Some(&i.sym),
        PropName::Str(s) => s.value.as_str(),
        _ => None,
    }
}

fn prop_name_span(key: &PropName) -> Span {
    use swc_common::Spanned;
    key.span()
}

#[cfg(test)]
mod tests {
    use crate::frontend::parse_script;
    use crate::frontend::scope::analyze;

    /// Errors from swc or from the early error checks.
    fn errors(src: &str) -> Vec<String> {
        match parse_script(src, false) {
            Ok(p) => analyze(&p.script, &p.lines, false, &p.deferred).1.into_iter().map(|(_, m)| m).collect(),
            Err(d) => d.into_iter().map(|d| d.message).collect(),
        }
    }

    #[test]
    fn redeclarations() {
        for bad in [
            "let a; let a;",
            "let a; var a;",
            "var a; let a;",
            "{ let a; var a; }",
            "function f(){ let a; { var a; } }",
            "function g(){} let g;",
            "{ function g(){} let g; }",
            "'use strict'; { function g(){} function g(){} }",
            "for (let x of []) { var x; }",
            "try {} catch (e) { let e; }",
            "function f(a) { let a; }",
            "switch (1) { case 1: let a; case 2: let a; }",
            "let [a, a] = b;",
            "try {} catch ([e]) { var e; }",
            "x => { let x; }",
            "class A {} var A;",
        ] {
            assert!(!errors(bad).is_empty(), "{bad} should be an error");
        }
        for good in [
            "var a; var a;",
            "function g(){} var g;",
            "{ function g(){} function g(){} }",
            "try {} catch (e) { var e; }",
            "try {} catch (e) { for (var e of []) {} }",
            "let a; { let a; }",
            "function f(a) { var a; }",
            "function f() { let a; } let a;",
        ] {
            assert!(errors(good).is_empty(), "{good} should be fine: {:?}", errors(good));
        }
    }

    #[test]
    fn escaped_await_is_a_keyword_inside_async_functions_only() {
        for bad in [
            "async function f() { aw\\u0061it; }",
            "async function f() { aw\\u0061it: 1; }",
            "var f = async () => { var aw\\u0061it; };",
            "var f = async () => aw\\u0061it;",
            "({ async m(x = aw\\u0061it) {} })",
        ] {
            assert!(!errors(bad).is_empty(), "{bad} should be an error");
        }
        for good in [
            "var aw\\u0061it;",
            "async function aw\\u0061it() {}",
            "async function f() { function g() { var aw\\u0061it; } }",
            "async function f() { () => { aw\\u0061it; }; }",
        ] {
            assert!(errors(good).is_empty(), "{good} should be fine: {:?}", errors(good));
        }
    }

    #[test]
    fn parameters_and_super() {
        for bad in [
            "'use strict'; function f(a, a){}",
            "(a, a) => 1",
            "function f(a, [a]){}",
            "({m(a, a){}})",
            "function f(a, a){ 'use strict'; }",
            "function eval(){ 'use strict'; }",
            "'use strict'; ({arguments} = 1)",
            "class A { constructor(){ super() } }",
            "({ m(){ super() } })",
            "class A { static get prototype(){} }",
            "x = {__proto__: 1, \"__proto__\": 2}",
            "x: { while (1) { continue x; } }",
            "while (1) l: function f() {}",
            "if (1) l: function f() {}",
            "var \\u{76}\\u{6f}\\u{69}\\u{64} = 123;",
            "'use strict'; var x = '\\08';",
            "'\\07'; 'use strict';",
            "function f() { 'use strict'; return '\\8'; }",
            "'use strict'; delete ((x));",
            "'use strict'; eval++;",
            "'use strict'; (arguments) = 1;",
            "`\\08`",
            "/(/",
            "/a/uv",
            "/x{2,1}/",
            "'use strict'; if (a) function f() {}",
            "while (a) function f() {}",
            "if (a) function* g() {}",
            "for(false;false\n) {}",
            "for(false\n;false) {}",
            "for(\n;false) {}",
            "if (false) let\n[a] = 0;",
            "var \\u{00_76} = 1;",
            "var \\u200D;",
            "function f() { new.t\\u0061rget; }",
            "({ g\\u0065t m() {} })",
            "({ s\\u0065t m(v) {} })",
            "for (var [a] = 0 in {});",
        ] {
            assert!(!errors(bad).is_empty(), "{bad} should be an error");
        }
        for good in [
            "function f(a, a){}",
            "class A extends B { constructor(){ (() => super())() } }",
            "({ m(){ return () => super.x } })",
            "x = {__proto__: 1, ['__proto__']: 2, __proto__(){}}",
            "class A { static ['prototype'](){} }",
            "x: while (1) { continue x; }",
            "var x = '\\08'; var \\u0061 = 1;",
            "tag`\\08`",
            "/a{/; /]/; /(?<n>x)\\k<n>/u; /[\\p{L}--[a-z]]/v; /\\d+/dgimsy",
            "if (a) function f() {} else function g() {}",
            "for (;false;) {}",
            "for (var i = 0 /* ; */ ; i < 1 // x;\n; i++) {}",
            "let\nx = 1",
            "var a\\u200D, \\u{76}x;",
            "({ get m() {}, set m(v) {} })",
            "letx[0] = 1",
        ] {
            assert!(errors(good).is_empty(), "{good} should be fine: {:?}", errors(good));
        }
    }
}
