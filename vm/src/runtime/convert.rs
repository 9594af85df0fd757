//! Type conversions (ECMA-262 7.1) and the testing/comparison operations (7.2).

use super::{Intrinsic, JsResult, Runtime};
use crate::gc::{CellKind, Gc};
use crate::object::{JsObject, Key, PrimitiveObject, PropKey, Symbol};
use crate::runtime::function::{BoundFunction, Closure, NativeFunction};
use crate::string::{JsString, StrView};
use crate::value::{Kind, Value};
use ecma::conv;
use ecma::number;

/// The preferred type of ToPrimitive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hint {
    /// No preference ("default").
    Default,
    /// "number".
    Number,
    /// "string".
    String,
}

// The `to_*` methods are ECMAScript's conversions (ToNumber, ToString, ...): they take the
// runtime by `&mut` because they may run JavaScript (`valueOf`, `toString`, getters).
#[allow(clippy::wrong_self_convention)]
impl Runtime {
    /// 7.1.2 ToBoolean.
    #[inline]
    pub(crate) fn to_boolean(&self, v: Value) -> bool {
        match v.falsy_primitive() {
            Some(falsy) => !falsy,
            None => {
                if v.is_string() {
                    self.heap.string_len(v) != 0
                } else {
                    // BigInt: false only for 0n.
                    let b = self.heap.get(v.gc::<crate::object::BigIntCell>());
                    b.value != num_bigint::BigInt::from(0)
                }
            }
        }
    }

    /// 7.1.1 ToPrimitive.
    pub(crate) fn to_primitive(&mut self, v: Value, hint: Hint) -> JsResult<Value> {
        if !v.is_object() {
            return Ok(v);
        }
        let obj: Gc<JsObject> = v.gc();
        // 2.a. Let exoticToPrim be ? GetMethod(input, @@toPrimitive).
        let key = Key::Name(self.symbols.to_primitive);
        let exotic = self.get(obj, key, v)?;
        if !exotic.is_nullish() {
            if !self.is_callable(exotic) {
                return Err(self.throw_type_error("Symbol.toPrimitive is not a function"));
            }
            let h = match hint {
                Hint::Default => self.names.default.value(),
                Hint::Number => self.names.number.value(),
                Hint::String => self.names.string.value(),
            };
            let r = self.call(exotic, v, &[h])?;
            if r.is_object() {
                return Err(self.throw_type_error("Cannot convert object to primitive value"));
            }
            return Ok(r);
        }
        self.ordinary_to_primitive(obj, if hint == Hint::String { Hint::String } else { Hint::Number })
    }

    /// 7.1.1.1 OrdinaryToPrimitive.
    pub(crate) fn ordinary_to_primitive(&mut self, obj: Gc<JsObject>, hint: Hint) -> JsResult<Value> {
        let (first, second) = if hint == Hint::String {
            (self.names.to_string, self.names.value_of)
        } else {
            (self.names.value_of, self.names.to_string)
        };
        for name in [first, second] {
            let method = self.get(obj, Key::Name(name), Value::object(obj))?;
            if self.is_callable(method) {
                let r = self.call(method, Value::object(obj), &[])?;
                if !r.is_object() {
                    return Ok(r);
                }
            }
        }
        Err(self.throw_type_error("Cannot convert object to primitive value"))
    }

    /// 7.1.13 ToBigInt.
    pub(crate) fn to_bigint(&mut self, v: Value) -> JsResult<num_bigint::BigInt> {
        let p = self.to_primitive(v, Hint::Number)?;
        if p.is_bigint() {
            return Ok(self.heap.get(p.gc::<crate::object::BigIntCell>()).value.clone());
        }
        if let Some(b) = p.as_boolean() {
            return Ok(num_bigint::BigInt::from(b as i32));
        }
        if p.is_string() {
            let s = self.string_to_rust(p);
            return match ecma::bigint::parse_bigint_literal(s.trim()) {
                Some(b) => Ok(b),
                None => Err(self.throw_syntax_error(&format!("Cannot convert {s} to a BigInt"))),
            };
        }
        let what = (self.host.hooks.inspect)(self, p);
        Err(self.throw_type_error(&format!("Cannot convert {what} to a BigInt")))
    }

    /// 7.1.4 ToNumber.
    pub(crate) fn to_number(&mut self, v: Value) -> JsResult<f64> {
        if let Some(n) = v.as_number() {
            return Ok(n);
        }
        match v.kind() {
            Kind::Undefined | Kind::Empty => Ok(f64::NAN),
            Kind::Null => Ok(0.0),
            Kind::Boolean => Ok(if v == Value::TRUE { 1.0 } else { 0.0 }),
            Kind::String => Ok(self.string_to_number(v)),
            Kind::Symbol => Err(self.throw_type_error("Cannot convert a Symbol value to a number")),
            Kind::BigInt => Err(self.throw_type_error("Cannot convert a BigInt value to a number")),
            Kind::Object => {
                let p = self.to_primitive(v, Hint::Number)?;
                self.to_number(p)
            }
            Kind::Cell | Kind::Number => Ok(f64::NAN),
        }
    }

    /// 7.1.3 ToNumeric: a number or a BigInt value.
    pub(crate) fn to_numeric(&mut self, v: Value) -> JsResult<Value> {
        if v.is_number() || v.is_bigint() {
            return Ok(v);
        }
        let p = self.to_primitive(v, Hint::Number)?;
        if p.is_bigint() {
            return Ok(p);
        }
        Ok(Value::number(self.to_number(p)?))
    }

    /// StringToNumber of a string value.
    pub(crate) fn string_to_number(&mut self, v: Value) -> f64 {
        let flat = self.heap.flatten(v);
        match self.heap.str_view(flat) {
            StrView::Latin1(b) => conv::string_to_number::string_to_number(b),
            StrView::Utf16(u) => conv::string_to_number::string_to_number(u),
        }
    }

    /// 7.1.5 ToIntegerOrInfinity.
    pub(crate) fn to_integer_or_infinity(&mut self, v: Value) -> JsResult<f64> {
        let n = self.to_number(v)?;
        Ok(number::integer_or_infinity(n))
    }

    /// 7.1.6 ToInt32.
    #[inline]
    pub(crate) fn to_int32(&mut self, v: Value) -> JsResult<i32> {
        if let Some(n) = v.as_number() {
            return Ok(number::to_int32(n));
        }
        let n = self.to_number(v)?;
        Ok(number::to_int32(n))
    }

    /// 7.1.7 ToUint32.
    #[inline]
    pub(crate) fn to_uint32(&mut self, v: Value) -> JsResult<u32> {
        Ok(self.to_int32(v)? as u32)
    }

    /// 7.1.20 ToLength.
    pub(crate) fn to_length(&mut self, v: Value) -> JsResult<f64> {
        let n = self.to_integer_or_infinity(v)?;
        Ok(n.clamp(0.0, 9007199254740991.0))
    }

    /// 7.1.22 ToIndex.
    pub(crate) fn to_index(&mut self, v: Value) -> JsResult<f64> {
        if v.is_undefined() {
            return Ok(0.0);
        }
        let i = self.to_integer_or_infinity(v)?;
        if !(0.0..=9007199254740991.0).contains(&i) {
            return Err(self.throw_range_error("Invalid index"));
        }
        Ok(i)
    }

    /// 7.1.17 ToString, returning a string value.
    pub(crate) fn to_string(&mut self, v: Value) -> JsResult<Value> {
        match v.kind() {
            Kind::String => Ok(v),
            Kind::Number => Ok(self.number_to_string(v.number_unchecked())),
            Kind::Undefined | Kind::Empty => Ok(self.names.undefined.value()),
            Kind::Null => Ok(self.names.null.value()),
            Kind::Boolean => Ok(if v == Value::TRUE { self.names.true_.value() } else { self.names.false_.value() }),
            Kind::Symbol => Err(self.throw_type_error("Cannot convert a Symbol value to a string")),
            Kind::BigInt => {
                let s = self.heap.get(v.gc::<crate::object::BigIntCell>()).value.to_string();
                Ok(self.new_string(&s))
            }
            Kind::Object => {
                let p = self.to_primitive(v, Hint::String)?;
                self.to_string(p)
            }
            Kind::Cell => Ok(self.new_string("<internal>")),
        }
    }

    /// ToString into a Rust string (lossy for lone surrogates).
    pub(crate) fn to_rust_string(&mut self, v: Value) -> JsResult<String> {
        let s = self.to_string(v)?;
        Ok(self.string_to_rust(s))
    }

    /// The Rust string of a string value.
    pub(crate) fn string_to_rust(&mut self, v: Value) -> String {
        let flat = self.heap.flatten(v);
        self.heap.str_view(flat).to_rust_string()
    }

    /// The UTF-16 units of a string value.
    pub(crate) fn string_units(&mut self, v: Value) -> Vec<u16> {
        let flat = self.heap.flatten(v);
        self.heap.str_view(flat).to_units()
    }

    /// The flat cell of a string value.
    #[inline]
    pub(crate) fn flat(&mut self, v: Value) -> Gc<JsString> {
        self.heap.flatten(v)
    }

    /// Number::toString(x) as a string value (small integers are cached).
    pub(crate) fn number_to_string(&mut self, n: f64) -> Value {
        let i = n as i32;
        if i as f64 == n && (0..256).contains(&i) && !(n == 0.0 && n.is_sign_negative()) {
            let cached = self.caches.small_int_strings[i as usize];
            if !cached.is_undefined() {
                return cached;
            }
            let s = Value::string(self.atoms.intern_str(&mut self.heap, &i.to_string()));
            self.caches.small_int_strings[i as usize] = s;
            return s;
        }
        let s = conv::number_to_string::number_to_string(n);
        Value::string(self.heap.alloc_latin1(s.as_bytes()))
    }

    /// A one-unit string (cached for Latin-1 units).
    pub(crate) fn string_from_unit(&mut self, u: u16) -> Value {
        if u < 256 {
            let cached = self.caches.char_strings[u as usize];
            if !cached.is_undefined() {
                return cached;
            }
            let s = Value::string(self.atoms.intern_units(&mut self.heap, &[u]));
            self.caches.char_strings[u as usize] = s;
            return s;
        }
        Value::string(self.heap.alloc_utf16(&[u]))
    }

    /// 7.1.18 ToObject.
    pub(crate) fn to_object(&mut self, v: Value) -> JsResult<Gc<JsObject>> {
        if v.is_object() {
            return Ok(v.gc());
        }
        if v.is_nullish() {
            return Err(self.throw_type_error("Cannot convert undefined or null to object"));
        }
        let proto = self.primitive_prototype(v)?;
        Ok(self.new_primitive_object(Value::object(proto), v))
    }

    /// A wrapper object for primitive `v` with prototype `proto`.
    pub(crate) fn new_primitive_object(&mut self, proto: Value, v: Value) -> Gc<JsObject> {
        let shape = self.root_shape(proto, CellKind::PrimitiveObject, 0);
        let base = JsObject::new(CellKind::PrimitiveObject, shape);
        let o = self.heap.alloc_object(PrimitiveObject { base, value: v }, 0);
        o.cast()
    }

    /// 7.1.19 ToPropertyKey.
    #[inline]
    pub(crate) fn to_property_key(&mut self, v: Value) -> JsResult<Key> {
        if let Some(i) = v.as_array_index() {
            return Ok(Key::Index(i));
        }
        match v.kind() {
            Kind::String => Ok(self.key_from_string(v)),
            Kind::Symbol => Ok(Key::Name(PropKey::from_value(v))),
            Kind::Object => {
                let p = self.to_primitive(v, Hint::String)?;
                self.to_property_key(p)
            }
            _ => {
                let s = self.to_string(v)?;
                Ok(self.key_from_string(s))
            }
        }
    }

    /// SymbolDescriptiveString: "Symbol(desc)".
    pub(crate) fn symbol_descriptive_string(&mut self, v: Value) -> String {
        let d = self.heap.get(v.gc::<Symbol>()).description;
        let desc = if d.is_string() { self.string_to_rust(d) } else { String::new() };
        format!("Symbol({desc})")
    }

    // ---- Testing and comparison -----------------------------------------------------------

    /// 7.2.3 IsCallable.
    #[inline]
    pub(crate) fn is_callable(&self, v: Value) -> bool {
        if !v.is_object() {
            return false;
        }
        match self.heap.object_kind(v.gc()) {
            CellKind::Closure | CellKind::NativeFunction | CellKind::BoundFunction => true,
            CellKind::Proxy => self.heap.get(v.gc::<crate::object::ProxyObject>()).callable,
            _ => false,
        }
    }

    /// 7.2.4 IsConstructor.
    pub(crate) fn is_constructor(&self, v: Value) -> bool {
        if !v.is_object() {
            return false;
        }
        let obj: Gc<JsObject> = v.gc();
        match self.heap.object_kind(obj) {
            CellKind::Closure => {
                let info = self.heap.get(obj.cast::<Closure>()).func;
                crate::code::info_flags(info).contains(bytecode::FunctionFlags::CONSTRUCTOR)
            }
            CellKind::NativeFunction => self.heap.get(obj.cast::<NativeFunction>()).constructor,
            CellKind::BoundFunction => {
                let t = self.heap.get(obj.cast::<BoundFunction>()).target;
                self.is_constructor(t)
            }
            CellKind::Proxy => self.heap.get(obj.cast::<crate::object::ProxyObject>()).constructor,
            _ => false,
        }
    }

    /// 7.2.2 IsArray: an Array, or a proxy whose target is one (a TypeError once revoked).
    pub(crate) fn is_array(&mut self, v: Value) -> JsResult<bool> {
        let mut v = v;
        loop {
            if !v.is_object() {
                return Ok(false);
            }
            match self.heap.object_kind(v.gc()) {
                CellKind::Array => return Ok(true),
                CellKind::Proxy => match self.proxy_target(v.gc()) {
                    Some(t) => v = Value::object(t),
                    None => {
                        return Err(self.throw_type_error("Cannot perform 'IsArray' on a proxy that has been revoked"))
                    }
                },
                _ => return Ok(false),
            }
        }
    }

    /// 7.2.10 SameValue.
    pub(crate) fn same_value(&mut self, a: Value, b: Value) -> bool {
        if let (Some(x), Some(y)) = (a.as_number(), b.as_number()) {
            return (x.is_nan() && y.is_nan()) || (x == y && x.is_sign_negative() == y.is_sign_negative());
        }
        self.same_value_non_number(a, b)
    }

    /// 7.2.11 SameValueZero.
    pub(crate) fn same_value_zero(&mut self, a: Value, b: Value) -> bool {
        if let (Some(x), Some(y)) = (a.as_number(), b.as_number()) {
            return (x.is_nan() && y.is_nan()) || x == y;
        }
        self.same_value_non_number(a, b)
    }

    fn same_value_non_number(&mut self, a: Value, b: Value) -> bool {
        if a == b {
            return true;
        }
        if a.is_string() && b.is_string() {
            return self.string_equals(a, b);
        }
        if a.is_bigint() && b.is_bigint() {
            let x = &self.heap.get(a.gc::<crate::object::BigIntCell>()).value;
            let y = &self.heap.get(b.gc::<crate::object::BigIntCell>()).value;
            return x == y;
        }
        false
    }

    /// Whether two string values have the same contents.
    pub(crate) fn string_equals(&mut self, a: Value, b: Value) -> bool {
        if a == b {
            return true;
        }
        if self.heap.string_len(a) != self.heap.string_len(b) {
            return false;
        }
        let (x, y) = (self.heap.flatten(a), self.heap.flatten(b));
        if x == y {
            return true;
        }
        let both_atoms = self.heap.get(x).header.flags & self.heap.get(y).header.flags & crate::string::ATOM != 0;
        if both_atoms {
            return false;
        }
        self.heap.str_view(x).eq_view(&self.heap.str_view(y))
    }

    /// 7.2.15 IsStrictlyEqual.
    #[inline]
    pub(crate) fn strict_equals(&mut self, a: Value, b: Value) -> bool {
        if let (Some(x), Some(y)) = (a.as_number(), b.as_number()) {
            return x == y;
        }
        if a == b {
            return true;
        }
        if a.is_string() && b.is_string() {
            return self.string_equals(a, b);
        }
        if a.is_bigint() && b.is_bigint() {
            return self.same_value_non_number(a, b);
        }
        false
    }

    /// 7.2.14 IsLooselyEqual.
    pub(crate) fn loose_equals(&mut self, a: Value, b: Value) -> JsResult<bool> {
        let (ka, kb) = (a.kind(), b.kind());
        if ka == kb || (a.is_number() && b.is_number()) {
            return Ok(self.strict_equals(a, b));
        }
        match (ka, kb) {
            (Kind::Undefined | Kind::Null, Kind::Undefined | Kind::Null) => Ok(true),
            (Kind::Number, Kind::String) => {
                let n = self.string_to_number(b);
                Ok(a.number_unchecked() == n)
            }
            (Kind::String, Kind::Number) => {
                let n = self.string_to_number(a);
                Ok(n == b.number_unchecked())
            }
            (Kind::BigInt, Kind::String) | (Kind::String, Kind::BigInt) => {
                let (big, s) = if ka == Kind::BigInt { (a, b) } else { (b, a) };
                let text = self.string_to_rust(s);
                match ecma::bigint::parse_bigint_literal(text.trim()) {
                    Some(n) => Ok(self.heap.get(big.gc::<crate::object::BigIntCell>()).value == n),
                    None => Ok(false),
                }
            }
            (Kind::Boolean, _) => {
                let n = Value::number(if a == Value::TRUE { 1.0 } else { 0.0 });
                self.loose_equals(n, b)
            }
            (_, Kind::Boolean) => {
                let n = Value::number(if b == Value::TRUE { 1.0 } else { 0.0 });
                self.loose_equals(a, n)
            }
            (Kind::Number | Kind::String | Kind::BigInt | Kind::Symbol, Kind::Object) => {
                let p = self.to_primitive(b, Hint::Default)?;
                self.loose_equals(a, p)
            }
            (Kind::Object, Kind::Number | Kind::String | Kind::BigInt | Kind::Symbol) => {
                let p = self.to_primitive(a, Hint::Default)?;
                self.loose_equals(p, b)
            }
            (Kind::BigInt, Kind::Number) | (Kind::Number, Kind::BigInt) => {
                let (big, n) = if ka == Kind::BigInt { (a, b.number_unchecked()) } else { (b, a.number_unchecked()) };
                let v = &self.heap.get(big.gc::<crate::object::BigIntCell>()).value;
                Ok(ecma::bigint::bigint_equals_number(v, n))
            }
            _ => Ok(false),
        }
    }

    /// The `typeof` string of a value, as an atom value.
    pub(crate) fn type_of(&self, v: Value) -> Value {
        let n = &self.names;
        match v.kind() {
            Kind::Number => n.number.value(),
            Kind::String => n.string.value(),
            Kind::Undefined | Kind::Empty | Kind::Cell => n.undefined.value(),
            Kind::Null => n.object.value(),
            Kind::Boolean => n.boolean.value(),
            Kind::Symbol => n.symbol.value(),
            Kind::BigInt => n.bigint.value(),
            Kind::Object => {
                if self.is_callable(v) {
                    n.function.value()
                } else {
                    n.object.value()
                }
            }
        }
    }

    /// `RequireObjectCoercible`.
    pub(crate) fn require_object_coercible(&mut self, v: Value, what: &str) -> JsResult<Value> {
        if v.is_nullish() {
            return Err(self.throw_type_error(&format!("{what} called on null or undefined")));
        }
        Ok(v)
    }

    /// The `[[Prototype]]` for a new object made by constructor `new_target`, falling back
    /// to intrinsic `default` of the constructor's realm (10.1.14 GetPrototypeFromConstructor).
    pub(crate) fn prototype_from_constructor(&mut self, new_target: Value, default: Intrinsic) -> JsResult<Value> {
        if new_target.is_object() {
            let f: Gc<JsObject> = new_target.gc();
            let shape = self.heap.get(f).shape;
            let index = super::operators::shape_cache_index(shape);
            if let Some((s, loc)) = self.caches.constructor_prototype[index] {
                if s == shape {
                    // (Empty: a lazy `prototype` not made yet, which the [[Get]] below makes.)
                    let p = self.heap.slot_at(f, loc);
                    if p.is_object() {
                        return Ok(p);
                    }
                }
            }
            let key = Key::Name(self.names.prototype);
            let p = self.get(f, key, new_target)?;
            if p.is_object() {
                if let Some((shape, loc)) = self.prototype_slot(f) {
                    self.caches.constructor_prototype[super::operators::shape_cache_index(shape)] = Some((shape, loc));
                }
                return Ok(p);
            }
            let realm = self.function_realm(new_target);
            return Ok(self.realms[realm as usize].intrinsic(default));
        }
        Ok(self.intrinsic(default))
    }

    /// The realm of a function object (7.3.24 GetFunctionRealm).
    pub(crate) fn function_realm(&self, f: Value) -> u32 {
        if !f.is_object() {
            return self.realm;
        }
        let obj: Gc<JsObject> = f.gc();
        match self.heap.object_kind(obj) {
            CellKind::Closure => crate::code::info_realm(self.heap.get(obj.cast::<Closure>()).func),
            CellKind::NativeFunction => self.heap.get(obj.cast::<NativeFunction>()).realm,
            CellKind::BoundFunction => self.function_realm(self.heap.get(obj.cast::<BoundFunction>()).target),
            CellKind::Proxy => match self.proxy_target(obj) {
                Some(t) => self.function_realm(Value::object(t)),
                None => self.realm,
            },
            _ => self.realm,
        }
    }

    /// String concatenation (ropes for long results).
    pub(crate) fn concat_strings(&mut self, a: Value, b: Value) -> JsResult<Value> {
        let (la, lb) = (self.heap.string_len(a), self.heap.string_len(b));
        if la == 0 {
            return Ok(b);
        }
        if lb == 0 {
            return Ok(a);
        }
        if la + lb > crate::string::MAX_STRING_LENGTH {
            return Err(self.throw_range_error("Invalid string length"));
        }
        // Short results are copied (a flat string is smaller than a rope and its pieces);
        // long ones, and appends to a rope (the `s += x` loop), make a rope.
        let left_is_rope = self.heap.kind_of(a.gc::<crate::gc::CellHeader>()) == crate::gc::CellKind::Rope;
        if la + lb < 64 && !left_is_rope {
            let (x, y) = (self.heap.flatten(a), self.heap.flatten(b));
            let one = self.heap.string_is_one_byte(a) && self.heap.string_is_one_byte(b);
            if one {
                let mut buf = [0u8; 64];
                if let (StrView::Latin1(p), StrView::Latin1(q)) = (self.heap.str_view(x), self.heap.str_view(y)) {
                    buf[..la].copy_from_slice(p);
                    buf[la..la + lb].copy_from_slice(q);
                }
                return Ok(Value::string(self.heap.alloc_latin1(&buf[..la + lb])));
            }
            let mut units = self.heap.str_view(x).to_units();
            self.heap.str_view(y).push_units(&mut units);
            return Ok(Value::string(self.heap.alloc_utf16(&units)));
        }
        Ok(Value::string(self.heap.alloc_rope(a, b)))
    }
}
