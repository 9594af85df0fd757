//! Views on an ArrayBuffer's bytes: TypedArrays (23.2) and DataViews (25.3), and the
//! encoding of their element types.
//!
//! A view holds its buffer, a byte offset and a length (`None` for a view that tracks the
//! length of a resizable buffer). It never keeps a pointer into the bytes: a buffer's
//! vector may move when it is resized or detached, so every access goes through the
//! buffer and checks the current length ([`ViewObject::length_in`]).
//!
//! ```text
//!  TypedArray ─▶ ArrayBuffer { data: Some(Vec<u8>) | None (detached), max }
//!     byte_offset, length (None: tracks the buffer), kind (element type)
//! ```
//!
//! The element types are declared once, in `for_each_element_kind!`.

use crate::gc::{CellKind, CellType, Gc};
use crate::object::{JsObject, ObjectCell};

macro_rules! for_each_element_kind {
    ($m:ident) => {
        $m! {
            /// 8-bit two's complement integers.
            Int8, "Int8Array", 1;
            /// 8-bit unsigned integers.
            Uint8, "Uint8Array", 1;
            /// 8-bit unsigned integers, stores clamped and rounded.
            Uint8Clamped, "Uint8ClampedArray", 1;
            /// 16-bit two's complement integers.
            Int16, "Int16Array", 2;
            /// 16-bit unsigned integers.
            Uint16, "Uint16Array", 2;
            /// 32-bit two's complement integers.
            Int32, "Int32Array", 4;
            /// 32-bit unsigned integers.
            Uint32, "Uint32Array", 4;
            /// IEEE 754 binary16.
            Float16, "Float16Array", 2;
            /// IEEE 754 binary32.
            Float32, "Float32Array", 4;
            /// IEEE 754 binary64.
            Float64, "Float64Array", 8;
            /// 64-bit two's complement integers, read as BigInts.
            BigInt64, "BigInt64Array", 8;
            /// 64-bit unsigned integers, read as BigInts.
            BigUint64, "BigUint64Array", 8;
        }
    };
}

macro_rules! define_element_kinds {
    ($( $(#[$meta:meta])* $name:ident, $ctor:literal, $size:literal; )*) => {
        /// The element type of a TypedArray (Table 71) or of a DataView access.
        #[repr(u8)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum ElementKind { $( $(#[$meta])* $name, )* }

        impl ElementKind {
            /// Every kind, in table order.
            pub const ALL: &'static [ElementKind] = &[$(ElementKind::$name),*];

            /// The constructor's name (`[[TypedArrayName]]`).
            pub fn name(self) -> &'static str {
                match self { $( ElementKind::$name => $ctor, )* }
            }

            /// The element size in bytes.
            #[inline]
            pub fn size(self) -> usize {
                match self { $( ElementKind::$name => $size, )* }
            }
        }
    };
}
for_each_element_kind!(define_element_kinds);

impl ElementKind {
    /// Whether elements are BigInts (`[[ContentType]]` is bigint).
    #[inline]
    pub fn is_bigint(self) -> bool {
        matches!(self, ElementKind::BigInt64 | ElementKind::BigUint64)
    }

    /// The kind with table index `i`.
    pub fn from_index(i: usize) -> Option<ElementKind> {
        ElementKind::ALL.get(i).copied()
    }
}

/// An element as raw bits, before it becomes a JavaScript value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Raw {
    /// A Number element.
    Number(f64),
    /// A BigInt64 element.
    Signed(i64),
    /// A BigUint64 element.
    Unsigned(u64),
}

/// Decodes the element of `kind` from `bytes` (exactly `kind.size()` of them).
#[inline]
pub fn decode(kind: ElementKind, bytes: &[u8], little: bool) -> Raw {
    let mut b = [0u8; 8];
    let n = kind.size();
    b[..n].copy_from_slice(&bytes[..n]);
    if little != cfg!(target_endian = "little") {
        b[..n].reverse();
    }
    let (b1, b2, b4) = ([b[0]], [b[0], b[1]], [b[0], b[1], b[2], b[3]]);
    match kind {
        ElementKind::Int8 => Raw::Number(i8::from_ne_bytes(b1) as f64),
        ElementKind::Uint8 | ElementKind::Uint8Clamped => Raw::Number(b[0] as f64),
        ElementKind::Int16 => Raw::Number(i16::from_ne_bytes(b2) as f64),
        ElementKind::Uint16 => Raw::Number(u16::from_ne_bytes(b2) as f64),
        ElementKind::Int32 => Raw::Number(i32::from_ne_bytes(b4) as f64),
        ElementKind::Uint32 => Raw::Number(u32::from_ne_bytes(b4) as f64),
        ElementKind::Float16 => Raw::Number(f16_to_f64(u16::from_ne_bytes(b2))),
        ElementKind::Float32 => Raw::Number(f32::from_ne_bytes(b4) as f64),
        ElementKind::Float64 => Raw::Number(f64::from_ne_bytes(b)),
        ElementKind::BigInt64 => Raw::Signed(i64::from_ne_bytes(b)),
        ElementKind::BigUint64 => Raw::Unsigned(u64::from_ne_bytes(b)),
    }
}

/// Encodes `n` (a Number, or for the BigInt kinds an integer already reduced modulo 2^64
/// and passed as its low 64 bits in `Raw::Unsigned`) as an element of `kind` into `out`
/// (exactly `kind.size()` bytes), with the conversions of 7.1 (ToInt8 ... ToUint8Clamp).
#[inline]
pub fn encode(kind: ElementKind, n: Raw, little: bool, out: &mut [u8]) {
    let b: [u8; 8] = match (kind, n) {
        (ElementKind::Int8 | ElementKind::Uint8, Raw::Number(n)) => widen(&[wrap_integer(n) as u8]),
        (ElementKind::Uint8Clamped, Raw::Number(n)) => widen(&[clamp_u8(n)]),
        (ElementKind::Int16 | ElementKind::Uint16, Raw::Number(n)) => widen(&(wrap_integer(n) as u16).to_ne_bytes()),
        (ElementKind::Int32 | ElementKind::Uint32, Raw::Number(n)) => widen(&(wrap_integer(n) as u32).to_ne_bytes()),
        (ElementKind::Float16, Raw::Number(n)) => widen(&f64_to_f16(n).to_ne_bytes()),
        (ElementKind::Float32, Raw::Number(n)) => widen(&(n as f32).to_ne_bytes()),
        (ElementKind::Float64, Raw::Number(n)) => n.to_ne_bytes(),
        (_, Raw::Signed(i)) => i.to_ne_bytes(),
        (_, Raw::Unsigned(u)) => u.to_ne_bytes(),
        // A Number never reaches a BigInt kind (the caller converts with ToBigInt).
        (ElementKind::BigInt64 | ElementKind::BigUint64, Raw::Number(n)) => wrap_integer(n).to_ne_bytes(),
    };
    let n = kind.size();
    out[..n].copy_from_slice(&b[..n]);
    if little != cfg!(target_endian = "little") {
        out[..n].reverse();
    }
}

/// The first bytes of an 8-byte buffer.
#[inline]
fn widen(bytes: &[u8]) -> [u8; 8] {
    let mut b = [0u8; 8];
    b[..bytes.len()].copy_from_slice(bytes);
    b
}

/// The integer part of `n` modulo 2^64 (0 for NaN and the infinities): the common step of
/// ToInt8 … ToUint32, whose results are its low 8, 16 or 32 bits.
#[inline]
pub fn wrap_integer(n: f64) -> u64 {
    if !n.is_finite() {
        return 0;
    }
    let t = n.trunc();
    if t.abs() < (1u64 << 63) as f64 {
        return t as i64 as u64;
    }
    const TWO_64: f64 = 18_446_744_073_709_551_616.0;
    let m = t % TWO_64;
    let m = if m < 0.0 { m + TWO_64 } else { m };
    // `m` is an integer in [0, 2^64) and a multiple of 2^11 here: the conversion is exact.
    m as u64
}

/// 7.1.12 ToUint8Clamp: clamped to 0..=255, rounded half to even.
#[inline]
pub fn clamp_u8(n: f64) -> u8 {
    if n.is_nan() || n <= 0.0 {
        return 0;
    }
    if n >= 255.0 {
        return 255;
    }
    let f = n.floor();
    let r = if f + 0.5 < n || (n == f + 0.5 && f % 2.0 != 0.0) { f + 1.0 } else { f };
    r as u8
}

/// binary16 bits to a double (exact).
pub fn f16_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = ((h >> 10) & 0x1f) as i32;
    let frac = (h & 0x3ff) as f64;
    match exp {
        0 => sign * frac * (2f64).powi(-24),
        31 if frac == 0.0 => sign * f64::INFINITY,
        31 => f64::NAN,
        _ => sign * (1.0 + frac / 1024.0) * (2f64).powi(exp - 15),
    }
}

/// A double rounded to binary16 bits (roundTiesToEven, directly from the double: going
/// through binary32 would round twice).
pub fn f64_to_f16(x: f64) -> u16 {
    let bits = x.to_bits();
    let sign = ((bits >> 48) & 0x8000) as u16;
    if x.is_nan() {
        return 0x7e00;
    }
    let a = x.abs();
    if a.is_infinite() {
        return sign | 0x7c00;
    }
    // The largest binary16 is 65504; halfway to the next power (65520) rounds up to infinity.
    if a >= 65520.0 {
        return sign | 0x7c00;
    }
    if a < (2f64).powi(-14) {
        // Subnormal (or zero): a multiple of 2^-24, rounded to nearest even.
        let q = a * (2f64).powi(24);
        return sign | round_half_even(q) as u16;
    }
    let e = a.log2().floor() as i32;
    // log2 may be off by one at the boundaries: adjust so that 2^e <= a < 2^(e+1).
    let e = if (2f64).powi(e) > a {
        e - 1
    } else if (2f64).powi(e + 1) <= a {
        e + 1
    } else {
        e
    };
    let m = a / (2f64).powi(e) - 1.0; // in [0, 1)
    let frac = round_half_even(m * 1024.0);
    let (e, frac) = if frac == 1024 { (e + 1, 0) } else { (e, frac) };
    if e > 15 {
        return sign | 0x7c00;
    }
    sign | (((e + 15) as u16) << 10) | frac as u16
}

/// `q` (non-negative, exactly representable scaled value) rounded to the nearest integer,
/// ties to even.
fn round_half_even(q: f64) -> u32 {
    let f = q.floor();
    let diff = q - f;
    let r = if diff > 0.5 || (diff == 0.5 && f % 2.0 != 0.0) { f + 1.0 } else { f };
    r as u32
}

/// A TypedArray or a DataView (cell kinds `TypedArray` and `DataView`).
#[repr(C)]
pub struct ViewObject {
    pub(crate) base: JsObject,
    /// `[[ViewedArrayBuffer]]`: an ArrayBuffer.
    pub buffer: Gc<JsObject>,
    /// `[[ByteOffset]]`.
    pub byte_offset: usize,
    /// `[[ArrayLength]]` of a TypedArray (elements) or `[[ByteLength]]` of a DataView
    /// (bytes); `None` when it tracks the length of a resizable buffer (auto).
    pub length: Option<usize>,
    /// The element type (of a DataView: unused, `Uint8`).
    pub kind: ElementKind,
}

impl ViewObject {
    /// A view of `buffer`.
    pub(crate) fn new(
        base: JsObject,
        buffer: Gc<JsObject>,
        byte_offset: usize,
        length: Option<usize>,
        kind: ElementKind,
    ) -> ViewObject {
        ViewObject { base, buffer, byte_offset, length, kind }
    }

    /// The view's length in its units (elements of a TypedArray, bytes of a DataView) given
    /// its buffer's current byte length (`None`: detached), or `None` when the view is out
    /// of bounds (IsTypedArrayOutOfBounds / IsViewOutOfBounds, then TypedArrayLength /
    /// GetViewByteLength).
    #[inline]
    pub fn length_in(&self, buffer_len: Option<usize>, unit: usize) -> Option<usize> {
        view_length(self.byte_offset, self.length, buffer_len, unit)
    }
}

/// The length of a view at `byte_offset` with `length` units of `unit` bytes (`None`:
/// tracking) over a buffer of `buffer_len` bytes (`None`: detached), or `None` when it is
/// out of bounds.
#[inline]
pub fn view_length(byte_offset: usize, length: Option<usize>, buffer_len: Option<usize>, unit: usize) -> Option<usize> {
    let buffer_len = buffer_len?;
    if byte_offset > buffer_len {
        return None;
    }
    match length {
        None => Some((buffer_len - byte_offset) / unit),
        Some(n) => {
            let end = byte_offset.checked_add(n.checked_mul(unit)?)?;
            (end <= buffer_len).then_some(n)
        }
    }
}

// SAFETY: repr(C), JsObject first; the kind is TypedArray or DataView (`admits`).
unsafe impl CellType for ViewObject {
    const KIND: Option<CellKind> = None;

    #[inline(always)]
    fn admits(kind: CellKind) -> bool {
        matches!(kind, CellKind::TypedArray | CellKind::DataView)
    }
}
// SAFETY: starts with JsObject.
unsafe impl ObjectCell for ViewObject {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float16_round_trips_and_rounds_to_even() {
        for h in 0..=0xffffu16 {
            let d = f16_to_f64(h);
            if d.is_nan() {
                continue;
            }
            assert_eq!(f64_to_f16(d), h, "{h:#x} -> {d}");
        }
        // Ties: 1 + 2^-11 is halfway between 1 and 1 + 2^-10: to even (1).
        assert_eq!(f64_to_f16(1.0 + (2f64).powi(-11)), 0x3c00);
        // Just above the tie rounds up; binary32 would have rounded the tie first.
        assert_eq!(f64_to_f16(1.0 + (2f64).powi(-11) + (2f64).powi(-40)), 0x3c01);
        assert_eq!(f64_to_f16(65504.0), 0x7bff);
        assert_eq!(f64_to_f16(65519.99), 0x7bff);
        assert_eq!(f64_to_f16(65520.0), 0x7c00);
        assert_eq!(f64_to_f16(-0.0), 0x8000);
        assert_eq!(f64_to_f16((2f64).powi(-25)), 0);
        assert_eq!(f64_to_f16((2f64).powi(-25) * 1.5), 1);
    }

    #[test]
    fn integer_conversions_wrap_and_clamp() {
        assert_eq!(wrap_integer(-1.0) as u8, 255);
        assert_eq!(wrap_integer(256.7) as u8, 0);
        assert_eq!(wrap_integer(-129.0) as u8 as i8, 127);
        assert_eq!(wrap_integer(4294967296.0 + 5.0) as u32, 5);
        assert_eq!(wrap_integer(1e20) as u32, (1e20f64 % 4294967296.0) as u32);
        assert_eq!(wrap_integer(-1e20) as u16, 0);
        assert_eq!(wrap_integer(-3e19) as u32, ((-3e19f64 % 4294967296.0) + 4294967296.0) as u32);
        assert_eq!(wrap_integer(f64::NAN), 0);
        assert_eq!(clamp_u8(2.5), 2);
        assert_eq!(clamp_u8(3.5), 4);
        assert_eq!(clamp_u8(254.5), 254);
        assert_eq!(clamp_u8(-0.5), 0);
        assert_eq!(clamp_u8(300.0), 255);
    }

    #[test]
    fn views_go_out_of_bounds_with_their_buffer() {
        let view = |offset, length| (offset, length);
        let length_in = |(o, l): (usize, Option<usize>), b, u| view_length(o, l, b, u);
        assert_eq!(length_in(view(4, Some(2)), Some(12), 4), Some(2));
        assert_eq!(length_in(view(4, Some(2)), Some(11), 4), None);
        assert_eq!(length_in(view(4, None), Some(11), 4), Some(1));
        assert_eq!(length_in(view(4, None), Some(4), 4), Some(0));
        assert_eq!(length_in(view(4, None), Some(3), 4), None);
        assert_eq!(length_in(view(0, None), None, 4), None);
    }
}
