//! 27.2.4.1-3 and 27.2.4.5 Promise.all, Promise.allSettled, Promise.any and Promise.race,
//! and `Promise.allKeyed`/`Promise.allSettledKeyed` of the Await Dictionary proposal
//! (stage 2.7, test262 feature `await-dictionary`).
//!
//! The four share one shape (`combinator`): NewPromiseCapability(C), GetPromiseResolve(C),
//! GetIterator, then a loop that resolves each value through `C.resolve` and subscribes to
//! it with `then`; an abrupt completion closes the iterator (unless it is done) and rejects
//! the result promise. The keyed two (`keyed`) walk an object's enumerable own properties
//! instead of an iterator and settle with a null-prototype object of the same keys.
//!
//! The element functions' internal slots live in `ValueVec` records:
//!
//! ```text
//!  shared  [values|errors list, remainingElements, capability promise, resolve, reject,
//!           keys list (keyed combinators) | undefined]
//!  element [shared, index, alreadyCalled]   (one per element; allSettled's pair shares it)
//!  list    a ValueVec grown by doubling, replaced in `shared` when it grows
//! ```

use super::arg;
use super::promise::{callee_record, completion, invoke, new_capability, Capability};
use crate::gc::{CellKind, Gc};
use crate::object::shape::{CONFIGURABLE, WRITABLE};
use crate::object::{iter_kind, IteratorObject, JsObject, Key, ValueVec};
use crate::runtime::function::NativeFn;
use crate::runtime::iteration::iterator_close;
use crate::runtime::{ErrorKind, Intrinsic, JsResult, Runtime};
use crate::value::Value;

/// Which combinator runs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Combinator {
    All,
    AllSettled,
    Any,
    Race,
}

/// 27.2.4.1 Promise.all(iterable).
pub(crate) fn promise_all(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    combinator(rt, this, arg(args, 0), Combinator::All)
}

/// 27.2.4.2 Promise.allSettled(iterable).
pub(crate) fn promise_all_settled(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    combinator(rt, this, arg(args, 0), Combinator::AllSettled)
}

/// 27.2.4.3 Promise.any(iterable).
pub(crate) fn promise_any(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    combinator(rt, this, arg(args, 0), Combinator::Any)
}

/// 27.2.4.5 Promise.race(iterable).
pub(crate) fn promise_race(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    combinator(rt, this, arg(args, 0), Combinator::Race)
}

/// Promise.allKeyed(promises) (Await Dictionary proposal).
pub(crate) fn promise_all_keyed(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    keyed(rt, this, arg(args, 0), false)
}

/// Promise.allSettledKeyed(promises) (Await Dictionary proposal).
pub(crate) fn promise_all_settled_keyed(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    keyed(rt, this, arg(args, 0), true)
}

/// The steps the four functions share (e.g. 27.2.4.1 steps 1-9).
fn combinator(rt: &mut Runtime, c: Value, iterable: Value, kind: Combinator) -> JsResult<Value> {
    // 2. Let promiseCapability be ? NewPromiseCapability(C).
    let cap = new_capability(rt, c, true)?;
    // 3-4. Let promiseResolve be Completion(GetPromiseResolve(C)); IfAbruptRejectPromise.
    let r = get_promise_resolve(rt, c);
    let promise_resolve = match completion(rt, r)? {
        Ok(f) => f,
        Err(e) => {
            rt.root(e);
            return cap.reject_with(rt, e);
        }
    };
    rt.root(promise_resolve);
    // 5-6. Let iteratorRecord be Completion(GetIterator(iterable, sync)); IfAbruptRejectPromise.
    let r = get_iterator(rt, iterable);
    let mut rec = match completion(rt, r)? {
        Ok(r) => r,
        Err(e) => {
            rt.root(e);
            return cap.reject_with(rt, e);
        }
    };
    // 7. Let result be Completion(PerformPromiseAll(...)).
    let result = perform(rt, &mut rec, c, cap, promise_resolve, kind);
    match completion(rt, result)? {
        Ok(v) => Ok(v),
        Err(e) => {
            rt.root(e);
            // 8.a. If iteratorRecord.[[Done]] is false, IteratorClose(iteratorRecord, result):
            // the throw completion wins over anything `return` does (but an uncatchable one).
            if !rec.done {
                iterator_close(rt, rec.iterator, true)?;
            }
            // 8.b. IfAbruptRejectPromise(result, promiseCapability).
            cap.reject_with(rt, e)
        }
    }
}

/// The steps of Promise.allKeyed and Promise.allSettledKeyed.
fn keyed(rt: &mut Runtime, c: Value, promises: Value, settled: bool) -> JsResult<Value> {
    // 2. Let promiseCapability be ? NewPromiseCapability(C).
    let cap = new_capability(rt, c, true)?;
    // 3-4. Let promiseResolve be Completion(GetPromiseResolve(C)); IfAbruptRejectPromise.
    let r = get_promise_resolve(rt, c);
    let promise_resolve = match completion(rt, r)? {
        Ok(f) => f,
        Err(e) => {
            rt.root(e);
            return cap.reject_with(rt, e);
        }
    };
    rt.root(promise_resolve);
    // 5. If promises is not an Object, reject with a new TypeError.
    if !promises.is_object() {
        let error = rt.new_error(ErrorKind::TypeError, "The argument of a keyed Promise combinator must be an object");
        rt.root(Value::object(error));
        return cap.reject_with(rt, Value::object(error));
    }
    // 6-7. Let result be Completion(PerformPromiseAllKeyed(...)); IfAbruptRejectPromise.
    let result = perform_keyed(rt, promises.gc(), c, cap, promise_resolve, settled);
    match completion(rt, result)? {
        Ok(v) => Ok(v),
        Err(e) => {
            rt.root(e);
            cap.reject_with(rt, e)
        }
    }
}

/// PerformPromiseAllKeyed(variant, promises, constructor, resultCapability, promiseResolve).
fn perform_keyed(
    rt: &mut Runtime,
    promises: Gc<JsObject>,
    c: Value,
    cap: Capability,
    promise_resolve: Value,
    settled: bool,
) -> JsResult<Value> {
    // 1. Let allKeys be ? promises.[[OwnPropertyKeys]](); the keys are rooted as values
    // (a getter may delete the property that held an atom).
    let all_keys = rt.own_property_keys(promises)?;
    for &k in &all_keys {
        let v = rt.key_to_value(k);
        rt.root(v);
    }
    // 2-5. keys, values, remainingElementsCount = 1, index = 0.
    let shared = new_shared(rt, cap, true);
    let then_key = Key::Name(rt.names.then);
    let mut index: u32 = 0;
    // 6. For each element key of allKeys:
    for key in all_keys {
        let mark = rt.handle_mark();
        // a-b. Only enumerable own properties count.
        let desc = rt.get_own_property(promises, key)?;
        if desc.is_some_and(|d| d.enumerable == Some(true)) {
            // i. Let value be ? Get(promises, key).
            let value = rt.get(promises, key, Value::object(promises))?;
            rt.root(value);
            // ii-iii. Append key to keys and undefined to values.
            let k = rt.key_to_value(key);
            append(rt, shared, KEYS, k);
            append(rt, shared, VALUES, Value::UNDEFINED);
            // iv. Let nextPromise be ? Call(promiseResolve, constructor, « value »).
            let next_promise = rt.call(promise_resolve, c, &[value])?;
            rt.root(next_promise);
            // v-x. The element functions.
            let element =
                rt.heap.alloc_vec_from(&[Value::cell(shared), Value::number(index as f64), Value::boolean(false)]);
            let (on_fulfilled, on_rejected) = if settled {
                let f = element_function(rt, element, all_settled_resolve_element);
                (f, element_function(rt, element, all_settled_reject_element))
            } else {
                (element_function(rt, element, all_resolve_element), cap.reject)
            };
            // xi. remainingElementsCount + 1.
            add_remaining(rt, shared, 1.0);
            // xii. Perform ? Invoke(nextPromise, "then", « onFulfilled, onRejected »).
            invoke(rt, next_promise, then_key, &[on_fulfilled, on_rejected])?;
            // xiii. Set index to index + 1.
            index += 1;
        }
        rt.release_handles(mark);
    }
    // 7-8. remainingElementsCount - 1; settle at 0.
    if add_remaining(rt, shared, -1.0) == 0.0 {
        settle_all(rt, shared, false)?;
    }
    // 9. Return resultCapability.[[Promise]].
    Ok(cap.promise)
}

/// 27.2.4.1.1 GetPromiseResolve(promiseConstructor).
fn get_promise_resolve(rt: &mut Runtime, c: Value) -> JsResult<Value> {
    let key = rt.key("resolve");
    let f = rt.get_v(c, key)?;
    if !rt.is_callable(f) {
        return Err(rt.throw_type_error("Promise resolve is not a function"));
    }
    Ok(f)
}

/// An Iterator Record (7.4.1).
struct IterRecord {
    iterator: Value,
    next: Value,
    done: bool,
}

/// 7.4.3 GetIterator(obj, sync); the record's values are rooted.
fn get_iterator(rt: &mut Runtime, iterable: Value) -> JsResult<IterRecord> {
    let iterator = crate::runtime::iteration::get_iterator(rt, iterable)?;
    rt.root(iterator);
    let key = Key::Name(rt.names.next);
    let next = rt.get(iterator.gc(), key, iterator)?;
    rt.root(next);
    Ok(IterRecord { iterator, next, done: false })
}

/// 7.4.8 IteratorStepValue(iteratorRecord): the next value, or None when done. Any abrupt
/// completion sets `[[Done]]`.
fn step_value(rt: &mut Runtime, rec: &mut IterRecord) -> JsResult<Option<Value>> {
    let r = step_value_inner(rt, rec);
    if !matches!(r, Ok(Some(_))) {
        rec.done = true;
    }
    r
}

fn step_value_inner(rt: &mut Runtime, rec: &mut IterRecord) -> JsResult<Option<Value>> {
    // An array or string iterator whose `next` is the original is stepped in Rust.
    let it: Gc<JsObject> = rec.iterator.gc();
    if rt.heap.object_kind(it) == CellKind::Iterator {
        let k = rt.heap.get(it.cast::<IteratorObject>()).kind;
        let original = match k {
            iter_kind::ARRAY_KEYS | iter_kind::ARRAY_VALUES | iter_kind::ARRAY_ENTRIES => {
                Intrinsic::ArrayIteratorProtoNext
            }
            iter_kind::STRING => Intrinsic::StringIteratorProtoNext,
            _ => Intrinsic::ObjectPrototype,
        };
        if original != Intrinsic::ObjectPrototype && rec.next == rt.intrinsic(original) {
            return rt.builtin_iterator_step(it.cast());
        }
    }
    // 7.4.4 IteratorNext: Call(next, iterator); the result must be an object.
    let result = rt.call(rec.next, rec.iterator, &[])?;
    if !result.is_object() {
        let what = rt.short_description(result);
        return Err(rt.throw_type_error(&format!("Iterator result {what} is not an object")));
    }
    rt.root(result);
    // 7.4.5-6 IteratorComplete / IteratorValue.
    let done_key = Key::Name(rt.names.done);
    let done = rt.get(result.gc(), done_key, result)?;
    if rt.to_boolean(done) {
        return Ok(None);
    }
    let value_key = Key::Name(rt.names.value);
    rt.get(result.gc(), value_key, result).map(Some)
}

/// 27.2.4.1.2 PerformPromiseAll, 27.2.4.2.1 PerformPromiseAllSettled, 27.2.4.3.1
/// PerformPromiseAny and 27.2.4.5.1 PerformPromiseRace.
fn perform(
    rt: &mut Runtime,
    rec: &mut IterRecord,
    c: Value,
    cap: Capability,
    promise_resolve: Value,
    kind: Combinator,
) -> JsResult<Value> {
    // 1-3. The values (or errors) list, remainingElementsCount = 1, index = 0.
    let shared = (kind != Combinator::Race).then(|| new_shared(rt, cap, false));
    let then_key = Key::Name(rt.names.then);
    let mut index: u32 = 0;
    loop {
        let mark = rt.handle_mark();
        // a. Let next be ? IteratorStepValue(iteratorRecord).
        let Some(next) = step_value(rt, rec)? else {
            // b. Done: i-ii. when the count drops to 0, settle the result promise.
            if let Some(s) = shared {
                if add_remaining(rt, s, -1.0) == 0.0 {
                    settle_all(rt, s, kind == Combinator::Any)?;
                }
            }
            // iii. Return resultCapability.[[Promise]].
            return Ok(cap.promise);
        };
        rt.root(next);
        // c. Append undefined to values.
        if let Some(s) = shared {
            append(rt, s, VALUES, Value::UNDEFINED);
        }
        // d. Let nextPromise be ? Call(promiseResolve, constructor, « next »).
        let next_promise = rt.call(promise_resolve, c, &[next])?;
        rt.root(next_promise);
        // e-k. The element functions over [shared, index, alreadyCalled].
        let element = shared
            .map(|s| rt.heap.alloc_vec_from(&[Value::cell(s), Value::number(index as f64), Value::boolean(false)]));
        let (on_fulfilled, on_rejected) = match (kind, element) {
            (Combinator::All, Some(e)) => (element_function(rt, e, all_resolve_element), cap.reject),
            (Combinator::AllSettled, Some(e)) => {
                let f = element_function(rt, e, all_settled_resolve_element);
                (f, element_function(rt, e, all_settled_reject_element))
            }
            (Combinator::Any, Some(e)) => (cap.resolve, element_function(rt, e, any_reject_element)),
            _ => (cap.resolve, cap.reject),
        };
        // l. Set remainingElementsCount.[[Value]] to remainingElementsCount.[[Value]] + 1.
        if let Some(s) = shared {
            add_remaining(rt, s, 1.0);
        }
        // m. Perform ? Invoke(nextPromise, "then", « onFulfilled, onRejected »).
        invoke(rt, next_promise, then_key, &[on_fulfilled, on_rejected])?;
        // n. Set index to index + 1.
        index += 1;
        rt.release_handles(mark);
    }
}

/// Slots of the shared record: the values (or errors) list and, for the keyed
/// combinators, the keys list.
const VALUES: usize = 0;
const KEYS: usize = 5;

/// A new shared record (rooted) for `cap`, with an empty keys list if `keyed`.
fn new_shared(rt: &mut Runtime, cap: Capability, keyed: bool) -> Gc<ValueVec> {
    let values = Value::cell(rt.heap.alloc_vec(4));
    let keys = if keyed { Value::cell(rt.heap.alloc_vec(4)) } else { Value::UNDEFINED };
    let s = rt.heap.alloc_vec_from(&[values, Value::number(1.0), cap.promise, cap.resolve, cap.reject, keys]);
    rt.root(Value::cell(s));
    s
}

/// A new element function (rooted) over the element record `element`.
fn element_function(rt: &mut Runtime, element: Gc<ValueVec>, f: NativeFn) -> Value {
    let f = Value::object(rt.new_native_with_data("", f, 1, Value::cell(element)));
    rt.root(f);
    f
}

/// Adds `delta` to a shared record's remainingElementsCount; returns the new count.
fn add_remaining(rt: &mut Runtime, shared: Gc<ValueVec>, delta: f64) -> f64 {
    let n = rt.heap.vec_get(shared, 1).as_number().unwrap_or(0.0) + delta;
    rt.heap.vec_set(shared, 1, Value::number(n));
    n
}

/// Appends `v` to the list in slot `slot` of a shared record, growing it when full.
fn append(rt: &mut Runtime, shared: Gc<ValueVec>, slot: usize, v: Value) {
    let mut list: Gc<ValueVec> = rt.heap.vec_get(shared, slot).gc();
    let len = rt.heap.get(list).len as usize;
    let cap = rt.heap.vec_capacity(list);
    if len == cap {
        let grown = rt.heap.alloc_vec((cap * 2).max(4));
        for i in 0..len {
            let v = rt.heap.vec_get(list, i);
            rt.heap.vec_set(grown, i, v);
        }
        rt.heap.vec_set(shared, slot, Value::cell(grown));
        list = grown;
    }
    rt.heap.vec_set(list, len, v);
    rt.heap.get_mut(list).len = len as u32 + 1;
}

/// The last element settled (or the iteration ended with none pending): resolves the
/// result capability with an array of the values (with an object of the keys and values
/// for the keyed combinators), or for `any` (`errors`) rejects it with an AggregateError of
/// the errors.
fn settle_all(rt: &mut Runtime, shared: Gc<ValueVec>, errors: bool) -> JsResult<Value> {
    let list: Gc<ValueVec> = rt.heap.vec_get(shared, VALUES).gc();
    let values = rt.heap.vec_values(list).to_vec();
    let keys = rt.heap.vec_get(shared, KEYS);
    if keys.is_cell() {
        // CreateKeyedPromiseCombinatorResultObject(keys, values).
        let keys = rt.heap.vec_values(keys.gc()).to_vec();
        let obj = rt.new_object(Value::NULL);
        for (&k, &v) in keys.iter().zip(&values) {
            let key = rt.to_property_key(k)?;
            rt.create_data_property_or_throw(obj, key, v)?;
        }
        rt.root(Value::object(obj));
        let resolve = rt.heap.vec_get(shared, 3);
        return rt.call(resolve, Value::UNDEFINED, &[Value::object(obj)]);
    }
    if errors {
        let error = Value::object(new_aggregate_error(rt, &values));
        rt.root(error);
        let reject = rt.heap.vec_get(shared, 4);
        if reject.is_empty() {
            // Not reached: combinators always make exposed capabilities.
            return Err(rt.throw(error));
        }
        return rt.call(reject, Value::UNDEFINED, &[error]);
    }
    // CreateArrayFromList(values); ? Call(resultCapability.[[Resolve]], undefined, « valuesArray »).
    let array = Value::object(rt.new_array_from(&values));
    rt.root(array);
    let resolve = rt.heap.vec_get(shared, 3);
    rt.call(resolve, Value::UNDEFINED, &[array])
}

/// A newly created AggregateError whose `errors` is an array of `errors` (27.2.4.3.1 step
/// 4.b.ii.1-2): no `message`, as the specification creates it without one.
fn new_aggregate_error(rt: &mut Runtime, errors: &[Value]) -> Gc<JsObject> {
    let proto = rt.intrinsic(Intrinsic::AggregateErrorPrototype);
    let error = rt.new_object_of_kind(proto, CellKind::Error, 2);
    rt.attach_stack(error, "AggregateError");
    let array = rt.new_array_from(errors);
    let key = Key::Name(rt.names.errors);
    rt.define_data_raw(error, key, Value::object(array), WRITABLE | CONFIGURABLE);
    error
}

/// What an element function records.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Element {
    /// Promise.all: the value.
    Value,
    /// Promise.allSettled: `{ status: "fulfilled", value }`.
    Fulfilled,
    /// Promise.allSettled: `{ status: "rejected", reason }`.
    Rejected,
    /// Promise.any: the error.
    Error,
}

/// The steps every element function shares (e.g. 27.2.4.1.3): once only, store the
/// (wrapped) argument at the element's index and settle when it was the last one.
fn element_step(rt: &mut Runtime, x: Value, what: Element) -> JsResult<Value> {
    let element = callee_record(rt);
    // 1-3. If F.[[AlreadyCalled]] is true, return undefined; set it.
    if rt.heap.vec_get(element, 2) == Value::boolean(true) {
        return Ok(Value::UNDEFINED);
    }
    rt.heap.vec_set(element, 2, Value::boolean(true));
    let shared: Gc<ValueVec> = rt.heap.vec_get(element, 0).gc();
    let index = rt.heap.vec_get(element, 1).as_number().unwrap_or(0.0) as usize;
    // allSettled: an ordinary object { status, value | reason } of the current realm.
    let value = match what {
        Element::Value | Element::Error => x,
        Element::Fulfilled | Element::Rejected => {
            let op = rt.intrinsic(Intrinsic::ObjectPrototype);
            let obj = rt.new_object(op);
            let (status, field) =
                if what == Element::Fulfilled { ("fulfilled", "value") } else { ("rejected", "reason") };
            let status_key = rt.key("status");
            let status = rt.new_string(status);
            rt.create_data_property_or_throw(obj, status_key, status)?;
            let field_key = rt.key(field);
            rt.create_data_property_or_throw(obj, field_key, x)?;
            Value::object(obj)
        }
    };
    // values[index] = value.
    let list: Gc<ValueVec> = rt.heap.vec_get(shared, VALUES).gc();
    rt.heap.vec_set(list, index, value);
    // remainingElementsCount - 1; settle at 0.
    if add_remaining(rt, shared, -1.0) == 0.0 {
        return settle_all(rt, shared, what == Element::Error);
    }
    Ok(Value::UNDEFINED)
}

/// 27.2.4.1.3 Promise.all Resolve Element Functions.
fn all_resolve_element(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    element_step(rt, arg(args, 0), Element::Value)
}

/// 27.2.4.2.2 Promise.allSettled Resolve Element Functions.
fn all_settled_resolve_element(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    element_step(rt, arg(args, 0), Element::Fulfilled)
}

/// 27.2.4.2.3 Promise.allSettled Reject Element Functions.
fn all_settled_reject_element(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    element_step(rt, arg(args, 0), Element::Rejected)
}

/// 27.2.4.3.2 Promise.any Reject Element Functions.
fn any_reject_element(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    element_step(rt, arg(args, 0), Element::Error)
}
