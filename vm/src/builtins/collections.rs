//! 24.1-24.4 Map, Set, WeakMap and WeakSet.
//!
//! Entries are kept in insertion order in a vector, with deleted entries left as
//! tombstones so live iterators (which hold a position) stay valid; an index maps each
//! key's normalized identity (SameValueZero: strings by their atom, numbers with -0 as +0)
//! to its position. The collector drops the tombstones of a collection that has as many as
//! live entries, once marking has found every live iterator, and moves those iterators to
//! the same next entry; a native walk that holds a position across calls into JavaScript
//! counts itself in `walkers` and the collector then waits. A WeakMap's or WeakSet's
//! entries are ephemerons: the collector keeps a value only while its key lives, and drops
//! the entries of dead keys. Both happen in `runtime::trace::after_marking`.

use super::{arg, rows, Builtin, Row};
use crate::gc::{CellKind, Gc};
use crate::object::{iter_kind, BigIntCell, CollectionData, CollectionObject, IteratorObject, JsObject, Key};
use crate::runtime::{Intrinsic, JsResult, Runtime};
use crate::value::Value;

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin = Builtin {
    init,
    rows: ROWS,
    installed: alias,
    globals: &[
        ("Map", Intrinsic::Map),
        ("Set", Intrinsic::Set),
        ("WeakMap", Intrinsic::WeakMap),
        ("WeakSet", Intrinsic::WeakSet),
    ],
    ..Builtin::NONE
};

pub(crate) const ROWS: &[Row] = rows! {
    MapPrototype."clear" => map_clear, 0;
    MapPrototype."delete" => map_delete, 1;
    MapPrototype."entries" => map_entries, 0;
    MapPrototype."forEach" => map_for_each, 1;
    MapPrototype."get" => map_get, 1;
    MapPrototype."getOrInsert" => map_get_or_insert, 2;
    MapPrototype."getOrInsertComputed" => map_get_or_insert_computed, 2;
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
    SetPrototype."difference" => set_difference, 1;
    SetPrototype."entries" => set_entries, 0;
    SetPrototype."forEach" => set_for_each, 1;
    SetPrototype."has" => set_has, 1;
    SetPrototype."intersection" => set_intersection, 1;
    SetPrototype."isDisjointFrom" => set_is_disjoint_from, 1;
    SetPrototype."isSubsetOf" => set_is_subset_of, 1;
    SetPrototype."isSupersetOf" => set_is_superset_of, 1;
    SetPrototype."size" => set_size, 0, getter;
    SetPrototype."symmetricDifference" => set_symmetric_difference, 1;
    SetPrototype."union" => set_union, 1;
    SetPrototype."values" => set_values, 0;
    Set.[species] => super::array::species_getter, 0, getter;
    SetIteratorPrototype."next" => set_iterator_next, 0;
    WeakMapPrototype."delete" => weak_map_delete, 1;
    WeakMapPrototype."get" => weak_map_get, 1;
    WeakMapPrototype."getOrInsert" => weak_map_get_or_insert, 2;
    WeakMapPrototype."getOrInsertComputed" => weak_map_get_or_insert_computed, 2;
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
        ("Map", Intrinsic::Map, Intrinsic::MapPrototype, map_constructor as crate::runtime::function::NativeFn),
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
fn alias(rt: &mut Runtime, on: Intrinsic) {
    use crate::object::shape::{CONFIGURABLE, WRITABLE};
    let it = Key::Name(rt.symbols.iterator);
    match on {
        Intrinsic::MapPrototype => {
            let mp = rt.intrinsic_object(Intrinsic::MapPrototype);
            let entries = rt.intrinsic_prop(Intrinsic::MapPrototype, "entries");
            rt.define_data_raw(mp, it, entries, WRITABLE | CONFIGURABLE);
        }
        Intrinsic::SetPrototype => {
            let sp = rt.intrinsic_object(Intrinsic::SetPrototype);
            let values = rt.intrinsic_prop(Intrinsic::SetPrototype, "values");
            rt.define_data_raw(sp, it, values, WRITABLE | CONFIGURABLE);
            let keys = rt.key("keys");
            rt.define_data_raw(sp, keys, values, WRITABLE | CONFIGURABLE);
        }
        _ => {}
    }
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
    let data =
        CollectionData::new(matches!(kind, Kind::Set | Kind::WeakSet), matches!(kind, Kind::WeakMap | Kind::WeakSet));
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
    let it = crate::runtime::iteration::get_iterator(rt, iterable)?;
    rt.root(it);
    loop {
        let next = crate::runtime::iteration::iterator_next(rt, it)?;
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
                let e: Gc<JsObject> = next.gc();
                let k = rt.get(e, Key::Index(0), next)?;
                rt.root(k);
                let v = rt.get(e, Key::Index(1), next)?;
                rt.call(adder, Value::object(o), &[k, v])
            } else {
                rt.call(adder, Value::object(o), &[next])
            }
        })();
        if let Err(e) = r {
            return Err(close_after_throw(rt, it, e));
        }
        rt.release_handles(mark);
    }
}

/// IteratorClose(iter, throwCompletion): calls `return` and rethrows the original
/// exception whatever `return` does (`iterator_close` keeps the pending exception).
/// Uncatchable exceptions propagate without running the iterator's code.
pub(super) fn close_after_throw(
    rt: &mut Runtime,
    it: Value,
    e: crate::runtime::Exception,
) -> crate::runtime::Exception {
    if rt.exception_kind != crate::runtime::ExceptionKind::Normal {
        return e;
    }
    match crate::runtime::iteration::iterator_close(rt, it, true) {
        Err(uncatchable) => uncatchable,
        Ok(()) => e,
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
fn this_collection(
    rt: &mut Runtime,
    this: Value,
    want_set: Option<bool>,
    want_weak: bool,
    what: &str,
) -> JsResult<Gc<CollectionObject>> {
    if this.is_object() {
        if let Some(c) = rt.heap().downcast::<CollectionObject>(this.gc()) {
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
    map_get_or_insert => get_or_insert, Map; weak_map_get_or_insert => get_or_insert, WeakMap;
    map_get_or_insert_computed => get_or_insert_computed, Map;
    weak_map_get_or_insert_computed => get_or_insert_computed, WeakMap;
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
        let s = rt.heap().get(k.gc::<BigIntCell>()).value.to_string();
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
    let mut next = rt.heap().get(c).data.newest(bits);
    while let Some(p) = next {
        next = rt.heap().get(c).data.older(p);
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
    let before = d.external_bytes();
    d.push(bits, norm, v);
    let grown = d.external_bytes().saturating_sub(before);
    rt.heap_mut().note_external(grown);
}

fn check_weak_key(rt: &mut Runtime, c: Gc<CollectionObject>, k: Value) -> JsResult<()> {
    if rt.heap().get(c).data.weak && !super::weak_refs::can_be_held_weakly(rt, k) {
        return Err(rt.throw_type_error("Invalid value used as weak collection key"));
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

/// Map.prototype.getOrInsert(key, value) (and WeakMap; the upsert proposal, in test262 as
/// feature `upsert`): the value of `key`, or `value` after adding it.
fn get_or_insert(rt: &mut Runtime, this: Value, args: &[Value], kind: Kind) -> JsResult<Value> {
    let c = this_of(rt, this, kind)?;
    check_weak_key(rt, c, arg(args, 0))?;
    if let Some(p) = find(rt, c, arg(args, 0)) {
        return Ok(rt.heap().get(c).data.entries[p].1);
    }
    insert(rt, c, arg(args, 0), arg(args, 1));
    Ok(arg(args, 1))
}

/// Map.prototype.getOrInsertComputed(key, callbackfn) (and WeakMap): the value of `key`,
/// or what `callbackfn(key)` returns after setting it (over whatever the callback set).
fn get_or_insert_computed(rt: &mut Runtime, this: Value, args: &[Value], kind: Kind) -> JsResult<Value> {
    let c = this_of(rt, this, kind)?;
    check_weak_key(rt, c, arg(args, 0))?;
    let f = arg(args, 1);
    if !rt.is_callable(f) {
        return Err(rt.throw_type_error("getOrInsertComputed: the callback is not a function"));
    }
    // The callback sees the canonical key (-0 as +0).
    let (_, key) = key_bits(rt, arg(args, 0));
    if let Some(p) = find(rt, c, key) {
        return Ok(rt.heap().get(c).data.entries[p].1);
    }
    rt.root(key);
    let value = rt.call(f, Value::UNDEFINED, &[key])?;
    insert(rt, c, key, value);
    Ok(value)
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
    remove_at(rt, c, p);
    Ok(Value::TRUE)
}

/// Empties the live entry at position `p`, leaving a tombstone.
fn remove_at(rt: &mut Runtime, c: Gc<CollectionObject>, p: usize) {
    let k = rt.heap().get(c).data.entries[p].0;
    let (bits, _) = key_bits(rt, k);
    rt.heap_mut().get_mut(c).data.remove(bits, p);
}

/// 24.1.3.1 Map.prototype.clear() (and Set).
fn clear(rt: &mut Runtime, this: Value, _args: &[Value], kind: Kind) -> JsResult<Value> {
    let c = this_of(rt, this, kind)?;
    rt.heap_mut().get_mut(c).data.clear();
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
    walking(rt, c, |rt| {
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
    })
}

/// Runs `walk`, which holds positions of `c` across calls into JavaScript, with the
/// collector told not to move them.
fn walking<R>(
    rt: &mut Runtime,
    c: Gc<CollectionObject>,
    walk: impl FnOnce(&mut Runtime) -> JsResult<R>,
) -> JsResult<R> {
    rt.heap_mut().get_mut(c).data.walkers += 1;
    let r = walk(rt);
    rt.heap_mut().get_mut(c).data.walkers -= 1;
    r
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
        && rt.heap().object_kind(this.gc()) == CellKind::Iterator
        && kinds.contains(&rt.heap().get(this.gc::<IteratorObject>()).kind);
    if !ok {
        return Err(rt.throw_type_error("next method called on incompatible receiver"));
    }
    let it: Gc<IteratorObject> = this.gc();
    let (target, mut index, kind) = {
        let i = rt.heap().get(it);
        (i.target, i.index, i.kind)
    };
    if target.is_undefined() {
        return Ok(rt.create_iter_result(Value::UNDEFINED, true));
    }
    let c: Gc<CollectionObject> = target.gc();
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
    let it = crate::runtime::iteration::get_iterator(rt, items)?;
    rt.root(it);
    let mut k = 0u32;
    loop {
        let v = crate::runtime::iteration::iterator_next(rt, it)?;
        if v.is_empty() {
            break;
        }
        rt.root(v);
        let key = match rt.call(cb, Value::UNDEFINED, &[v, Value::number(k as f64)]) {
            Ok(x) => x,
            Err(e) => return Err(close_after_throw(rt, it, e)),
        };
        let group = match find(rt, map, key) {
            Some(p) => rt.heap().get(map).data.entries[p].1,
            None => {
                let g = Value::object(rt.new_array(0));
                insert(rt, map, key, g);
                g
            }
        };
        rt.array_push(group.gc(), v)?;
        k += 1;
    }
    Ok(Value::object(map))
}

// ---- 24.2.4 Set methods taking a set-like argument (ES2025) -------------------------------

/// 24.2.1.2 Set Record: a set-like object with its size, `has` and `keys` (rooted).
struct SetRecord {
    obj: Value,
    size: f64,
    has: Value,
    keys: Value,
}

/// An Iterator Record from GetIteratorFromMethod: the iterator and its `next`, read once.
struct KeysIter {
    it: Value,
    next: Value,
}

/// 24.2.1.3 GetSetRecord(obj).
fn get_set_record(rt: &mut Runtime, obj: Value) -> JsResult<SetRecord> {
    // 1. If obj is not an Object, throw a TypeError exception.
    if !obj.is_object() {
        return Err(rt.throw_type_error("Set method argument must be a set-like object"));
    }
    let o: Gc<JsObject> = obj.gc();
    // 2-3. Let numSize be ? ToNumber(? Get(obj, "size")).
    let key = rt.key("size");
    let raw = rt.get(o, key, obj)?;
    let num = rt.to_number(raw)?;
    // 5. If numSize is NaN, throw a TypeError exception.
    if num.is_nan() {
        return Err(rt.throw_type_error("The 'size' of a set-like object must be a number"));
    }
    // 6-7. Let intSize be ! ToIntegerOrInfinity(numSize); if intSize < 0, throw a RangeError.
    let size = rt.to_integer_or_infinity(Value::number(num))?;
    if size < 0.0 {
        return Err(rt.throw_range_error("The 'size' of a set-like object must not be negative"));
    }
    // 8-9. Let has be ? Get(obj, "has"); it must be callable.
    let key = rt.key("has");
    let has = rt.get(o, key, obj)?;
    if !rt.is_callable(has) {
        return Err(rt.throw_type_error("The 'has' of a set-like object must be a function"));
    }
    rt.root(has);
    // 10-11. Let keys be ? Get(obj, "keys"); it must be callable.
    let key = rt.key("keys");
    let keys = rt.get(o, key, obj)?;
    if !rt.is_callable(keys) {
        return Err(rt.throw_type_error("The 'keys' of a set-like object must be a function"));
    }
    rt.root(keys);
    Ok(SetRecord { obj, size, has, keys })
}

/// 24.2.1.4 GetKeysIterator(setRec).
fn get_keys_iterator(rt: &mut Runtime, rec: &SetRecord) -> JsResult<KeysIter> {
    // 1-2. Let keysIter be ? Call(setRec.[[Keys]], setRec.[[SetObject]]); it must be an Object.
    let it = rt.call(rec.keys, rec.obj, &[])?;
    if !it.is_object() {
        return Err(rt.throw_type_error("The 'keys' method of a set-like object must return an object"));
    }
    rt.root(it);
    // 3-4. Let nextMethod be ? Get(keysIter, "next"); it must be callable.
    let key = Key::Name(rt.names.next);
    let next = rt.get(it.gc(), key, it)?;
    if !rt.is_callable(next) {
        return Err(rt.throw_type_error("The keys iterator's 'next' must be a function"));
    }
    rt.root(next);
    Ok(KeysIter { it, next })
}

/// 7.4.8 IteratorStepValue: the next value (rooted), or `None` when the iterator is done.
/// Steps `ki` to its end, calling `f` with each value (the handles a step makes are released
/// after it). When `f` returns true the walk stops and the iterator is closed; the result
/// says whether that happened.
fn each_key(rt: &mut Runtime, ki: &KeysIter, mut f: impl FnMut(&mut Runtime, Value) -> bool) -> JsResult<bool> {
    loop {
        let mark = rt.handle_mark();
        let Some(v) = step_value(rt, ki)? else { return Ok(false) };
        let stop = f(rt, v);
        rt.release_handles(mark);
        if stop {
            crate::runtime::iteration::iterator_close(rt, ki.it, false)?;
            return Ok(true);
        }
    }
}

fn step_value(rt: &mut Runtime, ki: &KeysIter) -> JsResult<Option<Value>> {
    let r = rt.call(ki.next, ki.it, &[])?;
    if !r.is_object() {
        let what = rt.short_description(r);
        return Err(rt.throw_type_error(&format!("Iterator result {what} is not an object")));
    }
    let ro: Gc<JsObject> = r.gc();
    let mark = rt.handle_mark();
    rt.root(r);
    let key = Key::Name(rt.names.done);
    let done = rt.get(ro, key, r)?;
    if rt.to_boolean(done) {
        rt.release_handles(mark);
        return Ok(None);
    }
    let key = Key::Name(rt.names.value);
    let v = rt.get(ro, key, r)?;
    rt.release_handles(mark);
    rt.root(v);
    Ok(Some(v))
}

/// SetDataSize(O.[[SetData]]): the number of live elements.
fn live(rt: &Runtime, c: Gc<CollectionObject>) -> f64 {
    rt.heap().get(c).data.live as f64
}

/// A new empty Set with %Set.prototype% (the Set methods never consult @@species).
fn new_set(rt: &mut Runtime) -> Gc<CollectionObject> {
    let sp = rt.intrinsic(Intrinsic::SetPrototype);
    let shape = rt.root_shape(sp, CellKind::Collection, 0);
    let data = CollectionData::new(true, false);
    let c = CollectionObject { base: JsObject::new(CellKind::Collection, shape), data: Box::new(data) };
    let s: Gc<CollectionObject> = rt.heap_mut().alloc_object(c, 0);
    rt.root(Value::object(s));
    s
}

/// A new Set holding a copy of `src`'s elements, in order (tombstones dropped).
fn copy_set(rt: &mut Runtime, src: Gc<CollectionObject>) -> Gc<CollectionObject> {
    let s = new_set(rt);
    for i in 0..rt.heap().get(src).data.entries.len() {
        let (k, v) = rt.heap().get(src).data.entries[i];
        if !k.is_empty() {
            let (bits, _) = key_bits(rt, k);
            rt.heap_mut().get_mut(s).data.push(bits, k, v);
        }
    }
    let external = rt.heap().get(s).data.external_bytes();
    rt.heap_mut().note_external(external);
    s
}

/// Walks `set` by index the way the Set methods do (`index < thisSize`, with thisSize
/// re-read after every call so elements the callbacks append are visited and emptied
/// ones skipped; with `fixed_len` the length is read once), calling other.has(e) on each
/// element. `visit(rt, position, e, inOther)` returns true to stop early; the walk
/// returns whether it stopped.
fn walk_has(
    rt: &mut Runtime,
    set: Gc<CollectionObject>,
    rec: &SetRecord,
    fixed_len: bool,
    mut visit: impl FnMut(&mut Runtime, usize, Value, bool) -> bool,
) -> JsResult<bool> {
    walking(rt, set, |rt| {
        let mut this_size = rt.heap().get(set).data.entries.len();
        let mut index = 0;
        while index < this_size {
            let e = rt.heap().get(set).data.entries[index].0;
            let at = index;
            index += 1;
            if e.is_empty() {
                continue;
            }
            let mark = rt.handle_mark();
            rt.root(e);
            let r = rt.call(rec.has, rec.obj, &[e])?;
            let in_other = rt.to_boolean(r);
            let stop = visit(rt, at, e, in_other);
            rt.release_handles(mark);
            if stop {
                return Ok(true);
            }
            if !fixed_len {
                this_size = rt.heap().get(set).data.entries.len();
            }
        }
        Ok(false)
    })
}

/// 24.2.4.19 Set.prototype.union(other).
fn set_union(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let O be the this value; RequireInternalSlot(O, [[SetData]]).
    let c = this_of(rt, this, Kind::Set)?;
    // 3. Let otherRec be ? GetSetRecord(other).
    let rec = get_set_record(rt, arg(args, 0))?;
    // 4. Let keysIter be ? GetIteratorFromMethod(otherRec.[[SetObject]], otherRec.[[Keys]]).
    let ki = get_keys_iterator(rt, &rec)?;
    // 5. Let resultSetData be a copy of O.[[SetData]].
    let result = copy_set(rt, c);
    // 6. Append each value of keysIter (canonicalized) not already in resultSetData.
    each_key(rt, &ki, |rt, v| {
        insert(rt, result, v, v);
        false
    })?;
    // 7-8. Return a new Set with resultSetData.
    Ok(Value::object(result))
}

/// 24.2.4.9 Set.prototype.intersection(other).
fn set_intersection(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-3. RequireInternalSlot(O, [[SetData]]); otherRec = ? GetSetRecord(other).
    let c = this_of(rt, this, Kind::Set)?;
    let rec = get_set_record(rt, arg(args, 0))?;
    // 4. Let resultSetData be a new empty List.
    let result = new_set(rt);
    if live(rt, c) <= rec.size {
        // 5. Walk O.[[SetData]] by index, keeping the elements other.has() accepts
        //    (has may remove and re-add an element, so skip those already kept).
        walk_has(rt, c, &rec, false, |rt, _, e, in_other| {
            if in_other {
                insert(rt, result, e, e);
            }
            false
        })?;
    } else {
        // 6. Keep each value of other.keys() that O has.
        let ki = get_keys_iterator(rt, &rec)?;
        each_key(rt, &ki, |rt, v| {
            if find(rt, c, v).is_some() {
                insert(rt, result, v, v);
            }
            false
        })?;
    }
    // 7-8. Return a new Set with resultSetData.
    Ok(Value::object(result))
}

/// 24.2.4.5 Set.prototype.difference(other).
fn set_difference(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-3. RequireInternalSlot(O, [[SetData]]); otherRec = ? GetSetRecord(other).
    let c = this_of(rt, this, Kind::Set)?;
    let rec = get_set_record(rt, arg(args, 0))?;
    // 4. Let resultSetData be a copy of O.[[SetData]].
    let result = copy_set(rt, c);
    if live(rt, c) <= rec.size {
        // 5. Walk resultSetData by index (its length fixed), emptying what other.has() accepts.
        walk_has(rt, result, &rec, true, |rt, at, _, in_other| {
            if in_other && !rt.heap().get(result).data.entries[at].0.is_empty() {
                remove_at(rt, result, at);
            }
            false
        })?;
    } else {
        // 6. Empty each value of other.keys() found in resultSetData.
        let ki = get_keys_iterator(rt, &rec)?;
        each_key(rt, &ki, |rt, v| {
            if let Some(p) = find(rt, result, v) {
                remove_at(rt, result, p);
            }
            false
        })?;
    }
    // 7-8. Return a new Set with resultSetData.
    Ok(Value::object(result))
}

/// 24.2.4.15 Set.prototype.symmetricDifference(other).
fn set_symmetric_difference(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-3. RequireInternalSlot(O, [[SetData]]); otherRec = ? GetSetRecord(other).
    let c = this_of(rt, this, Kind::Set)?;
    let rec = get_set_record(rt, arg(args, 0))?;
    // 4. Let keysIter be ? GetIteratorFromMethod(otherRec.[[SetObject]], otherRec.[[Keys]]).
    let ki = get_keys_iterator(rt, &rec)?;
    // 5. Let resultSetData be a copy of O.[[SetData]].
    let result = copy_set(rt, c);
    // 6. For each value of keysIter: when O has it, empty it in resultSetData (if there);
    //    otherwise append it unless it is already there.
    each_key(rt, &ki, |rt, v| {
        let in_result = find(rt, result, v);
        if find(rt, c, v).is_some() {
            if let Some(p) = in_result {
                remove_at(rt, result, p);
            }
        } else if in_result.is_none() {
            insert(rt, result, v, v);
        }
        false
    })?;
    // 7-8. Return a new Set with resultSetData.
    Ok(Value::object(result))
}

/// 24.2.4.11 Set.prototype.isSubsetOf(other).
fn set_is_subset_of(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-3. RequireInternalSlot(O, [[SetData]]); otherRec = ? GetSetRecord(other).
    let c = this_of(rt, this, Kind::Set)?;
    let rec = get_set_record(rt, arg(args, 0))?;
    // 4. If SetDataSize(O.[[SetData]]) > otherRec.[[Size]], return false.
    if live(rt, c) > rec.size {
        return Ok(Value::FALSE);
    }
    // 5-7. Walk O.[[SetData]] by index; return false at the first element other lacks.
    let stopped = walk_has(rt, c, &rec, false, |_, _, _, in_other| !in_other)?;
    // 8. Return true.
    Ok(Value::boolean(!stopped))
}

/// 24.2.4.12 Set.prototype.isSupersetOf(other).
fn set_is_superset_of(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-3. RequireInternalSlot(O, [[SetData]]); otherRec = ? GetSetRecord(other).
    let c = this_of(rt, this, Kind::Set)?;
    let rec = get_set_record(rt, arg(args, 0))?;
    // 4. If SetDataSize(O.[[SetData]]) < otherRec.[[Size]], return false.
    if live(rt, c) < rec.size {
        return Ok(Value::FALSE);
    }
    // 5-6. For each value of other.keys(): if O lacks it, close the iterator and return false.
    let ki = get_keys_iterator(rt, &rec)?;
    let missing = each_key(rt, &ki, |rt, v| find(rt, c, v).is_none())?;
    Ok(Value::boolean(!missing))
}

/// 24.2.4.10 Set.prototype.isDisjointFrom(other).
fn set_is_disjoint_from(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-3. RequireInternalSlot(O, [[SetData]]); otherRec = ? GetSetRecord(other).
    let c = this_of(rt, this, Kind::Set)?;
    let rec = get_set_record(rt, arg(args, 0))?;
    if live(rt, c) <= rec.size {
        // 4. Walk O.[[SetData]] by index; return false at the first element other has.
        let stopped = walk_has(rt, c, &rec, false, |_, _, _, in_other| in_other)?;
        return Ok(Value::boolean(!stopped));
    }
    // 5. For each value of other.keys(): if O has it, close the iterator and return false.
    let ki = get_keys_iterator(rt, &rec)?;
    let shared = each_key(rt, &ki, |rt, v| find(rt, c, v).is_some())?;
    // 6. Return true (false when a value was shared).
    Ok(Value::boolean(!shared))
}

#[cfg(test)]
mod tests {
    //! The Set methods driven from Rust (the VM cannot compile source here), normally and
    //! under gc stress; the lit-test `run/set-methods.js` and test262's `built-ins/Set`
    //! cover set-like objects with user code.

    use super::*;
    use crate::object::shape::{CONFIGURABLE, WRITABLE};
    use crate::runtime::RuntimeOptions;

    #[test]
    fn compaction_keeps_order_chains_and_held_positions() {
        let mut d = CollectionData::new(false, false);
        // Entries 0..8; 2 and 6 share bits 100 (as BigInts with equal hashes would).
        for i in 0..8u64 {
            let bits = if i == 2 || i == 6 { 100 } else { i };
            d.push(bits, Value::number(i as f64), Value::number(10.0 * i as f64));
        }
        for i in [0u64, 1, 3, 4, 5] {
            d.remove(i, i as usize);
        }
        // Held: before everything, on a tombstone, on a live entry, past the end.
        let mut held = [0, 4, 6, 9];
        d.compact(&mut held);
        assert_eq!(held, [0, 1, 1, 3]);
        let keys: Vec<f64> = d.entries.iter().filter_map(|e| e.0.as_number()).collect();
        assert_eq!(keys, [2.0, 6.0, 7.0]);
        assert_eq!(d.newest(100), Some(1));
        assert_eq!(d.older(1), Some(0));
        assert_eq!(d.older(0), None);
        assert_eq!(d.newest(7), Some(2));
        assert_eq!(d.newest(3), None);
        d.remove(100, 0);
        assert_eq!(d.newest(100), Some(1));
        assert_eq!(d.older(1), None);
        assert_eq!(d.live, 2);
    }

    fn both(scenario: fn(&mut Runtime)) {
        for gc_stress in [false, true] {
            let mut rt = Runtime::new(RuntimeOptions { gc_stress, ..Default::default() });
            scenario(&mut rt);
        }
    }

    /// A new Set of `values` (rooted).
    fn set_of(rt: &mut Runtime, values: &[Value]) -> Value {
        let s = new_set(rt);
        for &v in values {
            insert(rt, s, v, v);
        }
        Value::object(s)
    }

    /// The elements of Set `s`, in order.
    fn elements(rt: &Runtime, s: Value) -> Vec<Value> {
        let c: Gc<CollectionObject> = s.gc();
        rt.heap().get(c).data.entries.iter().map(|e| e.0).filter(|k| !k.is_empty()).collect()
    }

    fn nums(ns: &[f64]) -> Vec<Value> {
        ns.iter().map(|&n| Value::number(n)).collect()
    }

    #[test]
    fn set_algebra_keeps_order_and_canonicalizes_zero() {
        both(|rt| {
            let a = set_of(rt, &nums(&[1.0, 2.0, 3.0, 4.0]));
            let b = set_of(rt, &nums(&[-0.0, 4.0, 3.0, 5.0]));
            let check = |rt: &mut Runtime, f: crate::runtime::function::NativeFn, want: &[f64]| {
                let r = f(rt, a, &[b]).expect("no throw");
                rt.root(r);
                let got: Vec<f64> = elements(rt, r).iter().map(|v| v.as_number().expect("number")).collect();
                assert_eq!(got, want);
                assert!(got.iter().all(|n| !(*n == 0.0 && n.is_sign_negative())), "-0 canonicalized");
            };
            check(rt, set_union, &[1.0, 2.0, 3.0, 4.0, 0.0, 5.0]);
            // this.size (4) <= other.size (4): walks this.
            check(rt, set_intersection, &[3.0, 4.0]);
            check(rt, set_difference, &[1.0, 2.0]);
            check(rt, set_symmetric_difference, &[1.0, 2.0, 0.0, 5.0]);
            let small = set_of(rt, &nums(&[4.0, 2.0]));
            assert_eq!(set_intersection(rt, a, &[small]).map(|r| elements(rt, r)).ok(), Some(nums(&[4.0, 2.0])));
            assert_eq!(set_is_subset_of(rt, small, &[a]).ok(), Some(Value::TRUE));
            assert_eq!(set_is_subset_of(rt, a, &[small]).ok(), Some(Value::FALSE));
            assert_eq!(set_is_superset_of(rt, a, &[small]).ok(), Some(Value::TRUE));
            assert_eq!(set_is_superset_of(rt, b, &[small]).ok(), Some(Value::FALSE));
            assert_eq!(set_is_disjoint_from(rt, a, &[b]).ok(), Some(Value::FALSE));
            let far = set_of(rt, &nums(&[9.0]));
            assert_eq!(set_is_disjoint_from(rt, a, &[far]).ok(), Some(Value::TRUE));
            assert_eq!(set_is_disjoint_from(rt, far, &[a]).ok(), Some(Value::TRUE));
            // The receiver is unchanged.
            assert_eq!(elements(rt, a), nums(&[1.0, 2.0, 3.0, 4.0]));
        });
    }

    #[test]
    fn get_set_record_validates_size_has_and_keys() {
        both(|rt| {
            let a = set_of(rt, &nums(&[1.0]));
            let has = rt.intrinsic_prop(Intrinsic::SetPrototype, "has");
            let keys = rt.intrinsic_prop(Intrinsic::SetPrototype, "values");
            let op = rt.intrinsic(Intrinsic::ObjectPrototype);
            let set_like = |rt: &mut Runtime, size: Value, has: Value, keys: Value| {
                let o = rt.new_object(op);
                rt.root(Value::object(o));
                for (name, v) in [("size", size), ("has", has), ("keys", keys)] {
                    let k = rt.key(name);
                    rt.define_data_raw(o, k, v, WRITABLE | CONFIGURABLE);
                }
                Value::object(o)
            };
            let error = |rt: &mut Runtime, other: Value| match set_union(rt, a, &[other]) {
                Ok(_) => String::from("no error"),
                Err(_) => rt.take_js_error().to_string(),
            };
            assert!(error(rt, Value::number(1.0)).contains("TypeError"));
            let o = set_like(rt, Value::UNDEFINED, has, keys);
            assert!(error(rt, o).contains("TypeError"));
            let o = set_like(rt, Value::number(-1.0), has, keys);
            assert!(error(rt, o).contains("RangeError"));
            let o = set_like(rt, Value::number(1.0), Value::NULL, keys);
            assert!(error(rt, o).contains("TypeError"));
            let o = set_like(rt, Value::number(1.0), has, Value::number(2.0));
            assert!(error(rt, o).contains("TypeError"));
            let map = rt.intrinsic_object(Intrinsic::MapPrototype);
            assert!(error(rt, Value::object(map)).contains("TypeError"));
            // A negative fraction above -1 truncates to 0 and is accepted.
            let o = set_like(rt, Value::number(-0.5), has, keys);
            assert!(set_is_subset_of(rt, a, &[o]).is_ok());
        });
    }
}
