//! Uint8Array to and from base64 and hex: `Uint8Array.fromBase64`, `fromHex`, and
//! `Uint8Array.prototype.toBase64`, `toHex`, `setFromBase64`, `setFromHex` (ES2026).
//!
//! The decoders follow the specification's FromBase64 and FromHex: they report how much of
//! the input they read and the bytes decoded before any error, because `setFromBase64`
//! writes those bytes before it throws.

use super::{allocate_with_length, as_typed_array};
use crate::builtins::{arg, rows, Builtin, Row};
use crate::gc::Gc;
use crate::object::typed_array::ElementKind;
use crate::object::JsObject;
use crate::runtime::{Intrinsic, JsResult, Runtime};
use crate::value::Value;

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin = Builtin { rows: ROWS, ..Builtin::NONE };

pub(crate) const ROWS: &[Row] = rows! {
    Uint8Array."fromBase64" => from_base64, 1;
    Uint8Array."fromHex" => from_hex, 1;
    Uint8ArrayPrototype."setFromBase64" => set_from_base64, 1;
    Uint8ArrayPrototype."setFromHex" => set_from_hex, 1;
    Uint8ArrayPrototype."toBase64" => to_base64, 0;
    Uint8ArrayPrototype."toHex" => to_hex, 0;
};

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// What to do with a last chunk of fewer than four characters.
#[derive(Clone, Copy, PartialEq)]
enum LastChunk {
    Loose,
    Strict,
    StopBeforePartial,
}

/// The result of FromBase64 / FromHex: characters read, bytes decoded, and whether an
/// error (a SyntaxError) stopped it.
struct Decoded {
    read: usize,
    bytes: Vec<u8>,
    error: bool,
}

/// The value of a base64 character of the standard alphabet.
fn sextet(c: u16) -> Option<u32> {
    let c = u8::try_from(c).ok()?;
    ALPHABET.iter().position(|&a| a == c).map(|p| p as u32)
}

/// Whether `c` is ASCII whitespace (SkipAsciiWhitespace).
fn is_ascii_space(c: u16) -> bool {
    matches!(c, 0x09 | 0x0a | 0x0c | 0x0d | 0x20)
}

/// DecodeBase64Chunk(chunk, throwOnExtraBits): None when extra bits are set and must not be.
fn decode_chunk(chunk: &[u32], strict: bool) -> Option<Vec<u8>> {
    let mut n = 0u32;
    for i in 0..4 {
        n = (n << 6) | chunk.get(i).copied().unwrap_or(0);
    }
    let b = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
    match chunk.len() {
        2 if strict && b[1] != 0 => None,
        2 => Some(vec![b[0]]),
        3 if strict && b[2] != 0 => None,
        3 => Some(vec![b[0], b[1]]),
        _ => Some(b.to_vec()),
    }
}

/// FromBase64(string, alphabet, lastChunkHandling [, maxLength]).
fn decode_base64(s: &[u16], url: bool, last: LastChunk, max: usize) -> Decoded {
    let mut out = Decoded { read: 0, bytes: Vec::new(), error: false };
    if max == 0 {
        return out;
    }
    let (mut chunk, mut index, length) = (Vec::with_capacity(4), 0usize, s.len());
    let skip = |mut i: usize| {
        while i < length && is_ascii_space(s[i]) {
            i += 1;
        }
        i
    };
    loop {
        index = skip(index);
        if index == length {
            if !chunk.is_empty() {
                match last {
                    LastChunk::StopBeforePartial => return out,
                    LastChunk::Loose if chunk.len() > 1 => {
                        out.bytes.extend(decode_chunk(&chunk, false).expect("not strict"));
                    }
                    _ => {
                        out.error = true;
                        return out;
                    }
                }
            }
            out.read = length;
            return out;
        }
        let mut c = s[index];
        index += 1;
        if c == b'=' as u16 {
            if chunk.len() < 2 {
                out.error = true;
                return out;
            }
            index = skip(index);
            if chunk.len() == 2 {
                if index == length {
                    if last != LastChunk::StopBeforePartial {
                        out.error = true;
                    }
                    return out;
                }
                if s[index] == b'=' as u16 {
                    index = skip(index + 1);
                }
            }
            if index < length {
                out.error = true;
                return out;
            }
            match decode_chunk(&chunk, last == LastChunk::Strict) {
                Some(b) => out.bytes.extend(b),
                None => {
                    out.error = true;
                    return out;
                }
            }
            out.read = length;
            return out;
        }
        if url {
            if c == b'+' as u16 || c == b'/' as u16 {
                out.error = true;
                return out;
            }
            if c == b'-' as u16 {
                c = b'+' as u16;
            } else if c == b'_' as u16 {
                c = b'/' as u16;
            }
        }
        let Some(v) = sextet(c) else {
            out.error = true;
            return out;
        };
        let remaining = max - out.bytes.len();
        if (remaining == 1 && chunk.len() == 2) || (remaining == 2 && chunk.len() == 3) {
            return out;
        }
        chunk.push(v);
        if chunk.len() == 4 {
            out.bytes.extend(decode_chunk(&chunk, false).expect("a whole chunk"));
            chunk.clear();
            out.read = index;
            if out.bytes.len() == max {
                return out;
            }
        }
    }
}

/// FromHex(string [, maxLength]).
fn decode_hex(s: &[u16], max: usize) -> Decoded {
    let mut out = Decoded { read: 0, bytes: Vec::new(), error: false };
    if !s.len().is_multiple_of(2) {
        out.error = true;
        return out;
    }
    let digit = |c: u16| char::from_u32(c as u32).and_then(|c| c.to_digit(16));
    while out.read < s.len() && out.bytes.len() < max {
        let (Some(h), Some(l)) = (digit(s[out.read]), digit(s[out.read + 1])) else {
            out.error = true;
            return out;
        };
        out.read += 2;
        out.bytes.push((h * 16 + l) as u8);
    }
    out
}

/// The code units of a string argument, or a TypeError.
fn string_units(rt: &mut Runtime, v: Value, what: &str) -> JsResult<Vec<u16>> {
    if !v.is_string() {
        return Err(rt.throw_type_error(&format!("{what}: the argument is not a string")));
    }
    let flat = rt.flat(v);
    let view = rt.heap().str_view(flat);
    Ok((0..view.len()).map(|i| view.at(i)).collect())
}

/// GetOptionsObject(options): undefined is no options; anything else must be an object.
fn options_object(rt: &mut Runtime, v: Value) -> JsResult<Option<Gc<JsObject>>> {
    if v.is_undefined() {
        return Ok(None);
    }
    if !v.is_object() {
        return Err(rt.throw_type_error("The options argument must be an object"));
    }
    Ok(Some(v.gc()))
}

/// A string-valued option that must be one of `allowed` (the first when undefined): its
/// index in `allowed`.
fn choice(rt: &mut Runtime, opts: Option<Gc<JsObject>>, name: &str, allowed: &[&str]) -> JsResult<usize> {
    let Some(o) = opts else { return Ok(0) };
    let key = rt.key(name);
    let v = rt.get(o, key, Value::object(o))?;
    if v.is_undefined() {
        return Ok(0);
    }
    if v.is_string() {
        let s = rt.string_to_rust(v);
        if let Some(i) = allowed.iter().position(|&a| a == s) {
            return Ok(i);
        }
    }
    Err(rt.throw_type_error(&format!("The {name} option must be one of {}", allowed.join(", "))))
}

/// The alphabet option: whether it is base64url.
fn alphabet(rt: &mut Runtime, opts: Option<Gc<JsObject>>) -> JsResult<bool> {
    Ok(choice(rt, opts, "alphabet", &["base64", "base64url"])? == 1)
}

/// The lastChunkHandling option.
fn last_chunk(rt: &mut Runtime, opts: Option<Gc<JsObject>>) -> JsResult<LastChunk> {
    Ok(match choice(rt, opts, "lastChunkHandling", &["loose", "strict", "stop-before-partial"])? {
        0 => LastChunk::Loose,
        1 => LastChunk::Strict,
        _ => LastChunk::StopBeforePartial,
    })
}

/// ValidateUint8Array(ta).
fn this_uint8(rt: &mut Runtime, v: Value, what: &str) -> JsResult<Gc<JsObject>> {
    match as_typed_array(rt, v) {
        Some(ta) if super::kind_of(rt, ta) == ElementKind::Uint8 => Ok(ta),
        _ => Err(rt.throw_type_error(&format!("{what}: this is not a Uint8Array"))),
    }
}

/// GetUint8ArrayBytes(ta): its bytes, or a TypeError when it is out of bounds.
fn bytes_of(rt: &mut Runtime, ta: Gc<JsObject>, what: &str) -> JsResult<Vec<u8>> {
    let Some(len) = rt.typed_array_length(ta) else {
        return Err(rt.throw_type_error(&format!("{what}: the typed array is detached or out of bounds")));
    };
    let v = rt.view(ta);
    let (buffer, offset) = (v.buffer, v.byte_offset);
    Ok(rt.buffer_read(buffer, offset..offset + len, <[u8]>::to_vec))
}

/// A new Uint8Array holding `bytes`.
fn new_uint8_array(rt: &mut Runtime, bytes: &[u8]) -> JsResult<Value> {
    let proto = rt.intrinsic(Intrinsic::Uint8ArrayPrototype);
    let ta = allocate_with_length(rt, proto, ElementKind::Uint8, bytes.len() as f64)?;
    let buffer = rt.view(ta).buffer;
    rt.buffer_write(buffer, 0..bytes.len(), |b| b.copy_from_slice(bytes));
    Ok(Value::object(ta))
}

/// Uint8Array.fromBase64(string [, options]).
fn from_base64(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let s = string_units(rt, arg(args, 0), "Uint8Array.fromBase64")?;
    let opts = options_object(rt, arg(args, 1))?;
    let url = alphabet(rt, opts)?;
    let last = last_chunk(rt, opts)?;
    let d = decode_base64(&s, url, last, usize::MAX);
    if d.error {
        return Err(rt.throw_syntax_error("Uint8Array.fromBase64: the string is not valid base64"));
    }
    new_uint8_array(rt, &d.bytes)
}

/// Uint8Array.fromHex(string).
fn from_hex(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let s = string_units(rt, arg(args, 0), "Uint8Array.fromHex")?;
    let d = decode_hex(&s, usize::MAX);
    if d.error {
        return Err(rt.throw_syntax_error("Uint8Array.fromHex: the string is not valid hex"));
    }
    new_uint8_array(rt, &d.bytes)
}

/// `{ read, written }`.
fn read_written(rt: &mut Runtime, read: usize, written: usize) -> JsResult<Value> {
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    let o = rt.new_object(op);
    let (rk, wk) = (rt.key("read"), rt.key("written"));
    rt.create_data_property_or_throw(o, rk, Value::number(read as f64))?;
    rt.create_data_property_or_throw(o, wk, Value::number(written as f64))?;
    Ok(Value::object(o))
}

/// Writes what was decoded into `into` (SetUint8ArrayBytes), then throws a decoding error
/// or answers `{ read, written }`.
fn finish_set(rt: &mut Runtime, into: Gc<JsObject>, d: Decoded, what: &str) -> JsResult<Value> {
    let v = rt.view(into);
    let (buffer, offset) = (v.buffer, v.byte_offset);
    rt.buffer_write(buffer, offset..offset + d.bytes.len(), |b| b.copy_from_slice(&d.bytes));
    if d.error {
        return Err(rt.throw_syntax_error(&format!("{what}: the string is not valid")));
    }
    read_written(rt, d.read, d.bytes.len())
}

/// ValidateUint8Array for a method that writes: not over an immutable buffer (checked
/// before any argument is read).
fn this_writable_uint8(rt: &mut Runtime, v: Value, what: &str) -> JsResult<Gc<JsObject>> {
    let into = this_uint8(rt, v, what)?;
    if rt.is_immutable_view(into) {
        return Err(rt.throw_type_error(&format!("{what}: the typed array's buffer is immutable")));
    }
    Ok(into)
}

/// The length of `into`, a TypeError when it is out of bounds.
fn writable_length(rt: &mut Runtime, into: Gc<JsObject>, what: &str) -> JsResult<usize> {
    match rt.typed_array_length(into) {
        Some(n) => Ok(n),
        None => Err(rt.throw_type_error(&format!("{what}: the typed array is detached or out of bounds"))),
    }
}

/// Uint8Array.prototype.setFromBase64(string [, options]).
fn set_from_base64(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let what = "Uint8Array.prototype.setFromBase64";
    let into = this_writable_uint8(rt, this, what)?;
    let s = string_units(rt, arg(args, 0), what)?;
    let opts = options_object(rt, arg(args, 1))?;
    let url = alphabet(rt, opts)?;
    let last = last_chunk(rt, opts)?;
    let len = writable_length(rt, into, what)?;
    let d = decode_base64(&s, url, last, len);
    finish_set(rt, into, d, what)
}

/// Uint8Array.prototype.setFromHex(string).
fn set_from_hex(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let what = "Uint8Array.prototype.setFromHex";
    let into = this_writable_uint8(rt, this, what)?;
    let s = string_units(rt, arg(args, 0), what)?;
    let len = writable_length(rt, into, what)?;
    let d = decode_hex(&s, len);
    finish_set(rt, into, d, what)
}

/// Uint8Array.prototype.toBase64([options]).
fn to_base64(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let what = "Uint8Array.prototype.toBase64";
    let ta = this_uint8(rt, this, what)?;
    let opts = options_object(rt, arg(args, 0))?;
    let url = alphabet(rt, opts)?;
    let omit_padding = match opts {
        Some(o) => {
            let key = rt.key("omitPadding");
            let v = rt.get(o, key, Value::object(o))?;
            rt.to_boolean(v)
        }
        None => false,
    };
    let bytes = bytes_of(rt, ta, what)?;
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n =
            (chunk[0] as u32) << 16 | (*chunk.get(1).unwrap_or(&0) as u32) << 8 | *chunk.get(2).unwrap_or(&0) as u32;
        let chars = chunk.len() + 1;
        for i in 0..4 {
            if i < chars {
                let mut c = ALPHABET[(n >> (18 - 6 * i) & 63) as usize];
                if url {
                    c = match c {
                        b'+' => b'-',
                        b'/' => b'_',
                        c => c,
                    };
                }
                out.push(c as char);
            } else if !omit_padding {
                out.push('=');
            }
        }
    }
    Ok(rt.new_string(&out))
}

/// Uint8Array.prototype.toHex().
fn to_hex(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let what = "Uint8Array.prototype.toHex";
    let ta = this_uint8(rt, this, what)?;
    let bytes = bytes_of(rt, ta, what)?;
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push_str(&format!("{b:02x}"));
    }
    Ok(rt.new_string(&out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    #[test]
    fn base64_decodes_chunks_padding_and_partial_ends() {
        let d = decode_base64(&units("Zm9v YmE="), false, LastChunk::Loose, usize::MAX);
        assert_eq!((d.bytes.as_slice(), d.read, d.error), (&b"fooba"[..], 9, false));
        let d = decode_base64(&units("Zm9vYg"), false, LastChunk::StopBeforePartial, usize::MAX);
        assert_eq!((d.bytes.as_slice(), d.read, d.error), (&b"foo"[..], 4, false));
        assert!(decode_base64(&units("Zm9vYg"), false, LastChunk::Strict, usize::MAX).error);
        assert!(decode_base64(&units("Zm9vYh=="), false, LastChunk::Strict, usize::MAX).error, "extra bits");
        let d = decode_base64(&units("Zm9vYmFy"), false, LastChunk::Loose, 4);
        assert_eq!((d.bytes.as_slice(), d.read), (&b"foo"[..], 4), "room for only one more chunk");
        assert!(decode_base64(&units("_-8"), false, LastChunk::Loose, usize::MAX).error);
        assert_eq!(decode_base64(&units("_-8"), true, LastChunk::Loose, usize::MAX).bytes, [0xff, 0xef]);
    }

    #[test]
    fn hex_decodes_pairs_up_to_the_room_given() {
        assert_eq!(decode_hex(&units("00fFa0"), usize::MAX).bytes, [0, 255, 160]);
        assert!(decode_hex(&units("abc"), usize::MAX).error);
        let d = decode_hex(&units("0102xx"), usize::MAX);
        assert_eq!((d.bytes.as_slice(), d.read, d.error), (&[1u8, 2][..], 4, true));
        assert_eq!(decode_hex(&units("010203"), 2).read, 4);
    }
}
