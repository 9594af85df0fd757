//! 23.1.2.2 Array.fromAsync(asyncItems [, mapper [, thisArg]]).
//!
//! The specification's async closure runs as a state machine: everything up to the first
//! Await runs in the call, and each Await hands the awaited value to a pair of native
//! reactions whose `data` is the machine's state, a `ValueVec` (the slots below). A
//! reaction continues the loop from the step after that Await until the next one, or
//! settles the result promise. Nothing escapes a reaction but uncatchable exceptions: an
//! abrupt completion rejects the promise, after closing an async iterator where the
//! specification says so (AsyncIteratorClose, which itself awaits `return()`'s result).

use super::arg;
use super::array::{construct_or_array, create_index, index_key, length_of, set_length};
use super::async_iteration::create_async_from_sync_iterator;
use crate::gc::{CellKind, Gc};
use crate::object::{JsObject, Key, ValueVec};
use crate::runtime::function::NativeFn;
use crate::runtime::{Exception, ExceptionKind, JsResult, Runtime};
use crate::value::Value;

// The state's slots.
/// The promise `fromAsync` returned.
const PROMISE: usize = 0;
/// C, the `this` value.
const CTOR: usize = 1;
/// A, the array being filled (undefined until made).
const ARRAY: usize = 2;
/// k, the next index.
const INDEX: usize = 3;
/// The mapper, or undefined.
const MAPPER: usize = 4;
const THIS_ARG: usize = 5;
/// The async iterator (undefined for an array-like) and its `next` method.
const ITERATOR: usize = 6;
const NEXT: usize = 7;
/// The array-like object and its length.
const SOURCE: usize = 8;
const LENGTH: usize = 9;
/// What the pending Await is for (one of the phases below).
const PHASE: usize = 10;
/// While closing the iterator after an abrupt completion: the thrown value.
const ERROR: usize = 11;
const SLOTS: usize = 12;

// The phases: the Await each one is waiting on.
/// The iterator's `next()` result (steps 3.h.vi.4).
const NEXT_RESULT: u32 = 0;
/// The mapper's result for an iterator's value (3.h.vi.9.c).
const MAPPED: u32 = 1;
/// An array-like's element (3.i.vi.3).
const ELEMENT: u32 = 2;
/// The mapper's result for an array-like's element (3.i.vi.4.b).
const ELEMENT_MAPPED: u32 = 3;
/// `return()`'s result while closing the iterator with `ERROR` (AsyncIteratorClose).
const CLOSING: u32 = 4;

/// The largest index plus one (2^53 - 1).
const MAX_LENGTH: f64 = 9007199254740991.0;

/// 23.1.2.2 Array.fromAsync(asyncItems [, mapper [, thisArg]]).
pub(crate) fn from_async(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let (items, mapper, this_arg) = (arg(args, 0), arg(args, 1), arg(args, 2));
    // 1-2. Let promiseCapability be ! NewPromiseCapability(%Promise%).
    let promise = rt.new_promise();
    rt.root(Value::object(promise));
    let mut slots = [Value::UNDEFINED; SLOTS];
    slots[PROMISE] = Value::object(promise);
    slots[CTOR] = this;
    slots[INDEX] = Value::number(0.0);
    slots[MAPPER] = mapper;
    slots[THIS_ARG] = this_arg;
    let state = rt.heap.alloc_vec_from(&slots);
    rt.root(Value::cell(state));
    // 4. AsyncFunctionStart(promiseCapability, fromAsyncClosure).
    let r = start(rt, state, items);
    settle_abrupt(rt, state, r)?;
    Ok(Value::object(promise))
}

/// Steps 3.a-3.i up to the first Await.
fn start(rt: &mut Runtime, state: Gc<ValueVec>, items: Value) -> JsResult<()> {
    let mapper = get(rt, state, MAPPER);
    // 3.a-b. A mapper must be callable.
    if !mapper.is_undefined() && !rt.is_callable(mapper) {
        let d = rt.short_description(mapper);
        return Err(rt.throw_type_error(&format!("{d} is not a function (Array.fromAsync)")));
    }
    // 3.c-d. Let usingAsyncIterator be ? GetMethod(asyncItems, @@asyncIterator), else
    // usingSyncIterator be ? GetMethod(asyncItems, @@iterator).
    let async_key = Key::Name(rt.symbols.async_iterator);
    let using_async = get_method(rt, items, async_key)?;
    let using_sync = match using_async.is_undefined() {
        true => {
            let sync_key = Key::Name(rt.symbols.iterator);
            get_method(rt, items, sync_key)?
        }
        false => Value::UNDEFINED,
    };
    // 3.f-g. The iterator record (a sync iterator wrapped by CreateAsyncFromSyncIterator).
    if !using_async.is_undefined() || !using_sync.is_undefined() {
        let method = if using_async.is_undefined() { using_sync } else { using_async };
        let (mut it, mut next) = iterator_from_method(rt, items, method)?;
        if using_async.is_undefined() {
            it = create_async_from_sync_iterator(rt, it, next);
            rt.root(it);
            let next_key = Key::Name(rt.names.next);
            next = rt.get_v(it, next_key)?;
        }
        set(rt, state, ITERATOR, it);
        set(rt, state, NEXT, next);
        // 3.h.i-iii. A is a new C, or an array.
        let a = construct_or_array(rt, get(rt, state, CTOR), None)?;
        set(rt, state, ARRAY, Value::object(a));
        return next_step(rt, state);
    }
    // 3.i. NOTE: asyncItems is neither an AsyncIterable nor an Iterable: an array-like.
    let source = rt.to_object(items)?;
    set(rt, state, SOURCE, Value::object(source));
    let len = length_of(rt, source)?;
    set(rt, state, LENGTH, Value::number(len));
    let a = construct_or_array(rt, get(rt, state, CTOR), Some(len))?;
    set(rt, state, ARRAY, Value::object(a));
    element_step(rt, state)
}

/// GetMethod(v, key): undefined for null or undefined, a TypeError if not callable.
fn get_method(rt: &mut Runtime, v: Value, key: Key) -> JsResult<Value> {
    let f = rt.get_v(v, key)?;
    if f.is_nullish() {
        return Ok(Value::UNDEFINED);
    }
    if !rt.is_callable(f) {
        let n = rt.key_display(key);
        return Err(rt.throw_type_error(&format!("{n} is not a function")));
    }
    Ok(f)
}

/// 7.4.2 GetIteratorFromMethod(obj, method): the iterator and its `next` (both rooted).
fn iterator_from_method(rt: &mut Runtime, obj: Value, method: Value) -> JsResult<(Value, Value)> {
    let it = rt.call(method, obj, &[])?;
    if !it.is_object() {
        return Err(rt.throw_type_error("Result of the iterator method is not an object"));
    }
    rt.root(it);
    let next_key = Key::Name(rt.names.next);
    let next = rt.get(it.gc(), next_key, it)?;
    rt.root(next);
    Ok((it, next))
}

/// 3.h.vi.1-4: the next turn of the iterator loop, up to awaiting `next()`'s result.
fn next_step(rt: &mut Runtime, state: Gc<ValueVec>) -> JsResult<()> {
    let k = index(rt, state);
    if k >= MAX_LENGTH {
        let _ = rt.throw_type_error("Array.fromAsync: too many elements");
        let error = rt.take_exception();
        return close_iterator(rt, state, error);
    }
    let (next, it) = (get(rt, state, NEXT), get(rt, state, ITERATOR));
    let result = rt.call(next, it, &[])?;
    await_value(rt, state, result, NEXT_RESULT)
}

/// 3.i.vi: the next element of the array-like, up to awaiting it; or the end.
fn element_step(rt: &mut Runtime, state: Gc<ValueVec>) -> JsResult<()> {
    let k = index(rt, state);
    let len = get(rt, state, LENGTH).as_number().unwrap_or(0.0);
    let a = get(rt, state, ARRAY);
    if k >= len {
        // vii-viii. Perform ? Set(A, "length", len, true); return A.
        set_length(rt, a.gc(), len)?;
        resolve(rt, state, a);
        return Ok(());
    }
    let source: Gc<JsObject> = get(rt, state, SOURCE).gc();
    let key = index_key(rt, k);
    let v = rt.get(source, key, Value::object(source))?;
    await_value(rt, state, v, ELEMENT)
}

/// Await(v) in phase `phase`: PromiseResolve(%Promise%, v), then the reactions continue.
fn await_value(rt: &mut Runtime, state: Gc<ValueVec>, v: Value, phase: u32) -> JsResult<()> {
    let p = rt.promise_resolve(v)?;
    rt.root(Value::object(p));
    set(rt, state, PHASE, Value::number(f64::from(phase)));
    let data = Value::cell(state);
    let on_fulfilled = rt.new_native_with_data("", fulfilled as NativeFn, 1, data);
    rt.root(Value::object(on_fulfilled));
    let on_rejected = rt.new_native_with_data("", rejected as NativeFn, 1, data);
    rt.promise_then(p, Value::object(on_fulfilled), Value::object(on_rejected));
    Ok(())
}

/// The state of the reaction being run.
fn reaction_state(rt: &mut Runtime) -> JsResult<Gc<ValueVec>> {
    let data = rt.native_data(rt.native_callee());
    if data.is_cell() && rt.heap.kind_of(data.gc::<crate::gc::CellHeader>()) == CellKind::ValueVec {
        let state: Gc<ValueVec> = data.gc();
        if rt.heap.vec_values(state).len() == SLOTS {
            return Ok(state);
        }
    }
    Err(rt.throw_type_error("internal error: Array.fromAsync reaction without its state"))
}

/// The awaited value is here: the steps after the Await.
fn fulfilled(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let state = reaction_state(rt)?;
    let v = arg(args, 0);
    let phase = get(rt, state, PHASE).as_number().map_or(u32::MAX, |p| p as u32);
    let r = match phase {
        NEXT_RESULT => after_next(rt, state, v),
        MAPPED => define_from_iterator(rt, state, v),
        ELEMENT => match get(rt, state, MAPPER) {
            m if m.is_undefined() => define_element(rt, state, v),
            m => {
                // 3.i.vi.4. Let mappedValue be ? Call(mapper, thisArg, « kValue, k »), awaited.
                let k = index(rt, state);
                let this_arg = get(rt, state, THIS_ARG);
                match rt.call(m, this_arg, &[v, Value::number(k)]) {
                    Ok(mv) => await_value(rt, state, mv, ELEMENT_MAPPED),
                    Err(e) => Err(e),
                }
            }
        },
        ELEMENT_MAPPED => define_element(rt, state, v),
        _ => {
            // CLOSING: AsyncIteratorClose ends in the error it closed for.
            let error = get(rt, state, ERROR);
            reject(rt, state, error);
            Ok(())
        }
    };
    settle_abrupt(rt, state, r)?;
    Ok(Value::UNDEFINED)
}

/// The awaited promise rejected: the Await's completion is a throw.
fn rejected(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let state = reaction_state(rt)?;
    let reason = arg(args, 0);
    let phase = get(rt, state, PHASE).as_number().map_or(u32::MAX, |p| p as u32);
    let r = match phase {
        // 3.h.vi.9.d. IfAbruptCloseAsyncIterator(mappedValue, iteratorRecord).
        MAPPED => close_iterator(rt, state, reason),
        CLOSING => {
            let error = get(rt, state, ERROR);
            reject(rt, state, error);
            Ok(())
        }
        // The other Awaits' throws end the closure as they are.
        _ => {
            reject(rt, state, reason);
            Ok(())
        }
    };
    settle_abrupt(rt, state, r)?;
    Ok(Value::UNDEFINED)
}

/// 3.h.vi.5-10: `next()`'s awaited result.
fn after_next(rt: &mut Runtime, state: Gc<ValueVec>, result: Value) -> JsResult<()> {
    // 5. If nextResult is not an Object, throw a TypeError exception.
    if !result.is_object() {
        let d = rt.short_description(result);
        return Err(rt.throw_type_error(&format!("Iterator result {d} is not an object")));
    }
    rt.root(result);
    // 6-7. If IteratorComplete(nextResult): Set(A, "length", k, true) and return A.
    let done_key = Key::Name(rt.names.done);
    let done = rt.get(result.gc(), done_key, result)?;
    if rt.to_boolean(done) {
        let (a, k) = (get(rt, state, ARRAY), index(rt, state));
        set_length(rt, a.gc(), k)?;
        resolve(rt, state, a);
        return Ok(());
    }
    // 8. Let nextValue be ? IteratorValue(nextResult).
    let value_key = Key::Name(rt.names.value);
    let v = rt.get(result.gc(), value_key, result)?;
    let mapper = get(rt, state, MAPPER);
    if mapper.is_undefined() {
        return define_from_iterator(rt, state, v);
    }
    // 9. The mapper's result, awaited; an abrupt completion of either closes the iterator.
    let k = index(rt, state);
    let this_arg = get(rt, state, THIS_ARG);
    let mapped = rt.call(mapper, this_arg, &[v, Value::number(k)]);
    let awaited = mapped.and_then(|mv| await_value(rt, state, mv, MAPPED));
    match caught(rt, awaited)? {
        Ok(()) => Ok(()),
        Err(error) => close_iterator(rt, state, error),
    }
}

/// 3.h.vi.11-13: defines A[k] (closing the iterator if that fails) and goes on.
fn define_from_iterator(rt: &mut Runtime, state: Gc<ValueVec>, v: Value) -> JsResult<()> {
    let defined = define(rt, state, v);
    match caught(rt, defined)? {
        Ok(()) => next_step(rt, state),
        Err(error) => close_iterator(rt, state, error),
    }
}

/// 3.i.vi.6-7: defines A[k] and goes on with the next element.
fn define_element(rt: &mut Runtime, state: Gc<ValueVec>, v: Value) -> JsResult<()> {
    define(rt, state, v)?;
    element_step(rt, state)
}

/// CreateDataPropertyOrThrow(A, k, v); k + 1.
fn define(rt: &mut Runtime, state: Gc<ValueVec>, v: Value) -> JsResult<()> {
    let (a, k) = (get(rt, state, ARRAY), index(rt, state));
    create_index(rt, a.gc(), k, v)?;
    set(rt, state, INDEX, Value::number(k + 1.0));
    Ok(())
}

/// 7.4.13 AsyncIteratorClose(iteratorRecord, ThrowCompletion(error)): calls `return()` and
/// awaits its result, then rejects with `error` whatever happened.
fn close_iterator(rt: &mut Runtime, state: Gc<ValueVec>, error: Value) -> JsResult<()> {
    rt.root(error);
    set(rt, state, ERROR, error);
    let it = get(rt, state, ITERATOR);
    let return_key = rt.key("return");
    let started: JsResult<bool> = (|| {
        let f = get_method(rt, it, return_key)?;
        if f.is_undefined() {
            return Ok(false);
        }
        let r = rt.call(f, it, &[])?;
        await_value(rt, state, r, CLOSING)?;
        Ok(true)
    })();
    // The completion is a throw: what `return` does cannot change it.
    if !matches!(caught(rt, started)?, Ok(true)) {
        reject(rt, state, error);
    }
    Ok(())
}

/// An abrupt completion of the closure rejects the promise; an uncatchable exception
/// propagates.
fn settle_abrupt(rt: &mut Runtime, state: Gc<ValueVec>, r: JsResult<()>) -> JsResult<()> {
    if let Err(reason) = caught(rt, r)? {
        reject(rt, state, reason);
    }
    Ok(())
}

/// A catchable exception as the thrown value (`Err`); an uncatchable one propagates.
fn caught<T>(rt: &mut Runtime, r: JsResult<T>) -> Result<Result<T, Value>, Exception> {
    match r {
        Ok(v) => Ok(Ok(v)),
        Err(e) if rt.exception_kind != ExceptionKind::Normal => Err(e),
        Err(_) => {
            let reason = rt.take_exception();
            rt.root(reason);
            Ok(Err(reason))
        }
    }
}

fn resolve(rt: &mut Runtime, state: Gc<ValueVec>, v: Value) {
    let promise = get(rt, state, PROMISE).gc();
    rt.resolve_promise(promise, v);
}

fn reject(rt: &mut Runtime, state: Gc<ValueVec>, reason: Value) {
    let promise = get(rt, state, PROMISE).gc();
    rt.reject_promise(promise, reason);
}

fn get(rt: &Runtime, state: Gc<ValueVec>, slot: usize) -> Value {
    rt.heap.vec_values(state)[slot]
}

fn set(rt: &mut Runtime, state: Gc<ValueVec>, slot: usize, v: Value) {
    rt.heap.vec_set(state, slot, v);
}

fn index(rt: &Runtime, state: Gc<ValueVec>) -> f64 {
    get(rt, state, INDEX).as_number().unwrap_or(0.0)
}
