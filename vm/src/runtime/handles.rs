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
use crate::value::Value;

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
