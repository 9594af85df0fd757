//! 21.4 Date objects. The time arithmetic and the string formats are in `conv::date`.

use super::{arg, rows, Builtin, Row};
use crate::gc::{CellKind, Gc};
use crate::object::{DateObject, JsObject, Key};
use crate::runtime::convert::Hint;
use crate::runtime::{Intrinsic, JsResult, Runtime};
use crate::string::StrView;
use crate::value::Value;
use ecma::conv::date as d;

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin =
    Builtin { init, rows: ROWS, installed: alias, globals: &[("Date", Intrinsic::Date)], ..Builtin::NONE };

pub(crate) const ROWS: &[Row] = rows! {
    Date."now" => now, 0;
    Date."parse" => parse, 1;
    Date."UTC" => utc, 7;
    DatePrototype."getDate" => get_date, 0;
    DatePrototype."getDay" => get_day, 0;
    DatePrototype."getFullYear" => get_full_year, 0;
    DatePrototype."getHours" => get_hours, 0;
    DatePrototype."getMilliseconds" => get_milliseconds, 0;
    DatePrototype."getMinutes" => get_minutes, 0;
    DatePrototype."getMonth" => get_month, 0;
    DatePrototype."getSeconds" => get_seconds, 0;
    DatePrototype."getTime" => get_time, 0;
    DatePrototype."getTimezoneOffset" => get_timezone_offset, 0;
    DatePrototype."getUTCDate" => get_utc_date, 0;
    DatePrototype."getUTCDay" => get_utc_day, 0;
    DatePrototype."getUTCFullYear" => get_utc_full_year, 0;
    DatePrototype."getUTCHours" => get_utc_hours, 0;
    DatePrototype."getUTCMilliseconds" => get_utc_milliseconds, 0;
    DatePrototype."getUTCMinutes" => get_utc_minutes, 0;
    DatePrototype."getUTCMonth" => get_utc_month, 0;
    DatePrototype."getUTCSeconds" => get_utc_seconds, 0;
    DatePrototype."getYear" => get_year, 0;
    DatePrototype."setDate" => set_date, 1;
    DatePrototype."setFullYear" => set_full_year, 3;
    DatePrototype."setHours" => set_hours, 4;
    DatePrototype."setMilliseconds" => set_milliseconds, 1;
    DatePrototype."setMinutes" => set_minutes, 3;
    DatePrototype."setMonth" => set_month, 2;
    DatePrototype."setSeconds" => set_seconds, 2;
    DatePrototype."setTime" => set_time, 1;
    DatePrototype."setUTCDate" => set_utc_date, 1;
    DatePrototype."setUTCFullYear" => set_utc_full_year, 3;
    DatePrototype."setUTCHours" => set_utc_hours, 4;
    DatePrototype."setUTCMilliseconds" => set_utc_milliseconds, 1;
    DatePrototype."setUTCMinutes" => set_utc_minutes, 3;
    DatePrototype."setUTCMonth" => set_utc_month, 2;
    DatePrototype."setUTCSeconds" => set_utc_seconds, 2;
    DatePrototype."setYear" => set_year, 1;
    DatePrototype."toDateString" => to_date_string, 0;
    DatePrototype."toISOString" => to_iso_string, 0;
    DatePrototype."toJSON" => to_json, 1;
    DatePrototype."toLocaleDateString" => to_locale_date_string, 0;
    DatePrototype."toLocaleString" => to_locale_string, 0;
    DatePrototype."toLocaleTimeString" => to_locale_time_string, 0;
    DatePrototype."toString" => to_string, 0;
    DatePrototype."toTimeString" => to_time_string, 0;
    DatePrototype."toUTCString" => to_utc_string, 0;
    DatePrototype."valueOf" => get_time, 0;
    DatePrototype.[to_primitive] => to_primitive, 1;
};

/// Creates Date and Date.prototype.
pub(crate) fn init(rt: &mut Runtime) {
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    let proto = rt.new_object(op);
    let c = rt.make_constructor("Date", date_constructor, 7, Some(proto));
    rt.set_intrinsic(Intrinsic::DatePrototype, Value::object(proto));
    rt.set_intrinsic(Intrinsic::Date, Value::object(c));
}

/// Links `toGMTString` to the same function as `toUTCString` (B.2.3.1).
fn alias(rt: &mut Runtime, on: Intrinsic) {
    if on != Intrinsic::DatePrototype {
        return;
    }
    let p = rt.intrinsic_object(Intrinsic::DatePrototype);
    let key = rt.key("toUTCString");
    if let Some(f) = rt.peek_data(p, key) {
        rt.define_value(p, "toGMTString", f, crate::object::shape::WRITABLE | crate::object::shape::CONFIGURABLE);
    }
}

/// The current time value.
fn current_time() -> f64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|t| t.as_millis() as f64).unwrap_or(0.0)
}

fn new_date(rt: &mut Runtime, proto: Value, t: f64) -> Value {
    let shape = rt.root_shape(proto, CellKind::Date, 0);
    let o = DateObject { base: JsObject::new(CellKind::Date, shape), time: t };
    Value::object(rt.heap_mut().alloc_object(o, 0))
}

fn parse_string(rt: &mut Runtime, s: Value) -> f64 {
    let f = rt.flat(s);
    match rt.heap().str_view(f) {
        StrView::Latin1(b) => d::parse(b),
        StrView::Utf16(u) => d::parse(u),
    }
}

/// 21.4.2.1 Date(...values).
fn date_constructor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let nt = rt.native_new_target();
    // 1. If NewTarget is undefined, return ToDateString(now).
    if nt.is_undefined() {
        return Ok(rt.new_string(&d::to_date_string(current_time())));
    }
    let tv = match args.len() {
        // 3. numberOfArgs = 0: the current time.
        0 => current_time(),
        // 4. numberOfArgs = 1.
        1 => {
            let v = args[0];
            let tv = if v.is_object() && rt.heap().object_kind(v.gc()) == CellKind::Date {
                rt.heap().get(v.gc::<DateObject>()).time
            } else {
                let p = rt.to_primitive(v, Hint::Default)?;
                if p.is_string() {
                    parse_string(rt, p)
                } else {
                    rt.to_number(p)?
                }
            };
            d::time_clip(tv)
        }
        // 5. numberOfArgs ≥ 2.
        _ => {
            let fields = date_fields(rt, args)?;
            d::time_clip(d::utc(fields))
        }
    };
    let proto = rt.prototype_from_constructor(nt, Intrinsic::DatePrototype)?;
    Ok(new_date(rt, proto, tv))
}

/// The time value of (year, month [, date, hours, minutes, seconds, ms]) arguments.
fn date_fields(rt: &mut Runtime, args: &[Value]) -> JsResult<f64> {
    let mut nums = [f64::NAN, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0];
    for (i, slot) in nums.iter_mut().enumerate() {
        if i < args.len() {
            *slot = rt.to_number(args[i])?;
        }
    }
    let y = d::make_full_year(nums[0]);
    Ok(d::make_date(d::make_day(y, nums[1], nums[2]), d::make_time(nums[3], nums[4], nums[5], nums[6])))
}

/// 21.4.3.1 Date.now().
fn now(_rt: &mut Runtime, _this: Value, _args: &[Value]) -> JsResult<Value> {
    Ok(Value::number(current_time()))
}

/// 21.4.3.2 Date.parse(string).
fn parse(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let s = rt.to_string(arg(args, 0))?;
    Ok(Value::number(parse_string(rt, s)))
}

/// 21.4.3.4 Date.UTC(year [, month [, date [, hours [, minutes [, seconds [, ms]]]]]]).
fn utc(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let t = date_fields(rt, args)?;
    Ok(Value::number(d::time_clip(t)))
}

/// thisTimeValue(value).
fn this_time(rt: &mut Runtime, this: Value) -> JsResult<f64> {
    if this.is_object() {
        if let Some(dt) = rt.heap().downcast::<DateObject>(this.gc()) {
            return Ok(rt.heap().get(dt).time);
        }
    }
    Err(rt.throw_type_error("this is not a Date object."))
}

fn set_this_time(rt: &mut Runtime, this: Value, t: f64) -> Value {
    let dt: Gc<DateObject> = this.gc();
    let t = d::time_clip(t);
    rt.heap_mut().get_mut(dt).time = t;
    Value::number(t)
}

macro_rules! getter {
    ($name:ident, $local:expr, $f:expr) => {
        fn $name(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
            let t = this_time(rt, this)?;
            if t.is_nan() {
                return Ok(Value::NAN);
            }
            let t = if $local { d::local_time(t) } else { t };
            Ok(Value::number($f(t)))
        }
    };
}

getter!(get_date, true, d::date_from_time);
getter!(get_day, true, d::week_day);
getter!(get_full_year, true, d::year_from_time);
getter!(get_hours, true, d::hour_from_time);
getter!(get_milliseconds, true, d::ms_from_time);
getter!(get_minutes, true, d::min_from_time);
getter!(get_month, true, d::month_from_time);
getter!(get_seconds, true, d::sec_from_time);
getter!(get_utc_date, false, d::date_from_time);
getter!(get_utc_day, false, d::week_day);
getter!(get_utc_full_year, false, d::year_from_time);
getter!(get_utc_hours, false, d::hour_from_time);
getter!(get_utc_milliseconds, false, d::ms_from_time);
getter!(get_utc_minutes, false, d::min_from_time);
getter!(get_utc_month, false, d::month_from_time);
getter!(get_utc_seconds, false, d::sec_from_time);
getter!(get_year, true, |t| d::year_from_time(t) - 1900.0);

/// 21.4.4.10 Date.prototype.getTime() and 21.4.4.44 valueOf().
fn get_time(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    Ok(Value::number(this_time(rt, this)?))
}

/// 21.4.4.11 Date.prototype.getTimezoneOffset().
fn get_timezone_offset(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let t = this_time(rt, this)?;
    if t.is_nan() {
        return Ok(Value::NAN);
    }
    Ok(Value::number((t - d::local_time(t)) / d::MS_PER_MINUTE))
}

/// Which date/time fields a setter replaces, starting at `first` for `count` arguments.
#[derive(Clone, Copy)]
enum Field {
    Year,
    Month,
    Date,
    Hours,
    Minutes,
    Seconds,
    Ms,
}

/// The common algorithm of the set* methods.
fn set_fields(rt: &mut Runtime, this: Value, args: &[Value], first: Field, max: usize, local: bool) -> JsResult<Value> {
    let t0 = this_time(rt, this)?;
    let mut vals = Vec::with_capacity(max);
    for i in 0..max.min(args.len().max(1)) {
        vals.push(rt.to_number(arg(args, i))?);
    }
    let t = if t0.is_nan() {
        if matches!(first, Field::Year) {
            0.0
        } else {
            return Ok(Value::NAN);
        }
    } else if local {
        d::local_time(t0)
    } else {
        t0
    };
    let mut f = [
        d::year_from_time(t),
        d::month_from_time(t),
        d::date_from_time(t),
        d::hour_from_time(t),
        d::min_from_time(t),
        d::sec_from_time(t),
        d::ms_from_time(t),
    ];
    let start = first as usize;
    for (i, v) in vals.iter().enumerate() {
        f[start + i] = *v;
    }
    let nt = d::make_date(d::make_day(f[0], f[1], f[2]), d::make_time(f[3], f[4], f[5], f[6]));
    let nt = if local { d::utc(nt) } else { nt };
    Ok(set_this_time(rt, this, nt))
}

fn set_date(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    set_fields(rt, this, args, Field::Date, 1, true)
}
fn set_full_year(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    set_fields(rt, this, args, Field::Year, 3, true)
}
fn set_hours(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    set_fields(rt, this, args, Field::Hours, 4, true)
}
fn set_milliseconds(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    set_fields(rt, this, args, Field::Ms, 1, true)
}
fn set_minutes(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    set_fields(rt, this, args, Field::Minutes, 3, true)
}
fn set_month(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    set_fields(rt, this, args, Field::Month, 2, true)
}
fn set_seconds(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    set_fields(rt, this, args, Field::Seconds, 2, true)
}
fn set_utc_date(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    set_fields(rt, this, args, Field::Date, 1, false)
}
fn set_utc_full_year(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    set_fields(rt, this, args, Field::Year, 3, false)
}
fn set_utc_hours(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    set_fields(rt, this, args, Field::Hours, 4, false)
}
fn set_utc_milliseconds(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    set_fields(rt, this, args, Field::Ms, 1, false)
}
fn set_utc_minutes(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    set_fields(rt, this, args, Field::Minutes, 3, false)
}
fn set_utc_month(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    set_fields(rt, this, args, Field::Month, 2, false)
}
fn set_utc_seconds(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    set_fields(rt, this, args, Field::Seconds, 2, false)
}

/// 21.4.4.27 Date.prototype.setTime(time).
fn set_time(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    this_time(rt, this)?;
    let t = rt.to_number(arg(args, 0))?;
    Ok(set_this_time(rt, this, t))
}

/// B.2.3.2 Date.prototype.setYear(year).
fn set_year(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let t0 = this_time(rt, this)?;
    let y = rt.to_number(arg(args, 0))?;
    if y.is_nan() {
        return Ok(set_this_time(rt, this, f64::NAN));
    }
    let yi = ecma::number::integer_or_infinity(y);
    let yyyy = if (0.0..=99.0).contains(&yi) { yi + 1900.0 } else { y };
    let t = if t0.is_nan() { 0.0 } else { d::local_time(t0) };
    let day = d::make_day(yyyy, d::month_from_time(t), d::date_from_time(t));
    let nt = d::utc(d::make_date(day, d::time_within_day(t)));
    Ok(set_this_time(rt, this, nt))
}

macro_rules! formatter {
    ($name:ident, $f:expr) => {
        fn $name(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
            let t = this_time(rt, this)?;
            let s: String = $f(t);
            Ok(rt.new_string(&s))
        }
    };
}

formatter!(to_date_string, d::to_date_only_string);
formatter!(to_string, d::to_date_string);
formatter!(to_time_string, d::to_time_string);
formatter!(to_utc_string, d::to_utc_string);
formatter!(to_locale_date_string, d::to_locale_date_string);
formatter!(to_locale_string, d::to_locale_string);
formatter!(to_locale_time_string, d::to_locale_time_string);

/// 21.4.4.36 Date.prototype.toISOString().
fn to_iso_string(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let t = this_time(rt, this)?;
    match d::to_iso_string(t) {
        Some(s) => Ok(rt.new_string(&s)),
        None => Err(rt.throw_range_error("Invalid time value")),
    }
}

/// 21.4.4.37 Date.prototype.toJSON(key).
fn to_json(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let o = rt.to_object(this)?;
    rt.root(Value::object(o));
    let tv = rt.to_primitive(Value::object(o), Hint::Number)?;
    if let Some(n) = tv.as_number() {
        if !n.is_finite() {
            return Ok(Value::NULL);
        }
    }
    let key = rt.key("toISOString");
    let f = rt.get(o, key, Value::object(o))?;
    if !rt.is_callable(f) {
        return Err(rt.throw_type_error("toISOString is not a function"));
    }
    rt.call(f, Value::object(o), &[])
}

/// 21.4.4.45 Date.prototype[@@toPrimitive](hint).
fn to_primitive(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    if !this.is_object() {
        return Err(rt.throw_type_error("Date.prototype[Symbol.toPrimitive] called on non-object"));
    }
    let h = arg(args, 0);
    let hint = if h.is_string() { rt.string_to_rust(h) } else { String::new() };
    let try_first = match hint.as_str() {
        "string" | "default" => Hint::String,
        "number" => Hint::Number,
        _ => return Err(rt.throw_type_error("Invalid hint")),
    };
    let _ = Key::Index(0);
    rt.ordinary_to_primitive(this.gc(), try_first)
}
