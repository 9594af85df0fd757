//! The test262 host object `$262` and `print`.
//!
//! `$262.global`, `$262.gc()`, `$262.evalScript(src)` (through the compile hook),
//! `$262.createRealm()` (a fresh realm whose `$262` is returned),
//! `$262.detachArrayBuffer(buffer)`, and `$262.agent` (runtime/agents.rs): in the main
//! runtime `start`, `broadcast`, `getReport`; in an agent `receiveBroadcast`, `report`,
//! `leaving`; in both `sleep` and `monotonicNow`.

use std::sync::Arc;

use super::arg;
use crate::gc::Gc;
use crate::object::shape::{CONFIGURABLE, WRITABLE};
use crate::object::JsObject;
use crate::runtime::agents::{AgentRole, Broadcast, BroadcastId, Hub};
use crate::runtime::{Intrinsic, JsResult, Runtime};
use crate::value::Value;

/// Defines `$262` and `print` on the global object of `realm`; returns `$262`.
pub(crate) fn install(rt: &mut Runtime, realm: u32) -> Gc<JsObject> {
    let saved = rt.realm;
    rt.realm = realm;
    let global = rt.global_object();
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    let host = rt.new_object(op);
    rt.define_value(host, "global", Value::object(global), WRITABLE | CONFIGURABLE);
    rt.define_method(host, "gc", gc, 0);
    rt.define_method(host, "evalScript", eval_script, 1);
    rt.define_method(host, "createRealm", create_realm, 0);
    rt.define_method(host, "detachArrayBuffer", detach_array_buffer, 1);
    let agent = rt.new_object(op);
    for (name, f, len) in AGENT_FUNCTIONS {
        rt.define_method(agent, name, *f, *len);
    }
    rt.define_value(host, "agent", Value::object(agent), WRITABLE | CONFIGURABLE);
    rt.define_value(global, "$262", Value::object(host), WRITABLE | CONFIGURABLE);
    let print = rt.new_native("print", super::console::console_log, 0);
    rt.define_value(global, "print", Value::object(print), WRITABLE | CONFIGURABLE);
    rt.realm = saved;
    host
}

/// `$262.gc()` (and the global `gc()` of `RuntimeOptions::expose_gc`).
pub(crate) fn gc(rt: &mut Runtime, _this: Value, _args: &[Value]) -> JsResult<Value> {
    // The arguments and the caller's registers are rooted; nothing else is held here.
    rt.collect_garbage();
    Ok(Value::UNDEFINED)
}

/// `$262.detachArrayBuffer(buffer)`: DetachArrayBuffer, a TypeError for anything but an
/// ArrayBuffer.
fn detach_array_buffer(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    if !super::array_buffer::detach(rt, arg(args, 0)) {
        return Err(rt.throw_type_error("$262.detachArrayBuffer: not an ArrayBuffer that can be detached"));
    }
    Ok(Value::NULL)
}

/// `$262.evalScript(source)`: runs a script in the realm `$262` belongs to.
fn eval_script(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let s = rt.to_string(arg(args, 0))?;
    let source = rt.string_to_rust(s);
    let bytes = rt.compile_source(&source, "evalScript", crate::runtime::SourceKind::Script)?;
    let realm = rt.realm;
    rt.eval_bundle_in(bytes, realm)
}

/// `$262.createRealm()`: a new realm with its own intrinsics and global object.
fn create_realm(rt: &mut Runtime, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let realm = super::create_realm(rt);
    rt.realms.push(realm);
    let index = (rt.realms.len() - 1) as u32;
    super::install_globals(rt, index);
    let host = install(rt, index);
    Ok(Value::object(host))
}

/// The functions of `$262.agent`.
const AGENT_FUNCTIONS: &[(&str, crate::runtime::function::NativeFn, u32)] = &[
    ("start", agent_start, 1),
    ("broadcast", agent_broadcast, 2),
    ("getReport", agent_get_report, 0),
    ("receiveBroadcast", agent_receive_broadcast, 1),
    ("report", agent_report, 1),
    ("leaving", agent_leaving, 0),
    ("sleep", agent_sleep, 1),
    ("monotonicNow", agent_monotonic_now, 0),
];

/// The hub of the main runtime (made at its first agent).
fn main_hub(rt: &mut Runtime) -> JsResult<Arc<Hub>> {
    match &rt.host.agent_role {
        Some(AgentRole::Main(hub)) => Ok(hub.clone()),
        Some(AgentRole::Agent { .. }) => Err(rt.throw_type_error("$262.agent: an agent cannot start agents")),
        None => {
            let hub = Hub::new();
            rt.host.agent_role = Some(AgentRole::Main(hub.clone()));
            Ok(hub)
        }
    }
}

/// The hub and index of an agent runtime.
fn agent_link(rt: &mut Runtime, what: &str) -> JsResult<(Arc<Hub>, usize)> {
    match &rt.host.agent_role {
        Some(AgentRole::Agent { hub, index }) => Ok((hub.clone(), *index)),
        _ => Err(rt.throw_type_error(&format!("$262.agent.{what} is for agents"))),
    }
}

/// `$262.agent.start(source)`: runs `source` in a new agent.
fn agent_start(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let s = rt.to_string(arg(args, 0))?;
    let source = rt.string_to_rust(s);
    let Some(factory) = rt.host.agent_factory.clone() else {
        return Err(rt.throw_type_error("$262.agent.start: this host has no agents"));
    };
    let hub = main_hub(rt)?;
    let index = hub.add_agent();
    std::thread::spawn(move || run_agent(factory, hub, index, source));
    Ok(Value::UNDEFINED)
}

/// An agent's thread: its script, then its broadcast callback for the first broadcast.
fn run_agent(factory: crate::runtime::agents::AgentFactory, hub: Arc<Hub>, index: usize, source: String) {
    let mut rt = factory();
    rt.host.agent_role = Some(AgentRole::Agent { hub: hub.clone(), index });
    if rt.run_script(&source, "agent").is_err() {
        return;
    }
    let Some(&callback) = rt.roots.host.first() else { return };
    let Some(message) = hub.take(index) else { return };
    let proto = rt.intrinsic(Intrinsic::SharedArrayBufferPrototype);
    let sab = Value::object(super::shared_array_buffer::wrap(&mut rt, proto, message.block));
    rt.root(sab);
    let id = match message.id {
        BroadcastId::Undefined => Value::UNDEFINED,
        BroadcastId::Number(n) => Value::number(n),
        BroadcastId::BigInt(b) => rt.new_bigint(b),
    };
    if rt.call(callback, Value::UNDEFINED, &[sab, id]).is_ok() {
        let _ = rt.run_jobs();
    }
}

/// `$262.agent.broadcast(sab [, id])`: gives every agent the buffer and waits until each
/// has it.
fn agent_broadcast(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let Some(block) = super::shared_array_buffer::block_of(rt, arg(args, 0)) else {
        return Err(rt.throw_type_error("$262.agent.broadcast: not a SharedArrayBuffer"));
    };
    let id = arg(args, 1);
    let id = if id.is_undefined() {
        BroadcastId::Undefined
    } else if id.is_bigint() {
        BroadcastId::BigInt(rt.to_bigint(id)?)
    } else {
        BroadcastId::Number(rt.to_number(id)?)
    };
    let hub = main_hub(rt)?;
    hub.broadcast(Broadcast { block, id });
    Ok(Value::UNDEFINED)
}

/// `$262.agent.getReport()`: the oldest report not read yet, or null.
fn agent_get_report(rt: &mut Runtime, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let hub = main_hub(rt)?;
    Ok(match hub.get_report() {
        Some(s) => rt.new_string(&s),
        None => Value::NULL,
    })
}

/// `$262.agent.receiveBroadcast(callback)`: what the agent runs for a broadcast.
fn agent_receive_broadcast(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    agent_link(rt, "receiveBroadcast")?;
    let f = arg(args, 0);
    if !rt.is_callable(f) {
        return Err(rt.throw_type_error("$262.agent.receiveBroadcast: the callback is not a function"));
    }
    rt.roots.host.clear();
    rt.roots.host.push(f);
    Ok(Value::UNDEFINED)
}

/// `$262.agent.report(value)`: a string for the main runtime's `getReport`.
fn agent_report(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let (hub, _) = agent_link(rt, "report")?;
    let s = rt.to_string(arg(args, 0))?;
    let s = rt.string_to_rust(s);
    hub.report(s);
    Ok(Value::UNDEFINED)
}

/// `$262.agent.leaving()`: the agent is done (its thread ends after the callback).
fn agent_leaving(rt: &mut Runtime, _this: Value, _args: &[Value]) -> JsResult<Value> {
    agent_link(rt, "leaving")?;
    Ok(Value::UNDEFINED)
}

/// `$262.agent.sleep(ms)`.
fn agent_sleep(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let ms = rt.to_number(arg(args, 0))?;
    if ms > 0.0 {
        std::thread::sleep(std::time::Duration::from_secs_f64(ms.min(60_000.0) / 1000.0));
    }
    rt.poll_interrupt()?;
    Ok(Value::UNDEFINED)
}

/// `$262.agent.monotonicNow()`: milliseconds since the hub began.
fn agent_monotonic_now(rt: &mut Runtime, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let start = match &rt.host.agent_role {
        Some(AgentRole::Main(hub)) | Some(AgentRole::Agent { hub, .. }) => hub.start,
        None => main_hub(rt)?.start,
    };
    Ok(Value::number(start.elapsed().as_secs_f64() * 1000.0))
}
