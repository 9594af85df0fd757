//! 28.1 The Reflect object.

use super::{arg, Builtin};
use crate::gc::Gc;
use crate::object::shape::{CONFIGURABLE, WRITABLE};
use crate::object::JsObject;
use crate::runtime::{Intrinsic, JsResult, Runtime};
use crate::value::Value;

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin = Builtin { install, ..Builtin::NONE };

const FUNCTIONS: &[(&str, crate::runtime::function::NativeFn, u32)] = &[
    ("apply", apply, 3),
    ("construct", construct, 2),
    ("defineProperty", define_property, 3),
    ("deleteProperty", delete_property, 2),
    ("get", get, 2),
    ("getOwnPropertyDescriptor", get_own_property_descriptor, 2),
    ("getPrototypeOf", get_prototype_of, 1),
    ("has", has, 2),
    ("isExtensible", is_extensible, 1),
    ("ownKeys", own_keys, 1),
    ("preventExtensions", prevent_extensions, 1),
    ("set", set, 3),
    ("setPrototypeOf", set_prototype_of, 2),
];

/// Installs `Reflect` on the global object.
pub(crate) fn install(rt: &mut Runtime, global: Gc<JsObject>) {
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    let reflect = rt.new_object(op);
    for &(name, f, len) in FUNCTIONS {
        rt.define_method(reflect, name, f, len);
    }
    super::iterator::define_tag(rt, reflect, "Reflect");
    rt.define_value(global, "Reflect", Value::object(reflect), WRITABLE | CONFIGURABLE);
}

fn target(rt: &mut Runtime, v: Value, what: &str) -> JsResult<Gc<JsObject>> {
    if !v.is_object() {
        return Err(rt.throw_type_error(&format!("Reflect.{what} called on non-object")));
    }
    Ok(v.gc())
}

/// 28.1.1 Reflect.apply(target, thisArgument, argumentsList).
fn apply(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let f = arg(args, 0);
    if !rt.is_callable(f) {
        return Err(rt.throw_type_error("Reflect.apply target is not a function"));
    }
    let list = rt.create_list_from_array_like(arg(args, 2))?;
    rt.call(f, arg(args, 1), &list)
}

/// 28.1.2 Reflect.construct(target, argumentsList [, newTarget]).
fn construct(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let f = arg(args, 0);
    if !rt.is_constructor(f) {
        return Err(rt.throw_type_error("Reflect.construct target is not a constructor"));
    }
    let nt = if args.len() > 2 { args[2] } else { f };
    if !rt.is_constructor(nt) {
        return Err(rt.throw_type_error("Reflect.construct newTarget is not a constructor"));
    }
    let list = rt.create_list_from_array_like(arg(args, 1))?;
    rt.construct(f, &list, nt)
}

/// 28.1.3 Reflect.defineProperty(target, propertyKey, attributes).
fn define_property(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = target(rt, arg(args, 0), "defineProperty")?;
    let key = rt.to_property_key(arg(args, 1))?;
    let kv = rt.key_to_value(key);
    rt.root(kv);
    let desc = rt.descriptor_from_object(arg(args, 2))?;
    Ok(Value::boolean(rt.define_own_property(o, key, &desc)?))
}

/// 28.1.4 Reflect.deleteProperty(target, propertyKey).
fn delete_property(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = target(rt, arg(args, 0), "deleteProperty")?;
    let key = rt.to_property_key(arg(args, 1))?;
    Ok(Value::boolean(rt.delete(o, key)?))
}

/// 28.1.5 Reflect.get(target, propertyKey [, receiver]).
fn get(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = target(rt, arg(args, 0), "get")?;
    let key = rt.to_property_key(arg(args, 1))?;
    let receiver = if args.len() > 2 { args[2] } else { Value::object(o) };
    rt.get(o, key, receiver)
}

/// 28.1.6 Reflect.getOwnPropertyDescriptor(target, propertyKey).
fn get_own_property_descriptor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = target(rt, arg(args, 0), "getOwnPropertyDescriptor")?;
    let key = rt.to_property_key(arg(args, 1))?;
    let d = rt.get_own_property(o, key)?;
    Ok(rt.descriptor_to_object(d))
}

/// 28.1.8 Reflect.getPrototypeOf(target).
fn get_prototype_of(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = target(rt, arg(args, 0), "getPrototypeOf")?;
    rt.prototype_of(o)
}

/// 28.1.9 Reflect.has(target, propertyKey).
fn has(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = target(rt, arg(args, 0), "has")?;
    let key = rt.to_property_key(arg(args, 1))?;
    Ok(Value::boolean(rt.has_property(o, key)?))
}

/// 28.1.10 Reflect.isExtensible(target).
fn is_extensible(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = target(rt, arg(args, 0), "isExtensible")?;
    Ok(Value::boolean(rt.is_extensible(o)?))
}

/// 28.1.11 Reflect.ownKeys(target).
fn own_keys(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = target(rt, arg(args, 0), "ownKeys")?;
    let keys = rt.own_property_keys(o)?;
    let vals: Vec<Value> = keys.into_iter().map(|k| rt.key_to_value(k)).collect();
    Ok(Value::object(rt.new_array_from(&vals)))
}

/// 28.1.12 Reflect.preventExtensions(target).
fn prevent_extensions(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = target(rt, arg(args, 0), "preventExtensions")?;
    Ok(Value::boolean(rt.prevent_extensions(o)?))
}

/// 28.1.13 Reflect.set(target, propertyKey, V [, receiver]).
fn set(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = target(rt, arg(args, 0), "set")?;
    let key = rt.to_property_key(arg(args, 1))?;
    let receiver = if args.len() > 3 { args[3] } else { Value::object(o) };
    Ok(Value::boolean(rt.set(o, key, arg(args, 2), receiver)?))
}

/// 28.1.14 Reflect.setPrototypeOf(target, proto).
fn set_prototype_of(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = target(rt, arg(args, 0), "setPrototypeOf")?;
    let p = arg(args, 1);
    if !p.is_object() && !p.is_null() {
        return Err(rt.throw_type_error("Object prototype may only be an Object or null"));
    }
    Ok(Value::boolean(rt.set_prototype_of(o, p)?))
}
