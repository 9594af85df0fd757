//! BigInt algorithms over `num_bigint::BigInt`: StringToBigInt and the mixed comparisons
//! with Numbers (ECMA-262 7.1.14, 7.2.13, 7.2.14).

use std::cmp::Ordering;

use num_bigint::BigInt;

/// StringToBigInt for the trimmed text of a string (decimal, 0x, 0o, 0b; no sign with a
/// prefix; empty is 0).
pub fn parse_bigint_literal(s: &str) -> Option<BigInt> {
    if s.is_empty() {
        return Some(BigInt::from(0));
    }
    let lower = s.to_ascii_lowercase();
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(rest) = lower.strip_prefix(prefix) {
            if rest.is_empty() {
                return None;
            }
            return BigInt::parse_bytes(rest.as_bytes(), radix);
        }
    }
    let (neg, digits) = match s.as_bytes()[0] {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let v = BigInt::parse_bytes(digits.as_bytes(), 10)?;
    Some(if neg { -v } else { v })
}

/// Compares a BigInt with a Number (None if the number is NaN).
pub fn compare_bigint_number(x: &BigInt, n: f64) -> Option<Ordering> {
    if n.is_nan() {
        return None;
    }
    if n == f64::INFINITY {
        return Some(Ordering::Less);
    }
    if n == f64::NEG_INFINITY {
        return Some(Ordering::Greater);
    }
    let t = n.trunc();
    let tb = bigint_from_integral_f64(t);
    match x.cmp(&tb) {
        Ordering::Equal => {
            if n > t {
                Some(Ordering::Less)
            } else if n < t {
                Some(Ordering::Greater)
            } else {
                Some(Ordering::Equal)
            }
        }
        o => Some(o),
    }
}

/// Whether a BigInt equals a Number.
pub fn bigint_equals_number(x: &BigInt, n: f64) -> bool {
    compare_bigint_number(x, n) == Some(Ordering::Equal)
}

/// The BigInt of an integral finite double.
pub fn bigint_from_integral_f64(t: f64) -> BigInt {
    if t.abs() < 9007199254740992.0 {
        return BigInt::from(t as i64);
    }
    let bits = t.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i64 - 1075;
    let mant = (bits & ((1 << 52) - 1)) | (1 << 52);
    let mut v = BigInt::from(mant);
    if exp > 0 {
        v <<= exp as usize;
    } else {
        v >>= (-exp) as usize;
    }
    if t < 0.0 {
        -v
    } else {
        v
    }
}

/// The Number closest to a BigInt.
pub fn bigint_to_f64(x: &BigInt) -> f64 {
    x.to_string().parse::<f64>().unwrap_or(f64::NAN)
}
