//! The runtime's roots and weak tables: the handle stack and the tables that forget what the collector did not reach (atoms, root shapes).

use super::{Intrinsic, Runtime, RuntimeOptions, REALM_ATOMS, REALM_ROOT_SHAPES};
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
    // The page is swept lazily: sweep it to see what died.
    rt.heap.finish_sweeping();
    assert!(is_live(&rt, kept));
    assert_eq!(rt.handle(h), Value::object(kept));
    assert!(!is_live(&rt, dropped));
    rt.release_handles(mark);
    assert_eq!(rt.handle_mark(), mark);
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
    let mark = rt.handle_mark();
    let proto = garbage_candidate(&mut rt);
    rt.root(Value::object(proto));
    let shapes = rt.caches.root_shapes.len();
    let o = rt.new_object(Value::object(proto));
    rt.root(Value::object(o));
    assert_eq!(rt.caches.root_shapes.len(), shapes + 1);
    rt.collect_garbage();
    assert_eq!(rt.caches.root_shapes.len(), shapes + 1);
    rt.release_handles(mark);
    rt.collect_garbage();
    assert_eq!(rt.caches.root_shapes.len(), shapes);
}

#[test]
fn run_script_reports_a_missing_compiler_and_compile_errors() {
    let mut rt = rt();
    let e = rt.run_script("1", "a.js").expect_err("no compiler is installed");
    assert!(e.message.contains("no compiler"), "{}", e.message);
    rt.set_compiler(Box::new(|_, file, _| Err(format!("{file}:1:5: SyntaxError: Unexpected token\n1 +\n    ^"))));
    let e = rt.run_script("1 +", "b.js").expect_err("the source does not compile");
    assert_eq!((e.name.as_str(), e.message.as_str()), ("SyntaxError", "Unexpected token"));
    // What the hook returns is verified like any bundle.
    rt.set_compiler(Box::new(|_, _, _| Ok(b"not a bundle".to_vec())));
    assert!(rt.run_script("1", "c.js").is_err());
}

/// A new runtime's tables were allocated at the size its realm needs (`REALM_ATOMS`).
#[test]
fn the_realm_fits_the_initial_tables() {
    let rt = Runtime::new(RuntimeOptions::default());
    assert!(rt.atoms.len() <= REALM_ATOMS, "{} atoms", rt.atoms.len());
    assert!(rt.caches.root_shapes.len() <= REALM_ROOT_SHAPES, "{} root shapes", rt.caches.root_shapes.len());
}
