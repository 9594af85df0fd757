//! Object model tests: shapes, dictionary mode, attributes, arrays, and the collector.

use super::property::{Own, PropertyDescriptor};
use super::shape::{CONFIGURABLE, ENUMERABLE};
use super::{JsObject, Key};
use crate::gc::Gc;
use crate::runtime::{Intrinsic, Runtime, RuntimeOptions};
use crate::value::Value;

fn rt() -> Runtime {
    Runtime::new(RuntimeOptions::default())
}

fn plain(rt: &mut Runtime) -> Gc<JsObject> {
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    rt.new_object(op)
}

#[test]
fn objects_with_the_same_additions_share_shapes() {
    let mut rt = rt();
    let (a, b) = (plain(&mut rt), plain(&mut rt));
    let (x, y) = (rt.key("x"), rt.key("y"));
    for o in [a, b] {
        assert!(rt.create_data_property(o, x, Value::number(1.0)).unwrap());
        assert!(rt.create_data_property(o, y, Value::number(2.0)).unwrap());
    }
    assert_eq!(rt.heap.get(a).shape, rt.heap.get(b).shape);
    let c = plain(&mut rt);
    rt.create_data_property(c, y, Value::TRUE).unwrap();
    assert_ne!(rt.heap.get(a).shape, rt.heap.get(c).shape);
    assert_eq!(rt.get_prop(a, y).unwrap().as_number(), Some(2.0));
}

#[test]
fn many_properties_spill_out_of_line_and_go_dictionary() {
    let mut rt = rt();
    let o = plain(&mut rt);
    for i in 0..300 {
        let k = rt.key(&format!("p{i}"));
        rt.create_data_property(o, k, Value::number(i as f64)).unwrap();
    }
    assert!(rt.heap.get(rt.heap.get(o).shape).is_dictionary());
    for i in (0..300).step_by(37) {
        let k = rt.key(&format!("p{i}"));
        assert_eq!(rt.get_prop(o, k).unwrap().as_number(), Some(i as f64));
    }
    let k = rt.key("p5");
    assert!(rt.delete(o, k).unwrap());
    assert_eq!(rt.own_lookup(o, k), Own::Absent);
    assert_eq!(rt.own_property_keys(o).unwrap().len(), 299);
}

#[test]
fn attributes_are_enforced() {
    let mut rt = rt();
    let o = plain(&mut rt);
    let k = rt.key("ro");
    let d = PropertyDescriptor::data(Value::number(1.0), ENUMERABLE);
    assert!(rt.define_own_property(o, k, &d).unwrap());
    assert!(!rt.set(o, k, Value::number(2.0), Value::object(o)).unwrap());
    assert!(!rt.delete(o, k).unwrap());
    let d2 = PropertyDescriptor::data(Value::number(3.0), ENUMERABLE);
    assert!(!rt.define_own_property(o, k, &d2).unwrap());
    assert!(rt.define_own_property(o, k, &d).unwrap());
    let w = rt.key("w");
    rt.create_data_property(o, w, Value::NULL).unwrap();
    rt.prevent_extensions(o).unwrap();
    let z = rt.key("z");
    assert!(!rt.create_data_property(o, z, Value::NULL).unwrap());
    assert!(rt.set(o, w, Value::TRUE, Value::object(o)).unwrap());
    assert_eq!(rt.get_prop(o, w).unwrap(), Value::TRUE);
}

#[test]
fn array_length_and_sparse_indices() {
    let mut rt = rt();
    let a = rt.new_array(0);
    rt.set(a, Key::Index(2), Value::TRUE, Value::object(a)).unwrap();
    assert_eq!(rt.heap.array_length(a), 3);
    assert_eq!(rt.own_lookup(a, Key::Index(1)), Own::Absent);
    rt.set(a, Key::Index(4_000_000_000), Value::FALSE, Value::object(a)).unwrap();
    assert_eq!(rt.heap.array_length(a), 4_000_000_001);
    assert_eq!(rt.get_prop(a, Key::Index(4_000_000_000)).unwrap(), Value::FALSE);
    let len = rt.key("length");
    rt.set(a, len, Value::number(1.0), Value::object(a)).unwrap();
    assert_eq!(rt.heap.array_length(a), 1);
    assert_eq!(rt.get_prop(a, Key::Index(4_000_000_000)).unwrap(), Value::UNDEFINED);
    assert_eq!(rt.get_prop(a, Key::Index(2)).unwrap(), Value::UNDEFINED);
    rt.set(a, Key::Index(0), Value::number(7.0), Value::object(a)).unwrap();
    let d = PropertyDescriptor { writable: Some(false), ..Default::default() };
    assert!(rt.define_own_property(a, Key::Index(0), &d).unwrap());
    assert!(!rt.set(a, Key::Index(0), Value::number(8.0), Value::object(a)).unwrap());
    assert_eq!(rt.get_prop(a, Key::Index(0)).unwrap().as_number(), Some(7.0));
    let desc = rt.get_own_property(a, Key::Index(0)).unwrap().unwrap();
    assert_eq!(desc.attrs(), ENUMERABLE | CONFIGURABLE);
}

#[test]
fn prototype_changes_rebuild_the_shape() {
    let mut rt = rt();
    let p = plain(&mut rt);
    let m = rt.key("m");
    rt.create_data_property(p, m, Value::number(1.0)).unwrap();
    let o = plain(&mut rt);
    assert_eq!(rt.get_prop(o, m).unwrap(), Value::UNDEFINED);
    assert!(rt.set_prototype_of(o, Value::object(p)).unwrap());
    assert_eq!(rt.get_prop(o, m).unwrap().as_number(), Some(1.0));
    assert!(!rt.set_prototype_of(p, Value::object(o)).unwrap());
}

#[test]
fn the_collector_reclaims_garbage() {
    let mut rt = rt();
    rt.collect_garbage();
    let base = rt.heap_stats().live_bytes;
    for _ in 0..10_000 {
        let o = plain(&mut rt);
        let k = rt.key("x");
        rt.create_data_property(o, k, Value::number(1.0)).unwrap();
    }
    let keep = plain(&mut rt);
    let h = rt.handle_mark();
    rt.root(Value::object(keep));
    rt.collect_garbage();
    let after = rt.heap_stats().live_bytes;
    assert!(after < base + 4096, "live grew from {base} to {after}");
    let k = rt.key("y");
    rt.create_data_property(keep, k, Value::TRUE).unwrap();
    assert_eq!(rt.get_prop(keep, k).unwrap(), Value::TRUE);
    rt.release_handles(h);
}

#[test]
fn strings_interned_as_keys_survive_collection() {
    let mut rt = rt();
    let o = plain(&mut rt);
    let h = rt.handle_mark();
    rt.root(Value::object(o));
    let s = rt.new_string("dynamic-key");
    let k = rt.key_from_string(s);
    rt.create_data_property(o, k, Value::number(5.0)).unwrap();
    rt.collect_garbage();
    rt.collect_garbage();
    let again = rt.key("dynamic-key");
    assert_eq!(again, k);
    assert_eq!(rt.get_prop(o, again).unwrap().as_number(), Some(5.0));
    rt.release_handles(h);
}

#[test]
fn dictionary_shapes_change_in_place_and_count_versions() {
    let mut rt = rt();
    let o = plain(&mut rt);
    let h = rt.handle_mark();
    rt.root(Value::object(o));
    for i in 0..200 {
        let k = rt.key(&format!("q{i}"));
        rt.create_data_property(o, k, Value::number(i as f64)).unwrap();
    }
    let shape = rt.heap.get(o).shape;
    assert!(rt.heap.get(shape).is_dictionary());
    let v0 = rt.heap.get(shape).dict_version;
    // Adding keeps the shape and its version (an IC keyed by the shape stays valid).
    let k = rt.key("added");
    rt.create_data_property(o, k, Value::TRUE).unwrap();
    assert_eq!(rt.heap.get(o).shape, shape);
    assert_eq!(rt.heap.get(shape).dict_version, v0);
    // Removing or changing attributes bumps the version.
    let q7 = rt.key("q7");
    assert!(rt.delete(o, q7).unwrap());
    let v1 = rt.heap.get(shape).dict_version;
    assert!(v1 > v0);
    let q8 = rt.key("q8");
    let frozen = PropertyDescriptor { writable: Some(false), ..Default::default() };
    assert!(rt.define_own_property(o, q8, &frozen).unwrap());
    assert!(rt.heap.get(shape).dict_version > v1);
    assert_eq!(rt.heap.get(o).shape, shape);
    // The slots that moved still read right.
    let q199 = rt.key("q199");
    assert_eq!(rt.get_prop(o, q199).unwrap().as_number(), Some(199.0));
    assert_eq!(rt.get_prop(o, k).unwrap(), Value::TRUE);
    rt.collect_garbage();
    assert_eq!(rt.get_prop(o, q8).unwrap().as_number(), Some(8.0));
    rt.release_handles(h);
}

#[test]
#[should_panic(expected = "inline slot location")]
fn an_inline_slot_location_outside_the_object_stops_in_every_build() {
    let mut rt = rt();
    let o = plain(&mut rt);
    let cap = rt.heap.get(o).header.aux8 as u32;
    let past_the_end = rt.heap.slot_location(o, 0) + 8 * cap;
    let _ = rt.heap.slot_at(o, past_the_end);
}
