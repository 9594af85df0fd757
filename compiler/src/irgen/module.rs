//! Module code: the two functions of a module and its module record.
//!
//! Linking a module graph needs every module's environment (and its hoisted functions)
//! before any module body runs, so a module is two functions:
//! ```text
//! function @0 "" kind=top_level          the module: InitializeEnvironment's part
//!   %env = create_scope $0, undefined      every top-level declaration and import binding
//!   ... lexical declarations empty (TDZ), function declarations' closures ...
//!   %body = create_closure %env, @1
//!   return %body
//! function @1 "" kind=normal parent=$0   the body, run by evaluation (an async function,
//!   ... the statements ...                 outer and inner, with top-level `await`)
//! ```
//! The runtime calls the top-level function when it loads the module, fills the import
//! slots of the environment when it links the graph (a named import's slot refers to the
//! exporting module's binding and is read with `load_import`; a namespace import's slot
//! holds the namespace object) and the module slot (`%module`), and calls the body when it
//! evaluates the module. The module record (`ir::ModuleRecord`) names the slots.

use ir::{ExportEntry, FunctionKind, Imm, ImportEntry, ImportName, Loc, ModuleRecord, ModuleRequest, Opcode, Var};
use swc_ecma_ast::Script;

use super::func::new_state;
use super::{Gen, Storage};
use crate::frontend::module::{ExportSyntax, Imported, ModuleSyntax};
use crate::frontend::scope::{self, MODULE_BINDING};

impl<'a> Gen<'a> {
    /// Generates the module's two functions and its module record.
    pub(super) fn gen_module(&mut self, script: &'a Script, syntax: &ModuleSyntax) {
        let tree = self.tree;
        let name = self.atom("");
        let mut func = ir::Function::new(name, FunctionKind::TopLevel, true);
        func.loc = Loc { line: 1, col: 1 };
        let entry = func.add_block();
        let id = self.module.add_function(ir::Function::new(name, FunctionKind::TopLevel, true));
        self.module.top_level = Some(id);
        let module_scope = scope::ScopeIdx(0);
        self.fs.push(new_state(id, func, scope::FuncIdx(0), entry, module_scope, false));
        self.enter_scope(module_scope);
        self.init_tdz(module_scope);
        self.hoist_functions(&script.body, module_scope);
        let Some(&irs) = self.tree_ir.get(&module_scope) else {
            // The scope always has `%module`, so it always has an environment.
            self.unsupported(script.span, "a module without an environment");
            return;
        };
        let body = self.gen_module_body(script, irs, tree.top_level_await);
        let (env, _) = self.current_env();
        let closure = self.emit(Opcode::CreateClosure, vec![env], Imm::Func(body));
        self.b().ret(closure);
        self.finish_function();
        let record = self.module_record(syntax, irs, tree.top_level_await);
        self.module.module_record = Some(record);
    }

    /// The module body: a strict function over the module environment, async when the
    /// module uses top-level `await` (an async function's outer and inner functions).
    fn gen_module_body(&mut self, script: &'a Script, irs: ir::ScopeId, is_async: bool) -> ir::FuncId {
        let name = self.atom("");
        let make = |kind| {
            let mut f = ir::Function::new(name, kind, true);
            f.parent_scope = Some(irs);
            f.loc = Loc { line: 1, col: 1 };
            f
        };
        let kind = if is_async { FunctionKind::AsyncInner } else { FunctionKind::Normal };
        let body = self.module.add_function(make(kind));
        let mut func = make(kind);
        let entry = func.add_block();
        self.fs.push(new_state(body, func, scope::FuncIdx(0), entry, scope::ScopeIdx(0), false));
        if is_async {
            self.start_generator_body();
        }
        self.parent_env_prologue();
        // The body is the module's code: the declarations hoisted above are initialized.
        for &d in &self.tree.scope(scope::ScopeIdx(0)).decls {
            if !self.tree.decl(d).kind.has_tdz() {
                self.f().initialized.insert(d);
            }
        }
        self.gen_stmts_disposing(&script.body);
        if !self.is_terminated() {
            self.gen_return(None);
        }
        self.finish_function();
        if !is_async {
            return body;
        }
        // The outer function starts the body and returns its promise.
        let outer = self.module.add_function(make(FunctionKind::AsyncOuter));
        let mut f = make(FunctionKind::AsyncOuter);
        let entry = f.add_block();
        let mut b = ir::Builder::new(&mut f, entry);
        b.loc = Loc { line: 1, col: 1 };
        let env = b.value(Opcode::GetParentScope, Vec::new(), Imm::Scope(irs));
        let g = b.value(Opcode::CreateGenerator, vec![env], Imm::Func(body));
        let p = b.value(Opcode::CallBuiltin, vec![g], Imm::Builtin(bytecode::BuiltinId::AsyncFunctionStart as u8));
        b.ret(p);
        self.module.functions[outer] = f;
        outer
    }

    /// The slot of module-scope declaration `name`.
    fn module_slot(&self, name: &str) -> Option<u32> {
        let d = self.tree.lookup_local(scope::ScopeIdx(0), name)?;
        match self.storage.get(&d) {
            Some(Storage::Frame(Var { index, .. })) => Some(*index),
            _ => None,
        }
    }

    /// The module record: requests, import bindings by slot, exports. A local export of an
    /// imported name or namespace becomes an indirect export (ParseModule step 10.b).
    fn module_record(&mut self, syntax: &ModuleSyntax, scope: ir::ScopeId, has_tla: bool) -> ModuleRecord {
        let requests = syntax
            .requests
            .iter()
            .map(|r| {
                let specifier = self.module.atom_utf16(&r.specifier);
                let attributes =
                    r.attributes.iter().map(|(k, v)| (self.module.atom_utf16(k), self.module.atom_utf16(v))).collect();
                ModuleRequest { specifier, attributes, defer: r.defer, loc: self.loc_of(r.span) }
            })
            .collect();
        let mut imports = Vec::new();
        for i in &syntax.imports {
            let name = match &i.name {
                Imported::Name(n) => ImportName::Name(self.atom(n)),
                Imported::Namespace => ImportName::Namespace,
                Imported::Source => ImportName::Source,
                Imported::Deferred => ImportName::Deferred,
            };
            if let Some(slot) = self.module_slot(&i.local) {
                imports.push(ImportEntry { request: i.request, name, slot });
            }
        }
        let mut exports = Vec::new();
        for e in &syntax.exports {
            let entry = match e {
                ExportSyntax::Local { name, local, .. } => {
                    let name = self.atom(name);
                    let import = syntax.imports.iter().find(|i| i.local == *local);
                    match import.map(|i| (i.request, &i.name)) {
                        Some((request, Imported::Name(n))) => {
                            let import = ImportName::Name(self.atom(n));
                            ExportEntry::Indirect { name, request, import }
                        }
                        // `import * as ns; export { ns }` exports that module's namespace, as
                        // `export * as ns from` does (so two such exports are not ambiguous).
                        Some((request, Imported::Namespace)) => {
                            ExportEntry::Indirect { name, request, import: ImportName::Namespace }
                        }
                        _ => match self.module_slot(local) {
                            Some(slot) => ExportEntry::Local { name, slot },
                            None => continue,
                        },
                    }
                }
                ExportSyntax::Indirect { name, request, import } => {
                    let import = match import {
                        Some(n) => ImportName::Name(self.atom(n)),
                        None => ImportName::Namespace,
                    };
                    ExportEntry::Indirect { name: self.atom(name), request: *request, import }
                }
                ExportSyntax::Star { request } => ExportEntry::Star { request: *request },
            };
            exports.push(entry);
        }
        let module_slot = self.module_slot(MODULE_BINDING).unwrap_or(0);
        ModuleRecord { scope, module_slot, has_tla, requests, imports, exports }
    }
}
