//! The interpreter: one loop over decoded instructions, in two versions (`run_loop`): one
//! for functions that record feedback for the JIT (warm ones, see `code::feedback`) and one
//! that records nothing; calls, returns and back-edges switch between them.
//!
//! ```text
//!  run(rt) ──▶ dispatch loop over frames[fi]'s Inst array
//!     call/construct of a closure ─▶ push Frame, continue in the same loop (no Rust recursion)
//!     ret ─▶ pop Frame, resume the caller; an ENTRY frame returns from `run`
//!     native function ─▶ Rust call; a native calling back into JS re-enters `run` (bounded)
//!     exception ─▶ unwind: handler table of each frame, innermost first
//! ```
//!
//! Safepoints (where the collector may run, see `gc`): before allocating instructions, at
//! calls and returns... precisely: at function entry, at backward jumps, and before every
//! instruction that allocates. All live values are in registers there.

pub mod ops;
pub(crate) mod step;

use std::sync::atomic::Ordering;

use bytecode::{FunctionFlags, Inst};

use crate::code::feedback::{self, Feedback};
use crate::code::ic;
use crate::code::{info_ref, FunctionInfo};
use crate::gc::{CellKind, Gc};
use crate::object::{Environment, JsObject, Key, PropKey, EXTENSIBLE, IS_PROTOTYPE};
use crate::runtime::frame::{Frame, CONSTRUCT, ENTRY, GENERATOR};
use crate::runtime::function::{BoundFunction, Closure, NativeFunction};
use crate::runtime::{ErrorKind, Exception, ExceptionKind, JsResult, Runtime};
use crate::value::Value;

/// The result of starting a call from the interpreter loop.
pub(crate) enum CallStart {
    /// A frame was pushed; continue in it.
    Pushed,
    /// The call completed (native or bound-to-native) with this value.
    Done(Value),
}

/// What call feedback records for a call of `f`: the address of a closure's function
/// info, or `feedback::MANY` for anything else (its call goes through the runtime).
fn call_target(rt: &Runtime, f: Value) -> usize {
    if f.is_object() {
        let fo: Gc<JsObject> = f.gc();
        if rt.heap.kind_of(fo) == CellKind::Closure {
            return rt.heap.get(fo.cast::<Closure>()).func.addr();
        }
    }
    feedback::MANY
}

/// Pushes a frame for `info` whose arguments (`this` first) are the `argc` values at the
/// top of the stack starting at `args`.
#[inline]
#[allow(clippy::too_many_arguments)] // the frame's fields, read straight from the caller's registers
pub(crate) fn push_frame(
    rt: &mut Runtime,
    info: &FunctionInfo,
    closure: Value,
    args: usize,
    argc: usize,
    new_target: Value,
    ret_reg: u32,
    flags: u8,
) -> JsResult<()> {
    let info = if info.flags().contains(FunctionFlags::LAZY) {
        // SAFETY: a function of this runtime's bundles, used while the runtime lives.
        unsafe { info_ref(compile_callee(rt, info, closure, new_target, args)?) }
    } else {
        info
    };
    let base = args + argc;
    let top = base + info.header.frame_size as usize;
    if rt.calls.frames.len() >= rt.host.options.max_stack_depth || top > rt.calls.stack_limit {
        rt.calls.stack.truncate(args);
        return Err(rt.throw_range_error("Maximum call stack size exceeded"));
    }
    rt.calls.stack.resize(top, Value::UNDEFINED);
    info.warm.count_entry(rt.host.options.profile_after);
    rt.note_entry(info);
    let realm = info.realm();
    rt.calls.frames.push(Frame {
        info: crate::code::FuncRef::new(info),
        closure,
        new_target,
        generator: Value::UNDEFINED,
        base: base as u32,
        args: args as u32,
        argc: argc as u32,
        ip: 0,
        ret_reg,
        flags,
        saved_realm: rt.realm,
    });
    rt.realm = realm;
    Ok(())
}

/// The function a call of `closure`, whose function `info` is `LAZY`, runs: compiled now
/// (or before), and made the closure's function. On a compile error, the call's arguments
/// (from stack index `args`) are dropped.
#[cold]
#[inline(never)]
fn compile_callee(
    rt: &mut Runtime,
    info: &FunctionInfo,
    closure: Value,
    new_target: Value,
    args: usize,
) -> JsResult<crate::code::FuncRef> {
    let mark = rt.handle_mark();
    rt.roots.handles.extend_from_slice(&[closure, new_target]);
    let compiled = rt.compile_lazy(crate::code::FuncRef::new(info));
    rt.release_handles(mark);
    let Ok(f) = compiled else {
        rt.calls.stack.truncate(args);
        return compiled;
    };
    if closure.is_object() && rt.heap.kind_of(closure.gc::<JsObject>()) == CellKind::Closure {
        rt.heap.get_mut(closure.gc::<JsObject>().cast::<Closure>()).func = f;
    }
    Ok(f)
}

impl Runtime {
    /// Checks that `n` more values fit on the register stack (which must never reallocate:
    /// frames hold pointers into it).
    #[inline]
    pub(crate) fn ensure_stack(&mut self, n: usize) -> JsResult<()> {
        if self.calls.stack.len() + n > self.calls.stack_limit {
            return Err(self.throw_range_error("Maximum call stack size exceeded"));
        }
        Ok(())
    }

    /// `Call(F, thisArgument, argumentsList)`.
    pub(crate) fn call(&mut self, f: Value, this: Value, args: &[Value]) -> JsResult<Value> {
        self.enter_native()?;
        let r = self.invoke(f, this, args, Value::UNDEFINED, false);
        self.leave_native();
        r
    }

    /// `Construct(F, argumentsList, newTarget)`.
    pub(crate) fn construct(&mut self, f: Value, args: &[Value], new_target: Value) -> JsResult<Value> {
        self.enter_native()?;
        let r = self.invoke(f, Value::UNDEFINED, args, new_target, true);
        self.leave_native();
        r
    }

    fn invoke(&mut self, f: Value, this: Value, args: &[Value], new_target: Value, construct: bool) -> JsResult<Value> {
        if !f.is_object() {
            return Err(self.not_a_function(f, construct));
        }
        let obj: Gc<JsObject> = f.gc();
        match self.heap.object_kind(obj) {
            CellKind::Closure => {
                // SAFETY: a function of this runtime's bundles, used while the runtime lives.
                let info = unsafe { info_ref(self.heap.get(obj.cast::<Closure>()).func) };
                let flags = info.flags();
                let mut this = this;
                if construct {
                    if !flags.contains(FunctionFlags::CONSTRUCTOR) {
                        return Err(self.not_a_function(f, true));
                    }
                    this = if flags.contains(FunctionFlags::DERIVED) {
                        Value::EMPTY
                    } else {
                        let proto =
                            self.prototype_from_constructor(new_target, crate::runtime::Intrinsic::ObjectPrototype)?;
                        let cap = info.ctor_slots.get();
                        let o = self.new_object_of_kind(proto, CellKind::Object, cap);
                        Value::object(o)
                    };
                } else if flags.contains(FunctionFlags::CLASS_CONSTRUCTOR) {
                    return Err(self.throw_type_error("Class constructor cannot be invoked without 'new'"));
                }
                self.ensure_stack(args.len() + 1)?;
                let at = self.calls.stack.len();
                self.calls.stack.push(this);
                self.calls.stack.extend_from_slice(args);
                let fl = ENTRY | if construct { CONSTRUCT } else { 0 };
                push_frame(self, info, f, at, args.len() + 1, new_target, 0, fl)?;
                // A callee with code runs it right away, without a turn of the interpreter.
                #[cfg(feature = "jit")]
                {
                    let top = self.calls.frames.len() - 1;
                    if let Some(outcome) = crate::jit::run_compiled(self, top, 0) {
                        return crate::jit::finish(self, top, Ok(outcome));
                    }
                }
                run(self)
            }
            CellKind::NativeFunction => {
                let nf = obj.cast::<NativeFunction>();
                if construct && !self.heap.get(nf).constructor {
                    return Err(self.not_a_function(f, true));
                }
                // A native that calls natives in a loop (`forEach(JSON.stringify)`, an
                // iterator's `next` in a constructor) reaches a safepoint here, as calling a
                // closure would at its entry; its caller holds nothing unrooted across a call.
                if self.safepoint_due() {
                    let mark = self.handle_mark();
                    self.roots.handles.extend_from_slice(&[f, this, new_target]);
                    self.roots.handles.extend_from_slice(args);
                    let r = self.safepoint_slow();
                    self.release_handles(mark);
                    r?;
                }
                self.call_native(nf, this, args, new_target)
            }
            CellKind::BoundFunction => {
                let b = self.heap.get(obj.cast::<BoundFunction>());
                let (target, bthis, bargs) = (b.target, b.this, b.args);
                let mut all: Vec<Value> = match bargs.is_cell() {
                    true => self.heap.vec_values(bargs.gc()).to_vec(),
                    false => Vec::new(),
                };
                all.extend_from_slice(args);
                if construct {
                    let nt = if new_target == f { target } else { new_target };
                    self.invoke(target, Value::UNDEFINED, &all, nt, true)
                } else {
                    self.invoke(target, bthis, &all, Value::UNDEFINED, false)
                }
            }
            CellKind::Proxy => {
                if construct {
                    if !self.is_constructor(f) {
                        return Err(self.not_a_function(f, true));
                    }
                    self.proxy_construct(obj, args, new_target)
                } else {
                    if !self.is_callable(f) {
                        return Err(self.not_a_function(f, false));
                    }
                    self.proxy_call(obj, this, args)
                }
            }
            _ => Err(self.not_a_function(f, construct)),
        }
    }

    /// Calls a native function with the calling convention of natives.
    #[inline]
    pub(crate) fn call_native(
        &mut self,
        nf: Gc<NativeFunction>,
        this: Value,
        args: &[Value],
        new_target: Value,
    ) -> JsResult<Value> {
        let n = self.heap.get(nf);
        let (func, realm) = (n.func, n.realm);
        let saved = (self.calls.native_callee, self.calls.native_new_target, self.realm);
        self.calls.native_callee = Value::object(nf);
        self.calls.native_new_target = new_target;
        self.realm = realm;
        let mark = self.roots.handles.len();
        let r = func(self, this, args);
        self.roots.handles.truncate(mark);
        self.calls.native_callee = saved.0;
        self.calls.native_new_target = saved.1;
        self.realm = saved.2;
        r
    }

    /// The TypeError for calling or constructing a non-function.
    #[cold]
    pub(crate) fn not_a_function(&mut self, f: Value, construct: bool) -> Exception {
        let what = self.short_description(f);
        if construct {
            self.throw_type_error(&format!("{what} is not a constructor"))
        } else {
            self.throw_type_error(&format!("{what} is not a function"))
        }
    }
}

/// Unwinds to the innermost handler covering the current instruction of frame `fi`, or
/// out of the entry frame. Returns the frame index to continue in, with its `ip` set to
/// the handler.
pub(crate) fn unwind(rt: &mut Runtime, mut fi: usize) -> Option<usize> {
    let catchable = rt.exception_kind == ExceptionKind::Normal;
    loop {
        let frame = rt.calls.frames[fi];
        // SAFETY: a function of this runtime's bundles, used while the runtime lives.
        let info = unsafe { info_ref(frame.info) };
        if catchable {
            let ip = frame.ip;
            for &(s, e, t) in info.code().handlers.iter() {
                if s <= ip && ip < e {
                    rt.calls.stack.truncate(frame.base as usize + info.header.frame_size as usize);
                    rt.calls.frames[fi].ip = t;
                    return Some(fi);
                }
            }
        }
        if frame.flags & GENERATOR != 0 {
            ops::generator::finish_abruptly(rt, frame.generator);
        }
        rt.calls.frames.pop();
        rt.calls.stack.truncate(frame.args as usize);
        rt.realm = frame.saved_realm;
        if frame.flags & ENTRY != 0 {
            return None;
        }
        fi -= 1;
    }
}

/// The value a constructor or generator frame returns for `return v` (out of line: the
/// common return needs neither).
#[cold]
#[inline(never)]
fn special_return(rt: &mut Runtime, fi: usize, mut v: Value) -> JsResult<Value> {
    let f = rt.calls.frames[fi];
    if f.flags & CONSTRUCT != 0 {
        let this = rt.calls.stack[f.args as usize];
        if !v.is_object() {
            v = this;
        }
        if this.is_object() {
            // SAFETY: a function of this runtime's bundles, used while the runtime lives.
            ops::call::learn_ctor_slots(rt, unsafe { info_ref(f.info) }, this);
        }
    }
    if f.flags & GENERATOR != 0 {
        v = ops::generator::on_return(rt, fi, v)?;
    }
    Ok(v)
}

/// Returns `v` from frame `fi` (the top one): the value its caller receives (for a
/// constructor or generator frame, what `return v` makes of it), with the frame popped.
#[cfg(feature = "jit")]
pub(crate) fn pop_frame(rt: &mut Runtime, fi: usize, v: Value) -> JsResult<Value> {
    let f = rt.calls.frames[fi];
    let v = if f.flags & (CONSTRUCT | GENERATOR) != 0 { special_return(rt, fi, v)? } else { v };
    rt.calls.frames.pop();
    rt.calls.stack.truncate(f.args as usize);
    rt.realm = f.saved_realm;
    Ok(v)
}

/// Runs the interpreter until the ENTRY frame on top of the frame stack returns.
pub(crate) fn run(rt: &mut Runtime) -> JsResult<Value> {
    let mut profile = running_profiled(rt);
    loop {
        let step = if profile { run_loop::<true>(rt) } else { run_loop::<false>(rt) };
        match step {
            Step::Done(r) => return r,
            Step::Switch => profile = !profile,
        }
    }
}

/// How a run of the interpreter loop ended.
enum Step {
    /// The entry frame returned or threw.
    Done(JsResult<Value>),
    /// The running frame's function records feedback and the loop does not, or the other
    /// way round: go on in the other loop.
    Switch,
}

/// Whether the running frame's function records feedback.
fn running_profiled(rt: &Runtime) -> bool {
    let f = rt.calls.frames[rt.calls.frames.len() - 1];
    // SAFETY: a function of this runtime's bundles, used while the runtime lives.
    unsafe { info_ref(f.info) }.warm.profiling.get()
}

/// The interpreter loop, in two versions: one that records feedback for the JIT
/// (`PROFILE`) for functions that have become warm, and one that only counts calls and
/// loop back-edges (which is how a function becomes warm). A call, return or back-edge into
/// a function of the other kind switches loops (`Step::Switch`).
fn run_loop<const PROFILE: bool>(rt: &mut Runtime) -> Step {
    let mut fi = rt.calls.frames.len() - 1;
    // Instructions hold no handles between them: a native call releases its own when it
    // returns, and what an instruction's slow path roots outside one it must release (an
    // exception a handler here catches releases them: see the end).
    let handles = rt.roots.handles.len();
    #[cfg(debug_assertions)]
    let mut previous = None;
    'reload: loop {
        // The state the loop keeps in locals is kept small (the instruction pointer, the
        // start of the code and the registers): everything else about the running frame is read
        // from `info` or the frame record where an instruction needs it, which leaves the
        // compiler registers for the hot locals instead of spilling them around every dispatch.
        let frame = rt.calls.frames[fi];
        // SAFETY: a function of this runtime's bundles, used while the runtime lives.
        let mut info: &FunctionInfo = unsafe { info_ref(frame.info) };
        // The running instruction is `pc`, a pointer into the code (starting at `code`), not
        // an index: the fetch is one load from it, advancing is one add, and the compiler
        // keeps it in a register (as an index it lived in a stack slot: navier-stokes 1.10x
        // and crypto 1.04x faster as a pointer).
        let mut code: *const Inst = info.code().insts.as_ptr();
        let mut fb: &Feedback = &info.code().feedback;
        // SAFETY (of every `pc` made here and by `set_ip!`/`advance!`): an index the frame
        // saved or a jump computed is an instruction of the code (the invariant on
        // `code::Code`), so the pointer stays inside the code's allocation.
        let mut pc: *const Inst = unsafe { code.add(frame.ip as usize) };
        // The index of the running instruction.
        macro_rules! ip {
            () => {
                // SAFETY: `pc` and `code` point into the same code (see above).
                (unsafe { pc.offset_from(code) } as usize)
            };
        }
        // Makes instruction `$i` the running one.
        macro_rules! set_ip {
            ($i:expr) => {
                // SAFETY: as for `pc` above.
                pc = unsafe { code.add($i as usize) }
            };
        }
        // Moves to the next instruction (past a non-terminator, never past the final `trap`).
        macro_rules! advance {
            () => {
                // SAFETY: as for `pc` above.
                pc = unsafe { pc.add(1) }
            };
        }
        if info.warm.profiling.get() != PROFILE {
            return Step::Switch;
        }
        let mut regs =
            crate::runtime::frame::Regs::new(&mut rt.calls.stack, frame.base as usize, info.header.frame_size as usize);

        // Makes frame `fi` the running one (after a call pushed it or a return popped to it).
        macro_rules! switch_frame {
            () => {{
                let f = &rt.calls.frames[fi];
                // SAFETY: a function of this runtime's bundles, used while the runtime lives.
                info = unsafe { info_ref(f.info) };
                code = info.code().insts.as_ptr();
                if PROFILE {
                    fb = &info.code().feedback;
                }
                set_ip!(f.ip);
                regs = crate::runtime::frame::Regs::new(
                    &mut rt.calls.stack,
                    f.base as usize,
                    info.header.frame_size as usize,
                );
            }};
        }
        // Makes `pc` the instruction frame `fi` stopped at, in its code (only what finding a
        // handler for an exception in it reads; only compiled code's exits need it).
        #[cfg(feature = "jit")]
        macro_rules! running_code_of_frame {
            () => {{
                let f = &rt.calls.frames[fi];
                // SAFETY: a function of this runtime's bundles, used while the runtime lives.
                code = unsafe { info_ref(f.info) }.code().insts.as_ptr();
                set_ip!(f.ip);
            }};
        }
        // The running frame's string table, first inline-cache slot, strictness, and stack
        // index of register 0.
        macro_rules! strings {
            () => {
                info.bundle().strings
            };
        }
        macro_rules! ic_base {
            () => {
                (info.ic_base.get() as usize)
            };
        }
        macro_rules! strict {
            () => {
                info.is_strict()
            };
        }
        macro_rules! base {
            () => {
                (rt.calls.frames[fi].base as usize)
            };
        }
        // SAFETY (of `reg!` and `set!`): every register operand of a verified bundle is
        // below its function's frame size, the length of `regs`, and `regs` is the running
        // frame's window (`switch_frame!` remakes it whenever the frame changes).
        macro_rules! reg {
            ($r:expr) => {
                unsafe { regs.get($r) }
            };
        }
        macro_rules! set {
            ($r:expr, $v:expr) => {{
                let v = $v;
                unsafe { regs.set($r, v) };
            }};
        }
        macro_rules! sync {
            () => {
                rt.calls.frames[fi].ip = ip!() as u32
            };
        }
        macro_rules! tri {
            ($e:expr) => {
                match $e {
                    Ok(v) => v,
                    Err(e) => break e,
                }
            };
        }
        macro_rules! slow {
            ($e:expr) => {{
                sync!();
                tri!($e)
            }};
        }
        macro_rules! safepoint {
            () => {
                if rt.host.gc_stress || rt.heap.should_collect() || rt.host.interrupt.load(Ordering::Relaxed) {
                    sync!();
                    tri!(rt.safepoint_slow());
                }
            };
        }
        // Records kinds in the feedback byte of the running instruction.
        macro_rules! note {
            ($kinds:expr) => {{
                if PROFILE {
                    let k = $kinds;
                    let i = ip!();
                    // SAFETY: `pc` is an instruction of the code (see the fetch below), and
                    // the feedback has a byte for every instruction.
                    let site = unsafe { fb.sites.get_unchecked(i) };
                    site.set(site.get() | k);
                }
            }};
        }
        // Leaves for the other loop when the running function's kind differs (its frame's
        // `ip` must be saved).
        macro_rules! switch_if_other {
            () => {
                if info.warm.profiling.get() != PROFILE {
                    rt.calls.frames[fi].ip = ip!() as u32;
                    return Step::Switch;
                }
            };
        }
        macro_rules! name_key {
            ($id:expr) => {
                rt.key_from_atom(strings!()[$id as usize])
            };
        }
        macro_rules! num_binop {
            ($inst:ident, $dst:expr, $lhs:expr, $rhs:expr, $op:expr, $num:expr) => {{
                let (a, b) = (reg!($lhs), reg!($rhs));
                let v = match (a.as_number(), b.as_number()) {
                    // Mod and Exp go through libm (fmod, pow): canonicalize their NaNs.
                    (Some(x), Some(y)) => {
                        let r = $num(x, y);
                        // Arithmetic records its result's kind too (an int32 sum that
                        // overflows makes the site a double one); bitwise results are int32s.
                        note!(
                            feedback::number_kind(x)
                                | feedback::number_kind(y)
                                | match stringify!($inst) {
                                    "Sub" | "Mul" | "Div" | "Mod" | "Exp" => feedback::number_kind(r),
                                    _ => 0,
                                }
                        );
                        match stringify!($inst) {
                            "Mod" | "Exp" => Value::number(r),
                            _ => Value::number_arith(r),
                        }
                    }
                    _ => {
                        note!(feedback::kind(a) | feedback::kind(b));
                        slow!(rt.op_numeric($op, a, b))
                    }
                };
                set!($dst, v);
            }};
        }
        // `lhs op rhs` as a bool, for the comparison instructions and the jumps that fold
        // them (`less` and `jmp_less` run the same code).
        macro_rules! compare {
            (@relational $lhs:expr, $rhs:expr, $fast:expr, $slow:expr) => {{
                let (a, b) = (reg!($lhs), reg!($rhs));
                match (a.as_number(), b.as_number()) {
                    (Some(x), Some(y)) => {
                        note!(feedback::number_kind(x) | feedback::number_kind(y));
                        $fast(x, y)
                    }
                    _ => {
                        note!(feedback::kind(a) | feedback::kind(b));
                        sync!();
                        tri!($slow(rt, a, b))
                    }
                }
            }};
            (Less, $lhs:expr, $rhs:expr) => {
                compare!(@relational $lhs, $rhs, |x: f64, y: f64| x < y, |rt: &mut Runtime, a, b| rt
                    .op_less_than(a, b, true)
                    .map(|r| r == Some(true)))
            };
            (LessEq, $lhs:expr, $rhs:expr) => {
                compare!(@relational $lhs, $rhs, |x: f64, y: f64| x <= y, |rt: &mut Runtime, a, b| rt
                    .op_less_than(b, a, false)
                    .map(|r| r == Some(false)))
            };
            (Greater, $lhs:expr, $rhs:expr) => {
                compare!(@relational $lhs, $rhs, |x: f64, y: f64| x > y, |rt: &mut Runtime, a, b| rt
                    .op_less_than(b, a, false)
                    .map(|r| r == Some(true)))
            };
            (GreaterEq, $lhs:expr, $rhs:expr) => {
                compare!(@relational $lhs, $rhs, |x: f64, y: f64| x >= y, |rt: &mut Runtime, a, b| rt
                    .op_less_than(a, b, true)
                    .map(|r| r == Some(false)))
            };
            (Eq, $lhs:expr, $rhs:expr) => {{
                let (a, b) = (reg!($lhs), reg!($rhs));
                note!(feedback::kind(a) | feedback::kind(b));
                match fast_loose_eq(a, b) {
                    Some(r) => r,
                    None => slow!(rt.loose_equals(a, b)),
                }
            }};
            (StrictEq, $lhs:expr, $rhs:expr) => {{
                let (a, b) = (reg!($lhs), reg!($rhs));
                note!(feedback::kind(a) | feedback::kind(b));
                rt.strict_equals(a, b)
            }};
        }
        macro_rules! jump {
            ($off:expr) => {{
                let off = $off as isize;
                if off <= 0 {
                    safepoint!();
                    if info.ic_base.get() == crate::code::NO_ICS {
                        rt.give_ics(info);
                    }
                    if PROFILE {
                        info.warm.count_back_edge();
                        #[cfg(feature = "jit")]
                        if rt.host.options.jit_threshold.is_some() {
                            let target = (ip!() as isize + off) as usize;
                            set_ip!(target);
                            sync!();
                            run_compiled!(target as u32, break Exception);
                            continue;
                        }
                    } else if info.warm.count_cold_back_edge(rt.host.options.profile_after) {
                        // Warm now: go on at the target in the loop that records.
                        rt.calls.frames[fi].ip = (ip!() as isize + off) as u32;
                        return Step::Switch;
                    }
                }
                // SAFETY: a decoded jump offset leads to an instruction of the code.
                pc = unsafe { pc.offset(off) };
                continue;
            }};
        }

        // Returns `$v` from frame `fi` to its caller (or out of `run` from an entry frame).
        macro_rules! do_return {
            ($v:expr) => {{
                let mut v = $v;
                let f = &rt.calls.frames[fi];
                let (flags, args, saved_realm, ret_reg) = (f.flags, f.args, f.saved_realm, f.ret_reg);
                if flags & (CONSTRUCT | GENERATOR) != 0 {
                    sync!();
                    v = tri!(special_return(rt, fi, v));
                }
                rt.calls.frames.pop();
                rt.calls.stack.truncate(args as usize);
                rt.realm = saved_realm;
                if flags & ENTRY != 0 {
                    return Step::Done(Ok(v));
                }
                fi -= 1;
                // The caller goes on after its call (its record keeps the call's index
                // until something syncs it: `switch_if_other!` does).
                switch_frame!();
                advance!();
                // SAFETY: the caller's call instruction named `ret_reg`, a register of its
                // verified function, whose window `switch_frame!` just made current.
                unsafe { regs.set(ret_reg, v) };
                switch_if_other!();
                continue;
            }};
        }

        // Runs the running frame in compiled code from instruction `$at` if there is code
        // for it (see `jit`): then returns from the frame, or resumes where the code left,
        // or (`$threw`) hands over the exception a helper threw.
        macro_rules! run_compiled {
            ($at:expr, $threw:expr) => {{
                #[cfg(feature = "jit")]
                if info.warm.profiling.get() && rt.host.options.jit_threshold.is_some() {
                    match crate::jit::run_compiled(rt, fi, $at) {
                        None => {}
                        Some(crate::jit::Outcome::Returned(v)) => do_return!(v),
                        Some(crate::jit::Outcome::Resume(at)) => {
                            set_ip!(at);
                            sync!();
                            if rt.calls.frames.len() - 1 != fi {
                                // An exit from an inlined callee pushed its frame.
                                fi = rt.calls.frames.len() - 1;
                                continue 'reload;
                            }
                        }
                        Some(crate::jit::Outcome::Threw(at)) => {
                            set_ip!(at);
                            sync!();
                            if rt.calls.frames.len() - 1 != fi {
                                // It threw in an inlined callee, whose frame its exit pushed:
                                // the handler search starts from that frame's instruction.
                                fi = rt.calls.frames.len() - 1;
                                running_code_of_frame!();
                            }
                            $threw;
                        }
                    }
                }
            }};
        }

        // Entering a function is a safepoint: its arguments and registers are on the stack.
        let entry_error = if ip!() == 0 && (rt.host.gc_stress || rt.host.interrupt.load(Ordering::Relaxed)) {
            rt.safepoint_slow().err()
        } else {
            None
        };
        // A frame starting here (called from Rust, or by a call the fast path does not
        // take) runs in compiled code if there is some; a return from it goes on in the
        // caller as `ret` would (from the top of this loop).
        #[cfg(feature = "jit")]
        let compiled_error = match (ip!(), entry_error) {
            (0, None) if info.warm.profiling.get() && rt.host.options.jit_threshold.is_some() => {
                match crate::jit::run_compiled(rt, fi, 0) {
                    None => None,
                    Some(crate::jit::Outcome::Resume(at)) => {
                        set_ip!(at);
                        sync!();
                        if rt.calls.frames.len() - 1 != fi {
                            // An exit from an inlined callee pushed its frame.
                            fi = rt.calls.frames.len() - 1;
                            continue 'reload;
                        }
                        None
                    }
                    Some(crate::jit::Outcome::Threw(at)) => {
                        set_ip!(at);
                        sync!();
                        if rt.calls.frames.len() - 1 != fi {
                            // It threw in an inlined callee, whose frame its exit pushed:
                            // the handler search starts from that frame's instruction.
                            fi = rt.calls.frames.len() - 1;
                            running_code_of_frame!();
                        }
                        Some(Exception)
                    }
                    Some(crate::jit::Outcome::Returned(v)) => {
                        let f = rt.calls.frames[fi];
                        match pop_frame(rt, fi, v) {
                            Err(e) => Some(e),
                            Ok(v) => {
                                if f.flags & ENTRY != 0 {
                                    return Step::Done(Ok(v));
                                }
                                fi -= 1;
                                rt.calls.frames[fi].ip += 1;
                                let caller = rt.calls.frames[fi];
                                rt.calls.stack[caller.base as usize + f.ret_reg as usize] = v;
                                continue 'reload;
                            }
                        }
                    }
                }
            }
            _ => None,
        };
        #[cfg(not(feature = "jit"))]
        let compiled_error = None;
        let err: Exception = if let Some(e) = entry_error.or(compiled_error) {
            e
        } else {
            loop {
                debug_assert!(ip!() < info.code().insts.len(), "instruction index {} outside the code", ip!());
                // SAFETY: `pc` is an instruction of the code by the invariant documented on
                // `code::Code`: the code was verified and decoded with a trailing `trap`, `pc`
                // starts at 0, at a handler or at a saved resume point, and moves only by
                // decoded jump offsets (to an instruction) or by one past a non-terminator
                // (never past the trap).
                let inst = unsafe { &*pc };
                #[cfg(debug_assertions)]
                {
                    assert_eq!(rt.roots.handles.len(), handles, "handles left by `{previous:?}`");
                    previous = Some(inst.opcode());
                }
                #[cfg(feature = "opstats")]
                opstats::count(inst.opcode());
                // No arm is empty: an empty arm's jump-table entry would be the `advance!()`
                // block after the `match`, which would then be its own successor, and LLVM's
                // tail duplication (see .cargo/config.toml) copies no block that is its own
                // successor. Every arm that falls through would then end with a jump to that
                // one shared dispatch instead of a copy of its own (measured with the three
                // empty arms fixed: navier-stokes 1.07x, richards and deltablue 1.04x, crypto
                // 1.025x; 103 indirect jumps in this function before, 238 after).
                match *inst {
                    Inst::Wide {} => {
                        advance!();
                        continue;
                    }
                    Inst::Mov { dst, src } => set!(dst, reg!(src)),
                    Inst::LoadConstUndefined { dst } => set!(dst, Value::UNDEFINED),
                    Inst::LoadConstNull { dst } => set!(dst, Value::NULL),
                    Inst::LoadConstTrue { dst } => set!(dst, Value::TRUE),
                    Inst::LoadConstFalse { dst } => set!(dst, Value::FALSE),
                    Inst::LoadConstEmpty { dst } => set!(dst, Value::EMPTY),
                    Inst::LoadConstInt { dst, value } => set!(dst, Value::number(value as f64)),
                    Inst::LoadConstDouble { dst, value } => set!(dst, Value::number(value)),
                    Inst::LoadConstString { dst, id } => set!(dst, strings!()[id as usize]),
                    Inst::LoadParam { dst, index } => {
                        let argc = rt.calls.frames[fi].argc;
                        // SAFETY: `index < argc` is checked, and a frame's `argc` arguments are
                        // the values right below its registers (`frame` module docs).
                        let v = if index < argc { unsafe { regs.arg(argc, index) } } else { Value::UNDEFINED };
                        set!(dst, v);
                    }
                    Inst::LoadArgCount { dst } => set!(dst, Value::number((rt.calls.frames[fi].argc - 1) as f64)),
                    Inst::LoadThisNS { dst } => {
                        let this = rt.calls.stack[rt.calls.frames[fi].args as usize];
                        let v = if this.is_object() {
                            this
                        } else if this.is_nullish() {
                            Value::object(rt.global_object())
                        } else {
                            safepoint!();
                            Value::object(slow!(rt.to_object(this)))
                        };
                        set!(dst, v);
                    }
                    Inst::GetNewTarget { dst } => set!(dst, rt.calls.frames[fi].new_target),
                    Inst::LoadCallee { dst } => set!(dst, ops::generator::frame_callee(rt, fi)),
                    Inst::CreateArguments { dst } => {
                        safepoint!();
                        let v = ops::call::create_arguments(rt, fi);
                        set!(dst, v);
                    }
                    Inst::GetGlobalObject { dst } => set!(dst, Value::object(rt.global_object())),
                    Inst::DeclareGlobals { env, decls } => {
                        safepoint!();
                        let (e, d) = (reg!(env), strings!()[decls as usize]);
                        sync!();
                        tri!(rt.declare_globals(e, d));
                    }

                    // ---- Generic operators ----
                    Inst::Add { dst, lhs, rhs } => {
                        let (a, b) = (reg!(lhs), reg!(rhs));
                        let v = match (a.as_number(), b.as_number()) {
                            (Some(x), Some(y)) => {
                                note!(
                                    feedback::number_kind(x) | feedback::number_kind(y) | feedback::number_kind(x + y)
                                );
                                Value::number_arith(x + y)
                            }
                            _ => {
                                note!(feedback::kind(a) | feedback::kind(b));
                                safepoint!();
                                let (a, b) = (reg!(lhs), reg!(rhs));
                                slow!(rt.op_add(a, b))
                            }
                        };
                        set!(dst, v);
                    }
                    Inst::Sub { dst, lhs, rhs } => {
                        num_binop!(Sub, dst, lhs, rhs, crate::runtime::operators::NumOp::Sub, |x: f64, y: f64| x - y)
                    }
                    Inst::Mul { dst, lhs, rhs } => {
                        num_binop!(Mul, dst, lhs, rhs, crate::runtime::operators::NumOp::Mul, |x: f64, y: f64| x * y)
                    }
                    Inst::Div { dst, lhs, rhs } => {
                        num_binop!(Div, dst, lhs, rhs, crate::runtime::operators::NumOp::Div, |x: f64, y: f64| x / y)
                    }
                    Inst::Mod { dst, lhs, rhs } => {
                        num_binop!(Mod, dst, lhs, rhs, crate::runtime::operators::NumOp::Mod, ecma::number::remainder)
                    }
                    Inst::Exp { dst, lhs, rhs } => num_binop!(
                        Exp,
                        dst,
                        lhs,
                        rhs,
                        crate::runtime::operators::NumOp::Exp,
                        ecma::number::exponentiate
                    ),
                    Inst::BitAnd { dst, lhs, rhs } => {
                        num_binop!(BitAnd, dst, lhs, rhs, crate::runtime::operators::NumOp::BitAnd, |x: f64, y: f64| {
                            (to_i32(x) & to_i32(y)) as f64
                        })
                    }
                    Inst::BitOr { dst, lhs, rhs } => {
                        num_binop!(BitOr, dst, lhs, rhs, crate::runtime::operators::NumOp::BitOr, |x: f64, y: f64| {
                            (to_i32(x) | to_i32(y)) as f64
                        })
                    }
                    Inst::BitXor { dst, lhs, rhs } => {
                        num_binop!(BitXor, dst, lhs, rhs, crate::runtime::operators::NumOp::BitXor, |x: f64, y: f64| {
                            (to_i32(x) ^ to_i32(y)) as f64
                        })
                    }
                    Inst::Shl { dst, lhs, rhs } => {
                        num_binop!(Shl, dst, lhs, rhs, crate::runtime::operators::NumOp::Shl, |x: f64, y: f64| {
                            to_i32(x).wrapping_shl(to_i32(y) as u32 & 31) as f64
                        })
                    }
                    Inst::Shr { dst, lhs, rhs } => {
                        num_binop!(Shr, dst, lhs, rhs, crate::runtime::operators::NumOp::Shr, |x: f64, y: f64| {
                            (to_i32(x) >> (to_i32(y) as u32 & 31)) as f64
                        })
                    }
                    Inst::UShr { dst, lhs, rhs } => {
                        num_binop!(UShr, dst, lhs, rhs, crate::runtime::operators::NumOp::UShr, |x: f64, y: f64| {
                            ((to_i32(x) as u32) >> (to_i32(y) as u32 & 31)) as f64
                        })
                    }
                    Inst::Eq { dst, lhs, rhs } => set!(dst, Value::boolean(compare!(Eq, lhs, rhs))),
                    Inst::Neq { dst, lhs, rhs } => set!(dst, Value::boolean(!compare!(Eq, lhs, rhs))),
                    Inst::StrictEq { dst, lhs, rhs } => set!(dst, Value::boolean(compare!(StrictEq, lhs, rhs))),
                    Inst::StrictNeq { dst, lhs, rhs } => set!(dst, Value::boolean(!compare!(StrictEq, lhs, rhs))),
                    Inst::Less { dst, lhs, rhs } => set!(dst, Value::boolean(compare!(Less, lhs, rhs))),
                    Inst::LessEq { dst, lhs, rhs } => set!(dst, Value::boolean(compare!(LessEq, lhs, rhs))),
                    Inst::Greater { dst, lhs, rhs } => set!(dst, Value::boolean(compare!(Greater, lhs, rhs))),
                    Inst::GreaterEq { dst, lhs, rhs } => set!(dst, Value::boolean(compare!(GreaterEq, lhs, rhs))),
                    Inst::InstanceOf { dst, lhs, rhs } => {
                        let (a, b) = (reg!(lhs), reg!(rhs));
                        let r = slow!(rt.op_instance_of(a, b));
                        set!(dst, Value::boolean(r));
                    }
                    Inst::IsIn { dst, key, obj } => {
                        let (k, o) = (reg!(key), reg!(obj));
                        let r = slow!(rt.op_in(k, o));
                        set!(dst, Value::boolean(r));
                    }

                    // ---- Typed operators ----
                    Inst::AddN { dst, lhs, rhs } => {
                        let (x, y) = (reg!(lhs).number_unchecked(), reg!(rhs).number_unchecked());
                        note!(feedback::number_kind(x) | feedback::number_kind(y) | feedback::number_kind(x + y));
                        set!(dst, Value::number_arith(x + y));
                    }
                    Inst::SubN { dst, lhs, rhs } => {
                        let (x, y) = (reg!(lhs).number_unchecked(), reg!(rhs).number_unchecked());
                        note!(feedback::number_kind(x) | feedback::number_kind(y) | feedback::number_kind(x - y));
                        set!(dst, Value::number_arith(x - y));
                    }
                    Inst::MulN { dst, lhs, rhs } => {
                        let (x, y) = (reg!(lhs).number_unchecked(), reg!(rhs).number_unchecked());
                        note!(feedback::number_kind(x) | feedback::number_kind(y) | feedback::number_kind(x * y));
                        set!(dst, Value::number_arith(x * y));
                    }
                    Inst::DivN { dst, lhs, rhs } => {
                        let (x, y) = (reg!(lhs).number_unchecked(), reg!(rhs).number_unchecked());
                        note!(feedback::number_kind(x) | feedback::number_kind(y) | feedback::number_kind(x / y));
                        set!(dst, Value::number_arith(x / y));
                    }
                    Inst::LessN { dst, lhs, rhs } => {
                        let (x, y) = (reg!(lhs).number_unchecked(), reg!(rhs).number_unchecked());
                        note!(feedback::number_kind(x) | feedback::number_kind(y));
                        set!(dst, Value::boolean(x < y));
                    }
                    Inst::LessEqN { dst, lhs, rhs } => {
                        let (x, y) = (reg!(lhs).number_unchecked(), reg!(rhs).number_unchecked());
                        note!(feedback::number_kind(x) | feedback::number_kind(y));
                        set!(dst, Value::boolean(x <= y));
                    }
                    Inst::GreaterN { dst, lhs, rhs } => {
                        let (x, y) = (reg!(lhs).number_unchecked(), reg!(rhs).number_unchecked());
                        note!(feedback::number_kind(x) | feedback::number_kind(y));
                        set!(dst, Value::boolean(x > y));
                    }
                    Inst::GreaterEqN { dst, lhs, rhs } => {
                        let (x, y) = (reg!(lhs).number_unchecked(), reg!(rhs).number_unchecked());
                        note!(feedback::number_kind(x) | feedback::number_kind(y));
                        set!(dst, Value::boolean(x >= y));
                    }

                    // ---- Unary operators ----
                    Inst::Negate { dst, src } => {
                        let a = reg!(src);
                        let v = match a.as_number() {
                            Some(x) => {
                                note!(feedback::number_kind(x));
                                Value::number(-x)
                            }
                            None => {
                                note!(feedback::kind(a));
                                slow!(rt.op_negate(a))
                            }
                        };
                        set!(dst, v);
                    }
                    Inst::BitNot { dst, src } => {
                        let a = reg!(src);
                        let v = match a.as_number() {
                            Some(x) => {
                                note!(feedback::number_kind(x));
                                Value::number(!to_i32(x) as f64)
                            }
                            None => {
                                note!(feedback::kind(a));
                                slow!(rt.op_bit_not(a))
                            }
                        };
                        set!(dst, v);
                    }
                    Inst::Not { dst, src } => {
                        let b = rt.to_boolean(reg!(src));
                        set!(dst, Value::boolean(!b));
                    }
                    Inst::TypeOf { dst, src } => {
                        let v = rt.type_of(reg!(src));
                        set!(dst, v);
                    }
                    Inst::ToNumber { dst, src } => {
                        let a = reg!(src);
                        let v = if a.is_number() { a } else { Value::number(slow!(rt.to_number(a))) };
                        set!(dst, v);
                    }
                    Inst::ToNumeric { dst, src } => {
                        let a = reg!(src);
                        let v = if a.is_number() { a } else { slow!(rt.to_numeric(a)) };
                        set!(dst, v);
                    }
                    Inst::Inc { dst, src } => {
                        let a = reg!(src);
                        let v = match a.as_number() {
                            Some(x) => {
                                note!(feedback::number_kind(x) | feedback::number_kind(x + 1.0));
                                Value::number(x + 1.0)
                            }
                            None => {
                                note!(feedback::kind(a));
                                slow!(rt.op_inc_dec(a, 1.0))
                            }
                        };
                        set!(dst, v);
                    }
                    Inst::Dec { dst, src } => {
                        let a = reg!(src);
                        let v = match a.as_number() {
                            Some(x) => {
                                note!(feedback::number_kind(x) | feedback::number_kind(x - 1.0));
                                Value::number(x - 1.0)
                            }
                            None => {
                                note!(feedback::kind(a));
                                slow!(rt.op_inc_dec(a, -1.0))
                            }
                        };
                        set!(dst, v);
                    }
                    Inst::PostInc { old, dst, src } | Inst::PostDec { old, dst, src } => {
                        let delta = if matches!(*inst, Inst::PostInc { .. }) { 1.0 } else { -1.0 };
                        let a = reg!(src);
                        match a.as_number() {
                            Some(x) => {
                                note!(feedback::number_kind(x) | feedback::number_kind(x + delta));
                                set!(old, a);
                                set!(dst, Value::number(x + delta));
                            }
                            None => {
                                note!(feedback::kind(a));
                                // A BigInt old value stays in its register (a root) while
                                // the new one is allocated.
                                set!(old, slow!(rt.to_numeric(a)));
                                set!(dst, slow!(rt.op_inc_dec(reg!(old), delta)));
                            }
                        }
                    }
                    Inst::ToString { dst, src } => {
                        let a = reg!(src);
                        let v = if a.is_string() {
                            a
                        } else {
                            safepoint!();
                            let a = reg!(src);
                            slow!(rt.to_string(a))
                        };
                        set!(dst, v);
                    }
                    Inst::ToPropertyKey { dst, src } => {
                        let a = reg!(src);
                        let v = if a.is_string() || a.is_number() || a.is_symbol() {
                            a
                        } else {
                            sync!();
                            let k = tri!(rt.to_property_key(a));
                            rt.key_to_value(k)
                        };
                        set!(dst, v);
                    }

                    // ---- Control flow ----
                    Inst::Jmp { off } => jump!(off),
                    Inst::JmpTrue { off, cond } => {
                        let c = reg!(cond);
                        let t = if c == Value::TRUE {
                            true
                        } else if c == Value::FALSE {
                            false
                        } else {
                            rt.to_boolean(c)
                        };
                        if t {
                            jump!(off);
                        }
                    }
                    Inst::JmpFalse { off, cond } => {
                        let c = reg!(cond);
                        let t = if c == Value::TRUE {
                            true
                        } else if c == Value::FALSE {
                            false
                        } else {
                            rt.to_boolean(c)
                        };
                        if !t {
                            jump!(off);
                        }
                    }
                    Inst::JmpUndefined { off, value } => {
                        if reg!(value).is_undefined() {
                            jump!(off);
                        }
                    }
                    Inst::JmpEmpty { off, value } => {
                        if reg!(value).is_empty() {
                            jump!(off);
                        }
                    }
                    Inst::JmpNotUndefined { off, value } => {
                        if !reg!(value).is_undefined() {
                            jump!(off);
                        }
                    }
                    Inst::JmpNotEmpty { off, value } => {
                        if !reg!(value).is_empty() {
                            jump!(off);
                        }
                    }
                    Inst::JmpNullish { off, value } => {
                        if reg!(value).is_nullish() {
                            jump!(off);
                        }
                    }
                    Inst::JmpNotNullish { off, value } => {
                        if !reg!(value).is_nullish() {
                            jump!(off);
                        }
                    }
                    Inst::JmpEq { off, lhs, rhs } => {
                        if compare!(Eq, lhs, rhs) {
                            jump!(off);
                        }
                    }
                    Inst::JmpNeq { off, lhs, rhs } => {
                        if !compare!(Eq, lhs, rhs) {
                            jump!(off);
                        }
                    }
                    Inst::JmpStrictEq { off, lhs, rhs } => {
                        if compare!(StrictEq, lhs, rhs) {
                            jump!(off);
                        }
                    }
                    Inst::JmpStrictNeq { off, lhs, rhs } => {
                        if !compare!(StrictEq, lhs, rhs) {
                            jump!(off);
                        }
                    }
                    Inst::JmpLess { off, lhs, rhs } => {
                        if compare!(Less, lhs, rhs) {
                            jump!(off);
                        }
                    }
                    Inst::JmpNotLess { off, lhs, rhs } => {
                        if !compare!(Less, lhs, rhs) {
                            jump!(off);
                        }
                    }
                    Inst::JmpLessEq { off, lhs, rhs } => {
                        if compare!(LessEq, lhs, rhs) {
                            jump!(off);
                        }
                    }
                    Inst::JmpNotLessEq { off, lhs, rhs } => {
                        if !compare!(LessEq, lhs, rhs) {
                            jump!(off);
                        }
                    }
                    Inst::JmpGreater { off, lhs, rhs } => {
                        if compare!(Greater, lhs, rhs) {
                            jump!(off);
                        }
                    }
                    Inst::JmpNotGreater { off, lhs, rhs } => {
                        if !compare!(Greater, lhs, rhs) {
                            jump!(off);
                        }
                    }
                    Inst::JmpGreaterEq { off, lhs, rhs } => {
                        if compare!(GreaterEq, lhs, rhs) {
                            jump!(off);
                        }
                    }
                    Inst::JmpNotGreaterEq { off, lhs, rhs } => {
                        if !compare!(GreaterEq, lhs, rhs) {
                            jump!(off);
                        }
                    }
                    Inst::Ret { value } => do_return!(reg!(value)),
                    Inst::RetUndefined {} => do_return!(Value::UNDEFINED),
                    Inst::Throw { value } => {
                        let v = reg!(value);
                        sync!();
                        break rt.throw(v);
                    }
                    Inst::ThrowIfEmpty { dst, src, name } => {
                        let v = reg!(src);
                        if v.is_empty() {
                            sync!();
                            let n = rt.string_to_rust(strings!()[name as usize]);
                            break rt.throw_reference_error(&format!("Cannot access '{n}' before initialization"));
                        }
                        set!(dst, v);
                    }
                    Inst::Trap {} => {
                        sync!();
                        break rt.throw_error(ErrorKind::Error, "internal error: unreachable code was executed");
                    }
                    Inst::ThrowError { kind, msg } => {
                        sync!();
                        let ty = ErrorKind::from_u8(kind).unwrap_or(ErrorKind::Error);
                        let m = rt.string_to_rust(strings!()[msg as usize]);
                        break rt.throw_error(ty, &m);
                    }
                    Inst::Catch { dst } => {
                        let e = rt.take_exception();
                        set!(dst, e);
                    }
                    Inst::Debugger {} => {
                        advance!();
                        continue;
                    }

                    // ---- Environments ----
                    Inst::CreateEnvironment { dst, parent, size } => {
                        safepoint!();
                        let p = reg!(parent);
                        let env = rt.heap.alloc_env(p, size as usize);
                        set!(dst, Value::cell(env));
                    }
                    Inst::GetParentEnvironment { dst } => {
                        let c = rt.calls.frames[fi].closure;
                        let env = rt.heap.get(c.gc::<Closure>()).env;
                        set!(dst, env);
                    }
                    Inst::ResolveEnvironment { dst, env, levels } => {
                        let mut e = reg!(env);
                        for _ in 0..levels {
                            match env_of(rt, e) {
                                Some(g) => e = rt.heap.get(g).parent,
                                None => break,
                            }
                        }
                        set!(dst, e);
                    }
                    Inst::LoadFromEnvironment { dst, env, slot } => {
                        let e = reg!(env);
                        let v = match env_of(rt, e).and_then(|g| rt.heap.env_slots(g).get(slot as usize).copied()) {
                            Some(v) => v,
                            None => {
                                sync!();
                                break rt.throw_type_error("internal error: bad environment access");
                            }
                        };
                        set!(dst, v);
                    }
                    Inst::LoadImport { dst, env, slot, name } => {
                        let e = reg!(env);
                        match rt.load_import(e, slot) {
                            Ok(v) => set!(dst, v),
                            Err(problem) => {
                                sync!();
                                break rt.throw_import_problem(problem, strings!()[name as usize]);
                            }
                        }
                    }
                    Inst::StoreToEnvironment { env, slot, value } => {
                        let e = reg!(env);
                        let v = reg!(value);
                        match env_of(rt, e) {
                            Some(g) if rt.heap.env_set(g, slot as usize, v) => {}
                            _ => {
                                sync!();
                                break rt.throw_type_error("internal error: bad environment access");
                            }
                        }
                    }

                    // ---- Properties ----
                    Inst::GetById { dst, obj, name, ic } => {
                        let o = reg!(obj);
                        if o.is_object() {
                            let ob: Gc<JsObject> = o.gc();
                            let shape = rt.heap.get(ob).shape;
                            let site = (ic_base!() + ic as usize) * ic::WAYS;
                            if let Some(v) = ic_read(rt, site, ob, shape) {
                                set!(dst, v);
                                advance!();
                                continue;
                            }
                        } else if o.is_string() && strings!()[name as usize] == rt.names.length.value() {
                            let n = rt.heap.string_len(o);
                            set!(dst, Value::number(n as f64));
                            advance!();
                            continue;
                        }
                        let key = name_key!(name);
                        sync!();
                        let v = tri!(ops::property::get_by_id_slow(rt, o, key, ic_base!() + ic as usize, false));
                        set!(dst, v);
                    }
                    Inst::GetGlobal { dst, name, ic } | Inst::TypeofGlobal { dst, name, ic } => {
                        let g = rt.global_object();
                        let shape = rt.heap.get(g).shape;
                        let site = (ic_base!() + ic as usize) * ic::WAYS;
                        if let Some(v) = ic_read(rt, site, g, shape) {
                            set!(dst, v);
                            advance!();
                            continue;
                        }
                        let key = name_key!(name);
                        let is_typeof = matches!(*inst, Inst::TypeofGlobal { .. });
                        sync!();
                        let v = tri!(ops::property::get_global_slow(rt, key, ic_base!() + ic as usize, is_typeof));
                        set!(dst, v);
                    }
                    Inst::PutGlobal { name, value, ic } => {
                        let v = reg!(value);
                        let site = (ic_base!() + ic as usize) * ic::WAYS;
                        if ic_write(rt, site, rt.global_object(), v) {
                            advance!();
                            continue;
                        }
                        safepoint!();
                        let v = reg!(value);
                        let key = name_key!(name);
                        sync!();
                        tri!(ops::property::put_global_slow(rt, key, v, strict!(), ic_base!() + ic as usize));
                    }
                    Inst::PutById { obj, name, value, ic } => {
                        let o = reg!(obj);
                        let v = reg!(value);
                        if o.is_object() {
                            let ob: Gc<JsObject> = o.gc();
                            let site = (ic_base!() + ic as usize) * ic::WAYS;
                            if ic_write(rt, site, ob, v) {
                                advance!();
                                continue;
                            }
                        }
                        safepoint!();
                        let (o, v) = (reg!(obj), reg!(value));
                        let key = name_key!(name);
                        sync!();
                        tri!(ops::property::put_by_id_slow(rt, o, key, v, strict!(), ic_base!() + ic as usize, false));
                    }
                    Inst::GetByVal { dst, obj, key } => {
                        let (o, k) = (reg!(obj), reg!(key));
                        if o.is_object() {
                            if let Some(i) = k.as_array_index() {
                                let ob: Gc<JsObject> = o.gc();
                                if let Some(v) = rt.heap.elements(ob).get(i as usize) {
                                    if !v.is_empty() {
                                        note!(feedback::DENSE | feedback::kind(*v));
                                        set!(dst, *v);
                                        advance!();
                                        continue;
                                    }
                                }
                            }
                            if let Some(v) = ops::property::typed_element(rt, o, k) {
                                note!(feedback::TYPED | feedback::kind(v));
                                set!(dst, v);
                                advance!();
                                continue;
                            }
                        }
                        note!(feedback::SLOW);
                        sync!();
                        let v = tri!(ops::property::get_by_val_slow(rt, o, k));
                        set!(dst, v);
                    }
                    Inst::PutByVal { obj, key, value } => {
                        let (o, k, v) = (reg!(obj), reg!(key), reg!(value));
                        if o.is_object() {
                            if let Some(i) = k.as_array_index() {
                                let ob: Gc<JsObject> = o.gc();
                                if let Some(el) = rt.heap.get(ob).elements {
                                    if rt.heap.vec_replace_present(el, i as usize, v) {
                                        note!(feedback::DENSE);
                                        advance!();
                                        continue;
                                    }
                                }
                            }
                            if ops::property::store_typed_element(rt, o, k, v) {
                                note!(feedback::TYPED);
                                advance!();
                                continue;
                            }
                        }
                        note!(feedback::SLOW);
                        safepoint!();
                        let (o, k, v) = (reg!(obj), reg!(key), reg!(value));
                        sync!();
                        tri!(ops::property::put_by_val_slow(rt, o, k, v, strict!()));
                    }
                    Inst::DelById { dst, obj, name } => {
                        let o = reg!(obj);
                        let key = name_key!(name);
                        sync!();
                        let r = tri!(ops::property::delete_property(rt, o, key, strict!()));
                        set!(dst, Value::boolean(r));
                    }
                    Inst::DelByVal { dst, obj, key } => {
                        let (o, k) = (reg!(obj), reg!(key));
                        sync!();
                        let key = tri!(rt.to_property_key(k));
                        let r = tri!(ops::property::delete_property(rt, o, key, strict!()));
                        set!(dst, Value::boolean(r));
                    }
                    Inst::PutOwnById { obj, name, value, ic } => {
                        let o = reg!(obj);
                        if o.is_object() && ic_write(rt, (ic_base!() + ic as usize) * ic::WAYS, o.gc(), reg!(value)) {
                            advance!();
                            continue;
                        }
                        safepoint!();
                        let (o, v) = (reg!(obj), reg!(value));
                        let key = name_key!(name);
                        sync!();
                        tri!(ops::property::put_own_by_id_slow(rt, o, key, v, ic_base!() + ic as usize));
                    }
                    Inst::PutOwnByVal { obj, key, value, flags } => {
                        safepoint!();
                        let (o, k, v) = (reg!(obj), reg!(key), reg!(value));
                        sync!();
                        let key = tri!(rt.to_property_key(k));
                        let attrs = if flags & 1 != 0 {
                            crate::object::shape::DEFAULT_ATTRS
                        } else {
                            crate::object::shape::WRITABLE | crate::object::shape::CONFIGURABLE
                        };
                        tri!(ops::property::put_own(rt, o, key, v, attrs));
                    }
                    Inst::PutOwnByIndex { obj, index, value } => {
                        if ops::property::define_literal_element(rt, reg!(obj), index, reg!(value)) {
                            advance!();
                            continue;
                        }
                        safepoint!();
                        let (o, v) = (reg!(obj), reg!(value));
                        sync!();
                        tri!(ops::property::put_own(rt, o, Key::Index(index), v, crate::object::shape::DEFAULT_ATTRS));
                    }
                    Inst::PutOwnGetterSetter { obj, key, getter, setter, flags } => {
                        safepoint!();
                        let (o, k, g, s) = (reg!(obj), reg!(key), reg!(getter), reg!(setter));
                        sync!();
                        tri!(ops::property::put_own_accessor(rt, o, k, g, s, flags & 1 != 0));
                    }
                    Inst::NewObject { dst } => {
                        safepoint!();
                        let cap = info.code().literal_caps.get(ip!()).copied().unwrap_or(4);
                        let shape = rt.realm().shapes.object_by_cap[(cap as usize).min(16)];
                        let o = rt.new_object_with_shape(shape);
                        set!(dst, Value::object(o));
                    }
                    Inst::NewObjectWithProto { dst, proto } => {
                        safepoint!();
                        let p = reg!(proto);
                        let p = if p.is_object() { p } else { Value::NULL };
                        let o = rt.new_object(p);
                        set!(dst, Value::object(o));
                    }
                    Inst::NewArray { dst, size } => {
                        safepoint!();
                        let a = rt.new_array(size);
                        set!(dst, Value::object(a));
                        // An array literal's elements follow: `put_own_by_index` of the new
                        // array, each usually after the constant load of its value. They run
                        // here, in order, without a dispatch each, up to the first other
                        // instruction or element that needs more than filling its hole
                        // (which then runs as usual). `[0, 1, ..., 9]` is 21 instructions:
                        // on splay, the loads and stores were 30% of the instructions run.
                        // Nothing else runs meanwhile, so the array stays as `new_array`
                        // made it (plain, extensible, `size` holes in `elements`).
                        let elements = rt.heap.get(a).elements;
                        loop {
                            // SAFETY: `pc` is not a terminator (it is `new_array`, a
                            // constant load or `put_own_by_index`), so the next instruction
                            // is one of the code (at worst its final `trap`).
                            let (t, v) = match unsafe { *pc.add(1) } {
                                Inst::PutOwnByIndex { obj, index, value } if obj == dst => {
                                    let Some(e) = elements else { break };
                                    if !rt.heap.vec_fill_hole(e, index as usize, reg!(value)) {
                                        break;
                                    }
                                    #[cfg(feature = "opstats")]
                                    opstats::count(bytecode::Opcode::PutOwnByIndex);
                                    advance!();
                                    continue;
                                }
                                Inst::LoadConstInt { dst: t, value } => (t, Value::number(value as f64)),
                                Inst::LoadConstDouble { dst: t, value } => (t, Value::number(value)),
                                Inst::LoadConstString { dst: t, id } => (t, strings!()[id as usize]),
                                Inst::LoadConstUndefined { dst: t } => (t, Value::UNDEFINED),
                                Inst::LoadConstNull { dst: t } => (t, Value::NULL),
                                Inst::LoadConstTrue { dst: t } => (t, Value::TRUE),
                                Inst::LoadConstFalse { dst: t } => (t, Value::FALSE),
                                _ => break,
                            };
                            if t == dst {
                                break;
                            }
                            #[cfg(feature = "opstats")]
                            opstats::count(unsafe { &*pc.add(1) }.opcode());
                            advance!();
                            set!(t, v);
                        }
                    }

                    // ---- Calls and closures ----
                    Inst::Call { dst, callee, first, argc: n } => {
                        let f = reg!(callee);
                        // Fast path: a plain call of a closure pushes its frame right here.
                        if f.is_object() && n >= 1 {
                            let fo: Gc<JsObject> = f.gc();
                            if rt.heap.kind_of(fo) == CellKind::Closure {
                                // SAFETY: a function of this runtime's bundles, used while the runtime lives.
                                let cinfo = unsafe { info_ref(rt.heap.get(fo.cast::<Closure>()).func) };
                                let at = rt.calls.stack.len();
                                let need = n as usize + cinfo.header.frame_size as usize;
                                if !cinfo.flags().intersects(FunctionFlags::CLASS_CONSTRUCTOR | FunctionFlags::LAZY)
                                    && at + need <= rt.calls.stack_limit
                                    && rt.calls.frames.len() < rt.calls.max_depth
                                {
                                    rt.calls.frames[fi].ip = ip!() as u32;
                                    if PROFILE {
                                        fb.note_call(ip!(), crate::code::FuncRef::new(cinfo).addr());
                                    }
                                    crate::runtime::frame::push_call_window(
                                        &mut rt.calls.stack,
                                        base!() + first as usize,
                                        n as usize,
                                        need,
                                    );
                                    let realm = cinfo.realm();
                                    rt.calls.frames.push(Frame {
                                        info: crate::code::FuncRef::new(cinfo),
                                        closure: f,
                                        new_target: Value::UNDEFINED,
                                        generator: Value::UNDEFINED,
                                        base: (at + n as usize) as u32,
                                        args: at as u32,
                                        argc: n,
                                        ip: 0,
                                        ret_reg: dst,
                                        flags: 0,
                                        saved_realm: rt.realm,
                                    });
                                    rt.realm = realm;
                                    fi += 1;
                                    // The callee's state is known here: set it rather than
                                    // read it back from the record just written.
                                    info = cinfo;
                                    code = cinfo.code().insts.as_ptr();
                                    if PROFILE {
                                        fb = &cinfo.code().feedback;
                                    }
                                    pc = code;
                                    regs = crate::runtime::frame::Regs::new(
                                        &mut rt.calls.stack,
                                        at + n as usize,
                                        cinfo.header.frame_size as usize,
                                    );
                                    info.warm.count_entry(rt.host.options.profile_after);
                                    rt.note_entry(info);
                                    // Entering a function is a safepoint (for interrupts and
                                    // gc_stress; allocation sites collect on their own).
                                    if rt.host.gc_stress || rt.host.interrupt.load(Ordering::Relaxed) {
                                        tri!(rt.safepoint_slow());
                                    }
                                    run_compiled!(0, break Exception);
                                    switch_if_other!();
                                    // A sloppy-mode method starts with `load_this_ns`; with
                                    // an object `this` it is run here, without a dispatch of
                                    // its own (`call load_this_ns` is 6-11% of the instruction
                                    // pairs richards and deltablue run; richards 1.05x,
                                    // deltablue 1.03x faster).
                                    // SAFETY: `pc` is an instruction of the code (see the fetch).
                                    if let Inst::LoadThisNS { dst } = unsafe { *pc } {
                                        let this = rt.calls.stack[at];
                                        if this.is_object() {
                                            #[cfg(feature = "opstats")]
                                            opstats::count(bytecode::Opcode::LoadThisNS);
                                            set!(dst, this);
                                            advance!();
                                        }
                                    }
                                    continue;
                                }
                            }
                        }
                        if PROFILE {
                            fb.note_call(ip!(), call_target(rt, f));
                        }
                        sync!();
                        match tri!(ops::call::start_call(
                            rt,
                            f,
                            base!() + first as usize,
                            n as usize,
                            dst,
                            Value::UNDEFINED,
                            false
                        )) {
                            CallStart::Pushed => {
                                fi += 1;
                                continue 'reload;
                            }
                            CallStart::Done(v) => set!(dst, v),
                        }
                    }
                    Inst::Construct { dst, callee, new_target, first, argc: n } => {
                        let f = reg!(callee);
                        let nt = reg!(new_target);
                        if PROFILE {
                            fb.note_call(ip!(), call_target(rt, f));
                        }
                        sync!();
                        match tri!(ops::call::start_call(rt, f, base!() + first as usize, n as usize, dst, nt, true)) {
                            CallStart::Pushed => {
                                if PROFILE {
                                    // The shape of the object made as `this` (a derived
                                    // constructor's is made later).
                                    let this = rt.calls.stack[rt.calls.frames[fi + 1].args as usize];
                                    if this.is_object() {
                                        let shape = rt.heap.get(this.gc::<JsObject>()).shape;
                                        fb.note_this_shape(ip!(), shape, &mut rt.code.feedback_shapes);
                                    }
                                }
                                fi += 1;
                                continue 'reload;
                            }
                            CallStart::Done(v) => set!(dst, v),
                        }
                    }
                    Inst::CallSpread { dst, callee, this, args: a } => {
                        let (f, t, arr) = (reg!(callee), reg!(this), reg!(a));
                        sync!();
                        let list = tri!(ops::call::array_to_list(rt, arr));
                        let v = tri!(rt.call(f, t, &list));
                        set!(dst, v);
                    }
                    Inst::ConstructSpread { dst, callee, new_target, args: a } => {
                        let (f, nt, arr) = (reg!(callee), reg!(new_target), reg!(a));
                        sync!();
                        if !rt.is_constructor(f) {
                            break rt.not_a_function(f, true);
                        }
                        let list = tri!(ops::call::array_to_list(rt, arr));
                        let v = tri!(rt.construct(f, &list, nt));
                        set!(dst, v);
                    }
                    Inst::CallBuiltin { dst, builtin, first, argc: n } => {
                        sync!();
                        let start = base!() + first as usize;
                        let list: Vec<Value> = rt.calls.stack[start..start + n as usize].to_vec();
                        let v = tri!(ops::builtin::call_internal(rt, builtin, &list, info));
                        set!(dst, v);
                    }
                    Inst::CreateClosure { dst, env, func } => {
                        safepoint!();
                        let e = reg!(env);
                        let target = crate::code::FuncRef::new(&info.bundle().functions[func as usize]);
                        let c = crate::runtime::function::make_closure(rt, target, e);
                        set!(dst, c);
                    }
                    Inst::CreateGenerator { dst, env, func } => {
                        safepoint!();
                        let e = reg!(env);
                        sync!();
                        let target = crate::code::FuncRef::new(&info.bundle().functions[func as usize]);
                        let g = tri!(ops::generator::create_generator(rt, fi, target, e));
                        set!(dst, g);
                    }
                    Inst::LoadHomeObject { dst } => {
                        let c = rt.calls.frames[fi].closure;
                        let h = rt.heap.get(c.gc::<Closure>()).home;
                        set!(dst, h);
                    }
                    Inst::CreateRegExp { dst, pattern, flags } => {
                        safepoint!();
                        sync!();
                        let (p, f) = (strings!()[pattern as usize], strings!()[flags as usize]);
                        let r = tri!((rt.host.hooks.regexp_create)(rt, p, f));
                        set!(dst, r);
                    }

                    // ---- Generators ----
                    Inst::StartGenerator {} => {
                        advance!();
                        continue;
                    }
                    Inst::SaveGenerator { off } => {
                        let g = rt.calls.frames[fi].generator;
                        let target = (ip!() as isize + off as isize) as u32;
                        ops::generator::save_resume_point(rt, g, target);
                    }
                    Inst::ResumeGenerator { dst, is_return } => {
                        let (v, kind) = ops::generator::take_resume(rt);
                        if kind == ops::generator::RESUME_THROW {
                            sync!();
                            break rt.throw(v);
                        }
                        set!(dst, v);
                        set!(is_return, Value::boolean(kind == ops::generator::RESUME_RETURN));
                    }
                    Inst::CompleteGenerator {} => {
                        let g = rt.calls.frames[fi].generator;
                        ops::generator::mark_completed(rt, g);
                    }

                    // ---- Iteration ----
                    Inst::GetIterator { dst, src } => {
                        safepoint!();
                        let s = reg!(src);
                        sync!();
                        let it = tri!(crate::runtime::iteration::get_iterator(rt, s));
                        set!(dst, it);
                    }
                    Inst::IteratorNext { dst, iter } => {
                        let it = reg!(iter);
                        sync!();
                        let v = tri!(crate::runtime::iteration::iterator_next(rt, it));
                        set!(dst, v);
                    }
                    Inst::IteratorClose { iter, ignore_errors } => {
                        let it = reg!(iter);
                        sync!();
                        tri!(crate::runtime::iteration::iterator_close(rt, it, ignore_errors != 0));
                    }
                    Inst::GetPNameList { dst, obj } => {
                        safepoint!();
                        let o = reg!(obj);
                        sync!();
                        let s = tri!(crate::runtime::iteration::get_pname_list(rt, o));
                        set!(dst, s);
                    }
                    Inst::GetNextPName { dst, iter } => {
                        let it = reg!(iter);
                        sync!();
                        let v = tri!(crate::runtime::iteration::get_next_pname(rt, it));
                        set!(dst, v);
                    }
                }
                advance!();
            }
        };
        let _ = err;
        // An exception is pending: find a handler.
        if rt.exception_kind == ExceptionKind::Normal && rt.calls.frames[fi].ip as usize != ip!() {
            rt.calls.frames[fi].ip = ip!() as u32;
        }
        match unwind(rt, fi) {
            Some(f) => {
                fi = f;
                // What the instructions that threw had rooted (a runtime function that
                // returns early with an error need not release its handles).
                rt.roots.handles.truncate(handles);
                // Entering a handler is a safepoint: a loop whose only way back is a throw
                // caught in it has no backward jump. (What the collector or the interrupt
                // throws here replaces the pending exception: the handler catches it, or an
                // uncatchable one unwinds past every handler.)
                if (rt.host.gc_stress || rt.heap.should_collect() || rt.host.interrupt.load(Ordering::Relaxed))
                    && rt.safepoint_slow().is_err()
                    && rt.exception_kind != ExceptionKind::Normal
                {
                    match unwind(rt, fi) {
                        Some(f) => fi = f,
                        None => return Step::Done(Err(Exception)),
                    }
                }
                continue 'reload;
            }
            None => return Step::Done(Err(Exception)),
        }
    }
}

/// The environment cell a register holds, if it holds one.
#[inline(always)]
fn env_of(rt: &Runtime, v: Value) -> Option<Gc<Environment>> {
    if v.is_cell() {
        let g: Gc<Environment> = v.gc();
        if rt.heap.kind_of(g) == CellKind::Environment {
            return Some(g);
        }
    }
    None
}

#[cfg(feature = "opstats")]
mod opstats {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTS: [AtomicU64; 256] = [const { AtomicU64::new(0) }; 256];
    /// Counts of each (previous, this) pair of opcodes run one after the other.
    static PAIRS: [AtomicU64; 256 * 256] = [const { AtomicU64::new(0) }; 256 * 256];
    static PREVIOUS: AtomicU64 = AtomicU64::new(0);
    static INIT: std::sync::Once = std::sync::Once::new();
    fn name(i: usize) -> &'static str {
        bytecode::Opcode::from_u8(i as u8).map(|o| o.mnemonic()).unwrap_or("?")
    }
    extern "C" fn dump() {
        let mut v: Vec<(u64, usize)> =
            (0..256).map(|i| (COUNTS[i].load(Ordering::Relaxed), i)).filter(|x| x.0 > 0).collect();
        v.sort_by(|a, b| b.cmp(a));
        let total: u64 = v.iter().map(|x| x.0).sum();
        eprintln!("opstats: {total} instructions");
        for (n, i) in v.iter().take(40) {
            eprintln!("{:>12} {:5.1}% {}", n, *n as f64 * 100.0 / total as f64, name(*i));
        }
        let mut pairs: Vec<(u64, usize)> =
            (0..256 * 256).map(|i| (PAIRS[i].load(Ordering::Relaxed), i)).filter(|x| x.0 > 0).collect();
        pairs.sort_by(|a, b| b.cmp(a));
        eprintln!("opstats: pairs");
        for (n, i) in pairs.iter().take(40) {
            eprintln!("{:>12} {:5.1}% {} {}", n, *n as f64 * 100.0 / total as f64, name(i / 256), name(i % 256));
        }
    }
    pub(super) fn count(op: bytecode::Opcode) {
        INIT.call_once(|| {
            extern "C" {
                fn atexit(f: extern "C" fn()) -> i32;
            }
            // SAFETY: registering a plain function to run at process exit.
            unsafe { atexit(dump) };
        });
        COUNTS[op as usize].fetch_add(1, Ordering::Relaxed);
        let previous = PREVIOUS.swap(op as u64, Ordering::Relaxed) as usize;
        PAIRS[previous * 256 + op as usize].fetch_add(1, Ordering::Relaxed);
    }
}

/// A property read through the inline cache at `site`: the value, or None on a miss.
#[inline(always)]
fn ic_read(rt: &Runtime, site: usize, ob: Gc<JsObject>, shape: Gc<crate::object::Shape>) -> Option<Value> {
    // A function without caches yet has its sites past the end of the table.
    let set = rt.code.ics.get(site..site + ic::WAYS)?;
    for e in set {
        if e.shape == Some(shape) {
            let holder = match e.kind {
                ic::OWN => ob,
                ic::PROTO if e.epoch == *rt.caches.proto_epoch => e.holder?,
                // A dictionary object's own property (the global object of a program with
                // many globals or top-level lexical declarations).
                ic::OWN_DICT if e.epoch == rt.heap.get(shape).dict_version => ob,
                _ => return None,
            };
            let v = rt.heap.slot_at(holder, e.loc);
            return if v.is_empty() { None } else { Some(v) };
        }
        e.shape?;
    }
    None
}

/// A property write through the inline cache at `site`; false on a miss.
#[inline(always)]
fn ic_write(rt: &mut Runtime, site: usize, ob: Gc<JsObject>, v: Value) -> bool {
    let shape = rt.heap.get(ob).shape;
    if rt.code.ics.len() < site + ic::WAYS {
        return false; // a function without caches yet
    }
    for w in 0..ic::WAYS {
        let e = &rt.code.ics[site + w];
        if e.shape == Some(shape) {
            match e.kind {
                ic::OWN => {
                    let loc = e.loc;
                    rt.heap.set_slot_at(ob, loc, v);
                    return true;
                }
                ic::OWN_DICT if e.epoch == rt.heap.get(shape).dict_version => {
                    let loc = e.loc;
                    rt.heap.set_slot_at(ob, loc, v);
                    return true;
                }
                ic::ADD
                    if e.epoch == *rt.caches.proto_epoch
                        && rt.heap.get(ob).header.flags & (IS_PROTOTYPE | EXTENSIBLE) == EXTENSIBLE =>
                {
                    let Some(ns) = e.new_shape else { return false };
                    let (slot, loc) = (e.slot, e.loc);
                    rt.heap.get_mut(ob).shape = ns;
                    if loc & crate::object::OUT_OF_LINE == 0 {
                        rt.heap.set_slot_at(ob, loc, v);
                    } else {
                        rt.heap.init_slot(ob, slot, v);
                    }
                    return true;
                }
                _ => return false,
            }
        }
        if e.shape.is_none() {
            return false;
        }
    }
    false
}

/// `a == b` when it needs no conversion: None when the slow path must decide.
#[inline(always)]
fn fast_loose_eq(a: Value, b: Value) -> Option<bool> {
    if let (Some(x), Some(y)) = (a.as_number(), b.as_number()) {
        return Some(x == y);
    }
    if a == b {
        return Some(true);
    }
    if a.is_nullish() || b.is_nullish() {
        return Some(a.is_nullish() && b.is_nullish());
    }
    if (a.is_object() && b.is_object()) || (a.is_boolean() && b.is_boolean()) {
        return Some(false);
    }
    None
}

/// ToInt32 on a number (inline fast path).
#[inline(always)]
fn to_i32(x: f64) -> i32 {
    ecma::number::to_int32(x)
}

/// Whether a property key names a string property (for ICs).
#[allow(dead_code)]
fn is_name(key: Key) -> Option<PropKey> {
    match key {
        Key::Name(k) => Some(k),
        Key::Index(_) => None,
    }
}

#[cfg(test)]
mod tests;
