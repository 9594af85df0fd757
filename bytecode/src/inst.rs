//! `Opcode` and `Inst`, generated from the opcode table, with the encoder and the decoder.
//!
//! `define_instructions!` is the consumer of `for_each_opcode!`: per row it emits an `Opcode`
//! variant, an `Inst` variant whose fields are the row's operands, and one match arm in each
//! of the metadata accessors, `encode`, `decode`, and the operand checks and printing that
//! the verifier and the disassembler use. All per-operand behaviour is delegated to the
//! [`Operand`] implementation of the operand's kind.
//!
//! Encoding: `[Wide] opcode operand...`, little-endian, unaligned. Without the prefix every
//! variable-width operand has its narrow size; with it, 4 bytes. The encoder uses the
//! prefix only when some operand does not fit narrow. The decoder accepts a needless prefix
//! (the result is the same instruction) but rejects a prefix in front of an instruction
//! that has no variable-width operand, a doubled prefix, unknown opcodes and truncation.

use std::fmt;

use crate::opcodes::OpFlags;
use crate::operand::{self, Operand, OperandKind, OperandRole, PrintCx, VerifyCx};

/// The kind of error `throw_error` creates: the table lives in `ecma`, shared with the IR and
/// the VM; the operand is its `u8` number.
pub use ecma::ErrorKind;

/// Why bytes did not decode to an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecodeErrorKind {
    /// The pc is at or past the end of the code.
    OutOfBounds,
    /// The instruction runs past the end of the code.
    Truncated,
    /// The byte is not an opcode.
    UnknownOpcode(u8),
    /// A `Wide` prefix follows a `Wide` prefix.
    DoubleWide,
    /// A `Wide` prefix precedes an instruction without variable-width operands.
    NeedlessWide(Opcode),
}

/// A decoding failure at `pc`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// Where the instruction starts.
    pub pc: usize,
    /// What went wrong.
    pub kind: DecodeErrorKind,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            DecodeErrorKind::OutOfBounds => write!(f, "pc {} is past the end of the code", self.pc),
            DecodeErrorKind::Truncated => {
                write!(f, "instruction at pc {} runs past the end of the code", self.pc)
            }
            DecodeErrorKind::UnknownOpcode(b) => {
                write!(f, "unknown opcode 0x{b:02x} at pc {}", self.pc)
            }
            DecodeErrorKind::DoubleWide => write!(f, "doubled wide prefix at pc {}", self.pc),
            DecodeErrorKind::NeedlessWide(op) => write!(
                f,
                "wide prefix at pc {} before `{}`, which has no variable-width operand",
                self.pc,
                op.mnemonic()
            ),
        }
    }
}

impl std::error::Error for DecodeError {}

/// Encoded length (opcode byte and operands, without prefix) of an operand list.
const fn operands_len(kinds: &[OperandKind], wide: bool) -> usize {
    let mut len = 1;
    let mut i = 0;
    while i < kinds.len() {
        len += if wide { kinds[i].wide_size() } else { kinds[i].narrow_size() };
        i += 1;
    }
    len
}

/// Whether some kind in `kinds` is variable-width (`variable`) or is `Off` (`!variable`).
const fn any_kind(kinds: &[OperandKind], variable: bool) -> bool {
    let mut i = 0;
    while i < kinds.len() {
        let hit = if variable { kinds[i].is_variable() } else { matches!(kinds[i], OperandKind::Off) };
        if hit {
            return true;
        }
        i += 1;
    }
    false
}

/// The `negated(..)` of a row as an `Opcode` or an `Inst` with the same operands, or `None`.
macro_rules! negated_row {
    ([] $ty:ident $($rest:tt)*) => {
        None
    };
    ([$negated:ident] Opcode) => {
        Some(Opcode::$negated)
    };
    ([$negated:ident] Inst { $($field:ident),* }) => {
        Some(Inst::$negated { $($field),* })
    };
}

macro_rules! define_instructions {
    ($(
        $(#[$meta:meta])*
        $mnemonic:ident = $name:ident { $($field:ident : $kind:ident ($role:ident)),* $(,)? }
            [$($flag:ident)|*] $(negated($negated:ident))?;
    )*) => {
        // Every declared role fits its operand's kind.
        const _: () = {
            $($(
                assert!(
                    OperandRole::$role.fits(OperandKind::$kind),
                    concat!(stringify!($name), ".", stringify!($field), ": role ", stringify!($role),
                        " does not fit kind ", stringify!($kind)),
                );
            )*)*
        };

        /// An opcode: the first byte of every instruction (after an optional `Wide` prefix).
        #[repr(u8)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Opcode {
            $( $(#[$meta])* $name, )*
        }

        impl Opcode {
            /// Every opcode, in table (numbering) order.
            pub const ALL: &'static [Opcode] = &[$(Opcode::$name),*];
            /// The number of opcodes.
            pub const COUNT: usize = Opcode::ALL.len();

            /// The opcode numbered `b`.
            #[inline]
            pub fn from_u8(b: u8) -> Option<Opcode> {
                Opcode::ALL.get(usize::from(b)).copied()
            }

            /// The snake_case mnemonic of the disassembly.
            pub const fn mnemonic(self) -> &'static str {
                match self { $( Opcode::$name => stringify!($mnemonic), )* }
            }

            /// The CamelCase name of the `Opcode` and `Inst` variants.
            pub const fn name(self) -> &'static str {
                match self { $( Opcode::$name => stringify!($name), )* }
            }

            /// The opcode whose mnemonic is `mnemonic`.
            pub fn from_mnemonic(mnemonic: &str) -> Option<Opcode> {
                Opcode::ALL.iter().copied().find(|op| op.mnemonic() == mnemonic)
            }

            /// Behaviour flags.
            pub const fn flags(self) -> OpFlags {
                match self { $( Opcode::$name => OpFlags(0 $(| OpFlags::$flag.0)*), )* }
            }

            /// Operand kinds, in encoding order.
            pub const fn operand_kinds(self) -> &'static [OperandKind] {
                match self { $( Opcode::$name => &[$(OperandKind::$kind),*], )* }
            }

            /// Operand (field) names, in encoding order.
            pub const fn operand_names(self) -> &'static [&'static str] {
                match self { $( Opcode::$name => &[$(stringify!($field)),*], )* }
            }

            /// Operand roles, in encoding order.
            pub const fn operand_roles(self) -> &'static [OperandRole] {
                match self { $( Opcode::$name => &[$(OperandRole::$role),*], )* }
            }

            /// The conditional jump taken exactly when this one is not, if this is one.
            pub const fn negated(self) -> Option<Opcode> {
                match self { $( Opcode::$name => negated_row!([$($negated)?] Opcode), )* }
            }
        }

        /// A decoded instruction: one variant per opcode row, fields named as in the table.
        /// `Reg`/`Id`/`Slot`/`Count` are `u32`, `Off` and `Imm32` are `i32`, `F64` is `f64`
        /// and `U8` is `u8`. `Off` is relative to the first byte of the instruction,
        /// including its `Wide` prefix.
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub enum Inst {
            $(
                $(#[$meta])*
                $name {
                    $(
                        #[doc = concat!("`", stringify!($field), "`: ", stringify!($kind), ".")]
                        $field: <operand::$kind as Operand>::Value,
                    )*
                },
            )*
        }

        impl Inst {
            /// The opcode of this instruction.
            pub const fn opcode(&self) -> Opcode {
                match self { $( Inst::$name { .. } => Opcode::$name, )* }
            }

            /// The conditional jump to the same target taken exactly when this one is not
            /// (`None` for instructions that are not conditional jumps), from the table's
            /// `negated(..)`. Code layout uses it to turn `jmp_x A; jmp B` into `jmp_not_x B`
            /// when `A` follows.
            #[allow(unused_variables)] // the operands of rows without a negation
            pub fn negated(self) -> Option<Inst> {
                match self {
                    $( Inst::$name { $($field),* } => negated_row!([$($negated)?] Inst { $($field),* }), )*
                }
            }

            /// Whether this instruction needs the `Wide` prefix.
            pub fn needs_wide(&self) -> bool {
                match *self {
                    $( Inst::$name { $($field),* } => {
                        !(true $(&& <operand::$kind as Operand>::fits_narrow($field))*)
                    } )*
                }
            }

            /// Appends the encoding: narrow if every operand fits, else with a `Wide` prefix.
            /// (`Inst::Wide` encodes as the lone prefix byte.)
            pub fn encode(&self, out: &mut Vec<u8>) {
                let wide = self.needs_wide();
                if wide {
                    out.push(Opcode::Wide as u8);
                }
                out.push(self.opcode() as u8);
                match *self {
                    $( Inst::$name { $($field),* } => {
                        $( <operand::$kind as Operand>::write($field, wide, out); )*
                    } )*
                }
            }

            /// The length of [`Inst::encode`]'s output.
            pub fn encoded_len(&self) -> usize {
                let wide = self.needs_wide();
                self.opcode().encoded_len(wide) + usize::from(wide)
            }

            /// Decodes the instruction at `pc`, returning it and its length (including any
            /// `Wide` prefix). Never panics, whatever the bytes.
            #[inline]
            pub fn decode(code: &[u8], pc: usize) -> Result<(Inst, usize), DecodeError> {
                let err = |kind| DecodeError { pc, kind };
                let first = *code.get(pc).ok_or(err(DecodeErrorKind::OutOfBounds))?;
                let wide = first == Opcode::Wide as u8;
                let op_pc = pc + usize::from(wide);
                let byte = *code.get(op_pc).ok_or(err(DecodeErrorKind::Truncated))?;
                let op = Opcode::from_u8(byte).ok_or(err(DecodeErrorKind::UnknownOpcode(byte)))?;
                if wide {
                    if op == Opcode::Wide {
                        return Err(err(DecodeErrorKind::DoubleWide));
                    }
                    if !op.has_variable_operands() {
                        return Err(err(DecodeErrorKind::NeedlessWide(op)));
                    }
                }
                let end = op_pc + op.encoded_len(wide);
                let ops = code.get(op_pc + 1..end).ok_or(err(DecodeErrorKind::Truncated))?;
                let inst = Inst::decode_operands(op, ops, wide);
                Ok((inst, end - pc))
            }

            /// Reads the operands of `op` from `ops`, which holds exactly their bytes.
            #[inline]
            #[allow(unused_mut, unused_variables)]
            fn decode_operands(op: Opcode, ops: &[u8], wide: bool) -> Inst {
                let mut at = 0usize;
                match op {
                    $( Opcode::$name => {
                        $( let $field = <operand::$kind as Operand>::read(ops, &mut at, wide); )*
                        Inst::$name { $($field),* }
                    } )*
                }
            }

            /// Calls `f(register, writes)` for every register the instruction reads
            /// (`writes` false) or writes (true), from the table's roles: an argument range
            /// (`first`, `argc`) is every register of it, read.
            #[allow(unused_variables, unused_mut)]
            pub fn for_each_register(&self, mut f: impl FnMut(u32, bool)) {
                let operands: &[(OperandRole, u32)] = match *self {
                    $( Inst::$name { $($field),* } => &[$((OperandRole::$role, $field as u32)),*], )*
                };
                let mut start = None;
                for &(role, n) in operands {
                    match role {
                        OperandRole::Def => f(n, true),
                        OperandRole::Use => f(n, false),
                        OperandRole::ArgStart => start = Some(n),
                        OperandRole::ArgCount => {
                            let first = start.take().unwrap_or(0);
                            for r in first..first.saturating_add(n) {
                                f(r, false);
                            }
                        }
                        _ => {}
                    }
                }
            }

            /// The jump offset of a branch (any instruction with an `Off` operand).
            pub fn branch_offset(&self) -> Option<i32> {
                match *self {
                    $( Inst::$name { $($field),* } => {
                        None $(.or(<operand::$kind as Operand>::as_offset($field)))*
                    } )*
                }
            }

            /// This instruction with its jump offset replaced by `off` (unchanged if it has
            /// no `Off` operand).
            #[allow(unused_variables)]
            pub fn with_branch_offset(self, off: i32) -> Inst {
                match self {
                    $( Inst::$name { $($field),* } => Inst::$name {
                        $( $field: <operand::$kind as Operand>::with_offset($field, off) ),*
                    }, )*
                }
            }

            /// Checks every operand against the function and bundle (`cx.pc` must be this
            /// instruction's start). Returns the failing operand's name and the reason.
            pub(crate) fn verify_operands(
                &self,
                cx: &mut VerifyCx,
            ) -> Result<(), (&'static str, String)> {
                match *self {
                    $( Inst::$name { $($field),* } => {
                        $(
                            <operand::$kind as Operand>::verify(
                                $field,
                                OperandRole::$role,
                                cx,
                            ).map_err(|e| (stringify!($field), e))?;
                        )*
                    } )*
                }
                Ok(())
            }

            /// Appends `mnemonic op, op, ...`.
            pub(crate) fn print(&self, cx: &PrintCx<'_>, out: &mut String) {
                out.push_str(self.opcode().mnemonic());
                match *self {
                    $( Inst::$name { $($field),* } => {
                        #[allow(unused_mut)]
                        let mut sep = " ";
                        $(
                            out.push_str(sep);
                            sep = ", ";
                            <operand::$kind as Operand>::print(
                                $field,
                                OperandRole::$role,
                                cx,
                                out,
                            );
                        )*
                        let _ = sep;
                    } )*
                }
            }
        }
    };
}

for_each_opcode!(define_instructions);

/// `[narrow, wide]` encoded length of every opcode (opcode byte and operands, no prefix).
const LENGTHS: [[u8; 2]; Opcode::COUNT] = {
    let mut table = [[0u8; 2]; Opcode::COUNT];
    let mut i = 0;
    while i < Opcode::COUNT {
        let kinds = Opcode::ALL[i].operand_kinds();
        table[i] = [operands_len(kinds, false) as u8, operands_len(kinds, true) as u8];
        i += 1;
    }
    table
};

// The numbering is the opcode byte: at most 256 rows, and `Wide` must be 0.
const _: () = assert!(Opcode::COUNT <= 256 && Opcode::Wide as u8 == 0);

impl Opcode {
    /// Encoded length of the opcode byte and operands, not counting a `Wide` prefix.
    #[inline]
    pub const fn encoded_len(self, wide: bool) -> usize {
        LENGTHS[self as usize][wide as usize] as usize
    }

    /// Whether some operand changes size under the `Wide` prefix.
    pub const fn has_variable_operands(self) -> bool {
        any_kind(self.operand_kinds(), true)
    }

    /// Whether the instruction has a jump offset (`Off`) operand.
    pub const fn has_offset(self) -> bool {
        any_kind(self.operand_kinds(), false)
    }

    /// Whether control never falls through to the next instruction.
    pub const fn is_terminator(self) -> bool {
        self.flags().contains(OpFlags::TERMINATOR)
    }
}

impl fmt::Display for Inst {
    /// The disassembly without a bundle: string ids print as `s<id>` and jump offsets
    /// relative to the instruction (`jmp -4`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        self.print(&PrintCx { bundle: None, pc: None }, &mut s);
        f.write_str(&s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sample instruction for `op` whose variable operands are all `small` or all `big`.
    pub(crate) fn sample(op: Opcode, big: bool) -> Inst {
        let mut code = vec![op as u8];
        for (i, kind) in op.operand_kinds().iter().enumerate() {
            let i = i as u32;
            match kind {
                OperandKind::Reg | OperandKind::Id | OperandKind::Slot | OperandKind::Count => {
                    let v = if big { 70_000 + i } else { 3 + i };
                    operand::Reg::write(v, true, &mut code);
                }
                OperandKind::Off => operand::Off::write(if big { -40_000 } else { -5 }, true, &mut code),
                OperandKind::Imm32 => operand::Imm32::write(-123_456, true, &mut code),
                OperandKind::F64 => operand::F64::write(2.5, true, &mut code),
                OperandKind::U8 => operand::U8::write(1, true, &mut code),
            }
        }
        // Decode the fully wide form (a prefix byte is prepended).
        let mut bytes = vec![Opcode::Wide as u8];
        bytes.extend_from_slice(&code);
        if !op.has_variable_operands() {
            bytes.remove(0);
        }
        Inst::decode(&bytes, 0).unwrap().0
    }

    #[test]
    fn every_opcode_round_trips_narrow_and_wide() {
        for &op in &Opcode::ALL[1..] {
            for big in [false, true] {
                let inst = sample(op, big);
                assert_eq!(inst.opcode(), op);
                let mut out = vec![0xEE];
                inst.encode(&mut out);
                assert_eq!(out.len() - 1, inst.encoded_len(), "{op:?}");
                let wide = big && op.has_variable_operands();
                assert_eq!(out[1] == Opcode::Wide as u8, wide, "{op:?}");
                assert_eq!(inst.needs_wide(), wide);
                let (back, len) = Inst::decode(&out, 1).unwrap();
                assert_eq!(back, inst, "{op:?}");
                assert_eq!(len, out.len() - 1);
                assert_eq!(len, op.encoded_len(wide) + usize::from(wide));
            }
        }
    }

    #[test]
    fn every_conditional_jump_has_a_negation() {
        for &op in &Opcode::ALL[1..] {
            let inst = sample(op, false);
            let conditional = op.mnemonic().starts_with("jmp_");
            match inst.negated() {
                Some(n) => {
                    assert!(conditional, "{op:?} is not a conditional jump");
                    assert_ne!(n.opcode(), op);
                    assert_eq!(n.branch_offset(), inst.branch_offset());
                    assert_eq!(n.negated(), Some(inst), "{op:?}");
                    assert_eq!(op.negated(), Some(n.opcode()), "{op:?}");
                }
                None => assert!(!conditional, "{op:?} has no negation"),
            }
        }
    }

    #[test]
    fn needless_wide_prefix_decodes_to_same_instruction() {
        let inst = Inst::Mov { dst: 1, src: 2 };
        let bytes = [0, Opcode::Mov as u8, 1, 0, 0, 0, 2, 0, 0, 0];
        assert_eq!(Inst::decode(&bytes, 0), Ok((inst, 10)));
    }

    #[test]
    fn malformed_prefixes_are_rejected() {
        let err = |bytes: &[u8]| Inst::decode(bytes, 0).unwrap_err().kind;
        assert_eq!(err(&[0, 0, 1, 1, 1]), DecodeErrorKind::DoubleWide);
        assert_eq!(err(&[0, Opcode::StartGenerator as u8]), DecodeErrorKind::NeedlessWide(Opcode::StartGenerator));
        assert_eq!(err(&[0]), DecodeErrorKind::Truncated);
        assert_eq!(err(&[]), DecodeErrorKind::OutOfBounds);
        assert_eq!(err(&[255]), DecodeErrorKind::UnknownOpcode(255));
        assert_eq!(err(&[Opcode::Mov as u8, 1]), DecodeErrorKind::Truncated);
    }

    #[test]
    fn truncated_encodings_never_decode() {
        for &op in &Opcode::ALL[1..] {
            for big in [false, true] {
                let mut out = Vec::new();
                sample(op, big).encode(&mut out);
                for cut in 0..out.len() {
                    assert!(Inst::decode(&out[..cut], 0).is_err(), "{op:?} cut at {cut}");
                }
            }
        }
    }

    #[test]
    fn random_bytes_never_panic() {
        // xorshift: deterministic, no dependency.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let len = (next() % 24) as usize;
            let bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
            let mut pc = (next() % 26) as usize;
            while let Ok((inst, n)) = Inst::decode(&bytes, pc) {
                assert!(n >= 1 && pc + n <= bytes.len());
                assert!(inst.encoded_len() <= n);
                pc += n;
            }
        }
    }

    #[test]
    fn metadata_is_consistent() {
        for (i, &op) in Opcode::ALL.iter().enumerate() {
            assert_eq!(op as usize, i);
            assert_eq!(Opcode::from_u8(i as u8), Some(op));
            assert_eq!(Opcode::from_mnemonic(op.mnemonic()), Some(op), "duplicate mnemonic");
            assert_eq!(op.operand_kinds().len(), op.operand_names().len());
            assert_eq!(op.operand_kinds().len(), op.operand_roles().len());
            // Argument ranges are written `first` then `argc`.
            let roles = op.operand_roles();
            let starts = roles.iter().filter(|r| **r == OperandRole::ArgStart).count();
            let counts = roles.iter().filter(|r| **r == OperandRole::ArgCount).count();
            assert_eq!(starts, counts, "{op:?}");
            if let Some(s) = roles.iter().position(|r| *r == OperandRole::ArgStart) {
                assert!(roles[s..].contains(&OperandRole::ArgCount), "{op:?}");
            }
            // Every branch has an offset; offsets appear at most once.
            let offs = op.operand_kinds().iter().filter(|k| **k == OperandKind::Off).count();
            assert!(offs <= 1);
            if op.flags().contains(OpFlags::BRANCH) {
                assert_eq!(offs, 1, "{op:?}");
            }
        }
        assert_eq!(Opcode::from_u8(Opcode::COUNT as u8), None);
    }

    #[test]
    fn removable_rows_have_results() {
        // An instruction with no effect and no result would be removed wherever it stands:
        // such a row is missing a flag (`WRITES`).
        for &op in Opcode::ALL {
            if op.flags().removable_if_unused() {
                assert!(op.operand_roles().contains(&OperandRole::Def), "{op:?} has no effect and no result");
            }
        }
        assert!(!Opcode::StoreToEnvironment.flags().removable_if_unused());
        assert!(!Opcode::Catch.flags().removable_if_unused());
        assert!(Opcode::AddN.flags().removable_if_unused());
    }

    #[test]
    fn branch_offsets_can_be_replaced() {
        let j = Inst::JmpTrue { off: 0, cond: 4 };
        assert_eq!(j.branch_offset(), Some(0));
        assert_eq!(j.with_branch_offset(-9), Inst::JmpTrue { off: -9, cond: 4 });
        let m = Inst::Mov { dst: 1, src: 2 };
        assert_eq!(m.branch_offset(), None);
        assert_eq!(m.with_branch_offset(5), m);
        let s = Inst::SaveGenerator { off: 3 };
        assert_eq!(s.branch_offset(), Some(3));
    }

    #[test]
    fn display_without_bundle() {
        assert_eq!(Inst::Mov { dst: 1, src: 0 }.to_string(), "mov r1, r0");
        assert_eq!(Inst::Jmp { off: -4 }.to_string(), "jmp -4");
        assert_eq!(
            Inst::CallBuiltin { dst: 0, builtin: 0, first: 1, argc: 2 }.to_string(),
            "call_builtin r0, copyDataProperties, r1, 2"
        );
        assert_eq!(Inst::ThrowError { kind: 1, msg: 3 }.to_string(), "throw_error TypeError, s3");
        assert_eq!(Inst::StartGenerator {}.to_string(), "start_generator");
    }
}
