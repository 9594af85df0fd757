//! Explicit resource management's library: 27.3 DisposableStack, 27.4 AsyncDisposableStack,
//! %IteratorPrototype%[@@dispose] and %AsyncIteratorPrototype%[@@asyncDispose].
//!
//! A stack is an `IteratorObject` of kind `DISPOSABLE_STACK` or `ASYNC_DISPOSABLE_STACK`
//! (an object with internal slots, not an iterator): `index` is its [[DisposableState]]
//! (0 pending, 1 disposed) and `target` its [[DisposeCapability]], a `ValueVec` of the
//! DisposableResource records, three slots each (value, hint, method), oldest first.
//!
//! DisposeResources runs synchronously for a DisposableStack. For an AsyncDisposableStack it
//! awaits, so it runs as a state machine like `Array.fromAsync`: a `ValueVec` of the
//! `ASYNC_*` slots below, carried by native reactions that continue the loop after each
//! Await and settle the promise `disposeAsync` returned.

use super::{arg, rows, Builtin, Row};
use crate::gc::{CellKind, Gc};
use crate::object::shape::{CONFIGURABLE, WRITABLE};
use crate::object::{iter_kind, IteratorObject, JsObject, Key, ValueVec};
use crate::runtime::function::NativeFn;
use crate::runtime::{Exception, ExceptionKind, Intrinsic, JsResult, Runtime};
use crate::value::Value;

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin = Builtin {
    init,
    rows: ROWS,
    link,
    globals: &[
        ("DisposableStack", Intrinsic::DisposableStack),
        ("AsyncDisposableStack", Intrinsic::AsyncDisposableStack),
    ],
    ..Builtin::NONE
};

pub(crate) const ROWS: &[Row] = rows! {
    DisposableStackPrototype."adopt" => adopt, 2;
    DisposableStackPrototype."defer" => defer, 1;
    DisposableStackPrototype."dispose" => dispose, 0;
    DisposableStackPrototype."disposed" => disposed_getter, 0, getter;
    DisposableStackPrototype."move" => move_, 0;
    DisposableStackPrototype."use" => use_, 1;
    AsyncDisposableStackPrototype."adopt" => adopt_async, 2;
    AsyncDisposableStackPrototype."defer" => defer_async, 1;
    AsyncDisposableStackPrototype."disposeAsync" => dispose_async, 0;
    AsyncDisposableStackPrototype."disposed" => disposed_getter_async, 0, getter;
    AsyncDisposableStackPrototype."move" => move_async, 0;
    AsyncDisposableStackPrototype."use" => use_async, 1;
    IteratorPrototype.[dispose] => iterator_dispose, 0;
    AsyncIteratorPrototype.[async_dispose] => async_iterator_async_dispose, 0;
};

/// Creates the constructors and prototypes.
pub(crate) fn init(rt: &mut Runtime) {
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    for (name, ctor_i, proto_i, f) in [
        (
            "DisposableStack",
            Intrinsic::DisposableStack,
            Intrinsic::DisposableStackPrototype,
            disposable_stack_constructor as NativeFn,
        ),
        (
            "AsyncDisposableStack",
            Intrinsic::AsyncDisposableStack,
            Intrinsic::AsyncDisposableStackPrototype,
            async_disposable_stack_constructor,
        ),
    ] {
        let proto = rt.new_object(op);
        let c = rt.make_constructor(name, f, 0, Some(proto));
        super::iterator::define_tag(rt, proto, name);
        rt.set_intrinsic(proto_i, Value::object(proto));
        rt.set_intrinsic(ctor_i, Value::object(c));
    }
}

/// `DisposableStack.prototype[@@dispose]` is `dispose` and
/// `AsyncDisposableStack.prototype[@@asyncDispose]` is `disposeAsync` (the same functions).
fn link(rt: &mut Runtime) {
    for (proto, name, sym) in [
        (Intrinsic::DisposableStackPrototype, "dispose", rt.symbols.dispose),
        (Intrinsic::AsyncDisposableStackPrototype, "disposeAsync", rt.symbols.async_dispose),
    ] {
        let p = rt.intrinsic_object(proto);
        let key = rt.key(name);
        if let Some(f) = rt.peek_data(p, key) {
            rt.define_data_raw(p, Key::Name(sym), f, WRITABLE | CONFIGURABLE);
        }
    }
}

// ---- The stacks' internal slots -----------------------------------------------------------------

/// DisposableResource hints.
const SYNC: f64 = 0.0;
const ASYNC: f64 = 1.0;

/// [[DisposableState]] disposed (`index`; a new stack's 0 is pending).
const DISPOSED: u32 = 1;

/// A new stack of `kind` whose prototype comes from `new_target` (or is `default_proto`).
fn create_stack(rt: &mut Runtime, new_target: Value, default_proto: Intrinsic, kind: u8) -> JsResult<Gc<JsObject>> {
    let proto = rt.prototype_from_constructor(new_target, default_proto)?;
    let resources = rt.heap.alloc_vec(0);
    rt.root(Value::cell(resources));
    let shape = rt.root_shape(proto, CellKind::Iterator, 0);
    let obj = IteratorObject::new(JsObject::new(CellKind::Iterator, shape), Value::cell(resources), kind);
    let o = rt.heap.alloc_object(obj, 0).cast::<JsObject>();
    rt.root(Value::object(o));
    Ok(o)
}

/// RequireInternalSlot(this, [[DisposableState]] / [[AsyncDisposableState]]).
fn this_stack(rt: &mut Runtime, this: Value, kind: u8, what: &str) -> JsResult<Gc<IteratorObject>> {
    if this.is_object() && rt.heap.object_kind(this.gc()) == CellKind::Iterator {
        let it: Gc<IteratorObject> = this.gc();
        if rt.heap.get(it).kind == kind && rt.heap.get(it).target.is_cell() {
            return Ok(it);
        }
    }
    let class = if kind == iter_kind::DISPOSABLE_STACK { "DisposableStack" } else { "AsyncDisposableStack" };
    Err(rt.throw_type_error(&format!("{class}.prototype.{what} called on an incompatible receiver")))
}

/// The receiver, which must still be pending (a ReferenceError once disposed).
fn pending_stack(rt: &mut Runtime, this: Value, kind: u8, what: &str) -> JsResult<Gc<IteratorObject>> {
    let s = this_stack(rt, this, kind, what)?;
    if rt.heap.get(s).index == DISPOSED {
        return Err(rt.throw_reference_error("the stack is already disposed"));
    }
    Ok(s)
}

/// Appends the resource (value, hint, method) to the stack's [[DisposeCapability]].
fn push_resource(rt: &mut Runtime, stack: Gc<IteratorObject>, value: Value, hint: f64, method: Value) {
    let vec: Gc<ValueVec> = rt.heap.get(stack).target.gc();
    let len = rt.heap.vec_values(vec).len();
    let vec = if len + 3 <= rt.heap.vec_capacity(vec) {
        vec
    } else {
        let grown = rt.heap.alloc_vec((len * 2).max(12));
        for i in 0..len {
            let v = rt.heap.vec_get(vec, i);
            rt.heap.vec_set(grown, i, v);
        }
        rt.heap.get_mut(grown).len = len as u32;
        rt.heap.get_mut(stack).target = Value::cell(grown);
        grown
    };
    for (i, v) in [value, Value::number(hint), method].into_iter().enumerate() {
        rt.heap.vec_set(vec, len + i, v);
    }
    rt.heap.get_mut(vec).len = (len + 3) as u32;
}

/// Takes the stack's resources, leaving it a new empty [[DisposeCapability]].
fn take_resources(rt: &mut Runtime, stack: Gc<IteratorObject>) -> Gc<ValueVec> {
    let vec: Gc<ValueVec> = rt.heap.get(stack).target.gc();
    rt.root(Value::cell(vec));
    let empty = rt.heap.alloc_vec(0);
    rt.heap.get_mut(stack).target = Value::cell(empty);
    vec
}

/// 7.5.3 AddDisposableResource(disposeCapability, V, hint) with CreateDisposableResource
/// and GetDisposeMethod: the resource of `use`.
fn add_value(rt: &mut Runtime, stack: Gc<IteratorObject>, v: Value, hint: f64) -> JsResult<()> {
    if v.is_nullish() {
        // A null or undefined sync resource is skipped; an async one still awaits.
        if hint == ASYNC {
            push_resource(rt, stack, Value::UNDEFINED, hint, Value::UNDEFINED);
        }
        return Ok(());
    }
    if !v.is_object() {
        return Err(rt.throw_type_error("a disposable resource must be an object"));
    }
    let method = get_dispose_method(rt, v, hint)?;
    rt.root(method);
    if method.is_undefined() {
        let what = if hint == ASYNC { "Symbol.asyncDispose or Symbol.dispose" } else { "Symbol.dispose" };
        return Err(rt.throw_type_error(&format!("the resource has no {what} method")));
    }
    push_resource(rt, stack, v, hint, method);
    Ok(())
}

/// 7.5.5 GetDisposeMethod(V, hint): @@dispose, or for an async hint @@asyncDispose, else
/// @@dispose wrapped in a function that returns a promise.
fn get_dispose_method(rt: &mut Runtime, v: Value, hint: f64) -> JsResult<Value> {
    if hint == ASYNC {
        let key = Key::Name(rt.symbols.async_dispose);
        let m = get_method(rt, v, key)?;
        if !m.is_undefined() {
            return Ok(m);
        }
        let key = Key::Name(rt.symbols.dispose);
        let m = get_method(rt, v, key)?;
        if m.is_undefined() {
            return Ok(m);
        }
        let data = rt.heap.alloc_vec_from(&[m, v]);
        rt.root(Value::cell(data));
        let f = rt.new_native_with_data("", sync_dispose_as_async, 0, Value::cell(data));
        return Ok(Value::object(f));
    }
    let key = Key::Name(rt.symbols.dispose);
    get_method(rt, v, key)
}

/// The closure of GetDisposeMethod 1.b.ii: calls the sync method and gives a promise that
/// is resolved with undefined or rejected with what it threw.
fn sync_dispose_as_async(rt: &mut Runtime, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let [method, v] = native_pair(rt)?;
    let promise = rt.new_promise();
    rt.root(Value::object(promise));
    let r = rt.call(method, v, &[]);
    match caught(rt, r)? {
        Ok(_) => rt.resolve_promise(promise, Value::UNDEFINED),
        Err(reason) => rt.reject_promise(promise, reason),
    }
    Ok(Value::object(promise))
}

/// GetMethod(v, key): undefined for null or undefined, a TypeError if not callable.
fn get_method(rt: &mut Runtime, v: Value, key: Key) -> JsResult<Value> {
    let f = rt.get_v(v, key)?;
    if f.is_nullish() {
        return Ok(Value::UNDEFINED);
    }
    if !rt.is_callable(f) {
        let n = rt.key_display(key);
        return Err(rt.throw_type_error(&format!("{n} is not a function")));
    }
    Ok(f)
}

/// The two values a native closure carries.
fn native_pair(rt: &mut Runtime) -> JsResult<[Value; 2]> {
    let data = rt.native_data(rt.native_callee());
    if data.is_cell() && rt.heap.kind_of(data.gc::<crate::gc::CellHeader>()) == CellKind::ValueVec {
        if let [a, b] = *rt.heap.vec_values(data.gc()) {
            return Ok([a, b]);
        }
    }
    Err(rt.throw_type_error("internal error: a disposal closure without its state"))
}

/// The closure of `adopt`: calls onDispose with the adopted value.
fn adopted_dispose(rt: &mut Runtime, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let [on_dispose, value] = native_pair(rt)?;
    rt.call(on_dispose, Value::UNDEFINED, &[value])
}

/// A catchable exception as the thrown value (`Err`); an uncatchable one propagates.
fn caught<T>(rt: &mut Runtime, r: JsResult<T>) -> Result<Result<T, Value>, Exception> {
    match r {
        Ok(v) => Ok(Ok(v)),
        Err(e) if rt.exception_kind != ExceptionKind::Normal => Err(e),
        Err(_) => {
            let reason = rt.take_exception();
            rt.root(reason);
            Ok(Err(reason))
        }
    }
}

/// The completion after a disposal threw `error` while the completion was `prior`: `error`,
/// or a SuppressedError of `error` suppressing the earlier error.
fn combine(rt: &mut Runtime, prior: Option<Value>, error: Value) -> Value {
    match prior {
        None => error,
        Some(suppressed) => {
            let e = super::error::new_suppressed_error(rt, error, suppressed);
            rt.root(e);
            e
        }
    }
}

// ---- DisposableStack ------------------------------------------------------------------------------

/// 27.3.1.1 DisposableStack().
fn disposable_stack_constructor(rt: &mut Runtime, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let nt = rt.native_new_target();
    if nt.is_undefined() {
        return Err(rt.throw_type_error("Constructor DisposableStack requires 'new'"));
    }
    let s = create_stack(rt, nt, Intrinsic::DisposableStackPrototype, iter_kind::DISPOSABLE_STACK)?;
    Ok(Value::object(s))
}

/// 27.3.3.1 DisposableStack.prototype.adopt(value, onDispose).
fn adopt(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    adopt_impl(rt, this, args, iter_kind::DISPOSABLE_STACK, SYNC)
}

/// 27.3.3.2 DisposableStack.prototype.defer(onDispose).
fn defer(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    defer_impl(rt, this, args, iter_kind::DISPOSABLE_STACK, SYNC)
}

/// 27.3.3.3 DisposableStack.prototype.dispose().
fn dispose(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let s = this_stack(rt, this, iter_kind::DISPOSABLE_STACK, "dispose")?;
    if rt.heap.get(s).index == DISPOSED {
        return Ok(Value::UNDEFINED);
    }
    rt.heap.get_mut(s).index = DISPOSED;
    let resources = take_resources(rt, s);
    dispose_sync(rt, resources, None)?;
    Ok(Value::UNDEFINED)
}

/// 7.5.6 DisposeResources of sync resources, in reverse order, the completion a throw of
/// `error` or normal: throws the final error, if any.
fn dispose_sync(rt: &mut Runtime, resources: Gc<ValueVec>, error: Option<Value>) -> JsResult<()> {
    let mut completion = error;
    let n = rt.heap.vec_values(resources).len() / 3;
    for i in (0..n).rev() {
        let (value, method) = (rt.heap.vec_get(resources, 3 * i), rt.heap.vec_get(resources, 3 * i + 2));
        if method.is_undefined() {
            continue;
        }
        let r = rt.call(method, value, &[]);
        if let Err(error) = caught(rt, r)? {
            completion = Some(combine(rt, completion, error));
        }
    }
    match completion {
        None => Ok(()),
        Some(error) => Err(rt.throw(error)),
    }
}

// ---- Blocks with `using` declarations (the interpreter's builtins) -----------------------------

/// `createDisposeCapability(isAsync)`: a block's [[DisposeCapability]], a stack no script
/// sees (its prototype is null).
pub(crate) fn new_dispose_capability(rt: &mut Runtime, is_async: bool) -> Value {
    let kind = if is_async { iter_kind::ASYNC_DISPOSABLE_STACK } else { iter_kind::DISPOSABLE_STACK };
    let resources = rt.heap.alloc_vec(0);
    rt.root(Value::cell(resources));
    let shape = rt.root_shape(Value::NULL, CellKind::Iterator, 0);
    let obj = IteratorObject::new(JsObject::new(CellKind::Iterator, shape), Value::cell(resources), kind);
    Value::object(rt.heap.alloc_object(obj, 0).cast::<JsObject>())
}

/// The stack of a capability operand (either kind).
fn capability(rt: &mut Runtime, cap: Value) -> JsResult<Gc<IteratorObject>> {
    if cap.is_object() && rt.heap.object_kind(cap.gc()) == CellKind::Iterator {
        let it: Gc<IteratorObject> = cap.gc();
        let kind = rt.heap.get(it).kind;
        if matches!(kind, iter_kind::DISPOSABLE_STACK | iter_kind::ASYNC_DISPOSABLE_STACK) {
            return Ok(it);
        }
    }
    Err(rt.throw_type_error("internal error: not a dispose capability"))
}

/// `addDisposableResource(cap, value, isAsync)`.
pub(crate) fn add_disposable_resource(rt: &mut Runtime, cap: Value, v: Value, is_async: bool) -> JsResult<()> {
    let s = capability(rt, cap)?;
    add_value(rt, s, v, if is_async { ASYNC } else { SYNC })
}

/// `disposeResources(cap[, error])`: throws (sync) or gives a promise (async). An async
/// capability that holds no resources (its `await using` declarations were never
/// evaluated) is disposed of at once, as a sync one: DisposeResources awaits nothing then.
pub(crate) fn dispose_resources(rt: &mut Runtime, cap: Value, error: Option<Value>) -> JsResult<Value> {
    let s = capability(rt, cap)?;
    let resources = take_resources(rt, s);
    if rt.heap.get(s).kind == iter_kind::DISPOSABLE_STACK || rt.heap.vec_values(resources).is_empty() {
        dispose_sync(rt, resources, error)?;
        return Ok(Value::UNDEFINED);
    }
    let promise = rt.new_promise();
    rt.root(Value::object(promise));
    start_async_disposal(rt, promise, resources, error)?;
    Ok(Value::object(promise))
}

/// 27.3.3.4 get DisposableStack.prototype.disposed.
fn disposed_getter(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let s = this_stack(rt, this, iter_kind::DISPOSABLE_STACK, "disposed")?;
    Ok(Value::boolean(rt.heap.get(s).index == DISPOSED))
}

/// 27.3.3.5 DisposableStack.prototype.move().
fn move_(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    move_impl(rt, this, iter_kind::DISPOSABLE_STACK)
}

/// 27.3.3.6 DisposableStack.prototype.use(value).
fn use_(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let s = pending_stack(rt, this, iter_kind::DISPOSABLE_STACK, "use")?;
    let v = arg(args, 0);
    add_value(rt, s, v, SYNC)?;
    Ok(v)
}

/// `adopt(value, onDispose)` of either stack.
fn adopt_impl(rt: &mut Runtime, this: Value, args: &[Value], kind: u8, hint: f64) -> JsResult<Value> {
    let s = pending_stack(rt, this, kind, "adopt")?;
    let (value, on_dispose) = (arg(args, 0), arg(args, 1));
    if !rt.is_callable(on_dispose) {
        return Err(rt.throw_type_error("adopt: onDispose is not a function"));
    }
    let data = rt.heap.alloc_vec_from(&[on_dispose, value]);
    rt.root(Value::cell(data));
    let f = rt.new_native_with_data("", adopted_dispose, 0, Value::cell(data));
    rt.root(Value::object(f));
    push_resource(rt, s, Value::UNDEFINED, hint, Value::object(f));
    Ok(value)
}

/// `defer(onDispose)` of either stack.
fn defer_impl(rt: &mut Runtime, this: Value, args: &[Value], kind: u8, hint: f64) -> JsResult<Value> {
    let s = pending_stack(rt, this, kind, "defer")?;
    let on_dispose = arg(args, 0);
    if !rt.is_callable(on_dispose) {
        return Err(rt.throw_type_error("defer: onDispose is not a function"));
    }
    push_resource(rt, s, Value::UNDEFINED, hint, on_dispose);
    Ok(Value::UNDEFINED)
}

/// `move()` of either stack: a new stack takes the resources; this one is disposed.
fn move_impl(rt: &mut Runtime, this: Value, kind: u8) -> JsResult<Value> {
    let s = pending_stack(rt, this, kind, "move")?;
    let (ctor, proto) = match kind == iter_kind::DISPOSABLE_STACK {
        true => (Intrinsic::DisposableStack, Intrinsic::DisposableStackPrototype),
        false => (Intrinsic::AsyncDisposableStack, Intrinsic::AsyncDisposableStackPrototype),
    };
    let c = rt.intrinsic(ctor);
    let fresh = create_stack(rt, c, proto, kind)?;
    let resources = take_resources(rt, s);
    rt.heap.get_mut(fresh.cast::<IteratorObject>()).target = Value::cell(resources);
    rt.heap.get_mut(s).index = DISPOSED;
    Ok(Value::object(fresh))
}

// ---- AsyncDisposableStack -----------------------------------------------------------------------

/// 27.4.1.1 AsyncDisposableStack().
fn async_disposable_stack_constructor(rt: &mut Runtime, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let nt = rt.native_new_target();
    if nt.is_undefined() {
        return Err(rt.throw_type_error("Constructor AsyncDisposableStack requires 'new'"));
    }
    let kind = iter_kind::ASYNC_DISPOSABLE_STACK;
    let s = create_stack(rt, nt, Intrinsic::AsyncDisposableStackPrototype, kind)?;
    Ok(Value::object(s))
}

/// 27.4.3.1 AsyncDisposableStack.prototype.adopt(value, onDisposeAsync).
fn adopt_async(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    adopt_impl(rt, this, args, iter_kind::ASYNC_DISPOSABLE_STACK, ASYNC)
}

/// 27.4.3.2 AsyncDisposableStack.prototype.defer(onDisposeAsync).
fn defer_async(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    defer_impl(rt, this, args, iter_kind::ASYNC_DISPOSABLE_STACK, ASYNC)
}

/// 27.4.3.4 get AsyncDisposableStack.prototype.disposed.
fn disposed_getter_async(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let s = this_stack(rt, this, iter_kind::ASYNC_DISPOSABLE_STACK, "disposed")?;
    Ok(Value::boolean(rt.heap.get(s).index == DISPOSED))
}

/// 27.4.3.5 AsyncDisposableStack.prototype.move().
fn move_async(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    move_impl(rt, this, iter_kind::ASYNC_DISPOSABLE_STACK)
}

/// 27.4.3.6 AsyncDisposableStack.prototype.use(value).
fn use_async(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let s = pending_stack(rt, this, iter_kind::ASYNC_DISPOSABLE_STACK, "use")?;
    let v = arg(args, 0);
    add_value(rt, s, v, ASYNC)?;
    Ok(v)
}

// The slots of an async DisposeResources in progress.
/// The promise `disposeAsync` returned.
const ASYNC_PROMISE: usize = 0;
/// The resources (a `ValueVec` of triples).
const ASYNC_RESOURCES: usize = 1;
/// The number of resources not yet disposed (the next is at this index minus one).
const ASYNC_LEFT: usize = 2;
/// The thrown value of the completion so far, if it is a throw completion.
const ASYNC_ERROR: usize = 3;
/// Whether the completion is a throw completion.
const ASYNC_THROWN: usize = 4;
/// needsAwait and hasAwaited.
const ASYNC_NEEDS_AWAIT: usize = 5;
const ASYNC_HAS_AWAITED: usize = 6;
const ASYNC_SLOTS: usize = 7;

/// 27.4.3.3 AsyncDisposableStack.prototype.disposeAsync().
fn dispose_async(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let promise = rt.new_promise();
    rt.root(Value::object(promise));
    let s = match this_stack(rt, this, iter_kind::ASYNC_DISPOSABLE_STACK, "disposeAsync") {
        Ok(s) => s,
        Err(e) => {
            if let Err(reason) = caught(rt, Err::<(), _>(e))? {
                rt.reject_promise(promise, reason);
            }
            return Ok(Value::object(promise));
        }
    };
    if rt.heap.get(s).index == DISPOSED {
        rt.resolve_promise(promise, Value::UNDEFINED);
        return Ok(Value::object(promise));
    }
    rt.heap.get_mut(s).index = DISPOSED;
    let resources = take_resources(rt, s);
    start_async_disposal(rt, promise, resources, None)?;
    Ok(Value::object(promise))
}

/// Starts DisposeResources of `resources` with a normal completion or a throw of `error`;
/// `promise` is settled with the outcome.
fn start_async_disposal(
    rt: &mut Runtime,
    promise: Gc<JsObject>,
    resources: Gc<ValueVec>,
    error: Option<Value>,
) -> JsResult<()> {
    let n = rt.heap.vec_values(resources).len() / 3;
    let mut slots = [Value::FALSE; ASYNC_SLOTS];
    slots[ASYNC_PROMISE] = Value::object(promise);
    slots[ASYNC_RESOURCES] = Value::cell(resources);
    slots[ASYNC_LEFT] = Value::number(n as f64);
    slots[ASYNC_ERROR] = error.unwrap_or(Value::UNDEFINED);
    slots[ASYNC_THROWN] = Value::boolean(error.is_some());
    let state = rt.heap.alloc_vec_from(&slots);
    rt.root(Value::cell(state));
    dispose_async_step(rt, state)
}

fn slot(rt: &Runtime, state: Gc<ValueVec>, i: usize) -> Value {
    rt.heap.vec_get(state, i)
}

fn flag(rt: &Runtime, state: Gc<ValueVec>, i: usize) -> bool {
    slot(rt, state, i) == Value::TRUE
}

/// 7.5.6 DisposeResources from where `state` is, until an Await or the end.
fn dispose_async_step(rt: &mut Runtime, state: Gc<ValueVec>) -> JsResult<()> {
    let resources: Gc<ValueVec> = slot(rt, state, ASYNC_RESOURCES).gc();
    loop {
        let left = slot(rt, state, ASYNC_LEFT).as_number().unwrap_or(0.0) as usize;
        if left == 0 {
            break;
        }
        let i = left - 1;
        let value = rt.heap.vec_get(resources, 3 * i);
        let hint = rt.heap.vec_get(resources, 3 * i + 1).as_number().unwrap_or(SYNC);
        let method = rt.heap.vec_get(resources, 3 * i + 2);
        // 2.b. A sync resource after an async one that did not await: Await(undefined) first.
        if hint == SYNC && flag(rt, state, ASYNC_NEEDS_AWAIT) && !flag(rt, state, ASYNC_HAS_AWAITED) {
            rt.heap.vec_set(state, ASYNC_NEEDS_AWAIT, Value::FALSE);
            return await_in_disposal(rt, state, Value::UNDEFINED);
        }
        rt.heap.vec_set(state, ASYNC_LEFT, Value::number(i as f64));
        if method.is_undefined() {
            // 2.d. An async resource with no method (null or undefined) still awaits.
            rt.heap.vec_set(state, ASYNC_NEEDS_AWAIT, Value::TRUE);
            continue;
        }
        // 2.c. Call the method; for an async resource, await its result.
        let r = rt.call(method, value, &[]);
        match caught(rt, r)? {
            Ok(result) if hint == ASYNC => {
                rt.heap.vec_set(state, ASYNC_HAS_AWAITED, Value::TRUE);
                return await_in_disposal(rt, state, result);
            }
            Ok(_) => {}
            Err(error) => record_error(rt, state, error),
        }
    }
    // 3. Await(undefined) if an async resource with no method did not await.
    if flag(rt, state, ASYNC_NEEDS_AWAIT) && !flag(rt, state, ASYNC_HAS_AWAITED) {
        rt.heap.vec_set(state, ASYNC_NEEDS_AWAIT, Value::FALSE);
        return await_in_disposal(rt, state, Value::UNDEFINED);
    }
    // 6. Return ? completion.
    let promise = slot(rt, state, ASYNC_PROMISE).gc();
    match flag(rt, state, ASYNC_THROWN) {
        true => {
            let error = slot(rt, state, ASYNC_ERROR);
            rt.reject_promise(promise, error);
        }
        false => rt.resolve_promise(promise, Value::UNDEFINED),
    }
    Ok(())
}

/// The completion becomes a throw of `error` (suppressing an earlier one).
fn record_error(rt: &mut Runtime, state: Gc<ValueVec>, error: Value) {
    let prior = flag(rt, state, ASYNC_THROWN).then(|| slot(rt, state, ASYNC_ERROR));
    let e = combine(rt, prior, error);
    rt.heap.vec_set(state, ASYNC_ERROR, e);
    rt.heap.vec_set(state, ASYNC_THROWN, Value::TRUE);
}

/// Await(v) inside DisposeResources: the reactions record the outcome and go on.
fn await_in_disposal(rt: &mut Runtime, state: Gc<ValueVec>, v: Value) -> JsResult<()> {
    let r = rt.promise_resolve(v);
    let p = match caught(rt, r)? {
        Ok(p) => p,
        Err(error) => {
            // The Await itself threw (a `constructor` getter): its completion is that throw.
            record_error(rt, state, error);
            return dispose_async_step(rt, state);
        }
    };
    rt.root(Value::object(p));
    let data = Value::cell(state);
    let on_fulfilled = rt.new_native_with_data("", disposal_fulfilled, 1, data);
    rt.root(Value::object(on_fulfilled));
    let on_rejected = rt.new_native_with_data("", disposal_rejected, 1, data);
    rt.promise_then(p, Value::object(on_fulfilled), Value::object(on_rejected));
    Ok(())
}

/// The state of the disposal reaction being run.
fn disposal_state(rt: &mut Runtime) -> JsResult<Gc<ValueVec>> {
    let data = rt.native_data(rt.native_callee());
    if data.is_cell() && rt.heap.kind_of(data.gc::<crate::gc::CellHeader>()) == CellKind::ValueVec {
        let state: Gc<ValueVec> = data.gc();
        if rt.heap.vec_values(state).len() == ASYNC_SLOTS {
            return Ok(state);
        }
    }
    Err(rt.throw_type_error("internal error: a disposal reaction without its state"))
}

fn disposal_fulfilled(rt: &mut Runtime, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let state = disposal_state(rt)?;
    dispose_async_step(rt, state)?;
    Ok(Value::UNDEFINED)
}

fn disposal_rejected(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let state = disposal_state(rt)?;
    // Only a disposal's awaited result rejects (Await(undefined) never does).
    record_error(rt, state, arg(args, 0));
    dispose_async_step(rt, state)?;
    Ok(Value::UNDEFINED)
}

// ---- Iterators ------------------------------------------------------------------------------------

/// 27.1.2.1 %IteratorPrototype%[@@dispose](): calls `return()` if there is one.
fn iterator_dispose(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let key = rt.key("return");
    let f = get_method(rt, this, key)?;
    if !f.is_undefined() {
        rt.call(f, this, &[])?;
    }
    Ok(Value::UNDEFINED)
}

/// 27.1.4.1 %AsyncIteratorPrototype%[@@asyncDispose](): awaits `return(undefined)` if there
/// is one; the promise is fulfilled with undefined.
fn async_iterator_async_dispose(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let promise = rt.new_promise();
    rt.root(Value::object(promise));
    let key = rt.key("return");
    let started: JsResult<Option<Gc<JsObject>>> = (|| {
        let f = get_method(rt, this, key)?;
        if f.is_undefined() {
            return Ok(None);
        }
        let result = rt.call(f, this, &[Value::UNDEFINED])?;
        rt.promise_resolve(result).map(Some)
    })();
    match caught(rt, started)? {
        Err(reason) => rt.reject_promise(promise, reason),
        Ok(None) => rt.resolve_promise(promise, Value::UNDEFINED),
        Ok(Some(wrapper)) => {
            rt.root(Value::object(wrapper));
            let data = Value::object(promise);
            let on_fulfilled = rt.new_native_with_data("", settle_undefined, 1, data);
            rt.root(Value::object(on_fulfilled));
            let on_rejected = rt.new_native_with_data("", settle_rejected, 1, data);
            rt.promise_then(wrapper, Value::object(on_fulfilled), Value::object(on_rejected));
        }
    }
    Ok(Value::object(promise))
}

/// The promise a reaction carries.
fn carried_promise(rt: &mut Runtime) -> JsResult<Gc<JsObject>> {
    let data = rt.native_data(rt.native_callee());
    match data.is_object() {
        true => Ok(data.gc()),
        false => Err(rt.throw_type_error("internal error: a reaction without its promise")),
    }
}

fn settle_undefined(rt: &mut Runtime, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let promise = carried_promise(rt)?;
    rt.resolve_promise(promise, Value::UNDEFINED);
    Ok(Value::UNDEFINED)
}

fn settle_rejected(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let promise = carried_promise(rt)?;
    rt.reject_promise(promise, arg(args, 0));
    Ok(Value::UNDEFINED)
}
