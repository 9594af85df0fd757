//! 27.1.3-27.1.4 Iterator helpers: the abstract `Iterator` constructor, `Iterator.from`
//! with %WrapForValidIteratorPrototype%, `Iterator.concat`, the accessors
//! `Iterator.prototype.constructor` / `[@@toStringTag]`, the lazy methods (`map`,
//! `filter`, `take`, `drop`, `flatMap`) returning %IteratorHelperPrototype% objects, and
//! the eager ones (`reduce`, `toArray`, `forEach`, `some`, `every`, `find`).
//!
//! An iterator helper is an `IteratorObject` whose `kind` is one of `iter_kind::HELPER_*`.
//! The specification builds it from an abstract closure run as a generator; here the
//! closure is a Rust state machine and the generator state lives in `index`:
//!
//! ```text
//!   START ──next──▶ RUNNING ──yield──▶ YIELD ──next──▶ RUNNING ... ──▶ DONE
//!     └──return (closes the underlying iterator)──────────────────────▶ DONE
//! ```
//!
//! `target` is a `ValueVec` laid out as [`IT`], [`NEXT`], [`FN`], [`COUNT`], [`INNER`],
//! [`INNER_NEXT`]: the underlying iterator record, the callback (or, for `concat`, a
//! `ValueVec` of (method, iterable) pairs), the counter (or the remaining limit, or the
//! next iterable's index) and the inner iterator record of `flatMap`/`concat` (undefined
//! when no inner iterator is alive). Everything a step reads lives in that vector, which is
//! reachable from the helper (the receiver, rooted by the caller), so only values produced
//! during a step are rooted.

use super::iterator::define_tag;
use super::{arg, rows, Builtin, Row};
use crate::gc::{CellKind, Gc};
use crate::object::{iter_kind, IteratorObject, JsObject, Key, ValueVec};
use crate::runtime::iteration::{iterator_close, iterator_step_value};
use crate::runtime::{Exception, ExceptionKind, Intrinsic, JsResult, Runtime};
use crate::value::Value;

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin =
    Builtin { init, rows: ROWS, globals: &[("Iterator", Intrinsic::Iterator)], ..Builtin::NONE };

pub(crate) const ROWS: &[Row] = rows! {
    Iterator."from" => iterator_from, 1;
    Iterator."concat" => iterator_concat, 0;
    IteratorPrototype."constructor" => get_constructor, 0, getter;
    IteratorPrototype."constructor" => set_constructor, 1, setter;
    IteratorPrototype.[to_string_tag] => get_to_string_tag, 0, getter;
    IteratorPrototype.[to_string_tag] => set_to_string_tag, 1, setter;
    IteratorPrototype."map" => map, 1;
    IteratorPrototype."filter" => filter, 1;
    IteratorPrototype."take" => take, 1;
    IteratorPrototype."drop" => drop, 1;
    IteratorPrototype."flatMap" => flat_map, 1;
    IteratorPrototype."reduce" => reduce, 1;
    IteratorPrototype."toArray" => to_array, 0;
    IteratorPrototype."forEach" => for_each, 1;
    IteratorPrototype."some" => some, 1;
    IteratorPrototype."every" => every, 1;
    IteratorPrototype."find" => find, 1;
    IteratorHelperPrototype."next" => helper_next, 0;
    IteratorHelperPrototype."return" => helper_return, 0;
    WrapForValidIteratorPrototype."next" => wrap_next, 0;
    WrapForValidIteratorPrototype."return" => wrap_return, 0;
};

/// Slot of the underlying iterator.
const IT: usize = 0;
/// Slot of the underlying iterator's `next` method.
const NEXT: usize = 1;
/// Slot of the callback (`concat`: the (method, iterable) pairs).
const FN: usize = 2;
/// Slot of the counter, the remaining limit or the next iterable's index.
const COUNT: usize = 3;
/// Slot of the inner iterator (`flatMap`, `concat`), undefined when none is alive.
const INNER: usize = 4;
/// Slot of the inner iterator's `next` method.
const INNER_NEXT: usize = 5;

/// Generator states kept in `IteratorObject::index`.
const START: u32 = 0;
const YIELD: u32 = 1;
const RUNNING: u32 = 2;
const DONE: u32 = 3;

/// Creates %Iterator%, %IteratorHelperPrototype% and %WrapForValidIteratorPrototype%
/// (their methods are table rows).
pub(crate) fn init(rt: &mut Runtime) {
    // 27.1.3.1 The Iterator constructor; 27.1.3.2.2 Iterator.prototype is not writable,
    // enumerable nor configurable. `prototype.constructor` is an accessor (a row).
    let ip = rt.intrinsic_object(Intrinsic::IteratorPrototype);
    let c = rt.make_constructor("Iterator", iterator_constructor, 0, None);
    let pk = Key::Name(rt.names.prototype);
    rt.define_data_raw(c, pk, Value::object(ip), 0);
    rt.set_intrinsic(Intrinsic::Iterator, Value::object(c));
    // 27.1.2.1 %IteratorHelperPrototype%.
    let hp = rt.new_object(Value::object(ip));
    define_tag(rt, hp, "Iterator Helper");
    rt.set_intrinsic(Intrinsic::IteratorHelperPrototype, Value::object(hp));
    // 27.1.3.2.1.1 %WrapForValidIteratorPrototype%.
    let wp = rt.new_object(Value::object(ip));
    rt.set_intrinsic(Intrinsic::WrapForValidIteratorPrototype, Value::object(wp));
}

// ---- Iterator records ---------------------------------------------------------------------

/// 7.4.2 GetIteratorDirect(obj): the `next` method of `obj` (an object).
fn get_iterator_direct(rt: &mut Runtime, obj: Value) -> JsResult<Value> {
    let key = Key::Name(rt.names.next);
    rt.get(obj.gc(), key, obj)
}

/// IfAbruptCloseIterator / IteratorClose(it, throwCompletion): closes `it`, ignoring the
/// closing's own errors, and rethrows the original exception.
fn close_throw(rt: &mut Runtime, it: Value, e: Exception) -> Exception {
    if rt.exception_kind != ExceptionKind::Normal {
        return e;
    }
    let thrown = rt.take_exception();
    rt.root(thrown);
    if let Err(e) = iterator_close(rt, it, true) {
        return e;
    }
    rt.throw(thrown)
}

/// 7.4.13 GetIteratorFlattenable(obj, primitiveHandling): the iterator and its `next`.
fn get_iterator_flattenable(rt: &mut Runtime, obj: Value, iterate_strings: bool) -> JsResult<(Value, Value)> {
    // 1. Primitives are rejected, except strings under iterate-string-primitives.
    if !(obj.is_object() || iterate_strings && obj.is_string()) {
        let what = rt.short_description(obj);
        return Err(rt.throw_type_error(&format!("{what} is not an iterator or iterable")));
    }
    // 2. Let method be ? GetMethod(obj, @@iterator).
    let key = Key::Name(rt.symbols.iterator);
    let method = rt.get_v(obj, key)?;
    // 3-4. Without a method obj is the iterator itself; otherwise call it.
    let iterator = if method.is_nullish() {
        obj
    } else {
        if !rt.is_callable(method) {
            return Err(rt.throw_type_error("Symbol.iterator is not a function"));
        }
        rt.call(method, obj, &[])?
    };
    // 5. If iterator is not an Object, throw a TypeError exception.
    if !iterator.is_object() {
        return Err(rt.throw_type_error("the iterator is not an object"));
    }
    rt.root(iterator);
    // 6. Return ? GetIteratorDirect(iterator).
    let next = get_iterator_direct(rt, iterator)?;
    Ok((iterator, next))
}

// ---- The constructor and its statics ---------------------------------------------------------

/// 27.1.3.1 Iterator(): abstract, only constructible through a subclass.
fn iterator_constructor(rt: &mut Runtime, _this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is either undefined or the active function object, throw a TypeError.
    let nt = rt.native_new_target();
    if nt.is_undefined() || nt == rt.native_callee() {
        return Err(rt.throw_type_error("Iterator is an abstract class and cannot be constructed directly"));
    }
    // 2. Return ? OrdinaryCreateFromConstructor(NewTarget, "%Iterator.prototype%").
    let proto = rt.prototype_from_constructor(nt, Intrinsic::IteratorPrototype)?;
    Ok(Value::object(rt.new_object(proto)))
}

/// 27.1.3.2.1 Iterator.from(O).
fn iterator_from(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let mark = rt.handle_mark();
    let r = iterator_from_inner(rt, arg(args, 0));
    rt.release_handles(mark);
    r
}

fn iterator_from_inner(rt: &mut Runtime, o: Value) -> JsResult<Value> {
    // 1. Let iteratorRecord be ? GetIteratorFlattenable(O, iterate-string-primitives).
    let (it, next) = get_iterator_flattenable(rt, o, true)?;
    rt.root(next);
    // 2-3. If OrdinaryHasInstance(%Iterator%, iterator), return it.
    let c = rt.intrinsic(Intrinsic::Iterator);
    if rt.ordinary_has_instance(c, it)? {
        return Ok(it);
    }
    // 4-6. Wrap it in a %WrapForValidIteratorPrototype% object.
    let record = rt.heap.alloc_vec_from(&[it, next]);
    Ok(new_iterator_object(rt, Intrinsic::WrapForValidIteratorPrototype, record, iter_kind::WRAP_FOR_VALID))
}

/// A new `IteratorObject` of `kind` with prototype `proto` over the state `record`.
fn new_iterator_object(rt: &mut Runtime, proto: Intrinsic, record: Gc<ValueVec>, kind: u8) -> Value {
    let proto = rt.intrinsic(proto);
    let shape = rt.root_shape(proto, CellKind::Iterator, 0);
    let obj = IteratorObject::new(JsObject::new(CellKind::Iterator, shape), Value::cell(record), kind);
    Value::object(rt.heap.alloc_object(obj, 0))
}

/// The state vector of an `IteratorObject` of one of `kinds`, with the object.
fn iterator_state(
    rt: &Runtime,
    this: Value,
    kinds: std::ops::RangeInclusive<u8>,
) -> Option<(Gc<IteratorObject>, Gc<ValueVec>, u8)> {
    if !this.is_object() || rt.heap.object_kind(this.gc()) != CellKind::Iterator {
        return None;
    }
    let o = this.gc::<IteratorObject>();
    let it = rt.heap.get(o);
    if !kinds.contains(&it.kind) || !it.target.is_cell() {
        return None;
    }
    Some((o, it.target.gc(), it.kind))
}

/// 27.1.3.2.1.1.1 %WrapForValidIteratorPrototype%.next().
fn wrap_next(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-2. RequireInternalSlot(O, [[Iterated]]).
    let Some((_, record, _)) = iterator_state(rt, this, iter_kind::WRAP_FOR_VALID..=iter_kind::WRAP_FOR_VALID) else {
        return Err(rt.throw_type_error("WrapForValidIteratorPrototype.next called on incompatible receiver"));
    };
    // 3-4. Return ? Call(iteratorRecord.[[NextMethod]], iteratorRecord.[[Iterator]]).
    let (it, next) = (rt.heap.vec_values(record)[IT], rt.heap.vec_values(record)[NEXT]);
    rt.call(next, it, &[])
}

/// 27.1.3.2.1.1.2 %WrapForValidIteratorPrototype%.return().
fn wrap_return(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-2. RequireInternalSlot(O, [[Iterated]]).
    let Some((_, record, _)) = iterator_state(rt, this, iter_kind::WRAP_FOR_VALID..=iter_kind::WRAP_FOR_VALID) else {
        return Err(rt.throw_type_error("WrapForValidIteratorPrototype.return called on incompatible receiver"));
    };
    // 3-5. Let returnMethod be ? GetMethod(iterator, "return").
    let it = rt.heap.vec_values(record)[IT];
    let key = Key::Name(rt.names.return_);
    let ret = rt.get_v(it, key)?;
    // 6. If returnMethod is undefined, return CreateIterResultObject(undefined, true).
    if ret.is_nullish() {
        return Ok(rt.create_iter_result(Value::UNDEFINED, true));
    }
    if !rt.is_callable(ret) {
        return Err(rt.throw_type_error("iterator.return is not a function"));
    }
    // 7. Return ? Call(returnMethod, iterator).
    rt.call(ret, it, &[])
}

/// Iterator.concat(...items).
fn iterator_concat(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let mark = rt.handle_mark();
    let r = iterator_concat_inner(rt, args);
    rt.release_handles(mark);
    r
}

fn iterator_concat_inner(rt: &mut Runtime, args: &[Value]) -> JsResult<Value> {
    // 1-2. Collect (method, iterable) for every item, each an object with @@iterator.
    let mut pairs = Vec::with_capacity(args.len() * 2);
    for &item in args {
        if !item.is_object() {
            let what = rt.short_description(item);
            return Err(rt.throw_type_error(&format!("Iterator.concat: {what} is not an object")));
        }
        let key = Key::Name(rt.symbols.iterator);
        let method = rt.get_v(item, key)?;
        if method.is_nullish() {
            return Err(rt.throw_type_error("Iterator.concat: an argument is not iterable"));
        }
        if !rt.is_callable(method) {
            return Err(rt.throw_type_error("Iterator.concat: Symbol.iterator is not a function"));
        }
        rt.root(method);
        pairs.push(method);
        pairs.push(item);
    }
    // 3-6. The generator over them.
    let list = rt.heap.alloc_vec_from(&pairs);
    let list = Value::cell(list);
    let u = Value::UNDEFINED;
    let state = rt.heap.alloc_vec_from(&[u, u, list, Value::number(0.0), u, u]);
    Ok(new_iterator_object(rt, Intrinsic::IteratorHelperPrototype, state, iter_kind::HELPER_CONCAT))
}

// ---- Iterator.prototype accessors ------------------------------------------------------------

/// 27.1.4.1.1 get Iterator.prototype.constructor.
fn get_constructor(rt: &mut Runtime, _this: Value, _args: &[Value]) -> JsResult<Value> {
    Ok(rt.intrinsic(Intrinsic::Iterator))
}

/// 27.1.4.1.2 set Iterator.prototype.constructor.
fn set_constructor(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let key = Key::Name(rt.names.constructor);
    super::setter_that_ignores_prototype_properties(rt, this, Intrinsic::IteratorPrototype, key, arg(args, 0))?;
    Ok(Value::UNDEFINED)
}

/// 27.1.4.14.1 get Iterator.prototype[@@toStringTag].
fn get_to_string_tag(rt: &mut Runtime, _this: Value, _args: &[Value]) -> JsResult<Value> {
    Ok(rt.new_string("Iterator"))
}

/// 27.1.4.14.2 set Iterator.prototype[@@toStringTag].
fn set_to_string_tag(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let key = Key::Name(rt.symbols.to_string_tag);
    super::setter_that_ignores_prototype_properties(rt, this, Intrinsic::IteratorPrototype, key, arg(args, 0))?;
    Ok(Value::UNDEFINED)
}

// ---- The lazy methods --------------------------------------------------------------------------

/// Steps 1-2 shared by every Iterator.prototype method: the receiver must be an object.
fn this_object(rt: &mut Runtime, this: Value, name: &str) -> JsResult<Value> {
    if this.is_object() {
        Ok(this)
    } else {
        Err(rt.throw_type_error(&format!("Iterator.prototype.{name} called on a non-object")))
    }
}

/// Step 4 of the callback-taking methods: a non-callable callback closes the iterator
/// (whose `next` is not read yet) and throws a TypeError.
fn require_callable(rt: &mut Runtime, o: Value, f: Value, name: &str) -> JsResult<()> {
    if rt.is_callable(f) {
        return Ok(());
    }
    // a. Let error be ThrowCompletion(a newly created TypeError object).
    let what = rt.short_description(f);
    let e = rt.throw_type_error(&format!("Iterator.prototype.{name}: {what} is not a function"));
    // b. Return ? IteratorClose(iterated, error).
    Err(close_throw(rt, o, e))
}

/// Steps 5-9 of the callback-taking lazy methods.
fn make_helper(rt: &mut Runtime, this: Value, f: Value, name: &str, kind: u8) -> JsResult<Value> {
    let o = this_object(rt, this, name)?;
    require_callable(rt, o, f, name)?;
    // 5. Set iterated to ? GetIteratorDirect(O).
    let next = get_iterator_direct(rt, o)?;
    // 6-9. CreateIteratorFromClosure(closure, "Iterator Helper", %IteratorHelperPrototype%).
    Ok(new_helper(rt, kind, o, next, f, 0.0))
}

fn new_helper(rt: &mut Runtime, kind: u8, it: Value, next: Value, f: Value, count: f64) -> Value {
    let u = Value::UNDEFINED;
    let state = rt.heap.alloc_vec_from(&[it, next, f, Value::number(count), u, u]);
    new_iterator_object(rt, Intrinsic::IteratorHelperPrototype, state, kind)
}

/// 27.1.4.8 Iterator.prototype.map(mapper).
fn map(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    make_helper(rt, this, arg(args, 0), "map", iter_kind::HELPER_MAP)
}

/// 27.1.4.5 Iterator.prototype.filter(predicate).
fn filter(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    make_helper(rt, this, arg(args, 0), "filter", iter_kind::HELPER_FILTER)
}

/// 27.1.4.7 Iterator.prototype.flatMap(mapper).
fn flat_map(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    make_helper(rt, this, arg(args, 0), "flatMap", iter_kind::HELPER_FLAT_MAP)
}

/// 27.1.4.12 Iterator.prototype.take(limit).
fn take(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    make_limited(rt, this, arg(args, 0), "take", iter_kind::HELPER_TAKE)
}

/// 27.1.4.3 Iterator.prototype.drop(limit).
fn drop(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    make_limited(rt, this, arg(args, 0), "drop", iter_kind::HELPER_DROP)
}

/// Steps 1-10 of take and drop.
fn make_limited(rt: &mut Runtime, this: Value, limit: Value, name: &str, kind: u8) -> JsResult<Value> {
    let o = this_object(rt, this, name)?;
    // 4-5. Let numLimit be Completion(ToNumber(limit)); IfAbruptCloseIterator(numLimit, iterated).
    let num = match rt.to_number(limit) {
        Ok(n) => n,
        Err(e) => return Err(close_throw(rt, o, e)),
    };
    // 6. If numLimit is NaN, throw a RangeError (closing the iterator).
    if num.is_nan() {
        let e = rt.throw_range_error(&format!("Iterator.prototype.{name}: the limit is NaN"));
        return Err(close_throw(rt, o, e));
    }
    // 7. If numLimit is finite and numLimit > 2^53 - 1, throw a RangeError (closing the iterator).
    if num.is_finite() && num > 9007199254740991.0 {
        let e = rt.throw_range_error(&format!("Iterator.prototype.{name}: the limit is too large"));
        return Err(close_throw(rt, o, e));
    }
    // 8. Let integerLimit be ! ToIntegerOrInfinity(numLimit).
    let limit = num.trunc() + 0.0;
    // 9. If integerLimit < 0, throw a RangeError (closing the iterator).
    if limit < 0.0 {
        let e = rt.throw_range_error(&format!("Iterator.prototype.{name}: the limit must be positive"));
        return Err(close_throw(rt, o, e));
    }
    // 10. Set iterated to ? GetIteratorDirect(O).
    let next = get_iterator_direct(rt, o)?;
    Ok(new_helper(rt, kind, o, next, Value::UNDEFINED, limit))
}

// ---- %IteratorHelperPrototype% -------------------------------------------------------------------

const HELPERS: std::ops::RangeInclusive<u8> = iter_kind::HELPER_MAP..=iter_kind::HELPER_CONCAT;

/// 27.1.2.1.1 %IteratorHelperPrototype%.next(): GeneratorResume(this, undefined, "Iterator Helper").
fn helper_next(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 27.5.3.2 GeneratorValidate: the brand, then the state.
    let Some((h, state, kind)) = iterator_state(rt, this, HELPERS) else {
        return Err(rt.throw_type_error("Iterator Helper.prototype.next called on incompatible receiver"));
    };
    match rt.heap.get(h).index {
        RUNNING => return Err(rt.throw_type_error("Generator is already running")),
        DONE => return Ok(rt.create_iter_result(Value::UNDEFINED, true)),
        _ => {}
    }
    rt.heap.get_mut(h).index = RUNNING;
    let mark = rt.handle_mark();
    let r = step(rt, state, kind);
    rt.release_handles(mark);
    match r {
        Ok(Some(v)) => {
            rt.heap.get_mut(h).index = YIELD;
            Ok(rt.create_iter_result(v, false))
        }
        Ok(None) => {
            rt.heap.get_mut(h).index = DONE;
            Ok(rt.create_iter_result(Value::UNDEFINED, true))
        }
        Err(e) => {
            rt.heap.get_mut(h).index = DONE;
            Err(e)
        }
    }
}

/// 27.1.2.1.2 %IteratorHelperPrototype%.return().
fn helper_return(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-3. RequireInternalSlot(O, [[UnderlyingIterator]]).
    let Some((h, state, kind)) = iterator_state(rt, this, HELPERS) else {
        return Err(rt.throw_type_error("Iterator Helper.prototype.return called on incompatible receiver"));
    };
    let it = rt.heap.vec_values(state)[IT];
    match rt.heap.get(h).index {
        // 4. Suspended-start: complete, then IteratorClose(O.[[UnderlyingIterator]]).
        START => {
            rt.heap.get_mut(h).index = DONE;
            if kind != iter_kind::HELPER_CONCAT {
                iterator_close(rt, it, false)?;
            }
            Ok(rt.create_iter_result(Value::UNDEFINED, true))
        }
        // 5-6. GeneratorResumeAbrupt(O, return completion): GeneratorValidate...
        RUNNING => Err(rt.throw_type_error("Generator is already running")),
        DONE => Ok(rt.create_iter_result(Value::UNDEFINED, true)),
        // ...then the closure's Yield returns the completion and the closure closes the
        // iterators it holds.
        _ => {
            rt.heap.get_mut(h).index = RUNNING;
            let mark = rt.handle_mark();
            let r = close_on_return(rt, state, kind);
            rt.release_handles(mark);
            rt.heap.get_mut(h).index = DONE;
            r?;
            Ok(rt.create_iter_result(Value::UNDEFINED, true))
        }
    }
}

/// The closure of a suspended helper receiving a return completion at its Yield.
fn close_on_return(rt: &mut Runtime, state: Gc<ValueVec>, kind: u8) -> JsResult<()> {
    let values = rt.heap.vec_values(state);
    let (it, inner) = (values[IT], values[INNER]);
    match kind {
        // flatMap: close the inner iterator, then the underlying one (27.1.4.7 step
        // 6.b.viii.4.b: an error closing the inner one closes the outer one as a throw).
        iter_kind::HELPER_FLAT_MAP if !inner.is_undefined() => match iterator_close(rt, inner, false) {
            Ok(()) => iterator_close(rt, it, false),
            Err(e) => Err(close_throw(rt, it, e)),
        },
        // concat: Return ? IteratorClose(iteratorRecord, completion).
        iter_kind::HELPER_CONCAT => {
            if inner.is_undefined() {
                Ok(())
            } else {
                iterator_close(rt, inner, false)
            }
        }
        // IfAbruptCloseIterator(completion, iterated).
        _ => iterator_close(rt, it, false),
    }
}

/// Runs the helper's closure to its next Yield (`Some`) or its end (`None`).
fn step(rt: &mut Runtime, state: Gc<ValueVec>, kind: u8) -> JsResult<Option<Value>> {
    let values = rt.heap.vec_values(state);
    let (it, next, f, count) = (values[IT], values[NEXT], values[FN], values[COUNT].as_number().unwrap_or(0.0));
    match kind {
        // 27.1.4.8 map, step 6.b.
        iter_kind::HELPER_MAP => {
            // i-ii. Let value be ? IteratorStepValue(iterated); if done, return undefined.
            let Some(v) = iterator_step_value(rt, it, next)? else { return Ok(None) };
            rt.root(v);
            // iii-iv. Let mapped be Completion(Call(mapper, undefined, « value, F(counter) »)).
            let mapped = match rt.call(f, Value::UNDEFINED, &[v, Value::number(count)]) {
                Ok(m) => m,
                Err(e) => return Err(close_throw(rt, it, e)),
            };
            // v-vii. Yield(mapped); counter + 1.
            rt.heap.vec_set(state, COUNT, Value::number(count + 1.0));
            Ok(Some(mapped))
        }
        // 27.1.4.5 filter, step 6.b.
        iter_kind::HELPER_FILTER => {
            let mut counter = count;
            loop {
                let mark = rt.handle_mark();
                let Some(v) = iterator_step_value(rt, it, next)? else { return Ok(None) };
                rt.root(v);
                // iii-iv. Let selected be Completion(Call(predicate, undefined, « value, F(counter) »)).
                let selected = match rt.call(f, Value::UNDEFINED, &[v, Value::number(counter)]) {
                    Ok(s) => s,
                    Err(e) => return Err(close_throw(rt, it, e)),
                };
                counter += 1.0;
                rt.heap.vec_set(state, COUNT, Value::number(counter));
                rt.release_handles(mark);
                // v. If ToBoolean(selected) is true, Yield(value).
                if rt.to_boolean(selected) {
                    return Ok(Some(v));
                }
            }
        }
        // 27.1.4.12 take, step 11.c.
        iter_kind::HELPER_TAKE => {
            // i. If remaining = 0, return ? IteratorClose(iterated, ReturnCompletion(undefined)).
            if count == 0.0 {
                iterator_close(rt, it, false)?;
                return Ok(None);
            }
            // ii. If remaining ≠ +∞, set remaining to remaining - 1.
            if count != f64::INFINITY {
                rt.heap.vec_set(state, COUNT, Value::number(count - 1.0));
            }
            // iii-vi. Yield the next value.
            iterator_step_value(rt, it, next)
        }
        // 27.1.4.3 drop, step 11.
        iter_kind::HELPER_DROP => {
            // b-c. Skip `remaining` values.
            let mut remaining = count;
            while remaining > 0.0 {
                if remaining != f64::INFINITY {
                    remaining -= 1.0;
                    rt.heap.vec_set(state, COUNT, Value::number(remaining));
                }
                if iterator_step_value(rt, it, next)?.is_none() {
                    return Ok(None);
                }
            }
            // d. Yield every following value.
            iterator_step_value(rt, it, next)
        }
        iter_kind::HELPER_FLAT_MAP => flat_map_step(rt, state, it, next, f),
        _ => concat_step(rt, state),
    }
}

/// 27.1.4.7 flatMap, step 6.b.
fn flat_map_step(
    rt: &mut Runtime,
    state: Gc<ValueVec>,
    it: Value,
    next: Value,
    mapper: Value,
) -> JsResult<Option<Value>> {
    loop {
        let values = rt.heap.vec_values(state);
        let (inner, inner_next) = (values[INNER], values[INNER_NEXT]);
        if !inner.is_undefined() {
            // viii. Repeat, while innerAlive: 1-2. Let innerValue be
            // Completion(IteratorStepValue(innerIterator)); IfAbruptCloseIterator(innerValue, iterated).
            match iterator_step_value(rt, inner, inner_next) {
                Ok(Some(v)) => return Ok(Some(v)),
                // 3. Done: innerAlive is false; ix. counter + 1.
                Ok(None) => {
                    let counter = rt.heap.vec_values(state)[COUNT].as_number().unwrap_or(0.0);
                    rt.heap.vec_set(state, COUNT, Value::number(counter + 1.0));
                    rt.heap.vec_set(state, INNER, Value::UNDEFINED);
                    rt.heap.vec_set(state, INNER_NEXT, Value::UNDEFINED);
                    continue;
                }
                Err(e) => return Err(close_throw(rt, it, e)),
            }
        }
        let mark = rt.handle_mark();
        // i-ii. Let value be ? IteratorStepValue(iterated); if done, return undefined.
        let Some(v) = iterator_step_value(rt, it, next)? else { return Ok(None) };
        rt.root(v);
        // iii-iv. Let mapped be Completion(Call(mapper, undefined, « value, F(counter) »)).
        let counter = rt.heap.vec_values(state)[COUNT];
        let mapped = match rt.call(mapper, Value::UNDEFINED, &[v, counter]) {
            Ok(m) => m,
            Err(e) => return Err(close_throw(rt, it, e)),
        };
        rt.root(mapped);
        // v-vi. Let innerIterator be Completion(GetIteratorFlattenable(mapped, reject-primitives)).
        let (inner, inner_next) = match get_iterator_flattenable(rt, mapped, false) {
            Ok(r) => r,
            Err(e) => return Err(close_throw(rt, it, e)),
        };
        rt.heap.vec_set(state, INNER, inner);
        rt.heap.vec_set(state, INNER_NEXT, inner_next);
        rt.release_handles(mark);
    }
}

/// Iterator.concat's closure, step 3.a.
fn concat_step(rt: &mut Runtime, state: Gc<ValueVec>) -> JsResult<Option<Value>> {
    loop {
        let values = rt.heap.vec_values(state);
        let (list, index, inner, inner_next) =
            (values[FN], values[COUNT].as_number().unwrap_or(0.0) as usize, values[INNER], values[INNER_NEXT]);
        if !inner.is_undefined() {
            // v.1-3. Let innerValue be ? IteratorStepValue(iteratorRecord); yield it.
            if let Some(v) = iterator_step_value(rt, inner, inner_next)? {
                return Ok(Some(v));
            }
            rt.heap.vec_set(state, INNER, Value::UNDEFINED);
            rt.heap.vec_set(state, INNER_NEXT, Value::UNDEFINED);
        }
        // b. Every iterable done: return undefined.
        let pairs = rt.heap.vec_values(list.gc());
        if index * 2 + 1 >= pairs.len() {
            return Ok(None);
        }
        let (method, iterable) = (pairs[index * 2], pairs[index * 2 + 1]);
        rt.heap.vec_set(state, COUNT, Value::number((index + 1) as f64));
        let mark = rt.handle_mark();
        // i. Let iter be ? Call(iterable.[[OpenMethod]], iterable.[[Iterable]]).
        let iter = rt.call(method, iterable, &[])?;
        // ii. If iter is not an Object, throw a TypeError exception.
        if !iter.is_object() {
            return Err(rt.throw_type_error("Iterator.concat: Symbol.iterator did not return an object"));
        }
        rt.root(iter);
        // iii. Let iteratorRecord be ? GetIteratorDirect(iter).
        let next = get_iterator_direct(rt, iter)?;
        rt.heap.vec_set(state, INNER, iter);
        rt.heap.vec_set(state, INNER_NEXT, next);
        rt.release_handles(mark);
    }
}

// ---- The eager methods ---------------------------------------------------------------------------

/// Steps 1-5 of the callback-taking eager methods: the receiver and its `next` (rooted).
fn eager_start(rt: &mut Runtime, this: Value, f: Value, name: &str) -> JsResult<(Value, Value)> {
    let o = this_object(rt, this, name)?;
    require_callable(rt, o, f, name)?;
    let next = get_iterator_direct(rt, o)?;
    rt.root(next);
    Ok((o, next))
}

/// 27.1.4.10 Iterator.prototype.reduce(reducer [, initialValue]).
fn reduce(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let mark = rt.handle_mark();
    let r = reduce_inner(rt, this, args);
    rt.release_handles(mark);
    r
}

fn reduce_inner(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let reducer = arg(args, 0);
    let (o, next) = eager_start(rt, this, reducer, "reduce")?;
    let (mut acc, mut counter) = if args.len() < 2 {
        // 6. No initialValue: the first value, or a TypeError for an empty iterator.
        match iterator_step_value(rt, o, next)? {
            Some(v) => (v, 1.0),
            None => return Err(rt.throw_type_error("Reduce of empty iterator with no initial value")),
        }
    } else {
        // 7. Let accumulator be initialValue; counter 0.
        (args[1], 0.0)
    };
    let mark = rt.handle_mark();
    loop {
        rt.release_handles(mark);
        rt.root(acc);
        // 8.a-b. Let value be ? IteratorStepValue(iterated); if done, return accumulator.
        let Some(v) = iterator_step_value(rt, o, next)? else { return Ok(acc) };
        rt.root(v);
        // 8.c-d. Let result be Completion(Call(reducer, undefined, « accumulator, value, F(counter) »)).
        acc = match rt.call(reducer, Value::UNDEFINED, &[acc, v, Value::number(counter)]) {
            Ok(r) => r,
            Err(e) => return Err(close_throw(rt, o, e)),
        };
        counter += 1.0;
    }
}

/// 27.1.4.13 Iterator.prototype.toArray().
fn to_array(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let o = this_object(rt, this, "toArray")?;
    let mark = rt.handle_mark();
    let r = (|| {
        // 3. Set iterated to ? GetIteratorDirect(O).
        let next = get_iterator_direct(rt, o)?;
        rt.root(next);
        // 4-5. Collect every value.
        let mut items = Vec::new();
        while let Some(v) = iterator_step_value(rt, o, next)? {
            rt.root(v);
            items.push(v);
        }
        Ok(Value::object(rt.new_array_from(&items)))
    })();
    rt.release_handles(mark);
    r
}

/// What an eager predicate method does with each callback result.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Eager {
    ForEach,
    Some,
    Every,
    Find,
}

/// 27.1.4.6 forEach, 27.1.4.11 some, 27.1.4.4 every and 27.1.4.5 find.
fn eager(rt: &mut Runtime, this: Value, f: Value, name: &str, what: Eager) -> JsResult<Value> {
    let mark = rt.handle_mark();
    let r = eager_inner(rt, this, f, name, what);
    rt.release_handles(mark);
    r
}

fn eager_inner(rt: &mut Runtime, this: Value, f: Value, name: &str, what: Eager) -> JsResult<Value> {
    let (o, next) = eager_start(rt, this, f, name)?;
    let mut counter = 0.0;
    let mark = rt.handle_mark();
    loop {
        rt.release_handles(mark);
        // a-b. Let value be ? IteratorStepValue(iterated); if done, the default result.
        let Some(v) = iterator_step_value(rt, o, next)? else {
            return Ok(match what {
                Eager::ForEach | Eager::Find => Value::UNDEFINED,
                Eager::Some => Value::FALSE,
                Eager::Every => Value::TRUE,
            });
        };
        rt.root(v);
        // c-d. Let result be Completion(Call(fn, undefined, « value, F(counter) »)).
        let r = match rt.call(f, Value::UNDEFINED, &[v, Value::number(counter)]) {
            Ok(r) => r,
            Err(e) => return Err(close_throw(rt, o, e)),
        };
        // e. A deciding result returns ? IteratorClose(iterated, NormalCompletion(result)).
        let decided = match what {
            Eager::ForEach => None,
            Eager::Some => rt.to_boolean(r).then_some(Value::TRUE),
            Eager::Every => (!rt.to_boolean(r)).then_some(Value::FALSE),
            Eager::Find => rt.to_boolean(r).then_some(v),
        };
        if let Some(result) = decided {
            iterator_close(rt, o, false)?;
            return Ok(result);
        }
        counter += 1.0;
    }
}

/// 27.1.4.6 Iterator.prototype.forEach(procedure).
fn for_each(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    eager(rt, this, arg(args, 0), "forEach", Eager::ForEach)
}

/// 27.1.4.11 Iterator.prototype.some(predicate).
fn some(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    eager(rt, this, arg(args, 0), "some", Eager::Some)
}

/// 27.1.4.4 Iterator.prototype.every(predicate).
fn every(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    eager(rt, this, arg(args, 0), "every", Eager::Every)
}

/// 27.1.4.5 Iterator.prototype.find(predicate).
fn find(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    eager(rt, this, arg(args, 0), "find", Eager::Find)
}

#[cfg(test)]
mod tests;
