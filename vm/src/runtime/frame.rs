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
    /// Stack index of register 0: always `args + argc` (the arguments lie right below the
    /// registers; `Regs::arg` relies on it).
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

/// A stack of values in one allocation made with its full capacity, which never grows or
/// moves: pointers into it stay valid (frames hold pointers into the register stack), and
/// compiled code pushes and pops frames where its fields are (`runtime_interface::layout`).
/// Growing past the capacity is a bug of the caller (every push is checked against a limit
/// first) and panics.
#[repr(C)]
pub(crate) struct FixedStack<T: Copy> {
    ptr: std::ptr::NonNull<T>,
    len: usize,
    cap: usize,
    /// The values are a mapping of their own (`map_values`), not an allocator's block.
    mapped: bool,
}

/// Stacks of this many bytes or more are mapped from the operating system directly.
/// The register stack (64 MiB) and the frame stack (3 MiB) are made for every runtime and
/// mostly never touched; through the allocator, each was a huge block whose bookkeeping the
/// allocator wrote into its first pages (11 of a hello-world bundle's page faults).
#[cfg(unix)]
const MAP_DIRECTLY: usize = 1 << 20;

impl<T: Copy> FixedStack<T> {
    /// An empty stack with room for `cap` values.
    pub(crate) fn with_capacity(cap: usize) -> FixedStack<T> {
        if let Some(ptr) = map_values::<T>(cap) {
            return FixedStack { ptr, len: 0, cap, mapped: true };
        }
        let mut v = std::mem::ManuallyDrop::new(Vec::<T>::with_capacity(cap));
        let cap = v.capacity();
        // A Vec's pointer is never null (dangling when nothing is allocated).
        let ptr = std::ptr::NonNull::new(v.as_mut_ptr()).expect("a vector's pointer");
        FixedStack { ptr, len: 0, cap, mapped: false }
    }

    pub(crate) fn capacity(&self) -> usize {
        self.cap
    }

    /// Sets the length without writing values.
    ///
    /// # Safety
    /// `len` is at most the capacity, and every value below it is initialized.
    pub(crate) unsafe fn set_len(&mut self, len: usize) {
        debug_assert!(len <= self.cap);
        self.len = len;
    }

    /// The first value's address (the stack never moves).
    pub(crate) fn as_mut_ptr(&mut self) -> *mut T {
        self.ptr.as_ptr()
    }

    #[inline(always)]
    pub(crate) fn push(&mut self, v: T) {
        assert!(self.len < self.cap, "a fixed stack is full");
        // SAFETY: `len < cap`: the slot is inside the allocation.
        unsafe { self.ptr.as_ptr().add(self.len).write(v) };
        self.len += 1;
    }

    #[inline(always)]
    pub(crate) fn pop(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        // SAFETY: the value at the old `len - 1` is initialized.
        Some(unsafe { self.ptr.as_ptr().add(self.len).read() })
    }

    /// Drops the values from `len` on (if there are that many).
    #[inline(always)]
    pub(crate) fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// Appends copies of `values`.
    pub(crate) fn extend_from_slice(&mut self, values: &[T]) {
        assert!(values.len() <= self.cap - self.len, "a fixed stack is full");
        // SAFETY: the destination is inside the allocation (checked) and past `len`, so it
        // does not overlap `values` (a borrow of initialized values, below `len` if they
        // are this stack's).
        unsafe { std::ptr::copy_nonoverlapping(values.as_ptr(), self.ptr.as_ptr().add(self.len), values.len()) };
        self.len += values.len();
    }

    /// Appends copies of the values in `range`.
    pub(crate) fn extend_from_within(&mut self, range: std::ops::Range<usize>) {
        assert!(range.start <= range.end && range.end <= self.len, "a range outside the stack");
        let n = range.end - range.start;
        assert!(n <= self.cap - self.len, "a fixed stack is full");
        // SAFETY: the source is initialized (below `len`), the destination is inside the
        // allocation (checked) and starts at `len`, past the source.
        unsafe {
            std::ptr::copy_nonoverlapping(self.ptr.as_ptr().add(range.start), self.ptr.as_ptr().add(self.len), n)
        };
        self.len += n;
    }

    /// Truncates to `len`, or appends copies of `v` up to it.
    pub(crate) fn resize(&mut self, len: usize, v: T) {
        assert!(len <= self.cap, "a fixed stack is full");
        for i in self.len..len {
            // SAFETY: `i < len <= cap`: inside the allocation.
            unsafe { self.ptr.as_ptr().add(i).write(v) };
        }
        self.len = len;
    }
}

impl<T: Copy> std::ops::Deref for FixedStack<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: the first `len` values are initialized, in one allocation.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Copy> std::ops::DerefMut for FixedStack<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, borrowed mutably through `self`.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Copy> Drop for FixedStack<T> {
    fn drop(&mut self) {
        if self.mapped {
            unmap_values(self.ptr, self.cap);
            return;
        }
        // SAFETY: the allocation `with_capacity` made, given back as the vector it was
        // (its values are `Copy`: nothing to drop).
        drop(unsafe { Vec::from_raw_parts(self.ptr.as_ptr(), 0, self.cap) });
    }
}

/// A private anonymous mapping for `cap` values when that is `MAP_DIRECTLY` bytes or more
/// (and the mapping succeeds): zeroed, and memory only where it is touched.
#[cfg(unix)]
fn map_values<T>(cap: usize) -> Option<std::ptr::NonNull<T>> {
    let bytes = cap.checked_mul(std::mem::size_of::<T>())?;
    if bytes < MAP_DIRECTLY || std::mem::align_of::<T>() > 4096 {
        return None;
    }
    // SAFETY: an anonymous private mapping has no preconditions; page alignment satisfies
    // `T`'s (checked above).
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            bytes,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return None;
    }
    std::ptr::NonNull::new(p as *mut T)
}

#[cfg(not(unix))]
fn map_values<T>(_cap: usize) -> Option<std::ptr::NonNull<T>> {
    None
}

/// Unmaps what `map_values` mapped.
fn unmap_values<T>(ptr: std::ptr::NonNull<T>, cap: usize) {
    #[cfg(unix)]
    // SAFETY: `ptr` and `cap` are the mapping `map_values` made for this stack, which is
    // going away: nothing refers to its values any more.
    unsafe {
        libc::munmap(ptr.as_ptr() as *mut libc::c_void, cap * std::mem::size_of::<T>());
    }
    #[cfg(not(unix))]
    let _ = (ptr, cap);
}

/// Where a fixed stack keeps its first value's address and its length (the same for every
/// `T`: the struct is `repr(C)`), for compiled code.
pub(crate) const FIXED_STACK_PTR: usize = std::mem::offset_of!(FixedStack<Value>, ptr);
pub(crate) const FIXED_STACK_LEN: usize = std::mem::offset_of!(FixedStack<Value>, len);

/// Frames pushed past the depth limit: an exit from an inlined callee pushes the callee's
/// frame above a caller at the limit.
const FRAME_SLACK: usize = 16;

/// The call stack: the register stack with its frames, and the state of the calls in
/// progress that are not in a frame.
pub(crate) struct CallStack {
    /// The register stack.
    pub(crate) stack: FixedStack<Value>,
    /// How far the stack may grow: its capacity less `WINDOW_SLACK` (see `push_call_window`).
    pub(crate) stack_limit: usize,
    pub(crate) frames: FixedStack<Frame>,
    /// How many frames calls may push (`RuntimeOptions::max_stack_depth`).
    pub(crate) max_depth: usize,
    /// The runtime's interrupt flag (`Host::interrupt`, which the runtime keeps alive),
    /// for compiled code's calls.
    pub(crate) interrupt: *const std::sync::atomic::AtomicBool,
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
    pub(crate) fn new(
        capacity: usize,
        stack_guard: usize,
        max_depth: usize,
        interrupt: *const std::sync::atomic::AtomicBool,
    ) -> CallStack {
        CallStack {
            stack: FixedStack::with_capacity(capacity),
            stack_limit: capacity - WINDOW_SLACK,
            frames: FixedStack::with_capacity(max_depth.saturating_add(FRAME_SLACK)),
            max_depth,
            interrupt,
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
        for f in self.frames.iter() {
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

    /// Argument `i` (0 is `this`) of the frame whose registers these are, which has `argc`
    /// arguments.
    ///
    /// # Safety
    /// `i < argc`, `argc` is the frame's (`Frame::argc`), and the frame is still active: its
    /// arguments are the `argc` values right below its registers (`Frame::base` is
    /// `Frame::args + argc` for every frame), inside the register stack.
    #[inline(always)]
    pub(crate) unsafe fn arg(self, argc: u32, i: u32) -> Value {
        debug_assert!(i < argc);
        // SAFETY: as the contract says, `ptr - argc + i` is one of the frame's arguments.
        unsafe { *self.ptr.sub((argc - i) as usize) }
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

/// Values of the register stack past its limit (`CallStack::stack_limit`), which a call's
/// window may write beyond its end (see `push_call_window`).
const WINDOW_SLACK: usize = 4;

/// Appends a callee's window to the register stack: copies the `argc` argument registers
/// at `from` (`this` first) and fills the rest of the `total` new values with undefined.
/// The caller has checked that `stack.len() + total` is within the stack's limit.
///
/// Both are written for the few values a call has, so that neither becomes a vector loop
/// whose set-up costs more than the copy: the arguments of a call with up to two (and
/// `this`) are copied one by one, and the fill goes four values at a time, up to
/// `WINDOW_SLACK - 1` values past the window (above the stack's length, where nothing reads
/// them).
#[inline(always)]
pub(crate) fn push_call_window(stack: &mut FixedStack<Value>, from: usize, argc: usize, total: usize) {
    let len = stack.len();
    assert!(from + argc <= len && len + total + WINDOW_SLACK <= stack.capacity() && argc <= total);
    let p = stack.as_mut_ptr();
    // SAFETY: the source range is initialized (`from + argc <= len`), the destination
    // `[len, len + total + WINDOW_SLACK)` is inside the allocation (checked against the
    // capacity) and does not overlap the source; every value up to `len + total` is written
    // before `set_len`.
    unsafe {
        let (src, dst) = (p.add(from), p.add(len));
        match argc {
            1 => dst.write(*src),
            2 => {
                dst.write(*src);
                dst.add(1).write(*src.add(1));
            }
            3 => {
                dst.write(*src);
                dst.add(1).write(*src.add(1));
                dst.add(2).write(*src.add(2));
            }
            _ => std::ptr::copy_nonoverlapping(src, dst, argc),
        }
        let mut q = p.add(len + argc);
        let end = p.add(len + total);
        while q < end {
            q.write(Value::UNDEFINED);
            q.add(1).write(Value::UNDEFINED);
            q.add(2).write(Value::UNDEFINED);
            q.add(3).write(Value::UNDEFINED);
            q = q.add(4);
        }
        stack.set_len(len + total);
    }
}

#[cfg(test)]
mod tests {
    use super::FixedStack;

    #[test]
    fn a_fixed_stack_grows_within_its_capacity_and_never_moves() {
        let mut s: FixedStack<u64> = FixedStack::with_capacity(8);
        let at = s.as_mut_ptr();
        s.push(1);
        s.extend_from_slice(&[2, 3]);
        s.extend_from_within(0..2);
        assert_eq!(&*s, &[1, 2, 3, 1, 2]);
        s.resize(7, 9);
        assert_eq!(&s[5..], &[9, 9]);
        s.truncate(2);
        assert_eq!(s.pop(), Some(2));
        assert_eq!(&*s, &[1]);
        assert_eq!(s.as_mut_ptr(), at);
        s.truncate(9);
        assert_eq!(s.len(), 1);
    }

    #[test]
    #[should_panic(expected = "a fixed stack is full")]
    fn a_fixed_stack_refuses_to_grow_past_its_capacity() {
        let mut s: FixedStack<u64> = FixedStack::with_capacity(2);
        s.extend_from_slice(&[1, 2]);
        s.push(3);
    }
}
