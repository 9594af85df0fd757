//! The HIR verifier: checks every well-formedness rule the instruction table cannot say and
//! collects all violations, each with its function, block and instruction.
//!
//! It runs after IRGen and, in debug pipelines, after every pass. Rules:
//! - structure: the layout is non-empty and lists each block once; block and instruction
//!   back-links agree; every block ends in exactly one terminator and has none before the end;
//!   the entry block has no predecessors; branch targets are in the layout;
//! - each instruction matches its table row: operand and target arity, immediate kind,
//!   presence of a result, a result type within the row's fixed type; references to scopes,
//!   variables and functions exist;
//! - `FIRST_IN_BLOCK` instructions open their block: Phis first, then at most one of
//!   Catch/ResumeGenerator/StartGenerator; a Phi has exactly one entry per predecessor;
//! - SSA: operands are literals or results of instructions in the layout that dominate the use
//!   (a Phi operand must dominate the end of its incoming block);
//! - frame: AllocStack only in the entry block; the slot operand of LoadStack, StoreStack and
//!   ResumeGenerator is an AllocStack result;
//! - scopes: environment operands are environments of the right scope (when the scope is
//!   known from the defining instruction); environments are never used as JavaScript values;
//! - exceptions and generators: a TryStart handler begins with Catch and a Catch block is
//!   only entered as a handler; every block has one try nesting and TryEnd closes an open
//!   region; StartGenerator opens a generator body, SaveAndYield resumes at a block that begins
//!   with ResumeGenerator, and these appear only in `generator_inner` functions.

use crate::cfg::{Cfg, TryRegions};
use crate::domtree::DomTree;
use crate::dump::Namer;
use crate::effects::Effects;
use crate::entity::EntityRef;
use crate::function::{Function, FunctionKind, Literal, ValueDef};
use crate::inst::{Imm, Opcode, ResultRule};
use crate::module::{FuncId, Module, ScopeId};
use crate::types::Type;
use crate::{Block, Inst, Value};

/// One violated rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    /// The function.
    pub func: FuncId,
    /// The function's text-form header reference, e.g. `@2 "f"`.
    pub func_name: String,
    /// The block, if the error is about one.
    pub block: Option<Block>,
    /// The block's text-form name (`%BB3`, layout-numbered as in the dump).
    pub block_name: String,
    /// The instruction, if the error is about one.
    pub inst: Option<Inst>,
    /// The instruction as the dump prints it.
    pub inst_text: String,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for VerifyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "function {}", self.func_name)?;
        if !self.block_name.is_empty() {
            write!(f, ", {}", self.block_name)?;
        }
        if !self.inst_text.is_empty() {
            write!(f, ", `{}`", self.inst_text)?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Checks every function of `module`; returns every error found.
pub fn verify_module(module: &Module) -> Result<(), Vec<VerifyError>> {
    let mut errors = Vec::new();
    if let Some(top) = module.top_level {
        if module.functions.get(top).is_none() {
            errors.push(VerifyError {
                func: top,
                func_name: format!("@{}", top.0),
                block: None,
                block_name: String::new(),
                inst: None,
                inst_text: String::new(),
                message: "the top-level function does not exist".into(),
            });
        }
    }
    if let (Some(record), Some(top)) = (&module.module_record, module.top_level) {
        for message in module_record_errors(module, record) {
            errors.push(VerifyError {
                func: top,
                func_name: "module_record".into(),
                block: None,
                block_name: String::new(),
                inst: None,
                inst_text: String::new(),
                message,
            });
        }
    }
    for id in module.functions.keys() {
        if let Err(mut e) = verify_function(module, id) {
            errors.append(&mut e);
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// What is wrong with a module record: its scope must exist, every slot must be a variable
/// of it (of kind `import` for an imported name, of another kind otherwise), every request
/// index in range.
fn module_record_errors(module: &Module, record: &crate::ModuleRecord) -> Vec<String> {
    use crate::{ExportEntry, ImportName, VarKind};
    let mut out = Vec::new();
    let Some(scope) = module.scopes.get(record.scope) else {
        return vec![format!("the module scope ${} does not exist", record.scope.0)];
    };
    let kind = |slot: u32| scope.vars.get(slot as usize).map(|v| v.kind);
    if kind(record.module_slot) != Some(VarKind::Internal) {
        out.push(format!("the module slot {} is not an internal variable", record.module_slot));
    }
    let requests = record.requests.len() as u32;
    for e in &record.imports {
        let want_import = matches!(e.name, ImportName::Name(_));
        match kind(e.slot) {
            Some(k) if (k == VarKind::Import) == want_import => {}
            _ => out.push(format!("import slot {} is not a variable of the right kind", e.slot)),
        }
        if e.request >= requests {
            out.push(format!("import from request #{} out of range", e.request));
        }
    }
    for e in &record.exports {
        match *e {
            ExportEntry::Local { slot, .. } => {
                if !matches!(kind(slot), Some(k) if k != VarKind::Import && k != VarKind::Internal) {
                    out.push(format!("exported slot {slot} is not a declared variable"));
                }
            }
            ExportEntry::Indirect { import: ImportName::Source | ImportName::Deferred, .. } => {
                out.push("a module source or deferred namespace cannot be re-exported".into());
            }
            ExportEntry::Indirect { request, .. } | ExportEntry::Star { request } => {
                if request >= requests {
                    out.push(format!("export from request #{request} out of range"));
                }
            }
        }
    }
    out
}

/// Checks one function; returns every error found.
pub fn verify_function(module: &Module, id: FuncId) -> Result<(), Vec<VerifyError>> {
    let func = &module.functions[id];
    let mut v = Verifier {
        module,
        func,
        id,
        names: Namer::new(func),
        func_name: format!("@{} {}", id.0, crate::dump::quote_atom(module, func.name)),
        errors: Vec::new(),
    };
    v.run();
    if v.errors.is_empty() {
        Ok(())
    } else {
        Err(v.errors)
    }
}

/// Renders a list of errors one per line (for panics and driver messages).
pub fn render_errors(errors: &[VerifyError]) -> String {
    errors.iter().map(|e| format!("{e}\n")).collect()
}

struct Verifier<'a> {
    module: &'a Module,
    func: &'a Function,
    id: FuncId,
    names: Namer,
    func_name: String,
    errors: Vec<VerifyError>,
}

impl Verifier<'_> {
    fn err(&mut self, block: Option<Block>, inst: Option<Inst>, message: impl Into<String>) {
        let block_name = block.map_or(String::new(), |b| self.names.block(b));
        let inst_text = inst.map_or(String::new(), |i| self.names.inst_text(self.module, self.func, i));
        self.errors.push(VerifyError {
            func: self.id,
            func_name: self.func_name.clone(),
            block,
            block_name,
            inst,
            inst_text,
            message: message.into(),
        });
    }

    fn run(&mut self) {
        let func = self.func;
        if func.layout.is_empty() {
            self.err(None, None, "the function has no blocks");
            return;
        }
        if let Some(p) = func.parent_scope {
            if self.module.scopes.get(p).is_none() {
                self.err(None, None, format!("parent scope ${} does not exist", p.0));
            }
        }

        // Structure: the layout, back-links and terminators. `pos` maps every instruction
        // in the layout to its block and index.
        let mut pos: Vec<Option<(Block, usize)>> = vec![None; func.insts.len()];
        let mut seen_blocks = vec![false; func.blocks.len()];
        let mut dangling = false;
        for &b in &func.layout {
            if b.index() >= func.blocks.len() {
                self.err(None, None, format!("the layout lists {b:?}, which does not exist"));
                dangling = true;
                continue;
            }
            if std::mem::replace(&mut seen_blocks[b.index()], true) {
                self.err(Some(b), None, "the block is listed twice in the layout");
                continue;
            }
            let insts = &func.blocks[b].insts;
            if insts.is_empty() {
                self.err(Some(b), None, "the block is empty: it must end in a terminator");
            }
            for (k, &i) in insts.iter().enumerate() {
                if i.index() >= func.insts.len() {
                    self.err(Some(b), None, format!("the block lists {i:?}, which does not exist"));
                    dangling = true;
                    continue;
                }
                if pos[i.index()].replace((b, k)).is_some() {
                    self.err(Some(b), Some(i), "the instruction is in the layout twice");
                }
                if func.insts[i].block != Some(b) {
                    self.err(Some(b), Some(i), "the instruction's block link does not name the block it is in");
                }
                let is_term = func.insts[i].opcode.is_terminator();
                let is_last = k + 1 == insts.len();
                if is_term && !is_last {
                    self.err(Some(b), Some(i), "a terminator before the end of the block");
                }
                if !is_term && is_last {
                    self.err(Some(b), Some(i), "the block does not end in a terminator");
                }
            }
        }
        if dangling {
            // Dangling handles: the CFG cannot be built, and the errors above say why.
            return;
        }
        let cfg = Cfg::new(func);
        let dom = DomTree::new(func, &cfg);
        let entry = func.layout[0];
        if !cfg.preds(entry).is_empty() {
            self.err(Some(entry), None, "the entry block has predecessors");
        }

        for &b in &func.layout {
            if b.index() >= func.blocks.len() {
                continue;
            }
            self.block_rules(b, &cfg);
            for &i in &func.blocks[b].insts {
                if i.index() < func.insts.len() {
                    self.inst_rules(b, i, &cfg, &dom, &pos);
                }
            }
        }

        let (_, try_errors) = TryRegions::new(func, &cfg);
        for e in try_errors {
            self.err(Some(e.block), None, e.message);
        }
    }

    /// Rules about the opening instructions of a block.
    fn block_rules(&mut self, b: Block, cfg: &Cfg) {
        let func = self.func;
        let insts = &func.blocks[b].insts;
        let mut k = 0;
        while k < insts.len() && insts[k].index() < func.insts.len() && func.insts[insts[k]].opcode == Opcode::Phi {
            k += 1;
        }
        let opener = insts.get(k).filter(|i| i.index() < func.insts.len()).map(|&i| (i, func.insts[i].opcode));
        let opens_with = |op: Opcode| opener.is_some_and(|(_, o)| o == op);
        // Which edges enter this block decides what must open it.
        let preds = cfg.preds(b);
        let mut handler_of = 0;
        let mut resume_of = 0;
        for &p in preds {
            if let Some(t) = func.terminator(p) {
                let data = &func.insts[t];
                if data.opcode == Opcode::TryStart && data.targets.get(1) == Some(&b) {
                    handler_of += 1;
                }
                if data.opcode == Opcode::SaveAndYield && data.targets.first() == Some(&b) {
                    resume_of += 1;
                }
            }
        }
        if handler_of > 0 && !opens_with(Opcode::Catch) {
            self.err(Some(b), None, "a try handler block must begin with `catch` (after any phis)");
        }
        if opens_with(Opcode::Catch) && handler_of != preds.len() {
            self.err(Some(b), opener.map(|o| o.0), "a `catch` block may only be entered as a try handler");
        }
        if resume_of > 0 && !opens_with(Opcode::ResumeGenerator) {
            self.err(Some(b), None, "a block resumed by `save_and_yield` must begin with `resume_generator`");
        }
        if opens_with(Opcode::ResumeGenerator) && resume_of != preds.len() {
            self.err(
                Some(b),
                opener.map(|o| o.0),
                "a `resume_generator` block may only be entered from `save_and_yield`",
            );
        }
        if b == func.layout[0] && func.kind.is_generator_body() && !opens_with(Opcode::StartGenerator) {
            self.err(Some(b), None, "the entry block of a generator or async body must begin with `start_generator`");
        }
    }

    fn inst_rules(&mut self, b: Block, i: Inst, cfg: &Cfg, dom: &DomTree, pos: &[Option<(Block, usize)>]) {
        let func = self.func;
        let module = self.module;
        let data = &func.insts[i];
        let info = data.opcode.info();
        let e = |v: &mut Self, m: String| v.err(Some(b), Some(i), m);

        // Table row.
        if !info.args.accepts(data.args.len()) {
            e(self, format!("expects {:?} operands, has {}", info.args, data.args.len()));
        }
        if !info.targets.accepts(data.targets.len()) {
            e(self, format!("expects {:?} targets, has {}", info.targets, data.targets.len()));
        }
        if data.imm.kind() != info.imm {
            e(self, format!("expects an immediate of kind {:?}, has {:?}", info.imm, data.imm.kind()));
        }
        match (info.result, data.result) {
            (ResultRule::None, Some(_)) => e(self, "has a result value but its row has none".into()),
            (ResultRule::Fixed(_) | ResultRule::Dynamic, None) => {
                e(self, "has no result value but its row has one".into())
            }
            (rule, Some(r)) => {
                if func.values.get(r).map(|d| d.def) != Some(ValueDef::Inst(i)) {
                    e(self, "its result value is not defined by it".into());
                } else if let ResultRule::Fixed(t) = rule {
                    if !func.ty(r).is_subset_of(t) {
                        e(self, format!("result type {} is not within the row's type {t}", func.ty(r)));
                    }
                }
            }
            _ => {}
        }
        for &t in &data.targets {
            if !cfg.in_layout(t) {
                e(self, format!("target {} is not in the layout", self.names.block(t)));
            }
        }

        // Position of FIRST_IN_BLOCK instructions.
        let insts = &func.blocks[b].insts;
        let k = pos[i.index()].map_or(0, |p| p.1);
        if info.effects.has(Effects::FIRST_IN_BLOCK) {
            let before = &insts[..k];
            let ok = if data.opcode == Opcode::Phi {
                before.iter().all(|&j| func.insts[j].opcode == Opcode::Phi)
            } else {
                before.iter().all(|&j| func.insts[j].opcode == Opcode::Phi) && data.opcode != Opcode::Phi
            };
            if !ok {
                let what = if data.opcode == Opcode::Phi {
                    "only after other phis"
                } else {
                    "only after phis, as the first other instruction"
                };
                e(self, format!("`{}` may appear at the start of a block {what}", data.opcode));
            }
        }

        // Operands: defined, live and dominating.
        for (n, &a) in data.args.iter().enumerate() {
            let Some(vd) = func.values.get(a) else {
                e(self, format!("operand {n} is a value that does not exist"));
                continue;
            };
            let ValueDef::Inst(def) = vd.def else { continue };
            let Some((def_block, def_pos)) = pos.get(def.index()).copied().flatten() else {
                e(self, format!("operand {n} is the result of an instruction that was removed"));
                continue;
            };
            let ok = if data.opcode == Opcode::Phi {
                // The value flows along the edge from the incoming block.
                match data.targets.get(n) {
                    Some(&pred) => def_block == pred || dom.dominates(def_block, pred) || !dom.is_reachable(pred),
                    None => true, // arity error reported above
                }
            } else if def_block == b {
                def_pos < k
            } else {
                dom.dominates(def_block, b)
            };
            if !ok {
                e(self, format!("operand {n} ({}) does not dominate this use", self.names.value(module, func, a)));
            }
        }

        // Phi entries match the predecessors.
        if data.opcode == Opcode::Phi {
            if data.args.len() != data.targets.len() {
                e(
                    self,
                    format!(
                        "a phi needs one block per value: {} values, {} blocks",
                        data.args.len(),
                        data.targets.len()
                    ),
                );
            }
            let preds = cfg.preds(b);
            for &t in &data.targets {
                if !preds.contains(&t) {
                    e(self, format!("phi entry for {}, which is not a predecessor", self.names.block(t)));
                }
            }
            for &p in preds {
                let count = data.targets.iter().filter(|&&t| t == p).count();
                if count != 1 {
                    e(self, format!("phi has {count} entries for predecessor {}", self.names.block(p)));
                }
            }
        }

        self.frame_and_scope_rules(b, i);
    }

    /// The scope of the environment `v`, when its definition says.
    fn env_scope(&self, v: Value) -> Option<ScopeId> {
        let def = self.func.def_inst(v)?;
        let d = &self.func.insts[def];
        match (d.opcode, d.imm) {
            (Opcode::CreateScope | Opcode::GetParentScope | Opcode::ResolveScope, Imm::Scope(s)) => Some(s),
            _ => None,
        }
    }

    fn is_alloc_stack(&self, v: Value) -> bool {
        self.func.def_inst(v).is_some_and(|d| self.func.insts[d].opcode == Opcode::AllocStack)
    }

    fn frame_and_scope_rules(&mut self, b: Block, i: Inst) {
        let func = self.func;
        let module = self.module;
        let data = &func.insts[i];
        let e = |v: &mut Self, m: String| v.err(Some(b), Some(i), m);
        let arg = |n: usize| data.args.get(n).copied().filter(|&a| func.values.get(a).is_some());
        let is_env = |v: Value| !func.ty(v).is_none() && func.ty(v).is_subset_of(Type::ENVIRONMENT);
        let is_undefined = |v: Value| func.as_literal(v) == Some(Literal::Undefined);
        let is_generator_body = func.kind.is_generator_body();

        // Which operand positions hold environments.
        let env_positions: &[usize] = match data.opcode {
            Opcode::LoadFrame
            | Opcode::LoadImport
            | Opcode::ResolveScope
            | Opcode::CreateScope
            | Opcode::CreateClosure
            | Opcode::CreateGenerator
            | Opcode::DeclareGlobals => &[0],
            Opcode::StoreFrame | Opcode::DirectEval => &[1],
            Opcode::Phi => &[],
            _ => &[],
        };
        // Slots are only used as slots.
        let slot_position = match data.opcode {
            Opcode::LoadStack | Opcode::ResumeGenerator => Some(0),
            Opcode::StoreStack => Some(1),
            _ => None,
        };
        for (n, &a) in data.args.iter().enumerate() {
            if func.values.get(a).is_some() && self.is_alloc_stack(a) && slot_position != Some(n) {
                e(self, format!("operand {n} is a stack slot, usable only as the slot of load_stack, store_stack or resume_generator"));
            }
        }
        if data.opcode != Opcode::Phi {
            for (n, &a) in data.args.iter().enumerate() {
                if func.values.get(a).is_some() && !env_positions.contains(&n) && func.ty(a).overlaps(Type::ENVIRONMENT)
                {
                    e(self, format!("operand {n} is an environment, which is not a JavaScript value"));
                }
            }
        }

        // Checks that a scope, variable or function immediate exists.
        let scope_ok = |s: ScopeId| module.scopes.get(s).is_some();
        match data.imm {
            Imm::Scope(s) if !scope_ok(s) => return e(self, format!("scope ${} does not exist", s.0)),
            Imm::Var(var) => match module.scopes.get(var.scope) {
                None => return e(self, format!("scope ${} does not exist", var.scope.0)),
                Some(sd) if var.index as usize >= sd.vars.len() => {
                    return e(self, format!("scope ${} has no variable {}", var.scope.0, var.index));
                }
                _ => {}
            },
            Imm::Func(f) if module.functions.get(f).is_none() => {
                return e(self, format!("function @{} does not exist", f.0))
            }
            _ => {}
        }

        match (data.opcode, data.imm) {
            (Opcode::AllocStack, _) if b != func.layout[0] => e(self, "alloc_stack outside the entry block".into()),
            (Opcode::LoadStack | Opcode::ResumeGenerator, _) => {
                if let Some(slot) = arg(0) {
                    if !self.is_alloc_stack(slot) {
                        e(self, "operand 0 must be an alloc_stack slot".into());
                    }
                }
            }
            (Opcode::StoreStack, _) => {
                if let Some(slot) = arg(1) {
                    if !self.is_alloc_stack(slot) {
                        e(self, "operand 1 must be an alloc_stack slot".into());
                    }
                }
            }
            (Opcode::LoadFrame | Opcode::LoadImport | Opcode::StoreFrame, Imm::Var(var)) => {
                let n = if data.opcode == Opcode::StoreFrame { 1 } else { 0 };
                let is_import =
                    module.scopes.get(var.scope).and_then(|s| s.vars.get(var.index as usize)).map(|v| v.kind)
                        == Some(crate::VarKind::Import);
                if is_import != (data.opcode == Opcode::LoadImport) {
                    e(self, "import variables are read with load_import only, and only read".into());
                }
                if let Some(env) = arg(n) {
                    if !is_env(env) {
                        e(self, format!("operand {n} must be an environment, is {}", func.ty(env)));
                    } else if let Some(s) = self.env_scope(env) {
                        if s != var.scope {
                            e(
                                self,
                                format!(
                                    "variable of scope ${} accessed through an environment of scope ${}",
                                    var.scope.0, s.0
                                ),
                            );
                        }
                    }
                }
            }
            (Opcode::ResolveScope, Imm::Scope(to)) => {
                if let Some(env) = arg(0) {
                    if !is_env(env) {
                        e(self, format!("operand 0 must be an environment, is {}", func.ty(env)));
                    } else if let Some(from) = self.env_scope(env) {
                        if scope_ok(from) && module.scope_distance(from, to).is_none() {
                            e(self, format!("scope ${} does not enclose scope ${}", to.0, from.0));
                        }
                    }
                }
            }
            (Opcode::DeclareGlobals, _) => {
                if let Some(env) = arg(0) {
                    if !is_undefined(env) && !is_env(env) {
                        e(self, format!("operand 0 must be an environment or undefined, is {}", func.ty(env)));
                    }
                }
            }
            (Opcode::CreateScope, Imm::Scope(s)) => {
                if module.scopes[s].function != self.id {
                    e(self, format!("scope ${} belongs to function @{}", s.0, module.scopes[s].function.0));
                }
                if let Some(parent) = arg(0) {
                    let expected = module.scopes[s].parent;
                    if is_undefined(parent) {
                        if let Some(p) = expected {
                            e(self, format!("scope ${} needs a parent environment of scope ${}", s.0, p.0));
                        }
                    } else if !is_env(parent) {
                        e(self, format!("operand 0 must be an environment or undefined, is {}", func.ty(parent)));
                    } else if let Some(ps) = self.env_scope(parent) {
                        if Some(ps) != expected {
                            e(self, format!("scope ${} is created inside an environment of scope ${}", s.0, ps.0));
                        }
                    }
                }
            }
            (Opcode::GetParentScope, Imm::Scope(s)) if func.parent_scope != Some(s) => {
                e(
                    self,
                    format!(
                        "get_parent_scope ${} in a function whose parent scope is {:?}",
                        s.0,
                        func.parent_scope.map(|p| p.0)
                    ),
                );
            }
            (Opcode::CreateClosure | Opcode::CreateGenerator, Imm::Func(f)) => {
                let callee = &module.functions[f];
                let wants_inner = data.opcode == Opcode::CreateGenerator;
                if wants_inner != callee.kind.is_generator_body() {
                    e(self, format!("cannot make a {} of a {} function", data.opcode, callee.kind.as_str()));
                }
                if callee.kind == FunctionKind::TopLevel {
                    e(self, "cannot make a closure of top-level code".into());
                }
                if let Some(env) = arg(0) {
                    if is_undefined(env) {
                        if let Some(p) = callee.parent_scope {
                            e(self, format!("function @{} needs an environment of scope ${}", f.0, p.0));
                        }
                    } else if !is_env(env) {
                        e(self, format!("operand 0 must be an environment or undefined, is {}", func.ty(env)));
                    } else if let Some(s) = self.env_scope(env) {
                        if callee.parent_scope != Some(s) {
                            e(self, format!("function @{} is closed over an environment of scope ${}", f.0, s.0));
                        }
                    }
                }
            }
            (Opcode::StartGenerator, _) if b != func.layout[0] || func.blocks[b].insts.first() != Some(&i) => {
                e(self, "start_generator must be the first instruction of the entry block".into())
            }
            _ => {}
        }
        if matches!(
            data.opcode,
            Opcode::StartGenerator | Opcode::SaveAndYield | Opcode::ResumeGenerator | Opcode::CompleteGenerator
        ) && !is_generator_body
        {
            e(self, format!("`{}` outside a generator or async body", data.opcode));
        }
        if data.opcode == Opcode::CreateGenerator && !func.kind.makes_generator() {
            e(
                self,
                format!(
                    "`create_generator` in a {} function (only the outer function of a generator makes one)",
                    func.kind.as_str()
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_module;

    const HEAD: &str = "function @0 \"t\"() kind=function strict parent=none length=0\n";

    /// The messages of every error for a function body written after `HEAD`.
    fn errors(body: &str) -> Vec<String> {
        errors_of(&format!("{HEAD}{body}"))
    }

    fn errors_of(text: &str) -> Vec<String> {
        let m = parse_module(text).unwrap_or_else(|e| panic!("{e}"));
        match verify_module(&m) {
            Ok(()) => Vec::new(),
            Err(es) => es.iter().map(|e| e.to_string()).collect(),
        }
    }

    fn assert_one(body: &str, needle: &str) {
        let es = errors(body);
        assert!(es.iter().any(|e| e.contains(needle)), "expected an error containing {needle:?}, got {es:#?}");
    }

    #[test]
    fn good_ir_passes() {
        let es = errors(
            "%BB0:\n  %0 = alloc_stack \"x\"\n  %1 = load_param #1 : any\n  store_stack %1, %0\n  cond_branch %1, %BB1, %BB2\n\
             %BB1:\n  %2 = binary_op \"+\" %1, 1\n  branch %BB3\n%BB2:\n  branch %BB3\n\
             %BB3:\n  %3 = phi [%2, %BB1], [%1, %BB2]\n  %4 = load_stack %0\n  try_start %BB4, %BB5\n\
             %BB4:\n  try_end %BB6\n%BB5:\n  %5 = catch\n  branch %BB6\n%BB6:\n  return %3\n",
        );
        assert!(es.is_empty(), "{es:#?}");
    }

    #[test]
    fn arity_and_imm_kind() {
        assert_one("%BB0:\n  return\n", "expects Exactly(1) operands, has 0");
        assert_one("%BB0:\n  branch\n", "expects Exactly(1) targets, has 0");
        assert_one("%BB0:\n  %0 = load_param #0\n  return %0, %BB0\n", "expects Exactly(0) targets");
    }

    #[test]
    fn wrong_imm_kind_built_in_memory() {
        let mut m = parse_module(&format!("{HEAD}%BB0:\n  %0 = load_param #1\n  return %0\n")).unwrap();
        let f = &mut m.functions[FuncId(0)];
        let first = f.blocks[f.layout[0]].insts[0];
        f.insts[first].imm = Imm::Flags(1);
        let es = verify_module(&m).unwrap_err();
        assert!(es[0].message.contains("expects an immediate of kind Index, has Flags"), "{es:?}");
        assert_eq!(es[0].func, FuncId(0));
        assert_eq!(es[0].inst, Some(first));
        assert_eq!(
            es[0].to_string(),
            "function @0 \"t\", %BB0, `%0 = load_param #1 : any`: expects an immediate of kind Index, has Flags"
        );
    }

    #[test]
    fn terminators() {
        assert_one("%BB0:\n  %0 = load_param #1\n", "does not end in a terminator");
        assert_one("%BB0:\n  return 1\n  return 2\n", "a terminator before the end");
        assert_one("%BB0:\n  branch %BB1\n%BB1:\n  branch %BB0\n", "the entry block has predecessors");
    }

    #[test]
    fn first_in_block_order() {
        assert_one(
            "%BB0:\n  %0 = load_param #1\n  cond_branch %0, %BB1, %BB2\n%BB1:\n  branch %BB2\n%BB2:\n  %1 = load_param #2\n  %2 = phi [%0, %BB0], [%0, %BB1]\n  return %2\n",
            "`phi` may appear at the start of a block only after other phis",
        );
        assert_one(
            "%BB0:\n  try_start %BB1, %BB2\n%BB1:\n  throw 1\n%BB2:\n  %0 = load_param #1\n  %1 = catch\n  return %1\n",
            "a try handler block must begin with `catch`",
        );
        assert_one("%BB0:\n  branch %BB1\n%BB1:\n  %0 = catch\n  return %0\n", "only be entered as a try handler");
    }

    #[test]
    fn phi_entries_match_predecessors() {
        let body = "%BB0:\n  %0 = load_param #1\n  cond_branch %0, %BB1, %BB2\n%BB1:\n  branch %BB2\n%BB2:\n  %1 = phi [%0, %BB1]\n  return %1\n";
        assert_one(body, "phi has 0 entries for predecessor %BB0");
        let body =
            "%BB0:\n  %0 = load_param #1\n  branch %BB1\n%BB1:\n  %1 = phi [%0, %BB0], [%0, %BB0]\n  return %1\n";
        assert_one(body, "phi has 2 entries for predecessor %BB0");
    }

    #[test]
    fn operands_dominate_uses() {
        // Use before definition in the same block.
        assert_one(
            "%BB0:\n  %1 = binary_op \"+\" %0, 1\n  %0 = load_param #1\n  return %1\n",
            "operand 0 (%1) does not dominate",
        );
        // Definition in one arm used at the join.
        assert_one(
            "%BB0:\n  %0 = load_param #1\n  cond_branch %0, %BB1, %BB2\n%BB1:\n  %1 = load_param #2\n  branch %BB2\n%BB2:\n  return %1\n",
            "operand 0 (%1) does not dominate",
        );
        // A phi operand must dominate the end of its incoming block.
        assert_one(
            "%BB0:\n  %0 = load_param #1\n  cond_branch %0, %BB1, %BB2\n%BB1:\n  %1 = load_param #2\n  branch %BB3\n\
             %BB2:\n  branch %BB3\n%BB3:\n  %2 = phi [%1, %BB1], [%1, %BB2]\n  return %2\n",
            "operand 1 (%1) does not dominate",
        );
        // Values defined in a try body do not reach the handler.
        assert_one(
            "%BB0:\n  try_start %BB1, %BB2\n%BB1:\n  %0 = load_param #1\n  try_end %BB3\n%BB2:\n  %1 = catch\n  return %0\n%BB3:\n  return 1\n",
            "does not dominate",
        );
    }

    #[test]
    fn removed_instructions_are_not_used() {
        let mut m =
            parse_module(&format!("{HEAD}%BB0:\n  %0 = load_param #1\n  %1 = unary_op \"-\" %0\n  return %1\n"))
                .unwrap();
        let f = &mut m.functions[FuncId(0)];
        let neg = f.blocks[f.layout[0]].insts[1];
        f.remove_inst(neg);
        let es = verify_module(&m).unwrap_err();
        assert!(es.iter().any(|e| e.message.contains("result of an instruction that was removed")), "{es:?}");
    }

    #[test]
    fn alloc_stack_rules() {
        assert_one(
            "%BB0:\n  branch %BB1\n%BB1:\n  %0 = alloc_stack \"x\"\n  return undefined\n",
            "alloc_stack outside the entry block",
        );
        assert_one(
            "%BB0:\n  %0 = load_param #1\n  %1 = load_stack %0\n  return %1\n",
            "operand 0 must be an alloc_stack slot",
        );
        assert_one(
            "%BB0:\n  %0 = load_param #1\n  store_stack 1, %0\n  return 1\n",
            "operand 1 must be an alloc_stack slot",
        );
        assert_one("%BB0:\n  %0 = alloc_stack \"x\"\n  store_stack %0, %0\n  return 1\n", "operand 0 is a stack slot");
        assert_one("%BB0:\n  %0 = alloc_stack \"x\"\n  return %0\n", "operand 0 is a stack slot");
    }

    #[test]
    fn frame_operands_are_environments_of_the_right_scope() {
        let scopes = "scope $0 in @0 parent=none\n  $0.0 var \"x\"\nscope $1 in @0 parent=$0\n  $1.0 let \"y\"\n";
        let es = errors_of(&format!(
            "{scopes}{HEAD}%BB0:\n  %0 = load_param #1\n  %1 = load_frame $0.0 %0\n  %2 = create_scope $0 undefined\n  \
             %3 = create_scope $1 %2\n  store_frame $0.0 1, %3\n  %4 = resolve_scope $0 %3\n  %5 = load_frame $0.0 %4\n  \
             %6 = create_scope $1 undefined\n  return %2\n"
        ));
        let want = [
            "operand 0 must be an environment, is any",
            "variable of scope $0 accessed through an environment of scope $1",
            "scope $1 needs a parent environment of scope $0",
            "operand 0 is an environment, which is not a JavaScript value",
        ];
        for w in want {
            assert!(es.iter().any(|e| e.contains(w)), "missing {w:?} in {es:#?}");
        }
        assert_eq!(es.len(), want.len(), "{es:#?}");
    }

    #[test]
    fn branch_targets_are_in_the_layout() {
        let mut m = parse_module(&format!("{HEAD}%BB0:\n  branch %BB1\n%BB1:\n  return 1\n")).unwrap();
        let f = &mut m.functions[FuncId(0)];
        let b1 = f.layout[1];
        f.layout.pop();
        let _ = b1;
        let es = verify_module(&m).unwrap_err();
        assert!(es.iter().any(|e| e.message.contains("target %BB?1 is not in the layout")), "{es:?}");
    }

    #[test]
    fn try_nesting_must_be_consistent() {
        assert_one("%BB0:\n  try_end %BB1\n%BB1:\n  return 1\n", "try_end outside any try region");
    }

    #[test]
    fn generator_rules() {
        assert_one("%BB0:\n  start_generator\n  return 1\n", "outside a generator or async body");
        assert_one("%BB0:\n  complete_generator\n  return 1\n", "outside a generator or async body");
        let outer_and_inner = "function @0 \"g\"() kind=generator strict parent=none length=0\n\
            %BB0:\n  %0 = create_generator @1 undefined : object\n  return %0\n\
            function @1 \"g\"() kind=generator_inner strict parent=none length=0\n\
            %BB0:\n  start_generator\n  complete_generator\n  return undefined\n";
        assert!(errors_of(outer_and_inner).is_empty(), "{:#?}", errors_of(outer_and_inner));
        let es = errors_of(&outer_and_inner.replace("kind=generator ", "kind=function "));
        assert!(es.iter().any(|e| e.contains("`create_generator` in a function function")), "{es:#?}");
        let head = "function @0 \"g\"() kind=generator_inner strict parent=none length=0\n";
        let es =
            errors_of(&format!("{head}%BB0:\n  %0 = alloc_stack \"r\"\n  save_and_yield 1, %BB1\n%BB1:\n  return 1\n"));
        assert!(es.iter().any(|e| e.contains("must begin with `start_generator`")), "{es:#?}");
        assert!(es.iter().any(|e| e.contains("must begin with `resume_generator`")), "{es:#?}");
        let good = format!(
            "{head}%BB0:\n  start_generator\n  %0 = alloc_stack \"r\"\n  save_and_yield 1, %BB1\n\
             %BB1:\n  %1 = resume_generator %0\n  complete_generator\n  return %1\n"
        );
        assert!(errors_of(&good).is_empty(), "{:#?}", errors_of(&good));
    }

    #[test]
    fn async_generator_kinds_follow_the_generator_rules() {
        let pair = "function @0 \"g\"() kind=async_generator strict parent=none length=0\n\
            %BB0:\n  %0 = create_generator @1 undefined : object\n  return %0\n\
            function @1 \"g\"() kind=async_generator_inner strict parent=none length=0\n\
            %BB0:\n  start_generator\n  complete_generator\n  return undefined\n";
        assert!(errors_of(pair).is_empty(), "{:#?}", errors_of(pair));
        // The inner function is a generator body: only `create_generator` makes one.
        let es = errors_of(&pair.replace("create_generator @1", "create_closure @1"));
        assert!(
            es.iter().any(|e| e.contains("cannot make a create_closure of a async_generator_inner function")),
            "{es:#?}"
        );
        let es = errors_of(&pair.replace("kind=async_generator_inner", "kind=method"));
        assert!(es.iter().any(|e| e.contains("outside a generator or async body")), "{es:#?}");
    }

    #[test]
    fn dangling_handles_are_errors_not_panics() {
        let mut m = parse_module(&format!("{HEAD}%BB0:\n  %0 = load_param #1\n  return %0\n")).unwrap();
        let f = &mut m.functions[FuncId(0)];
        f.layout.push(Block(99));
        let b0 = f.layout[0];
        f.blocks[b0].insts.push(Inst(77));
        let es = verify_module(&m).unwrap_err();
        assert!(es.iter().any(|e| e.message.contains("the layout lists %BB99")), "{es:?}");
        assert!(es.iter().any(|e| e.message.contains("the block lists inst77")), "{es:?}");
        let f = &mut m.functions[FuncId(0)];
        f.layout.pop();
        f.blocks[b0].insts.pop();
        let ret = *f.blocks[b0].insts.last().unwrap();
        f.insts[ret].args[0] = Value(1234);
        let es = verify_module(&m).unwrap_err();
        assert!(es.iter().any(|e| e.message.contains("operand 0 is a value that does not exist")), "{es:?}");
    }

    #[test]
    fn collects_every_error() {
        let es = errors("%BB0:\n  return\n%BB1:\n  %0 = alloc_stack \"x\"\n");
        assert!(es.len() >= 3, "{es:#?}");
    }
}
