//! Rooting for native code.
//!
//! - The *handle stack* (`Runtime::root`, `Runtime::handle`, `Runtime::release_handles`):
//!   a native function pushes the values it must keep across a safepoint (see `gc`); the
//!   interpreter truncates the stack back when the native call returns, so every native
//!   call is an implicit handle scope. Long loops in natives release their per-iteration
//!   handles with `handle_mark`/`release_handles`.
//!
//! Values in the register stack, in frames, in realms and in the loaded bundles are roots
//! on their own.

use crate::gc::Heap;
use crate::value::Value;

/// The roots native code holds.
#[derive(Default)]
pub(crate) struct Roots {
    /// The handle stack.
    pub(crate) handles: Vec<Value>,
    /// Values the host keeps for the runtime's lifetime (an agent's broadcast callback).
    pub(crate) host: Vec<Value>,
    /// The promises of `Host::async_waits`, index for index.
    pub(crate) waits: Vec<Value>,
}

impl Roots {
    /// Marks every handle.
    pub(crate) fn trace(&self, heap: &mut Heap) {
        for &v in self.handles.iter().chain(&self.host).chain(&self.waits) {
            heap.mark_value(v);
        }
    }
}
