//! Date time values: the arithmetic of ECMA-262 21.4.1 and the string formats of
//! `Date.prototype.toString` and friends (21.4.4).
//!
//! A time value is an `f64` count of milliseconds since 1970-01-01T00:00:00Z, NaN for
//! an invalid date, within ±8.64e15 after TimeClip. Every function here is a plain
//! function of numbers; the Date builtins do the argument coercions.
//!
//! Local time: LocalTZA (21.4.1.25) is fixed at 0, so local time is UTC and the zone
//! prints as `GMT+0000 (Coordinated Universal Time)`. Honouring the host zone would
//! need a TZif reader for /etc/localtime and the tz database (with historical
//! offsets and daylight saving rules); until then Iris behaves like node run with
//! `TZ=UTC`, which is also what the machines we test on use. The offset is taken from
//! [`local_tza`] everywhere, so a real zone only has to change that function (and
//! [`TIME_ZONE_NAME`]).
//!
//! `Date.parse` lives in [`super::date_parse`] and is re-exported here as [`parse`].

pub use super::date_parse::parse;

/// 21.4.1.3 msPerDay.
pub const MS_PER_DAY: f64 = 86_400_000.0;
/// 21.4.1.14 msPerHour.
pub const MS_PER_HOUR: f64 = 3_600_000.0;
/// 21.4.1.14 msPerMinute.
pub const MS_PER_MINUTE: f64 = 60_000.0;
/// 21.4.1.14 msPerSecond.
pub const MS_PER_SECOND: f64 = 1000.0;
/// 21.4.1.1: time values are within ±8.64e15 ms of the epoch (±100,000,000 days).
pub const MAX_TIME: f64 = 8.64e15;

/// The name printed by TimeZoneString after the offset (see the module doc).
pub const TIME_ZONE_NAME: &str = "Coordinated Universal Time";

/// Floor division on whole doubles, for the day/year formulas.
#[inline]
fn floor_div(a: f64, b: f64) -> f64 {
    (a / b).floor()
}

/// The mathematical `a modulo b` (result has the sign of `b`), 5.2.5.
#[inline]
fn modulo(a: f64, b: f64) -> f64 {
    let r = a % b;
    if r != 0.0 && (r < 0.0) != (b < 0.0) {
        r + b
    } else {
        r + 0.0
    }
}

/// 7.1.5 ToIntegerOrInfinity on a number (NaN → 0, truncation toward zero, −0 → +0).
#[inline]
fn to_integer_or_infinity(x: f64) -> f64 {
    if x.is_nan() {
        0.0
    } else {
        x.trunc() + 0.0
    }
}

/// 21.4.1.3 Day(t): the day number of a time value.
pub fn day(t: f64) -> f64 {
    floor_div(t, MS_PER_DAY)
}

/// 21.4.1.4 TimeWithinDay(t): milliseconds since the start of the day.
pub fn time_within_day(t: f64) -> f64 {
    modulo(t, MS_PER_DAY)
}

/// 21.4.1.5 DaysInYear(y).
pub fn days_in_year(y: f64) -> f64 {
    if modulo(y, 4.0) != 0.0 {
        365.0
    } else if modulo(y, 100.0) != 0.0 {
        366.0
    } else if modulo(y, 400.0) != 0.0 {
        365.0
    } else {
        366.0
    }
}

/// 21.4.1.6 DayFromYear(y): the day number of the first day of year y.
pub fn day_from_year(y: f64) -> f64 {
    365.0 * (y - 1970.0) + floor_div(y - 1969.0, 4.0) - floor_div(y - 1901.0, 100.0) + floor_div(y - 1601.0, 400.0)
}

/// 21.4.1.7 TimeFromYear(y).
pub fn time_from_year(y: f64) -> f64 {
    MS_PER_DAY * day_from_year(y)
}

/// 21.4.1.8 YearFromTime(t): the largest integral y with TimeFromYear(y) ≤ t. NaN for
/// a `t` that is not finite or is far outside the range of time values (the spec only
/// applies it to time values and local times).
pub fn year_from_time(t: f64) -> f64 {
    if !t.is_finite() || t.abs() > 2.0 * MAX_TIME {
        return f64::NAN;
    }
    // An estimate from the mean Gregorian year, corrected by at most a step or two.
    let mut y = (t / (MS_PER_DAY * 365.2425)).floor() + 1970.0;
    while time_from_year(y) > t {
        y -= 1.0;
    }
    while time_from_year(y + 1.0) <= t {
        y += 1.0;
    }
    y
}

/// 21.4.1.9 DayWithinYear(t).
pub fn day_within_year(t: f64) -> f64 {
    day(t) - day_from_year(year_from_time(t))
}

/// 21.4.1.10 InLeapYear(t).
pub fn in_leap_year(t: f64) -> bool {
    days_in_year(year_from_time(t)) == 366.0
}

/// Cumulative days before each month in a common year; a leap year adds one from March.
const MONTH_STARTS: [f64; 13] = [0.0, 31.0, 59.0, 90.0, 120.0, 151.0, 181.0, 212.0, 243.0, 273.0, 304.0, 334.0, 365.0];

/// The first day within the year of month `m` (0–11).
fn month_start(m: usize, leap: bool) -> f64 {
    MONTH_STARTS[m] + if leap && m >= 2 { 1.0 } else { 0.0 }
}

/// 21.4.1.11 MonthFromTime(t): 0 (January) to 11 (December).
pub fn month_from_time(t: f64) -> f64 {
    let d = day_within_year(t);
    let leap = in_leap_year(t);
    (0..12).rev().find(|&m| d >= month_start(m, leap)).unwrap_or(0) as f64
}

/// 21.4.1.12 DateFromTime(t): the day of the month, 1 to 31.
pub fn date_from_time(t: f64) -> f64 {
    let m = month_from_time(t) as usize;
    day_within_year(t) - month_start(m, in_leap_year(t)) + 1.0
}

/// 21.4.1.13 WeekDay(t): 0 (Sunday) to 6 (Saturday).
pub fn week_day(t: f64) -> f64 {
    modulo(day(t) + 4.0, 7.0)
}

/// 21.4.1.14 HourFromTime(t).
pub fn hour_from_time(t: f64) -> f64 {
    modulo(floor_div(t, MS_PER_HOUR), 24.0)
}

/// 21.4.1.14 MinFromTime(t).
pub fn min_from_time(t: f64) -> f64 {
    modulo(floor_div(t, MS_PER_MINUTE), 60.0)
}

/// 21.4.1.14 SecFromTime(t).
pub fn sec_from_time(t: f64) -> f64 {
    modulo(floor_div(t, MS_PER_SECOND), 60.0)
}

/// 21.4.1.14 msFromTime(t).
pub fn ms_from_time(t: f64) -> f64 {
    modulo(t, MS_PER_SECOND)
}

/// 21.4.1.27 MakeTime(hour, min, sec, ms).
pub fn make_time(hour: f64, min: f64, sec: f64, ms: f64) -> f64 {
    // 1. If any argument is not finite, return NaN.
    if !(hour.is_finite() && min.is_finite() && sec.is_finite() && ms.is_finite()) {
        return f64::NAN;
    }
    // 2–5. Integer parts.
    let (h, m, s, milli) = (
        to_integer_or_infinity(hour),
        to_integer_or_infinity(min),
        to_integer_or_infinity(sec),
        to_integer_or_infinity(ms),
    );
    // 6. t = ((h × msPerHour + m × msPerMinute) + s × msPerSecond) + milli, in IEEE
    //    double arithmetic.
    ((h * MS_PER_HOUR + m * MS_PER_MINUTE) + s * MS_PER_SECOND) + milli
}

/// 21.4.1.28 MakeDay(year, month, date): the day number of the given date, where
/// month may be outside 0–11 and date outside 1–31 (they carry over).
pub fn make_day(year: f64, month: f64, date: f64) -> f64 {
    // 1. If any argument is not finite, return NaN.
    if !(year.is_finite() && month.is_finite() && date.is_finite()) {
        return f64::NAN;
    }
    // 2–4. Integer parts.
    let (y, m, dt) = (to_integer_or_infinity(year), to_integer_or_infinity(month), to_integer_or_infinity(date));
    // 5. ym = y + floor(m / 12); 6. if ym is not finite, return NaN.
    let ym = y + floor_div(m, 12.0);
    // 8. Find a finite time value t with YearFromTime(t) = ym, MonthFromTime(t) = mn and
    //    DateFromTime(t) = 1; if impossible (the year is far outside the range of time
    //    values), return NaN. Years beyond ±400,000 cannot make a valid date even with
    //    an extreme date offset, and bounding them keeps the arithmetic exact.
    if !ym.is_finite() || ym.abs() > 400_000.0 {
        return f64::NAN;
    }
    // 7. mn = m modulo 12.
    let mn = modulo(m, 12.0) as usize;
    let leap = days_in_year(ym) == 366.0;
    // 9. Return Day(t) + dt − 1.
    day_from_year(ym) + month_start(mn, leap) + dt - 1.0
}

/// 21.4.1.29 MakeDate(day, time).
pub fn make_date(day: f64, time: f64) -> f64 {
    // 1. If day or time is not finite, return NaN.
    if !(day.is_finite() && time.is_finite()) {
        return f64::NAN;
    }
    // 2. tv = day × msPerDay + time; 3. if tv is not finite, return NaN.
    let tv = day * MS_PER_DAY + time;
    if tv.is_finite() {
        tv
    } else {
        f64::NAN
    }
}

/// 21.4.1.30 MakeFullYear(year): two-digit years 0–99 mean 1900–1999 (used by the Date
/// constructor and Date.UTC).
pub fn make_full_year(year: f64) -> f64 {
    if year.is_nan() {
        return f64::NAN;
    }
    let truncated = to_integer_or_infinity(year);
    if (0.0..=99.0).contains(&truncated) {
        1900.0 + truncated
    } else {
        truncated
    }
}

/// 21.4.1.31 TimeClip(time).
pub fn time_clip(time: f64) -> f64 {
    // 1. If time is not finite, return NaN; 2. if abs(time) > 8.64e15, return NaN.
    if !time.is_finite() || time.abs() > MAX_TIME {
        return f64::NAN;
    }
    // 3. Return 𝔽(! ToIntegerOrInfinity(time)) (−0 becomes +0).
    to_integer_or_infinity(time)
}

/// 21.4.1.25 LocalTZA(t, isUTC): the local time zone offset in milliseconds. Fixed at
/// 0 (UTC); see the module doc.
pub fn local_tza(_t: f64, _is_utc: bool) -> f64 {
    0.0
}

/// 21.4.1.26 LocalTime(t).
pub fn local_time(t: f64) -> f64 {
    t + local_tza(t, true)
}

/// 21.4.1.27 UTC(t): the time value of local time `t`.
pub fn utc(t: f64) -> f64 {
    if !t.is_finite() {
        return f64::NAN;
    }
    t - local_tza(t, false)
}

/// 21.4.4.41.4 (Table 63) day names.
pub(super) const WEEK_DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
/// 21.4.4.41.4 (Table 64) month names.
pub(super) const MONTHS: [&str; 12] =
    ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/// The broken-down fields of a (finite) time value.
struct Fields {
    year: i64,
    month: usize,
    date: u32,
    week_day: usize,
    hour: u32,
    minute: u32,
    second: u32,
    ms: u32,
}

/// Whether a time value can be formatted: finite and within the TimeClip range (the
/// only values a Date object holds besides NaN).
fn is_valid(tv: f64) -> bool {
    tv.is_finite() && tv.abs() <= MAX_TIME
}

fn fields(t: f64) -> Fields {
    Fields {
        year: year_from_time(t) as i64,
        month: month_from_time(t) as usize,
        date: date_from_time(t) as u32,
        week_day: week_day(t) as usize,
        hour: hour_from_time(t) as u32,
        minute: min_from_time(t) as u32,
        second: sec_from_time(t) as u32,
        ms: ms_from_time(t) as u32,
    }
}

/// The year as DateString prints it: sign for negatives, at least four digits.
fn padded_year(year: i64) -> String {
    let sign = if year < 0 { "-" } else { "" };
    format!("{sign}{:04}", year.unsigned_abs())
}

/// 21.4.4.41.2 TimeString(tv): "HH:mm:ss GMT".
fn time_string(f: &Fields) -> String {
    format!("{:02}:{:02}:{:02} GMT", f.hour, f.minute, f.second)
}

/// 21.4.4.41.3 DateString(tv): "Www Mmm DD YYYY".
fn date_string(f: &Fields) -> String {
    format!("{} {} {:02} {}", WEEK_DAYS[f.week_day], MONTHS[f.month], f.date, padded_year(f.year))
}

/// 21.4.4.41.4 TimeZoneString(tv): "+HHMM (name)".
fn time_zone_string(tv: f64) -> String {
    // 1–6. offset = LocalTZA(tv, true), formatted as sign, hours, minutes.
    let offset = local_tza(tv, true);
    let sign = if offset >= 0.0 { '+' } else { '-' };
    let abs = offset.abs();
    let hours = (abs / MS_PER_HOUR).floor() as u32;
    let minutes = min_from_time(abs) as u32;
    // 7–10. An implementation-defined zone name in parentheses.
    format!("{sign}{hours:02}{minutes:02} ({TIME_ZONE_NAME})")
}

/// 21.4.4.41.1 ToDateString(tv) — `Date.prototype.toString` and `String(date)`:
/// "Sun Nov 22 2026 08:00:00 GMT+0000 (Coordinated Universal Time)", or
/// "Invalid Date".
pub fn to_date_string(tv: f64) -> String {
    // 1–2. If tv is NaN, return "Invalid Date" (also for values no Date can hold).
    if !is_valid(tv) {
        return "Invalid Date".to_owned();
    }
    // 3. t = LocalTime(tv); 4. DateString(t) " " TimeString(t) TimeZoneString(tv).
    let f = fields(local_time(tv));
    format!("{} {}{}", date_string(&f), time_string(&f), time_zone_string(tv))
}

/// 21.4.4.35 Date.prototype.toDateString: "Sun Nov 22 2026" or "Invalid Date".
pub fn to_date_only_string(tv: f64) -> String {
    if !is_valid(tv) {
        return "Invalid Date".to_owned();
    }
    date_string(&fields(local_time(tv)))
}

/// 21.4.4.42 Date.prototype.toTimeString: "08:00:00 GMT+0000 (Coordinated Universal
/// Time)" or "Invalid Date".
pub fn to_time_string(tv: f64) -> String {
    if !is_valid(tv) {
        return "Invalid Date".to_owned();
    }
    let f = fields(local_time(tv));
    format!("{}{}", time_string(&f), time_zone_string(tv))
}

/// 21.4.4.43 Date.prototype.toUTCString: "Sun, 22 Nov 2026 08:00:00 GMT" or "Invalid
/// Date".
pub fn to_utc_string(tv: f64) -> String {
    if !is_valid(tv) {
        return "Invalid Date".to_owned();
    }
    // 4–10. "Www, DD Mmm YYYY" then TimeString(tv).
    let f = fields(tv);
    format!("{}, {:02} {} {} {}", WEEK_DAYS[f.week_day], f.date, MONTHS[f.month], padded_year(f.year), time_string(&f))
}

/// 21.4.4.36 Date.prototype.toISOString: "2026-11-22T08:00:00.000Z", with a signed
/// six-digit year outside 0–9999. Returns `None` for a non-finite time value (the
/// builtin throws a RangeError).
pub fn to_iso_string(tv: f64) -> Option<String> {
    if !is_valid(tv) {
        return None;
    }
    let f = fields(tv);
    let year = if (0..=9999).contains(&f.year) {
        format!("{:04}", f.year)
    } else {
        format!("{}{:06}", if f.year < 0 { '-' } else { '+' }, f.year.unsigned_abs())
    };
    Some(format!("{year}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", f.month + 1, f.date, f.hour, f.minute, f.second, f.ms))
}

/// The year as en-US locale formats print it: years before 1 count backwards as in
/// the era calendar (0 → 1, −1 → 2), without the era name.
fn locale_year(year: i64) -> i64 {
    if year <= 0 {
        1 - year
    } else {
        year
    }
}

/// `Date.prototype.toLocaleDateString` in node's default en-US locale: "11/22/2026".
pub fn to_locale_date_string(tv: f64) -> String {
    if !is_valid(tv) {
        return "Invalid Date".to_owned();
    }
    let f = fields(local_time(tv));
    format!("{}/{}/{}", f.month + 1, f.date, locale_year(f.year))
}

/// `Date.prototype.toLocaleTimeString` in node's default en-US locale: "8:00:00 AM".
pub fn to_locale_time_string(tv: f64) -> String {
    if !is_valid(tv) {
        return "Invalid Date".to_owned();
    }
    let f = fields(local_time(tv));
    let hour12 = match f.hour % 12 {
        0 => 12,
        h => h,
    };
    let meridiem = if f.hour < 12 { "AM" } else { "PM" };
    format!("{hour12}:{:02}:{:02} {meridiem}", f.minute, f.second)
}

/// `Date.prototype.toLocaleString` in node's default en-US locale: "11/22/2026,
/// 8:00:00 AM".
pub fn to_locale_string(tv: f64) -> String {
    if !is_valid(tv) {
        return "Invalid Date".to_owned();
    }
    format!("{}, {}", to_locale_date_string(tv), to_locale_time_string(tv))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_extraction_matches_node() {
        // [t, getUTCFullYear, getUTCMonth, getUTCDate, getUTCDay, getUTCHours] from node.
        let cases: &[(f64, f64, f64, f64, f64, f64)] = &[
            (0.0, 1970.0, 0.0, 1.0, 4.0, 0.0),
            (1795334400000.0, 2026.0, 10.0, 22.0, 0.0, 8.0),
            (-1.0, 1969.0, 11.0, 31.0, 3.0, 23.0),
            (8.64e15, 275760.0, 8.0, 13.0, 6.0, 0.0),
            (-8.64e15, -271821.0, 3.0, 20.0, 2.0, 0.0),
            (951782400000.0, 2000.0, 1.0, 29.0, 2.0, 0.0),
            (-62198755200000.0, -1.0, 0.0, 1.0, 5.0, 0.0),
            (-62167219200000.0, 0.0, 0.0, 1.0, 6.0, 0.0),
            (-62167219200001.0, -1.0, 11.0, 31.0, 5.0, 23.0),
            (253402300800000.0, 10000.0, 0.0, 1.0, 6.0, 0.0),
            (-1234567890123.0, 1930.0, 10.0, 18.0, 2.0, 0.0),
        ];
        for &(t, y, m, d, wd, h) in cases {
            assert_eq!(
                (year_from_time(t), month_from_time(t), date_from_time(t), week_day(t), hour_from_time(t)),
                (y, m, d, wd, h),
                "t = {t}"
            );
        }
        assert_eq!(ms_from_time(-1.0), 999.0);
        assert_eq!(sec_from_time(-1.0), 59.0);
        assert_eq!(min_from_time(-1.0), 59.0);
        assert_eq!(time_within_day(-1.0), 86_399_999.0);
        assert_eq!(days_in_year(1900.0), 365.0);
        assert_eq!(days_in_year(2000.0), 366.0);
        assert_eq!(days_in_year(-4.0), 366.0);
    }

    #[test]
    fn make_functions() {
        // Date.UTC(2026, 10, 22, 8) === 1795334400000 in node.
        assert_eq!(make_date(make_day(2026.0, 10.0, 22.0), make_time(8.0, 0.0, 0.0, 0.0)), 1795334400000.0);
        // Month and date overflow carry: Date.UTC(2025, 22, 22, 8) is the same instant;
        // Date.UTC(2026, 11, 32) === Date.UTC(2027, 0, 1) === 1798761600000.
        assert_eq!(make_date(make_day(2025.0, 22.0, 22.0), make_time(8.0, 0.0, 0.0, 0.0)), 1795334400000.0);
        assert_eq!(make_date(make_day(2026.0, 11.0, 32.0), 0.0), 1798761600000.0);
        // Negative months: Date.UTC(2026, -1, 1) === 1764547200000 (Dec 1 2025).
        assert_eq!(make_date(make_day(2026.0, -1.0, 1.0), 0.0), 1764547200000.0);
        // Fractions truncate: Date.UTC(2026.9, 10.9, 22.9, 8.9, 0.9, 0.9, 0.9).
        assert_eq!(make_date(make_day(2026.9, 10.9, 22.9), make_time(8.9, 0.9, 0.9, 0.9)), 1795334400000.0);
        assert!(make_day(f64::NAN, 0.0, 1.0).is_nan());
        assert!(make_day(1e20, 0.0, 1.0).is_nan());
        assert!(make_time(f64::INFINITY, 0.0, 0.0, 0.0).is_nan());
        assert!(make_date(1e306, 0.0).is_nan());
        assert_eq!(make_date(1e300, 1e300), 1e300 * MS_PER_DAY + 1e300);
        assert_eq!(make_full_year(99.0), 1999.0);
        assert_eq!(make_full_year(100.0), 100.0);
        assert_eq!(make_full_year(-1.5), -1.0);
        assert_eq!(time_clip(8.64e15), 8.64e15);
        assert!(time_clip(8.64e15 + 1.0).is_nan());
        let z = time_clip(-0.0);
        assert!(z == 0.0 && z.is_sign_positive());
        assert_eq!(time_clip(1.7), 1.0);
    }

    #[test]
    fn formats_match_node() {
        // [t, toString, toDateString, toTimeString, toUTCString, toISOString] from node
        // with TZ=UTC.
        let cases: &[(f64, &str, &str, &str, &str, &str)] = &[
            (
                0.0,
                "Thu Jan 01 1970 00:00:00 GMT+0000 (Coordinated Universal Time)",
                "Thu Jan 01 1970",
                "00:00:00 GMT+0000 (Coordinated Universal Time)",
                "Thu, 01 Jan 1970 00:00:00 GMT",
                "1970-01-01T00:00:00.000Z",
            ),
            (
                1795334400000.0,
                "Sun Nov 22 2026 08:00:00 GMT+0000 (Coordinated Universal Time)",
                "Sun Nov 22 2026",
                "08:00:00 GMT+0000 (Coordinated Universal Time)",
                "Sun, 22 Nov 2026 08:00:00 GMT",
                "2026-11-22T08:00:00.000Z",
            ),
            (
                -1.0,
                "Wed Dec 31 1969 23:59:59 GMT+0000 (Coordinated Universal Time)",
                "Wed Dec 31 1969",
                "23:59:59 GMT+0000 (Coordinated Universal Time)",
                "Wed, 31 Dec 1969 23:59:59 GMT",
                "1969-12-31T23:59:59.999Z",
            ),
            (
                8.64e15,
                "Sat Sep 13 275760 00:00:00 GMT+0000 (Coordinated Universal Time)",
                "Sat Sep 13 275760",
                "00:00:00 GMT+0000 (Coordinated Universal Time)",
                "Sat, 13 Sep 275760 00:00:00 GMT",
                "+275760-09-13T00:00:00.000Z",
            ),
            (
                -8.64e15,
                "Tue Apr 20 -271821 00:00:00 GMT+0000 (Coordinated Universal Time)",
                "Tue Apr 20 -271821",
                "00:00:00 GMT+0000 (Coordinated Universal Time)",
                "Tue, 20 Apr -271821 00:00:00 GMT",
                "-271821-04-20T00:00:00.000Z",
            ),
            (
                -62198755200000.0,
                "Fri Jan 01 -0001 00:00:00 GMT+0000 (Coordinated Universal Time)",
                "Fri Jan 01 -0001",
                "00:00:00 GMT+0000 (Coordinated Universal Time)",
                "Fri, 01 Jan -0001 00:00:00 GMT",
                "-000001-01-01T00:00:00.000Z",
            ),
            (
                -62167219200000.0,
                "Sat Jan 01 0000 00:00:00 GMT+0000 (Coordinated Universal Time)",
                "Sat Jan 01 0000",
                "00:00:00 GMT+0000 (Coordinated Universal Time)",
                "Sat, 01 Jan 0000 00:00:00 GMT",
                "0000-01-01T00:00:00.000Z",
            ),
            (
                253402300800000.0,
                "Sat Jan 01 10000 00:00:00 GMT+0000 (Coordinated Universal Time)",
                "Sat Jan 01 10000",
                "00:00:00 GMT+0000 (Coordinated Universal Time)",
                "Sat, 01 Jan 10000 00:00:00 GMT",
                "+010000-01-01T00:00:00.000Z",
            ),
            (
                1000000000123.0,
                "Sun Sep 09 2001 01:46:40 GMT+0000 (Coordinated Universal Time)",
                "Sun Sep 09 2001",
                "01:46:40 GMT+0000 (Coordinated Universal Time)",
                "Sun, 09 Sep 2001 01:46:40 GMT",
                "2001-09-09T01:46:40.123Z",
            ),
        ];
        for &(t, s, ds, ts, us, iso) in cases {
            assert_eq!(to_date_string(t), s, "toString {t}");
            assert_eq!(to_date_only_string(t), ds, "toDateString {t}");
            assert_eq!(to_time_string(t), ts, "toTimeString {t}");
            assert_eq!(to_utc_string(t), us, "toUTCString {t}");
            assert_eq!(to_iso_string(t).as_deref(), Some(iso), "toISOString {t}");
        }
        for f in [to_date_string, to_date_only_string, to_time_string, to_utc_string, to_locale_string] {
            assert_eq!(f(f64::NAN), "Invalid Date");
        }
        assert_eq!(to_iso_string(f64::NAN), None);
        // Values no Date can hold do not hang or panic.
        for t in [f64::INFINITY, f64::NEG_INFINITY, 1e300, -8.64e15 - 1.0] {
            assert_eq!(to_date_string(t), "Invalid Date");
            assert_eq!(to_iso_string(t), None);
        }
        for t in [f64::NAN, f64::INFINITY, 1e300] {
            assert!(year_from_time(t).is_nan());
        }
    }

    #[test]
    fn locale_formats_match_node() {
        // toLocaleString / toLocaleDateString / toLocaleTimeString in node (en-US, UTC).
        let cases: &[(f64, &str, &str, &str)] = &[
            (0.0, "1/1/1970, 12:00:00 AM", "1/1/1970", "12:00:00 AM"),
            (1795334400000.0, "11/22/2026, 8:00:00 AM", "11/22/2026", "8:00:00 AM"),
            (-1.0, "12/31/1969, 11:59:59 PM", "12/31/1969", "11:59:59 PM"),
            (-8.64e15, "4/20/271822, 12:00:00 AM", "4/20/271822", "12:00:00 AM"),
            (-62198755200000.0, "1/1/2, 12:00:00 AM", "1/1/2", "12:00:00 AM"),
            (1234567890123.0, "2/13/2009, 11:31:30 PM", "2/13/2009", "11:31:30 PM"),
        ];
        for &(t, s, ds, ts) in cases {
            assert_eq!(to_locale_string(t), s);
            assert_eq!(to_locale_date_string(t), ds);
            assert_eq!(to_locale_time_string(t), ts);
        }
    }
}
