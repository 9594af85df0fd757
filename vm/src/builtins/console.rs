//! `console` and value display: `console.log` prints primitives like node and objects in a
//! simplified node style (`{ a: 1, b: 'x' }`, `[ 1, 2, 3 ]`, `[Function: f]`), without
//! running JavaScript (accessors show as `[Getter]`).

use super::Builtin;
use crate::gc::{CellKind, Gc};
use crate::object::property::Own;
use crate::object::shape::{ACCESSOR, CONFIGURABLE, ENUMERABLE, WRITABLE};
use crate::object::{DateObject, JsObject, Key, PrimitiveObject};
use crate::runtime::function::{BoundFunction, Closure, NativeFunction};
use crate::runtime::{JsResult, Runtime};
use crate::value::{Kind, Value};

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin = Builtin { install, ..Builtin::NONE };

/// Installs `console` on the global object.
pub(crate) fn install(rt: &mut Runtime, global: Gc<JsObject>) {
    let op = rt.intrinsic(crate::runtime::Intrinsic::ObjectPrototype);
    let console = rt.new_object(op);
    for name in ["log", "info", "warn", "error", "debug", "trace"] {
        rt.define_method(console, name, console_log, 0);
    }
    rt.define_value(global, "console", Value::object(console), WRITABLE | CONFIGURABLE);
}

/// `console.log(...args)`, also the global `print`: strings as they are, other values as
/// node displays them, separated by spaces.
pub(crate) fn console_log(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let mut line = String::new();
    for (i, &a) in args.iter().enumerate() {
        if i > 0 {
            line.push(' ');
        }
        if a.is_string() {
            line.push_str(&rt.string_to_rust(a));
        } else {
            line.push_str(&inspect(rt, a));
        }
    }
    line.push('\n');
    rt.write_output(&line);
    Ok(Value::UNDEFINED)
}

/// Node-like display of a value, as `console.log` prints it (a string as itself).
pub(crate) fn inspect(rt: &mut Runtime, v: Value) -> String {
    let mut out = String::new();
    let mut seen = Vec::new();
    inspect_into(rt, v, 0, &mut seen, &mut out, true);
    out
}

/// Node-like display of a value as `util.inspect` gives it (a string quoted).
pub(crate) fn inspect_quoted(rt: &mut Runtime, v: Value) -> String {
    let mut out = String::new();
    let mut seen = Vec::new();
    inspect_into(rt, v, 0, &mut seen, &mut out, false);
    out
}

fn quote(s: &str) -> String {
    let q = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    let mut out = String::new();
    out.push(q);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\\' => out.push_str("\\\\"),
            c if c == q => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out.push(q);
    out
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_alphabetic() || c == '_' || c == '$' => {}
        _ => return false,
    }
    chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

fn inspect_into(rt: &mut Runtime, v: Value, depth: usize, seen: &mut Vec<Value>, out: &mut String, top: bool) {
    match v.kind() {
        Kind::String if !top => {
            let s = rt.string_to_rust(v);
            out.push_str(&quote(&s));
        }
        Kind::Object => inspect_object(rt, v.gc(), depth, seen, out),
        _ => out.push_str(&rt.display_primitive(v)),
    }
}

fn inspect_object(rt: &mut Runtime, obj: Gc<JsObject>, depth: usize, seen: &mut Vec<Value>, out: &mut String) {
    let v = Value::object(obj);
    if seen.contains(&v) {
        out.push_str("[Circular *1]");
        return;
    }
    let kind = rt.heap.object_kind(obj);
    match kind {
        // A proxy shows as its target, as node shows it (without running a trap).
        CellKind::Proxy => {
            match rt.proxy_target(obj) {
                Some(t) => inspect_object(rt, t, depth, seen, out),
                None => out.push_str("<Revoked Proxy>"),
            }
            return;
        }
        CellKind::Closure | CellKind::NativeFunction | CellKind::BoundFunction => {
            let name = rt.function_name(obj);
            let is_class = kind == CellKind::Closure
                && crate::code::info_flags(rt.heap.get(obj.cast::<Closure>()).func)
                    .contains(bytecode::FunctionFlags::CLASS_CONSTRUCTOR);
            let _ = (rt.heap.downcast::<NativeFunction>(obj), rt.heap.downcast::<BoundFunction>(obj));
            if is_class {
                out.push_str(&format!("[class {}]", if name.is_empty() { "(anonymous)" } else { &name }));
            } else if name.is_empty() {
                out.push_str("[Function (anonymous)]");
            } else {
                out.push_str(&format!("[Function: {name}]"));
            }
            return;
        }
        CellKind::Error => {
            if let Some(s) = rt.error_stack(obj) {
                if s.is_string() {
                    let text = rt.string_to_rust(s);
                    if depth > 0 {
                        out.push('[');
                        out.push_str(text.lines().next().unwrap_or(""));
                        out.push(']');
                    } else {
                        out.push_str(&text);
                    }
                    return;
                }
            }
            let e = rt.describe_thrown(v);
            out.push_str(&e.stack);
            return;
        }
        CellKind::PrimitiveObject => {
            let p = rt.heap.get(obj.cast::<PrimitiveObject>()).value;
            let tag = match p.kind() {
                Kind::String => "String",
                Kind::Number => "Number",
                Kind::Boolean => "Boolean",
                Kind::Symbol => "Symbol",
                _ => "BigInt",
            };
            out.push_str(&format!("[{tag}: "));
            inspect_into(rt, p, depth + 1, seen, out, false);
            out.push(']');
            return;
        }
        CellKind::Date => {
            let t = rt.heap.get(obj.cast::<DateObject>()).time;
            match ecma::conv::date::to_iso_string(t) {
                Some(s) => out.push_str(&s),
                None => out.push_str("Invalid Date"),
            }
            return;
        }
        CellKind::RegExp => {
            let r = rt.heap.get(obj.cast::<crate::object::RegExpObject>());
            let (src, flags) = (r.source, r.flags);
            let s = if src.is_string() { rt.string_to_rust(src) } else { String::new() };
            let f = if flags.is_string() { rt.string_to_rust(flags) } else { String::new() };
            out.push_str(&format!("/{s}/{f}"));
            return;
        }
        _ => {}
    }
    if depth > 2 {
        out.push_str(if kind == CellKind::Array { "[Array]" } else { "[Object]" });
        return;
    }
    seen.push(v);
    let namespace = kind == CellKind::ModuleNamespace;
    let mut keys = if namespace { rt.namespace_export_keys(obj) } else { Vec::new() };
    keys.extend(rt.own_keys_raw(obj));
    let mut parts: Vec<String> = Vec::new();
    let is_typed = kind == CellKind::TypedArray;
    let is_array = kind == CellKind::Array || is_typed;
    // A promise shows its state first, as node does: `Promise { <pending> }`,
    // `Promise { 1 }`, `Promise { <rejected> 1 }`.
    if kind == CellKind::Promise {
        let mut s = String::new();
        match rt.promise_result(obj) {
            None => s.push_str("<pending>"),
            Some(Ok(value)) => inspect_into(rt, value, depth + 1, seen, &mut s, false),
            Some(Err(reason)) => {
                s.push_str("<rejected> ");
                inspect_into(rt, reason, depth + 1, seen, &mut s, false);
            }
        }
        parts.push(s);
    }
    // Map and Set entries, and the size after the constructor name: `Map(1) { 'a' => 1 }`.
    let mut size = None;
    if kind == CellKind::Collection {
        let c = obj.cast::<crate::object::CollectionObject>();
        let d = &rt.heap.get(c).data;
        let (is_set, weak, live) = (d.is_set, d.weak, d.live);
        let entries: Vec<(Value, Value)> = d.entries.iter().copied().filter(|e| !e.0.is_empty()).collect();
        if weak {
            parts.push("<items unknown>".to_string());
        } else {
            size = Some(live);
            for (k, v) in entries.into_iter().take(100) {
                let mut s = String::new();
                inspect_into(rt, k, depth + 1, seen, &mut s, false);
                if !is_set {
                    s.push_str(" => ");
                    inspect_into(rt, v, depth + 1, seen, &mut s, false);
                }
                parts.push(s);
            }
        }
    }
    // An ArrayBuffer's first 100 bytes in hex and its length, as node shows them.
    if kind == CellKind::ArrayBuffer {
        let b = obj.cast::<crate::object::ArrayBufferObject>();
        match &rt.heap.get(b).data {
            None => parts.push("(detached)".to_string()),
            Some(d) => {
                let hex: Vec<String> = d.iter().take(100).map(|x| format!("{x:02x}")).collect();
                let more = d.len().saturating_sub(100);
                let more = match more {
                    0 => String::new(),
                    1 => " ... 1 more byte".to_string(),
                    n => format!(" ... {n} more bytes"),
                };
                parts.push(format!("[Uint8Contents]: <{}{more}>", hex.join(" ")));
            }
        }
        parts.push(format!("byteLength: {}", rt.heap.get(b).byte_length()));
    }
    if is_array {
        let len = match is_typed {
            true => rt.typed_array_length(obj).unwrap_or(0) as u32,
            false => rt.heap.array_length(obj),
        };
        let mut holes = 0u32;
        let mut i = 0u32;
        while i < len && parts.len() < 100 {
            match rt.own_lookup(obj, Key::Index(i)) {
                Own::Absent => holes += 1,
                _ => {
                    if holes > 0 {
                        parts.push(format!("<{holes} empty item{}>", if holes > 1 { "s" } else { "" }));
                        holes = 0;
                    }
                    let mut s = String::new();
                    property_value(rt, obj, Key::Index(i), depth, seen, &mut s);
                    parts.push(s);
                }
            }
            i += 1;
        }
        if holes > 0 {
            parts.push(format!("<{holes} empty item{}>", if holes > 1 { "s" } else { "" }));
        }
        if i < len {
            parts.push(format!("... {} more item{}", len - i, if len - i > 1 { "s" } else { "" }));
        }
    }
    for k in keys {
        if is_array && matches!(k, Key::Index(_)) {
            continue;
        }
        let attrs = match rt.own_lookup(obj, k) {
            Own::Slot(_, a) => a,
            Own::Element(_) | Own::Absent if namespace => ENUMERABLE,
            Own::Element(_) => ENUMERABLE,
            Own::Virtual(_, a) => a,
            Own::Absent => continue,
        };
        if attrs & ENUMERABLE == 0 {
            continue;
        }
        let name = match k {
            // Node quotes index keys of objects as it does every non-identifier key.
            Key::Index(i) => quote(&i.to_string()),
            Key::Name(n) => {
                let kv = n.value();
                if kv.is_symbol() {
                    format!("[{}]", rt.symbol_descriptive_string(kv))
                } else {
                    let s = rt.string_to_rust(kv);
                    if is_identifier(&s) {
                        s
                    } else {
                        quote(&s)
                    }
                }
            }
        };
        let mut s = format!("{name}: ");
        property_value(rt, obj, k, depth, seen, &mut s);
        parts.push(s);
    }
    seen.pop();
    let proto = rt.get_prototype_of(obj);
    let mut prefix = String::new();
    if proto.is_null() && !is_array {
        prefix.push_str("[Object: null prototype] ");
    } else if proto.is_object() && !is_array {
        let ck = Key::Name(rt.names.constructor);
        if let Some(c) = rt.peek_data(proto.gc(), ck) {
            if c.is_object() {
                let n = rt.function_name(c.gc());
                if !n.is_empty() && n != "Object" {
                    prefix = format!("{n} ");
                }
            }
        }
    }
    if kind == CellKind::Arguments {
        prefix = "[Arguments] ".to_string();
    }
    if namespace {
        prefix = "[Module: null prototype] ".to_string();
    }
    // `Uint8Array(3) [ 1, 2, 3 ]`: the constructor's name and the length.
    if is_typed {
        let ck = Key::Name(rt.names.constructor);
        let c = if proto.is_object() { rt.peek_data(proto.gc(), ck) } else { None };
        let name = match c {
            Some(c) if c.is_object() => rt.function_name(c.gc()),
            _ => crate::object::typed_array::ElementKind::name(rt.view(obj).kind).to_string(),
        };
        size = Some(rt.typed_array_length(obj).unwrap_or(0));
        prefix = format!("{name} ");
    }
    if let (Some(n), Some(name)) = (size, prefix.strip_suffix(' ')) {
        prefix = format!("{name}({n}) ");
    }
    let (open, close) = if is_array || kind == CellKind::Arguments { ("[", "]") } else { ("{", "}") };
    if parts.is_empty() {
        // Node writes an empty namespace with the two spaces of its entries' padding.
        let gap = if namespace { "  " } else { "" };
        out.push_str(&format!("{prefix}{open}{gap}{close}"));
        return;
    }
    let total: usize = parts.iter().map(|p| p.len() + 2).sum();
    if total + prefix.len() <= 72 && !parts.iter().any(|p| p.contains('\n')) {
        out.push_str(&format!("{prefix}{open} {} {close}", parts.join(", ")));
    } else {
        let indent = "  ".repeat(depth + 1);
        out.push_str(&format!("{prefix}{open}\n"));
        for (i, p) in parts.iter().enumerate() {
            out.push_str(&indent);
            out.push_str(p);
            if i + 1 < parts.len() {
                out.push(',');
            }
            out.push('\n');
        }
        out.push_str(&"  ".repeat(depth));
        out.push_str(close);
    }
}

fn property_value(rt: &mut Runtime, obj: Gc<JsObject>, k: Key, depth: usize, seen: &mut Vec<Value>, out: &mut String) {
    match rt.own_lookup(obj, k) {
        Own::Slot(_, attrs) if attrs & ACCESSOR != 0 => {
            let d = rt.get_own_property(obj, k).ok().flatten().unwrap_or_default();
            let g = !d.get.unwrap_or(Value::UNDEFINED).is_undefined();
            let s = !d.set.unwrap_or(Value::UNDEFINED).is_undefined();
            out.push_str(match (g, s) {
                (true, true) => "[Getter/Setter]",
                (true, false) => "[Getter]",
                _ => "[Setter]",
            });
        }
        // A namespace's exports are its bindings: one still in its TDZ has no value yet.
        Own::Absent if rt.heap.object_kind(obj) == CellKind::ModuleNamespace => {
            let mark = rt.handle_mark();
            match rt.get(obj, k, Value::object(obj)) {
                Ok(v) => inspect_into(rt, v, depth + 1, seen, out, false),
                Err(_) if rt.exception_kind == crate::runtime::ExceptionKind::Normal => {
                    rt.exception = Value::UNDEFINED;
                    out.push_str("<uninitialized>");
                }
                Err(_) => out.push_str("<uninitialized>"),
            }
            rt.release_handles(mark);
        }
        _ => {
            let v = rt.peek_data(obj, k).unwrap_or(Value::UNDEFINED);
            inspect_into(rt, v, depth + 1, seen, out, false);
        }
    }
}
