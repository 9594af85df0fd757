//! LIR: bytecode instructions over virtual registers, the form the register allocator works on.
//!
//! ```text
//!  HIR ──lower.rs──▶ LFunction { LBlock { LInst } } ──regalloc.rs──▶ Allocation ──emit.rs──▶ code
//! ```
//!
//! Instruction selection is done by `lower.rs`: every `LInst` already is one bytecode
//! instruction (`LOp`, a mirror of `bytecode::Inst` generated from the same opcode table, with
//! `VReg` where the table says `Reg`), a branch to a block, a call whose argument registers
//! must be consecutive, or a parallel move (what a Phi becomes).
//!
//! Virtual registers come in three classes:
//! - `Normal`: everything the allocator places. Defined once (SSA), except the destination
//!   of Phi moves, which is written on every incoming edge.
//! - `Slot(k)`: an AllocStack slot left by mem2reg; it lives in dedicated frame register `k`
//!   for the whole function and never takes part in allocation.
//! - `Out(i)`: the `i`th register of a call's argument range. All ranges start at the same
//!   register, right above the allocated ones, so they are consecutive by construction; an
//!   `Out` vreg lives from the move that fills it to its call.
//!
//! Operand roles are declared in the opcode table: `Reg(Def)` is written, `Reg(ArgStart)`
//! starts an argument range (its registers are the call's `args`), `Reg(Use)` is read.
//! Every written register is written after all operands are read (the VM's contract), so the
//! allocator lets a destination share the register of an operand that dies there.

use ir::Loc;

/// A virtual register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VReg(pub u32);

impl VReg {
    /// The index of this vreg in per-vreg tables.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl std::fmt::Display for VReg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "v{}", self.0)
    }
}

/// Where a vreg lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegClass {
    /// Placed by the register allocator.
    Normal,
    /// The register of stack slot `k` (frame register `k`).
    Slot(u32),
    /// Argument `i` of a call's consecutive range.
    Out(u32),
}

/// What an instruction does with a register operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Written.
    Def,
    /// Read.
    Use,
    /// The first register of an argument range (`first`); the call's `args` are the range.
    ArgStart,
}

/// A constant loaded into a register.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Const {
    /// `undefined`
    Undefined,
    /// `null`
    Null,
    /// The TDZ marker.
    Empty,
    /// `true` / `false`
    Bool(bool),
    /// A number that is an int32 (and not -0).
    Int(i32),
    /// Any other number.
    Double(f64),
    /// A string of the bundle's string table.
    String(u32),
}

impl Const {
    /// The instruction loading this constant into `dst`.
    pub fn load(self, dst: VReg) -> LOp {
        match self {
            Const::Undefined => LOp::LoadConstUndefined { dst },
            Const::Null => LOp::LoadConstNull { dst },
            Const::Empty => LOp::LoadConstEmpty { dst },
            Const::Bool(true) => LOp::LoadConstTrue { dst },
            Const::Bool(false) => LOp::LoadConstFalse { dst },
            Const::Int(value) => LOp::LoadConstInt { dst, value },
            Const::Double(value) => LOp::LoadConstDouble { dst, value },
            Const::String(id) => LOp::LoadConstString { dst, id },
        }
    }

    /// The constant for number `n`: `Int` when it is an int32 other than -0.
    pub fn number(n: f64) -> Const {
        if n.fract() == 0.0 && n >= i32::MIN as f64 && n <= i32::MAX as f64 && !(n == 0.0 && n.is_sign_negative()) {
            Const::Int(n as i32)
        } else {
            Const::Double(n)
        }
    }
}

/// The source of one parallel move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MoveSrc {
    /// Copy a register.
    Reg(VReg),
    /// Load a constant.
    Const(Const),
}

/// An LIR block index (the position in `LFunction::blocks`, which is the code layout).
pub type LBlockId = usize;

/// One LIR instruction.
#[derive(Clone, Debug, PartialEq)]
pub enum LKind {
    /// A bytecode instruction without branch target or argument range.
    Op(LOp),
    /// A branch (`jmp`, `jmp_true`, `jmp_false`, `save_generator`) to a block; its `off` is
    /// resolved by the assembler.
    Branch(LOp, LBlockId),
    /// A call (`call`, `construct`, `call_builtin`) whose argument range is `args`, all of
    /// class `Out(i)` with `i` its index; `first` is `args[0]`'s register (for `construct`,
    /// the unused `this` slot, which is not in `args` and never written).
    Call(LOp, Vec<VReg>),
    /// Simultaneous moves `dst_i = src_i`: every source is read before any destination is
    /// written. Destinations are distinct.
    Moves(Vec<(VReg, MoveSrc)>),
}

/// An LIR instruction with its source location.
#[derive(Clone, Debug, PartialEq)]
pub struct LInst {
    /// What it does.
    pub kind: LKind,
    /// Where it comes from (debug info).
    pub loc: Loc,
}

impl LInst {
    /// Calls `f` with every register the instruction writes.
    pub fn for_each_def(&self, mut f: impl FnMut(VReg)) {
        match &self.kind {
            LKind::Op(op) | LKind::Branch(op, _) | LKind::Call(op, _) => op.for_each_reg(|v, role| {
                if role == Role::Def {
                    f(v)
                }
            }),
            LKind::Moves(moves) => moves.iter().for_each(|&(dst, _)| f(dst)),
        }
    }

    /// Calls `f` with every register the instruction reads (a call's whole argument range).
    pub fn for_each_use(&self, mut f: impl FnMut(VReg)) {
        match &self.kind {
            LKind::Op(op) | LKind::Branch(op, _) => op.for_each_reg(|v, role| {
                if role == Role::Use {
                    f(v)
                }
            }),
            LKind::Call(op, args) => {
                op.for_each_reg(|v, role| {
                    if role == Role::Use {
                        f(v)
                    }
                });
                args.iter().for_each(|&v| f(v));
            }
            LKind::Moves(moves) => moves.iter().for_each(|&(_, src)| {
                if let MoveSrc::Reg(v) = src {
                    f(v)
                }
            }),
        }
    }
}

/// A block of LIR.
#[derive(Clone, Debug, Default)]
pub struct LBlock {
    /// Its instructions; the last one is a terminator or a `jmp`, so control never falls
    /// into the next block implicitly (emission drops a `jmp` to the next block).
    pub insts: Vec<LInst>,
    /// Control-flow successors.
    pub succs: Vec<LBlockId>,
    /// Handler blocks of the try regions enclosing the block, outermost first: an exception
    /// raised anywhere in the block may continue at any of them.
    pub handlers: Vec<LBlockId>,
    /// The try regions enclosing the block, outermost first (indices into
    /// `LFunction::regions`).
    pub regions: Vec<u32>,
    /// The HIR block it comes from (`None` for a block splitting a critical edge).
    pub hir: Option<ir::Block>,
}

/// A try region: the blocks whose `regions` list it, and its handler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// The handler block (it starts with `catch`).
    pub handler: LBlockId,
    /// How many regions enclose this one.
    pub depth: u32,
}

/// A function in LIR.
#[derive(Clone, Debug, Default)]
pub struct LFunction {
    /// Blocks in code layout order; block 0 is the entry.
    pub blocks: Vec<LBlock>,
    /// The class of every vreg.
    pub classes: Vec<RegClass>,
    /// Try regions.
    pub regions: Vec<Region>,
    /// Stack slots (`Slot(k)` vregs use frame register `k`).
    pub slot_count: u32,
    /// The longest argument range of any call.
    pub max_args: u32,
    /// Inline-cache slots handed out.
    pub ic_count: u32,
}

impl LFunction {
    /// A new vreg of class `class`.
    pub fn new_vreg(&mut self, class: RegClass) -> VReg {
        self.classes.push(class);
        VReg(self.classes.len() as u32 - 1)
    }

    /// The number of vregs.
    pub fn vreg_count(&self) -> usize {
        self.classes.len()
    }

    /// A readable listing, for tests and debugging.
    #[cfg(test)]
    pub fn dump(&self) -> String {
        let mut out = String::new();
        for (i, b) in self.blocks.iter().enumerate() {
            out.push_str(&format!("L{i}:"));
            if !b.regions.is_empty() {
                out.push_str(&format!(" regions {:?}", b.regions));
            }
            out.push_str(&format!(" succs {:?}\n", b.succs));
            for inst in &b.insts {
                out.push_str("  ");
                match &inst.kind {
                    LKind::Op(op) => out.push_str(&op.to_string()),
                    LKind::Branch(op, t) => out.push_str(&format!("{op} -> L{t}")),
                    LKind::Call(op, args) => {
                        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
                        out.push_str(&format!("{op} [{}]", args.join(", ")))
                    }
                    LKind::Moves(moves) => {
                        let parts: Vec<String> = moves
                            .iter()
                            .map(|(d, s)| match s {
                                MoveSrc::Reg(r) => format!("{d} <- {r}"),
                                MoveSrc::Const(c) => format!("{d} <- {c:?}"),
                            })
                            .collect();
                        out.push_str(&format!("moves {}", parts.join(", ")));
                    }
                }
                out.push('\n');
            }
        }
        out
    }
}

macro_rules! lop_field_ty {
    (Reg) => {
        VReg
    };
    (Id) => {
        u32
    };
    (Slot) => {
        u32
    };
    (Off) => {
        i32
    };
    (Count) => {
        u32
    };
    (Imm32) => {
        i32
    };
    (F64) => {
        f64
    };
    (U8) => {
        u8
    };
}

/// Calls `$f` for a field if it is a register, with its role from the opcode table.
macro_rules! lop_visit {
    (Def, $v:expr, $f:ident) => {
        $f($v, Role::Def)
    };
    (Use, $v:expr, $f:ident) => {
        $f($v, Role::Use)
    };
    (ArgStart, $v:expr, $f:ident) => {
        $f($v, Role::ArgStart)
    };
    ($role:ident, $v:expr, $f:ident) => {{
        let _ = $v;
    }};
}

macro_rules! lop_print {
    (Reg, $v:expr) => {
        format!("{}", $v)
    };
    ($kind:ident, $v:expr) => {
        format!("{:?}", $v)
    };
}

macro_rules! define_lops {
    ($(
        $(#[$meta:meta])*
        $mnemonic:ident = $name:ident { $($field:ident : $kind:ident ($role:ident)),* $(,)? }
            [$($flag:ident)|*] $(negated($negated:ident))?;
    )*) => {
        /// A bytecode instruction over virtual registers: `bytecode::Inst` with `VReg` for
        /// every `Reg` operand.
        #[derive(Clone, Copy, Debug, PartialEq)]
        #[allow(missing_docs, dead_code)] // a mirror of the whole table; some rows are never selected
        pub enum LOp {
            $( $name { $($field: lop_field_ty!($kind)),* }, )*
        }

        impl LOp {
            /// The opcode this instruction becomes.
            pub fn opcode(&self) -> bytecode::Opcode {
                match self { $( LOp::$name { .. } => bytecode::Opcode::$name, )* }
            }

            /// Calls `f` with every register operand and its role.
            #[allow(unused_variables, unused_mut)]
            pub fn for_each_reg(&self, mut f: impl FnMut(VReg, Role)) {
                match *self {
                    $( LOp::$name { $($field),* } => { $( lop_visit!($role, $field, f); )* } )*
                }
            }
        }

        impl std::fmt::Display for LOp {
            #[allow(unused_variables, unused_mut, unused_assignments)]
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                match *self {
                    $( LOp::$name { $($field),* } => {
                        f.write_str(stringify!($mnemonic))?;
                        let mut sep = " ";
                        $( write!(f, "{sep}{}", lop_print!($kind, $field))?; sep = ", "; )*
                        Ok(())
                    } )*
                }
            }
        }
    };
}

bytecode::for_each_opcode!(define_lops);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_follow_field_names() {
        let mut seen = Vec::new();
        LOp::Call { dst: VReg(1), callee: VReg(2), first: VReg(3), argc: 2 }.for_each_reg(|v, r| seen.push((v.0, r)));
        assert_eq!(seen, vec![(1, Role::Def), (2, Role::Use), (3, Role::ArgStart)]);
        seen.clear();
        LOp::ResumeGenerator { dst: VReg(4), is_return: VReg(5) }.for_each_reg(|v, r| seen.push((v.0, r)));
        assert_eq!(seen, vec![(4, Role::Def), (5, Role::Def)]);
        seen.clear();
        LOp::StoreToEnvironment { env: VReg(1), slot: 3, value: VReg(2) }.for_each_reg(|v, r| seen.push((v.0, r)));
        assert_eq!(seen, vec![(1, Role::Use), (2, Role::Use)]);
    }

    #[test]
    fn numbers_pick_the_int_form_when_exact() {
        assert_eq!(Const::number(3.0), Const::Int(3));
        assert_eq!(Const::number(-2147483648.0), Const::Int(i32::MIN));
        assert!(matches!(Const::number(-0.0), Const::Double(d) if d.is_sign_negative()));
        assert!(matches!(Const::number(0.5), Const::Double(_)));
        assert!(matches!(Const::number(4294967296.0), Const::Double(_)));
        assert!(matches!(Const::number(f64::NAN), Const::Double(_)));
    }
}
