//! Interpreter frames.
//!
//! The register stack (`Runtime::stack`) holds, for each active JavaScript call, the
//! arguments it received followed by its registers:
//!
//! ```text
//!  ... caller registers | this arg1 .. argN | r0 r1 .. r(frame_size-1) | callee's args ...
//!                         ^ args              ^ base                    ^ stack.len()
//! ```
//!
//! A frame's region always ends at `stack.len()`, so a call places the callee's arguments
//! at the top. The `Frame` records (in `Runtime::frames`) keep the rest of the state.

use crate::code::{FuncRef, FunctionInfo};
use crate::gc::Heap;
use crate::value::Value;

/// Frame flag: called with `new` (a non-object return value yields `this`).
pub const CONSTRUCT: u8 = 1;
/// Frame flag: entered from Rust; returning from it leaves the interpreter loop.
pub const ENTRY: u8 = 2;
/// Frame flag: runs a generator's body for the generator in `Frame::generator`.
pub const GENERATOR: u8 = 4;

/// An active JavaScript call.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    /// The function being run.
    pub(crate) info: FuncRef,
    /// The closure being run.
    pub closure: Value,
    /// `new.target` (undefined for calls).
    pub new_target: Value,
    /// The generator object whose body this frame runs, or undefined.
    pub generator: Value,
    /// Stack index of register 0.
    pub base: u32,
    /// Stack index of the `this` argument.
    pub args: u32,
    /// Number of arguments including `this`.
    pub argc: u32,
    /// The current instruction (kept up to date at calls and throwing operations; the
    /// resume point of a caller is the instruction after it).
    pub ip: u32,
    /// The caller's register that receives the result.
    pub ret_reg: u32,
    /// `CONSTRUCT`, `ENTRY`, `GENERATOR`.
    pub flags: u8,
    /// The realm to restore when this frame returns.
    pub saved_realm: u32,
}

impl Frame {
    /// The function info.
    #[inline(always)]
    pub(crate) fn info(&self) -> Option<&FunctionInfo> {
        // SAFETY: frames live in their runtime's frame stack, so the runtime outlives the
        // borrow of the frame.
        Some(unsafe { self.info.get() })
    }
}

/// The call stack: the register stack with its frames, and the state of the calls in
/// progress that are not in a frame.
pub(crate) struct CallStack {
    /// The register stack (reserved once: frames hold pointers into it).
    pub(crate) stack: Vec<Value>,
    /// The stack's capacity, which it must never grow past.
    pub(crate) stack_limit: usize,
    pub(crate) frames: Vec<Frame>,
    /// The native function being called and its `new.target`.
    pub(crate) native_callee: Value,
    pub(crate) native_new_target: Value,
    /// Native re-entries into the interpreter in progress.
    pub(crate) native_depth: u32,
    /// Lowest Rust stack address the VM may reach before throwing a RangeError.
    pub(crate) stack_guard: usize,
    /// The value sent by the generator resumption in progress, and its kind.
    pub(crate) gen_resume_value: Value,
    pub(crate) gen_resume_kind: u8,
    /// Arrays being joined (cycle detection for join/toString/toLocaleString).
    pub(crate) join_stack: Vec<Value>,
}

impl CallStack {
    /// An empty call stack whose register stack holds `capacity` values.
    pub(crate) fn new(capacity: usize, stack_guard: usize) -> CallStack {
        CallStack {
            stack: Vec::with_capacity(capacity),
            stack_limit: capacity,
            frames: Vec::with_capacity(256),
            native_callee: Value::UNDEFINED,
            native_new_target: Value::UNDEFINED,
            native_depth: 0,
            stack_guard,
            gen_resume_value: Value::UNDEFINED,
            gen_resume_kind: 0,
            join_stack: Vec::new(),
        }
    }

    /// Marks every value of the calls in progress.
    pub(crate) fn trace(&self, heap: &mut Heap) {
        for &v in self.stack.iter().chain(self.join_stack.iter()) {
            heap.mark_value(v);
        }
        for f in &self.frames {
            heap.mark_value(f.closure);
            heap.mark_value(f.new_target);
            heap.mark_value(f.generator);
        }
        for v in [self.native_callee, self.native_new_target, self.gen_resume_value] {
            heap.mark_value(v);
        }
    }
}

/// The registers of the running frame: a pointer into the register stack and the frame
/// size. Register operands are not bounds-checked at run time: `Bundle::from_bytes`
/// verified that every register operand of every instruction is below the function's
/// frame size (checked again in debug builds).
#[derive(Clone, Copy)]
pub(crate) struct Regs {
    ptr: *mut Value,
    len: usize,
}

impl Regs {
    /// The `len` registers at stack index `base`.
    #[inline(always)]
    pub(crate) fn new(stack: &mut [Value], base: usize, len: usize) -> Regs {
        let window = &mut stack[base..base + len];
        Regs { ptr: window.as_mut_ptr(), len }
    }

    /// Register `r`.
    ///
    /// # Safety
    /// `r` is below the `len` given to `new`, and the frame is still active. Both hold for
    /// the register operands of a verified bundle's instructions while their frame runs (the
    /// verifier checks every register operand against the function's frame size); debug
    /// builds check the first.
    #[inline(always)]
    pub(crate) unsafe fn get(self, r: u32) -> Value {
        let i = r as usize;
        if cfg!(debug_assertions) && i >= self.len {
            bad_register(r);
        }
        // SAFETY: `i < len` (the caller's contract), and the `len` registers
        // at `ptr` stay valid while the frame is active: the register stack is allocated
        // once with its full capacity and every growth is checked against that capacity
        // first (`Runtime::ensure_stack`), so it never moves; frames pushed above this one
        // only truncate the stack down to their own arguments, which lie above these
        // registers.
        unsafe { *self.ptr.add(i) }
    }

    /// Sets register `r`.
    ///
    /// # Safety
    /// As for `get`.
    #[inline(always)]
    pub(crate) unsafe fn set(self, r: u32, v: Value) {
        let i = r as usize;
        if cfg!(debug_assertions) && i >= self.len {
            bad_register(r);
        }
        // SAFETY: as in `get`.
        unsafe { *self.ptr.add(i) = v }
    }
}

#[cold]
#[inline(never)]
fn bad_register(r: u32) -> ! {
    panic!("register r{r} outside the frame (the bundle verifier should have rejected this)")
}

/// Appends a callee's window to the register stack: copies the `argc` argument registers
/// at `from` (`this` first) and fills the rest of the `total` new values with undefined.
/// The caller has checked that `stack.len() + total` is within the stack's capacity.
#[inline(always)]
pub(crate) fn push_call_window(stack: &mut Vec<Value>, from: usize, argc: usize, total: usize) {
    let len = stack.len();
    assert!(from + argc <= len && len + total <= stack.capacity() && argc <= total);
    let p = stack.as_mut_ptr();
    // SAFETY: the source range is initialized (`from + argc <= len`), the destination
    // `[len, len + total)` is inside the allocation (checked against the capacity) and does
    // not overlap the source; every value up to `len + total` is written before `set_len`.
    unsafe {
        for i in 0..argc {
            p.add(len + i).write(*p.add(from + i));
        }
        for i in argc..total {
            p.add(len + i).write(Value::UNDEFINED);
        }
        stack.set_len(len + total);
    }
}
