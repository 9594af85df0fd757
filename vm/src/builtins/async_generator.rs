//! 27.6 AsyncGenerator objects: the driver that runs an async generator's body, and 27.4
//! %AsyncGeneratorFunction%.
//!
//! An async generator compiles like a generator (see `compiler/src/irgen/func.rs`): its
//! body is the inner function of a generator object, never exposed, and both `await v`
//! and `yield v` are yields of that generator; `markAsyncYield` just before a suspension
//! says it is a `yield`. The outer function wraps the generator in an AsyncGenerator object
//! (`asyncGeneratorStart`), which holds the request queue:
//!
//! ```text
//!  next(v)/throw(v)/return(v) ─▶ enqueue {kind, v, promise} ─▶ resume if suspended
//!  resume(kind, x): run the body with next(x)/throw(x)
//!      ├─ it awaits w        ─▶ PerformPromiseThen(PromiseResolve(w),
//!      │                          y => resume(next, y), e => resume(throw, e))
//!      ├─ it yields w        ─▶ resolve the front request with {value: w, done: false};
//!      │                        serve the next request at once, or wait (suspended-yield)
//!      └─ it returns or throws ─▶ complete the front request, then drain the queue
//!  a return(v) request at a yield awaits v first (AsyncGeneratorUnwrapYieldResumption);
//!  one after the body finished awaits v and completes (AsyncGeneratorAwaitReturn)
//! ```
//!
//! The steps are those of 27.6.3 with the generator's suspended execution context held by
//! the inner generator object. Resumptions that follow each other without waiting (requests
//! queued while the body was busy) run in a loop, not by recursion. Promise reactions are
//! native functions whose `data` is the AsyncGenerator object.

use super::{arg, rows, Builtin, Row};
use crate::gc::{CellKind, Gc};
use crate::interp::ops::generator::{self, RESUME_NEXT, RESUME_RETURN, RESUME_THROW};
use crate::object::shape::CONFIGURABLE;
use crate::object::{
    async_gen_state as st, AsyncGeneratorObject, AsyncGeneratorRequest, GeneratorObject, JsObject, Key,
};
use crate::runtime::function::NativeFn;
use crate::runtime::{ExceptionKind, Intrinsic, JsResult, Runtime};
use crate::value::Value;

use super::async_iteration as ai;

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin = Builtin { init, rows: ROWS, ..Builtin::NONE };

pub(crate) const ROWS: &[Row] = rows! {
    AsyncIteratorPrototype.[async_iterator] => ai::async_iterator_self, 0;
    AsyncFromSyncIteratorPrototype."next" => ai::from_sync_next, 1;
    AsyncFromSyncIteratorPrototype."return" => ai::from_sync_return, 1;
    AsyncFromSyncIteratorPrototype."throw" => ai::from_sync_throw, 1;
    AsyncGeneratorPrototype."next" => async_generator_next, 1;
    AsyncGeneratorPrototype."return" => async_generator_return, 1;
    AsyncGeneratorPrototype."throw" => async_generator_throw, 1;
};

/// `asyncGeneratorStart(generator)`: the AsyncGenerator object of a call of an async
/// generator function, in the suspended-start state (15.6.2 EvaluateAsyncGeneratorBody
/// steps 2-4; the body runs on the first `next`).
pub(crate) fn async_generator_start(rt: &mut Runtime, gen: Value) -> JsResult<Value> {
    let ok = gen.is_object() && rt.heap.object_kind(gen.gc()) == CellKind::Generator;
    if !ok {
        return Err(rt.throw_type_error("internal error: asyncGeneratorStart without a generator"));
    }
    // Step 2: OrdinaryCreateFromConstructor(functionObject,
    // "%AsyncGeneratorFunction.prototype.prototype%").
    let outer = rt.heap.get(gen.gc::<GeneratorObject>()).outer;
    let proto = if outer.is_object() {
        let key = Key::Name(rt.names.prototype);
        rt.get(outer.gc(), key, outer)?
    } else {
        Value::UNDEFINED
    };
    let proto = if proto.is_object() { proto } else { rt.intrinsic(Intrinsic::AsyncGeneratorPrototype) };
    let shape = rt.root_shape(proto, CellKind::AsyncGenerator, 0);
    let ag = AsyncGeneratorObject::new(JsObject::new(CellKind::AsyncGenerator, shape), gen);
    let ag = rt.heap.alloc_object(ag, 0);
    Ok(Value::object(ag))
}

/// `markAsyncYield`: the suspension that follows in the running async generator body is a
/// `yield`.
pub(crate) fn mark_async_yield(rt: &mut Runtime) {
    let Some(frame) = rt.calls.frames.last() else { return };
    let g = frame.generator;
    if g.is_object() && rt.heap.object_kind(g.gc()) == CellKind::Generator {
        rt.heap.get_mut(g.gc::<GeneratorObject>()).async_yield = 1;
    }
}

/// The AsyncGenerator object `v` is, if it is one (27.6.3.3 AsyncGeneratorValidate with an
/// empty brand).
fn this_async_generator(rt: &Runtime, v: Value) -> Option<Gc<AsyncGeneratorObject>> {
    let ok = v.is_object() && rt.heap.object_kind(v.gc()) == CellKind::AsyncGenerator;
    ok.then(|| v.gc())
}

/// IfAbruptRejectPromise for a new TypeError: rejects `promise` and returns it.
fn reject_with_type_error(rt: &mut Runtime, promise: Gc<JsObject>, msg: &str) -> JsResult<Value> {
    let e = rt.throw_type_error(msg);
    if rt.exception_kind != ExceptionKind::Normal {
        return Err(e);
    }
    let reason = rt.take_exception();
    rt.reject_promise(promise, reason);
    Ok(Value::object(promise))
}

/// 27.6.3.4 AsyncGeneratorEnqueue.
fn enqueue(rt: &mut Runtime, ag: Gc<AsyncGeneratorObject>, kind: u8, value: Value, promise: Gc<JsObject>) {
    let request = AsyncGeneratorRequest { kind, value, promise: Value::object(promise) };
    rt.heap.get_mut(ag).queue.push_back(request);
}

fn state_of(rt: &Runtime, ag: Gc<AsyncGeneratorObject>) -> u8 {
    rt.heap.get(ag).state
}

fn set_state(rt: &mut Runtime, ag: Gc<AsyncGeneratorObject>, state: u8) {
    rt.heap.get_mut(ag).state = state;
}

/// 27.6.1.2 %AsyncGeneratorPrototype%.next(value).
fn async_generator_next(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let value = arg(args, 0);
    // 2. Let promiseCapability be ! NewPromiseCapability(%Promise%).
    let promise = rt.new_promise();
    rt.root(Value::object(promise));
    // 3-4. AsyncGeneratorValidate; IfAbruptRejectPromise.
    let Some(ag) = this_async_generator(rt, this) else {
        return reject_with_type_error(rt, promise, "AsyncGenerator.prototype.next called on incompatible receiver");
    };
    let state = state_of(rt, ag);
    // 5. A completed generator: { value: undefined, done: true }.
    if state == st::COMPLETED {
        let r = rt.create_iter_result(Value::UNDEFINED, true);
        rt.root(r);
        rt.resolve_promise(promise, r);
        return Ok(Value::object(promise));
    }
    // 6-7. Enqueue a normal completion.
    enqueue(rt, ag, RESUME_NEXT, value, promise);
    // 8. AsyncGeneratorResume when suspended; else it waits in the queue.
    if state == st::SUSPENDED_START || state == st::SUSPENDED_YIELD {
        resume(rt, ag, RESUME_NEXT, value, false)?;
    }
    Ok(Value::object(promise))
}

/// 27.6.1.3 %AsyncGeneratorPrototype%.return(value).
fn async_generator_return(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let value = arg(args, 0);
    let promise = rt.new_promise();
    rt.root(Value::object(promise));
    let Some(ag) = this_async_generator(rt, this) else {
        return reject_with_type_error(rt, promise, "AsyncGenerator.prototype.return called on incompatible receiver");
    };
    // 5-6. Enqueue a return completion.
    enqueue(rt, ag, RESUME_RETURN, value, promise);
    let state = state_of(rt, ag);
    if state == st::SUSPENDED_START || state == st::COMPLETED {
        // 8. AsyncGeneratorAwaitReturn (the queue held nothing else).
        set_state(rt, ag, st::DRAINING_QUEUE);
        drain_queue(rt, ag)?;
    } else if state == st::SUSPENDED_YIELD {
        // 9. AsyncGeneratorResume with the return completion.
        resume(rt, ag, RESUME_RETURN, value, true)?;
    }
    Ok(Value::object(promise))
}

/// 27.6.1.4 %AsyncGeneratorPrototype%.throw(exception).
fn async_generator_throw(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let value = arg(args, 0);
    let promise = rt.new_promise();
    rt.root(Value::object(promise));
    let Some(ag) = this_async_generator(rt, this) else {
        return reject_with_type_error(rt, promise, "AsyncGenerator.prototype.throw called on incompatible receiver");
    };
    let mut state = state_of(rt, ag);
    // 5. A generator that has not started completes without running.
    if state == st::SUSPENDED_START {
        set_state(rt, ag, st::COMPLETED);
        state = st::COMPLETED;
    }
    // 6. A completed generator rejects with the exception.
    if state == st::COMPLETED {
        rt.reject_promise(promise, value);
        return Ok(Value::object(promise));
    }
    // 7-8. Enqueue a throw completion.
    enqueue(rt, ag, RESUME_THROW, value, promise);
    // 9. AsyncGeneratorResume when suspended at a yield.
    if state == st::SUSPENDED_YIELD {
        resume(rt, ag, RESUME_THROW, value, false)?;
    }
    Ok(Value::object(promise))
}

/// 27.6.3.5 AsyncGeneratorCompleteStep: removes the front request and settles its promise
/// with `completion` (an iterator result `{ value, done }` for a normal completion).
fn complete_step(rt: &mut Runtime, ag: Gc<AsyncGeneratorObject>, completion: Result<Value, Value>, done: bool) {
    let Some(request) = rt.heap.get_mut(ag).queue.pop_front() else { return };
    let mark = rt.handle_mark();
    rt.root(request.promise);
    let promise: Gc<JsObject> = request.promise.gc();
    match completion {
        Err(reason) => {
            rt.root(reason);
            rt.reject_promise(promise, reason);
        }
        Ok(v) => {
            rt.root(v);
            let r = rt.create_iter_result(v, done);
            rt.root(r);
            rt.resolve_promise(promise, r);
        }
    }
    rt.release_handles(mark);
}

/// Await(v) for the driver: PerformPromiseThen(PromiseResolve(%Promise%, v), onFulfilled,
/// onRejected) with reactions carrying `ag`. `Ok(Some(reason))` when PromiseResolve threw
/// (the throw completion of the Await); only uncatchable exceptions are errors.
fn await_with(
    rt: &mut Runtime,
    ag: Gc<AsyncGeneratorObject>,
    v: Value,
    on_fulfilled: NativeFn,
    on_rejected: NativeFn,
) -> JsResult<Option<Value>> {
    let mark = rt.handle_mark();
    rt.root(v);
    let promise = match rt.promise_resolve(v) {
        Ok(p) => p,
        Err(e) => {
            rt.release_handles(mark);
            if rt.exception_kind != ExceptionKind::Normal {
                return Err(e);
            }
            return Ok(Some(rt.take_exception()));
        }
    };
    rt.root(Value::object(promise));
    let data = Value::object(ag.cast::<JsObject>());
    let f = rt.new_native_with_data("", on_fulfilled, 1, data);
    rt.root(Value::object(f));
    let r = rt.new_native_with_data("", on_rejected, 1, data);
    rt.promise_then(promise, Value::object(f), Value::object(r));
    rt.release_handles(mark);
    Ok(None)
}

/// AsyncGeneratorResume (27.6.3.6) with `kind` and `value`, and everything that follows
/// until the body waits for a promise, waits at a `yield` with no request queued, or has
/// finished and drained the queue. With `unwrap`, a return completion is awaited before it
/// reaches the body (AsyncGeneratorUnwrapYieldResumption).
fn resume(
    rt: &mut Runtime,
    ag: Gc<AsyncGeneratorObject>,
    mut kind: u8,
    mut value: Value,
    mut unwrap: bool,
) -> JsResult<()> {
    let base = rt.handle_mark();
    let r = loop {
        rt.release_handles(base);
        rt.root(Value::object(ag.cast::<JsObject>()));
        rt.root(value);
        set_state(rt, ag, st::EXECUTING);
        if kind == RESUME_RETURN && unwrap {
            // 27.6.3.7 AsyncGeneratorUnwrapYieldResumption steps 2-5: awaited =
            // Await(value); a rejection is thrown at the yield.
            match await_with(rt, ag, value, return_fulfilled, return_rejected) {
                Ok(None) => break Ok(()),
                Ok(Some(reason)) => {
                    (kind, value, unwrap) = (RESUME_THROW, reason, false);
                    continue;
                }
                Err(e) => break Err(e),
            }
        }
        let gen = rt.heap.get(ag).generator;
        rt.heap.get_mut(gen.gc::<GeneratorObject>()).async_yield = 0;
        let result = match generator::resume(rt, gen, value, kind) {
            Ok(r) => r,
            Err(e) => {
                if rt.exception_kind != ExceptionKind::Normal {
                    break Err(e);
                }
                // 27.6.3.2 AsyncGeneratorStart steps 4.f-j: the body threw.
                let reason = rt.take_exception();
                set_state(rt, ag, st::DRAINING_QUEUE);
                complete_step(rt, ag, Err(reason), true);
                break drain_queue(rt, ag);
            }
        };
        // The body's frame hands back an iterator result: `{ value, done }`.
        let (v, done) = {
            let o: Gc<JsObject> = result.gc();
            let slots = rt.heap.inline_slots(o);
            (slots[0], slots[1] == Value::TRUE)
        };
        rt.root(v);
        if done {
            // AsyncGeneratorStart steps 4.f-j: a return (or the end of the body).
            set_state(rt, ag, st::DRAINING_QUEUE);
            complete_step(rt, ag, Ok(v), true);
            break drain_queue(rt, ag);
        }
        let g = gen.gc::<GeneratorObject>();
        let is_yield = std::mem::take(&mut rt.heap.get_mut(g).async_yield) != 0;
        if !is_yield {
            // 27.7.5.3 Await(v) in the body.
            match await_with(rt, ag, v, await_fulfilled, await_rejected) {
                Ok(None) => break Ok(()),
                Ok(Some(reason)) => {
                    (kind, value, unwrap) = (RESUME_THROW, reason, false);
                    continue;
                }
                Err(e) => break Err(e),
            }
        }
        // 27.6.3.8 AsyncGeneratorYield(v) steps 9-12: complete the front request; serve the
        // next one without suspending, or wait for one.
        complete_step(rt, ag, Ok(v), false);
        let front = rt.heap.get(ag).queue.front().copied();
        match front {
            Some(request) => (kind, value, unwrap) = (request.kind, request.value, true),
            None => {
                set_state(rt, ag, st::SUSPENDED_YIELD);
                break Ok(());
            }
        }
    };
    rt.release_handles(base);
    r
}

/// 27.6.3.10 AsyncGeneratorDrainQueue (with 27.6.3.9 AsyncGeneratorAwaitReturn for return
/// requests): completes the queued requests of a finished generator.
fn drain_queue(rt: &mut Runtime, ag: Gc<AsyncGeneratorObject>) -> JsResult<()> {
    loop {
        let Some(request) = rt.heap.get(ag).queue.front().copied() else {
            set_state(rt, ag, st::COMPLETED);
            return Ok(());
        };
        if request.kind == RESUME_RETURN {
            // AwaitReturn: the value is awaited, then the request completes with it.
            match await_with(rt, ag, request.value, drain_fulfilled, drain_rejected)? {
                None => return Ok(()),
                Some(reason) => {
                    complete_step(rt, ag, Err(reason), true);
                    continue;
                }
            }
        }
        let completion = if request.kind == RESUME_THROW { Err(request.value) } else { Ok(Value::UNDEFINED) };
        complete_step(rt, ag, completion, true);
    }
}

/// The AsyncGenerator object a reaction carries.
fn reaction_target(rt: &mut Runtime) -> JsResult<Gc<AsyncGeneratorObject>> {
    let callee = rt.native_callee();
    let data = rt.native_data(callee);
    match this_async_generator(rt, data) {
        Some(ag) => Ok(ag),
        None => Err(rt.throw_type_error("internal error: async generator reaction without its generator")),
    }
}

/// Await's onFulfilled in the body: resumes it with the value.
fn await_fulfilled(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let ag = reaction_target(rt)?;
    resume(rt, ag, RESUME_NEXT, arg(args, 0), false)?;
    Ok(Value::UNDEFINED)
}

/// Await's onRejected in the body: throws the reason at the `await`.
fn await_rejected(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let ag = reaction_target(rt)?;
    resume(rt, ag, RESUME_THROW, arg(args, 0), false)?;
    Ok(Value::UNDEFINED)
}

/// AsyncGeneratorUnwrapYieldResumption, the awaited value fulfilled: the body returns with
/// it from the `yield`.
fn return_fulfilled(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let ag = reaction_target(rt)?;
    resume(rt, ag, RESUME_RETURN, arg(args, 0), false)?;
    Ok(Value::UNDEFINED)
}

/// AsyncGeneratorUnwrapYieldResumption, the awaited value rejected: thrown at the `yield`.
fn return_rejected(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let ag = reaction_target(rt)?;
    resume(rt, ag, RESUME_THROW, arg(args, 0), false)?;
    Ok(Value::UNDEFINED)
}

/// AsyncGeneratorAwaitReturn's fulfilledClosure: the return request completes with the
/// value, then the queue drains on.
fn drain_fulfilled(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let ag = reaction_target(rt)?;
    complete_step(rt, ag, Ok(arg(args, 0)), true);
    drain_queue(rt, ag)?;
    Ok(Value::UNDEFINED)
}

/// AsyncGeneratorAwaitReturn's rejectedClosure: the return request rejects.
fn drain_rejected(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let ag = reaction_target(rt)?;
    complete_step(rt, ag, Err(arg(args, 0)), true);
    drain_queue(rt, ag)?;
    Ok(Value::UNDEFINED)
}

/// Creates %AsyncIteratorPrototype% (27.1.4), %AsyncFromSyncIteratorPrototype% (27.1.6.2),
/// %AsyncGeneratorPrototype% (27.6.1), %AsyncGeneratorFunction.prototype% (27.4.3) and
/// %AsyncGeneratorFunction% (27.4.1, not a global: reached as
/// `Object.getPrototypeOf(async function* () {}).constructor`).
pub(crate) fn init(rt: &mut Runtime) {
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    let aip = rt.new_object(op);
    rt.set_intrinsic(Intrinsic::AsyncIteratorPrototype, Value::object(aip));
    let afsip = rt.new_object(Value::object(aip));
    rt.set_intrinsic(Intrinsic::AsyncFromSyncIteratorPrototype, Value::object(afsip));
    let agp = rt.new_object(Value::object(aip));
    super::iterator::define_tag(rt, agp, "AsyncGenerator");
    rt.set_intrinsic(Intrinsic::AsyncGeneratorPrototype, Value::object(agp));
    let fp = rt.intrinsic(Intrinsic::FunctionPrototype);
    let agfp = rt.new_object(fp);
    super::iterator::define_tag(rt, agfp, "AsyncGeneratorFunction");
    let pk = Key::Name(rt.names.prototype);
    let ck = Key::Name(rt.names.constructor);
    rt.define_data_raw(agfp, pk, Value::object(agp), CONFIGURABLE);
    rt.define_data_raw(agp, ck, Value::object(agfp), CONFIGURABLE);
    rt.set_intrinsic(Intrinsic::AsyncGeneratorFunctionPrototype, Value::object(agfp));
    let agf = rt.make_constructor("AsyncGeneratorFunction", async_generator_function_constructor, 1, None);
    rt.define_data_raw(agf, pk, Value::object(agfp), 0);
    rt.define_data_raw(agfp, ck, Value::object(agf), CONFIGURABLE);
    let function = rt.intrinsic(Intrinsic::Function);
    rt.change_prototype(agf, function);
    rt.set_intrinsic(Intrinsic::AsyncGeneratorFunction, Value::object(agf));
    // Async generator function closures inherit %AsyncGeneratorFunction.prototype%.
    rt.realm_mut().shapes.async_generator_function = super::closure_shape(rt, Value::object(agfp), true);
}

/// 27.4.1.1 AsyncGeneratorFunction(...parameterArgs, bodyArg): CreateDynamicFunction of
/// kind asyncGenerator.
fn async_generator_function_constructor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    super::function::create_dynamic_function(rt, args, super::function::DynamicKind::AsyncGenerator)
}
