//! 25.2 SharedArrayBuffer: fixed-length and growable buffers whose bytes other agents
//! share (object/shared_buffer.rs).

use std::sync::Arc;

use super::{arg, rows, Builtin, Row};
use crate::gc::{CellKind, Gc};
use crate::object::shared_buffer::{SharedArrayBufferObject, SharedBlock};
use crate::object::JsObject;
use crate::runtime::{Intrinsic, JsResult, Runtime};
use crate::value::Value;

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin =
    Builtin { init, rows: ROWS, globals: &[("SharedArrayBuffer", Intrinsic::SharedArrayBuffer)], ..Builtin::NONE };

pub(crate) const ROWS: &[Row] = rows! {
    SharedArrayBuffer.[species] => super::array::species_getter, 0, getter;
    SharedArrayBufferPrototype."byteLength" => byte_length, 0, getter;
    SharedArrayBufferPrototype."growable" => growable, 0, getter;
    SharedArrayBufferPrototype."maxByteLength" => max_byte_length, 0, getter;
    SharedArrayBufferPrototype."grow" => grow, 1;
    SharedArrayBufferPrototype."slice" => slice, 2;
};

/// Creates the constructor and prototype.
pub(crate) fn init(rt: &mut Runtime) {
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    let proto = rt.new_object(op);
    let c = rt.make_constructor("SharedArrayBuffer", constructor, 1, Some(proto));
    super::iterator::define_tag(rt, proto, "SharedArrayBuffer");
    rt.set_intrinsic(Intrinsic::SharedArrayBufferPrototype, Value::object(proto));
    rt.set_intrinsic(Intrinsic::SharedArrayBuffer, Value::object(c));
}

/// 25.2.3.1 SharedArrayBuffer(length [, options]).
fn constructor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is undefined, throw a TypeError exception.
    let nt = rt.native_new_target();
    if nt.is_undefined() {
        return Err(rt.throw_type_error("Constructor SharedArrayBuffer requires 'new'"));
    }
    // 2. Let byteLength be ? ToIndex(length).
    let byte_length = rt.to_index(arg(args, 0))?;
    // 3. Let requestedMaxByteLength be ? GetArrayBufferMaxByteLengthOption(options).
    let max = super::array_buffer::max_byte_length_option(rt, arg(args, 1))?;
    // 4. Return ? AllocateSharedArrayBuffer(NewTarget, byteLength, requestedMaxByteLength).
    allocate(rt, nt, byte_length, max).map(Value::object)
}

/// 25.2.2.1 AllocateSharedArrayBuffer(constructor, byteLength [, maxByteLength]).
fn allocate(rt: &mut Runtime, constructor: Value, byte_length: f64, max: Option<f64>) -> JsResult<Gc<JsObject>> {
    // 3. If byteLength > maxByteLength, throw a RangeError exception.
    if max.is_some_and(|m| byte_length > m) {
        return Err(rt.throw_range_error("SharedArrayBuffer length exceeds its maxByteLength"));
    }
    // 4. Let obj be ? OrdinaryCreateFromConstructor(constructor, "%SharedArrayBuffer.prototype%", ...).
    let proto = rt.prototype_from_constructor(constructor, Intrinsic::SharedArrayBufferPrototype)?;
    // 5-6. CreateSharedByteDataBlock(allocLength): the whole reservation of a growable one.
    let limit = rt.heap().limit() as f64;
    if byte_length > limit || max.is_some_and(|m| m > limit) {
        return Err(rt.throw_range_error("Array buffer allocation failed: larger than the heap limit"));
    }
    let Some(block) = SharedBlock::new(byte_length as usize, max.map(|m| m as usize)) else {
        return Err(rt.throw_range_error("Array buffer allocation failed"));
    };
    Ok(wrap(rt, proto, block))
}

/// A SharedArrayBuffer object with prototype `proto` for `block` (a new one, or one another
/// agent shares).
pub(crate) fn wrap(rt: &mut Runtime, proto: Value, block: Arc<SharedBlock>) -> Gc<JsObject> {
    let shape = rt.root_shape(proto, CellKind::SharedArrayBuffer, 0);
    let bytes = block.capacity();
    let b = SharedArrayBufferObject::new(JsObject::new(CellKind::SharedArrayBuffer, shape), block);
    let b = rt.heap_mut().alloc_object(b, 0);
    rt.heap_mut().note_external(bytes);
    b.cast()
}

/// The block of SharedArrayBuffer `v`, if it is one.
pub(crate) fn block_of(rt: &Runtime, v: Value) -> Option<Arc<SharedBlock>> {
    if !v.is_object() || rt.heap().object_kind(v.gc()) != CellKind::SharedArrayBuffer {
        return None;
    }
    Some(rt.heap().get(v.gc::<SharedArrayBufferObject>()).block.clone())
}

/// RequireInternalSlot(this, [[ArrayBufferData]]) and IsSharedArrayBuffer(this).
fn this_block(rt: &mut Runtime, this: Value, what: &str) -> JsResult<Arc<SharedBlock>> {
    match block_of(rt, this) {
        Some(b) => Ok(b),
        None => Err(rt.throw_type_error(&format!(
            "SharedArrayBuffer.prototype.{what} called on an object that is not a SharedArrayBuffer"
        ))),
    }
}

/// 25.2.5.1 get SharedArrayBuffer.prototype.byteLength.
fn byte_length(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let b = this_block(rt, this, "byteLength")?;
    Ok(Value::number(b.len() as f64))
}

/// 25.2.5.4 get SharedArrayBuffer.prototype.growable.
fn growable(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let b = this_block(rt, this, "growable")?;
    Ok(Value::boolean(b.max.is_some()))
}

/// 25.2.5.5 get SharedArrayBuffer.prototype.maxByteLength.
fn max_byte_length(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let b = this_block(rt, this, "maxByteLength")?;
    Ok(Value::number(b.max.unwrap_or_else(|| b.len()) as f64))
}

/// 25.2.5.3 SharedArrayBuffer.prototype.grow(newLength).
fn grow(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let b = this_block(rt, this, "grow")?;
    // 3. If IsFixedLengthArrayBuffer(O) is true, throw a TypeError exception.
    let Some(max) = b.max else {
        return Err(rt.throw_type_error("SharedArrayBuffer.prototype.grow: the buffer is not growable"));
    };
    // 4. Let newByteLength be ? ToIndex(newLength).
    let new_length = rt.to_index(arg(args, 0))?;
    // 6-7. Not beyond the maximum, not below the current length.
    if new_length > max as f64 {
        return Err(rt.throw_range_error("SharedArrayBuffer.prototype.grow: the length exceeds maxByteLength"));
    }
    if b.grow(new_length as usize).is_err() {
        return Err(rt.throw_range_error("SharedArrayBuffer.prototype.grow: a buffer cannot shrink"));
    }
    Ok(Value::UNDEFINED)
}

/// 25.2.5.6 SharedArrayBuffer.prototype.slice(start, end).
fn slice(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let b = this_block(rt, this, "slice")?;
    // 4-11. The relative start and end, clamped to [0, len].
    let len = b.len() as f64;
    let clamp = |rel: f64| if rel < 0.0 { (len + rel).max(0.0) } else { rel.min(len) };
    let first = clamp(rt.to_integer_or_infinity(arg(args, 0))?);
    let end = arg(args, 1);
    let last = if end.is_undefined() { len } else { clamp(rt.to_integer_or_infinity(end)?) };
    let new_len = (last - first).max(0.0);
    // 12-13. Let new be ? Construct(? SpeciesConstructor(O, %SharedArrayBuffer%), « newLen »).
    let ctor = super::species_constructor(rt, this, Intrinsic::SharedArrayBuffer)?;
    let new = rt.construct(ctor, &[Value::number(new_len)], ctor)?;
    // 14-17. It must be another, big enough SharedArrayBuffer.
    let Some(nb) = block_of(rt, new) else {
        return Err(
            rt.throw_type_error("SharedArrayBuffer.prototype.slice: the species constructor made no SharedArrayBuffer")
        );
    };
    if Arc::ptr_eq(&nb, &b) {
        return Err(
            rt.throw_type_error("SharedArrayBuffer.prototype.slice: the species constructor returned the same buffer")
        );
    }
    if (nb.len() as f64) < new_len {
        return Err(rt.throw_type_error("SharedArrayBuffer.prototype.slice: the new buffer is too small"));
    }
    // 18-20. Copy the bytes.
    let mut bytes = vec![0u8; new_len as usize];
    b.read(first as usize, &mut bytes);
    nb.write(0, &bytes);
    Ok(new)
}
