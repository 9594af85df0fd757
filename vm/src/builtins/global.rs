//! Functions of the global object (19.2): parseInt, parseFloat, isNaN, isFinite, the URI
//! functions, indirect eval, and `print`.

use super::{arg, Builtin};
use crate::gc::Gc;
use crate::object::shape::{CONFIGURABLE, WRITABLE};
use crate::object::JsObject;
use crate::runtime::{ErrorKind, JsResult, Runtime, SourceKind};
use crate::string::StrView;
use crate::value::Value;
use ecma::conv;

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin = Builtin { install, ..Builtin::NONE };

const GLOBALS: &[(&str, crate::runtime::function::NativeFn, u32)] = &[
    ("parseInt", parse_int, 2),
    ("parseFloat", parse_float, 1),
    ("isNaN", is_nan, 1),
    ("isFinite", is_finite, 1),
    ("print", super::console::console_log, 0),
    ("encodeURIComponent", encode_uri_component, 1),
    ("encodeURI", encode_uri, 1),
    ("decodeURIComponent", decode_uri_component, 1),
    ("decodeURI", decode_uri, 1),
    ("eval", eval, 1),
    ("escape", escape, 1),
    ("unescape", unescape, 1),
];

/// Installs the global value properties (19.1) and functions (19.2).
pub(crate) fn install(rt: &mut Runtime, global: Gc<JsObject>) {
    rt.define_value(global, "globalThis", Value::object(global), WRITABLE | CONFIGURABLE);
    rt.define_value(global, "NaN", Value::number(f64::NAN), 0);
    rt.define_value(global, "Infinity", Value::number(f64::INFINITY), 0);
    rt.define_value(global, "undefined", Value::UNDEFINED, 0);
    for &(name, f, len) in GLOBALS {
        let func = rt.new_native(name, f, len);
        rt.define_value(global, name, Value::object(func), WRITABLE | CONFIGURABLE);
        if name == "eval" {
            rt.set_intrinsic(crate::runtime::Intrinsic::Eval, Value::object(func));
        }
    }
    // 21.1.2.12-13: Number.parseFloat and Number.parseInt are these same functions.
    let n = rt.intrinsic_object(crate::runtime::Intrinsic::Number);
    for name in ["parseInt", "parseFloat"] {
        let key = rt.key(name);
        if let Some(f) = rt.peek_data(global, key) {
            rt.define_data_raw(n, key, f, WRITABLE | CONFIGURABLE);
        }
    }
}

/// 19.2.5 parseInt(string, radix).
pub(crate) fn parse_int(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let inputString be ? ToString(string).
    let s = rt.to_string(arg(args, 0))?;
    let mark = rt.handle_mark();
    rt.root(s);
    // 6. Let R be ℝ(? ToInt32(radix)).
    let radix = rt.to_int32(arg(args, 1))?;
    rt.release_handles(mark);
    let flat = rt.flat(s);
    let n = match rt.heap().str_view(flat) {
        StrView::Latin1(b) => conv::string_to_number::parse_int(b, radix),
        StrView::Utf16(u) => conv::string_to_number::parse_int(u, radix),
    };
    Ok(Value::number(n))
}

/// 19.2.4 parseFloat(string).
pub(crate) fn parse_float(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let s = rt.to_string(arg(args, 0))?;
    let flat = rt.flat(s);
    let n = match rt.heap().str_view(flat) {
        StrView::Latin1(b) => conv::string_to_number::parse_float(b),
        StrView::Utf16(u) => conv::string_to_number::parse_float(u),
    };
    Ok(Value::number(n))
}

/// 19.2.3 isNaN(number).
fn is_nan(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let n = rt.to_number(arg(args, 0))?;
    Ok(Value::boolean(n.is_nan()))
}

/// 19.2.2 isFinite(number).
fn is_finite(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let n = rt.to_number(arg(args, 0))?;
    Ok(Value::boolean(n.is_finite()))
}

/// 19.2.1 eval(x), indirect: a script evaluated in the global scope of the current realm.
fn eval(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let x = arg(args, 0);
    // 2. If x is not a String, return x.
    if !x.is_string() {
        return Ok(x);
    }
    let source = rt.string_to_rust(x);
    let bytes = rt.compile_source(&source, "eval", SourceKind::Eval)?;
    let realm = rt.realm;
    rt.eval_bundle_in(bytes, realm)
}

/// A direct `eval(...)` (see `BuiltinId::DirectEval`): arguments callee, environment, scope
/// text, then the call's arguments.
pub(crate) fn direct_eval(rt: &mut Runtime, args: &[Value]) -> JsResult<Value> {
    let (callee, env, scope) = (arg(args, 0), arg(args, 1), arg(args, 2));
    let call_args = args.get(3..).unwrap_or(&[]);
    if callee != rt.intrinsic(crate::runtime::Intrinsic::Eval) {
        return rt.call(callee, Value::UNDEFINED, call_args);
    }
    let x = arg(call_args, 0);
    if !x.is_string() {
        return Ok(x);
    }
    let source = rt.string_to_rust(x);
    let scope = if scope.is_string() { rt.string_to_rust(scope) } else { String::new() };
    let bytes = rt.compile_source(&source, "eval", SourceKind::DirectEval(scope))?;
    let bundle = match bytecode::Bundle::from_bytes(bytes) {
        Ok(b) => b,
        Err(e) => return Err(rt.throw_syntax_error(&format!("invalid bundle: {e}"))),
    };
    let realm = rt.realm;
    let index = rt.load_bundle(bundle, realm);
    let info = crate::code::FuncRef::new(&rt.code.bundles[index as usize].functions[0]);
    let closure = crate::runtime::function::make_closure(rt, info, env);
    let mark = rt.handle_mark();
    rt.root(closure);
    let r = rt.call(closure, Value::UNDEFINED, &[]);
    rt.release_handles(mark);
    r
}

impl Runtime {
    /// Compiles source text with the compile hook; a failure throws the SyntaxError.
    pub(crate) fn compile_source(&mut self, source: &str, name: &str, kind: SourceKind) -> JsResult<Vec<u8>> {
        let Some(hook) = self.host.compiler.as_mut() else {
            return Err(
                self.throw_error(ErrorKind::EvalError, "code generation from strings is not supported (no compiler)")
            );
        };
        match hook(source, name, kind) {
            Ok(b) => Ok(b),
            // The hook stopped because the program was interrupted (or failed meanwhile).
            Err(_) if self.host.interrupt.load(std::sync::atomic::Ordering::Relaxed) => {
                Err(self.throw_uncatchable(crate::runtime::ExceptionKind::Interrupted))
            }
            Err(msg) => {
                let first = msg.lines().next().unwrap_or("").to_string();
                let m = match first.find("SyntaxError: ") {
                    Some(i) => first[i + "SyntaxError: ".len()..].to_string(),
                    None => first,
                };
                Err(self.throw_syntax_error(&m))
            }
        }
    }
}

/// B.2.1.1 escape(string): every code unit but ASCII letters, digits and `@*_+-./` as `%XX`
/// or `%uXXXX`.
fn escape(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let s = rt.to_string(arg(args, 0))?;
    let f = rt.flat(s);
    let escaped = match rt.heap().str_view(f) {
        StrView::Latin1(b) => escape_units(b.iter().map(|&c| u16::from(c)), b.len()),
        StrView::Utf16(u) => escape_units(u.iter().copied(), u.len()),
    };
    match escaped {
        Some(out) => Ok(Value::string(rt.heap_mut().alloc_latin1(&out))),
        None => Err(rt.throw_range_error("Invalid string length")),
    }
}

/// The text of `escape` for `units` (`len` of them), or None when it would be longer than
/// the maximum string length.
fn escape_units(units: impl Iterator<Item = u16>, len: usize) -> Option<Vec<u8>> {
    let mut out: Vec<u8> = Vec::with_capacity(len.min(crate::string::MAX_STRING_LENGTH));
    for u in units {
        let hex = |shift: u32| HEX_DIGITS[usize::from((u >> shift) & 0xF)];
        match u {
            _ if u < 128 && (u as u8).is_ascii_alphanumeric() => out.push(u as u8),
            _ if u < 128 && b"@*_+-./".contains(&(u as u8)) => out.push(u as u8),
            _ if u < 256 => out.extend_from_slice(&[b'%', hex(4), hex(0)]),
            _ => out.extend_from_slice(&[b'%', b'u', hex(12), hex(8), hex(4), hex(0)]),
        }
        if out.len() > crate::string::MAX_STRING_LENGTH {
            return None;
        }
    }
    Some(out)
}

/// The digits of `%XX` escapes.
const HEX_DIGITS: &[u8; 16] = b"0123456789ABCDEF";

/// B.2.1.2 unescape(string): `%XX` and `%uXXXX` become the code units they name; anything
/// else stays as it is.
fn unescape(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let s = rt.to_string(arg(args, 0))?;
    let units = rt.string_units(s);
    let hex = |range: &[u16]| -> Option<u16> {
        range.iter().try_fold(0u16, |acc, &u| Some(acc * 16 + char::from_u32(u32::from(u))?.to_digit(16)? as u16))
    };
    let mut out = Vec::with_capacity(units.len());
    let mut k = 0;
    while k < units.len() {
        let c = units[k];
        if c == u16::from(b'%') {
            if units.get(k + 1) == Some(&u16::from(b'u')) {
                if let Some(u) = units.get(k + 2..k + 6).and_then(hex) {
                    out.push(u);
                    k += 6;
                    continue;
                }
            } else if let Some(u) = units.get(k + 1..k + 3).and_then(hex) {
                out.push(u);
                k += 3;
                continue;
            }
        }
        out.push(c);
        k += 1;
    }
    Ok(rt.new_string_units(&out))
}

const URI_RESERVED: &str = ";/?:@&=+$,";
const URI_UNESCAPED_EXTRA: &str = "-_.!~*'()";

fn encode(rt: &mut Runtime, v: Value, extra_unescaped: &str) -> JsResult<Value> {
    let s = rt.to_string(v)?;
    let units = rt.string_units(s);
    let mut out: Vec<u8> = Vec::with_capacity(units.len());
    let mut i = 0;
    while i < units.len() {
        let c = units[i];
        if c < 128 {
            let ch = c as u8 as char;
            if ch.is_ascii_alphanumeric() || URI_UNESCAPED_EXTRA.contains(ch) || extra_unescaped.contains(ch) {
                out.push(c as u8);
                i += 1;
                continue;
            }
        }
        let cp = conv::string_ops::code_point_at(&units, i);
        if cp.is_unpaired_surrogate {
            return Err(rt.throw_error(ErrorKind::UriError, "URI malformed"));
        }
        let ch = char::from_u32(cp.code_point).unwrap_or('\u{fffd}');
        let mut buf = [0u8; 4];
        for b in ch.encode_utf8(&mut buf).bytes() {
            out.extend_from_slice(&[b'%', HEX_DIGITS[usize::from(b >> 4)], HEX_DIGITS[usize::from(b & 0xF)]]);
        }
        if out.len() > crate::string::MAX_STRING_LENGTH {
            return Err(rt.throw_range_error("Invalid string length"));
        }
        i += cp.code_unit_count as usize;
    }
    Ok(Value::string(rt.heap_mut().alloc_latin1(&out)))
}

fn decode(rt: &mut Runtime, v: Value, reserved: &str) -> JsResult<Value> {
    let s = rt.to_string(v)?;
    let units = rt.string_units(s);
    let mut out: Vec<u16> = Vec::with_capacity(units.len());
    let hex = |u: u16| -> Option<u8> { (u < 128).then(|| (u as u8 as char).to_digit(16)).flatten().map(|d| d as u8) };
    let mut i = 0;
    while i < units.len() {
        if units[i] != b'%' as u16 {
            out.push(units[i]);
            i += 1;
            continue;
        }
        // The byte of the escape `%XY` at `k`, if there is a complete one.
        let byte_at = |k: usize| -> Option<u8> {
            if k + 2 < units.len() && units[k] == b'%' as u16 {
                Some(hex(units[k + 1])? * 16 + hex(units[k + 2])?)
            } else {
                None
            }
        };
        let Some(b) = byte_at(i) else {
            return Err(rt.throw_error(ErrorKind::UriError, "URI malformed"));
        };
        if b < 0x80 {
            let ch = b as char;
            if reserved.contains(ch) {
                out.extend_from_slice(&units[i..i + 3]);
            } else {
                out.push(b as u16);
            }
            i += 3;
            continue;
        }
        let n = if b & 0xe0 == 0xc0 {
            2
        } else if b & 0xf0 == 0xe0 {
            3
        } else if b & 0xf8 == 0xf0 {
            4
        } else {
            0
        };
        if n == 0 {
            return Err(rt.throw_error(ErrorKind::UriError, "URI malformed"));
        }
        let mut bytes = vec![b];
        let mut k = i + 3;
        for _ in 1..n {
            match byte_at(k) {
                Some(c) if c & 0xc0 == 0x80 => bytes.push(c),
                _ => return Err(rt.throw_error(ErrorKind::UriError, "URI malformed")),
            }
            k += 3;
        }
        match std::str::from_utf8(&bytes) {
            Ok(text) => {
                for u in text.encode_utf16() {
                    out.push(u);
                }
            }
            Err(_) => return Err(rt.throw_error(ErrorKind::UriError, "URI malformed")),
        }
        i = k;
    }
    Ok(rt.new_string_units(&out))
}

fn encode_uri_component(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    encode(rt, arg(args, 0), "")
}

fn encode_uri(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    encode(rt, arg(args, 0), ";/?:@&=+$,#")
}

fn decode_uri_component(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    decode(rt, arg(args, 0), "")
}

fn decode_uri(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let mut reserved = URI_RESERVED.to_string();
    reserved.push('#');
    decode(rt, arg(args, 0), &reserved)
}
