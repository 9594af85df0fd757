//! MIR: the native tier's machine-level SSA IR.
//!
//! ```text
//!  Function ── params: [Type]        the entry block's parameters
//!     │
//!     ├─ blocks (in layout order) ── Block { params: [Val], insts: [Inst], loop header?, OSR offset? }
//!     │                                 each Inst: optional result Val + Op (+ exit id for checks)
//!     ├─ values ── Val ─▶ { type, defined by: block parameter | instruction }
//!     └─ exits ── ExitId ─▶ ExitState { bytecode offset, [(interpreter register, ExitValue)] }
//! ```
//!
//! Values are typed (`i32`, `i64`, `f64`, `ptr`, and `value`, a NaN-boxed JavaScript value;
//! booleans are `i32`). Control flow passes values to blocks as arguments (Cranelift's block
//! parameters, not phis). Every instruction's effects are read/write sets over abstract heaps
//! (`effects`), so passes ask what an instruction touches and never keep lists of opcodes.
//!
//! An instruction that can fail speculation (`check`, an overflow-checked add, an unbox, a
//! shape guard, a bounds-checked element access) names an *exit*: the bytecode offset where
//! the interpreter resumes and, for each live interpreter register, the MIR value that holds
//! it (boxed, i32 or f64, by the value's type) or a constant. This is B3's `Check`; leaving
//! compiled code through an exit stores the state into the interpreter frame.
//!
//! The text form (`text`) prints and parses back to the same function; `verify` checks a
//! function and reports every error it finds.

pub mod effects;
pub mod parse;
pub mod text;
pub mod verify;

use std::fmt;

/// A value type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    I32,
    I64,
    F64,
    /// A machine pointer (64 bits on both targets).
    Ptr,
    /// A NaN-boxed JavaScript value (64 bits; see `vm::runtime_interface::layout`).
    Value,
}

impl Type {
    /// The name in the text form.
    pub fn name(self) -> &'static str {
        match self {
            Type::I32 => "i32",
            Type::I64 => "i64",
            Type::F64 => "f64",
            Type::Ptr => "ptr",
            Type::Value => "value",
        }
    }

    /// The type named `name`.
    pub fn from_name(name: &str) -> Option<Type> {
        Some(match name {
            "i32" => Type::I32,
            "i64" => Type::I64,
            "f64" => Type::F64,
            "ptr" => Type::Ptr,
            "value" => Type::Value,
            _ => return None,
        })
    }

    /// Whether integer arithmetic applies.
    pub fn is_int(self) -> bool {
        matches!(self, Type::I32 | Type::I64 | Type::Ptr)
    }
}

/// An SSA value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Val(pub u32);

/// A basic block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Block(pub u32);

/// An exit (a described interpreter state to resume at).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExitId(pub u32);

impl fmt::Display for Val {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}", self.0)
    }
}
impl fmt::Display for Block {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "block{}", self.0)
    }
}
impl fmt::Display for ExitId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "e{}", self.0)
    }
}

/// Integer comparison conditions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntCC {
    Eq,
    Ne,
    Slt,
    Sle,
    Sgt,
    Sge,
    Ult,
    Ule,
    Ugt,
    Uge,
}

/// Float comparison conditions (ordered; `ne` is true for NaN operands, like `!=` in JS).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatCC {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl FloatCC {
    /// The signed integer condition that says the same of int32s (which have no NaN).
    pub fn for_int32s(self) -> IntCC {
        match self {
            FloatCC::Eq => IntCC::Eq,
            FloatCC::Ne => IntCC::Ne,
            FloatCC::Lt => IntCC::Slt,
            FloatCC::Le => IntCC::Sle,
            FloatCC::Gt => IntCC::Sgt,
            FloatCC::Ge => IntCC::Sge,
        }
    }
}

/// Binary integer operations (same-typed operands and result).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntOp {
    Add,
    Sub,
    Mul,
    And,
    Or,
    Xor,
    /// Shift left by the low 5 (i32) or 6 (i64) bits of the right operand.
    Shl,
    /// Arithmetic shift right.
    Sshr,
    /// Logical shift right.
    Ushr,
}

/// Binary f64 operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatOp {
    Add,
    Sub,
    Mul,
    Div,
}

/// i32 arithmetic that exits on signed overflow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CheckedOp {
    Add,
    Sub,
    Mul,
}

/// The kinds a `value` can be tested for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tag {
    Number,
    Object,
    String,
    Symbol,
    BigInt,
    Undefined,
    Null,
    Boolean,
}

/// An f64 constant, compared and hashed by its bits (so NaN equals itself and -0 differs
/// from 0, as the same text must give the same IR and value numbering must not merge them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ieee64(u64);

impl Ieee64 {
    pub fn new(x: f64) -> Ieee64 {
        Ieee64(x.to_bits())
    }
    pub fn get(self) -> f64 {
        f64::from_bits(self.0)
    }
}

/// A constant JavaScript value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JsConst {
    Undefined,
    Null,
    True,
    False,
    /// The interpreter's empty marker (a hole, an uninitialized binding).
    Empty,
    Number(Ieee64),
}

/// Why code leaves through an exit, for the log: what a `check` or `deopt` says (`check.shape`
/// in the text form; plain `check` says nothing more), and what the other instructions that
/// can leave imply (`unbox_i32`: not an int32 ...). Compiled code puts it in the status
/// (`Reason::status_bits`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Reason {
    #[default]
    Check,
    /// An object of a shape the code was not made for.
    Shape,
    /// A prototype changed its layout since the code was made (the epoch moved).
    Prototype,
    /// Another function than the one the code inlined, or another value than it expected.
    Callee,
    /// A slot held the empty marker.
    Empty,
    /// An object that cannot take a property by the transition (not extensible, or a
    /// prototype).
    NotExtensible,
    /// -0 where an int32 was expected.
    MinusZero,
    /// An instruction that never ran before the code was made.
    Unprofiled,
    /// An instruction the code does not run (or, in an inlined callee, one that needs the
    /// VM).
    Unsupported,
    /// Int32 arithmetic overflowed.
    Overflow,
    NotInt32,
    NotNumber,
    NotObject,
    /// A number out of the range of a fast conversion.
    OutOfRange,
    /// No element there: out of bounds, or a hole.
    NoElement,
    NotEnvironment,
}

impl Reason {
    pub const ALL: [Reason; 16] = [
        Reason::Check,
        Reason::Shape,
        Reason::Prototype,
        Reason::Callee,
        Reason::Empty,
        Reason::NotExtensible,
        Reason::MinusZero,
        Reason::Unprofiled,
        Reason::Unsupported,
        Reason::Overflow,
        Reason::NotInt32,
        Reason::NotNumber,
        Reason::NotObject,
        Reason::OutOfRange,
        Reason::NoElement,
        Reason::NotEnvironment,
    ];

    /// The suffix in the text form (`check.shape`).
    pub fn name(self) -> &'static str {
        match self {
            Reason::Check => "check",
            Reason::Shape => "shape",
            Reason::Prototype => "prototype",
            Reason::Callee => "callee",
            Reason::Empty => "empty",
            Reason::NotExtensible => "not_extensible",
            Reason::MinusZero => "minus_zero",
            Reason::Unprofiled => "unprofiled",
            Reason::Unsupported => "unsupported",
            Reason::Overflow => "overflow",
            Reason::NotInt32 => "not_int32",
            Reason::NotNumber => "not_number",
            Reason::NotObject => "not_object",
            Reason::OutOfRange => "out_of_range",
            Reason::NoElement => "no_element",
            Reason::NotEnvironment => "not_environment",
        }
    }

    /// What it says, for a log.
    pub fn describe(self) -> &'static str {
        match self {
            Reason::Check => "a check failed",
            Reason::Shape => "an object of another shape",
            Reason::Prototype => "a prototype changed",
            Reason::Callee => "another callee or value",
            Reason::Empty => "an empty slot",
            Reason::NotExtensible => "an object that cannot take the property",
            Reason::MinusZero => "-0",
            Reason::Unprofiled => "code that had not run",
            Reason::Unsupported => "code the JIT does not run",
            Reason::Overflow => "int32 overflow",
            Reason::NotInt32 => "not an int32",
            Reason::NotNumber => "not a number",
            Reason::NotObject => "not an object",
            Reason::OutOfRange => "a number out of range",
            Reason::NoElement => "no element there",
            Reason::NotEnvironment => "not an environment",
        }
    }

    /// The reason's bits in a status (see the crate docs).
    pub fn status_bits(self) -> u64 {
        (self as u64) << crate::REASON_SHIFT
    }

    /// The reason a status carries.
    pub fn of_status(status: u64) -> Reason {
        let n = ((status >> crate::REASON_SHIFT) & 0xff) as usize;
        Reason::ALL.get(n).copied().unwrap_or_default()
    }
}

/// 2^63: `to_int32` is exact below this magnitude (where an f64 truncates to an i64).
pub const TWO_TO_63: f64 = 9_223_372_036_854_775_808.0;

/// What an instruction does. Operands are `Val`s; an exit, where there is one, is in
/// `Inst::exit`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// An integer constant of type i32, i64 or ptr.
    Iconst(Type, i64),
    /// An f64 constant.
    Fconst(Ieee64),
    /// A JavaScript constant as a `value`.
    Vconst(JsConst),
    /// Integer arithmetic: i32, i64 or ptr (and `ptr ± i64`, address arithmetic).
    Int(IntOp, Val, Val),
    /// i32 arithmetic with an overflow exit.
    Checked(CheckedOp, Val, Val),
    /// Integer comparison (i32 result, 0 or 1).
    Icmp(IntCC, Val, Val),
    /// f64 arithmetic.
    Float(FloatOp, Val, Val),
    /// f64 negation.
    Fneg(Val),
    /// f64 comparison (i32 result).
    Fcmp(FloatCC, Val, Val),
    /// i32 to f64.
    I32ToF64(Val),
    /// f64 to i32 when exact (not fractional, in range, not -0); exits otherwise.
    F64ToI32(Val),
    /// f64 to i32 as ToInt32 does (truncated, modulo 2^32; NaN is 0); exits when the
    /// magnitude is 2^63 or more (infinities included).
    ToInt32(Val),
    /// i32 sign-extended to i64.
    Sext(Val),
    /// i64 (or ptr) truncated to i32.
    Trunc(Val),
    /// A value's bits as an i64 (to compare with the bits of a constant).
    Bits(Val),
    /// An i64 as a value's bits (which must be a valid value: a boolean made from a
    /// comparison, a constant's bits).
    FromBits(Val),
    /// An i32 as a number value.
    BoxI32(Val),
    /// An f64 as a number value (NaN canonicalized).
    BoxF64(Val),
    /// An object pointer as a value.
    BoxObject(Val),
    /// A number value that holds an int32; exits otherwise.
    UnboxI32(Val),
    /// A number value as f64; exits if it is not a number.
    UnboxF64(Val),
    /// An object value's pointer; exits if it is not an object.
    UnboxObject(Val),
    /// Whether a value is of a kind (i32).
    TagIs(Tag, Val),
    /// Exits when the i32 condition is non-zero, for a reason.
    Check(Val, Reason),
    /// An object's shape pointer.
    LoadShape(Val),
    /// Sets an object's shape pointer (a property added by a shape transition).
    StoreShape(Val, Val),
    /// Exits unless the object's shape is the given pointer.
    GuardShape(Val, Val),
    /// The in-object slot at byte offset `n` of an object (the location an inline cache
    /// records for the object's shape).
    LoadSlot(Val, u32),
    StoreSlot(Val, u32, Val),
    /// Slot `n` of an object's out-of-line slot vector (which its shape says is that long).
    LoadOolSlot(Val, u32),
    StoreOolSlot(Val, u32, Val),
    /// Slot `n` of an environment (a scope of captured variables); exits unless the value
    /// is an environment with that slot.
    LoadEnv(Val, u32),
    StoreEnv(Val, u32, Val),
    /// An array's `length` (i32); exits when it is beyond int32.
    ArrayLength(Val),
    /// Element `index` (i32) of an object's dense elements; exits when out of bounds or a
    /// hole.
    LoadElem(Val, Val),
    /// Whether element `index` (i32) of an object's dense elements is there: in bounds and
    /// not a hole (i32, 0 or 1), so that `load_elem` and `store_elem` would not exit.
    HasElem(Val, Val),
    /// Overwrites element `index` of an object's dense elements; exits when out of bounds
    /// or a hole (filling a hole may need a setter of the prototype chain).
    StoreElem(Val, Val, Val),
    /// Defines element `index` (i32) of an array literal being made (`new_array` and its
    /// elements, before the program can see the array): a store into its dense elements,
    /// hole or not; exits when out of bounds.
    InitElem(Val, Val, Val),
    /// Register `n` of the interpreter frame's register window.
    LoadReg(u32),
    StoreReg(u32, Val),
    /// Raw memory at `ptr + offset` (kernels over native buffers; never a heap cell, as
    /// a store here has no write barrier).
    Load(Type, Val, i32),
    Store(Val, i32, Val),
    /// Calls runtime helper `name` (see `vm::runtime_interface`) with values; may run
    /// JavaScript. Returns a value; exits when the helper throws.
    CallHelper(String, Vec<Val>),
    /// Calls compiled function `name` with values; exits when it throws.
    Call(String, Vec<Val>),
    /// Ends the block: to `target` with arguments.
    Jump(Block, Vec<Val>),
    /// Ends the block: to `then` if the i32 condition is non-zero, else `else_`.
    Brif(Val, Block, Vec<Val>, Block, Vec<Val>),
    /// Ends the block: returns a value.
    Return(Val),
    /// Ends the block: leaves through the instruction's exit unconditionally, for a
    /// reason.
    Deopt(Reason),
}

impl Op {
    /// Whether the instruction ends its block.
    pub fn is_terminator(&self) -> bool {
        matches!(self, Op::Jump(..) | Op::Brif(..) | Op::Return(_) | Op::Deopt(_))
    }

    /// Whether the instruction needs an exit (it can leave compiled code).
    pub fn needs_exit(&self) -> bool {
        matches!(
            self,
            Op::Checked(..)
                | Op::F64ToI32(_)
                | Op::ToInt32(_)
                | Op::UnboxI32(_)
                | Op::UnboxF64(_)
                | Op::UnboxObject(_)
                | Op::Check(..)
                | Op::GuardShape(..)
                | Op::ArrayLength(_)
                | Op::LoadEnv(..)
                | Op::StoreEnv(..)
                | Op::LoadElem(..)
                | Op::StoreElem(..)
                | Op::InitElem(..)
                | Op::CallHelper(..)
                | Op::Call(..)
                | Op::Deopt(_)
        )
    }

    /// The operands, in order (the order `map_args` visits them).
    pub fn args(&self) -> Vec<Val> {
        let mut out = Vec::new();
        self.clone().map_args(|v| {
            out.push(v);
            v
        });
        out
    }

    /// Replaces every operand with `f(operand)`.
    pub fn map_args(&mut self, mut f: impl FnMut(Val) -> Val) {
        match self {
            Op::Iconst(..) | Op::Fconst(_) | Op::Vconst(_) | Op::LoadReg(_) | Op::Deopt(_) => {}
            Op::Int(_, a, b)
            | Op::Checked(_, a, b)
            | Op::Icmp(_, a, b)
            | Op::Float(_, a, b)
            | Op::Fcmp(_, a, b)
            | Op::GuardShape(a, b)
            | Op::StoreShape(a, b)
            | Op::LoadElem(a, b)
            | Op::HasElem(a, b)
            | Op::StoreSlot(a, _, b)
            | Op::StoreOolSlot(a, _, b)
            | Op::StoreEnv(a, _, b)
            | Op::Store(a, _, b) => {
                *a = f(*a);
                *b = f(*b);
            }
            Op::Fneg(a)
            | Op::I32ToF64(a)
            | Op::F64ToI32(a)
            | Op::ToInt32(a)
            | Op::Sext(a)
            | Op::Trunc(a)
            | Op::Bits(a)
            | Op::FromBits(a)
            | Op::BoxI32(a)
            | Op::BoxF64(a)
            | Op::BoxObject(a)
            | Op::UnboxI32(a)
            | Op::UnboxF64(a)
            | Op::UnboxObject(a)
            | Op::TagIs(_, a)
            | Op::Check(a, _)
            | Op::LoadShape(a)
            | Op::LoadSlot(a, _)
            | Op::LoadOolSlot(a, _)
            | Op::LoadEnv(a, _)
            | Op::ArrayLength(a)
            | Op::StoreReg(_, a)
            | Op::Load(_, a, _)
            | Op::Return(a) => *a = f(*a),
            Op::StoreElem(a, b, c) | Op::InitElem(a, b, c) => {
                *a = f(*a);
                *b = f(*b);
                *c = f(*c);
            }
            Op::CallHelper(_, args) | Op::Call(_, args) | Op::Jump(_, args) => {
                for a in args {
                    *a = f(*a);
                }
            }
            Op::Brif(c, _, a, _, b) => {
                *c = f(*c);
                for v in a.iter_mut().chain(b.iter_mut()) {
                    *v = f(*v);
                }
            }
        }
    }

    /// Calls `f` with the arguments of each of this terminator's edges to `b`.
    pub fn for_each_edge_to(&mut self, b: Block, mut f: impl FnMut(&mut Vec<Val>)) {
        match self {
            Op::Jump(t, args) if *t == b => f(args),
            Op::Brif(_, t, ta, e, ea) => {
                if *t == b {
                    f(ta);
                }
                if *e == b {
                    f(ea);
                }
            }
            _ => {}
        }
    }

    /// The blocks a terminator goes to, with the arguments it passes.
    pub fn successors(&self) -> Vec<(Block, &[Val])> {
        match self {
            Op::Jump(b, args) => vec![(*b, args.as_slice())],
            Op::Brif(_, t, ta, e, ea) => vec![(*t, ta.as_slice()), (*e, ea.as_slice())],
            _ => Vec::new(),
        }
    }
}

/// An instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inst {
    /// The value it defines, if any.
    pub result: Option<Val>,
    pub op: Op,
    /// Where it leaves compiled code when it fails (for `Op::needs_exit` instructions).
    pub exit: Option<ExitId>,
}

/// How an exit reconstructs one interpreter register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitValue {
    /// A MIR value: boxed as it is (`value`), or boxed from `i32` or `f64`.
    Val(Val),
    /// A constant.
    Const(JsConst),
}

/// The interpreter state an exit resumes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExitState {
    /// The bytecode offset the interpreter resumes at.
    pub offset: u32,
    /// Live registers and how to rebuild each (registers not listed are dead).
    pub regs: Vec<(u32, ExitValue)>,
    /// For an exit inside a callee inlined into the function (or into a callee inlined
    /// into it, and so on): the frames of those callees, outermost first, which the VM
    /// pushes above the function's before the interpreter resumes the innermost at `offset`.
    pub inlined: Vec<InlinedFrame>,
    /// The register that holds the frame's arguments object when the code did not make it
    /// (it only forwarded the frame's arguments): the VM makes it as the interpreter
    /// resumes (the exit writes undefined there).
    pub arguments: Option<u32>,
}

/// The frame of an inlined callee an exit rebuilds. Its caller (the function, or the
/// inlined callee before it in the list) resumes at its call instruction `call` once the
/// callee returns (the call's operands, live there, give the callee and its arguments, as
/// `kind` says); the callee's register r is exit register `window + r` (registers count
/// from the function's first), just above its caller's window where the callee's window
/// goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InlinedFrame {
    /// The callee, as the VM identifies it (opaque here).
    pub function: u64,
    pub call: u32,
    pub window: u32,
    pub kind: FrameKind,
    /// The callee's register that holds its arguments object, which the code did not make
    /// (it only forwarded the callee's arguments): the VM makes it when it pushes the frame
    /// (`arguments rN` after the frame in the text form).
    pub arguments: Option<u32>,
}

/// How an inlined callee was called, which says how the VM makes its frame from its
/// caller's registers at the call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FrameKind {
    /// A `call`: its operands are the callee, `this` and the arguments.
    #[default]
    Call,
    /// A `construct`: its operands are the callee, `new.target` and the arguments after
    /// the `this` register, which holds the object the code made as `this` (the exit
    /// writes it there). The frame is a constructor's (`construct` in the text form).
    Construct,
    /// `f.apply(x, arguments)` in a caller that only forwards its own arguments: a `call`
    /// of `apply` with operands `f`, `x` and the arguments object; the callee is `f`, its
    /// `this` is `x` and its arguments are the caller's own (`forward` in the text form).
    Forward,
}

/// A basic block.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BlockData {
    pub params: Vec<Val>,
    pub insts: Vec<Inst>,
    /// A loop header (blocks of its loop jump back to it).
    pub is_loop: bool,
    /// For a loop header: the bytecode offset of the loop, where interpreted code can enter
    /// this compiled code (OSR).
    pub osr: Option<u32>,
    /// For a loop header: an exit that resumes the interpreter where the loop starts, its
    /// state the header's parameters (`resume e3` in the text form). Passes that make an
    /// edge into the loop speculate (unbox what it passes) leave through it, with the
    /// edge's arguments in place of the parameters.
    pub resume: Option<ExitId>,
}

/// Where a value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueDef {
    /// Parameter `index` of `block`.
    Param(Block, u32),
    /// The result of instruction `index` of `block`.
    Inst(Block, u32),
    /// Nothing (any more): a number the text skipped, or a value a pass removed.
    Dead,
}

/// A value's type and definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueData {
    pub ty: Type,
    pub def: ValueDef,
}

/// A MIR function. The first block in `layout` is the entry; its parameters are the
/// function's.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Function {
    pub name: String,
    /// The result type of `return`.
    pub ret: Option<Type>,
    /// Every block, by number (a block removed from `layout` stays here, unused).
    pub blocks: Vec<BlockData>,
    /// The blocks in layout order.
    pub layout: Vec<Block>,
    /// Every value, by number.
    pub values: Vec<ValueData>,
    /// Every exit, by number.
    pub exits: Vec<ExitState>,
}

impl Function {
    /// An empty function named `name` returning `ret`.
    pub fn new(name: &str, ret: Type) -> Function {
        Function { name: name.to_string(), ret: Some(ret), ..Function::default() }
    }

    /// The entry block.
    pub fn entry(&self) -> Option<Block> {
        self.layout.first().copied()
    }

    /// A new block at the end of the layout.
    pub fn add_block(&mut self) -> Block {
        let b = Block(self.blocks.len() as u32);
        self.blocks.push(BlockData::default());
        self.layout.push(b);
        b
    }

    /// A new parameter of type `ty` for `block`.
    pub fn add_param(&mut self, block: Block, ty: Type) -> Val {
        let v = Val(self.values.len() as u32);
        let index = self.blocks[block.0 as usize].params.len() as u32;
        self.values.push(ValueData { ty, def: ValueDef::Param(block, index) });
        self.blocks[block.0 as usize].params.push(v);
        v
    }

    /// A new exit.
    pub fn add_exit(&mut self, state: ExitState) -> ExitId {
        self.exits.push(state);
        ExitId(self.exits.len() as u32 - 1)
    }

    /// Appends an instruction to `block`; its result, if it has one, is a new value of
    /// type `ty`.
    pub fn push(&mut self, block: Block, op: Op, ty: Option<Type>, exit: Option<ExitId>) -> Option<Val> {
        let index = self.blocks[block.0 as usize].insts.len() as u32;
        let result = ty.map(|ty| {
            self.values.push(ValueData { ty, def: ValueDef::Inst(block, index) });
            Val(self.values.len() as u32 - 1)
        });
        self.blocks[block.0 as usize].insts.push(Inst { result, op, exit });
        result
    }

    /// The block's data.
    pub fn block(&self, b: Block) -> &BlockData {
        &self.blocks[b.0 as usize]
    }

    /// A value's type.
    pub fn ty(&self, v: Val) -> Type {
        self.values[v.0 as usize].ty
    }

    /// The registers of the frame's window the function uses: one more than the highest
    /// register that `load_reg`, `store_reg` or an exit names (0 if none).
    pub fn window(&self) -> u32 {
        let mut n = 0;
        for &b in &self.layout {
            for inst in &self.block(b).insts {
                if let Op::LoadReg(r) | Op::StoreReg(r, _) = inst.op {
                    n = n.max(r.saturating_add(1));
                }
            }
        }
        for state in &self.exits {
            for &(r, _) in &state.regs {
                n = n.max(r.saturating_add(1));
            }
        }
        n
    }

    /// Renumbers each value's definition from the blocks (after passes moved instructions).
    pub fn recompute_defs(&mut self) {
        for &b in &self.layout {
            let data = &self.blocks[b.0 as usize];
            for (i, &p) in data.params.iter().enumerate() {
                self.values[p.0 as usize].def = ValueDef::Param(b, i as u32);
            }
            for (i, inst) in data.insts.iter().enumerate() {
                if let Some(r) = inst.result {
                    self.values[r.0 as usize].def = ValueDef::Inst(b, i as u32);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
