//! 27.2 Promise objects, and the promise jobs of the job queue (9.5).
//!
//! A promise is a [`PromiseObject`] cell: `[[PromiseState]]`, `[[PromiseResult]]`,
//! `[[PromiseIsHandled]]` and its pending reactions. Settling a promise turns each reaction
//! into a [`Job`] on the runtime's FIFO queue, which `Runtime::run_jobs` drains after a
//! script completes (a microtask checkpoint):
//!
//! ```text
//!  resolve(p, x) ─ x not a thenable ─▶ fulfil ──┐
//!       │                                       ├─▶ each reaction ─▶ reaction job ─▶ queue
//!       └ x.then callable ─▶ resolve-thenable job   reject ──┘        (handler, argument)
//!             (calls x.then(resolve', reject') later)
//!  p.then(f, r) ─ pending ─▶ reaction appended ;  settled ─▶ reaction job at once
//! ```
//!
//! Closures of the specification (resolving functions, the capability executor, the
//! `finally` functions, the combinators' element functions) are native functions whose
//! `data` holds their internal slots; state two functions share (`[[AlreadyResolved]]`,
//! `[[AlreadyCalled]]`, a capability record) lives in a `ValueVec` both point to.
//!
//! A capability whose constructor is %Promise% is *internal* when its resolving functions
//! would never reach JavaScript (`then`, PromiseResolve, `Promise.reject`, `Promise.try`):
//! its `resolve`/`reject` are empty and the job resolves the promise directly, saving three
//! function objects per `then`. Only one reaction ever settles such a promise, so the
//! `[[AlreadyResolved]]` record the functions would carry is never consulted.
//!
//! Unhandled rejections (27.2.1.9 HostPromiseRejectionTracker): a promise rejected while it
//! has no handler is recorded; `run_bundle` reports the first one still unhandled once the
//! queue is empty (see `RuntimeOptions::report_unhandled_rejections`).
//!
//! The combinators (`all`, `allSettled`, `any`, `race`, and the proposed `allKeyed` and
//! `allSettledKeyed`) are in `promise_combinators.rs`.

use super::{arg, rows, Builtin, Row};
use crate::gc::{CellKind, Gc};
use crate::object::{promise_state, JsObject, Key, PromiseObject, PromiseReaction, ValueVec};
use crate::runtime::function::{NativeFn, NativeFunction};
use crate::runtime::jobs::{Job, JOB_VALUES};
use crate::runtime::{ErrorKind, ExceptionKind, Intrinsic, JsResult, Runtime};
use crate::value::Value;

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin =
    Builtin { init, rows: ROWS, globals: &[("Promise", Intrinsic::Promise)], ..Builtin::NONE };

pub(crate) const ROWS: &[Row] = rows! {
    Promise."all" => super::promise_combinators::promise_all, 1;
    Promise."allKeyed" => super::promise_combinators::promise_all_keyed, 1;
    Promise."allSettled" => super::promise_combinators::promise_all_settled, 1;
    Promise."allSettledKeyed" => super::promise_combinators::promise_all_settled_keyed, 1;
    Promise."any" => super::promise_combinators::promise_any, 1;
    Promise."race" => super::promise_combinators::promise_race, 1;
    Promise."reject" => promise_reject_static, 1;
    Promise."resolve" => promise_resolve_static, 1;
    Promise."try" => promise_try, 1;
    Promise."withResolvers" => promise_with_resolvers, 0;
    Promise.[species] => super::array::species_getter, 0, getter;
    PromisePrototype."catch" => promise_prototype_catch, 1;
    PromisePrototype."finally" => promise_prototype_finally, 1;
    PromisePrototype."then" => promise_prototype_then, 2;
};

/// Creates %Promise% and %Promise.prototype%.
pub(crate) fn init(rt: &mut Runtime) {
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    let proto = rt.new_object(op);
    // 27.2.5.5 Promise.prototype[@@toStringTag] is "Promise".
    super::iterator::define_tag(rt, proto, "Promise");
    let c = rt.make_constructor("Promise", promise_constructor, 1, Some(proto));
    rt.set_intrinsic(Intrinsic::PromisePrototype, Value::object(proto));
    rt.set_intrinsic(Intrinsic::Promise, Value::object(c));
}

// ---- Jobs ---------------------------------------------------------------------------------

/// 27.2.2.1 NewPromiseReactionJob(reaction, argument): a job that runs `reaction` of a
/// promise that was fulfilled with, or (`rejected`) rejected with, `argument`.
fn reaction_job(reaction: PromiseReaction, rejected: bool, argument: Value, realm: u32) -> Job {
    let r = reaction;
    Job {
        run: if rejected { run_rejected_reaction } else { run_fulfilled_reaction },
        values: [r.promise, r.resolve, r.reject, r.on_fulfilled, r.on_rejected, argument],
        realm,
    }
}

fn run_fulfilled_reaction(rt: &mut Runtime, v: &[Value; JOB_VALUES]) -> JsResult<()> {
    run_reaction(rt, reaction_of(v), false, v[5])
}

fn run_rejected_reaction(rt: &mut Runtime, v: &[Value; JOB_VALUES]) -> JsResult<()> {
    run_reaction(rt, reaction_of(v), true, v[5])
}

fn reaction_of(v: &[Value; JOB_VALUES]) -> PromiseReaction {
    PromiseReaction { promise: v[0], resolve: v[1], reject: v[2], on_fulfilled: v[3], on_rejected: v[4] }
}

/// 27.2.2.2 NewPromiseResolveThenableJob(promiseToResolve, thenable, then).
fn resolve_thenable_job(promise: Value, thenable: Value, then: Value, realm: u32) -> Job {
    let u = Value::UNDEFINED;
    Job { run: run_resolve_thenable, values: [promise, thenable, then, u, u, u], realm }
}

fn run_resolve_thenable(rt: &mut Runtime, v: &[Value; JOB_VALUES]) -> JsResult<()> {
    let [promise, thenable, then, ..] = *v;
    // 27.2.2.2 step 1.a-d.
    let (resolve, reject) = create_resolving_functions(rt, promise.gc());
    rt.root(Value::object(resolve));
    rt.root(Value::object(reject));
    let args = [Value::object(resolve), Value::object(reject)];
    let r = rt.call(then, thenable, &args);
    if let Err(e) = completion(rt, r)? {
        rt.root(e);
        rt.call(Value::object(reject), Value::UNDEFINED, &[e])?;
    }
    Ok(())
}

/// 27.2.2.1 NewPromiseReactionJob, step 1 (the job's closure).
fn run_reaction(rt: &mut Runtime, reaction: PromiseReaction, rejected: bool, argument: Value) -> JsResult<()> {
    // c-e. Run the handler; an absent one passes the argument through.
    let handler = if rejected { reaction.on_rejected } else { reaction.on_fulfilled };
    let result = if handler.is_empty() {
        if rejected {
            Err(argument)
        } else {
            Ok(argument)
        }
    } else {
        let r = rt.call(handler, Value::UNDEFINED, &[argument]);
        completion(rt, r)?
    };
    let (Ok(v) | Err(v)) = result;
    rt.root(v);
    // f. Without a capability the handler's result is dropped. Such reactions come from the
    // internal `Runtime::promise_then`, whose handlers must not throw (the specification
    // asserts it); one that does anyway is reported as the job's exception. A reason with
    // no handler to take it is dropped too (the embedder asked for nothing).
    if reaction.promise.is_undefined() {
        return match result {
            Err(e) if !handler.is_empty() => Err(rt.throw(e)),
            _ => Ok(()),
        };
    }
    // h-i. Settle the derived promise.
    let cap = Capability { promise: reaction.promise, resolve: reaction.resolve, reject: reaction.reject };
    match result {
        Ok(v) => cap.resolve(rt, v),
        Err(e) => cap.reject(rt, e),
    }
}

// ---- Abstract operations ------------------------------------------------------------------

/// `Completion(r)`: a JavaScript exception becomes `Err(thrown value)` (taken from the
/// runtime, so the caller must root it before anything can collect); an uncatchable one
/// (interrupt, out of memory) still propagates.
pub(crate) fn completion<T>(rt: &mut Runtime, r: JsResult<T>) -> JsResult<Result<T, Value>> {
    match r {
        Ok(v) => Ok(Ok(v)),
        Err(e) if rt.exception_kind != ExceptionKind::Normal => Err(e),
        Err(_) => Ok(Err(rt.take_exception())),
    }
}

/// 27.2.1.6 IsPromise(x).
pub(crate) fn is_promise(rt: &Runtime, v: Value) -> bool {
    v.is_object() && rt.heap.object_kind(v.gc()) == CellKind::Promise
}

/// A new pending promise with prototype `proto`.
fn alloc_promise(rt: &mut Runtime, proto: Value) -> Gc<JsObject> {
    let shape = rt.root_shape(proto, CellKind::Promise, 0);
    let p = PromiseObject::new(JsObject::new(CellKind::Promise, shape));
    rt.heap.alloc_object(p, 0).cast()
}

/// The data of the running native function.
fn callee_data(rt: &Runtime) -> Value {
    rt.native_data(rt.native_callee())
}

/// The data of the running native function, which is a `ValueVec` record.
pub(crate) fn callee_record(rt: &Runtime) -> Gc<ValueVec> {
    callee_data(rt).gc()
}

/// 27.2.1.3 CreateResolvingFunctions(promise): a resolve and a reject function sharing one
/// `[[AlreadyResolved]]` record, a `ValueVec` of `[promise, alreadyResolved]`.
fn create_resolving_functions(rt: &mut Runtime, promise: Gc<JsObject>) -> (Gc<JsObject>, Gc<JsObject>) {
    // Allocation does not collect: nothing needs rooting until the functions are returned.
    let record = rt.heap.alloc_vec_from(&[Value::object(promise), Value::boolean(false)]);
    let resolve = rt.new_native_with_data("", resolve_function, 1, Value::cell(record));
    let reject = rt.new_native_with_data("", reject_function, 1, Value::cell(record));
    (resolve, reject)
}

/// 27.2.1.3.2 Promise Resolve Functions.
fn resolve_function(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-6. Do nothing once [[AlreadyResolved]] is set; otherwise set it.
    let record = callee_record(rt);
    if rt.heap.vec_get(record, 1) == Value::boolean(true) {
        return Ok(Value::UNDEFINED);
    }
    rt.heap.vec_set(record, 1, Value::boolean(true));
    let promise = rt.heap.vec_get(record, 0).gc();
    resolve(rt, promise, arg(args, 0))?;
    Ok(Value::UNDEFINED)
}

/// 27.2.1.3.1 Promise Reject Functions.
fn reject_function(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let record = callee_record(rt);
    if rt.heap.vec_get(record, 1) == Value::boolean(true) {
        return Ok(Value::UNDEFINED);
    }
    rt.heap.vec_set(record, 1, Value::boolean(true));
    let promise = rt.heap.vec_get(record, 0).gc();
    reject(rt, promise, arg(args, 0));
    Ok(Value::UNDEFINED)
}

/// 27.2.1.3.2 steps 7-16: resolves `promise` with `resolution`. Only an uncatchable
/// exception escapes (an exception from getting `then` rejects the promise).
pub(crate) fn resolve(rt: &mut Runtime, promise: Gc<JsObject>, resolution: Value) -> JsResult<()> {
    // 7. A promise resolved with itself is rejected with a TypeError.
    if resolution == Value::object(promise) {
        let e = rt.new_error(ErrorKind::TypeError, "Chaining cycle detected for promise #<Promise>");
        reject(rt, promise, Value::object(e));
        return Ok(());
    }
    // 8. A non-object fulfils.
    if !resolution.is_object() {
        fulfill(rt, promise, resolution);
        return Ok(());
    }
    // 9-11. Let then be Completion(Get(resolution, "then")); an abrupt completion rejects.
    rt.root(Value::object(promise));
    rt.root(resolution);
    let key = Key::Name(rt.names.then);
    let r = rt.get(resolution.gc(), key, resolution);
    let then = match completion(rt, r)? {
        Ok(t) => t,
        Err(e) => {
            reject(rt, promise, e);
            return Ok(());
        }
    };
    // 12. A non-callable `then` fulfils.
    if !rt.is_callable(then) {
        fulfill(rt, promise, resolution);
        return Ok(());
    }
    // 13-15. Adopt the thenable's state in a job, in the realm of `then`.
    let realm = rt.function_realm(then);
    rt.enqueue_job(resolve_thenable_job(Value::object(promise), resolution, then, realm));
    Ok(())
}

/// 27.2.1.4 FulfillPromise(promise, value) (nothing if it is settled already).
fn fulfill(rt: &mut Runtime, promise: Gc<JsObject>, value: Value) {
    let p = rt.heap.get_mut(promise.cast::<PromiseObject>());
    if p.state != promise_state::PENDING {
        return;
    }
    let reactions = std::mem::take(&mut p.reactions);
    p.result = value;
    p.state = promise_state::FULFILLED;
    trigger_reactions(rt, reactions, false, value);
}

/// 27.2.1.7 RejectPromise(promise, reason) (nothing if it is settled already).
pub(crate) fn reject(rt: &mut Runtime, promise: Gc<JsObject>, reason: Value) {
    let p = rt.heap.get_mut(promise.cast::<PromiseObject>());
    if p.state != promise_state::PENDING {
        return;
    }
    let reactions = std::mem::take(&mut p.reactions);
    p.result = reason;
    p.state = promise_state::REJECTED;
    // 27.2.1.9 HostPromiseRejectionTracker(promise, "reject"): remembered until the queue
    // empties; the "handle" operation needs no bookkeeping, as [[PromiseIsHandled]] is
    // read again when the rejections are reported.
    if !p.is_handled && rt.host.options.report_unhandled_rejections {
        track_rejection(rt, promise);
    }
    trigger_reactions(rt, reactions, true, reason);
}

/// Records a promise rejected with no handler. Promises handled since are dropped from the
/// list whenever its length reaches a power of two (from 1024), so a program that rejects
/// and handles many promises in one run does not keep them all alive.
fn track_rejection(rt: &mut Runtime, promise: Gc<JsObject>) {
    let n = rt.jobs.rejections.len();
    if n >= 1024 && n.is_power_of_two() {
        let heap = &rt.heap;
        rt.jobs.rejections.retain(|p| !heap.get(p.gc::<PromiseObject>()).is_handled);
    }
    rt.jobs.rejections.push(Value::object(promise));
}

/// 27.2.1.8 TriggerPromiseReactions(reactions, argument).
fn trigger_reactions(rt: &mut Runtime, reactions: Vec<PromiseReaction>, rejected: bool, argument: Value) {
    for reaction in reactions {
        let realm = reaction_realm(rt, &reaction, rejected);
        rt.enqueue_job(reaction_job(reaction, rejected, argument, realm));
    }
}

/// 27.2.2.1 NewPromiseReactionJob steps 2-3: the handler's realm, else the current one.
fn reaction_realm(rt: &Runtime, reaction: &PromiseReaction, rejected: bool) -> u32 {
    let handler = if rejected { reaction.on_rejected } else { reaction.on_fulfilled };
    if handler.is_empty() {
        rt.realm
    } else {
        rt.function_realm(handler)
    }
}

/// 27.2.5.4.1 PerformPromiseThen(promise, onFulfilled, onRejected, resultCapability); a
/// capability whose promise is undefined stands for an absent one.
fn perform_then(rt: &mut Runtime, promise: Gc<JsObject>, on_fulfilled: Value, on_rejected: Value, cap: Capability) {
    // 3-8. Non-callable handlers are empty.
    let on_fulfilled = if rt.is_callable(on_fulfilled) { on_fulfilled } else { Value::EMPTY };
    let on_rejected = if rt.is_callable(on_rejected) { on_rejected } else { Value::EMPTY };
    let reaction =
        PromiseReaction { promise: cap.promise, resolve: cap.resolve, reject: cap.reject, on_fulfilled, on_rejected };
    let p = rt.heap.get_mut(promise.cast::<PromiseObject>());
    let (state, result) = (p.state, p.result);
    // 12. Set promise.[[PromiseIsHandled]] to true.
    p.is_handled = true;
    match state {
        // 9. Pending: remember the reactions.
        promise_state::PENDING => p.reactions.push(reaction),
        // 10-11. Settled: the reaction's job is queued at once.
        _ => {
            let rejected = state == promise_state::REJECTED;
            let realm = reaction_realm(rt, &reaction, rejected);
            rt.enqueue_job(reaction_job(reaction, rejected, result, realm));
        }
    }
}

/// A PromiseCapability Record (27.2.1.1). `resolve`/`reject` are empty for an internal
/// capability (see the module docs).
#[derive(Clone, Copy)]
pub(crate) struct Capability {
    pub(crate) promise: Value,
    pub(crate) resolve: Value,
    pub(crate) reject: Value,
}

impl Capability {
    /// Calls `[[Resolve]]` with `v`.
    pub(crate) fn resolve(self, rt: &mut Runtime, v: Value) -> JsResult<()> {
        if self.resolve.is_empty() {
            return resolve(rt, self.promise.gc(), v);
        }
        rt.root(v);
        rt.call(self.resolve, Value::UNDEFINED, &[v]).map(|_| ())
    }

    /// Calls `[[Reject]]` with `v`.
    pub(crate) fn reject(self, rt: &mut Runtime, v: Value) -> JsResult<()> {
        if self.reject.is_empty() {
            reject(rt, self.promise.gc(), v);
            return Ok(());
        }
        rt.root(v);
        rt.call(self.reject, Value::UNDEFINED, &[v]).map(|_| ())
    }

    /// 27.2.1.1.1 IfAbruptRejectPromise with the thrown value `e`: rejects, and returns the
    /// promise.
    pub(crate) fn reject_with(self, rt: &mut Runtime, e: Value) -> JsResult<Value> {
        self.reject(rt, e)?;
        Ok(self.promise)
    }
}

/// The realm whose %Promise% `c` is, if it is one.
fn intrinsic_promise_realm(rt: &Runtime, c: Value) -> Option<u32> {
    if !c.is_object() || rt.heap.object_kind(c.gc()) != CellKind::NativeFunction {
        return None;
    }
    let realm = rt.function_realm(c);
    (rt.realms[realm as usize].intrinsic(Intrinsic::Promise) == c).then_some(realm)
}

/// 27.2.1.5 NewPromiseCapability(C). When `C` is a %Promise%, the promise is made directly
/// (`new C(executor)` could not be told apart: %Promise%'s `prototype` is fixed), and its
/// resolving functions are made only if `expose` says they reach JavaScript. The
/// capability's values are rooted.
pub(crate) fn new_capability(rt: &mut Runtime, c: Value, expose: bool) -> JsResult<Capability> {
    if let Some(realm) = intrinsic_promise_realm(rt, c) {
        // The Promise constructor runs in its own realm: its prototype and the resolving
        // functions come from there.
        let saved = rt.realm;
        rt.realm = realm;
        let proto = rt.intrinsic(Intrinsic::PromisePrototype);
        let promise = alloc_promise(rt, proto);
        let cap = if expose {
            let (resolve, reject) = create_resolving_functions(rt, promise);
            Capability {
                promise: Value::object(promise),
                resolve: Value::object(resolve),
                reject: Value::object(reject),
            }
        } else {
            Capability { promise: Value::object(promise), resolve: Value::EMPTY, reject: Value::EMPTY }
        };
        rt.realm = saved;
        rt.root(cap.promise);
        rt.root(cap.resolve);
        rt.root(cap.reject);
        return Ok(cap);
    }
    // 1. If IsConstructor(C) is false, throw a TypeError exception.
    if !rt.is_constructor(c) {
        let what = rt.short_description(c);
        return Err(rt.throw_type_error(&format!("{what} is not a constructor")));
    }
    // 3-5. The executor records the functions it is given in a [resolve, reject] record.
    let record = rt.heap.alloc_vec_from(&[Value::UNDEFINED, Value::UNDEFINED]);
    let executor = rt.new_native_with_data("", capabilities_executor, 2, Value::cell(record));
    rt.root(Value::object(executor));
    // 6. Let promise be ? Construct(C, « executor »).
    let promise = rt.construct(c, &[Value::object(executor)], c)?;
    rt.root(promise);
    // 7-8. Both must be callable.
    let (resolve, reject) = (rt.heap.vec_get(record, 0), rt.heap.vec_get(record, 1));
    if !rt.is_callable(resolve) {
        return Err(rt.throw_type_error("Promise resolve function is not callable"));
    }
    if !rt.is_callable(reject) {
        return Err(rt.throw_type_error("Promise reject function is not callable"));
    }
    rt.root(resolve);
    rt.root(reject);
    Ok(Capability { promise, resolve, reject })
}

/// 27.2.1.5.1 GetCapabilitiesExecutor Functions.
fn capabilities_executor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let record = callee_record(rt);
    // a-b. Throw if either was set already.
    if !rt.heap.vec_get(record, 0).is_undefined() || !rt.heap.vec_get(record, 1).is_undefined() {
        return Err(rt.throw_type_error("Promise executor has already been invoked with non-undefined arguments"));
    }
    // c-d.
    rt.heap.vec_set(record, 0, arg(args, 0));
    rt.heap.vec_set(record, 1, arg(args, 1));
    Ok(Value::UNDEFINED)
}

/// 27.2.4.7.1 PromiseResolve(C, x).
pub(crate) fn promise_resolve(rt: &mut Runtime, c: Value, x: Value) -> JsResult<Value> {
    // 1. If IsPromise(x) and x.constructor is C, return x.
    if is_promise(rt, x) {
        let key = Key::Name(rt.names.constructor);
        let xc = rt.get(x.gc(), key, x)?;
        if rt.same_value(xc, c) {
            return Ok(x);
        }
    }
    // 2-4.
    let cap = new_capability(rt, c, false)?;
    cap.resolve(rt, x)?;
    Ok(cap.promise)
}

/// 7.3.22 SpeciesConstructor(O, %Promise%).
fn species_constructor(rt: &mut Runtime, o: Value) -> JsResult<Value> {
    super::species_constructor(rt, o, Intrinsic::Promise)
}

/// 7.3.21 Invoke(V, P, argumentsList).
pub(crate) fn invoke(rt: &mut Runtime, v: Value, name: Key, args: &[Value]) -> JsResult<Value> {
    let f = rt.get_v(v, name)?;
    rt.call(f, v, args)
}

// ---- The constructor and its functions ------------------------------------------------------

/// 27.2.3.1 Promise(executor).
fn promise_constructor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is undefined, throw a TypeError exception.
    let nt = rt.native_new_target();
    if nt.is_undefined() {
        return Err(rt.throw_type_error("Promise constructor cannot be invoked without 'new'"));
    }
    // 2. If IsCallable(executor) is false, throw a TypeError exception.
    let executor = arg(args, 0);
    if !rt.is_callable(executor) {
        let what = rt.short_description(executor);
        return Err(rt.throw_type_error(&format!("Promise resolver {what} is not a function")));
    }
    // 3-7. OrdinaryCreateFromConstructor(NewTarget, "%Promise.prototype%"), pending.
    let proto = rt.prototype_from_constructor(nt, Intrinsic::PromisePrototype)?;
    let promise = alloc_promise(rt, proto);
    // 8. Let resolvingFunctions be CreateResolvingFunctions(promise).
    let (resolve, reject) = create_resolving_functions(rt, promise);
    rt.root(Value::object(promise));
    rt.root(Value::object(resolve));
    rt.root(Value::object(reject));
    // 9-10. Call the executor; if it throws, reject with the exception.
    let fns = [Value::object(resolve), Value::object(reject)];
    let r = rt.call(executor, Value::UNDEFINED, &fns);
    if let Err(e) = completion(rt, r)? {
        rt.root(e);
        rt.call(Value::object(reject), Value::UNDEFINED, &[e])?;
    }
    // 11. Return promise.
    Ok(Value::object(promise))
}

/// 27.2.4.5 Promise.reject(r).
fn promise_reject_static(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let cap = new_capability(rt, this, false)?;
    cap.reject(rt, arg(args, 0))?;
    Ok(cap.promise)
}

/// 27.2.4.6 Promise.resolve(x).
fn promise_resolve_static(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    // 2. If C is not an Object, throw a TypeError exception.
    if !this.is_object() {
        return Err(rt.throw_type_error("PromiseResolve called on non-object"));
    }
    promise_resolve(rt, this, arg(args, 0))
}

/// 27.2.4.8 Promise.try(callback, ...args).
fn promise_try(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    // 2. If C is not an Object, throw a TypeError exception.
    if !this.is_object() {
        return Err(rt.throw_type_error("Promise.try called on non-object"));
    }
    // 3. Let promiseCapability be ? NewPromiseCapability(C).
    let cap = new_capability(rt, this, false)?;
    // 4-6. Settle it with the callback's completion.
    let rest = args.get(1..).unwrap_or(&[]);
    let r = rt.call(arg(args, 0), Value::UNDEFINED, rest);
    match completion(rt, r)? {
        Ok(v) => cap.resolve(rt, v)?,
        Err(e) => cap.reject(rt, e)?,
    }
    Ok(cap.promise)
}

/// 27.2.4.9 Promise.withResolvers().
fn promise_with_resolvers(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let cap = new_capability(rt, this, true)?;
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    let obj = rt.new_object(op);
    for (name, v) in [("promise", cap.promise), ("resolve", cap.resolve), ("reject", cap.reject)] {
        let key = rt.key(name);
        rt.create_data_property_or_throw(obj, key, v)?;
    }
    Ok(Value::object(obj))
}

/// 27.2.5.1 Promise.prototype.catch(onRejected).
fn promise_prototype_catch(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    // 2. Return ? Invoke(promise, "then", « undefined, onRejected »).
    let key = Key::Name(rt.names.then);
    invoke(rt, this, key, &[Value::UNDEFINED, arg(args, 0)])
}

/// 27.2.5.3 Promise.prototype.finally(onFinally).
fn promise_prototype_finally(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    // 2. If promise is not an Object, throw a TypeError exception.
    if !this.is_object() {
        let what = rt.short_description(this);
        return Err(
            rt.throw_type_error(&format!("Method Promise.prototype.finally called on incompatible receiver {what}"))
        );
    }
    // 3. Let C be ? SpeciesConstructor(promise, %Promise%).
    let c = species_constructor(rt, this)?;
    rt.root(c);
    let on_finally = arg(args, 0);
    // 5-6. Non-callable: pass it as both handlers; otherwise thenFinally/catchFinally
    // closures over [onFinally, C].
    let (then_finally, catch_finally) = if !rt.is_callable(on_finally) {
        (on_finally, on_finally)
    } else {
        let record = rt.heap.alloc_vec_from(&[on_finally, c]);
        let t = rt.new_native_with_data("", then_finally, 1, Value::cell(record));
        let k = rt.new_native_with_data("", catch_finally, 1, Value::cell(record));
        rt.root(Value::object(t));
        rt.root(Value::object(k));
        (Value::object(t), Value::object(k))
    };
    // 7. Return ? Invoke(promise, "then", « thenFinally, catchFinally »).
    let key = Key::Name(rt.names.then);
    invoke(rt, this, key, &[then_finally, catch_finally])
}

/// The shared steps of thenFinally and catchFinally (27.2.5.3 steps 6.a and 6.c): calls
/// onFinally, then waits for its result before passing `settle` on (a function returning
/// or throwing the original value or reason).
fn finally_step(rt: &mut Runtime, settle: NativeFn, value: Value) -> JsResult<Value> {
    let record = callee_record(rt);
    let (on_finally, c) = (rt.heap.vec_get(record, 0), rt.heap.vec_get(record, 1));
    // i. Let result be ? Call(onFinally, undefined).
    let result = rt.call(on_finally, Value::UNDEFINED, &[])?;
    rt.root(result);
    // ii. Let p be ? PromiseResolve(C, result).
    let p = promise_resolve(rt, c, result)?;
    rt.root(p);
    // iii-v. Return ? Invoke(p, "then", « valueThunk » or « thrower »).
    let f = rt.new_native_with_data("", settle, 0, value);
    rt.root(Value::object(f));
    let key = Key::Name(rt.names.then);
    invoke(rt, p, key, &[Value::object(f)])
}

/// thenFinally (27.2.5.3 step 6.a).
fn then_finally(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    finally_step(rt, return_data, arg(args, 0))
}

/// catchFinally (27.2.5.3 step 6.c).
fn catch_finally(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    finally_step(rt, throw_data, arg(args, 0))
}

/// A valueThunk: returns the value it closes over.
fn return_data(rt: &mut Runtime, _this: Value, _args: &[Value]) -> JsResult<Value> {
    Ok(callee_data(rt))
}

/// A thrower: throws the reason it closes over.
fn throw_data(rt: &mut Runtime, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let reason = callee_data(rt);
    Err(rt.throw(reason))
}

/// 27.2.5.4 Promise.prototype.then(onFulfilled, onRejected).
fn promise_prototype_then(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    // 2. If IsPromise(promise) is false, throw a TypeError exception.
    if !is_promise(rt, this) {
        let what = rt.short_description(this);
        return Err(
            rt.throw_type_error(&format!("Method Promise.prototype.then called on incompatible receiver {what}"))
        );
    }
    // 3. Let C be ? SpeciesConstructor(promise, %Promise%).
    let c = species_constructor(rt, this)?;
    // 4. Let resultCapability be ? NewPromiseCapability(C).
    let cap = new_capability(rt, c, false)?;
    // 5. Return PerformPromiseThen(promise, onFulfilled, onRejected, resultCapability).
    perform_then(rt, this.gc(), arg(args, 0), arg(args, 1), cap);
    Ok(cap.promise)
}

// ---- The embedding API ----------------------------------------------------------------------

impl Runtime {
    /// A new pending promise whose constructor is the current realm's %Promise%.
    ///
    /// Like every allocation, the result is not rooted: root it before anything can collect.
    pub(crate) fn new_promise(&mut self) -> Gc<JsObject> {
        let proto = self.intrinsic(Intrinsic::PromisePrototype);
        alloc_promise(self, proto)
    }

    /// Resolves `promise` as its resolve function would: fulfils with `value`, or adopts it
    /// when it is a thenable (through a job); a self-resolution rejects with a TypeError.
    /// Does nothing if the promise is settled already; call it at most once per promise
    /// (there is no `[[AlreadyResolved]]` record to stop a second resolution of a promise
    /// still waiting on a thenable).
    ///
    /// Getting `value.then` may run a getter. If that is interrupted (or the heap limit is
    /// hit beyond recovery), the promise stays pending and the condition, which persists,
    /// is raised again at the next safepoint.
    pub(crate) fn resolve_promise(&mut self, promise: Gc<JsObject>, value: Value) {
        let mark = self.handle_mark();
        if resolve(self, promise, value).is_err() {
            // Only uncatchable exceptions escape `resolve`.
            self.exception = Value::UNDEFINED;
            self.exception_kind = ExceptionKind::Normal;
        }
        self.release_handles(mark);
    }

    /// Rejects `promise` with `reason` (if still pending).
    pub(crate) fn reject_promise(&mut self, promise: Gc<JsObject>, reason: Value) {
        reject(self, promise, reason);
    }

    /// PromiseResolve(%Promise%, value): `value` itself if it is a promise whose constructor
    /// is %Promise%, else a new promise resolved with it. Getting `value.constructor` may
    /// run a getter that throws. The result is not rooted.
    pub(crate) fn promise_resolve(&mut self, value: Value) -> JsResult<Gc<JsObject>> {
        let mark = self.handle_mark();
        self.root(value);
        let c = self.intrinsic(Intrinsic::Promise);
        let r = promise_resolve(self, c, value);
        self.release_handles(mark);
        r.map(|p| p.gc())
    }

    /// PerformPromiseThen(promise, onFulfilled, onRejected) without a result capability
    /// (the reactions' results are dropped). A non-callable handler means nothing runs for
    /// that outcome (the promise still counts as handled). The handlers must not throw: one
    /// that does makes `run_jobs` report the exception.
    pub(crate) fn promise_then(&mut self, promise: Gc<JsObject>, on_fulfilled: Value, on_rejected: Value) {
        let none = Capability { promise: Value::UNDEFINED, resolve: Value::UNDEFINED, reject: Value::UNDEFINED };
        perform_then(self, promise, on_fulfilled, on_rejected, none);
    }

    /// A new native function (not a constructor) carrying `data`, which the function reads
    /// back with `rt.native_data(rt.native_callee())`. `data` may be any value, including
    /// an internal cell (such as a `ValueVec` record); it is traced with the function. The
    /// result is not rooted.
    pub(crate) fn new_native_with_data(
        &mut self,
        name: &str,
        func: NativeFn,
        length: u32,
        data: Value,
    ) -> Gc<JsObject> {
        let f = self.new_native(name, func, length);
        self.heap.get_mut(f.cast::<NativeFunction>()).data = data;
        f
    }

    /// The `data` of native function `f` (undefined for anything else).
    pub(crate) fn native_data(&self, f: Value) -> Value {
        if f.is_object() && self.heap.object_kind(f.gc()) == CellKind::NativeFunction {
            self.heap.get(f.gc::<NativeFunction>()).data
        } else {
            Value::UNDEFINED
        }
    }
}

#[cfg(test)]
mod tests;
