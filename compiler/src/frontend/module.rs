//! Module code: the `import` and `export` declarations of the Module goal, taken out of the
//! syntax tree as the module's requests, import entries and export entries (ECMA-262
//! 16.2.1.6 ParseModule), so that the rest of the front end sees the module body as a list
//! of statements:
//!
//! ```text
//!  import x, { y as z } from "m"     ─▶ (removed)           imports x ← "m".default, z ← "m".y
//!  export let a = 1, b;              ─▶ let a = 1, b;        exports a, b
//!  export default function () {}     ─▶ function *default*() {}   exports default ← *default*
//!  export default 1 + 2;             ─▶ const *default* = 1 + 2;  exports default ← *default*
//!  export { a as c };                ─▶ (removed)           exports c ← a
//!  export { y } from "n"; export * from "o";  ─▶ (removed)  indirect and star exports
//! ```
//! `*default*` is not an identifier, so no code can name it; functions and classes bound to
//! it are named "default" ([`function_name`]).

use swc_common::{Span, Spanned, SyntaxContext, DUMMY_SP};
use swc_ecma_ast::*;

use super::scope::pat_names;

/// The binding of `export default` without a name of its own.
pub const DEFAULT_BINDING: &str = "*default*";

/// The name a function or class bound to `binding` gets (`default` for `*default*`).
pub fn function_name(binding: &str) -> &str {
    if binding == DEFAULT_BINDING {
        "default"
    } else {
        binding
    }
}

/// A requested module: a specifier and its import attributes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestSyntax {
    /// The specifier, as UTF-16.
    pub specifier: Vec<u16>,
    /// The attributes, sorted by key.
    pub attributes: Vec<(Vec<u16>, Vec<u16>)>,
    /// `import defer`: the module is not evaluated with the importer (only its asynchronous
    /// dependencies are), but when its deferred namespace is first used.
    pub defer: bool,
    /// The first declaration naming it.
    pub span: Span,
}

/// What an import binding imports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Imported {
    /// An export of this name.
    Name(String),
    /// The namespace object (`* as local`).
    Namespace,
    /// The module's source object (`import source local from`).
    Source,
    /// The deferred namespace object (`import defer * as local`).
    Deferred,
}

/// An import binding.
#[derive(Clone, Debug)]
pub struct ImportSyntax {
    /// The local name.
    pub local: String,
    /// Index into the requests.
    pub request: u32,
    /// What it imports.
    pub name: Imported,
}

/// An export entry.
#[derive(Clone, Debug)]
pub enum ExportSyntax {
    /// `name` is the local binding `local`.
    Local { name: String, local: String, span: Span },
    /// `name` is what request `request` exports as `import` (`None`: its namespace).
    Indirect { name: String, request: u32, import: Option<String> },
    /// Every export of request `request` but `default`.
    Star { request: u32 },
}

/// The import and export declarations of a module.
#[derive(Clone, Debug, Default)]
pub struct ModuleSyntax {
    /// The requested modules, in source order, without duplicates.
    pub requests: Vec<RequestSyntax>,
    /// The import bindings.
    pub imports: Vec<ImportSyntax>,
    /// The exports, in source order.
    pub exports: Vec<ExportSyntax>,
}

/// Splits `module` into the statements of its body and its import and export entries.
/// Returns the early errors of the declarations (duplicate exports, malformed attributes,
/// names that are not well-formed Unicode) and the features not supported yet.
pub fn desugar(module: Module) -> (Script, ModuleSyntax, Vec<(Span, String)>) {
    let mut d = Desugar { syntax: ModuleSyntax::default(), errors: Vec::new(), body: Vec::new() };
    for item in module.body {
        match item {
            ModuleItem::Stmt(s) => d.body.push(s),
            ModuleItem::ModuleDecl(decl) => d.decl(decl),
        }
    }
    // Import bindings are strict mode bindings.
    for i in &d.syntax.imports {
        if i.local == "eval" || i.local == "arguments" {
            d.errors
                .push((module.span, format!("Unexpected eval or arguments in strict mode (import of '{}')", i.local)));
        }
    }
    let mut seen = hashbrown::HashSet::new();
    for e in &d.syntax.exports {
        let (name, span) = match e {
            ExportSyntax::Local { name, span, .. } => (name, *span),
            ExportSyntax::Indirect { name, .. } => (name, DUMMY_SP),
            ExportSyntax::Star { .. } => continue,
        };
        if !seen.insert(name.clone()) {
            d.errors.push((span, format!("Duplicate export of '{name}'")));
        }
    }
    let script = Script { span: module.span, body: d.body, shebang: module.shebang };
    (script, d.syntax, d.errors)
}

struct Desugar {
    syntax: ModuleSyntax,
    errors: Vec<(Span, String)>,
    body: Vec<Stmt>,
}

impl Desugar {
    fn decl(&mut self, decl: ModuleDecl) {
        match decl {
            ModuleDecl::Import(i) => {
                let defer = i.phase == ImportPhase::Defer;
                let request = self.request(&i.src, i.with.as_deref(), i.span, defer);
                if defer {
                    for s in i.specifiers {
                        let ImportSpecifier::Namespace(n) = s else {
                            self.errors.push((s.local().span, "`import defer` imports a namespace only".into()));
                            continue;
                        };
                        let local = n.local.sym.to_string();
                        self.syntax.imports.push(ImportSyntax { local, request, name: Imported::Deferred });
                    }
                    return;
                }
                if i.phase == ImportPhase::Source {
                    for s in i.specifiers {
                        let local = s.local().sym.to_string();
                        self.syntax.imports.push(ImportSyntax { local, request, name: Imported::Source });
                    }
                    return;
                }
                for s in i.specifiers {
                    let (local, name) = match s {
                        ImportSpecifier::Named(n) => {
                            let name = match &n.imported {
                                Some(m) => self.export_name(m),
                                None => n.local.sym.to_string(),
                            };
                            (n.local.sym.to_string(), Imported::Name(name))
                        }
                        ImportSpecifier::Default(d) => (d.local.sym.to_string(), Imported::Name("default".to_string())),
                        ImportSpecifier::Namespace(n) => (n.local.sym.to_string(), Imported::Namespace),
                    };
                    self.syntax.imports.push(ImportSyntax { local, request, name });
                }
            }
            ModuleDecl::ExportDecl(e) => {
                let mut names = Vec::new();
                match &e.decl {
                    Decl::Fn(f) => names.push((f.ident.sym.clone(), f.ident.span)),
                    Decl::Class(c) => names.push((c.ident.sym.clone(), c.ident.span)),
                    Decl::Var(v) => v.decls.iter().for_each(|d| pat_names(&d.name, &mut names)),
                    Decl::Using(u) => {
                        self.errors.push((u.span, "`using` declarations may not be exported".into()));
                    }
                    _ => self.errors.push((e.span, "this kind of export is not supported".into())),
                }
                for (n, span) in names {
                    self.syntax.exports.push(ExportSyntax::Local { name: n.to_string(), local: n.to_string(), span });
                }
                self.body.push(Stmt::Decl(e.decl));
            }
            ModuleDecl::ExportNamed(n) => {
                let request = n.src.as_ref().map(|src| self.request(src, n.with.as_deref(), n.span, false));
                for s in &n.specifiers {
                    match (s, request) {
                        (ExportSpecifier::Named(s), Some(request)) => {
                            let import = self.export_name(&s.orig);
                            let name = s.exported.as_ref().map_or(import.clone(), |e| self.export_name(e));
                            self.syntax.exports.push(ExportSyntax::Indirect { name, request, import: Some(import) });
                        }
                        (ExportSpecifier::Named(s), None) => {
                            let ModuleExportName::Ident(local) = &s.orig else {
                                self.errors.push((
                                    s.orig.span(),
                                    "A string literal cannot be used as an exported binding without `from`".into(),
                                ));
                                continue;
                            };
                            let name = s.exported.as_ref().map_or(local.sym.to_string(), |e| self.export_name(e));
                            let span = local.span;
                            self.syntax.exports.push(ExportSyntax::Local { name, local: local.sym.to_string(), span });
                        }
                        (ExportSpecifier::Namespace(s), Some(request)) => {
                            let name = self.export_name(&s.name);
                            self.syntax.exports.push(ExportSyntax::Indirect { name, request, import: None });
                        }
                        (_, _) => self.errors.push((n.span, "this kind of export is not supported".into())),
                    }
                }
            }
            ModuleDecl::ExportDefaultDecl(e) => {
                let anonymous = |span: Span| {
                    Ident::new(DEFAULT_BINDING.into(), Span::new(span.lo, span.lo), SyntaxContext::empty())
                };
                let local = match e.decl {
                    DefaultDecl::Fn(f) => {
                        let ident = f.ident.unwrap_or_else(|| anonymous(f.function.span));
                        let local = ident.sym.to_string();
                        self.body.push(Stmt::Decl(Decl::Fn(FnDecl { ident, declare: false, function: f.function })));
                        local
                    }
                    DefaultDecl::Class(c) => {
                        let ident = c.ident.unwrap_or_else(|| anonymous(c.class.span));
                        let local = ident.sym.to_string();
                        self.body.push(Stmt::Decl(Decl::Class(ClassDecl { ident, declare: false, class: c.class })));
                        local
                    }
                    DefaultDecl::TsInterfaceDecl(_) => {
                        self.errors.push((e.span, "this kind of export is not supported".into()));
                        return;
                    }
                };
                self.syntax.exports.push(ExportSyntax::Local { name: "default".into(), local, span: e.span });
            }
            ModuleDecl::ExportDefaultExpr(e) => {
                let span = e.span;
                let id = Ident::new(DEFAULT_BINDING.into(), Span::new(span.lo, span.lo), SyntaxContext::empty());
                let declarator = VarDeclarator {
                    span,
                    name: Pat::Ident(BindingIdent { id, type_ann: None }),
                    init: Some(e.expr),
                    definite: false,
                };
                let decl = VarDecl {
                    span,
                    ctxt: SyntaxContext::empty(),
                    kind: VarDeclKind::Const,
                    declare: false,
                    decls: vec![declarator],
                };
                self.body.push(Stmt::Decl(Decl::Var(Box::new(decl))));
                self.syntax.exports.push(ExportSyntax::Local {
                    name: "default".into(),
                    local: DEFAULT_BINDING.into(),
                    span,
                });
            }
            ModuleDecl::ExportAll(a) => {
                let request = self.request(&a.src, a.with.as_deref(), a.span, false);
                self.syntax.exports.push(ExportSyntax::Star { request });
            }
            other => self.errors.push((other.span(), "TypeScript module syntax is not supported".into())),
        }
    }

    /// The index of the request of `src` with attributes `with`, deferred or not (added if
    /// new).
    fn request(&mut self, src: &Str, with: Option<&ObjectLit>, span: Span, defer: bool) -> u32 {
        let specifier: Vec<u16> = src.value.to_ill_formed_utf16().collect();
        let mut attributes: Vec<(Vec<u16>, Vec<u16>)> = Vec::new();
        for prop in with.map_or(&[][..], |o| &o.props[..]) {
            let PropOrSpread::Prop(p) = prop else {
                self.errors.push((span, "invalid import attributes".into()));
                continue;
            };
            let Prop::KeyValue(kv) = &**p else {
                self.errors.push((p.span(), "invalid import attribute".into()));
                continue;
            };
            let key: Vec<u16> = match &kv.key {
                PropName::Ident(i) => i.sym.encode_utf16().collect(),
                PropName::Str(s) => s.value.to_ill_formed_utf16().collect(),
                _ => {
                    self.errors
                        .push((kv.key.span(), "an import attribute key must be an identifier or a string".into()));
                    continue;
                }
            };
            let Expr::Lit(Lit::Str(v)) = &*kv.value else {
                self.errors.push((kv.value.span(), "an import attribute value must be a string".into()));
                continue;
            };
            if attributes.iter().any(|(k, _)| *k == key) {
                let k = String::from_utf16_lossy(&key);
                self.errors.push((kv.key.span(), format!("Import attribute has duplicate key '{k}'")));
            }
            attributes.push((key, v.value.to_ill_formed_utf16().collect()));
        }
        attributes.sort();
        let existing = self
            .syntax
            .requests
            .iter()
            .position(|r| r.specifier == specifier && r.attributes == attributes && r.defer == defer);
        match existing {
            Some(i) => i as u32,
            None => {
                self.syntax.requests.push(RequestSyntax { specifier, attributes, defer, span });
                self.syntax.requests.len() as u32 - 1
            }
        }
    }

    /// The string of a ModuleExportName; a string literal must be well-formed Unicode.
    fn export_name(&mut self, name: &ModuleExportName) -> String {
        match name {
            ModuleExportName::Ident(i) => i.sym.to_string(),
            ModuleExportName::Str(s) => {
                let units: Vec<u16> = s.value.to_ill_formed_utf16().collect();
                String::from_utf16(&units).unwrap_or_else(|_| {
                    self.errors.push((s.span, "An export name cannot include a lone surrogate".into()));
                    String::from_utf16_lossy(&units)
                })
            }
        }
    }
}
