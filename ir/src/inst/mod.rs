//! HIR instructions: the opcode enum and per-opcode facts generated from `defs.rs`, the
//! immediate payloads and the operator enums.

#[macro_use]
mod defs;

use crate::effects::Effects;
use crate::module::{Atom, FuncId, ScopeId, Var};
use crate::types::Type;
use crate::{Block, Value};

/// The number of operands or targets an instruction takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arity {
    /// Exactly this many.
    Exactly(u8),
    /// At least this many.
    AtLeast(u8),
}

impl Arity {
    /// Whether `n` is allowed.
    pub fn accepts(self, n: usize) -> bool {
        match self {
            Arity::Exactly(k) => n == k as usize,
            Arity::AtLeast(k) => n >= k as usize,
        }
    }
}

/// How an instruction's result type is determined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultRule {
    /// The instruction produces no value.
    None,
    /// Always this type.
    Fixed(Type),
    /// Computed from the operands and immediate by `Function::result_type`.
    Dynamic,
}

/// The kind of immediate payload an opcode carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImmKind {
    /// None.
    None,
    /// A name (`Imm::Name`).
    Name,
    /// An index or count (`Imm::Index`).
    Index,
    /// Flags (`Imm::Flags`).
    Flags,
    /// A scope (`Imm::Scope`).
    Scope,
    /// A variable (`Imm::Var`).
    Var,
    /// A function (`Imm::Func`).
    Func,
    /// A binary operator (`Imm::BinOp`).
    BinOp,
    /// A unary operator (`Imm::UnOp`).
    UnOp,
    /// An internal builtin (`Imm::Builtin`).
    Builtin,
    /// A regexp literal (`Imm::RegExp`).
    RegExp,
    /// An error to throw (`Imm::Error`).
    Error,
}

/// Static facts about an opcode, from its table row.
#[derive(Clone, Copy, Debug)]
pub struct OpInfo {
    /// The text-form mnemonic.
    pub mnemonic: &'static str,
    /// Value operands.
    pub args: Arity,
    /// Successor blocks.
    pub targets: Arity,
    /// The immediate payload kind.
    pub imm: ImmKind,
    /// Effects every instance has (before refinement).
    pub effects: Effects,
    /// Result type rule.
    pub result: ResultRule,
}

macro_rules! hir_arity {
    ($n:literal) => {
        Arity::Exactly($n)
    };
    ($n:literal +) => {
        Arity::AtLeast($n)
    };
}

macro_rules! hir_result {
    (none) => {
        ResultRule::None
    };
    (dynamic) => {
        ResultRule::Dynamic
    };
    (any) => {
        ResultRule::Fixed(Type::ANY)
    };
    (object) => {
        ResultRule::Fixed(Type::PLAIN_OBJECT)
    };
    (anyobject) => {
        ResultRule::Fixed(Type::OBJECT)
    };
    ($($ty:ident)|+) => {
        ResultRule::Fixed(Type(0 $(| hir_type_bit!($ty).0)+))
    };
}

macro_rules! hir_type_bit {
    (undefined) => {
        Type::UNDEFINED
    };
    (null) => {
        Type::NULL
    };
    (boolean) => {
        Type::BOOLEAN
    };
    (string) => {
        Type::STRING
    };
    (number) => {
        Type::NUMBER
    };
    (bigint) => {
        Type::BIGINT
    };
    (symbol) => {
        Type::SYMBOL
    };
    (closure) => {
        Type::CLOSURE
    };
    (regexp) => {
        Type::REGEXP
    };
    (environment) => {
        Type::ENVIRONMENT
    };
    (empty) => {
        Type::EMPTY
    };
    (object) => {
        Type::PLAIN_OBJECT
    };
}

macro_rules! define_opcodes {
    ($(
        $(#[$doc:meta])*
        $name:ident = $mnemonic:literal args($args:literal $($aplus:tt)?) targets($targets:literal $($tplus:tt)?) imm($imm:ident)
            [$($effect:ident)|*] -> $($result:tt)|+;
    )*) => {
        /// An HIR opcode.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Opcode {
            $($(#[$doc])* $name,)*
        }

        impl Opcode {
            /// Every opcode, in table order.
            pub const ALL: &'static [Opcode] = &[$(Opcode::$name),*];

            /// The static facts of this opcode's table row.
            pub fn info(self) -> &'static OpInfo {
                match self {
                    $(Opcode::$name => {
                        const INFO: OpInfo = OpInfo {
                            mnemonic: $mnemonic,
                            args: hir_arity!($args $($aplus)?),
                            targets: hir_arity!($targets $($tplus)?),
                            imm: ImmKind::$imm,
                            effects: Effects(0 $(| Effects::$effect.0)*),
                            result: hir_result!($($result)|+),
                        };
                        &INFO
                    })*
                }
            }

            /// The opcode with text-form mnemonic `text`.
            pub fn from_mnemonic(text: &str) -> Option<Opcode> {
                match text {
                    $($mnemonic => Some(Opcode::$name),)*
                    _ => None,
                }
            }
        }
    };
}

for_each_hir_inst!(define_opcodes);

impl Opcode {
    /// The text-form mnemonic.
    pub fn mnemonic(self) -> &'static str {
        self.info().mnemonic
    }
    /// Whether the opcode ends a block.
    pub fn is_terminator(self) -> bool {
        self.info().effects.has(Effects::TERMINATOR)
    }
}

impl std::fmt::Display for Opcode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.mnemonic())
    }
}

macro_rules! operator_enum {
    ($(#[$attr:meta])* $enum:ident { $($(#[$doc:meta])* $name:ident = $text:literal,)* }) => {
        $(#[$attr])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $enum {
            $($(#[$doc])* $name,)*
        }
        impl $enum {
            /// Every operator.
            pub const ALL: &'static [$enum] = &[$($enum::$name),*];
            /// The operator's text form.
            pub fn as_str(self) -> &'static str {
                match self { $($enum::$name => $text,)* }
            }
            /// The operator with text form `text`.
            pub fn parse(text: &str) -> Option<$enum> {
                match text { $($text => Some($enum::$name),)* _ => None }
            }
        }
        impl std::fmt::Display for $enum {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

operator_enum! {
    /// A binary operator.
    BinOp {
        /// `+`
        Add = "+",
        /// `-`
        Sub = "-",
        /// `*`
        Mul = "*",
        /// `/`
        Div = "/",
        /// `%`
        Mod = "%",
        /// `**`
        Exp = "**",
        /// `&`
        BitAnd = "&",
        /// `|`
        BitOr = "|",
        /// `^`
        BitXor = "^",
        /// `<<`
        Shl = "<<",
        /// `>>`
        Shr = ">>",
        /// `>>>`
        UShr = ">>>",
        /// `==`
        Eq = "==",
        /// `!=`
        Ne = "!=",
        /// `===`
        StrictEq = "===",
        /// `!==`
        StrictNe = "!==",
        /// `<`
        Lt = "<",
        /// `<=`
        Le = "<=",
        /// `>`
        Gt = ">",
        /// `>=`
        Ge = ">=",
        /// `in` (operands: key, object)
        In = "in",
        /// `instanceof`
        InstanceOf = "instanceof",
    }
}

operator_enum! {
    /// A unary operator.
    UnOp {
        /// `-x`
        Neg = "-",
        /// `~x`
        BitNot = "~",
        /// `!x`
        Not = "!",
        /// `typeof x`
        TypeOf = "typeof",
        /// `ToNumeric(x) + 1`
        Inc = "++",
        /// `ToNumeric(x) - 1`
        Dec = "--",
    }
}

/// The kind of error `ThrowError` creates (one table with the bytecode and the VM).
pub use ecma::ErrorKind;

/// The immediate payload of an instruction; its kind is fixed by the opcode's row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Imm {
    /// No payload.
    None,
    /// A name (variable, property or global).
    Name(Atom),
    /// An index or count.
    Index(u32),
    /// Opcode-specific flags.
    Flags(u32),
    /// A scope.
    Scope(ScopeId),
    /// A variable of a scope.
    Var(Var),
    /// A function of the module.
    Func(FuncId),
    /// A binary operator.
    BinOp(BinOp),
    /// A unary operator.
    UnOp(UnOp),
    /// An internal builtin (`bytecode::builtins` numbering).
    Builtin(u8),
    /// A regexp literal: pattern and flags.
    RegExp(Atom, Atom),
    /// An error kind and message.
    Error(ErrorKind, Atom),
}

impl Imm {
    /// The kind of this payload.
    pub fn kind(&self) -> ImmKind {
        match self {
            Imm::None => ImmKind::None,
            Imm::Name(_) => ImmKind::Name,
            Imm::Index(_) => ImmKind::Index,
            Imm::Flags(_) => ImmKind::Flags,
            Imm::Scope(_) => ImmKind::Scope,
            Imm::Var(_) => ImmKind::Var,
            Imm::Func(_) => ImmKind::Func,
            Imm::BinOp(_) => ImmKind::BinOp,
            Imm::UnOp(_) => ImmKind::UnOp,
            Imm::Builtin(_) => ImmKind::Builtin,
            Imm::RegExp(..) => ImmKind::RegExp,
            Imm::Error(..) => ImmKind::Error,
        }
    }
}

/// A source location (1-based line and column) for diagnostics and debug info.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Loc {
    /// 1-based line; 0 when unknown.
    pub line: u32,
    /// 1-based column in UTF-16 code units; 0 when unknown.
    pub col: u32,
}

/// An instruction's value operands: up to four are stored inline (nearly every
/// instruction's), so that a function of a million instructions is not a million small
/// allocations.
pub type Args = smallvec::SmallVec<[Value; 4]>;

/// An instruction's successor blocks, inline up to four.
pub type Targets = smallvec::SmallVec<[Block; 4]>;

/// One instruction.
#[derive(Clone, Debug)]
pub struct InstData {
    /// What it does.
    pub opcode: Opcode,
    /// Value operands.
    pub args: Args,
    /// Successor blocks (terminators) or incoming blocks (Phi, parallel to `args`).
    pub targets: Targets,
    /// The immediate payload.
    pub imm: Imm,
    /// The value it defines, if its row has a result.
    pub result: Option<Value>,
    /// The block it is in; `None` once removed.
    pub block: Option<Block>,
    /// Where in the source it comes from.
    pub loc: Loc,
}
