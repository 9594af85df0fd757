//! 23.1 Array objects.
//!
//! Every method follows the generic algorithm of the specification (so it works on
//! array-likes); reads take a fast path through the dense elements when they hold the
//! value.

use super::{arg, rows, Builtin, Row};
use crate::gc::{CellKind, Gc};
use crate::object::property::PropertyDescriptor;
use crate::object::shape::{CONFIGURABLE, DEFAULT_ATTRS, ENUMERABLE, WRITABLE};
use crate::object::{iter_kind, JsObject, Key};
use crate::runtime::{Intrinsic, JsResult, Runtime};
use crate::string::StringBuilder;
use crate::value::Value;

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin =
    Builtin { init, rows: ROWS, link, globals: &[("Array", Intrinsic::Array)], ..Builtin::NONE };

pub(crate) const ROWS: &[Row] = rows! {
    Array."isArray" => is_array, 1;
    Array."of" => of, 0;
    Array."from" => from, 1;
    Array."fromAsync" => super::array_from_async::from_async, 1;
    Array.[species] => species_getter, 0, getter;
    ArrayPrototype."at" => at, 1;
    ArrayPrototype."concat" => concat, 1;
    ArrayPrototype."copyWithin" => copy_within, 2;
    ArrayPrototype."entries" => entries, 0;
    ArrayPrototype."every" => every, 1;
    ArrayPrototype."fill" => fill, 1;
    ArrayPrototype."filter" => filter, 1;
    ArrayPrototype."find" => find, 1;
    ArrayPrototype."findIndex" => find_index, 1;
    ArrayPrototype."findLast" => find_last, 1;
    ArrayPrototype."findLastIndex" => find_last_index, 1;
    ArrayPrototype."flat" => flat, 0;
    ArrayPrototype."flatMap" => flat_map, 1;
    ArrayPrototype."forEach" => for_each, 1;
    ArrayPrototype."includes" => includes, 1;
    ArrayPrototype."indexOf" => index_of, 1;
    ArrayPrototype."join" => join, 1;
    ArrayPrototype."keys" => keys, 0;
    ArrayPrototype."lastIndexOf" => last_index_of, 1;
    ArrayPrototype."map" => map, 1;
    ArrayPrototype."pop" => pop, 0;
    ArrayPrototype."push" => push, 1;
    ArrayPrototype."reduce" => reduce, 1;
    ArrayPrototype."reduceRight" => reduce_right, 1;
    ArrayPrototype."reverse" => reverse, 0;
    ArrayPrototype."shift" => shift, 0;
    ArrayPrototype."slice" => slice, 2;
    ArrayPrototype."some" => some, 1;
    ArrayPrototype."sort" => sort, 1;
    ArrayPrototype."splice" => splice, 2;
    ArrayPrototype."toLocaleString" => to_locale_string, 0;
    ArrayPrototype."toReversed" => to_reversed, 0;
    ArrayPrototype."toSorted" => to_sorted, 1;
    ArrayPrototype."toSpliced" => to_spliced, 2;
    ArrayPrototype."toString" => to_string, 0;
    ArrayPrototype."unshift" => unshift, 1;
    ArrayPrototype."values" => values, 0;
    ArrayPrototype."with" => with, 2;
};

/// Creates the Array constructor and `Array.prototype[@@unscopables]`.
pub(crate) fn init(rt: &mut Runtime) {
    let ap = rt.intrinsic_object(Intrinsic::ArrayPrototype);
    let c = rt.make_constructor("Array", array_constructor, 1, Some(ap));
    rt.set_intrinsic(Intrinsic::Array, Value::object(c));
    let unscopables = rt.new_object(Value::NULL);
    for name in [
        "at",
        "copyWithin",
        "entries",
        "fill",
        "find",
        "findIndex",
        "findLast",
        "findLastIndex",
        "flat",
        "flatMap",
        "includes",
        "keys",
        "toReversed",
        "toSorted",
        "toSpliced",
        "values",
    ] {
        rt.define_value(unscopables, name, Value::TRUE, DEFAULT_ATTRS);
    }
    let key = Key::Name(rt.symbols.unscopables);
    rt.define_data_raw(ap, key, Value::object(unscopables), CONFIGURABLE);
}

/// %Array.prototype.values%, also `Array.prototype[@@iterator]`, once the table has made it.
fn link(rt: &mut Runtime) {
    let values = rt.intrinsic_prop(Intrinsic::ArrayPrototype, "values");
    rt.set_intrinsic(Intrinsic::ArrayProtoValues, values);
    let ap = rt.intrinsic_object(Intrinsic::ArrayPrototype);
    let it_key = Key::Name(rt.symbols.iterator);
    rt.define_data_raw(ap, it_key, values, WRITABLE | CONFIGURABLE);
}

// ---- Helpers ---------------------------------------------------------------------------------

/// `ToObject(this)`, rooted.
fn this_object(rt: &mut Runtime, this: Value) -> JsResult<Gc<JsObject>> {
    let o = rt.to_object(this)?;
    rt.root(Value::object(o));
    Ok(o)
}

/// 7.3.18 LengthOfArrayLike.
pub(crate) fn length_of(rt: &mut Runtime, o: Gc<JsObject>) -> JsResult<f64> {
    if rt.heap().object_kind(o) == CellKind::Array {
        return Ok(rt.heap().array_length(o) as f64);
    }
    let key = Key::Name(rt.names.length);
    let l = rt.get(o, key, Value::object(o))?;
    rt.to_length(l)
}

/// The key for an index that may exceed the array-index range.
pub(crate) fn index_key(rt: &mut Runtime, i: f64) -> Key {
    if i < 4294967295.0 {
        Key::Index(i as u32)
    } else {
        let s = rt.number_to_string(i);
        rt.key_from_string(s)
    }
}

/// `Get(O, ! ToString(𝔽(k)))` with the dense fast path.
#[inline]
fn get_index(rt: &mut Runtime, o: Gc<JsObject>, k: f64) -> JsResult<Value> {
    if k < 4294967295.0 {
        if let Some(v) = rt.heap().elements(o).get(k as usize) {
            if !v.is_empty() {
                return Ok(*v);
            }
        }
    }
    // The generic path: a loop over an array-like can be 2^53 - 1 long.
    rt.poll_interrupt()?;
    let key = index_key(rt, k);
    rt.get(o, key, Value::object(o))
}

/// `HasProperty(O, ! ToString(𝔽(k)))` with the dense fast path.
#[inline]
fn has_index(rt: &mut Runtime, o: Gc<JsObject>, k: f64) -> JsResult<bool> {
    if k < 4294967295.0 {
        if let Some(v) = rt.heap().elements(o).get(k as usize) {
            if !v.is_empty() {
                return Ok(true);
            }
        }
    }
    rt.poll_interrupt()?;
    let key = index_key(rt, k);
    rt.has_property(o, key)
}

/// Whether the Array `o` has no element at index `k` or after, known without running code:
/// `k` is past its dense storage, it has no index-named properties, and its prototypes are
/// ordinary objects with none either. A loop that asks HasProperty of every index up to a
/// length of 2^32 - 1 can skip the rest of the holes with it.
fn no_elements_from(rt: &mut Runtime, o: Gc<JsObject>, k: f64) -> bool {
    use crate::object::shape::HAS_INDEX_KEYS;
    if rt.heap().object_kind(o) != CellKind::Array || k < rt.heap().elements(o).len() as f64 {
        return false;
    }
    let mut p = Value::object(o);
    while p.is_object() {
        let po: Gc<JsObject> = p.gc();
        if !matches!(rt.heap().object_kind(po), CellKind::Array | CellKind::Object) {
            return false;
        }
        if po != o && rt.heap().elements(po).iter().any(|v| !v.is_empty()) {
            return false;
        }
        let shape = rt.heap().get(po).shape;
        if rt.heap().get(shape).flags() & HAS_INDEX_KEYS != 0 {
            return false;
        }
        p = rt.get_prototype_of(po);
    }
    true
}

/// `Set(O, ! ToString(𝔽(k)), v, true)`.
fn set_index(rt: &mut Runtime, o: Gc<JsObject>, k: f64, v: Value) -> JsResult<()> {
    let key = index_key(rt, k);
    rt.set_or_throw(o, key, v)
}

/// `DeletePropertyOrThrow(O, ! ToString(𝔽(k)))`.
fn delete_index(rt: &mut Runtime, o: Gc<JsObject>, k: f64) -> JsResult<()> {
    let key = index_key(rt, k);
    rt.delete_or_throw(o, key)
}

/// `CreateDataPropertyOrThrow(A, ! ToString(𝔽(k)), v)`.
pub(crate) fn create_index(rt: &mut Runtime, a: Gc<JsObject>, k: f64, v: Value) -> JsResult<()> {
    let key = index_key(rt, k);
    rt.create_data_property_or_throw(a, key, v)
}

/// `Set(O, "length", len, true)`.
pub(crate) fn set_length(rt: &mut Runtime, o: Gc<JsObject>, len: f64) -> JsResult<()> {
    let key = Key::Name(rt.names.length);
    rt.set_or_throw(o, key, Value::number(len))
}

/// The relative index resolution used by slice, splice, fill, copyWithin, ...
fn relative(rt: &mut Runtime, v: Value, len: f64, default: f64) -> JsResult<f64> {
    if v.is_undefined() {
        return Ok(default);
    }
    let r = rt.to_integer_or_infinity(v)?;
    Ok(if r < 0.0 { (len + r).max(0.0) } else { r.min(len) })
}

fn callback(rt: &mut Runtime, f: Value, what: &str) -> JsResult<Value> {
    if !rt.is_callable(f) {
        let d = rt.short_description(f);
        return Err(rt.throw_type_error(&format!("{d} is not a function ({what})")));
    }
    Ok(f)
}

/// 10.4.2.2 ArrayCreate(length).
fn array_create(rt: &mut Runtime, len: f64) -> JsResult<Gc<JsObject>> {
    if len > 4294967295.0 {
        return Err(rt.throw_range_error("Invalid array length"));
    }
    let a = rt.new_array(0);
    if len > 0.0 {
        rt.heap_mut().get_mut(a.cast::<crate::object::array::JsArray>()).length = len as u32;
    }
    Ok(a)
}

/// 10.4.2.3 ArraySpeciesCreate(originalArray, length).
fn array_species_create(rt: &mut Runtime, original: Gc<JsObject>, len: f64) -> JsResult<Gc<JsObject>> {
    if !rt.is_array(Value::object(original))? {
        let a = array_create(rt, len)?;
        rt.root(Value::object(a));
        return Ok(a);
    }
    let ck = Key::Name(rt.names.constructor);
    let mut c = rt.get(original, ck, Value::object(original))?;
    if rt.is_constructor(c) {
        let realm = rt.function_realm(c);
        if realm != rt.realm && c == rt.realms[realm as usize].intrinsic(Intrinsic::Array) {
            c = Value::UNDEFINED;
        }
    }
    if c.is_object() {
        let sk = Key::Name(rt.symbols.species);
        c = rt.get(c.gc(), sk, c)?;
        if c.is_null() {
            c = Value::UNDEFINED;
        }
    }
    let a = if c.is_undefined() || c == rt.intrinsic(Intrinsic::Array) {
        array_create(rt, len)?
    } else {
        if !rt.is_constructor(c) {
            return Err(rt.throw_type_error("object.constructor[Symbol.species] is not a constructor"));
        }
        let r = rt.construct(c, &[Value::number(len)], c)?;
        if !r.is_object() {
            return Err(rt.throw_type_error("species constructor returned a non-object"));
        }
        r.gc()
    };
    rt.root(Value::object(a));
    Ok(a)
}

// ---- Constructor and statics -------------------------------------------------------------------

/// 23.1.1.1 Array(...values).
fn array_constructor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is undefined, let newTarget be the active function object.
    let nt = rt.native_new_target();
    let nt = if nt.is_undefined() { rt.native_callee() } else { nt };
    // 2. Let proto be ? GetPrototypeFromConstructor(newTarget, "%Array.prototype%").
    let proto = rt.prototype_from_constructor(nt, Intrinsic::ArrayPrototype)?;
    let a = if args.len() == 1 {
        let len = args[0];
        if let Some(n) = len.as_number() {
            // 5.c-d. If intLen is not lengthArg, throw a RangeError exception.
            let i = n as u32;
            if i as f64 != n {
                return Err(rt.throw_range_error("Invalid array length"));
            }
            rt.new_array(i)
        } else {
            rt.new_array_from(&[len])
        }
    } else {
        rt.new_array_from(args)
    };
    if proto != rt.intrinsic(Intrinsic::ArrayPrototype) {
        rt.change_prototype(a, proto);
    }
    Ok(Value::object(a))
}

/// 23.1.2.2 Array.isArray(arg).
fn is_array(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    Ok(Value::boolean(rt.is_array(arg(args, 0))?))
}

/// Construct `C` with a length, or ArrayCreate when `C` is not a constructor.
pub(crate) fn construct_or_array(rt: &mut Runtime, c: Value, len: Option<f64>) -> JsResult<Gc<JsObject>> {
    let a = if rt.is_constructor(c) && c != rt.intrinsic(Intrinsic::Array) {
        let args: Vec<Value> = len.map(|l| vec![Value::number(l)]).unwrap_or_default();
        let r = rt.construct(c, &args, c)?;
        if !r.is_object() {
            return Err(rt.throw_type_error("constructor returned a non-object"));
        }
        r.gc()
    } else {
        array_create(rt, len.unwrap_or(0.0))?
    };
    rt.root(Value::object(a));
    Ok(a)
}

/// 23.1.2.3 Array.of(...items).
fn of(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let a = construct_or_array(rt, this, Some(args.len() as f64))?;
    for (k, &v) in args.iter().enumerate() {
        create_index(rt, a, k as f64, v)?;
    }
    set_length(rt, a, args.len() as f64)?;
    Ok(Value::object(a))
}

/// 23.1.2.1 Array.from(items [, mapfn [, thisArg]]).
fn from(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let (items, mapfn, this_arg) = (arg(args, 0), arg(args, 1), arg(args, 2));
    let mapping = !mapfn.is_undefined();
    if mapping {
        callback(rt, mapfn, "Array.from")?;
    }
    // 5. Let usingIterator be ? GetMethod(items, @@iterator).
    let ik = Key::Name(rt.symbols.iterator);
    let using_iterator = if items.is_nullish() { Value::UNDEFINED } else { rt.get_v(items, ik)? };
    if !using_iterator.is_nullish() {
        if !rt.is_callable(using_iterator) {
            return Err(rt.throw_type_error("Symbol.iterator is not a function"));
        }
        let a = construct_or_array(rt, this, None)?;
        let it = crate::runtime::iteration::get_iterator(rt, items)?;
        rt.root(it);
        let mut k = 0.0;
        loop {
            // Each step's iterator result is garbage once read: collect as the loop goes
            // (`a` and `it` are rooted, as are the arguments).
            rt.safepoint()?;
            let v = crate::runtime::iteration::iterator_next(rt, it)?;
            if v.is_empty() {
                set_length(rt, a, k)?;
                return Ok(Value::object(a));
            }
            let mark = rt.handle_mark();
            rt.root(v);
            let r = (|| {
                let mv = if mapping { rt.call(mapfn, this_arg, &[v, Value::number(k)])? } else { v };
                create_index(rt, a, k, mv)
            })();
            if let Err(e) = r {
                let _ = crate::runtime::iteration::iterator_close(rt, it, true);
                return Err(e);
            }
            rt.release_handles(mark);
            k += 1.0;
        }
    }
    // 7. NOTE: items is not an Iterable so assume it is an array-like object.
    let array_like = rt.to_object(items)?;
    rt.root(Value::object(array_like));
    let len = length_of(rt, array_like)?;
    let a = construct_or_array(rt, this, Some(len))?;
    let mut k = 0.0;
    while k < len {
        let v = get_index(rt, array_like, k)?;
        let mv = if mapping { rt.call(mapfn, this_arg, &[v, Value::number(k)])? } else { v };
        create_index(rt, a, k, mv)?;
        k += 1.0;
    }
    set_length(rt, a, len)?;
    Ok(Value::object(a))
}

/// 23.1.2.5 get Array[@@species].
pub(crate) fn species_getter(_rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    Ok(this)
}

// ---- Prototype methods -------------------------------------------------------------------------

/// 23.1.3.1 Array.prototype.at(index).
fn at(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let o = this_object(rt, this)?;
    let len = length_of(rt, o)?;
    let rel = rt.to_integer_or_infinity(arg(args, 0))?;
    let k = if rel >= 0.0 { rel } else { len + rel };
    if k < 0.0 || k >= len {
        return Ok(Value::UNDEFINED);
    }
    get_index(rt, o, k)
}

/// 23.1.3.2.1 IsConcatSpreadable(O).
fn is_concat_spreadable(rt: &mut Runtime, v: Value) -> JsResult<bool> {
    if !v.is_object() {
        return Ok(false);
    }
    let key = Key::Name(rt.symbols.is_concat_spreadable);
    let s = rt.get(v.gc(), key, v)?;
    if !s.is_undefined() {
        return Ok(rt.to_boolean(s));
    }
    rt.is_array(v)
}

/// 23.1.3.2 Array.prototype.concat(...items).
fn concat(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let o = this_object(rt, this)?;
    let a = array_species_create(rt, o, 0.0)?;
    let mut n = 0.0;
    let mut items = vec![Value::object(o)];
    items.extend_from_slice(args);
    for e in items {
        if is_concat_spreadable(rt, e)? {
            let eo: Gc<JsObject> = e.gc();
            let len = length_of(rt, eo)?;
            if n + len > 9007199254740991.0 {
                return Err(rt.throw_type_error("Array length exceeds the maximum"));
            }
            let mut k = 0.0;
            while k < len {
                if no_elements_from(rt, eo, k) {
                    // Only holes are left (a sparse array of length 2^32 - 1, say).
                    n += len - k;
                    break;
                }
                if has_index(rt, eo, k)? {
                    let v = get_index(rt, eo, k)?;
                    create_index(rt, a, n, v)?;
                }
                n += 1.0;
                k += 1.0;
            }
        } else {
            create_index(rt, a, n, e)?;
            n += 1.0;
        }
    }
    set_length(rt, a, n)?;
    Ok(Value::object(a))
}

/// 23.1.3.4 Array.prototype.copyWithin(target, start [, end]).
fn copy_within(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let o = this_object(rt, this)?;
    let len = length_of(rt, o)?;
    let mut to = relative(rt, arg(args, 0), len, 0.0)?;
    let mut from = relative(rt, arg(args, 1), len, 0.0)?;
    let fin = relative(rt, arg(args, 2), len, len)?;
    let mut count = (fin - from).min(len - to);
    let dir = if from < to && to < from + count {
        from += count - 1.0;
        to += count - 1.0;
        -1.0
    } else {
        1.0
    };
    while count > 0.0 {
        if has_index(rt, o, from)? {
            let v = get_index(rt, o, from)?;
            set_index(rt, o, to, v)?;
        } else {
            delete_index(rt, o, to)?;
        }
        from += dir;
        to += dir;
        count -= 1.0;
    }
    Ok(Value::object(o))
}

/// 23.1.3.5 Array.prototype.entries().
fn entries(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let o = this_object(rt, this)?;
    Ok(rt.new_builtin_iterator(Value::object(o), iter_kind::ARRAY_ENTRIES))
}

/// 23.1.3.17 Array.prototype.keys().
fn keys(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let o = this_object(rt, this)?;
    Ok(rt.new_builtin_iterator(Value::object(o), iter_kind::ARRAY_KEYS))
}

/// 23.1.3.36 Array.prototype.values().
fn values(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let o = this_object(rt, this)?;
    Ok(rt.new_builtin_iterator(Value::object(o), iter_kind::ARRAY_VALUES))
}

#[derive(Clone, Copy, PartialEq)]
enum Quantifier {
    Every,
    Some,
    ForEach,
}

/// every / some / forEach.
fn iterate(rt: &mut Runtime, this: Value, args: &[Value], q: Quantifier, what: &str) -> JsResult<Value> {
    let o = this_object(rt, this)?;
    let len = length_of(rt, o)?;
    let f = callback(rt, arg(args, 0), what)?;
    let this_arg = arg(args, 1);
    let mut k = 0.0;
    while k < len {
        if has_index(rt, o, k)? {
            let v = get_index(rt, o, k)?;
            let r = rt.call(f, this_arg, &[v, Value::number(k), Value::object(o)])?;
            match q {
                Quantifier::Every if !rt.to_boolean(r) => return Ok(Value::FALSE),
                Quantifier::Some if rt.to_boolean(r) => return Ok(Value::TRUE),
                _ => {}
            }
        }
        k += 1.0;
    }
    Ok(match q {
        Quantifier::Every => Value::TRUE,
        Quantifier::Some => Value::FALSE,
        Quantifier::ForEach => Value::UNDEFINED,
    })
}

/// 23.1.3.6 Array.prototype.every(callbackfn [, thisArg]).
fn every(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    iterate(rt, this, args, Quantifier::Every, "Array.prototype.every")
}

/// 23.1.3.29 Array.prototype.some(callbackfn [, thisArg]).
fn some(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    iterate(rt, this, args, Quantifier::Some, "Array.prototype.some")
}

/// 23.1.3.15 Array.prototype.forEach(callbackfn [, thisArg]).
fn for_each(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    iterate(rt, this, args, Quantifier::ForEach, "Array.prototype.forEach")
}

/// 23.1.3.7 Array.prototype.fill(value [, start [, end]]).
fn fill(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let o = this_object(rt, this)?;
    let len = length_of(rt, o)?;
    let mut k = relative(rt, arg(args, 1), len, 0.0)?;
    let fin = relative(rt, arg(args, 2), len, len)?;
    let v = arg(args, 0);
    while k < fin {
        set_index(rt, o, k, v)?;
        k += 1.0;
    }
    Ok(Value::object(o))
}

/// 23.1.3.8 Array.prototype.filter(callbackfn [, thisArg]).
fn filter(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let o = this_object(rt, this)?;
    let len = length_of(rt, o)?;
    let f = callback(rt, arg(args, 0), "Array.prototype.filter")?;
    let this_arg = arg(args, 1);
    let a = array_species_create(rt, o, 0.0)?;
    let (mut k, mut to) = (0.0, 0.0);
    while k < len {
        if has_index(rt, o, k)? {
            let v = get_index(rt, o, k)?;
            let mark = rt.handle_mark();
            rt.root(v);
            let sel = rt.call(f, this_arg, &[v, Value::number(k), Value::object(o)])?;
            if rt.to_boolean(sel) {
                create_index(rt, a, to, v)?;
                to += 1.0;
            }
            rt.release_handles(mark);
        }
        k += 1.0;
    }
    Ok(Value::object(a))
}

/// FindViaPredicate: `(index, value)` of the first/last match.
fn find_via_predicate(
    rt: &mut Runtime,
    this: Value,
    args: &[Value],
    ascending: bool,
    what: &str,
) -> JsResult<(f64, Value)> {
    let o = this_object(rt, this)?;
    let len = length_of(rt, o)?;
    let f = callback(rt, arg(args, 0), what)?;
    let this_arg = arg(args, 1);
    let mut i = 0.0;
    while i < len {
        let k = if ascending { i } else { len - 1.0 - i };
        let v = get_index(rt, o, k)?;
        let mark = rt.handle_mark();
        rt.root(v);
        let r = rt.call(f, this_arg, &[v, Value::number(k), Value::object(o)])?;
        rt.release_handles(mark);
        if rt.to_boolean(r) {
            return Ok((k, v));
        }
        i += 1.0;
    }
    Ok((-1.0, Value::UNDEFINED))
}

/// 23.1.3.9 Array.prototype.find(predicate [, thisArg]).
fn find(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    Ok(find_via_predicate(rt, this, args, true, "Array.prototype.find")?.1)
}

/// 23.1.3.10 Array.prototype.findIndex(predicate [, thisArg]).
fn find_index(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    Ok(Value::number(find_via_predicate(rt, this, args, true, "Array.prototype.findIndex")?.0))
}

/// 23.1.3.11 Array.prototype.findLast(predicate [, thisArg]).
fn find_last(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    Ok(find_via_predicate(rt, this, args, false, "Array.prototype.findLast")?.1)
}

/// 23.1.3.12 Array.prototype.findLastIndex(predicate [, thisArg]).
fn find_last_index(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    Ok(Value::number(find_via_predicate(rt, this, args, false, "Array.prototype.findLastIndex")?.0))
}

/// 23.1.3.13.1 FlattenIntoArray.
#[allow(clippy::too_many_arguments)]
fn flatten_into(
    rt: &mut Runtime,
    target: Gc<JsObject>,
    source: Gc<JsObject>,
    source_len: f64,
    start: f64,
    depth: f64,
    mapper: Option<(Value, Value)>,
) -> JsResult<f64> {
    let mut target_index = start;
    let mut si = 0.0;
    while si < source_len {
        if has_index(rt, source, si)? {
            let mut el = get_index(rt, source, si)?;
            if let Some((f, t)) = mapper {
                el = rt.call(f, t, &[el, Value::number(si), Value::object(source)])?;
            }
            let mark = rt.handle_mark();
            rt.root(el);
            if depth > 0.0 && rt.is_array(el)? {
                let eo: Gc<JsObject> = el.gc();
                let l = length_of(rt, eo)?;
                target_index = flatten_into(rt, target, eo, l, target_index, depth - 1.0, None)?;
            } else {
                if target_index >= 9007199254740991.0 {
                    return Err(rt.throw_type_error("Array too large"));
                }
                create_index(rt, target, target_index, el)?;
                target_index += 1.0;
            }
            rt.release_handles(mark);
        }
        si += 1.0;
    }
    Ok(target_index)
}

/// 23.1.3.13 Array.prototype.flat([depth]).
fn flat(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let o = this_object(rt, this)?;
    let len = length_of(rt, o)?;
    let d = arg(args, 0);
    let depth = if d.is_undefined() { 1.0 } else { rt.to_integer_or_infinity(d)?.max(0.0) };
    let a = array_species_create(rt, o, 0.0)?;
    flatten_into(rt, a, o, len, 0.0, depth, None)?;
    Ok(Value::object(a))
}

/// 23.1.3.14 Array.prototype.flatMap(mapperFunction [, thisArg]).
fn flat_map(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let o = this_object(rt, this)?;
    let len = length_of(rt, o)?;
    let f = callback(rt, arg(args, 0), "Array.prototype.flatMap")?;
    let a = array_species_create(rt, o, 0.0)?;
    flatten_into(rt, a, o, len, 0.0, 1.0, Some((f, arg(args, 1))))?;
    Ok(Value::object(a))
}

/// 23.1.3.16 Array.prototype.includes(searchElement [, fromIndex]).
fn includes(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let o = this_object(rt, this)?;
    let len = length_of(rt, o)?;
    if len == 0.0 {
        return Ok(Value::FALSE);
    }
    let n = rt.to_integer_or_infinity(arg(args, 1))?;
    if n == f64::INFINITY {
        return Ok(Value::FALSE);
    }
    let mut k = if n >= 0.0 { n } else { (len + n).max(0.0) };
    let target = arg(args, 0);
    while k < len {
        let v = get_index(rt, o, k)?;
        if rt.same_value_zero(v, target) {
            return Ok(Value::TRUE);
        }
        k += 1.0;
    }
    Ok(Value::FALSE)
}

/// 23.1.3.17 Array.prototype.indexOf(searchElement [, fromIndex]).
fn index_of(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let o = this_object(rt, this)?;
    let len = length_of(rt, o)?;
    if len == 0.0 {
        return Ok(Value::number(-1.0));
    }
    let n = rt.to_integer_or_infinity(arg(args, 1))?;
    if n == f64::INFINITY {
        return Ok(Value::number(-1.0));
    }
    let mut k = if n >= 0.0 { n } else { (len + n).max(0.0) };
    let target = arg(args, 0);
    while k < len {
        if has_index(rt, o, k)? {
            let v = get_index(rt, o, k)?;
            if rt.strict_equals(v, target) {
                return Ok(Value::number(k));
            }
        }
        k += 1.0;
    }
    Ok(Value::number(-1.0))
}

/// 23.1.3.20 Array.prototype.lastIndexOf(searchElement [, fromIndex]).
fn last_index_of(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let o = this_object(rt, this)?;
    let len = length_of(rt, o)?;
    if len == 0.0 {
        return Ok(Value::number(-1.0));
    }
    let n = if args.len() > 1 { rt.to_integer_or_infinity(args[1])? } else { len - 1.0 };
    if n == f64::NEG_INFINITY {
        return Ok(Value::number(-1.0));
    }
    let mut k = if n >= 0.0 { n.min(len - 1.0) } else { len + n };
    let target = arg(args, 0);
    while k >= 0.0 {
        if has_index(rt, o, k)? {
            let v = get_index(rt, o, k)?;
            if rt.strict_equals(v, target) {
                return Ok(Value::number(k));
            }
        }
        k -= 1.0;
    }
    Ok(Value::number(-1.0))
}

/// 23.1.3.18 Array.prototype.join(separator).
fn join(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let o = this_object(rt, this)?;
    let len = length_of(rt, o)?;
    let sep = arg(args, 0);
    let sep = if sep.is_undefined() { rt.new_string(",") } else { rt.to_string(sep)? };
    rt.root(sep);
    join_with(rt, o, len, sep)
}

fn join_with(rt: &mut Runtime, o: Gc<JsObject>, len: f64, sep: Value) -> JsResult<Value> {
    // Cycle detection: a nested join of an array already being joined yields "".
    if rt.calls.join_stack.contains(&Value::object(o)) {
        return Ok(rt.names.empty.value());
    }
    rt.calls.join_stack.push(Value::object(o));
    let r = join_inner(rt, o, len, sep);
    rt.calls.join_stack.pop();
    r
}

fn join_inner(rt: &mut Runtime, o: Gc<JsObject>, len: f64, sep: Value) -> JsResult<Value> {
    let sep_flat = rt.flat(sep);
    let sep_units = rt.heap().str_view(sep_flat).to_units();
    let mut out = StringBuilder::new();
    let mut k = 0.0;
    while k < len {
        // Each element's string is garbage once copied: collect as the loop goes (`o` and
        // `sep` are rooted; nothing else on the heap is held across iterations).
        rt.safepoint()?;
        if k > 0.0 {
            out.push_units(&sep_units);
        }
        let v = get_index(rt, o, k)?;
        if !v.is_nullish() {
            let s = rt.to_string(v)?;
            let f = rt.flat(s);
            out.push_view(&rt.heap().str_view(f));
            if out.too_long() {
                return Err(rt.throw_range_error("Invalid string length"));
            }
        }
        k += 1.0;
    }
    if out.too_long() {
        return Err(rt.throw_range_error("Invalid string length"));
    }
    Ok(Value::string(out.finish(rt.heap_mut())))
}

/// 23.1.3.21 Array.prototype.map(callbackfn [, thisArg]).
fn map(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let o = this_object(rt, this)?;
    let len = length_of(rt, o)?;
    let f = callback(rt, arg(args, 0), "Array.prototype.map")?;
    let this_arg = arg(args, 1);
    let a = array_species_create(rt, o, len)?;
    let mut k = 0.0;
    while k < len {
        if has_index(rt, o, k)? {
            let v = get_index(rt, o, k)?;
            let m = rt.call(f, this_arg, &[v, Value::number(k), Value::object(o)])?;
            create_index(rt, a, k, m)?;
        }
        k += 1.0;
    }
    Ok(Value::object(a))
}

/// 23.1.3.22 Array.prototype.pop().
fn pop(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let o = this_object(rt, this)?;
    let len = length_of(rt, o)?;
    if len == 0.0 {
        set_length(rt, o, 0.0)?;
        return Ok(Value::UNDEFINED);
    }
    let new_len = len - 1.0;
    let v = get_index(rt, o, new_len)?;
    rt.root(v);
    delete_index(rt, o, new_len)?;
    set_length(rt, o, new_len)?;
    Ok(v)
}

/// 23.1.3.23 Array.prototype.push(...items).
fn push(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    // Fast path: an array that stays below the largest length (at 2^32 - 1 the spec's
    // steps store the element under a non-index key, then fail to set the length).
    if this.is_object()
        && rt.heap().object_kind(this.gc()) == CellKind::Array
        && u64::from(rt.heap().array_length(this.gc())) + (args.len() as u64) < u64::from(u32::MAX)
    {
        let a: Gc<JsObject> = this.gc();
        for &v in args {
            rt.array_push(a, v)?;
        }
        return Ok(Value::number(rt.heap().array_length(a) as f64));
    }
    // 1. Let O be ? ToObject(this value).
    let o = this_object(rt, this)?;
    // 2. Let len be ? LengthOfArrayLike(O).
    let len = length_of(rt, o)?;
    // 4. If len + argCount > 2^53 - 1, throw a TypeError exception.
    if len + args.len() as f64 > 9007199254740991.0 {
        return Err(rt.throw_type_error("Pushing past the maximum array length"));
    }
    let mut n = len;
    for &v in args {
        set_index(rt, o, n, v)?;
        n += 1.0;
    }
    set_length(rt, o, n)?;
    Ok(Value::number(n))
}

fn reduce_impl(rt: &mut Runtime, this: Value, args: &[Value], right: bool, what: &str) -> JsResult<Value> {
    let o = this_object(rt, this)?;
    let len = length_of(rt, o)?;
    let f = callback(rt, arg(args, 0), what)?;
    let mut i = 0.0;
    let idx = |i: f64| if right { len - 1.0 - i } else { i };
    let mut acc = if args.len() >= 2 {
        args[1]
    } else {
        let mut found = None;
        while i < len {
            let k = idx(i);
            i += 1.0;
            if has_index(rt, o, k)? {
                found = Some(get_index(rt, o, k)?);
                break;
            }
        }
        match found {
            Some(v) => v,
            None => return Err(rt.throw_type_error("Reduce of empty array with no initial value")),
        }
    };
    let mark = rt.handle_mark();
    let h = rt.root(acc);
    while i < len {
        let k = idx(i);
        if has_index(rt, o, k)? {
            let v = get_index(rt, o, k)?;
            acc = rt.call(f, Value::UNDEFINED, &[acc, v, Value::number(k), Value::object(o)])?;
            rt.set_handle(h, acc);
        }
        i += 1.0;
    }
    rt.release_handles(mark);
    Ok(acc)
}

/// 23.1.3.24 Array.prototype.reduce(callbackfn [, initialValue]).
fn reduce(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    reduce_impl(rt, this, args, false, "Array.prototype.reduce")
}

/// 23.1.3.25 Array.prototype.reduceRight(callbackfn [, initialValue]).
fn reduce_right(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    reduce_impl(rt, this, args, true, "Array.prototype.reduceRight")
}

/// 23.1.3.26 Array.prototype.reverse().
fn reverse(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let o = this_object(rt, this)?;
    let len = length_of(rt, o)?;
    let middle = (len / 2.0).floor();
    let mut lower = 0.0;
    while lower != middle {
        let upper = len - lower - 1.0;
        let lower_exists = has_index(rt, o, lower)?;
        let lower_v = if lower_exists { get_index(rt, o, lower)? } else { Value::UNDEFINED };
        let mark = rt.handle_mark();
        rt.root(lower_v);
        let upper_exists = has_index(rt, o, upper)?;
        let upper_v = if upper_exists { get_index(rt, o, upper)? } else { Value::UNDEFINED };
        rt.root(upper_v);
        match (lower_exists, upper_exists) {
            (true, true) => {
                set_index(rt, o, lower, upper_v)?;
                set_index(rt, o, upper, lower_v)?;
            }
            (false, true) => {
                set_index(rt, o, lower, upper_v)?;
                delete_index(rt, o, upper)?;
            }
            (true, false) => {
                delete_index(rt, o, lower)?;
                set_index(rt, o, upper, lower_v)?;
            }
            (false, false) => {}
        }
        rt.release_handles(mark);
        lower += 1.0;
    }
    Ok(Value::object(o))
}

/// 23.1.3.27 Array.prototype.shift().
fn shift(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let o = this_object(rt, this)?;
    let len = length_of(rt, o)?;
    if len == 0.0 {
        set_length(rt, o, 0.0)?;
        return Ok(Value::UNDEFINED);
    }
    let first = get_index(rt, o, 0.0)?;
    rt.root(first);
    if dense_simple(rt, o, len) {
        if let Some(e) = rt.heap().get(o).elements {
            let vals = rt.heap_mut().vec_values_mut(e);
            vals.copy_within(1.., 0);
        }
        rt.heap_mut().truncate_elements(o, len as usize - 1);
        rt.heap_mut().get_mut(o.cast::<crate::object::array::JsArray>()).length = len as u32 - 1;
        return Ok(first);
    }
    let mut k = 1.0;
    while k < len {
        if has_index(rt, o, k)? {
            let v = get_index(rt, o, k)?;
            set_index(rt, o, k - 1.0, v)?;
        } else {
            delete_index(rt, o, k - 1.0)?;
        }
        k += 1.0;
    }
    delete_index(rt, o, len - 1.0)?;
    set_length(rt, o, len - 1.0)?;
    Ok(first)
}

/// Whether `o` is an array whose `len` elements are all dense (no holes), extensible,
/// with a writable length and no index properties on its prototypes: element moves may be
/// done directly.
fn dense_simple(rt: &mut Runtime, o: Gc<JsObject>, len: f64) -> bool {
    if rt.heap().object_kind(o) != CellKind::Array {
        return false;
    }
    let flags = rt.heap().get(o).header.flags;
    if flags & crate::object::EXTENSIBLE == 0 || flags & crate::object::LENGTH_READONLY != 0 {
        return false;
    }
    let el = rt.heap().elements(o);
    if el.len() as f64 != len || el.iter().any(|v| v.is_empty()) {
        return false;
    }
    rt.get_prototype_of(o) == rt.intrinsic(Intrinsic::ArrayPrototype) && !rt.realm_array_proto_has_indices()
}

/// 23.1.3.28 Array.prototype.slice(start, end).
fn slice(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let o = this_object(rt, this)?;
    let len = length_of(rt, o)?;
    let mut k = relative(rt, arg(args, 0), len, 0.0)?;
    let fin = relative(rt, arg(args, 1), len, len)?;
    let count = (fin - k).max(0.0);
    let a = array_species_create(rt, o, count)?;
    let mut n = 0.0;
    while k < fin {
        if has_index(rt, o, k)? {
            let v = get_index(rt, o, k)?;
            create_index(rt, a, n, v)?;
        }
        k += 1.0;
        n += 1.0;
    }
    set_length(rt, a, n)?;
    Ok(Value::object(a))
}

/// 23.1.3.30.1 SortIndexedProperties + 23.1.3.30.2 SortCompare, with a stable merge sort
/// that tolerates inconsistent comparators and propagates exceptions.
pub(crate) fn sort_values(rt: &mut Runtime, values: &mut Vec<Value>, comparefn: Value) -> JsResult<()> {
    // Undefined values go last, unsorted (SortCompare steps 2-4).
    let mut defined: Vec<Value> = values.iter().copied().filter(|v| !v.is_undefined()).collect();
    let undefined_count = values.len() - defined.len();
    let mut keys: Vec<Value> = Vec::new();
    if comparefn.is_undefined() {
        // Compare by string value: convert once.
        for &v in &defined {
            let s = rt.to_string(v)?;
            rt.root(s);
            keys.push(s);
        }
    }
    let n = defined.len();
    let mut idx: Vec<usize> = (0..n).collect();
    let mut buf: Vec<usize> = vec![0; n];
    let mut width = 1;
    while width < n {
        let mut i = 0;
        while i < n {
            let mid = (i + width).min(n);
            let hi = (i + 2 * width).min(n);
            let (mut l, mut r, mut out) = (i, mid, i);
            while l < mid && r < hi {
                let (a, b) = (idx[l], idx[r]);
                // Take the right element only when it is strictly smaller (stability).
                let right_first = if comparefn.is_undefined() {
                    let (x, y) = (rt.flat(keys[b]), rt.flat(keys[a]));
                    rt.heap().str_view(x).cmp_view(&rt.heap().str_view(y)) == std::cmp::Ordering::Less
                } else {
                    let r = rt.call(comparefn, Value::UNDEFINED, &[defined[b], defined[a]])?;
                    let v = rt.to_number(r)?;
                    v < 0.0
                };
                if right_first {
                    buf[out] = b;
                    r += 1;
                } else {
                    buf[out] = a;
                    l += 1;
                }
                out += 1;
            }
            while l < mid {
                buf[out] = idx[l];
                l += 1;
                out += 1;
            }
            while r < hi {
                buf[out] = idx[r];
                r += 1;
                out += 1;
            }
            i += 2 * width;
        }
        std::mem::swap(&mut idx, &mut buf);
        width *= 2;
    }
    let sorted: Vec<Value> = idx.iter().map(|&i| defined[i]).collect();
    defined.clear();
    values.clear();
    values.extend(sorted);
    values.extend(std::iter::repeat_n(Value::UNDEFINED, undefined_count));
    Ok(())
}

/// Collects the present elements of `o` below `len` (SortIndexedProperties with holes
/// skipped), rooting them.
fn collect_present(rt: &mut Runtime, o: Gc<JsObject>, len: f64, skip_holes: bool) -> JsResult<Vec<Value>> {
    let mut items = Vec::new();
    let mut k = 0.0;
    while k < len {
        if !skip_holes || has_index(rt, o, k)? {
            let v = get_index(rt, o, k)?;
            rt.root(v);
            items.push(v);
        }
        k += 1.0;
    }
    Ok(items)
}

/// 23.1.3.30 Array.prototype.sort(comparefn).
fn sort(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let comparefn = arg(args, 0);
    // 1. If comparefn is not undefined and IsCallable(comparefn) is false, throw a TypeError.
    if !comparefn.is_undefined() && !rt.is_callable(comparefn) {
        return Err(rt.throw_type_error("The comparison function must be either a function or undefined"));
    }
    let o = this_object(rt, this)?;
    let len = length_of(rt, o)?;
    let mut items = collect_present(rt, o, len, true)?;
    sort_values(rt, &mut items, comparefn)?;
    let n = items.len();
    for (j, &v) in items.iter().enumerate() {
        set_index(rt, o, j as f64, v)?;
    }
    let mut j = n as f64;
    while j < len {
        delete_index(rt, o, j)?;
        j += 1.0;
    }
    Ok(Value::object(o))
}

/// 23.1.3.33 Array.prototype.toSorted(comparefn).
fn to_sorted(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let comparefn = arg(args, 0);
    if !comparefn.is_undefined() && !rt.is_callable(comparefn) {
        return Err(rt.throw_type_error("The comparison function must be either a function or undefined"));
    }
    let o = this_object(rt, this)?;
    let len = length_of(rt, o)?;
    let a = array_create(rt, len)?;
    rt.root(Value::object(a));
    let mut items = collect_present(rt, o, len, false)?;
    sort_values(rt, &mut items, comparefn)?;
    for (j, &v) in items.iter().enumerate() {
        create_index(rt, a, j as f64, v)?;
    }
    Ok(Value::object(a))
}

/// 23.1.3.31 Array.prototype.splice(start, deleteCount, ...items).
fn splice(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let o = this_object(rt, this)?;
    let len = length_of(rt, o)?;
    let start = relative(rt, arg(args, 0), len, 0.0)?;
    let items: &[Value] = if args.len() > 2 { &args[2..] } else { &[] };
    let delete_count = match args.len() {
        0 => 0.0,
        1 => len - start,
        _ => rt.to_integer_or_infinity(args[1])?.clamp(0.0, len - start),
    };
    let item_count = items.len() as f64;
    if len + item_count - delete_count > 9007199254740991.0 {
        return Err(rt.throw_type_error("Array length exceeds the maximum"));
    }
    let a = array_species_create(rt, o, delete_count)?;
    let mut k = 0.0;
    while k < delete_count {
        let from = start + k;
        if has_index(rt, o, from)? {
            let v = get_index(rt, o, from)?;
            create_index(rt, a, k, v)?;
        }
        k += 1.0;
    }
    set_length(rt, a, delete_count)?;
    // Fast path for dense simple arrays: move the tail in place.
    if dense_simple(rt, o, len) && len - delete_count + item_count < 4294967295.0 {
        let new_len = (len - delete_count + item_count) as usize;
        let (s, dc, ic) = (start as usize, delete_count as usize, items.len());
        let mut all: Vec<Value> = rt.heap().elements(o).to_vec();
        all.splice(s..s + dc, items.iter().copied());
        debug_assert_eq!(all.len(), new_len);
        rt.heap_mut().truncate_elements(o, 0);
        rt.heap_mut().reserve_elements(o, new_len);
        if new_len > 0 {
            let e = rt.heap_mut().ensure_element(o, new_len - 1);
            rt.heap_mut().vec_values_mut(e).copy_from_slice(&all);
        }
        rt.heap_mut().get_mut(o.cast::<crate::object::array::JsArray>()).length = new_len as u32;
        let _ = ic;
        return Ok(Value::object(a));
    }
    if item_count < delete_count {
        let mut k = start;
        while k < len - delete_count {
            let (from, to) = (k + delete_count, k + item_count);
            if has_index(rt, o, from)? {
                let v = get_index(rt, o, from)?;
                set_index(rt, o, to, v)?;
            } else {
                delete_index(rt, o, to)?;
            }
            k += 1.0;
        }
        let mut k = len;
        while k > len - delete_count + item_count {
            delete_index(rt, o, k - 1.0)?;
            k -= 1.0;
        }
    } else if item_count > delete_count {
        let mut k = len - delete_count;
        while k > start {
            let (from, to) = (k + delete_count - 1.0, k + item_count - 1.0);
            if has_index(rt, o, from)? {
                let v = get_index(rt, o, from)?;
                set_index(rt, o, to, v)?;
            } else {
                delete_index(rt, o, to)?;
            }
            k -= 1.0;
        }
    }
    for (i, &v) in items.iter().enumerate() {
        set_index(rt, o, start + i as f64, v)?;
    }
    set_length(rt, o, len - delete_count + item_count)?;
    Ok(Value::object(a))
}

/// 23.1.3.35 Array.prototype.toSpliced(start, skipCount, ...items).
fn to_spliced(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let o = this_object(rt, this)?;
    let len = length_of(rt, o)?;
    let start = relative(rt, arg(args, 0), len, 0.0)?;
    let items: &[Value] = if args.len() > 2 { &args[2..] } else { &[] };
    let skip = match args.len() {
        0 => 0.0,
        1 => len - start,
        _ => rt.to_integer_or_infinity(args[1])?.clamp(0.0, len - start),
    };
    let new_len = len + items.len() as f64 - skip;
    if new_len > 9007199254740991.0 {
        return Err(rt.throw_type_error("Array length exceeds the maximum"));
    }
    let a = array_create(rt, new_len)?;
    rt.root(Value::object(a));
    let mut i = 0.0;
    let mut r = start + skip;
    while i < start {
        let v = get_index(rt, o, i)?;
        create_index(rt, a, i, v)?;
        i += 1.0;
    }
    for &v in items {
        create_index(rt, a, i, v)?;
        i += 1.0;
    }
    while i < new_len {
        let v = get_index(rt, o, r)?;
        create_index(rt, a, i, v)?;
        i += 1.0;
        r += 1.0;
    }
    Ok(Value::object(a))
}

/// 23.1.3.32 Array.prototype.toLocaleString().
fn to_locale_string(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let o = this_object(rt, this)?;
    let len = length_of(rt, o)?;
    if rt.calls.join_stack.contains(&Value::object(o)) {
        return Ok(rt.names.empty.value());
    }
    rt.calls.join_stack.push(Value::object(o));
    let r = (|| {
        let mut out = StringBuilder::new();
        let mut k = 0.0;
        while k < len {
            if k > 0.0 {
                out.push(b',' as u16);
            }
            let v = get_index(rt, o, k)?;
            if !v.is_nullish() {
                let key = rt.key("toLocaleString");
                let f = rt.get_v(v, key)?;
                let s = rt.call(f, v, &[])?;
                let s = rt.to_string(s)?;
                let f = rt.flat(s);
                out.push_view(&rt.heap().str_view(f));
            }
            k += 1.0;
        }
        Ok(Value::string(out.finish(rt.heap_mut())))
    })();
    rt.calls.join_stack.pop();
    r
}

/// 23.1.3.34 Array.prototype.toReversed().
fn to_reversed(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let o = this_object(rt, this)?;
    let len = length_of(rt, o)?;
    let a = array_create(rt, len)?;
    rt.root(Value::object(a));
    let mut k = 0.0;
    while k < len {
        let v = get_index(rt, o, len - k - 1.0)?;
        create_index(rt, a, k, v)?;
        k += 1.0;
    }
    Ok(Value::object(a))
}

/// 23.1.3.36 Array.prototype.toString().
fn to_string(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let o = this_object(rt, this)?;
    let key = rt.key("join");
    let f = rt.get(o, key, Value::object(o))?;
    if rt.is_callable(f) {
        return rt.call(f, Value::object(o), &[]);
    }
    super::object::to_string(rt, Value::object(o), &[])
}

/// 23.1.3.37 Array.prototype.unshift(...items).
fn unshift(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let o = this_object(rt, this)?;
    let len = length_of(rt, o)?;
    let n = args.len() as f64;
    if n > 0.0 {
        if len + n > 9007199254740991.0 {
            return Err(rt.throw_type_error("Array length exceeds the maximum"));
        }
        if dense_simple(rt, o, len) && len + n < 4294967295.0 {
            let mut all: Vec<Value> = args.to_vec();
            all.extend_from_slice(rt.heap().elements(o));
            let new_len = all.len();
            let e = rt.heap_mut().ensure_element(o, new_len - 1);
            rt.heap_mut().vec_values_mut(e).copy_from_slice(&all);
            rt.heap_mut().get_mut(o.cast::<crate::object::array::JsArray>()).length = new_len as u32;
            return Ok(Value::number(new_len as f64));
        }
        let mut k = len;
        while k > 0.0 {
            let (from, to) = (k - 1.0, k + n - 1.0);
            if has_index(rt, o, from)? {
                let v = get_index(rt, o, from)?;
                set_index(rt, o, to, v)?;
            } else {
                delete_index(rt, o, to)?;
            }
            k -= 1.0;
        }
        for (j, &v) in args.iter().enumerate() {
            set_index(rt, o, j as f64, v)?;
        }
    }
    set_length(rt, o, len + n)?;
    Ok(Value::number(len + n))
}

/// 23.1.3.39 Array.prototype.with(index, value).
fn with(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let o = this_object(rt, this)?;
    let len = length_of(rt, o)?;
    let rel = rt.to_integer_or_infinity(arg(args, 0))?;
    let actual = if rel >= 0.0 { rel } else { len + rel };
    if actual >= len || actual < 0.0 {
        return Err(rt.throw_range_error("Invalid index"));
    }
    let a = array_create(rt, len)?;
    rt.root(Value::object(a));
    let mut k = 0.0;
    while k < len {
        let v = if k == actual { arg(args, 1) } else { get_index(rt, o, k)? };
        create_index(rt, a, k, v)?;
        k += 1.0;
    }
    Ok(Value::object(a))
}

/// Defines `length` on a fresh object as arrays have it (used by array-likes in tests).
#[allow(dead_code)]
pub(crate) fn define_length(rt: &mut Runtime, o: Gc<JsObject>, len: f64) {
    let key = Key::Name(rt.names.length);
    let _ = rt.define_own_property(o, key, &PropertyDescriptor::data(Value::number(len), WRITABLE));
    let _ = ENUMERABLE;
}
