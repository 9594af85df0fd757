//! Iris virtual machine: values, the garbage-collected heap, objects, strings, the
//! interpreter, the builtins and the embedding API.
//!
//! ```text
//!  bundle bytes ─▶ Runtime::run_bundle ─▶ verify (bytecode) ─▶ load (interp::code)
//!       ─▶ interp::run (frames on the register stack, inline caches)
//!       ─▶ object model (object/, string/) on the heap (gc/) ─▶ builtins/
//! ```
//!
//! Embedding: [`Runtime`], [`RuntimeOptions`], [`JsError`], [`InterruptHandle`],
//! [`CompileHook`]. The native tier sees the VM only through [`runtime_interface`]: layout
//! offsets and the helper functions compiled code may call.

pub mod builtins;
pub mod gc;
pub mod interp;
pub mod object;
pub mod runtime;
pub mod runtime_interface;
pub mod string;
pub mod value;

pub use runtime::{CompileHook, InterruptHandle, JsError, JsResult, Runtime, RuntimeOptions};
pub use value::Value;
