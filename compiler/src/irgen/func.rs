//! Functions: the script's global code, function prologues (environment, `this`,
//! `arguments`, parameters with defaults, rest and destructuring, hoisted `var`s and
//! function declarations), closures, and the outer/inner split of generators.
//!
//! A generator `function* g(a) { body }` becomes two HIR functions:
//! ```text
//! generator g(a)            (the closure user code sees)
//!   %0 = get_parent_scope $P          (or undefined when there is no environment)
//!   %1 = create_generator %0, @g_inner
//!   return %1
//! generator_inner g(a)      (run by the generator object)
//!   start_generator
//!   ... prologue (parameters read with load_param from the outer call) ... body ...
//!   complete_generator
//!   return undefined
//! ```
//! An async function's outer function returns `asyncFunctionStart(%1)` (the promise of its
//! result) and an async generator's returns `asyncGeneratorStart(%1)` (the AsyncGenerator
//! object); their inner functions suspend at each `await` (and `yield`).

use hashbrown::HashMap;
use ir::{FuncId, FunctionKind, Imm, Literal, Loc, Opcode, Value};
use swc_common::Span;
use swc_ecma_ast::*;

use super::{FnState, Gen, Storage};
use crate::frontend::scope::{self, DeclKind, FuncKind};
use bytecode::BuiltinId;

/// A function body: statements, or the expression of a concise arrow.
#[derive(Clone, Copy)]
pub(super) enum Body<'a> {
    Stmts(&'a [Stmt]),
    Expr(&'a Expr),
}

/// Everything needed to generate one function.
pub(super) struct FnDef<'a> {
    /// The span that keys the function in the scope tree.
    pub key: Span,
    /// The source text for `Function.prototype.toString`.
    pub source: Span,
    pub params: Vec<&'a Pat>,
    pub body: Body<'a>,
    /// The `name` of the function ("" when computed at run time).
    pub name: String,
    pub is_generator: bool,
    pub is_async: bool,
    /// A function declaration (its name is bound around it, not in it).
    pub declaration: bool,
    /// A method, getter or setter whose text (`source`) is also one of an object literal:
    /// its key is neither computed nor private (lazy compilation compiles it as such).
    pub method: bool,
}

impl<'a> Gen<'a> {
    /// Generates the script's global code.
    pub(super) fn gen_script(&mut self, script: &'a Script) {
        let tree = self.tree;
        let strict = tree.func(scope::FuncIdx(0)).strict;
        let name = self.atom("");
        let mut func = ir::Function::new(name, FunctionKind::TopLevel, strict);
        func.loc = Loc { line: 1, col: 1 };
        let entry = func.add_block();
        let id = self.module.add_function(ir::Function::new(name, FunctionKind::TopLevel, strict));
        self.module.top_level = Some(id);
        self.fs.push(new_state(id, func, scope::FuncIdx(0), entry, scope::ScopeIdx(0), false));
        if self.eval_outer.is_some() {
            self.caller_scopes(id);
        }
        let completion = self.alloc_stack("%completion");
        let u = self.undef();
        self.store_stack(u, completion);
        self.f().completion = Some(completion);
        let script_scope = scope::ScopeIdx(0);
        self.enter_scope(script_scope);
        self.init_tdz(script_scope);
        if let Some(outer) = self.eval_outer {
            if outer.strict || tree.func(scope::FuncIdx(0)).strict || outer.in_function {
                self.direct_eval_declarations(script);
                self.gen_stmts(&script.body);
                if !self.is_terminated() {
                    let v = self.load_stack(completion);
                    self.b().ret(v);
                }
                self.finish_function();
                return;
            }
        }
        let functions = scope::top_level_functions(&script.body);
        // The last declaration of a name is the one that counts.
        let last = last_of_each_name(&functions);
        self.declare_globals(script_scope, &functions, &last);
        // Global declarations: functions, then vars (GlobalDeclarationInstantiation).
        for (i, f) in functions.iter().enumerate() {
            let name = f.ident.sym.to_string();
            if last[&*f.ident.sym] != i {
                continue;
            }
            self.at(f.ident.span);
            let closure = self.fn_decl_closure(f);
            let n = self.str_lit(&name);
            let mut args = vec![n, closure];
            if self.eval_code {
                // Eval code's functions and vars are configurable (D = true).
                args.push(self.bool_lit(true));
            }
            self.call_builtin(BuiltinId::DeclareGlobalFunction, args);
        }
        for v in &tree.global_vars {
            if !last.contains_key(v.as_str()) {
                let n = self.str_lit(v);
                let mut args = vec![n];
                if self.eval_code {
                    args.push(self.bool_lit(true));
                }
                self.call_builtin(BuiltinId::DeclareGlobalVar, args);
            }
        }
        self.gen_stmts(&script.body);
        if !self.is_terminated() {
            let v = self.load_stack(completion);
            self.b().ret(v);
        }
        self.finish_function();
    }

    /// Direct eval code: heap scopes for the caller's environments (the tree's eval levels,
    /// outermost first) with its variables at their slots; the eval code's function is a
    /// closure over the innermost.
    fn caller_scopes(&mut self, id: FuncId) {
        let tree = self.tree;
        let mut parent = None;
        for &s in &tree.eval_levels {
            let irs = self.module.add_scope(parent, id);
            for &d in &tree.scope(s).decls {
                let decl = tree.decl(d);
                let name = self.atom(&decl.name);
                let kind = super::binding::var_kind(decl.kind);
                let var = match tree.eval_slots.get(&d) {
                    Some(&slot) => self.module.add_var_at(irs, slot, name, kind),
                    None => self.module.add_var(irs, name, kind),
                };
                self.storage.insert(d, super::Storage::Frame(var));
            }
            if tree.eval_vars.contains_key(&s) {
                self.eval_var_irs = Some(irs);
            }
            self.tree_ir.insert(s, irs);
            parent = Some(irs);
        }
        self.f().func.parent_scope = parent;
        self.parent_env_prologue();
    }

    /// EvalDeclarationInstantiation of direct eval code whose declarations are not global:
    /// strict code's are its own (hoisted like a function body's); sloppy code's in a
    /// function are the caller's, on its `%evalvars` (a function assigns an existing `var`
    /// of the caller instead).
    fn direct_eval_declarations(&mut self, script: &'a Script) {
        let tree = self.tree;
        let script_scope = scope::ScopeIdx(0);
        if tree.func(scope::FuncIdx(0)).strict || self.eval_outer.is_some_and(|o| o.strict) {
            for &d in &tree.scope(script_scope).decls {
                if tree.decl(d).kind == DeclKind::Var {
                    let u = self.undef();
                    self.write_decl(d, u);
                }
            }
            self.hoist_functions(&script.body, script_scope);
            return;
        }
        let evalvars = self.resolve("%evalvars");
        let functions = scope::top_level_functions(&script.body);
        let last = last_of_each_name(&functions);
        for (i, f) in functions.iter().enumerate() {
            if last[&*f.ident.sym] != i {
                continue;
            }
            self.at(f.ident.span);
            let closure = self.fn_decl_closure(f);
            match (self.resolve(&f.ident.sym), evalvars) {
                (Some(d), _) => self.write_decl(d, closure),
                (None, Some(ev)) => {
                    let obj = self.read_decl(ev);
                    let name = self.str_lit(&f.ident.sym);
                    self.call_builtin(BuiltinId::DeclareEvalVar, vec![obj, name, closure]);
                }
                (None, None) => {}
            }
        }
        if let Some(ev) = evalvars {
            for v in &tree.eval_var_names {
                let obj = self.read_decl(ev);
                let name = self.str_lit(v);
                self.call_builtin(BuiltinId::DeclareEvalVar, vec![obj, name]);
            }
        }
    }

    /// Sloppy direct eval code in a function: `name = v` for a `var` of the caller: its
    /// existing `var`, else the property of its `%evalvars`.
    pub(super) fn store_eval_var(&mut self, name: &str, v: Value) {
        let tree = self.tree;
        match tree.eval_var_level.and_then(|s| tree.lookup_local(s, name)) {
            Some(d) => self.write_decl(d, v),
            None => {
                if let Some(ev) = self.resolve("%evalvars") {
                    let obj = self.read_decl(ev);
                    let key = self.str_lit(name);
                    self.emit_void(Opcode::StoreProperty, vec![v, obj, key], Imm::None);
                }
            }
        }
    }

    /// GlobalDeclarationInstantiation's checks and lexical bindings (`declareGlobals`): the
    /// script's lexical declarations in the order of their environment slots, then its
    /// functions, vars and Annex B function vars. Eval code declares no lexical bindings
    /// globally; its vars and functions are checked the same way, unless it is strict (then
    /// they are its own too).
    fn declare_globals(&mut self, script_scope: scope::ScopeIdx, functions: &[&FnDecl], last: &HashMap<&str, usize>) {
        let tree = self.tree;
        if self.eval_code && tree.func(scope::FuncIdx(0)).strict {
            return;
        }
        let mut lexical: Vec<(u32, char, &str)> = Vec::new();
        if !self.eval_code {
            for &d in &tree.scope(script_scope).decls {
                let decl = tree.decl(d);
                if let Some(Storage::Frame(var)) = self.storage.get(&d) {
                    let kind = if decl.kind == DeclKind::Const { 'c' } else { 'l' };
                    lexical.push((var.index, kind, &decl.name));
                }
            }
            lexical.sort_by_key(|l| l.0);
        }
        let mut decls: Vec<String> = lexical.iter().map(|&(_, kind, name)| format!("{kind}{name}")).collect();
        for (i, f) in functions.iter().enumerate() {
            if last[&*f.ident.sym] == i {
                decls.push(format!("f{}", f.ident.sym));
            }
        }
        for v in &tree.global_vars {
            if !last.contains_key(v.as_str()) {
                let kind = if tree.annexb_globals.contains(v) { 'b' } else { 'v' };
                decls.push(format!("{kind}{v}"));
            }
        }
        if decls.is_empty() {
            return;
        }
        let env = if lexical.is_empty() { self.undef() } else { self.current_env().0 };
        let list = self.atom(&decls.join(" "));
        self.emit_void(Opcode::DeclareGlobals, vec![env], Imm::Name(list));
    }

    /// Creates the closure of a function declaration.
    pub(super) fn fn_decl_closure(&mut self, f: &'a FnDecl) -> Value {
        let def = FnDef {
            key: f.function.span,
            source: f.function.span,
            params: f.function.params.iter().map(|p| &p.pat).collect(),
            body: Body::Stmts(f.function.body.as_ref().map_or(&[], |b| &b.stmts)),
            name: crate::frontend::module::function_name(&f.ident.sym).to_string(),
            is_generator: f.function.is_generator,
            is_async: f.function.is_async,
            declaration: true,
            method: false,
        };
        match self.gen_function(&def) {
            Some(fid) => self.closure(fid),
            None => self.undef(),
        }
    }

    /// A closure of `fid` over the current environment.
    pub(super) fn closure(&mut self, fid: FuncId) -> Value {
        let (env, _) = self.current_env();
        self.emit(Opcode::CreateClosure, vec![env], Imm::Func(fid))
    }

    /// The FnDef of a `Function` node.
    pub(super) fn fn_def(&self, f: &'a Function, name: String, source: Span) -> FnDef<'a> {
        FnDef {
            key: f.span,
            source,
            params: f.params.iter().map(|p| &p.pat).collect(),
            body: Body::Stmts(f.body.as_ref().map_or(&[], |b| &b.stmts)),
            name,
            is_generator: f.is_generator,
            is_async: f.is_async,
            declaration: false,
            method: false,
        }
    }

    /// Generates a function and returns the id its closures are made of (the outer
    /// function of a generator). `None` after reporting an unsupported feature.
    pub(super) fn gen_function(&mut self, def: &FnDef<'a>) -> Option<FuncId> {
        let Some(tf) = self.tree.func_by_span(def.key) else {
            self.unsupported(def.key, "this kind of function");
            return None;
        };
        // A function called where it is made, or the one being compiled lazily now, is
        // compiled now.
        let called_at_once = std::mem::take(&mut self.eager_next);
        let compiling_lazily = self.lazy_name.is_some();
        // Called where it is made, in code that runs once, not in a loop: it runs once.
        let here = self.fr();
        let run_once = called_at_once
            && (here.func.kind == FunctionKind::TopLevel || here.func.run_once)
            && !here.targets.iter().any(|t| t.continue_to.is_some());
        let renamed;
        let def = match self.lazy_name.take() {
            Some(name) => {
                renamed = FnDef { name, params: def.params.clone(), ..*def };
                &renamed
            }
            None => def,
        };
        let info = self.tree.func(tf);
        let parent_scope = self.nearest_env_scope(Some(self.fr().cur_scope));
        let kind = match info.kind {
            FuncKind::Arrow => FunctionKind::Arrow,
            FuncKind::Method | FuncKind::Getter | FuncKind::Setter => FunctionKind::Method,
            FuncKind::ClassConstructor => FunctionKind::ClassConstructor,
            FuncKind::DerivedConstructor => FunctionKind::DerivedConstructor,
            FuncKind::Normal | FuncKind::Script | FuncKind::Module | FuncKind::Eval => FunctionKind::Normal,
        };
        let strict = info.strict;
        let name = self.atom(&def.name);
        let source = self.lines.range(def.source);
        let loc = self.loc_of(def.source);
        let mut params = Vec::new();
        let mut length = 0;
        let mut counting = true;
        for p in &def.params {
            match p {
                Pat::Rest(_) => {
                    counting = false;
                    continue;
                }
                Pat::Assign(_) => counting = false,
                _ => {}
            }
            if counting {
                length += 1;
            }
            let text = match p {
                Pat::Ident(b) => b.id.sym.to_string(),
                _ => self.lines.slice(swc_common::Spanned::span(*p)).to_string(),
            };
            params.push(self.atom(&text));
        }
        let make = |kind: FunctionKind| {
            let mut f = ir::Function::new(name, kind, strict);
            f.run_once = run_once;
            f.params = params.clone();
            f.length = length;
            f.parent_scope = parent_scope;
            f.loc = loc;
            f.source = Some(source);
            f
        };
        if def.is_generator || def.is_async {
            let (outer_kind, inner_kind) = match (def.is_async, def.is_generator) {
                (true, true) => (FunctionKind::AsyncGeneratorOuter, FunctionKind::AsyncGeneratorInner),
                (true, false) => (FunctionKind::AsyncOuter, FunctionKind::AsyncInner),
                (false, _) => (FunctionKind::GeneratorOuter, FunctionKind::GeneratorInner),
            };
            let outer = self.module.add_function(make(outer_kind));
            let inner = self.module.add_function(make(inner_kind));
            if info.params_in_outer {
                self.gen_split_generator(outer, make(outer_kind), inner, make(inner_kind), tf, def);
                return Some(outer);
            }
            self.gen_body(inner, make(inner_kind), tf, def);
            // The outer function only creates the generator object (and, for an async
            // function, starts it and returns the promise of its result).
            let mut f = make(outer_kind);
            let entry = f.add_block();
            let mut b = ir::Builder::new(&mut f, entry);
            b.loc = loc;
            let env = match parent_scope {
                Some(p) => b.value(Opcode::GetParentScope, Vec::new(), Imm::Scope(p)),
                None => b.undefined(),
            };
            let g = b.value(Opcode::CreateGenerator, vec![env], Imm::Func(inner));
            let result = match outer_kind {
                FunctionKind::AsyncOuter => {
                    b.value(Opcode::CallBuiltin, vec![g], Imm::Builtin(BuiltinId::AsyncFunctionStart as u8))
                }
                FunctionKind::AsyncGeneratorOuter => {
                    b.value(Opcode::CallBuiltin, vec![g], Imm::Builtin(BuiltinId::AsyncGeneratorStart as u8))
                }
                _ => g,
            };
            b.ret(result);
            self.module.functions[outer] = f;
            Some(outer)
        } else {
            let id = self.module.add_function(make(kind));
            if let Some(scope) =
                self.lazy_scope(tf, kind, parent_scope, called_at_once || compiling_lazily, def, (source, loc))
            {
                // A placeholder that returns; the function's first call compiles its text.
                let mut f = make(kind);
                f.lazy = Some(self.atom(&scope));
                let entry = f.add_block();
                let mut b = ir::Builder::new(&mut f, entry);
                b.loc = loc;
                let u = b.undefined();
                b.ret(u);
                self.module.functions[id] = f;
                return Some(id);
            }
            self.gen_body(id, make(kind), tf, def);
            Some(id)
        }
    }

    /// The description of the scope to compile function `tf` against on its first call
    /// (see `frontend::eval`), when it is to be left uncompiled: lazy compilation is on,
    /// it is a plain function, arrow, or method, getter or setter whose key is neither
    /// computed nor private (not a generator or async function: those are compiled with
    /// their `kind`s split in two; not a constructor), not called where it is made, with no
    /// direct eval or `import.meta` in it, no early error IRGen finds (`LineTable::has_strict_rewrite`),
    /// and everything it uses from outside is a variable of an
    /// environment around its closures other than the internal declarations of methods
    /// and classes (`super`, `new.target`, private names) — `this` and `arguments` of the
    /// function around an arrow are such variables.
    fn lazy_scope(
        &mut self,
        tf: scope::FuncIdx,
        kind: FunctionKind,
        parent_scope: Option<ir::ScopeId>,
        called_at_once: bool,
        def: &FnDef<'a>,
        (source, loc): (ir::TextRange, Loc),
    ) -> Option<String> {
        let tree = self.tree;
        let info = tree.func(tf);
        let method = def.method
            && kind == FunctionKind::Method
            && matches!(info.kind, FuncKind::Method | FuncKind::Getter | FuncKind::Setter);
        if !self.lazy
            || called_at_once
            || info.needs_whole_program
            || self.lines.has_strict_rewrite(source)
            || !(method
                || matches!(
                    (kind, info.kind),
                    (FunctionKind::Normal, FuncKind::Normal) | (FunctionKind::Arrow, FuncKind::Arrow)
                ))
        {
            return None;
        }
        let mut chain = Vec::new();
        let mut s = parent_scope;
        while let Some(id) = s {
            chain.push(id);
            s = self.module.scopes[id].parent;
        }
        let mut uses = Vec::with_capacity(info.free.len());
        for &d in &info.free {
            let name = &tree.decl(d).name;
            if name.starts_with('#') || matches!(name.as_str(), "%home" | "%callee" | "new.target" | "%evalvars") {
                return None;
            }
            match self.storage.get(&d) {
                Some(&Storage::Frame(var)) if chain.contains(&var.scope) => uses.push(var),
                _ => return None,
            }
        }
        let mut scope = self.eval_scope_here(parent_scope, Some(&uses));
        scope.declaration = def.declaration;
        scope.origin = Some((loc.line, loc.col));
        scope.method = method;
        Some(scope.encode())
    }

    /// Generates the code of function `id` (the inner function of a generator).
    fn gen_body(&mut self, id: FuncId, mut func: ir::Function, tf: scope::FuncIdx, def: &FnDef<'a>) {
        let info = self.tree.func(tf);
        let entry = func.add_block();
        let creator_scope = self.fr().cur_scope;
        let is_inner = func.kind.is_generator_body();
        let derived = info.kind == FuncKind::DerivedConstructor;
        self.fs.push(new_state(id, func, tf, entry, creator_scope, derived));
        self.at(def.source);
        if is_inner {
            self.start_generator_body();
        }
        self.parent_env_prologue();
        self.gen_params(tf, def);
        self.gen_fn_body(tf, def);
        self.finish_function();
    }

    /// A generator whose parameters are bound by the call (FunctionDeclarationInstantiation
    /// runs before the generator object exists, so errors in defaults and destructuring
    /// throw from the call): the outer function binds the parameters in the environment of
    /// the function scope and creates the generator over it; the inner function, a closure
    /// of that environment, runs the body.
    /// ```text
    /// generator g(a = 1)                 generator_inner g(a = 1)
    ///   %p = get_parent_scope $P           start_generator
    ///   %e = create_scope $S, %p           %e = get_parent_scope $S
    ///   ... bind a into %e ...             ... body reads a from %e ...
    ///   %g = create_generator %e, @inner
    ///   return %g
    /// ```
    fn gen_split_generator(
        &mut self,
        outer: FuncId,
        mut outer_func: ir::Function,
        inner: FuncId,
        mut inner_func: ir::Function,
        tf: scope::FuncIdx,
        def: &FnDef<'a>,
    ) {
        let tree = self.tree;
        let info = tree.func(tf);
        let entry = outer_func.add_block();
        let creator_scope = self.fr().cur_scope;
        self.fs.push(new_state(outer, outer_func, tf, entry, creator_scope, false));
        self.at(def.source);
        self.parent_env_prologue();
        self.gen_params(tf, def);

        let fscope = info.scope;
        inner_func.parent_scope = self.nearest_env_scope(Some(fscope));
        let entry = inner_func.add_block();
        self.fs.push(new_state(inner, inner_func, tf, entry, fscope, false));
        self.at(def.source);
        self.start_generator_body();
        self.parent_env_prologue();
        // Everything in the function scope was bound by the outer function.
        for &d in &tree.scope(fscope).decls {
            self.f().initialized.insert(d);
        }
        if let Some(d) = info.this_decl {
            let this = self.read_decl(d);
            self.f().this_value = Some(this);
        }
        self.gen_fn_body(tf, def);
        self.finish_function();

        self.at(def.source);
        let (env, _) = self.current_env();
        let g = self.emit(Opcode::CreateGenerator, vec![env], Imm::Func(inner));
        // An async generator wraps its generator in the AsyncGenerator object.
        let g = match self.fr().func.kind {
            FunctionKind::AsyncGeneratorOuter => self.call_builtin(BuiltinId::AsyncGeneratorStart, vec![g]),
            _ => g,
        };
        self.term(Opcode::Return, vec![g], Vec::new(), Imm::None);
        self.finish_function();
    }

    /// The start of a generator's inner function: `start_generator` and the slot
    /// `resume_generator` reports a `return()` in.
    pub(super) fn start_generator_body(&mut self) {
        self.emit_void(Opcode::StartGenerator, Vec::new(), Imm::None);
        self.f().prologue_len = 1;
        let slot = self.alloc_stack("%is_return");
        self.f().resume_slot = Some(slot);
    }

    /// The prologue of a function without a body of its own (a class's elements
    /// initializer): parent environment, `this` and the rest of the function scope.
    pub(super) fn enter_function_params(&mut self, tf: scope::FuncIdx, def: &FnDef<'a>) {
        self.parent_env_prologue();
        self.gen_params(tf, def);
    }

    /// `get_parent_scope` of a function that has a parent scope.
    pub(super) fn parent_env_prologue(&mut self) {
        if let Some(p) = self.fr().func.parent_scope {
            let env = self.emit_prologue(Opcode::GetParentScope, Vec::new(), Imm::Scope(p), true);
            self.f().parent_env = Some(env);
        }
    }

    /// Enters the function scope and binds `this` (and what arrows capture), `arguments`,
    /// the function's own name and the parameters.
    fn gen_params(&mut self, tf: scope::FuncIdx, def: &FnDef<'a>) {
        self.f().in_params = true;
        self.gen_params_in(tf, def);
        self.f().in_params = false;
    }

    fn gen_params_in(&mut self, tf: scope::FuncIdx, def: &FnDef<'a>) {
        let tree = self.tree;
        let info = tree.func(tf);
        let derived = info.kind == FuncKind::DerivedConstructor;
        let fscope = info.scope;
        self.enter_scope(fscope);

        // `this` and the other values arrows may capture.
        if derived {
            if let Some(d) = info.this_decl {
                let e = self.empty();
                self.write_decl(d, e);
            }
        } else if info.kind != FuncKind::Arrow
            && (info.uses_this || info.this_decl.is_some() || info.uses_super_property)
        {
            let p0 = self.emit(Opcode::LoadParam, Vec::new(), Imm::Index(0));
            let this = if info.strict { p0 } else { self.emit(Opcode::CoerceThisNS, vec![p0], Imm::None) };
            self.f().this_value = Some(this);
            if let Some(d) = info.this_decl {
                self.init_decl(d, this);
            }
        }
        if let Some(d) = info.new_target_decl {
            let v = self.emit(Opcode::GetNewTarget, Vec::new(), Imm::None);
            self.init_decl(d, v);
        }
        if let Some(d) = info.callee_decl {
            let v = self.emit(Opcode::GetCallee, Vec::new(), Imm::None);
            self.init_decl(d, v);
        }
        if let Some(d) = info.home_decl {
            let v = self.emit(Opcode::GetHomeObject, Vec::new(), Imm::None);
            self.init_decl(d, v);
        }
        let mut arguments_object = None;
        for &d in &tree.scope(fscope).decls {
            let decl = tree.decl(d);
            match decl.kind {
                DeclKind::Arguments if decl.referenced => {
                    let v = self.emit(Opcode::CreateArguments, Vec::new(), Imm::None);
                    arguments_object = Some(v);
                    self.init_decl(d, v);
                }
                DeclKind::FunctionName if decl.captured => {
                    let v = self.emit(Opcode::GetCallee, Vec::new(), Imm::None);
                    self.init_decl(d, v);
                }
                _ => {}
            }
        }

        // A base class constructor initializes the instance fields before its parameters
        // are bound ([[Construct]] step 6.b, InitializeInstanceElements).
        if info.kind == FuncKind::ClassConstructor {
            let this = self.this_value();
            self.run_field_initializer(tf, this);
        }

        // Parameters.
        if info.mapped_arguments {
            if let Some(args_decl) =
                tree.lookup_local(fscope, "arguments").filter(|&d| tree.decl(d).kind == DeclKind::Arguments)
            {
                self.map_parameters(def, fscope, args_decl, arguments_object);
                return;
            }
        }
        if info.simple_params {
            for (i, p) in def.params.iter().enumerate() {
                if let Pat::Ident(b) = p {
                    let v = self.emit(Opcode::LoadParam, Vec::new(), Imm::Index(i as u32 + 1));
                    if let Some(d) = tree.lookup_local(fscope, &b.id.sym) {
                        self.init_decl(d, v);
                    }
                }
            }
        } else {
            for &d in &tree.scope(fscope).decls {
                if tree.decl(d).kind == DeclKind::Param {
                    let e = self.empty();
                    self.write_decl(d, e);
                }
            }
            for (i, p) in def.params.iter().enumerate() {
                self.at(swc_common::Spanned::span(*p));
                match p {
                    Pat::Rest(r) => {
                        let args = match arguments_object {
                            Some(a) => a,
                            None => self.emit(Opcode::CreateArguments, Vec::new(), Imm::None),
                        };
                        let start = self.num(i as f64);
                        let v = self.call_builtin(BuiltinId::ArrayFromIndex, vec![args, start]);
                        self.bind_pattern(&r.arg, v, super::pattern::Mode::Init);
                    }
                    _ => {
                        let v = self.emit(Opcode::LoadParam, Vec::new(), Imm::Index(i as u32 + 1));
                        self.bind_pattern(p, v, super::pattern::Mode::Init);
                    }
                }
            }
        }
    }

    /// The parameters of a function with a mapped arguments object: they live in the
    /// arguments object (10.4.4.7 CreateMappedArgumentsObject); an index aliases the last
    /// parameter of its name.
    fn map_parameters(
        &mut self,
        def: &FnDef<'a>,
        fscope: scope::ScopeIdx,
        args_decl: scope::DeclId,
        args: Option<Value>,
    ) {
        let tree = self.tree;
        let args = match args {
            Some(a) => a,
            None => self.read_decl(args_decl),
        };
        let names: Vec<String> = def
            .params
            .iter()
            .map(|p| match p {
                Pat::Ident(b) => b.id.sym.to_string(),
                _ => String::new(),
            })
            .collect();
        let mut mask: u64 = 0;
        let mut values = vec![args];
        let argc = self.emit(Opcode::ArgCount, Vec::new(), Imm::None);
        values.push(argc);
        let last_of: HashMap<&str, usize> = names.iter().enumerate().map(|(i, n)| (n.as_str(), i)).collect();
        let last = |i: usize| last_of[names[i].as_str()] == i;
        for i in 0..names.len() {
            if last(i) && i < 53 {
                mask |= 1 << i;
            }
        }
        values.push(self.num(mask as f64));
        for i in 0..names.len() {
            values.push(self.emit(Opcode::LoadParam, Vec::new(), Imm::Index(i as u32 + 1)));
        }
        self.call_builtin(BuiltinId::MapArguments, values);
        for (i, name) in names.iter().enumerate() {
            if !last(i) {
                continue;
            }
            if let Some(d) = tree.lookup_local(fscope, name).filter(|&d| tree.decl(d).kind == DeclKind::Param) {
                self.storage.insert(d, super::Storage::Mapped { args: args_decl, index: i as u32 });
                self.f().initialized.insert(d);
            }
        }
    }

    /// The hoisted declarations of the body (in their own scope when the parameters have
    /// one: a `var` named like a parameter starts with the parameter's value) and the body.
    fn gen_fn_body(&mut self, tf: scope::FuncIdx, def: &FnDef<'a>) {
        let tree = self.tree;
        let info = tree.func(tf);
        let fscope = info.scope;
        let bscope = info.body_scope;
        let stmts: &'a [Stmt] = match def.body {
            Body::Stmts(s) => s,
            Body::Expr(_) => &[],
        };
        if bscope != fscope {
            self.enter_scope(bscope);
        }
        for &d in &tree.scope(bscope).decls {
            let decl = tree.decl(d);
            if decl.kind == DeclKind::Var {
                let from_param = if bscope != fscope {
                    tree.lookup_local(fscope, &decl.name)
                        .filter(|&p| matches!(tree.decl(p).kind, DeclKind::Param | DeclKind::Arguments))
                } else {
                    None
                };
                let v = match from_param {
                    Some(p) => self.read_decl(p),
                    None => self.undef(),
                };
                self.write_decl(d, v);
            }
        }
        self.init_tdz(bscope);
        self.hoist_functions(stmts, bscope);
        if let Some(d) = info.eval_vars {
            // The object sloppy direct eval declares its vars on (null prototype).
            let null = self.null();
            let o = self.emit(Opcode::AllocObject, vec![null], Imm::None);
            self.init_decl(d, o);
        }

        match def.body {
            Body::Stmts(s) => self.gen_stmts_disposing(s),
            Body::Expr(e) => {
                let v = self.expr(e);
                self.gen_return(Some(v));
            }
        }
        if !self.is_terminated() {
            self.gen_return(None);
        }
    }

    /// Creates the closures of the function declarations directly in `stmts` and stores
    /// them into their bindings of scope `s` (the last declaration of a name wins).
    pub(super) fn hoist_functions(&mut self, stmts: &'a [Stmt], s: scope::ScopeIdx) {
        let functions = scope::top_level_functions(stmts);
        let last = last_of_each_name(&functions);
        for (i, f) in functions.iter().enumerate() {
            if last[&*f.ident.sym] != i {
                continue;
            }
            let Some(d) = self.tree.lookup_local(s, &f.ident.sym) else { continue };
            self.at(f.ident.span);
            let closure = self.fn_decl_closure(f);
            self.init_decl(d, closure);
        }
    }

    /// Ends the function being generated and stores it in the module.
    pub(super) fn finish_function(&mut self) {
        let mut st = self.fs.pop().expect("a function is being generated");
        Gen::prune_unreachable(&mut st.func);
        self.module.functions[st.id] = st.func;
    }

    /// The final return of a function with value `v` (undefined if `None`), after the
    /// cleanups of every enclosing try/finally and for-of.
    pub(super) fn gen_return(&mut self, v: Option<Value>) {
        let v = match v {
            Some(v) => v,
            None => self.undef(),
        };
        self.emit_cleanups(0);
        if self.is_terminated() {
            return;
        }
        let v = if self.fr().derived {
            let tree = self.tree;
            let d = tree.func(self.fr().tree_func).this_decl;
            let this = match d {
                Some(d) => self.read_decl(d),
                None => self.undef(),
            };
            self.call_builtin(BuiltinId::DerivedReturn, vec![v, this])
        } else {
            v
        };
        if self.fr().func.kind.is_generator_body() {
            self.emit_void(Opcode::CompleteGenerator, Vec::new(), Imm::None);
        }
        self.term(Opcode::Return, vec![v], Vec::new(), Imm::None);
        self.start_dead_block();
    }

    /// A class constructor with no `constructor` member: `constructor() {}` or, for a
    /// derived class, `constructor(...args) { super(...args); }` (which passes the
    /// arguments on without iterating them).
    pub(super) fn gen_default_constructor(
        &mut self,
        name: &str,
        derived: bool,
        source: Span,
        fields: Option<ir::Var>,
    ) -> FuncId {
        let kind = if derived { FunctionKind::DerivedConstructor } else { FunctionKind::ClassConstructor };
        let atom = self.atom(name);
        let mut f = ir::Function::new(atom, kind, true);
        f.loc = self.loc_of(source);
        f.source = Some(self.lines.range(source));
        f.parent_scope = fields.map(|v| v.scope);
        let entry = f.add_block();
        let mut b = ir::Builder::new(&mut f, entry);
        b.loc = b.func.loc;
        // The instance fields initializer, from the class body's environment.
        let init = fields.map(|var| {
            let env = b.value(Opcode::GetParentScope, Vec::new(), Imm::Scope(var.scope));
            b.value(Opcode::LoadFrame, vec![env], Imm::Var(var))
        });
        if derived {
            let callee = b.value(Opcode::GetCallee, Vec::new(), Imm::None);
            let parent = b.value(Opcode::CallBuiltin, vec![callee], Imm::Builtin(BuiltinId::GetPrototypeOf as u8));
            let nt = b.value(Opcode::GetNewTarget, Vec::new(), Imm::None);
            let args = b.value(Opcode::CreateArguments, Vec::new(), Imm::None);
            let r = b.value(Opcode::ConstructSpread, vec![parent, nt, args], Imm::None);
            if let Some(init) = init {
                b.value(Opcode::Call, vec![init, r], Imm::None);
            }
            b.ret(r);
        } else {
            if let Some(init) = init {
                let this = b.value(Opcode::LoadParam, Vec::new(), Imm::Index(0));
                b.value(Opcode::Call, vec![init, this], Imm::None);
            }
            let u = b.lit(Literal::Undefined);
            b.ret(u);
        }
        self.module.add_function(f)
    }
}

/// The index of the last of `functions` declaring each name: the one that counts.
fn last_of_each_name<'f>(functions: &[&'f FnDecl]) -> HashMap<&'f str, usize> {
    functions.iter().enumerate().map(|(i, f)| (&*f.ident.sym, i)).collect()
}

pub(super) fn new_state<'a>(
    id: FuncId,
    func: ir::Function,
    tree_func: scope::FuncIdx,
    entry: ir::Block,
    cur_scope: scope::ScopeIdx,
    derived: bool,
) -> FnState<'a> {
    FnState {
        id,
        func,
        tree_func,
        block: entry,
        loc: Loc::default(),
        cur_scope,
        prologue_len: 0,
        parent_env: None,
        resolved: Default::default(),
        this_value: None,
        cleanups: Vec::new(),
        targets: Vec::new(),
        pending_labels: Vec::new(),
        initialized: Default::default(),
        resume_slot: None,
        derived,
        completion: None,
        disposals: Vec::new(),
        in_params: false,
    }
}
