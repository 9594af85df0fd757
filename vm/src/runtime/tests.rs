//! The runtime's roots and weak tables: the handle stack, persistent handles, handle scopes,
//! and the tables that forget what the collector did not reach (atoms, root shapes).

use super::handles::HandleScope;
use super::{Intrinsic, Runtime, RuntimeOptions};
use crate::gc::{CellKind, Gc};
use crate::object::JsObject;
use crate::value::Value;

fn rt() -> Runtime {
    Runtime::new(RuntimeOptions::default())
}

/// A new empty object, not rooted.
fn garbage_candidate(rt: &mut Runtime) -> Gc<JsObject> {
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    rt.new_object(op)
}

fn is_live(rt: &Runtime, o: Gc<JsObject>) -> bool {
    rt.heap.kind_of(o) != CellKind::Free
}

#[test]
fn handles_root_until_released() {
    let mut rt = rt();
    let mark = rt.handle_mark();
    let kept = garbage_candidate(&mut rt);
    let h = rt.root(Value::object(kept));
    // Another cell in the same page keeps the page mapped, so a freed cell stays readable.
    let pin = garbage_candidate(&mut rt);
    rt.root(Value::object(pin));
    let dropped = garbage_candidate(&mut rt);
    rt.collect_garbage();
    assert!(is_live(&rt, kept));
    assert_eq!(rt.handle(h), Value::object(kept));
    assert!(!is_live(&rt, dropped));
    rt.release_handles(mark);
    assert_eq!(rt.handle_mark(), mark);
}

#[test]
fn persistent_handles_outlive_the_handle_stack() {
    let mut rt = rt();
    let o = garbage_candidate(&mut rt);
    let p = rt.persist(Value::object(o));
    let pinned = garbage_candidate(&mut rt);
    let pin = rt.persist(Value::object(pinned));
    let mark = rt.handle_mark();
    rt.release_handles(mark);
    rt.collect_garbage();
    assert!(is_live(&rt, o));
    assert_eq!(rt.persistent(p), Value::object(o));
    rt.release_persistent(p);
    rt.collect_garbage();
    assert!(!is_live(&rt, o), "a released persistent handle roots nothing");
    // Its slot is reused by the next one.
    let q = rt.persist(Value::TRUE);
    assert_eq!(q, p);
    rt.release_persistent(pin);
}

#[test]
fn a_handle_scope_releases_all_but_the_escaping_value() {
    let mut rt = rt();
    let outer = rt.handle_mark();
    let scope = HandleScope::new(&rt);
    let a = garbage_candidate(&mut rt);
    rt.root(Value::object(a));
    let b = garbage_candidate(&mut rt);
    rt.root(Value::object(b));
    let pinned = garbage_candidate(&mut rt);
    let pin = rt.persist(Value::object(pinned));
    let escaped = scope.escape(&mut rt, Value::object(b));
    assert_eq!(rt.handle_mark(), outer + 1);
    rt.collect_garbage();
    assert!(is_live(&rt, b) && escaped == Value::object(b));
    assert!(!is_live(&rt, a));
    rt.release_persistent(pin);
}

#[test]
fn weak_tables_forget_unreached_cells() {
    let mut rt = rt();
    let atoms = rt.atoms.len();
    let k = rt.key("an-atom-nothing-keeps");
    assert_eq!(rt.atoms.len(), atoms + 1);
    let _ = k;
    rt.collect_garbage();
    assert_eq!(rt.atoms.len(), atoms, "an atom nothing refers to is dropped from the table");
    // A root shape lives as long as something uses it.
    let proto = garbage_candidate(&mut rt);
    let ph = rt.persist(Value::object(proto));
    let shapes = rt.caches.root_shapes.len();
    let o = rt.new_object(Value::object(proto));
    let oh = rt.persist(Value::object(o));
    assert_eq!(rt.caches.root_shapes.len(), shapes + 1);
    rt.collect_garbage();
    assert_eq!(rt.caches.root_shapes.len(), shapes + 1);
    rt.release_persistent(oh);
    rt.release_persistent(ph);
    rt.collect_garbage();
    assert_eq!(rt.caches.root_shapes.len(), shapes);
}
