//! Function objects: closures over bytecode, bound functions and native functions.

use bytecode::FunctionFlags;

use super::{JsResult, Runtime};
use crate::code::FuncRef;
use crate::gc::{CellKind, CellType, Gc};
use crate::object::{JsObject, ObjectCell, IS_CLASS_CONSTRUCTOR, LAZY_PROTOTYPE};
use crate::value::Value;

/// A closure: a bytecode function, the environment it was created in and, for methods,
/// its home object.
#[repr(C)]
pub struct Closure {
    pub(crate) base: JsObject,
    /// The function's code. Lives as long as the runtime (bundles are never unloaded).
    pub(crate) func: FuncRef,
    /// The captured environment (an `Environment` cell) or undefined.
    pub env: Value,
    /// `[[HomeObject]]` for `super` lookups, or undefined.
    pub home: Value,
}

// SAFETY: repr(C), JsObject first, kind Closure.
unsafe impl CellType for Closure {
    const KIND: Option<CellKind> = Some(CellKind::Closure);
}
// SAFETY: starts with JsObject.
unsafe impl ObjectCell for Closure {}

/// A bound function exotic object.
#[repr(C)]
pub struct BoundFunction {
    pub(crate) base: JsObject,
    /// `[[BoundTargetFunction]]`.
    pub target: Value,
    /// `[[BoundThis]]`.
    pub this: Value,
    /// `[[BoundArguments]]`: a `ValueVec` cell.
    pub args: Value,
}

// SAFETY: repr(C), JsObject first, kind BoundFunction.
unsafe impl CellType for BoundFunction {
    const KIND: Option<CellKind> = Some(CellKind::BoundFunction);
}
// SAFETY: starts with JsObject.
unsafe impl ObjectCell for BoundFunction {}

/// The Rust signature of a native function: `(runtime, this, arguments)`. The callee and
/// `new.target` are available from `Runtime::native_callee` / `Runtime::native_new_target`.
pub type NativeFn = fn(&mut Runtime, Value, &[Value]) -> JsResult<Value>;

/// A function implemented in Rust.
#[repr(C)]
pub struct NativeFunction {
    pub(crate) base: JsObject,
    /// The behaviour of `[[Call]]` (and of `[[Construct]]` when `constructor` is set).
    pub func: NativeFn,
    /// Extra state for natives that need it (bound resolvers, proxies' revokers, ...).
    pub data: Value,
    /// The realm the function belongs to.
    pub realm: u32,
    /// Whether the function has `[[Construct]]`.
    pub constructor: bool,
}

// SAFETY: repr(C), JsObject first, kind NativeFunction.
unsafe impl CellType for NativeFunction {
    const KIND: Option<CellKind> = Some(CellKind::NativeFunction);
}
// SAFETY: starts with JsObject.
unsafe impl ObjectCell for NativeFunction {}

/// A new closure of `info` over `env` in the current realm.
pub(crate) fn make_closure(rt: &mut Runtime, info_ptr: FuncRef, env: Value) -> Value {
    // SAFETY: the info belongs to this runtime, which outlives the call.
    let info = unsafe { info_ptr.get() };
    // A function compiled lazily: new closures are made of what it became.
    let (info_ptr, info) = match info.compiled.get() {
        // SAFETY: as above; `compiled` only holds functions of this runtime's bundles.
        Some(f) => (f, unsafe { f.get() }),
        None => (info_ptr, info),
    };
    let flags = info.flags();
    let shapes = rt.realm().shapes;
    let (shape, proto_slot) = if flags.contains(FunctionFlags::ASYNC) && flags.contains(FunctionFlags::GENERATOR) {
        (shapes.async_generator_function, Value::EMPTY)
    } else if flags.contains(FunctionFlags::ASYNC) {
        (shapes.async_function, Value::UNDEFINED)
    } else if flags.contains(FunctionFlags::GENERATOR) {
        (shapes.generator_function, Value::EMPTY)
    } else if flags.contains(FunctionFlags::CLASS_CONSTRUCTOR) {
        (shapes.class_constructor, Value::UNDEFINED)
    } else if flags.contains(FunctionFlags::CONSTRUCTOR)
        && !flags.contains(FunctionFlags::ARROW)
        && !flags.contains(FunctionFlags::METHOD)
    {
        (shapes.constructor, Value::EMPTY)
    } else {
        (shapes.function, Value::UNDEFINED)
    };
    let cell = Closure { base: JsObject::new(CellKind::Closure, shape), func: info_ptr, env, home: Value::UNDEFINED };
    let c = rt.heap.alloc_object(cell, 3);
    let obj: Gc<JsObject> = c.cast();
    let slots = rt.heap.inline_slots_mut(obj);
    slots[0] = Value::number(info.header.length as f64);
    slots[1] = info.name_value();
    slots[2] = proto_slot;
    if proto_slot.is_empty() {
        rt.heap.get_mut(obj).header.flags |= LAZY_PROTOTYPE;
    }
    if flags.contains(FunctionFlags::CLASS_CONSTRUCTOR) {
        rt.heap.get_mut(obj).header.flags |= IS_CLASS_CONSTRUCTOR;
    }
    Value::object(obj)
}
