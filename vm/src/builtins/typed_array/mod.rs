//! 23.2 TypedArray objects: %TypedArray% and its prototype, the twelve constructors
//! (`Int8Array` … `BigUint64Array`, `Float16Array`), and the abstract operations that make
//! and validate them.
//!
//! A TypedArray is a `ViewObject` cell (object/typed_array.rs) over an ArrayBuffer; its
//! elements are not properties of its shape but the internal methods of integer-indexed
//! exotic objects (runtime/typed_array.rs). The concrete constructors share one native
//! function: a constructor's `data` is its element kind's index.
//!
//! ```text
//!  %TypedArray% ◀─ Int8Array ... (constructors: [[Prototype]] chain)
//!  %TypedArray.prototype% ◀─ Int8Array.prototype ... (BYTES_PER_ELEMENT on both)
//! ```

pub(crate) mod base64;
pub(crate) mod methods;

use super::{arg, rows, Builtin, Row};
use crate::gc::{CellKind, Gc};
use crate::object::shape::{CONFIGURABLE, WRITABLE};
use crate::object::typed_array::{ElementKind, ViewObject};
use crate::object::{iter_kind, JsObject, Key};
use crate::runtime::function::NativeFunction;
use crate::runtime::{Intrinsic, JsResult, Runtime};
use crate::value::Value;

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin = Builtin { init, rows: ROWS, link, install, ..Builtin::NONE };

pub(crate) const ROWS: &[Row] = rows! {
    TypedArray."from" => from, 1;
    TypedArray."of" => of, 0;
    TypedArray.[species] => super::array::species_getter, 0, getter;
    TypedArrayPrototype."buffer" => buffer, 0, getter;
    TypedArrayPrototype."byteLength" => byte_length, 0, getter;
    TypedArrayPrototype."byteOffset" => byte_offset, 0, getter;
    TypedArrayPrototype."length" => length, 0, getter;
    TypedArrayPrototype.[to_string_tag] => to_string_tag, 0, getter;
};

/// The constructor and prototype intrinsics of each element kind, in table order.
const INTRINSICS: [(Intrinsic, Intrinsic); 12] = [
    (Intrinsic::Int8Array, Intrinsic::Int8ArrayPrototype),
    (Intrinsic::Uint8Array, Intrinsic::Uint8ArrayPrototype),
    (Intrinsic::Uint8ClampedArray, Intrinsic::Uint8ClampedArrayPrototype),
    (Intrinsic::Int16Array, Intrinsic::Int16ArrayPrototype),
    (Intrinsic::Uint16Array, Intrinsic::Uint16ArrayPrototype),
    (Intrinsic::Int32Array, Intrinsic::Int32ArrayPrototype),
    (Intrinsic::Uint32Array, Intrinsic::Uint32ArrayPrototype),
    (Intrinsic::Float16Array, Intrinsic::Float16ArrayPrototype),
    (Intrinsic::Float32Array, Intrinsic::Float32ArrayPrototype),
    (Intrinsic::Float64Array, Intrinsic::Float64ArrayPrototype),
    (Intrinsic::BigInt64Array, Intrinsic::BigInt64ArrayPrototype),
    (Intrinsic::BigUint64Array, Intrinsic::BigUint64ArrayPrototype),
];

/// The constructor intrinsic of `kind`.
fn constructor_of(kind: ElementKind) -> Intrinsic {
    INTRINSICS[kind as usize].0
}

/// The prototype intrinsic of `kind`.
fn prototype_of(kind: ElementKind) -> Intrinsic {
    INTRINSICS[kind as usize].1
}

/// Creates %TypedArray%, its prototype, and the twelve constructors with their prototypes.
pub(crate) fn init(rt: &mut Runtime) {
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    let proto = rt.new_object(op);
    let abstract_ctor = rt.make_constructor("TypedArray", abstract_constructor, 0, Some(proto));
    rt.set_intrinsic(Intrinsic::TypedArrayPrototype, Value::object(proto));
    rt.set_intrinsic(Intrinsic::TypedArray, Value::object(abstract_ctor));
    for &kind in ElementKind::ALL {
        let p = rt.new_object(Value::object(proto));
        let c = rt.make_constructor(kind.name(), constructor, 3, Some(p));
        rt.heap_mut().get_mut(c.cast::<NativeFunction>()).data = Value::number(kind as usize as f64);
        // The constructor's [[Prototype]] is %TypedArray%.
        rt.change_prototype(c, Value::object(abstract_ctor));
        let size = Value::number(kind.size() as f64);
        rt.define_value(c, "BYTES_PER_ELEMENT", size, 0);
        rt.define_value(p, "BYTES_PER_ELEMENT", size, 0);
        let (ci, pi) = INTRINSICS[kind as usize];
        rt.set_intrinsic(ci, Value::object(c));
        rt.set_intrinsic(pi, Value::object(p));
    }
}

/// `values` is also `[Symbol.iterator]`, and `toString` is Array.prototype's.
fn link(rt: &mut Runtime) {
    let values = rt.intrinsic_prop(Intrinsic::TypedArrayPrototype, "values");
    rt.set_intrinsic(Intrinsic::TypedArrayProtoValues, values);
    let tp = rt.intrinsic_object(Intrinsic::TypedArrayPrototype);
    let it_key = Key::Name(rt.symbols.iterator);
    rt.define_data_raw(tp, it_key, values, WRITABLE | CONFIGURABLE);
    let to_string = rt.intrinsic_prop(Intrinsic::ArrayPrototype, "toString");
    rt.define_value(tp, "toString", to_string, WRITABLE | CONFIGURABLE);
}

/// The twelve constructors are global bindings.
fn install(rt: &mut Runtime, global: Gc<JsObject>) {
    for &kind in ElementKind::ALL {
        let c = rt.intrinsic(constructor_of(kind));
        rt.define_value(global, kind.name(), c, WRITABLE | CONFIGURABLE);
    }
}

// ---- Abstract operations -------------------------------------------------------------------

/// The element kind of TypedArray `ta`.
#[inline]
pub(crate) fn kind_of(rt: &Runtime, ta: Gc<JsObject>) -> ElementKind {
    rt.heap().get(ta.cast::<ViewObject>()).kind
}

/// `v` as a TypedArray, if it is one.
#[inline]
pub(crate) fn as_typed_array(rt: &Runtime, v: Value) -> Option<Gc<JsObject>> {
    (v.is_object() && rt.heap().object_kind(v.gc()) == CellKind::TypedArray).then(|| v.gc())
}

/// 23.2.4.4 ValidateTypedArray(O, order): the TypedArray and its length; a TypeError when
/// `v` is not one, or is out of bounds (its buffer detached or shrunk).
pub(crate) fn validate(rt: &mut Runtime, v: Value, what: &str) -> JsResult<(Gc<JsObject>, usize)> {
    let Some(ta) = as_typed_array(rt, v) else {
        return Err(rt.throw_type_error(&format!("{what}: this is not a typed array")));
    };
    match rt.typed_array_length(ta) {
        Some(len) => Ok((ta, len)),
        None => Err(rt.throw_type_error(&format!("{what}: the typed array is detached or out of bounds"))),
    }
}

/// ValidateTypedArray(O, seq-cst, write): as `validate`, and a TypeError when its buffer is
/// immutable.
pub(crate) fn validate_writable(rt: &mut Runtime, v: Value, what: &str) -> JsResult<(Gc<JsObject>, usize)> {
    let r = validate(rt, v, what)?;
    if rt.is_immutable_view(r.0) {
        return Err(rt.throw_type_error(&format!("{what}: the typed array's buffer is immutable")));
    }
    Ok(r)
}

/// A new TypedArray cell of `kind` over `buffer` with prototype `proto`.
fn new_typed_array(
    rt: &mut Runtime,
    proto: Value,
    kind: ElementKind,
    buffer: Gc<JsObject>,
    byte_offset: usize,
    length: Option<usize>,
) -> Gc<JsObject> {
    let shape = rt.root_shape(proto, CellKind::TypedArray, 0);
    let view = ViewObject::new(JsObject::new(CellKind::TypedArray, shape), buffer, byte_offset, length, kind);
    rt.heap_mut().alloc_object(view, 0).cast()
}

/// A %Uint8Array% viewing the `len` bytes of fixed-length `buffer`.
pub(crate) fn uint8_array_over(rt: &mut Runtime, buffer: Gc<JsObject>, len: usize) -> Gc<JsObject> {
    let proto = rt.intrinsic(prototype_of(ElementKind::Uint8));
    new_typed_array(rt, proto, ElementKind::Uint8, buffer, 0, Some(len))
}

/// 23.2.5.1.6 AllocateTypedArrayBuffer: a new %ArrayBuffer% for `length` elements.
fn allocate_buffer(rt: &mut Runtime, kind: ElementKind, length: f64) -> JsResult<Gc<JsObject>> {
    let ab = rt.intrinsic(Intrinsic::ArrayBuffer);
    let b = super::array_buffer::allocate(rt, ab, length * kind.size() as f64, None)?;
    Ok(b.cast())
}

/// 23.2.5.1.1 AllocateTypedArray with a length: a TypedArray of `kind` with prototype
/// `proto` and a new buffer of `length` zeroed elements.
pub(crate) fn allocate_with_length(
    rt: &mut Runtime,
    proto: Value,
    kind: ElementKind,
    length: f64,
) -> JsResult<Gc<JsObject>> {
    rt.root(proto);
    let buffer = allocate_buffer(rt, kind, length)?;
    rt.root(Value::object(buffer));
    let ta = new_typed_array(rt, proto, kind, buffer, 0, Some(length as usize));
    rt.root(Value::object(ta));
    Ok(ta)
}

/// 23.2.4.2 TypedArrayCreateFromConstructor(constructor, argumentList, accessMode): the new
/// array must be writable unless it is only read (`subarray`).
pub(crate) fn create_from_constructor(
    rt: &mut Runtime,
    c: Value,
    args: &[Value],
    write: bool,
) -> JsResult<Gc<JsObject>> {
    // 1. Let newTypedArray be ? Construct(constructor, argumentList).
    let new = rt.construct(c, args, c)?;
    rt.root(new);
    // 2. Let taRecord be ? ValidateTypedArray(newTypedArray, seq-cst, accessMode).
    let what = "TypedArray constructor";
    let (ta, len) = if write { validate_writable(rt, new, what)? } else { validate(rt, new, what)? };
    // 3. If argumentList is a List of a single Number, its length must be at least that.
    if let [n] = args {
        if let Some(n) = n.as_number() {
            if (len as f64) < n {
                return Err(rt.throw_type_error("The constructed typed array is too short"));
            }
        }
    }
    Ok(ta)
}

/// 23.2.4.1 TypedArraySpeciesCreate(exemplar, argumentList).
pub(crate) fn species_create(
    rt: &mut Runtime,
    exemplar: Gc<JsObject>,
    args: &[Value],
    write: bool,
) -> JsResult<Gc<JsObject>> {
    let kind = kind_of(rt, exemplar);
    // 1-2. Let constructor be ? SpeciesConstructor(exemplar, defaultConstructor).
    let c = super::species_constructor(rt, Value::object(exemplar), constructor_of(kind))?;
    // 3. Let result be ? TypedArrayCreateFromConstructor(constructor, argumentList).
    let result = create_from_constructor(rt, c, args, write)?;
    // 4-5. Its content type must be the exemplar's.
    if kind_of(rt, result).is_bigint() != kind.is_bigint() {
        return Err(rt.throw_type_error("The species constructor made a typed array of another content type"));
    }
    Ok(result)
}

/// 23.2.4.3 TypedArrayCreateSameType(exemplar, length).
pub(crate) fn create_same_type(rt: &mut Runtime, exemplar: Gc<JsObject>, length: usize) -> JsResult<Gc<JsObject>> {
    let kind = kind_of(rt, exemplar);
    let proto = rt.intrinsic(prototype_of(kind));
    allocate_with_length(rt, proto, kind, length as f64)
}

// ---- Constructors ---------------------------------------------------------------------------

/// 23.2.1.1 %TypedArray%(): always throws.
fn abstract_constructor(rt: &mut Runtime, _this: Value, _args: &[Value]) -> JsResult<Value> {
    Err(rt.throw_type_error("Abstract class TypedArray not directly constructable"))
}

/// 23.2.5.1 TypedArray(...args), for every element kind.
fn constructor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let callee = rt.native_callee();
    let data = rt.heap().get(callee.gc::<NativeFunction>()).data;
    let kind = ElementKind::from_index(data.number_unchecked() as usize).expect("a TypedArray constructor");
    // 1. If NewTarget is undefined, throw a TypeError exception.
    let nt = rt.native_new_target();
    if nt.is_undefined() {
        return Err(rt.throw_type_error(&format!("Constructor {} requires 'new'", kind.name())));
    }
    let first = arg(args, 0);
    // 6. Not an object: a length.
    if !first.is_object() {
        // 6.b. Let elementLength be ? ToIndex(firstArgument).
        let n = if args.is_empty() { 0.0 } else { rt.to_index(first)? };
        let proto = rt.prototype_from_constructor(nt, prototype_of(kind))?;
        return Ok(Value::object(allocate_with_length(rt, proto, kind, n)?));
    }
    // 5.a. AllocateTypedArray(constructorName, NewTarget, proto): its prototype first.
    let proto = rt.prototype_from_constructor(nt, prototype_of(kind))?;
    rt.root(proto);
    let source: Gc<JsObject> = first.gc();
    let ta = match rt.heap().object_kind(source) {
        CellKind::TypedArray => from_typed_array(rt, proto, kind, source)?,
        CellKind::ArrayBuffer | CellKind::SharedArrayBuffer => {
            from_array_buffer(rt, proto, kind, source, arg(args, 1), arg(args, 2))?
        }
        _ => {
            // 5.b.ii-iv. An iterable, else an array-like.
            let ik = Key::Name(rt.symbols.iterator);
            let using_iterator = rt.get(source, ik, first)?;
            if !using_iterator.is_nullish() {
                if !rt.is_callable(using_iterator) {
                    return Err(rt.throw_type_error("Symbol.iterator is not a function"));
                }
                let values = iterable_to_list(rt, first, using_iterator)?;
                from_list(rt, proto, kind, &values)?
            } else {
                from_array_like(rt, proto, kind, source)?
            }
        }
    };
    Ok(Value::object(ta))
}

/// 7.4.13 IteratorToList(? GetIteratorFromMethod(v, method)), every value rooted. The
/// iterator's `next` is read once, as the IteratorRecord keeps it.
fn iterable_to_list(rt: &mut Runtime, v: Value, method: Value) -> JsResult<Vec<Value>> {
    let it = crate::runtime::iteration::get_iterator_from_method(rt, v, method)?;
    rt.root(it);
    let next_key = Key::Name(rt.names.next);
    let next = rt.get_v(it, next_key)?;
    rt.root(next);
    let mut values = Vec::new();
    // An array iterator whose `next` is the original steps without result objects.
    let array_iterator = rt.heap().object_kind(it.gc()) == CellKind::Iterator
        && matches!(
            rt.heap().get(it.gc::<crate::object::IteratorObject>()).kind,
            iter_kind::ARRAY_KEYS | iter_kind::ARRAY_VALUES | iter_kind::ARRAY_ENTRIES
        );
    if array_iterator && next == rt.intrinsic(Intrinsic::ArrayIteratorProtoNext) {
        while let Some(v) = rt.builtin_iterator_step(it.gc())? {
            rt.root(v);
            values.push(v);
        }
        return Ok(values);
    }
    loop {
        rt.safepoint()?;
        let Some(v) = crate::runtime::iteration::iterator_step_value(rt, it, next)? else { return Ok(values) };
        rt.root(v);
        values.push(v);
    }
}

/// 23.2.5.1.2 InitializeTypedArrayFromTypedArray(O, srcArray).
fn from_typed_array(rt: &mut Runtime, proto: Value, kind: ElementKind, src: Gc<JsObject>) -> JsResult<Gc<JsObject>> {
    // 1-7. The source must be in bounds; its length is ours.
    let Some(len) = rt.typed_array_length(src) else {
        return Err(rt.throw_type_error("The source typed array is detached or out of bounds"));
    };
    // 10. The content types must agree.
    let src_kind = kind_of(rt, src);
    if src_kind.is_bigint() != kind.is_bigint() {
        return Err(rt.throw_type_error("Cannot mix BigInt and other types, use explicit conversions"));
    }
    // 11. Let data be ? AllocateArrayBuffer(%ArrayBuffer%, byteLength).
    let ta = allocate_with_length(rt, proto, kind, len as f64)?;
    // 12-13. Copy the elements (the bytes, for the same type).
    methods::copy_elements(rt, src, 0, ta, 0, len);
    Ok(ta)
}

/// 23.2.5.1.3 InitializeTypedArrayFromArrayBuffer(O, buffer, byteOffset, length).
fn from_array_buffer(
    rt: &mut Runtime,
    proto: Value,
    kind: ElementKind,
    buffer: Gc<JsObject>,
    byte_offset: Value,
    length: Value,
) -> JsResult<Gc<JsObject>> {
    let size = kind.size();
    // 2. Let offset be ? ToIndex(byteOffset).
    let offset = rt.to_index(byte_offset)?;
    // 3. If offset modulo elementSize ≠ 0, throw a RangeError exception.
    if offset % size as f64 != 0.0 {
        return Err(rt.throw_range_error(&format!("start offset of {} should be a multiple of {size}", kind.name())));
    }
    // 4. Let bufferIsFixedLength be IsFixedLengthArrayBuffer(buffer).
    let fixed = rt.is_fixed_length_buffer(buffer);
    // 5. If length is not undefined, let newLength be ? ToIndex(length).
    let new_length = if length.is_undefined() { None } else { Some(rt.to_index(length)?) };
    // 6. If IsDetachedBuffer(buffer) is true, throw a TypeError exception.
    let Some(buffer_len) = rt.buffer_byte_length(buffer) else {
        return Err(rt.throw_type_error("Cannot construct a typed array on a detached ArrayBuffer"));
    };
    let buffer_len = buffer_len as f64;
    let view_length = match new_length {
        // 8. Length-tracking over a resizable buffer.
        None if !fixed => {
            if offset > buffer_len {
                return Err(rt.throw_range_error(&format!("Start offset {offset} is outside the bounds of the buffer")));
            }
            None
        }
        None => {
            // 9.a. If bufferByteLength modulo elementSize ≠ 0, throw a RangeError exception.
            if buffer_len % size as f64 != 0.0 {
                return Err(
                    rt.throw_range_error(&format!("byte length of {} should be a multiple of {size}", kind.name()))
                );
            }
            // 9.a.ii-iii. Let newByteLength be bufferByteLength - offset; not negative.
            if offset > buffer_len {
                return Err(rt.throw_range_error(&format!("Start offset {offset} is outside the bounds of the buffer")));
            }
            Some(((buffer_len - offset) / size as f64) as usize)
        }
        Some(n) => {
            // 9.b. If offset + newByteLength > bufferByteLength, throw a RangeError exception.
            if offset + n * size as f64 > buffer_len {
                return Err(rt.throw_range_error(&format!("Invalid typed array length: {n}")));
            }
            Some(n as usize)
        }
    };
    Ok(new_typed_array(rt, proto, kind, buffer, offset as usize, view_length))
}

/// 23.2.5.1.4 InitializeTypedArrayFromList(O, values).
fn from_list(rt: &mut Runtime, proto: Value, kind: ElementKind, values: &[Value]) -> JsResult<Gc<JsObject>> {
    let ta = allocate_with_length(rt, proto, kind, values.len() as f64)?;
    for (k, &v) in values.iter().enumerate() {
        rt.typed_set(ta, k as f64, v)?;
    }
    Ok(ta)
}

/// 23.2.5.1.5 InitializeTypedArrayFromArrayLike(O, arrayLike).
fn from_array_like(rt: &mut Runtime, proto: Value, kind: ElementKind, src: Gc<JsObject>) -> JsResult<Gc<JsObject>> {
    let len = super::array::length_of(rt, src)?;
    let ta = allocate_with_length(rt, proto, kind, len)?;
    let mut k = 0.0;
    while k < len {
        let v = methods::get_index(rt, src, k)?;
        rt.typed_set(ta, k, v)?;
        k += 1.0;
    }
    Ok(ta)
}

/// 23.2.2.1 %TypedArray%.from(source [, mapfn [, thisArg]]).
fn from(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let (source, mapfn, this_arg) = (arg(args, 0), arg(args, 1), arg(args, 2));
    // 1-2. Let C be the this value; it must be a constructor.
    if !rt.is_constructor(this) {
        return Err(rt.throw_type_error("TypedArray.from: this is not a constructor"));
    }
    // 3-4. mapfn must be callable if given.
    let mapping = !mapfn.is_undefined();
    if mapping && !rt.is_callable(mapfn) {
        return Err(rt.throw_type_error("TypedArray.from: the map function is not callable"));
    }
    // 5. Let usingIterator be ? GetMethod(source, @@iterator).
    let ik = Key::Name(rt.symbols.iterator);
    let using_iterator = if source.is_nullish() { Value::UNDEFINED } else { rt.get_v(source, ik)? };
    let (list, array_like) = if !using_iterator.is_nullish() {
        if !rt.is_callable(using_iterator) {
            return Err(rt.throw_type_error("Symbol.iterator is not a function"));
        }
        // 6.a. Let values be ? IteratorToList(? GetIteratorFromMethod(source, usingIterator)).
        (Some(iterable_to_list(rt, source, using_iterator)?), None)
    } else {
        // 7-9. An array-like object.
        let o = rt.to_object(source)?;
        rt.root(Value::object(o));
        (None, Some(o))
    };
    let len = match (&list, array_like) {
        (Some(l), _) => l.len() as f64,
        (None, Some(o)) => super::array::length_of(rt, o)?,
        (None, None) => unreachable!("a list or an array-like"),
    };
    // Let targetObj be ? TypedArrayCreateFromConstructor(C, « 𝔽(len) »).
    let target = create_from_constructor(rt, this, &[Value::number(len)], true)?;
    let mut k = 0.0;
    while k < len {
        let v = match (&list, array_like) {
            (Some(l), _) => l[k as usize],
            (None, Some(o)) => methods::get_index(rt, o, k)?,
            (None, None) => unreachable!("a list or an array-like"),
        };
        let mapped = if mapping { rt.call(mapfn, this_arg, &[v, Value::number(k)])? } else { v };
        methods::set_index(rt, target, k, mapped)?;
        k += 1.0;
    }
    Ok(Value::object(target))
}

/// 23.2.2.2 %TypedArray%.of(...items).
fn of(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    // 3. If IsConstructor(C) is false, throw a TypeError exception.
    if !rt.is_constructor(this) {
        return Err(rt.throw_type_error("TypedArray.of: this is not a constructor"));
    }
    // 4. Let newObj be ? TypedArrayCreateFromConstructor(C, « 𝔽(len) »).
    let target = create_from_constructor(rt, this, &[Value::number(args.len() as f64)], true)?;
    for (k, &v) in args.iter().enumerate() {
        methods::set_index(rt, target, k as f64, v)?;
    }
    Ok(Value::object(target))
}

// ---- Accessors ---------------------------------------------------------------------------------

/// RequireInternalSlot(this, [[TypedArrayName]]).
fn this_typed_array(rt: &mut Runtime, this: Value, what: &str) -> JsResult<Gc<JsObject>> {
    match as_typed_array(rt, this) {
        Some(ta) => Ok(ta),
        None => Err(rt.throw_type_error(&format!("get TypedArray.prototype.{what}: this is not a typed array"))),
    }
}

/// 23.2.3.2 get %TypedArray%.prototype.buffer.
fn buffer(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let ta = this_typed_array(rt, this, "buffer")?;
    Ok(Value::object(rt.view(ta).buffer))
}

/// 23.2.3.3 get %TypedArray%.prototype.byteLength: 0 when out of bounds.
fn byte_length(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let ta = this_typed_array(rt, this, "byteLength")?;
    let n = rt.typed_array_length(ta).unwrap_or(0) * kind_of(rt, ta).size();
    Ok(Value::number(n as f64))
}

/// 23.2.3.4 get %TypedArray%.prototype.byteOffset: 0 when out of bounds.
fn byte_offset(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let ta = this_typed_array(rt, this, "byteOffset")?;
    let n = match rt.typed_array_length(ta) {
        Some(_) => rt.view(ta).byte_offset,
        None => 0,
    };
    Ok(Value::number(n as f64))
}

/// 23.2.3.21 get %TypedArray%.prototype.length: 0 when out of bounds.
fn length(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let ta = this_typed_array(rt, this, "length")?;
    Ok(Value::number(rt.typed_array_length(ta).unwrap_or(0) as f64))
}

/// 23.2.3.38 get %TypedArray%.prototype[@@toStringTag]: the constructor name, or undefined
/// for anything but a TypedArray.
fn to_string_tag(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    match as_typed_array(rt, this) {
        Some(ta) => {
            let name = kind_of(rt, ta).name();
            Ok(rt.new_string(name))
        }
        None => Ok(Value::UNDEFINED),
    }
}
