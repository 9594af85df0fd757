//! ECMAScript semantics of primitive values, for folding at compile time.
//!
//! Everything here must give exactly what the VM gives at run time. Where a result cannot be
//! computed exactly (a huge hexadecimal string, say), the function returns `None` and the
//! caller leaves the instruction alone.

use crate::dump::js_number_to_string;

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

/// 7.1.4 ToNumber on a primitive; `None` when the exact result is not computed here.
pub fn to_number(v: &Prim) -> Option<f64> {
    match v {
        Prim::Undefined => Some(f64::NAN),
        Prim::Null => Some(0.0),
        Prim::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
        Prim::Number(n) => Some(*n),
        Prim::String(s) => string_to_number(s),
    }
}

/// Whether `c` is WhiteSpace or LineTerminator (what StringToNumber trims).
pub fn is_js_whitespace(c: u16) -> bool {
    matches!(
        c,
        0x09 | 0x0A | 0x0B | 0x0C | 0x0D | 0x20 | 0xA0 | 0x1680 | 0x2000
            ..=0x200A | 0x2028 | 0x2029 | 0x202F | 0x205F | 0x3000 | 0xFEFF
    )
}

/// 7.1.4.1.1 StringToNumber: the StringNumericLiteral grammar, or NaN.
pub fn string_to_number(units: &[u16]) -> Option<f64> {
    let start = units.iter().position(|&c| !is_js_whitespace(c)).unwrap_or(units.len());
    let end = units.iter().rposition(|&c| !is_js_whitespace(c)).map_or(start, |e| e + 1);
    let trimmed = &units[start..end];
    // StrWhiteSpace alone is 0.
    if trimmed.is_empty() {
        return Some(0.0);
    }
    let Ok(s) = String::from_utf16(trimmed) else { return Some(f64::NAN) };
    let b = s.as_bytes();
    // NonDecimalIntegerLiteral (no sign allowed).
    if b.len() > 2 && b[0] == b'0' {
        let radix = match b[1] {
            b'x' | b'X' => Some(16),
            b'o' | b'O' => Some(8),
            b'b' | b'B' => Some(2),
            _ => None,
        };
        if let Some(radix) = radix {
            let digits = &s[2..];
            if !digits.chars().all(|c| c.is_digit(radix)) {
                return Some(f64::NAN);
            }
            // Exact while the value fits in 64 bits (the u64 → f64 conversion rounds to
            // nearest, as the spec's mathematical value does).
            return u64::from_str_radix(digits, radix).ok().map(|v| v as f64);
        }
    }
    // StrDecimalLiteral: sign, then Infinity or digits with optional point and exponent.
    let (neg, body) = match b[0] {
        b'+' => (false, &s[1..]),
        b'-' => (true, &s[1..]),
        _ => (false, &s[..]),
    };
    let value = if body == "Infinity" {
        f64::INFINITY
    } else {
        if !is_decimal_literal(body.as_bytes()) {
            return Some(f64::NAN);
        }
        body.parse::<f64>().ok()?
    };
    Some(if neg { -value } else { value })
}

/// StrUnsignedDecimalLiteral without `Infinity`: `1`, `1.`, `.5`, `1.5e-3` (no underscores).
fn is_decimal_literal(b: &[u8]) -> bool {
    let mut i = 0;
    let int_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let int_digits = i - int_start;
    let mut frac_digits = 0;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let f = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        frac_digits = i - f;
    }
    if int_digits == 0 && frac_digits == 0 {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let e = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == e {
            return false;
        }
    }
    i == b.len()
}

/// 7.1.17 ToString on a primitive.
pub fn to_string(v: &Prim) -> Vec<u16> {
    let s: String = match v {
        Prim::Undefined => "undefined".into(),
        Prim::Null => "null".into(),
        Prim::Bool(b) => b.to_string(),
        Prim::Number(n) => js_number_to_string(*n),
        Prim::String(s) => return s.clone(),
    };
    s.encode_utf16().collect()
}

/// 7.1.6 ToInt32.
pub fn to_int32(n: f64) -> i32 {
    to_uint32(n) as i32
}

/// 7.1.7 ToUint32: truncate, then reduce modulo 2^32.
pub fn to_uint32(n: f64) -> u32 {
    if !n.is_finite() {
        return 0;
    }
    let t = n.trunc();
    let m = t.rem_euclid(4294967296.0);
    m as u32
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

/// 7.2.14 IsLooselyEqual on primitives; `None` when a conversion is not computed here.
pub fn loose_equals(a: &Prim, b: &Prim) -> Option<bool> {
    use Prim::*;
    Some(match (a, b) {
        // 1. Same type: IsStrictlyEqual.
        (Undefined, Undefined) | (Null, Null) | (Undefined, Null) | (Null, Undefined) => true,
        (Bool(_), Bool(_)) | (Number(_), Number(_)) | (String(_), String(_)) => strict_equals(a, b),
        // 2-3. null and undefined equal only each other.
        (Undefined | Null, _) | (_, Undefined | Null) => false,
        // 5-6. Number and string: compare as numbers.
        (Number(x), String(s)) | (String(s), Number(x)) => *x == string_to_number(s)?,
        // 9-10. Booleans become numbers first.
        (Bool(x), other) | (other, Bool(x)) => return loose_equals(&Number(if *x { 1.0 } else { 0.0 }), other),
    })
}

/// 7.2.13 IsLessThan on primitives (`a < b`): `Some(None)` is undefined (a NaN was
/// involved), `None` when a conversion is not computed here.
pub fn less_than(a: &Prim, b: &Prim) -> Option<Option<bool>> {
    if let (Prim::String(x), Prim::String(y)) = (a, b) {
        // 3. Both strings: compare code unit sequences.
        return Some(Some(x < y));
    }
    let (x, y) = (to_number(a)?, to_number(b)?);
    if x.is_nan() || y.is_nan() {
        return Some(None);
    }
    Some(Some(x < y))
}

/// 6.1.6.1.3 Number::exponentiate.
pub fn exponentiate(base: f64, exponent: f64) -> f64 {
    // 1-2. NaN exponent gives NaN; a zero exponent gives 1 (even for a NaN base).
    if exponent.is_nan() {
        return f64::NAN;
    }
    if exponent == 0.0 {
        return 1.0;
    }
    // 7-9 (abs(base) is 1 and the exponent infinite): NaN, where IEEE pow gives 1.
    if (base == 1.0 || base == -1.0) && exponent.is_infinite() {
        return f64::NAN;
    }
    base.powf(exponent)
}

/// 6.1.6.1.6 Number::remainder (truncating, sign of the dividend) — Rust's `%` on f64.
pub fn remainder(n: f64, d: f64) -> f64 {
    n % d
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> Vec<u16> {
        text.encode_utf16().collect()
    }

    #[test]
    fn string_to_number_follows_the_grammar() {
        let cases: &[(&str, f64)] = &[
            ("", 0.0),
            ("  \n\t", 0.0),
            ("42", 42.0),
            (" 42 ", 42.0),
            ("-0", -0.0),
            ("+1.5", 1.5),
            (".5", 0.5),
            ("5.", 5.0),
            ("1e3", 1000.0),
            ("1E-3", 0.001),
            ("0x1F", 31.0),
            ("0b101", 5.0),
            ("0o17", 15.0),
            ("Infinity", f64::INFINITY),
            ("-Infinity", f64::NEG_INFINITY),
            ("\u{FEFF}7\u{3000}", 7.0),
        ];
        for &(text, want) in cases {
            let got = string_to_number(&s(text)).unwrap();
            assert!(got == want && got.is_sign_negative() == want.is_sign_negative(), "{text:?}: {got}");
        }
        for text in ["abc", "1e", "e5", ".", "-0x10", "0x", "inf", "infinity", "NaN", "1_000", "0x1g", "+-1", "1 2"] {
            assert!(string_to_number(&s(text)).unwrap().is_nan(), "{text:?}");
        }
        assert_eq!(string_to_number(&s("0x10000000000000000")), None, "too big to convert exactly here");
    }

    #[test]
    fn int32_conversions() {
        assert_eq!(to_int32(4294967296.0 + 5.0), 5);
        assert_eq!(to_int32(2147483648.0), -2147483648);
        assert_eq!(to_int32(-1.5), -1);
        assert_eq!(to_uint32(-1.0), 4294967295);
        assert_eq!(to_int32(f64::NAN), 0);
        assert_eq!(to_int32(1e300), 0);
    }

    #[test]
    fn equality_and_comparison() {
        use Prim::*;
        assert!(loose_equals(&Null, &Undefined).unwrap());
        assert!(!loose_equals(&Null, &Number(0.0)).unwrap());
        assert!(loose_equals(&String(s("1")), &Number(1.0)).unwrap());
        assert!(loose_equals(&Bool(true), &String(s("1"))).unwrap());
        assert!(!loose_equals(&Number(f64::NAN), &Number(f64::NAN)).unwrap());
        assert!(strict_equals(&Number(0.0), &Number(-0.0)));
        assert_eq!(less_than(&String(s("a")), &String(s("b"))), Some(Some(true)));
        assert_eq!(less_than(&String(s("10")), &Number(9.0)), Some(Some(false)));
        assert_eq!(less_than(&Undefined, &Number(9.0)), Some(None));
    }

    #[test]
    fn exponentiation_edge_cases() {
        assert!(exponentiate(1.0, f64::INFINITY).is_nan());
        assert!(exponentiate(1.0, f64::NAN).is_nan());
        assert_eq!(exponentiate(f64::NAN, 0.0), 1.0);
        assert_eq!(exponentiate(2.0, 10.0), 1024.0);
    }
}
