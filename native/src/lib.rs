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
//!   ctx  ──▶ Context ┬ result    ◀── written by `return` (an i32 zero-extended, an f64's
//!                    │               bits, a value's bits) and by each helper call
//!                    ├ runtime   ──▶ the VM's runtime, opaque here, handed to helpers
//!                    ├ helpers   ──▶ [HelperEntry]: helper i of the interface's list
//!                    └ functions ──▶ [code entry]: compiled function i of the callee list
//!   regs ──▶ the frame's register window    read/written by load_reg/store_reg; an exit
//!                                           writes its live registers here, boxed
//!   args ──▶ [u64; n]                       parameter i of the MIR entry block in args[i]
//!                                           (i32 in the low half, f64 as its bits)
//!
//!   status 0      returned normally (result in ctx.result)
//!   status k + 1  left through exit e<k>: the interpreter resumes at that exit's bytecode
//!                 offset with the registers it lists already in `regs`
//!   status k + 1 | THREW    the same, taken because a helper threw: its exception is
//!                 pending in the runtime, and the interpreter throws it at that offset
//!   bits 40..48   why a check left (`mir::Reason`), for the log
//!
//!  helper call:  status = helpers[i](runtime, operands: *const u64, &ctx.result)
//!                0 = returned (result in ctx.result), 1 = threw
//!
//!  call of compiled function i (same convention, one window up):
//!
//!   regs ──▶ [ caller's window: W registers │ status │ callee's window ... ]
//!            W = Function::window() of the caller
//!
//!   status = functions[i](ctx, regs + W + 1, operands)
//!   0: returned (result in ctx.result). Otherwise the callee left compiled code through
//!   one of its exits: the caller stores that status in the slot below the callee's window
//!   and leaves through the call's exit with status (k + 1) | INNER (| THREW if the callee's
//!   has it). Following INNER statuses up the windows rebuilds every frame of the chain.
//! ```
//!
//! Code needs no relocations: everything it reaches comes through these pointers, and
//! everything it knows of the VM's objects (`Interface`) is handed to the compiler.

use std::ffi::c_void;

pub mod code_memory;
pub mod lower;
pub mod mir;
pub mod passes;
pub mod translate;

/// A helper's C-ABI entry: `status = entry(runtime, operands, result)` (see the crate
/// docs).
pub type HelperEntry = unsafe extern "C" fn(runtime: *mut c_void, operands: *const u64, result: *mut u64) -> u32;

/// The entry of compiled code (see the crate docs).
pub type CodeEntry = unsafe extern "C" fn(ctx: *mut Context, regs: *mut u64, args: *const u64) -> u64;

/// What compiled code receives as its first argument.
#[repr(C)]
#[derive(Debug)]
pub struct Context {
    /// The returned value's bits (also where helpers write theirs).
    pub result: u64,
    /// The runtime helpers act on.
    pub runtime: *mut c_void,
    /// The helper entries, in the order of `Interface::helpers`.
    pub helpers: *const HelperEntry,
    /// The compiled functions `call` reaches, in the order of the callee list the code was
    /// compiled with.
    pub functions: *const CodeEntry,
}

impl Context {
    /// A context for code that calls helpers of `runtime` through `helpers`.
    pub fn new(runtime: *mut c_void, helpers: &'static [HelperEntry]) -> Context {
        Context { result: 0, runtime, helpers: helpers.as_ptr(), functions: std::ptr::null() }
    }
}

impl Default for Context {
    /// A context for code that calls no helpers and no functions.
    fn default() -> Context {
        Context { result: 0, runtime: std::ptr::null_mut(), helpers: std::ptr::null(), functions: std::ptr::null() }
    }
}

/// The bit of a status that says a helper threw (see the crate docs).
pub const THREW: u64 = 1 << 32;
/// The bit of a status that says a called compiled function left through its exit first.
pub const INNER: u64 = 1 << 33;
/// Where a status keeps why a check left (`mir::Reason`, 8 bits).
pub const REASON_SHIFT: u32 = 40;

/// Offsets of the context's fields.
pub const CONTEXT_RESULT: usize = std::mem::offset_of!(Context, result);
pub const CONTEXT_RUNTIME: usize = std::mem::offset_of!(Context, runtime);
pub const CONTEXT_HELPERS: usize = std::mem::offset_of!(Context, helpers);
pub const CONTEXT_FUNCTIONS: usize = std::mem::offset_of!(Context, functions);

/// Everything the native tier knows of the VM, handed in by it
/// (`vm::runtime_interface`): how values are boxed, where objects keep their fields, and
/// which helpers there are.
#[derive(Clone, Debug)]
pub struct Interface {
    pub values: ValueLayout,
    pub objects: ObjectLayout,
    /// The helpers `call_helper` can name, in the order of the context's table.
    pub helpers: Vec<HelperSig>,
    /// How calls reach compiled callees without a helper in between, when the VM says.
    pub calls: Option<CallPath>,
}

/// A quicker way for one helper's calls (the VM's `call`) when the callee has compiled
/// code: the caller's code checks the callee, pushes its frame on the VM's stacks, calls its
/// code and pops the frame itself, from what the VM says of where those are. Anything else
/// (no code, fewer arguments than its parameters, a stack full, an interrupt or a collection
/// due) goes to the helper.
///
/// ```text
///  callee: an object ─▶ a closure cell ─▶ its function's Direct record
///           code ≠ 0, params ≤ argc, room for argc + room values and one more frame
///  push:    stack[len..] = the argc arguments, then the frame_size registers (which the
///           callee's code sets to undefined before anything can see them)
///           frames[depth] = { info, closure, base, args, argc, flags: ENTRY, saved realm }
///           the caller's frame ip = the call's; realm = the callee's
///  status = code(ctx, &its registers, &its arguments)
///     0: returned (result in ctx.result): pop (lengths and realm back)
///     else: it left ─▶ left(runtime, [status, compiled], &ctx.result), a helper's
///           convention: the VM finishes the callee's frame (resumes the interpreter at
///           the exit, or unwinds what it threw) and gives its result, or throws
/// ```
#[derive(Clone, Debug)]
pub struct CallPath {
    /// The helper whose calls take this path.
    pub helper: String,
    /// The C-ABI function (a `HelperEntry`) for a callee that left its code.
    pub left: usize,
    /// Byte offsets from the runtime pointer: the register stack's first value's address
    /// (a pointer), its length and its limit (in values, usize); the frame stack's first
    /// frame (a pointer), its length and its limit (usize); the lowest machine stack
    /// address calls may reach (usize); a pointer to the interrupt flag (a byte); the GC
    /// stress flag (a byte); the current realm (u32).
    pub stack_ptr: i32,
    pub stack_len: i32,
    pub stack_limit: i32,
    pub frames_ptr: i32,
    pub frames_len: i32,
    pub frames_limit: i32,
    pub stack_guard: i32,
    pub interrupt: i32,
    pub gc_stress: i32,
    pub realm: i32,
    /// Byte offset from a closure's function pointer of its record for direct calls: the
    /// code's address (0: none) and `Compiled` (pointers), then as u32: arguments it takes,
    /// registers it may write, its frame size and realm.
    pub direct_code: i32,
    pub direct_compiled: i32,
    pub direct_params: i32,
    pub direct_room: i32,
    pub direct_frame_size: i32,
    pub direct_realm: i32,
    /// A frame: its size and the byte offsets of its fields (pointers and values are 8
    /// bytes, the rest u32 but the flags, a byte), and the flags of a frame entered from
    /// outside the interpreter.
    pub frame_size: i32,
    pub frame_info: i32,
    pub frame_closure: i32,
    pub frame_new_target: i32,
    pub frame_generator: i32,
    pub frame_base: i32,
    pub frame_args: i32,
    pub frame_argc: i32,
    pub frame_ip: i32,
    pub frame_ret_reg: i32,
    pub frame_flags: i32,
    pub frame_saved_realm: i32,
    pub entry_flags: u8,
}

/// A compiled function a `call` may reach: its name and how many values it takes (every
/// parameter and the result of a callee are `value`s).
#[derive(Clone, Debug)]
pub struct Callee {
    pub name: String,
    pub arity: usize,
}

/// A runtime helper as compiled code sees it.
#[derive(Clone, Debug)]
pub struct HelperSig {
    pub name: String,
    /// How many value operands it takes.
    pub arity: usize,
    /// It runs no JavaScript, never collects and does not use the frame: code calls it
    /// without storing its registers first, from an inlined callee too.
    pub pure: bool,
}

/// Byte offsets in the VM's cells (see `vm::runtime_interface::layout`).
#[derive(Clone, Copy, Debug)]
pub struct ObjectLayout {
    /// An object's shape pointer.
    pub shape: i32,
    /// An object's out-of-line slot vector (pointer, or null).
    pub slots: i32,
    /// An object's element vector (pointer, or null).
    pub elements: i32,
    /// An array's `length` (u32).
    pub array_length: i32,
    /// A value vector's length (u32).
    pub vec_len: i32,
    /// A value vector's first value.
    pub vec_data: i32,
    /// Every cell's kind byte, and the kind byte of an environment (a scope of captured
    /// variables).
    pub cell_kind: i32,
    pub env_kind: u8,
    /// Every cell's mark byte: the write barrier calls helper `write_barrier` when it is
    /// 1 or 2 (an old cell not remembered yet) before a pointer is stored into the cell.
    pub cell_mark: i32,
    /// The kind byte of an array.
    pub array_kind: u8,
    /// The kind byte of a closure (a function made from bytecode), and where a closure
    /// keeps its function (a pointer the VM identifies the function by).
    pub closure_kind: u8,
    pub closure_func: i32,
    /// An environment's number of slots (u32) and its first slot.
    pub env_size: i32,
    pub env_slots: i32,
    /// A dictionary-mode shape's version (u32): bumped when a property is removed or
    /// changes attributes.
    pub shape_dict_version: i32,
    /// A cell's flags byte, and the object flags that say whether properties can be added
    /// by a shape transition: extensible, and not a prototype (whose changes other objects'
    /// caches check).
    pub cell_flags: i32,
    pub extensible: u8,
    pub is_prototype: u8,
}

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
    /// Tag of an internal cell (an environment, ...).
    pub tag_cell: u64,
    pub canonical_nan: u64,
    pub undefined: u64,
    pub null: u64,
    pub true_: u64,
    pub false_: u64,
    pub empty: u64,
}

/// A VM description for unit tests: the VM's boxing, and objects laid out as
/// [shape, slots, elements, length] in 8-byte words, value vectors as [len, data...],
/// environments as [kind byte at 0, size at 4, slots from 16]; with `helpers` (name, arity).
#[cfg(test)]
pub(crate) fn test_interface(helpers: &[(&str, usize)]) -> Interface {
    let values = ValueLayout {
        tag_shift: 48,
        payload_mask: (1 << 48) - 1,
        first_tag: 0xfff9,
        tag_object: 0xfffa,
        tag_string: 0xfffb,
        tag_symbol: 0xfffc,
        tag_bigint: 0xfffd,
        tag_cell: 0xfffe,
        canonical_nan: 0x7ff8_0000_0000_0000,
        undefined: 0xfff9 << 48,
        null: (0xfff9 << 48) | 1,
        false_: (0xfff9 << 48) | 2,
        true_: (0xfff9 << 48) | 3,
        empty: (0xfff9 << 48) | 4,
    };
    let objects = ObjectLayout {
        shape: 0,
        slots: 8,
        elements: 16,
        array_length: 24,
        vec_len: 0,
        vec_data: 8,
        cell_kind: 0,
        cell_mark: 1,
        env_kind: 1,
        array_kind: 3,
        closure_kind: 4,
        closure_func: 32,
        env_size: 4,
        env_slots: 16,
        shape_dict_version: 8,
        cell_flags: 2,
        extensible: 1,
        is_prototype: 2,
    };
    let helpers = helpers
        .iter()
        .map(|&(name, arity)| HelperSig {
            name: name.to_string(),
            arity,
            pure: matches!(name, "create_this" | "typed_get" | "typed_set"),
        })
        .collect();
    Interface { values, objects, helpers, calls: None }
}
