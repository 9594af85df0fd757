//! The runtime: the embedding API and the state every part of the VM shares.
//!
//! ```text
//!  Runtime ─┬─ heap (gc)            atoms, names, well-known symbols
//!           ├─ realms (global object + intrinsics, per realm)
//!           ├─ register stack + frames (interp)      handle stack, persistent handles
//!           ├─ loaded bundles (decoded functions, string atoms) + inline caches
//!           ├─ job queue (promise jobs) + tracked unhandled rejections
//!           └─ pending exception, interrupt flag, output, compile hook
//! ```
//!
//! Running a script (`run_bundle`, `run_script`) runs its global code and then drains the
//! job queue (`run_jobs`), as a host's microtask checkpoint after a task.
//!
//! Errors: fallible operations return [`JsResult`]; the thrown value is kept in the runtime
//! (`Runtime::exception`) and [`Exception`] is zero-sized, as Hermes's `CallResult`. An
//! *uncatchable* exception (interrupt, unrecoverable out-of-memory) unwinds through every
//! handler to the embedder.

pub mod arguments;
pub mod array;
pub mod bundles;
pub mod convert;
pub mod error;
pub mod frame;
pub mod function;
pub mod handles;
pub mod iteration;
pub mod jobs;
pub mod names;
pub mod operators;
pub mod property;
pub mod realm;
pub mod trace;

use std::collections::VecDeque;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use hashbrown::HashMap;

use crate::code::ic::Ic;
use crate::code::LoadedBundle;
use crate::gc::{CellKind, Gc, Heap};
use crate::object::{JsObject, PropKey, Shape};
use crate::runtime::frame::Frame;
use crate::string::atoms::AtomTable;
use crate::value::Value;

pub use error::{ErrorKind, JsError};
pub use names::{Names, WellKnownSymbols};
pub use realm::{Intrinsic, Realm, RealmShapes};

/// Options of a runtime.
#[derive(Clone, Debug)]
pub struct RuntimeOptions {
    /// Collect garbage at every safepoint (see `gc`), to find missing roots.
    pub gc_stress: bool,
    /// Most bytes the heap may hold; beyond it a RangeError is thrown.
    pub heap_limit: usize,
    /// Most JavaScript frames on the stack; beyond it a RangeError is thrown.
    pub max_stack_depth: usize,
    /// Track promises rejected without a handler (HostPromiseRejectionTracker): when one
    /// still has none once the job queue is empty, `run_bundle`/`run_script` fail with it
    /// as an error whose `unhandled_rejection` is set ("Uncaught (in promise) ...", as
    /// node does). Off, rejections are not tracked at all (test262 tests ignore them).
    pub report_unhandled_rejections: bool,
}

impl Default for RuntimeOptions {
    fn default() -> RuntimeOptions {
        RuntimeOptions {
            gc_stress: false,
            heap_limit: 3 << 30,
            max_stack_depth: 40_000,
            report_unhandled_rejections: true,
        }
    }
}

/// The compiler entry point the runtime uses for `$262.evalScript`, `run_script`, and
/// eval-like features: `(source, file name) -> bundle bytes or "SyntaxError: ..."`.
pub type CompileHook = Box<dyn FnMut(&str, &str) -> Result<Vec<u8>, String>>;

/// A pending exception: the thrown value is in `Runtime::exception`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use]
pub struct Exception;

/// The result of an operation that may throw.
pub type JsResult<T> = Result<T, Exception>;

/// Makes running code stop with an uncatchable error, from any thread.
#[derive(Clone, Debug)]
pub struct InterruptHandle(Arc<AtomicBool>);

impl InterruptHandle {
    /// Requests the interruption; the interpreter notices it at the next backward jump or
    /// call.
    pub fn interrupt(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// How the pending exception propagates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExceptionKind {
    /// A JavaScript exception: handlers may catch it.
    Normal,
    /// An interrupt: skips every handler.
    Interrupted,
    /// Out of memory with nothing left to run a handler: skips every handler.
    OutOfMemory,
}

/// A JavaScript engine instance. See the module docs.
pub struct Runtime {
    pub(crate) heap: Heap,
    pub(crate) atoms: AtomTable,
    pub(crate) names: Names,
    pub(crate) symbols: WellKnownSymbols,
    pub(crate) realms: Vec<Realm>,
    pub(crate) realm: u32,
    pub(crate) stack: Vec<Value>,
    pub(crate) stack_limit: usize,
    pub(crate) frames: Vec<Frame>,
    pub(crate) handles: Vec<Value>,
    persistent: Vec<Value>,
    persistent_free: Vec<usize>,
    /// Boxed: frames and functions point into a loaded bundle, which must not move when
    /// the vector grows.
    #[allow(clippy::vec_box)]
    pub(crate) bundles: Vec<Box<LoadedBundle>>,
    pub(crate) ics: Vec<Ic>,
    pub(crate) root_shapes: HashMap<(u64, CellKind, u8), Gc<Shape>>,
    pub(crate) proto_epoch: u32,
    pub(crate) exception: Value,
    pub(crate) exception_kind: ExceptionKind,
    pub(crate) native_callee: Value,
    pub(crate) native_new_target: Value,
    pub(crate) native_depth: u32,
    /// Lowest Rust stack address the VM may reach before throwing a RangeError.
    pub(crate) stack_guard: usize,
    pub(crate) symbol_registry: HashMap<Vec<u16>, Value>,
    /// The job queue (9.5): promise jobs, run in FIFO order by `run_jobs`.
    pub(crate) jobs: VecDeque<jobs::Job>,
    /// Promises rejected while they had no handler, for `report_unhandled_rejections`.
    pub(crate) rejections: Vec<Value>,
    pub(crate) options: RuntimeOptions,
    pub(crate) output: Box<dyn Write>,
    pub(crate) compiler: Option<CompileHook>,
    pub(crate) interrupt: Arc<AtomicBool>,
    pub(crate) gc_stress: bool,
    /// Strings of the numbers 0..256, made on demand.
    pub(crate) small_int_strings: Vec<Value>,
    /// One-unit strings of the Latin-1 units, made on demand.
    pub(crate) char_strings: Vec<Value>,
    /// The value sent by the generator resumption in progress.
    pub(crate) gen_resume_value: Value,
    /// The kind of the generator resumption in progress.
    pub(crate) gen_resume_kind: u8,
    /// State of Math.random.
    pub(crate) random_state: [u64; 2],
    /// Arrays being joined (cycle detection for join/toString/toLocaleString).
    pub(crate) join_stack: Vec<Value>,
    /// The UTF-16 units of the last string a RegExp matched against (keyed by the flat
    /// cell's address; cleared by every collection, which may reuse the address).
    pub(crate) utf16_cache: Option<(usize, std::rc::Rc<[u16]>)>,
    /// Compiled matchers by (pattern, flags), shared by the RegExp objects made from the
    /// same source: a regular expression literal makes a new object every time it is
    /// evaluated, which must not mean a new compilation (see `builtins::regexp`).
    pub(crate) regexp_cache: HashMap<RegExpKey, std::rc::Rc<crate::object::regexp::Matcher>>,
    /// What the core needs from the builtins.
    pub(crate) hooks: &'static Hooks,
}

/// What the runtime core and the interpreter need from the builtins, filled in by the
/// builtins (`builtins::HOOKS`) so that no layer below them names a builtin module.
pub(crate) struct Hooks {
    /// RegExpCreate(pattern, flags) for a regular expression literal.
    pub regexp_create: fn(&mut Runtime, Value, Value) -> JsResult<Value>,
    /// Starts the body of an async function on its generator object; returns its promise.
    pub async_function_start: fn(&mut Runtime, Value) -> JsResult<Value>,
    /// Starts an async generator on its generator object; returns the generator.
    pub async_generator_start: fn(&mut Runtime, Value) -> JsResult<Value>,
    /// Marks the running async generator's next yield as an `await`-free yield.
    pub mark_async_yield: fn(&mut Runtime),
    /// GetIterator(obj, async).
    pub get_async_iterator: fn(&mut Runtime, Value) -> JsResult<Value>,
}

/// A regular expression's source and flags, as UTF-16.
pub(crate) type RegExpKey = (Box<[u16]>, Box<[u16]>);

/// Registers reserved for the register stack (virtual memory; touched as used).
const STACK_VALUES: usize = 8 << 20;
/// Native re-entries into the interpreter allowed (getters, callbacks, ...).
const MAX_NATIVE_DEPTH: u32 = 600;
/// Rust stack kept free below the deepest re-entry (for natives and the error path).
const RUST_STACK_RESERVE: usize = 256 << 10;

/// A rooted slot of the handle stack (valid until the enclosing native call returns or
/// `Runtime::release_handles` truncates it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handle(usize);

/// A persistent root for embedders, valid until released.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PersistentHandle(usize);

impl Runtime {
    /// A runtime with no realm yet, whose core reaches the layers above it through `hooks`
    /// (`Runtime::new`, in `builtins`, makes the first realm).
    pub(crate) fn with_hooks(options: RuntimeOptions, hooks: &'static Hooks) -> Runtime {
        let mut heap = Heap::new(options.heap_limit, trace::CELL_OPS);
        let mut atoms = AtomTable::new();
        let names = Names::new(&mut heap, &mut atoms);
        let symbols = WellKnownSymbols::new(&mut heap);
        Runtime {
            heap,
            atoms,
            names,
            symbols,
            realms: Vec::new(),
            realm: 0,
            stack: Vec::with_capacity(STACK_VALUES),
            // Frames hold pointers into the stack: it must never grow past its capacity.
            stack_limit: STACK_VALUES,
            frames: Vec::with_capacity(256),
            handles: Vec::new(),
            persistent: Vec::new(),
            persistent_free: Vec::new(),
            bundles: Vec::new(),
            ics: Vec::new(),
            root_shapes: HashMap::new(),
            proto_epoch: 0,
            exception: Value::UNDEFINED,
            exception_kind: ExceptionKind::Normal,
            native_callee: Value::UNDEFINED,
            native_new_target: Value::UNDEFINED,
            native_depth: 0,
            stack_guard: stack_guard(),
            symbol_registry: HashMap::new(),
            jobs: VecDeque::new(),
            rejections: Vec::new(),
            gc_stress: options.gc_stress,
            options,
            output: Box::new(std::io::stdout()),
            compiler: None,
            interrupt: Arc::new(AtomicBool::new(false)),
            small_int_strings: vec![Value::UNDEFINED; 256],
            char_strings: vec![Value::UNDEFINED; 256],
            gen_resume_value: Value::UNDEFINED,
            gen_resume_kind: 0,
            random_state: [0, 0],
            join_stack: Vec::new(),
            utf16_cache: None,
            regexp_cache: HashMap::new(),
            hooks,
        }
    }

    /// Sets the compiler used by `run_script`, `$262.evalScript` and eval-like features.
    pub fn set_compiler(&mut self, hook: CompileHook) {
        self.compiler = Some(hook);
    }

    /// Sets where `print` and `console.log` write.
    pub fn set_output(&mut self, out: Box<dyn Write>) {
        self.output = out;
    }

    /// A handle that interrupts running code from another thread.
    pub fn interrupt_handle(&self) -> InterruptHandle {
        InterruptHandle(self.interrupt.clone())
    }

    /// Verifies a bundle, runs its global code in the current realm, then drains the job
    /// queue (a microtask checkpoint). With `report_unhandled_rejections`, a promise
    /// rejected with no handler that still has none then is the error.
    pub fn run_bundle(&mut self, bytes: Vec<u8>) -> Result<(), JsError> {
        self.interrupt.store(false, Ordering::Relaxed);
        self.stack_guard = stack_guard();
        let realm = self.realm;
        let result = self.eval_bundle(bytes, realm).map(|_| ()).and_then(|_| self.run_jobs());
        result.map_err(|_| self.take_js_error())?;
        self.check_unhandled_rejections()
    }

    /// The error for the first tracked promise rejection that is still unhandled; forgets
    /// the others (the host reports one, as node does when it exits).
    fn check_unhandled_rejections(&mut self) -> Result<(), JsError> {
        let unhandled = self.take_unhandled_rejections();
        let Some(&promise) = unhandled.first() else { return Ok(()) };
        let reason = match self.promise_result(promise.ptr_unchecked()) {
            Some(Err(reason)) => reason,
            _ => Value::UNDEFINED,
        };
        let mut e = self.describe_thrown(reason);
        e.unhandled_rejection = true;
        Err(e)
    }

    /// Compiles `source` with the compile hook and runs it like `run_bundle`.
    pub fn run_script(&mut self, source: &str, file_name: &str) -> Result<(), JsError> {
        let Some(hook) = self.compiler.as_mut() else {
            return Err(JsError::plain("Error", "no compiler is installed (Runtime::set_compiler)"));
        };
        match hook(source, file_name) {
            Ok(bytes) => self.run_bundle(bytes),
            Err(msg) => Err(JsError::from_compile_error(&msg)),
        }
    }

    /// The current realm.
    #[inline(always)]
    pub(crate) fn realm(&self) -> &Realm {
        &self.realms[self.realm as usize]
    }

    /// Sets an intrinsic of the current realm.
    pub(crate) fn set_intrinsic(&mut self, i: Intrinsic, v: Value) {
        let r = self.realm as usize;
        self.realms[r].intrinsics[i as usize] = v;
    }

    /// The current realm, to change.
    #[inline(always)]
    pub(crate) fn realm_mut(&mut self) -> &mut Realm {
        &mut self.realms[self.realm as usize]
    }

    /// An intrinsic of the current realm.
    #[inline(always)]
    pub(crate) fn intrinsic(&self, i: Intrinsic) -> Value {
        self.realms[self.realm as usize].intrinsics[i as usize]
    }

    /// An intrinsic object of the current realm.
    #[inline(always)]
    pub(crate) fn intrinsic_object(&self, i: Intrinsic) -> Gc<JsObject> {
        self.intrinsic(i).ptr_unchecked()
    }

    /// The global object of the current realm.
    #[inline(always)]
    pub(crate) fn global_object(&self) -> Gc<JsObject> {
        self.realms[self.realm as usize].global
    }

    /// The predefined atoms.
    #[inline(always)]
    pub fn names(&self) -> &Names {
        &self.names
    }

    /// The heap (read access).
    #[inline(always)]
    pub fn heap(&self) -> &Heap {
        &self.heap
    }

    /// The heap (write access).
    #[inline(always)]
    pub fn heap_mut(&mut self) -> &mut Heap {
        &mut self.heap
    }

    // ---- Handles ----------------------------------------------------------------------

    /// Roots `v` in the handle stack until the current native call returns.
    #[inline]
    pub fn root(&mut self, v: Value) -> Handle {
        self.handles.push(v);
        Handle(self.handles.len() - 1)
    }

    /// The value of a handle.
    #[inline]
    pub fn handle(&self, h: Handle) -> Value {
        self.handles[h.0]
    }

    /// Updates a handle.
    #[inline]
    pub fn set_handle(&mut self, h: Handle, v: Value) {
        self.handles[h.0] = v;
    }

    /// The current height of the handle stack (for `release_handles`).
    #[inline]
    pub fn handle_mark(&self) -> usize {
        self.handles.len()
    }

    /// Drops the handles made since `mark`.
    #[inline]
    pub fn release_handles(&mut self, mark: usize) {
        self.handles.truncate(mark);
    }

    /// Roots `v` until `release_persistent`.
    pub fn persist(&mut self, v: Value) -> PersistentHandle {
        if let Some(i) = self.persistent_free.pop() {
            self.persistent[i] = v;
            PersistentHandle(i)
        } else {
            self.persistent.push(v);
            PersistentHandle(self.persistent.len() - 1)
        }
    }

    /// The value of a persistent handle.
    pub fn persistent(&self, h: PersistentHandle) -> Value {
        self.persistent[h.0]
    }

    /// Releases a persistent handle.
    pub fn release_persistent(&mut self, h: PersistentHandle) {
        self.persistent[h.0] = Value::UNDEFINED;
        self.persistent_free.push(h.0);
    }

    // ---- Garbage collection ---------------------------------------------------------------

    /// A safepoint: collects if the allocation budget is spent (always under `gc_stress`),
    /// throws a RangeError if the heap is still over its limit, and honours interrupts.
    /// Every value the caller holds in Rust locals must be rooted.
    #[inline]
    pub fn safepoint(&mut self) -> JsResult<()> {
        if self.gc_stress || self.heap.should_collect() || self.interrupt.load(Ordering::Relaxed) {
            self.safepoint_slow()
        } else {
            Ok(())
        }
    }

    #[cold]
    pub(crate) fn safepoint_slow(&mut self) -> JsResult<()> {
        if self.interrupt.load(Ordering::Relaxed) {
            return Err(self.throw_uncatchable(ExceptionKind::Interrupted));
        }
        if self.gc_stress || self.heap.should_collect() {
            self.collect_garbage();
            if self.heap.over_limit() {
                return Err(self.throw_out_of_memory());
            }
        }
        Ok(())
    }

    /// Throws a RangeError if the heap is over its limit (for long-running natives that
    /// allocate without reaching a safepoint). Does not collect.
    pub fn check_heap(&mut self) -> JsResult<()> {
        if self.heap.over_limit() {
            return Err(self.throw_out_of_memory());
        }
        Ok(())
    }

    /// The heap is over its limit: a catchable RangeError, unless the program went on
    /// allocating well past the limit after being told (then nothing JavaScript could do
    /// would help, and the error is uncatchable).
    #[cold]
    fn throw_out_of_memory(&mut self) -> Exception {
        let limit = self.heap.limit();
        let s = self.heap.stats();
        if s.live_bytes + s.allocated_since_gc > limit + limit / 4 {
            return self.throw_uncatchable(ExceptionKind::OutOfMemory);
        }
        self.throw_error(ErrorKind::RangeError, "Out of memory: the heap limit was reached")
    }

    /// Collects garbage now.
    pub fn collect_garbage(&mut self) {
        let Runtime {
            heap,
            stack,
            frames,
            handles,
            persistent,
            realms,
            names,
            symbols,
            bundles,
            ics,
            exception,
            native_callee,
            native_new_target,
            symbol_registry,
            jobs,
            rejections,
            small_int_strings,
            char_strings,
            gen_resume_value,
            join_stack,
            ..
        } = self;
        for &v in join_stack.iter() {
            heap.mark_value(v);
        }
        for &v in small_int_strings.iter().chain(char_strings.iter()) {
            heap.mark_value(v);
        }
        heap.mark_value(*gen_resume_value);
        for &v in stack.iter() {
            heap.mark_value(v);
        }
        for f in frames.iter() {
            heap.mark_value(f.closure);
            heap.mark_value(f.new_target);
            heap.mark_value(f.generator);
        }
        for &v in handles.iter().chain(persistent.iter()) {
            heap.mark_value(v);
        }
        for r in realms.iter() {
            heap.mark(r.global);
            for &v in &r.intrinsics {
                heap.mark_value(v);
            }
            let s = r.shapes;
            for shape in [
                s.object,
                s.array,
                s.iter_result,
                s.function,
                s.constructor,
                s.generator_function,
                s.async_function,
                s.async_generator_function,
                s.class_constructor,
                s.native_function,
                s.prototype_object,
                s.arguments,
            ] {
                heap.mark(shape);
            }
            for &shape in s.object_by_cap.iter() {
                heap.mark(shape);
            }
            for &v in r.templates.values() {
                heap.mark_value(v);
            }
        }
        for k in names.all() {
            heap.mark_value(k.value());
        }
        for (_, k) in symbols.all() {
            heap.mark_value(k.value());
        }
        for b in bundles.iter() {
            for &v in &b.strings {
                heap.mark_value(v);
            }
        }
        for ic in ics.iter() {
            ic.trace(heap);
        }
        heap.mark_value(*exception);
        heap.mark_value(*native_callee);
        heap.mark_value(*native_new_target);
        for &v in symbol_registry.values() {
            heap.mark_value(v);
        }
        for job in jobs.iter() {
            for &v in &job.values {
                heap.mark_value(v);
            }
        }
        for &v in rejections.iter() {
            heap.mark_value(v);
        }
        heap.drain();
        self.utf16_cache = None;
        // Weak tables drop what the marking did not reach, before the cells are freed.
        self.atoms.sweep(&self.heap);
        let heap = &self.heap;
        self.root_shapes.retain(|_, s| heap.is_marked(*s));
        self.heap.sweep();
    }

    // ---- Exceptions ----------------------------------------------------------------------

    /// Throws `v`.
    #[cold]
    pub fn throw(&mut self, v: Value) -> Exception {
        self.exception = v;
        self.exception_kind = ExceptionKind::Normal;
        Exception
    }

    /// Throws an uncatchable exception.
    #[cold]
    pub(crate) fn throw_uncatchable(&mut self, kind: ExceptionKind) -> Exception {
        self.exception = Value::UNDEFINED;
        self.exception_kind = kind;
        Exception
    }

    /// The pending exception value.
    pub fn exception(&self) -> Value {
        self.exception
    }

    /// Puts back a pending exception value saved before running code that may have
    /// thrown and been caught internally.
    pub(crate) fn restore_exception(&mut self, v: Value) {
        self.exception = v;
    }

    /// Takes the pending exception (for a catch).
    pub(crate) fn take_exception(&mut self) -> Value {
        std::mem::replace(&mut self.exception, Value::UNDEFINED)
    }

    /// Throws a new TypeError.
    #[cold]
    pub fn throw_type_error(&mut self, msg: &str) -> Exception {
        self.throw_error(ErrorKind::TypeError, msg)
    }

    /// Throws a new RangeError.
    #[cold]
    pub fn throw_range_error(&mut self, msg: &str) -> Exception {
        self.throw_error(ErrorKind::RangeError, msg)
    }

    /// Throws a new ReferenceError.
    #[cold]
    pub fn throw_reference_error(&mut self, msg: &str) -> Exception {
        self.throw_error(ErrorKind::ReferenceError, msg)
    }

    /// Throws a new SyntaxError.
    #[cold]
    pub fn throw_syntax_error(&mut self, msg: &str) -> Exception {
        self.throw_error(ErrorKind::SyntaxError, msg)
    }

    /// Throws a new error of `ty` with `msg`.
    #[cold]
    pub fn throw_error(&mut self, ty: ErrorKind, msg: &str) -> Exception {
        let e = self.new_error(ty, msg);
        self.throw(Value::object(e))
    }

    /// Checks the native re-entry depth and the Rust stack before entering the interpreter
    /// from native code.
    pub(crate) fn enter_native(&mut self) -> JsResult<()> {
        if self.native_depth >= MAX_NATIVE_DEPTH || stack_address() < self.stack_guard {
            return Err(self.throw_range_error("Maximum call stack size exceeded"));
        }
        self.native_depth += 1;
        Ok(())
    }

    /// Leaves a native re-entry.
    #[inline]
    pub(crate) fn leave_native(&mut self) {
        self.native_depth -= 1;
    }

    /// The callee of the running native function.
    pub fn native_callee(&self) -> Value {
        self.native_callee
    }

    /// `new.target` of the running native function (undefined for a call).
    pub fn native_new_target(&self) -> Value {
        self.native_new_target
    }

    /// Writes to the output (print, console.log).
    pub(crate) fn write_output(&mut self, text: &str) {
        let _ = self.output.write_all(text.as_bytes());
        let _ = self.output.flush();
    }

    /// Interns a Rust string as a property key.
    pub fn intern(&mut self, s: &str) -> PropKey {
        PropKey::atom(self.atoms.intern_str(&mut self.heap, s))
    }

    /// Allocates a string value.
    pub fn new_string(&mut self, s: &str) -> Value {
        Value::string(self.heap.alloc_str(s))
    }

    /// Allocates a string value from UTF-16 units.
    pub fn new_string_units(&mut self, units: &[u16]) -> Value {
        Value::string(self.heap.alloc_utf16(units))
    }

    /// Heap statistics.
    pub fn heap_stats(&self) -> crate::gc::heap::HeapStats {
        self.heap.stats()
    }
}

impl Drop for Runtime {
    fn drop(&mut self) {
        // `IRIS_GC_STATS=1` prints the collector's counters (performance work).
        if std::env::var_os("IRIS_GC_STATS").is_some() {
            let s = self.heap.stats();
            eprintln!(
                "gc: {} collections, {} KiB live after the last, {} KiB footprint (peak {} KiB), {} KiB allocated since",
                s.collections,
                s.live_bytes / 1024,
                s.footprint / 1024,
                s.peak_footprint / 1024,
                s.allocated_since_gc / 1024
            );
        }
    }
}

/// An address on the current Rust stack (to measure how much of it is in use).
#[inline(never)]
pub(crate) fn stack_address() -> usize {
    let probe = 0u8;
    std::hint::black_box(&probe) as *const u8 as usize
}

/// The lowest stack address re-entries may reach on this thread.
fn stack_guard() -> usize {
    let here = stack_address();
    match thread_stack_low() {
        Some(low) if low < here => low + RUST_STACK_RESERVE,
        // Unknown stack bounds: assume the common 2 MiB minimum below the current frame.
        _ => here.saturating_sub(2 << 20) + RUST_STACK_RESERVE,
    }
}

#[cfg(target_os = "linux")]
fn thread_stack_low() -> Option<usize> {
    // SAFETY: `attr` is initialized by pthread_getattr_np before use and destroyed after;
    // the out-pointers are valid locals.
    unsafe {
        let mut attr: libc::pthread_attr_t = std::mem::zeroed();
        if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) != 0 {
            return None;
        }
        let mut addr: *mut libc::c_void = std::ptr::null_mut();
        let mut size: libc::size_t = 0;
        let r = libc::pthread_attr_getstack(&attr, &mut addr, &mut size);
        libc::pthread_attr_destroy(&mut attr);
        if r != 0 || addr.is_null() {
            return None;
        }
        Some(addr as usize)
    }
}

#[cfg(not(target_os = "linux"))]
fn thread_stack_low() -> Option<usize> {
    None
}

#[cfg(test)]
mod tests;
