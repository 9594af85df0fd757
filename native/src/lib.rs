//! The native tier of Iris: MIR, its passes, register allocation, the x86-64 and AArch64
//! encoders and executable memory, fed by the translation of hot bytecode.
//!
//! Nothing is compiled natively yet; the crate exists so that the dependency directions of
//! the workspace (native depends only on bytecode; the VM hands it a runtime interface) are
//! fixed from the start.
