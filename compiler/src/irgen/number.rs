//! Number::toString(10) (ECMA-262 6.1.6.1.20), for numeric property keys and the names
//! they give functions (`{ 1.5() {} }` has a method named "1.5").
//!
//! Rust's `{:e}` formatting yields the shortest digit string that round-trips, which is
//! the `k` digits the specification asks for; only the layout differs.

/// The JavaScript string of `x`.
pub fn number_to_string(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x == 0.0 {
        return "0".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity".into() } else { "-Infinity".into() };
    }
    if x < 0.0 {
        return format!("-{}", number_to_string(-x));
    }
    let sci = format!("{x:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    let e: i32 = exp.parse().unwrap_or(0);
    let k = digits.len() as i32;
    let n = e + 1;
    if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        format!("{}.{}", &digits[..n as usize], &digits[n as usize..])
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let sign = if n - 1 < 0 { '-' } else { '+' };
        let rest = if k > 1 { format!(".{}", &digits[1..]) } else { String::new() };
        format!("{}{rest}e{sign}{}", &digits[..1], (n - 1).abs())
    }
}

#[cfg(test)]
mod tests {
    use super::number_to_string as s;

    #[test]
    fn matches_javascript() {
        assert_eq!(s(1.0), "1");
        assert_eq!(s(-0.0), "0");
        assert_eq!(s(1.5), "1.5");
        assert_eq!(s(0.1), "0.1");
        assert_eq!(s(123456789012345680000.0), "123456789012345680000");
        assert_eq!(s(1e21), "1e+21");
        assert_eq!(s(1.5e-7), "1.5e-7");
        assert_eq!(s(0.000001), "0.000001");
        assert_eq!(s(-42.25), "-42.25");
        assert_eq!(s(f64::NAN), "NaN");
        assert_eq!(s(f64::NEG_INFINITY), "-Infinity");
        assert_eq!(s(5e-324), "5e-324");
        assert_eq!(s(1.7976931348623157e308), "1.7976931348623157e+308");
    }
}
