//! The exact sum of doubles, rounded once, for Math.sumPrecise (21.3.2.34).
//!
//! Shewchuk's algorithm: the running sum is a list of partials, doubles whose exact sum is
//! the sum so far and whose magnitudes do not overlap; adding a value folds it through the
//! list with error-free additions (`two_sum`), keeping every nonzero rounding error as a
//! partial. A finite sum can pass through values past the largest double (1e308 + 1e308 -
//! 1e308), so when an addition overflows, 2^1024 is taken out of it and counted in
//! `overflow`; the partials then hold the sum minus `overflow` * 2^1024.

/// 2^1023, half of the overflow unit 2^1024.
const HALF_OVERFLOW: f64 = 8.98846567431158e307;
/// The unit in the last place of the largest finite double (2^971).
const MAX_ULP: f64 = f64::MAX - 1.7976931348623155e308;

/// `a + b` rounded and its rounding error, for `|a| >= |b|` (or `a` zero).
fn fast_two_sum(a: f64, b: f64) -> (f64, f64) {
    let hi = a + b;
    (hi, b - (hi - a))
}

/// A sum of finite doubles, kept exactly.
#[derive(Clone, Debug, Default)]
pub struct ExactSum {
    partials: Vec<f64>,
    overflow: i64,
}

impl ExactSum {
    /// An empty sum (of value zero).
    pub fn new() -> ExactSum {
        ExactSum::default()
    }

    /// Adds a finite `x`.
    pub fn add(&mut self, mut x: f64) {
        debug_assert!(x.is_finite());
        let mut kept = 0;
        for j in 0..self.partials.len() {
            let mut y = self.partials[j];
            if x.abs() < y.abs() {
                std::mem::swap(&mut x, &mut y);
            }
            let (mut hi, mut lo) = fast_two_sum(x, y);
            if hi.is_infinite() {
                // Two finite doubles overflowed, so the larger, `x`, is at least 2^1023 in
                // magnitude: taking 2^1023 from it twice is exact (Sterbenz) and leaves it
                // below 2^1023, so the addition done again stays finite.
                let sign = hi.signum();
                self.overflow += sign as i64;
                x = (x - sign * HALF_OVERFLOW) - sign * HALF_OVERFLOW;
                if x.abs() < y.abs() {
                    std::mem::swap(&mut x, &mut y);
                }
                (hi, lo) = fast_two_sum(x, y);
            }
            if lo != 0.0 {
                self.partials[kept] = lo;
                kept += 1;
            }
            x = hi;
        }
        self.partials.truncate(kept);
        if x != 0.0 {
            self.partials.push(x);
        }
    }

    /// The sum rounded to the nearest double (ties to even): infinite when it is past
    /// the largest double by half a unit or more, +0 when it is zero.
    pub fn round(mut self) -> f64 {
        let p = &mut self.partials;
        // The partials not yet added are p[..n]; the largest is p[n - 1].
        let mut n = p.len();
        let mut hi = 0.0;
        let mut lo = 0.0;
        if self.overflow != 0 {
            let ov = self.overflow;
            let next = if n > 0 {
                n -= 1;
                p[n]
            } else {
                0.0
            };
            // The partials other than the largest are too small to bring the sum back
            // from 2^1024 or beyond unless the largest points the other way.
            if ov.abs() > 1 || (ov > 0 && next > 0.0) || (ov < 0 && next < 0.0) {
                return if ov > 0 { f64::INFINITY } else { f64::NEG_INFINITY };
            }
            // ±2^1024 + next, computed at half scale so that it stays finite.
            let (h, l) = fast_two_sum(ov as f64 * HALF_OVERFLOW, next / 2.0);
            if (2.0 * h).is_infinite() {
                // The sum is 2^1024 - MAX_ULP / 2 (halfway between the largest double
                // and 2^1024, which ties to 2^1024: infinity) or above, unless it is
                // exactly halfway and the rest of the partials pull it down.
                let halfway = 2.0 * l == -h.signum() * (MAX_ULP / 2.0);
                let pulled_back = n > 0 && p[n - 1].signum() == -h.signum();
                return if halfway && pulled_back { h.signum() * f64::MAX } else { h.signum() * f64::INFINITY };
            }
            hi = 2.0 * h;
            if l != 0.0 {
                // The error goes back in the place of `next`.
                p[n] = 2.0 * l;
                n += 1;
            }
        }
        // Add the partials from the largest down until one addition is inexact: its error
        // is then below half a unit of `hi`, and so are all the smaller partials together.
        while n > 0 {
            n -= 1;
            (hi, lo) = fast_two_sum(hi, p[n]);
            if lo != 0.0 {
                break;
            }
        }
        // Exactly halfway between two doubles (the error is half a unit of `hi`): the next
        // partial down decides which way, if it points the same way as the error.
        if n > 0 && ((lo < 0.0 && p[n - 1] < 0.0) || (lo > 0.0 && p[n - 1] > 0.0)) {
            let y = 2.0 * lo;
            let x = hi + y;
            if x - hi == y {
                hi = x;
            }
        }
        hi
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sum(values: &[f64]) -> f64 {
        let mut s = ExactSum::new();
        for &v in values {
            s.add(v);
        }
        s.round()
    }

    #[test]
    fn sums_are_exact_then_rounded_once() {
        assert_eq!(sum(&[]), 0.0);
        assert!(sum(&[0.0, -0.0]).is_sign_positive());
        assert_eq!(sum(&[0.1; 10]), 1.0);
        assert_eq!(sum(&[1e30, 0.1, -1e30]), 0.1);
        assert_eq!(sum(&[1e308, 1e308, -1e308]), 1e308);
        assert_eq!(sum(&[1e308, 1e308, 0.1, 0.1, 1e30, 0.1, -1e30, -1e308, -1e308]), 0.30000000000000004);
        // Ties go to even: 2^53 + 1 is halfway, and the partial below decides.
        let two53 = 9007199254740992.0;
        assert_eq!(sum(&[two53, 1.0]), two53);
        assert_eq!(sum(&[two53, 1.0, 1e-10]), two53 + 2.0);
        assert_eq!(sum(&[two53, 1.0, -1e-10]), two53);
    }

    #[test]
    fn overflow_past_the_largest_double() {
        assert_eq!(HALF_OVERFLOW, 2f64.powi(1023));
        assert_eq!(MAX_ULP, 2f64.powi(971));
        assert_eq!(sum(&[f64::MAX, f64::MAX]), f64::INFINITY);
        assert_eq!(sum(&[-f64::MAX, -f64::MAX, f64::MAX]), -f64::MAX);
        // Half a unit above the largest double ties to infinity; a little less stays.
        assert_eq!(sum(&[f64::MAX, MAX_ULP / 2.0]), f64::INFINITY);
        assert_eq!(sum(&[f64::MAX, MAX_ULP / 2.0, -1e-300]), f64::MAX);
        assert_eq!(sum(&[8.98846567431158e307, 8.988465674311579e307, -1.7976931348623157e308]), 9.9792015476736e291);
    }
}
