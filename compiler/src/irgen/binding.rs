//! Storage of declarations and access to them: stack slots, heap scopes, globals, TDZ.
//!
//! Entering a tree scope gives each of its declarations a `Storage`: a heap-scope variable
//! when an inner function refers to it (the scope then gets an environment, created with
//! `CreateScope` whose parent is the nearest enclosing environment), otherwise an
//! `AllocStack` slot. An environment of an enclosing function is reached from the
//! function's `GetParentScope` with `ResolveScope`, emitted once in the prologue.
//!
//! `let`, `const` and `class` bindings start empty; reads and writes check them with
//! `ThrowIfEmpty` unless the declaration has already been initialized on every path to
//! this point of the same function (tracked in `FnState::initialized`, never for `switch`
//! scopes, whose cases can be entered in the middle).

use ir::{ErrorKind, Imm, Opcode, Value, VarKind};

use super::{EnvInfo, Gen, Storage};
use crate::frontend::scope::{DeclId, DeclKind, FuncKind, ScopeIdx, ScopeKind};
use bytecode::BuiltinId;

pub(super) fn var_kind(kind: DeclKind) -> VarKind {
    match kind {
        DeclKind::Let | DeclKind::Class => VarKind::Let,
        // A class's own name inside it cannot be assigned (eval code and functions compiled
        // lazily learn that from the kind).
        DeclKind::Const | DeclKind::ImportNamespace | DeclKind::ClassName => VarKind::Const,
        DeclKind::Import => VarKind::Import,
        // A function expression's own name is immutable (assignments are ignored in sloppy
        // code), like no declared kind.
        DeclKind::ModuleIdentity | DeclKind::EvalVars | DeclKind::FunctionName => VarKind::Internal,
        DeclKind::This | DeclKind::NewTarget | DeclKind::Callee | DeclKind::HomeObject => VarKind::Internal,
        _ => VarKind::Var,
    }
}

impl<'a> Gen<'a> {
    /// The heap scope of the nearest tree scope, from `from` outwards, that has an
    /// environment.
    pub(super) fn nearest_env_scope(&self, from: Option<ScopeIdx>) -> Option<ir::ScopeId> {
        let mut cur = from;
        while let Some(s) = cur {
            if let Some(&irs) = self.tree_ir.get(&s) {
                return Some(irs);
            }
            cur = self.tree.scope(s).parent;
        }
        None
    }

    /// The environment of heap scope `irs` as seen from the current function.
    pub(super) fn env_value(&mut self, irs: ir::ScopeId) -> Value {
        let depth = self.depth();
        if let Some(info) = self.envs.get(&irs) {
            if info.depth == depth {
                return info.value;
            }
        }
        if let Some(&v) = self.fr().resolved.get(&irs) {
            return v;
        }
        let parent_scope = self.fr().func.parent_scope;
        let Some(parent_env) = self.fr().parent_env else {
            // A scope of an enclosing function that is not on this function's chain: a
            // compiler bug, reported instead of producing bad IR.
            self.diags.push(crate::frontend::Diagnostic::new(
                "internal compiler error: environment not reachable",
                self.fr().loc.line,
                self.fr().loc.col,
            ));
            return self.undef();
        };
        if parent_scope == Some(irs) {
            return parent_env;
        }
        let v = self.emit_prologue(Opcode::ResolveScope, vec![parent_env], Imm::Scope(irs), false);
        self.f().resolved.insert(irs, v);
        v
    }

    /// The environment operand for a closure or scope created here, and its heap scope.
    pub(super) fn current_env(&mut self) -> (Value, Option<ir::ScopeId>) {
        let cur = self.fr().cur_scope;
        match self.nearest_env_scope(Some(cur)) {
            Some(irs) => (self.env_value(irs), Some(irs)),
            None => (self.undef(), None),
        }
    }

    /// Enters tree scope `s`: gives its declarations storage and creates its environment if
    /// any of them is captured. Returns the scope to restore with `exit_scope`.
    /// Declarations are not initialized here (see `init_scope_decls`).
    pub(super) fn enter_scope(&mut self, s: ScopeIdx) -> ScopeIdx {
        let tree = self.tree;
        let saved = self.fr().cur_scope;
        let scope = tree.scope(s);
        if tree.scope_has_captured(s) {
            let parent_irs = self.nearest_env_scope(scope.parent);
            let parent_env = match parent_irs {
                Some(p) => self.env_value(p),
                None => self.undef(),
            };
            let id = self.fr().id;
            let irs = self.module.add_scope(parent_irs, id);
            for &d in &scope.decls {
                let decl = tree.decl(d);
                if decl.captured {
                    let name = self.atom(&decl.name);
                    let var = self.module.add_var(irs, name, var_kind(decl.kind));
                    self.storage.insert(d, Storage::Frame(var));
                }
            }
            let env = self.emit(Opcode::CreateScope, vec![parent_env], Imm::Scope(irs));
            let depth = self.depth();
            self.tree_ir.insert(s, irs);
            self.envs.insert(irs, EnvInfo { depth, value: env });
        } else {
            self.tree_ir.remove(&s);
        }
        for &d in &scope.decls {
            let decl = tree.decl(d);
            // Nothing reads a declaration nothing refers to; writes to it are dropped.
            if !decl.captured && decl.referenced {
                let storage = if decl.kind == DeclKind::FunctionName {
                    Storage::Callee
                } else {
                    Storage::Stack(self.alloc_stack(&decl.name))
                };
                self.storage.insert(d, storage);
            } else if !decl.captured {
                self.storage.remove(&d);
            }
            self.f().initialized.remove(&d);
        }
        self.f().cur_scope = s;
        saved
    }

    pub(super) fn exit_scope(&mut self, saved: ScopeIdx) {
        self.f().cur_scope = saved;
    }

    /// Starts the TDZ of the lexical declarations of scope `s` (stores empty).
    pub(super) fn init_tdz(&mut self, s: ScopeIdx) {
        let tree = self.tree;
        for &d in &tree.scope(s).decls {
            if tree.decl(d).kind.has_tdz() {
                let e = self.empty();
                self.write_decl(d, e);
            }
        }
    }

    /// Writes `v` into the storage of `d` with no checks.
    pub(super) fn write_decl(&mut self, d: DeclId, v: Value) {
        match self.storage.get(&d).copied() {
            Some(Storage::Stack(slot)) => self.store_stack(v, slot),
            Some(Storage::Frame(var)) => {
                let env = self.env_value(var.scope);
                self.emit_void(Opcode::StoreFrame, vec![v, env], Imm::Var(var));
            }
            Some(Storage::Mapped { args, index }) => {
                let a = self.read_decl(args);
                let i = self.num(index as f64);
                self.call_builtin(BuiltinId::ArgumentsSet, vec![a, i, v]);
            }
            Some(Storage::Callee) | None => {}
        }
    }

    /// Reads the storage of `d` with no checks.
    pub(super) fn read_decl(&mut self, d: DeclId) -> Value {
        match self.storage.get(&d).copied() {
            Some(Storage::Stack(slot)) => self.load_stack(slot),
            Some(Storage::Frame(var)) => {
                let env = self.env_value(var.scope);
                let op =
                    if self.tree.decl(d).kind == DeclKind::Import { Opcode::LoadImport } else { Opcode::LoadFrame };
                self.emit(op, vec![env], Imm::Var(var))
            }
            Some(Storage::Callee) => self.emit(Opcode::GetCallee, Vec::new(), Imm::None),
            Some(Storage::Mapped { args, index }) => {
                let a = self.read_decl(args);
                let i = self.num(index as f64);
                self.call_builtin(BuiltinId::ArgumentsGet, vec![a, i])
            }
            None => self.undef(),
        }
    }

    /// Whether a read of `d` here must check for the TDZ.
    fn needs_tdz_check(&self, d: DeclId) -> bool {
        let decl = self.tree.decl(d);
        let scope = self.tree.scope(decl.scope);
        let tdz = decl.kind.has_tdz() || (decl.kind == DeclKind::Param && !self.tree.func(scope.func).simple_params);
        if !tdz {
            return false;
        }
        let same_function = scope.func == self.fr().tree_func;
        !(same_function && scope.kind != ScopeKind::Switch && self.fr().initialized.contains(&d))
    }

    /// Reads declaration `d` (with a TDZ check when needed).
    pub(super) fn load_decl(&mut self, d: DeclId) -> Value {
        let v = self.read_decl(d);
        if self.needs_tdz_check(d) {
            let name = self.atom(&self.tree.decl(d).name.clone());
            return self.emit(Opcode::ThrowIfEmpty, vec![v], Imm::Name(name));
        }
        v
    }

    /// Initializes declaration `d` with `v` (`let x = v`, parameters, function hoisting).
    pub(super) fn init_decl(&mut self, d: DeclId, v: Value) {
        self.write_decl(d, v);
        self.f().initialized.insert(d);
    }

    /// Assigns `v` to declaration `d` (`x = v`): TDZ and const checks.
    pub(super) fn assign_decl(&mut self, d: DeclId, v: Value) {
        let kind = self.tree.decl(d).kind;
        match kind {
            DeclKind::FunctionName => {
                if self.strict() {
                    self.throw_error(ErrorKind::TypeError, "Assignment to constant variable.");
                }
                return;
            }
            DeclKind::Import | DeclKind::ImportNamespace => {
                // Import bindings are immutable (and initialized: a read checks the exporter's).
                self.throw_error(ErrorKind::TypeError, "Assignment to constant variable.");
                return;
            }
            DeclKind::Const | DeclKind::ClassName => {
                if self.needs_tdz_check(d) {
                    self.load_decl(d);
                }
                self.throw_error(ErrorKind::TypeError, "Assignment to constant variable.");
                return;
            }
            _ => {}
        }
        if self.needs_tdz_check(d) {
            self.load_decl(d);
        }
        self.write_decl(d, v);
    }

    /// Whether the code being generated is strict.
    pub(super) fn strict(&self) -> bool {
        self.fr().func.strict
    }

    /// Whether the code being generated is strict inside a sloppy function (a class's
    /// heritage and computed keys): stores and deletes whose strictness the VM takes from
    /// the function use the strict internal builtins instead.
    pub(super) fn strict_region(&self) -> bool {
        self.fr().func.strict && !self.tree.func(self.fr().tree_func).strict
    }

    /// The declaration `name` resolves to here, `None` for a global.
    pub(super) fn resolve(&self, name: &str) -> Option<DeclId> {
        self.tree.resolve(self.fr().cur_scope, name)
    }

    /// Reads identifier `name`.
    pub(super) fn load_name(&mut self, name: &str) -> Value {
        let withs = self.with_objects(name);
        if !withs.is_empty() {
            let target = self.with_lookup(name, &withs);
            return self.load_dynamic(name, target);
        }
        self.load_static(name)
    }

    /// Reads identifier `name` from its declaration or the global object, ignoring `with`.
    pub(super) fn load_static(&mut self, name: &str) -> Value {
        match self.resolve(name) {
            Some(d) => self.load_decl(d),
            None => {
                let a = self.atom(name);
                self.emit(Opcode::TryLoadGlobal, Vec::new(), Imm::Name(a))
            }
        }
    }

    /// Assigns `v` to identifier `name`.
    pub(super) fn store_name(&mut self, name: &str, v: Value) {
        let withs = self.with_objects(name);
        if !withs.is_empty() {
            let target = self.with_lookup(name, &withs);
            self.store_dynamic(name, target, v);
            return;
        }
        self.store_static(name, v);
    }

    /// Assigns `v` to the declaration or global `name`, ignoring `with`.
    pub(super) fn store_static(&mut self, name: &str, v: Value) {
        match self.resolve(name) {
            Some(d) => self.assign_decl(d, v),
            None if self.strict_region() => {
                let n = self.str_lit(name);
                self.call_builtin(BuiltinId::StoreGlobalStrict, vec![n, v]);
            }
            None => {
                let a = self.atom(name);
                self.emit_void(Opcode::StoreGlobal, vec![v], Imm::Name(a));
            }
        }
    }

    /// Initializes the binding `name` declared in the current scope chain (declarations).
    pub(super) fn init_name(&mut self, name: &str, v: Value) {
        // `var x = v` in a `with` body assigns through the object environment.
        let withs = self.with_objects(name);
        if !withs.is_empty() {
            let target = self.with_lookup(name, &withs);
            self.init_resolved(name, target, v);
            return;
        }
        self.init_static(name, v);
    }

    /// Initializes `name` already resolved through `with` objects to `target` (a
    /// `with_lookup` result).
    pub(super) fn init_resolved(&mut self, name: &str, target: Value, v: Value) {
        let is_static = self.is_empty(target);
        let stat = self.new_block();
        let dynamic = self.new_block();
        let join = self.new_block();
        self.cond_branch(is_static, stat, dynamic);
        self.switch_to(dynamic);
        self.put_binding_object(name, target, v);
        self.branch(join);
        self.switch_to(stat);
        self.init_static(name, v);
        self.branch(join);
        self.switch_to(join);
    }

    /// In strict code, a binding of a `with` object that no longer exists is a
    /// ReferenceError (GetBindingValue / SetMutableBinding of object environments).
    fn check_binding_still_exists(&mut self, name: &str, target: Value) {
        if !self.strict() {
            return;
        }
        let key = self.str_lit(name);
        let has = self.b().binary(ir::BinOp::In, key, target);
        let ok = self.new_block();
        let gone = self.new_block();
        self.cond_branch(has, ok, gone);
        self.switch_to(gone);
        self.throw_error(ErrorKind::ReferenceError, &format!("{name} is not defined"));
        self.switch_to(ok);
    }

    /// `target.name = v` for a binding of a `with` object.
    fn put_binding_object(&mut self, name: &str, target: Value, v: Value) {
        self.check_binding_still_exists(name, target);
        let key = self.str_lit(name);
        self.emit_void(Opcode::StoreProperty, vec![v, target, key], Imm::None);
    }

    fn init_static(&mut self, name: &str, v: Value) {
        match self.resolve(name) {
            Some(d) => {
                // `var x = v` assigns (the name may resolve to a parameter or a catch
                // parameter); lexical declarations initialize.
                match self.tree.decl(d).kind {
                    DeclKind::Let
                    | DeclKind::Const
                    | DeclKind::Class
                    | DeclKind::BlockFunction
                    | DeclKind::Param
                    | DeclKind::CatchParam => self.init_decl(d, v),
                    _ => self.write_decl(d, v),
                }
            }
            None => {
                let a = self.atom(name);
                self.emit_void(Opcode::StoreGlobal, vec![v], Imm::Name(a));
            }
        }
    }

    // ---- with ---------------------------------------------------------------------------------

    /// The `with` objects identifier `name` is resolved through here (innermost first).
    pub(super) fn with_objects(&self, name: &str) -> Vec<DeclId> {
        self.tree.with_objects(self.fr().cur_scope, name)
    }

    /// Resolves `name` through the objects `withs` of enclosing `with` statements: the first
    /// that has a binding `name` (withHas), or empty for the static binding.
    pub(super) fn with_lookup(&mut self, name: &str, withs: &[DeclId]) -> Value {
        let key = self.str_lit(name);
        let join = self.new_block();
        let mut incoming = Vec::new();
        for &w in withs {
            let obj = self.read_decl(w);
            let has = self.call_builtin(BuiltinId::WithHas, vec![obj, key]);
            let hit = self.new_block();
            let next = self.new_block();
            self.cond_branch(has, hit, next);
            self.switch_to(hit);
            self.edge(obj, join, &mut incoming);
            self.switch_to(next);
        }
        let e = self.empty();
        self.edge(e, join, &mut incoming);
        self.merge(join, incoming)
    }

    /// Reads `name` from `target` (a `with_lookup` result): the object's property, or the
    /// static binding when empty.
    pub(super) fn load_dynamic(&mut self, name: &str, target: Value) -> Value {
        let is_static = self.is_empty(target);
        let stat = self.new_block();
        let dynamic = self.new_block();
        let join = self.new_block();
        let mut incoming = Vec::new();
        self.cond_branch(is_static, stat, dynamic);
        self.switch_to(dynamic);
        self.check_binding_still_exists(name, target);
        let key = self.str_lit(name);
        let v = self.emit(Opcode::LoadProperty, vec![target, key], Imm::None);
        self.edge(v, join, &mut incoming);
        self.switch_to(stat);
        let v = self.load_static(name);
        self.edge(v, join, &mut incoming);
        self.merge(join, incoming)
    }

    /// Writes `v` to `name` resolved to `target` (a `with_lookup` result).
    pub(super) fn store_dynamic(&mut self, name: &str, target: Value, v: Value) {
        let is_static = self.is_empty(target);
        let stat = self.new_block();
        let dynamic = self.new_block();
        let join = self.new_block();
        self.cond_branch(is_static, stat, dynamic);
        self.switch_to(dynamic);
        self.put_binding_object(name, target, v);
        self.branch(join);
        self.switch_to(stat);
        self.store_static(name, v);
        self.branch(join);
        self.switch_to(join);
    }

    // ---- this, new.target, super ----------------------------------------------------------

    /// `this` at the current point.
    pub(super) fn this_value(&mut self) -> Value {
        let tree = self.tree;
        let cur = self.fr().tree_func;
        let f = tree.this_function(cur);
        let info = tree.func(f);
        if info.kind == FuncKind::Script {
            return self.emit(Opcode::GetGlobalObject, Vec::new(), Imm::None);
        }
        if info.kind == FuncKind::Module {
            return self.undef();
        }
        if info.kind == FuncKind::Eval {
            // The caller's `this`: the global object at the top level of a script.
            let outer = self.eval_outer;
            return match self.resolve("this") {
                Some(d) if outer.is_some_and(|o| o.derived) => {
                    let v = self.read_decl(d);
                    self.call_builtin(BuiltinId::ThrowSuperNotCalled, vec![v])
                }
                Some(d) => self.read_decl(d),
                None if outer.is_some_and(|o| o.module || o.in_function) => self.undef(),
                None => self.emit(Opcode::GetGlobalObject, Vec::new(), Imm::None),
            };
        }
        if info.kind == FuncKind::DerivedConstructor {
            let d = info.this_decl.expect("derived constructors declare `this`");
            let v = self.read_decl(d);
            return self.call_builtin(BuiltinId::ThrowSuperNotCalled, vec![v]);
        }
        if f == cur {
            if let Some(v) = self.fr().this_value {
                return v;
            }
            return self.undef();
        }
        match info.this_decl {
            Some(d) => self.read_decl(d),
            None => self.undef(),
        }
    }

    /// In direct eval code: the caller's internal declaration `name` (`new.target`,
    /// `%callee`, `%home`), undefined if it has none.
    fn caller_special(&mut self, name: &str) -> Value {
        match self.resolve(name) {
            Some(d) => self.read_decl(d),
            None => self.undef(),
        }
    }

    /// `new.target` at the current point.
    pub(super) fn new_target_value(&mut self) -> Value {
        let tree = self.tree;
        let cur = self.fr().tree_func;
        let f = tree.this_function(cur);
        if tree.func(f).kind == FuncKind::Eval {
            return self.caller_special("new.target");
        }
        if f == cur {
            return self.emit(Opcode::GetNewTarget, Vec::new(), Imm::None);
        }
        match tree.func(f).new_target_decl {
            Some(d) => self.read_decl(d),
            None => self.undef(),
        }
    }

    /// The function `super(...)` belongs to (the derived constructor).
    pub(super) fn super_callee_value(&mut self) -> Value {
        let tree = self.tree;
        let cur = self.fr().tree_func;
        let f = tree.this_function(cur);
        if tree.func(f).kind == FuncKind::Eval {
            return self.caller_special("%callee");
        }
        if f == cur {
            return self.emit(Opcode::GetCallee, Vec::new(), Imm::None);
        }
        match tree.func(f).callee_decl {
            Some(d) => self.read_decl(d),
            None => self.undef(),
        }
    }

    /// The [[HomeObject]] for `super.x`.
    pub(super) fn home_object_value(&mut self) -> Value {
        let tree = self.tree;
        let cur = self.fr().tree_func;
        let f = tree.this_function(cur);
        if tree.func(f).kind == FuncKind::Eval {
            return self.caller_special("%home");
        }
        if f == cur {
            return self.emit(Opcode::GetHomeObject, Vec::new(), Imm::None);
        }
        match tree.func(f).home_decl {
            Some(d) => self.read_decl(d),
            None => self.undef(),
        }
    }

    /// Binds the result of `super(...)` as `this` of the derived constructor; a
    /// ReferenceError if it was already bound.
    pub(super) fn bind_derived_this(&mut self, v: Value) {
        let tree = self.tree;
        let cur = self.fr().tree_func;
        let f = tree.this_function(cur);
        let this_decl = match tree.func(f).kind {
            FuncKind::Eval => self.resolve("this"),
            _ => tree.func(f).this_decl,
        };
        let Some(d) = this_decl else { return };
        let old = self.read_decl(d);
        let is_empty = self.is_empty(old);
        let ok = self.new_block();
        let bad = self.new_block();
        self.cond_branch(is_empty, ok, bad);
        self.switch_to(bad);
        self.throw_error(ErrorKind::ReferenceError, "Super constructor may only be called once");
        self.switch_to(ok);
        self.write_decl(d, v);
    }
}
