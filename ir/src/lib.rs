//! Iris's high-level IR (HIR): a typed SSA form of JavaScript with explicit scopes,
//! exceptions, generators and side-effect labels, in the manner of Hermes's IR.
//!
//! ```text
//!  frontend (compiler::irgen) ──▶ Module { Function { Block { Inst } } }
//!                                   │  verify.rs checks well-formedness
//!                                   ▼
//!                    passes::pipeline (mem2reg, simplify_cfg, dce, ...)
//!                                   │
//!                                   ▼
//!                  backend (compiler::backend) lowers to bytecode
//! ```
//!
//! The IR is stored with index handles over dense vectors (`entity.rs`). Every instruction is
//! declared once, in the table of `inst/defs.rs`, with its operand arity, immediate kind,
//! side effects and result type rule.

#![warn(missing_docs)]

pub mod builder;
pub mod cancel;
pub mod cfg;
pub mod domtree;
pub mod dump;
pub mod effects;
pub mod entity;
pub mod function;
pub mod inst;
pub mod module;
pub mod parse;
pub mod passes;
pub mod timing;
pub mod types;
pub mod verify;

entity!(
    /// An SSA value: an instruction result or a literal.
    Value,
    "%"
);
entity!(
    /// An instruction of a function.
    Inst,
    "inst"
);
entity!(
    /// A basic block of a function.
    Block,
    "%BB"
);

pub use builder::Builder;
pub use effects::Effects;
pub use function::{Function, FunctionKind, Literal, TextRange, ValueDef};
pub use inst::{BinOp, ErrorKind, Imm, InstData, Loc, Opcode, UnOp};
pub use module::{
    Atom, ExportEntry, FuncId, ImportEntry, ImportName, Module, ModuleRecord, ModuleRequest, ScopeId, Var, VarKind,
};
pub use types::Type;
