//! MIR to machine code through Cranelift. This is the only module that names Cranelift, so
//! that the code generator can be replaced.
//!
//! ```text
//!  MIR function ─ one Cranelift block per MIR block (block parameters map one to one),
//!               │  a prologue block that loads the arguments, and one cold block per
//!               │  instruction that can exit (it boxes the exit state into the register
//!               │  window and returns the exit's status)
//!               ▼
//!  Cranelift IR ─ cranelift-codegen (instruction selection, regalloc2, encoding) ─▶ bytes
//! ```
//!
//! The calling convention of compiled code is in the crate docs (`crate`).

use std::collections::{HashMap, HashSet};

use cranelift_codegen::control::ControlPlane;
use cranelift_codegen::ir::condcodes::{FloatCC as CFloatCC, IntCC as CIntCC};
use cranelift_codegen::ir::{self, types, AbiParam, InstBuilder, MemFlagsData as MemFlags, Signature, UserFuncName};
use cranelift_codegen::isa::{self, OwnedTargetIsa};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_codegen::Context;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};

use crate::mir::verify::Dominators;
use crate::mir::*;
use crate::{Callee, Interface, ValueLayout};

/// A machine the tier compiles for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    X86_64,
    Aarch64,
}

impl Target {
    /// The machine this process runs on, if the tier supports it.
    pub fn host() -> Option<Target> {
        if cfg!(target_arch = "x86_64") {
            Some(Target::X86_64)
        } else if cfg!(target_arch = "aarch64") {
            Some(Target::Aarch64)
        } else {
            None
        }
    }

    /// `x86_64` or `aarch64`.
    pub fn name(self) -> &'static str {
        match self {
            Target::X86_64 => "x86_64",
            Target::Aarch64 => "aarch64",
        }
    }

    /// The target named `name`.
    pub fn from_name(name: &str) -> Option<Target> {
        match name {
            "x86_64" => Some(Target::X86_64),
            "aarch64" => Some(Target::Aarch64),
            _ => None,
        }
    }

    /// The code generator for the target, made once (making it costs as much as compiling
    /// a small function).
    fn isa(self) -> Result<OwnedTargetIsa, String> {
        static ISAS: [std::sync::OnceLock<Result<OwnedTargetIsa, String>>; 2] =
            [std::sync::OnceLock::new(), std::sync::OnceLock::new()];
        ISAS[self as usize].get_or_init(|| self.make_isa()).clone()
    }

    fn make_isa(self) -> Result<OwnedTargetIsa, String> {
        let mut flags = settings::builder();
        let set = |f: &mut settings::Builder, k: &str, v: &str| {
            f.set(k, v).map_err(|e| format!("cranelift setting {k}: {e}"))
        };
        set(&mut flags, "opt_level", "none")?;
        set(&mut flags, "is_pic", "false")?;
        set(&mut flags, "enable_verifier", if cfg!(debug_assertions) { "true" } else { "false" })?;
        let builder =
            isa::lookup_by_name(self.name()).map_err(|e| format!("no {} code generator: {e}", self.name()))?;
        builder.finish(settings::Flags::new(flags)).map_err(|e| format!("cranelift {}: {e}", self.name()))
    }
}

/// A compiled function.
pub struct Compiled {
    /// The machine code (position independent: no relocations).
    pub code: Vec<u8>,
}

/// The Cranelift type of a MIR type.
fn clif_type(t: Type) -> ir::Type {
    match t {
        Type::I32 => types::I32,
        Type::F64 => types::F64,
        Type::I64 | Type::Ptr | Type::Value => types::I64,
    }
}

/// The bits of a JavaScript constant as a boxed value.
pub fn const_bits(layout: &ValueLayout, c: JsConst) -> u64 {
    match c {
        JsConst::Undefined => layout.undefined,
        JsConst::Null => layout.null,
        JsConst::True => layout.true_,
        JsConst::False => layout.false_,
        JsConst::Empty => layout.empty,
        JsConst::Number(n) if n.get().is_nan() => layout.canonical_nan,
        JsConst::Number(n) => n.get().to_bits(),
    }
}

/// Compiles `f` (which must verify) for `target`, against the VM described by `vm`; its
/// `call`s reach `callees` through the context's function table, in this order.
pub fn compile(f: &Function, target: Target, vm: &Interface, callees: &[Callee]) -> Result<Compiled, String> {
    let (func, isa) = clif_function(f, target, vm, callees)?;
    let mut ctx = Context::for_function(func);
    let compiled = ctx
        .compile(&*isa, &mut ControlPlane::default())
        .map_err(|e| format!("cranelift could not compile %{}: {:?}", f.name, e.inner))?;
    if !compiled.buffer.relocs().is_empty() {
        return Err(format!("%{}: the machine code needs relocations", f.name));
    }
    Ok(Compiled { code: compiled.code_buffer().to_vec() })
}

/// The Cranelift IR `compile` generates machine code from, as text.
pub fn clif(f: &Function, target: Target, vm: &Interface, callees: &[Callee]) -> Result<String, String> {
    Ok(clif_function(f, target, vm, callees)?.0.display().to_string())
}

/// `f` as a Cranelift function, and the code generator for `target`.
fn clif_function(
    f: &Function,
    target: Target,
    vm: &Interface,
    callees: &[Callee],
) -> Result<(ir::Function, OwnedTargetIsa), String> {
    let isa = target.isa()?;
    let mut sig = Signature::new(isa.default_call_conv());
    sig.params.extend([AbiParam::new(types::I64); 3]);
    sig.returns.push(AbiParam::new(types::I64));
    let mut func = ir::Function::with_name_signature(UserFuncName::user(0, 0), sig);
    let mut fctx = FunctionBuilderContext::new();
    let mut b = FunctionBuilder::new(&mut func, &mut fctx);
    let mut l = Lowering {
        f,
        vm,
        layout: &vm.values,
        vals: HashMap::new(),
        blocks: HashMap::new(),
        exits: HashMap::new(),
        reasons: HashMap::new(),
        ctx: None,
        regs: None,
        sigs: HashMap::new(),
        call_conv: isa.default_call_conv(),
        target,
        callees,
        window: f.window(),
        not_pointers: HashSet::new(),
    };
    l.function(&mut b)?;
    b.seal_all_blocks();
    b.finalize(isa.frontend_config());
    Ok((func, isa))
}

/// Why code leaves through an exit (it goes into the status).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Leave {
    /// A check failed.
    Check,
    /// A helper threw.
    Threw,
    /// A called compiled function left first.
    Inner,
}

struct Lowering<'a> {
    f: &'a Function,
    vm: &'a Interface,
    layout: &'a ValueLayout,
    vals: HashMap<Val, ir::Value>,
    blocks: HashMap<Block, ir::Block>,
    /// The cold block that leaves through each exit (and one for a helper that threw), made
    /// at its first use and filled at the end. One block serves every instruction that names the exit: the exit's values
    /// dominate each of them, so they dominate the block too.
    exits: HashMap<(ExitId, Leave), ir::Block>,
    /// The cold block that passes a check's reason to its exit's block, per exit and reason.
    reasons: HashMap<(ExitId, Reason), ir::Block>,
    /// The context and register-window pointers (the first two arguments).
    ctx: Option<ir::Value>,
    regs: Option<ir::Value>,
    /// The signatures of helper entries and compiled code, by return type (`signature`).
    sigs: HashMap<ir::Type, ir::SigRef>,
    call_conv: isa::CallConv,
    target: Target,
    callees: &'a [Callee],
    /// The registers of this function's window (a callee's window starts one above).
    window: u32,
    /// Values known not to be pointers (boxed numbers, constants): storing one needs no
    /// write barrier.
    not_pointers: HashSet<Val>,
}

fn flags() -> MemFlags {
    MemFlags::trusted()
}

impl Lowering<'_> {
    fn val(&self, v: Val) -> Result<ir::Value, String> {
        self.vals.get(&v).copied().ok_or_else(|| format!("{v} is used before the lowering defined it"))
    }

    fn function(&mut self, b: &mut FunctionBuilder) -> Result<(), String> {
        let f = self.f;
        let Some(entry) = f.entry() else { return Err(format!("%{} has no blocks", f.name)) };
        let prologue = b.create_block();
        b.append_block_params_for_function_params(prologue);
        for &mb in &f.layout {
            let cb = b.create_block();
            for &p in &f.block(mb).params {
                let v = b.append_block_param(cb, clif_type(f.ty(p)));
                self.vals.insert(p, v);
            }
            self.blocks.insert(mb, cb);
        }
        // The machine code follows the MIR layout (the `layout` pass chooses it); blocks
        // that only leave compiled code are cold and go last. Blocks are still filled in
        // reverse postorder, where every value is defined before its uses.
        b.func.layout.append_block(prologue);
        for &mb in &f.layout {
            let cb = self.blocks[&mb];
            b.func.layout.append_block(cb);
            if matches!(f.block(mb).insts.last(), Some(Inst { op: Op::Deopt(_), .. })) {
                b.set_cold_block(cb);
            }
        }
        b.switch_to_block(prologue);
        let params = b.block_params(prologue).to_vec();
        self.ctx = Some(params[0]);
        self.regs = Some(params[1]);
        let mut args = Vec::new();
        for (i, &p) in f.block(entry).params.iter().enumerate() {
            let v = b.ins().load(clif_type(f.ty(p)), flags(), params[2], (8 * i) as i32);
            args.push(ir::BlockArg::from(v));
        }
        b.ins().jump(self.blocks[&entry], &args);
        for mb in Dominators::new(f).rpo {
            b.switch_to_block(self.blocks[&mb]);
            for inst in &f.block(mb).insts {
                self.inst(b, inst)?;
            }
        }
        // The blocks that pass checks' reasons to their exits, then the exits' bodies,
        // after every value they store is defined.
        let mut reasons: Vec<((ExitId, Reason), ir::Block)> = self.reasons.iter().map(|(&k, &cb)| (k, cb)).collect();
        reasons.sort_by_key(|&((exit, reason), _)| (exit, reason.status_bits()));
        for ((exit, reason), via) in reasons {
            b.switch_to_block(via);
            let bits = b.ins().iconst(types::I64, reason.status_bits() as i64);
            let out = self.exit_block(b, exit, Leave::Check);
            b.ins().jump(out, &[ir::BlockArg::Value(bits)]);
        }
        let mut exits: Vec<((ExitId, Leave), ir::Block)> = self.exits.iter().map(|(&e, &cb)| (e, cb)).collect();
        exits.sort();
        for ((exit, why), cb) in exits {
            b.switch_to_block(cb);
            let arg = b.block_params(cb).first().copied();
            self.leave(b, exit, why, arg)?;
        }
        // Blocks the entry cannot reach still need a body.
        for &mb in &f.layout {
            let cb = self.blocks[&mb];
            if b.func.layout.first_inst(cb).is_none() {
                b.switch_to_block(cb);
                b.ins().trap(ir::TrapCode::unwrap_user(1));
            }
        }
        Ok(())
    }

    fn iconst(&self, b: &mut FunctionBuilder, ty: ir::Type, n: i64) -> ir::Value {
        b.ins().iconst(ty, if ty == types::I32 { n as i32 as i64 } else { n })
    }

    /// The boxed bits of `v` (a `value`, `i32` or `f64`).
    fn boxed(&self, b: &mut FunctionBuilder, v: ir::Value, ty: Type) -> ir::Value {
        match ty {
            Type::I32 => {
                let d = b.ins().fcvt_from_sint(types::F64, v);
                b.ins().bitcast(types::I64, MemFlags::new(), d)
            }
            Type::F64 => {
                let is_nan = b.ins().fcmp(CFloatCC::Unordered, v, v);
                let bits = b.ins().bitcast(types::I64, MemFlags::new(), v);
                let nan = b.ins().iconst(types::I64, self.layout.canonical_nan as i64);
                b.ins().select(is_nan, nan, bits)
            }
            _ => v,
        }
    }

    /// The tag of a boxed value (its top bits).
    fn tag(&self, b: &mut FunctionBuilder, v: ir::Value) -> ir::Value {
        b.ins().ushr_imm_s(v, self.layout.tag_shift as i64)
    }

    /// Leaves through `exit` when `fail` (an integer) is non-zero, for `reason`; continues
    /// in a new block.
    fn exit_if(
        &mut self,
        b: &mut FunctionBuilder,
        fail: ir::Value,
        exit: Option<ExitId>,
        reason: Reason,
    ) -> Result<(), String> {
        let Some(id) = exit else { return Err("an exiting instruction without an exit".into()) };
        // The reason's bits are made in a cold block of their own that jumps to the exit's
        // (filled at the end): passed from here, the constant would be made on the hot path
        // before the branch.
        let via = *self.reasons.entry((id, reason)).or_insert_with(|| {
            let via = b.create_block();
            b.set_cold_block(via);
            via
        });
        self.branch_out(b, fail, via, &[])
    }

    /// The cold block that leaves through `exit` for `why`, made at its first use.
    fn exit_block(&mut self, b: &mut FunctionBuilder, exit: ExitId, why: Leave) -> ir::Block {
        *self.exits.entry((exit, why)).or_insert_with(|| {
            let out = b.create_block();
            if why != Leave::Threw {
                b.append_block_param(out, types::I64);
            }
            b.set_cold_block(out);
            out
        })
    }

    /// Branches to `out` (with `args`) when `fail` is non-zero; continues in a new block.
    fn branch_out(
        &mut self,
        b: &mut FunctionBuilder,
        fail: ir::Value,
        out: ir::Block,
        args: &[ir::BlockArg],
    ) -> Result<(), String> {
        let here = b.current_block().ok_or("no current block")?;
        let cont = b.create_block();
        b.insert_block_after(cont, here);
        b.ins().brif(fail, out, args, cont, &[]);
        b.switch_to_block(cont);
        Ok(())
    }

    /// `exit_if`, saying why in the status (`Leave`); the argument of the exit's block is
    /// a check's reason bits or, for an `Inner` leave, the callee's status.
    fn exit_or_throw_if(
        &mut self,
        b: &mut FunctionBuilder,
        fail: ir::Value,
        exit: Option<ExitId>,
        why: Leave,
        arg: Option<ir::Value>,
    ) -> Result<(), String> {
        let Some(exit) = exit else { return Err("an exiting instruction without an exit".into()) };
        let out = self.exit_block(b, exit, why);
        let args: Vec<ir::BlockArg> = arg.into_iter().map(ir::BlockArg::Value).collect();
        self.branch_out(b, fail, out, &args)
    }

    /// The address of `base + offset` bytes as a load/store offset, or an error when it
    /// does not fit.
    fn offset(base: i32, extra: u64) -> Result<i32, String> {
        i64::from(base)
            .checked_add(i64::try_from(extra).map_err(|_| "an offset out of reach")?)
            .and_then(|o| i32::try_from(o).ok())
            .ok_or_else(|| "an offset out of reach".to_string())
    }

    /// The element vector of object `o` and the address of element `i` in it, after the
    /// checks that leave through `exit`: no vector, `i` out of its bounds.
    fn element_address(
        &mut self,
        b: &mut FunctionBuilder,
        o: Val,
        i: Val,
        exit: Option<ExitId>,
    ) -> Result<(ir::Value, ir::Value), String> {
        let objects = self.vm.objects;
        let (o, i) = (self.val(o)?, self.val(i)?);
        let vec = b.ins().load(types::I64, flags(), o, objects.elements);
        let none = b.ins().icmp_imm_s(CIntCC::Equal, vec, 0);
        self.exit_if(b, none, exit, Reason::NoElement)?;
        let len = b.ins().load(types::I32, flags(), vec, objects.vec_len);
        let out_of_bounds = b.ins().icmp(CIntCC::UnsignedGreaterThanOrEqual, i, len);
        self.exit_if(b, out_of_bounds, exit, Reason::NoElement)?;
        let index = b.ins().uextend(types::I64, i);
        let scaled = b.ins().ishl_imm_s(index, 3);
        Ok((vec, b.ins().iadd(vec, scaled)))
    }

    /// Leaves through `exit` when the value at `addr + offset` is a hole; gives the value.
    fn load_not_hole(
        &mut self,
        b: &mut FunctionBuilder,
        addr: ir::Value,
        exit: Option<ExitId>,
    ) -> Result<ir::Value, String> {
        let v = b.ins().load(types::I64, flags(), addr, self.vm.objects.vec_data);
        let hole = b.ins().icmp_imm_s(CIntCC::Equal, v, self.layout.empty as i64);
        self.exit_if(b, hole, exit, Reason::NoElement)?;
        Ok(v)
    }

    /// `args` stored in a new stack slot; its address (the operands a helper or a callee
    /// reads).
    fn operands(&mut self, b: &mut FunctionBuilder, args: &[Val]) -> Result<ir::Value, String> {
        let size = u32::try_from(8 * args.len().max(1)).map_err(|_| "too many operands")?;
        let slot = b.create_sized_stack_slot(ir::StackSlotData::new(ir::StackSlotKind::ExplicitSlot, size, 3));
        for (k, &a) in args.iter().enumerate() {
            let v = self.val(a)?;
            b.ins().stack_store(types::I64, v, slot, Self::offset(0, 8 * k as u64)?);
        }
        Ok(b.ins().stack_addr(types::I64, slot, 0))
    }

    /// The signature `(i64, i64, i64) -> ret` of helper entries (`ret` i32) and compiled
    /// code (i64), imported once.
    fn signature(&mut self, b: &mut FunctionBuilder, ret: ir::Type) -> ir::SigRef {
        let call_conv = self.call_conv;
        *self.sigs.entry(ret).or_insert_with(|| {
            let mut sig = Signature::new(call_conv);
            sig.params.extend([AbiParam::new(types::I64); 3]);
            sig.returns.push(AbiParam::new(ret));
            b.import_signature(sig)
        })
    }

    /// The address of slot `n` of the environment value `e`; leaves through `exit` unless
    /// `e` is an environment cell with more than `n` slots.
    fn env_slot(
        &mut self,
        b: &mut FunctionBuilder,
        e: Val,
        n: u32,
        exit: Option<ExitId>,
    ) -> Result<(ir::Value, ir::Value), String> {
        let (objects, values) = (&self.vm.objects, self.layout);
        let e = self.val(e)?;
        let tag = b.ins().ushr_imm_s(e, i64::from(values.tag_shift));
        let not_cell = b.ins().icmp_imm_s(CIntCC::NotEqual, tag, values.tag_cell as i64);
        self.exit_if(b, not_cell, exit, Reason::NotEnvironment)?;
        let cell = b.ins().band_imm_s(e, values.payload_mask as i64);
        let kind = b.ins().uload8(types::I32, flags(), cell, objects.cell_kind);
        let not_env = b.ins().icmp_imm_s(CIntCC::NotEqual, kind, i64::from(objects.env_kind));
        self.exit_if(b, not_env, exit, Reason::NotEnvironment)?;
        let size = b.ins().load(types::I32, flags(), cell, objects.env_size);
        let beyond = b.ins().icmp_imm_s(CIntCC::UnsignedLessThanOrEqual, size, i64::from(n));
        self.exit_if(b, beyond, exit, Reason::NotEnvironment)?;
        Ok((cell, b.ins().iadd_imm_s(cell, i64::from(objects.env_slots) + 8 * i64::from(n))))
    }

    /// The generational write barrier before `v` is stored into `cell` (see
    /// `ObjectLayout::cell_mark`): when `v` may be a pointer (`None`: it is one) and the
    /// cell is old and not remembered yet, helper `write_barrier` remembers the cell. A VM
    /// without that helper needs no barrier.
    fn write_barrier(&mut self, b: &mut FunctionBuilder, cell: ir::Value, v: Option<Val>) -> Result<(), String> {
        let Some(index) = self.vm.helpers.iter().position(|h| h.name == "write_barrier") else { return Ok(()) };
        if v.is_some_and(|v| self.not_pointers.contains(&v)) {
            return Ok(());
        }
        let ctx = self.ctx.ok_or("no context")?;
        let here = b.current_block().ok_or("no current block")?;
        let (check, slow, done) = (b.create_block(), b.create_block(), b.create_block());
        b.insert_block_after(check, here);
        b.insert_block_after(done, check);
        b.set_cold_block(slow);
        match v {
            Some(v) => {
                // The tags above the first non-number one are those of pointers.
                let v = self.val(v)?;
                let tag = b.ins().ushr_imm_s(v, i64::from(self.layout.tag_shift));
                let pointer = b.ins().icmp_imm_s(CIntCC::UnsignedGreaterThan, tag, self.layout.first_tag as i64);
                b.ins().brif(pointer, check, &[], done, &[]);
            }
            None => {
                b.ins().jump(check, &[]);
            }
        }
        b.switch_to_block(check);
        let mark = b.ins().uload8(types::I32, flags(), cell, self.vm.objects.cell_mark);
        let less = b.ins().iadd_imm_s(mark, -1);
        let old = b.ins().icmp_imm_s(CIntCC::UnsignedLessThan, less, 2);
        b.ins().brif(old, slow, &[], done, &[]);
        b.switch_to_block(slow);
        let operands = b.create_sized_stack_slot(ir::StackSlotData::new(ir::StackSlotKind::ExplicitSlot, 8, 3));
        let boxed = b.ins().bor_imm_s(cell, (self.layout.tag_cell << self.layout.tag_shift) as i64);
        b.ins().stack_store(types::I64, boxed, operands, 0);
        let operands = b.ins().stack_addr(types::I64, operands, 0);
        let runtime = b.ins().load(types::I64, flags(), ctx, crate::CONTEXT_RUNTIME as i32);
        let table = b.ins().load(types::I64, flags(), ctx, crate::CONTEXT_HELPERS as i32);
        let entry = b.ins().load(types::I64, flags(), table, Self::offset(0, 8 * index as u64)?);
        let result = b.ins().iadd_imm_s(ctx, crate::CONTEXT_RESULT as i64);
        let sig = self.signature(b, types::I32);
        // A pure helper that cannot fail: its status is not looked at.
        b.ins().call_indirect(sig, entry, &[runtime, operands, result]);
        b.ins().jump(done, &[]);
        b.switch_to_block(done);
        Ok(())
    }

    /// Calls helper `name` with `args`; leaves through `exit` when it throws.
    fn call_helper(
        &mut self,
        b: &mut FunctionBuilder,
        name: &str,
        args: &[Val],
        exit: Option<ExitId>,
    ) -> Result<ir::Value, String> {
        let index = self
            .vm
            .helpers
            .iter()
            .position(|h| h.name == name)
            .ok_or_else(|| format!("there is no runtime helper @{name}"))?;
        let arity = self.vm.helpers[index].arity;
        if args.len() != arity {
            return Err(format!("@{name} takes {arity} operands, {} given", args.len()));
        }
        let ctx = self.ctx.ok_or("no context")?;
        let operands = self.operands(b, args)?;
        let runtime = b.ins().load(types::I64, flags(), ctx, crate::CONTEXT_RUNTIME as i32);
        if let Some(path) = self.vm.calls.as_ref().filter(|p| p.helper == name) {
            return self.call_path(b, path, index, runtime, operands, args, exit);
        }
        let table = b.ins().load(types::I64, flags(), ctx, crate::CONTEXT_HELPERS as i32);
        let entry = b.ins().load(types::I64, flags(), table, Self::offset(0, 8 * index as u64)?);
        self.helper_entry(b, entry, runtime, operands, exit)
    }

    /// Calls a helper's `entry` with `operands`; leaves through `exit` when it throws.
    fn helper_entry(
        &mut self,
        b: &mut FunctionBuilder,
        entry: ir::Value,
        runtime: ir::Value,
        operands: ir::Value,
        exit: Option<ExitId>,
    ) -> Result<ir::Value, String> {
        let ctx = self.ctx.ok_or("no context")?;
        let result = b.ins().iadd_imm_s(ctx, crate::CONTEXT_RESULT as i64);
        let sig = self.signature(b, types::I32);
        let call = b.ins().call_indirect(sig, entry, &[runtime, operands, result]);
        let status = b.inst_results(call)[0];
        self.exit_or_throw_if(b, status, exit, Leave::Threw, None)?;
        Ok(b.ins().load(types::I64, flags(), ctx, crate::CONTEXT_RESULT as i32))
    }

    /// A call of helper `index` (with `operands`, from `args`) the VM's `CallPath` serves:
    /// a callee with compiled code it can enter as it is gets its frame pushed and its code
    /// called right here; anything else goes to the helper.
    #[allow(clippy::too_many_arguments)]
    fn call_path(
        &mut self,
        b: &mut FunctionBuilder,
        path: &crate::CallPath,
        index: usize,
        runtime: ir::Value,
        operands: ir::Value,
        args: &[Val],
        exit: Option<ExitId>,
    ) -> Result<ir::Value, String> {
        let (ctx, regs) = (self.ctx.ok_or("no context")?, self.regs.ok_or("no register window")?);
        let (slow, join) = (b.create_block(), b.create_block());
        let result = b.append_block_param(join, types::I64);
        // The call's instruction, first register and count are constants (the translator's);
        // a call that passes more arguments than are copied inline goes to the helper.
        let constant = |i: usize| args.get(i).and_then(|&v| self.constant_bits(v));
        match (constant(0), args.get(1), constant(2), constant(3)) {
            (Some(ip), Some(&callee), Some(first), Some(argc)) if (1..=MAX_INLINE_ARGS).contains(&argc) => {
                let callee = self.val(callee)?;
                self.direct_call(b, path, (ip, callee, first, argc), runtime, regs, slow, join, exit)?;
            }
            _ => {
                b.ins().jump(slow, &[]);
            }
        }
        b.switch_to_block(slow);
        let table = b.ins().load(types::I64, flags(), ctx, crate::CONTEXT_HELPERS as i32);
        let helper = b.ins().load(types::I64, flags(), table, Self::offset(0, 8 * index as u64)?);
        let value = self.helper_entry(b, helper, runtime, operands, exit)?;
        b.ins().jump(join, &[ir::BlockArg::Value(value)]);
        b.switch_to_block(join);
        Ok(result)
    }

    /// The direct way of `call_path` for the call at instruction `ip` of `callee` with the
    /// `argc` registers from `first`: checks that lead to `slow`, the frame pushed, the
    /// callee's code called, and the frame popped (or the VM told the code left), to `join`
    /// with the result.
    #[allow(clippy::too_many_arguments)]
    fn direct_call(
        &mut self,
        b: &mut FunctionBuilder,
        path: &crate::CallPath,
        (ip, callee, first, argc): (u64, ir::Value, u64, u64),
        runtime: ir::Value,
        regs: ir::Value,
        slow: ir::Block,
        join: ir::Block,
        exit: Option<ExitId>,
    ) -> Result<(), String> {
        let ctx = self.ctx.ok_or("no context")?;
        let (objects, values) = (&self.vm.objects, self.layout);
        let i64c = |n: u64| n as i64;
        // Goes on in a new block when `fail` is zero, else to the helper.
        let unless = |b: &mut FunctionBuilder, fail: ir::Value| {
            let next = b.create_block();
            b.ins().brif(fail, slow, &[], next, &[]);
            b.switch_to_block(next);
        };
        let load =
            |b: &mut FunctionBuilder, ty: ir::Type, at: ir::Value, offset: i32| b.ins().load(ty, flags(), at, offset);
        let uload32 = |b: &mut FunctionBuilder, at: ir::Value, offset: i32| b.ins().uload32(flags(), at, offset);

        // A closure whose function has code to enter, taking at most `argc` arguments.
        let tag = b.ins().ushr_imm_s(callee, i64::from(values.tag_shift));
        let not_object = b.ins().icmp_imm_s(CIntCC::NotEqual, tag, values.tag_object as i64);
        unless(b, not_object);
        let cell = b.ins().band_imm_s(callee, values.payload_mask as i64);
        let kind = b.ins().uload8(types::I32, flags(), cell, objects.cell_kind);
        let not_closure = b.ins().icmp_imm_s(CIntCC::NotEqual, kind, i64::from(objects.closure_kind));
        unless(b, not_closure);
        let info = load(b, types::I64, cell, objects.closure_func);
        let code = load(b, types::I64, info, path.direct_code);
        let no_code = b.ins().icmp_imm_s(CIntCC::Equal, code, 0);
        unless(b, no_code);
        let params = uload32(b, info, path.direct_params);
        let too_few = b.ins().icmp_imm_s(CIntCC::UnsignedGreaterThan, params, i64c(argc));
        unless(b, too_few);
        // Room on the register stack and the frame stack, the machine stack not too deep,
        // no interrupt or collection due (the helper handles those).
        let room = uload32(b, info, path.direct_room);
        let len = load(b, types::I64, runtime, path.stack_len);
        let need = b.ins().iadd(len, room);
        let need = b.ins().iadd_imm_s(need, i64c(argc));
        let limit = load(b, types::I64, runtime, path.stack_limit);
        let full = b.ins().icmp(CIntCC::UnsignedGreaterThan, need, limit);
        unless(b, full);
        let depth = load(b, types::I64, runtime, path.frames_len);
        let max_depth = load(b, types::I64, runtime, path.frames_limit);
        let deep = b.ins().icmp(CIntCC::UnsignedGreaterThanOrEqual, depth, max_depth);
        unless(b, deep);
        let sp = b.ins().get_stack_pointer(types::I64);
        let guard = load(b, types::I64, runtime, path.stack_guard);
        let low = b.ins().icmp(CIntCC::UnsignedLessThan, sp, guard);
        unless(b, low);
        let interrupt = load(b, types::I64, runtime, path.interrupt);
        let interrupted = b.ins().uload8(types::I32, flags(), interrupt, 0);
        let stress = b.ins().uload8(types::I32, flags(), runtime, path.gc_stress);
        let due = b.ins().bor(interrupted, stress);
        unless(b, due);

        // The window: the arguments from the caller's registers; the callee's code sets its
        // registers to undefined itself, before anything can see them.
        let compiled = load(b, types::I64, info, path.direct_compiled);
        let frame_size = uload32(b, info, path.direct_frame_size);
        let stack = load(b, types::I64, runtime, path.stack_ptr);
        let at = b.ins().ishl_imm_s(len, 3);
        let arguments = b.ins().iadd(stack, at);
        for i in 0..argc {
            let v = load(
                b,
                types::I64,
                regs,
                reg_offset(u32::try_from(first + i).map_err(|_| "a register out of reach")?)?,
            );
            b.ins().store(flags(), v, arguments, Self::offset(0, 8 * i)?);
        }
        let registers = b.ins().iadd_imm_s(arguments, i64c(8 * argc));
        let top = b.ins().iadd_imm_s(len, i64c(argc));
        let top = b.ins().iadd(top, frame_size);
        b.ins().store(flags(), top, runtime, path.stack_len);

        // The frame, above the caller's (the top one, which is now at its call).
        let frames = load(b, types::I64, runtime, path.frames_ptr);
        let size = i64::from(path.frame_size);
        let here = b.ins().imul_imm_s(depth, size);
        let frame = b.ins().iadd(frames, here);
        let ip = b.ins().iconst(types::I32, i64c(ip));
        b.ins().store(flags(), ip, frame, path.frame_ip - path.frame_size);
        b.ins().store(flags(), info, frame, path.frame_info);
        b.ins().store(flags(), callee, frame, path.frame_closure);
        let undefined = b.ins().iconst(types::I64, values.undefined as i64);
        b.ins().store(flags(), undefined, frame, path.frame_new_target);
        b.ins().store(flags(), undefined, frame, path.frame_generator);
        let base = b.ins().iadd_imm_s(len, i64c(argc));
        let base = b.ins().ireduce(types::I32, base);
        b.ins().store(flags(), base, frame, path.frame_base);
        let args_at = b.ins().ireduce(types::I32, len);
        b.ins().store(flags(), args_at, frame, path.frame_args);
        let count = b.ins().iconst(types::I32, i64c(argc));
        b.ins().store(flags(), count, frame, path.frame_argc);
        let zero = b.ins().iconst(types::I32, 0);
        b.ins().store(flags(), zero, frame, path.frame_ip);
        b.ins().store(flags(), zero, frame, path.frame_ret_reg);
        let entry_flags = b.ins().iconst(types::I32, i64::from(path.entry_flags));
        b.ins().istore8(flags(), entry_flags, frame, path.frame_flags);
        let realm = b.ins().load(types::I32, flags(), runtime, path.realm);
        b.ins().store(flags(), realm, frame, path.frame_saved_realm);
        let deeper = b.ins().iadd_imm_s(depth, 1);
        b.ins().store(flags(), deeper, runtime, path.frames_len);
        let callee_realm = b.ins().load(types::I32, flags(), info, path.direct_realm);
        b.ins().store(flags(), callee_realm, runtime, path.realm);

        // The call, and the frame popped when it returns.
        let sig = self.signature(b, types::I64);
        let call = b.ins().call_indirect(sig, code, &[ctx, registers, arguments]);
        let status = b.inst_results(call)[0];
        let (returned, left) = (b.create_block(), b.create_block());
        b.set_cold_block(left);
        b.ins().brif(status, left, &[], returned, &[]);
        b.switch_to_block(returned);
        let value = b.ins().load(types::I64, flags(), ctx, crate::CONTEXT_RESULT as i32);
        b.ins().store(flags(), depth, runtime, path.frames_len);
        b.ins().store(flags(), len, runtime, path.stack_len);
        b.ins().store(flags(), realm, runtime, path.realm);
        b.ins().jump(join, &[ir::BlockArg::Value(value)]);

        // It left its code: the VM finishes its frame.
        b.switch_to_block(left);
        let slot = b.create_sized_stack_slot(ir::StackSlotData::new(ir::StackSlotKind::ExplicitSlot, 16, 3));
        b.ins().stack_store(types::I64, status, slot, 0);
        b.ins().stack_store(types::I64, compiled, slot, 8);
        let left_operands = b.ins().stack_addr(types::I64, slot, 0);
        let left_entry = b.ins().iconst(types::I64, path.left as i64);
        let value = self.helper_entry(b, left_entry, runtime, left_operands, exit)?;
        b.ins().jump(join, &[ir::BlockArg::Value(value)]);
        Ok(())
    }

    /// The bits of `v` when it is a constant (an integer, or a value made from one).
    fn constant_bits(&self, v: Val) -> Option<u64> {
        let def = |v: Val| match self.f.values.get(v.0 as usize)?.def {
            ValueDef::Inst(b, i) => self.f.block(b).insts.get(i as usize).map(|inst| &inst.op),
            _ => None,
        };
        match def(v)? {
            Op::Iconst(_, n) => Some(*n as u64),
            Op::FromBits(x) => match def(*x)? {
                Op::Iconst(_, n) => Some(*n as u64),
                _ => None,
            },
            _ => None,
        }
    }

    /// Calls compiled function `name` with `args` one window up; leaves through `exit`
    /// when the callee left compiled code.
    fn call(
        &mut self,
        b: &mut FunctionBuilder,
        name: &str,
        args: &[Val],
        exit: Option<ExitId>,
    ) -> Result<ir::Value, String> {
        let index = self
            .callees
            .iter()
            .position(|c| c.name == name)
            .ok_or_else(|| format!("there is no compiled function %{name} to call"))?;
        let arity = self.callees[index].arity;
        if args.len() != arity {
            return Err(format!("%{name} takes {arity} values, {} given", args.len()));
        }
        let (ctx, regs) = (self.ctx.ok_or("no context")?, self.regs.ok_or("no register window")?);
        let operands = self.operands(b, args)?;
        let table = b.ins().load(types::I64, flags(), ctx, crate::CONTEXT_FUNCTIONS as i32);
        let entry = b.ins().load(types::I64, flags(), table, Self::offset(0, 8 * index as u64)?);
        let window = b.ins().iadd_imm_s(regs, i64::from(reg_offset(self.window)?) + 8);
        let sig = self.signature(b, types::I64);
        let call = b.ins().call_indirect(sig, entry, &[ctx, window, operands]);
        let status = b.inst_results(call)[0];
        self.exit_or_throw_if(b, status, exit, Leave::Inner, Some(status))?;
        Ok(b.ins().load(types::I64, flags(), ctx, crate::CONTEXT_RESULT as i32))
    }

    /// Stores exit `exit`'s state into the register window and returns its status, marked
    /// with why it leaves (`crate::THREW`; a check's reason bits, `arg`; `crate::INNER`
    /// and the callee's status, `arg`).
    fn leave(
        &mut self,
        b: &mut FunctionBuilder,
        exit: ExitId,
        why: Leave,
        arg: Option<ir::Value>,
    ) -> Result<(), String> {
        let state = self.f.exits.get(exit.0 as usize).ok_or_else(|| format!("{exit} is not declared"))?;
        let regs = self.regs.ok_or("no register window")?;
        for &(r, ev) in &state.regs {
            let bits = match ev {
                ExitValue::Val(v) => {
                    let x = self.val(v)?;
                    self.boxed(b, x, self.f.ty(v))
                }
                ExitValue::Const(c) => b.ins().iconst(types::I64, const_bits(self.layout, c) as i64),
            };
            let off = i32::try_from(8 * r as i64).map_err(|_| format!("r{r} is out of reach"))?;
            b.ins().store(flags(), bits, regs, off);
        }
        let bits = match why {
            Leave::Check => 0,
            Leave::Threw => crate::THREW,
            Leave::Inner => crate::INNER,
        };
        let mut status = b.ins().iconst(types::I64, ((exit.0 as u64 + 1) | bits) as i64);
        match (why, arg) {
            (Leave::Inner, Some(inner)) => {
                // The callee's status goes below its window; its THREW bit is the caller's
                // too.
                b.ins().store(flags(), inner, regs, reg_offset(self.window)?);
                let threw = b.ins().band_imm_s(inner, crate::THREW as i64);
                status = b.ins().bor(status, threw);
            }
            (Leave::Check, Some(reason)) => status = b.ins().bor(status, reason),
            _ => {}
        }
        b.ins().return_(&[status]);
        Ok(())
    }

    fn inst(&mut self, b: &mut FunctionBuilder, inst: &Inst) -> Result<(), String> {
        let f = self.f;
        let ty_of = |v: Val| f.ty(v);
        let result: Option<ir::Value> = match &inst.op {
            Op::Iconst(t, n) => Some(self.iconst(b, clif_type(*t), *n)),
            Op::Fconst(n) => Some(b.ins().f64const(ir::immediates::Ieee64::with_bits(n.get().to_bits()))),
            Op::Vconst(c) => {
                self.not_pointers.extend(inst.result);
                Some(b.ins().iconst(types::I64, const_bits(self.layout, *c) as i64))
            }
            Op::Int(op, x, y) => {
                let (x, y) = (self.val(*x)?, self.val(*y)?);
                let i = b.ins();
                Some(match op {
                    IntOp::Add => i.iadd(x, y),
                    IntOp::Sub => i.isub(x, y),
                    IntOp::Mul => i.imul(x, y),
                    IntOp::And => i.band(x, y),
                    IntOp::Or => i.bor(x, y),
                    IntOp::Xor => i.bxor(x, y),
                    IntOp::Shl => i.ishl(x, y),
                    IntOp::Sshr => i.sshr(x, y),
                    IntOp::Ushr => i.ushr(x, y),
                })
            }
            Op::Checked(op, x, y) => {
                let (x, y) = (self.val(*x)?, self.val(*y)?);
                let (r, overflow) = match op {
                    CheckedOp::Add => b.ins().sadd_overflow(x, y),
                    CheckedOp::Sub => b.ins().ssub_overflow(x, y),
                    CheckedOp::Mul => b.ins().smul_overflow(x, y),
                };
                self.exit_if(b, overflow, inst.exit, Reason::Overflow)?;
                Some(r)
            }
            Op::Icmp(cc, x, y) => {
                let (x, y) = (self.val(*x)?, self.val(*y)?);
                let c = b.ins().icmp(int_cc(*cc), x, y);
                Some(b.ins().uextend(types::I32, c))
            }
            Op::Float(op, x, y) => {
                let (x, y) = (self.val(*x)?, self.val(*y)?);
                Some(match op {
                    FloatOp::Add => b.ins().fadd(x, y),
                    FloatOp::Sub => b.ins().fsub(x, y),
                    FloatOp::Mul => b.ins().fmul(x, y),
                    FloatOp::Div => b.ins().fdiv(x, y),
                })
            }
            Op::Fneg(x) => Some(b.ins().fneg(self.val(*x)?)),
            Op::Fcmp(cc, x, y) => {
                let (x, y) = (self.val(*x)?, self.val(*y)?);
                let c = b.ins().fcmp(float_cc(*cc), x, y);
                Some(b.ins().uextend(types::I32, c))
            }
            Op::I32ToF64(x) => Some(b.ins().fcvt_from_sint(types::F64, self.val(*x)?)),
            Op::F64ToI32(x) => {
                let x = self.val(*x)?;
                Some(self.f64_to_i32(b, x, inst.exit)?)
            }
            Op::ToInt32(x) => {
                // Truncated to i64 (NaN saturates to 0), whose low half is the value modulo
                // 2^32, exact below 2^63.
                let x = self.val(*x)?;
                let wide = b.ins().fcvt_to_sint_sat(types::I64, x);
                let magnitude = b.ins().fabs(x);
                let limit = b.ins().f64const(TWO_TO_63);
                let big = b.ins().fcmp(CFloatCC::GreaterThanOrEqual, magnitude, limit);
                self.exit_if(b, big, inst.exit, Reason::OutOfRange)?;
                Some(b.ins().ireduce(types::I32, wide))
            }
            Op::Sext(x) => Some(b.ins().sextend(types::I64, self.val(*x)?)),
            // A value is an i64 in Cranelift: nothing to do.
            Op::Bits(x) | Op::FromBits(x) => Some(self.val(*x)?),
            Op::Trunc(x) => Some(b.ins().ireduce(types::I32, self.val(*x)?)),
            Op::BoxI32(x) | Op::BoxF64(x) => {
                self.not_pointers.extend(inst.result);
                let v = self.val(*x)?;
                Some(self.boxed(b, v, ty_of(*x)))
            }
            Op::BoxObject(p) => {
                let p = self.val(*p)?;
                let tag = (self.layout.tag_object << self.layout.tag_shift) as i64;
                Some(b.ins().bor_imm_s(p, tag))
            }
            Op::UnboxI32(v) => {
                // Anything but a number is a NaN as an f64, which `f64_to_i32` refuses.
                let v = self.val(*v)?;
                let d = b.ins().bitcast(types::F64, MemFlags::new(), v);
                Some(self.f64_to_i32(b, d, inst.exit)?)
            }
            Op::UnboxF64(v) => {
                let v = self.val(*v)?;
                let tag = self.tag(b, v);
                let not_number =
                    b.ins().icmp_imm_s(CIntCC::UnsignedGreaterThanOrEqual, tag, self.layout.first_tag as i64);
                self.exit_if(b, not_number, inst.exit, Reason::NotNumber)?;
                Some(b.ins().bitcast(types::F64, MemFlags::new(), v))
            }
            Op::UnboxObject(v) => {
                let v = self.val(*v)?;
                let tag = self.tag(b, v);
                let not_object = b.ins().icmp_imm_s(CIntCC::NotEqual, tag, self.layout.tag_object as i64);
                self.exit_if(b, not_object, inst.exit, Reason::NotObject)?;
                Some(b.ins().band_imm_s(v, self.layout.payload_mask as i64))
            }
            Op::TagIs(t, v) => {
                let v = self.val(*v)?;
                let l = self.layout;
                let c = match t {
                    Tag::Number => {
                        let tag = self.tag(b, v);
                        b.ins().icmp_imm_s(CIntCC::UnsignedLessThan, tag, l.first_tag as i64)
                    }
                    Tag::Object | Tag::String | Tag::Symbol | Tag::BigInt => {
                        let want = match t {
                            Tag::Object => l.tag_object,
                            Tag::String => l.tag_string,
                            Tag::Symbol => l.tag_symbol,
                            _ => l.tag_bigint,
                        };
                        let tag = self.tag(b, v);
                        b.ins().icmp_imm_s(CIntCC::Equal, tag, want as i64)
                    }
                    Tag::Undefined => b.ins().icmp_imm_s(CIntCC::Equal, v, l.undefined as i64),
                    Tag::Null => b.ins().icmp_imm_s(CIntCC::Equal, v, l.null as i64),
                    Tag::Boolean => {
                        let t = b.ins().icmp_imm_s(CIntCC::Equal, v, l.true_ as i64);
                        let f = b.ins().icmp_imm_s(CIntCC::Equal, v, l.false_ as i64);
                        b.ins().bor(t, f)
                    }
                };
                Some(b.ins().uextend(types::I32, c))
            }
            Op::Check(c, why) => {
                let c = self.val(*c)?;
                self.exit_if(b, c, inst.exit, *why)?;
                None
            }
            Op::LoadReg(n) => {
                let regs = self.regs.ok_or("no register window")?;
                Some(b.ins().load(types::I64, flags(), regs, reg_offset(*n)?))
            }
            Op::StoreReg(n, v) => {
                let regs = self.regs.ok_or("no register window")?;
                let v = self.val(*v)?;
                b.ins().store(flags(), v, regs, reg_offset(*n)?);
                None
            }
            Op::Load(t, p, off) => Some(b.ins().load(clif_type(*t), flags(), self.val(*p)?, *off)),
            Op::Store(p, off, v) => {
                let (p, v) = (self.val(*p)?, self.val(*v)?);
                b.ins().store(flags(), v, p, *off);
                None
            }
            Op::Jump(target, args) => {
                let args = self.block_args(args)?;
                b.ins().jump(self.blocks[target], &args);
                None
            }
            Op::Brif(c, t, ta, e, ea) => {
                let c = self.val(*c)?;
                let (ta, ea) = (self.block_args(ta)?, self.block_args(ea)?);
                b.ins().brif(c, self.blocks[t], &ta, self.blocks[e], &ea);
                None
            }
            Op::Return(v) => {
                let ctx = self.ctx.ok_or("no context")?;
                let x = self.val(*v)?;
                let bits = match ty_of(*v) {
                    Type::I32 => b.ins().uextend(types::I64, x),
                    Type::F64 => b.ins().bitcast(types::I64, MemFlags::new(), x),
                    _ => x,
                };
                b.ins().store(flags(), bits, ctx, crate::CONTEXT_RESULT as i32);
                let ok = b.ins().iconst(types::I64, 0);
                b.ins().return_(&[ok]);
                None
            }
            Op::Deopt(why) => {
                let exit = inst.exit.ok_or("deopt without an exit")?;
                let bits = b.ins().iconst(types::I64, why.status_bits() as i64);
                self.leave(b, exit, Leave::Check, Some(bits))?;
                None
            }
            Op::LoadShape(o) => Some(b.ins().load(types::I64, flags(), self.val(*o)?, self.vm.objects.shape)),
            Op::StoreShape(o, s) => {
                let (o, s) = (self.val(*o)?, self.val(*s)?);
                self.write_barrier(b, o, None)?;
                b.ins().store(flags(), s, o, self.vm.objects.shape);
                None
            }
            Op::GuardShape(o, s) => {
                let (o, s) = (self.val(*o)?, self.val(*s)?);
                let shape = b.ins().load(types::I64, flags(), o, self.vm.objects.shape);
                let other = b.ins().icmp(CIntCC::NotEqual, shape, s);
                self.exit_if(b, other, inst.exit, Reason::Shape)?;
                None
            }
            Op::LoadSlot(o, n) => Some(b.ins().load(types::I64, flags(), self.val(*o)?, Self::offset(0, *n as u64)?)),
            Op::StoreSlot(o, n, v) => {
                let o = self.val(*o)?;
                self.write_barrier(b, o, Some(*v))?;
                let v = self.val(*v)?;
                b.ins().store(flags(), v, o, Self::offset(0, *n as u64)?);
                None
            }
            Op::LoadOolSlot(o, n) | Op::StoreOolSlot(o, n, _) => {
                let o = self.val(*o)?;
                let slots = b.ins().load(types::I64, flags(), o, self.vm.objects.slots);
                let at = Self::offset(self.vm.objects.vec_data, 8 * *n as u64)?;
                match inst.op {
                    Op::StoreOolSlot(_, _, v) => {
                        self.write_barrier(b, slots, Some(v))?;
                        let v = self.val(v)?;
                        b.ins().store(flags(), v, slots, at);
                        None
                    }
                    _ => Some(b.ins().load(types::I64, flags(), slots, at)),
                }
            }
            Op::LoadEnv(e, n) | Op::StoreEnv(e, n, _) => {
                let (env, at) = self.env_slot(b, *e, *n, inst.exit)?;
                match inst.op {
                    Op::StoreEnv(_, _, v) => {
                        self.write_barrier(b, env, Some(v))?;
                        let v = self.val(v)?;
                        b.ins().store(flags(), v, at, 0);
                        None
                    }
                    _ => Some(b.ins().load(types::I64, flags(), at, 0)),
                }
            }
            Op::ArrayLength(o) => {
                let o = self.val(*o)?;
                let len = b.ins().load(types::I32, flags(), o, self.vm.objects.array_length);
                let beyond = b.ins().icmp_imm_s(CIntCC::SignedLessThan, len, 0);
                self.exit_if(b, beyond, inst.exit, Reason::OutOfRange)?;
                Some(len)
            }
            Op::LoadElem(o, i) => {
                let (_, addr) = self.element_address(b, *o, *i, inst.exit)?;
                Some(self.load_not_hole(b, addr, inst.exit)?)
            }
            Op::HasElem(o, i) => {
                // A vector, `i` below its length, and no hole there.
                let objects = self.vm.objects;
                let (o, i) = (self.val(*o)?, self.val(*i)?);
                let (vector, check, done) = (b.create_block(), b.create_block(), b.create_block());
                let has = b.append_block_param(done, types::I32);
                let no = b.ins().iconst(types::I32, 0);
                let vec = b.ins().load(types::I64, flags(), o, objects.elements);
                b.ins().brif(vec, vector, &[], done, &[ir::BlockArg::Value(no)]);
                b.switch_to_block(vector);
                let len = b.ins().load(types::I32, flags(), vec, objects.vec_len);
                let inside = b.ins().icmp(CIntCC::UnsignedLessThan, i, len);
                b.ins().brif(inside, check, &[], done, &[ir::BlockArg::Value(no)]);
                b.switch_to_block(check);
                let index = b.ins().uextend(types::I64, i);
                let scaled = b.ins().ishl_imm_s(index, 3);
                let addr = b.ins().iadd(vec, scaled);
                let v = b.ins().load(types::I64, flags(), addr, objects.vec_data);
                let there = b.ins().icmp_imm_s(CIntCC::NotEqual, v, self.layout.empty as i64);
                let there = b.ins().uextend(types::I32, there);
                b.ins().jump(done, &[ir::BlockArg::Value(there)]);
                b.switch_to_block(done);
                Some(has)
            }
            Op::InitElem(o, i, v) => {
                let (vec, addr) = self.element_address(b, *o, *i, inst.exit)?;
                self.write_barrier(b, vec, Some(*v))?;
                let v = self.val(*v)?;
                b.ins().store(flags(), v, addr, self.vm.objects.vec_data);
                None
            }
            Op::StoreElem(o, i, v) => {
                let (vec, addr) = self.element_address(b, *o, *i, inst.exit)?;
                self.load_not_hole(b, addr, inst.exit)?;
                self.write_barrier(b, vec, Some(*v))?;
                let v = self.val(*v)?;
                b.ins().store(flags(), v, addr, self.vm.objects.vec_data);
                None
            }
            Op::CallHelper(name, args) => Some(self.call_helper(b, name, args, inst.exit)?),
            Op::Call(name, args) => Some(self.call(b, name, args, inst.exit)?),
        };
        if let (Some(r), Some(v)) = (inst.result, result) {
            self.vals.insert(r, v);
        }
        Ok(())
    }

    fn block_args(&self, args: &[Val]) -> Result<Vec<ir::BlockArg>, String> {
        args.iter().map(|&a| self.val(a).map(ir::BlockArg::from)).collect()
    }

    /// An f64 that must be an int32 exactly (not fractional, in range, not -0); exits
    /// otherwise.
    fn f64_to_i32(&mut self, b: &mut FunctionBuilder, x: ir::Value, exit: Option<ExitId>) -> Result<ir::Value, String> {
        // Exact when converting back gives the same bits: that refuses fractions, values
        // out of range (saturated, or on x86-64 the "integer indefinite" 0x80000000), NaN
        // (0 or 0x80000000) and -0 (+0).
        let i = match self.target {
            // AArch64's fcvtzs saturates by itself; x86-64's saturating sequence tests and
            // branches around cvttsd2si, where the round trip needs none: cvttpd2dq (what
            // Cranelift makes of a truncating f64x2 -> i32x4 narrowing) converts with no
            // check, and lane 0 is this one.
            Target::Aarch64 => b.ins().fcvt_to_sint_sat(types::I32, x),
            Target::X86_64 => {
                let v = b.ins().scalar_to_vector(types::F64X2, x);
                let t = b.ins().x86_cvtt2dq(types::I64X2, v);
                let zero = b.func.dfg.constants.insert(vec![0u8; 16].into());
                let z = b.ins().vconst(types::I64X2, zero);
                let n = b.ins().snarrow(t, z);
                b.ins().extractlane(n, 0)
            }
        };
        let back = b.ins().fcvt_from_sint(types::F64, i);
        let back = b.ins().bitcast(types::I64, MemFlags::new(), back);
        let bits = b.ins().bitcast(types::I64, MemFlags::new(), x);
        let fail = b.ins().icmp(CIntCC::NotEqual, back, bits);
        self.exit_if(b, fail, exit, Reason::NotInt32)?;
        Ok(i)
    }
}

/// The most arguments (`this` included) a direct call copies inline.
const MAX_INLINE_ARGS: u64 = 16;

fn reg_offset(n: u32) -> Result<i32, String> {
    i32::try_from(8 * n as i64).map_err(|_| format!("register r{n} is out of reach"))
}

fn int_cc(cc: IntCC) -> CIntCC {
    match cc {
        IntCC::Eq => CIntCC::Equal,
        IntCC::Ne => CIntCC::NotEqual,
        IntCC::Slt => CIntCC::SignedLessThan,
        IntCC::Sle => CIntCC::SignedLessThanOrEqual,
        IntCC::Sgt => CIntCC::SignedGreaterThan,
        IntCC::Sge => CIntCC::SignedGreaterThanOrEqual,
        IntCC::Ult => CIntCC::UnsignedLessThan,
        IntCC::Ule => CIntCC::UnsignedLessThanOrEqual,
        IntCC::Ugt => CIntCC::UnsignedGreaterThan,
        IntCC::Uge => CIntCC::UnsignedGreaterThanOrEqual,
    }
}

fn float_cc(cc: FloatCC) -> CFloatCC {
    match cc {
        FloatCC::Eq => CFloatCC::Equal,
        FloatCC::Ne => CFloatCC::NotEqual,
        FloatCC::Lt => CFloatCC::LessThan,
        FloatCC::Le => CFloatCC::LessThanOrEqual,
        FloatCC::Gt => CFloatCC::GreaterThan,
        FloatCC::Ge => CFloatCC::GreaterThanOrEqual,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code_memory::CodeMemory;
    use crate::mir::parse::parse_function;

    /// Objects of the tests: [shape, slots, elements, length] in 8-byte words; value
    /// vectors: [len, data...].
    fn vm() -> Interface {
        crate::test_interface(&[("add", 2), ("fail", 0)])
    }

    const ADD_OVF: &str = "\
function %f(i32, i32) -> i32 {
    e0 = exit @5 [r0: v0, r1: v1]
block0(v0: i32, v1: i32):
    v2 = iadd_ovf v0, v1, e0
    return v2
}
";

    #[test]
    fn both_targets_compile_without_relocations() {
        let f = parse_function(ADD_OVF).unwrap();
        for t in [Target::X86_64, Target::Aarch64] {
            let c = compile(&f, t, &vm(), &[]).unwrap_or_else(|e| panic!("{}: {e}", t.name()));
            assert!(!c.code.is_empty());
            let clif = clif(&f, t, &vm(), &[]).unwrap();
            assert!(clif.contains("sadd_overflow"), "{clif}");
        }
    }

    #[test]
    fn compiled_code_returns_or_exits_with_its_state() {
        let Some(host) = Target::host() else { return };
        let f = parse_function(ADD_OVF).unwrap();
        let code = CodeMemory::new(&compile(&f, host, &vm(), &[]).unwrap().code).unwrap();
        let call = |a: i32, b: i32| {
            let mut ctx = crate::Context::default();
            let mut regs = [vm().values.undefined; 4];
            let args = [a as u32 as u64, b as u32 as u64];
            // SAFETY: compiled for this machine from verified MIR that touches only the
            // context, registers r0 and r1 and two argument slots, all valid here.
            let status = unsafe { (code.entry())(&mut ctx, regs.as_mut_ptr(), args.as_ptr()) };
            (status, ctx.result as u32 as i32, f64::from_bits(regs[0]), f64::from_bits(regs[1]))
        };
        let (status, result, ..) = call(2, 3);
        assert_eq!((status, result), (0, 5));
        let (status, _, r0, r1) = call(i32::MAX, 1);
        assert_eq!((status & 0xffff_ffff, r0, r1), (1, i32::MAX as f64, 1.0));
        assert_eq!(Reason::of_status(status), Reason::Overflow, "the status says why");
    }

    /// Runs `f` (compiled for this machine) with `args` and a context whose helpers are
    /// `add` (numbers) and `fail` (always throws); the status and the result.
    fn run(f: &Function, args: &[u64]) -> (u64, u64) {
        unsafe extern "C" fn add(_: *mut std::ffi::c_void, ops: *const u64, out: *mut u64) -> u32 {
            // SAFETY: the code passes two operands and the context's result word.
            unsafe { *out = (f64::from_bits(*ops) + f64::from_bits(*ops.add(1))).to_bits() };
            0
        }
        unsafe extern "C" fn fail(_: *mut std::ffi::c_void, _: *const u64, _: *mut u64) -> u32 {
            1
        }
        static HELPERS: [crate::HelperEntry; 2] = [add, fail];
        let code = CodeMemory::new(&compile(f, Target::host().unwrap(), &vm(), &[]).unwrap().code).unwrap();
        let mut ctx = crate::Context::new(std::ptr::null_mut(), &HELPERS);
        let mut regs = [vm().values.undefined; 4];
        // SAFETY: compiled for this machine from verified MIR that reads only the objects the
        // tests lay out in `args` and registers r0..r3.
        let status = unsafe { (code.entry())(&mut ctx, regs.as_mut_ptr(), args.as_ptr()) };
        (status, ctx.result)
    }

    #[test]
    fn helpers_are_called_through_the_context() {
        if Target::host().is_none() {
            return;
        }
        let f = parse_function(
            "function %f(value, value) -> value {\n    e0 = exit @1 [r0: v0]\n    e1 = exit @2 []\nblock0(v0: value, v1: value):\n    v2 = call_helper @add(v0, v1), e0\n    v3 = call_helper @add(v2, v2), e0\n    brif v3, block1, block2\nblock1:\n    return v3\nblock2:\n    v4 = call_helper @fail(), e1\n    return v4\n}\n",
        )
        .unwrap();
        assert_eq!(run(&f, &[1.5f64.to_bits(), 2.0f64.to_bits()]), (0, 7.0f64.to_bits()));
        assert_eq!(run(&f, &[0f64.to_bits(), 0f64.to_bits()]).0, 2 | crate::THREW, "@fail throws: exit e1");
        let wrong = parse_function(
            "function %f(value) -> value {\n    e0 = exit @1 []\nblock0(v0: value):\n    v1 = call_helper @add(v0), e0\n    return v1\n}\n",
        )
        .unwrap();
        let e = compile(&wrong, Target::X86_64, &vm(), &[]).err().unwrap();
        assert!(e.contains("@add takes 2 operands, 1 given"), "{e}");
    }

    #[test]
    fn object_slots_and_elements_are_read_where_the_layout_says() {
        if Target::host().is_none() {
            return;
        }
        let f = parse_function(
            "function %f(ptr, ptr, i32) -> value {\n    e0 = exit @4 [r0: v2]\nblock0(v0: ptr, v1: ptr, v2: i32):\n    guard_shape v0, v1, e0\n    v3 = load_elem v0, v2, e0\n    v4 = load_ool_slot v0, 1\n    store_elem v0, v2, v4, e0\n    v5 = array_length v0, e0\n    v6 = box_i32 v5\n    store_slot v0, 32, v6\n    return v3\n}\n",
        )
        .unwrap();
        let shape = [0u64; 1];
        let slots = [1u64, 10f64.to_bits(), 11f64.to_bits()];
        let elements = [2u64, 20f64.to_bits(), vm().values.empty];
        let object = |length: u64| {
            [shape.as_ptr() as u64, slots.as_ptr() as u64, elements.as_ptr() as u64, length, vm().values.undefined]
        };
        let mut o = object(2);
        let (status, result) = run(&f, &[o.as_mut_ptr() as u64, shape.as_ptr() as u64, 0]);
        assert_eq!((status, f64::from_bits(result)), (0, 20.0));
        assert_eq!(o[4], 2f64.to_bits(), "the slot at byte 32 holds the boxed length");
        // SAFETY: `elements` was written by the code through a pointer derived from it.
        assert_eq!(unsafe { std::ptr::read_volatile(&elements[1]) }, 11f64.to_bits(), "element 0 overwritten");
        // Exit e0, and why.
        let exit = |args: &[u64]| {
            let status = run(&f, args).0;
            (status & 0xffff_ffff, Reason::of_status(status))
        };
        let other_shape = [0u64; 1];
        let (at, no) = (shape.as_ptr() as u64, Reason::NoElement);
        assert_eq!(exit(&[o.as_mut_ptr() as u64, other_shape.as_ptr() as u64, 0]), (1, Reason::Shape), "shape guard");
        assert_eq!(exit(&[o.as_mut_ptr() as u64, at, 1]), (1, no), "a hole");
        assert_eq!(exit(&[o.as_mut_ptr() as u64, at, 2]), (1, no), "out of bounds");
        assert_eq!(exit(&[o.as_mut_ptr() as u64, at, -1i32 as u32 as u64]), (1, no), "negative");
        let mut long = object(1 << 31);
        assert_eq!(exit(&[long.as_mut_ptr() as u64, at, 0]), (1, Reason::OutOfRange), "length beyond int32");
    }

    #[test]
    fn calls_of_unknown_functions_are_errors() {
        let f = parse_function(
            "function %f(value) -> value {\n    e0 = exit @0 []\nblock0(v0: value):\n    v1 = call %g(v0), e0\n    return v1\n}\n",
        )
        .unwrap();
        let e = compile(&f, Target::X86_64, &vm(), &[]).err().expect("no callee");
        assert!(e.contains("there is no compiled function %g to call"), "{e}");
    }
}
