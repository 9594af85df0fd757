//! Async iteration tests driven from Rust (the VM cannot compile source here): the
//! intrinsics' wiring, GetIterator(obj, async) and %AsyncFromSyncIteratorPrototype% over
//! built-in and native sync iterators, and the AsyncGenerator methods' receiver checks.
//! The async generator driver runs compiled bodies: the lit-tests `run/async-generators.js`
//! and `run/for-await.js` and test262 cover it. Every scenario also runs under `gc_stress`.

use super::get_async_iterator;
use crate::gc::Gc;
use crate::object::shape::{CONFIGURABLE, WRITABLE};
use crate::object::JsObject;
use crate::runtime::{Intrinsic, JsResult, Runtime, RuntimeOptions};
use crate::value::Value;

/// Runs `scenario` normally and under gc stress.
fn both(scenario: fn(&mut Runtime)) {
    for gc_stress in [false, true] {
        let mut rt = Runtime::new(RuntimeOptions { gc_stress, ..Default::default() });
        scenario(&mut rt);
    }
}

fn root(rt: &mut Runtime, v: Value) -> Value {
    rt.root(v);
    v
}

fn get(rt: &mut Runtime, v: Value, name: &str) -> Value {
    let key = rt.key(name);
    let r = rt.get_v(v, key).expect("get");
    root(rt, r)
}

/// `receiver[name](...args)`, rooted.
fn call_method(rt: &mut Runtime, receiver: Value, name: &str, args: &[Value]) -> Value {
    let f = get(rt, receiver, name);
    let r = rt.call(f, receiver, args).unwrap_or_else(|_| {
        let e = rt.take_js_error();
        panic!("{name} threw: {e}")
    });
    root(rt, r)
}

fn drain(rt: &mut Runtime) {
    if rt.run_jobs().is_err() {
        let e = rt.take_js_error();
        panic!("a job threw: {e}");
    }
}

/// The settled state of promise `p` after the jobs ran: `Ok(value)` or `Err(reason)`.
fn settled(rt: &mut Runtime, p: Value) -> Result<Value, Value> {
    assert!(crate::builtins::promise::is_promise(rt, p), "not a promise");
    rt.promise_result(p.gc()).expect("the promise is still pending")
}

/// `(value, done)` of a fulfilled iterator-result promise.
fn iter_result(rt: &mut Runtime, p: Value) -> (Value, bool) {
    let r = settled(rt, p).unwrap_or_else(|e| panic!("rejected: {}", crate::builtins::console::inspect(rt, e)));
    let value = get(rt, r, "value");
    let done = get(rt, r, "done");
    (value, done == Value::TRUE)
}

fn is_type_error(rt: &mut Runtime, v: Value) -> bool {
    let tep = rt.intrinsic(Intrinsic::TypeErrorPrototype);
    v.is_object() && rt.get_prototype_of(v.gc()) == tep
}

fn num(n: f64) -> Value {
    Value::number(n)
}

#[test]
fn intrinsics_are_wired_as_the_specification_says() {
    both(|rt| {
        let aip = rt.intrinsic(Intrinsic::AsyncIteratorPrototype);
        let agp = rt.intrinsic(Intrinsic::AsyncGeneratorPrototype);
        let agfp = rt.intrinsic(Intrinsic::AsyncGeneratorFunctionPrototype);
        let agf = rt.intrinsic(Intrinsic::AsyncGeneratorFunction);
        let afsip = rt.intrinsic(Intrinsic::AsyncFromSyncIteratorPrototype);
        let op = rt.intrinsic(Intrinsic::ObjectPrototype);
        let fp = rt.intrinsic(Intrinsic::FunctionPrototype);
        assert_eq!(rt.get_prototype_of(aip.gc()), op);
        assert_eq!(rt.get_prototype_of(agp.gc()), aip);
        assert_eq!(rt.get_prototype_of(afsip.gc()), aip);
        assert_eq!(rt.get_prototype_of(agfp.gc()), fp);
        assert_eq!(get(rt, agfp, "prototype"), agp);
        assert_eq!(get(rt, agp, "constructor"), agfp);
        assert_eq!(get(rt, agfp, "constructor"), agf);
        assert_eq!(get(rt, agf, "prototype"), agfp);
        let function = rt.intrinsic(Intrinsic::Function);
        assert_eq!(rt.get_prototype_of(agf.gc()), function);
        // %AsyncIteratorPrototype%[@@asyncIterator]() returns its receiver.
        let key = crate::object::Key::Name(rt.symbols.async_iterator);
        let f = rt.get_v(aip, key).expect("@@asyncIterator");
        let receiver = Value::object(rt.new_object(op));
        root(rt, receiver);
        assert_eq!(rt.call(f, receiver, &[]).ok(), Some(receiver));
        // Tags and attributes.
        let tag_key = crate::object::Key::Name(rt.symbols.to_string_tag);
        let tag = rt.get_v(agp, tag_key).expect("tag");
        assert_eq!(rt.string_to_rust(tag), "AsyncGenerator");
        let tag = rt.get_v(agfp, tag_key).expect("tag");
        assert_eq!(rt.string_to_rust(tag), "AsyncGeneratorFunction");
        let pk = rt.key("prototype");
        let d = rt.get_own_property(agfp.gc(), pk).expect("desc").expect("own");
        assert_eq!((d.writable, d.enumerable, d.configurable), (Some(false), Some(false), Some(true)));
        for name in ["next", "return", "throw"] {
            let k = rt.key(name);
            let d = rt.get_own_property(agp.gc(), k).expect("desc").expect("own");
            assert_eq!((d.writable, d.configurable), (Some(true), Some(true)), "{name}");
            assert!(rt.get_own_property(afsip.gc(), k).expect("desc").is_some(), "{name}");
        }
    });
}

#[test]
fn async_from_sync_iterator_awaits_each_value_of_an_array() {
    both(|rt| {
        let c = rt.intrinsic(Intrinsic::Promise);
        let two = call_method(rt, c, "resolve", &[num(2.0)]);
        let array = Value::object(rt.new_array_from(&[num(1.0), two]));
        root(rt, array);
        let it = get_async_iterator(rt, array).unwrap_or_else(|_| panic!("getAsyncIterator threw"));
        root(rt, it);
        let afsip = rt.intrinsic(Intrinsic::AsyncFromSyncIteratorPrototype);
        assert_eq!(rt.get_prototype_of(it.gc()), afsip);
        let p1 = call_method(rt, it, "next", &[]);
        let p2 = call_method(rt, it, "next", &[]);
        let p3 = call_method(rt, it, "next", &[]);
        drain(rt);
        assert_eq!(iter_result(rt, p1), (num(1.0), false));
        assert_eq!(iter_result(rt, p2), (num(2.0), false));
        assert_eq!(iter_result(rt, p3), (Value::UNDEFINED, true));
        // An array iterator has no `return`: return(v) fulfils with { value: v, done: true }.
        let p4 = call_method(rt, it, "return", &[num(7.0)]);
        drain(rt);
        assert_eq!(iter_result(rt, p4), (num(7.0), true));
        // ...and no `throw`: throw(v) rejects with a TypeError.
        let p5 = call_method(rt, it, "throw", &[num(8.0)]);
        drain(rt);
        let reason = settled(rt, p5).expect_err("throw() rejects");
        assert!(is_type_error(rt, reason));
    });
}

/// A sync iterator whose values are its `next` call count and whose `return` counts calls
/// in the iterator's `closed` property; a value of 2 is a rejected promise.
fn counting_next(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let key = rt.key("count");
    let n = rt.get_v(this, key)?.as_number().unwrap_or(0.0) + 1.0;
    rt.put_v(this, key, num(n), true)?;
    let value = if n == 2.0 {
        let c = rt.intrinsic(Intrinsic::Promise);
        let key = rt.key("reject");
        let reject = rt.get_v(c, key)?;
        rt.call(reject, c, &[num(n)])?
    } else {
        num(n)
    };
    rt.root(value);
    Ok(rt.create_iter_result(value, false))
}

fn counting_return(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let key = rt.key("closed");
    let n = rt.get_v(this, key)?.as_number().unwrap_or(0.0) + 1.0;
    rt.put_v(this, key, num(n), true)?;
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    Ok(Value::object(rt.new_object(op)))
}

fn counting_iterator(rt: &mut Runtime) -> Value {
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    let o: Gc<JsObject> = rt.new_object(op);
    root(rt, Value::object(o));
    rt.define_method(o, "next", counting_next, 0);
    rt.define_method(o, "return", counting_return, 0);
    Value::object(o)
}

#[test]
fn a_rejected_value_closes_the_sync_iterator_and_rejects() {
    both(|rt| {
        let sync = counting_iterator(rt);
        let next = get(rt, sync, "next");
        let it = super::create_async_from_sync_iterator(rt, sync, next);
        root(rt, it);
        let p1 = call_method(rt, it, "next", &[]);
        let p2 = call_method(rt, it, "next", &[]);
        drain(rt);
        assert_eq!(iter_result(rt, p1), (num(1.0), false));
        // 27.1.6.4 step 13: the rejection of a value that is not done closes the iterator.
        assert_eq!(settled(rt, p2), Err(num(2.0)));
        assert_eq!(get(rt, sync, "closed"), num(1.0));
        // throw() without a `throw` method closes it as well, then rejects with a TypeError.
        let p3 = call_method(rt, it, "throw", &[num(9.0)]);
        drain(rt);
        let reason = settled(rt, p3).expect_err("throw() rejects");
        assert!(is_type_error(rt, reason));
        assert_eq!(get(rt, sync, "closed"), num(2.0));
    });
}

#[test]
fn get_async_iterator_requires_an_iterable_and_an_object_iterator() {
    both(|rt| {
        assert!(get_async_iterator(rt, num(5.0)).is_err());
        let e = rt.take_exception();
        assert!(is_type_error(rt, e));
        assert!(get_async_iterator(rt, Value::UNDEFINED).is_err());
        let e = rt.take_exception();
        assert!(is_type_error(rt, e));
        // An @@asyncIterator method wins over @@iterator and must return an object.
        let op = rt.intrinsic(Intrinsic::ObjectPrototype);
        let o = rt.new_object(op);
        root(rt, Value::object(o));
        let f = rt.intrinsic(Intrinsic::ObjectProtoToString);
        let key = crate::object::Key::Name(rt.symbols.async_iterator);
        rt.define_data_raw(o, key, f, WRITABLE | CONFIGURABLE);
        assert!(get_async_iterator(rt, Value::object(o)).is_err());
        let e = rt.take_exception();
        assert!(is_type_error(rt, e));
    });
}

#[test]
fn async_generator_methods_reject_other_receivers() {
    both(|rt| {
        let agp = rt.intrinsic(Intrinsic::AsyncGeneratorPrototype);
        let op = rt.intrinsic(Intrinsic::ObjectPrototype);
        let other = Value::object(rt.new_object(op));
        root(rt, other);
        for name in ["next", "return", "throw"] {
            let f = get(rt, agp, name);
            let p = rt.call(f, other, &[num(1.0)]).unwrap_or_else(|_| panic!("{name} threw instead of rejecting"));
            root(rt, p);
            drain(rt);
            let reason = settled(rt, p).expect_err("rejected");
            assert!(is_type_error(rt, reason), "{name}");
        }
    });
}

#[test]
fn async_generator_start_checks_its_argument() {
    both(|rt| {
        assert!(super::super::async_generator::async_generator_start(rt, num(1.0)).is_err());
        let e = rt.take_exception();
        assert!(is_type_error(rt, e));
    });
}
