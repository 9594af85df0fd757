//! Property access slow paths, with inline-cache filling.

use crate::code::ic::{self, Ic};
use crate::gc::{CellKind, Gc};
use crate::object::property::{Own, PropertyDescriptor};
use crate::object::shape::{ACCESSOR, DEFAULT_ATTRS, WRITABLE};
use crate::object::{AccessorPair, JsObject, Key, EXTENSIBLE, IS_PROTOTYPE, LENGTH_READONLY};
use crate::runtime::{JsResult, Runtime};
use crate::value::Value;

/// The TypeError for reading a property of null or undefined.
#[cold]
fn nullish_read(rt: &mut Runtime, o: Value, key: Key) -> crate::runtime::Exception {
    let what = if o.is_null() { "null" } else { "undefined" };
    let name = rt.key_display(key);
    rt.throw_type_error(&format!("Cannot read properties of {what} (reading '{name}')"))
}

/// `get_global` (`typeof_global` when `is_typeof`) after an inline-cache miss: the realm's
/// global lexical declaration of the name, else the global object's property.
#[inline(never)]
pub(crate) fn get_global_slow(rt: &mut Runtime, key: Key, ic_idx: usize, is_typeof: bool) -> JsResult<Value> {
    if let Some(b) = rt.global_lexical(key) {
        return rt.read_global_lexical(b, key);
    }
    let g = Value::object(rt.global_object());
    get_by_id_slow(rt, g, key, ic_idx, !is_typeof)
}

/// `put_global` after an inline-cache miss: the realm's global lexical declaration of the
/// name, else the global object's property (in strict code it must exist).
#[inline(never)]
pub(crate) fn put_global_slow(rt: &mut Runtime, key: Key, v: Value, strict: bool, ic_idx: usize) -> JsResult<()> {
    if let Some(b) = rt.global_lexical(key) {
        return rt.write_global_lexical(b, key, v);
    }
    let g = Value::object(rt.global_object());
    put_by_id_slow(rt, g, key, v, strict, ic_idx, strict)
}

/// `get_by_id` after an inline-cache miss (`is_try`: a ReferenceError when the property
/// does not exist).
#[inline(never)]
pub(crate) fn get_by_id_slow(rt: &mut Runtime, o: Value, key: Key, ic_idx: usize, is_try: bool) -> JsResult<Value> {
    if !o.is_object() {
        if o.is_nullish() {
            return Err(nullish_read(rt, o, key));
        }
        return rt.get_v(o, key);
    }
    let obj: Gc<JsObject> = o.gc();
    let Key::Name(name) = key else {
        return get_or_missing(rt, obj, key, is_try);
    };
    // An array's `length` is not a slot, so the inline cache never holds it.
    if name == rt.names.length && rt.heap.kind_of(obj) == CellKind::Array {
        return Ok(Value::number(rt.heap.array_length(obj) as f64));
    }
    let recv_shape = rt.heap.get(obj).shape;
    let cacheable = !rt.heap.get(recv_shape).is_dictionary();
    if !cacheable {
        if let Some(loc) = dict_entry(rt, ic_idx, recv_shape) {
            let v = rt.heap.slot_at(obj, loc);
            if !v.is_empty() {
                return Ok(v);
            }
        }
    }
    let mut h = obj;
    loop {
        match rt.own_lookup(h, key) {
            Own::Slot(slot, attrs) => {
                let v = rt.heap.slot(h, slot);
                if attrs & ACCESSOR == 0 && !v.is_empty() {
                    // Own data properties of dictionary objects are cached with the
                    // dictionary's version; prototype properties only through shapes.
                    let (shape, loc) = (Some(recv_shape), rt.heap.slot_location(h, slot));
                    let entry = match (cacheable, h == obj) {
                        (true, true) => {
                            Some(Ic { shape, holder: None, new_shape: None, slot, loc, epoch: 0, kind: ic::OWN })
                        }
                        (true, false) => Some(Ic {
                            shape,
                            holder: Some(h),
                            new_shape: None,
                            slot,
                            loc,
                            epoch: *rt.caches.proto_epoch,
                            kind: ic::PROTO,
                        }),
                        (false, true) => {
                            let epoch = rt.heap.get(recv_shape).dict_version;
                            Some(Ic { shape, holder: None, new_shape: None, slot, loc, epoch, kind: ic::OWN_DICT })
                        }
                        (false, false) => None,
                    };
                    if let Some(entry) = entry {
                        ic::insert(&mut rt.code.ics, ic_idx, entry);
                    }
                }
                if attrs & ACCESSOR != 0 {
                    let getter = rt.heap.get(v.gc::<AccessorPair>()).getter;
                    if getter.is_undefined() {
                        return Ok(Value::UNDEFINED);
                    }
                    return rt.call(getter, o, &[]);
                }
                return Ok(v);
            }
            Own::Element(_) | Own::Virtual(..) => return rt.get(h, key, o),
            Own::Absent => {
                match rt.heap.object_kind(h) {
                    // A TypedArray's numeric keys end the lookup (10.4.5.4).
                    CellKind::TypedArray if rt.canonical_numeric_key(key).is_some() => break,
                    // A proxy answers through its traps, never from a cache.
                    // So does a namespace, for its exports (live bindings).
                    CellKind::Proxy | CellKind::ModuleNamespace => return rt.get(h, key, o),
                    _ => {}
                }
                let proto = rt.get_prototype_of(h);
                if !proto.is_object() {
                    break;
                }
                h = proto.gc();
            }
        }
    }
    if is_try {
        let name = rt.key_display(key);
        return Err(rt.throw_reference_error(&format!("{name} is not defined")));
    }
    Ok(Value::UNDEFINED)
}

/// The slot location cached at IC slot `ic_idx` for dictionary shape `shape`, if the
/// entry is still valid. The interpreter's probe (`interp::ic_read`) takes such entries
/// before it calls the slow path; the native tier's helpers come here directly.
fn dict_entry(rt: &Runtime, ic_idx: usize, shape: Gc<crate::object::Shape>) -> Option<u32> {
    let version = rt.heap.get(shape).dict_version;
    rt.code
        .ics
        .get(ic_idx * ic::WAYS..(ic_idx + 1) * ic::WAYS)?
        .iter()
        .find(|e| e.shape == Some(shape) && e.kind == ic::OWN_DICT && e.epoch == version)
        .map(|e| e.loc)
}

fn get_or_missing(rt: &mut Runtime, obj: Gc<JsObject>, key: Key, is_try: bool) -> JsResult<Value> {
    if is_try && !rt.has_property(obj, key)? {
        let name = rt.key_display(key);
        return Err(rt.throw_reference_error(&format!("{name} is not defined")));
    }
    rt.get(obj, key, Value::object(obj))
}

/// `put_by_id` after an inline-cache miss (`is_try`: a ReferenceError when the property does
/// not exist).
#[inline(never)]
pub(crate) fn put_by_id_slow(
    rt: &mut Runtime,
    o: Value,
    key: Key,
    v: Value,
    strict: bool,
    ic_idx: usize,
    is_try: bool,
) -> JsResult<()> {
    if !o.is_object() {
        return rt.put_v(o, key, v, strict);
    }
    let obj: Gc<JsObject> = o.gc();
    if is_try && !rt.has_property(obj, key)? {
        let name = rt.key_display(key);
        return Err(rt.throw_reference_error(&format!("{name} is not defined")));
    }
    let Key::Name(name) = key else {
        return rt.put_v(o, key, v, strict);
    };
    let recv_shape = rt.heap.get(obj).shape;
    let cacheable = !rt.heap.get(recv_shape).is_dictionary();
    if !cacheable {
        if let Some(loc) = dict_entry(rt, ic_idx, recv_shape) {
            rt.heap.set_slot_at(obj, loc, v);
            return Ok(());
        }
    }
    match rt.own_lookup(obj, key) {
        Own::Slot(slot, attrs) if attrs & (ACCESSOR | WRITABLE) == WRITABLE => {
            rt.heap.set_slot(obj, slot, v);
            let loc = rt.heap.slot_location(obj, slot);
            let (kind, epoch) = match cacheable {
                true => (ic::OWN, 0),
                false => (ic::OWN_DICT, rt.heap.get(recv_shape).dict_version),
            };
            ic::insert(
                &mut rt.code.ics,
                ic_idx,
                Ic { shape: Some(recv_shape), holder: None, new_shape: None, slot, loc, epoch, kind },
            );
            return Ok(());
        }
        Own::Absent
            if cacheable
                && rt.heap.get(obj).header.flags & EXTENSIBLE != 0
                && adds_names_plainly(rt.heap.object_kind(obj)) =>
        {
            // The property can be added here unless the chain has a setter or a read-only
            // property of that name.
            let mut p = rt.get_prototype_of(obj);
            let mut plain = true;
            while p.is_object() {
                let po: Gc<JsObject> = p.gc();
                match rt.own_lookup(po, key) {
                    // A proxy on the chain has a say in the store ([[Set]] reaches its trap).
                    Own::Absent if rt.has_own_methods(po) => {
                        plain = false;
                        break;
                    }
                    Own::Absent => p = rt.get_prototype_of(po),
                    Own::Slot(_, attrs) if attrs & (ACCESSOR | WRITABLE) == WRITABLE => break,
                    _ => {
                        plain = false;
                        break;
                    }
                }
            }
            if plain {
                let epoch = *rt.caches.proto_epoch;
                let slot = rt.add_named(obj, name, v, DEFAULT_ATTRS);
                let new_shape = rt.heap.get(obj).shape;
                if !rt.heap.get(new_shape).is_dictionary() && rt.heap.get(obj).header.flags & IS_PROTOTYPE == 0 {
                    let loc = rt.heap.slot_location(obj, slot);
                    ic::insert(
                        &mut rt.code.ics,
                        ic_idx,
                        Ic {
                            shape: Some(recv_shape),
                            holder: None,
                            new_shape: Some(new_shape),
                            slot,
                            loc,
                            epoch,
                            kind: ic::ADD,
                        },
                    );
                }
                return Ok(());
            }
        }
        _ => {}
    }
    let ok = rt.set(obj, key, v, o)?;
    if !ok && strict {
        let n = rt.key_display(key);
        return Err(rt.throw_type_error(&format!("Cannot assign to read only property '{n}' of object")));
    }
    Ok(())
}

/// `o[k]` when `o` is a TypedArray whose elements are Numbers and `k` a valid index: the
/// element (the interpreter's fast path, and the first thing the slow path tries).
#[inline(always)]
pub(crate) fn typed_element(rt: &Runtime, o: Value, k: Value) -> Option<Value> {
    let i = k.as_array_index()?;
    if !o.is_object() || rt.heap.object_kind(o.gc()) != CellKind::TypedArray {
        return None;
    }
    rt.typed_load_number(o.gc(), i as usize).map(Value::number)
}

/// `o[k] = v` when `o` is a TypedArray of Numbers over a mutable buffer, `k` a valid index
/// and `v` a Number (nothing to convert that could run code): whether it was stored.
#[inline(always)]
pub(crate) fn store_typed_element(rt: &mut Runtime, o: Value, k: Value, v: Value) -> bool {
    let (Some(i), Some(n)) = (k.as_array_index(), v.as_number()) else { return false };
    if !o.is_object() || rt.heap.object_kind(o.gc()) != CellKind::TypedArray {
        return false;
    }
    rt.typed_store_number(o.gc(), i as usize, n)
}

/// `get_by_val` after the dense-element fast path failed.
#[inline(never)]
pub(crate) fn get_by_val_slow(rt: &mut Runtime, o: Value, k: Value) -> JsResult<Value> {
    if let Some(v) = typed_element(rt, o, k) {
        return Ok(v);
    }
    if o.is_nullish() {
        let key = rt.to_property_key(k)?;
        return Err(nullish_read(rt, o, key));
    }
    let key = rt.to_property_key(k)?;
    rt.get_v(o, key)
}

/// `put_by_val` after the dense-element fast path failed.
#[inline(never)]
pub(crate) fn put_by_val_slow(rt: &mut Runtime, o: Value, k: Value, v: Value, strict: bool) -> JsResult<()> {
    if store_typed_element(rt, o, k, v) {
        return Ok(());
    }
    if o.is_nullish() {
        let key = rt.to_property_key(k)?;
        return rt.put_v(o, key, v, strict);
    }
    let key = rt.to_property_key(k)?;
    if o.is_object() {
        // Appending to a simple array: extend the dense elements.
        let obj: Gc<JsObject> = o.gc();
        if let Key::Index(i) = key {
            if rt.heap.object_kind(obj) == CellKind::Array
                && i == rt.heap.array_length(obj)
                && rt.heap.elements(obj).len() == i as usize
            {
                let proto = rt.get_prototype_of(obj);
                if proto == rt.intrinsic(crate::runtime::Intrinsic::ArrayPrototype)
                    && !rt.realm_array_proto_has_indices()
                {
                    return rt.array_push(obj, v);
                }
            }
        }
    }
    rt.put_v(o, key, v, strict)
}

impl Runtime {
    /// Whether Array.prototype or Object.prototype have index properties (which would make
    /// appends observe setters).
    pub(crate) fn realm_array_proto_has_indices(&mut self) -> bool {
        use crate::object::shape::HAS_INDEX_KEYS;
        for i in [crate::runtime::Intrinsic::ArrayPrototype, crate::runtime::Intrinsic::ObjectPrototype] {
            let p = self.intrinsic_object(i);
            let shape = self.heap.get(p).shape;
            if !self.heap.elements(p).is_empty() || self.heap.get(shape).flags() & HAS_INDEX_KEYS != 0 {
                return true;
            }
        }
        false
    }
}

/// `delete o[key]`.
#[inline(never)]
pub(crate) fn delete_property(rt: &mut Runtime, o: Value, key: Key, strict: bool) -> JsResult<bool> {
    let obj = rt.to_object(o)?;
    let ok = rt.delete(obj, key)?;
    if !ok && strict {
        let n = rt.key_display(key);
        return Err(rt.throw_type_error(&format!("Cannot delete property '{n}' of object")));
    }
    Ok(ok)
}

/// Object/array literal property definition.
#[inline(never)]
pub(crate) fn put_own(rt: &mut Runtime, o: Value, key: Key, v: Value, attrs: u8) -> JsResult<()> {
    if !o.is_object() {
        return Err(rt.throw_type_error("internal error: defining a property on a non-object"));
    }
    let obj: Gc<JsObject> = o.gc();
    if let Own::Absent = rt.own_lookup(obj, key) {
        if rt.is_extensible(obj)? && rt.add_property(obj, key, v, attrs) {
            return Ok(());
        }
    }
    let desc = PropertyDescriptor::data(v, attrs);
    rt.define_property_or_throw(obj, key, &desc)
}

/// Whether an object of `kind` adds a property with a name (not an array index) as an
/// ordinary object does: a new slot in its shape, nothing else to update or ask (no proxy
/// trap, no exotic [[DefineOwnProperty]] for names), so that an inline cache may repeat it.
fn adds_names_plainly(kind: CellKind) -> bool {
    matches!(
        kind,
        CellKind::Object
            | CellKind::Closure
            | CellKind::Error
            | CellKind::Arguments
            | CellKind::Array
            | CellKind::Generator
    )
}

/// `put_own_by_index` into an array literal: fills the hole `new_array` left at `index`
/// when the array is still a plain one (the realm's array shape, so no named properties,
/// extensible, `length` writable); whether it did. Anything else takes `put_own`.
#[inline(always)]
pub(crate) fn define_literal_element(rt: &mut Runtime, o: Value, index: u32, v: Value) -> bool {
    if !o.is_object() {
        return false;
    }
    let obj: Gc<JsObject> = o.gc();
    let h = &rt.heap.get(obj).header;
    if h.kind != CellKind::Array
        || h.flags & (EXTENSIBLE | LENGTH_READONLY) != EXTENSIBLE
        || rt.heap.get(obj).shape != rt.realm().shapes.array
    {
        return false;
    }
    match rt.heap.get(obj).elements {
        // A hole below the length: the array's length already counts the element.
        Some(el) if index < rt.heap.array_length(obj) => rt.heap.vec_fill_hole(el, index as usize, v),
        _ => false,
    }
}

/// `put_own_by_id` past its inline cache: defines the property, and caches the shape
/// transition that added it (or the slot of the enumerable, writable, configurable data
/// property it replaced) for `ic_write`. Unlike a [[Set]] (`put_by_id_slow`), a definition
/// does not look at the prototype chain.
#[inline(never)]
pub(crate) fn put_own_by_id_slow(rt: &mut Runtime, o: Value, key: Key, v: Value, ic_idx: usize) -> JsResult<()> {
    let (Key::Name(name), true) = (key, o.is_object()) else {
        return put_own(rt, o, key, v, DEFAULT_ATTRS);
    };
    let obj: Gc<JsObject> = o.gc();
    let recv_shape = rt.heap.get(obj).shape;
    let ordinary = !rt.heap.get(recv_shape).is_dictionary()
        && rt.heap.get(obj).header.flags & IS_PROTOTYPE == 0
        && adds_names_plainly(rt.heap.object_kind(obj));
    if !ordinary {
        return put_own(rt, o, key, v, DEFAULT_ATTRS);
    }
    let ic = match rt.own_lookup(obj, key) {
        Own::Slot(slot, DEFAULT_ATTRS) => {
            rt.heap.set_slot(obj, slot, v);
            let loc = rt.heap.slot_location(obj, slot);
            Ic { shape: Some(recv_shape), holder: None, new_shape: None, slot, loc, epoch: 0, kind: ic::OWN }
        }
        Own::Absent if rt.heap.get(obj).header.flags & EXTENSIBLE != 0 => {
            let slot = rt.add_named(obj, name, v, DEFAULT_ATTRS);
            let new_shape = rt.heap.get(obj).shape;
            if rt.heap.get(new_shape).is_dictionary() {
                return Ok(());
            }
            let loc = rt.heap.slot_location(obj, slot);
            // `ic_write` takes an ADD entry only in the prototype epoch it was made in (a
            // [[Set]] must not pass a setter added to the chain since); a definition needs
            // no such check, and renews the entry when the epoch moved on.
            let epoch = *rt.caches.proto_epoch;
            Ic { shape: Some(recv_shape), holder: None, new_shape: Some(new_shape), slot, loc, epoch, kind: ic::ADD }
        }
        _ => return put_own(rt, o, key, v, DEFAULT_ATTRS),
    };
    ic::insert(&mut rt.code.ics, ic_idx, ic);
    Ok(())
}

/// Accessor definition of object literals and classes.
#[inline(never)]
pub(crate) fn put_own_accessor(
    rt: &mut Runtime,
    o: Value,
    k: Value,
    g: Value,
    s: Value,
    enumerable: bool,
) -> JsResult<()> {
    if !o.is_object() {
        return Err(rt.throw_type_error("internal error: defining a property on a non-object"));
    }
    let key = rt.to_property_key(k)?;
    let desc = PropertyDescriptor {
        get: if g.is_undefined() && !s.is_undefined() { None } else { Some(g) },
        set: if s.is_undefined() && !g.is_undefined() { None } else { Some(s) },
        enumerable: Some(enumerable),
        configurable: Some(true),
        ..Default::default()
    };
    rt.define_property_or_throw(o.gc(), key, &desc)
}
