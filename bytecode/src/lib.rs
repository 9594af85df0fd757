//! Iris bytecode: the register-machine instruction set, its encoding, the bundle file format,
//! the disassembler and the bundle verifier.
//!
//! ```text
//!  opcodes.rs (the table) ──▶ Opcode, Inst, encode/decode, disassembly, operand checks
//!  compiler backend ──▶ BundleBuilder ──▶ bytes (.irb) ──▶ Bundle::from_bytes (verified) ──▶ vm
//! ```

#[macro_use]
pub mod opcodes;
#[macro_use]
pub mod builtins;
