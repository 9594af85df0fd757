//! 20.3 Boolean objects.

use super::{arg, rows, Builtin, Row};
use crate::object::PrimitiveObject;
use crate::runtime::{Intrinsic, JsResult, Runtime};
use crate::value::Value;

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin =
    Builtin { init, rows: ROWS, globals: &[("Boolean", Intrinsic::Boolean)], ..Builtin::NONE };

pub(crate) const ROWS: &[Row] = rows! {
    BooleanPrototype."toString" => to_string, 0;
    BooleanPrototype."valueOf" => value_of, 0;
};

/// Creates Boolean and Boolean.prototype (a Boolean wrapper for false).
pub(crate) fn init(rt: &mut Runtime) {
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    let proto = rt.new_primitive_object(op, Value::FALSE);
    let c = rt.make_constructor("Boolean", boolean_constructor, 1, Some(proto));
    rt.set_intrinsic(Intrinsic::BooleanPrototype, Value::object(proto));
    rt.set_intrinsic(Intrinsic::Boolean, Value::object(c));
}

/// 20.3.1.1 Boolean(value).
fn boolean_constructor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let b be ToBoolean(value).
    let b = Value::boolean(rt.to_boolean(arg(args, 0)));
    let nt = rt.native_new_target();
    // 2. If NewTarget is undefined, return b.
    if nt.is_undefined() {
        return Ok(b);
    }
    let proto = rt.prototype_from_constructor(nt, Intrinsic::BooleanPrototype)?;
    Ok(Value::object(rt.new_primitive_object(proto, b)))
}

/// thisBooleanValue(value).
fn this_boolean(rt: &mut Runtime, this: Value) -> JsResult<bool> {
    if let Some(b) = this.as_boolean() {
        return Ok(b);
    }
    if this.is_object() {
        if let Some(p) = rt.heap().downcast::<PrimitiveObject>(this.gc()) {
            if let Some(b) = rt.heap().get(p).value.as_boolean() {
                return Ok(b);
            }
        }
    }
    Err(rt.throw_type_error("Boolean.prototype method requires that 'this' be a Boolean"))
}

/// 20.3.3.2 Boolean.prototype.toString().
fn to_string(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let b = this_boolean(rt, this)?;
    Ok(if b { rt.names.true_.value() } else { rt.names.false_.value() })
}

/// 20.3.3.3 Boolean.prototype.valueOf().
fn value_of(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    Ok(Value::boolean(this_boolean(rt, this)?))
}
