//! 21.2 BigInt objects, and the BigInt helpers the operators use.

use ecma::bigint::bigint_from_integral_f64;
use num_bigint::BigInt;

use super::{arg, rows, Builtin, Row};
use crate::object::{BigIntCell, PrimitiveObject};
use crate::runtime::convert::Hint;
use crate::runtime::{Intrinsic, JsResult, Runtime};
use crate::value::Value;

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin =
    Builtin { init, rows: ROWS, globals: &[("BigInt", Intrinsic::BigInt)], ..Builtin::NONE };

pub(crate) const ROWS: &[Row] = rows! {
    BigIntPrototype."toString" => to_string, 0;
    BigIntPrototype."valueOf" => value_of, 0;
    BigIntPrototype."toLocaleString" => to_string, 0;
    BigInt."asIntN" => as_int_n, 2;
    BigInt."asUintN" => as_uint_n, 2;
};

/// Creates BigInt and BigInt.prototype.
pub(crate) fn init(rt: &mut Runtime) {
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    let proto = rt.new_object(op);
    super::iterator::define_tag(rt, proto, "BigInt");
    let c = rt.make_constructor("BigInt", constructor, 1, Some(proto));
    rt.set_intrinsic(Intrinsic::BigIntPrototype, Value::object(proto));
    rt.set_intrinsic(Intrinsic::BigInt, Value::object(c));
}

/// 21.2.1.1 BigInt(value).
fn constructor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is not undefined, throw a TypeError exception.
    if !rt.native_new_target().is_undefined() {
        return Err(rt.throw_type_error("BigInt is not a constructor"));
    }
    // 2. Let prim be ? ToPrimitive(value, number).
    let prim = rt.to_primitive(arg(args, 0), Hint::Number)?;
    // 3. If prim is a Number, return ? NumberToBigInt(prim).
    if let Some(n) = prim.as_number() {
        if !n.is_finite() || n.trunc() != n {
            return Err(rt.throw_range_error(&format!(
                "The number {} cannot be converted to a BigInt because it is not an integer",
                ecma::conv::number_to_string::number_to_string(n)
            )));
        }
        return Ok(rt.new_bigint(bigint_from_integral_f64(n)));
    }
    let b = rt.to_bigint(prim)?;
    Ok(rt.new_bigint(b))
}

fn this_bigint(rt: &mut Runtime, this: Value) -> JsResult<BigInt> {
    if this.is_bigint() {
        return Ok(rt.heap().get(this.gc::<BigIntCell>()).value.clone());
    }
    if this.is_object() {
        if let Some(p) = rt.heap().downcast::<PrimitiveObject>(this.gc()) {
            let v = rt.heap().get(p).value;
            if v.is_bigint() {
                return Ok(rt.heap().get(v.gc::<BigIntCell>()).value.clone());
            }
        }
    }
    Err(rt.throw_type_error("BigInt.prototype method called on incompatible receiver"))
}

/// 21.2.3.3 BigInt.prototype.toString([radix]).
fn to_string(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let x = this_bigint(rt, this)?;
    let r = arg(args, 0);
    let radix = if r.is_undefined() { 10.0 } else { rt.to_integer_or_infinity(r)? };
    if !(2.0..=36.0).contains(&radix) {
        return Err(rt.throw_range_error("toString() radix must be between 2 and 36"));
    }
    Ok(rt.new_string(&x.to_str_radix(radix as u32)))
}

/// 21.2.3.4 BigInt.prototype.valueOf().
fn value_of(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let x = this_bigint(rt, this)?;
    Ok(rt.new_bigint(x))
}

fn as_n(rt: &mut Runtime, args: &[Value], signed: bool) -> JsResult<Value> {
    let bits = rt.to_index(arg(args, 0))?;
    let b = rt.to_bigint(arg(args, 1))?;
    // A value with fewer bits than asked for is its own result (only a negative one made
    // unsigned grows: to 2^bits + b).
    if bits > b.bits() as f64 && (signed || b.sign() != num_bigint::Sign::Minus) {
        return Ok(rt.new_bigint(b));
    }
    if bits > 1_000_000.0 {
        return Err(rt.throw_range_error("Maximum BigInt size exceeded"));
    }
    let bits = bits as usize;
    if bits == 0 {
        return Ok(rt.new_bigint(BigInt::from(0)));
    }
    let modulus = BigInt::from(1) << bits;
    let mut m = ((b % &modulus) + &modulus) % &modulus;
    if signed && m >= (BigInt::from(1) << (bits - 1)) {
        m -= modulus;
    }
    Ok(rt.new_bigint(m))
}

/// 21.2.2.1 BigInt.asIntN(bits, bigint).
fn as_int_n(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    as_n(rt, args, true)
}

/// 21.2.2.2 BigInt.asUintN(bits, bigint).
fn as_uint_n(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    as_n(rt, args, false)
}
