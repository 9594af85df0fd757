//! Number → string conversions: `Number::toString` (shortest round trip), radix
//! conversion, and the fixed-digit formats of `toFixed`, `toExponential` and
//! `toPrecision`.
//!
//! Everything here works on plain `f64` and returns ASCII `String`s; the VM wraps the
//! results into string values and performs the argument coercions and RangeError checks
//! that the builtins' first steps describe.
//!
//! Two digit generators back the formats:
//! - shortest round-trip digits come from `ryu-js` (ECMA-262 6.1.6.1.20 step 5 asks for
//!   the shortest digit string that reads back to the same double, closest to the exact
//!   value on ties; Ryū computes exactly that);
//! - fixed-count digits (toFixed / toExponential(f) / toPrecision) are computed exactly
//!   from the double's binary value with big integers and rounded half up, as those
//!   builtins' "if there are two such n, pick the larger n" steps require. Going through
//!   float formatting shortcuts would round `(1.005).toFixed(2)` or `(8.345).toFixed(2)`
//!   wrongly.

use num_bigint::BigUint;

/// ECMA-262 6.1.6.1.20 Number::toString(x, 10): the canonical JavaScript spelling of a
/// Number (`"0"` for ±0, `"NaN"`, `"Infinity"`, `"1e+21"`, `"1e-7"`, `"0.000001"`, ...).
pub fn number_to_string(x: f64) -> String {
    let mut out = String::new();
    write_number(x, &mut out);
    out
}

/// Appends Number::toString(x, 10) to `out` (see [`number_to_string`]).
pub fn write_number(x: f64, out: &mut String) {
    // Small integers are by far the most common case (array indices, counters).
    if x.fract() == 0.0 && x.abs() < 1e15 {
        // -0 prints as "0" (step 2 of 6.1.6.1.20); `as i64` maps -0.0 to 0.
        let i = x as i64;
        use std::fmt::Write;
        let _ = write!(out, "{i}");
        return;
    }
    // ryu-js follows 6.1.6.1.20 for every range: NaN, ±Infinity, the 1e21 switch to
    // exponent notation, the 1e-7 switch for small numbers and "e+"/"e-" exponents.
    let mut buf = ryu_js::Buffer::new();
    out.push_str(buf.format(x));
}

/// The shortest round-trip decimal digits of a finite, non-zero `|x|`: returns `(digits,
/// n)` with `x = 0.d1d2...dk × 10^n` (the `s`, `k` and `n` of 6.1.6.1.20 step 5).
fn shortest_digits(x: f64) -> (Vec<u8>, i32) {
    debug_assert!(x.is_finite() && x != 0.0);
    let mut buf = ryu_js::Buffer::new();
    let text = buf.format_finite(x.abs());
    // Re-read ryu's JavaScript-formatted output: "123.45", "0.00012", "1.5e+30", "5e-324".
    let (mantissa, exp) = match text.find('e') {
        Some(i) => (&text[..i], text[i + 1..].parse::<i32>().unwrap_or(0)),
        None => (text, 0),
    };
    let mut digits = Vec::with_capacity(17);
    let mut point = None;
    for b in mantissa.bytes() {
        if b == b'.' {
            point = Some(digits.len());
        } else {
            digits.push(b);
        }
    }
    let mut n = point.unwrap_or(digits.len()) as i32 + exp;
    // Drop leading zeros ("0.00012") and trailing zeros ("1200").
    let lead = digits.iter().take_while(|&&d| d == b'0').count();
    digits.drain(..lead);
    n -= lead as i32;
    while digits.last() == Some(&b'0') {
        digits.pop();
    }
    (digits, n)
}

/// The exact value of a finite, positive double as a fraction `num / den` of big integers.
fn exact_fraction(x: f64) -> (BigUint, BigUint) {
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    let (mant, exp) = if biased == 0 { (frac, -1074) } else { (frac | (1u64 << 52), biased - 1075) };
    let mant = BigUint::from(mant);
    if exp >= 0 {
        (mant << exp as usize, BigUint::from(1u32))
    } else {
        (mant, BigUint::from(1u32) << (-exp) as usize)
    }
}

/// `round(num / den)` with ties rounded up (towards the larger n, as the fixed-digit
/// builtins require for non-negative values).
fn div_round_half_up(num: &BigUint, den: &BigUint) -> BigUint {
    let q = num / den;
    let r = num - &q * den;
    if r * 2u32 >= *den {
        q + 1u32
    } else {
        q
    }
}

fn pow10(k: u32) -> BigUint {
    BigUint::from(10u32).pow(k)
}

/// For finite `x > 0`: the integer `n` with exactly `p` digits and the exponent `e` such
/// that `n × 10^(e−p+1) − x` is as close to zero as possible, ties picking the larger n
/// (21.1.3.2 step 11.a, 21.1.3.5 step 9.a). Returns the digits of `n` and `e`.
fn exact_precision_digits(x: f64, p: u32) -> (Vec<u8>, i32) {
    debug_assert!(x.is_finite() && x > 0.0 && p >= 1);
    let (num, den) = exact_fraction(x);
    // Estimate e = floor(log10(x)); the loop corrects an estimate that is off by one.
    let mut e = x.log10().floor() as i32;
    let low = pow10(p - 1);
    let high = pow10(p);
    // The log10 estimate is off by at most one and a rounding carry adds at most one
    // more, so the loop ends within three rounds; the bound only guards against a bug.
    let mut rounds = 0;
    loop {
        let shift = e - p as i32 + 1;
        let n = if shift >= 0 {
            div_round_half_up(&num, &(&den * pow10(shift as u32)))
        } else {
            div_round_half_up(&(&num * pow10((-shift) as u32)), &den)
        };
        rounds += 1;
        if rounds < 8 && n < low {
            e -= 1;
        } else if rounds < 8 && n >= high {
            // Either the estimate was low or rounding carried into a new digit
            // (9.96 with p = 2 → 10 × 10^0): both mean the exponent is one higher.
            e += 1;
        } else {
            debug_assert!(low <= n && n < high, "exponent search failed for {x} with precision {p}");
            return (n.to_string().into_bytes(), e);
        }
    }
}

fn ascii(bytes: Vec<u8>) -> String {
    // All producers in this module emit ASCII digits, signs, '.', and 'e'.
    String::from_utf8(bytes).unwrap_or_default()
}

const RADIX_DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";

/// ECMA-262 21.1.3.6 Number.prototype.toString(radix) for `radix` in 2..=36 (the caller
/// has already checked the range and thrown its RangeError otherwise).
///
/// Radix 10 is Number::toString. For other radixes the spec leaves the digits
/// implementation-approximated; this follows V8's algorithm so that the output matches
/// node: fraction digits are generated only while they are significant for the
/// double's precision (`delta` is half the gap to the next double), the last digit is
/// rounded to even with carries propagated back into the integer part, and integer
/// digits below the double's precision are printed as zeros.
pub fn number_to_string_radix(x: f64, radix: u32) -> String {
    debug_assert!((2..=36).contains(&radix));
    // Out-of-range radixes are the caller's RangeError; clamping keeps this total.
    let radix = radix.clamp(2, 36);
    if radix == 10 || !x.is_finite() {
        return number_to_string(x);
    }
    let negative = x < 0.0;
    let value = x.abs();
    let r = radix as f64;

    let mut integer = value.floor();
    let mut fraction = value - integer;
    // Half the distance to the next double: digits beyond it are noise.
    let next = f64::from_bits(value.to_bits() + 1);
    let mut delta = (0.5 * (next - value)).max(f64::from_bits(1));

    let mut frac_digits: Vec<u8> = Vec::new();
    if fraction >= delta {
        loop {
            fraction *= r;
            delta *= r;
            // fraction < 1, so the digit is below the radix (the product rounds down).
            let digit = (fraction as u32).min(radix - 1);
            frac_digits.push(digit as u8);
            fraction -= digit as f64;
            // Round the last digit (to even on an exact half) when the remainder is
            // more than what the precision can distinguish.
            if (fraction > 0.5 || (fraction == 0.5 && digit & 1 == 1)) && fraction + delta > 1.0 {
                // Increment the written digits, carrying back into the integer part.
                loop {
                    match frac_digits.pop() {
                        None => {
                            integer += 1.0;
                            break;
                        }
                        Some(d) if (d as u32) + 1 < radix => {
                            frac_digits.push(d + 1);
                            break;
                        }
                        Some(_) => {}
                    }
                }
                break;
            }
            if fraction < delta {
                break;
            }
        }
    }

    // Integer digits, least significant first. Digits below 2^53 / radix are not
    // representable and print as zeros.
    let mut int_digits: Vec<u8> = Vec::new();
    let two53 = 9_007_199_254_740_992.0;
    while integer / r >= two53 {
        integer /= r;
        int_digits.push(b'0');
    }
    loop {
        let rem = integer % r;
        int_digits.push(RADIX_DIGITS[rem as usize]);
        integer = (integer - rem) / r;
        if integer <= 0.0 {
            break;
        }
    }

    let mut out = Vec::with_capacity(int_digits.len() + frac_digits.len() + 2);
    if negative {
        out.push(b'-');
    }
    out.extend(int_digits.iter().rev());
    if !frac_digits.is_empty() {
        out.push(b'.');
        out.extend(frac_digits.iter().map(|&d| RADIX_DIGITS[d as usize]));
    }
    ascii(out)
}

/// ECMA-262 21.1.3.3 Number.prototype.toFixed(fractionDigits), steps 6–12, for
/// `fraction_digits` in 0..=100 (the caller performs steps 1–5: thisNumberValue,
/// ToIntegerOrInfinity and the RangeError).
pub fn to_fixed(x: f64, fraction_digits: u32) -> String {
    let f = fraction_digits.min(100);
    // 6. If x is not finite, return Number::toString(x, 10).
    if !x.is_finite() {
        return number_to_string(x);
    }
    // 9. If x < 0, then set s to "-" and x to −x. (−0 is not < 0: it prints "0.00".)
    let (sign, x) = if x < 0.0 { ("-", -x) } else { ("", x) };
    // 10. If x ≥ 10^21, let m be ! ToString(𝔽(x)).
    if x >= 1e21 {
        return format!("{sign}{}", number_to_string(x));
    }
    // 11.a Let n be an integer for which n / 10^f − x is as close to zero as possible;
    //      if there are two such n, pick the larger n.
    let mut m = if x == 0.0 {
        b"0".to_vec()
    } else {
        let (num, den) = exact_fraction(x);
        div_round_half_up(&(num * pow10(f)), &den).to_string().into_bytes()
    };
    // 11.c If f ≠ 0, pad to at least f + 1 digits and insert the point.
    if f != 0 {
        let f = f as usize;
        if m.len() <= f {
            let mut padded = vec![b'0'; f + 1 - m.len()];
            padded.extend_from_slice(&m);
            m = padded;
        }
        let k = m.len();
        m.insert(k - f, b'.');
    }
    format!("{sign}{}", ascii(m))
}

/// Formats an exponent as "e+N" / "e-N" (21.1.3.2 step 13, 21.1.3.5 step 9.c).
fn push_exponent(out: &mut Vec<u8>, e: i32) {
    out.push(b'e');
    out.push(if e >= 0 { b'+' } else { b'-' });
    out.extend_from_slice(e.unsigned_abs().to_string().as_bytes());
}

/// ECMA-262 21.1.3.2 Number.prototype.toExponential(fractionDigits), steps 5 and 7–15.
/// `fraction_digits` is `None` for `undefined` (shortest round-trip digits) and must be
/// in 0..=100 otherwise (the caller has thrown the RangeError of step 6).
pub fn to_exponential(x: f64, fraction_digits: Option<u32>) -> String {
    // 5. If x is not finite, return Number::toString(x, 10).
    if !x.is_finite() {
        return number_to_string(x);
    }
    let mut out = Vec::new();
    // 9. If x < 0, then set s to "-" and x to −x.
    let x = if x < 0.0 {
        out.push(b'-');
        -x
    } else {
        x
    };
    let (digits, e) = if x == 0.0 {
        // 10. If x = 0: m is f + 1 zeros, e = 0.
        (vec![b'0'; fraction_digits.unwrap_or(0).min(100) as usize + 1], 0)
    } else {
        match fraction_digits {
            // 11.a Exactly f + 1 digits, rounded half up.
            Some(f) => exact_precision_digits(x, f.min(100) + 1),
            // 11.b The shortest digits that round-trip.
            None => {
                let (d, n) = shortest_digits(x);
                (d, n - 1)
            }
        }
    };
    // 12. If f ≠ 0, insert the point after the first digit.
    out.push(digits[0]);
    if digits.len() > 1 {
        out.push(b'.');
        out.extend_from_slice(&digits[1..]);
    }
    // 13–14. The exponent with its sign.
    push_exponent(&mut out, e);
    ascii(out)
}

/// ECMA-262 21.1.3.5 Number.prototype.toPrecision(precision), steps 4 and 6–13, for
/// `precision` in 1..=100 (the caller handles `undefined` by ToString, step 2, and
/// throws the RangeError of step 5).
pub fn to_precision(x: f64, precision: u32) -> String {
    // 4. If x is not finite, return Number::toString(x, 10).
    if !x.is_finite() {
        return number_to_string(x);
    }
    let p = precision.clamp(1, 100);
    let mut out = Vec::new();
    // 7. If x < 0, then set s to "-" and x to −x.
    let x = if x < 0.0 {
        out.push(b'-');
        -x
    } else {
        x
    };
    // 8–9.b The p digits of n and the exponent e.
    let (m, e) = if x == 0.0 { (vec![b'0'; p as usize], 0) } else { exact_precision_digits(x, p) };
    let p = p as i32;
    if x != 0.0 && (e < -6 || e >= p) {
        // 9.c Exponential notation.
        out.push(m[0]);
        if p != 1 {
            out.push(b'.');
            out.extend_from_slice(&m[1..]);
        }
        push_exponent(&mut out, e);
    } else if e == p - 1 {
        // 10. All digits are integer digits.
        out.extend_from_slice(&m);
    } else if e >= 0 {
        // 11. Split after e + 1 digits.
        let k = (e + 1) as usize;
        out.extend_from_slice(&m[..k]);
        out.push(b'.');
        out.extend_from_slice(&m[k..]);
    } else {
        // 12. "0." followed by −(e + 1) zeros and the digits.
        out.extend_from_slice(b"0.");
        out.extend(std::iter::repeat_n(b'0', (-(e + 1)) as usize));
        out.extend_from_slice(&m);
    }
    ascii(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn to_string_matches_node() {
        // Expected strings from `node -e 'console.log(String(x))'`.
        let cases: &[(f64, &str)] = &[
            (0.0, "0"),
            (-0.0, "0"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "Infinity"),
            (f64::NEG_INFINITY, "-Infinity"),
            (1.0, "1"),
            (-1.0, "-1"),
            (0.1, "0.1"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1.0 / 3.0, "0.3333333333333333"),
            (123.456, "123.456"),
            (1e21, "1e+21"),
            (999999999999999900000.0, "999999999999999900000"),
            (1e20, "100000000000000000000"),
            (123456789012345680000.0, "123456789012345680000"),
            (1e-6, "0.000001"),
            (1.5e-6, "0.0000015"),
            (1e-7, "1e-7"),
            (-1e-7, "-1e-7"),
            (1.5e-7, "1.5e-7"),
            (5e-324, "5e-324"),
            (f64::MAX, "1.7976931348623157e+308"),
            (2.2250738585072014e-308, "2.2250738585072014e-308"),
            (9007199254740992.0, "9007199254740992"),
            (9007199254740994.0, "9007199254740994"),
            (1e15, "1000000000000000"),
            (-1e15, "-1000000000000000"),
            (123e-20, "1.23e-18"),
            (1.5e300, "1.5e+300"),
            (4294967295.0, "4294967295"),
            (-2147483648.0, "-2147483648"),
            (100.0, "100"),
            (1.7976931348623157e300, "1.7976931348623156e+300"),
            (5e-7, "5e-7"),
            (0.000001234, "0.000001234"),
        ];
        for &(x, expected) in cases {
            assert_eq!(number_to_string(x), expected, "String({x:e})");
        }
    }

    #[test]
    fn to_string_from_bits_matches_node() {
        // Random bit patterns; expected from node: String(new Float64Array(new
        // BigUint64Array([bits]).buffer)[0]).
        let cases: &[(u64, &str)] = &[
            (0x3fb999999999999a, "0.1"),
            (0x4415af1d78b58c40, "100000000000000000000"),
            (0x4415af1d78b58c41, "100000000000000020000"),
            (0x444b1ae4d6e2ef50, "1e+21"),
            (0x444b1ae4d6e2ef4f, "999999999999999900000"),
            (0x3e7ad7f29abcaf48, "1e-7"),
            (0x3e7ad7f29abcaf49, "1.0000000000000001e-7"),
            (0x3eb0c6f7a0b5ed8d, "0.000001"),
            (0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7"),
            (0x0000000000000002, "1e-323"),
            (0x7fefffffffffffff, "1.7976931348623157e+308"),
            (0x8010000000000000, "-2.2250738585072014e-308"),
        ];
        for &(bits, expected) in cases {
            assert_eq!(number_to_string(f64::from_bits(bits)), expected, "bits {bits:#x}");
        }
    }

    #[test]
    fn radix_matches_node() {
        // Expected strings from `node -e 'console.log(x.toString(r))'`.
        let pi = std::f64::consts::PI;
        let cases: &[(f64, u32, &str)] = &[
            (0.5, 2, "0.1"),
            (0.5, 3, "0.1111111111111111111111111111111112"),
            (0.5, 7, "0.3333333333333333334"),
            (0.5, 36, "0.i"),
            (255.0, 16, "ff"),
            (255.0, 2, "11111111"),
            (255.0, 36, "73"),
            (-255.5, 16, "-ff.8"),
            (-255.5, 3, "-100110.11111111111111111111111111112"),
            (1e21, 36, "5v1j4f4ds7c000"),
            (1e21, 16, "3635c9adc5dea00000"),
            (1e21, 7, "5135235413265003022600000"),
            (pi, 7, "3.066365143203613411"),
            (pi, 2, "11.001001000011111101101010100010001000010110100011"),
            (pi, 16, "3.243f6a8885a3"),
            (pi, 36, "3.53i5ab8p5f"),
            (0.1, 2, "0.0001100110011001100110011001100110011001100110011001101"),
            (0.1, 3, "0.0022002200220022002200220022002201"),
            (0.1, 16, "0.1999999999999a"),
            (0.1, 32, "0.36cpj6cpj6d"),
            (0.1, 36, "0.3lllllllllm"),
            (-0.0, 2, "0"),
            (f64::NAN, 2, "NaN"),
            (f64::INFINITY, 16, "Infinity"),
            (f64::NEG_INFINITY, 36, "-Infinity"),
            (1.0 / 3.0, 3, "0.1"),
            (1.0 / 3.0, 16, "0.55555555555554"),
            (1.0 / 3.0, 36, "0.c"),
            (9007199254740992.0, 36, "2gosa7pa2gw"),
            (9007199254740994.0, 3, "1121202011211211122211100012101111"),
            (123.456, 8, "173.3513615237574734"),
            (123.456, 36, "3f.gez4w97ry"),
            (1e-7, 16, "0.000001ad7f29abcaf48"),
            (-1e-7, 36, "-0.000061oezo085tl"),
            (3.5, 7, "3.3333333333333333334"),
            (1234567.891, 36, "qglj.w2qhuti"),
            (0.3, 36, "0.asssssssssp"),
            (0.1 + 0.2, 36, "0.asssssssssv"),
            (0.1 + 0.2, 7, "0.2046204620462046206"),
            (9.5367431640625e-7, 2, "0.00000000000000000001"),
            (9.5367431640625e-7, 36, "0.0001lnxw29"),
            (4294967295.5, 36, "1z141z3.i"),
            (4294967295.5, 7, "211301422353.33333334"),
            (1e300, 36, "fhgyjdfcg7s00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"),
        ];
        for &(x, r, expected) in cases {
            assert_eq!(number_to_string_radix(x, r), expected, "({x:e}).toString({r})");
        }
        assert_eq!(number_to_string_radix(1.000000000000001e21, 36), "5v1j4f4ds7w000");
        assert_eq!(number_to_string_radix(1.000000000000001e21, 16), "3635c9adc5deb00000");
        let tiny = number_to_string_radix(5e-324, 36);
        assert_eq!(tiny.len(), 210);
        assert!(tiny.starts_with("0.000") && tiny.ends_with("0003"));
        let max2 = number_to_string_radix(f64::MAX, 2);
        assert_eq!(max2.len(), 1024);
        assert!(max2.starts_with(&"1".repeat(53)) && max2.ends_with(&"0".repeat(971)));
    }

    #[test]
    fn to_fixed_matches_node() {
        // Expected strings from `node -e 'console.log(x.toFixed(f))'`.
        let cases: &[(f64, u32, &str)] = &[
            (1.005, 2, "1.00"),
            (1.45, 1, "1.4"),
            (0.5, 0, "1"),
            (2.5, 0, "3"),
            (1.5, 0, "2"),
            (-1.5, 0, "-2"),
            (-2.5, 0, "-3"),
            (-0.0, 2, "0.00"),
            (0.0, 0, "0"),
            (-1e-7, 2, "-0.00"),
            (1e21, 2, "1e+21"),
            (-1e21, 2, "-1e+21"),
            (1e20, 2, "100000000000000000000.00"),
            (123.456, 10, "123.4560000000"),
            (0.1, 20, "0.10000000000000000555"),
            (0.1, 100, "0.1000000000000000055511151231257827021181583404541015625000000000000000000000000000000000000000000000"),
            (5e-324, 100, "0.0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"),
            (f64::MAX, 3, "1.7976931348623157e+308"),
            (-1.2345e-10, 5, "-0.00000"),
            (999.995, 2, "1000.00"),
            (0.000001, 7, "0.0000010"),
            (42.0, 0, "42"),
            (1234.5678, 2, "1234.57"),
            (1e-7, 3, "0.000"),
            (0.045, 2, "0.04"),
            (10.235, 2, "10.23"),
            (8.345, 2, "8.35"),
            (9007199254740992.0, 5, "9007199254740992.00000"),
            (f64::NAN, 2, "NaN"),
            (f64::NEG_INFINITY, 2, "-Infinity"),
        ];
        for &(x, f, expected) in cases {
            assert_eq!(to_fixed(x, f), expected, "({x:e}).toFixed({f})");
        }
    }

    #[test]
    fn to_exponential_matches_node() {
        // Expected strings from `node -e 'console.log(x.toExponential(f))'`.
        let pi = std::f64::consts::PI;
        let cases: &[(f64, Option<u32>, &str)] = &[
            (0.0, None, "0e+0"),
            (0.0, Some(2), "0.00e+0"),
            (-0.0, Some(0), "0e+0"),
            (1.0, None, "1e+0"),
            (-1.0, Some(2), "-1.00e+0"),
            (123.456, None, "1.23456e+2"),
            (123.456, Some(0), "1e+2"),
            (123.456, Some(2), "1.23e+2"),
            (123.456, Some(20), "1.23456000000000003070e+2"),
            (0.00015, None, "1.5e-4"),
            (0.00015, Some(0), "1e-4"),
            (0.00015, Some(20), "1.49999999999999986859e-4"),
            (1e21, Some(2), "1.00e+21"),
            (1e-7, Some(20), "9.99999999999999954748e-8"),
            (5e-324, None, "5e-324"),
            (5e-324, Some(2), "4.94e-324"),
            (5e-324, Some(100), "4.9406564584124654417656879286822137236505980261432476442558568250067550727020875186529983636163599238e-324"),
            (f64::MAX, None, "1.7976931348623157e+308"),
            (f64::MAX, Some(0), "2e+308"),
            (f64::MAX, Some(20), "1.79769313486231570815e+308"),
            (pi, None, "3.141592653589793e+0"),
            (pi, Some(20), "3.14159265358979311600e+0"),
            (0.5, None, "5e-1"),
            (2.5, Some(0), "3e+0"),
            (1.25, Some(0), "1e+0"),
            (99.99, Some(2), "1.00e+2"),
            (99.99, Some(20), "9.99899999999999948841e+1"),
            (-1.5e-10, None, "-1.5e-10"),
            (-1.5e-10, Some(0), "-1e-10"),
            (123456789.0, None, "1.23456789e+8"),
            (f64::INFINITY, Some(2), "Infinity"),
            (f64::NAN, None, "NaN"),
        ];
        for &(x, f, expected) in cases {
            assert_eq!(to_exponential(x, f), expected, "({x:e}).toExponential({f:?})");
        }
    }

    #[test]
    fn to_precision_matches_node() {
        // Expected strings from `node -e 'console.log(x.toPrecision(p))'`.
        let pi = std::f64::consts::PI;
        let cases: &[(f64, u32, &str)] = &[
            (0.0, 1, "0"),
            (0.0, 2, "0.0"),
            (-0.0, 5, "0.0000"),
            (0.0, 21, "0.00000000000000000000"),
            (1.0, 5, "1.0000"),
            (-1.0, 21, "-1.00000000000000000000"),
            (123.456, 1, "1e+2"),
            (123.456, 2, "1.2e+2"),
            (123.456, 3, "123"),
            (123.456, 5, "123.46"),
            (123.456, 21, "123.456000000000003070"),
            (0.00015, 1, "0.0001"),
            (0.00015, 21, "0.000149999999999999986859"),
            (1e21, 1, "1e+21"),
            (1e21, 21, "1.00000000000000000000e+21"),
            (1e21, 22, "1000000000000000000000"),
            (1e-7, 5, "1.0000e-7"),
            (5e-324, 2, "4.9e-324"),
            (5e-324, 100, "4.940656458412465441765687928682213723650598026143247644255856825006755072702087518652998363616359924e-324"),
            (f64::MAX, 1, "2e+308"),
            (f64::MAX, 100, "1.797693134862315708145274237317043567980705675258449965989174768031572607800285387605895586327668782e+308"),
            (pi, 1, "3"),
            (pi, 21, "3.14159265358979311600"),
            (0.5, 21, "0.500000000000000000000"),
            (2.5, 1, "3"),
            (1.25, 2, "1.3"),
            (1.35, 2, "1.4"),
            (99.99, 1, "1e+2"),
            (99.99, 2, "1.0e+2"),
            (99.99, 5, "99.990"),
            (-1.5e-10, 2, "-1.5e-10"),
            (123456789.0, 5, "1.2346e+8"),
            (123456789.0, 21, "123456789.000000000000"),
            (0.000001234, 2, "0.0000012"),
            (0.0000001234, 2, "1.2e-7"),
            (f64::NAN, 3, "NaN"),
        ];
        for &(x, p, expected) in cases {
            assert_eq!(to_precision(x, p), expected, "({x:e}).toPrecision({p})");
        }
        // Lengths of toPrecision(100) from node.
        assert_eq!(to_precision(0.00015, 100).len(), 105);
        assert_eq!(to_precision(-1.0, 100).len(), 102);
    }
}
