//! Number operations of ECMA-262 6.1.6.1 and the integer conversions of 7.1, on `f64`:
//! what the interpreter computes at run time and the optimizer folds at compile time.

/// ToIntegerOrInfinity on a number.
#[inline]
pub fn integer_or_infinity(n: f64) -> f64 {
    if n.is_nan() {
        0.0
    } else if n.is_infinite() {
        n
    } else {
        n.trunc() + 0.0
    }
}

/// ToInt32 on a number.
#[inline(always)]
pub fn to_int32(n: f64) -> i32 {
    // x86-64's truncating conversion to 64 bits is exact for |n| < 2^63 and gives i64::MIN
    // for everything else (NaN, infinities, larger magnitudes), and ToInt32 of an integer is
    // its low 32 bits: one conversion and one comparison instead of two range checks.
    #[cfg(target_arch = "x86_64")]
    {
        let i = truncate_x86(n);
        if i != i64::MIN {
            return i as i32;
        }
    }
    // Within the i32 range ToInt32 is truncation (the comparisons are false for NaN).
    if n > -2147483649.0 && n < 2147483648.0 {
        // SAFETY: `n` is finite and its truncation is in `i32::MIN..=i32::MAX`.
        return unsafe { n.to_int_unchecked::<i32>() };
    }
    to_int32_slow(n)
}

/// x86-64's truncating conversion (`cvttsd2si` to 64 bits): `n` truncated toward zero when
/// |n| < 2^63, else i64::MIN (NaN, infinities, larger magnitudes). One instruction, where
/// Rust's saturating `as` adds range checks on x86-64.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub fn truncate_x86(n: f64) -> i64 {
    use std::arch::x86_64::{_mm_cvttsd_si64, _mm_set_sd};
    // SAFETY: SSE2, which these need, is part of every x86-64 processor.
    unsafe { _mm_cvttsd_si64(_mm_set_sd(n)) }
}

#[cold]
fn to_int32_slow(n: f64) -> i32 {
    if !n.is_finite() {
        return 0;
    }
    let m = n.trunc() % 4294967296.0;
    let m = if m < 0.0 { m + 4294967296.0 } else { m };
    m as u64 as u32 as i32
}

/// Number::exponentiate (6.1.6.1.3), which differs from `powf` on a few edge cases.
pub fn exponentiate(base: f64, exp: f64) -> f64 {
    if exp.is_nan() {
        return f64::NAN;
    }
    if exp == 0.0 {
        return 1.0;
    }
    if (base == 1.0 || base == -1.0) && exp.is_infinite() {
        return f64::NAN;
    }
    base.powf(exp)
}

/// Number::remainder: `%` with the sign of the dividend.
#[inline]
pub fn remainder(a: f64, b: f64) -> f64 {
    if b.is_infinite() && a.is_finite() {
        return a;
    }
    let r = a % b;
    if r == 0.0 && a.is_sign_negative() {
        -0.0
    } else {
        r
    }
}

/// ToUint32 on a number (7.1.7).
#[inline]
pub fn to_uint32(n: f64) -> u32 {
    to_int32(n) as u32
}

#[cfg(test)]
mod tests {
    use super::to_int32;

    #[test]
    fn to_int32_matches_the_spec() {
        for (n, want) in [
            (0.0, 0),
            (-0.0, 0),
            (1.9, 1),
            (-1.9, -1),
            (2147483647.0, 2147483647),
            (2147483648.0, -2147483648),
            (-2147483648.0, -2147483648),
            (-2147483649.0, 2147483647),
            (4294967296.0 + 5.0, 5),
            (f64::NAN, 0),
            (f64::INFINITY, 0),
            (-1e300, 0),
            (2147483647.5, 2147483647),
            // Around 2^63, where x86-64's conversion stops being exact.
            (-9223372036854775808.0, 0),
            (9223372036854775808.0, 0),
            (-9223372036854774784.0, 1024),
            (9223372036854774784.0, -1024),
            (-(2f64.powi(62) + 2f64.powi(31) * 3.0), -2147483648),
            (4503599627370497.5, 2),
            (-4503599627370497.0, -1),
            (f64::NEG_INFINITY, 0),
        ] {
            assert_eq!(to_int32(n), want, "{n}");
            assert_eq!(to_int32(n), super::to_int32_slow(n), "{n}");
        }
    }
}
