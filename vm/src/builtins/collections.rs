//! 24.1-24.4 Map, Set, WeakMap and WeakSet.
//!
//! Entries are kept in insertion order in a vector, with deleted entries left as
//! tombstones so live iterators (which hold a position) stay valid; an index maps each
//! key's normalized identity (SameValueZero: strings by their atom, numbers with -0 as +0)
//! to its position. WeakMap and WeakSet hold their entries strongly (a documented
//! simplification: their contents are never observable through enumeration).

use super::{arg, rows, Row};
use crate::gc::{CellKind, Gc};
use crate::object::{iter_kind, BigIntCell, CollectionData, CollectionObject, IteratorObject, JsObject, Key};
use crate::runtime::{Intrinsic, JsResult, Runtime};
use crate::value::Value;

pub(crate) const ROWS: &[Row] = rows! {
    MapPrototype."clear" => map_clear, 0;
    MapPrototype."delete" => map_delete, 1;
    MapPrototype."entries" => map_entries, 0;
    MapPrototype."forEach" => map_for_each, 1;
    MapPrototype."get" => map_get, 1;
    MapPrototype."has" => map_has, 1;
    MapPrototype."keys" => map_keys, 0;
    MapPrototype."set" => map_set, 2;
    MapPrototype."size" => map_size, 0, getter;
    MapPrototype."values" => map_values, 0;
    Map."groupBy" => map_group_by, 2;
    Map.[species] => super::array::species_getter, 0, getter;
    MapIteratorPrototype."next" => map_iterator_next, 0;
    SetPrototype."add" => set_add, 1;
    SetPrototype."clear" => set_clear, 0;
    SetPrototype."delete" => set_delete, 1;
    SetPrototype."entries" => set_entries, 0;
    SetPrototype."forEach" => set_for_each, 1;
    SetPrototype."has" => set_has, 1;
    SetPrototype."size" => set_size, 0, getter;
    SetPrototype."values" => set_values, 0;
    Set.[species] => super::array::species_getter, 0, getter;
    SetIteratorPrototype."next" => set_iterator_next, 0;
    WeakMapPrototype."delete" => weak_map_delete, 1;
    WeakMapPrototype."get" => weak_map_get, 1;
    WeakMapPrototype."has" => weak_map_has, 1;
    WeakMapPrototype."set" => weak_map_set, 2;
    WeakSetPrototype."add" => weak_set_add, 1;
    WeakSetPrototype."delete" => weak_set_delete, 1;
    WeakSetPrototype."has" => weak_set_has, 1;
};

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Map,
    Set,
    WeakMap,
    WeakSet,
}

/// Creates the collection constructors and prototypes.
pub(crate) fn init(rt: &mut Runtime) {
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    for (name, ctor_i, proto_i, f) in [
        ("Map", Intrinsic::Map, Intrinsic::MapPrototype, map_constructor as crate::object::function::NativeFn),
        ("Set", Intrinsic::Set, Intrinsic::SetPrototype, set_constructor),
        ("WeakMap", Intrinsic::WeakMap, Intrinsic::WeakMapPrototype, weak_map_constructor),
        ("WeakSet", Intrinsic::WeakSet, Intrinsic::WeakSetPrototype, weak_set_constructor),
    ] {
        let proto = rt.new_object(op);
        let c = rt.make_constructor(name, f, 0, Some(proto));
        super::iterator::define_tag(rt, proto, name);
        rt.set_intrinsic(proto_i, Value::object(proto));
        rt.set_intrinsic(ctor_i, Value::object(c));
    }
}

/// Aliases: Map.prototype[@@iterator] = entries, Set.prototype.keys/@@iterator = values.
pub(crate) fn link_aliases(rt: &mut Runtime) {
    use crate::object::shape::{CONFIGURABLE, WRITABLE};
    let it = Key::Name(rt.symbols.iterator);
    let mp = rt.intrinsic_object(Intrinsic::MapPrototype);
    let entries = rt.intrinsic_prop(Intrinsic::MapPrototype, "entries");
    rt.define_data_raw(mp, it, entries, WRITABLE | CONFIGURABLE);
    let sp = rt.intrinsic_object(Intrinsic::SetPrototype);
    let values = rt.intrinsic_prop(Intrinsic::SetPrototype, "values");
    rt.define_data_raw(sp, it, values, WRITABLE | CONFIGURABLE);
    let keys = rt.key("keys");
    rt.define_data_raw(sp, keys, values, WRITABLE | CONFIGURABLE);
}

fn create(rt: &mut Runtime, kind: Kind) -> JsResult<Gc<JsObject>> {
    let nt = rt.native_new_target();
    if nt.is_undefined() {
        let name = match kind {
            Kind::Map => "Map",
            Kind::Set => "Set",
            Kind::WeakMap => "WeakMap",
            Kind::WeakSet => "WeakSet",
        };
        return Err(rt.throw_type_error(&format!("Constructor {name} requires 'new'")));
    }
    let default = match kind {
        Kind::Map => Intrinsic::MapPrototype,
        Kind::Set => Intrinsic::SetPrototype,
        Kind::WeakMap => Intrinsic::WeakMapPrototype,
        Kind::WeakSet => Intrinsic::WeakSetPrototype,
    };
    let proto = rt.prototype_from_constructor(nt, default)?;
    let shape = rt.root_shape(proto, CellKind::Collection, 0);
    let data = CollectionData { is_set: matches!(kind, Kind::Set | Kind::WeakSet), weak: matches!(kind, Kind::WeakMap | Kind::WeakSet), ..Default::default() };
    let c = CollectionObject { base: JsObject::new(CellKind::Collection, shape), data: Box::new(data) };
    let o: Gc<JsObject> = rt.heap_mut().alloc_object(c, 0).cast();
    rt.root(Value::object(o));
    Ok(o)
}

/// Fills a new collection from an iterable with its `set`/`add` method (24.1.1.2
/// AddEntriesFromIterable and 24.2.1.1 step 5-8).
fn fill_from(rt: &mut Runtime, o: Gc<JsObject>, iterable: Value, pairs: bool) -> JsResult<()> {
    if iterable.is_nullish() {
        return Ok(());
    }
    let adder_name = if pairs { "set" } else { "add" };
    let key = rt.key(adder_name);
    let adder = rt.get(o, key, Value::object(o))?;
    if !rt.is_callable(adder) {
        return Err(rt.throw_type_error(&format!("'{adder_name}' is not a function")));
    }
    rt.root(adder);
    let it = crate::interp::ops::iter::get_iterator(rt, iterable)?;
    rt.root(it);
    loop {
        let next = crate::interp::ops::iter::iterator_next(rt, it)?;
        if next.is_empty() {
            return Ok(());
        }
        let mark = rt.handle_mark();
        rt.root(next);
        let r = (|| {
            if pairs {
                if !next.is_object() {
                    return Err(rt.throw_type_error("Iterator value is not an entry object"));
                }
                let e: Gc<JsObject> = next.ptr_unchecked();
                let k = rt.get(e, Key::Index(0), next)?;
                rt.root(k);
                let v = rt.get(e, Key::Index(1), next)?;
                rt.call(adder, Value::object(o), &[k, v])
            } else {
                rt.call(adder, Value::object(o), &[next])
            }
        })();
        if let Err(e) = r {
            let _ = crate::interp::ops::iter::iterator_close(rt, it, true);
            return Err(e);
        }
        rt.release_handles(mark);
    }
}

/// 24.1.1.1 Map([iterable]).
fn map_constructor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = create(rt, Kind::Map)?;
    fill_from(rt, o, arg(args, 0), true)?;
    Ok(Value::object(o))
}

/// 24.2.1.1 Set([iterable]).
fn set_constructor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = create(rt, Kind::Set)?;
    fill_from(rt, o, arg(args, 0), false)?;
    Ok(Value::object(o))
}

/// 24.3.1.1 WeakMap([iterable]).
fn weak_map_constructor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = create(rt, Kind::WeakMap)?;
    fill_from(rt, o, arg(args, 0), true)?;
    Ok(Value::object(o))
}

/// 24.4.1.1 WeakSet([iterable]).
fn weak_set_constructor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = create(rt, Kind::WeakSet)?;
    fill_from(rt, o, arg(args, 0), false)?;
    Ok(Value::object(o))
}

/// The collection `this` refers to, checking that it is a Set (or not) as required.
fn this_collection(rt: &mut Runtime, this: Value, want_set: Option<bool>, want_weak: bool, what: &str) -> JsResult<Gc<CollectionObject>> {
    if this.is_object() {
        if let Some(c) = rt.heap().downcast::<CollectionObject>(this.ptr_unchecked()) {
            let d = &rt.heap().get(c).data;
            if want_set.is_none_or(|s| s == d.is_set) && d.weak == want_weak {
                return Ok(c);
            }
        }
    }
    Err(rt.throw_type_error(&format!("Method {what} called on incompatible receiver")))
}

/// The collection `this` refers to, which must be of `kind`.
fn this_of(rt: &mut Runtime, this: Value, kind: Kind) -> JsResult<Gc<CollectionObject>> {
    let (set, weak) = match kind {
        Kind::Map => (false, false),
        Kind::Set => (true, false),
        Kind::WeakMap => (false, true),
        Kind::WeakSet => (true, true),
    };
    this_collection(rt, this, Some(set), weak, "of a collection")
}

macro_rules! by_kind {
    ($($name:ident => $imp:ident, $kind:ident;)*) => {$(
        fn $name(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
            $imp(rt, this, args, Kind::$kind)
        }
    )*};
}

by_kind! {
    map_clear => clear, Map; set_clear => clear, Set;
    map_delete => delete, Map; set_delete => delete, Set;
    weak_map_delete => delete, WeakMap; weak_set_delete => delete, WeakSet;
    map_for_each => for_each, Map; set_for_each => for_each, Set;
    map_get => get, Map; weak_map_get => get, WeakMap;
    map_has => has, Map; set_has => has, Set; weak_map_has => has, WeakMap; weak_set_has => has, WeakSet;
    map_size => size, Map; set_size => size, Set;
    map_set => set, Map; weak_map_set => set, WeakMap;
    set_add => add, Set; weak_set_add => add, WeakSet;
}

/// The normalized identity of a key (SameValueZero).
fn key_bits(rt: &mut Runtime, k: Value) -> (u64, Value) {
    if let Some(n) = k.as_number() {
        let v = Value::number(n + 0.0);
        return (v.bits(), v);
    }
    if k.is_string() {
        let flat = rt.flat(k);
        let atom = rt.atoms.intern(&mut rt.heap, flat);
        let v = Value::string(atom);
        return (v.bits(), v);
    }
    if k.is_bigint() {
        let s = rt.heap().get(k.ptr_unchecked::<BigIntCell>()).value.to_string();
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in s.bytes() {
            h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
        return (h | 1 << 63, k);
    }
    (k.bits(), k)
}

fn find(rt: &mut Runtime, c: Gc<CollectionObject>, k: Value) -> Option<usize> {
    let (bits, norm) = key_bits(rt, k);
    let positions: Vec<usize> = rt.heap().get(c).data.index.get(&bits).cloned().unwrap_or_default();
    for p in positions {
        let existing = rt.heap().get(c).data.entries[p].0;
        if existing.is_empty() {
            continue;
        }
        if !norm.is_bigint() || rt.same_value_zero(existing, norm) {
            return Some(p);
        }
    }
    None
}

fn insert(rt: &mut Runtime, c: Gc<CollectionObject>, k: Value, v: Value) {
    if let Some(p) = find(rt, c, k) {
        rt.heap_mut().get_mut(c).data.entries[p].1 = v;
        return;
    }
    let (bits, norm) = key_bits(rt, k);
    let d = &mut rt.heap_mut().get_mut(c).data;
    let pos = d.entries.len();
    d.entries.push((norm, v));
    d.index.entry(bits).or_default().push(pos);
    d.live += 1;
}

fn check_weak_key(rt: &mut Runtime, c: Gc<CollectionObject>, k: Value) -> JsResult<()> {
    if rt.heap().get(c).data.weak {
        let ok = k.is_object() || (k.is_symbol() && rt.heap().get(k.ptr_unchecked::<crate::object::Symbol>()).registry_key.is_undefined());
        if !ok {
            return Err(rt.throw_type_error("Invalid value used as weak collection key"));
        }
    }
    Ok(())
}

/// 24.1.3.9 Map.prototype.set(key, value) (and WeakMap).
fn set(rt: &mut Runtime, this: Value, args: &[Value], kind: Kind) -> JsResult<Value> {
    let c = this_of(rt, this, kind)?;
    check_weak_key(rt, c, arg(args, 0))?;
    insert(rt, c, arg(args, 0), arg(args, 1));
    Ok(this)
}

/// 24.2.3.1 Set.prototype.add(value) (and WeakSet).
fn add(rt: &mut Runtime, this: Value, args: &[Value], kind: Kind) -> JsResult<Value> {
    let c = this_of(rt, this, kind)?;
    check_weak_key(rt, c, arg(args, 0))?;
    insert(rt, c, arg(args, 0), arg(args, 0));
    Ok(this)
}

/// 24.1.3.6 Map.prototype.get(key) (and WeakMap).
fn get(rt: &mut Runtime, this: Value, args: &[Value], kind: Kind) -> JsResult<Value> {
    let c = this_of(rt, this, kind)?;
    Ok(match find(rt, c, arg(args, 0)) {
        Some(p) => rt.heap().get(c).data.entries[p].1,
        None => Value::UNDEFINED,
    })
}

/// 24.1.3.7 Map.prototype.has(key) (and Set, WeakMap, WeakSet).
fn has(rt: &mut Runtime, this: Value, args: &[Value], kind: Kind) -> JsResult<Value> {
    let c = this_of(rt, this, kind)?;
    Ok(Value::boolean(find(rt, c, arg(args, 0)).is_some()))
}

/// 24.1.3.3 Map.prototype.delete(key) (and Set, WeakMap, WeakSet).
fn delete(rt: &mut Runtime, this: Value, args: &[Value], kind: Kind) -> JsResult<Value> {
    let c = this_of(rt, this, kind)?;
    let Some(p) = find(rt, c, arg(args, 0)) else { return Ok(Value::FALSE) };
    let (bits, _) = key_bits(rt, arg(args, 0));
    let d = &mut rt.heap_mut().get_mut(c).data;
    d.entries[p] = (Value::EMPTY, Value::UNDEFINED);
    if let Some(list) = d.index.get_mut(&bits) {
        list.retain(|&q| q != p);
        if list.is_empty() {
            d.index.remove(&bits);
        }
    }
    d.live -= 1;
    Ok(Value::TRUE)
}

/// 24.1.3.1 Map.prototype.clear() (and Set).
fn clear(rt: &mut Runtime, this: Value, _args: &[Value], kind: Kind) -> JsResult<Value> {
    let c = this_of(rt, this, kind)?;
    let d = &mut rt.heap_mut().get_mut(c).data;
    for e in d.entries.iter_mut() {
        *e = (Value::EMPTY, Value::UNDEFINED);
    }
    d.index.clear();
    d.live = 0;
    Ok(Value::UNDEFINED)
}

/// 24.1.3.10 get Map.prototype.size (and Set).
fn size(rt: &mut Runtime, this: Value, _args: &[Value], kind: Kind) -> JsResult<Value> {
    let c = this_of(rt, this, kind)?;
    Ok(Value::number(rt.heap().get(c).data.live as f64))
}

/// 24.1.3.5 Map.prototype.forEach(callbackfn [, thisArg]) (and Set).
fn for_each(rt: &mut Runtime, this: Value, args: &[Value], kind: Kind) -> JsResult<Value> {
    let c = this_of(rt, this, kind)?;
    let f = arg(args, 0);
    if !rt.is_callable(f) {
        return Err(rt.throw_type_error("forEach callback is not a function"));
    }
    let mut i = 0;
    loop {
        let d = &rt.heap().get(c).data;
        if i >= d.entries.len() {
            break;
        }
        let (k, v) = d.entries[i];
        i += 1;
        if k.is_empty() {
            continue;
        }
        rt.call(f, arg(args, 1), &[v, k, this])?;
    }
    Ok(Value::UNDEFINED)
}

fn make_iter(rt: &mut Runtime, this: Value, kind: u8, want_set: bool) -> JsResult<Value> {
    let c = this_collection(rt, this, Some(want_set), false, "iterator")?;
    let _ = c;
    Ok(rt.new_builtin_iterator(this, kind))
}

fn map_entries(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    make_iter(rt, this, iter_kind::MAP_ENTRIES, false)
}
fn map_keys(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    make_iter(rt, this, iter_kind::MAP_KEYS, false)
}
fn map_values(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    make_iter(rt, this, iter_kind::MAP_VALUES, false)
}
fn set_entries(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    make_iter(rt, this, iter_kind::SET_ENTRIES, true)
}
fn set_values(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    make_iter(rt, this, iter_kind::SET_VALUES, true)
}

fn collection_iterator_next(rt: &mut Runtime, this: Value, kinds: &[u8]) -> JsResult<Value> {
    let ok = this.is_object()
        && rt.heap().object_kind(this.ptr_unchecked()) == CellKind::Iterator
        && kinds.contains(&rt.heap().get(this.ptr_unchecked::<IteratorObject>()).kind);
    if !ok {
        return Err(rt.throw_type_error("next method called on incompatible receiver"));
    }
    let it: Gc<IteratorObject> = this.ptr_unchecked();
    let (target, mut index, kind) = {
        let i = rt.heap().get(it);
        (i.target, i.index, i.kind)
    };
    if target.is_undefined() {
        return Ok(rt.create_iter_result(Value::UNDEFINED, true));
    }
    let c: Gc<CollectionObject> = target.ptr_unchecked();
    loop {
        let d = &rt.heap().get(c).data;
        if index as usize >= d.entries.len() {
            let im = rt.heap_mut().get_mut(it);
            im.target = Value::UNDEFINED;
            im.index = index;
            return Ok(rt.create_iter_result(Value::UNDEFINED, true));
        }
        let (k, v) = d.entries[index as usize];
        index += 1;
        if k.is_empty() {
            continue;
        }
        rt.heap_mut().get_mut(it).index = index;
        let result = match kind {
            iter_kind::MAP_KEYS | iter_kind::SET_VALUES => k,
            iter_kind::MAP_VALUES => v,
            iter_kind::SET_ENTRIES => Value::object(rt.new_array_from(&[k, k])),
            _ => Value::object(rt.new_array_from(&[k, v])),
        };
        return Ok(rt.create_iter_result(result, false));
    }
}

/// 24.1.5.2.1 %MapIteratorPrototype%.next().
fn map_iterator_next(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    collection_iterator_next(rt, this, &[iter_kind::MAP_KEYS, iter_kind::MAP_VALUES, iter_kind::MAP_ENTRIES])
}

/// 24.2.6.2.1 %SetIteratorPrototype%.next().
fn set_iterator_next(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    collection_iterator_next(rt, this, &[iter_kind::SET_VALUES, iter_kind::SET_ENTRIES])
}

/// 24.1.2.1 Map.groupBy(items, callbackfn).
fn map_group_by(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let (items, cb) = (arg(args, 0), arg(args, 1));
    rt.require_object_coercible(items, "Map.groupBy")?;
    if !rt.is_callable(cb) {
        return Err(rt.throw_type_error("callback is not a function"));
    }
    let mp = rt.intrinsic(Intrinsic::MapPrototype);
    let shape = rt.root_shape(mp, CellKind::Collection, 0);
    let c = CollectionObject { base: JsObject::new(CellKind::Collection, shape), data: Box::default() };
    let map: Gc<CollectionObject> = rt.heap_mut().alloc_object(c, 0);
    rt.root(Value::object(map));
    let it = crate::interp::ops::iter::get_iterator(rt, items)?;
    rt.root(it);
    let mut k = 0u32;
    loop {
        let v = crate::interp::ops::iter::iterator_next(rt, it)?;
        if v.is_empty() {
            break;
        }
        rt.root(v);
        let key = match rt.call(cb, Value::UNDEFINED, &[v, Value::number(k as f64)]) {
            Ok(x) => x,
            Err(e) => {
                let _ = crate::interp::ops::iter::iterator_close(rt, it, true);
                return Err(e);
            }
        };
        let group = match find(rt, map, key) {
            Some(p) => rt.heap().get(map).data.entries[p].1,
            None => {
                let g = Value::object(rt.new_array(0));
                insert(rt, map, key, g);
                g
            }
        };
        rt.array_push(group.ptr_unchecked(), v)?;
        k += 1;
    }
    Ok(Value::object(map))
}
