//! The test262 host object `$262` and `print`.
//!
//! `$262.global`, `$262.gc()`, `$262.evalScript(src)` (through the compile hook),
//! `$262.createRealm()` (a fresh realm whose `$262` is returned),
//! `$262.detachArrayBuffer(buffer)`; `$262.agent` is absent until agents exist.

use super::arg;
use crate::gc::Gc;
use crate::object::shape::{CONFIGURABLE, WRITABLE};
use crate::object::JsObject;
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
    let bytes = rt.compile_source(&source, "evalScript")?;
    let realm = rt.realm;
    rt.eval_bundle(bytes, realm)
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
