//! 26.1 WeakRef and 26.2 FinalizationRegistry.
//!
//! The collector does the weak part (`runtime::trace::after_marking`): it does not trace a
//! WeakRef's target or a registry cell's target and unregister token, clears a WeakRef
//! whose target died, and moves a registry's cells whose targets died to its `dead` list,
//! queueing the registry's cleanup job ([`cleanup_job`]), which calls the cleanup callback
//! with each held value. A WeakRef's target made or read by `deref` stays alive until the
//! current job ends (`Runtime::keep_during_job`).

use super::{arg, rows, Builtin, Row};
use crate::gc::{CellKind, Gc};
use crate::object::{FinalizationCell, FinalizationRegistryObject, JsObject, Symbol, WeakRefObject};
use crate::runtime::jobs::JOB_VALUES;
use crate::runtime::{Intrinsic, JsResult, Runtime};
use crate::value::Value;

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin = Builtin {
    init,
    rows: ROWS,
    globals: &[("WeakRef", Intrinsic::WeakRef), ("FinalizationRegistry", Intrinsic::FinalizationRegistry)],
    ..Builtin::NONE
};

pub(crate) const ROWS: &[Row] = rows! {
    WeakRefPrototype."deref" => deref, 0;
    FinalizationRegistryPrototype."register" => register, 2;
    FinalizationRegistryPrototype."unregister" => unregister, 1;
};

/// Creates the constructors and prototypes.
pub(crate) fn init(rt: &mut Runtime) {
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    for (name, ctor_i, proto_i, f) in [
        (
            "WeakRef",
            Intrinsic::WeakRef,
            Intrinsic::WeakRefPrototype,
            weak_ref_constructor as crate::runtime::function::NativeFn,
        ),
        (
            "FinalizationRegistry",
            Intrinsic::FinalizationRegistry,
            Intrinsic::FinalizationRegistryPrototype,
            finalization_registry_constructor,
        ),
    ] {
        let proto = rt.new_object(op);
        let c = rt.make_constructor(name, f, 1, Some(proto));
        super::iterator::define_tag(rt, proto, name);
        rt.set_intrinsic(proto_i, Value::object(proto));
        rt.set_intrinsic(ctor_i, Value::object(c));
    }
}

/// CanBeHeldWeakly(v) (9.13): an object, or a symbol not in the global registry.
pub(crate) fn can_be_held_weakly(rt: &Runtime, v: Value) -> bool {
    v.is_object() || (v.is_symbol() && rt.heap().get(v.gc::<Symbol>()).registry_key.is_undefined())
}

/// 26.1.1.1 WeakRef(target).
fn weak_ref_constructor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is undefined, throw a TypeError exception.
    let nt = rt.native_new_target();
    if nt.is_undefined() {
        return Err(rt.throw_type_error("Constructor WeakRef requires 'new'"));
    }
    // 2. If CanBeHeldWeakly(target) is false, throw a TypeError exception.
    let target = arg(args, 0);
    if !can_be_held_weakly(rt, target) {
        return Err(rt.throw_type_error("WeakRef: invalid target (an object or an unregistered symbol)"));
    }
    // 3. Let weakRef be ? OrdinaryCreateFromConstructor(NewTarget, "%WeakRef.prototype%").
    let proto = rt.prototype_from_constructor(nt, Intrinsic::WeakRefPrototype)?;
    let shape = rt.root_shape(proto, CellKind::WeakRef, 0);
    let w = WeakRefObject { base: JsObject::new(CellKind::WeakRef, shape), target };
    let o = rt.heap_mut().alloc_object(w, 0);
    // 4-5. Perform AddToKeptObjects(target); set weakRef.[[WeakRefTarget]] to target.
    rt.keep_during_job(target);
    Ok(Value::object(o.cast::<JsObject>()))
}

/// 26.1.3.2 WeakRef.prototype.deref().
fn deref(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-2. RequireInternalSlot(weakRef, [[WeakRefTarget]]).
    if !this.is_object() || rt.heap().object_kind(this.gc()) != CellKind::WeakRef {
        return Err(rt.throw_type_error("WeakRef.prototype.deref called on an object that is not a WeakRef"));
    }
    // 3. Return WeakRefDeref(weakRef): the target, kept alive for this job, or undefined.
    let target = rt.heap().get(this.gc::<WeakRefObject>()).target;
    if !target.is_undefined() {
        rt.keep_during_job(target);
    }
    Ok(target)
}

/// 26.2.1.1 FinalizationRegistry(cleanupCallback).
fn finalization_registry_constructor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is undefined, throw a TypeError exception.
    let nt = rt.native_new_target();
    if nt.is_undefined() {
        return Err(rt.throw_type_error("Constructor FinalizationRegistry requires 'new'"));
    }
    // 2. If IsCallable(cleanupCallback) is false, throw a TypeError exception.
    let cleanup = arg(args, 0);
    if !rt.is_callable(cleanup) {
        return Err(rt.throw_type_error("FinalizationRegistry: the cleanup callback is not a function"));
    }
    // 3-7. OrdinaryCreateFromConstructor; [[Realm]], [[CleanupCallback]], empty [[Cells]].
    let proto = rt.prototype_from_constructor(nt, Intrinsic::FinalizationRegistryPrototype)?;
    let shape = rt.root_shape(proto, CellKind::FinalizationRegistry, 0);
    let base = JsObject::new(CellKind::FinalizationRegistry, shape);
    let realm = rt.realm;
    let r = rt.heap_mut().alloc_object(FinalizationRegistryObject::new(base, cleanup, realm), 0);
    Ok(Value::object(r.cast::<JsObject>()))
}

/// RequireInternalSlot(this, [[Cells]]).
fn this_registry(rt: &mut Runtime, this: Value, method: &str) -> JsResult<Gc<FinalizationRegistryObject>> {
    if this.is_object() && rt.heap().object_kind(this.gc()) == CellKind::FinalizationRegistry {
        return Ok(this.gc());
    }
    Err(rt.throw_type_error(&format!(
        "FinalizationRegistry.prototype.{method} called on an object that is not a FinalizationRegistry"
    )))
}

/// 26.2.3.2 FinalizationRegistry.prototype.register(target, heldValue [, unregisterToken]).
fn register(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. RequireInternalSlot(finalizationRegistry, [[Cells]]).
    let r = this_registry(rt, this, "register")?;
    let (target, held, token) = (arg(args, 0), arg(args, 1), arg(args, 2));
    // 3. If CanBeHeldWeakly(target) is false, throw a TypeError exception.
    if !can_be_held_weakly(rt, target) {
        return Err(rt.throw_type_error("FinalizationRegistry.prototype.register: invalid target"));
    }
    // 4. If SameValue(target, heldValue) is true, throw a TypeError exception.
    if target == held {
        return Err(
            rt.throw_type_error("FinalizationRegistry.prototype.register: the target and the held value are the same")
        );
    }
    // 5. An unregister token that cannot be held weakly must be undefined (then: empty).
    let token = if can_be_held_weakly(rt, token) {
        token
    } else if token.is_undefined() {
        Value::EMPTY
    } else {
        return Err(rt.throw_type_error("FinalizationRegistry.prototype.register: invalid unregister token"));
    };
    // 6-7. Append the cell; return undefined.
    let reg = rt.heap_mut().get_mut(r);
    let before = reg.external_bytes();
    reg.cells.push(FinalizationCell { target, held, token });
    let grown = reg.external_bytes().saturating_sub(before);
    rt.heap_mut().note_external(grown);
    Ok(Value::UNDEFINED)
}

/// 26.2.3.3 FinalizationRegistry.prototype.unregister(unregisterToken).
fn unregister(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. RequireInternalSlot(finalizationRegistry, [[Cells]]).
    let r = this_registry(rt, this, "unregister")?;
    // 3. If CanBeHeldWeakly(unregisterToken) is false, throw a TypeError exception.
    let token = arg(args, 0);
    if !can_be_held_weakly(rt, token) {
        return Err(rt.throw_type_error("FinalizationRegistry.prototype.unregister: invalid unregister token"));
    }
    // 4-5. Remove every cell (live or waiting for cleanup) with this token.
    let reg = rt.heap_mut().get_mut(r);
    let before = reg.cells.len() + reg.dead.len();
    reg.cells.retain(|c| c.token != token);
    reg.dead.retain(|c| c.token != token);
    Ok(Value::boolean(reg.cells.len() + reg.dead.len() < before))
}

/// The job HostEnqueueFinalizationRegistryCleanupJob queues (9.10.4.1):
/// CleanupFinalizationRegistry(registry) for the registry in `values[0]`, calling the
/// cleanup callback with the held value of each cell whose target died (in any order, as
/// 26.2.1.2 allows: the last to die first).
pub(crate) fn cleanup_job(rt: &mut Runtime, values: &[Value; JOB_VALUES]) -> JsResult<()> {
    let r: Gc<FinalizationRegistryObject> = values[0].gc();
    rt.heap_mut().get_mut(r).job_queued = false;
    let callback = rt.heap().get(r).cleanup;
    while let Some(cell) = rt.heap_mut().get_mut(r).dead.pop() {
        rt.call(callback, Value::UNDEFINED, &[cell.held])?;
    }
    Ok(())
}
