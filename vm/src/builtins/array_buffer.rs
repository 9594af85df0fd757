//! 25.1 ArrayBuffer: fixed-length and resizable buffers, `transfer`, detachment.
//!
//! The bytes live in a Rust vector the buffer cell owns (counted towards the heap limit
//! as the cell's external bytes); a detached buffer has none. A resizable buffer's vector
//! grows and shrinks with `resize` up to `[[ArrayBufferMaxByteLength]]`.

use super::{arg, rows, Builtin, Row};
use crate::gc::{CellKind, Gc};
use crate::object::{ArrayBufferObject, JsObject};
use crate::runtime::{Intrinsic, JsResult, Runtime};
use crate::value::Value;

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin =
    Builtin { init, rows: ROWS, globals: &[("ArrayBuffer", Intrinsic::ArrayBuffer)], ..Builtin::NONE };

pub(crate) const ROWS: &[Row] = rows! {
    ArrayBuffer."isView" => is_view, 1;
    ArrayBuffer.[species] => super::array::species_getter, 0, getter;
    ArrayBufferPrototype."byteLength" => byte_length, 0, getter;
    ArrayBufferPrototype."detached" => detached, 0, getter;
    ArrayBufferPrototype."immutable" => immutable, 0, getter;
    ArrayBufferPrototype."maxByteLength" => max_byte_length, 0, getter;
    ArrayBufferPrototype."resizable" => resizable, 0, getter;
    ArrayBufferPrototype."resize" => resize, 1;
    ArrayBufferPrototype."slice" => slice, 2;
    ArrayBufferPrototype."sliceToImmutable" => slice_to_immutable, 2;
    ArrayBufferPrototype."transfer" => transfer, 0;
    ArrayBufferPrototype."transferToFixedLength" => transfer_to_fixed_length, 0;
    ArrayBufferPrototype."transferToImmutable" => transfer_to_immutable, 0;
};

/// Creates the constructor and prototype.
pub(crate) fn init(rt: &mut Runtime) {
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    let proto = rt.new_object(op);
    let c = rt.make_constructor("ArrayBuffer", constructor, 1, Some(proto));
    super::iterator::define_tag(rt, proto, "ArrayBuffer");
    rt.set_intrinsic(Intrinsic::ArrayBufferPrototype, Value::object(proto));
    rt.set_intrinsic(Intrinsic::ArrayBuffer, Value::object(c));
}

/// 25.1.4.1 ArrayBuffer(length [, options]).
fn constructor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is undefined, throw a TypeError exception.
    let nt = rt.native_new_target();
    if nt.is_undefined() {
        return Err(rt.throw_type_error("Constructor ArrayBuffer requires 'new'"));
    }
    // 2. Let byteLength be ? ToIndex(length).
    let byte_length = rt.to_index(arg(args, 0))?;
    // 3. Let requestedMaxByteLength be ? GetArrayBufferMaxByteLengthOption(options).
    let max = max_byte_length_option(rt, arg(args, 1))?;
    // 4. Return ? AllocateArrayBuffer(NewTarget, byteLength, requestedMaxByteLength).
    allocate(rt, nt, byte_length, max).map(|b| Value::object(b.cast::<JsObject>()))
}

/// 25.1.3.7 GetArrayBufferMaxByteLengthOption(options): `options.maxByteLength` as an index,
/// if given.
pub(crate) fn max_byte_length_option(rt: &mut Runtime, options: Value) -> JsResult<Option<f64>> {
    if !options.is_object() {
        return Ok(None);
    }
    let key = rt.key("maxByteLength");
    let m = rt.get(options.gc(), key, options)?;
    if m.is_undefined() {
        return Ok(None);
    }
    Ok(Some(rt.to_index(m)?))
}

/// 25.1.3.1 AllocateArrayBuffer(constructor, byteLength [, maxByteLength]).
pub(crate) fn allocate(
    rt: &mut Runtime,
    constructor: Value,
    byte_length: f64,
    max: Option<f64>,
) -> JsResult<Gc<ArrayBufferObject>> {
    // 3. A resizable buffer's length may not exceed its maximum (checked before the object
    // is made).
    if max.is_some_and(|m| byte_length > m) {
        return Err(rt.throw_range_error("ArrayBuffer length exceeds its maxByteLength"));
    }
    // 4. Let obj be ? OrdinaryCreateFromConstructor(constructor, "%ArrayBuffer.prototype%", ...).
    let proto = rt.prototype_from_constructor(constructor, Intrinsic::ArrayBufferPrototype)?;
    // 5. Let block be ? CreateByteDataBlock(byteLength). A resizable buffer whose maximum
    // could never be allocated is refused too (step 6's HostResizeArrayBuffer could not
    // honour it).
    let block = create_byte_data_block(rt, byte_length)?;
    if max.is_some_and(|m| m > rt.heap().limit() as f64) {
        return Err(rt.throw_range_error("ArrayBuffer maxByteLength is larger than the heap limit"));
    }
    Ok(new_buffer(rt, proto, block, max.map(|m| m as usize)))
}

/// A buffer object with prototype `proto` owning `block`.
fn new_buffer(rt: &mut Runtime, proto: Value, block: Vec<u8>, max: Option<usize>) -> Gc<ArrayBufferObject> {
    let shape = rt.root_shape(proto, CellKind::ArrayBuffer, 0);
    let buffer = ArrayBufferObject::new(JsObject::new(CellKind::ArrayBuffer, shape), block, max);
    let bytes = buffer.external_bytes();
    let b = rt.heap_mut().alloc_object(buffer, 0);
    rt.heap_mut().note_external(bytes);
    b
}

/// 6.2.9.1 CreateByteDataBlock(size): zeroed bytes, or a RangeError when they cannot be
/// had (more than the heap may hold, or more than the system gives).
fn create_byte_data_block(rt: &mut Runtime, size: f64) -> JsResult<Vec<u8>> {
    if size > rt.heap().limit() as f64 {
        return Err(rt.throw_range_error("Array buffer allocation failed: larger than the heap limit"));
    }
    let size = size as usize;
    let mut block = Vec::new();
    if block.try_reserve_exact(size).is_err() {
        return Err(rt.throw_range_error("Array buffer allocation failed"));
    }
    block.resize(size, 0);
    Ok(block)
}

/// RequireInternalSlot(this, [[ArrayBufferData]]), and not a SharedArrayBuffer.
fn this_buffer(rt: &mut Runtime, this: Value, what: &str) -> JsResult<Gc<ArrayBufferObject>> {
    if this.is_object() && rt.heap().object_kind(this.gc()) == CellKind::ArrayBuffer {
        return Ok(this.gc());
    }
    Err(rt.throw_type_error(&format!("ArrayBuffer.prototype.{what} called on an object that is not an ArrayBuffer")))
}

/// 25.1.5.3 ArrayBuffer.isView(arg): whether `arg` has a [[ViewedArrayBuffer]] (a TypedArray
/// or a DataView).
fn is_view(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let v = arg(args, 0);
    let view = v.is_object() && matches!(rt.heap().object_kind(v.gc()), CellKind::TypedArray | CellKind::DataView);
    Ok(Value::boolean(view))
}

/// 25.1.6.2 get ArrayBuffer.prototype.byteLength (0 once detached).
fn byte_length(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let b = this_buffer(rt, this, "byteLength")?;
    Ok(Value::number(rt.heap().get(b).byte_length() as f64))
}

/// get ArrayBuffer.prototype.detached.
fn detached(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let b = this_buffer(rt, this, "detached")?;
    Ok(Value::boolean(rt.heap().get(b).data.is_none()))
}

/// get ArrayBuffer.prototype.immutable.
fn immutable(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let b = this_buffer(rt, this, "immutable")?;
    Ok(Value::boolean(rt.heap().get(b).immutable))
}

/// 25.1.6.4 get ArrayBuffer.prototype.maxByteLength: 0 once detached, the byte length of a
/// fixed-length buffer.
fn max_byte_length(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let b = this_buffer(rt, this, "maxByteLength")?;
    let buf = rt.heap().get(b);
    let n = match (&buf.data, buf.max) {
        (None, _) => 0,
        (Some(_), Some(m)) => m,
        (Some(d), None) => d.len(),
    };
    Ok(Value::number(n as f64))
}

/// 25.1.6.5 get ArrayBuffer.prototype.resizable.
fn resizable(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let b = this_buffer(rt, this, "resizable")?;
    Ok(Value::boolean(rt.heap().get(b).max.is_some()))
}

/// 25.1.6.6 ArrayBuffer.prototype.resize(newLength).
fn resize(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-3. RequireInternalSlot(O, [[ArrayBufferMaxByteLength]]); not shared.
    let b = this_buffer(rt, this, "resize")?;
    let Some(max) = rt.heap().get(b).max else {
        return Err(rt.throw_type_error("ArrayBuffer.prototype.resize: the buffer is not resizable"));
    };
    // 4. Let newByteLength be ? ToIndex(newLength).
    let new_length = rt.to_index(arg(args, 0))?;
    // 5. If IsDetachedBuffer(O) is true, throw a TypeError exception.
    if rt.heap().get(b).data.is_none() {
        return Err(rt.throw_type_error("ArrayBuffer.prototype.resize: the buffer is detached"));
    }
    // 6. If newByteLength > O.[[ArrayBufferMaxByteLength]], throw a RangeError exception.
    if new_length > max as f64 {
        return Err(rt.throw_range_error("ArrayBuffer.prototype.resize: the length exceeds maxByteLength"));
    }
    // 7-9. HostResizeArrayBuffer: new bytes are zero.
    let new_length = new_length as usize;
    let buf = rt.heap_mut().get_mut(b);
    let before = buf.external_bytes();
    let data = buf.data.as_mut().expect("not detached");
    if new_length > data.len() && data.try_reserve_exact(new_length - data.len()).is_err() {
        return Err(rt.throw_range_error("Array buffer allocation failed"));
    }
    data.resize(new_length, 0);
    if new_length < data.capacity() / 2 {
        data.shrink_to_fit();
    }
    let grown = buf.external_bytes().saturating_sub(before);
    rt.heap_mut().note_external(grown);
    Ok(Value::UNDEFINED)
}

/// 25.1.6.7 ArrayBuffer.prototype.slice(start, end).
fn slice(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-4. RequireInternalSlot; not shared; not detached.
    let b = this_buffer(rt, this, "slice")?;
    let Some(len) = rt.heap().get(b).data.as_ref().map(Vec::len) else {
        return Err(rt.throw_type_error("ArrayBuffer.prototype.slice: the buffer is detached"));
    };
    // 5-11. The relative start and end, clamped to [0, len].
    let len = len as f64;
    let clamp = |rel: f64| if rel < 0.0 { (len + rel).max(0.0) } else { rel.min(len) };
    let first = clamp(rt.to_integer_or_infinity(arg(args, 0))?);
    let end = arg(args, 1);
    let last = if end.is_undefined() { len } else { clamp(rt.to_integer_or_infinity(end)?) };
    // 12. Let newLen be max(final - first, 0).
    let new_len = (last - first).max(0.0);
    // 13-14. Let new be ? Construct(? SpeciesConstructor(O, %ArrayBuffer%), « newLen »).
    let ctor = super::species_constructor(rt, this, Intrinsic::ArrayBuffer)?;
    let new = rt.construct(ctor, &[Value::number(new_len)], ctor)?;
    // 15-19. It must be another, big enough, attached, non-shared ArrayBuffer.
    if !new.is_object() || rt.heap().object_kind(new.gc()) != CellKind::ArrayBuffer {
        return Err(rt.throw_type_error("ArrayBuffer.prototype.slice: the species constructor made no ArrayBuffer"));
    }
    let nb: Gc<ArrayBufferObject> = new.gc();
    let Some(new_size) = rt.heap().get(nb).data.as_ref().map(Vec::len) else {
        return Err(rt.throw_type_error("ArrayBuffer.prototype.slice: the new buffer is detached"));
    };
    if nb == b {
        return Err(
            rt.throw_type_error("ArrayBuffer.prototype.slice: the species constructor returned the same buffer")
        );
    }
    if rt.heap().get(nb).immutable {
        return Err(
            rt.throw_type_error("ArrayBuffer.prototype.slice: the species constructor made an immutable buffer")
        );
    }
    if (new_size as f64) < new_len {
        return Err(rt.throw_type_error("ArrayBuffer.prototype.slice: the new buffer is too small"));
    }
    // 20-21. The constructor may have detached O.
    let Some(current) = rt.heap().get(b).data.as_ref().map(Vec::len) else {
        return Err(rt.throw_type_error("ArrayBuffer.prototype.slice: the buffer was detached"));
    };
    // 22-24. Copy what is still there (the constructor may have shrunk O).
    let first = first as usize;
    if first < current {
        let count = (new_len as usize).min(current - first);
        let bytes = rt.heap().get(b).data.as_ref().expect("attached")[first..first + count].to_vec();
        rt.heap_mut().get_mut(nb).data.as_mut().expect("attached")[..count].copy_from_slice(&bytes);
    }
    Ok(new)
}

/// sliceToImmutable(start, end): an immutable copy of a range of the bytes.
fn slice_to_immutable(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-4. RequireInternalSlot; not shared; not detached.
    let b = this_buffer(rt, this, "sliceToImmutable")?;
    let Some(len) = rt.heap().get(b).data.as_ref().map(Vec::len) else {
        return Err(rt.throw_type_error("ArrayBuffer.prototype.sliceToImmutable: the buffer is detached"));
    };
    // 6. Let bounds be ? ResolveBounds(len, start, end).
    let len = len as f64;
    let clamp = |rel: f64| if rel < 0.0 { (len + rel).max(0.0) } else { rel.min(len) };
    let from = clamp(rt.to_integer_or_infinity(arg(args, 0))?);
    let end = arg(args, 1);
    let to = if end.is_undefined() { len } else { clamp(rt.to_integer_or_infinity(end)?) };
    // 10-12. The conversions may have detached or shrunk the buffer.
    let Some(current) = rt.heap().get(b).data.as_ref().map(Vec::len) else {
        return Err(rt.throw_type_error("ArrayBuffer.prototype.sliceToImmutable: the buffer was detached"));
    };
    if to > current as f64 {
        return Err(rt.throw_range_error("ArrayBuffer.prototype.sliceToImmutable: the buffer shrank below the end"));
    }
    // 13. The new immutable buffer with a copy of the bytes.
    let (from, to) = (from as usize, (to as usize).max(from as usize));
    let mut block = Vec::new();
    if block.try_reserve_exact(to - from).is_err() {
        return Err(rt.throw_range_error("Array buffer allocation failed"));
    }
    block.extend_from_slice(&rt.heap().get(b).data.as_ref().expect("attached")[from..to]);
    let proto = rt.intrinsic(Intrinsic::ArrayBufferPrototype);
    let nb = new_buffer(rt, proto, block, None);
    rt.heap_mut().get_mut(nb).immutable = true;
    Ok(Value::object(nb.cast::<JsObject>()))
}

/// A new immutable %ArrayBuffer% holding a copy of `bytes` (a bytes module's buffer).
pub(crate) fn new_immutable(rt: &mut Runtime, bytes: &[u8]) -> JsResult<Gc<ArrayBufferObject>> {
    let mut block = create_byte_data_block(rt, bytes.len() as f64)?;
    block.copy_from_slice(bytes);
    let proto = rt.intrinsic(Intrinsic::ArrayBufferPrototype);
    let b = new_buffer(rt, proto, block, None);
    rt.heap_mut().get_mut(b).immutable = true;
    Ok(b)
}

/// What ArrayBufferCopyAndDetach makes of a resizable buffer (its preserveResizability).
#[derive(Clone, Copy, PartialEq)]
enum Preserve {
    /// `transfer`: a resizable buffer stays resizable.
    Resizability,
    /// `transferToFixedLength`.
    FixedLength,
    /// `transferToImmutable`.
    Immutable,
}

/// 25.1.6.8 ArrayBuffer.prototype.transfer([newLength]).
fn transfer(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    copy_and_detach(rt, this, arg(args, 0), Preserve::Resizability, "transfer")
}

/// 25.1.6.9 ArrayBuffer.prototype.transferToFixedLength([newLength]).
fn transfer_to_fixed_length(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    copy_and_detach(rt, this, arg(args, 0), Preserve::FixedLength, "transferToFixedLength")
}

/// transferToImmutable([newLength]).
fn transfer_to_immutable(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    copy_and_detach(rt, this, arg(args, 0), Preserve::Immutable, "transferToImmutable")
}

/// 25.1.3.3 ArrayBufferCopyAndDetach(arrayBuffer, newLength, preserveResizability).
fn copy_and_detach(
    rt: &mut Runtime,
    this: Value,
    new_length: Value,
    preserve: Preserve,
    what: &str,
) -> JsResult<Value> {
    // 1-2. RequireInternalSlot(arrayBuffer, [[ArrayBufferData]]); not shared.
    let b = this_buffer(rt, this, what)?;
    // 3-4. The new byte length (the current one, 0 if detached, when not given).
    let new_byte_length =
        if new_length.is_undefined() { rt.heap().get(b).byte_length() as f64 } else { rt.to_index(new_length)? };
    // 5. If IsDetachedBuffer(arrayBuffer) is true, throw a TypeError exception.
    if rt.heap().get(b).data.is_none() {
        return Err(rt.throw_type_error(&format!("ArrayBuffer.prototype.{what}: the buffer is detached")));
    }
    // An immutable buffer cannot be detached.
    if rt.heap().get(b).immutable {
        return Err(rt.throw_type_error(&format!("ArrayBuffer.prototype.{what}: the buffer is immutable")));
    }
    // 6-7. A resizable buffer stays resizable with `transfer`.
    let max = if preserve == Preserve::Resizability { rt.heap().get(b).max } else { None };
    // 9. AllocateArrayBuffer(%ArrayBuffer%, newByteLength, newMaxByteLength): its checks.
    if max.is_some_and(|m| new_byte_length > m as f64) {
        return Err(rt.throw_range_error("ArrayBuffer length exceeds its maxByteLength"));
    }
    if new_byte_length > rt.heap().limit() as f64 {
        return Err(rt.throw_range_error("Array buffer allocation failed: larger than the heap limit"));
    }
    // 10-14. The new buffer takes the old one's bytes (no copy), cut or zero-extended to its
    // length, and the old one is detached.
    let new_byte_length = new_byte_length as usize;
    let mut block = rt.heap_mut().get_mut(b).data.take().expect("attached");
    if new_byte_length > block.len() && block.try_reserve_exact(new_byte_length - block.len()).is_err() {
        rt.heap_mut().get_mut(b).data = Some(block);
        return Err(rt.throw_range_error("Array buffer allocation failed"));
    }
    block.resize(new_byte_length, 0);
    let proto = rt.intrinsic(Intrinsic::ArrayBufferPrototype);
    let nb = new_buffer(rt, proto, block, max);
    rt.heap_mut().get_mut(nb).immutable = preserve == Preserve::Immutable;
    Ok(Value::object(nb.cast::<JsObject>()))
}

/// 25.1.3.5 DetachArrayBuffer(arrayBuffer) for `$262.detachArrayBuffer`: false when `v` is
/// not an ArrayBuffer or cannot be detached (it is immutable).
pub(crate) fn detach(rt: &mut Runtime, v: Value) -> bool {
    if !v.is_object() || rt.heap().object_kind(v.gc()) != CellKind::ArrayBuffer {
        return false;
    }
    if rt.heap().get(v.gc::<ArrayBufferObject>()).immutable {
        return false;
    }
    rt.heap_mut().get_mut(v.gc::<ArrayBufferObject>()).data = None;
    true
}
