//! The backend: optimized HIR to a bytecode bundle.
//!
//! ```text
//!  ir::Module ─┬─ for each function ─ lower/ ──▶ LIR (bytecode over virtual registers, lir.rs)
//!              │                      dce.rs ──▶ LIR without dead pure instructions
//!              │                      regalloc.rs ──▶ frame registers (liveness.rs)
//!              │                      emit.rs ──▶ code, handler table, locations
//!              └─ BundleBuilder (strings, function table) ──▶ bundle bytes
//! ```
//!
//! Beyond a one-to-one selection, lowering folds a few patterns into cheaper bytecode:
//! typed arithmetic and comparisons when both operands are numbers, `x === empty` /
//! `x === undefined` / `!x` into the branch that tests them (`jmp_empty`, `jmp_undefined`,
//! swapped targets), literal array-index keys into numbers, ToNumeric feeding only `++`/`--`
//! away (and with the step right after it, into one `post_inc`/`post_dec`), and loops are
//! rotated by layout so an iteration ends in one conditional jump.
//!
//! Conventions other parts rely on:
//! - **Function ids**: the module's top-level function is bundle function 0; every other
//!   function follows in `FuncId` order.
//! - **Frame layout**: `[stack slots | allocated registers | argument registers | scratch]`.
//!   Each AllocStack that mem2reg left is one dedicated register (LoadStack/StoreStack are
//!   `mov`s; ResumeGenerator writes `is_return` straight into it). Calls take `this` and their
//!   arguments from consecutive registers starting at the first argument register; a value
//!   used only as an argument is usually computed directly into its argument register.
//! - **Literals** are loaded at their first use in each block and reused within the block;
//!   literals used in loops are loaded once at the start of the entry block (after
//!   `start_generator`). The global object (`get_global_object`) likewise, where an instruction
//!   needs it in a register (global reads use `get_global`, which needs none).
//! - **Operand reads before writes**: a destination register may be the register of any
//!   operand of the same instruction (including a call's argument range), so the VM must read
//!   every operand before writing a result.
//! - **Callee frames** may overlap the caller's registers from `first` upward: no value lives
//!   in an argument register across a call other than the one it is an argument of.
//! - **Handler table**: each try region covers the pcs of its blocks, as one entry per
//!   contiguous run of code; entries of inner regions come before those of outer ones; every
//!   handler target starts with `catch`.
//! - **Generators**: `SaveAndYield v -> B` is `save_generator <B>; ret v`, and `B` starts with
//!   `resume_generator`; registers survive the suspension.
//! - **Input the backend rejects** (with an internal-error `Err`, never a panic): blocks
//!   reached inside different try regions (every edge leaving a try region must go through
//!   its `try_end`), Phis in a block with several predecessors one of which ends in
//!   `try_start` (handler edge) or `save_and_yield`, handlers not starting with `catch`,
//!   resume blocks not starting with `resume_generator`, environment operands whose scope
//!   cannot be traced to a `create_scope`/`get_parent_scope`/`resolve_scope`, and
//!   `coerce_this_ns` of anything but `load_param #0`.

mod dce;
mod emit;
#[cfg(test)]
mod fuzz_tests;
mod lir;
mod liveness;
mod lower;
mod regalloc;
#[cfg(test)]
mod tests;

use hashbrown::HashMap;

use bytecode::{
    BundleBuilder, ExportDesc, FunctionDesc, ImportDesc, Imported, ModuleDesc, RequestDesc, SourceMode, SourceRange,
    ValueKind,
};
use ir::{timing, Atom, FuncId, Module};

pub use lower::array_index;

/// Options of the backend.
#[derive(Clone, Copy, Debug, Default)]
pub struct BackendOptions {
    /// Record source locations of instructions (stack traces, error positions).
    pub debug_info: bool,
    /// How to keep the functions' source text (for `Function.prototype.toString`).
    pub source: SourceMode,
}

/// Figures about one compiled function.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FunctionStats {
    /// The function's name.
    pub name: String,
    /// SSA values of the HIR (instruction results).
    pub ssa_values: u32,
    /// Registers of the frame.
    pub frame_size: u32,
    /// Stack slots left by mem2reg.
    pub stack_slots: u32,
    /// Registers holding allocated values (the rest are stack slots, argument registers
    /// and the scratch register).
    pub allocated_registers: u32,
    /// Phi moves removed by coalescing.
    pub phi_moves_coalesced: u32,
    /// Phi moves that had to stay.
    pub phi_moves_kept: u32,
    /// Argument moves avoided by computing values in their argument registers.
    pub arg_moves_coalesced: u32,
    /// Bytes of code.
    pub code_size: u32,
}

/// Compiles every function of `module` into a bundle. Each function's HIR is freed once it
/// is lowered, so that a large program never holds its HIR, LIR and bytecode at once.
pub fn compile_module(mut module: Module, opts: &BackendOptions) -> Result<Vec<u8>, String> {
    compile_functions(&mut module, opts, true).map(|(bytes, _)| bytes)
}

/// Like [`compile_module`], keeping the HIR and returning figures for every function (in
/// bundle order).
pub fn compile_module_with_stats(
    module: &mut Module,
    opts: &BackendOptions,
) -> Result<(Vec<u8>, Vec<FunctionStats>), String> {
    compile_functions(module, opts, false)
}

fn compile_functions(
    module: &mut Module,
    opts: &BackendOptions,
    free_hir: bool,
) -> Result<(Vec<u8>, Vec<FunctionStats>), String> {
    let mut builder = BundleBuilder::new(&module.source_name);
    builder.set_source_mode(opts.source);
    let stats = add_functions(module, opts, free_hir, &mut builder)?;
    if let Some(record) = &module.module_record {
        let desc = module_desc(module, record, 0, &[], &mut builder);
        builder.add_module(desc);
    }
    let bytes = timing::time("write the bundle", || builder.try_finish()).map_err(|e| e.to_string())?;
    Ok((bytes, stats))
}

/// A module of a module graph for [`compile_graph`]: module code with the key each of its
/// requests resolved to, or a value module (JSON, text or bytes).
pub enum GraphModule {
    /// Module code (its `module_record` is set; its source name is its key).
    Code {
        /// The module's HIR.
        module: Box<Module>,
        /// The key of each request's module.
        resolved: Vec<String>,
    },
    /// A JSON, text or bytes module.
    Value {
        /// Its key.
        key: String,
        /// What it holds.
        value: vm::ModuleValue,
    },
}

/// Compiles a module graph into one bundle (see `bytecode::ModuleDesc`): the first module is
/// the entry, and every request names the key of the module it resolved to, which the
/// bundle holds.
pub fn compile_graph(modules: Vec<GraphModule>, opts: &BackendOptions) -> Result<Vec<u8>, String> {
    let name = match modules.first() {
        Some(GraphModule::Code { module, .. }) => module.source_name.clone(),
        _ => return Err("the entry of a module graph must be module code".into()),
    };
    let mut builder = BundleBuilder::new(&name);
    builder.set_source_mode(opts.source);
    let mut descs = Vec::new();
    for m in modules {
        match m {
            GraphModule::Code { mut module, resolved } => {
                let top = builder.function_count();
                add_functions(&mut module, opts, true, &mut builder)?;
                let record = module.module_record.as_ref().ok_or("a module of the graph is not module code")?;
                descs.push(module_desc(&module, record, top, &resolved, &mut builder));
            }
            GraphModule::Value { key, value } => {
                let key = builder.add_str(&key);
                let value = match value {
                    vm::ModuleValue::Json(text) => (ValueKind::Json, builder.add_str(&text)),
                    vm::ModuleValue::Text(text) => (ValueKind::Text, builder.add_str(&text)),
                    vm::ModuleValue::Bytes(bytes) => {
                        let units: Vec<u16> = bytes.iter().map(|&b| u16::from(b)).collect();
                        (ValueKind::Bytes, builder.add_string(&units))
                    }
                };
                let top_level = builder.function_count();
                descs.push(ModuleDesc { key, value: Some(value), top_level, ..ModuleDesc::default() });
            }
        }
    }
    for d in descs {
        builder.add_module(d);
    }
    timing::time("write the bundle", || builder.try_finish()).map_err(|e| e.to_string())
}

/// Adds every function of `module` to `builder`, the top-level function first.
fn add_functions(
    module: &mut Module,
    opts: &BackendOptions,
    free_hir: bool,
    builder: &mut BundleBuilder,
) -> Result<Vec<FunctionStats>, String> {
    let top = module.top_level.ok_or("the module has no top-level function")?;
    let mut order = vec![top];
    order.extend(module.functions.keys().filter(|&f| f != top));
    let mut func_ids = HashMap::new();
    for &f in &order {
        func_ids.insert(f, builder.reserve_function());
    }
    let source_base = match opts.source {
        SourceMode::Stripped => 0,
        // The HIR goes away with the bundle made: its text moves into the bundle.
        _ if free_hir => builder.add_source_string(std::mem::take(&mut module.source_text)),
        _ => builder.add_source_text(&module.source_text),
    };
    let mut ids = BundleIds { builder, atoms: &module.atoms, ids: HashMap::new(), funcs: func_ids, source_base };
    let mut stats = Vec::with_capacity(order.len());
    let mut descs = Vec::with_capacity(order.len());
    for &f in &order {
        if ir::cancel::requested() {
            return Err(ir::cancel::STOPPED.to_string());
        }
        let label = function_label(module, f);
        let fail = |e: String| format!("internal compiler error in function {f} ({label}): {e}");
        if module.functions[f].lazy.is_some() {
            let (desc, st) = lazy_entry(module, f, &mut ids);
            descs.push((ids.funcs[&f], desc));
            stats.push(st);
            continue;
        }
        let lowered = lower_function(module, f, &mut ids).map_err(fail)?;
        if free_hir {
            // Later functions need only this one's existence (closures name it by id).
            module.functions[f].clear_body();
        }
        let (desc, st) = finish_function(lowered, opts).map_err(fail)?;
        descs.push((ids.funcs[&f], desc));
        stats.push(st);
    }
    for (id, desc) in descs {
        ids.builder.define_function(id, desc);
    }
    Ok(stats)
}

/// The bundle's module record of a module whose top-level function is bundle function `top`,
/// whose key is its source name, and whose requests resolved to the keys `resolved` (none
/// for a bundle of one module).
fn module_desc(
    module: &Module,
    record: &ir::ModuleRecord,
    top: u32,
    resolved: &[String],
    builder: &mut BundleBuilder,
) -> ModuleDesc {
    let resolved: Vec<u32> = resolved.iter().map(|k| builder.add_str(k)).collect();
    let mut s = |a: ir::Atom| builder.add_string(module.atom_units(a));
    let name = |n: ir::ImportName, s: &mut dyn FnMut(ir::Atom) -> u32| match n {
        ir::ImportName::Name(a) => Some(s(a)),
        ir::ImportName::Namespace | ir::ImportName::Source | ir::ImportName::Deferred => None,
    };
    let imported = |n: ir::ImportName, s: &mut dyn FnMut(ir::Atom) -> u32| match n {
        ir::ImportName::Name(a) => Imported::Name(s(a)),
        ir::ImportName::Namespace => Imported::Namespace,
        ir::ImportName::Source => Imported::Source,
        ir::ImportName::Deferred => Imported::Deferred,
    };
    let requests = record
        .requests
        .iter()
        .enumerate()
        .map(|(i, r)| RequestDesc {
            specifier: s(r.specifier),
            resolved: resolved.get(i).copied(),
            defer: r.defer,
            line: r.loc.line,
            col: r.loc.col,
            attributes: r.attributes.iter().map(|&(k, v)| (s(k), s(v))).collect(),
        })
        .collect();
    let imports = record
        .imports
        .iter()
        .map(|i| ImportDesc { request: i.request, name: imported(i.name, &mut s), slot: i.slot })
        .collect();
    let exports = record
        .exports
        .iter()
        .map(|e| match *e {
            ir::ExportEntry::Local { name, slot } => ExportDesc::Local { name: s(name), slot },
            ir::ExportEntry::Indirect { name: n, request, import } => {
                ExportDesc::Indirect { name: s(n), request, import: name(import, &mut s) }
            }
            ir::ExportEntry::Star { request } => ExportDesc::Star { request },
        })
        .collect();
    let key = builder.add_str(&module.source_name);
    ModuleDesc {
        key,
        top_level: top,
        value: None,
        has_tla: record.has_tla,
        module_slot: record.module_slot,
        requests,
        imports,
        exports,
    }
}

fn function_label(module: &Module, f: FuncId) -> String {
    let name = module.atom_str(module.functions[f].name);
    if name.is_empty() {
        "anonymous".to_string()
    } else {
        name
    }
}

/// A function lowered to LIR, with what its bundle entry and figures need of its HIR.
struct Lowered {
    lir: lir::LFunction,
    desc: FunctionDesc,
    stats: FunctionStats,
}

/// What function `f`'s bundle entry takes from the HIR (its code still to make).
fn entry_of(module: &Module, f: FuncId, ids: &mut BundleIds<'_>) -> FunctionDesc {
    let func = &module.functions[f];
    FunctionDesc {
        name: lower::Ids::atom(ids, func.name),
        length: func.length,
        param_count: func.params.len() as u32,
        flags: lower::function_flags(func),
        source: func.source.map(|r| SourceRange { start: ids.source_base + r.start, len: r.end - r.start }),
        lazy_scope: func.lazy.map(|a| lower::Ids::atom(ids, a)),
        ..FunctionDesc::default()
    }
}

/// The bundle entry of a function left to be compiled on its first call: its code only
/// returns (the VM never runs it), located where the function starts.
fn lazy_entry(module: &Module, f: FuncId, ids: &mut BundleIds<'_>) -> (FunctionDesc, FunctionStats) {
    let mut desc = entry_of(module, f, ids);
    bytecode::Inst::Ret { value: 0 }.encode(&mut desc.code);
    desc.frame_size = 1;
    let loc = module.functions[f].loc;
    desc.locations = vec![(0, loc.line, loc.col)];
    let stats = FunctionStats {
        name: function_label(module, f),
        frame_size: 1,
        code_size: desc.code.len() as u32,
        ..FunctionStats::default()
    };
    (desc, stats)
}

/// Lowers one function and fills in what its bundle entry takes from the HIR.
fn lower_function(module: &Module, f: FuncId, ids: &mut BundleIds<'_>) -> Result<Lowered, String> {
    let func = &module.functions[f];
    let lir = timing::time("lower", || lower::lower_function(module, f, ids))?;
    let desc = FunctionDesc { ic_count: lir.ic_count, ..entry_of(module, f, ids) };
    let ssa_values = func
        .layout
        .iter()
        .flat_map(|&b| func.blocks[b].insts.iter())
        .filter(|&&i| func.insts[i].result.is_some())
        .count() as u32;
    let stats = FunctionStats {
        name: function_label(module, f),
        ssa_values,
        stack_slots: lir.slot_count,
        ..FunctionStats::default()
    };
    Ok(Lowered { lir, desc, stats })
}

/// Allocates registers for a lowered function and emits its code.
fn finish_function(lowered: Lowered, opts: &BackendOptions) -> Result<(FunctionDesc, FunctionStats), String> {
    let Lowered { lir, mut desc, mut stats } = lowered;
    let alloc = timing::time("regalloc", || regalloc::allocate(&lir))?;
    let out = timing::time("emit", || emit::emit(&lir, &alloc, opts.debug_info))?;
    desc.frame_size = out.frame_size;
    desc.code = out.code;
    desc.handlers = out.handlers;
    desc.locations = out.locations;
    stats.frame_size = desc.frame_size;
    stats.allocated_registers = alloc.allocated;
    stats.phi_moves_coalesced = alloc.stats.phi_moves_coalesced;
    stats.phi_moves_kept = alloc.stats.phi_moves_kept;
    stats.arg_moves_coalesced = alloc.stats.arg_moves_coalesced;
    stats.code_size = desc.code.len() as u32;
    Ok((desc, stats))
}

/// Bundle ids of strings and functions during compilation.
struct BundleIds<'a> {
    builder: &'a mut BundleBuilder,
    /// Where the module's source text starts in the bundle's.
    source_base: u32,
    /// The module's atoms.
    atoms: &'a ir::module::AtomSet,
    ids: HashMap<Atom, u32>,
    funcs: HashMap<FuncId, u32>,
}

impl lower::Ids for BundleIds<'_> {
    fn atom(&mut self, atom: Atom) -> u32 {
        if let Some(&id) = self.ids.get(&atom) {
            return id;
        }
        let id = self.builder.add_string(&self.atoms[atom.0 as usize]);
        self.ids.insert(atom, id);
        id
    }
    fn function(&self, func: FuncId) -> u32 {
        self.funcs[&func]
    }
}
