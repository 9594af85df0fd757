//! TypedArray element access and the internal methods of integer-indexed exotic objects
//! (10.4.5): what `property.rs` calls when a TypedArray meets a numeric key.
//!
//! A key is numeric when it is an array index or another CanonicalNumericIndexString
//! ("-0", "1.5", "-1", "Infinity", "NaN", "4294967295"...). Numeric keys never reach the
//! TypedArray's shape or its prototype chain: an index out of range reads as undefined and
//! ignores writes, whatever the prototypes say.

use std::ops::Range;

use num_bigint::{BigInt, Sign};

use super::{JsResult, Runtime};
use crate::gc::{CellKind, Gc};
use crate::object::property::{Own, PropertyDescriptor};
use crate::object::shape::{CONFIGURABLE, ENUMERABLE, WRITABLE};
use crate::object::shared_buffer::SharedArrayBufferObject;
use crate::object::typed_array::{clamp_u8, decode, encode, wrap_integer, ElementKind, Raw, ViewObject};
use crate::object::{ArrayBufferObject, BigIntCell, JsObject, Key};
use crate::value::Value;

/// The attributes of a TypedArray element.
const ELEMENT_ATTRS: u8 = WRITABLE | ENUMERABLE | CONFIGURABLE;

impl Runtime {
    /// The byte length of the ArrayBuffer or SharedArrayBuffer `buffer`, or None once it is
    /// detached.
    #[inline]
    pub(crate) fn buffer_byte_length(&self, buffer: Gc<JsObject>) -> Option<usize> {
        match self.heap.object_kind(buffer) {
            CellKind::ArrayBuffer => self.heap.get(buffer.cast::<ArrayBufferObject>()).data.as_ref().map(Vec::len),
            _ => Some(self.heap.get(buffer.cast::<SharedArrayBufferObject>()).block.len()),
        }
    }

    /// Calls `f` with bytes `range` of `buffer` (in bounds: the caller checked). A shared
    /// buffer's bytes are copied out first, since other agents may be writing them.
    #[inline]
    pub(crate) fn buffer_read<R>(&self, buffer: Gc<JsObject>, range: Range<usize>, f: impl FnOnce(&[u8]) -> R) -> R {
        match self.heap.object_kind(buffer) {
            CellKind::ArrayBuffer => {
                f(&self.heap.get(buffer.cast::<ArrayBufferObject>()).data.as_deref().expect("attached")[range])
            }
            _ => {
                let mut copy = vec![0u8; range.len()];
                self.heap.get(buffer.cast::<SharedArrayBufferObject>()).block.read(range.start, &mut copy);
                f(&copy)
            }
        }
    }

    /// Calls `f` to change bytes `range` of `buffer` (in bounds: the caller checked). A
    /// shared buffer's bytes are copied out, changed and written back.
    #[inline]
    pub(crate) fn buffer_write<R>(
        &mut self,
        buffer: Gc<JsObject>,
        range: Range<usize>,
        f: impl FnOnce(&mut [u8]) -> R,
    ) -> R {
        match self.heap.object_kind(buffer) {
            CellKind::ArrayBuffer => {
                f(&mut self.heap.get_mut(buffer.cast::<ArrayBufferObject>()).data.as_deref_mut().expect("attached")
                    [range])
            }
            _ => {
                let block = &self.heap.get(buffer.cast::<SharedArrayBufferObject>()).block;
                let mut copy = vec![0u8; range.len()];
                block.read(range.start, &mut copy);
                let r = f(&mut copy);
                block.write(range.start, &copy);
                r
            }
        }
    }

    /// Reads `out.len()` bytes at `at` of `buffer` (in bounds: the caller checked).
    #[inline]
    fn buffer_load(&self, buffer: Gc<JsObject>, at: usize, out: &mut [u8]) {
        match self.heap.object_kind(buffer) {
            CellKind::ArrayBuffer => out.copy_from_slice(
                &self.heap.get(buffer.cast::<ArrayBufferObject>()).data.as_deref().expect("attached")
                    [at..at + out.len()],
            ),
            _ => self.heap.get(buffer.cast::<SharedArrayBufferObject>()).block.read(at, out),
        }
    }

    /// Writes `data` at `at` of `buffer` (in bounds: the caller checked).
    #[inline]
    fn buffer_store(&mut self, buffer: Gc<JsObject>, at: usize, data: &[u8]) {
        match self.heap.object_kind(buffer) {
            CellKind::ArrayBuffer => {
                self.heap.get_mut(buffer.cast::<ArrayBufferObject>()).data.as_deref_mut().expect("attached")
                    [at..at + data.len()]
                    .copy_from_slice(data)
            }
            _ => self.heap.get(buffer.cast::<SharedArrayBufferObject>()).block.write(at, data),
        }
    }

    /// GetValueFromBuffer: the element of `kind` at byte `at` of `buffer` (in bounds).
    #[inline]
    pub(crate) fn buffer_get(&self, buffer: Gc<JsObject>, at: usize, kind: ElementKind, little: bool) -> Raw {
        let mut b = [0u8; 8];
        let n = kind.size();
        self.buffer_load(buffer, at, &mut b[..n]);
        decode(kind, &b[..n], little)
    }

    /// SetValueInBuffer: stores `raw` as an element of `kind` at byte `at` of `buffer` (in
    /// bounds).
    #[inline]
    pub(crate) fn buffer_set(&mut self, buffer: Gc<JsObject>, at: usize, kind: ElementKind, raw: Raw, little: bool) {
        let mut b = [0u8; 8];
        let n = kind.size();
        encode(kind, raw, little, &mut b[..n]);
        self.buffer_store(buffer, at, &b[..n]);
    }

    /// The TypedArray or DataView `obj`'s cell.
    #[inline]
    pub(crate) fn view(&self, obj: Gc<JsObject>) -> &ViewObject {
        self.heap.get(obj.cast::<ViewObject>())
    }

    /// TypedArrayLength of a TypedArray, or None when it is out of bounds or its buffer is
    /// detached (IsTypedArrayOutOfBounds).
    #[inline]
    pub(crate) fn typed_array_length(&self, ta: Gc<JsObject>) -> Option<usize> {
        let v = self.view(ta);
        v.length_in(self.buffer_byte_length(v.buffer), v.kind.size())
    }

    /// The element at index `i` as raw bits, if `i` is a valid index.
    #[inline]
    pub(crate) fn typed_load(&self, ta: Gc<JsObject>, i: usize) -> Option<Raw> {
        let v = self.view(ta);
        let size = v.kind.size();
        if self.heap.object_kind(v.buffer) == CellKind::ArrayBuffer {
            // The common case, without copying: a plain buffer.
            let bytes = self.heap.get(v.buffer.cast::<ArrayBufferObject>()).data.as_deref()?;
            let len = v.length_in(Some(bytes.len()), size)?;
            if i >= len {
                return None;
            }
            let at = v.byte_offset + i * size;
            return Some(decode(v.kind, &bytes[at..at + size], true));
        }
        let len = v.length_in(self.buffer_byte_length(v.buffer), size)?;
        if i >= len {
            return None;
        }
        Some(self.buffer_get(v.buffer, v.byte_offset + i * size, v.kind, true))
    }

    /// Stores `raw` at index `i` if it is a valid index of a writable TypedArray; whether
    /// it was (an immutable buffer is never written).
    #[inline]
    pub(crate) fn typed_store(&mut self, ta: Gc<JsObject>, i: usize, raw: Raw) -> bool {
        let v = self.view(ta);
        let (kind, offset, buffer) = (v.kind, v.byte_offset, v.buffer);
        let size = kind.size();
        if self.is_immutable_view(ta) {
            return false;
        }
        let Some(len) = v.length_in(self.buffer_byte_length(buffer), size) else { return false };
        if i >= len {
            return false;
        }
        self.buffer_set(buffer, offset + i * size, kind, raw, true);
        true
    }

    /// The fast path of `o[i]` on a TypedArray of Numbers over a plain ArrayBuffer: the
    /// element, or None when anything is unusual (BigInts, a shared buffer, an invalid
    /// index), for the general path to handle.
    #[inline(always)]
    pub(crate) fn typed_load_number(&self, ta: Gc<JsObject>, i: usize) -> Option<f64> {
        let v = self.view(ta);
        if self.heap.object_kind(v.buffer) != CellKind::ArrayBuffer {
            return None;
        }
        let data = self.heap.get(v.buffer.cast::<ArrayBufferObject>()).data.as_deref()?;
        let size = v.kind.size();
        if i >= v.length_in(Some(data.len()), size)? {
            return None;
        }
        let at = v.byte_offset + i * size;
        let b = &data[at..at + size];
        Some(match v.kind {
            ElementKind::Int8 => b[0] as i8 as f64,
            ElementKind::Uint8 | ElementKind::Uint8Clamped => b[0] as f64,
            ElementKind::Int16 => i16::from_le_bytes([b[0], b[1]]) as f64,
            ElementKind::Uint16 => u16::from_le_bytes([b[0], b[1]]) as f64,
            ElementKind::Int32 => i32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64,
            ElementKind::Uint32 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64,
            ElementKind::Float32 => f32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64,
            ElementKind::Float64 => f64::from_le_bytes(b.try_into().expect("8 bytes")),
            ElementKind::Float16 | ElementKind::BigInt64 | ElementKind::BigUint64 => return None,
        })
    }

    /// The fast path of `o[i] = n` on a TypedArray of Numbers over a plain, mutable
    /// ArrayBuffer: whether it stored (false: the general path decides).
    #[inline(always)]
    pub(crate) fn typed_store_number(&mut self, ta: Gc<JsObject>, i: usize, n: f64) -> bool {
        let v = self.heap.get(ta.cast::<ViewObject>());
        let (kind, offset, length, buffer) = (v.kind, v.byte_offset, v.length, v.buffer);
        if self.heap.object_kind(buffer) != CellKind::ArrayBuffer {
            return false;
        }
        let ab = self.heap.get_mut(buffer.cast::<ArrayBufferObject>());
        if ab.immutable {
            return false;
        }
        let Some(data) = ab.data.as_deref_mut() else { return false };
        let size = kind.size();
        match crate::object::typed_array::view_length(offset, length, Some(data.len()), size) {
            Some(len) if i < len => {}
            _ => return false,
        }
        let at = offset + i * size;
        let b = &mut data[at..at + size];
        // Integers in the int32 range (the common case) wrap with one conversion.
        let int = |n: f64| if n as i32 as f64 == n { n as i32 as u32 } else { wrap_integer(n) as u32 };
        match kind {
            ElementKind::Int8 | ElementKind::Uint8 => b[0] = int(n) as u8,
            ElementKind::Uint8Clamped => b[0] = clamp_u8(n),
            ElementKind::Int16 | ElementKind::Uint16 => b.copy_from_slice(&(int(n) as u16).to_le_bytes()),
            ElementKind::Int32 | ElementKind::Uint32 => b.copy_from_slice(&int(n).to_le_bytes()),
            ElementKind::Float32 => b.copy_from_slice(&(n as f32).to_le_bytes()),
            ElementKind::Float64 => b.copy_from_slice(&n.to_le_bytes()),
            ElementKind::Float16 | ElementKind::BigInt64 | ElementKind::BigUint64 => return false,
        }
        true
    }

    /// A raw element as a JavaScript value.
    #[inline]
    pub(crate) fn raw_to_value(&mut self, raw: Raw) -> Value {
        match raw {
            Raw::Number(n) => Value::number(n),
            Raw::Signed(i) => self.new_bigint(BigInt::from(i)),
            Raw::Unsigned(u) => self.new_bigint(BigInt::from(u)),
        }
    }

    /// ToNumber or ToBigInt of `v` for an element of `kind`, as raw bits to store (BigInts
    /// reduced modulo 2^64, which is what ToBigInt64 and ToBigUint64 keep).
    pub(crate) fn coerce_element(&mut self, kind: ElementKind, v: Value) -> JsResult<Raw> {
        if kind.is_bigint() {
            if v.is_bigint() {
                return Ok(Raw::Unsigned(bigint_low_bits(&self.heap.get(v.gc::<BigIntCell>()).value)));
            }
            let b = self.to_bigint(v)?;
            return Ok(Raw::Unsigned(bigint_low_bits(&b)));
        }
        Ok(Raw::Number(self.to_number(v)?))
    }

    /// 10.4.5.15 TypedArrayGetElement(O, index): undefined unless `index` is valid.
    pub(crate) fn typed_get(&mut self, ta: Gc<JsObject>, index: f64) -> Value {
        match valid_usize(index).and_then(|i| self.typed_load(ta, i)) {
            Some(raw) => self.raw_to_value(raw),
            None => Value::UNDEFINED,
        }
    }

    /// 10.4.5.16 TypedArraySetElement(O, index, value): converts `value` (which may run
    /// JavaScript, and detach or shrink the buffer), then stores it if `index` is valid.
    pub(crate) fn typed_set(&mut self, ta: Gc<JsObject>, index: f64, value: Value) -> JsResult<()> {
        let kind = self.view(ta).kind;
        let raw = self.coerce_element(kind, value)?;
        if let Some(i) = valid_usize(index) {
            self.typed_store(ta, i, raw);
        }
        Ok(())
    }

    /// 10.4.5.14 IsValidIntegerIndex(O, index).
    pub(crate) fn is_valid_integer_index(&self, ta: Gc<JsObject>, index: f64) -> bool {
        match (valid_usize(index), self.typed_array_length(ta)) {
            (Some(i), Some(len)) => i < len,
            _ => false,
        }
    }

    /// The numeric value of `key` if it is a CanonicalNumericIndexString (7.1.21), for the
    /// internal methods of a TypedArray.
    pub(crate) fn canonical_numeric_key(&mut self, key: Key) -> Option<f64> {
        let k = match key {
            Key::Index(i) => return Some(i as f64),
            Key::Name(k) => k.value(),
        };
        if !k.is_string() {
            return None;
        }
        // Only strings that start as a number's ToString can be one.
        let first = {
            let flat = self.heap.flatten(k);
            let view = self.heap.str_view(flat);
            if view.len() == 0 {
                return None;
            }
            view.at(0)
        };
        if !(first == b'-' as u16 || first == b'I' as u16 || first == b'N' as u16 || (0x30..=0x39).contains(&first)) {
            return None;
        }
        let s = self.string_to_rust(k);
        if s == "-0" {
            return Some(-0.0);
        }
        let n = self.string_to_number(k);
        (ecma::conv::number_to_string::number_to_string(n) == s).then_some(n)
    }

    /// Where own numeric property `index` of TypedArray `ta` is: a virtual element, or
    /// absent (10.4.5.1 [[GetOwnProperty]]).
    pub(crate) fn typed_own_lookup(&mut self, ta: Gc<JsObject>, index: f64) -> Own {
        match valid_usize(index).and_then(|i| self.typed_load(ta, i)) {
            // The elements of an immutable buffer are read-only and cannot be reconfigured.
            Some(raw) if self.is_immutable_view(ta) => Own::Virtual(self.raw_to_value(raw), ENUMERABLE),
            Some(raw) => Own::Virtual(self.raw_to_value(raw), ELEMENT_ATTRS),
            None => Own::Absent,
        }
    }

    /// Whether the view `obj` is over an immutable ArrayBuffer.
    #[inline]
    pub(crate) fn is_immutable_view(&self, obj: Gc<JsObject>) -> bool {
        let buffer = self.view(obj).buffer;
        self.heap.object_kind(buffer) == CellKind::ArrayBuffer
            && self.heap.get(buffer.cast::<ArrayBufferObject>()).immutable
    }

    /// 10.4.5.3 [[DefineOwnProperty]] for a numeric key.
    pub(crate) fn typed_define(&mut self, ta: Gc<JsObject>, index: f64, desc: &PropertyDescriptor) -> JsResult<bool> {
        // i. If IsValidIntegerIndex(O, numericIndex) is false, return false.
        if !self.is_valid_integer_index(ta, index) {
            return Ok(false);
        }
        // An element of an immutable buffer is a non-writable, non-configurable property:
        // only a definition that changes nothing succeeds.
        if self.is_immutable_view(ta) {
            if desc.configurable == Some(true)
                || desc.enumerable == Some(false)
                || desc.is_accessor()
                || desc.writable == Some(true)
            {
                return Ok(false);
            }
            let current = self.typed_get(ta, index);
            return Ok(desc.value.is_none_or(|v| self.same_value(v, current)));
        }
        // ii-v. Only a writable, enumerable, configurable data property can be defined.
        if desc.configurable == Some(false)
            || desc.enumerable == Some(false)
            || desc.is_accessor()
            || desc.writable == Some(false)
        {
            return Ok(false);
        }
        // vi. If Desc has a [[Value]] field, perform ? TypedArraySetElement(O, numericIndex, value).
        if let Some(v) = desc.value {
            self.typed_set(ta, index, v)?;
        }
        Ok(true)
    }

    /// IsTypedArrayFixedLength(O) (10.4.5): false for a view that tracks its buffer's
    /// length or whose buffer is resizable ([[PreventExtensions]] then fails).
    pub(crate) fn is_typed_array_fixed_length(&self, ta: Gc<JsObject>) -> bool {
        let v = self.view(ta);
        v.length.is_some() && self.is_fixed_length_buffer(v.buffer)
    }

    /// IsFixedLengthArrayBuffer: not a resizable ArrayBuffer nor a growable
    /// SharedArrayBuffer.
    pub(crate) fn is_fixed_length_buffer(&self, buffer: Gc<JsObject>) -> bool {
        match self.heap.object_kind(buffer) {
            CellKind::ArrayBuffer => self.heap.get(buffer.cast::<ArrayBufferObject>()).max.is_none(),
            _ => self.heap.get(buffer.cast::<SharedArrayBufferObject>()).block.max.is_none(),
        }
    }

    /// Whether `obj` is a TypedArray.
    #[inline]
    pub(crate) fn is_typed_array(&self, obj: Gc<JsObject>) -> bool {
        self.heap.object_kind(obj) == CellKind::TypedArray
    }
}

/// `index` as a `usize` if it is an integer that is not -0 and not negative.
#[inline]
fn valid_usize(index: f64) -> Option<usize> {
    if index >= 0.0 && index.fract() == 0.0 && !(index == 0.0 && index.is_sign_negative()) && index < 9.0e15 {
        Some(index as usize)
    } else {
        None
    }
}

/// A BigInt's value modulo 2^64.
pub(crate) fn bigint_low_bits(b: &BigInt) -> u64 {
    let (sign, digits) = b.to_u64_digits();
    let low = digits.first().copied().unwrap_or(0);
    if sign == Sign::Minus {
        low.wrapping_neg()
    } else {
        low
    }
}
