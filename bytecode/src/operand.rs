//! Operand kinds: how each kind of operand is sized, encoded, decoded, checked and printed.
//!
//! The opcode table (`opcodes.rs`) names an operand kind per field; `inst.rs` turns each
//! field into calls on the [`Operand`] implementation of that kind, so adding behaviour to
//! an operand kind is one `impl` here, never one macro arm per arity.
//!
//! ```text
//!  kind   value  narrow  wide   meaning
//!  Reg    u32    1       4      frame register
//!  Id     u32    2       4      string or function id (a function id if the field is `func`)
//!  Slot   u32    2       4      inline-cache slot (field `ic`) or environment slot
//!  Off    i32    1       4      jump offset from the first byte of the instruction (incl. Wide)
//!  Count  u32    1       4      small unsigned count or index
//!  Imm32  i32    4       4      signed immediate
//!  F64    f64    8       8      double
//!  U8     u8     1       1      flags byte or enum tag (builtin id for `builtin`, error kind for `kind`)
//! ```
//!
//! The *role* of an operand refines its kind and is declared beside it in the table
//! (`dst: Reg(Def)`, `name: Id(StringId)`); the verifier, the disassembler and the backend's
//! register liveness act on roles. [`OperandRole::fits`] says which roles a kind can carry,
//! and the table is checked against it at compile time.

use std::fmt::Write as _;

use crate::builtin_id::BuiltinId;
use crate::bundle::Bundle;
use crate::inst::ErrorKind;

/// The kind of an operand, as written in the opcode table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OperandKind {
    /// A frame register.
    Reg,
    /// An index into one of the bundle's tables.
    Id,
    /// An inline-cache or environment slot.
    Slot,
    /// A signed jump offset relative to the first byte of the instruction.
    Off,
    /// A small unsigned count.
    Count,
    /// A signed 32-bit immediate.
    Imm32,
    /// A double.
    F64,
    /// A byte of flags or an enum tag.
    U8,
}

impl OperandKind {
    /// The name used in the opcode table.
    pub const fn name(self) -> &'static str {
        match self {
            OperandKind::Reg => "Reg",
            OperandKind::Id => "Id",
            OperandKind::Slot => "Slot",
            OperandKind::Off => "Off",
            OperandKind::Count => "Count",
            OperandKind::Imm32 => "Imm32",
            OperandKind::F64 => "F64",
            OperandKind::U8 => "U8",
        }
    }

    /// Encoded size in bytes in the narrow form.
    pub const fn narrow_size(self) -> usize {
        match self {
            OperandKind::Reg | OperandKind::Off | OperandKind::Count | OperandKind::U8 => 1,
            OperandKind::Id | OperandKind::Slot => 2,
            OperandKind::Imm32 => 4,
            OperandKind::F64 => 8,
        }
    }

    /// Encoded size in bytes after a `Wide` prefix.
    pub const fn wide_size(self) -> usize {
        match self {
            OperandKind::Reg
            | OperandKind::Id
            | OperandKind::Slot
            | OperandKind::Off
            | OperandKind::Count
            | OperandKind::Imm32 => 4,
            OperandKind::F64 => 8,
            OperandKind::U8 => 1,
        }
    }

    /// Whether the `Wide` prefix changes this operand's size.
    pub const fn is_variable(self) -> bool {
        self.narrow_size() != self.wide_size()
    }
}

/// What an operand means: declared per operand in the opcode table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OperandRole {
    /// A register the instruction writes (inside the frame).
    Def,
    /// A register the instruction reads (inside the frame).
    Use,
    /// The first register of an argument range (`first`); the range length is the `argc`
    /// operand that follows it.
    ArgStart,
    /// The length of the argument range started by the preceding `first` (`argc`).
    ArgCount,
    /// A string id.
    StringId,
    /// A function id (`func`).
    FunctionId,
    /// An inline-cache slot (`ic`), below the function's `ic_count`.
    IcSlot,
    /// An environment slot; checked by the VM at run time.
    EnvSlot,
    /// A jump offset whose target must start an instruction of the same function.
    JumpOffset,
    /// An internal builtin id (`builtin`).
    Builtin,
    /// An error kind (`kind`, see [`ErrorKind`]).
    ErrorKind,
    /// A plain number with no constraint.
    Immediate,
}

impl OperandRole {
    /// Whether an operand of kind `kind` can have this role.
    pub const fn fits(self, kind: OperandKind) -> bool {
        match self {
            OperandRole::Def | OperandRole::Use | OperandRole::ArgStart => matches!(kind, OperandKind::Reg),
            OperandRole::ArgCount => matches!(kind, OperandKind::Count),
            OperandRole::StringId | OperandRole::FunctionId => matches!(kind, OperandKind::Id),
            OperandRole::IcSlot | OperandRole::EnvSlot => matches!(kind, OperandKind::Slot),
            OperandRole::JumpOffset => matches!(kind, OperandKind::Off),
            OperandRole::Builtin | OperandRole::ErrorKind => matches!(kind, OperandKind::U8),
            OperandRole::Immediate => {
                matches!(kind, OperandKind::Count | OperandKind::Imm32 | OperandKind::F64 | OperandKind::U8)
            }
        }
    }

    /// Whether the operand names a register the instruction reads (`Use`, or the start of an
    /// argument range, whose registers are all read).
    pub const fn is_register_use(self) -> bool {
        matches!(self, OperandRole::Use | OperandRole::ArgStart)
    }
}

/// Facts about the enclosing function and bundle that operand checks need.
#[derive(Debug)]
pub struct VerifyCx {
    /// Registers of the function's frame.
    pub frame_size: u32,
    /// Strings in the bundle.
    pub string_count: u32,
    /// Functions in the bundle.
    pub function_count: u32,
    /// Inline-cache slots of the function.
    pub ic_count: u32,
    /// Start of the instruction being checked (its `Wide` prefix if any).
    pub pc: usize,
    /// The argument range start seen last (`first`), consumed by the following `argc`.
    pub arg_start: Option<u32>,
    /// Absolute jump targets found so far; checked against instruction starts afterwards.
    pub jump_targets: Vec<(usize, i64)>,
}

/// What the disassembler knows while printing operands.
#[derive(Clone, Copy)]
pub struct PrintCx<'a> {
    /// The bundle, to show strings; without one string ids print as `s<id>`.
    pub bundle: Option<&'a Bundle>,
    /// Start of the instruction being printed (its `Wide` prefix if any); without it jump
    /// offsets print relative (`+5`, `-4`) instead of as absolute targets (`@0012`).
    pub pc: Option<usize>,
}

/// Behaviour of one operand kind. Implemented by the zero-sized marker types of this module,
/// named like the kinds of the opcode table.
pub trait Operand {
    /// The decoded value.
    type Value: Copy;
    /// The kind this type implements.
    const KIND: OperandKind;
    /// Encoded size without a `Wide` prefix.
    const NARROW_SIZE: usize = Self::KIND.narrow_size();
    /// Encoded size after a `Wide` prefix.
    const WIDE_SIZE: usize = Self::KIND.wide_size();

    /// Whether `v` can be encoded in the narrow form.
    fn fits_narrow(v: Self::Value) -> bool;
    /// Appends the encoding of `v`, little-endian.
    fn write(v: Self::Value, wide: bool, out: &mut Vec<u8>);
    /// Reads a value at `bytes[*at..]` and advances `at`. The caller guarantees the bytes
    /// are there (the decoder checks the whole instruction's length first).
    fn read(bytes: &[u8], at: &mut usize, wide: bool) -> Self::Value;
    /// The value as a jump offset, for `Off` operands.
    fn as_offset(_v: Self::Value) -> Option<i32> {
        None
    }
    /// `v` with its jump offset replaced by `off` (unchanged unless `Off`).
    fn with_offset(v: Self::Value, _off: i32) -> Self::Value {
        v
    }
    /// Checks `v` in role `role` against the function and bundle.
    fn verify(v: Self::Value, role: OperandRole, cx: &mut VerifyCx) -> Result<(), String>;
    /// Appends the disassembly of `v` in role `role`.
    fn print(v: Self::Value, role: OperandRole, cx: &PrintCx<'_>, out: &mut String);
}

fn read_array<const N: usize>(bytes: &[u8], at: &mut usize) -> [u8; N] {
    let mut a = [0u8; N];
    a.copy_from_slice(&bytes[*at..*at + N]);
    *at += N;
    a
}

/// Reads an unsigned operand of `narrow` bytes (1 or 2) or 4 bytes when wide.
fn read_unsigned(bytes: &[u8], at: &mut usize, narrow: usize, wide: bool) -> u32 {
    if wide {
        u32::from_le_bytes(read_array::<4>(bytes, at))
    } else if narrow == 1 {
        u32::from(read_array::<1>(bytes, at)[0])
    } else {
        u32::from(u16::from_le_bytes(read_array::<2>(bytes, at)))
    }
}

fn write_unsigned(v: u32, narrow: usize, wide: bool, out: &mut Vec<u8>) {
    if wide {
        out.extend_from_slice(&v.to_le_bytes());
    } else if narrow == 1 {
        out.push(v as u8);
    } else {
        out.extend_from_slice(&(v as u16).to_le_bytes());
    }
}

fn check_register(v: u32, cx: &VerifyCx) -> Result<(), String> {
    if v < cx.frame_size {
        Ok(())
    } else {
        Err(format!("register r{v} outside the frame of {} registers", cx.frame_size))
    }
}

/// Marker for [`OperandKind::Reg`].
pub struct Reg;
/// Marker for [`OperandKind::Id`].
pub struct Id;
/// Marker for [`OperandKind::Slot`].
pub struct Slot;
/// Marker for [`OperandKind::Off`].
pub struct Off;
/// Marker for [`OperandKind::Count`].
pub struct Count;
/// Marker for [`OperandKind::Imm32`].
pub struct Imm32;
/// Marker for [`OperandKind::F64`].
pub struct F64;
/// Marker for [`OperandKind::U8`].
pub struct U8;

impl Operand for Reg {
    type Value = u32;
    const KIND: OperandKind = OperandKind::Reg;
    fn fits_narrow(v: u32) -> bool {
        v <= u32::from(u8::MAX)
    }
    fn write(v: u32, wide: bool, out: &mut Vec<u8>) {
        write_unsigned(v, Self::NARROW_SIZE, wide, out)
    }
    fn read(bytes: &[u8], at: &mut usize, wide: bool) -> u32 {
        read_unsigned(bytes, at, Self::NARROW_SIZE, wide)
    }
    fn verify(v: u32, role: OperandRole, cx: &mut VerifyCx) -> Result<(), String> {
        if role == OperandRole::ArgStart {
            cx.arg_start = Some(v);
        }
        check_register(v, cx)
    }
    fn print(v: u32, _role: OperandRole, _cx: &PrintCx<'_>, out: &mut String) {
        let _ = write!(out, "r{v}");
    }
}

impl Operand for Id {
    type Value = u32;
    const KIND: OperandKind = OperandKind::Id;
    fn fits_narrow(v: u32) -> bool {
        v <= u32::from(u16::MAX)
    }
    fn write(v: u32, wide: bool, out: &mut Vec<u8>) {
        write_unsigned(v, Self::NARROW_SIZE, wide, out)
    }
    fn read(bytes: &[u8], at: &mut usize, wide: bool) -> u32 {
        read_unsigned(bytes, at, Self::NARROW_SIZE, wide)
    }
    fn verify(v: u32, role: OperandRole, cx: &mut VerifyCx) -> Result<(), String> {
        match role {
            OperandRole::FunctionId if v >= cx.function_count => {
                Err(format!("function id {v} out of range ({} functions)", cx.function_count))
            }
            OperandRole::StringId if v >= cx.string_count => {
                Err(format!("string id {v} out of range ({} strings)", cx.string_count))
            }
            _ => Ok(()),
        }
    }
    fn print(v: u32, role: OperandRole, cx: &PrintCx<'_>, out: &mut String) {
        match (role, cx.bundle) {
            (OperandRole::FunctionId, _) => {
                let _ = write!(out, "f{v}");
            }
            (_, Some(bundle)) if v < bundle.string_count() => {
                crate::disasm::write_quoted(out, &bundle.string_units(v));
            }
            _ => {
                let _ = write!(out, "s{v}");
            }
        }
    }
}

impl Operand for Slot {
    type Value = u32;
    const KIND: OperandKind = OperandKind::Slot;
    fn fits_narrow(v: u32) -> bool {
        v <= u32::from(u16::MAX)
    }
    fn write(v: u32, wide: bool, out: &mut Vec<u8>) {
        write_unsigned(v, Self::NARROW_SIZE, wide, out)
    }
    fn read(bytes: &[u8], at: &mut usize, wide: bool) -> u32 {
        read_unsigned(bytes, at, Self::NARROW_SIZE, wide)
    }
    fn verify(v: u32, role: OperandRole, cx: &mut VerifyCx) -> Result<(), String> {
        if role == OperandRole::IcSlot && v >= cx.ic_count {
            return Err(format!("inline-cache slot {v} out of range ({} slots)", cx.ic_count));
        }
        Ok(())
    }
    fn print(v: u32, role: OperandRole, _cx: &PrintCx<'_>, out: &mut String) {
        if role == OperandRole::IcSlot {
            let _ = write!(out, "ic{v}");
        } else {
            let _ = write!(out, "{v}");
        }
    }
}

impl Operand for Off {
    type Value = i32;
    const KIND: OperandKind = OperandKind::Off;
    fn fits_narrow(v: i32) -> bool {
        i8::try_from(v).is_ok()
    }
    fn write(v: i32, wide: bool, out: &mut Vec<u8>) {
        if wide {
            out.extend_from_slice(&v.to_le_bytes());
        } else {
            out.push(v as i8 as u8);
        }
    }
    fn read(bytes: &[u8], at: &mut usize, wide: bool) -> i32 {
        if wide {
            i32::from_le_bytes(read_array::<4>(bytes, at))
        } else {
            i32::from(read_array::<1>(bytes, at)[0] as i8)
        }
    }
    fn as_offset(v: i32) -> Option<i32> {
        Some(v)
    }
    fn with_offset(_v: i32, off: i32) -> i32 {
        off
    }
    fn verify(v: i32, _role: OperandRole, cx: &mut VerifyCx) -> Result<(), String> {
        // Whether the target starts an instruction is only known once the whole function
        // is decoded.
        cx.jump_targets.push((cx.pc, cx.pc as i64 + i64::from(v)));
        Ok(())
    }
    fn print(v: i32, _role: OperandRole, cx: &PrintCx<'_>, out: &mut String) {
        let _ = match cx.pc {
            Some(pc) => write!(out, "@{:04}", pc as i64 + i64::from(v)),
            None => write!(out, "{v:+}"),
        };
    }
}

impl Operand for Count {
    type Value = u32;
    const KIND: OperandKind = OperandKind::Count;
    fn fits_narrow(v: u32) -> bool {
        v <= u32::from(u8::MAX)
    }
    fn write(v: u32, wide: bool, out: &mut Vec<u8>) {
        write_unsigned(v, Self::NARROW_SIZE, wide, out)
    }
    fn read(bytes: &[u8], at: &mut usize, wide: bool) -> u32 {
        read_unsigned(bytes, at, Self::NARROW_SIZE, wide)
    }
    fn verify(v: u32, role: OperandRole, cx: &mut VerifyCx) -> Result<(), String> {
        if role == OperandRole::ArgCount {
            let Some(first) = cx.arg_start.take() else {
                return Err("argument count without a preceding first register".to_string());
            };
            // The range is never empty for the VM's purposes: `first` itself is read even
            // when `argc` is 0, and it was checked as a register already.
            if u64::from(first) + u64::from(v) > u64::from(cx.frame_size) {
                return Err(format!(
                    "argument registers r{first}..r{} outside the frame of {} registers",
                    u64::from(first) + u64::from(v),
                    cx.frame_size
                ));
            }
        }
        Ok(())
    }
    fn print(v: u32, _role: OperandRole, _cx: &PrintCx<'_>, out: &mut String) {
        let _ = write!(out, "{v}");
    }
}

impl Operand for Imm32 {
    type Value = i32;
    const KIND: OperandKind = OperandKind::Imm32;
    fn fits_narrow(_v: i32) -> bool {
        true
    }
    fn write(v: i32, _wide: bool, out: &mut Vec<u8>) {
        out.extend_from_slice(&v.to_le_bytes());
    }
    fn read(bytes: &[u8], at: &mut usize, _wide: bool) -> i32 {
        i32::from_le_bytes(read_array::<4>(bytes, at))
    }
    fn verify(_v: i32, _role: OperandRole, _cx: &mut VerifyCx) -> Result<(), String> {
        Ok(())
    }
    fn print(v: i32, _role: OperandRole, _cx: &PrintCx<'_>, out: &mut String) {
        let _ = write!(out, "{v}");
    }
}

impl Operand for F64 {
    type Value = f64;
    const KIND: OperandKind = OperandKind::F64;
    fn fits_narrow(_v: f64) -> bool {
        true
    }
    fn write(v: f64, _wide: bool, out: &mut Vec<u8>) {
        out.extend_from_slice(&v.to_bits().to_le_bytes());
    }
    fn read(bytes: &[u8], at: &mut usize, _wide: bool) -> f64 {
        f64::from_bits(u64::from_le_bytes(read_array::<8>(bytes, at)))
    }
    fn verify(_v: f64, _role: OperandRole, _cx: &mut VerifyCx) -> Result<(), String> {
        Ok(())
    }
    fn print(v: f64, _role: OperandRole, _cx: &PrintCx<'_>, out: &mut String) {
        let _ = write!(out, "{v:?}");
    }
}

impl Operand for U8 {
    type Value = u8;
    const KIND: OperandKind = OperandKind::U8;
    fn fits_narrow(_v: u8) -> bool {
        true
    }
    fn write(v: u8, _wide: bool, out: &mut Vec<u8>) {
        out.push(v);
    }
    fn read(bytes: &[u8], at: &mut usize, _wide: bool) -> u8 {
        read_array::<1>(bytes, at)[0]
    }
    fn verify(v: u8, role: OperandRole, _cx: &mut VerifyCx) -> Result<(), String> {
        match role {
            OperandRole::Builtin if BuiltinId::from_u8(v).is_none() => Err(format!("unknown builtin id {v}")),
            OperandRole::ErrorKind if ErrorKind::from_u8(v).is_none() => Err(format!("unknown error kind {v}")),
            _ => Ok(()),
        }
    }
    fn print(v: u8, role: OperandRole, _cx: &PrintCx<'_>, out: &mut String) {
        match role {
            OperandRole::Builtin => match BuiltinId::from_u8(v) {
                Some(b) => out.push_str(b.name()),
                None => {
                    let _ = write!(out, "<builtin {v}>");
                }
            },
            OperandRole::ErrorKind => match ErrorKind::from_u8(v) {
                Some(k) => out.push_str(k.name()),
                None => {
                    let _ = write!(out, "<error kind {v}>");
                }
            },
            _ => {
                let _ = write!(out, "{v}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_fit_their_kinds() {
        assert!(OperandRole::Def.fits(OperandKind::Reg));
        assert!(!OperandRole::Def.fits(OperandKind::Id));
        assert!(OperandRole::ArgCount.fits(OperandKind::Count));
        assert!(!OperandRole::StringId.fits(OperandKind::Slot));
        assert!(OperandRole::Immediate.fits(OperandKind::U8));
        assert!(!OperandRole::Immediate.fits(OperandKind::Reg));
    }

    fn round_trip<O: Operand>(v: O::Value, wide: bool) -> (O::Value, usize) {
        let mut out = Vec::new();
        O::write(v, wide, &mut out);
        let mut at = 0;
        let back = O::read(&out, &mut at, wide);
        assert_eq!(at, out.len());
        (back, out.len())
    }

    #[test]
    fn narrow_and_wide_encodings() {
        assert_eq!(round_trip::<Reg>(255, false), (255, 1));
        assert_eq!(round_trip::<Reg>(70_000, true), (70_000, 4));
        assert_eq!(round_trip::<Id>(65_535, false), (65_535, 2));
        assert_eq!(round_trip::<Off>(-128, false), (-128, 1));
        assert_eq!(round_trip::<Off>(-100_000, true), (-100_000, 4));
        assert_eq!(round_trip::<Imm32>(i32::MIN, false), (i32::MIN, 4));
        assert_eq!(round_trip::<U8>(7, true), (7, 1));
        assert!(Reg::fits_narrow(255) && !Reg::fits_narrow(256));
        assert!(Id::fits_narrow(65_535) && !Id::fits_narrow(65_536));
        assert!(Off::fits_narrow(127) && !Off::fits_narrow(128) && !Off::fits_narrow(-129));
        let (nan, len) = round_trip::<F64>(f64::NAN, false);
        assert!(nan.is_nan() && len == 8);
    }
}
