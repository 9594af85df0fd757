//! Promise tests driven from Rust: handlers are native functions that log what they
//! receive, so the order of reactions can be checked without the compiler. Every scenario
//! runs twice, the second time under `gc_stress` (a collection at every safepoint, one per
//! job at least) to catch missing roots.

use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

use super::super::arg;
use crate::gc::Gc;
use crate::object::JsObject;
use crate::runtime::{Intrinsic, JsResult, Runtime, RuntimeOptions};
use crate::value::Value;

/// Collects what the runtime prints.
#[derive(Clone, Default)]
struct Log(Rc<RefCell<Vec<u8>>>);

impl Write for Log {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Log {
    fn take(&self) -> String {
        String::from_utf8(std::mem::take(&mut *self.0.borrow_mut())).expect("utf-8 output")
    }
}

fn runtime(gc_stress: bool) -> (Runtime, Log) {
    let mut rt = Runtime::new(RuntimeOptions { gc_stress, ..Default::default() });
    let log = Log::default();
    rt.set_output(Box::new(log.clone()));
    (rt, log)
}

/// Runs `scenario` normally and under gc stress.
fn both(scenario: fn(&mut Runtime, &Log)) {
    for stress in [false, true] {
        let (mut rt, log) = runtime(stress);
        scenario(&mut rt, &log);
    }
}

/// A handler that prints `<tag> <argument>` and returns its argument (its tag is its data).
fn logger(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let tag = rt.native_data(rt.native_callee());
    let tag = rt.string_to_rust(tag);
    let v = arg(args, 0);
    let text = crate::builtins::console::inspect(rt, v);
    rt.write_output(&format!("{tag} {text}\n"));
    Ok(v)
}

/// A handler that throws its data.
fn thrower(rt: &mut Runtime, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let v = rt.native_data(rt.native_callee());
    Err(rt.throw(v))
}

/// A `then` method that calls `onFulfilled(this.value)` synchronously.
fn sync_then(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let key = rt.key("value");
    let v = rt.get_v(this, key)?;
    rt.call(arg(args, 0), Value::UNDEFINED, &[v])
}

/// Attaches a logging `catch` handler to the promise in its data.
fn attach_catch(rt: &mut Runtime, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let p = rt.native_data(rt.native_callee());
    let f = log_fn(rt, "handled");
    let key = rt.key("catch");
    let catch = rt.get_v(p, key)?;
    rt.call(catch, p, &[f])
}

fn log_fn(rt: &mut Runtime, tag: &str) -> Value {
    let t = rt.new_string(tag);
    let f = Value::object(rt.new_native_with_data(tag, logger, 1, t));
    rt.root(f);
    f
}

fn root(rt: &mut Runtime, v: Value) -> Value {
    rt.root(v);
    v
}

/// `receiver[name](...args)`, rooted.
fn call_method(rt: &mut Runtime, receiver: Value, name: &str, args: &[Value]) -> Value {
    let key = rt.key(name);
    let f = rt.get_v(receiver, key).expect("method");
    let r = rt.call(f, receiver, args).unwrap_or_else(|_| {
        let e = rt.take_js_error();
        panic!("{name} threw: {e}")
    });
    root(rt, r)
}

fn promise_ctor(rt: &mut Runtime) -> Value {
    rt.intrinsic(Intrinsic::Promise)
}

fn resolved(rt: &mut Runtime, v: Value) -> Value {
    let c = promise_ctor(rt);
    call_method(rt, c, "resolve", &[v])
}

fn rejected(rt: &mut Runtime, v: Value) -> Value {
    let c = promise_ctor(rt);
    call_method(rt, c, "reject", &[v])
}

fn array(rt: &mut Runtime, values: &[Value]) -> Value {
    let a = Value::object(rt.new_array_from(values));
    root(rt, a)
}

fn drain(rt: &mut Runtime) {
    if rt.run_jobs().is_err() {
        let e = rt.take_js_error();
        panic!("a job threw: {e}");
    }
}

fn num(n: f64) -> Value {
    Value::number(n)
}

#[test]
fn reactions_run_in_registration_order_after_the_script() {
    both(|rt, log| {
        let p1 = resolved(rt, num(1.0));
        let p2 = resolved(rt, num(2.0));
        let (a, b, c) = (log_fn(rt, "a"), log_fn(rt, "b"), log_fn(rt, "c"));
        call_method(rt, p1, "then", &[a]);
        call_method(rt, p2, "then", &[b]);
        call_method(rt, p1, "then", &[c]);
        assert_eq!(log.take(), "", "reactions wait for the job queue");
        drain(rt);
        assert_eq!(log.take(), "a 1\nb 2\nc 1\n");
    });
}

#[test]
fn chains_interleave_one_step_per_job() {
    both(|rt, log| {
        let p = resolved(rt, num(0.0));
        let q = resolved(rt, num(10.0));
        let mut pc = p;
        let mut qc = q;
        for i in 0..3 {
            let f = log_fn(rt, &format!("p{i}"));
            pc = call_method(rt, pc, "then", &[f]);
            let g = log_fn(rt, &format!("q{i}"));
            qc = call_method(rt, qc, "then", &[g]);
        }
        drain(rt);
        assert_eq!(log.take(), "p0 0\nq0 10\np1 0\nq1 10\np2 0\nq2 10\n");
    });
}

#[test]
fn adopting_a_promise_takes_two_more_jobs() {
    // const p = Promise.resolve(); new Promise(r => r(p)).then(adopt);
    // p.then(one).then(two).then(three)  — node prints one, two, adopt, three.
    both(|rt, log| {
        let p = resolved(rt, Value::UNDEFINED);
        let q = Value::object(rt.new_promise());
        rt.root(q);
        rt.resolve_promise(q.gc(), p);
        let adopt = log_fn(rt, "adopt");
        call_method(rt, q, "then", &[adopt]);
        let mut c = p;
        for tag in ["one", "two", "three"] {
            let f = log_fn(rt, tag);
            c = call_method(rt, c, "then", &[f]);
        }
        drain(rt);
        assert_eq!(log.take(), "one undefined\ntwo undefined\nadopt undefined\nthree undefined\n");
    });
}

#[test]
fn thenables_are_adopted_through_a_job() {
    both(|rt, log| {
        let op = rt.intrinsic(Intrinsic::ObjectPrototype);
        let thenable = Value::object(rt.new_object(op));
        rt.root(thenable);
        let then = Value::object(rt.new_native("then", sync_then, 2));
        let (tk, vk) = (rt.key("then"), rt.key("value"));
        rt.create_data_property_or_throw(thenable.gc(), tk, then).unwrap();
        rt.create_data_property_or_throw(thenable.gc(), vk, num(7.0)).unwrap();
        let p = resolved(rt, thenable);
        let f = log_fn(rt, "got");
        call_method(rt, p, "then", &[f]);
        let pending = rt.promise_result(p.gc());
        assert!(pending.is_none(), "a thenable is not called synchronously");
        drain(rt);
        assert_eq!(log.take(), "got 7\n");
        assert_eq!(rt.promise_result(p.gc()).map(|r| r.ok()), Some(Some(num(7.0))));
    });
}

#[test]
fn self_resolution_rejects_with_a_type_error() {
    both(|rt, log| {
        let q = Value::object(rt.new_promise());
        rt.root(q);
        rt.resolve_promise(q.gc(), q);
        let Some(Err(reason)) = rt.promise_result(q.gc()) else { panic!("not rejected") };
        let e = rt.describe_thrown(reason);
        assert_eq!(e.name, "TypeError");
        let f = log_fn(rt, "caught");
        call_method(rt, q, "catch", &[Value::UNDEFINED]);
        call_method(rt, q, "then", &[Value::UNDEFINED, f]);
        drain(rt);
        assert!(log.take().starts_with("caught TypeError: Chaining cycle"));
    });
}

#[test]
fn a_throwing_handler_rejects_the_derived_promise() {
    both(|rt, log| {
        let p = resolved(rt, num(1.0));
        let boom = rt.new_string("boom");
        let t = Value::object(rt.new_native_with_data("t", thrower, 1, boom));
        rt.root(t);
        let d = call_method(rt, p, "then", &[t]);
        let f = log_fn(rt, "rejected");
        call_method(rt, d, "catch", &[f]);
        drain(rt);
        assert_eq!(log.take(), "rejected boom\n");
    });
}

#[test]
fn finally_passes_the_value_through_after_its_callback() {
    both(|rt, log| {
        let p = resolved(rt, num(5.0));
        let fin = log_fn(rt, "finally");
        let f = call_method(rt, p, "finally", &[fin]);
        let after = log_fn(rt, "after");
        call_method(rt, f, "then", &[after]);
        let r = rejected(rt, num(6.0));
        let fin2 = log_fn(rt, "finally2");
        let f2 = call_method(rt, r, "finally", &[fin2]);
        let caught = log_fn(rt, "caught");
        call_method(rt, f2, "catch", &[caught]);
        drain(rt);
        assert_eq!(log.take(), "finally undefined\nfinally2 undefined\nafter 5\ncaught 6\n");
    });
}

#[test]
fn all_and_all_settled_collect_in_input_order() {
    both(|rt, log| {
        let c = promise_ctor(rt);
        let second = resolved(rt, num(2.0));
        let input = array(rt, &[num(1.0), second, num(3.0)]);
        let all = call_method(rt, c, "all", &[input]);
        let f = log_fn(rt, "all");
        call_method(rt, all, "then", &[f]);
        let bad = rejected(rt, num(9.0));
        let input = array(rt, &[num(1.0), bad]);
        let settled = call_method(rt, c, "allSettled", &[input]);
        let g = log_fn(rt, "settled");
        call_method(rt, settled, "then", &[g]);
        let empty = array(rt, &[]);
        let none = call_method(rt, c, "all", &[empty]);
        let h = log_fn(rt, "empty");
        call_method(rt, none, "then", &[h]);
        drain(rt);
        assert_eq!(
            log.take(),
            "empty []\nall [ 1, 2, 3 ]\nsettled [ { status: 'fulfilled', value: 1 }, { status: 'rejected', reason: 9 } ]\n"
        );
    });
}

#[test]
fn all_rejects_with_the_first_rejection() {
    both(|rt, log| {
        let c = promise_ctor(rt);
        let (a, b) = (rejected(rt, num(1.0)), rejected(rt, num(2.0)));
        let input = array(rt, &[num(0.0), a, b]);
        let all = call_method(rt, c, "all", &[input]);
        let f = log_fn(rt, "rejected");
        call_method(rt, all, "catch", &[f]);
        drain(rt);
        assert_eq!(log.take(), "rejected 1\n");
    });
}

#[test]
fn any_fulfils_with_the_first_value_or_rejects_with_an_aggregate_error() {
    both(|rt, log| {
        let c = promise_ctor(rt);
        let (a, b) = (rejected(rt, num(1.0)), resolved(rt, num(2.0)));
        let input = array(rt, &[a, b]);
        let any = call_method(rt, c, "any", &[input]);
        let f = log_fn(rt, "any");
        call_method(rt, any, "then", &[f]);
        let (x, y) = (rejected(rt, num(3.0)), rejected(rt, num(4.0)));
        let input = array(rt, &[x, y]);
        let none = call_method(rt, c, "any", &[input]);
        let g = log_fn(rt, "errors");
        call_method(rt, none, "then", &[Value::UNDEFINED, g]);
        drain(rt);
        let out = log.take();
        assert!(out.starts_with("any 2\nerrors "), "{out}");
        let Some(Err(e)) = rt.promise_result(none.gc()) else { panic!("any did not reject") };
        assert_eq!(rt.describe_thrown(e).name, "AggregateError");
        let ek = rt.key("errors");
        let list = rt.get_v(e, ek).unwrap();
        assert_eq!(crate::builtins::console::inspect(rt, list), "[ 3, 4 ]");
    });
}

#[test]
fn race_settles_like_the_first_to_settle() {
    both(|rt, log| {
        let c = promise_ctor(rt);
        let pending = Value::object(rt.new_promise());
        rt.root(pending);
        let second = resolved(rt, num(2.0));
        let input = array(rt, &[pending, second, num(3.0)]);
        let race = call_method(rt, c, "race", &[input]);
        let f = log_fn(rt, "race");
        call_method(rt, race, "then", &[f]);
        drain(rt);
        assert_eq!(log.take(), "race 2\n");
    });
}

#[test]
fn promise_resolve_returns_native_promises_unchanged() {
    both(|rt, _log| {
        let p = Value::object(rt.new_promise());
        rt.root(p);
        let q = rt.promise_resolve(p).unwrap();
        assert_eq!(Value::object(q), p);
        let r = rt.promise_resolve(num(1.0)).unwrap();
        assert_eq!(rt.promise_result(r).map(|x| x.ok()), Some(Some(num(1.0))));
        let c = promise_ctor(rt);
        let same = call_method(rt, c, "resolve", &[p]);
        assert_eq!(same, p);
    });
}

#[test]
fn internal_then_runs_handlers_without_a_derived_promise() {
    both(|rt, log| {
        let p: Gc<JsObject> = rt.new_promise();
        rt.root(Value::object(p));
        let (f, r) = (log_fn(rt, "fulfilled"), log_fn(rt, "rejected"));
        rt.promise_then(p, f, r);
        let q = rt.new_promise();
        rt.root(Value::object(q));
        rt.promise_then(q, f, r);
        rt.reject_promise(q, num(2.0));
        rt.resolve_promise(p, num(1.0));
        // Settled promises ignore later settlement.
        rt.reject_promise(p, num(3.0));
        drain(rt);
        assert_eq!(log.take(), "rejected 2\nfulfilled 1\n");
        assert!(rt.take_unhandled_rejections().is_empty(), "q was handled");
    });
}

#[test]
fn a_job_that_throws_is_reported_after_the_queue_drains() {
    both(|rt, log| {
        let p = rt.new_promise();
        rt.root(Value::object(p));
        let oops = rt.new_string("oops");
        let t = Value::object(rt.new_native_with_data("t", thrower, 1, oops));
        rt.root(t);
        rt.promise_then(p, t, Value::UNDEFINED);
        let after = log_fn(rt, "after");
        rt.promise_then(p, after, Value::UNDEFINED);
        rt.resolve_promise(p, num(1.0));
        assert!(rt.run_jobs().is_err());
        assert_eq!(rt.take_js_error().message, "oops");
        assert_eq!(log.take(), "after 1\n", "the queue went on after the exception");
        assert!(rt.run_jobs().is_ok());
    });
}

#[test]
fn unhandled_rejections_are_tracked_until_handled() {
    both(|rt, log| {
        let a = rejected(rt, num(1.0));
        let b = rejected(rt, num(2.0));
        // `b` gets its handler in a job: still handled before the queue empties.
        let p = resolved(rt, Value::UNDEFINED);
        let attach = Value::object(rt.new_native_with_data("attach", attach_catch, 0, b));
        rt.root(attach);
        call_method(rt, p, "then", &[attach]);
        drain(rt);
        assert_eq!(
            log.take(),
            "handled 2
"
        );
        let unhandled = rt.take_unhandled_rejections();
        assert_eq!(unhandled, vec![a]);
        assert!(rt.take_unhandled_rejections().is_empty(), "taken once");
    });
}

#[test]
fn untracked_rejections_when_reporting_is_off() {
    let mut rt = Runtime::new(RuntimeOptions { report_unhandled_rejections: false, ..Default::default() });
    rejected(&mut rt, num(1.0));
    drain(&mut rt);
    assert!(rt.take_unhandled_rejections().is_empty());
}

#[test]
fn subclass_capabilities_go_through_the_constructor() {
    // A foreign constructor: `function C(executor) { executor(log resolve, log reject) }`
    // gives NewPromiseCapability functions that only log.
    fn foreign(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
        let (res, rej) = (log_fn(rt, "res"), log_fn(rt, "rej"));
        rt.call(arg(args, 0), Value::UNDEFINED, &[res, rej])?;
        let op = rt.intrinsic(Intrinsic::ObjectPrototype);
        Ok(Value::object(rt.new_object(op)))
    }
    both(|rt, log| {
        let n = rt.new_string("C");
        let c = Value::object(rt.new_native_function(n, foreign, 1, true));
        rt.root(c);
        let p = Value::object(rt.new_promise());
        rt.root(p);
        let promise = promise_ctor(rt);
        let resolve = {
            let k = rt.key("resolve");
            rt.get_v(promise, k).unwrap()
        };
        let r = rt.call(resolve, c, &[num(4.0)]).unwrap();
        assert!(!super::is_promise(rt, r), "C's object is returned");
        assert_eq!(log.take(), "res 4\n");
        let reject = {
            let k = rt.key("reject");
            rt.get_v(promise, k).unwrap()
        };
        rt.call(reject, c, &[num(5.0)]).unwrap();
        assert_eq!(log.take(), "rej 5\n");
        // A non-constructor `this` is a TypeError.
        assert!(rt.call(resolve, num(1.0), &[]).is_err());
        rt.take_js_error();
    });
}

#[test]
fn with_resolvers_exposes_working_functions() {
    both(|rt, log| {
        let c = promise_ctor(rt);
        let r = call_method(rt, c, "withResolvers", &[]);
        let (pk, rk) = (rt.key("promise"), rt.key("resolve"));
        let p = rt.get_v(r, pk).unwrap();
        let resolve = rt.get_v(r, rk).unwrap();
        rt.root(p);
        rt.root(resolve);
        let f = log_fn(rt, "resolved");
        call_method(rt, p, "then", &[f]);
        rt.call(resolve, Value::UNDEFINED, &[num(8.0)]).unwrap();
        rt.call(resolve, Value::UNDEFINED, &[num(9.0)]).unwrap();
        drain(rt);
        assert_eq!(log.take(), "resolved 8\n");
    });
}

#[test]
fn many_pending_reactions_survive_collections() {
    both(|rt, log| {
        let p = rt.new_promise();
        rt.root(Value::object(p));
        let mut last = Value::object(p);
        for i in 0..50 {
            let f = log_fn(rt, &format!("r{i}"));
            last = call_method(rt, Value::object(p), "then", &[f]);
        }
        rt.collect_garbage();
        rt.resolve_promise(p, num(1.0));
        drain(rt);
        let out = log.take();
        assert_eq!(out.lines().count(), 50);
        assert!(out.starts_with("r0 1\nr1 1\n") && out.ends_with("r49 1\n"));
        assert!(rt.promise_result(last.gc()).is_some());
    });
}

#[test]
fn an_interrupt_stops_the_queue_and_keeps_the_remaining_jobs() {
    both(|rt, log| {
        let p = resolved(rt, num(1.0));
        let (a, b) = (log_fn(rt, "a"), log_fn(rt, "b"));
        call_method(rt, p, "then", &[a]);
        call_method(rt, p, "then", &[b]);
        rt.interrupt_handle().interrupt();
        assert!(rt.run_jobs().is_err());
        assert!(rt.take_js_error().interrupted);
        assert_eq!(log.take(), "");
        rt.host.interrupt.store(false, std::sync::atomic::Ordering::Relaxed);
        drain(rt);
        assert_eq!(log.take(), "a 1\nb 1\n");
    });
}
