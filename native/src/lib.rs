//! The native tier of Iris: MIR, its passes, lowering to machine code for x86-64 and
//! AArch64, and executable memory, fed by the translation of hot bytecode.
//!
//! ```text
//!  bytecode + feedback ─▶ MIR (mir) ─ passes ─▶ Cranelift IR ─▶ x86-64 / AArch64 ─▶ code memory
//! ```
//!
//! What exists so far is the MIR itself: its data structures, effects, text form (printed
//! and parsed back) and verifier. The passes, the lowering and the code memory follow.

pub mod mir;
pub mod passes;
