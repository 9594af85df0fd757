//! The runtime: the embedding API and the state every part of the VM shares.
//!
//! ```text
//!  Runtime ─┬─ heap (gc)             atoms, names, well-known symbols, symbol registry
//!           ├─ realms, realm         global object + intrinsics + shapes, per realm
//!           ├─ calls: CallStack      register stack, frames, native calls in progress
//!           ├─ roots: Roots          handle stack, the host's JsValue slots (api)
//!           ├─ code: LoadedCode      loaded bundles (decoded functions, atoms) + inline caches
//!           ├─ caches: Caches        root shapes, small strings, compiled regexps (weak)
//!           ├─ jobs: JobQueue        promise jobs + tracked unhandled rejections
//!           ├─ modules: Modules      the module map (records) and the module loader
//!           ├─ exception             the pending exception and its kind
//!           └─ host: Host            options, output, compile hook, interrupt flag, hooks,
//!                                    the time limit's watchdog thread
//! ```
//!
//! Each part marks its own roots (`trace`), so `collect_garbage` lists the parts, not
//! their fields.
//!
//! Running a script (`run_bundle`, `run_script`) runs its global code and then drains the
//! job queue (`run_jobs`), as a host's microtask checkpoint after a task.
//!
//! Errors: fallible operations return [`JsResult`]; the thrown value is kept in the runtime
//! (`Runtime::exception`) and [`Exception`] is zero-sized, as Hermes's `CallResult`. An
//! *uncatchable* exception (interrupt, unrecoverable out-of-memory) unwinds through every
//! handler to the embedder.

pub mod agents;
pub mod arguments;
pub mod array;
pub mod bundles;
pub mod convert;
pub mod error;
pub mod frame;
pub mod function;
pub mod global_env;
pub mod handles;
pub mod iteration;
pub mod jobs;
pub mod modules;
pub mod names;
pub mod operators;
pub mod property;
pub mod proxy;
pub mod realm;
pub mod trace;
pub mod typed_array;
pub mod watchdog;

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use hashbrown::HashMap;

use crate::gc::heap::HeapStats;
use crate::gc::{CellKind, Gc, Heap};
use crate::object::{JsObject, Shape};
use crate::string::atoms::AtomTable;
use crate::value::Value;
use bundles::LoadedCode;
use frame::CallStack;
use handles::Roots;
use jobs::JobQueue;

pub use error::{ErrorKind, JsError};
pub use names::{Names, WellKnownSymbols};
pub use realm::{Intrinsic, Realm, RealmShapes};

/// Options of a runtime.
#[derive(Clone, Debug)]
pub struct RuntimeOptions {
    /// Collect garbage at every safepoint (see `gc`), to find missing roots: minor
    /// collections, and a full one every eighth (every other one of those marking
    /// incrementally, a few cells at each safepoint).
    pub gc_stress: bool,
    /// After each minor collection's marking and each incremental one, trace the whole
    /// heap again and check that every cell reachable from the roots was marked (that the
    /// write barrier missed no write into a marked cell); a missed cell panics. Debug
    /// builds only: release builds ignore it.
    pub gc_verify: bool,
    /// Most bytes the heap may hold; beyond it a RangeError is thrown.
    pub heap_limit: usize,
    /// Most JavaScript frames on the stack; beyond it a RangeError is thrown.
    pub max_stack_depth: usize,
    /// Track promises rejected without a handler (HostPromiseRejectionTracker): when one
    /// still has none once the job queue is empty, `run_bundle`/`run_script` fail with it
    /// as an error whose `unhandled_rejection` is set ("Uncaught (in promise) ...", as
    /// node does). Off, rejections are not tracked at all (test262 tests ignore them).
    pub report_unhandled_rejections: bool,
    /// After how many calls (or 64 times as many loop back-edges) a function starts
    /// recording feedback for the JIT (operand kinds, element kinds, call targets); `None`:
    /// never (nothing uses it). `Some(0)`: from its first call.
    pub profile_after: Option<u32>,
    /// The JIT (a build with the `jit` feature; ignored without): a function is compiled to
    /// machine code after this many calls, a loop after 64 times as many back-edges (a
    /// function of 256 bytecode instructions or more after one threshold per 128);
    /// `Some(0)` compiles every function at its first call. `None`: the interpreter only.
    /// Functions record feedback (see `profile_after`) from half the threshold on.
    pub jit_threshold: Option<u32>,
    /// Report each compile, OSR entry and exit of the JIT on stderr.
    pub jit_log: bool,
    /// Keep the MIR and machine code of everything the JIT compiles
    /// (`runtime_interface::jit_dumps`).
    pub jit_dump: bool,
    /// Append a line per compiled function to `/tmp/perf-<pid>.map`, the symbol map `perf`
    /// reads for code it finds no binary for.
    pub perf_map: bool,
    /// Define a global `gc()` that collects garbage at once (as node's `--expose-gc`).
    pub expose_gc: bool,
    /// Whether the main agent may block (`Atomics.wait`; `[[CanBlock]]` of 9.7): a host
    /// whose main thread must not stall sets it false, and `Atomics.wait` throws there.
    pub can_block: bool,
}

impl Default for RuntimeOptions {
    fn default() -> RuntimeOptions {
        RuntimeOptions {
            gc_stress: false,
            gc_verify: false,
            heap_limit: 3 << 30,
            max_stack_depth: 40_000,
            report_unhandled_rejections: true,
            profile_after: None,
            jit_threshold: None,
            jit_log: false,
            jit_dump: false,
            perf_map: false,
            expose_gc: false,
            can_block: true,
        }
    }
}

/// The compiler entry point the runtime uses for `$262.evalScript`, `run_script`, and
/// eval-like features: `(source, file name, kind) -> bundle bytes or "SyntaxError: ..."`.
pub type CompileHook = Box<dyn FnMut(&str, &str, SourceKind) -> Result<Vec<u8>, String>>;

/// What source text the compile hook is given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SourceKind {
    /// A script: its top-level `let`, `const` and `class` declarations join the realm's
    /// global lexical environment (`run_script`, `$262.evalScript`, the Function
    /// constructor's source).
    Script,
    /// Global eval code (an indirect `eval`): its lexical declarations are its own.
    Eval,
    /// Module code: the bundle carries its module record (the file name is its key).
    Module,
    /// Direct eval code, compiled against its caller's scope chain, given as text (see the
    /// compiler's `frontend::eval`).
    DirectEval(String),
    /// The source text of a function left uncompiled (`FunctionFlags::LAZY`), compiled on
    /// its first call against the description of the environments around its closures;
    /// function 1 of the bundle is the function.
    Function {
        /// The description of its scope (as for direct eval).
        scope: String,
        /// Its name.
        name: String,
    },
}

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

    /// The flag an interrupt sets, for a compile hook to stop at (the compiler's
    /// `CompileOptions::interrupt`): the runtime then throws the interrupt's error rather
    /// than the hook's.
    pub fn flag(&self) -> Arc<AtomicBool> {
        self.0.clone()
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
    /// The garbage-collected heap.
    pub(crate) heap: Heap,
    /// A heap-limit RangeError was thrown and no collection has brought the heap back
    /// under the limit since.
    out_of_memory_thrown: bool,
    /// Interned strings, and the names and well-known symbols the VM uses.
    pub(crate) atoms: AtomTable,
    pub(crate) names: Names,
    pub(crate) symbols: WellKnownSymbols,
    /// The GlobalSymbolRegistry of `Symbol.for` (shared by all realms).
    pub(crate) symbol_registry: HashMap<Vec<u16>, Value>,
    /// Every realm, and the index of the current one.
    pub(crate) realms: Vec<Realm>,
    pub(crate) realm: u32,
    /// While a realm's builtins are installed: the objects that grew a table of their own
    /// (see `builtins::settle_builtin_shapes`; kept alive until then).
    pub(crate) building_realm: Option<Vec<Gc<JsObject>>>,
    /// The register stack, its frames and the native calls in progress.
    pub(crate) calls: CallStack,
    /// The handle stack.
    pub(crate) roots: Roots,
    /// The loaded bundles and their inline caches.
    pub(crate) code: LoadedCode,
    /// What the VM keeps to go faster and can always rebuild.
    pub(crate) caches: Caches,
    /// The job queue and the promises rejected without a handler.
    pub(crate) jobs: JobQueue,
    /// The module map and the module loader.
    pub(crate) modules: modules::Modules,
    /// The pending exception (see the module docs) and its kind.
    pub(crate) exception: Value,
    pub(crate) exception_kind: ExceptionKind,
    /// Where an uncatchable exception (an interrupt, out of memory) was thrown: the stack
    /// trace lines its `JsError` reports, taken when it is thrown (the frames unwind after).
    uncatchable_trace: String,
    /// How many frames were on the stack when it was thrown.
    uncatchable_depth: usize,
    /// What the embedder chose: options, output, compiler, interrupt flag, builtin hooks.
    pub(crate) host: Host,
}

/// What the VM keeps to go faster: none of it changes behaviour, and all of it is either
/// weak (forgets what a collection did not reach) or refilled on demand.
pub(crate) struct Caches {
    /// The root shape of each (prototype, kind, inline capacity), weak.
    pub(crate) root_shapes: HashMap<RootShapeKey, Gc<Shape>>,
    /// The root shapes found last, direct-mapped by prototype: a constructor called with
    /// `new` finds the shape of `this` here rather than by hashing (cleared by every
    /// collection).
    pub(crate) recent_root_shapes: [Option<(RootShapeKey, Gc<Shape>)>; RECENT_ROOT_SHAPES],
    /// Bumped by every layout change of a prototype (inline caches of prototype hits check
    /// it). Boxed: compiled code reads it at its address, which must not move with the
    /// runtime.
    pub(crate) proto_epoch: Box<u32>,
    /// Strings of the numbers 0..256, made on demand.
    pub(crate) small_int_strings: Vec<Value>,
    /// One-unit strings of the Latin-1 units, made on demand.
    pub(crate) char_strings: Vec<Value>,
    /// Compiled matchers by (pattern, flags), shared by the RegExp objects made from the
    /// same source: a regular expression literal makes a new object every time it is
    /// evaluated, which must not mean a new compilation (see `builtins::regexp`).
    pub(crate) regexp_cache: HashMap<RegExpKey, std::rc::Rc<crate::object::regexp::Matcher>>,
    /// Where the properties `builtins::regexp` checks on %RegExp.prototype% are, and what
    /// they held when they last held the original natives (cleared by every collection,
    /// which may reuse the addresses it keys and holds).
    pub(crate) regexp_proto_slots: Option<ProtoSlots>,
    /// The slot of a RegExp's `lastIndex` in a shape (by address and dictionary version)
    /// where it is a writable data property (cleared by every collection).
    pub(crate) regexp_last_index: Option<((usize, u32), u32)>,
    /// For `instanceof`: functions' shapes whose `instanceof` is OrdinaryHasInstance, and
    /// where they keep `prototype` (see `Runtime::op_instance_of`). Cleared by every
    /// collection, which may reuse a shape's address.
    pub(crate) instance_of: [Option<(Gc<Shape>, u32)>; operators::SHAPE_CACHE_ENTRIES],
    /// For `new`: functions' shapes that hold `prototype` as an own data property, and
    /// where (see `Runtime::prototype_from_constructor`). Cleared by every collection.
    pub(crate) constructor_prototype: [Option<(Gc<Shape>, u32)>; operators::SHAPE_CACHE_ENTRIES],
}

/// What a root shape is found by: its prototype's bits, the object kind and the inline
/// capacity.
pub(crate) type RootShapeKey = (u64, CellKind, u8);

/// Entries of `Caches::recent_root_shapes`.
pub(crate) const RECENT_ROOT_SHAPES: usize = 16;

/// Room for the atoms and the root shapes a new runtime's realm makes (a test keeps them
/// in), so that its tables are allocated once, at their size: each step of a growing table
/// is an allocation of another size, and the first of each size touches a fresh page (a
/// hello-world bundle's start-up took a dozen page faults in rehashing these two).
pub(crate) const REALM_ATOMS: usize = 448;
pub(crate) const REALM_ROOT_SHAPES: usize = 56;

/// Properties found in a prototype's shape, and what they held when last checked.
pub(crate) struct ProtoSlots {
    /// The shape's address and dictionary version.
    pub(crate) version: (usize, u32),
    /// Each property's slot and whether it holds an accessor.
    pub(crate) slots: Box<[(u32, bool)]>,
    /// The slots' values when a check last found what it looks for in them (empty before):
    /// the same values (the same cells, while no collection ran) hold the same things.
    pub(crate) checked: Box<[Value]>,
}

impl Caches {
    fn new() -> Caches {
        Caches {
            root_shapes: HashMap::with_capacity(REALM_ROOT_SHAPES),
            recent_root_shapes: [None; RECENT_ROOT_SHAPES],
            proto_epoch: Box::new(0),
            small_int_strings: vec![Value::UNDEFINED; 256],
            char_strings: vec![Value::UNDEFINED; 256],
            regexp_cache: HashMap::new(),
            regexp_proto_slots: None,
            regexp_last_index: None,
            instance_of: [None; operators::SHAPE_CACHE_ENTRIES],
            constructor_prototype: [None; operators::SHAPE_CACHE_ENTRIES],
        }
    }

    /// Marks the cached strings (the weak entries are swept by `after_marking`).
    fn trace(&self, heap: &mut Heap) {
        for &v in self.small_int_strings.iter().chain(self.char_strings.iter()) {
            heap.mark_value(v);
        }
    }

    /// Forgets what the marking did not reach, before the cells are freed.
    fn after_marking(&mut self, heap: &Heap) {
        self.regexp_proto_slots = None;
        self.regexp_last_index = None;
        self.instance_of = [None; operators::SHAPE_CACHE_ENTRIES];
        self.constructor_prototype = [None; operators::SHAPE_CACHE_ENTRIES];
        self.recent_root_shapes = [None; RECENT_ROOT_SHAPES];
        self.root_shapes.retain(|_, s| heap.is_marked(*s));
    }
}

/// What the embedder chose, and the per-runtime state of the host hooks.
pub(crate) struct Host {
    pub(crate) options: RuntimeOptions,
    pub(crate) output: Box<dyn Write>,
    /// Whether `output` is flushed after each write (see `Runtime::set_output_buffered`).
    pub(crate) flush_each_write: bool,
    pub(crate) compiler: Option<CompileHook>,
    pub(crate) interrupt: Arc<AtomicBool>,
    pub(crate) gc_stress: bool,
    /// What the core needs from the builtins.
    pub(crate) hooks: &'static Hooks,
    /// State of Math.random.
    pub(crate) random_state: [u64; 2],
    /// What makes the runtimes of `$262.agent.start` (set by test262 hosts).
    pub(crate) agent_factory: Option<agents::AgentFactory>,
    /// This runtime's part among agents, once it has one.
    pub(crate) agent_role: Option<agents::AgentRole>,
    /// The `Atomics.waitAsync` waits not settled yet, and the doorbell their notifiers ring.
    pub(crate) async_waits: Vec<agents::AsyncWait>,
    pub(crate) doorbell: Arc<agents::Doorbell>,
    /// The time limit of each run from the host, if there is one.
    pub(crate) watchdog: Option<watchdog::Watchdog>,
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
    /// A block's new [[DisposeCapability]] (async or not), AddDisposableResource to it, and
    /// DisposeResources of it with a normal completion or a throw (see `BuiltinId`).
    pub new_dispose_capability: fn(&mut Runtime, bool) -> Value,
    pub add_disposable_resource: fn(&mut Runtime, Value, Value, bool) -> JsResult<()>,
    pub dispose_resources: fn(&mut Runtime, Value, Option<Value>) -> JsResult<Value>,
    /// A value as node's `util.inspect` shows it.
    pub inspect: fn(&mut Runtime, Value) -> String,
    /// The cleanup job of a FinalizationRegistry (its first value) with dead cells.
    pub finalization_cleanup: fn(&mut Runtime, &[Value; jobs::JOB_VALUES]) -> JsResult<()>,
    /// Resolves the promises of the `Atomics.waitAsync` waits of `Host::async_waits` that
    /// were notified or timed out; with `block`, first waits until there is one (the event
    /// loop, when no job is left).
    pub settle_async_waits: fn(&mut Runtime, bool) -> JsResult<()>,
    /// `import.meta` of the module whose module slot holds the value.
    pub import_meta: fn(&mut Runtime, Value) -> JsResult<Value>,
    /// `import(specifier, options)` in a phase: a promise of the namespace object.
    pub dynamic_import: fn(&mut Runtime, modules::Referrer, Value, Value, modules::ImportPhase) -> JsResult<Value>,
    /// EvaluateSync of a module (a deferred namespace is used): a TypeError if it cannot
    /// run synchronously, else its evaluation error if it threw.
    pub evaluate_sync: fn(&mut Runtime, u32) -> JsResult<()>,
    /// A direct `eval(...)` (the arguments of `BuiltinId::DirectEval`).
    pub direct_eval: fn(&mut Runtime, &[Value]) -> JsResult<Value>,
    /// Makes the builtin function properties of an object flagged `LAZY_BUILTINS` (and
    /// clears the flag).
    pub install_builtins: fn(&mut Runtime, Gc<JsObject>),
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

impl Runtime {
    /// A runtime with no realm yet, whose core reaches the layers above it through `hooks`
    /// (`Runtime::new`, in `builtins`, makes the first realm).
    pub(crate) fn with_hooks(mut options: RuntimeOptions, hooks: &'static Hooks) -> Runtime {
        if !cfg!(feature = "jit") {
            options.jit_threshold = None;
        }
        if let Some(t) = options.jit_threshold {
            // The JIT speculates on feedback: record it from half the threshold on.
            options.profile_after = Some(options.profile_after.map_or(t / 2, |p| p.min(t / 2)));
        }
        let mut heap = Heap::new(options.heap_limit, trace::CELL_OPS);
        let mut atoms = AtomTable::with_capacity(REALM_ATOMS);
        let names = Names::new(&mut heap, &mut atoms);
        let symbols = WellKnownSymbols::new(&mut heap);
        let interrupt = Arc::new(AtomicBool::new(false));
        Runtime {
            heap,
            out_of_memory_thrown: false,
            atoms,
            names,
            symbols,
            symbol_registry: HashMap::new(),
            realms: Vec::new(),
            building_realm: None,
            realm: 0,
            calls: CallStack::new(STACK_VALUES, stack_guard(), options.max_stack_depth, Arc::as_ptr(&interrupt)),
            roots: Roots::default(),
            code: LoadedCode::default(),
            caches: Caches::new(),
            jobs: JobQueue::default(),
            modules: modules::Modules::default(),
            exception: Value::UNDEFINED,
            exception_kind: ExceptionKind::Normal,
            uncatchable_trace: String::new(),
            uncatchable_depth: 0,
            host: Host {
                gc_stress: options.gc_stress,
                options,
                output: Box::new(std::io::stdout()),
                flush_each_write: true,
                compiler: None,
                interrupt,
                hooks,
                random_state: [0, 0],
                agent_factory: None,
                agent_role: None,
                async_waits: Vec::new(),
                doorbell: Arc::default(),
                watchdog: None,
            },
        }
    }

    /// Sets the compiler used by `run_script`, `$262.evalScript` and eval-like features.
    pub fn set_compiler(&mut self, hook: CompileHook) {
        self.host.compiler = Some(hook);
    }

    /// Sets where `print` and `console.log` write.
    pub fn set_output(&mut self, out: Box<dyn Write>) {
        self.host.output = out;
    }

    /// Whether what `print` and `console.log` write may stay in the output's buffer until
    /// the output is flushed (when it is dropped, or by `end_before_exit`) rather than be
    /// flushed after each write, the default. Buffered, a program that prints many lines
    /// to a file or a pipe makes one system call per buffer instead of one per line;
    /// flushed, each line shows at once and keeps its order with what the host writes
    /// elsewhere (stderr).
    pub fn set_output_buffered(&mut self, buffered: bool) {
        self.host.flush_each_write = !buffered;
    }

    /// A handle that interrupts running code from another thread.
    pub fn interrupt_handle(&self) -> InterruptHandle {
        InterruptHandle(self.host.interrupt.clone())
    }

    /// Verifies a bundle, runs its global code in the current realm, then drains the job
    /// queue (a microtask checkpoint). With `report_unhandled_rejections`, a promise
    /// rejected with no handler that still has none then is the error.
    pub fn run_bundle(&mut self, bytes: Vec<u8>) -> Result<(), JsError> {
        self.begin_run();
        self.run_global(|rt, realm| rt.eval_bundle_in(bytes, realm))
    }

    /// [`Runtime::run_bundle`] for a bundle already verified (a `Bundle` is one that
    /// `Bundle::from_bytes` accepted): a host that read it to look at it does not have it
    /// verified twice.
    pub fn run_verified_bundle(&mut self, bundle: bytecode::Bundle) -> Result<(), JsError> {
        self.begin_run();
        self.run_global(|rt, realm| rt.eval_verified(bundle, realm))
    }

    /// Gives each run from the host (a bundle, a script, a call or an evaluation through
    /// `api`, not the calls a running program makes back into the host) at most `limit`:
    /// past it the run stops as an interrupt stops it, with an uncatchable "execution
    /// interrupted" error. `None` removes the limit. Fails only when the watchdog thread
    /// cannot be started.
    pub fn set_time_limit(&mut self, limit: Option<std::time::Duration>) -> std::io::Result<()> {
        self.host.watchdog = match limit {
            Some(limit) => Some(watchdog::Watchdog::new(limit, self.host.interrupt.clone())?),
            None => None,
        };
        Ok(())
    }

    /// Starts a run from the host: an interrupt asked for before it is forgotten (one asked
    /// for from now on stops it, its compiling included), and the native stack's limit is
    /// taken from here.
    pub(crate) fn begin_run(&mut self) {
        match &self.host.watchdog {
            Some(w) => w.begin(),
            None => self.host.interrupt.store(false, Ordering::Relaxed),
        }
        self.calls.stack_guard = stack_guard();
    }

    /// Runs `eval` (a bundle's global code) in the current realm, then the job queue; the
    /// error is the JavaScript exception, or the first unhandled rejection.
    fn run_global(&mut self, eval: impl FnOnce(&mut Runtime, u32) -> JsResult<Value>) -> Result<(), JsError> {
        let realm = self.realm;
        let result = eval(self, realm).map(|_| ()).and_then(|_| self.run_jobs());
        result.map_err(|_| self.take_js_error())?;
        self.check_unhandled_rejections()
    }

    /// The error for the first tracked promise rejection that is still unhandled; forgets
    /// the others (the host reports one, as node does when it exits).
    pub(crate) fn check_unhandled_rejections(&mut self) -> Result<(), JsError> {
        let unhandled = self.take_unhandled_rejections();
        let Some(&promise) = unhandled.first() else { return Ok(()) };
        let reason = match self.promise_result(promise.gc()) {
            Some(Err(reason)) => reason,
            _ => Value::UNDEFINED,
        };
        let mut e = self.describe_thrown(reason);
        e.unhandled_rejection = true;
        Err(e)
    }

    /// Compiles `source` with the compile hook and runs it like `run_bundle`.
    pub fn run_script(&mut self, source: &str, file_name: &str) -> Result<(), JsError> {
        self.begin_run();
        let bytes = self.compile_script(source, file_name)?;
        self.run_global(|rt, realm| rt.eval_bundle_in(bytes, realm))
    }

    /// A script compiled by the compile hook.
    fn compile_script(&mut self, source: &str, file_name: &str) -> Result<Vec<u8>, JsError> {
        let Some(hook) = self.host.compiler.as_mut() else {
            return Err(JsError::plain("Error", "no compiler is installed (Runtime::set_compiler)"));
        };
        match hook(source, file_name, SourceKind::Script) {
            Ok(bytes) => Ok(bytes),
            // The hook stopped because the host interrupted it.
            Err(_) if self.host.interrupt.load(Ordering::Relaxed) => {
                let _ = self.throw_uncatchable(ExceptionKind::Interrupted);
                Err(self.take_js_error())
            }
            Err(msg) => Err(JsError::from_compile_error(&msg)),
        }
    }

    /// Runs `source` as a script and gives its completion value (not rooted); jobs stay
    /// queued. The caller starts the run (`begin_run`) if it is one from the host.
    pub(crate) fn evaluate(&mut self, source: &str, file_name: &str) -> Result<Value, JsError> {
        let bytes = self.compile_script(source, file_name)?;
        let realm = self.realm;
        self.eval_bundle_in(bytes, realm).map_err(|_| self.take_js_error())
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

    /// The realm's Private Name kept as intrinsic `i` (a property key scripts never see,
    /// described as `desc`), made on first use.
    pub(crate) fn realm_private_name(&mut self, i: Intrinsic, desc: &str) -> crate::object::shape::PropKey {
        let mut k = self.intrinsic(i);
        if !k.is_symbol() {
            let desc = self.new_string(desc);
            let mut sym = crate::object::Symbol::new(desc);
            sym.header.flags |= crate::object::PRIVATE_SYMBOL;
            k = Value::symbol(self.heap.alloc(sym));
            self.set_intrinsic(i, k);
        }
        crate::object::shape::PropKey::from_value(k)
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
        self.intrinsic(i).gc()
    }

    /// The global object of the current realm.
    #[inline(always)]
    pub(crate) fn global_object(&self) -> Gc<JsObject> {
        self.realms[self.realm as usize].global
    }

    /// The heap (read access).
    #[inline(always)]
    pub(crate) fn heap(&self) -> &Heap {
        &self.heap
    }

    /// The heap (write access).
    #[inline(always)]
    pub(crate) fn heap_mut(&mut self) -> &mut Heap {
        &mut self.heap
    }

    // ---- Handles ----------------------------------------------------------------------

    /// Roots `v` in the handle stack until the current native call returns.
    #[inline]
    pub(crate) fn root(&mut self, v: Value) -> Handle {
        self.roots.handles.push(v);
        Handle(self.roots.handles.len() - 1)
    }

    /// The value of a handle.
    #[inline]
    pub(crate) fn handle(&self, h: Handle) -> Value {
        self.roots.handles[h.0]
    }

    /// Updates a handle.
    #[inline]
    pub(crate) fn set_handle(&mut self, h: Handle, v: Value) {
        self.roots.handles[h.0] = v;
    }

    /// The current height of the handle stack (for `release_handles`).
    #[inline]
    pub(crate) fn handle_mark(&self) -> usize {
        self.roots.handles.len()
    }

    /// Drops the handles made since `mark`.
    #[inline]
    pub(crate) fn release_handles(&mut self, mark: usize) {
        self.roots.handles.truncate(mark);
    }

    // ---- Garbage collection ---------------------------------------------------------------

    /// A safepoint: collects if the allocation budget is spent (always under `gc_stress`),
    /// throws a RangeError if the heap is still over its limit, and honours interrupts.
    /// Every value the caller holds in Rust locals must be rooted.
    #[inline]
    pub(crate) fn safepoint(&mut self) -> JsResult<()> {
        if self.safepoint_due() {
            self.safepoint_slow()
        } else {
            Ok(())
        }
    }

    /// Whether a safepoint would do something (collect, or throw for an interrupt).
    #[inline]
    pub(crate) fn safepoint_due(&self) -> bool {
        self.host.gc_stress || self.heap.should_collect() || self.host.interrupt.load(Ordering::Relaxed)
    }

    /// Throws if the embedder asked to stop (for loops in natives that may run long but
    /// must not collect, because they hold unrooted values).
    #[inline]
    pub(crate) fn poll_interrupt(&mut self) -> JsResult<()> {
        if self.host.interrupt.load(Ordering::Relaxed) {
            return Err(self.throw_uncatchable(ExceptionKind::Interrupted));
        }
        Ok(())
    }

    #[cold]
    pub(crate) fn safepoint_slow(&mut self) -> JsResult<()> {
        if self.host.interrupt.load(Ordering::Relaxed) {
            return Err(self.throw_uncatchable(ExceptionKind::Interrupted));
        }
        if self.host.gc_stress || self.heap.should_collect() {
            self.collect_due_garbage();
            if self.heap.over_limit() {
                return Err(self.throw_out_of_memory());
            }
            self.out_of_memory_thrown = false;
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
        if self.out_of_memory_thrown && s.live_bytes + s.allocated_since_gc > limit + limit / 4 {
            return self.throw_uncatchable(ExceptionKind::OutOfMemory);
        }
        self.out_of_memory_thrown = true;
        self.throw_error(ErrorKind::RangeError, "Out of memory: the heap limit was reached")
    }

    /// Collects all garbage now (a full collection; one whose marking is under way ends
    /// first).
    pub(crate) fn collect_garbage(&mut self) {
        if self.heap.is_marking() {
            self.finish_collection(true);
        }
        self.collect(true);
    }

    /// The collection a safepoint makes when one is due: minor or full, as the heap's
    /// policy says (see `gc::heap`), a full one of a large heap marking in increments
    /// between which the program runs (each a later safepoint's work); under `gc_stress`,
    /// minor but for every eighth, and every other full one incremental. A minor one that
    /// leaves the heap over its limit is followed by a full one, and an incremental
    /// marking ends at once.
    fn collect_due_garbage(&mut self) {
        let stress = self.host.gc_stress;
        if self.heap.is_marking() {
            if self.heap.mark_increment() || self.heap.over_limit() {
                self.finish_collection(true);
            }
            return;
        }
        let collections = self.heap.stats().collections;
        let full = match stress {
            true => collections % 8 == 7,
            false => self.heap.wants_full_collection(),
        };
        let incremental = full
            && !self.heap.over_limit()
            && (if stress { collections % 16 == 7 } else { self.heap.wants_incremental() });
        if incremental {
            self.heap.begin_collection(true);
            self.mark_roots();
            self.heap.begin_marking(stress);
            return;
        }
        self.collect(full);
        if !full && self.heap.over_limit() {
            self.collect(true);
        }
    }

    /// A collection that stops the program from start to end.
    fn collect(&mut self, full: bool) {
        self.heap.begin_collection(full);
        self.mark_roots();
        self.heap.drain();
        self.finish_collection(false);
    }

    /// Ends the collection under way, whose marking is done (`incremental`: whose marking
    /// went on between increments, and now ends with the roots as they are).
    fn finish_collection(&mut self, incremental: bool) {
        if incremental {
            self.mark_roots();
            self.heap.finish_marking();
        }
        let full = self.heap.is_full_collection();
        // Under `gc_stress` (a collection at every safepoint), one minor collection in
        // four is verified: a whole-heap trace each time would take hours on the tests.
        // Every incremental marking is verified: the program wrote into the heap while it
        // was under way.
        let sampled = !self.host.gc_stress || self.heap.stats().collections.is_multiple_of(4);
        if cfg!(debug_assertions) && self.host.options.gc_verify && ((!full && sampled) || incremental) {
            self.verify_marking();
        }
        // Weak references and weak collections (whose ephemerons mark more), then the weak
        // tables drop what the marking did not reach, before the cells are freed.
        let registries = trace::after_marking(&mut self.heap);
        self.atoms.sweep(&self.heap);
        self.caches.after_marking(&self.heap);
        self.heap.sweep();
        // HostEnqueueFinalizationRegistryCleanupJob for the registries with dead cells.
        for r in registries {
            let reg = self.heap.get_mut(r);
            reg.job_queued = true;
            let realm = reg.realm;
            let mut values = [Value::UNDEFINED; jobs::JOB_VALUES];
            values[0] = Value::object(r.cast::<JsObject>());
            self.enqueue_job(jobs::Job { run: self.host.hooks.finalization_cleanup, values, realm });
        }
    }

    /// Marks every root.
    fn mark_roots(&mut self) {
        let heap = &mut self.heap;
        self.calls.trace(heap);
        self.roots.trace(heap);
        for r in &self.realms {
            r.trace(heap);
        }
        for &o in self.building_realm.iter().flatten() {
            heap.mark(o);
        }
        for k in self.names.all() {
            heap.mark_value(k.value());
        }
        for (_, k) in self.symbols.all() {
            heap.mark_value(k.value());
        }
        for &v in self.symbol_registry.values() {
            heap.mark_value(v);
        }
        self.code.trace(heap);
        self.caches.trace(heap);
        self.jobs.trace(heap);
        self.modules.trace(heap);
        heap.mark_value(self.exception);
    }

    /// `gc_verify`: traces the whole heap from the roots again, and panics at a reachable
    /// cell the marking (minor, or incremental) left unmarked.
    #[cold]
    fn verify_marking(&mut self) {
        self.heap.begin_verify();
        self.mark_roots();
        let missed = self.heap.end_verify();
        if let Some(&(cell, kind, from)) = missed.first() {
            panic!(
                "gc-verify: {} cells reachable from the roots were not marked by the collection, \
                 the first {cell:#x} ({}) from {from:#x} (a write without the write barrier?)",
                missed.len(),
                kind.description()
            );
        }
    }

    // ---- Exceptions ----------------------------------------------------------------------

    /// Throws `v`.
    #[cold]
    pub(crate) fn throw(&mut self, v: Value) -> Exception {
        self.exception = v;
        self.exception_kind = ExceptionKind::Normal;
        Exception
    }

    /// Throws an uncatchable exception.
    #[cold]
    pub(crate) fn throw_uncatchable(&mut self, kind: ExceptionKind) -> Exception {
        self.exception = Value::UNDEFINED;
        self.exception_kind = kind;
        self.uncatchable_trace = self.stack_trace();
        self.uncatchable_depth = self.calls.frames.len();
        Exception
    }

    /// Takes the stack trace of a pending uncatchable exception again when compiled code
    /// it was thrown in left through an exit, which set the frame's instruction index (and
    /// rebuilt the frames of inlined calls); not in the callers' exits as it unwinds.
    #[cfg(feature = "jit")]
    pub(crate) fn retrace_uncatchable(&mut self) {
        if self.exception_kind != ExceptionKind::Normal && self.calls.frames.len() >= self.uncatchable_depth {
            self.uncatchable_trace = self.stack_trace();
            self.uncatchable_depth = self.calls.frames.len();
        }
    }

    /// The pending exception value.
    pub(crate) fn exception(&self) -> Value {
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
    pub(crate) fn throw_type_error(&mut self, msg: &str) -> Exception {
        self.throw_error(ErrorKind::TypeError, msg)
    }

    /// Throws a new RangeError.
    #[cold]
    pub(crate) fn throw_range_error(&mut self, msg: &str) -> Exception {
        self.throw_error(ErrorKind::RangeError, msg)
    }

    /// Throws a new ReferenceError.
    #[cold]
    pub(crate) fn throw_reference_error(&mut self, msg: &str) -> Exception {
        self.throw_error(ErrorKind::ReferenceError, msg)
    }

    /// Throws a new SyntaxError.
    #[cold]
    pub(crate) fn throw_syntax_error(&mut self, msg: &str) -> Exception {
        self.throw_error(ErrorKind::SyntaxError, msg)
    }

    /// Throws a new error of `ty` with `msg`.
    #[cold]
    pub(crate) fn throw_error(&mut self, ty: ErrorKind, msg: &str) -> Exception {
        let e = self.new_error(ty, msg);
        self.throw(Value::object(e))
    }

    /// Checks the native re-entry depth and the Rust stack before entering the interpreter
    /// from native code.
    pub(crate) fn enter_native(&mut self) -> JsResult<()> {
        if self.calls.native_depth >= MAX_NATIVE_DEPTH || stack_address() < self.calls.stack_guard {
            return Err(self.throw_range_error("Maximum call stack size exceeded"));
        }
        self.calls.native_depth += 1;
        Ok(())
    }

    /// Leaves a native re-entry.
    #[inline]
    pub(crate) fn leave_native(&mut self) {
        self.calls.native_depth -= 1;
    }

    /// The callee of the running native function.
    pub(crate) fn native_callee(&self) -> Value {
        self.calls.native_callee
    }

    /// `new.target` of the running native function (undefined for a call).
    pub(crate) fn native_new_target(&self) -> Value {
        self.calls.native_new_target
    }

    /// Writes to the output (print, console.log).
    pub(crate) fn write_output(&mut self, text: &str) {
        let _ = self.host.output.write_all(text.as_bytes());
        if self.host.flush_each_write {
            let _ = self.host.output.flush();
        }
    }

    /// Allocates a string value.
    pub(crate) fn new_string(&mut self, s: &str) -> Value {
        Value::string(self.heap.alloc_str(s))
    }

    /// Allocates a string value from UTF-16 units.
    pub(crate) fn new_string_units(&mut self, units: &[u16]) -> Value {
        Value::string(self.heap.alloc_utf16(units))
    }

    /// Heap statistics.
    pub fn heap_stats(&self) -> HeapStats {
        self.heap.stats()
    }
}

impl Runtime {
    /// Ends the runtime of a process that exits next: does what dropping it does that can be
    /// seen (the output flushed, `IRIS_GC_STATS`) without freeing the heap cell by cell,
    /// which the exit does whole (75 µs for a new realm, far more for a large program).
    pub fn end_before_exit(mut self) {
        let _ = self.host.output.flush();
        self.report_gc_stats();
        std::mem::forget(self);
    }

    /// `IRIS_GC_STATS=1` prints the collector's counters (performance work).
    fn report_gc_stats(&self) {
        if std::env::var_os("IRIS_GC_STATS").is_some() {
            let s = self.heap.stats();
            eprintln!(
                "gc: {} collections ({} full, {} of them incremental), {} KiB live after the last, {} KiB footprint (peak {} KiB), {} KiB allocated since",
                s.collections,
                s.full_collections,
                s.incremental_collections,
                s.live_bytes / 1024,
                s.footprint / 1024,
                s.peak_footprint / 1024,
                s.allocated_since_gc / 1024
            );
        }
    }
}

impl Drop for Runtime {
    fn drop(&mut self) {
        self.report_gc_stats();
    }
}

/// An address on the current Rust stack (to measure how much of it is in use).
#[inline(never)]
pub(crate) fn stack_address() -> usize {
    let probe = 0u8;
    std::hint::black_box(&probe) as *const u8 as usize
}

/// The lowest stack address re-entries may reach on the stack this code runs on: a
/// thread's, or one `stacker::grow` switched to (as `iris` does for its program).
/// `stacker` asks the system for a thread's bounds once per thread and knows the stacks it
/// made.
pub(crate) fn stack_guard() -> usize {
    let here = stack_address();
    match stacker::remaining_stack() {
        Some(room) if room > 0 => here - room + RUST_STACK_RESERVE,
        // Unknown stack bounds: assume the common 2 MiB minimum below the current frame.
        _ => here.saturating_sub(2 << 20) + RUST_STACK_RESERVE,
    }
}

#[cfg(test)]
mod tests;
