//! 20.1 Object objects: the constructor, its static functions and Object.prototype.

use super::{arg, rows, Builtin, Row};
use crate::gc::{CellKind, Gc};
use crate::object::property::{Own, PropertyDescriptor};
use crate::object::shape::ENUMERABLE;
use crate::object::{JsObject, Key};
use crate::runtime::{Intrinsic, JsResult, Runtime};
use crate::value::Value;

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin =
    Builtin { init, rows: ROWS, link, globals: &[("Object", Intrinsic::Object)], ..Builtin::NONE };

pub(crate) const ROWS: &[Row] = rows! {
    Object."assign" => assign, 2;
    Object."create" => create, 2;
    Object."defineProperty" => define_property, 3;
    Object."defineProperties" => define_properties, 2;
    Object."entries" => entries, 1;
    Object."freeze" => freeze, 1;
    Object."fromEntries" => from_entries, 1;
    Object."getOwnPropertyDescriptor" => get_own_property_descriptor, 2;
    Object."getOwnPropertyDescriptors" => get_own_property_descriptors, 1;
    Object."getOwnPropertyNames" => get_own_property_names, 1;
    Object."getOwnPropertySymbols" => get_own_property_symbols, 1;
    Object."getPrototypeOf" => get_prototype_of, 1;
    Object."setPrototypeOf" => set_prototype_of, 2;
    Object."is" => is, 2;
    Object."isExtensible" => is_extensible, 1;
    Object."isFrozen" => is_frozen, 1;
    Object."isSealed" => is_sealed, 1;
    Object."keys" => keys, 1;
    Object."values" => values, 1;
    Object."preventExtensions" => prevent_extensions, 1;
    Object."seal" => seal, 1;
    Object."hasOwn" => has_own, 2;
    Object."groupBy" => group_by, 2;
    ObjectPrototype."hasOwnProperty" => has_own_property, 1;
    ObjectPrototype."isPrototypeOf" => is_prototype_of, 1;
    ObjectPrototype."propertyIsEnumerable" => property_is_enumerable, 1;
    ObjectPrototype."toString" => to_string, 0;
    ObjectPrototype."toLocaleString" => to_locale_string, 0;
    ObjectPrototype."valueOf" => value_of, 0;
    ObjectPrototype."__defineGetter__" => define_getter, 2;
    ObjectPrototype."__defineSetter__" => define_setter, 2;
    ObjectPrototype."__lookupGetter__" => lookup_getter, 1;
    ObjectPrototype."__lookupSetter__" => lookup_setter, 1;
    ObjectPrototype."__proto__" => proto_getter, 0, getter;
    ObjectPrototype."__proto__" => proto_setter, 1, setter;
};

/// Creates the Object constructor.
pub(crate) fn init(rt: &mut Runtime) {
    let op = rt.intrinsic_object(Intrinsic::ObjectPrototype);
    let c = rt.make_constructor("Object", object_constructor, 1, Some(op));
    rt.set_intrinsic(Intrinsic::Object, Value::object(c));
}

/// %Object.prototype.toString%, once the table has made it.
fn link(rt: &mut Runtime) {
    let ots = rt.intrinsic_prop(Intrinsic::ObjectPrototype, "toString");
    rt.set_intrinsic(Intrinsic::ObjectProtoToString, ots);
}

/// 20.1.1.1 Object([value]).
fn object_constructor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let nt = rt.native_new_target();
    // 1. If NewTarget is neither undefined nor the active function, then
    if !nt.is_undefined() && nt != rt.native_callee() {
        // a. Return ? OrdinaryCreateFromConstructor(NewTarget, "%Object.prototype%").
        let proto = rt.prototype_from_constructor(nt, Intrinsic::ObjectPrototype)?;
        return Ok(Value::object(rt.new_object(proto)));
    }
    let v = arg(args, 0);
    // 2. If value is either undefined or null, return OrdinaryObjectCreate(%Object.prototype%).
    if v.is_nullish() {
        let op = rt.intrinsic(Intrinsic::ObjectPrototype);
        return Ok(Value::object(rt.new_object(op)));
    }
    // 3. Return ! ToObject(value).
    Ok(Value::object(rt.to_object(v)?))
}

fn to_obj(rt: &mut Runtime, v: Value) -> JsResult<Gc<JsObject>> {
    rt.to_object(v)
}

/// 20.1.2.1 Object.assign(target, ...sources).
fn assign(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let to be ? ToObject(target).
    let to = rt.to_object(arg(args, 0))?;
    rt.root(Value::object(to));
    // 3. For each element nextSource of sources, do
    for &src in args.iter().skip(1) {
        if src.is_nullish() {
            continue;
        }
        let from = rt.to_object(src)?;
        rt.root(Value::object(from));
        let keys = rt.own_property_keys(from)?;
        root_keys(rt, &keys);
        for k in keys {
            if let Some(d) = rt.get_own_property(from, k)? {
                if d.enumerable == Some(true) {
                    let v = rt.get(from, k, Value::object(from))?;
                    rt.set_or_throw(to, k, v)?;
                }
            }
        }
    }
    Ok(Value::object(to))
}

/// Roots the key values of a key list (they may be the only reference to an atom once JS
/// code deletes the property).
pub(crate) fn root_keys(rt: &mut Runtime, keys: &[Key]) {
    for &k in keys {
        if let Key::Name(n) = k {
            rt.root(n.value());
        }
    }
}

/// 20.1.2.2 Object.create(O, Properties).
fn create(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let proto = arg(args, 0);
    // 1. If O is not an Object and O is not null, throw a TypeError exception.
    if !proto.is_object() && !proto.is_null() {
        return Err(rt.throw_type_error("Object prototype may only be an Object or null"));
    }
    let obj = rt.new_object(proto);
    rt.root(Value::object(obj));
    let props = arg(args, 1);
    if !props.is_undefined() {
        object_define_properties(rt, obj, props)?;
    }
    Ok(Value::object(obj))
}

/// 20.1.2.4 Object.defineProperty(O, P, Attributes).
fn define_property(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = arg(args, 0);
    // 1. If O is not an Object, throw a TypeError exception.
    if !o.is_object() {
        return Err(rt.throw_type_error("Object.defineProperty called on non-object"));
    }
    // 2. Let key be ? ToPropertyKey(P).
    let key = rt.to_property_key(arg(args, 1))?;
    let kv = rt.key_to_value(key);
    rt.root(kv);
    // 3. Let desc be ? ToPropertyDescriptor(Attributes).
    let desc = rt.descriptor_from_object(arg(args, 2))?;
    // 4. Perform ? DefinePropertyOrThrow(O, key, desc).
    rt.define_property_or_throw(o.gc(), key, &desc)?;
    Ok(o)
}

/// 20.1.2.3.1 ObjectDefineProperties(O, Properties).
fn object_define_properties(rt: &mut Runtime, obj: Gc<JsObject>, props: Value) -> JsResult<()> {
    let p = rt.to_object(props)?;
    rt.root(Value::object(p));
    let keys = rt.own_property_keys(p)?;
    root_keys(rt, &keys);
    let mut descs = Vec::new();
    for k in keys {
        if let Some(pd) = rt.get_own_property(p, k)? {
            if pd.enumerable == Some(true) {
                let dobj = rt.get(p, k, Value::object(p))?;
                let d = rt.descriptor_from_object(dobj)?;
                descs.push((k, d));
            }
        }
    }
    for (k, d) in descs {
        rt.define_property_or_throw(obj, k, &d)?;
    }
    Ok(())
}

/// 20.1.2.3 Object.defineProperties(O, Properties).
fn define_properties(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = arg(args, 0);
    if !o.is_object() {
        return Err(rt.throw_type_error("Object.defineProperties called on non-object"));
    }
    object_define_properties(rt, o.gc(), arg(args, 1))?;
    Ok(o)
}

#[derive(Clone, Copy, PartialEq)]
enum EnumKind {
    Keys,
    Values,
    Entries,
}

/// 7.3.23 EnumerableOwnProperties.
fn enumerable_own(rt: &mut Runtime, obj: Gc<JsObject>, kind: EnumKind) -> JsResult<Vec<Value>> {
    let keys = rt.own_property_keys(obj)?;
    root_keys(rt, &keys);
    let mut out = Vec::new();
    for k in keys {
        if let Key::Name(n) = k {
            if n.is_symbol() {
                continue;
            }
        }
        // Fast path: own data properties need no descriptor object.
        let enumerable = match rt.own_lookup(obj, k) {
            // A proxy's own properties are what its trap says.
            _ if rt.has_own_methods(obj) => match rt.get_own_property(obj, k)? {
                Some(d) => d.enumerable == Some(true),
                None => continue,
            },
            Own::Absent => continue,
            Own::Slot(_, attrs) | Own::Virtual(_, attrs) => attrs & ENUMERABLE != 0,
            Own::Element(_) => true,
        };
        if !enumerable {
            continue;
        }
        let kv = rt.key_to_value(k);
        match kind {
            EnumKind::Keys => out.push(kv),
            _ => {
                let v = rt.get(obj, k, Value::object(obj))?;
                if kind == EnumKind::Values {
                    out.push(v);
                } else {
                    let pair = rt.new_array_from(&[kv, v]);
                    out.push(Value::object(pair));
                }
                rt.root(*out.last().unwrap_or(&Value::UNDEFINED));
            }
        }
    }
    Ok(out)
}

/// 20.1.2.18 Object.keys(O).
fn keys(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let obj = to_obj(rt, arg(args, 0))?;
    let list = enumerable_own(rt, obj, EnumKind::Keys)?;
    Ok(Value::object(rt.new_array_from(&list)))
}

/// 20.1.2.23 Object.values(O).
fn values(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let obj = to_obj(rt, arg(args, 0))?;
    let list = enumerable_own(rt, obj, EnumKind::Values)?;
    Ok(Value::object(rt.new_array_from(&list)))
}

/// 20.1.2.5 Object.entries(O).
fn entries(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let obj = to_obj(rt, arg(args, 0))?;
    let list = enumerable_own(rt, obj, EnumKind::Entries)?;
    Ok(Value::object(rt.new_array_from(&list)))
}

/// 20.1.2.6 Object.freeze(O).
fn freeze(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = arg(args, 0);
    // 2-3. Let status be ? SetIntegrityLevel(O, level). If status is false, throw a TypeError.
    if o.is_object() && !rt.set_integrity_level(o.gc(), true)? {
        return Err(rt.throw_type_error("Cannot freeze this object"));
    }
    Ok(o)
}

/// 20.1.2.22 Object.seal(O).
fn seal(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = arg(args, 0);
    // 2-3. Let status be ? SetIntegrityLevel(O, level). If status is false, throw a TypeError.
    if o.is_object() && !rt.set_integrity_level(o.gc(), false)? {
        return Err(rt.throw_type_error("Cannot seal this object"));
    }
    Ok(o)
}

/// 20.1.2.16 Object.isFrozen(O).
fn is_frozen(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = arg(args, 0);
    if !o.is_object() {
        return Ok(Value::TRUE);
    }
    Ok(Value::boolean(rt.test_integrity_level(o.gc(), true)?))
}

/// 20.1.2.17 Object.isSealed(O).
fn is_sealed(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = arg(args, 0);
    if !o.is_object() {
        return Ok(Value::TRUE);
    }
    Ok(Value::boolean(rt.test_integrity_level(o.gc(), false)?))
}

/// 20.1.2.15 Object.isExtensible(O).
fn is_extensible(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = arg(args, 0);
    Ok(Value::boolean(o.is_object() && rt.is_extensible(o.gc())?))
}

/// 20.1.2.20 Object.preventExtensions(O).
fn prevent_extensions(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = arg(args, 0);
    // 2-3. Let status be ? O.[[PreventExtensions]](). If status is false, throw a TypeError.
    if o.is_object() && !rt.prevent_extensions(o.gc())? {
        return Err(rt.throw_type_error("Cannot prevent extensions of this object"));
    }
    Ok(o)
}

/// 20.1.2.7 Object.fromEntries(iterable).
fn from_entries(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let iterable = rt.require_object_coercible(arg(args, 0), "Object.fromEntries")?;
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    let obj = rt.new_object(op);
    rt.root(Value::object(obj));
    let it = crate::runtime::iteration::get_iterator(rt, iterable)?;
    rt.root(it);
    loop {
        let entry = crate::runtime::iteration::iterator_next(rt, it)?;
        if entry.is_empty() {
            break;
        }
        let r = (|| -> JsResult<()> {
            if !entry.is_object() {
                return Err(rt.throw_type_error("Iterator value is not an entry object"));
            }
            let e: Gc<JsObject> = entry.gc();
            let k = rt.get(e, Key::Index(0), entry)?;
            let mark = rt.handle_mark();
            rt.root(k);
            let v = rt.get(e, Key::Index(1), entry)?;
            rt.root(v);
            let key = rt.to_property_key(k)?;
            rt.create_data_property_or_throw(obj, key, v)?;
            rt.release_handles(mark);
            Ok(())
        })();
        if let Err(e) = r {
            let _ = crate::runtime::iteration::iterator_close(rt, it, true);
            return Err(e);
        }
    }
    Ok(Value::object(obj))
}

/// 20.1.2.8 Object.getOwnPropertyDescriptor(O, P).
fn get_own_property_descriptor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let obj = to_obj(rt, arg(args, 0))?;
    let key = rt.to_property_key(arg(args, 1))?;
    let d = rt.get_own_property(obj, key)?;
    Ok(rt.descriptor_to_object(d))
}

/// 20.1.2.9 Object.getOwnPropertyDescriptors(O).
fn get_own_property_descriptors(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let obj = to_obj(rt, arg(args, 0))?;
    rt.root(Value::object(obj));
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    let out = rt.new_object(op);
    rt.root(Value::object(out));
    for k in rt.own_property_keys(obj)? {
        let d = rt.get_own_property(obj, k)?;
        if d.is_some() {
            let dv = rt.descriptor_to_object(d);
            rt.create_data_property_or_throw(out, k, dv)?;
        }
    }
    Ok(Value::object(out))
}

/// 20.1.2.10.1 GetOwnPropertyKeys(O, type).
fn own_keys_of_type(rt: &mut Runtime, o: Value, symbols: bool) -> JsResult<Value> {
    let obj = to_obj(rt, o)?;
    let mut list = Vec::new();
    for k in rt.own_property_keys(obj)? {
        let is_sym = matches!(k, Key::Name(n) if n.is_symbol());
        if is_sym == symbols {
            list.push(rt.key_to_value(k));
        }
    }
    Ok(Value::object(rt.new_array_from(&list)))
}

/// 20.1.2.10 Object.getOwnPropertyNames(O).
fn get_own_property_names(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    own_keys_of_type(rt, arg(args, 0), false)
}

/// 20.1.2.11 Object.getOwnPropertySymbols(O).
fn get_own_property_symbols(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    own_keys_of_type(rt, arg(args, 0), true)
}

/// 20.1.2.12 Object.getPrototypeOf(O).
fn get_prototype_of(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let obj = to_obj(rt, arg(args, 0))?;
    rt.prototype_of(obj)
}

/// 20.1.2.24 Object.setPrototypeOf(O, proto).
fn set_prototype_of(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let (o, proto) = (arg(args, 0), arg(args, 1));
    rt.require_object_coercible(o, "Object.setPrototypeOf")?;
    if !proto.is_object() && !proto.is_null() {
        return Err(rt.throw_type_error("Object prototype may only be an Object or null"));
    }
    if !o.is_object() {
        return Ok(o);
    }
    if !rt.set_prototype_of(o.gc(), proto)? {
        return Err(rt.throw_type_error("Cannot set prototype (cyclic, immutable or non-extensible)"));
    }
    Ok(o)
}

/// 20.1.2.14 Object.is(value1, value2).
fn is(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    Ok(Value::boolean(rt.same_value(arg(args, 0), arg(args, 1))))
}

/// 20.1.2.13 Object.hasOwn(O, P).
fn has_own(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let obj = to_obj(rt, arg(args, 0))?;
    let key = rt.to_property_key(arg(args, 1))?;
    Ok(Value::boolean(rt.has_own_property(obj, key)?))
}

/// 20.1.2.13 Object.groupBy(items, callback).
fn group_by(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let (items, cb) = (arg(args, 0), arg(args, 1));
    rt.require_object_coercible(items, "Object.groupBy")?;
    if !rt.is_callable(cb) {
        return Err(rt.throw_type_error("callback is not a function"));
    }
    let out = rt.new_object(Value::NULL);
    rt.root(Value::object(out));
    let it = crate::runtime::iteration::get_iterator(rt, items)?;
    rt.root(it);
    let mut k = 0u32;
    loop {
        let v = crate::runtime::iteration::iterator_next(rt, it)?;
        if v.is_empty() {
            break;
        }
        let mark = rt.handle_mark();
        rt.root(v);
        let key =
            match rt.call(cb, Value::UNDEFINED, &[v, Value::number(k as f64)]).and_then(|kv| rt.to_property_key(kv)) {
                Ok(key) => key,
                Err(e) => {
                    let _ = crate::runtime::iteration::iterator_close(rt, it, true);
                    return Err(e);
                }
            };
        let group = match rt.peek_data(out, key) {
            Some(g) => g,
            None => {
                let g = Value::object(rt.new_array(0));
                rt.create_data_property_or_throw(out, key, g)?;
                g
            }
        };
        rt.array_push(group.gc(), v)?;
        rt.release_handles(mark);
        k += 1;
    }
    Ok(Value::object(out))
}

/// 20.1.3.2 Object.prototype.hasOwnProperty(V).
fn has_own_property(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let P be ? ToPropertyKey(V).
    let key = rt.to_property_key(arg(args, 0))?;
    // 2. Let O be ? ToObject(this value).
    let obj = rt.to_object(this)?;
    Ok(Value::boolean(rt.has_own_property(obj, key)?))
}

/// 20.1.3.3 Object.prototype.isPrototypeOf(V).
fn is_prototype_of(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let v = arg(args, 0);
    if !v.is_object() {
        return Ok(Value::FALSE);
    }
    let o = rt.to_object(this)?;
    let mut p = rt.prototype_of(v.gc())?;
    while p.is_object() {
        if p == Value::object(o) {
            return Ok(Value::TRUE);
        }
        p = rt.prototype_of(p.gc())?;
    }
    Ok(Value::FALSE)
}

/// 20.1.3.4 Object.prototype.propertyIsEnumerable(V).
fn property_is_enumerable(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let key = rt.to_property_key(arg(args, 0))?;
    let o = rt.to_object(this)?;
    let d = rt.get_own_property(o, key)?;
    Ok(Value::boolean(d.is_some_and(|d| d.enumerable == Some(true))))
}

/// 20.1.3.6 Object.prototype.toString().
pub(crate) fn to_string(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-2. undefined and null.
    if this.is_undefined() {
        return Ok(rt.new_string("[object Undefined]"));
    }
    if this.is_null() {
        return Ok(rt.new_string("[object Null]"));
    }
    // 3. Let O be ! ToObject(this value).
    let o = rt.to_object(this)?;
    rt.root(Value::object(o));
    // 5-14. The builtin tag.
    let builtin_tag = match rt.heap().object_kind(o) {
        CellKind::Array => "Array",
        // A proxy: an array if its target is one (IsArray), a function if callable.
        CellKind::Proxy if rt.is_array(Value::object(o))? => "Array",
        CellKind::Proxy if rt.is_callable(Value::object(o)) => "Function",
        CellKind::Arguments => "Arguments",
        CellKind::Closure | CellKind::NativeFunction | CellKind::BoundFunction => "Function",
        CellKind::Error => "Error",
        CellKind::Date => "Date",
        CellKind::RegExp => "RegExp",
        CellKind::PrimitiveObject => {
            let p = rt.heap().get(o.cast::<crate::object::PrimitiveObject>()).value;
            if p.is_boolean() {
                "Boolean"
            } else if p.is_number() {
                "Number"
            } else if p.is_string() {
                "String"
            } else {
                "Object"
            }
        }
        _ => "Object",
    };
    // 15. Let tag be ? Get(O, @@toStringTag).
    let key = Key::Name(rt.symbols.to_string_tag);
    let tag = rt.get(o, key, Value::object(o))?;
    let t = if tag.is_string() { rt.string_to_rust(tag) } else { builtin_tag.to_string() };
    Ok(rt.new_string(&format!("[object {t}]")))
}

/// 20.1.3.5 Object.prototype.toLocaleString().
fn to_locale_string(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let key = Key::Name(rt.names.to_string);
    let f = rt.get_v(this, key)?;
    rt.call(f, this, &[])
}

/// 20.1.3.7 Object.prototype.valueOf().
fn value_of(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    Ok(Value::object(rt.to_object(this)?))
}

/// B.2.2.2 Object.prototype.__defineGetter__(P, getter).
fn define_getter(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let o = rt.to_object(this)?;
    let g = arg(args, 1);
    if !rt.is_callable(g) {
        return Err(rt.throw_type_error("getter is not a function"));
    }
    let key = rt.to_property_key(arg(args, 0))?;
    let d = PropertyDescriptor { get: Some(g), enumerable: Some(true), configurable: Some(true), ..Default::default() };
    rt.define_property_or_throw(o, key, &d)?;
    Ok(Value::UNDEFINED)
}

/// B.2.2.3 Object.prototype.__defineSetter__(P, setter).
fn define_setter(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let o = rt.to_object(this)?;
    let s = arg(args, 1);
    if !rt.is_callable(s) {
        return Err(rt.throw_type_error("setter is not a function"));
    }
    let key = rt.to_property_key(arg(args, 0))?;
    let d = PropertyDescriptor { set: Some(s), enumerable: Some(true), configurable: Some(true), ..Default::default() };
    rt.define_property_or_throw(o, key, &d)?;
    Ok(Value::UNDEFINED)
}

fn lookup_accessor(rt: &mut Runtime, this: Value, args: &[Value], getter: bool) -> JsResult<Value> {
    let mut o = rt.to_object(this)?;
    let key = rt.to_property_key(arg(args, 0))?;
    loop {
        if let Some(d) = rt.get_own_property(o, key)? {
            if d.is_accessor() {
                return Ok(if getter { d.get.unwrap_or(Value::UNDEFINED) } else { d.set.unwrap_or(Value::UNDEFINED) });
            }
            return Ok(Value::UNDEFINED);
        }
        let p = rt.prototype_of(o)?;
        if !p.is_object() {
            return Ok(Value::UNDEFINED);
        }
        o = p.gc();
    }
}

/// B.2.2.4 Object.prototype.__lookupGetter__(P).
fn lookup_getter(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    lookup_accessor(rt, this, args, true)
}

/// B.2.2.5 Object.prototype.__lookupSetter__(P).
fn lookup_setter(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    lookup_accessor(rt, this, args, false)
}

/// B.2.2.1.1 get Object.prototype.__proto__.
fn proto_getter(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let o = rt.to_object(this)?;
    rt.prototype_of(o)
}

/// B.2.2.1.2 set Object.prototype.__proto__.
fn proto_setter(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    rt.require_object_coercible(this, "Object.prototype.__proto__")?;
    let proto = arg(args, 0);
    if (!proto.is_object() && !proto.is_null()) || !this.is_object() {
        return Ok(Value::UNDEFINED);
    }
    if !rt.set_prototype_of(this.gc(), proto)? {
        return Err(rt.throw_type_error("Object.prototype.__proto__ setter failed"));
    }
    Ok(Value::UNDEFINED)
}
