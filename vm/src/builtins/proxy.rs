//! 28.2 Proxy objects: the constructor and `Proxy.revocable`. The internal methods of a
//! proxy are in runtime/proxy.rs.

use super::{arg, rows, Builtin, Row};
use crate::gc::CellKind;
use crate::runtime::function::NativeFunction;
use crate::runtime::{Intrinsic, JsResult, Runtime};
use crate::value::Value;

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin =
    Builtin { init, rows: ROWS, globals: &[("Proxy", Intrinsic::Proxy)], ..Builtin::NONE };

pub(crate) const ROWS: &[Row] = rows! {
    Proxy."revocable" => revocable, 2;
};

/// Creates the constructor (which has no `prototype`: proxies take their target's).
pub(crate) fn init(rt: &mut Runtime) {
    let name = rt.new_string("Proxy");
    let c = rt.new_native_function(name, constructor, 2, true);
    rt.set_intrinsic(Intrinsic::Proxy, Value::object(c));
}

/// 28.2.1.1 Proxy(target, handler).
fn constructor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is undefined, throw a TypeError exception.
    if rt.native_new_target().is_undefined() {
        return Err(rt.throw_type_error("Constructor Proxy requires 'new'"));
    }
    // 2. Return ? ProxyCreate(target, handler).
    Ok(Value::object(rt.proxy_create(arg(args, 0), arg(args, 1))?))
}

/// 28.2.2.1 Proxy.revocable(target, handler): `{ proxy, revoke }`.
fn revocable(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let proxy be ? ProxyCreate(target, handler).
    let proxy = rt.proxy_create(arg(args, 0), arg(args, 1))?;
    rt.root(Value::object(proxy));
    // 2-4. A revoker function whose [[RevocableProxy]] is the proxy (its `data`).
    let name = rt.names.empty.value();
    let revoke = rt.new_native_function(name, revoke, 0, false);
    rt.heap_mut().get_mut(revoke.cast::<NativeFunction>()).data = Value::object(proxy);
    rt.root(Value::object(revoke));
    // 5-7. The result object.
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    let result = rt.new_object(op);
    let (pk, rk) = (rt.key("proxy"), rt.key("revoke"));
    rt.create_data_property_or_throw(result, pk, Value::object(proxy))?;
    rt.create_data_property_or_throw(result, rk, Value::object(revoke))?;
    Ok(Value::object(result))
}

/// 28.2.2.1.1 Proxy revocation functions.
fn revoke(rt: &mut Runtime, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let f = rt.native_callee();
    let nf = f.gc::<NativeFunction>();
    let p = rt.heap().get(nf).data;
    // 2-3. Already revoked: nothing to do.
    if p.is_object() && rt.heap().object_kind(p.gc()) == CellKind::Proxy {
        rt.heap_mut().get_mut(nf).data = Value::NULL;
        rt.proxy_revoke(p.gc());
    }
    Ok(Value::UNDEFINED)
}
