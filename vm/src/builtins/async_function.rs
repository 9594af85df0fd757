//! 27.7 AsyncFunction objects: the driver that runs an async function's body.
//!
//! An async function compiles like a generator (see `compiler/src/irgen/func.rs`): its body
//! is the inner function of a generator object, and each `await v` is a yield of `v`. The
//! outer function makes that generator and hands it to the `asyncFunctionStart` builtin,
//! which returns the promise of the result:
//!
//! ```text
//!  f(args) ── outer: g = create_generator(inner); return asyncFunctionStart(g)
//!  asyncFunctionStart(g): P = new promise; step(next, undefined); return P
//!  step(kind, x): resume g with next(x) / throw(x)
//!      ├─ the body yields v (an await) ─▶ PerformPromiseThen(PromiseResolve(v),
//!      │                                     x => step(next, x), e => step(throw, e))
//!      ├─ the body returns v           ─▶ resolve P with v
//!      └─ the body throws e            ─▶ reject P with e
//! ```
//!
//! This is AsyncFunctionStart, AsyncBlockStart and Await (27.7.5.1, 27.7.5.2, 27.7.5.3)
//! with the suspended execution context held by the generator object. The reactions are
//! native functions whose `data` is a two-element vector: the generator and the promise.

use super::Builtin;
use crate::gc::{CellKind, Gc};
use crate::interp::ops::generator::{self, RESUME_NEXT, RESUME_THROW};
use crate::object::shape::CONFIGURABLE;
use crate::object::{JsObject, Key};
use crate::runtime::{ExceptionKind, Intrinsic, JsResult, Runtime};
use crate::value::Value;

/// `asyncFunctionStart(generator)`: runs the body until its first `await` (or its end) and
/// returns the promise of its result.
pub(crate) fn async_function_start(rt: &mut Runtime, gen: Value) -> JsResult<Value> {
    let mark = rt.handle_mark();
    rt.root(gen);
    // 27.7.5.1 AsyncFunctionStart step 1 (through EvaluateAsyncFunctionBody): a new
    // PromiseCapability of %Promise%.
    let promise = rt.new_promise();
    rt.root(Value::object(promise));
    let r = step(rt, gen, promise, Value::UNDEFINED, RESUME_NEXT);
    rt.release_handles(mark);
    r.map(|()| Value::object(promise))
}

/// Resumes the body with `value` (by `next` or `throw`) and settles the promise or awaits
/// the next value, as the body's completion says. Only an uncatchable exception (an
/// interrupt, running out of memory) comes out as an error.
fn step(rt: &mut Runtime, gen: Value, promise: Gc<JsObject>, value: Value, kind: u8) -> JsResult<()> {
    let result = match generator::resume(rt, gen, value, kind) {
        Ok(r) => r,
        Err(e) => {
            if rt.exception_kind != ExceptionKind::Normal {
                return Err(e);
            }
            // 27.7.5.2 AsyncBlockStart step 5.d: a throw completion rejects the promise.
            let reason = rt.take_exception();
            rt.reject_promise(promise, reason);
            return Ok(());
        }
    };
    // The body's frame hands back an iterator result: `{ value, done }`.
    let (v, done) = {
        let o: Gc<JsObject> = result.gc();
        let slots = rt.heap.inline_slots(o);
        (slots[0], slots[1] == Value::TRUE)
    };
    if done {
        // Step 5.b-c: a return (or the end of the body) resolves the promise.
        rt.resolve_promise(promise, v);
        return Ok(());
    }
    await_value(rt, gen, promise, v)
}

/// 27.7.5.3 Await(v): continues the body when the promise of `v` settles.
fn await_value(rt: &mut Runtime, gen: Value, promise: Gc<JsObject>, v: Value) -> JsResult<()> {
    let mark = rt.handle_mark();
    // Step 2: PromiseResolve(%Promise%, v); an abrupt completion (a throwing `constructor`
    // getter) is thrown at the `await`.
    let awaited = match rt.promise_resolve(v) {
        Ok(p) => p,
        Err(e) => {
            if rt.exception_kind != ExceptionKind::Normal {
                return Err(e);
            }
            let reason = rt.take_exception();
            return step(rt, gen, promise, reason, RESUME_THROW);
        }
    };
    rt.root(Value::object(awaited));
    let state = rt.heap.alloc_vec_from(&[gen, Value::object(promise)]);
    let state = Value::cell(state);
    rt.root(state);
    // Steps 3-7: the continuations, then PerformPromiseThen(promise, onFulfilled,
    // onRejected).
    let on_fulfilled = rt.new_native_with_data("", await_fulfilled, 1, state);
    rt.root(Value::object(on_fulfilled));
    let on_rejected = rt.new_native_with_data("", await_rejected, 1, state);
    rt.promise_then(awaited, Value::object(on_fulfilled), Value::object(on_rejected));
    rt.release_handles(mark);
    Ok(())
}

/// The generator and promise a continuation carries.
fn continuation_state(rt: &mut Runtime) -> Option<(Value, Gc<JsObject>)> {
    let callee = rt.native_callee();
    let state = rt.native_data(callee);
    if !state.is_cell() {
        return None;
    }
    let values = rt.heap.vec_values(state.gc());
    let (gen, promise) = (*values.first()?, *values.get(1)?);
    let is_generator = gen.is_object() && rt.heap.object_kind(gen.gc()) == CellKind::Generator;
    (is_generator && promise.is_object()).then(|| (gen, promise.gc()))
}

/// Await's onFulfilled (step 3): resumes the body with the value.
fn await_fulfilled(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let Some((gen, promise)) = continuation_state(rt) else {
        return Err(rt.throw_type_error("internal error: await continuation without its state"));
    };
    step(rt, gen, promise, super::arg(args, 0), RESUME_NEXT)?;
    Ok(Value::UNDEFINED)
}

/// Await's onRejected (step 5): throws the reason at the `await`.
fn await_rejected(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let Some((gen, promise)) = continuation_state(rt) else {
        return Err(rt.throw_type_error("internal error: await continuation without its state"));
    };
    step(rt, gen, promise, super::arg(args, 0), RESUME_THROW)?;
    Ok(Value::UNDEFINED)
}

/// 27.7.2/27.7.3: %AsyncFunction% and %AsyncFunction.prototype% (the [[Prototype]] of
/// async function closures). %AsyncFunction% is not a global: it is reached as
/// `Object.getPrototypeOf(async function () {}).constructor`.
/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin = Builtin { init, ..Builtin::NONE };

pub(crate) fn init(rt: &mut Runtime) {
    let fp = rt.intrinsic(Intrinsic::FunctionPrototype);
    let afp = rt.new_object(fp);
    super::iterator::define_tag(rt, afp, "AsyncFunction");
    rt.set_intrinsic(Intrinsic::AsyncFunctionPrototype, Value::object(afp));
    let af = rt.make_constructor("AsyncFunction", async_function_constructor, 1, None);
    let pk = Key::Name(rt.names.prototype);
    rt.define_data_raw(af, pk, Value::object(afp), 0);
    let ck = Key::Name(rt.names.constructor);
    rt.define_data_raw(afp, ck, Value::object(af), CONFIGURABLE);
    let function = rt.intrinsic(Intrinsic::Function);
    rt.change_prototype(af, function);
    rt.set_intrinsic(Intrinsic::AsyncFunction, Value::object(af));
    // Async function closures inherit %AsyncFunction.prototype% and have no `prototype`.
    rt.realm_mut().shapes.async_function = super::closure_shape(rt, Value::object(afp), false);
}

/// 27.7.1.1 AsyncFunction(...parameterArgs, bodyArg): CreateDynamicFunction of kind async.
fn async_function_constructor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    super::function::create_dynamic_function(rt, args, super::function::DynamicKind::Async)
}
