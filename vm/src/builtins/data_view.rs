//! 25.3 DataView: reads and writes of any element type at any byte offset of an
//! ArrayBuffer, in either byte order.
//!
//! A DataView is a `ViewObject` cell whose length counts bytes (`None`: it tracks a
//! resizable buffer's length).

use super::{arg, rows, Builtin, Row};
use crate::gc::{CellKind, Gc};
use crate::object::typed_array::{ElementKind, ViewObject};
use crate::object::JsObject;
use crate::runtime::{Intrinsic, JsResult, Runtime};
use crate::value::Value;

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin =
    Builtin { init, rows: ROWS, globals: &[("DataView", Intrinsic::DataView)], ..Builtin::NONE };

/// One getter and one setter per element type: `get_int8` reads an Int8, and so on.
macro_rules! accessors {
    ($($get:ident, $set:ident, $kind:ident;)*) => {
        $(
            fn $get(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
                get_view_value(rt, this, arg(args, 0), arg(args, 1), ElementKind::$kind)
            }
            fn $set(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
                set_view_value(rt, this, arg(args, 0), arg(args, 2), ElementKind::$kind, arg(args, 1))
            }
        )*
    };
}

accessors! {
    get_int8, set_int8, Int8;
    get_uint8, set_uint8, Uint8;
    get_int16, set_int16, Int16;
    get_uint16, set_uint16, Uint16;
    get_int32, set_int32, Int32;
    get_uint32, set_uint32, Uint32;
    get_float16, set_float16, Float16;
    get_float32, set_float32, Float32;
    get_float64, set_float64, Float64;
    get_big_int64, set_big_int64, BigInt64;
    get_big_uint64, set_big_uint64, BigUint64;
}

pub(crate) const ROWS: &[Row] = rows! {
    DataViewPrototype."buffer" => buffer, 0, getter;
    DataViewPrototype."byteLength" => byte_length, 0, getter;
    DataViewPrototype."byteOffset" => byte_offset, 0, getter;
    DataViewPrototype."getInt8" => get_int8, 1;
    DataViewPrototype."getUint8" => get_uint8, 1;
    DataViewPrototype."getInt16" => get_int16, 1;
    DataViewPrototype."getUint16" => get_uint16, 1;
    DataViewPrototype."getInt32" => get_int32, 1;
    DataViewPrototype."getUint32" => get_uint32, 1;
    DataViewPrototype."getFloat16" => get_float16, 1;
    DataViewPrototype."getFloat32" => get_float32, 1;
    DataViewPrototype."getFloat64" => get_float64, 1;
    DataViewPrototype."getBigInt64" => get_big_int64, 1;
    DataViewPrototype."getBigUint64" => get_big_uint64, 1;
    DataViewPrototype."setInt8" => set_int8, 2;
    DataViewPrototype."setUint8" => set_uint8, 2;
    DataViewPrototype."setInt16" => set_int16, 2;
    DataViewPrototype."setUint16" => set_uint16, 2;
    DataViewPrototype."setInt32" => set_int32, 2;
    DataViewPrototype."setUint32" => set_uint32, 2;
    DataViewPrototype."setFloat16" => set_float16, 2;
    DataViewPrototype."setFloat32" => set_float32, 2;
    DataViewPrototype."setFloat64" => set_float64, 2;
    DataViewPrototype."setBigInt64" => set_big_int64, 2;
    DataViewPrototype."setBigUint64" => set_big_uint64, 2;
};

/// Creates the constructor and prototype.
pub(crate) fn init(rt: &mut Runtime) {
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    let proto = rt.new_object(op);
    let c = rt.make_constructor("DataView", constructor, 1, Some(proto));
    super::iterator::define_tag(rt, proto, "DataView");
    rt.set_intrinsic(Intrinsic::DataViewPrototype, Value::object(proto));
    rt.set_intrinsic(Intrinsic::DataView, Value::object(c));
}

/// 25.3.2.1 DataView(buffer [, byteOffset [, byteLength]]).
fn constructor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is undefined, throw a TypeError exception.
    let nt = rt.native_new_target();
    if nt.is_undefined() {
        return Err(rt.throw_type_error("Constructor DataView requires 'new'"));
    }
    // 2. Perform ? RequireInternalSlot(buffer, [[ArrayBufferData]]).
    let buffer = arg(args, 0);
    if !buffer.is_object()
        || !matches!(rt.heap().object_kind(buffer.gc()), CellKind::ArrayBuffer | CellKind::SharedArrayBuffer)
    {
        return Err(rt.throw_type_error("First argument to DataView constructor must be an ArrayBuffer"));
    }
    let buffer: Gc<JsObject> = buffer.gc();
    // 3. Let offset be ? ToIndex(byteOffset).
    let offset = rt.to_index(arg(args, 1))?;
    // 4-6. The buffer must be attached and reach the offset.
    let Some(len) = rt.buffer_byte_length(buffer) else {
        return Err(rt.throw_type_error("Cannot construct a DataView on a detached ArrayBuffer"));
    };
    if offset > len as f64 {
        return Err(rt.throw_range_error(&format!("Start offset {offset} is outside the bounds of the buffer")));
    }
    // 7-9. The view's byte length: the rest of a fixed-length buffer, tracking a resizable
    // one, or as given.
    let fixed = rt.is_fixed_length_buffer(buffer);
    let byte_length = arg(args, 2);
    let view_length = if byte_length.is_undefined() {
        fixed.then(|| len - offset as usize)
    } else {
        let n = rt.to_index(byte_length)?;
        if offset + n > len as f64 {
            return Err(rt.throw_range_error(&format!("Invalid DataView length {n}")));
        }
        Some(n as usize)
    };
    // 10. Let O be ? OrdinaryCreateFromConstructor(NewTarget, "%DataView.prototype%", ...).
    let proto = rt.prototype_from_constructor(nt, Intrinsic::DataViewPrototype)?;
    // 11-14. Getting the prototype may have detached or shrunk the buffer.
    let Some(len) = rt.buffer_byte_length(buffer) else {
        return Err(rt.throw_type_error("Cannot construct a DataView on a detached ArrayBuffer"));
    };
    if offset > len as f64 {
        return Err(rt.throw_range_error(&format!("Start offset {offset} is outside the bounds of the buffer")));
    }
    if !byte_length.is_undefined() && offset as usize + view_length.unwrap_or(0) > len {
        return Err(rt.throw_range_error("Invalid DataView length"));
    }
    let shape = rt.root_shape(proto, CellKind::DataView, 0);
    let view = ViewObject::new(
        JsObject::new(CellKind::DataView, shape),
        buffer,
        offset as usize,
        view_length,
        ElementKind::Uint8,
    );
    Ok(Value::object(rt.heap_mut().alloc_object(view, 0)))
}

/// RequireInternalSlot(this, [[DataView]]).
fn this_view(rt: &mut Runtime, this: Value, what: &str) -> JsResult<Gc<JsObject>> {
    if this.is_object() && rt.heap().object_kind(this.gc()) == CellKind::DataView {
        return Ok(this.gc());
    }
    Err(rt.throw_type_error(&format!("DataView.prototype.{what} called on an object that is not a DataView")))
}

/// RequireInternalSlot(this, [[DataView]]) for method `get<Type>` or `set<Type>`.
fn this_view_for(rt: &mut Runtime, this: Value, prefix: &str, kind: ElementKind) -> JsResult<Gc<JsObject>> {
    if this.is_object() && rt.heap().object_kind(this.gc()) == CellKind::DataView {
        return Ok(this.gc());
    }
    let name = kind.name().trim_end_matches("Array");
    this_view(rt, this, &format!("{prefix}{name}"))
}

/// GetViewByteLength, or None when the view is out of bounds (IsViewOutOfBounds).
fn view_byte_length(rt: &Runtime, view: Gc<JsObject>) -> Option<usize> {
    let v = rt.view(view);
    v.length_in(rt.buffer_byte_length(v.buffer), 1)
}

/// 25.3.4.1 get DataView.prototype.buffer.
fn buffer(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let v = this_view(rt, this, "buffer")?;
    Ok(Value::object(rt.view(v).buffer))
}

/// 25.3.4.2 get DataView.prototype.byteLength: a TypeError when out of bounds.
fn byte_length(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let v = this_view(rt, this, "byteLength")?;
    match view_byte_length(rt, v) {
        Some(n) => Ok(Value::number(n as f64)),
        None => Err(rt.throw_type_error("DataView.prototype.byteLength: the view is detached or out of bounds")),
    }
}

/// 25.3.4.3 get DataView.prototype.byteOffset: a TypeError when out of bounds.
fn byte_offset(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let v = this_view(rt, this, "byteOffset")?;
    match view_byte_length(rt, v) {
        Some(_) => Ok(Value::number(rt.view(v).byte_offset as f64)),
        None => Err(rt.throw_type_error("DataView.prototype.byteOffset: the view is detached or out of bounds")),
    }
}

/// The buffer byte index of `size` bytes at `index` of the view, checked against its current
/// bounds (GetViewValue steps 5-11, SetViewValue steps 7-13).
fn checked_index(rt: &mut Runtime, view: Gc<JsObject>, index: f64, size: usize) -> JsResult<usize> {
    let Some(view_size) = view_byte_length(rt, view) else {
        return Err(rt.throw_type_error("DataView: the view is detached or out of bounds"));
    };
    if index + size as f64 > view_size as f64 {
        return Err(rt.throw_range_error("Offset is outside the bounds of the DataView"));
    }
    Ok(rt.view(view).byte_offset + index as usize)
}

/// 25.3.1.5 GetViewValue(view, requestIndex, isLittleEndian, type).
fn get_view_value(rt: &mut Runtime, this: Value, index: Value, little: Value, kind: ElementKind) -> JsResult<Value> {
    let view = this_view_for(rt, this, "get", kind)?;
    // 3-4. Let getIndex be ? ToIndex(requestIndex); isLittleEndian = ToBoolean(...).
    let index = rt.to_index(index)?;
    let little = rt.to_boolean(little);
    let at = checked_index(rt, view, index, kind.size())?;
    let buffer = rt.view(view).buffer;
    let raw = rt.buffer_get(buffer, at, kind, little);
    Ok(rt.raw_to_value(raw))
}

/// 25.3.1.6 SetViewValue(view, requestIndex, isLittleEndian, type, value).
fn set_view_value(
    rt: &mut Runtime,
    this: Value,
    index: Value,
    little: Value,
    kind: ElementKind,
    value: Value,
) -> JsResult<Value> {
    let view = this_view_for(rt, this, "set", kind)?;
    // The bytes of an immutable buffer never change (checked before any argument is read).
    if rt.is_immutable_view(view) {
        return Err(rt.throw_type_error("DataView: the buffer is immutable"));
    }
    // 3. Let getIndex be ? ToIndex(requestIndex).
    let index = rt.to_index(index)?;
    // 4-5. Convert the value (ToBigInt or ToNumber), then the byte order.
    let raw = rt.coerce_element(kind, value)?;
    let little = rt.to_boolean(little);
    let at = checked_index(rt, view, index, kind.size())?;
    let buffer = rt.view(view).buffer;
    rt.buffer_set(buffer, at, kind, raw, little);
    Ok(Value::UNDEFINED)
}
