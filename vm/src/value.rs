//! `Value`: a JavaScript value in 64 bits, NaN-boxed.
//!
//! Every double is stored as itself. The other kinds live in the negative quiet-NaN space,
//! which arithmetic never produces once NaNs are canonical (x86-64 and AArch64 produce
//! `0x7ff8…`/`0xfff8…` and propagate the payload of a NaN operand):
//!
//! ```text
//!  top 16 bits   kind                 payload (low 48 bits)
//!  ..= 0xfff8    double               the rest of the double
//!  0xfff9        special              0 undefined, 1 null, 2 false, 3 true, 4 empty
//!  0xfffa        object               pointer to a cell whose kind is an object kind
//!  0xfffb        string               pointer to a String or Rope cell
//!  0xfffc        symbol               pointer to a Symbol cell
//!  0xfffd        bigint               pointer to a BigInt cell
//!  0xfffe        internal cell        pointer to a non-JS cell (environment, accessor pair, ...)
//! ```
//!
//! Decision on int32: there is no int32 tag (as in Hermes). Every number is a double, so the
//! typed opcodes are a single float instruction with no tag checks; bitwise operators and
//! array indexing convert with a range-checked truncation, which costs less than tag
//! dispatch on every arithmetic operation would.
//!
//! A `Value` holding a pointer is only meaningful while the cell is alive: the garbage
//! collector frees what it cannot reach from the roots (see `gc`).

use std::fmt;

use crate::gc::{CellHeader, CellType, Gc};

pub(crate) const TAG_SHIFT: u32 = 48;
pub(crate) const PAYLOAD_MASK: u64 = (1 << TAG_SHIFT) - 1;
/// The first non-double top-16 pattern.
pub(crate) const FIRST_TAG: u64 = 0xfff9;
pub(crate) const TAG_SPECIAL: u64 = 0xfff9;
pub(crate) const TAG_OBJECT: u64 = 0xfffa;
pub(crate) const TAG_STRING: u64 = 0xfffb;
pub(crate) const TAG_SYMBOL: u64 = 0xfffc;
pub(crate) const TAG_BIGINT: u64 = 0xfffd;
pub(crate) const TAG_CELL: u64 = 0xfffe;

const fn tagged(tag: u64, payload: u64) -> u64 {
    (tag << TAG_SHIFT) | payload
}

/// The canonical NaN every NaN is stored as.
pub(crate) const CANONICAL_NAN: u64 = 0x7ff8_0000_0000_0000;

/// A NaN-boxed JavaScript value (or an internal cell reference held in a register).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Value(u64);

/// The coarse kind of a value, for dispatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A number (double).
    Number,
    /// `undefined`.
    Undefined,
    /// `null`.
    Null,
    /// `true` or `false`.
    Boolean,
    /// The internal TDZ marker.
    Empty,
    /// An object.
    Object,
    /// A string.
    String,
    /// A symbol.
    Symbol,
    /// A BigInt.
    BigInt,
    /// An internal cell (never visible to JavaScript).
    Cell,
}

impl Value {
    /// `undefined`.
    pub const UNDEFINED: Value = Value(tagged(TAG_SPECIAL, 0));
    /// `null`.
    pub const NULL: Value = Value(tagged(TAG_SPECIAL, 1));
    /// `false`.
    pub const FALSE: Value = Value(tagged(TAG_SPECIAL, 2));
    /// `true`.
    pub const TRUE: Value = Value(tagged(TAG_SPECIAL, 3));
    /// The TDZ / hole marker.
    pub const EMPTY: Value = Value(tagged(TAG_SPECIAL, 4));
    /// `NaN`.
    pub const NAN: Value = Value(CANONICAL_NAN);
    /// `+0`.
    pub const ZERO: Value = Value(0);

    /// The raw bits (for hashing and the native tier).
    #[inline(always)]
    pub(crate) const fn bits(self) -> u64 {
        self.0
    }

    /// A number. NaNs whose bits would collide with a tag are canonicalized.
    #[inline(always)]
    pub(crate) fn number(n: f64) -> Value {
        let bits = n.to_bits();
        if bits >> TAG_SHIFT >= FIRST_TAG {
            Value(CANONICAL_NAN)
        } else {
            Value(bits)
        }
    }

    /// The result of `+ - * /` on number values, or any integer-valued double: no
    /// canonicalization needed, because IEEE arithmetic on operands whose NaNs are canonical
    /// yields either a non-NaN or a NaN with a canonical (`0x7ff8…`/`0xfff8…`) top, as x86-64
    /// and AArch64 propagate an operand NaN's payload and otherwise produce their default
    /// NaN. Checked in debug builds.
    #[inline(always)]
    pub(crate) fn number_arith(n: f64) -> Value {
        let bits = n.to_bits();
        debug_assert!(bits >> TAG_SHIFT < FIRST_TAG, "arithmetic produced a non-canonical NaN");
        Value(bits)
    }

    /// A boolean.
    #[inline(always)]
    pub(crate) fn boolean(b: bool) -> Value {
        if b {
            Value::TRUE
        } else {
            Value::FALSE
        }
    }

    /// An object value.
    #[inline(always)]
    pub(crate) fn object<T>(g: Gc<T>) -> Value {
        Value(tagged(TAG_OBJECT, g.addr() as u64))
    }

    /// A string value (a String or Rope cell).
    #[inline(always)]
    pub(crate) fn string<T>(g: Gc<T>) -> Value {
        Value(tagged(TAG_STRING, g.addr() as u64))
    }

    /// A symbol value.
    #[inline(always)]
    pub(crate) fn symbol<T>(g: Gc<T>) -> Value {
        Value(tagged(TAG_SYMBOL, g.addr() as u64))
    }

    /// A BigInt value.
    #[inline(always)]
    pub(crate) fn bigint<T>(g: Gc<T>) -> Value {
        Value(tagged(TAG_BIGINT, g.addr() as u64))
    }

    /// An internal cell (environment, accessor pair, for-in state, ...).
    #[inline(always)]
    pub(crate) fn cell<T>(g: Gc<T>) -> Value {
        Value(tagged(TAG_CELL, g.addr() as u64))
    }

    #[inline(always)]
    fn tag(self) -> u64 {
        self.0 >> TAG_SHIFT
    }

    /// The coarse kind.
    #[inline]
    pub(crate) fn kind(self) -> Kind {
        match self.tag() {
            t if t < FIRST_TAG => Kind::Number,
            TAG_SPECIAL => match self.0 & PAYLOAD_MASK {
                0 => Kind::Undefined,
                1 => Kind::Null,
                2 | 3 => Kind::Boolean,
                _ => Kind::Empty,
            },
            TAG_OBJECT => Kind::Object,
            TAG_STRING => Kind::String,
            TAG_SYMBOL => Kind::Symbol,
            TAG_BIGINT => Kind::BigInt,
            _ => Kind::Cell,
        }
    }

    /// Whether this is a number.
    #[inline(always)]
    pub(crate) fn is_number(self) -> bool {
        self.tag() < FIRST_TAG
    }
    /// The number, if this is one.
    #[inline(always)]
    pub(crate) fn as_number(self) -> Option<f64> {
        if self.is_number() {
            Some(f64::from_bits(self.0))
        } else {
            None
        }
    }
    /// The number; only meaningful when `is_number()`.
    #[inline(always)]
    pub(crate) fn number_unchecked(self) -> f64 {
        debug_assert!(self.is_number());
        f64::from_bits(self.0)
    }
    /// Whether this is `undefined`.
    #[inline(always)]
    pub(crate) fn is_undefined(self) -> bool {
        self == Value::UNDEFINED
    }
    /// Whether this is `null`.
    #[inline(always)]
    pub(crate) fn is_null(self) -> bool {
        self == Value::NULL
    }
    /// Whether this is `undefined` or `null`.
    #[inline(always)]
    pub(crate) fn is_nullish(self) -> bool {
        self == Value::UNDEFINED || self == Value::NULL
    }
    /// Whether this is the empty marker.
    #[inline(always)]
    pub(crate) fn is_empty(self) -> bool {
        self == Value::EMPTY
    }
    /// Whether this is a boolean.
    #[inline(always)]
    pub(crate) fn is_boolean(self) -> bool {
        self == Value::TRUE || self == Value::FALSE
    }
    /// The boolean, if this is one.
    #[inline(always)]
    pub(crate) fn as_boolean(self) -> Option<bool> {
        if self == Value::TRUE {
            Some(true)
        } else if self == Value::FALSE {
            Some(false)
        } else {
            None
        }
    }
    /// Whether this is an object.
    #[inline(always)]
    pub(crate) fn is_object(self) -> bool {
        self.tag() == TAG_OBJECT
    }
    /// Whether this is a string.
    #[inline(always)]
    pub(crate) fn is_string(self) -> bool {
        self.tag() == TAG_STRING
    }
    /// Whether this is a symbol.
    #[inline(always)]
    pub(crate) fn is_symbol(self) -> bool {
        self.tag() == TAG_SYMBOL
    }
    /// Whether this is a BigInt.
    #[inline(always)]
    pub(crate) fn is_bigint(self) -> bool {
        self.tag() == TAG_BIGINT
    }
    /// Whether this is an internal cell.
    #[inline(always)]
    pub(crate) fn is_cell(self) -> bool {
        self.tag() == TAG_CELL
    }
    /// Whether this value holds a pointer to a heap cell.
    #[inline(always)]
    pub(crate) fn is_pointer(self) -> bool {
        self.tag() > TAG_SPECIAL
    }

    /// The cell header this value points to, if it holds a pointer.
    #[inline(always)]
    pub(crate) fn as_header(self) -> Option<Gc<CellHeader>> {
        if self.is_pointer() {
            Some(self.gc())
        } else {
            None
        }
    }

    /// The address of the cell this value points to, unchecked (for the collector's
    /// marking, which checks the cell when it reads its header).
    #[inline(always)]
    pub(crate) fn pointer_addr(self) -> Option<usize> {
        self.is_pointer().then_some((self.0 & PAYLOAD_MASK) as usize)
    }

    /// The cell this value points to, as a `T`. Callers test the value's kind first; that it
    /// is a pointer and that the cell is one `T` admits are checked here in every build, so
    /// a `Gc<T>` made from a value always points at a `T` (typed fields of cells are `T`
    /// by construction): this is the one place where a type is put on an untyped pointer.
    #[inline(always)]
    pub(crate) fn gc<T: CellType>(self) -> Gc<T> {
        if !self.is_pointer() {
            not_a_pointer(self);
        }
        Gc::<CellHeader>::from_addr((self.0 & PAYLOAD_MASK) as usize).cast()
    }

    /// Whether `ToBoolean(self)` is true, for the kinds that need no heap access; strings
    /// and BigInts are answered by `Runtime::to_boolean`.
    #[inline]
    pub(crate) fn falsy_primitive(self) -> Option<bool> {
        match self.kind() {
            Kind::Number => {
                let n = self.number_unchecked();
                Some(n == 0.0 || n.is_nan())
            }
            Kind::Undefined | Kind::Null | Kind::Empty => Some(true),
            Kind::Boolean => Some(self == Value::FALSE),
            Kind::Object | Kind::Symbol | Kind::Cell => Some(false),
            Kind::String | Kind::BigInt => None,
        }
    }

    /// The value as an array index (a number that is an integer in `0 .. 2^32 - 1`).
    #[inline]
    pub(crate) fn as_array_index(self) -> Option<u32> {
        let n = self.as_number()?;
        // On x86-64: one truncating conversion, a range check on the integer and one
        // conversion back from 64 bits. A saturating `as u32` adds two dependent min/max
        // steps, and converting back from a u32 is compiled as from a u64 (four more steps),
        // all on the way to every indexed element's address: navier-stokes 1.15x, crypto 1.03x.
        #[cfg(target_arch = "x86_64")]
        {
            let i = ecma::number::truncate_x86(n);
            (i as f64 == n && (0..u32::MAX as i64).contains(&i)).then_some(i as u32)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let i = n as u32;
            (i as f64 == n && i != u32::MAX).then_some(i)
        }
    }
}

#[cold]
#[inline(never)]
fn not_a_pointer(v: Value) -> ! {
    panic!("value {:#x} used as a cell pointer", v.0)
}

/// The value with the given bits (the inverse of `Value::bits`, for keys stored as bits).
#[inline(always)]
pub(crate) fn from_bits(bits: u64) -> Value {
    Value(bits)
}

impl Default for Value {
    fn default() -> Value {
        Value::UNDEFINED
    }
}

impl From<f64> for Value {
    fn from(n: f64) -> Value {
        Value::number(n)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::boolean(b)
    }
}

impl From<i32> for Value {
    fn from(n: i32) -> Value {
        Value::number(n as f64)
    }
}

impl From<u32> for Value {
    fn from(n: u32) -> Value {
        Value::number(n as f64)
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            Kind::Number => write!(f, "{}", self.number_unchecked()),
            Kind::Undefined => write!(f, "undefined"),
            Kind::Null => write!(f, "null"),
            Kind::Boolean => write!(f, "{}", *self == Value::TRUE),
            Kind::Empty => write!(f, "<empty>"),
            Kind::Object => write!(f, "<object {:#x}>", self.0 & PAYLOAD_MASK),
            Kind::String => write!(f, "<string {:#x}>", self.0 & PAYLOAD_MASK),
            Kind::Symbol => write!(f, "<symbol {:#x}>", self.0 & PAYLOAD_MASK),
            Kind::BigInt => write!(f, "<bigint {:#x}>", self.0 & PAYLOAD_MASK),
            Kind::Cell => write!(f, "<cell {:#x}>", self.0 & PAYLOAD_MASK),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_round_trip() {
        for n in [0.0, -0.0, 1.5, -1e308, f64::INFINITY, f64::NEG_INFINITY, f64::MIN_POSITIVE] {
            let v = Value::number(n);
            assert_eq!(v.kind(), Kind::Number);
            assert_eq!(v.as_number().unwrap().to_bits(), n.to_bits());
        }
    }

    #[test]
    fn nans_are_canonical_and_stay_numbers() {
        let weird = f64::from_bits(0xffff_0000_dead_beef);
        assert!(Value::number(weird).is_number());
        assert!(Value::number(weird).number_unchecked().is_nan());
        assert!(Value::number(f64::NAN).is_number());
        let x86_default = f64::from_bits(0xfff8_0000_0000_0000);
        assert!(Value::number(x86_default).is_number());
    }

    #[test]
    fn specials_are_distinct() {
        let all = [Value::UNDEFINED, Value::NULL, Value::TRUE, Value::FALSE, Value::EMPTY];
        for (i, a) in all.iter().enumerate() {
            for (j, b) in all.iter().enumerate() {
                assert_eq!(i == j, a == b);
            }
            assert!(!a.is_number());
            assert!(!a.is_pointer());
        }
        assert_eq!(Value::UNDEFINED.falsy_primitive(), Some(true));
        assert_eq!(Value::TRUE.falsy_primitive(), Some(false));
        assert_eq!(Value::number(f64::NAN).falsy_primitive(), Some(true));
    }

    #[test]
    fn array_index() {
        assert_eq!(Value::number(3.0).as_array_index(), Some(3));
        assert_eq!(Value::number(3.5).as_array_index(), None);
        assert_eq!(Value::number(-1.0).as_array_index(), None);
        assert_eq!(Value::number(4294967295.0).as_array_index(), None);
        assert_eq!(Value::number(4294967294.0).as_array_index(), Some(4294967294));
        assert_eq!(Value::number(4294967294.5).as_array_index(), None);
        assert_eq!(Value::number(-0.0).as_array_index(), Some(0));
        assert_eq!(Value::number(-0.5).as_array_index(), None);
        assert_eq!(Value::number(1e300).as_array_index(), None);
        assert_eq!(Value::number(4294967296.0).as_array_index(), None);
        assert_eq!(Value::number(4294967297.0).as_array_index(), None);
        assert_eq!(Value::number(9223372036854775808.0).as_array_index(), None);
        assert_eq!(Value::number(-9223372036854775808.0).as_array_index(), None);
        for n in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(Value::number(n).as_array_index(), None);
        }
        assert_eq!(Value::UNDEFINED.as_array_index(), None);
    }
}
