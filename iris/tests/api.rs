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

#[test]
fn host_functions_with_state_called_from_javascript() {
    use std::cell::RefCell;
    use std::rc::Rc;
    let mut rt = runtime();
    let log = Rc::new(RefCell::new(Vec::<String>::new()));
    let sink = log.clone();
    let record = JsValue::function(&mut rt, "record", 1, move |rt, _this, args| {
        let text = match args.first() {
            Some(v) => v.to_rust_string(rt)?,
            None => String::new(),
        };
        sink.borrow_mut().push(text);
        Ok(JsValue::from(sink.borrow().len() as f64))
    });
    rt.global().set(&mut rt, "record", &record).unwrap();
    let n = rt.eval(
        "record('a'); record(1 + 1); [1, 2].map(String).forEach((s) => record(s)); record.name + record.length",
        "r.js",
    );
    assert_eq!(n.unwrap().as_string(&mut rt).as_deref(), Some("record1"));
    assert_eq!(*log.borrow(), ["a", "2", "1", "2"]);
    // The host's error is a JavaScript exception there, with its kind and message.
    let fails = JsValue::function(&mut rt, "fails", 0, |_, _, _| Err(iris::JsError::new("RangeError", "too far")));
    rt.global().set(&mut rt, "fails", &fails).unwrap();
    let caught = rt.eval("try { fails() } catch (e) { `${e instanceof RangeError} ${e.message}` }", "f.js").unwrap();
    assert_eq!(caught.as_string(&mut rt).as_deref(), Some("true too far"));
    // A host function is not a constructor.
    assert_eq!(rt.eval("new record()", "n.js").unwrap_err().name, "TypeError");
}

#[test]
fn host_functions_call_back_into_javascript_and_get_collected() {
    use std::rc::Rc;
    let mut rt = runtime();
    // `apply(f, x)` calls the JavaScript function it is given.
    let apply = JsValue::function(&mut rt, "apply", 2, |rt, _this, args| {
        let (f, x) = (args[0].clone(), args[1].clone());
        f.call(rt, &JsValue::UNDEFINED, &[x])
    });
    rt.global().set(&mut rt, "apply", &apply).unwrap();
    let r = rt.eval("apply((x) => apply((y) => y * 2, x + 1), 20)", "a.js").unwrap();
    assert_eq!(r.as_number(), Some(42.0));
    // An exception from the callback passes through the host function.
    let err = rt.eval("apply(() => { throw new TypeError('inner') }, 0)", "t.js").unwrap_err();
    assert_eq!((err.name.as_str(), err.message.as_str()), ("TypeError", "inner"));
    // An interrupt during the callback stops the whole run.
    let handle = rt.interrupt_handle();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(100));
        handle.interrupt();
    });
    let err = rt.eval("try { apply(() => { for (;;) {} }, 0) } catch (e) { 'caught' }", "spin.js").unwrap_err();
    stopper.join().unwrap();
    assert!(err.interrupted, "{err:?}");
    // The closure's state goes when the function is collected.
    let token = Rc::new(());
    let held = token.clone();
    let f = JsValue::function(&mut rt, "f", 0, move |_, _, _| {
        let _ = &held;
        Ok(JsValue::UNDEFINED)
    });
    assert_eq!(Rc::strong_count(&token), 2);
    drop(f);
    rt.eval("for (let i = 0; i < 1000; i++) globalThis.g = [i]", "churn.js").unwrap();
    rt.gc();
    rt.gc();
    assert_eq!(Rc::strong_count(&token), 1, "the closure was dropped with its function");
}

#[test]
fn handles_and_host_functions_under_gc_stress() {
    // A collection at every allocation: a value the API forgot to root is freed and read.
    let mut rt = iris::Runtime::new(vm::RuntimeOptions { gc_stress: true, ..Default::default() });
    rt.set_compiler(compiler::driver::compile_hook(Default::default()));
    let pair = JsValue::function(&mut rt, "pair", 2, |rt, _this, args| {
        let a = JsValue::array(rt, args);
        let o = JsValue::object(rt);
        o.set(rt, "items", &a)?;
        let s = JsValue::string(rt, "pair");
        o.set(rt, "kind", &s)?;
        Ok(o)
    });
    rt.global().set(&mut rt, "pair", &pair).unwrap();
    let r = rt.eval("const p = pair({ x: 'a' + 1 }, ['b' + 2]); JSON.stringify(p)", "p.js").unwrap();
    assert_eq!(r.as_string(&mut rt).as_deref(), Some(r#"{"items":[{"x":"a1"},["b2"]],"kind":"pair"}"#));
    let class = JsValue::class(&mut rt, "Box", 1, |rt, args| args[0].to_rust_string(rt));
    let open = JsValue::function(&mut rt, "open", 0, |rt, this, _| {
        let text = this.state::<String>(rt).map(|s| s.borrow().clone()).unwrap_or_default();
        Ok(JsValue::string(rt, &text))
    });
    class.get(&mut rt, "prototype").unwrap().set(&mut rt, "open", &open).unwrap();
    rt.global().set(&mut rt, "Box", &class).unwrap();
    let r = rt.eval(
        "class Sub extends Box { constructor() { super('in' + 'side'); this.n = [1] } } new Sub().open()",
        "b.js",
    );
    assert_eq!(r.unwrap().as_string(&mut rt).as_deref(), Some("inside"));
}

#[test]
fn a_time_limit_stops_each_run_that_goes_past_it() {
    let limit = std::time::Duration::from_millis(200);
    let mut rt = Options { time_limit: Some(limit), ..Default::default() }.build();
    let started = std::time::Instant::now();
    let err = rt.eval("var n = 0; try { for (;;) n++ } catch (e) { 'caught' }", "spin.js").unwrap_err();
    assert!(err.interrupted && started.elapsed() >= limit, "{err:?} after {:?}", started.elapsed());
    // Each run has its own time: quick ones after it run to the end.
    for _ in 0..3 {
        assert!(rt.eval("n > 0", "after.js").unwrap().as_bool().unwrap());
        std::thread::sleep(limit / 2);
    }
    // A loop in a function the host calls is stopped too.
    let f = rt.eval("(function () { for (;;) {} })", "f.js").unwrap();
    assert!(f.call(&mut rt, &JsValue::UNDEFINED, &[]).unwrap_err().interrupted);
}

#[test]
fn promises_settled_by_the_host_and_read_by_it() {
    use iris::PromiseState;
    let mut rt = runtime();
    let work = JsValue::promise(&mut rt);
    rt.global().set(&mut rt, "work", &work.promise).unwrap();
    let done = rt.eval("(async () => `got ${await work}`)()", "await.js").unwrap();
    rt.run_pending_jobs().unwrap();
    assert!(matches!(done.promise_state(&mut rt), Some(PromiseState::Pending)));
    let answer = JsValue::string(&mut rt, "answer");
    work.resolve.call(&mut rt, &JsValue::UNDEFINED, &[answer]).unwrap();
    // Only the first settlement counts.
    work.reject.call(&mut rt, &JsValue::UNDEFINED, &[JsValue::from(0)]).unwrap();
    rt.run_pending_jobs().unwrap();
    match done.promise_state(&mut rt) {
        Some(PromiseState::Fulfilled(v)) => assert_eq!(v.as_string(&mut rt).as_deref(), Some("got answer")),
        other => panic!("{other:?}"),
    }
    let failed = rt.eval("Promise.reject(new URIError('bad'))", "reject.js").unwrap();
    match failed.promise_state(&mut rt) {
        Some(PromiseState::Rejected(e)) => assert_eq!(e.to_rust_string(&mut rt).unwrap(), "URIError: bad"),
        other => panic!("{other:?}"),
    }
    assert!(JsValue::from(1).promise_state(&mut rt).is_none());
}

#[test]
fn errors_made_by_the_host() {
    let mut rt = runtime();
    let e = JsValue::error(&mut rt, "TypeError", "made in Rust");
    rt.global().set(&mut rt, "e", &e).unwrap();
    let r = rt.eval("`${e instanceof TypeError} ${e.name} ${e.message}`", "e.js").unwrap();
    assert_eq!(r.as_string(&mut rt).as_deref(), Some("true TypeError made in Rust"));
    let other = JsValue::error(&mut rt, "NotAKind", "plain");
    assert_eq!(other.to_rust_string(&mut rt).unwrap(), "Error: plain");
    let err = rt.eval("throw e", "throw.js").unwrap_err();
    assert_eq!((err.name.as_str(), err.message.as_str()), ("TypeError", "made in Rust"));
}

#[test]
fn host_classes_with_rust_state() {
    use std::rc::Rc;
    struct Rect {
        w: f64,
        h: f64,
        _alive: Rc<()>,
    }
    let alive = Rc::new(());
    let mut rt = runtime();
    let token = alive.clone();
    let class = JsValue::class(&mut rt, "Rect", 2, move |_rt, args| {
        let n = |i: usize| args.get(i).and_then(JsValue::as_number);
        match (n(0), n(1)) {
            (Some(w), Some(h)) => Ok(Rect { w, h, _alive: token.clone() }),
            _ => Err(iris::JsError::new("TypeError", "Rect needs two numbers")),
        }
    });
    let area = JsValue::function(&mut rt, "area", 0, |rt, this, _| {
        let r = this.state::<Rect>(rt).ok_or_else(|| iris::JsError::new("TypeError", "not a Rect"))?;
        let r = r.borrow();
        Ok(JsValue::from(r.w * r.h))
    });
    let proto = class.get(&mut rt, "prototype").unwrap();
    proto.set(&mut rt, "area", &area).unwrap();
    rt.global().set(&mut rt, "Rect", &class).unwrap();
    let out = rt
        .eval(
            "class Square extends Rect { constructor(s) { super(s, s); this.side = s } }
             const r = new Rect(2, 3), s = new Square(4);
             [r.area(), s.area(), s.side, s instanceof Rect, s instanceof Square, Rect.name, Rect.length,
              Object.getPrototypeOf(r) === Rect.prototype, r.constructor === Rect].join()",
            "rect.js",
        )
        .unwrap();
    assert_eq!(out.as_string(&mut rt).as_deref(), Some("6,16,4,true,true,Rect,2,true,true"));
    let errors = rt
        .eval(
            "[() => Rect(1, 2), () => new Rect('x'), () => Rect.prototype.area.call({})].map((f) => {
               try { f() } catch (e) { return `${e.name}: ${e.message}` } }).join('\\n')",
            "errors.js",
        )
        .unwrap();
    assert_eq!(
        errors.as_string(&mut rt).as_deref(),
        Some("TypeError: Class constructor Rect cannot be invoked without 'new'\nTypeError: Rect needs two numbers\nTypeError: not a Rect")
    );
    // Instances are ordinary objects to JavaScript's generic operations.
    let generic = rt.eval("console.log(r, s); `${JSON.stringify(s)} ${Object.keys(s)} ${String(r)}`", "g.js").unwrap();
    assert_eq!(generic.as_string(&mut rt).as_deref(), Some(r#"{"side":4} side [object Object]"#));
    // The host reads an instance's state; another type's is not there.
    let r = rt.eval("r", "r.js").unwrap();
    assert_eq!(r.state::<Rect>(&mut rt).unwrap().borrow().w, 2.0);
    assert!(r.state::<String>(&mut rt).is_none());
    assert!(proto.state::<Rect>(&mut rt).is_none());
    // Instances' state goes with them: `r` and `s` stay (global constants), the 100 made
    // here do not.
    assert_eq!(Rc::strong_count(&alive), 4, "the class's closure and the two instances hold it");
    rt.eval("for (let i = 1; i <= 100; i++) new Rect(i, i).area()", "churn.js").unwrap();
    rt.gc();
    rt.gc();
    assert_eq!(Rc::strong_count(&alive), 4, "the instances that died dropped their state");
    drop(r);
}

/// Modules kept in memory by the host, named `/name.js`.
struct MemoryLoader(std::collections::HashMap<String, String>);

impl iris::ModuleLoader for MemoryLoader {
    fn resolve(&mut self, specifier: &str, _referrer: Option<&str>) -> Result<String, String> {
        let key = format!("/{}", specifier.trim_start_matches("./"));
        if self.0.contains_key(&key) {
            Ok(key)
        } else {
            Err(format!("Cannot find module '{specifier}'"))
        }
    }

    fn load(&mut self, key: &str) -> Result<iris::ModuleSource, String> {
        self.0.get(key).map(|text| iris::ModuleSource::Text(text.clone())).ok_or_else(|| format!("no {key}"))
    }
}

#[test]
fn modules_through_a_host_loader() {
    let files = [
        ("/main.js", "import { add } from './math.js'; import data from './data.json' with { type: 'json' };\nexport const total = add(data.a, data.b);\nexport default await Promise.resolve('ready');"),
        ("/math.js", "export function add(a, b) { return a + b }\nglobalThis.mathRuns = (globalThis.mathRuns ?? 0) + 1;"),
        ("/data.json", r#"{ "a": 40, "b": 2 }"#),
        ("/broken.js", "import { nothing } from './math.js';"),
        ("/throws.js", "throw new RangeError('at load')"),
        ("/missing.js", "import './nowhere.js';"),
    ];
    let mut rt = runtime();
    rt.set_module_loader(Box::new(MemoryLoader(files.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect())));
    let ns = rt.import_module("./main.js").unwrap();
    assert_eq!(ns.get(&mut rt, "total").unwrap().as_number(), Some(42.0));
    assert_eq!(ns.get(&mut rt, "default").unwrap().as_string(&mut rt).as_deref(), Some("ready"));
    // A module is evaluated once, however often it is imported.
    let math = rt.import_module("math.js").unwrap();
    let add = math.get(&mut rt, "add").unwrap();
    assert_eq!(add.call(&mut rt, &JsValue::UNDEFINED, &[1.into(), 2.into()]).unwrap().as_number(), Some(3.0));
    assert_eq!(rt.eval("mathRuns", "runs.js").unwrap().as_number(), Some(1.0));
    assert_eq!(rt.import_module("broken.js").unwrap_err().name, "SyntaxError");
    let err = rt.import_module("throws.js").unwrap_err();
    assert_eq!((err.name.as_str(), err.message.as_str()), ("RangeError", "at load"));
    assert!(rt.import_module("missing.js").unwrap_err().message.contains("nowhere.js"));
    assert!(rt.import_module("absent.js").unwrap_err().message.contains("absent.js"));
}

#[test]
fn a_host_function_that_evaluates_code_keeps_the_run_interruptible() {
    // `run(src)` evaluates source from inside a running program: an interrupt asked for
    // before it must still stop the program after it.
    let mut rt = runtime();
    let handle = rt.interrupt_handle();
    let run = JsValue::function(&mut rt, "run", 1, move |rt, _this, args| {
        handle.interrupt();
        let src = args[0].to_rust_string(rt)?;
        rt.eval(&src, "inner.js")
    });
    rt.global().set(&mut rt, "run", &run).unwrap();
    let err = rt.eval("run('1 + 1'); for (;;) {}", "outer.js").unwrap_err();
    assert!(err.interrupted, "{err:?}");
}

#[test]
fn a_host_function_returning_another_runtimes_value_throws() {
    let mut rt = runtime();
    let mut other = runtime();
    let stranger = JsValue::object(&mut other);
    let f = JsValue::function(&mut rt, "f", 0, move |_, _, _| Ok(stranger.clone()));
    rt.global().set(&mut rt, "f", &f).unwrap();
    let r = rt.eval("try { f() } catch (e) { e.name }", "f.js").unwrap();
    assert_eq!(r.as_string(&mut rt).as_deref(), Some("TypeError"));
}
