//! Iris virtual machine: values, the garbage-collected heap, objects, strings, the
//! interpreter, the builtins and the embedding API.
//!
//! ```text
//!  bundle bytes ─▶ Runtime::run_bundle ─▶ verify (bytecode) ─▶ load (runtime::bundles)
//!       ─▶ interp::run (frames on the register stack, inline caches)
//!       ─▶ object model (object/, string/) on the heap (gc/) ─▶ builtins/
//! ```
//!
//! The modules are layered; each imports only from its own layer and the layers below it
//! (`layering::modules_import_only_from_lower_layers` checks every `crate::` path against
//! this drawing):
//!
//! ```text
//!  layer 5  api                          the embedding API: values held by the host, evaluation
//!                                        with a completion value, properties, calls
//!  layer 4  builtins                     the global objects and their functions; `Runtime::new`
//!                                        fills `runtime::Hooks` with what the layers below call
//!  layer 3  interp, runtime_interface, jit   the interpreter; what native code may know of the
//!                                        VM; running hot code as machine code
//!  layer 2  runtime                      realms and intrinsics, errors, conversions, operators,
//!                                        property operations, iteration, the job queue, call
//!                                        frames, function objects, tracing; reaches the
//!                                        interpreter only through `Runtime::call`/`construct`
//!  layer 1  string, object, code         strings and atoms, shapes and objects, loaded bytecode
//!                                        and inline caches
//!  layer 0  value, gc                    NaN-boxed values, the heap (which traces cells through
//!                                        the `CellOps` the runtime gives it)
//! ```
//!
//! Embedding: [`Runtime`], [`RuntimeOptions`], [`JsError`], [`InterruptHandle`],
//! [`CompileHook`], and [`api`]'s [`JsValue`] handles. The native tier sees the VM only through [`runtime_interface`]: layout
//! offsets and the helper functions compiled code may call.

pub mod api;
pub(crate) mod builtins;
pub(crate) mod code;
pub(crate) mod gc;
pub(crate) mod interp;
#[cfg(feature = "jit")]
pub(crate) mod jit;
pub(crate) mod object;
pub(crate) mod runtime;
pub mod runtime_interface;
pub(crate) mod string;
pub(crate) mod value;

#[cfg(test)]
mod layering;

pub use api::{HostFn, JsType, JsValue, PromiseState, PromiseWithResolvers};
pub use gc::heap::HeapStats;
pub use runtime::agents::AgentFactory;
pub use runtime::modules::{ModuleLoader, ModuleSource, ModuleValue};
pub use runtime::{CompileHook, InterruptHandle, JsError, JsResult, Runtime, RuntimeOptions, SourceKind};
pub use value::Value;
