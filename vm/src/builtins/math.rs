//! 21.3 The Math object.

use super::{arg, Builtin};
use crate::gc::Gc;
use crate::object::shape::{CONFIGURABLE, WRITABLE};
use crate::object::JsObject;
use crate::runtime::{Intrinsic, JsResult, Runtime};
use crate::value::Value;

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin = Builtin { install, ..Builtin::NONE };

type F1 = fn(f64) -> f64;

/// The functions of one argument: the platform's libm, but for `cbrt` (see `cbrt`).
const UNARY: &[(&str, F1)] = &[
    ("abs", f64::abs),
    ("acos", f64::acos),
    ("acosh", f64::acosh),
    ("asin", f64::asin),
    ("asinh", asinh),
    ("atan", f64::atan),
    ("atanh", f64::atanh),
    ("cbrt", cbrt),
    ("ceil", f64::ceil),
    ("cos", f64::cos),
    ("cosh", f64::cosh),
    ("exp", f64::exp),
    ("expm1", f64::exp_m1),
    ("floor", f64::floor),
    ("fround", fround),
    ("f16round", f16round),
    ("log", f64::ln),
    ("log1p", f64::ln_1p),
    ("log10", f64::log10),
    ("log2", f64::log2),
    ("round", round),
    ("sign", sign),
    ("sin", f64::sin),
    ("sinh", f64::sinh),
    ("sqrt", f64::sqrt),
    ("tan", f64::tan),
    ("tanh", f64::tanh),
    ("trunc", f64::trunc),
    ("clz32", clz32),
];

fn asinh(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        x
    } else {
        x.asinh()
    }
}

/// The cube root, correctly rounded: the `libm` crate's (a port of CORE-MATH's). Which `cbrt`
/// `f64::cbrt` reached depended on linking: a dynamically linked `iris` got Rust's own copy of
/// this one (the platform's libm came later in the link), a static one glibc's, which is off
/// by an ulp on exact cubes (27 gave 3.0000000000000004; node gives 3).
fn cbrt(x: f64) -> f64 {
    libm::cbrt(x)
}

fn fround(x: f64) -> f64 {
    x as f32 as f64
}

/// 21.3.2.17 Math.f16round: the nearest IEEE 754 binary16 value (ties to even).
fn f16round(x: f64) -> f64 {
    use crate::object::typed_array::{f16_to_f64, f64_to_f16};
    f16_to_f64(f64_to_f16(x))
}

/// 21.3.2.28 Math.round: ties toward +∞, keeping -0 for -0.5 ≤ x < 0.
fn round(x: f64) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    if x > 0.0 && x < 0.5 {
        return 0.0;
    }
    if (-0.5..0.0).contains(&x) {
        return -0.0;
    }
    let f = x.floor();
    if x - f >= 0.5 {
        f + 1.0
    } else {
        f
    }
}

fn sign(x: f64) -> f64 {
    if x.is_nan() || x == 0.0 {
        x
    } else if x > 0.0 {
        1.0
    } else {
        -1.0
    }
}

fn clz32(x: f64) -> f64 {
    (ecma::number::to_int32(x) as u32).leading_zeros() as f64
}

/// Installs `Math` on the global object.
pub(crate) fn install(rt: &mut Runtime, global: Gc<JsObject>) {
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    let math = rt.new_object(op);
    for (name, v) in [
        ("E", std::f64::consts::E),
        ("LN10", std::f64::consts::LN_10),
        ("LN2", std::f64::consts::LN_2),
        ("LOG10E", std::f64::consts::LOG10_E),
        ("LOG2E", std::f64::consts::LOG2_E),
        ("PI", std::f64::consts::PI),
        ("SQRT1_2", std::f64::consts::FRAC_1_SQRT_2),
        ("SQRT2", std::f64::consts::SQRT_2),
    ] {
        rt.define_value(math, name, Value::number(v), 0);
    }
    super::iterator::define_tag(rt, math, "Math");
    for (i, &(name, _)) in UNARY.iter().enumerate() {
        let f = rt.define_method(math, name, unary, 1);
        rt.heap_mut().get_mut(f.cast::<crate::runtime::function::NativeFunction>()).data = Value::number(i as f64);
    }
    rt.define_method(math, "atan2", atan2, 2);
    rt.define_method(math, "hypot", hypot, 2);
    rt.define_method(math, "imul", imul, 2);
    rt.define_method(math, "max", max, 2);
    rt.define_method(math, "min", min, 2);
    rt.define_method(math, "pow", pow, 2);
    rt.define_method(math, "random", random, 0);
    rt.define_method(math, "sumPrecise", sum_precise, 1);
    rt.define_value(global, "Math", Value::object(math), WRITABLE | CONFIGURABLE);
}

/// The one-argument functions: `data` of the callee selects the row of `UNARY`.
fn unary(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let callee: Gc<crate::runtime::function::NativeFunction> = rt.native_callee().gc();
    let i = rt.heap().get(callee).data.as_number().unwrap_or(0.0) as usize;
    // 1. Let n be ? ToNumber(x).
    let x = rt.to_number(arg(args, 0))?;
    let f = UNARY.get(i).map(|r| r.1).unwrap_or(f64::abs);
    Ok(Value::number(f(x)))
}

/// 21.3.2.8 Math.atan2(y, x).
fn atan2(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let y = rt.to_number(arg(args, 0))?;
    let x = rt.to_number(arg(args, 1))?;
    Ok(Value::number(y.atan2(x)))
}

/// 21.3.2.18 Math.hypot(...args).
fn hypot(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let mut nums = Vec::with_capacity(args.len());
    for &a in args {
        nums.push(rt.to_number(a)?);
    }
    if nums.iter().any(|n| n.is_infinite()) {
        return Ok(Value::number(f64::INFINITY));
    }
    if nums.iter().any(|n| n.is_nan()) {
        return Ok(Value::number(f64::NAN));
    }
    let max = nums.iter().fold(0.0f64, |m, n| m.max(n.abs()));
    if max == 0.0 {
        return Ok(Value::number(0.0));
    }
    let sum: f64 = nums.iter().map(|n| (n / max) * (n / max)).sum();
    Ok(Value::number(sum.sqrt() * max))
}

/// 21.3.2.34 Math.sumPrecise(items): the sum of an iterable of numbers, computed exactly
/// and rounded once.
fn sum_precise(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let items = arg(args, 0);
    // 1. Perform ? RequireObjectCoercible(items).
    if items.is_nullish() {
        return Err(rt.throw_type_error("Math.sumPrecise called on null or undefined"));
    }
    // 2. Let iteratorRecord be ? GetIterator(items, sync).
    let it = crate::runtime::iteration::get_iterator(rt, items)?;
    rt.root(it);
    // 3-4. The state: what the values so far make the result, whatever else follows.
    let (mut nan, mut plus_infinity, mut minus_infinity, mut all_minus_zero) = (false, false, false, true);
    let mut sum = ecma::sum::ExactSum::new();
    loop {
        let next = crate::runtime::iteration::iterator_next(rt, it)?;
        if next.is_empty() {
            break;
        }
        // (Step 5.b.ii's RangeError at 2^53 values cannot be reached by a loop this side of
        // centuries.) 5.b.iii: a value that is not a Number closes the iterator.
        let Some(n) = next.as_number() else {
            let e = rt.throw_type_error("Math.sumPrecise: the iterable gave a value that is not a number");
            return Err(super::collections::close_after_throw(rt, it, e));
        };
        if n.is_nan() {
            nan = true;
        } else if n == f64::INFINITY {
            plus_infinity = true;
        } else if n == f64::NEG_INFINITY {
            minus_infinity = true;
        } else if !(n == 0.0 && n.is_sign_negative()) {
            all_minus_zero = false;
            sum.add(n);
        }
    }
    // 6-10.
    let r = if nan || (plus_infinity && minus_infinity) {
        f64::NAN
    } else if plus_infinity {
        f64::INFINITY
    } else if minus_infinity {
        f64::NEG_INFINITY
    } else if all_minus_zero {
        -0.0
    } else {
        sum.round()
    };
    Ok(Value::number(r))
}

/// 21.3.2.19 Math.imul(x, y).
fn imul(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let a = rt.to_int32(arg(args, 0))?;
    let b = rt.to_int32(arg(args, 1))?;
    Ok(Value::number(a.wrapping_mul(b) as f64))
}

/// 21.3.2.24 Math.max(...args).
fn max(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let mut r = f64::NEG_INFINITY;
    let mut nan = false;
    for &a in args {
        let n = rt.to_number(a)?;
        if n.is_nan() {
            nan = true;
        } else if n > r || (n == 0.0 && r == 0.0 && r.is_sign_negative()) {
            r = n;
        }
    }
    Ok(Value::number(if nan { f64::NAN } else { r }))
}

/// 21.3.2.25 Math.min(...args).
fn min(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let mut r = f64::INFINITY;
    let mut nan = false;
    for &a in args {
        let n = rt.to_number(a)?;
        if n.is_nan() {
            nan = true;
        } else if n < r || (n == 0.0 && r == 0.0 && n.is_sign_negative()) {
            r = n;
        }
    }
    Ok(Value::number(if nan { f64::NAN } else { r }))
}

/// 21.3.2.26 Math.pow(base, exponent).
fn pow(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let b = rt.to_number(arg(args, 0))?;
    let e = rt.to_number(arg(args, 1))?;
    Ok(Value::number(ecma::number::exponentiate(b, e)))
}

/// 21.3.2.27 Math.random(): xorshift128+ seeded from the clock.
fn random(rt: &mut Runtime, _this: Value, _args: &[Value]) -> JsResult<Value> {
    Ok(Value::number(rt.next_random()))
}

impl Runtime {
    /// The next pseudo-random number in [0, 1).
    pub(crate) fn next_random(&mut self) -> f64 {
        if self.host.random_state == [0, 0] {
            let t = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(0x1234_5678);
            self.host.random_state = [t | 1, t.rotate_left(32) ^ 0x9e37_79b9_7f4a_7c15];
        }
        let [mut s1, s0] = self.host.random_state;
        self.host.random_state[0] = s0;
        s1 ^= s1 << 23;
        s1 ^= s1 >> 17;
        s1 ^= s0;
        s1 ^= s0 >> 26;
        self.host.random_state[1] = s1;
        let bits = (s0.wrapping_add(s1)) >> 11;
        bits as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::UNARY;

    fn unary(name: &str) -> super::F1 {
        UNARY.iter().find(|r| r.0 == name).map(|r| r.1).unwrap_or_else(|| panic!("no Math.{name}"))
    }

    /// node's results, which glibc's `cbrt` (linked into a static build) missed by an ulp.
    #[test]
    fn cube_roots_of_exact_cubes_are_exact() {
        for n in [-8.0, 27.0, 64.0, 1000.0, 1e30, 0.125] {
            let root = unary("cbrt")(n * n * n);
            assert_eq!(root, n, "Math.cbrt({})", n * n * n);
        }
        assert_eq!(unary("log2")(8.0), 3.0);
        assert_eq!(unary("log10")(1000.0), 3.0);
    }

    #[test]
    fn signed_zeros_and_infinities() {
        for name in ["asin", "asinh", "atan", "atanh", "cbrt", "expm1", "log1p", "sin", "sinh", "tan", "tanh"] {
            assert!(unary(name)(-0.0).is_sign_negative() && unary(name)(-0.0) == 0.0, "Math.{name}(-0)");
        }
        assert_eq!(unary("tanh")(f64::NEG_INFINITY), -1.0);
        assert_eq!(unary("cosh")(f64::NEG_INFINITY), f64::INFINITY);
        assert_eq!(unary("asinh")(f64::NEG_INFINITY), f64::NEG_INFINITY);
        assert_eq!(unary("expm1")(f64::NEG_INFINITY), -1.0);
        assert_eq!(unary("log")(0.0), f64::NEG_INFINITY);
        assert!(unary("log")(-1.0).is_nan());
    }
}
