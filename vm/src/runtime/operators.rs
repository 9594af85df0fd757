//! The slow paths of the operators: ECMAScript semantics for any operand types
//! (13.15.3 ApplyStringOrNumericBinaryOperator, 7.2.13 IsLessThan, 13.10.2
//! InstanceofOperator, `in`). The interpreter handles number operands inline.

use super::convert::Hint;
use super::{JsResult, Runtime};
use crate::gc::{CellKind, Gc};
use crate::object::shape::{Shape, ACCESSOR};
use crate::object::{BigIntCell, JsObject, Key};
use crate::runtime::function::BoundFunction;
use crate::value::Value;
use ecma::number;
use num_bigint::BigInt;

/// A numeric binary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumOp {
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Mod,
    /// `**`
    Exp,
    /// `&`
    BitAnd,
    /// `|`
    BitOr,
    /// `^`
    BitXor,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `>>>`
    UShr,
}

/// The number result of `op` on two numbers.
#[inline]
pub(crate) fn number_op(op: NumOp, a: f64, b: f64) -> f64 {
    match op {
        NumOp::Sub => a - b,
        NumOp::Mul => a * b,
        NumOp::Div => a / b,
        NumOp::Mod => number::remainder(a, b),
        NumOp::Exp => number::exponentiate(a, b),
        NumOp::BitAnd => (number::to_int32(a) & number::to_int32(b)) as f64,
        NumOp::BitOr => (number::to_int32(a) | number::to_int32(b)) as f64,
        NumOp::BitXor => (number::to_int32(a) ^ number::to_int32(b)) as f64,
        NumOp::Shl => number::to_int32(a).wrapping_shl(number::to_int32(b) as u32 & 31) as f64,
        NumOp::Shr => (number::to_int32(a) >> (number::to_int32(b) as u32 & 31)) as f64,
        NumOp::UShr => ((number::to_int32(a) as u32) >> (number::to_int32(b) as u32 & 31)) as f64,
    }
}

impl Runtime {
    /// `a + b` (13.15.3 with `+`).
    pub(crate) fn op_add(&mut self, a: Value, b: Value) -> JsResult<Value> {
        if let (Some(x), Some(y)) = (a.as_number(), b.as_number()) {
            return Ok(Value::number(x + y));
        }
        if a.is_string() && b.is_string() {
            return self.concat_strings(a, b);
        }
        let mark = self.handle_mark();
        let pa = self.to_primitive(a, Hint::Default)?;
        self.root(pa);
        let pb = self.to_primitive(b, Hint::Default)?;
        self.root(pb);
        let r = if pa.is_string() || pb.is_string() {
            let sa = self.to_string(pa)?;
            self.root(sa);
            let sb = self.to_string(pb)?;
            self.concat_strings(sa, sb)
        } else {
            let na = self.to_numeric(pa)?;
            let nb = self.to_numeric(pb)?;
            if na.is_bigint() || nb.is_bigint() {
                self.bigint_op(None, na, nb)
            } else {
                Ok(Value::number(na.number_unchecked() + nb.number_unchecked()))
            }
        };
        self.release_handles(mark);
        r
    }

    /// A numeric binary operator on any operands.
    pub(crate) fn op_numeric(&mut self, op: NumOp, a: Value, b: Value) -> JsResult<Value> {
        if let (Some(x), Some(y)) = (a.as_number(), b.as_number()) {
            return Ok(Value::number(number_op(op, x, y)));
        }
        let mark = self.handle_mark();
        let na = self.to_numeric(a)?;
        self.root(na);
        let nb = self.to_numeric(b)?;
        self.release_handles(mark);
        if na.is_bigint() || nb.is_bigint() {
            return self.bigint_op(Some(op), na, nb);
        }
        Ok(Value::number(number_op(op, na.number_unchecked(), nb.number_unchecked())))
    }

    /// BigInt arithmetic; `op` None is `+`.
    fn bigint_op(&mut self, op: Option<NumOp>, a: Value, b: Value) -> JsResult<Value> {
        if !(a.is_bigint() && b.is_bigint()) {
            return Err(self.throw_type_error("Cannot mix BigInt and other types, use explicit conversions"));
        }
        let x = self.heap.get(a.gc::<BigIntCell>()).value.clone();
        let y = self.heap.get(b.gc::<BigIntCell>()).value.clone();
        let zero = BigInt::from(0);
        let r = match op {
            None => x + y,
            Some(NumOp::Sub) => x - y,
            Some(NumOp::Mul) => x * y,
            Some(NumOp::Div) => {
                if y == zero {
                    return Err(self.throw_range_error("Division by zero"));
                }
                x / y
            }
            Some(NumOp::Mod) => {
                if y == zero {
                    return Err(self.throw_range_error("Division by zero"));
                }
                x % y
            }
            Some(NumOp::Exp) => {
                if y < zero {
                    return Err(self.throw_range_error("Exponent must be non-negative"));
                }
                let e: u32 = match u32::try_from(&y) {
                    Ok(e) => e,
                    Err(_) => return Err(self.throw_range_error("Maximum BigInt size exceeded")),
                };
                num_traits_pow(&x, e)
            }
            Some(NumOp::BitAnd) => x & y,
            Some(NumOp::BitOr) => x | y,
            Some(NumOp::BitXor) => x ^ y,
            Some(NumOp::Shl) | Some(NumOp::Shr) => {
                // x >> y is x << -y. The count may be any size: to the right, past the
                // value's bits it leaves 0n or -1n; to the left, only 0n stays small.
                let left = (y >= zero) == (op == Some(NumOp::Shl));
                let count = u64::try_from(y.magnitude()).unwrap_or(u64::MAX);
                if left {
                    if x == zero {
                        x
                    } else if count > 1 << 24 {
                        return Err(self.throw_range_error("Maximum BigInt size exceeded"));
                    } else {
                        x << (count as usize)
                    }
                } else {
                    let s = count.min(x.bits() + 1) as usize;
                    // Arithmetic shift right rounds toward negative infinity.
                    if x < zero {
                        let m: BigInt = -x - 1;
                        -(m >> s) - 1
                    } else {
                        x >> s
                    }
                }
            }
            Some(NumOp::UShr) => {
                return Err(self.throw_type_error("BigInts have no unsigned right shift, use >> instead"))
            }
        };
        Ok(self.new_bigint(r))
    }

    /// A BigInt value.
    pub(crate) fn new_bigint(&mut self, v: BigInt) -> Value {
        let header = crate::gc::CellHeader::new(CellKind::BigInt);
        let external = bigint_bytes(&v);
        let cell = self.heap.alloc(BigIntCell { header, value: v });
        self.heap.note_external(external);
        Value::bigint(cell)
    }

    /// Unary minus.
    pub(crate) fn op_negate(&mut self, v: Value) -> JsResult<Value> {
        let n = self.to_numeric(v)?;
        if n.is_bigint() {
            let x = self.heap.get(n.gc::<BigIntCell>()).value.clone();
            return Ok(self.new_bigint(-x));
        }
        Ok(Value::number(-n.number_unchecked()))
    }

    /// `~v`.
    pub(crate) fn op_bit_not(&mut self, v: Value) -> JsResult<Value> {
        let n = self.to_numeric(v)?;
        if n.is_bigint() {
            let x = self.heap.get(n.gc::<BigIntCell>()).value.clone();
            return Ok(self.new_bigint(-x - 1));
        }
        Ok(Value::number(!number::to_int32(n.number_unchecked()) as f64))
    }

    /// `ToNumeric(v) + delta` (`++`/`--`).
    pub(crate) fn op_inc_dec(&mut self, v: Value, delta: f64) -> JsResult<Value> {
        let n = self.to_numeric(v)?;
        if n.is_bigint() {
            let x = self.heap.get(n.gc::<BigIntCell>()).value.clone();
            return Ok(self.new_bigint(x + BigInt::from(delta as i64)));
        }
        Ok(Value::number(n.number_unchecked() + delta))
    }

    /// 7.2.13 IsLessThan: `Some(a < b)`, or None when a comparison involves NaN.
    pub(crate) fn op_less_than(&mut self, a: Value, b: Value, left_first: bool) -> JsResult<Option<bool>> {
        let mark = self.handle_mark();
        let (pa, pb) = if left_first {
            let pa = self.to_primitive(a, Hint::Number)?;
            self.root(pa);
            let pb = self.to_primitive(b, Hint::Number)?;
            (pa, pb)
        } else {
            let pb = self.to_primitive(b, Hint::Number)?;
            self.root(pb);
            let pa = self.to_primitive(a, Hint::Number)?;
            (pa, pb)
        };
        self.release_handles(mark);
        if pa.is_string() && pb.is_string() {
            let (x, y) = (self.heap.flatten(pa), self.heap.flatten(pb));
            let ord = self.heap.str_view(x).cmp_view(&self.heap.str_view(y));
            return Ok(Some(ord == std::cmp::Ordering::Less));
        }
        if pa.is_bigint() && pb.is_string() {
            let t = self.string_to_rust(pb);
            let Some(n) = ecma::bigint::parse_bigint_literal(t.trim()) else { return Ok(None) };
            return Ok(Some(self.heap.get(pa.gc::<BigIntCell>()).value < n));
        }
        if pa.is_string() && pb.is_bigint() {
            let t = self.string_to_rust(pa);
            let Some(n) = ecma::bigint::parse_bigint_literal(t.trim()) else { return Ok(None) };
            return Ok(Some(n < self.heap.get(pb.gc::<BigIntCell>()).value));
        }
        let mark = self.handle_mark();
        self.root(pb);
        let na = self.to_numeric(pa)?;
        self.root(na);
        let nb = self.to_numeric(pb)?;
        self.release_handles(mark);
        match (na.is_bigint(), nb.is_bigint()) {
            (false, false) => {
                let (x, y) = (na.number_unchecked(), nb.number_unchecked());
                if x.is_nan() || y.is_nan() {
                    Ok(None)
                } else {
                    Ok(Some(x < y))
                }
            }
            (true, true) => {
                let x = &self.heap.get(na.gc::<BigIntCell>()).value;
                let y = &self.heap.get(nb.gc::<BigIntCell>()).value;
                Ok(Some(x < y))
            }
            (true, false) => {
                let y = nb.number_unchecked();
                let x = &self.heap.get(na.gc::<BigIntCell>()).value;
                Ok(ecma::bigint::compare_bigint_number(x, y).map(|o| o == std::cmp::Ordering::Less))
            }
            (false, true) => {
                let x = na.number_unchecked();
                let y = &self.heap.get(nb.gc::<BigIntCell>()).value;
                Ok(ecma::bigint::compare_bigint_number(y, x).map(|o| o == std::cmp::Ordering::Greater))
            }
        }
    }

    /// 13.10.2 InstanceofOperator.
    pub(crate) fn op_instance_of(&mut self, v: Value, target: Value) -> JsResult<bool> {
        if !target.is_object() {
            return Err(self.throw_type_error("Right-hand side of 'instanceof' is not an object"));
        }
        let f: Gc<JsObject> = target.gc();
        if let Some(p) = self.cached_prototype_for_instance_of(f) {
            return self.prototype_chain_has(v, p);
        }
        let key = Key::Name(self.symbols.has_instance);
        let handler = self.get(f, key, target)?;
        if !handler.is_nullish() {
            if handler != self.intrinsic(super::Intrinsic::FunctionPrototype) && !self.is_callable(handler) {
                return Err(self.throw_type_error("Symbol.hasInstance is not callable"));
            }
            self.remember_instance_of(f);
            let r = self.call(handler, target, &[v])?;
            return Ok(self.to_boolean(r));
        }
        if !self.is_callable(target) {
            return Err(self.throw_type_error("Right-hand side of 'instanceof' is not callable"));
        }
        self.ordinary_has_instance(target, v)
    }

    /// The `prototype` of `f` if an `instanceof` with `f` on the right comes down to
    /// OrdinaryHasInstance(f, v) with no call on the way, known from `f`'s shape
    /// (`remember_instance_of`).
    #[inline]
    fn cached_prototype_for_instance_of(&self, f: Gc<JsObject>) -> Option<Value> {
        let shape = self.heap.get(f).shape;
        let (s, loc) = self.caches.instance_of[shape_cache_index(shape)]?;
        if s != shape {
            return None;
        }
        let p = self.heap.slot_at(f, loc);
        // A lazy `prototype` not made yet: the slow path makes it.
        (!p.is_empty()).then_some(p)
    }

    /// Notes, for `instanceof` with `f` on the right, where `f`'s shape keeps `prototype`
    /// when the answer is OrdinaryHasInstance(f, v): `prototype` is a plain slot
    /// (`prototype_slot`), `f` has no own @@hasInstance, and its [[Prototype]] is
    /// %Function.prototype%, whose @@hasInstance is that built-in and can never change
    /// (non-writable and non-configurable). All of that is fixed by the shape.
    fn remember_instance_of(&mut self, f: Gc<JsObject>) {
        let Some((shape, loc)) = self.prototype_slot(f) else { return };
        let s = self.heap.get(shape);
        if s.proto != self.intrinsic(super::Intrinsic::FunctionPrototype)
            || s.lookup(self.symbols.has_instance).is_some()
        {
            return;
        }
        self.caches.instance_of[shape_cache_index(shape)] = Some((shape, loc));
    }

    /// `f`'s shape and where it keeps `prototype`, if a [[Get]] of `prototype` on any
    /// object of that shape is a read of that slot: `f` is a function made from bytecode or
    /// a native one (not a bound function, not a proxy: an ordinary [[Get]]; the shape
    /// fixes the kind), the shape is not a dictionary (which changes in place), and
    /// `prototype` is an own data property.
    pub(crate) fn prototype_slot(&self, f: Gc<JsObject>) -> Option<(Gc<Shape>, u32)> {
        let kind = self.heap.get(f).header.kind;
        let shape = self.heap.get(f).shape;
        let s = self.heap.get(shape);
        if !matches!(kind, CellKind::Closure | CellKind::NativeFunction) || s.is_dictionary() {
            return None;
        }
        let (slot, attrs) = s.lookup(self.names.prototype)?;
        if attrs & ACCESSOR != 0 {
            return None;
        }
        Some((shape, self.heap.slot_location(f, slot)))
    }

    /// 7.3.22 OrdinaryHasInstance.
    pub(crate) fn ordinary_has_instance(&mut self, c: Value, o: Value) -> JsResult<bool> {
        if !self.is_callable(c) {
            return Ok(false);
        }
        let cobj: Gc<JsObject> = c.gc();
        if let Some(b) = self.heap.downcast::<BoundFunction>(cobj) {
            let t = self.heap.get(b).target;
            return self.op_instance_of(o, t);
        }
        if !o.is_object() {
            return Ok(false);
        }
        let key = Key::Name(self.names.prototype);
        let p = self.get(cobj, key, c)?;
        self.prototype_chain_has(o, p)
    }

    /// The end of OrdinaryHasInstance once `C.prototype` is `p`: whether `p` is on the
    /// prototype chain of `o`.
    fn prototype_chain_has(&mut self, o: Value, p: Value) -> JsResult<bool> {
        if !o.is_object() {
            return Ok(false);
        }
        if !p.is_object() {
            return Err(self.throw_type_error("Function has non-object prototype in instanceof check"));
        }
        let mut x = self.prototype_of(o.gc())?;
        while x.is_object() {
            if x == p {
                return Ok(true);
            }
            x = self.prototype_of(x.gc())?;
        }
        Ok(false)
    }

    /// `key in obj`.
    pub(crate) fn op_in(&mut self, key: Value, obj: Value) -> JsResult<bool> {
        if !obj.is_object() {
            return Err(self.throw_type_error("Cannot use 'in' operator to search for a key in a non-object"));
        }
        let k = self.to_property_key(key)?;
        self.has_property(obj.gc(), k)
    }
}

/// Entries of the caches direct-mapped by a function's shape (`Caches::instance_of`,
/// `Caches::constructor_prototype`).
pub(crate) const SHAPE_CACHE_ENTRIES: usize = 64;

/// The entry of `shape` in a cache of `SHAPE_CACHE_ENTRIES`.
#[inline(always)]
pub(crate) fn shape_cache_index(shape: Gc<Shape>) -> usize {
    (shape.addr() >> 4) % SHAPE_CACHE_ENTRIES
}

fn num_traits_pow(x: &BigInt, e: u32) -> BigInt {
    x.pow(e)
}

/// The bytes a BigInt's digits take outside the heap.
pub(crate) fn bigint_bytes(v: &num_bigint::BigInt) -> usize {
    (v.bits() as usize).div_ceil(64) * 8
}
