//! ECMAScript semantics of primitive values, for folding at compile time.
//!
//! Everything here must give exactly what the VM gives at run time, so the algorithms on
//! numbers and strings are the VM's own, from `ecma`; this module applies them to the
//! primitives the IR holds. Where a result is not computed here (a comparison of objects,
//! say), the function returns `None` and the caller leaves the instruction alone.

pub use ecma::conv::string_to_number::string_to_number;
pub use ecma::number::{exponentiate, remainder, to_int32, to_uint32};

/// A primitive value with its string as UTF-16 code units.
#[derive(Clone, Debug, PartialEq)]
pub enum Prim {
    /// `undefined`
    Undefined,
    /// `null`
    Null,
    /// A boolean.
    Bool(bool),
    /// A number.
    Number(f64),
    /// A string.
    String(Vec<u16>),
}

/// 7.1.2 ToBoolean.
pub fn to_boolean(v: &Prim) -> bool {
    match v {
        Prim::Undefined | Prim::Null => false,
        Prim::Bool(b) => *b,
        // 2-3. +0, -0 and NaN are false.
        Prim::Number(n) => !(*n == 0.0 || n.is_nan()),
        // 4. The empty string is false.
        Prim::String(s) => !s.is_empty(),
    }
}

/// 7.1.4 ToNumber on a primitive.
pub fn to_number(v: &Prim) -> f64 {
    match v {
        Prim::Undefined => f64::NAN,
        Prim::Null => 0.0,
        Prim::Bool(b) => f64::from(u8::from(*b)),
        Prim::Number(n) => *n,
        Prim::String(s) => string_to_number(s),
    }
}

/// 7.1.17 ToString on a primitive.
pub fn to_string(v: &Prim) -> Vec<u16> {
    let s: String = match v {
        Prim::Undefined => "undefined".into(),
        Prim::Null => "null".into(),
        Prim::Bool(b) => b.to_string(),
        Prim::Number(n) => ecma::conv::number_to_string::number_to_string(*n),
        Prim::String(s) => return s.clone(),
    };
    s.encode_utf16().collect()
}

/// 13.5.3 the `typeof` string of a primitive.
pub fn type_of(v: &Prim) -> &'static str {
    match v {
        Prim::Undefined => "undefined",
        Prim::Null => "object",
        Prim::Bool(_) => "boolean",
        Prim::Number(_) => "number",
        Prim::String(_) => "string",
    }
}

/// 7.2.15 IsStrictlyEqual.
pub fn strict_equals(a: &Prim, b: &Prim) -> bool {
    match (a, b) {
        // Number::equal: NaN is unequal to everything, +0 equals -0.
        (Prim::Number(x), Prim::Number(y)) => x == y,
        _ => a == b,
    }
}

/// 7.2.14 IsLooselyEqual on primitives.
pub fn loose_equals(a: &Prim, b: &Prim) -> bool {
    use Prim::*;
    match (a, b) {
        // 1. Same type: IsStrictlyEqual.
        (Undefined, Undefined) | (Null, Null) | (Undefined, Null) | (Null, Undefined) => true,
        (Bool(_), Bool(_)) | (Number(_), Number(_)) | (String(_), String(_)) => strict_equals(a, b),
        // 2-3. null and undefined equal only each other.
        (Undefined | Null, _) | (_, Undefined | Null) => false,
        // 5-6. Number and string: compare as numbers.
        (Number(x), String(s)) | (String(s), Number(x)) => *x == string_to_number(s),
        // 9-10. Booleans become numbers first.
        (Bool(x), other) | (other, Bool(x)) => loose_equals(&Number(if *x { 1.0 } else { 0.0 }), other),
    }
}

/// 7.2.13 IsLessThan on primitives (`a < b`): `None` is undefined (a NaN was involved).
pub fn less_than(a: &Prim, b: &Prim) -> Option<bool> {
    if let (Prim::String(x), Prim::String(y)) = (a, b) {
        // 3. Both strings: compare code unit sequences.
        return Some(x < y);
    }
    let (x, y) = (to_number(a), to_number(b));
    if x.is_nan() || y.is_nan() {
        return None;
    }
    Some(x < y)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> Vec<u16> {
        text.encode_utf16().collect()
    }

    #[test]
    fn equality_and_comparison() {
        use Prim::*;
        assert!(loose_equals(&Null, &Undefined));
        assert!(!loose_equals(&Null, &Number(0.0)));
        assert!(loose_equals(&String(s("1")), &Number(1.0)));
        assert!(loose_equals(&Bool(true), &String(s("1"))));
        assert!(!loose_equals(&Number(f64::NAN), &Number(f64::NAN)));
        assert!(strict_equals(&Number(0.0), &Number(-0.0)));
        assert_eq!(less_than(&String(s("a")), &String(s("b"))), Some(true));
        assert_eq!(less_than(&String(s("10")), &Number(9.0)), Some(false));
        assert_eq!(less_than(&Undefined, &Number(9.0)), None);
        // Exact where a hand-written parser gave up: 2^64 in hexadecimal.
        assert!(loose_equals(&String(s("0x10000000000000000")), &Number(18446744073709551616.0)));
    }

    #[test]
    fn exponentiation_edge_cases() {
        assert!(exponentiate(1.0, f64::INFINITY).is_nan());
        assert!(exponentiate(1.0, f64::NAN).is_nan());
        assert_eq!(exponentiate(f64::NAN, 0.0), 1.0);
        assert_eq!(exponentiate(2.0, 10.0), 1024.0);
    }
}
