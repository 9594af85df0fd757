//! 23.2.3 The methods of %TypedArray.prototype%.
//!
//! Each validates its receiver (ValidateTypedArray), reads the length once, and reads
//! elements with TypedArrayGetElement afterwards, so that a callback that detaches or
//! shrinks the buffer makes later reads undefined rather than out of bounds. Copies
//! between arrays of one element type (`set`, `slice`, `copyWithin`, construction from
//! another TypedArray) move bytes.

use super::{create_same_type, kind_of, species_create, validate, validate_writable};
use crate::builtins::{arg, rows, Builtin, Row};
use crate::gc::Gc;
use crate::object::iter_kind;
use crate::object::typed_array::{decode, encode, Raw};
use crate::object::{JsObject, Key};
use crate::runtime::{JsResult, Runtime};
use crate::string::StringBuilder;
use crate::value::Value;

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin = Builtin { rows: ROWS, ..Builtin::NONE };

pub(crate) const ROWS: &[Row] = rows! {
    TypedArrayPrototype."at" => at, 1;
    TypedArrayPrototype."copyWithin" => copy_within, 2;
    TypedArrayPrototype."entries" => entries, 0;
    TypedArrayPrototype."every" => every, 1;
    TypedArrayPrototype."fill" => fill, 1;
    TypedArrayPrototype."filter" => filter, 1;
    TypedArrayPrototype."find" => find, 1;
    TypedArrayPrototype."findIndex" => find_index, 1;
    TypedArrayPrototype."findLast" => find_last, 1;
    TypedArrayPrototype."findLastIndex" => find_last_index, 1;
    TypedArrayPrototype."forEach" => for_each, 1;
    TypedArrayPrototype."includes" => includes, 1;
    TypedArrayPrototype."indexOf" => index_of, 1;
    TypedArrayPrototype."join" => join, 1;
    TypedArrayPrototype."keys" => keys, 0;
    TypedArrayPrototype."lastIndexOf" => last_index_of, 1;
    TypedArrayPrototype."map" => map, 1;
    TypedArrayPrototype."reduce" => reduce, 1;
    TypedArrayPrototype."reduceRight" => reduce_right, 1;
    TypedArrayPrototype."reverse" => reverse, 0;
    TypedArrayPrototype."set" => set, 1;
    TypedArrayPrototype."slice" => slice, 2;
    TypedArrayPrototype."some" => some, 1;
    TypedArrayPrototype."sort" => sort, 1;
    TypedArrayPrototype."subarray" => subarray, 2;
    TypedArrayPrototype."toLocaleString" => to_locale_string, 0;
    TypedArrayPrototype."toReversed" => to_reversed, 0;
    TypedArrayPrototype."toSorted" => to_sorted, 1;
    TypedArrayPrototype."values" => values, 0;
    TypedArrayPrototype."with" => with, 2;
};

// ---- Helpers ---------------------------------------------------------------------------------

/// The key for index `k` of an array-like (beyond the array-index range, a string).
fn index_key(rt: &mut Runtime, k: f64) -> Key {
    if k < 4294967295.0 {
        Key::Index(k as u32)
    } else {
        let s = rt.number_to_string(k);
        rt.key_from_string(s)
    }
}

/// `Get(O, ! ToString(𝔽(k)))`.
pub(crate) fn get_index(rt: &mut Runtime, o: Gc<JsObject>, k: f64) -> JsResult<Value> {
    if rt.is_typed_array(o) {
        return Ok(rt.typed_get(o, k));
    }
    rt.poll_interrupt()?;
    let key = index_key(rt, k);
    rt.get(o, key, Value::object(o))
}

/// `Set(O, ! ToString(𝔽(k)), v, true)`.
pub(crate) fn set_index(rt: &mut Runtime, o: Gc<JsObject>, k: f64, v: Value) -> JsResult<()> {
    if rt.is_typed_array(o) {
        return rt.typed_set(o, k, v);
    }
    let key = index_key(rt, k);
    rt.set_or_throw(o, key, v)
}

/// The relative index resolution of slice, fill, copyWithin, subarray...
fn relative(rt: &mut Runtime, v: Value, len: f64, default: f64) -> JsResult<f64> {
    if v.is_undefined() {
        return Ok(default);
    }
    let r = rt.to_integer_or_infinity(v)?;
    Ok(if r < 0.0 { (len + r).max(0.0) } else { r.min(len) })
}

/// The callback argument, which must be callable.
fn callback(rt: &mut Runtime, f: Value, what: &str) -> JsResult<Value> {
    if !rt.is_callable(f) {
        let d = rt.short_description(f);
        return Err(rt.throw_type_error(&format!("{d} is not a function ({what})")));
    }
    Ok(f)
}

/// The byte range of elements `from .. from + count` of `ta`, if they are all in bounds now.
fn byte_range(rt: &Runtime, ta: Gc<JsObject>, from: usize, count: usize) -> Option<std::ops::Range<usize>> {
    let len = rt.typed_array_length(ta)?;
    if from + count > len {
        return None;
    }
    let v = rt.view(ta);
    let size = v.kind.size();
    Some(v.byte_offset + from * size..v.byte_offset + (from + count) * size)
}

/// Copies `count` elements of `src` from `src_index` to `dst` at `dst_index`, converting
/// between element types of one content type (callers check it) and moving bytes when the
/// types are the same. Elements out of bounds of either array (after a buffer shrank) are
/// skipped. The source is read entirely before anything is written, so overlapping views
/// of one buffer copy as if through a clone (SetTypedArrayFromTypedArray step 18).
pub(crate) fn copy_elements(
    rt: &mut Runtime,
    src: Gc<JsObject>,
    src_index: usize,
    dst: Gc<JsObject>,
    dst_index: usize,
    count: usize,
) {
    let (sk, dk) = (kind_of(rt, src), kind_of(rt, dst));
    let src_len = rt.typed_array_length(src).unwrap_or(0);
    let dst_len = rt.typed_array_length(dst).unwrap_or(0);
    let count = count.min(src_len.saturating_sub(src_index)).min(dst_len.saturating_sub(dst_index));
    if count == 0 {
        return;
    }
    let (Some(from), Some(to)) = (byte_range(rt, src, src_index, count), byte_range(rt, dst, dst_index, count)) else {
        return;
    };
    let (sb, db) = (rt.view(src).buffer, rt.view(dst).buffer);
    if sk == dk {
        if sb == db {
            let whole = from.start.min(to.start)..from.end.max(to.end);
            let base = whole.start;
            rt.buffer_write(sb, whole, |b| b.copy_within(from.start - base..from.end - base, to.start - base));
        } else {
            let bytes = rt.buffer_read(sb, from, <[u8]>::to_vec);
            rt.buffer_write(db, to, |b| b.copy_from_slice(&bytes));
        }
        return;
    }
    let (ss, ds) = (sk.size(), dk.size());
    let raws: Vec<Raw> = rt.buffer_read(sb, from, |b| (0..count).map(|i| decode(sk, &b[i * ss..], true)).collect());
    rt.buffer_write(db, to, |out| {
        for (i, raw) in raws.into_iter().enumerate() {
            encode(dk, raw, true, &mut out[i * ds..]);
        }
    });
}

/// Copies `count` elements of `src` from `start` to the start of `dst` (the same type) byte
/// by byte in increasing order, as `slice` specifies (23.2.3.27 step 14.g): when a species
/// constructor made `dst` over the same bytes, the overlap repeats, as the spec's loop does.
fn copy_bytes_forward(rt: &mut Runtime, src: Gc<JsObject>, start: usize, dst: Gc<JsObject>, count: usize) {
    let count = count.min(rt.typed_array_length(dst).unwrap_or(0));
    let (Some(from), Some(to)) = (byte_range(rt, src, start, count), byte_range(rt, dst, 0, count)) else { return };
    let (sb, db) = (rt.view(src).buffer, rt.view(dst).buffer);
    if sb != db {
        return copy_elements(rt, src, start, dst, 0, count);
    }
    let whole = from.start.min(to.start)..from.end.max(to.end);
    let (f, t) = (from.start - whole.start, to.start - whole.start);
    rt.buffer_write(sb, whole, |bytes| {
        if t <= f || t >= f + from.len() {
            bytes.copy_within(f..f + from.len(), t);
        } else {
            for i in 0..to.len() {
                bytes[t + i] = bytes[f + i];
            }
        }
    });
}

/// The raw elements `0 .. len` of `ta` (those still in bounds).
fn load_all(rt: &Runtime, ta: Gc<JsObject>, len: usize) -> Vec<Raw> {
    (0..len).map_while(|i| rt.typed_load(ta, i)).collect()
}

/// Writes `raws` to `ta` from index 0 (those still in bounds).
fn store_all(rt: &mut Runtime, ta: Gc<JsObject>, raws: &[Raw]) {
    for (i, &raw) in raws.iter().enumerate() {
        if !rt.typed_store(ta, i, raw) {
            break;
        }
    }
}

// ---- Methods --------------------------------------------------------------------------------

/// 23.2.3.1 %TypedArray%.prototype.at(index).
fn at(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let (ta, len) = validate(rt, this, "%TypedArray%.prototype.at")?;
    let rel = rt.to_integer_or_infinity(arg(args, 0))?;
    let k = if rel >= 0.0 { rel } else { len as f64 + rel };
    if k < 0.0 || k >= len as f64 {
        return Ok(Value::UNDEFINED);
    }
    Ok(rt.typed_get(ta, k))
}

/// 23.2.3.6 %TypedArray%.prototype.copyWithin(target, start [, end]).
fn copy_within(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let (ta, len) = validate_writable(rt, this, "%TypedArray%.prototype.copyWithin")?;
    let lenf = len as f64;
    // 3-12. The target, start and end indices.
    let to = relative(rt, arg(args, 0), lenf, 0.0)?;
    let from = relative(rt, arg(args, 1), lenf, 0.0)?;
    let end = relative(rt, arg(args, 2), lenf, lenf)?;
    let count = (end - from).min(lenf - to);
    if count > 0.0 {
        // 17.c-e. The conversions may have detached or shrunk the buffer.
        let Some(len) = rt.typed_array_length(ta) else {
            return Err(rt.throw_type_error("%TypedArray%.prototype.copyWithin: the typed array is detached"));
        };
        // 17.h-n. Bytes past the current end are not copied.
        let (to, from) = (to as usize, from as usize);
        let count = (count as usize).min(len.saturating_sub(from)).min(len.saturating_sub(to));
        if count > 0 {
            copy_elements(rt, ta, from, ta, to, count);
        }
    }
    Ok(Value::object(ta))
}

/// 23.2.3.7 %TypedArray%.prototype.entries().
fn entries(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let (ta, _) = validate(rt, this, "%TypedArray%.prototype.entries")?;
    Ok(rt.new_builtin_iterator(Value::object(ta), iter_kind::ARRAY_ENTRIES))
}

/// 23.2.3.19 %TypedArray%.prototype.keys().
fn keys(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let (ta, _) = validate(rt, this, "%TypedArray%.prototype.keys")?;
    Ok(rt.new_builtin_iterator(Value::object(ta), iter_kind::ARRAY_KEYS))
}

/// 23.2.3.35 %TypedArray%.prototype.values().
fn values(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let (ta, _) = validate(rt, this, "%TypedArray%.prototype.values")?;
    Ok(rt.new_builtin_iterator(Value::object(ta), iter_kind::ARRAY_VALUES))
}

#[derive(Clone, Copy, PartialEq)]
enum Quantifier {
    Every,
    Some,
    ForEach,
}

/// every / some / forEach.
fn iterate(rt: &mut Runtime, this: Value, args: &[Value], q: Quantifier, what: &str) -> JsResult<Value> {
    let (ta, len) = validate(rt, this, what)?;
    let f = callback(rt, arg(args, 0), what)?;
    let this_arg = arg(args, 1);
    for k in 0..len {
        let v = rt.typed_get(ta, k as f64);
        let r = rt.call(f, this_arg, &[v, Value::number(k as f64), Value::object(ta)])?;
        match q {
            Quantifier::Every if !rt.to_boolean(r) => return Ok(Value::FALSE),
            Quantifier::Some if rt.to_boolean(r) => return Ok(Value::TRUE),
            _ => {}
        }
    }
    Ok(match q {
        Quantifier::Every => Value::TRUE,
        Quantifier::Some => Value::FALSE,
        Quantifier::ForEach => Value::UNDEFINED,
    })
}

/// 23.2.3.8 %TypedArray%.prototype.every(callbackfn [, thisArg]).
fn every(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    iterate(rt, this, args, Quantifier::Every, "%TypedArray%.prototype.every")
}

/// 23.2.3.28 %TypedArray%.prototype.some(callbackfn [, thisArg]).
fn some(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    iterate(rt, this, args, Quantifier::Some, "%TypedArray%.prototype.some")
}

/// 23.2.3.15 %TypedArray%.prototype.forEach(callbackfn [, thisArg]).
fn for_each(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    iterate(rt, this, args, Quantifier::ForEach, "%TypedArray%.prototype.forEach")
}

/// 23.2.3.9 %TypedArray%.prototype.fill(value [, start [, end]]).
fn fill(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let (ta, len) = validate_writable(rt, this, "%TypedArray%.prototype.fill")?;
    let kind = kind_of(rt, ta);
    // 4-5. Convert the value first (ToBigInt or ToNumber).
    let raw = rt.coerce_element(kind, arg(args, 0))?;
    // 6-14. The start and end indices.
    let lenf = len as f64;
    let start = relative(rt, arg(args, 1), lenf, 0.0)?;
    let end = relative(rt, arg(args, 2), lenf, lenf)?;
    // 15-17. The conversions may have detached or shrunk the buffer.
    let Some(len) = rt.typed_array_length(ta) else {
        return Err(rt.throw_type_error("%TypedArray%.prototype.fill: the typed array is detached"));
    };
    let (start, end) = (start as usize, (end as usize).min(len));
    if start < end {
        let size = kind.size();
        let mut one = [0u8; 8];
        encode(kind, raw, true, &mut one);
        let range = byte_range(rt, ta, start, end - start).expect("in bounds");
        let buffer = rt.view(ta).buffer;
        rt.buffer_write(buffer, range, |bytes| {
            if size == 1 {
                bytes.fill(one[0]);
            } else {
                for chunk in bytes.chunks_exact_mut(size) {
                    chunk.copy_from_slice(&one[..size]);
                }
            }
        });
    }
    Ok(Value::object(ta))
}

/// 23.2.3.10 %TypedArray%.prototype.filter(callbackfn [, thisArg]).
fn filter(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let what = "%TypedArray%.prototype.filter";
    let (ta, len) = validate(rt, this, what)?;
    let f = callback(rt, arg(args, 0), what)?;
    let this_arg = arg(args, 1);
    let mut kept = Vec::new();
    for k in 0..len {
        let v = rt.typed_get(ta, k as f64);
        rt.root(v);
        let r = rt.call(f, this_arg, &[v, Value::number(k as f64), Value::object(ta)])?;
        if rt.to_boolean(r) {
            kept.push(v);
        }
    }
    let a = species_create(rt, ta, &[Value::number(kept.len() as f64)], true)?;
    for (n, v) in kept.into_iter().enumerate() {
        set_index(rt, a, n as f64, v)?;
    }
    Ok(Value::object(a))
}

/// find / findIndex / findLast / findLastIndex: the element or its index.
fn find_via_predicate(rt: &mut Runtime, this: Value, args: &[Value], last: bool, index: bool) -> JsResult<Value> {
    let what = "%TypedArray%.prototype.find";
    let (ta, len) = validate(rt, this, what)?;
    let f = callback(rt, arg(args, 0), what)?;
    let this_arg = arg(args, 1);
    for i in 0..len {
        let k = if last { len - 1 - i } else { i } as f64;
        let v = rt.typed_get(ta, k);
        let r = rt.call(f, this_arg, &[v, Value::number(k), Value::object(ta)])?;
        if rt.to_boolean(r) {
            return Ok(if index { Value::number(k) } else { v });
        }
    }
    Ok(if index { Value::number(-1.0) } else { Value::UNDEFINED })
}

/// 23.2.3.11 %TypedArray%.prototype.find(predicate [, thisArg]).
fn find(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    find_via_predicate(rt, this, args, false, false)
}

/// 23.2.3.12 %TypedArray%.prototype.findIndex(predicate [, thisArg]).
fn find_index(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    find_via_predicate(rt, this, args, false, true)
}

/// 23.2.3.13 %TypedArray%.prototype.findLast(predicate [, thisArg]).
fn find_last(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    find_via_predicate(rt, this, args, true, false)
}

/// 23.2.3.14 %TypedArray%.prototype.findLastIndex(predicate [, thisArg]).
fn find_last_index(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    find_via_predicate(rt, this, args, true, true)
}

/// 23.2.3.16 %TypedArray%.prototype.includes(searchElement [, fromIndex]).
fn includes(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let (ta, len) = validate(rt, this, "%TypedArray%.prototype.includes")?;
    if len == 0 {
        return Ok(Value::FALSE);
    }
    let Some(start) = start_index(rt, arg(args, 1), len)? else { return Ok(Value::FALSE) };
    let target = arg(args, 0);
    for k in start..len {
        let v = rt.typed_get(ta, k as f64);
        if rt.same_value_zero(v, target) {
            return Ok(Value::TRUE);
        }
    }
    Ok(Value::FALSE)
}

/// The first index a forward search looks at (fromIndex resolved), or None past the end.
fn start_index(rt: &mut Runtime, from: Value, len: usize) -> JsResult<Option<usize>> {
    let n = rt.to_integer_or_infinity(from)?;
    let lenf = len as f64;
    if n >= lenf {
        return Ok(None);
    }
    Ok(Some(if n >= 0.0 { n as usize } else { (lenf + n).max(0.0) as usize }))
}

/// 23.2.3.17 %TypedArray%.prototype.indexOf(searchElement [, fromIndex]).
fn index_of(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let (ta, len) = validate(rt, this, "%TypedArray%.prototype.indexOf")?;
    if len == 0 {
        return Ok(Value::number(-1.0));
    }
    let Some(start) = start_index(rt, arg(args, 1), len)? else { return Ok(Value::number(-1.0)) };
    let target = arg(args, 0);
    for k in start..len {
        // HasProperty: only elements still in bounds.
        let Some(raw) = rt.typed_load(ta, k) else { break };
        let v = rt.raw_to_value(raw);
        if rt.strict_equals(v, target) {
            return Ok(Value::number(k as f64));
        }
    }
    Ok(Value::number(-1.0))
}

/// 23.2.3.20 %TypedArray%.prototype.lastIndexOf(searchElement [, fromIndex]).
fn last_index_of(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let (ta, len) = validate(rt, this, "%TypedArray%.prototype.lastIndexOf")?;
    if len == 0 {
        return Ok(Value::number(-1.0));
    }
    let lenf = len as f64;
    let n = if args.len() > 1 { rt.to_integer_or_infinity(args[1])? } else { lenf - 1.0 };
    if n == f64::NEG_INFINITY {
        return Ok(Value::number(-1.0));
    }
    let k = if n >= 0.0 { n.min(lenf - 1.0) } else { lenf + n };
    if k < 0.0 {
        return Ok(Value::number(-1.0));
    }
    let target = arg(args, 0);
    for k in (0..=k as usize).rev() {
        let Some(raw) = rt.typed_load(ta, k) else { continue };
        let v = rt.raw_to_value(raw);
        if rt.strict_equals(v, target) {
            return Ok(Value::number(k as f64));
        }
    }
    Ok(Value::number(-1.0))
}

/// 23.2.3.18 %TypedArray%.prototype.join(separator).
fn join(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let (ta, len) = validate(rt, this, "%TypedArray%.prototype.join")?;
    let sep = arg(args, 0);
    let sep = if sep.is_undefined() { rt.new_string(",") } else { rt.to_string(sep)? };
    rt.root(sep);
    let mut out = StringBuilder::new();
    for k in 0..len {
        if k > 0 {
            let f = rt.flat(sep);
            out.push_view(&rt.heap().str_view(f));
        }
        // Elements past a shrunk end are undefined: the empty string.
        if let Some(raw) = rt.typed_load(ta, k) {
            let v = rt.raw_to_value(raw);
            let s = rt.to_string(v)?;
            let f = rt.flat(s);
            out.push_view(&rt.heap().str_view(f));
        }
        if out.len() > crate::string::MAX_STRING_LENGTH {
            return Err(rt.throw_range_error("Invalid string length"));
        }
    }
    Ok(Value::string(out.finish(rt.heap_mut())))
}

/// 23.2.3.22 %TypedArray%.prototype.map(callbackfn [, thisArg]).
fn map(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let what = "%TypedArray%.prototype.map";
    let (ta, len) = validate(rt, this, what)?;
    let f = callback(rt, arg(args, 0), what)?;
    let this_arg = arg(args, 1);
    let a = species_create(rt, ta, &[Value::number(len as f64)], true)?;
    for k in 0..len {
        let v = rt.typed_get(ta, k as f64);
        let mapped = rt.call(f, this_arg, &[v, Value::number(k as f64), Value::object(ta)])?;
        set_index(rt, a, k as f64, mapped)?;
    }
    Ok(Value::object(a))
}

/// reduce and reduceRight.
fn reduce_impl(rt: &mut Runtime, this: Value, args: &[Value], right: bool, what: &str) -> JsResult<Value> {
    let (ta, len) = validate(rt, this, what)?;
    let f = callback(rt, arg(args, 0), what)?;
    let index = |i: usize| if right { len - 1 - i } else { i };
    let mut i = 0;
    let mut acc = if args.len() >= 2 {
        args[1]
    } else {
        if len == 0 {
            return Err(rt.throw_type_error("Reduce of empty array with no initial value"));
        }
        i = 1;
        rt.typed_get(ta, index(0) as f64)
    };
    while i < len {
        let k = index(i) as f64;
        let v = rt.typed_get(ta, k);
        let mark = rt.handle_mark();
        rt.root(acc);
        acc = rt.call(f, Value::UNDEFINED, &[acc, v, Value::number(k), Value::object(ta)])?;
        rt.release_handles(mark);
        i += 1;
    }
    Ok(acc)
}

/// 23.2.3.23 %TypedArray%.prototype.reduce(callbackfn [, initialValue]).
fn reduce(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    reduce_impl(rt, this, args, false, "%TypedArray%.prototype.reduce")
}

/// 23.2.3.24 %TypedArray%.prototype.reduceRight(callbackfn [, initialValue]).
fn reduce_right(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    reduce_impl(rt, this, args, true, "%TypedArray%.prototype.reduceRight")
}

/// 23.2.3.25 %TypedArray%.prototype.reverse().
fn reverse(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let (ta, len) = validate_writable(rt, this, "%TypedArray%.prototype.reverse")?;
    let size = kind_of(rt, ta).size();
    if let Some(range) = byte_range(rt, ta, 0, len) {
        let buffer = rt.view(ta).buffer;
        rt.buffer_write(buffer, range, |bytes| {
            // Reversing all bytes reverses the elements and each element's bytes: undo the
            // second.
            bytes.reverse();
            if size > 1 {
                for chunk in bytes.chunks_exact_mut(size) {
                    chunk.reverse();
                }
            }
        });
    }
    Ok(Value::object(ta))
}

/// 23.2.3.26 %TypedArray%.prototype.set(source [, offset]).
fn set(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-3. RequireInternalSlot(target, [[TypedArrayName]]).
    let Some(target) = super::as_typed_array(rt, this) else {
        return Err(rt.throw_type_error("%TypedArray%.prototype.set: this is not a typed array"));
    };
    if rt.is_immutable_view(target) {
        return Err(rt.throw_type_error("%TypedArray%.prototype.set: the typed array's buffer is immutable"));
    }
    // 4-5. Let targetOffset be ? ToIntegerOrInfinity(offset); not negative.
    let offset = rt.to_integer_or_infinity(arg(args, 1))?;
    if offset < 0.0 {
        return Err(rt.throw_range_error("offset is out of bounds"));
    }
    let source = arg(args, 0);
    match super::as_typed_array(rt, source) {
        Some(src) => set_from_typed_array(rt, target, offset, src)?,
        None => set_from_array_like(rt, target, offset, source)?,
    }
    Ok(Value::UNDEFINED)
}

/// 23.2.3.26.2 SetTypedArrayFromTypedArray(target, targetOffset, source).
fn set_from_typed_array(rt: &mut Runtime, target: Gc<JsObject>, offset: f64, src: Gc<JsObject>) -> JsResult<()> {
    let Some(target_len) = rt.typed_array_length(target) else {
        return Err(rt.throw_type_error("%TypedArray%.prototype.set: the typed array is detached"));
    };
    let Some(src_len) = rt.typed_array_length(src) else {
        return Err(rt.throw_type_error("%TypedArray%.prototype.set: the source is detached"));
    };
    if offset == f64::INFINITY || src_len as f64 + offset > target_len as f64 {
        return Err(rt.throw_range_error("offset is out of bounds"));
    }
    if kind_of(rt, target).is_bigint() != kind_of(rt, src).is_bigint() {
        return Err(rt.throw_type_error("Cannot mix BigInt and other types, use explicit conversions"));
    }
    copy_elements(rt, src, 0, target, offset as usize, src_len);
    Ok(())
}

/// 23.2.3.26.1 SetTypedArrayFromArrayLike(target, targetOffset, source).
fn set_from_array_like(rt: &mut Runtime, target: Gc<JsObject>, offset: f64, source: Value) -> JsResult<()> {
    let Some(target_len) = rt.typed_array_length(target) else {
        return Err(rt.throw_type_error("%TypedArray%.prototype.set: the typed array is detached"));
    };
    let src = rt.to_object(source)?;
    rt.root(Value::object(src));
    let src_len = crate::builtins::array::length_of(rt, src)?;
    if offset == f64::INFINITY || src_len + offset > target_len as f64 {
        return Err(rt.throw_range_error("offset is out of bounds"));
    }
    let mut k = 0.0;
    while k < src_len {
        let v = get_index(rt, src, k)?;
        rt.typed_set(target, offset + k, v)?;
        k += 1.0;
    }
    Ok(())
}

/// 23.2.3.27 %TypedArray%.prototype.slice(start, end).
fn slice(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let (ta, len) = validate(rt, this, "%TypedArray%.prototype.slice")?;
    let lenf = len as f64;
    let start = relative(rt, arg(args, 0), lenf, 0.0)?;
    let end = relative(rt, arg(args, 1), lenf, lenf)?;
    let count = (end - start).max(0.0);
    let a = species_create(rt, ta, &[Value::number(count)], true)?;
    if count > 0.0 {
        // 14.a-c. The species constructor may have detached or shrunk the buffer.
        let Some(len) = rt.typed_array_length(ta) else {
            return Err(rt.throw_type_error("%TypedArray%.prototype.slice: the typed array is detached"));
        };
        let (start, end) = (start as usize, (end as usize).min(len));
        let count = end.saturating_sub(start);
        if kind_of(rt, a) == kind_of(rt, ta) {
            copy_bytes_forward(rt, ta, start, a, count);
        } else {
            for (n, k) in (start..end).enumerate() {
                let v = rt.typed_get(ta, k as f64);
                set_index(rt, a, n as f64, v)?;
            }
        }
    }
    Ok(Value::object(a))
}

/// The default sort order of TypedArray elements (23.2.4.7 CompareTypedArrayElements
/// without a comparator): numeric, -0 before +0, NaN last.
fn compare_raw(a: &Raw, b: &Raw) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    match (a, b) {
        (Raw::Number(x), Raw::Number(y)) => match (x.is_nan(), y.is_nan()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            _ if x == y => y.is_sign_negative().cmp(&x.is_sign_negative()),
            _ => x.partial_cmp(y).expect("not NaN"),
        },
        (Raw::Signed(x), Raw::Signed(y)) => x.cmp(y),
        (Raw::Unsigned(x), Raw::Unsigned(y)) => x.cmp(y),
        _ => Ordering::Equal,
    }
}

/// The elements `0 .. len` of `ta` sorted by `comparefn` (undefined: numerically).
fn sorted_elements(rt: &mut Runtime, ta: Gc<JsObject>, len: usize, comparefn: Value) -> JsResult<Vec<Raw>> {
    let mut raws = load_all(rt, ta, len);
    if comparefn.is_undefined() {
        raws.sort_by(compare_raw);
        return Ok(raws);
    }
    let mut values: Vec<Value> = Vec::with_capacity(raws.len());
    for raw in raws {
        let v = rt.raw_to_value(raw);
        rt.root(v);
        values.push(v);
    }
    crate::builtins::array::sort_values(rt, &mut values, comparefn)?;
    let kind = kind_of(rt, ta);
    values.into_iter().map(|v| rt.coerce_element(kind, v)).collect()
}

/// The comparator argument of sort and toSorted: undefined or callable (checked first).
fn comparator(rt: &mut Runtime, comparefn: Value, what: &str) -> JsResult<Value> {
    if !comparefn.is_undefined() && !rt.is_callable(comparefn) {
        return Err(rt.throw_type_error(&format!("{what}: the comparison function must be callable")));
    }
    Ok(comparefn)
}

/// 23.2.3.29 %TypedArray%.prototype.sort(comparefn).
fn sort(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let what = "%TypedArray%.prototype.sort";
    let comparefn = comparator(rt, arg(args, 0), what)?;
    let (ta, len) = validate_writable(rt, this, what)?;
    let sorted = sorted_elements(rt, ta, len, comparefn)?;
    store_all(rt, ta, &sorted);
    Ok(Value::object(ta))
}

/// 23.2.3.33 %TypedArray%.prototype.toSorted(comparefn).
fn to_sorted(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let what = "%TypedArray%.prototype.toSorted";
    let comparefn = comparator(rt, arg(args, 0), what)?;
    let (ta, len) = validate(rt, this, what)?;
    let a = create_same_type(rt, ta, len)?;
    let sorted = sorted_elements(rt, ta, len, comparefn)?;
    store_all(rt, a, &sorted);
    Ok(Value::object(a))
}

/// 23.2.3.32 %TypedArray%.prototype.toReversed().
fn to_reversed(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let (ta, len) = validate(rt, this, "%TypedArray%.prototype.toReversed")?;
    let a = create_same_type(rt, ta, len)?;
    let mut raws = load_all(rt, ta, len);
    raws.reverse();
    store_all(rt, a, &raws);
    Ok(Value::object(a))
}

/// 23.2.3.30 %TypedArray%.prototype.subarray(start, end).
fn subarray(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-3. RequireInternalSlot(O, [[TypedArrayName]]).
    let Some(ta) = super::as_typed_array(rt, this) else {
        return Err(rt.throw_type_error("%TypedArray%.prototype.subarray: this is not a typed array"));
    };
    let buffer = rt.view(ta).buffer;
    // 5-6. The source length, 0 when out of bounds.
    let len = rt.typed_array_length(ta).unwrap_or(0) as f64;
    let start = relative(rt, arg(args, 0), len, 0.0)?;
    let (size, offset, tracking) = {
        let v = rt.view(ta);
        (v.kind.size(), v.byte_offset, v.length.is_none())
    };
    let begin = Value::number(offset as f64 + start * size as f64);
    let end = arg(args, 1);
    let args = if tracking && end.is_undefined() {
        vec![Value::object(buffer), begin]
    } else {
        let end = relative(rt, end, len, len)?;
        vec![Value::object(buffer), begin, Value::number((end - start).max(0.0))]
    };
    Ok(Value::object(species_create(rt, ta, &args, false)?))
}

/// 23.2.3.31 %TypedArray%.prototype.toLocaleString([reserved1 [, reserved2]]).
fn to_locale_string(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let (ta, len) = validate(rt, this, "%TypedArray%.prototype.toLocaleString")?;
    let mut out = StringBuilder::new();
    for k in 0..len {
        if k > 0 {
            out.push(b',' as u16);
        }
        let v = rt.typed_get(ta, k as f64);
        if !v.is_nullish() {
            rt.root(v);
            let key = rt.key("toLocaleString");
            let f = rt.get_v(v, key)?;
            let s = rt.call(f, v, &[])?;
            let s = rt.to_string(s)?;
            let f = rt.flat(s);
            out.push_view(&rt.heap().str_view(f));
        }
    }
    Ok(Value::string(out.finish(rt.heap_mut())))
}

/// 23.2.3.36 %TypedArray%.prototype.with(index, value).
fn with(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let (ta, len) = validate(rt, this, "%TypedArray%.prototype.with")?;
    let rel = rt.to_integer_or_infinity(arg(args, 0))?;
    let actual = if rel >= 0.0 { rel } else { len as f64 + rel };
    // 7-8. Convert the value (ToBigInt or ToNumber).
    let raw = rt.coerce_element(kind_of(rt, ta), arg(args, 1))?;
    // 9. If IsValidIntegerIndex(O, 𝔽(actualIndex)) is false, throw a RangeError exception.
    if !rt.is_valid_integer_index(ta, actual) {
        return Err(rt.throw_range_error("Invalid typed array index"));
    }
    let a = create_same_type(rt, ta, len)?;
    let mut raws = load_all(rt, ta, len);
    // Elements past a shrunk end read as undefined: NaN once converted (ToBigInt throws).
    if raws.len() < len {
        if kind_of(rt, ta).is_bigint() {
            return Err(rt.throw_type_error("Cannot convert undefined to a BigInt"));
        }
        raws.resize(len, Raw::Number(f64::NAN));
    }
    // The index was checked against the current length, which may exceed the old one.
    if let Some(slot) = raws.get_mut(actual as usize) {
        *slot = raw;
    }
    store_all(rt, a, &raws);
    Ok(Value::object(a))
}
