//! The Iris compiler: JavaScript source to bytecode bundles.
//!
//! ```text
//!  source ─ frontend (swc parse, early errors) ─▶ AST ─ irgen ─▶ HIR (ir::Module)
//!  HIR ─ ir::passes pipeline ─▶ optimized HIR ─ backend (lower, regalloc, emit) ─▶ bundle bytes
//! ```
//! `driver` strings the stages together for the `iris` CLI, the test262 runner and the VM's
//! compile hook (eval, `$262.evalScript`, modules).

pub mod backend;
pub mod driver;
pub mod frontend;
pub mod irgen;
