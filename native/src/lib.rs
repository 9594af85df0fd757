//! The native tier of Iris: MIR, its passes, lowering to machine code for x86-64 and
//! AArch64 through Cranelift, and executable memory; fed (next) by the translation of hot
//! bytecode.
//!
//! ```text
//!  bytecode + feedback ─▶ MIR (mir) ─ passes ─▶ lower (Cranelift) ─▶ bytes ─▶ code_memory (W^X)
//! ```
//!
//! # Calling convention of compiled code
//!
//! ```text
//!  status = code(ctx: *mut Context, regs: *mut u64, args: *const u64)    (C ABI of the target)
//!
//!   ctx  ──▶ Context { result: u64 }       written by `return` (an i32 zero-extended,
//!                                           an f64's bits, a value's bits)
//!   regs ──▶ the frame's register window    read/written by load_reg/store_reg; an exit
//!                                           writes its live registers here, boxed
//!   args ──▶ [u64; n]                       parameter i of the MIR entry block in args[i]
//!                                           (i32 in the low half, f64 as its bits)
//!
//!   status 0      returned normally (result in ctx.result)
//!   status k + 1  left through exit e<k>: the interpreter resumes at that exit's bytecode
//!                 offset with the registers it lists already in `regs`
//! ```
//!
//! Code needs no relocations: everything it reaches comes through these pointers.

pub mod code_memory;
pub mod lower;
pub mod mir;
pub mod passes;

/// What compiled code receives as its first argument.
#[repr(C)]
#[derive(Debug, Default)]
pub struct Context {
    /// The returned value's bits.
    pub result: u64,
}

/// Offset of `Context::result`.
pub const CONTEXT_RESULT: usize = std::mem::offset_of!(Context, result);

/// The NaN-boxing of values, as the VM defines it (`vm::runtime_interface::layout`); the
/// native tier knows the VM only through what it is handed.
#[derive(Clone, Copy, Debug)]
pub struct ValueLayout {
    pub tag_shift: u32,
    pub payload_mask: u64,
    /// Tags at or above this are not numbers.
    pub first_tag: u64,
    pub tag_object: u64,
    pub tag_string: u64,
    pub tag_symbol: u64,
    pub tag_bigint: u64,
    pub canonical_nan: u64,
    pub undefined: u64,
    pub null: u64,
    pub true_: u64,
    pub false_: u64,
    pub empty: u64,
}
