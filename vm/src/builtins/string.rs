//! 22.1 String objects.

use super::{arg, rows, Builtin, Row};
use crate::gc::{CellKind, Gc};
use crate::object::shape::{CONFIGURABLE, WRITABLE};
use crate::object::{iter_kind, JsObject, Key, PrimitiveObject};
use crate::runtime::{Intrinsic, JsResult, Runtime};
use crate::string::{StrView, StringBuilder, MAX_STRING_LENGTH};
use crate::value::Value;
use ecma::conv::normalize::{self, Form};
use ecma::conv::string_ops::{self, TrimWhere};

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin =
    Builtin { init, rows: ROWS, installed, globals: &[("String", Intrinsic::String)], ..Builtin::NONE };

pub(crate) const ROWS: &[Row] = rows! {
    String."fromCharCode" => from_char_code, 1;
    String."fromCodePoint" => from_code_point, 1;
    String."raw" => raw, 1;
    StringPrototype."at" => at, 1;
    StringPrototype."charAt" => char_at, 1;
    StringPrototype."charCodeAt" => char_code_at, 1;
    StringPrototype."codePointAt" => code_point_at, 1;
    StringPrototype."concat" => concat, 1;
    StringPrototype."endsWith" => ends_with, 1;
    StringPrototype."includes" => includes, 1;
    StringPrototype."indexOf" => index_of, 1;
    StringPrototype."isWellFormed" => is_well_formed, 0;
    StringPrototype."lastIndexOf" => last_index_of, 1;
    StringPrototype."localeCompare" => locale_compare, 1;
    StringPrototype."match" => match_, 1;
    StringPrototype."matchAll" => match_all, 1;
    StringPrototype."normalize" => normalize, 0;
    StringPrototype."padEnd" => pad_end, 1;
    StringPrototype."padStart" => pad_start, 1;
    StringPrototype."repeat" => repeat, 1;
    StringPrototype."replace" => replace, 2;
    StringPrototype."replaceAll" => replace_all, 2;
    StringPrototype."search" => search, 1;
    StringPrototype."slice" => slice, 2;
    StringPrototype."split" => split, 2;
    StringPrototype."startsWith" => starts_with, 1;
    StringPrototype."substr" => substr, 2;
    StringPrototype."substring" => substring, 2;
    StringPrototype."toLocaleLowerCase" => to_lower_case, 0;
    StringPrototype."toLocaleUpperCase" => to_upper_case, 0;
    StringPrototype."toLowerCase" => to_lower_case, 0;
    StringPrototype."toString" => to_string, 0;
    StringPrototype."toUpperCase" => to_upper_case, 0;
    StringPrototype."toWellFormed" => to_well_formed, 0;
    StringPrototype."trim" => trim, 0;
    StringPrototype."trimEnd" => trim_end, 0;
    StringPrototype."trimStart" => trim_start, 0;
    StringPrototype."valueOf" => to_string, 0;
    StringPrototype.[iterator] => iterator, 0;
    StringPrototype."anchor" => anchor, 1;
    StringPrototype."big" => big, 0;
    StringPrototype."blink" => blink, 0;
    StringPrototype."bold" => bold, 0;
    StringPrototype."fixed" => fixed, 0;
    StringPrototype."fontcolor" => fontcolor, 1;
    StringPrototype."fontsize" => fontsize, 1;
    StringPrototype."italics" => italics, 0;
    StringPrototype."link" => link_, 1;
    StringPrototype."small" => small, 0;
    StringPrototype."strike" => strike, 0;
    StringPrototype."sub" => sub, 0;
    StringPrototype."sup" => sup, 0;
};

/// Creates String and String.prototype (itself a String wrapper for "").
pub(crate) fn init(rt: &mut Runtime) {
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    let empty = rt.names.empty.value();
    let proto = rt.new_primitive_object(op, empty);
    rt.set_intrinsic(Intrinsic::StringPrototype, Value::object(proto));
    let c = rt.make_constructor("String", string_constructor, 1, Some(proto));
    rt.set_intrinsic(Intrinsic::String, Value::object(c));
    // trimLeft/trimRight are the same function objects as trimStart/trimEnd (B.2.2.15-16);
    // they are aliased after the table is installed, in `alias_trim`.
}

/// %String.prototype[@@iterator]%; `trimLeft`/`trimRight` are the same functions as
/// `trimStart`/`trimEnd` (B.2.2.15, B.2.2.16).
fn installed(rt: &mut Runtime, on: Intrinsic) {
    if on != Intrinsic::StringPrototype {
        return;
    }
    let sp = rt.intrinsic_object(Intrinsic::StringPrototype);
    let it_key = Key::Name(rt.symbols.iterator);
    let si = rt.peek_data(sp, it_key).unwrap_or(Value::UNDEFINED);
    rt.set_intrinsic(Intrinsic::StringProtoIterator, si);
    for (alias, name) in [("trimLeft", "trimStart"), ("trimRight", "trimEnd")] {
        let key = rt.key(name);
        if let Some(f) = rt.peek_data(sp, key) {
            rt.define_value(sp, alias, f, WRITABLE | CONFIGURABLE);
        }
    }
}

/// A string value from UTF-16 units.
fn units_value(rt: &mut Runtime, units: &[u16]) -> Value {
    rt.new_string_units(units)
}

/// `? ToString(? RequireObjectCoercible(this))`, rooted.
fn this_str(rt: &mut Runtime, this: Value, what: &str) -> JsResult<Value> {
    if this.is_string() {
        return Ok(this);
    }
    if this.is_nullish() {
        return Err(rt.throw_type_error(&format!("String.prototype.{what} called on null or undefined")));
    }
    let s = rt.to_string(this)?;
    rt.root(s);
    Ok(s)
}

/// The units of a string value (copied).
fn units(rt: &mut Runtime, s: Value) -> Vec<u16> {
    rt.string_units(s)
}

/// A substring `[from, to)` of a string value.
pub(crate) fn substring_value(rt: &mut Runtime, s: Value, from: usize, to: usize) -> Value {
    let len = rt.heap().string_len(s);
    if from == 0 && to == len {
        return s;
    }
    if to <= from {
        return rt.names.empty.value();
    }
    if to - from == 1 {
        let f = rt.flat(s);
        let u = rt.heap().str_view(f).at(from);
        return rt.string_from_unit(u);
    }
    let f = rt.flat(s);
    let part: Result<Vec<u8>, Vec<u16>> = match rt.heap().str_view(f) {
        StrView::Latin1(b) => Ok(b[from..to].to_vec()),
        StrView::Utf16(u) => Err(u[from..to].to_vec()),
    };
    match part {
        Ok(b) => Value::string(rt.heap_mut().alloc_latin1(&b)),
        Err(u) => Value::string(rt.heap_mut().alloc_utf16(&u)),
    }
}

// ---- Constructor and statics -------------------------------------------------------------------

/// 22.1.1.1 String(value).
fn string_constructor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let nt = rt.native_new_target();
    // 1-2. If value is not present, let s be "". Else, if NewTarget is undefined and value is
    // a Symbol, return SymbolDescriptiveString(value); else let s be ? ToString(value).
    let s = if args.is_empty() {
        rt.names.empty.value()
    } else if nt.is_undefined() && args[0].is_symbol() {
        let d = rt.symbol_descriptive_string(args[0]);
        return Ok(rt.new_string(&d));
    } else {
        rt.to_string(args[0])?
    };
    // 3. If NewTarget is undefined, return s.
    if nt.is_undefined() {
        return Ok(s);
    }
    rt.root(s);
    // 4. Return StringCreate(s, ? GetPrototypeFromConstructor(NewTarget, "%String.prototype%")).
    let proto = rt.prototype_from_constructor(nt, Intrinsic::StringPrototype)?;
    Ok(Value::object(rt.new_primitive_object(proto, s)))
}

/// 22.1.2.1 String.fromCharCode(...codeUnits).
fn from_char_code(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    if args.len() == 1 {
        if let Some(n) = args[0].as_number() {
            let u = ecma::number::to_int32(n) as u16;
            return Ok(rt.string_from_unit(u));
        }
    }
    let mut out = Vec::with_capacity(args.len());
    for &a in args {
        let n = rt.to_number(a)?;
        out.push(ecma::number::to_int32(n) as u16);
    }
    Ok(units_value(rt, &out))
}

/// 22.1.2.2 String.fromCodePoint(...codePoints).
fn from_code_point(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let mut out = Vec::with_capacity(args.len());
    for &a in args {
        let n = rt.to_number(a)?;
        if n.trunc() != n || !(0.0..=1114111.0).contains(&n) {
            let d = ecma::conv::number_to_string::number_to_string(n);
            return Err(rt.throw_range_error(&format!("Invalid code point {d}")));
        }
        string_ops::push_code_point(&mut out, n as u32);
    }
    Ok(units_value(rt, &out))
}

/// 22.1.2.4 String.raw(template, ...substitutions).
fn raw(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let cooked = rt.to_object(arg(args, 0))?;
    rt.root(Value::object(cooked));
    let rk = Key::Name(rt.names.raw);
    let r = rt.get(cooked, rk, Value::object(cooked))?;
    let literals = rt.to_object(r)?;
    rt.root(Value::object(literals));
    let len = super::array::length_of(rt, literals)?;
    let mut out = StringBuilder::new();
    let mut i = 0.0;
    while i < len {
        let seg = rt.get(literals, Key::Index(i as u32), Value::object(literals))?;
        let s = rt.to_string(seg)?;
        let f = rt.flat(s);
        out.push_view(&rt.heap().str_view(f));
        if i + 1.0 >= len {
            break;
        }
        if (i as usize + 1) < args.len() {
            let sub = rt.to_string(args[i as usize + 1])?;
            let f = rt.flat(sub);
            out.push_view(&rt.heap().str_view(f));
        }
        if out.too_long() {
            return Err(rt.throw_range_error("Invalid string length"));
        }
        i += 1.0;
    }
    if out.too_long() {
        return Err(rt.throw_range_error("Invalid string length"));
    }
    Ok(Value::string(out.finish(rt.heap_mut())))
}

// ---- Prototype methods -------------------------------------------------------------------------

/// 22.1.3.1 String.prototype.at(index).
fn at(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let s = this_str(rt, this, "at")?;
    let len = rt.heap().string_len(s);
    let rel = rt.to_integer_or_infinity(arg(args, 0))?;
    match string_ops::relative_index(len, rel) {
        Some(k) => Ok(substring_value(rt, s, k, k + 1)),
        None => Ok(Value::UNDEFINED),
    }
}

/// 22.1.3.2 String.prototype.charAt(pos).
fn char_at(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let s = this_str(rt, this, "charAt")?;
    let pos = rt.to_integer_or_infinity(arg(args, 0))?;
    let len = rt.heap().string_len(s);
    if pos < 0.0 || pos >= len as f64 {
        return Ok(rt.names.empty.value());
    }
    Ok(substring_value(rt, s, pos as usize, pos as usize + 1))
}

/// 22.1.3.3 String.prototype.charCodeAt(pos).
fn char_code_at(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let s = this_str(rt, this, "charCodeAt")?;
    let pos = rt.to_integer_or_infinity(arg(args, 0))?;
    let len = rt.heap().string_len(s);
    if pos < 0.0 || pos >= len as f64 {
        return Ok(Value::NAN);
    }
    let f = rt.flat(s);
    Ok(Value::number(rt.heap().str_view(f).at(pos as usize) as f64))
}

/// 22.1.3.4 String.prototype.codePointAt(pos).
fn code_point_at(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let s = this_str(rt, this, "codePointAt")?;
    let pos = rt.to_integer_or_infinity(arg(args, 0))?;
    let u = units(rt, s);
    if pos < 0.0 || pos >= u.len() as f64 {
        return Ok(Value::UNDEFINED);
    }
    Ok(Value::number(string_ops::code_point_at(&u, pos as usize).code_point as f64))
}

/// 22.1.3.5 String.prototype.concat(...args).
fn concat(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let mut r = this_str(rt, this, "concat")?;
    for &a in args {
        let h = rt.root(r);
        let s = rt.to_string(a)?;
        r = rt.concat_strings(rt.handle(h), s)?;
    }
    Ok(r)
}

/// 7.2.8 IsRegExp(argument).
fn is_regexp(rt: &mut Runtime, v: Value) -> JsResult<bool> {
    if !v.is_object() {
        return Ok(false);
    }
    let key = Key::Name(rt.symbols.match_);
    let m = rt.get(v.gc(), key, v)?;
    if !m.is_undefined() {
        return Ok(rt.to_boolean(m));
    }
    Ok(rt.heap().object_kind(v.gc()) == CellKind::RegExp)
}

fn search_string(rt: &mut Runtime, v: Value, what: &str) -> JsResult<Value> {
    if is_regexp(rt, v)? {
        return Err(
            rt.throw_type_error(&format!("First argument to String.prototype.{what} must not be a regular expression"))
        );
    }
    let s = rt.to_string(v)?;
    rt.root(s);
    Ok(s)
}

/// 22.1.3.7 String.prototype.endsWith(searchString [, endPosition]).
fn ends_with(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let s = this_str(rt, this, "endsWith")?;
    let search = search_string(rt, arg(args, 0), "endsWith")?;
    let len = rt.heap().string_len(s) as f64;
    let e = arg(args, 1);
    let end = if e.is_undefined() { len } else { rt.to_integer_or_infinity(e)?.clamp(0.0, len) };
    let (a, b) = (units(rt, s), units(rt, search));
    let start = end - b.len() as f64;
    if start < 0.0 {
        return Ok(Value::FALSE);
    }
    Ok(Value::boolean(a[start as usize..end as usize] == b[..]))
}

/// 22.1.3.8 String.prototype.includes(searchString [, position]).
fn includes(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let s = this_str(rt, this, "includes")?;
    let search = search_string(rt, arg(args, 0), "includes")?;
    let pos = rt.to_integer_or_infinity(arg(args, 1))?;
    let len = rt.heap().string_len(s) as f64;
    let start = pos.clamp(0.0, len) as usize;
    let (x, y) = (rt.flat(s), rt.flat(search));
    Ok(Value::boolean(rt.heap().str_view(x).find(&rt.heap().str_view(y), start).is_some()))
}

/// 22.1.3.9 String.prototype.indexOf(searchString [, position]).
fn index_of(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let s = this_str(rt, this, "indexOf")?;
    let search = rt.to_string(arg(args, 0))?;
    rt.root(search);
    let pos = rt.to_integer_or_infinity(arg(args, 1))?;
    let len = rt.heap().string_len(s) as f64;
    let start = pos.clamp(0.0, len) as usize;
    let (x, y) = (rt.flat(s), rt.flat(search));
    Ok(Value::number(rt.heap().str_view(x).find(&rt.heap().str_view(y), start).map_or(-1.0, |i| i as f64)))
}

/// 22.1.3.11 String.prototype.lastIndexOf(searchString [, position]).
fn last_index_of(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let s = this_str(rt, this, "lastIndexOf")?;
    let search = rt.to_string(arg(args, 0))?;
    rt.root(search);
    let num = rt.to_number(arg(args, 1))?;
    let len = rt.heap().string_len(s) as f64;
    let pos = if num.is_nan() { f64::INFINITY } else { ecma::number::integer_or_infinity(num) };
    let start = pos.clamp(0.0, len) as usize;
    let (x, y) = (rt.flat(s), rt.flat(search));
    Ok(Value::number(rt.heap().str_view(x).rfind(&rt.heap().str_view(y), start).map_or(-1.0, |i| i as f64)))
}

/// 22.1.3.12 String.prototype.localeCompare(that): code unit order (no locale data).
fn locale_compare(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let s = this_str(rt, this, "localeCompare")?;
    let that = rt.to_string(arg(args, 0))?;
    let (x, y) = (rt.flat(s), rt.flat(that));
    let (a, b) = (rt.heap().str_view(x), rt.heap().str_view(y));
    // Without locale data the order is that of the code units, but canonically equivalent
    // strings must compare equal (22.1.3.12): compare their NFC forms. One-byte text is in
    // NFC already (Latin-1 has no combining marks).
    let ord = match (&a, &b) {
        (StrView::Latin1(_), StrView::Latin1(_)) => a.cmp_view(&b),
        _ => {
            let nfc = |v: &StrView<'_>| -> Vec<u16> {
                let units: Vec<u16> = match v {
                    StrView::Latin1(l) => l.iter().map(|&c| u16::from(c)).collect(),
                    StrView::Utf16(u) => u.to_vec(),
                };
                // A temporary, not a string: no length limit.
                normalize::normalize(&units, Form::Nfc, usize::MAX).unwrap_or(units)
            };
            nfc(&a).cmp(&nfc(&b))
        }
    };
    Ok(Value::number(match ord {
        std::cmp::Ordering::Less => -1.0,
        std::cmp::Ordering::Equal => 0.0,
        std::cmp::Ordering::Greater => 1.0,
    }))
}

/// Calls `regexp[symbol](this, extra...)` when the argument provides that method.
fn delegate(
    rt: &mut Runtime,
    v: Value,
    symbol: crate::object::PropKey,
    this: Value,
    extra: &[Value],
) -> JsResult<Option<Value>> {
    if v.is_nullish() {
        return Ok(None);
    }
    let m = rt.get_v(v, Key::Name(symbol))?;
    if m.is_nullish() {
        return Ok(None);
    }
    let mut call_args = vec![this];
    call_args.extend_from_slice(extra);
    Ok(Some(rt.call(m, v, &call_args)?))
}

/// A new RegExp from a pattern value (for match/matchAll/search with a non-RegExp argument).
fn regexp_from(rt: &mut Runtime, pattern: Value, flags: &str) -> JsResult<Value> {
    let ctor = rt.intrinsic(Intrinsic::RegExp);
    let f = rt.new_string(flags);
    rt.construct(ctor, &[pattern, f], ctor)
}

/// 22.1.3.13 String.prototype.match(regexp).
fn match_(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    rt.require_object_coercible(this, "String.prototype.match")?;
    let r = arg(args, 0);
    let sym = rt.symbols.match_;
    if let Some(v) = delegate(rt, r, sym, this, &[])? {
        return Ok(v);
    }
    let s = rt.to_string(this)?;
    rt.root(s);
    let rx = regexp_from(rt, if r.is_undefined() { Value::UNDEFINED } else { r }, "")?;
    rt.root(rx);
    let m = rt.get_v(rx, Key::Name(sym))?;
    rt.call(m, rx, &[s])
}

/// 22.1.3.14 String.prototype.matchAll(regexp).
fn match_all(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    rt.require_object_coercible(this, "String.prototype.matchAll")?;
    let r = arg(args, 0);
    if !r.is_nullish() && is_regexp(rt, r)? {
        let fk = Key::Name(rt.names.flags);
        let flags = rt.get_v(r, fk)?;
        rt.require_object_coercible(flags, "String.prototype.matchAll")?;
        let f = rt.to_rust_string(flags)?;
        if !f.contains('g') {
            return Err(rt.throw_type_error("String.prototype.matchAll called with a non-global RegExp argument"));
        }
    }
    let sym = rt.symbols.match_all;
    if let Some(v) = delegate(rt, r, sym, this, &[])? {
        return Ok(v);
    }
    let s = rt.to_string(this)?;
    rt.root(s);
    let rx = regexp_from(rt, r, "g")?;
    rt.root(rx);
    let m = rt.get_v(rx, Key::Name(sym))?;
    rt.call(m, rx, &[s])
}

/// 22.1.3.15 String.prototype.normalize([form]): the forms are validated; without
/// Unicode normalization data the text is returned unchanged when it is ASCII, which
/// every form leaves as is, and otherwise also unchanged (a documented limitation).
fn normalize(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let s = this_str(rt, this, "normalize")?;
    let f = arg(args, 0);
    let form = if f.is_undefined() { "NFC".to_string() } else { rt.to_rust_string(f)? };
    let Some(form) = Form::from_name(&form) else {
        return Err(rt.throw_range_error("The normalization form should be one of NFC, NFD, NFKC, NFKD."));
    };
    let f = rt.flat(s);
    let normalized = match rt.heap().str_view(f) {
        // ASCII is the same in every form.
        StrView::Latin1(b) if b.is_ascii() => return Ok(s),
        StrView::Latin1(b) => {
            let wide: Vec<u16> = b.iter().map(|&c| u16::from(c)).collect();
            normalize::normalize(&wide, form, MAX_STRING_LENGTH)
        }
        StrView::Utf16(u) => normalize::normalize(u, form, MAX_STRING_LENGTH),
    };
    match normalized {
        Some(units) => Ok(units_value(rt, &units)),
        None => Err(rt.throw_range_error("Invalid string length")),
    }
}

fn pad(rt: &mut Runtime, this: Value, args: &[Value], at_start: bool) -> JsResult<Value> {
    let s = this_str(rt, this, if at_start { "padStart" } else { "padEnd" })?;
    let max = rt.to_length(arg(args, 0))?;
    let len = rt.heap().string_len(s) as f64;
    if max <= len {
        return Ok(s);
    }
    let fill = arg(args, 1);
    let filler: Vec<u16> = if fill.is_undefined() {
        vec![b' ' as u16]
    } else {
        let f = rt.to_string(fill)?;
        units(rt, f)
    };
    if filler.is_empty() {
        return Ok(s);
    }
    if max > MAX_STRING_LENGTH as f64 {
        return Err(rt.throw_range_error("Invalid string length"));
    }
    let fill_len = (max - len) as usize;
    let mut pad_units: Vec<u16> = Vec::with_capacity(fill_len);
    while pad_units.len() < fill_len {
        let n = (fill_len - pad_units.len()).min(filler.len());
        pad_units.extend_from_slice(&filler[..n]);
    }
    let body = units(rt, s);
    let out: Vec<u16> = if at_start { [pad_units, body].concat() } else { [body, pad_units].concat() };
    Ok(units_value(rt, &out))
}

/// 22.1.3.17 String.prototype.padStart(maxLength [, fillString]).
fn pad_start(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    pad(rt, this, args, true)
}

/// 22.1.3.16 String.prototype.padEnd(maxLength [, fillString]).
fn pad_end(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    pad(rt, this, args, false)
}

/// 22.1.3.18 String.prototype.repeat(count).
fn repeat(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let s = this_str(rt, this, "repeat")?;
    let n = rt.to_integer_or_infinity(arg(args, 0))?;
    if n < 0.0 || n == f64::INFINITY {
        return Err(rt.throw_range_error(&format!(
            "Invalid count value: {}",
            ecma::conv::number_to_string::number_to_string(n)
        )));
    }
    let len = rt.heap().string_len(s);
    if n == 0.0 || len == 0 {
        return Ok(rt.names.empty.value());
    }
    if len as f64 * n > MAX_STRING_LENGTH as f64 {
        return Err(rt.throw_range_error("Invalid string length"));
    }
    // `[T]::repeat` copies by doubling: a few large copies, not `n` small ones.
    let f = rt.flat(s);
    let n = n as usize;
    Ok(match rt.heap().str_view(f) {
        StrView::Latin1(b) => {
            let out = b.repeat(n);
            Value::string(rt.heap_mut().alloc_latin1(&out))
        }
        StrView::Utf16(u) => {
            let out = u.repeat(n);
            Value::string(rt.heap_mut().alloc_utf16(&out))
        }
    })
}

/// 22.1.3.19.1 GetSubstitution(matched, str, position, captures, namedCaptures, replacement).
pub(crate) fn get_substitution(
    rt: &mut Runtime,
    matched: &[u16],
    s: &[u16],
    position: usize,
    captures: &[Value],
    named: Value,
    replacement: &[u16],
) -> JsResult<Vec<u16>> {
    let mut out = Vec::with_capacity(replacement.len());
    let m = captures.len();
    let tail_pos = (position + matched.len()).min(s.len());
    let mut i = 0;
    while i < replacement.len() {
        let c = replacement[i];
        if c != b'$' as u16 || i + 1 >= replacement.len() {
            out.push(c);
            i += 1;
            continue;
        }
        let n = replacement[i + 1];
        match n {
            0x24 => {
                out.push(b'$' as u16);
                i += 2;
            }
            0x26 => {
                out.extend_from_slice(matched);
                i += 2;
            }
            0x60 => {
                out.extend_from_slice(&s[..position.min(s.len())]);
                i += 2;
            }
            0x27 => {
                out.extend_from_slice(&s[tail_pos..]);
                i += 2;
            }
            0x30..=0x39 => {
                let d1 = (n - 0x30) as usize;
                let two = if i + 2 < replacement.len() && (0x30..=0x39).contains(&replacement[i + 2]) {
                    Some(d1 * 10 + (replacement[i + 2] - 0x30) as usize)
                } else {
                    None
                };
                let (idx, used) = match two {
                    Some(t) if t >= 1 && t <= m => (t, 3),
                    _ => (d1, 2),
                };
                if idx >= 1 && idx <= m {
                    let cap = captures[idx - 1];
                    if !cap.is_undefined() {
                        let cu = rt.string_units(cap);
                        out.extend_from_slice(&cu);
                    }
                    i += used;
                } else {
                    out.push(c);
                    i += 1;
                }
            }
            0x3c => {
                if named.is_undefined() {
                    out.push(c);
                    i += 1;
                } else {
                    let close = replacement[i + 2..].iter().position(|&u| u == b'>' as u16);
                    match close {
                        None => {
                            out.push(c);
                            i += 1;
                        }
                        Some(p) => {
                            let group_name = &replacement[i + 2..i + 2 + p];
                            let gn = rt.new_string_units(group_name);
                            let key = rt.to_property_key(gn)?;
                            let cap = rt.get_v(named, key)?;
                            if !cap.is_undefined() {
                                let cs = rt.to_string(cap)?;
                                let cu = rt.string_units(cs);
                                out.extend_from_slice(&cu);
                            }
                            i += 3 + p;
                        }
                    }
                }
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    Ok(out)
}

fn replace_impl(rt: &mut Runtime, this: Value, args: &[Value], all: bool) -> JsResult<Value> {
    rt.require_object_coercible(this, "String.prototype.replace")?;
    let (pattern, replace_value) = (arg(args, 0), arg(args, 1));
    if !pattern.is_nullish() {
        if all && is_regexp(rt, pattern)? {
            let fk = Key::Name(rt.names.flags);
            let flags = rt.get_v(pattern, fk)?;
            rt.require_object_coercible(flags, "String.prototype.replaceAll")?;
            let f = rt.to_rust_string(flags)?;
            if !f.contains('g') {
                return Err(rt.throw_type_error("replaceAll must be called with a global RegExp"));
            }
        }
        let sym = rt.symbols.replace;
        if let Some(v) = delegate(rt, pattern, sym, this, &[replace_value])? {
            return Ok(v);
        }
    }
    let s = rt.to_string(this)?;
    rt.root(s);
    let search = rt.to_string(pattern)?;
    rt.root(search);
    let functional = rt.is_callable(replace_value);
    let replace_str = if functional { Value::UNDEFINED } else { rt.to_string(replace_value)? };
    rt.root(replace_str);
    let su = units(rt, s);
    let pu = units(rt, search);
    let ru = if functional { Vec::new() } else { units(rt, replace_str) };
    let mut positions = Vec::new();
    let view = StrView::Utf16(&su);
    let pview = StrView::Utf16(&pu);
    let advance = pu.len().max(1);
    let mut pos = view.find(&pview, 0);
    while let Some(p) = pos {
        positions.push(p);
        if !all {
            break;
        }
        pos = if p + advance <= su.len() { view.find(&pview, p + advance) } else { None };
    }
    if positions.is_empty() {
        return Ok(s);
    }
    let mut out: Vec<u16> = Vec::with_capacity(su.len());
    let mut end_of_last = 0;
    for p in positions {
        out.extend_from_slice(&su[end_of_last..p]);
        let replacement = if functional {
            let r = rt.call(replace_value, Value::UNDEFINED, &[search, Value::number(p as f64), s])?;
            let rs = rt.to_string(r)?;
            units(rt, rs)
        } else {
            get_substitution(rt, &pu, &su, p, &[], Value::UNDEFINED, &ru)?
        };
        out.extend_from_slice(&replacement);
        end_of_last = p + pu.len();
    }
    out.extend_from_slice(&su[end_of_last.min(su.len())..]);
    if out.len() > MAX_STRING_LENGTH {
        return Err(rt.throw_range_error("Invalid string length"));
    }
    Ok(units_value(rt, &out))
}

/// 22.1.3.19 String.prototype.replace(searchValue, replaceValue).
fn replace(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    replace_impl(rt, this, args, false)
}

/// 22.1.3.20 String.prototype.replaceAll(searchValue, replaceValue).
fn replace_all(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    replace_impl(rt, this, args, true)
}

/// 22.1.3.21 String.prototype.search(regexp).
fn search(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    rt.require_object_coercible(this, "String.prototype.search")?;
    let r = arg(args, 0);
    let sym = rt.symbols.search;
    if let Some(v) = delegate(rt, r, sym, this, &[])? {
        return Ok(v);
    }
    let s = rt.to_string(this)?;
    rt.root(s);
    let rx = regexp_from(rt, r, "")?;
    rt.root(rx);
    let m = rt.get_v(rx, Key::Name(sym))?;
    rt.call(m, rx, &[s])
}

/// 22.1.3.22 String.prototype.slice(start, end).
fn slice(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let s = this_str(rt, this, "slice")?;
    let len = rt.heap().string_len(s) as f64;
    let rs = rt.to_integer_or_infinity(arg(args, 0))?;
    let from = if rs < 0.0 { (len + rs).max(0.0) } else { rs.min(len) };
    let e = arg(args, 1);
    let re = if e.is_undefined() { len } else { rt.to_integer_or_infinity(e)? };
    let to = if re < 0.0 { (len + re).max(0.0) } else { re.min(len) };
    Ok(substring_value(rt, s, from as usize, (to as usize).max(from as usize)))
}

/// 22.1.3.23 String.prototype.split(separator, limit).
fn split(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    rt.require_object_coercible(this, "String.prototype.split")?;
    let (sep, limit) = (arg(args, 0), arg(args, 1));
    if !sep.is_nullish() {
        let sym = rt.symbols.split;
        if let Some(v) = delegate(rt, sep, sym, this, &[limit])? {
            return Ok(v);
        }
    }
    let s = rt.to_string(this)?;
    rt.root(s);
    let lim = if limit.is_undefined() { u32::MAX } else { rt.to_uint32(limit)? };
    let r = rt.to_string(sep)?;
    rt.root(r);
    if lim == 0 {
        return Ok(Value::object(rt.new_array(0)));
    }
    if sep.is_undefined() {
        return Ok(Value::object(rt.new_array_from(&[s])));
    }
    let slen = rt.heap().string_len(s);
    let rlen = rt.heap().string_len(r);
    if rlen == 0 {
        let n = slen.min(lim as usize);
        let mut parts = Vec::with_capacity(n);
        for i in 0..n {
            let p = substring_value(rt, s, i, i + 1);
            parts.push(p);
        }
        return Ok(Value::object(rt.new_array_from(&parts)));
    }
    if slen == 0 {
        return Ok(Value::object(rt.new_array_from(&[s])));
    }
    let (x, y) = (rt.flat(s), rt.flat(r));
    let mut cuts = Vec::new();
    {
        let (hv, nv) = (rt.heap().str_view(x), rt.heap().str_view(y));
        let mut p = 0;
        while let Some(q) = hv.find(&nv, p) {
            cuts.push(q);
            p = q + rlen;
            if cuts.len() as u32 >= lim {
                break;
            }
        }
    }
    let a = rt.new_array(0);
    rt.root(Value::object(a));
    let mut p = 0;
    for q in cuts {
        let part = substring_value(rt, s, p, q);
        rt.array_push(a, part)?;
        if rt.heap().array_length(a) >= lim {
            return Ok(Value::object(a));
        }
        p = q + rlen;
    }
    let part = substring_value(rt, s, p, slen);
    rt.array_push(a, part)?;
    Ok(Value::object(a))
}

/// 22.1.3.24 String.prototype.startsWith(searchString [, position]).
fn starts_with(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let s = this_str(rt, this, "startsWith")?;
    let search = search_string(rt, arg(args, 0), "startsWith")?;
    let len = rt.heap().string_len(s) as f64;
    let start = rt.to_integer_or_infinity(arg(args, 1))?.clamp(0.0, len) as usize;
    let (a, b) = (units(rt, s), units(rt, search));
    if start + b.len() > a.len() {
        return Ok(Value::FALSE);
    }
    Ok(Value::boolean(a[start..start + b.len()] == b[..]))
}

/// B.2.2.1 String.prototype.substr(start, length).
fn substr(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let s = this_str(rt, this, "substr")?;
    let size = rt.heap().string_len(s) as f64;
    let start = rt.to_integer_or_infinity(arg(args, 0))?;
    let start = if start == f64::NEG_INFINITY {
        0.0
    } else if start < 0.0 {
        (size + start).max(0.0)
    } else {
        start.min(size)
    };
    let l = arg(args, 1);
    let len = if l.is_undefined() { size } else { rt.to_integer_or_infinity(l)? };
    let end = (start + len).min(size);
    if start >= end {
        return Ok(rt.names.empty.value());
    }
    Ok(substring_value(rt, s, start as usize, end as usize))
}

/// 22.1.3.25 String.prototype.substring(start, end).
fn substring(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let s = this_str(rt, this, "substring")?;
    let len = rt.heap().string_len(s) as f64;
    let a = rt.to_integer_or_infinity(arg(args, 0))?.clamp(0.0, len);
    let e = arg(args, 1);
    let b = if e.is_undefined() { len } else { rt.to_integer_or_infinity(e)?.clamp(0.0, len) };
    Ok(substring_value(rt, s, a.min(b) as usize, a.max(b) as usize))
}

/// 22.1.3.28 String.prototype.toLowerCase().
fn to_lower_case(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let s = this_str(rt, this, "toLowerCase")?;
    let f = rt.flat(s);
    let out = match rt.heap().str_view(f) {
        StrView::Latin1(b) => {
            if b.iter().all(|c| !c.is_ascii_uppercase() && *c < 128) {
                return Ok(s);
            }
            let out = string_ops::latin1_to_lower(b);
            return Ok(Value::string(rt.heap_mut().alloc_latin1(&out)));
        }
        StrView::Utf16(u) => string_ops::to_lower_case(u),
    };
    case_mapped(rt, &out)
}

/// 22.1.3.30 String.prototype.toUpperCase().
fn to_upper_case(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let s = this_str(rt, this, "toUpperCase")?;
    let f = rt.flat(s);
    let out = match rt.heap().str_view(f) {
        StrView::Latin1(b) => {
            if b.iter().all(|c| !c.is_ascii_lowercase() && *c < 128) {
                return Ok(s);
            }
            // Each ß becomes SS: a result past the maximum length is known before it is made.
            if string_ops::latin1_upper_len(b) > MAX_STRING_LENGTH {
                return Err(rt.throw_range_error("Invalid string length"));
            }
            match string_ops::latin1_to_upper(b) {
                Some(out) => return Ok(Value::string(rt.heap_mut().alloc_latin1(&out))),
                None => string_ops::to_upper_case(b),
            }
        }
        StrView::Utf16(u) => string_ops::to_upper_case(u),
    };
    case_mapped(rt, &out)
}

/// The string a case mapping made: it can be longer than the original ("ß" upper-cases to
/// "SS", "ΐ" to three units), so longer than the maximum.
fn case_mapped(rt: &mut Runtime, units: &[u16]) -> JsResult<Value> {
    if units.len() > MAX_STRING_LENGTH {
        return Err(rt.throw_range_error("Invalid string length"));
    }
    Ok(units_value(rt, units))
}

/// thisStringValue(value).
fn this_string_value(rt: &mut Runtime, this: Value, what: &str) -> JsResult<Value> {
    if this.is_string() {
        return Ok(this);
    }
    if this.is_object() {
        if let Some(p) = rt.heap().downcast::<PrimitiveObject>(this.gc()) {
            let v = rt.heap().get(p).value;
            if v.is_string() {
                return Ok(v);
            }
        }
    }
    Err(rt.throw_type_error(&format!("String.prototype.{what} requires that 'this' be a String")))
}

/// 22.1.3.29 String.prototype.toString() and 22.1.3.35 String.prototype.valueOf().
fn to_string(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    this_string_value(rt, this, "toString")
}

fn trim_impl(rt: &mut Runtime, this: Value, w: TrimWhere, what: &str) -> JsResult<Value> {
    let s = this_str(rt, this, what)?;
    let f = rt.flat(s);
    let range = match rt.heap().str_view(f) {
        StrView::Latin1(b) => string_ops::trim_range(b, w),
        StrView::Utf16(u) => string_ops::trim_range(u, w),
    };
    Ok(substring_value(rt, s, range.start, range.end))
}

/// 22.1.3.32 String.prototype.trim().
fn trim(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    trim_impl(rt, this, TrimWhere::Both, "trim")
}

/// 22.1.3.34 String.prototype.trimStart().
fn trim_start(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    trim_impl(rt, this, TrimWhere::Start, "trimStart")
}

/// 22.1.3.33 String.prototype.trimEnd().
fn trim_end(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    trim_impl(rt, this, TrimWhere::End, "trimEnd")
}

/// 22.1.3.10 String.prototype.isWellFormed().
fn is_well_formed(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let s = this_str(rt, this, "isWellFormed")?;
    let u = units(rt, s);
    Ok(Value::boolean(string_ops::is_well_formed(&u)))
}

/// 22.1.3.31 String.prototype.toWellFormed().
fn to_well_formed(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let s = this_str(rt, this, "toWellFormed")?;
    let u = units(rt, s);
    let w = string_ops::to_well_formed(&u);
    Ok(units_value(rt, &w))
}

/// 22.1.3.36 String.prototype[@@iterator]().
fn iterator(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let s = this_str(rt, this, "[Symbol.iterator]")?;
    Ok(rt.new_builtin_iterator(s, iter_kind::STRING))
}

/// Whether `o` is a String wrapper object.
#[allow(dead_code)]
pub(crate) fn is_string_object(rt: &Runtime, o: Gc<JsObject>) -> bool {
    rt.heap().downcast::<PrimitiveObject>(o).is_some_and(|p| rt.heap().get(p).value.is_string())
}

// ---- Annex B: the HTML methods ----------------------------------------------------------------

/// B.2.2.2.1 CreateHTML(string, tag, attribute, value): `<tag attribute="value">S</tag>`,
/// with `"` in the value written as `&quot;` (no attribute when `attribute` is empty).
fn create_html(rt: &mut Runtime, this: Value, what: &str, tag: &str, attribute: &str, value: Value) -> JsResult<Value> {
    // 1-2. Let S be ? ToString(? RequireObjectCoercible(string)).
    let s = this_str(rt, this, what)?;
    let mut out: Vec<u16> = Vec::new();
    out.push(u16::from(b'<'));
    out.extend(tag.encode_utf16());
    // 4. The attribute, its value converted after the receiver.
    if !attribute.is_empty() {
        let v = rt.to_string(value)?;
        out.push(u16::from(b' '));
        out.extend(attribute.encode_utf16());
        out.extend("=\"".encode_utf16());
        for u in units(rt, v) {
            match u == u16::from(b'"') {
                true => out.extend("&quot;".encode_utf16()),
                false => out.push(u),
            }
        }
        out.push(u16::from(b'"'));
    }
    out.push(u16::from(b'>'));
    out.extend(units(rt, s));
    out.extend("</".encode_utf16());
    out.extend(tag.encode_utf16());
    out.push(u16::from(b'>'));
    if out.len() > MAX_STRING_LENGTH {
        return Err(rt.throw_range_error("Invalid string length"));
    }
    Ok(units_value(rt, &out))
}

macro_rules! html_methods {
    ($($f:ident = $name:literal, $tag:literal, $attribute:literal;)*) => {$(
        #[doc = concat!("B.2.2 String.prototype.", $name, ": CreateHTML with `<", $tag, ">`.")]
        fn $f(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
            create_html(rt, this, $name, $tag, $attribute, arg(args, 0))
        }
    )*};
}

html_methods! {
    anchor = "anchor", "a", "name";
    big = "big", "big", "";
    blink = "blink", "blink", "";
    bold = "bold", "b", "";
    fixed = "fixed", "tt", "";
    fontcolor = "fontcolor", "font", "color";
    fontsize = "fontsize", "font", "size";
    italics = "italics", "i", "";
    link_ = "link", "a", "href";
    small = "small", "small", "";
    strike = "strike", "strike", "";
    sub = "sub", "sub", "";
    sup = "sup", "sup", "";
}
