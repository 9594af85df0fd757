//! Strings with JavaScript's UTF-16 semantics.
//!
//! A string value points at one of two cells:
//! - [`JsString`]: flat code units stored inline after the header, one byte per unit when
//!   every unit is below 256 (Latin-1) and two bytes otherwise. The representation is
//!   normalized (a two-byte string always has a unit ≥ 256), so equal strings have equal
//!   representations and comparison never mixes widths.
//! - [`Rope`]: the lazy concatenation of two strings made by `+` on long operands, so that a
//!   loop doing `s += x` is linear; the first read of its contents flattens it once into a
//!   `JsString` that the rope keeps (and it drops its children).
//!
//! Property names are *atoms*: interned flat strings (see `atoms.rs`), compared by pointer.

pub mod atoms;
pub mod builder;

use crate::gc::{CellHeader, CellKind, CellType, Gc, Heap};
use crate::value::Value;

pub use builder::StringBuilder;

/// `JsString` flag: the units are stored one byte each.
pub const ONE_BYTE: u8 = 1;
/// `JsString` flag: this string is the interned atom for its contents.
pub const ATOM: u8 = 2;
/// `JsString` flag: `hash` holds the hash of the contents.
pub const HASHED: u8 = 4;
/// `JsString` flag: the atom is a canonical array index (its value is in `index`).
pub const INDEX: u8 = 8;
/// `JsString` flag: the index check was done (with `INDEX` telling the answer).
pub const INDEX_CHECKED: u8 = 16;

/// Longest string length allowed (as V8's 2^29 - 24 on 64-bit).
pub const MAX_STRING_LENGTH: usize = (1 << 29) - 24;

/// A flat string cell; the code units follow the struct.
#[repr(C)]
pub struct JsString {
    pub(crate) header: CellHeader,
    pub(crate) hash: u32,
    pub(crate) index: u32,
}

// SAFETY: repr(C) with the header first; kind String.
unsafe impl CellType for JsString {
    const KIND: Option<CellKind> = Some(CellKind::String);
    const LEAF: bool = true;
}

/// A rope cell: `left + right`, or `flat` once flattened.
#[repr(C)]
pub struct Rope {
    pub(crate) header: CellHeader,
    pub(crate) depth: u32,
    pub(crate) left: Value,
    pub(crate) right: Value,
    /// The flattened string, or empty until the first read.
    pub(crate) flat: Value,
}

// SAFETY: repr(C) with the header first; kind Rope.
unsafe impl CellType for Rope {
    const KIND: Option<CellKind> = Some(CellKind::Rope);
}

/// A read-only view of a flat string's units.
#[derive(Clone, Copy, Debug)]
pub enum StrView<'a> {
    /// One unit per byte.
    Latin1(&'a [u8]),
    /// UTF-16 units (at least one ≥ 256).
    Utf16(&'a [u16]),
}

impl<'a> StrView<'a> {
    /// Number of code units.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        match self {
            StrView::Latin1(b) => b.len(),
            StrView::Utf16(u) => u.len(),
        }
    }
    /// The unit at `i` (panics out of range; callers check).
    #[inline]
    pub(crate) fn at(&self, i: usize) -> u16 {
        match self {
            StrView::Latin1(b) => b[i] as u16,
            StrView::Utf16(u) => u[i],
        }
    }
    /// Copies the units out.
    pub(crate) fn to_units(self) -> Vec<u16> {
        match self {
            StrView::Latin1(b) => b.iter().map(|&c| c as u16).collect(),
            StrView::Utf16(u) => u.to_vec(),
        }
    }
    /// Appends the units to `out`.
    pub(crate) fn push_units(&self, out: &mut Vec<u16>) {
        match self {
            StrView::Latin1(b) => out.extend(b.iter().map(|&c| c as u16)),
            StrView::Utf16(u) => out.extend_from_slice(u),
        }
    }
    /// A Rust string (lone surrogates become U+FFFD).
    pub(crate) fn to_rust_string(self) -> String {
        match self {
            StrView::Latin1(b) => b.iter().map(|&c| c as char).collect(),
            StrView::Utf16(u) => String::from_utf16_lossy(u),
        }
    }
    /// Content equality.
    pub(crate) fn eq_view(&self, other: &StrView<'_>) -> bool {
        match (self, other) {
            (StrView::Latin1(a), StrView::Latin1(b)) => a == b,
            (StrView::Utf16(a), StrView::Utf16(b)) => a == b,
            _ => false,
        }
    }
    /// Lexicographic comparison by code units (the `<` of strings).
    pub(crate) fn cmp_view(&self, other: &StrView<'_>) -> std::cmp::Ordering {
        match (self, other) {
            (StrView::Latin1(a), StrView::Latin1(b)) => a.cmp(b),
            _ => {
                let n = self.len().min(other.len());
                for i in 0..n {
                    let (x, y) = (self.at(i), other.at(i));
                    if x != y {
                        return x.cmp(&y);
                    }
                }
                self.len().cmp(&other.len())
            }
        }
    }
    /// The hash used by the atom table (FNV-1a over the units, so both widths agree).
    pub(crate) fn hash(&self) -> u32 {
        let mut h: u32 = 0x811c_9dc5;
        match self {
            StrView::Latin1(b) => {
                for &c in b.iter() {
                    h = (h ^ c as u32).wrapping_mul(0x0100_0193);
                }
            }
            StrView::Utf16(u) => {
                for &c in u.iter() {
                    h = (h ^ c as u32).wrapping_mul(0x0100_0193);
                }
            }
        }
        h
    }
    /// The value if the string is a canonical array index ("0", "1", ... "4294967294").
    pub(crate) fn as_array_index(&self) -> Option<u32> {
        let n = self.len();
        if n == 0 || n > 10 {
            return None;
        }
        let first = self.at(0);
        if first == b'0' as u16 {
            return if n == 1 { Some(0) } else { None };
        }
        let mut v: u64 = 0;
        for i in 0..n {
            let c = self.at(i);
            if !(b'0' as u16..=b'9' as u16).contains(&c) {
                return None;
            }
            v = v * 10 + (c - b'0' as u16) as u64;
        }
        if v < u32::MAX as u64 {
            Some(v as u32)
        } else {
            None
        }
    }
    /// Index of the first occurrence of `needle` at or after `from`.
    pub(crate) fn find(&self, needle: &StrView<'_>, from: usize) -> Option<usize> {
        let (n, m) = (self.len(), needle.len());
        if m == 0 {
            return if from <= n { Some(from) } else { None };
        }
        if m > n {
            return None;
        }
        if let (StrView::Latin1(h), StrView::Latin1(nd)) = (self, needle) {
            let mut i = from;
            while i + m <= n {
                if h[i] == nd[0] && &h[i..i + m] == *nd {
                    return Some(i);
                }
                i += 1;
            }
            return None;
        }
        let mut i = from;
        while i + m <= n {
            if (0..m).all(|k| self.at(i + k) == needle.at(k)) {
                return Some(i);
            }
            i += 1;
        }
        None
    }
    /// Index of the last occurrence of `needle` starting at or before `from`.
    pub(crate) fn rfind(&self, needle: &StrView<'_>, from: usize) -> Option<usize> {
        let (n, m) = (self.len(), needle.len());
        if m > n {
            return None;
        }
        let mut i = from.min(n - m) as isize;
        while i >= 0 {
            let s = i as usize;
            if (0..m).all(|k| self.at(s + k) == needle.at(k)) {
                return Some(s);
            }
            i -= 1;
        }
        None
    }
}

impl Heap {
    /// The units of a flat string.
    #[inline]
    pub(crate) fn str_view(&self, s: Gc<JsString>) -> StrView<'_> {
        let h = &self.get(s).header;
        let len = h.aux32 as usize;
        // SAFETY: a flat string is allocated with `aux32` units of the width its ONE_BYTE
        // flag says, and neither changes afterwards.
        unsafe {
            if h.flags & ONE_BYTE != 0 {
                StrView::Latin1(self.trailing::<JsString, u8>(s, len))
            } else {
                StrView::Utf16(self.trailing::<JsString, u16>(s, len))
            }
        }
    }

    /// The length in code units of a string value (flat or rope).
    #[inline]
    pub(crate) fn string_len(&self, v: Value) -> usize {
        let h: Gc<CellHeader> = v.gc();
        self.get(h).aux32 as usize
    }

    /// Allocates a flat string from Latin-1 units.
    pub(crate) fn alloc_latin1(&mut self, units: &[u8]) -> Gc<JsString> {
        let mut header = CellHeader::new(CellKind::String);
        header.flags = ONE_BYTE;
        header.aux32 = units.len() as u32;
        self.alloc_trailing_from(JsString { header, hash: 0, index: 0 }, units)
    }

    /// Allocates a flat string from UTF-16 units (stored one-byte if possible).
    pub(crate) fn alloc_utf16(&mut self, units: &[u16]) -> Gc<JsString> {
        if units.iter().all(|&u| u < 256) {
            let bytes: Vec<u8> = units.iter().map(|&u| u as u8).collect();
            return self.alloc_latin1(&bytes);
        }
        let mut header = CellHeader::new(CellKind::String);
        header.aux32 = units.len() as u32;
        self.alloc_trailing_from(JsString { header, hash: 0, index: 0 }, units)
    }

    /// Allocates a flat string from a Rust string.
    pub(crate) fn alloc_str(&mut self, s: &str) -> Gc<JsString> {
        if s.is_ascii() {
            self.alloc_latin1(s.as_bytes())
        } else {
            let units: Vec<u16> = s.encode_utf16().collect();
            self.alloc_utf16(&units)
        }
    }

    /// The hash of a flat string (cached in the cell).
    pub(crate) fn str_hash(&mut self, s: Gc<JsString>) -> u32 {
        let cell = self.get(s);
        if cell.header.flags & HASHED != 0 {
            return cell.hash;
        }
        let h = self.str_view(s).hash();
        let cell = self.get_mut(s);
        cell.hash = h;
        cell.header.flags |= HASHED;
        h
    }

    /// Flattens a string value (a `JsString` or a `Rope`) and returns the flat cell.
    /// Allocates when a rope is read for the first time; never collects.
    pub(crate) fn flatten(&mut self, v: Value) -> Gc<JsString> {
        debug_assert!(v.is_string());
        let h: Gc<CellHeader> = v.gc();
        if self.kind_of(h) == CellKind::String {
            return h.cast();
        }
        let rope: Gc<Rope> = h.cast();
        let flat = self.get(rope).flat;
        if !flat.is_empty() {
            return flat.gc();
        }
        let len = self.get(rope).header.aux32 as usize;
        let one_byte = self.get(rope).header.flags & ONE_BYTE != 0;
        let result = if one_byte {
            let mut out: Vec<u8> = Vec::with_capacity(len);
            self.collect_rope_latin1(v, &mut out);
            self.alloc_latin1(&out)
        } else {
            let mut out: Vec<u16> = Vec::with_capacity(len);
            self.collect_rope_utf16(v, &mut out);
            self.alloc_utf16(&out)
        };
        let r = self.get_mut(rope);
        r.flat = Value::string(result);
        r.left = Value::EMPTY;
        r.right = Value::EMPTY;
        result
    }

    /// Appends the units of a string value of one-byte units to `out`, iteratively over the
    /// rope's left spine so deep ropes built by `+=` do not overflow the Rust stack.
    fn collect_rope_latin1(&self, v: Value, out: &mut Vec<u8>) {
        let mut stack = vec![v];
        while let Some(v) = stack.pop() {
            let h: Gc<CellHeader> = v.gc();
            if self.kind_of(h) == CellKind::String {
                match self.str_view(h.cast()) {
                    StrView::Latin1(b) => out.extend_from_slice(b),
                    StrView::Utf16(u) => out.extend(u.iter().map(|&c| c as u8)),
                }
            } else {
                let r = self.get(h.cast::<Rope>());
                if !r.flat.is_empty() {
                    stack.push(r.flat);
                } else {
                    stack.push(r.right);
                    stack.push(r.left);
                }
            }
        }
    }

    fn collect_rope_utf16(&self, v: Value, out: &mut Vec<u16>) {
        let mut stack = vec![v];
        while let Some(v) = stack.pop() {
            let h: Gc<CellHeader> = v.gc();
            if self.kind_of(h) == CellKind::String {
                self.str_view(h.cast()).push_units(out);
            } else {
                let r = self.get(h.cast::<Rope>());
                if !r.flat.is_empty() {
                    stack.push(r.flat);
                } else {
                    stack.push(r.right);
                    stack.push(r.left);
                }
            }
        }
    }

    /// Whether a string value's units are all one-byte.
    pub(crate) fn string_is_one_byte(&self, v: Value) -> bool {
        let h: Gc<CellHeader> = v.gc();
        self.get(h).flags & ONE_BYTE != 0
    }

    /// A rope for `left + right` (both non-empty string values).
    pub(crate) fn alloc_rope(&mut self, left: Value, right: Value) -> Gc<Rope> {
        let len = self.string_len(left) + self.string_len(right);
        let one = self.string_is_one_byte(left) && self.string_is_one_byte(right);
        let depth = self.rope_depth(left).max(self.rope_depth(right)) + 1;
        let mut header = CellHeader::new(CellKind::Rope);
        header.aux32 = len as u32;
        header.flags = if one { ONE_BYTE } else { 0 };
        self.alloc(Rope { header, depth, left, right, flat: Value::EMPTY })
    }

    fn rope_depth(&self, v: Value) -> u32 {
        let h: Gc<CellHeader> = v.gc();
        if self.kind_of(h) == CellKind::Rope {
            self.get(h.cast::<Rope>()).depth
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_strings_normalize() {
        let mut heap = Heap::new(1 << 30, crate::runtime::trace::CELL_OPS);
        let a = heap.alloc_str("héllo");
        assert!(matches!(heap.str_view(a), StrView::Latin1(_)));
        let b = heap.alloc_utf16(&[0x68, 0xe9, 0x6c, 0x6c, 0x6f]);
        assert!(heap.str_view(a).eq_view(&heap.str_view(b)));
        let c = heap.alloc_str("€1");
        assert!(matches!(heap.str_view(c), StrView::Utf16(_)));
        assert_eq!(heap.str_view(c).len(), 2);
    }

    #[test]
    fn ropes_flatten_in_order() {
        let mut heap = Heap::new(1 << 30, crate::runtime::trace::CELL_OPS);
        let mut acc = Value::string(heap.alloc_str("a"));
        for i in 0..2000 {
            let piece = Value::string(heap.alloc_str(if i % 2 == 0 { "b" } else { "€" }));
            acc = Value::string(heap.alloc_rope(acc, piece));
        }
        let flat = heap.flatten(acc);
        let view = heap.str_view(flat);
        assert_eq!(view.len(), 2001);
        assert_eq!(view.at(0), b'a' as u16);
        assert_eq!(view.at(1), b'b' as u16);
        assert_eq!(view.at(2), 0x20ac);
        assert_eq!(heap.flatten(acc), flat);
    }

    #[test]
    fn array_index_strings() {
        let mut heap = Heap::new(1 << 30, crate::runtime::trace::CELL_OPS);
        for (s, want) in [
            ("0", Some(0)),
            ("01", None),
            ("4294967294", Some(4294967294)),
            ("4294967295", None),
            ("12a", None),
            ("", None),
        ] {
            let g = heap.alloc_str(s);
            assert_eq!(heap.str_view(g).as_array_index(), want, "{s}");
        }
    }
}
