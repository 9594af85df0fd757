//! Array exotic objects: a `length` and dense elements with holes.
//!
//! An array keeps its index properties with default attributes in the dense `elements`
//! vector of its header (holes are `Value::EMPTY`), and `length` in the cell. The invariant
//! `elements.len <= length` holds; indices past the dense part, or with other attributes,
//! are sparse named properties (see `object/mod.rs`).

use super::{JsObject, ObjectCell, ValueVec};
use crate::gc::{CellKind, CellType, Gc, Heap};
use crate::value::Value;

/// An Array instance.
#[repr(C)]
pub struct JsArray {
    pub(crate) base: JsObject,
    /// The `length` property.
    pub length: u32,
    _pad: u32,
}

// SAFETY: repr(C), JsObject first, kind Array.
unsafe impl CellType for JsArray {
    const KIND: Option<CellKind> = Some(CellKind::Array);
}
// SAFETY: starts with JsObject.
unsafe impl ObjectCell for JsArray {}

impl JsArray {
    /// An array header with `length`.
    pub(crate) fn new(base: JsObject, length: u32) -> JsArray {
        JsArray { base, length, _pad: 0 }
    }
}

/// Dense arrays grow their element store up to this many holes past the end before an
/// index is stored sparsely instead.
pub const MAX_DENSE_GAP: usize = 1024;

impl Heap {
    /// The dense elements of an object (empty slice if it has none).
    #[inline(always)]
    pub(crate) fn elements(&self, obj: Gc<JsObject>) -> &[Value] {
        match self.get(obj).elements {
            Some(e) => self.vec_values(e),
            None => &[],
        }
    }

    /// Makes room for dense element `i` (growing the store, filling holes) and returns the
    /// element vector. Does not check extensibility or array length.
    pub(crate) fn ensure_element(&mut self, obj: Gc<JsObject>, i: usize) -> Gc<ValueVec> {
        let old = self.get(obj).elements;
        let (len, cap) = match old {
            Some(e) => (self.get(e).len as usize, self.vec_capacity(e)),
            None => (0, 0),
        };
        if i < len {
            return old.unwrap_or_else(|| unreachable!());
        }
        let e = if i < cap {
            old.unwrap_or_else(|| unreachable!())
        } else {
            let new_cap = (cap + cap / 2).max(i + 1).max(4);
            let e = self.alloc_vec(new_cap);
            if let Some(o) = old {
                let n = self.get(o).len as usize;
                for k in 0..n {
                    let v = self.vec_get(o, k);
                    self.vec_set(e, k, v);
                }
            }
            self.get_mut(e).len = len as u32;
            self.get_mut(obj).elements = Some(e);
            e
        };
        for k in len..i {
            self.vec_set(e, k, Value::EMPTY);
        }
        self.get_mut(e).len = i as u32 + 1;
        e
    }

    /// Reserves element capacity for `n` elements.
    pub(crate) fn reserve_elements(&mut self, obj: Gc<JsObject>, n: usize) {
        let old = self.get(obj).elements;
        let cap = old.map_or(0, |e| self.vec_capacity(e));
        if n <= cap {
            return;
        }
        let len = old.map_or(0, |e| self.get(e).len as usize);
        let e = self.alloc_vec(n);
        if let Some(o) = old {
            for k in 0..len {
                let v = self.vec_get(o, k);
                self.vec_set(e, k, v);
            }
        }
        self.get_mut(e).len = len as u32;
        self.get_mut(obj).elements = Some(e);
    }

    /// Truncates the dense elements to `n`.
    pub(crate) fn truncate_elements(&mut self, obj: Gc<JsObject>, n: usize) {
        if let Some(e) = self.get(obj).elements {
            let len = self.get(e).len as usize;
            if n < len {
                for k in n..len {
                    self.vec_set(e, k, Value::UNDEFINED);
                }
                self.get_mut(e).len = n as u32;
            }
        }
    }

    /// The `length` of an array.
    #[inline(always)]
    pub(crate) fn array_length(&self, arr: Gc<JsObject>) -> u32 {
        self.get(arr.cast::<JsArray>()).length
    }
}
