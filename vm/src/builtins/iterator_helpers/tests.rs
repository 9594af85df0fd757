//! Iterator helper tests driven from Rust (the VM cannot compile source here): helpers
//! over array iterators with native callbacks, the generator states (re-entrant `next`,
//! `return` before and after the first step), argument validation and the abstract
//! constructor. The lit-test `run/iterator-helpers.js` and test262's
//! `built-ins/Iterator` cover the rest. Every scenario also runs under `gc_stress`.

use crate::object::shape::{CONFIGURABLE, WRITABLE};
use crate::runtime::{Intrinsic, Runtime, RuntimeOptions};
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

/// `receiver[name](...args)`, rooted; `Err` holds the thrown error's text.
fn try_call(rt: &mut Runtime, receiver: Value, name: &str, args: &[Value]) -> Result<Value, String> {
    let f = get(rt, receiver, name);
    match rt.call(f, receiver, args) {
        Ok(r) => Ok(root(rt, r)),
        Err(_) => Err(rt.take_js_error().to_string()),
    }
}

fn call(rt: &mut Runtime, receiver: Value, name: &str, args: &[Value]) -> Value {
    try_call(rt, receiver, name, args).unwrap_or_else(|e| panic!("{name} threw: {e}"))
}

/// An array iterator over the numbers `ns`.
fn numbers(rt: &mut Runtime, ns: &[f64]) -> Value {
    let values: Vec<Value> = ns.iter().map(|&n| Value::number(n)).collect();
    let a = Value::object(rt.new_array_from(&values));
    root(rt, a);
    call(rt, a, "values", &[])
}

/// Steps `it` to the end, returning its values as numbers.
fn drain(rt: &mut Runtime, it: Value) -> Vec<f64> {
    let mut out = Vec::new();
    loop {
        let r = call(rt, it, "next", &[]);
        if get(rt, r, "done") == Value::TRUE {
            return out;
        }
        out.push(get(rt, r, "value").as_number().expect("a number"));
    }
}

fn native(rt: &mut Runtime, f: crate::runtime::function::NativeFn) -> Value {
    let f = Value::object(rt.new_native("f", f, 2));
    root(rt, f)
}

/// `(value, counter) => value * 10 + counter`.
fn times_ten_plus_counter(_rt: &mut Runtime, _this: Value, args: &[Value]) -> crate::runtime::JsResult<Value> {
    let v = args[0].as_number().unwrap_or(f64::NAN);
    let c = args[1].as_number().unwrap_or(f64::NAN);
    Ok(Value::number(v * 10.0 + c))
}

/// `(value) => value is odd`.
fn is_odd(_rt: &mut Runtime, _this: Value, args: &[Value]) -> crate::runtime::JsResult<Value> {
    Ok(Value::boolean(args[0].as_number().unwrap_or(0.0) % 2.0 == 1.0))
}

/// `(value) => [value, value]` (an iterable for flatMap).
fn twice(rt: &mut Runtime, _this: Value, args: &[Value]) -> crate::runtime::JsResult<Value> {
    Ok(Value::object(rt.new_array_from(&[args[0], args[0]])))
}

/// A mapper calling `globalThis.helper.next()` (re-entering the running helper).
fn reenter(rt: &mut Runtime, _this: Value, _args: &[Value]) -> crate::runtime::JsResult<Value> {
    let g = Value::object(rt.global_object());
    let key = rt.key("helper");
    let h = rt.get_v(g, key)?;
    let key = rt.key("next");
    let next = rt.get_v(h, key)?;
    rt.call(next, h, &[])
}

#[test]
fn lazy_helpers_map_filter_flat_map_take_drop() {
    both(|rt| {
        let f = native(rt, times_ten_plus_counter);
        let it = numbers(rt, &[1.0, 2.0, 3.0]);
        let m = call(rt, it, "map", &[f]);
        assert_eq!(drain(rt, m), [10.0, 21.0, 32.0]);
        // Exhausted: next keeps answering done.
        assert_eq!(drain(rt, m), Vec::<f64>::new());

        let odd = native(rt, is_odd);
        let it = numbers(rt, &[1.0, 2.0, 3.0, 4.0, 5.0]);
        let fl = call(rt, it, "filter", &[odd]);
        assert_eq!(drain(rt, fl), [1.0, 3.0, 5.0]);

        let tw = native(rt, twice);
        let it = numbers(rt, &[7.0, 8.0]);
        let fm = call(rt, it, "flatMap", &[tw]);
        assert_eq!(drain(rt, fm), [7.0, 7.0, 8.0, 8.0]);

        let it = numbers(rt, &[1.0, 2.0, 3.0, 4.0]);
        let d = call(rt, it, "drop", &[Value::number(1.0)]);
        let t = call(rt, d, "take", &[Value::number(2.0)]);
        assert_eq!(drain(rt, t), [2.0, 3.0]);

        let it = numbers(rt, &[1.0, 2.0]);
        let d = call(rt, it, "drop", &[Value::number(f64::INFINITY)]);
        assert_eq!(drain(rt, d), Vec::<f64>::new());
    });
}

#[test]
fn eager_helpers() {
    both(|rt| {
        let it = numbers(rt, &[1.0, 2.0, 3.0]);
        let a = call(rt, it, "toArray", &[]);
        assert_eq!(get(rt, a, "length").as_number(), Some(3.0));

        let odd = native(rt, is_odd);
        let it = numbers(rt, &[2.0, 4.0, 5.0, 6.0]);
        assert_eq!(call(rt, it, "find", &[odd]).as_number(), Some(5.0));
        // find closed the array iterator? Array iterators have no `return`; the rest is
        // still there.
        assert_eq!(drain(rt, it), [6.0]);
        let it = numbers(rt, &[2.0, 4.0]);
        assert_eq!(call(rt, it, "some", &[odd]), Value::FALSE);
        let it = numbers(rt, &[1.0, 3.0]);
        assert_eq!(call(rt, it, "every", &[odd]), Value::TRUE);

        let f = native(rt, times_ten_plus_counter);
        let it = numbers(rt, &[1.0, 2.0, 3.0]);
        // No initial value: acc = 1, then 1*10+2 = 12, then 12*10+3 = 123.
        assert_eq!(call(rt, it, "reduce", &[f]).as_number(), Some(123.0));
        let it = numbers(rt, &[]);
        let e = try_call(rt, it, "reduce", &[f]).expect_err("empty reduce throws");
        assert!(e.contains("TypeError"), "{e}");
    });
}

#[test]
fn generator_states() {
    both(|rt| {
        // A re-entrant next while the helper runs is a TypeError.
        let r = native(rt, reenter);
        let it = numbers(rt, &[1.0]);
        let h = call(rt, it, "map", &[r]);
        let g = rt.global_object();
        rt.define_value(g, "helper", h, WRITABLE | CONFIGURABLE);
        let e = try_call(rt, h, "next", &[]).expect_err("re-entrant next throws");
        assert!(e.contains("already running"), "{e}");
        // The throw completed the helper.
        assert_eq!(drain(rt, h), Vec::<f64>::new());

        // return() before the first next completes it; next then answers done.
        let f = native(rt, times_ten_plus_counter);
        let it = numbers(rt, &[1.0, 2.0]);
        let m = call(rt, it, "map", &[f]);
        let r = call(rt, m, "return", &[]);
        assert_eq!(get(rt, r, "done"), Value::TRUE);
        assert_eq!(drain(rt, m), Vec::<f64>::new());

        // The helper's toStringTag and prototype chain.
        let tag_key = crate::object::Key::Name(rt.symbols.to_string_tag);
        let tag = rt.get_v(m, tag_key).expect("tag");
        assert_eq!(rt.string_to_rust(tag), "Iterator Helper");
    });
}

#[test]
fn validation_and_constructor() {
    both(|rt| {
        let it = numbers(rt, &[1.0]);
        let e = try_call(rt, it, "take", &[Value::number(f64::NAN)]).expect_err("NaN limit");
        assert!(e.contains("RangeError"), "{e}");
        let e = try_call(rt, it, "drop", &[Value::number(-1.0)]).expect_err("negative limit");
        assert!(e.contains("RangeError"), "{e}");
        let e = try_call(rt, it, "map", &[Value::number(1.0)]).expect_err("non-callable mapper");
        assert!(e.contains("TypeError"), "{e}");
        // A non-object receiver is a TypeError before anything else.
        let map = get(rt, it, "map");
        assert!(rt.call(map, Value::number(1.0), &[]).is_err());
        let _ = rt.take_js_error();

        // new Iterator() throws; Iterator() throws.
        let c = rt.intrinsic(Intrinsic::Iterator);
        assert!(rt.construct(c, &[], c).is_err());
        let _ = rt.take_js_error();
        assert!(rt.call(c, Value::UNDEFINED, &[]).is_err());
        let _ = rt.take_js_error();

        // Iterator.from wraps an object that does not inherit from Iterator.prototype.
        let from = get(rt, c, "from");
        let a = Value::object(rt.new_array_from(&[Value::number(4.0)]));
        root(rt, a);
        let w = rt.call(from, c, &[a]).expect("from");
        root(rt, w);
        assert_eq!(drain(rt, w), [4.0]);
    });
}
