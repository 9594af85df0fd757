//! 21.1 Number objects.

use super::{arg, rows, Builtin, Row};
use crate::object::PrimitiveObject;
use crate::runtime::{Intrinsic, JsResult, Runtime};
use crate::value::Value;
use ecma::conv::number_to_string as nts;

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin =
    Builtin { init, rows: ROWS, globals: &[("Number", Intrinsic::Number)], ..Builtin::NONE };

pub(crate) const ROWS: &[Row] = rows! {
    Number."isFinite" => is_finite, 1;
    Number."isInteger" => is_integer, 1;
    Number."isNaN" => is_nan, 1;
    Number."isSafeInteger" => is_safe_integer, 1;
    NumberPrototype."toExponential" => to_exponential, 1;
    NumberPrototype."toFixed" => to_fixed, 1;
    NumberPrototype."toLocaleString" => to_locale_string, 0;
    NumberPrototype."toPrecision" => to_precision, 1;
    NumberPrototype."toString" => to_string, 1;
    NumberPrototype."valueOf" => value_of, 0;
};

/// Creates Number and Number.prototype (a Number wrapper for +0).
pub(crate) fn init(rt: &mut Runtime) {
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    let proto = rt.new_primitive_object(op, Value::number(0.0));
    let c = rt.make_constructor("Number", number_constructor, 1, Some(proto));
    rt.set_intrinsic(Intrinsic::NumberPrototype, Value::object(proto));
    rt.set_intrinsic(Intrinsic::Number, Value::object(c));
    for (name, v) in [
        ("EPSILON", f64::EPSILON),
        ("MAX_SAFE_INTEGER", 9007199254740991.0),
        ("MAX_VALUE", f64::MAX),
        ("MIN_SAFE_INTEGER", -9007199254740991.0),
        ("MIN_VALUE", 5e-324),
        ("NaN", f64::NAN),
        ("NEGATIVE_INFINITY", f64::NEG_INFINITY),
        ("POSITIVE_INFINITY", f64::INFINITY),
    ] {
        rt.define_value(c, name, Value::number(v), 0);
    }
}

/// 21.1.1.1 Number(value).
fn number_constructor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let n be ToNumeric(value) (BigInts convert to their Number value), or +0.
    let n = if args.is_empty() {
        0.0
    } else {
        let prim = rt.to_numeric(args[0])?;
        if prim.is_bigint() {
            ecma::bigint::bigint_to_f64(&rt.heap().get(prim.gc::<crate::object::BigIntCell>()).value)
        } else {
            prim.number_unchecked()
        }
    };
    let nt = rt.native_new_target();
    // 3. If NewTarget is undefined, return n.
    if nt.is_undefined() {
        return Ok(Value::number(n));
    }
    let proto = rt.prototype_from_constructor(nt, Intrinsic::NumberPrototype)?;
    Ok(Value::object(rt.new_primitive_object(proto, Value::number(n))))
}

/// thisNumberValue(value).
fn this_number(rt: &mut Runtime, this: Value, what: &str) -> JsResult<f64> {
    if let Some(n) = this.as_number() {
        return Ok(n);
    }
    if this.is_object() {
        if let Some(p) = rt.heap().downcast::<PrimitiveObject>(this.gc()) {
            if let Some(n) = rt.heap().get(p).value.as_number() {
                return Ok(n);
            }
        }
    }
    Err(rt.throw_type_error(&format!("Number.prototype.{what} requires that 'this' be a Number")))
}

/// 21.1.2.2 Number.isFinite(number).
fn is_finite(_rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    Ok(Value::boolean(arg(args, 0).as_number().is_some_and(|n| n.is_finite())))
}

/// 21.1.2.3 Number.isInteger(number).
fn is_integer(_rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    Ok(Value::boolean(arg(args, 0).as_number().is_some_and(|n| n.is_finite() && n.trunc() == n)))
}

/// 21.1.2.4 Number.isNaN(number).
fn is_nan(_rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    Ok(Value::boolean(arg(args, 0).as_number().is_some_and(|n| n.is_nan())))
}

/// 21.1.2.5 Number.isSafeInteger(number).
fn is_safe_integer(_rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    Ok(Value::boolean(
        arg(args, 0).as_number().is_some_and(|n| n.is_finite() && n.trunc() == n && n.abs() <= 9007199254740991.0),
    ))
}

/// 21.1.3.2 Number.prototype.toExponential(fractionDigits).
fn to_exponential(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let x = this_number(rt, this, "toExponential")?;
    let fd = arg(args, 0);
    let f = rt.to_integer_or_infinity(fd)?;
    if !x.is_finite() {
        return Ok(rt.number_to_string(x));
    }
    if !(0.0..=100.0).contains(&f) {
        return Err(rt.throw_range_error("toExponential() argument must be between 0 and 100"));
    }
    let digits = if fd.is_undefined() { None } else { Some(f as u32) };
    Ok(rt.new_string(&nts::to_exponential(x, digits)))
}

/// 21.1.3.3 Number.prototype.toFixed(fractionDigits).
fn to_fixed(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let x = this_number(rt, this, "toFixed")?;
    let f = rt.to_integer_or_infinity(arg(args, 0))?;
    if !f.is_finite() || !(0.0..=100.0).contains(&f) {
        return Err(rt.throw_range_error("toFixed() digits argument must be between 0 and 100"));
    }
    if !x.is_finite() {
        return Ok(rt.number_to_string(x));
    }
    Ok(rt.new_string(&nts::to_fixed(x, f as u32)))
}

/// 21.1.3.4 Number.prototype.toLocaleString(): the plain Number::toString (no Intl).
fn to_locale_string(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let x = this_number(rt, this, "toLocaleString")?;
    Ok(rt.number_to_string(x))
}

/// 21.1.3.5 Number.prototype.toPrecision(precision).
fn to_precision(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let x = this_number(rt, this, "toPrecision")?;
    let p = arg(args, 0);
    if p.is_undefined() {
        return Ok(rt.number_to_string(x));
    }
    let p = rt.to_integer_or_infinity(p)?;
    if !x.is_finite() {
        return Ok(rt.number_to_string(x));
    }
    if !(1.0..=100.0).contains(&p) {
        return Err(rt.throw_range_error("toPrecision() argument must be between 1 and 100"));
    }
    Ok(rt.new_string(&nts::to_precision(x, p as u32)))
}

/// 21.1.3.6 Number.prototype.toString([radix]).
fn to_string(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let x = this_number(rt, this, "toString")?;
    let r = arg(args, 0);
    let radix = if r.is_undefined() { 10.0 } else { rt.to_integer_or_infinity(r)? };
    if !(2.0..=36.0).contains(&radix) {
        return Err(rt.throw_range_error("toString() radix must be between 2 and 36"));
    }
    if radix == 10.0 {
        return Ok(rt.number_to_string(x));
    }
    Ok(rt.new_string(&nts::number_to_string_radix(x, radix as u32)))
}

/// 21.1.3.7 Number.prototype.valueOf().
fn value_of(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    Ok(Value::number(this_number(rt, this, "valueOf")?))
}
