//! 25.5 The JSON object: `JSON.parse` (text parsed by `conv::json`, values built here,
//! then the reviver walk) and `JSON.stringify` (SerializeJSONProperty with replacer
//! functions and property lists, `toJSON`, indentation and cycle detection).

use super::{arg, Builtin};
use crate::gc::{CellKind, Gc};
use crate::object::shape::{CONFIGURABLE, ENUMERABLE};
use crate::object::{BigIntCell, JsObject, Key, PrimitiveObject};
use crate::runtime::{Intrinsic, JsResult, Runtime};
use crate::string::StrView;
use crate::value::Value;
use ecma::conv::json::{self as cj, JsonErrorKind, JsonValue};

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin = Builtin { install, ..Builtin::NONE };

/// Installs `JSON` on the global object.
pub(crate) fn install(rt: &mut Runtime, global: Gc<JsObject>) {
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    let json = rt.new_object(op);
    rt.define_method(json, "parse", parse, 2);
    rt.define_method(json, "stringify", stringify, 3);
    super::iterator::define_tag(rt, json, "JSON");
    rt.define_value(global, "JSON", Value::object(json), crate::object::shape::WRITABLE | CONFIGURABLE);
}

/// 25.5.1 JSON.parse(text [, reviver]).
pub(crate) fn parse(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let jsonString be ? ToString(text).
    let s = rt.to_string(arg(args, 0))?;
    rt.root(s);
    let flat = rt.flat(s);
    let parsed = match rt.heap().str_view(flat) {
        StrView::Latin1(b) => cj::parse(b),
        StrView::Utf16(u) => cj::parse(u),
    };
    let tree = match parsed {
        Ok(t) => t,
        Err(e) => {
            return Err(match e.kind {
                JsonErrorKind::Syntax => rt.throw_syntax_error(&e.message),
                JsonErrorKind::TooDeep => rt.throw_range_error(&e.message),
            })
        }
    };
    let unfiltered = build(rt, &tree);
    let reviver = arg(args, 1);
    // 11. If IsCallable(reviver) is true, then
    if rt.is_callable(reviver) {
        rt.root(unfiltered);
        let op = rt.intrinsic(Intrinsic::ObjectPrototype);
        let root = rt.new_object(op);
        rt.root(Value::object(root));
        let empty = Key::Name(rt.names.empty);
        rt.create_data_property_or_throw(root, empty, unfiltered)?;
        return internalize(rt, root, empty, reviver);
    }
    Ok(unfiltered)
}

/// Builds the JavaScript value of a parsed JSON tree. Allocation cannot collect, so the
/// partly built values need no rooting.
fn build(rt: &mut Runtime, v: &JsonValue) -> Value {
    match v {
        JsonValue::Null => Value::NULL,
        JsonValue::Bool(b) => Value::boolean(*b),
        JsonValue::Number(n) => Value::number(*n),
        JsonValue::String(u) => rt.new_string_units(u),
        JsonValue::Array(items) => {
            let vals: Vec<Value> = items.iter().map(|i| build(rt, i)).collect();
            Value::object(rt.new_array_from(&vals))
        }
        JsonValue::Object(props) => {
            let op = rt.intrinsic(Intrinsic::ObjectPrototype);
            let o = rt.new_object(op);
            for (k, pv) in props {
                let kv = rt.new_string_units(k);
                let key = rt.key_from_string(kv);
                let val = build(rt, pv);
                let _ = rt.create_data_property(o, key, val);
            }
            Value::object(o)
        }
    }
}

/// 25.5.1.1 InternalizeJSONProperty(holder, name, reviver).
fn internalize(rt: &mut Runtime, holder: Gc<JsObject>, name: Key, reviver: Value) -> JsResult<Value> {
    let val = rt.get(holder, name, Value::object(holder))?;
    let mark = rt.handle_mark();
    rt.root(val);
    if val.is_object() {
        let o: Gc<JsObject> = val.gc();
        if rt.is_array(val)? {
            let len = super::array::length_of(rt, o)?;
            let mut i = 0.0;
            while i < len {
                let k = Key::Index(i as u32);
                revive_element(rt, o, k, reviver)?;
                i += 1.0;
            }
        } else {
            let keys = rt.own_property_keys(o)?;
            super::object::root_keys(rt, &keys);
            for k in keys {
                if let Key::Name(n) = k {
                    if n.is_symbol() {
                        continue;
                    }
                }
                let enumerable = rt.get_own_property(o, k)?.is_some_and(|d| d.enumerable == Some(true));
                if enumerable {
                    revive_element(rt, o, k, reviver)?;
                }
            }
        }
    }
    let name_v = rt.key_to_value(name);
    let r = rt.call(reviver, Value::object(holder), &[name_v, val])?;
    rt.release_handles(mark);
    Ok(r)
}

fn revive_element(rt: &mut Runtime, o: Gc<JsObject>, k: Key, reviver: Value) -> JsResult<()> {
    let new_el = internalize(rt, o, k, reviver)?;
    if new_el.is_undefined() {
        rt.delete(o, k)?;
    } else {
        rt.create_data_property(o, k, new_el)?;
    }
    Ok(())
}

/// The state of one JSON.stringify call (25.5.2).
struct Serializer {
    replacer: Value,
    property_list: Option<Vec<Key>>,
    gap: Vec<u16>,
    indent: Vec<u16>,
    stack: Vec<Value>,
    out: Vec<u16>,
}

/// 25.5.2 JSON.stringify(value [, replacer [, space]]).
fn stringify(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let (value, replacer, space) = (arg(args, 0), arg(args, 1), arg(args, 2));
    let mut s = Serializer {
        replacer: Value::UNDEFINED,
        property_list: None,
        gap: Vec::new(),
        indent: Vec::new(),
        stack: Vec::new(),
        out: Vec::new(),
    };
    // 4. If replacer is an Object, then
    if replacer.is_object() {
        if rt.is_callable(replacer) {
            s.replacer = replacer;
        } else if rt.is_array(replacer)? {
            let ro: Gc<JsObject> = replacer.gc();
            let len = super::array::length_of(rt, ro)?;
            let mut list: Vec<Key> = Vec::new();
            let mut k = 0.0;
            while k < len {
                let v = rt.get(ro, Key::Index(k as u32), replacer)?;
                let item = if v.is_string() {
                    Some(v)
                } else if v.is_number() {
                    Some(rt.to_string(v)?)
                } else if v.is_object() {
                    let is_wrapper = rt.heap().downcast::<PrimitiveObject>(v.gc()).is_some_and(|p| {
                        let pv = rt.heap().get(p).value;
                        pv.is_string() || pv.is_number()
                    });
                    if is_wrapper {
                        Some(rt.to_string(v)?)
                    } else {
                        None
                    }
                } else {
                    None
                };
                if let Some(item) = item {
                    let key = rt.key_from_string(item);
                    let kv = rt.key_to_value(key);
                    rt.root(kv);
                    if !list.contains(&key) {
                        list.push(key);
                    }
                }
                k += 1.0;
            }
            s.property_list = Some(list);
        }
    }
    // 5. If space is an Object: unwrap Number and String objects.
    let mut space = space;
    if space.is_object() {
        if let Some(p) = rt.heap().downcast::<PrimitiveObject>(space.gc()) {
            let pv = rt.heap().get(p).value;
            if pv.is_number() {
                space = Value::number(rt.to_number(space)?);
            } else if pv.is_string() {
                space = rt.to_string(space)?;
            }
        }
    }
    // 6-8. The gap.
    if let Some(n) = space.as_number() {
        let n = ecma::number::integer_or_infinity(n).clamp(0.0, 10.0) as usize;
        s.gap = vec![b' ' as u16; n];
    } else if space.is_string() {
        let mut u = rt.string_units(space);
        u.truncate(10);
        s.gap = u;
    }
    // 9-11. Wrapper object {"": value}.
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    let wrapper = rt.new_object(op);
    rt.root(Value::object(wrapper));
    let empty = Key::Name(rt.names.empty);
    rt.create_data_property_or_throw(wrapper, empty, value)?;
    let ok = serialize_property(rt, &mut s, empty, wrapper)?;
    if !ok {
        return Ok(Value::UNDEFINED);
    }
    if s.out.len() > crate::string::MAX_STRING_LENGTH {
        return Err(rt.throw_range_error("Invalid string length"));
    }
    Ok(rt.new_string_units(&s.out))
}

/// 25.5.2.2 SerializeJSONProperty(state, key, holder); false means undefined (nothing
/// written).
fn serialize_property(rt: &mut Runtime, s: &mut Serializer, key: Key, holder: Gc<JsObject>) -> JsResult<bool> {
    let mark = rt.handle_mark();
    // 1. Let value be ? Get(holder, key).
    let mut value = rt.get(holder, key, Value::object(holder))?;
    rt.root(value);
    // 2. If value is an Object or a BigInt, call its toJSON.
    if value.is_object() || value.is_bigint() {
        let tk = Key::Name(rt.names.to_json);
        let to_json = rt.get_v(value, tk)?;
        if rt.is_callable(to_json) {
            let kv = rt.key_to_value(key);
            value = rt.call(to_json, value, &[kv])?;
            rt.root(value);
        }
    }
    // 3. If state.[[ReplacerFunction]] is not undefined, call it.
    if !s.replacer.is_undefined() {
        let kv = rt.key_to_value(key);
        value = rt.call(s.replacer, Value::object(holder), &[kv, value])?;
        rt.root(value);
    }
    // 4. Unwrap Number, String, Boolean and BigInt objects.
    if value.is_object() {
        if let Some(p) = rt.heap().downcast::<PrimitiveObject>(value.gc()) {
            let pv = rt.heap().get(p).value;
            if pv.is_number() {
                value = Value::number(rt.to_number(value)?);
            } else if pv.is_string() {
                value = rt.to_string(value)?;
            } else if pv.is_boolean() || pv.is_bigint() {
                value = pv;
            }
            rt.root(value);
        }
    }
    let r = match value.kind() {
        crate::value::Kind::Null => {
            push_ascii(&mut s.out, "null");
            true
        }
        crate::value::Kind::Boolean => {
            push_ascii(&mut s.out, if value == Value::TRUE { "true" } else { "false" });
            true
        }
        crate::value::Kind::String => {
            quote_into(rt, s, value)?;
            true
        }
        crate::value::Kind::Number => {
            let n = value.number_unchecked();
            if n.is_finite() {
                let t = ecma::conv::number_to_string::number_to_string(n);
                push_ascii(&mut s.out, &t);
            } else {
                push_ascii(&mut s.out, "null");
            }
            true
        }
        crate::value::Kind::BigInt => {
            let _ = rt.heap().get(value.gc::<BigIntCell>());
            return Err(rt.throw_type_error("Do not know how to serialize a BigInt"));
        }
        crate::value::Kind::Object if !rt.is_callable(value) => {
            if rt.is_array(value)? {
                serialize_array(rt, s, value.gc())?;
            } else {
                serialize_object(rt, s, value.gc())?;
            }
            true
        }
        _ => false,
    };
    rt.release_handles(mark);
    // Strings are checked as they are quoted; what else a value adds is short, so the text
    // never grows far past the maximum (a structure that shares its parts can describe a
    // text far longer than memory).
    if s.out.len() > crate::string::MAX_STRING_LENGTH {
        return Err(rt.throw_range_error("Invalid string length"));
    }
    Ok(r)
}

/// Appends string `v` quoted (25.5.2.3), or throws a RangeError when that would take the
/// text past the maximum string length.
fn quote_into(rt: &mut Runtime, s: &mut Serializer, v: Value) -> JsResult<()> {
    let f = rt.flat(v);
    let max = crate::string::MAX_STRING_LENGTH;
    let fits = match rt.heap().str_view(f) {
        StrView::Latin1(b) => cj::quote_json_string(b, &mut s.out, max),
        StrView::Utf16(u) => cj::quote_json_string(u, &mut s.out, max),
    };
    if fits {
        Ok(())
    } else {
        Err(rt.throw_range_error("Invalid string length"))
    }
}

fn push_ascii(out: &mut Vec<u16>, s: &str) {
    out.extend(s.bytes().map(|b| b as u16));
}

fn enter(rt: &mut Runtime, s: &mut Serializer, v: Value) -> JsResult<()> {
    if s.stack.contains(&v) {
        return Err(rt.throw_type_error("Converting circular structure to JSON"));
    }
    if s.stack.len() > 10_000 {
        return Err(rt.throw_range_error("Maximum call stack size exceeded"));
    }
    s.stack.push(v);
    Ok(())
}

/// 25.5.2.5 SerializeJSONObject(state, value).
fn serialize_object(rt: &mut Runtime, s: &mut Serializer, o: Gc<JsObject>) -> JsResult<()> {
    enter(rt, s, Value::object(o))?;
    let stepback = s.indent.clone();
    s.indent.extend_from_slice(&s.gap.clone());
    let keys: Vec<Key> = match &s.property_list {
        Some(list) => list.clone(),
        None => {
            let all = rt.own_property_keys(o)?;
            super::object::root_keys(rt, &all);
            let mut ks = Vec::new();
            for k in all {
                if let Key::Name(n) = k {
                    if n.is_symbol() {
                        continue;
                    }
                }
                let enumerable = match rt.own_lookup(o, k) {
                    // A proxy's own properties are what its trap says.
                    _ if rt.has_own_methods(o) => {
                        rt.get_own_property(o, k)?.is_some_and(|d| d.enumerable == Some(true))
                    }
                    crate::object::property::Own::Absent => false,
                    crate::object::property::Own::Slot(_, a) | crate::object::property::Own::Virtual(_, a) => {
                        a & ENUMERABLE != 0
                    }
                    crate::object::property::Own::Element(_) => true,
                };
                if enumerable {
                    ks.push(k);
                }
            }
            ks
        }
    };
    s.out.push(b'{' as u16);
    let mut any = false;
    for k in keys {
        let before = s.out.len();
        if any {
            s.out.push(b',' as u16);
        }
        if !s.gap.is_empty() {
            s.out.push(b'\n' as u16);
            s.out.extend_from_slice(&s.indent);
        }
        let kv = rt.key_to_value(k);
        quote_into(rt, s, kv)?;
        s.out.push(b':' as u16);
        if !s.gap.is_empty() {
            s.out.push(b' ' as u16);
        }
        if serialize_property(rt, s, k, o)? {
            any = true;
        } else {
            s.out.truncate(before);
        }
    }
    if any && !s.gap.is_empty() {
        s.out.push(b'\n' as u16);
        s.out.extend_from_slice(&stepback);
    }
    s.out.push(b'}' as u16);
    s.stack.pop();
    s.indent = stepback;
    Ok(())
}

/// 25.5.2.6 SerializeJSONArray(state, value).
fn serialize_array(rt: &mut Runtime, s: &mut Serializer, o: Gc<JsObject>) -> JsResult<()> {
    enter(rt, s, Value::object(o))?;
    let stepback = s.indent.clone();
    s.indent.extend_from_slice(&s.gap.clone());
    let len = super::array::length_of(rt, o)?;
    s.out.push(b'[' as u16);
    let mut i = 0.0;
    while i < len {
        if i > 0.0 {
            s.out.push(b',' as u16);
        }
        if !s.gap.is_empty() {
            s.out.push(b'\n' as u16);
            s.out.extend_from_slice(&s.indent);
        }
        if !serialize_property(rt, s, Key::Index(i as u32), o)? {
            push_ascii(&mut s.out, "null");
        }
        i += 1.0;
    }
    if len > 0.0 && !s.gap.is_empty() {
        s.out.push(b'\n' as u16);
        s.out.extend_from_slice(&stepback);
    }
    s.out.push(b']' as u16);
    s.stack.pop();
    s.indent = stepback;
    let _ = CellKind::Array;
    Ok(())
}
