//! An app that embeds Iris (`cargo run -p rust-host-example`):
//!
//! 1. a host function that JavaScript calls (`host.log`, which keeps the lines it is given
//!    in Rust),
//! 2. a JavaScript callback that the host calls (`onTick`, registered by the script through
//!    another host function),
//! 3. a time limit that stops an endless loop, after which the runtime goes on.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use iris::{JsError, JsValue};

const SCRIPT: &str = r#"
let ticks = 0;
host.log(`script started, ${typeof host.log}`);
host.onTick((n) => {
  ticks += n;
  return ticks * 10;
});
"#;

fn main() -> Result<(), JsError> {
    let mut rt = iris::Options { time_limit: Some(Duration::from_millis(250)), ..Default::default() }.build();

    // 1. Host functions: `host.log(text)` keeps each line; `host.onTick(f)` keeps a callback.
    let lines = Rc::new(RefCell::new(Vec::<String>::new()));
    let callback: Rc<RefCell<Option<JsValue>>> = Rc::default();
    let host = JsValue::object(&mut rt);
    let kept = lines.clone();
    let log = JsValue::function(&mut rt, "log", 1, move |rt, _this, args| {
        let text = match args.first() {
            Some(v) => v.to_rust_string(rt)?,
            None => String::new(),
        };
        kept.borrow_mut().push(text);
        Ok(JsValue::UNDEFINED)
    });
    host.set(&mut rt, "log", &log)?;
    let slot = callback.clone();
    let on_tick = JsValue::function(&mut rt, "onTick", 1, move |rt, _this, args| match args.first() {
        Some(f) if f.type_of(rt) == iris::JsType::Function => {
            *slot.borrow_mut() = Some(f.clone());
            Ok(JsValue::UNDEFINED)
        }
        _ => Err(JsError::new("TypeError", "onTick needs a function")),
    });
    host.set(&mut rt, "onTick", &on_tick)?;
    rt.global().set(&mut rt, "host", &host)?;
    rt.eval(SCRIPT, "app.js")?;
    for line in lines.borrow().iter() {
        println!("log: {line}");
    }

    // 2. The host calls the JavaScript callback.
    let tick = callback.borrow().clone().expect("the script registered a callback");
    for n in 1..=3 {
        let r = tick.call(&mut rt, &JsValue::UNDEFINED, &[JsValue::from(n)])?;
        println!("onTick({n}) = {}", r.as_number().unwrap_or(f64::NAN));
    }
    let bad = rt.eval("try { host.onTick(42) } catch (e) { `${e.name}: ${e.message}` }", "bad.js")?;
    println!("{}", bad.to_rust_string(&mut rt)?);

    // 3. The time limit stops an endless loop; `catch` cannot hold it.
    let started = Instant::now();
    let err = rt.eval("try { for (;;) {} } catch (e) { 'caught' }", "loop.js").unwrap_err();
    let stopped_in_time = err.interrupted && started.elapsed() < Duration::from_secs(5);
    println!("endless loop: {} (stopped by the time limit: {stopped_in_time})", err.message);
    let ticks = rt.eval("ticks", "after.js")?;
    println!("the runtime goes on: ticks = {}", ticks.as_number().unwrap_or(f64::NAN));
    Ok(())
}
