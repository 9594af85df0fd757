//! Iris bytecode: the register-machine instruction set, its encoding, the bundle file format,
//! the disassembler and the bundle verifier.
//!
//! ```text
//!  opcodes.rs (the table) ──▶ Opcode, Inst, encode/decode (inst.rs), operand behaviour (operand.rs)
//!  builtins.rs (the table) ──▶ BuiltinId (builtin_id.rs)
//!  compiler backend ──▶ Assembler ──▶ FunctionDesc ──▶ BundleBuilder ──▶ bytes (.irb)
//!  bytes ──▶ Bundle::from_bytes (verify.rs) ──▶ vm;  Bundle ──▶ disassemble (disasm.rs)
//! ```
//!
//! Changing the opcode table, the builtin table or the bundle layout changes the format:
//! bump `BUNDLE_VERSION` and update the table snapshot (`tests/opcode_table.txt`).

#![warn(missing_docs)]
// Docs use the specification's `[[Slot]]` notation, which rustdoc would take for links.
#![allow(rustdoc::broken_intra_doc_links)]

#[macro_use]
pub mod opcodes;
#[macro_use]
pub mod builtins;

pub mod assembler;
pub mod builtin_id;
pub mod bundle;
pub mod disasm;
pub mod inst;
pub mod operand;
mod verify;

pub use assembler::{AsmError, Assembled, Assembler, Label};
pub use builtin_id::BuiltinId;
pub use bundle::{
    hash_source, Bundle, BundleBuilder, BundleError, BundleStr, ExportDesc, FunctionDesc, FunctionFlags,
    FunctionHeader, HandlerEntry, ImportDesc, Imported, ModuleDesc, RequestDesc, SourceMode, SourceRange, ValueKind,
    BUNDLE_MAGIC, BUNDLE_VERSION,
};
pub use disasm::{disassemble, disassemble_code};
pub use inst::{DecodeError, DecodeErrorKind, ErrorKind, Inst, Opcode};
pub use opcodes::OpFlags;
pub use operand::{OperandKind, OperandRole};
