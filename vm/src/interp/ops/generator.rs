//! Generators: creation, resumption of the saved frame, and suspension.
//!
//! ```text
//!  outer fn:  create_generator dst, env, inner  ; ret dst
//!  inner fn:  start_generator ... save_generator L ; ret v   (yield v)
//!             L: resume_generator x, is_ret ...
//!             complete_generator ; ret v                     (return v)
//! ```
//!
//! A generator object holds the inner closure, `this` and the arguments of the outer call,
//! and, while suspended at a yield, a copy of the inner frame's registers and the resume
//! instruction. `next`/`return`/`throw` push a frame for the inner function (with the ENTRY
//! and GENERATOR flags), restore the registers, pass the sent value and the resumption
//! kind through the runtime to `resume_generator`, and run the interpreter until the frame
//! returns: a `ret` without `complete_generator` is a yield.

use super::super::push_frame;
use crate::code::{info_ref, FuncRef};
use crate::gc::{CellKind, Gc};
use crate::object::{gen_state, GeneratorObject, JsObject, Key};
use crate::runtime::frame::{ENTRY, GENERATOR};
use crate::runtime::function::Closure;
use crate::runtime::{Intrinsic, JsResult, Runtime};
use crate::value::Value;

/// Resumed by `next(v)`.
pub const RESUME_NEXT: u8 = 0;
/// Resumed by `throw(v)`.
pub const RESUME_THROW: u8 = 1;
/// Resumed by `return(v)`.
pub const RESUME_RETURN: u8 = 2;

/// `create_generator`: a generator for inner function `target` over `env`, with the `this`
/// and arguments of frame `fi`.
#[inline(never)]
pub(crate) fn create_generator(rt: &mut Runtime, fi: usize, target: FuncRef, env: Value) -> JsResult<Value> {
    let frame = rt.calls.frames[fi];
    let outer = frame.closure;
    let key = Key::Name(rt.names.prototype);
    let p = rt.get(outer.gc(), key, outer)?;
    let proto = if p.is_object() { p } else { rt.intrinsic(Intrinsic::GeneratorPrototype) };
    let start = frame.args as usize;
    let args: Vec<Value> = rt.calls.stack[start..start + frame.argc as usize].to_vec();
    let args_vec = rt.heap.alloc_vec_from(&args);
    let inner = crate::runtime::function::make_closure(rt, target, env);
    let home = rt.heap.get(outer.gc::<Closure>()).home;
    rt.heap.get_mut(inner.gc::<Closure>()).home = home;
    let shape = rt.root_shape(proto, CellKind::Generator, 0);
    let g = GeneratorObject::new(JsObject::new(CellKind::Generator, shape), inner, outer, Value::cell(args_vec));
    let g = rt.heap.alloc_object(g, 0);
    Ok(Value::object(g))
}

fn gen_of(v: Value) -> Gc<GeneratorObject> {
    v.gc()
}

/// `save_generator`: the next resumption continues at instruction `target`.
#[inline(never)]
pub(crate) fn save_resume_point(rt: &mut Runtime, g: Value, target: u32) {
    if g.is_object() {
        rt.heap.get_mut(gen_of(g)).resume_ip = target;
    }
}

/// `complete_generator`: the following `ret` finishes the generator.
#[inline(never)]
pub(crate) fn mark_completed(rt: &mut Runtime, g: Value) {
    if g.is_object() {
        rt.heap.get_mut(gen_of(g)).completing = 1;
    }
}

/// `markRawYield`: the following yield's value is the iterator result itself (`yield*`).
#[inline(never)]
pub(crate) fn mark_raw_yield(rt: &mut Runtime, g: Value) {
    if g.is_object() && rt.heap.object_kind(g.gc()) == CellKind::Generator {
        rt.heap.get_mut(gen_of(g)).completing = RAW_YIELD;
    }
}

/// `GeneratorObject::completing` after `markRawYield`.
const RAW_YIELD: u8 = 2;

/// The value and kind of the resumption in progress (`resume_generator`).
#[inline(never)]
pub(crate) fn take_resume(rt: &mut Runtime) -> (Value, u8) {
    let v = std::mem::replace(&mut rt.calls.gen_resume_value, Value::UNDEFINED);
    (v, rt.calls.gen_resume_kind)
}

/// `ret` in a generator frame: the iterator result to hand to the resumer; a yield saves
/// the registers.
#[inline(never)]
pub(crate) fn on_return(rt: &mut Runtime, fi: usize, v: Value) -> JsResult<Value> {
    let frame = rt.calls.frames[fi];
    let g = gen_of(frame.generator);
    let completing = rt.heap.get(g).completing;
    let done = completing == 1;
    if done {
        let gm = rt.heap.get_mut(g);
        gm.state = gen_state::COMPLETED;
        gm.regs = Value::UNDEFINED;
    } else {
        // SAFETY: a function of this runtime's bundles, used while the runtime lives.
        let info = unsafe { info_ref(frame.info) };
        let n = info.header.frame_size as usize;
        let base = frame.base as usize;
        let regs = rt.heap.get(g).regs;
        let vec = if regs.is_cell() && rt.heap.vec_capacity(regs.gc()) >= n { regs.gc() } else { rt.heap.alloc_vec(n) };
        for i in 0..n {
            let x = rt.calls.stack[base + i];
            rt.heap.vec_set(vec, i, x);
        }
        rt.heap.get_mut(vec).len = n as u32;
        let gm = rt.heap.get_mut(g);
        gm.regs = Value::cell(vec);
        gm.state = gen_state::SUSPENDED_YIELD;
        if completing == RAW_YIELD {
            gm.completing = 0;
            return Ok(v);
        }
    }
    Ok(rt.create_iter_result(v, done))
}

/// An exception left the generator's frame: the generator is finished.
#[inline(never)]
pub(crate) fn finish_abruptly(rt: &mut Runtime, g: Value) {
    if g.is_object() {
        let gm = rt.heap.get_mut(gen_of(g));
        gm.state = gen_state::COMPLETED;
        gm.regs = Value::UNDEFINED;
    }
}

/// 27.5.3.3 GeneratorResume / 27.5.3.4 GeneratorResumeAbrupt.
#[inline(never)]
pub(crate) fn resume(rt: &mut Runtime, this: Value, value: Value, kind: u8) -> JsResult<Value> {
    let ok = this.is_object() && rt.heap.object_kind(this.gc()) == CellKind::Generator;
    if !ok {
        return Err(rt.throw_type_error("next method called on incompatible receiver"));
    }
    let g = gen_of(this);
    let state = rt.heap.get(g).state;
    match state {
        gen_state::EXECUTING => return Err(rt.throw_type_error("Generator is already running")),
        gen_state::COMPLETED => {
            return match kind {
                RESUME_THROW => Err(rt.throw(value)),
                RESUME_RETURN => Ok(rt.create_iter_result(value, true)),
                _ => Ok(rt.create_iter_result(Value::UNDEFINED, true)),
            };
        }
        gen_state::SUSPENDED_START if kind != RESUME_NEXT => {
            rt.heap.get_mut(g).state = gen_state::COMPLETED;
            return if kind == RESUME_THROW { Err(rt.throw(value)) } else { Ok(rt.create_iter_result(value, true)) };
        }
        _ => {}
    }
    let gen = rt.heap.get(g);
    let (closure, args, regs, resume_ip) = (gen.closure, gen.args, gen.regs, gen.resume_ip);
    // SAFETY: a function of this runtime's bundles, used while the runtime lives.
    let info = unsafe { info_ref(rt.heap.get(closure.gc::<Closure>()).func) };
    rt.enter_native()?;
    let argv: Vec<Value> = rt.heap.vec_values(args.gc()).to_vec();
    if let Err(e) = rt.ensure_stack(argv.len()) {
        rt.leave_native();
        return Err(e);
    }
    let at = rt.calls.stack.len();
    rt.calls.stack.extend_from_slice(&argv);
    if let Err(e) = push_frame(rt, info, closure, at, argv.len(), Value::UNDEFINED, 0, ENTRY | GENERATOR) {
        rt.leave_native();
        return Err(e);
    }
    let fi = rt.calls.frames.len() - 1;
    rt.calls.frames[fi].generator = this;
    if state == gen_state::SUSPENDED_YIELD {
        rt.calls.frames[fi].ip = resume_ip;
        if regs.is_cell() {
            let base = rt.calls.frames[fi].base as usize;
            let saved: Vec<Value> = rt.heap.vec_values(regs.gc()).to_vec();
            let n = saved.len().min(info.header.frame_size as usize);
            rt.calls.stack[base..base + n].copy_from_slice(&saved[..n]);
        }
    }
    rt.calls.gen_resume_value = value;
    rt.calls.gen_resume_kind = kind;
    let gm = rt.heap.get_mut(g);
    gm.state = gen_state::EXECUTING;
    gm.completing = 0;
    let r = super::super::run(rt);
    rt.leave_native();
    r
}

impl Runtime {
    /// `CreateIterResultObject(value, done)`.
    pub(crate) fn create_iter_result(&mut self, value: Value, done: bool) -> Value {
        let shape = self.realm().shapes.iter_result;
        let o = self.new_object_with_shape(shape);
        let s = self.heap.inline_slots_mut(o);
        s[0] = value;
        s[1] = Value::boolean(done);
        Value::object(o)
    }
}

/// The function a frame's code sees as its callee: the closure it runs, except for the body
/// of a generator or async function, whose callee is the outer function that was called.
pub(crate) fn frame_callee(rt: &Runtime, fi: usize) -> Value {
    let f = &rt.calls.frames[fi];
    if f.flags & GENERATOR != 0 && f.generator.is_object() {
        return rt.heap.get(gen_of(f.generator)).outer;
    }
    f.closure
}
