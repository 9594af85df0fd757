//! Rooting for native code.
//!
//! - The *handle stack* (`Runtime::root`, `Runtime::handle`, `Runtime::release_handles`):
//!   a native function pushes the values it must keep across a safepoint (see `gc`); the
//!   interpreter truncates the stack back when the native call returns, so every native
//!   call is an implicit handle scope. Long loops in natives release their per-iteration
//!   handles with `handle_mark`/`release_handles`.
//!
//! - The *host's handles* (`api::JsValue`): slots of a table the runtime shares with them,
//!   each released when its last `JsValue` is dropped.
//!
//! Values in the register stack, in frames, in realms and in the loaded bundles are roots
//! on their own.

use std::cell::RefCell;
use std::rc::Rc;

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
    /// The values the host's `JsValue`s hold (see `api`).
    pub(crate) api: SharedHandles,
}

impl Roots {
    /// Marks every handle.
    pub(crate) fn trace(&self, heap: &mut Heap) {
        for &v in self.handles.iter().chain(&self.host).chain(&self.waits) {
            heap.mark_value(v);
        }
        self.api.borrow().trace(heap);
    }
}

/// The slots of the host's `JsValue`s (`api`) that hold heap values, traced as roots.
#[derive(Default)]
pub(crate) struct HandleTable {
    slots: Vec<Value>,
    free: Vec<u32>,
}

impl HandleTable {
    pub(crate) fn add(&mut self, v: Value) -> u32 {
        match self.free.pop() {
            Some(i) => {
                self.slots[i as usize] = v;
                i
            }
            None => {
                self.slots.push(v);
                (self.slots.len() - 1) as u32
            }
        }
    }

    pub(crate) fn release(&mut self, i: u32) {
        self.slots[i as usize] = Value::UNDEFINED;
        self.free.push(i);
    }

    pub(crate) fn get(&self, i: u32) -> Value {
        self.slots[i as usize]
    }

    /// Marks every value a `JsValue` holds.
    pub(crate) fn trace(&self, heap: &mut Heap) {
        for &v in &self.slots {
            heap.mark_value(v);
        }
    }
}

/// The handle table a runtime shares with its `JsValue`s.
pub(crate) type SharedHandles = Rc<RefCell<HandleTable>>;
