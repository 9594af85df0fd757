//! The embedding API from a host's side: evaluation and completion values, handles across
//! collections, properties, calls, exceptions, jobs, limits and interrupts.

use iris::{JsType, JsValue, Options};

fn runtime() -> iris::Runtime {
    Options::default().build()
}

#[test]
fn completion_values_and_declarations_that_stay() {
    let mut rt = runtime();
    assert!(rt.eval("var a = 1;", "a.js").unwrap().is_undefined());
    assert_eq!(
        rt.eval("const b = a + 1; if (b) { 'yes' } else { 'no' }", "b.js").unwrap().type_of(&rt),
        JsType::String
    );
    assert_eq!(rt.eval("b * 10", "c.js").unwrap().as_number(), Some(20.0));
    assert_eq!(rt.eval("a === 1 && typeof b", "d.js").unwrap().as_string(&mut rt).as_deref(), Some("number"));
    // A second declaration of the same lexical name is the SyntaxError a page would get.
    let err = rt.eval("let b = 3", "e.js").unwrap_err();
    assert_eq!(err.name, "SyntaxError", "{err:?}");
}

#[test]
fn values_made_and_read_by_the_host() {
    let mut rt = runtime();
    let obj = JsValue::object(&mut rt);
    let items = [JsValue::from(1), JsValue::from(true), JsValue::NULL, JsValue::string(&mut rt, "x")];
    let arr = JsValue::array(&mut rt, &items);
    obj.set(&mut rt, "list", &arr).unwrap();
    rt.global().set(&mut rt, "data", &obj).unwrap();
    let text = rt.eval("JSON.stringify(data)", "json.js").unwrap();
    assert_eq!(text.as_string(&mut rt).as_deref(), Some(r#"{"list":[1,true,null,"x"]}"#));
    assert_eq!(arr.get(&mut rt, "length").unwrap().as_number(), Some(4.0));
    assert_eq!(arr.type_of(&rt), JsType::Object);
    assert_eq!(rt.global().get(&mut rt, "parseInt").unwrap().type_of(&rt), JsType::Function);
    assert!(obj.get(&mut rt, "missing").unwrap().is_undefined());
    assert_eq!(JsValue::from(2.5).to_rust_string(&mut rt).unwrap(), "2.5");
    assert_eq!(arr.to_rust_string(&mut rt).unwrap(), "1,true,,x");
    // Properties of undefined are a TypeError, as in JavaScript.
    assert_eq!(JsValue::UNDEFINED.get(&mut rt, "x").unwrap_err().name, "TypeError");
}

#[test]
fn handles_keep_their_values_through_collections() {
    let mut rt = Options { jit_threshold: None, ..Default::default() }.build();
    let kept = rt.eval("({ name: 'kept', list: Array.from({ length: 1000 }, (_, i) => ({ i })) })", "k.js").unwrap();
    let copy = kept.clone();
    drop(kept);
    // Garbage made and collected around it.
    rt.eval("for (let i = 0; i < 20000; i++) globalThis.junk = { i, s: 'x' + i }", "junk.js").unwrap();
    rt.gc();
    rt.gc();
    assert_eq!(copy.get(&mut rt, "name").unwrap().as_string(&mut rt).as_deref(), Some("kept"));
    let list = copy.get(&mut rt, "list").unwrap();
    let last = list.get(&mut rt, "999").unwrap();
    assert_eq!(last.get(&mut rt, "i").unwrap().as_number(), Some(999.0));
}

#[test]
fn calls_and_constructors() {
    let mut rt = runtime();
    let add = rt.eval("(function (a, b) { return this.base + a + b })", "add.js").unwrap();
    let this = rt.eval("({ base: 100 })", "this.js").unwrap();
    let r = add.call(&mut rt, &this, &[JsValue::from(1), JsValue::from(2)]).unwrap();
    assert_eq!(r.as_number(), Some(103.0));
    let point = rt.eval("(class Point { constructor(x) { this.x = x } })", "point.js").unwrap();
    let p = point.construct(&mut rt, &[JsValue::from(7)]).unwrap();
    assert_eq!(p.get(&mut rt, "x").unwrap().as_number(), Some(7.0));
    let err = JsValue::from(1).call(&mut rt, &JsValue::UNDEFINED, &[]).unwrap_err();
    assert_eq!(err.name, "TypeError");
    let err = add.get(&mut rt, "call").unwrap().construct(&mut rt, &[]).unwrap_err();
    assert_eq!(err.name, "TypeError");
    // A thrown exception comes back with its stack.
    let thrower = rt.eval("function thrower() { throw new RangeError('no') }\nthrower", "t.js").unwrap();
    let err = thrower.call(&mut rt, &JsValue::UNDEFINED, &[]).unwrap_err();
    assert_eq!((err.name.as_str(), err.message.as_str()), ("RangeError", "no"));
    assert!(err.stack.contains("at thrower (t.js:1:"), "{}", err.stack);
}

#[test]
fn jobs_wait_for_the_host() {
    let mut rt = runtime();
    rt.eval("var log = []; Promise.resolve(1).then((v) => log.push(v)); log.push(0)", "p.js").unwrap();
    assert_eq!(rt.eval("log.join()", "l.js").unwrap().as_string(&mut rt).as_deref(), Some("0"));
    rt.run_pending_jobs().unwrap();
    assert_eq!(rt.eval("log.join()", "l.js").unwrap().as_string(&mut rt).as_deref(), Some("0,1"));
}

#[test]
fn an_interrupt_stops_a_loop_and_the_runtime_goes_on() {
    let mut rt = runtime();
    let handle = rt.interrupt_handle();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(100));
        handle.interrupt();
    });
    let err = rt.eval("for (;;) {}", "spin.js").unwrap_err();
    stopper.join().unwrap();
    assert!(err.interrupted, "{err:?}");
    assert_eq!(rt.eval("1 + 1", "after.js").unwrap().as_number(), Some(2.0));
}

#[test]
fn the_heap_limit_is_a_range_error() {
    let mut rt = Options { heap_limit: 32 << 20, ..Default::default() }.build();
    let r = rt.eval("let a = []; try { for (;;) a.push({ a }) } catch (e) { a = null; String(e) }", "oom.js").unwrap();
    assert!(r.as_string(&mut rt).unwrap().starts_with("RangeError"));
}

#[test]
fn without_the_compiler_only_bundles_run() {
    let bundle = compiler::driver::compile("const x = 6; x * 7", "b.js", &Default::default()).unwrap();
    let mut rt = Options { compiler: false, ..Default::default() }.build();
    assert_eq!(rt.eval_bundle(bundle).unwrap().as_number(), Some(42.0));
    let err = rt.eval("1", "src.js").unwrap_err();
    assert!(err.message.contains("no compiler"), "{err:?}");
    let err = rt.eval_bundle(b"not a bundle".to_vec()).unwrap_err();
    assert!(!err.message.is_empty(), "{err:?}");
}

#[test]
#[should_panic(expected = "a JsValue was given to a runtime that did not make it")]
fn a_value_belongs_to_its_runtime() {
    let mut a = runtime();
    let mut b = runtime();
    let s = JsValue::string(&mut a, "mine");
    let _ = s.as_string(&mut b);
}
