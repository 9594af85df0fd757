//! Function objects: closures over bytecode, bound functions and native functions.

use super::{JsObject, ObjectCell};
use crate::gc::{CellKind, CellType};
use crate::interp::code::FuncRef;
use crate::runtime::{JsResult, Runtime};
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
