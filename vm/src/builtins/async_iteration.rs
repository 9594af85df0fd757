//! Async iteration: 7.4.3 GetIterator(obj, async) (`getAsyncIterator`, for `for await` and
//! `yield*` in async generators), 27.1.4 %AsyncIteratorPrototype% and 27.1.6
//! %AsyncFromSyncIteratorPrototype% (the wrapper that lets `for await` consume a sync
//! iterator, awaiting each value).
//!
//! An async-from-sync iterator is an `IteratorObject` of kind `ASYNC_FROM_SYNC` whose
//! `target` is a `ValueVec` of its [[SyncIteratorRecord]]: the sync iterator and its
//! `next` method. It is never handed to JavaScript code: only `next`, `return` and `throw`
//! see it, as their receiver. The reactions of AsyncFromSyncIteratorContinuation are
//! native functions whose `data` is a `ValueVec` of the result promise, `done` and the sync
//! iterator; they settle the promise themselves (the capability is an internal %Promise%).

use super::arg;
use crate::gc::{CellKind, Gc};
use crate::object::{iter_kind, IteratorObject, JsObject, Key};
use crate::runtime::function::NativeFn;
use crate::runtime::iteration::iterator_close;
use crate::runtime::{Exception, ExceptionKind, Intrinsic, JsResult, Runtime};
use crate::value::Value;

/// 27.1.4.1 %AsyncIteratorPrototype%[@@asyncIterator]().
pub(crate) fn async_iterator_self(_rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    Ok(this)
}

/// `getAsyncIterator(obj)`: 7.4.3 GetIterator(obj, async), returning the iterator (the
/// caller reads its `next`).
pub(crate) fn get_async_iterator(rt: &mut Runtime, obj: Value) -> JsResult<Value> {
    let mark = rt.handle_mark();
    let r = get_async_iterator_inner(rt, obj);
    rt.release_handles(mark);
    r
}

fn get_async_iterator_inner(rt: &mut Runtime, obj: Value) -> JsResult<Value> {
    // 1.a. Let method be ? GetMethod(obj, @@asyncIterator).
    let key = Key::Name(rt.symbols.async_iterator);
    let method = rt.get_v(obj, key)?;
    if method.is_nullish() {
        // 1.b.i. Let syncMethod be ? GetMethod(obj, @@iterator).
        let key = Key::Name(rt.symbols.iterator);
        let sync_method = rt.get_v(obj, key)?;
        // ii. If syncMethod is undefined, throw a TypeError exception.
        if sync_method.is_nullish() {
            let what = rt.short_description(obj);
            return Err(rt.throw_type_error(&format!("{what} is not async iterable")));
        }
        if !rt.is_callable(sync_method) {
            return Err(rt.throw_type_error("Symbol.iterator is not a function"));
        }
        // iii. Let syncIteratorRecord be ? GetIteratorFromMethod(obj, syncMethod).
        let it = rt.call(sync_method, obj, &[])?;
        if !it.is_object() {
            return Err(rt.throw_type_error("Result of the Symbol.iterator method is not an object"));
        }
        rt.root(it);
        let next_key = Key::Name(rt.names.next);
        let next = rt.get(it.gc(), next_key, it)?;
        rt.root(next);
        // iv. Return CreateAsyncFromSyncIterator(syncIteratorRecord).
        return Ok(create_async_from_sync_iterator(rt, it, next));
    }
    if !rt.is_callable(method) {
        return Err(rt.throw_type_error("Symbol.asyncIterator is not a function"));
    }
    // 3-4. GetIteratorFromMethod: the iterator must be an object.
    let it = rt.call(method, obj, &[])?;
    if !it.is_object() {
        return Err(rt.throw_type_error("Result of the Symbol.asyncIterator method is not an object"));
    }
    Ok(it)
}

/// 27.1.6.1 CreateAsyncFromSyncIterator(syncIteratorRecord) (`it` and `next` rooted).
pub(crate) fn create_async_from_sync_iterator(rt: &mut Runtime, it: Value, next: Value) -> Value {
    let record = rt.heap.alloc_vec_from(&[it, next]);
    rt.root(Value::cell(record));
    let proto = rt.intrinsic(Intrinsic::AsyncFromSyncIteratorPrototype);
    let shape = rt.root_shape(proto, CellKind::Iterator, 0);
    let obj =
        IteratorObject::new(JsObject::new(CellKind::Iterator, shape), Value::cell(record), iter_kind::ASYNC_FROM_SYNC);
    Value::object(rt.heap.alloc_object(obj, 0))
}

/// The [[SyncIteratorRecord]] (iterator, next method) of an async-from-sync iterator.
fn sync_record(rt: &Runtime, this: Value) -> Option<(Value, Value)> {
    if !this.is_object() || rt.heap.object_kind(this.gc()) != CellKind::Iterator {
        return None;
    }
    let it = rt.heap.get(this.gc::<IteratorObject>());
    if it.kind != iter_kind::ASYNC_FROM_SYNC || !it.target.is_cell() {
        return None;
    }
    let values = rt.heap.vec_values(it.target.gc());
    Some((*values.first()?, *values.get(1)?))
}

/// IfAbruptRejectPromise: rejects `promise` with the thrown value and returns it; an
/// uncatchable exception propagates.
fn reject_abrupt(rt: &mut Runtime, promise: Gc<JsObject>, e: Exception) -> JsResult<Value> {
    if rt.exception_kind != ExceptionKind::Normal {
        return Err(e);
    }
    let reason = rt.take_exception();
    rt.reject_promise(promise, reason);
    Ok(Value::object(promise))
}

/// Rejects `promise` with a new TypeError and returns it.
fn reject_type_error(rt: &mut Runtime, promise: Gc<JsObject>, msg: &str) -> JsResult<Value> {
    let e = rt.throw_type_error(msg);
    reject_abrupt(rt, promise, e)
}

/// A new promise (rooted) and the receiver's record, or the promise rejected with a
/// TypeError when the receiver is not an async-from-sync iterator.
fn start(rt: &mut Runtime, this: Value, what: &str) -> Result<(Gc<JsObject>, Value, Value), JsResult<Value>> {
    // 3. Let promiseCapability be ! NewPromiseCapability(%Promise%).
    let promise = rt.new_promise();
    rt.root(Value::object(promise));
    match sync_record(rt, this) {
        Some((it, next)) => Ok((promise, it, next)),
        None => Err(reject_type_error(rt, promise, &format!("{what} called on incompatible receiver"))),
    }
}

/// Calls `f` on `it` with the method's argument if it was given ("if value is present").
fn call_with_optional(rt: &mut Runtime, f: Value, it: Value, args: &[Value]) -> JsResult<Value> {
    match args.first() {
        Some(&v) => rt.call(f, it, &[v]),
        None => rt.call(f, it, &[]),
    }
}

/// GetMethod(it, name): undefined for null or undefined, a TypeError if not callable.
fn get_method(rt: &mut Runtime, it: Value, name: &str) -> JsResult<Value> {
    let key = rt.key(name);
    let f = rt.get_v(it, key)?;
    if f.is_nullish() {
        return Ok(Value::UNDEFINED);
    }
    if !rt.is_callable(f) {
        return Err(rt.throw_type_error(&format!("iterator.{name} is not a function")));
    }
    Ok(f)
}

/// 27.1.6.2.1 %AsyncFromSyncIteratorPrototype%.next(value).
pub(crate) fn from_sync_next(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let (promise, it, next) = match start(rt, this, "AsyncFromSyncIterator.prototype.next") {
        Ok(x) => x,
        Err(r) => return r,
    };
    // 5-6. IteratorNext(syncIteratorRecord, value); IfAbruptRejectPromise.
    let result = match call_with_optional(rt, next, it, args) {
        Ok(r) => r,
        Err(e) => return reject_abrupt(rt, promise, e),
    };
    if !result.is_object() {
        return reject_type_error(rt, promise, "iterator result is not an object");
    }
    // 7. AsyncFromSyncIteratorContinuation(result, promiseCapability, record, true).
    continuation(rt, result, promise, it, true)
}

/// 27.1.6.2.2 %AsyncFromSyncIteratorPrototype%.return(value).
pub(crate) fn from_sync_return(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let (promise, it, _) = match start(rt, this, "AsyncFromSyncIterator.prototype.return") {
        Ok(x) => x,
        Err(r) => return r,
    };
    // 6-7. Let return be GetMethod(syncIterator, "return"); IfAbruptRejectPromise.
    let ret = match get_method(rt, it, "return") {
        Ok(f) => f,
        Err(e) => return reject_abrupt(rt, promise, e),
    };
    // 8. No `return`: resolve with { value, done: true }.
    if ret.is_undefined() {
        let r = rt.create_iter_result(arg(args, 0), true);
        rt.root(r);
        rt.resolve_promise(promise, r);
        return Ok(Value::object(promise));
    }
    // 9-11. Call it; the result must be an object.
    let result = match call_with_optional(rt, ret, it, args) {
        Ok(r) => r,
        Err(e) => return reject_abrupt(rt, promise, e),
    };
    if !result.is_object() {
        return reject_type_error(rt, promise, "iterator.return() did not return an object");
    }
    // 12. AsyncFromSyncIteratorContinuation(result, promiseCapability, record, false).
    continuation(rt, result, promise, it, false)
}

/// 27.1.6.2.3 %AsyncFromSyncIteratorPrototype%.throw(value).
pub(crate) fn from_sync_throw(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let (promise, it, _) = match start(rt, this, "AsyncFromSyncIterator.prototype.throw") {
        Ok(x) => x,
        Err(r) => return r,
    };
    // 6-7. Let throw be GetMethod(syncIterator, "throw"); IfAbruptRejectPromise.
    let throw = match get_method(rt, it, "throw") {
        Ok(f) => f,
        Err(e) => return reject_abrupt(rt, promise, e),
    };
    if throw.is_undefined() {
        // 8.a-d. Close the sync iterator (a normal completion: its errors reject)...
        if let Err(e) = iterator_close(rt, it, false) {
            return reject_abrupt(rt, promise, e);
        }
        // 8.g. ...and reject with a TypeError for the protocol violation.
        return reject_type_error(rt, promise, "The iterator does not provide a 'throw' method");
    }
    // 9-11. Call it; the result must be an object.
    let result = match call_with_optional(rt, throw, it, args) {
        Ok(r) => r,
        Err(e) => return reject_abrupt(rt, promise, e),
    };
    if !result.is_object() {
        return reject_type_error(rt, promise, "iterator.throw() did not return an object");
    }
    // 12. AsyncFromSyncIteratorContinuation(result, promiseCapability, record, true).
    continuation(rt, result, promise, it, true)
}

/// 27.1.6.4 AsyncFromSyncIteratorContinuation(result, promiseCapability,
/// syncIteratorRecord, closeOnRejection).
fn continuation(
    rt: &mut Runtime,
    result: Value,
    promise: Gc<JsObject>,
    it: Value,
    close_on_rejection: bool,
) -> JsResult<Value> {
    rt.root(result);
    let ro: Gc<JsObject> = result.gc();
    // 2-3. Let done be Completion(IteratorComplete(result)); IfAbruptRejectPromise.
    let done_key = Key::Name(rt.names.done);
    let done = match rt.get(ro, done_key, result) {
        Ok(d) => rt.to_boolean(d),
        Err(e) => return reject_abrupt(rt, promise, e),
    };
    // 4-5. Let value be Completion(IteratorValue(result)); IfAbruptRejectPromise.
    let value_key = Key::Name(rt.names.value);
    let value = match rt.get(ro, value_key, result) {
        Ok(v) => v,
        Err(e) => return reject_abrupt(rt, promise, e),
    };
    rt.root(value);
    // 6. Let valueWrapper be Completion(PromiseResolve(%Promise%, value)).
    let wrapper = match rt.promise_resolve(value) {
        Ok(p) => p,
        Err(e) => {
            if rt.exception_kind != ExceptionKind::Normal {
                return Err(e);
            }
            // 7. An abrupt valueWrapper closes a sync iterator that is not done (the
            // closing's own errors are dropped: the completion is a throw).
            let reason = rt.take_exception();
            rt.root(reason);
            if !done && close_on_rejection {
                iterator_close(rt, it, true)?;
            }
            // 8. IfAbruptRejectPromise(valueWrapper, promiseCapability).
            rt.reject_promise(promise, reason);
            return Ok(Value::object(promise));
        }
    };
    rt.root(Value::object(wrapper));
    // 9-13. onFulfilled unwraps the value into { value, done }; onRejected closes the sync
    // iterator first when it is not done and closeOnRejection holds.
    let data = rt.heap.alloc_vec_from(&[Value::object(promise), Value::boolean(done), it]);
    let data = Value::cell(data);
    rt.root(data);
    let on_fulfilled = rt.new_native_with_data("", unwrap_fulfilled, 1, data);
    rt.root(Value::object(on_fulfilled));
    let rejected: NativeFn = if done || !close_on_rejection { pass_rejection } else { close_and_reject };
    let on_rejected = rt.new_native_with_data("", rejected, 1, data);
    // 14. PerformPromiseThen(valueWrapper, onFulfilled, onRejected, promiseCapability).
    rt.promise_then(wrapper, Value::object(on_fulfilled), Value::object(on_rejected));
    Ok(Value::object(promise))
}

/// The promise, `done` and sync iterator a continuation reaction carries.
fn reaction_state(rt: &mut Runtime) -> JsResult<(Gc<JsObject>, bool, Value)> {
    let callee = rt.native_callee();
    let data = rt.native_data(callee);
    if data.is_cell() && rt.heap.kind_of(data.gc::<crate::gc::CellHeader>()) == CellKind::ValueVec {
        let values = rt.heap.vec_values(data.gc());
        if let [promise, done, it] = *values {
            if promise.is_object() {
                return Ok((promise.gc(), done == Value::TRUE, it));
            }
        }
    }
    Err(rt.throw_type_error("internal error: async-from-sync reaction without its state"))
}

/// Step 9 (unwrap): settles the promise with `{ value, done }`.
fn unwrap_fulfilled(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let (promise, done, _) = reaction_state(rt)?;
    let r = rt.create_iter_result(arg(args, 0), done);
    rt.root(r);
    rt.resolve_promise(promise, r);
    Ok(Value::UNDEFINED)
}

/// Step 12.a (no onRejected): the rejection passes to the promise.
fn pass_rejection(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let (promise, _, _) = reaction_state(rt)?;
    rt.reject_promise(promise, arg(args, 0));
    Ok(Value::UNDEFINED)
}

/// Step 13.a (closeIterator): IteratorClose(syncIteratorRecord, ThrowCompletion(error)),
/// which ends in the rejection whatever `return()` does.
fn close_and_reject(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let (promise, _, it) = reaction_state(rt)?;
    iterator_close(rt, it, true)?;
    rt.reject_promise(promise, arg(args, 0));
    Ok(Value::UNDEFINED)
}

#[cfg(test)]
mod tests;
