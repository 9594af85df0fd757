//! Scope analysis: every declaration of a script, which scope declares it, and which are
//! captured by closures.
//!
//! One walk over the AST builds a `ScopeTree`. Entering a function or block first hoists its
//! declarations (parameters, `var`s, function declarations, `let`/`const`/`class`, Annex B
//! block functions), then resolves every identifier reference against the chain of scopes.
//! The same walk checks the early errors swc leaves out (`early_errors::Checker`, called
//! at each node and with the declarations each scope hoisted, for redeclarations).
//! A reference from a function other than the declaring one marks the declaration captured:
//! IRGen puts captured declarations in heap environments (CreateScope/LoadFrame/StoreFrame)
//! and the rest in stack slots.
//!
//! Scopes and functions are found again by IRGen through `ScopeKey`s built from the span of
//! the AST node that creates them, so both walks agree without numbering nodes.
//!
//! Names that resolve to nothing are globals. Top-level `var`s and function declarations of
//! a script are properties of the global object and are not in the tree; top-level
//! `let`/`const`/`class` live in the `Script` scope.
//!
//! Lexical `this`, `new.target` and `super` of arrow functions are internal declarations
//! (`DeclKind::This`, ...) of the nearest non-arrow function, created when an arrow needs them.

use hashbrown::{HashMap, HashSet};
use swc_atoms::Atom;
use swc_common::{Span, Spanned, DUMMY_SP};
use swc_ecma_ast::*;

use super::early_errors::{Checker, FnCtx, FunctionHead};
use super::LineTable;

/// A declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DeclId(pub u32);
/// A scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ScopeIdx(pub u32);
/// A function (or the script).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuncIdx(pub u32);

/// How a name was declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeclKind {
    /// `var` (and Annex B var bindings of block functions).
    Var,
    /// `let`.
    Let,
    /// `const`.
    Const,
    /// A class declaration's outer binding.
    Class,
    /// A function declaration at the top level of a function body.
    Function,
    /// A function declaration in a block (block scoped, initialized at block entry).
    BlockFunction,
    /// A formal parameter.
    Param,
    /// A catch parameter.
    CatchParam,
    /// The name of a function expression, bound inside it to the closure.
    FunctionName,
    /// The name of a class, bound inside the class body (immutable).
    ClassName,
    /// The implicit `arguments` of a non-arrow function.
    Arguments,
    /// The `this` of a function, when arrows read it or it is a derived constructor's.
    This,
    /// The `new.target` of a function, when arrows read it.
    NewTarget,
    /// The function itself, when arrows call `super(...)`.
    Callee,
    /// The [[HomeObject]] of a method, when arrows use `super.x`.
    HomeObject,
    /// A private name `#x` of a class body: its Private Name for a field, the closure for
    /// a method, the getter (or undefined) for an accessor (see `ScopeTree::private`).
    PrivateName,
    /// An internal binding of a class body, set while the class is defined, before any
    /// use: `%brand`/`%static_brand` (the Private Names that mark instances of classes with
    /// private methods), `%fields` (the instance fields initializer), `%key<i>` (the
    /// computed key of field member `i`) and `%set#x` (the setter of private accessor `#x`).
    ClassInternal,
    /// `%with`: the object of a `with` statement (the only declaration of its `With` scope).
    WithObject,
    /// An import binding of a module: refers to another module's export (immutable).
    Import,
    /// `import * as ns`: the namespace object (immutable, set before the module runs).
    ImportNamespace,
    /// `%module`: the module's identity, which the runtime stores before the module runs.
    ModuleIdentity,
    /// `%evalvars`: the object on which sloppy direct eval code declares its `var`s and
    /// functions, in the body scope of the calling function; identifiers that resolve
    /// outside that scope look it up first, as through a `with` object (without its
    /// `this` for calls).
    EvalVars,
}

impl DeclKind {
    /// Whether reads before initialization throw a ReferenceError (TDZ).
    pub fn has_tdz(self) -> bool {
        matches!(self, DeclKind::Let | DeclKind::Const | DeclKind::Class | DeclKind::ClassName)
    }
    /// Whether it is a lexical (block-scoped) declaration.
    pub fn is_lexical(self) -> bool {
        matches!(
            self,
            DeclKind::Let
                | DeclKind::Const
                | DeclKind::Class
                | DeclKind::BlockFunction
                | DeclKind::Import
                | DeclKind::ImportNamespace
        )
    }
}

/// A declared name.
#[derive(Clone, Debug)]
pub struct DeclInfo {
    /// The name (`this`, `new.target`, `%callee`, `%home` for internal declarations).
    pub name: Atom,
    /// How it was declared.
    pub kind: DeclKind,
    /// The scope that declares it.
    pub scope: ScopeIdx,
    /// Whether a function other than the declaring one refers to it.
    pub captured: bool,
    /// Whether anything refers to it.
    pub referenced: bool,
    /// Whether something assigns it (besides its declaration); tracked for parameters.
    pub written: bool,
    /// For `arguments`: whether it is used other than as `arguments[i]` / `arguments.x`
    /// reads (it escapes, or is written or called through).
    pub escapes: bool,
}

/// What kind of construct creates a scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScopeKind {
    /// The script's top level (its `let`/`const`/`class`).
    Script,
    /// A function's parameters, `var`s and top-level declarations.
    Function,
    /// A block statement.
    Block,
    /// The case block of a `switch`.
    Switch,
    /// The head of a `for`/`for-in`/`for-of` with `let`/`const`.
    For,
    /// A catch clause: its parameter (its block is a `Block` scope inside).
    Catch,
    /// A class body: the class's own name.
    Class,
    /// The implicit block around a function declaration in an `if` branch (Annex B).
    ImplicitBlock,
    /// A class body: private names and the class's internal bindings (inside the `Class`
    /// scope, which holds the class's own name and is the scope of its heritage).
    ClassBody,
    /// Not a scope: the key of a class's static elements initializer function.
    StaticFields,
    /// The body of a `with` statement: identifiers resolved through it look up the
    /// object first (`%with`), at run time.
    With,
    /// The `var`s, function declarations and top-level lexical declarations of a function
    /// whose parameters have their own scope (see `FuncInfo::body_scope`).
    FunctionBody,
}

/// Finds a scope or function again from the AST node that creates it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ScopeKey {
    lo: u32,
    hi: u32,
    kind: u8,
}

impl ScopeKey {
    /// The key of the scope of kind `kind` created by the node at `span`.
    pub fn new(span: Span, kind: ScopeKind) -> ScopeKey {
        ScopeKey { lo: span.lo.0, hi: span.hi.0, kind: kind as u8 }
    }
}

/// A scope.
#[derive(Clone, Debug)]
pub struct Scope {
    /// What creates it.
    pub kind: ScopeKind,
    /// The enclosing scope.
    pub parent: Option<ScopeIdx>,
    /// The function whose code it belongs to.
    pub func: FuncIdx,
    /// Its declarations, in declaration order.
    pub decls: Vec<DeclId>,
    names: Names,
}

/// A scope's declarations by name: each entry is a declaration with the hash of its name
/// (the name itself is the declaration's, `DeclInfo::name`). A lookup hashes its name once
/// ([`ScopeTree::name`]) and probes every scope out to the declaration with that hash:
/// resolving a reference in a deeply nested function does not hash the name again at each
/// level, and a declaration's name is stored once (a large library declares ~100,000 names).
type Names = hashbrown::HashTable<(u64, DeclId)>;

/// A name looked up, with its hash.
#[derive(Clone, Copy)]
struct NameQuery<'a> {
    hash: u64,
    name: &'a str,
}

/// What kind of function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FuncKind {
    /// The script's global code.
    Script,
    /// A module's top-level code.
    Module,
    /// Direct eval code: `this`, `new.target` and `super` are the caller's (read through
    /// its internal declarations by name).
    Eval,
    /// A function declaration or expression.
    Normal,
    /// An arrow function.
    Arrow,
    /// An object literal or class method.
    Method,
    /// A getter.
    Getter,
    /// A setter.
    Setter,
    /// A base class constructor.
    ClassConstructor,
    /// A derived class constructor.
    DerivedConstructor,
}

/// Facts about one function.
#[derive(Clone, Debug)]
pub struct FuncInfo {
    /// What kind of function.
    pub kind: FuncKind,
    /// Whether it is a generator.
    pub is_generator: bool,
    /// Whether it is an async function (or async generator).
    pub is_async: bool,
    /// The enclosing function.
    pub parent: Option<FuncIdx>,
    /// Its function scope (the script scope for the script): parameters, `arguments`, the
    /// internal declarations and a function expression's own name.
    pub scope: ScopeIdx,
    /// The scope of its `var`s, function declarations and top-level lexical declarations:
    /// `scope` itself, or a child of it when the parameter list contains expressions
    /// (FunctionDeclarationInstantiation step 28: a separate variable environment) or
    /// `params_in_outer` holds.
    pub body_scope: ScopeIdx,
    /// A generator with a non-simple parameter list: the outer function (the call)
    /// evaluates the parameters, the generator body reads them from the environment of
    /// `scope`, so every declaration of `scope` the body uses is captured.
    pub params_in_outer: bool,
    /// Whether its code is strict.
    pub strict: bool,
    /// Whether its parameters are all plain identifiers without defaults or rest.
    pub simple_params: bool,
    /// Internal declarations for arrows' lexical `this`, `new.target`, `super`.
    pub this_decl: Option<DeclId>,
    /// See `this_decl`.
    pub new_target_decl: Option<DeclId>,
    /// See `this_decl`.
    pub callee_decl: Option<DeclId>,
    /// See `this_decl`.
    pub home_decl: Option<DeclId>,
    /// Whether it (or an arrow in it) uses `super.x`: its closure needs a [[HomeObject]].
    pub uses_super_property: bool,
    /// Whether its own code (not nested arrows) reads `this`.
    pub uses_this: bool,
    /// A sloppy function with simple parameters whose `arguments` object is mapped to the
    /// parameters observably (a parameter is assigned, or `arguments` escapes or is
    /// written): its parameters live in the arguments object (see IRGen's `Storage::Mapped`).
    pub mapped_arguments: bool,
    /// Whether its own code calls `eval(...)` directly.
    pub direct_eval: bool,
    /// A class's field initializer function or a static block: code in it (and in arrows
    /// in it), direct eval code included, may not name `arguments`.
    pub initializer: bool,
    /// Its `%evalvars` declaration, when it calls a sloppy direct eval.
    pub eval_vars: Option<DeclId>,
    /// Whether it or a function nested in it calls `eval(...)` directly (the eval code may
    /// use any declaration in scope) or reads `import.meta` (only module code can): it cannot
    /// be compiled on its own later.
    pub needs_whole_program: bool,
    /// The declarations outside it that it or a function nested in it uses (what compiling
    /// it on its own, lazily, needs to find in its scope).
    pub free: HashSet<DeclId>,
}

/// What a private name of a class names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrivateKind {
    /// A private field: the declaration holds its Private Name.
    Field,
    /// A private method: the declaration holds the method.
    Method,
    /// A private accessor: the declaration holds the getter (undefined without one);
    /// `setter` is the declaration holding the setter.
    Accessor { getter: bool, setter: Option<DeclId> },
}

/// A private name of a class.
#[derive(Clone, Copy, Debug)]
pub struct PrivateInfo {
    /// What it names.
    pub kind: PrivateKind,
    /// Whether it is static.
    pub is_static: bool,
    /// For methods and accessors: the brand (`%brand` or `%static_brand`) whose presence on
    /// an object tells that the object has the class's private methods.
    pub brand: Option<DeclId>,
}

/// Where the Annex B var binding of a block function lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnnexBTarget {
    /// A `var` of the enclosing function.
    Decl(DeclId),
    /// A global variable (top-level code of a script).
    Global(String),
}

/// The result of scope analysis.
#[derive(Clone, Debug, Default)]
pub struct ScopeTree {
    /// Every declaration.
    pub decls: Vec<DeclInfo>,
    /// Every scope.
    pub scopes: Vec<Scope>,
    /// Every function; the first is the script.
    pub funcs: Vec<FuncInfo>,
    scope_keys: HashMap<ScopeKey, ScopeIdx>,
    func_keys: HashMap<ScopeKey, FuncIdx>,
    /// Block functions with an Annex B var binding, and that binding.
    pub annexb: HashMap<DeclId, AnnexBTarget>,
    /// The private names declared by class bodies.
    pub private: HashMap<DeclId, PrivateInfo>,
    /// Names of the script's top-level `var`s and functions (global object properties), in
    /// order, including Annex B names.
    pub global_vars: Vec<String>,
    /// The names in `global_vars` that only Annex B block functions declare.
    pub annexb_globals: HashSet<String>,
    /// A module whose top level uses `await` (its body is an async function).
    pub top_level_await: bool,
    /// The `%evalvars` declaration of each function body scope that has one (see
    /// `DeclKind::EvalVars`).
    pub eval_vars: HashMap<ScopeIdx, DeclId>,
    /// Direct eval code (sloppy, in a function): the `var` names it declares on the
    /// caller's `%evalvars` object, in order.
    pub eval_var_names: Vec<String>,
    /// Direct eval code: the scopes of the caller's environments, outermost first (see
    /// `analyze_eval`), and the one of them that is the caller's var scope.
    pub eval_levels: Vec<ScopeIdx>,
    pub eval_var_level: Option<ScopeIdx>,
    /// Direct eval code: the slot of each declaration of the caller's environments.
    pub eval_slots: HashMap<DeclId, u32>,
    /// How names are hashed for [`Names`].
    name_hasher: hashbrown::DefaultHashBuilder,
    /// Whether any scope is a `with` statement's (else no name resolves through an object).
    has_with: bool,
}

impl FuncInfo {
    /// A function whose scopes are not made yet and whose uses are not seen yet.
    fn new(kind: FuncKind, is_generator: bool, parent: Option<FuncIdx>, strict: bool, simple_params: bool) -> FuncInfo {
        FuncInfo {
            kind,
            is_generator,
            is_async: false,
            parent,
            scope: ScopeIdx(0),
            body_scope: ScopeIdx(0),
            params_in_outer: false,
            strict,
            simple_params,
            this_decl: None,
            new_target_decl: None,
            callee_decl: None,
            home_decl: None,
            uses_super_property: false,
            uses_this: false,
            mapped_arguments: false,
            direct_eval: false,
            initializer: false,
            eval_vars: None,
            needs_whole_program: false,
            free: HashSet::new(),
        }
    }
}

impl ScopeTree {
    /// Keeps every top-level lexical declaration of the script in its heap environment: the
    /// realm shares them with the scripts that run later (the global lexical environment),
    /// which reach them by name, so they are all "captured" and all kept.
    pub fn share_script_lexicals(&mut self) {
        for &d in &self.scopes[0].decls {
            let decl = &mut self.decls[d.0 as usize];
            decl.captured = true;
            decl.referenced = true;
        }
    }

    /// The declaration `d`.
    pub fn decl(&self, d: DeclId) -> &DeclInfo {
        &self.decls[d.0 as usize]
    }
    /// The scope `s`.
    pub fn scope(&self, s: ScopeIdx) -> &Scope {
        &self.scopes[s.0 as usize]
    }
    /// The function `f`.
    pub fn func(&self, f: FuncIdx) -> &FuncInfo {
        &self.funcs[f.0 as usize]
    }
    /// The scope created by the node with key `key`.
    pub fn scope_by_key(&self, key: ScopeKey) -> Option<ScopeIdx> {
        self.scope_keys.get(&key).copied()
    }
    /// The function created by the node at `span`.
    pub fn func_by_span(&self, span: Span) -> Option<FuncIdx> {
        self.func_keys.get(&ScopeKey::new(span, ScopeKind::Function)).copied()
    }
    /// The function with key `key` (a class's static elements initializer).
    pub fn func_by_key(&self, key: ScopeKey) -> Option<FuncIdx> {
        self.func_keys.get(&key).copied()
    }
    /// The declaration of `name` in `scope` itself.
    pub fn lookup_local(&self, scope: ScopeIdx, name: &str) -> Option<DeclId> {
        self.find(scope, self.name(name))
    }
    /// The declaration `name` refers to from `scope`, `None` for a global.
    pub fn resolve(&self, scope: ScopeIdx, name: &str) -> Option<DeclId> {
        self.resolve_from(scope, self.name(name))
    }
    fn resolve_from(&self, scope: ScopeIdx, name: NameQuery<'_>) -> Option<DeclId> {
        let mut cur = Some(scope);
        while let Some(s) = cur {
            if let Some(d) = self.find(s, name) {
                return Some(d);
            }
            cur = self.scope(s).parent;
        }
        None
    }
    /// The objects of the `with` statements between `scope` and the declaration `name`
    /// resolves to (innermost first): an identifier resolved through them is looked up in
    /// each object first, at run time. Internal names (`%x`, `#x`) never are.
    pub fn with_objects(&self, scope: ScopeIdx, name: &str) -> Vec<DeclId> {
        self.with_objects_of(scope, self.name(name))
    }
    fn with_objects_of(&self, scope: ScopeIdx, name: NameQuery<'_>) -> Vec<DeclId> {
        let mut out = Vec::new();
        if (!self.has_with && self.eval_vars.is_empty()) || name.name.starts_with(['%', '#']) {
            return out;
        }
        let mut cur = Some(scope);
        while let Some(s) = cur {
            let sc = self.scope(s);
            if self.find(s, name).is_some() {
                break;
            }
            if sc.kind == ScopeKind::With {
                if let Some(w) = self.find(s, self.name("%with")) {
                    out.push(w);
                }
            }
            if let Some(&e) = self.eval_vars.get(&s) {
                out.push(e);
            }
            cur = sc.parent;
        }
        out
    }
    /// [`ScopeTree::lookup_local`] of a name already hashed.
    fn find(&self, scope: ScopeIdx, name: NameQuery<'_>) -> Option<DeclId> {
        let eq = |&(hash, d): &(u64, DeclId)| hash == name.hash && self.decl(d).name == name.name;
        self.scope(scope).names.find(name.hash, eq).map(|&(_, d)| d)
    }
    /// `name` with its hash, to look up in scopes.
    fn name<'a>(&self, name: &'a str) -> NameQuery<'a> {
        use std::hash::BuildHasher;
        NameQuery { hash: self.name_hasher.hash_one(name), name }
    }
    /// Whether any declaration of `scope` is captured (then the scope gets an environment).
    pub fn scope_has_captured(&self, scope: ScopeIdx) -> bool {
        self.scope(scope).decls.iter().any(|&d| self.decl(d).captured)
    }
    /// The nearest non-arrow function enclosing (or being) `f`.
    pub fn this_function(&self, mut f: FuncIdx) -> FuncIdx {
        while self.func(f).kind == FuncKind::Arrow {
            match self.func(f).parent {
                Some(p) => f = p,
                None => break,
            }
        }
        f
    }
}

/// How deep statements and expressions may nest before analysis gives up with a diagnostic.
pub const MAX_DEPTH: u32 = 3000;

/// Builds the scope tree of `script`. `strict` is whether the script is strict.
/// Returns the spans and messages of problems found (only excessive nesting).
pub fn analyze(
    script: &Script,
    lines: &LineTable,
    strict: bool,
    deferred: &[(Span, String)],
) -> (ScopeTree, Vec<(Span, String)>) {
    let strict = strict || has_use_strict(&script.body);
    let mut a = Analyzer {
        check: Checker::new(lines, strict, deferred),
        tree: ScopeTree::default(),
        cur_scope: ScopeIdx(0),
        cur_func: FuncIdx(0),
        depth: 0,
        errors: Vec::new(),
        annexb_ok: HashSet::new(),
        split_body: None,
        binding_params: false,
        forcing_specials: false,
        atoms: Default::default(),
    };
    a.check.directives(&script.body);
    a.tree.funcs.push(FuncInfo::new(FuncKind::Script, false, None, strict, true));
    let scope = a.new_scope(ScopeKind::Script, None, ScopeKey::new(script.span, ScopeKind::Script));
    a.cur_scope = scope;
    // Global declarations: functions and vars are global object properties.
    let mut seen = HashSet::new();
    let mut vars = Vec::new();
    collect_var_names(&script.body, &mut vars);
    let functions = top_level_functions(&script.body);
    for f in &functions {
        if seen.insert(f.ident.sym.to_string()) {
            a.tree.global_vars.push(f.ident.sym.to_string());
        }
    }
    for (v, _) in &vars {
        if seen.insert(v.to_string()) {
            a.tree.global_vars.push(v.to_string());
        }
    }
    let lexical = lexical_decls(&script.body, true);
    for l in &lexical {
        a.declare_atom(scope, &l.name, l.kind);
    }
    vars.extend(functions.iter().map(|f| (f.ident.sym.clone(), f.ident.span)));
    a.check.redeclarations(&lexical, &vars, &[]);
    if !strict {
        let mut found = Vec::new();
        let top_lexical: HashSet<String> = lexical.into_iter().map(|l| l.name.to_string()).collect();
        scan_annexb(&script.body, &top_lexical, &mut Vec::new(), &mut found, true);
        for (name, lo) in found {
            a.annexb_ok.insert(lo);
            if seen.insert(name.clone()) {
                a.tree.global_vars.push(name.clone());
                a.tree.annexb_globals.insert(name);
            }
        }
    }
    a.walk_stmts(&script.body);
    // The early errors come first: the scope errors of a program with early errors may
    // be their consequences.
    let early = a.check.finish();
    let errors = if early.is_empty() { a.errors } else { early };
    (a.tree, errors)
}

/// Builds the scope tree of the body of a module (see `module::desugar`): one function, the
/// module, whose scope holds every top-level declaration (vars, functions, lexical
/// declarations) and the import bindings, all kept in the module environment (they are
/// captured); `%module` is the internal binding of the module's identity (`import.meta`,
/// `import()`). Module code is strict and has no Annex B functions. Also checks that every
/// local export names a declaration.
pub fn analyze_module(
    script: &Script,
    syntax: &super::module::ModuleSyntax,
    lines: &LineTable,
) -> (ScopeTree, Vec<(Span, String)>) {
    let mut a = Analyzer {
        check: Checker::new(lines, true, &[]),
        tree: ScopeTree::default(),
        cur_scope: ScopeIdx(0),
        cur_func: FuncIdx(0),
        depth: 0,
        errors: Vec::new(),
        annexb_ok: HashSet::new(),
        split_body: None,
        binding_params: false,
        forcing_specials: false,
        atoms: Default::default(),
    };
    a.tree.funcs.push(FuncInfo::new(FuncKind::Module, false, None, true, true));
    let scope = a.new_scope(ScopeKind::Script, None, ScopeKey::new(script.span, ScopeKind::Script));
    a.cur_scope = scope;
    a.declare(scope, MODULE_BINDING, DeclKind::ModuleIdentity);
    // Imports and every top-level declaration but vars are lexical: none may be declared
    // twice (function declarations included, unlike a function body's).
    let mut lexical: Vec<LexicalDecl> = syntax
        .imports
        .iter()
        .map(|i| LexicalDecl {
            name: a.atoms.atom(i.local.as_str()),
            kind: DeclKind::Import,
            span: DUMMY_SP,
            plain_function: false,
        })
        .collect();
    lexical.extend(lexical_decls(&script.body, false));
    let mut vars = Vec::new();
    collect_var_names(&script.body, &mut vars);
    for i in &syntax.imports {
        let kind = match i.name {
            super::module::Imported::Name(_) => DeclKind::Import,
            _ => DeclKind::ImportNamespace,
        };
        a.declare(scope, &i.local, kind);
    }
    for f in top_level_functions(&script.body) {
        a.declare_atom(scope, &f.ident.sym, DeclKind::Function);
    }
    for (v, _) in &vars {
        a.declare_atom(scope, v, DeclKind::Var);
    }
    for l in lexical_decls(&script.body, true) {
        a.declare_atom(scope, &l.name, l.kind);
    }
    a.check.redeclarations(&lexical, &vars, &[]);
    a.walk_stmts(&script.body);
    for e in &syntax.exports {
        if let super::module::ExportSyntax::Local { local, span, .. } = e {
            if a.tree.lookup_local(scope, local).is_none() {
                a.errors.push((*span, format!("Export '{local}' is not defined in module")));
            }
        }
    }
    a.tree.share_script_lexicals();
    let early = a.check.finish();
    let errors = if early.is_empty() { a.errors } else { early };
    (a.tree, errors)
}

/// The declaration kind of variable `name` of kind `kind` in a direct eval's caller.
fn caller_decl_kind(name: &str, kind: ir::VarKind) -> DeclKind {
    match name {
        "this" => return DeclKind::This,
        "new.target" => return DeclKind::NewTarget,
        "%callee" => return DeclKind::Callee,
        "%home" => return DeclKind::HomeObject,
        "%evalvars" => return DeclKind::EvalVars,
        "%with" => return DeclKind::WithObject,
        MODULE_BINDING => return DeclKind::ModuleIdentity,
        _ => {}
    }
    match kind {
        ir::VarKind::Var => DeclKind::Var,
        ir::VarKind::Let => DeclKind::Let,
        ir::VarKind::Const => DeclKind::Const,
        ir::VarKind::Import => DeclKind::Import,
        // Internal names start with `%` or `#`; a name is a function expression's own.
        ir::VarKind::Internal if name.starts_with(['%', '#']) => DeclKind::ClassInternal,
        ir::VarKind::Internal => DeclKind::FunctionName,
    }
}

/// Builds the scope tree of direct eval code compiled against its caller's scope `outer`
/// (see `frontend::eval`). The caller's environments become the outer scopes of the eval
/// code's function (a synthetic function 1 declares them, in slot order; `eval_levels`
/// lists them). Strict eval code's `var`s and functions are its own; sloppy eval code's are
/// the caller's: declared on its `%evalvars` (`eval_var_names`; the functions are left to
/// IRGen) in a function, global at the top level of a script. Also the early errors of
/// EvalDeclarationInstantiation: a `var` that a lexical declaration between the eval and
/// the var scope would shadow, and `arguments` declared in parameter expressions.
pub fn analyze_eval(
    script: &Script,
    lines: &LineTable,
    outer: &super::eval::EvalScope,
    deferred: &[(Span, String)],
) -> (ScopeTree, Vec<(Span, String)>) {
    let strict = outer.strict || has_use_strict(&script.body);
    let mut a = Analyzer {
        check: Checker::new(lines, strict, deferred),
        tree: ScopeTree::default(),
        cur_scope: ScopeIdx(0),
        cur_func: FuncIdx(0),
        depth: 0,
        errors: Vec::new(),
        annexb_ok: HashSet::new(),
        split_body: None,
        binding_params: false,
        forcing_specials: false,
        atoms: Default::default(),
    };
    a.check.eval_context(outer.super_prop, outer.super_call, outer.no_arguments);
    a.check.directives(&script.body);
    a.tree.funcs.push(FuncInfo::new(FuncKind::Eval, false, None, strict, true));
    let scope = a.new_scope(ScopeKind::Script, None, ScopeKey::new(script.span, ScopeKind::Script));
    // The caller's environments, outermost first; their keys are spans no source has.
    a.tree.funcs.push(FuncInfo::new(FuncKind::Normal, false, None, outer.strict, true));
    a.cur_func = FuncIdx(1);
    let mut parent = None;
    let mut var_scope = None;
    for (i, level) in outer.levels.iter().enumerate().rev() {
        let pos = swc_common::BytePos(u32::MAX - i as u32);
        // The object of a `with` around the eval is looked up first, as in the caller.
        let kind = if level.vars.iter().any(|v| v.name == "%with") { ScopeKind::With } else { ScopeKind::Block };
        let s = a.new_scope(kind, parent, ScopeKey::new(Span::new(pos, pos), kind));
        for v in &level.vars {
            let d = a.declare_new(s, &v.name, caller_decl_kind(&v.name, v.kind));
            a.tree.eval_slots.insert(d, v.slot);
            let decl = &mut a.tree.decls[d.0 as usize];
            decl.captured = true;
            decl.referenced = true;
        }
        if level.var_scope {
            var_scope = Some(s);
            if let Some(e) = a.tree.lookup_local(s, "%evalvars") {
                a.tree.eval_vars.insert(s, e);
            }
        }
        a.tree.eval_levels.push(s);
        parent = Some(s);
    }
    a.cur_func = FuncIdx(0);
    a.tree.scopes[0].parent = parent;
    a.tree.eval_var_level = var_scope;
    a.cur_scope = scope;

    let mut vars = Vec::new();
    collect_var_names(&script.body, &mut vars);
    let functions = top_level_functions(&script.body);
    let lexical = lexical_decls(&script.body, true);
    for l in &lexical {
        a.declare_atom(scope, &l.name, l.kind);
    }
    let mut var_names = vars.clone();
    var_names.extend(functions.iter().map(|f| (f.ident.sym.clone(), f.ident.span)));
    a.check.redeclarations(&lexical, &var_names, &[]);
    if strict {
        for f in &functions {
            a.declare_atom(scope, &f.ident.sym, DeclKind::Function);
        }
        for (v, _) in &vars {
            a.declare_atom(scope, v, DeclKind::Var);
        }
    } else {
        // The caller's scopes up to its var scope (all of them at the top level), whose
        // lexical declarations a `var` may not shadow (the var scope's own are in the
        // function's lexical environment, inside its variable environment).
        let mut inner: Vec<ScopeIdx> =
            a.tree.eval_levels.iter().rev().copied().take_while(|&s| Some(s) != var_scope).collect();
        inner.extend(var_scope);
        for (name, span) in &var_names {
            let shadowed = inner.iter().any(|&s| {
                a.tree.lookup_local(s, name).is_some_and(|d| {
                    matches!(a.tree.decl(d).kind, DeclKind::Let | DeclKind::Const | DeclKind::Class | DeclKind::Import)
                })
            });
            if shadowed {
                a.errors.push((*span, format!("Identifier '{name}' has already been declared")));
            }
            if outer.in_params && name == "arguments" {
                a.errors.push((*span, "'arguments' cannot be declared by eval in parameter expressions".into()));
            }
        }
        // Annex B.3.3.3: a function in a block also gets a var binding, unless a lexical
        // declaration (the eval code's, or the caller's up to its var scope) blocks it.
        let top_lexical: HashSet<String> = lexical.iter().map(|l| l.name.to_string()).collect();
        let mut found = Vec::new();
        scan_annexb(&script.body, &top_lexical, &mut Vec::new(), &mut found, true);
        let mut annexb = Vec::new();
        for (name, lo) in found {
            let blocked = inner.iter().any(|&s| {
                a.tree.lookup_local(s, &name).is_some_and(|d| {
                    matches!(a.tree.decl(d).kind, DeclKind::Let | DeclKind::Const | DeclKind::Class | DeclKind::Import)
                })
            });
            if !blocked {
                a.annexb_ok.insert(lo);
                annexb.push(name);
            }
        }
        if outer.in_function {
            for v in vars.iter().map(|(v, _)| &**v).chain(annexb.iter().map(String::as_str)) {
                let exists = var_scope.is_some_and(|s| a.tree.lookup_local(s, v).is_some());
                if !exists
                    && !a.tree.eval_var_names.iter().any(|e| e == v)
                    && !functions.iter().any(|f| &*f.ident.sym == v)
                {
                    a.tree.eval_var_names.push(v.to_string());
                }
            }
        } else {
            let mut seen = HashSet::new();
            for f in &functions {
                if seen.insert(f.ident.sym.to_string()) {
                    a.tree.global_vars.push(f.ident.sym.to_string());
                }
            }
            for (v, _) in &vars {
                if seen.insert(v.to_string()) {
                    a.tree.global_vars.push(v.to_string());
                }
            }
            for name in annexb {
                if seen.insert(name.clone()) {
                    a.tree.global_vars.push(name.clone());
                    a.tree.annexb_globals.insert(name);
                }
            }
        }
    }
    a.walk_stmts(&script.body);
    let early = a.check.finish();
    let errors = if early.is_empty() { a.errors } else { early };
    (a.tree, errors)
}

/// The internal binding of a module's identity (see `analyze_module`).
pub const MODULE_BINDING: &str = "%module";

/// What `begin_function` saves.
struct Saved {
    scope: ScopeIdx,
    func: FuncIdx,
    split_body: Option<ScopeIdx>,
}

struct Analyzer<'l> {
    /// The early errors, checked in this same walk.
    check: Checker<'l>,
    tree: ScopeTree,
    cur_scope: ScopeIdx,
    cur_func: FuncIdx,
    depth: u32,
    errors: Vec<(Span, String)>,
    /// Start positions of function declarations that get an Annex B var binding.
    annexb_ok: HashSet<u32>,
    /// While walking the body of a generator whose parameters the outer function
    /// evaluates: its parameter scope (uses of its declarations from the body capture them).
    split_body: Option<ScopeIdx>,
    /// While walking a parameter list: identifiers are the parameters' own bindings.
    binding_params: bool,
    /// While a direct eval makes the caller's `this`, `new.target` and `super` declarations
    /// (which the function itself would otherwise read without them).
    forcing_specials: bool,
    /// The names of internal declarations and of those not taken from the syntax tree.
    atoms: swc_atoms::AtomStoreCell,
}

impl Analyzer<'_> {
    fn new_scope(&mut self, kind: ScopeKind, parent: Option<ScopeIdx>, key: ScopeKey) -> ScopeIdx {
        let idx = ScopeIdx(self.tree.scopes.len() as u32);
        self.tree.scopes.push(Scope { kind, parent, func: self.cur_func, decls: Vec::new(), names: Names::default() });
        self.tree.has_with |= kind == ScopeKind::With;
        self.tree.scope_keys.insert(key, idx);
        idx
    }

    /// Declares `name` in `scope`, or returns the existing declaration of that name.
    fn declare(&mut self, scope: ScopeIdx, name: &str, kind: DeclKind) -> DeclId {
        if let Some(d) = self.tree.lookup_local(scope, name) {
            return d;
        }
        self.declare_new(scope, name, kind)
    }

    /// [`Analyzer::declare`] for a name of the syntax tree (kept as the tree's atom).
    fn declare_atom(&mut self, scope: ScopeIdx, name: &Atom, kind: DeclKind) -> DeclId {
        if let Some(d) = self.tree.lookup_local(scope, name) {
            return d;
        }
        self.declare_new_atom(scope, name.clone(), kind)
    }

    fn declare_new(&mut self, scope: ScopeIdx, name: &str, kind: DeclKind) -> DeclId {
        let name = self.atoms.atom(name);
        self.declare_new_atom(scope, name, kind)
    }

    fn declare_new_atom(&mut self, scope: ScopeIdx, name: Atom, kind: DeclKind) -> DeclId {
        let d = DeclId(self.tree.decls.len() as u32);
        let hash = self.tree.name(&name).hash;
        self.tree.decls.push(DeclInfo {
            name,
            kind,
            scope,
            captured: false,
            referenced: false,
            written: false,
            escapes: false,
        });
        let (decls, s) = (&self.tree.decls, &mut self.tree.scopes[scope.0 as usize]);
        s.decls.push(d);
        // A name declared again in the same scope names the new declaration from now on.
        let name = &decls[d.0 as usize].name;
        let same = |&(h, e): &(u64, DeclId)| h == hash && e != d && decls[e.0 as usize].name == *name;
        match s.names.find_mut(hash, same) {
            Some(entry) => entry.1 = d,
            None => {
                s.names.insert_unique(hash, (hash, d), |&(hash, _)| hash);
            }
        }
        d
    }

    fn func(&mut self, f: FuncIdx) -> &mut FuncInfo {
        &mut self.tree.funcs[f.0 as usize]
    }

    fn strict(&self) -> bool {
        self.tree.func(self.cur_func).strict
    }

    /// Whether function `f`'s arguments object must be mapped to its parameters (see
    /// `FuncInfo::mapped_arguments`); then a captured parameter captures `arguments`.
    fn decide_mapped_arguments(&mut self, f: FuncIdx) {
        let info = self.tree.func(f);
        // With direct eval the parameters stay in the environment, where eval code finds
        // them (the arguments object is not mapped: a known gap).
        if info.kind == FuncKind::Arrow || info.strict || !info.simple_params || info.direct_eval {
            return;
        }
        let scope = self.tree.scope(info.scope);
        let Some(args) = scope.decls.iter().copied().find(|&d| self.tree.decl(d).kind == DeclKind::Arguments) else {
            return;
        };
        let params: Vec<DeclId> =
            scope.decls.iter().copied().filter(|&d| self.tree.decl(d).kind == DeclKind::Param).collect();
        let a = self.tree.decl(args);
        if params.is_empty() || !a.referenced {
            return;
        }
        let observable = a.escapes || params.iter().any(|&p| self.tree.decl(p).written);
        if !observable {
            return;
        }
        self.func(f).mapped_arguments = true;
        if params.iter().any(|&p| self.tree.decl(p).captured) {
            self.tree.decls[args.0 as usize].captured = true;
        }
    }

    /// An assignment to `name` (parameters assigned make `arguments` mapped).
    fn reference_write(&mut self, name: &str) {
        self.reference(name);
        if let Some(d) = self.tree.resolve(self.cur_scope, name) {
            self.tree.decls[d.0 as usize].written = true;
        }
    }

    /// A use of `name` that lets an `arguments` object escape.
    fn reference_escape(&mut self, name: &str) {
        if let Some(d) = self.reference_to(name) {
            if self.tree.decl(d).kind == DeclKind::Arguments {
                self.tree.decls[d.0 as usize].escapes = true;
            }
        }
    }

    /// A reference to `name` from the current scope (and to the objects of the `with`
    /// statements it is resolved through).
    fn reference(&mut self, name: &str) {
        self.reference_to(name);
    }

    /// [`Analyzer::reference`], returning the declaration `name` resolves to.
    fn reference_to(&mut self, name: &str) -> Option<DeclId> {
        let query = self.tree.name(name);
        for w in self.tree.with_objects_of(self.cur_scope, query) {
            self.use_decl(w);
        }
        let d = self.tree.resolve_from(self.cur_scope, query);
        if let Some(d) = d {
            self.use_decl(d);
        }
        d
    }

    /// The current function and those around it cannot be compiled on their own later
    /// (`FuncInfo::needs_whole_program`).
    fn needs_whole_program(&mut self) {
        let mut f = Some(self.cur_func);
        while let Some(g) = f.filter(|&g| !self.tree.func(g).needs_whole_program) {
            self.func(g).needs_whole_program = true;
            f = self.tree.func(g).parent;
        }
    }

    fn use_decl(&mut self, d: DeclId) {
        let scope = self.tree.decl(d).scope;
        let func = self.tree.scope(scope).func;
        let split = self.split_body == Some(scope);
        let decl = &mut self.tree.decls[d.0 as usize];
        decl.referenced = true;
        if func != self.cur_func || split {
            decl.captured = true;
        }
        // Every function from here out to the declaring one uses it from outside (once a
        // function has it, so do the functions around it).
        let mut f = self.cur_func;
        while f != func && self.func(f).free.insert(d) {
            match self.tree.func(f).parent {
                Some(p) => f = p,
                None => break,
            }
        }
    }

    /// The internal declaration `kind` of the nearest non-arrow function, used from here.
    fn lexical_special(&mut self, kind: DeclKind) {
        let f = self.tree.this_function(self.cur_func);
        if self.tree.func(f).kind == FuncKind::Eval {
            // Direct eval code reads its caller's declaration (when it has one).
            let name = match kind {
                DeclKind::This => "this",
                DeclKind::NewTarget => "new.target",
                DeclKind::Callee => "%callee",
                _ => "%home",
            };
            if let Some(d) = self.tree.resolve(self.cur_scope, name) {
                self.use_decl(d);
            }
            return;
        }
        if matches!(self.tree.func(f).kind, FuncKind::Script | FuncKind::Module) {
            return;
        }
        if f == self.cur_func && kind == DeclKind::This && !self.forcing_specials {
            self.func(f).uses_this = true;
        }
        let existing = match kind {
            DeclKind::This => self.tree.func(f).this_decl,
            DeclKind::NewTarget => self.tree.func(f).new_target_decl,
            DeclKind::Callee => self.tree.func(f).callee_decl,
            _ => self.tree.func(f).home_decl,
        };
        // The body of a generator whose parameters the outer function binds reads `this`
        // from the outer function's environment (ToObject of a primitive `this` happens once).
        let split_this = kind == DeclKind::This && self.split_body.is_some_and(|s| s == self.tree.func(f).scope);
        let d = match existing {
            Some(d) => d,
            None if f == self.cur_func && !split_this && !self.forcing_specials => return,
            None => {
                let scope = self.tree.func(f).scope;
                let name = match kind {
                    DeclKind::This => "this",
                    DeclKind::NewTarget => "new.target",
                    DeclKind::Callee => "%callee",
                    _ => "%home",
                };
                let d = self.declare_new(scope, name, kind);
                let info = self.func(f);
                match kind {
                    DeclKind::This => info.this_decl = Some(d),
                    DeclKind::NewTarget => info.new_target_decl = Some(d),
                    DeclKind::Callee => info.callee_decl = Some(d),
                    _ => info.home_decl = Some(d),
                }
                d
            }
        };
        self.use_decl(d);
    }

    /// A direct `eval(...)` here: the eval code may use every declaration in scope, and the
    /// caller's `this`, `new.target` and `super`, so they all live in heap environments (see
    /// `frontend::eval`); sloppy eval code declares its `var`s on the function's `%evalvars`.
    fn direct_eval(&mut self) {
        let f = self.tree.this_function(self.cur_func);
        let kind = self.tree.func(f).kind;
        if !matches!(kind, FuncKind::Script | FuncKind::Module | FuncKind::Eval) {
            self.forcing_specials = true;
            self.lexical_special(DeclKind::This);
            self.lexical_special(DeclKind::NewTarget);
            if matches!(
                kind,
                FuncKind::Method
                    | FuncKind::Getter
                    | FuncKind::Setter
                    | FuncKind::ClassConstructor
                    | FuncKind::DerivedConstructor
            ) {
                self.lexical_special(DeclKind::HomeObject);
                self.func(f).uses_super_property = true;
            }
            if kind == FuncKind::DerivedConstructor {
                self.lexical_special(DeclKind::Callee);
            }
            self.forcing_specials = false;
            self.func(f).uses_this = true;
        }
        let cur = self.cur_func;
        self.func(cur).direct_eval = true;
        self.needs_whole_program();
        let own = self.tree.func(cur);
        if !own.strict && own.eval_vars.is_none() && !matches!(own.kind, FuncKind::Script | FuncKind::Module) {
            let body = own.body_scope;
            let d = self.declare_new(body, "%evalvars", DeclKind::EvalVars);
            let decl = &mut self.tree.decls[d.0 as usize];
            decl.captured = true;
            decl.referenced = true;
            self.func(cur).eval_vars = Some(d);
            self.tree.eval_vars.insert(body, d);
        }
        let mut scope = Some(self.cur_scope);
        while let Some(s) = scope {
            for d in self.tree.scopes[s.0 as usize].decls.clone() {
                let decl = &mut self.tree.decls[d.0 as usize];
                decl.captured = true;
                decl.referenced = true;
                // Eval code may assign parameters and let `arguments` escape.
                decl.written = true;
                if decl.kind == DeclKind::Arguments {
                    decl.escapes = true;
                }
            }
            scope = self.tree.scopes[s.0 as usize].parent;
        }
    }

    /// An `await` (expression, `for await`, `await using`) here: at a module's top level,
    /// the module body is asynchronous.
    fn note_await(&mut self) {
        if self.tree.func(self.cur_func).kind == FuncKind::Module {
            self.tree.top_level_await = true;
        }
    }

    /// Goes one level deeper, into `node`; false (with a diagnostic at the
    /// first place past the limit) when that is too deep.
    fn enter<T: Spanned + ?Sized>(&mut self, node: &T) -> bool {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            if self.depth == MAX_DEPTH + 1 && self.errors.is_empty() {
                // Only now: finding the span of an expression is a walk of its own.
                self.errors.push((node.span(), "the program is nested too deeply".to_string()));
            }
            return false;
        }
        true
    }

    // ---- statements -------------------------------------------------------------------

    fn walk_stmts(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            self.walk_stmt(s);
        }
    }

    /// Enters a block-like scope with the lexical declarations of `stmts`, which must not
    /// redeclare the `var`s in `stmts` or the names in `outer` (catch parameters).
    fn enter_block(&mut self, kind: ScopeKind, key_span: Span, stmts: &[&Stmt], outer: &[Named]) -> ScopeIdx {
        let saved = self.cur_scope;
        let s = self.new_scope(kind, Some(saved), ScopeKey::new(key_span, kind));
        self.cur_scope = s;
        let mut lexical = Vec::new();
        let mut vars = Vec::new();
        for stmt in stmts {
            for l in lexical_decls([*stmt], false) {
                let d = self.declare_atom(s, &l.name, l.kind);
                if l.kind == DeclKind::BlockFunction {
                    self.link_annexb(d, stmt);
                }
                lexical.push(l);
            }
            collect_var_names(std::slice::from_ref(*stmt), &mut vars);
        }
        self.check.redeclarations(&lexical, &vars, outer);
        saved
    }

    /// Records the Annex B var binding of the block function `d` declared by `stmt`.
    fn link_annexb(&mut self, d: DeclId, stmt: &Stmt) {
        let Some(f) = fn_decl_of(stmt) else { return };
        if !self.annexb_ok.contains(&f.function.span.lo.0) {
            return;
        }
        let name = f.ident.sym.to_string();
        let this_fn = self.cur_func;
        let target = if matches!(self.tree.func(this_fn).kind, FuncKind::Script | FuncKind::Eval) {
            AnnexBTarget::Global(name)
        } else {
            let fscope = self.tree.func(this_fn).body_scope;
            match self.tree.lookup_local(fscope, &name) {
                Some(v) => AnnexBTarget::Decl(v),
                None => return,
            }
        };
        if let AnnexBTarget::Decl(v) = target {
            // The var is written from this block, which belongs to the same function.
            self.tree.decls[v.0 as usize].referenced = true;
        }
        self.tree.annexb.insert(d, target);
    }

    fn walk_stmt(&mut self, stmt: &Stmt) {
        if !self.enter(stmt) {
            self.depth -= 1;
            return;
        }
        self.check.stmt(stmt);
        match stmt {
            Stmt::Block(b) => self.walk_block(b, &[]),
            Stmt::Empty(_) | Stmt::Debugger(_) | Stmt::Break(_) | Stmt::Continue(_) => {}
            Stmt::With(w) => {
                self.walk_expr(&w.obj);
                let saved = self.cur_scope;
                let s = self.new_scope(ScopeKind::With, Some(saved), ScopeKey::new(w.span, ScopeKind::With));
                self.declare(s, "%with", DeclKind::WithObject);
                self.cur_scope = s;
                self.walk_sub_stmt(&w.body);
                self.cur_scope = saved;
            }
            Stmt::Return(r) => {
                if let Some(e) = &r.arg {
                    self.walk_expr(e);
                }
            }
            Stmt::Labeled(l) => {
                self.check.push_label(l);
                self.walk_stmt(&l.body);
                self.check.pop_label();
            }
            Stmt::If(i) => {
                self.walk_expr(&i.test);
                self.check.if_branch(&i.cons);
                self.walk_sub_stmt(&i.cons);
                if let Some(alt) = &i.alt {
                    self.check.if_branch(alt);
                    self.walk_sub_stmt(alt);
                }
            }
            Stmt::Switch(s) => {
                self.walk_expr(&s.discriminant);
                let stmts: Vec<&Stmt> = s.cases.iter().flat_map(|c| c.cons.iter()).collect();
                let saved = self.enter_block(ScopeKind::Switch, s.span, &stmts, &[]);
                for case in &s.cases {
                    if let Some(t) = &case.test {
                        self.walk_expr(t);
                    }
                    for stmt in &case.cons {
                        if let Stmt::Decl(Decl::Using(u)) = stmt {
                            let msg = "`using` declarations are not allowed directly in a case clause";
                            self.errors.push((u.span, msg.into()));
                        }
                    }
                    self.walk_stmts(&case.cons);
                }
                self.cur_scope = saved;
            }
            Stmt::Throw(t) => self.walk_expr(&t.arg),
            Stmt::Try(t) => {
                self.walk_block(&t.block, &[]);
                if let Some(h) = &t.handler {
                    let saved = self.cur_scope;
                    let s = self.new_scope(ScopeKind::Catch, Some(saved), ScopeKey::new(h.span, ScopeKind::Catch));
                    self.cur_scope = s;
                    let mut params = Vec::new();
                    if let Some(p) = &h.param {
                        pat_names(p, &mut params);
                        for (n, _) in &params {
                            self.declare_atom(s, n, DeclKind::CatchParam);
                        }
                        self.walk_pat(p);
                    }
                    // The block has its own scope: closures in the parameter's defaults do
                    // not see its declarations.
                    self.walk_block(&h.body, &params);
                    self.cur_scope = saved;
                }
                if let Some(f) = &t.finalizer {
                    self.walk_block(f, &[]);
                }
            }
            Stmt::While(w) => {
                self.walk_expr(&w.test);
                self.walk_sub_stmt(&w.body);
            }
            Stmt::DoWhile(w) => {
                self.walk_sub_stmt(&w.body);
                self.walk_expr(&w.test);
            }
            Stmt::For(f) => {
                let saved = self.cur_scope;
                if let Some(VarDeclOrExpr::VarDecl(v)) = &f.init {
                    if v.kind != VarDeclKind::Var {
                        self.enter_for_scope(f.span, v);
                    }
                    // `for (await using x = ...;;)`: its disposal awaits.
                    if self.check.lines().for_using(v.span.lo) == Some(true) {
                        self.note_await();
                    }
                }
                match &f.init {
                    Some(VarDeclOrExpr::VarDecl(v)) => self.walk_var_decl(v),
                    Some(VarDeclOrExpr::Expr(e)) => self.walk_expr(e),
                    None => {}
                }
                if let Some(t) = &f.test {
                    self.walk_expr(t);
                }
                if let Some(u) = &f.update {
                    self.walk_expr(u);
                }
                self.walk_sub_stmt(&f.body);
                self.cur_scope = saved;
            }
            Stmt::ForIn(f) => self.walk_for_in_of(f.span, &f.left, &f.right, &f.body),
            Stmt::ForOf(f) => {
                if f.is_await {
                    self.note_await();
                }
                self.walk_for_in_of(f.span, &f.left, &f.right, &f.body)
            }
            Stmt::Decl(d) => self.walk_decl(d),
            Stmt::Expr(e) => self.walk_expr(&e.expr),
        }
        self.depth -= 1;
    }

    /// A statement in a position where a declaration gets its own implicit block
    /// (`if (x) function f() {}` in sloppy code).
    fn walk_sub_stmt(&mut self, stmt: &Stmt) {
        self.check.body_stmt(stmt);
        if let Stmt::Decl(_) = stmt {
            let saved = self.enter_block(ScopeKind::ImplicitBlock, stmt_span(stmt), &[stmt], &[]);
            self.walk_stmt(stmt);
            self.cur_scope = saved;
        } else {
            self.walk_stmt(stmt);
        }
    }

    /// A block whose lexical declarations must not repeat `outer` (catch parameters).
    fn walk_block(&mut self, b: &BlockStmt, outer: &[Named]) {
        let stmts: Vec<&Stmt> = b.stmts.iter().collect();
        let saved = self.enter_block(ScopeKind::Block, b.span, &stmts, outer);
        self.walk_stmts(&b.stmts);
        self.cur_scope = saved;
    }

    fn enter_for_scope(&mut self, span: Span, v: &VarDecl) {
        let kind = if v.kind == VarDeclKind::Const { DeclKind::Const } else { DeclKind::Let };
        self.enter_for_scope_of(span, &v.decls, kind);
    }

    /// The scope of a `for` head that declares `decls` (of `kind`) for each iteration.
    fn enter_for_scope_of(&mut self, span: Span, decls: &[VarDeclarator], kind: DeclKind) {
        let s = self.new_scope(ScopeKind::For, Some(self.cur_scope), ScopeKey::new(span, ScopeKind::For));
        self.cur_scope = s;
        for d in decls {
            let mut names = Vec::new();
            pat_names(&d.name, &mut names);
            for (n, _) in names {
                self.declare_atom(s, &n, kind);
            }
        }
    }

    fn walk_for_in_of(&mut self, span: Span, left: &ForHead, right: &Expr, body: &Stmt) {
        let saved = self.cur_scope;
        match left {
            ForHead::VarDecl(v) if v.kind != VarDeclKind::Var => self.enter_for_scope(span, v),
            ForHead::UsingDecl(u) => self.enter_for_scope_of(span, &u.decls, DeclKind::Const),
            _ => {}
        }
        self.walk_expr(right);
        match left {
            ForHead::VarDecl(v) => {
                self.walk_var_decl(v);
                let lines = self.check.lines();
                if let Some(init) = lines.for_in_init(v.span.lo) {
                    self.walk_expr(init);
                }
            }
            ForHead::UsingDecl(u) => {
                if u.is_await {
                    self.note_await();
                }
                for d in &u.decls {
                    self.walk_pat(&d.name);
                }
            }
            ForHead::Pat(p) => self.walk_pat(p),
        }
        self.walk_sub_stmt(body);
        self.cur_scope = saved;
    }

    fn walk_var_decl(&mut self, v: &VarDecl) {
        for d in &v.decls {
            self.walk_pat(&d.name);
            if let Some(init) = &d.init {
                self.walk_expr(init);
            }
        }
    }

    fn walk_decl(&mut self, d: &Decl) {
        match d {
            Decl::Class(c) => {
                self.reference(&c.ident.sym);
                self.walk_class(&c.class, Some(&c.ident.sym));
            }
            Decl::Fn(f) => {
                self.reference_write(&f.ident.sym);
                self.walk_function(&f.function, FuncKind::Normal, Some(&f.ident), false);
            }
            Decl::Var(v) => self.walk_var_decl(v),
            Decl::Using(u) => {
                if u.is_await {
                    self.note_await();
                }
                for d in &u.decls {
                    self.walk_pat(&d.name);
                    if let Some(init) = &d.init {
                        self.walk_expr(init);
                    }
                }
            }
            _ => {}
        }
    }

    // ---- functions ----------------------------------------------------------------------

    fn begin_function(
        &mut self,
        span: Span,
        kind: FuncKind,
        is_generator: bool,
        strict: bool,
        simple_params: bool,
    ) -> Saved {
        self.begin_function_keyed(ScopeKey::new(span, ScopeKind::Function), kind, is_generator, strict, simple_params)
    }

    fn begin_function_keyed(
        &mut self,
        key: ScopeKey,
        kind: FuncKind,
        is_generator: bool,
        strict: bool,
        simple_params: bool,
    ) -> Saved {
        let saved = Saved { scope: self.cur_scope, func: self.cur_func, split_body: self.split_body.take() };
        let f = FuncIdx(self.tree.funcs.len() as u32);
        let parent_scope = self.cur_scope;
        self.tree.funcs.push(FuncInfo::new(kind, is_generator, Some(self.cur_func), strict, simple_params));
        self.tree.func_keys.insert(key, f);
        self.cur_func = f;
        let s = self.new_scope(ScopeKind::Function, Some(parent_scope), key);
        self.func(f).scope = s;
        self.func(f).body_scope = s;
        self.cur_scope = s;
        saved
    }

    fn end_function(&mut self, saved: Saved) {
        self.decide_mapped_arguments(self.cur_func);
        self.cur_scope = saved.scope;
        self.cur_func = saved.func;
        self.split_body = saved.split_body;
    }

    /// Hoists the declarations of a function scope (see the module docs), with the span
    /// that keys the function. Creates the body scope when the parameters need their own.
    fn hoist_function(&mut self, span: Span, params: &[&Pat], body: &[Stmt], own_name: Option<&str>) {
        let s = self.cur_scope;
        let f = self.cur_func;
        let kind = self.tree.func(f).kind;
        let mut param_names = Vec::new();
        for p in params {
            pat_names(p, &mut param_names);
        }
        for (n, _) in &param_names {
            self.declare_atom(s, n, DeclKind::Param);
        }
        let has_expressions = params.iter().any(|p| pat_has_expression(p));
        let info = self.tree.func(f);
        // A named generator expression's body reads its own name (the outer closure) from
        // the environment the outer function makes, like non-simple parameters.
        let params_in_outer = info.is_generator && (!info.simple_params || own_name.is_some());
        let lexical = lexical_decls(body, true);
        let functions = top_level_functions(body);
        // FunctionDeclarationInstantiation steps 15-18: argumentsObjectNeeded.
        let shadowed_in_body = !has_expressions
            && (lexical.iter().any(|l| l.name == "arguments")
                || functions.iter().any(|f| &*f.ident.sym == "arguments"));
        if kind != FuncKind::Arrow && !param_names.iter().any(|(n, _)| n == "arguments") && !shadowed_in_body {
            self.declare(s, "arguments", DeclKind::Arguments);
        }
        if kind == FuncKind::DerivedConstructor {
            let d = self.declare_new(s, "this", DeclKind::This);
            // Read by every return of the constructor.
            self.tree.decls[d.0 as usize].referenced = true;
            self.func(f).this_decl = Some(d);
        }
        // Step 28: with parameter expressions the `var`s get their own environment.
        let b = if has_expressions || params_in_outer {
            let b = self.new_scope(ScopeKind::FunctionBody, Some(s), ScopeKey::new(span, ScopeKind::FunctionBody));
            self.func(f).body_scope = b;
            self.func(f).params_in_outer = params_in_outer;
            b
        } else {
            s
        };
        for func in &functions {
            self.declare_atom(b, &func.ident.sym, DeclKind::Function);
        }
        let mut vars = Vec::new();
        collect_var_names(body, &mut vars);
        for (v, _) in &vars {
            self.declare_atom(b, v, DeclKind::Var);
        }
        for l in &lexical {
            self.declare_atom(b, &l.name, l.kind);
        }
        vars.extend(functions.iter().map(|f| (f.ident.sym.clone(), f.ident.span)));
        self.check.redeclarations(&lexical, &vars, &param_names);
        if !self.strict() {
            let top_lexical: HashSet<String> = lexical
                .iter()
                .map(|l| l.name.to_string())
                .chain(param_names.iter().map(|(n, _)| n.to_string()))
                .collect();
            let mut found = Vec::new();
            scan_annexb(body, &top_lexical, &mut Vec::new(), &mut found, true);
            for (name, lo) in found {
                if param_names.iter().any(|(n, _)| *n == name) || name == "arguments" {
                    continue;
                }
                self.annexb_ok.insert(lo);
                self.declare(b, &name, DeclKind::Var);
            }
        }
        if b != s {
            // A `var` named like a parameter (or `arguments`) starts with its value, read
            // by the body (in a generator's inner function when `params_in_outer`).
            let body_vars: Vec<DeclId> = self.tree.scope(b).decls.clone();
            for v in body_vars {
                if self.tree.decl(v).kind != DeclKind::Var {
                    continue;
                }
                let name = self.tree.decl(v).name.clone();
                if let Some(p) = self.tree.lookup_local(s, &name) {
                    if matches!(self.tree.decl(p).kind, DeclKind::Param | DeclKind::Arguments) {
                        let decl = &mut self.tree.decls[p.0 as usize];
                        decl.referenced = true;
                        decl.captured |= params_in_outer;
                    }
                }
            }
        }
        if let Some(name) = own_name {
            self.declare(s, name, DeclKind::FunctionName);
        }
    }

    /// Walks the parameters (in the function scope) and then the body (in the body scope).
    fn walk_params_and_body(&mut self, params: &[&Pat], body: &[Stmt]) {
        self.walk_params(params);
        self.enter_body();
        self.walk_stmts(body);
    }

    /// The parameter list: identifiers bind (only defaults and nested patterns' targets are
    /// other code).
    fn walk_params(&mut self, params: &[&Pat]) {
        for p in params {
            let saved = std::mem::replace(&mut self.binding_params, matches!(p, Pat::Ident(_)));
            self.walk_pat(p);
            self.binding_params = saved;
        }
    }

    /// Moves from the parameters to the body of the current function.
    fn enter_body(&mut self) {
        let info = self.tree.func(self.cur_func);
        self.cur_scope = info.body_scope;
        if info.params_in_outer {
            self.split_body = Some(info.scope);
        }
    }

    /// A function node: declaration, expression (which binds its own `name` inside),
    /// method, getter or setter.
    fn walk_function(&mut self, func: &Function, kind: FuncKind, name: Option<&Ident>, expression: bool) {
        let body: &[Stmt] = func.body.as_ref().map_or(&[], |b| &b.stmts);
        let strict = self.strict() || has_use_strict(body);
        let params: Vec<&Pat> = func.params.iter().map(|p| &p.pat).collect();
        let simple = params.iter().all(|p| matches!(p, Pat::Ident(_)));
        let check =
            FunctionHead { params: &params, body, kind: fn_ctx(kind), name, is_async: func.is_async, arrow: false };
        let outer = self.check.enter_function(check);
        let saved = self.begin_function(func.span, kind, func.is_generator, strict, simple);
        let f = self.cur_func;
        self.func(f).is_async = func.is_async;
        let own_name = if expression { name.map(|n| n.sym.to_string()) } else { None };
        self.hoist_function(func.span, &params, body, own_name.as_deref());
        self.walk_params_and_body(&params, body);
        self.end_function(saved);
        self.check.leave(outer);
    }

    fn walk_arrow(&mut self, arrow: &ArrowExpr) {
        let body: &[Stmt] = match &*arrow.body {
            ArrowFunctionBody::FunctionBody(b) => &b.stmts,
            ArrowFunctionBody::Expr(_) => &[],
        };
        let strict = self.strict() || has_use_strict(body);
        let params: Vec<&Pat> = arrow.params.iter().collect();
        let simple = params.iter().all(|p| matches!(p, Pat::Ident(_)));
        let check = FunctionHead {
            params: &params,
            body,
            kind: FnCtx::Plain,
            name: None,
            is_async: arrow.is_async,
            arrow: true,
        };
        let outer = self.check.enter_function(check);
        let saved = self.begin_function(arrow.span, FuncKind::Arrow, arrow.is_generator, strict, simple);
        let f = self.cur_func;
        self.func(f).is_async = arrow.is_async;
        self.hoist_function(arrow.span, &params, body, None);
        self.walk_params(&params);
        self.enter_body();
        match &*arrow.body {
            ArrowFunctionBody::FunctionBody(b) => self.walk_stmts(&b.stmts),
            ArrowFunctionBody::Expr(e) => self.walk_expr(e),
        }
        self.end_function(saved);
        self.check.leave(outer);
    }

    fn walk_class(&mut self, class: &Class, name: Option<&str>) {
        let outer = self.check.enter_class();
        let saved_scope = self.cur_scope;
        let s = self.new_scope(ScopeKind::Class, Some(saved_scope), ScopeKey::new(class.span, ScopeKind::Class));
        self.cur_scope = s;
        if let Some(n) = name {
            self.declare(s, n, DeclKind::ClassName);
        }
        // The heritage and the computed keys are strict code of the enclosing function; the
        // methods are strict functions.
        let saved_strict = self.strict();
        self.func(self.cur_func).strict = true;
        if let Some(sup) = &class.super_class {
            self.walk_expr(sup);
        }
        let b = self.new_scope(ScopeKind::ClassBody, Some(s), ScopeKey::new(class.span, ScopeKind::ClassBody));
        self.cur_scope = b;
        let fields = self.declare_class_body(b, class);
        let derived = class.super_class.is_some();
        for member in &class.body {
            self.check.class_member(member);
            match member {
                ClassMember::Constructor(c) => {
                    let body: &[Stmt] = c.body.as_ref().map_or(&[], |b| &b.stmts);
                    let params: Vec<&Pat> = c
                        .params
                        .iter()
                        .filter_map(|p| match p {
                            ParamOrTsParamProp::Param(p) => Some(&p.pat),
                            ParamOrTsParamProp::TsParamProp(_) => None,
                        })
                        .collect();
                    let simple = params.iter().all(|p| matches!(p, Pat::Ident(_)));
                    let kind = if derived { FuncKind::DerivedConstructor } else { FuncKind::ClassConstructor };
                    let check = FunctionHead {
                        params: &params,
                        body,
                        kind: fn_ctx(kind),
                        name: None,
                        is_async: false,
                        arrow: false,
                    };
                    let outer = self.check.enter_function(check);
                    let saved = self.begin_function(c.span, kind, false, true, simple);
                    self.hoist_function(c.span, &params, body, None);
                    if fields.is_some() {
                        // The constructor runs the instance fields initializer.
                        self.reference("%fields");
                        self.lexical_special(DeclKind::This);
                    }
                    self.walk_params_and_body(&params, body);
                    self.end_function(saved);
                    self.check.leave(outer);
                }
                ClassMember::Method(m) => {
                    self.walk_prop_name(&m.key);
                    let kind = match m.kind {
                        MethodKind::Method => FuncKind::Method,
                        MethodKind::Getter => FuncKind::Getter,
                        MethodKind::Setter => FuncKind::Setter,
                    };
                    self.walk_function(&m.function, kind, None, false);
                }
                ClassMember::PrivateMethod(m) => {
                    let kind = match m.kind {
                        MethodKind::Method => FuncKind::Method,
                        MethodKind::Getter => FuncKind::Getter,
                        MethodKind::Setter => FuncKind::Setter,
                    };
                    self.walk_function(&m.function, kind, None, false);
                }
                ClassMember::ClassProp(p) => self.walk_prop_name(&p.key),
                ClassMember::PrivateProp(_)
                | ClassMember::StaticBlock(_)
                | ClassMember::AutoAccessor(_)
                | ClassMember::TsIndexSignature(_)
                | ClassMember::Empty(_) => {}
            }
        }
        if let Some(f) = fields {
            if class.body.iter().all(|m| !matches!(m, ClassMember::Constructor(_))) {
                // Read by the default constructor IRGen makes.
                let d = &mut self.tree.decls[f.0 as usize];
                d.captured = true;
                d.referenced = true;
            }
            // The instance fields initializer: a method run with the new object as `this`.
            let saved = self.begin_function(class.span, FuncKind::Method, false, true, true);
            self.func(self.cur_func).initializer = true;
            self.hoist_function(class.span, &[], &[], None);
            self.enter_body();
            self.walk_field_initializers(class, b, false);
            self.end_function(saved);
        }
        let has_static = class.body.iter().any(|m| match m {
            ClassMember::ClassProp(p) => p.is_static,
            ClassMember::PrivateProp(p) => p.is_static,
            ClassMember::StaticBlock(_) => true,
            _ => false,
        });
        if has_static {
            // The static elements initializer, run with the constructor as `this`.
            let key = ScopeKey::new(class.span, ScopeKind::StaticFields);
            let saved = self.begin_function_keyed(key, FuncKind::Method, false, true, true);
            self.func(self.cur_func).initializer = true;
            self.hoist_function(class.span, &[], &[], None);
            self.enter_body();
            self.walk_field_initializers(class, b, true);
            self.end_function(saved);
        }
        self.func(self.cur_func).strict = saved_strict;
        self.cur_scope = saved_scope;
        self.check.private_duplicates(class);
        self.check.leave(outer);
    }

    /// Declares the private names and internal bindings of class body scope `b`; returns
    /// `%fields` if the class has an instance fields initializer.
    fn declare_class_body(&mut self, b: ScopeIdx, class: &Class) -> Option<DeclId> {
        let mut instance_brand = false;
        let mut static_brand = false;
        let mut instance_fields = false;
        for member in &class.body {
            match member {
                ClassMember::PrivateProp(p) => {
                    let d = self.declare(b, &format!("#{}", p.key.name), DeclKind::PrivateName);
                    self.tree
                        .private
                        .insert(d, PrivateInfo { kind: PrivateKind::Field, is_static: p.is_static, brand: None });
                    instance_fields |= !p.is_static;
                }
                ClassMember::PrivateMethod(m) => {
                    if m.is_static {
                        static_brand = true;
                    } else {
                        instance_brand = true;
                    }
                }
                ClassMember::ClassProp(p) => instance_fields |= !p.is_static,
                _ => {}
            }
        }
        let instance_brand = instance_brand.then(|| self.declare(b, "%brand", DeclKind::ClassInternal));
        let static_brand = static_brand.then(|| self.declare(b, "%static_brand", DeclKind::ClassInternal));
        for d in [instance_brand, static_brand].into_iter().flatten() {
            // Added to the instances (and the constructor) even if nothing checks it.
            self.tree.decls[d.0 as usize].referenced = true;
        }
        for member in &class.body {
            let ClassMember::PrivateMethod(m) = member else { continue };
            let name = format!("#{}", m.key.name);
            let brand = if m.is_static { static_brand } else { instance_brand };
            let d = self.declare(b, &name, DeclKind::PrivateName);
            let mut kind = match self.tree.private.get(&d) {
                Some(info) => info.kind,
                None => match m.kind {
                    MethodKind::Method => PrivateKind::Method,
                    _ => PrivateKind::Accessor { getter: false, setter: None },
                },
            };
            if let PrivateKind::Accessor { getter, setter } = &mut kind {
                match m.kind {
                    MethodKind::Getter => *getter = true,
                    MethodKind::Setter => {
                        *setter = Some(self.declare(b, &format!("%set{name}"), DeclKind::ClassInternal))
                    }
                    MethodKind::Method => {}
                }
            }
            self.tree.private.insert(d, PrivateInfo { kind, is_static: m.is_static, brand });
        }
        for (i, member) in class.body.iter().enumerate() {
            if let ClassMember::ClassProp(p) = member {
                if matches!(p.key, PropName::Computed(_)) {
                    self.declare(b, &format!("%key{i}"), DeclKind::ClassInternal);
                }
            }
        }
        (instance_fields || instance_brand.is_some()).then(|| self.declare(b, "%fields", DeclKind::ClassInternal))
    }

    /// The field initializers (and static blocks) of the instance or static initializer
    /// function being walked, and the class body bindings its code reads.
    fn walk_field_initializers(&mut self, class: &Class, b: ScopeIdx, statics: bool) {
        self.lexical_special(DeclKind::This);
        self.reference_local(b, if statics { "%static_brand" } else { "%brand" });
        for (i, member) in class.body.iter().enumerate() {
            match member {
                ClassMember::ClassProp(p) if p.is_static == statics => {
                    self.reference_local(b, &format!("%key{i}"));
                    if let Some(v) = &p.value {
                        self.walk_field_initializer(v);
                    }
                }
                ClassMember::PrivateProp(p) if p.is_static == statics => {
                    self.reference_local(b, &format!("#{}", p.key.name));
                    if let Some(v) = &p.value {
                        self.walk_field_initializer(v);
                    }
                }
                ClassMember::StaticBlock(sb) if statics => {
                    let body = &sb.body.stmts;
                    let outer = self.check.enter_initializer(true);
                    let saved = self.begin_function(sb.span, FuncKind::Method, false, true, true);
                    self.func(self.cur_func).initializer = true;
                    self.hoist_function(sb.span, &[], body, None);
                    self.walk_params_and_body(&[], body);
                    self.end_function(saved);
                    self.check.leave(outer);
                }
                _ => {}
            }
        }
    }

    fn walk_field_initializer(&mut self, v: &Expr) {
        let outer = self.check.enter_initializer(false);
        self.walk_expr(v);
        self.check.leave(outer);
    }

    fn walk_prop_name(&mut self, key: &PropName) {
        self.check.prop_name(key);
        if let PropName::Computed(c) = key {
            self.walk_expr(&c.expr);
        }
    }

    // ---- patterns and expressions -----------------------------------------------------------

    /// A binding or assignment pattern: identifiers are references (writes), defaults and
    /// computed keys are expressions.
    fn walk_pat(&mut self, pat: &Pat) {
        if !self.enter(pat) {
            self.depth -= 1;
            return;
        }
        match pat {
            Pat::Ident(b) => {
                self.check.ident(&b.id);
                if self.binding_params {
                    self.reference(&b.id.sym)
                } else {
                    self.reference_write(&b.id.sym)
                }
            }
            Pat::Array(a) => {
                for p in a.elems.iter().flatten() {
                    self.walk_pat(p);
                }
            }
            Pat::Rest(r) => self.walk_pat(&r.arg),
            Pat::Object(o) => {
                for p in &o.props {
                    match p {
                        ObjectPatProp::KeyValue(kv) => {
                            self.walk_prop_name(&kv.key);
                            self.walk_pat(&kv.value);
                        }
                        ObjectPatProp::Assign(a) => {
                            self.check.ident(&a.key.id);
                            self.reference_write(&a.key.id.sym);
                            if let Some(v) = &a.value {
                                self.walk_expr(v);
                            }
                        }
                        ObjectPatProp::Rest(r) => self.walk_pat(&r.arg),
                    }
                }
            }
            Pat::Assign(a) => {
                self.walk_pat(&a.left);
                self.walk_expr(&a.right);
            }
            Pat::Expr(e) => self.walk_expr(e),
            Pat::Invalid(_) => {}
        }
        self.depth -= 1;
    }

    fn walk_expr(&mut self, expr: &Expr) {
        if !self.enter(expr) {
            self.depth -= 1;
            return;
        }
        self.check.expr(expr);
        match expr {
            Expr::This(_) => self.lexical_special(DeclKind::This),
            Expr::Array(a) => {
                for e in a.elems.iter().flatten() {
                    self.walk_expr(&e.expr);
                }
            }
            Expr::Object(o) => {
                for p in &o.props {
                    match p {
                        PropOrSpread::Spread(s) => self.walk_expr(&s.expr),
                        PropOrSpread::Prop(p) => match &**p {
                            Prop::Shorthand(i) => self.reference(&i.sym),
                            Prop::KeyValue(kv) => {
                                self.walk_prop_name(&kv.key);
                                self.walk_expr(&kv.value);
                            }
                            Prop::Assign(a) => {
                                self.reference(&a.key.sym);
                                self.walk_expr(&a.value);
                            }
                            Prop::Getter(g) => {
                                self.walk_prop_name(&g.key);
                                self.walk_function(&g.function, FuncKind::Getter, None, false);
                            }
                            Prop::Setter(st) => {
                                self.walk_prop_name(&st.key);
                                self.walk_function(&st.function, FuncKind::Setter, None, false);
                            }
                            Prop::Method(m) => {
                                self.walk_prop_name(&m.key);
                                self.walk_function(&m.function, FuncKind::Method, None, false);
                            }
                        },
                    }
                }
            }
            Expr::Fn(f) => self.walk_function(&f.function, FuncKind::Normal, f.ident.as_ref(), true),
            Expr::Unary(u) => self.walk_expr(&u.arg),
            Expr::Update(u) => match u.arg.unwrap_parens() {
                Expr::Ident(i) => {
                    self.check.ident(i);
                    self.reference_write(&i.sym)
                }
                _ => self.walk_expr(&u.arg),
            },
            Expr::Bin(b) => {
                // A left-deep chain (`a + b + c + ...`) is one level, walked as a list: its
                // length is not nesting (the parser reads it with a loop too).
                let mut rights = vec![&b.right];
                let mut left = &b.left;
                while let Expr::Bin(inner) = &**left {
                    self.check.expr(left);
                    rights.push(&inner.right);
                    left = &inner.left;
                }
                self.walk_expr(left);
                for r in rights.into_iter().rev() {
                    self.walk_expr(r);
                }
            }
            Expr::Assign(a) => {
                match &a.left {
                    AssignTarget::Simple(s) => self.walk_simple_target(s),
                    AssignTarget::Pat(p) => match p {
                        AssignTargetPat::Array(a) => {
                            for p in a.elems.iter().flatten() {
                                self.walk_pat(p);
                            }
                        }
                        AssignTargetPat::Object(o) => {
                            let pat = Pat::Object(o.clone());
                            self.walk_pat(&pat);
                        }
                        AssignTargetPat::Invalid(_) => {}
                    },
                }
                self.walk_expr(&a.right);
            }
            Expr::Member(m) => match m.obj.unwrap_parens() {
                // `arguments[i]` and `arguments.x` reads do not let it escape.
                Expr::Ident(i) if &*i.sym == "arguments" => {
                    self.check.ident(i);
                    self.reference(&i.sym);
                    if let MemberProp::Computed(c) = &m.prop {
                        self.walk_expr(&c.expr);
                    }
                }
                _ => self.walk_member(m),
            },
            Expr::SuperProp(s) => {
                self.check.super_prop(s.span);
                self.super_property();
                if let SuperProp::Computed(c) = &s.prop {
                    self.walk_expr(&c.expr);
                }
            }
            Expr::Cond(c) => {
                self.walk_expr(&c.test);
                self.walk_expr(&c.cons);
                self.walk_expr(&c.alt);
            }
            Expr::Call(c) => {
                match &c.callee {
                    Callee::Super(_) => {
                        self.lexical_special(DeclKind::Callee);
                        self.lexical_special(DeclKind::NewTarget);
                        self.lexical_special(DeclKind::This);
                    }
                    Callee::Import(_) => {
                        // Module code imports relative to its module.
                        self.reference(MODULE_BINDING);
                        // ImportCall: one or two arguments (a trailing comma allowed), no spread.
                        if c.args.is_empty() || c.args.len() > 2 || c.args.iter().any(|a| a.spread.is_some()) {
                            self.errors.push((c.span, "Invalid arguments to import()".into()));
                        }
                    }
                    Callee::Expr(e) if matches!(&**e, Expr::Ident(i) if &*i.sym == "eval") => {
                        self.walk_expr(e);
                        self.direct_eval();
                    }
                    Callee::Expr(e) => {
                        // `arguments[0]()` calls with `arguments` as `this`.
                        if let Expr::Member(m) = e.unwrap_parens() {
                            if let Expr::Ident(i) = m.obj.unwrap_parens() {
                                if &*i.sym == "arguments" {
                                    self.reference_escape(&i.sym);
                                }
                            }
                        }
                        self.walk_expr(e)
                    }
                }
                for a in &c.args {
                    self.walk_expr(&a.expr);
                }
            }
            Expr::New(n) => {
                self.walk_expr(&n.callee);
                for a in n.args.iter().flatten() {
                    self.walk_expr(&a.expr);
                }
            }
            Expr::Seq(s) => {
                for e in &s.exprs {
                    self.walk_expr(e);
                }
            }
            Expr::Ident(i) => self.reference_escape(&i.sym),
            Expr::Lit(_) => {}
            Expr::Tpl(t) => {
                for e in &t.exprs {
                    self.walk_expr(e);
                }
            }
            Expr::TaggedTpl(t) => {
                self.walk_expr(&t.tag);
                for e in &t.tpl.exprs {
                    self.walk_expr(e);
                }
            }
            Expr::Arrow(a) => self.walk_arrow(a),
            Expr::Class(c) => {
                let name = c.ident.as_ref().map(|i| i.sym.to_string());
                self.walk_class(&c.class, name.as_deref());
            }
            Expr::Yield(y) => {
                // swc leaves `yield` in the parameters of a function nested in a generator.
                if !self.tree.func(self.cur_func).is_generator {
                    self.errors.push((y.span, "Yield expression not allowed in this context".into()));
                }
                if let Some(a) = &y.arg {
                    self.walk_expr(a);
                }
            }
            Expr::MetaProp(m) if m.kind == MetaPropKind::NewTarget => self.lexical_special(DeclKind::NewTarget),
            Expr::MetaProp(m) if m.kind == MetaPropKind::ImportMeta => {
                self.reference(MODULE_BINDING);
                self.needs_whole_program();
            }
            Expr::Await(a) => {
                self.note_await();
                // swc leaves `await` in the parameters of a function nested in an async one.
                let f = self.tree.func(self.cur_func);
                if !f.is_async && f.kind != FuncKind::Module {
                    self.errors
                        .push((a.span, "await is only valid in async functions and the top level of modules".into()));
                }
                self.walk_expr(&a.arg)
            }
            Expr::Paren(p) => self.walk_expr(&p.expr),
            Expr::OptChain(o) => match &*o.base {
                OptChainBase::Member(m) => self.walk_member(m),
                OptChainBase::Call(c) => {
                    self.walk_expr(&c.callee);
                    for a in &c.args {
                        self.walk_expr(&a.expr);
                    }
                }
            },
            Expr::PrivateName(p) => self.private_reference(p),
            Expr::Invalid(_) => {}
            _ => {}
        }
        self.depth -= 1;
    }

    fn super_property(&mut self) {
        let f = self.tree.this_function(self.cur_func);
        if !matches!(self.tree.func(f).kind, FuncKind::Script | FuncKind::Module | FuncKind::Eval) {
            self.func(f).uses_super_property = true;
        }
        self.lexical_special(DeclKind::HomeObject);
        self.lexical_special(DeclKind::This);
    }

    fn walk_member(&mut self, m: &MemberExpr) {
        self.walk_expr(&m.obj);
        match &m.prop {
            MemberProp::Computed(c) => self.walk_expr(&c.expr),
            MemberProp::PrivateName(p) => self.private_reference(p),
            MemberProp::Ident(_) => {}
        }
    }

    /// A use of `name` declared in scope `s` (if it is).
    fn reference_local(&mut self, s: ScopeIdx, name: &str) {
        if let Some(d) = self.tree.lookup_local(s, name) {
            self.use_decl(d);
        }
    }

    /// A use of `#x`: it must be declared by an enclosing class (AllPrivateIdentifiersValid).
    fn private_reference(&mut self, p: &PrivateName) {
        let name = format!("#{}", p.name);
        match self.tree.resolve(self.cur_scope, &name) {
            Some(d) => {
                self.use_decl(d);
                // IRGen also reads the brand and the setter of methods and accessors.
                if let Some(info) = self.tree.private.get(&d).copied() {
                    if let Some(b) = info.brand {
                        self.use_decl(b);
                    }
                    if let PrivateKind::Accessor { setter: Some(s), .. } = info.kind {
                        self.use_decl(s);
                    }
                }
            }
            None => {
                self.errors.push((p.span, format!("Private field '{name}' must be declared in an enclosing class")))
            }
        }
    }

    fn walk_simple_target(&mut self, s: &SimpleAssignTarget) {
        match s {
            SimpleAssignTarget::Ident(b) => self.reference_write(&b.id.sym),
            SimpleAssignTarget::Member(m) => self.walk_member(m),
            SimpleAssignTarget::SuperProp(sp) => {
                self.check.super_prop(sp.span);
                self.super_property();
                if let SuperProp::Computed(c) = &sp.prop {
                    self.walk_expr(&c.expr);
                }
            }
            SimpleAssignTarget::Paren(p) => self.walk_expr(&p.expr),
            SimpleAssignTarget::OptChain(o) => {
                let e = Expr::OptChain(o.clone());
                self.walk_expr(&e);
            }
            _ => {}
        }
    }
}

/// The early errors' view of a function kind.
fn fn_ctx(kind: FuncKind) -> FnCtx {
    match kind {
        FuncKind::Method | FuncKind::Getter | FuncKind::Setter => FnCtx::Method,
        FuncKind::ClassConstructor => FnCtx::Constructor { derived: false },
        FuncKind::DerivedConstructor => FnCtx::Constructor { derived: true },
        FuncKind::Script | FuncKind::Module | FuncKind::Eval | FuncKind::Normal | FuncKind::Arrow => FnCtx::Plain,
    }
}

// ---- declaration collection (shared with early errors and IRGen) --------------------------------

/// Whether a statement list starts with a `"use strict"` directive.
pub fn has_use_strict(stmts: &[Stmt]) -> bool {
    for s in stmts {
        match s {
            Stmt::Expr(ExprStmt { expr, .. }) => match &**expr {
                Expr::Lit(Lit::Str(s)) => {
                    if let Some(raw) = &s.raw {
                        if &**raw == "'use strict'" || &**raw == "\"use strict\"" {
                            return true;
                        }
                    }
                }
                _ => return false,
            },
            _ => return false,
        }
    }
    false
}

/// Whether a binding pattern contains an expression (a default or a computed key):
/// ContainsExpression.
pub fn pat_has_expression(pat: &Pat) -> bool {
    match pat {
        Pat::Ident(_) | Pat::Invalid(_) => false,
        Pat::Expr(_) | Pat::Assign(_) => true,
        Pat::Array(a) => a.elems.iter().flatten().any(pat_has_expression),
        Pat::Rest(r) => pat_has_expression(&r.arg),
        Pat::Object(o) => o.props.iter().any(|p| match p {
            ObjectPatProp::KeyValue(kv) => matches!(kv.key, PropName::Computed(_)) || pat_has_expression(&kv.value),
            ObjectPatProp::Assign(a) => a.value.is_some(),
            ObjectPatProp::Rest(r) => pat_has_expression(&r.arg),
        }),
    }
}

/// The span of a statement.
pub fn stmt_span(s: &Stmt) -> Span {
    s.span()
}

/// The function declaration `stmt` is (through labels), if any.
pub fn fn_decl_of(stmt: &Stmt) -> Option<&FnDecl> {
    match stmt {
        Stmt::Decl(Decl::Fn(f)) => Some(f),
        Stmt::Labeled(l) => fn_decl_of(&l.body),
        _ => None,
    }
}

/// The function declarations directly in `stmts` (through labels).
pub fn top_level_functions(stmts: &[Stmt]) -> Vec<&FnDecl> {
    stmts.iter().filter_map(fn_decl_of).collect()
}

/// A bound name and where it is bound.
pub type Named = (Atom, Span);

/// The bound names of a pattern.
pub fn pat_names(pat: &Pat, out: &mut Vec<Named>) {
    match pat {
        Pat::Ident(b) => out.push((b.id.sym.clone(), b.id.span)),
        Pat::Array(a) => {
            for p in a.elems.iter().flatten() {
                pat_names(p, out);
            }
        }
        Pat::Rest(r) => pat_names(&r.arg, out),
        Pat::Object(o) => {
            for p in &o.props {
                match p {
                    ObjectPatProp::KeyValue(kv) => pat_names(&kv.value, out),
                    ObjectPatProp::Assign(a) => out.push((a.key.id.sym.clone(), a.key.id.span)),
                    ObjectPatProp::Rest(r) => pat_names(&r.arg, out),
                }
            }
        }
        Pat::Assign(a) => pat_names(&a.left, out),
        Pat::Expr(_) | Pat::Invalid(_) => {}
    }
}

/// A lexically scoped declaration.
pub struct LexicalDecl {
    pub name: Atom,
    pub kind: DeclKind,
    /// The declared identifier.
    pub span: Span,
    /// A block function that is neither a generator nor async (sloppy code may declare
    /// those twice in a block, Annex B.3.2.4).
    pub plain_function: bool,
}

/// The lexically scoped declarations directly in `stmts`. At a function's or script's top
/// level (`top_level`), function declarations are var-scoped and not included.
pub fn lexical_decls<'a>(stmts: impl IntoIterator<Item = &'a Stmt>, top_level: bool) -> Vec<LexicalDecl> {
    let mut out = Vec::new();
    for s in stmts {
        let plain = |name: Atom, kind, span| LexicalDecl { name, kind, span, plain_function: false };
        match s {
            Stmt::Decl(Decl::Var(v)) if v.kind != VarDeclKind::Var => {
                let kind = if v.kind == VarDeclKind::Const { DeclKind::Const } else { DeclKind::Let };
                for d in &v.decls {
                    let mut names = Vec::new();
                    pat_names(&d.name, &mut names);
                    out.extend(names.into_iter().map(|(n, span)| plain(n, kind, span)));
                }
            }
            Stmt::Decl(Decl::Class(c)) => out.push(plain(c.ident.sym.clone(), DeclKind::Class, c.ident.span)),
            // `using` and `await using` bindings are constant.
            Stmt::Decl(Decl::Using(u)) => {
                for d in &u.decls {
                    let mut names = Vec::new();
                    pat_names(&d.name, &mut names);
                    out.extend(names.into_iter().map(|(n, span)| plain(n, DeclKind::Const, span)));
                }
            }
            _ => {
                if let Some(f) = fn_decl_of(s) {
                    if !top_level {
                        out.push(LexicalDecl {
                            name: f.ident.sym.clone(),
                            kind: DeclKind::BlockFunction,
                            span: f.ident.span,
                            plain_function: !f.function.is_generator && !f.function.is_async,
                        });
                    }
                }
            }
        }
    }
    out
}

/// The names declared by `var` in `stmts`, recursively through nested statements (not
/// functions), in source order.
pub fn collect_var_names(stmts: &[Stmt], out: &mut Vec<Named>) {
    for_each_var_decl(stmts, &mut |v| {
        for d in &v.decls {
            pat_names(&d.name, out);
        }
    });
}

/// Calls `f` on every `var` declaration of `stmts`, recursively through nested statements
/// (not functions), in source order.
fn for_each_var_decl<'a>(stmts: &'a [Stmt], f: &mut dyn FnMut(&'a VarDecl)) {
    for s in stmts {
        for_each_var_decl_stmt(s, f);
    }
}

fn for_each_var_decl_stmt<'a>(s: &'a Stmt, f: &mut dyn FnMut(&'a VarDecl)) {
    let head = |v: &'a VarDecl, f: &mut dyn FnMut(&'a VarDecl)| {
        if v.kind == VarDeclKind::Var {
            f(v);
        }
    };
    match s {
        Stmt::Block(b) => for_each_var_decl(&b.stmts, f),
        Stmt::Decl(Decl::Var(v)) => head(v, f),
        Stmt::With(w) => for_each_var_decl_stmt(&w.body, f),
        Stmt::Labeled(l) => for_each_var_decl_stmt(&l.body, f),
        Stmt::If(i) => {
            for_each_var_decl_stmt(&i.cons, f);
            if let Some(a) = &i.alt {
                for_each_var_decl_stmt(a, f);
            }
        }
        Stmt::Switch(sw) => {
            for c in &sw.cases {
                for_each_var_decl(&c.cons, f);
            }
        }
        Stmt::Try(t) => {
            for_each_var_decl(&t.block.stmts, f);
            if let Some(h) = &t.handler {
                for_each_var_decl(&h.body.stmts, f);
            }
            if let Some(fin) = &t.finalizer {
                for_each_var_decl(&fin.stmts, f);
            }
        }
        Stmt::While(w) => for_each_var_decl_stmt(&w.body, f),
        Stmt::DoWhile(w) => for_each_var_decl_stmt(&w.body, f),
        Stmt::For(fo) => {
            if let Some(VarDeclOrExpr::VarDecl(v)) = &fo.init {
                head(v, f);
            }
            for_each_var_decl_stmt(&fo.body, f);
        }
        Stmt::ForIn(fo) => {
            if let ForHead::VarDecl(v) = &fo.left {
                head(v, f);
            }
            for_each_var_decl_stmt(&fo.body, f);
        }
        Stmt::ForOf(fo) => {
            if let ForHead::VarDecl(v) = &fo.left {
                head(v, f);
            }
            for_each_var_decl_stmt(&fo.body, f);
        }
        _ => {}
    }
}

/// Finds the block-level function declarations that get an Annex B var binding: those
/// whose name no enclosing block (nor the function's top level, in `outer`) declares
/// lexically. `found` receives (name, function span start).
fn scan_annexb(
    stmts: &[Stmt],
    outer: &HashSet<String>,
    stack: &mut Vec<HashSet<String>>,
    found: &mut Vec<(String, u32)>,
    top: bool,
) {
    if !top {
        // The function declarations of this block itself are checked against the other
        // lexical declarations of the block and the enclosing ones (where function
        // declarations are lexical too).
        let lexical = lexical_decls(stmts, false);
        let own: HashSet<String> =
            lexical.iter().filter(|l| l.kind != DeclKind::BlockFunction).map(|l| l.name.to_string()).collect();
        for s in stmts {
            if let Some(f) = fn_decl_of(s) {
                if !f.function.is_generator && !f.function.is_async {
                    let name = f.ident.sym.to_string();
                    if !outer.contains(&name) && !own.contains(&name) && !stack.iter().any(|set| set.contains(&name)) {
                        found.push((name, f.function.span.lo.0));
                    }
                }
            }
        }
        stack.push(lexical.into_iter().map(|l| l.name.to_string()).collect());
    }
    for s in stmts {
        scan_annexb_stmt(s, outer, stack, found);
    }
    if !top {
        stack.pop();
    }
}

fn scan_annexb_stmt(
    s: &Stmt,
    outer: &HashSet<String>,
    stack: &mut Vec<HashSet<String>>,
    found: &mut Vec<(String, u32)>,
) {
    match s {
        Stmt::Block(b) => scan_annexb(&b.stmts, outer, stack, found, false),
        Stmt::Labeled(l) => scan_annexb_stmt(&l.body, outer, stack, found),
        Stmt::If(i) => {
            scan_annexb_branch(&i.cons, outer, stack, found);
            if let Some(a) = &i.alt {
                scan_annexb_branch(a, outer, stack, found);
            }
        }
        Stmt::Switch(sw) => {
            let all: Vec<Stmt> = sw.cases.iter().flat_map(|c| c.cons.iter().cloned()).collect();
            scan_annexb(&all, outer, stack, found, false);
        }
        Stmt::Try(t) => {
            scan_annexb(&t.block.stmts, outer, stack, found, false);
            if let Some(h) = &t.handler {
                // B.3.5: `var` may redeclare a simple catch parameter, not a destructured one.
                let mut names = Vec::new();
                if let Some(p) = h.param.as_ref().filter(|p| !matches!(p, Pat::Ident(_))) {
                    pat_names(p, &mut names);
                }
                stack.push(names.into_iter().map(|(n, _)| n.to_string()).collect());
                scan_annexb(&h.body.stmts, outer, stack, found, false);
                stack.pop();
            }
            if let Some(f) = &t.finalizer {
                scan_annexb(&f.stmts, outer, stack, found, false);
            }
        }
        Stmt::While(w) => scan_annexb_branch(&w.body, outer, stack, found),
        Stmt::DoWhile(w) => scan_annexb_branch(&w.body, outer, stack, found),
        Stmt::With(w) => scan_annexb_branch(&w.body, outer, stack, found),
        Stmt::For(f) => {
            let head = for_head_lexical(f.init.as_ref().and_then(|i| match i {
                VarDeclOrExpr::VarDecl(v) => Some(&**v),
                VarDeclOrExpr::Expr(_) => None,
            }));
            stack.push(head);
            scan_annexb_branch(&f.body, outer, stack, found);
            stack.pop();
        }
        Stmt::ForIn(f) => scan_annexb_for(&f.left, &f.body, outer, stack, found),
        Stmt::ForOf(f) => scan_annexb_for(&f.left, &f.body, outer, stack, found),
        _ => {}
    }
}

fn scan_annexb_for(
    left: &ForHead,
    body: &Stmt,
    outer: &HashSet<String>,
    stack: &mut Vec<HashSet<String>>,
    found: &mut Vec<(String, u32)>,
) {
    let head = for_head_lexical(match left {
        ForHead::VarDecl(v) => Some(&**v),
        _ => None,
    });
    stack.push(head);
    scan_annexb_branch(body, outer, stack, found);
    stack.pop();
}

fn for_head_lexical(v: Option<&VarDecl>) -> HashSet<String> {
    let mut names = Vec::new();
    if let Some(v) = v {
        if v.kind != VarDeclKind::Var {
            for d in &v.decls {
                pat_names(&d.name, &mut names);
            }
        }
    }
    names.into_iter().map(|(n, _)| n.to_string()).collect()
}

/// A statement position that is not a block: a function declaration there (sloppy
/// `if (x) function f() {}`) behaves as if in its own block.
fn scan_annexb_branch(
    s: &Stmt,
    outer: &HashSet<String>,
    stack: &mut Vec<HashSet<String>>,
    found: &mut Vec<(String, u32)>,
) {
    if fn_decl_of(s).is_some() {
        scan_annexb(std::slice::from_ref(s), outer, stack, found, false);
    } else {
        scan_annexb_stmt(s, outer, stack, found);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::parse_script;

    fn tree(src: &str) -> ScopeTree {
        let p = parse_script(src, false).expect("parses");
        analyze(&p.script, &p.lines, false, &p.deferred).0
    }

    fn decl_named<'t>(t: &'t ScopeTree, name: &str) -> Vec<&'t DeclInfo> {
        t.decls.iter().filter(|d| d.name == name).collect()
    }

    #[test]
    fn captured_only_when_used_by_inner_function() {
        let t = tree("function f(a, b) { var c = a; return function() { return b; }; }");
        assert!(!decl_named(&t, "a")[0].captured);
        assert!(decl_named(&t, "b")[0].captured);
        assert!(!decl_named(&t, "c")[0].captured);
    }

    #[test]
    fn top_level_vars_are_globals() {
        let t = tree("var x = 1; function g() {} let y = 2; { function h() {} }");
        assert_eq!(t.global_vars, vec!["g".to_string(), "x".to_string(), "h".to_string()]);
        assert_eq!(decl_named(&t, "y")[0].kind, DeclKind::Let);
        assert!(decl_named(&t, "x").is_empty());
        let h = t.decls.iter().position(|d| d.name == "h").expect("block function");
        assert_eq!(t.annexb.get(&DeclId(h as u32)), Some(&AnnexBTarget::Global("h".into())));
    }

    #[test]
    fn annexb_blocked_by_lexical_declaration() {
        let t = tree("function f() { let g; { function g() {} } }");
        assert!(t.annexb.is_empty());
        let t = tree("function f() { { function g() {} } return g; }");
        assert_eq!(t.annexb.len(), 1);
    }

    #[test]
    fn arrows_capture_this_of_enclosing_function() {
        let t = tree("function f() { return () => this.x; }");
        let f = &t.funcs[1];
        assert!(f.this_decl.is_some());
        assert!(t.decl(f.this_decl.unwrap()).captured);
        let t = tree("() => this");
        assert!(t.funcs[1].this_decl.is_none());
    }

    #[test]
    fn arguments_is_implicit_in_functions_only() {
        let t = tree("function f() { return () => arguments[0]; }");
        let a = decl_named(&t, "arguments");
        assert_eq!(a.len(), 1);
        assert!(a[0].captured && a[0].referenced);
        let t = tree("function f(arguments) { return arguments; }");
        assert_eq!(decl_named(&t, "arguments")[0].kind, DeclKind::Param);
    }

    #[test]
    fn parameter_expressions_get_a_body_scope() {
        let t = tree("function f(a = 1) { var a, b; }");
        let f = &t.funcs[1];
        assert_ne!(f.scope, f.body_scope);
        assert_eq!(t.scope(f.body_scope).kind, ScopeKind::FunctionBody);
        assert_eq!(decl_named(&t, "a").len(), 2);
        assert!(!f.params_in_outer);
        let t = tree("function f(a, b) { var a; }");
        assert_eq!(t.funcs[1].scope, t.funcs[1].body_scope);
    }

    #[test]
    fn generator_parameters_bound_by_the_outer_function_are_captured() {
        let t = tree("function* g([a], b) { yield a; var c = b; }");
        let g = &t.funcs[1];
        assert!(g.params_in_outer);
        assert!(decl_named(&t, "a")[0].captured && decl_named(&t, "b")[0].captured);
        assert!(!decl_named(&t, "c")[0].captured);
        let t = tree("function* g(a) { yield a; }");
        assert!(!t.funcs[1].params_in_outer && !decl_named(&t, "a")[0].captured);
    }

    #[test]
    fn private_names_and_class_internals() {
        let t =
            tree("class A { #x = 1; #m() {} get #a() {} set #a(v) {} static #s() {} [k] = 2; t(o) { return o.#a; } }");
        let x = decl_named(&t, "#x")[0];
        assert_eq!(x.kind, DeclKind::PrivateName);
        let a = t.decls.iter().position(|d| d.name == "#a").map(|i| DeclId(i as u32)).expect("#a");
        let info = t.private[&a];
        assert!(matches!(info.kind, PrivateKind::Accessor { getter: true, setter: Some(_) }));
        assert!(info.brand.is_some() && !info.is_static);
        for internal in ["%brand", "%static_brand", "%fields", "%set#a"] {
            assert_eq!(decl_named(&t, internal).len(), 1, "{internal}");
        }
        assert!(t.decls.iter().any(|d| d.name.starts_with("%key")));
        // Methods read the setter and brand of accessors they use.
        assert!(decl_named(&t, "%set#a")[0].captured && decl_named(&t, "%brand")[0].captured);
        let p = parse_script("class A { m() { return this.#nope; } }", false).expect("parses");
        let (_, errors) = analyze(&p.script, &p.lines, false, &p.deferred);
        assert!(errors[0].1.contains("#nope"));
    }

    #[test]
    fn with_objects_are_used_by_names_resolved_through_them() {
        let t = tree("function f(o) { var v; with (o) { v; (function () { return w; }); } }");
        let w = decl_named(&t, "%with")[0];
        assert!(w.referenced && w.captured);
        let with_scope =
            t.scopes.iter().position(|s| s.kind == ScopeKind::With).map(|i| ScopeIdx(i as u32)).expect("with scope");
        assert_eq!(t.with_objects(with_scope, "v").len(), 1);
        assert!(t.with_objects(with_scope, "%brand").is_empty());
    }

    #[test]
    fn arguments_mapping_only_when_observable() {
        let mapped = |src: &str| tree(src).funcs[1].mapped_arguments;
        assert!(mapped("function f(a) { a = 1; return arguments[0]; }"));
        assert!(mapped("function f(a) { g(arguments); return a; }"));
        assert!(mapped("function f(a) { arguments[0] = 2; return a; }"));
        assert!(!mapped("function f(a) { return arguments.length + a + arguments[0]; }"));
        assert!(!mapped("function f(a) { 'use strict'; a = 1; g(arguments); }"));
        assert!(!mapped("function f(a = 1) { a = 2; g(arguments); }"));
        assert!(!mapped("function f(a) { a = 1; }"));
    }

    #[test]
    fn catch_parameter_shadows_var() {
        let t = tree("function f() { try {} catch (e) { var e = 1; } }");
        let es = decl_named(&t, "e");
        assert_eq!(es.len(), 2);
        assert!(es.iter().any(|d| d.kind == DeclKind::CatchParam && d.referenced));
    }
}
