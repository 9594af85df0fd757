//! Rooting for native code.
//!
//! - The *handle stack* (`Runtime::root`, `Runtime::handle`, `Runtime::release_handles`):
//!   a native function pushes the values it must keep across a safepoint (see `gc`); the
//!   interpreter truncates the stack back when the native call returns, so every native
//!   call is an implicit handle scope. Long loops in natives release their per-iteration
//!   handles with `handle_mark`/`release_handles`.
//! - *Persistent handles* (`Runtime::persist`): roots an embedder holds until it releases
//!   them.
//!
//! Values in the register stack, in frames, in realms and in the loaded bundles are roots
//! on their own.

use super::Runtime;
use crate::gc::Heap;
use crate::value::Value;

/// The roots native code and embedders hold.
#[derive(Default)]
pub(crate) struct Roots {
    /// The handle stack.
    pub(crate) handles: Vec<Value>,
    /// Persistent handles by index; released slots are listed in `persistent_free`.
    pub(crate) persistent: Vec<Value>,
    pub(crate) persistent_free: Vec<usize>,
}

impl Roots {
    /// Marks every handle.
    pub(crate) fn trace(&self, heap: &mut Heap) {
        for &v in self.handles.iter().chain(self.persistent.iter()) {
            heap.mark_value(v);
        }
    }
}

/// A scope that releases the handles made inside it when closed.
pub struct HandleScope {
    mark: usize,
}

impl HandleScope {
    /// Opens a scope.
    pub fn new(rt: &Runtime) -> HandleScope {
        HandleScope { mark: rt.handle_mark() }
    }

    /// Closes the scope, releasing its handles.
    pub fn close(self, rt: &mut Runtime) {
        rt.release_handles(self.mark);
    }

    /// Closes the scope but keeps `v` rooted in the enclosing one.
    pub fn escape(self, rt: &mut Runtime, v: Value) -> Value {
        rt.release_handles(self.mark);
        rt.root(v);
        v
    }
}
