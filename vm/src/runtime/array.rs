//! Making and growing arrays (the cell and its element storage are in `object::array`).

use super::{JsResult, Runtime};
use crate::gc::{CellKind, Gc};
use crate::object::array::JsArray;
use crate::object::{JsObject, Key, EXTENSIBLE, LENGTH_READONLY};
use crate::value::Value;

impl Runtime {
    /// A new array of `len` holes (dense up to a modest length).
    pub(crate) fn new_array(&mut self, len: u32) -> Gc<JsObject> {
        let shape = self.realm().shapes.array;
        let arr = self.heap.alloc_object(JsArray::new(JsObject::new(CellKind::Array, shape), len), 0);
        let obj: Gc<JsObject> = arr.cast();
        if len > 0 && (len as usize) <= 100_000 {
            let e = self.heap.alloc_vec(len as usize);
            for k in 0..len as usize {
                self.heap.vec_set(e, k, Value::EMPTY);
            }
            self.heap.get_mut(e).len = len;
            self.heap.get_mut(obj).elements = Some(e);
        }
        obj
    }

    /// A new array holding `values`.
    pub(crate) fn new_array_from(&mut self, values: &[Value]) -> Gc<JsObject> {
        let shape = self.realm().shapes.array;
        let arr = self.heap.alloc_object(JsArray::new(JsObject::new(CellKind::Array, shape), values.len() as u32), 0);
        let obj: Gc<JsObject> = arr.cast();
        if !values.is_empty() {
            let e = self.heap.alloc_vec_from(values);
            self.heap.get_mut(obj).elements = Some(e);
        }
        obj
    }

    /// Appends to a dense array with default attributes (fast path of push and array
    /// builders). Falls back to a full `Set` when the array is not simple.
    pub(crate) fn array_push(&mut self, arr: Gc<JsObject>, v: Value) -> JsResult<()> {
        let len = self.heap.array_length(arr);
        let dense = self.heap.elements(arr).len();
        let flags = self.heap.get(arr).header.flags;
        if dense as u32 == len && flags & (EXTENSIBLE | LENGTH_READONLY) == EXTENSIBLE && len < u32::MAX - 1 {
            let e = self.heap.ensure_element(arr, len as usize);
            self.heap.vec_set(e, len as usize, v);
            self.heap.get_mut(arr.cast::<JsArray>()).length = len + 1;
            return Ok(());
        }
        let key = Key::Index(len);
        if !self.set(arr, key, v, Value::object(arr))? {
            return Err(self.throw_type_error("Cannot add property to array"));
        }
        Ok(())
    }

    /// 7.3.19 CreateListFromArrayLike.
    pub(crate) fn create_list_from_array_like(&mut self, v: Value) -> JsResult<Vec<Value>> {
        if !v.is_object() {
            return Err(self.throw_type_error("CreateListFromArrayLike called on non-object"));
        }
        let obj: Gc<JsObject> = v.gc();
        let len = match self.quick_length(obj) {
            Some(n) => n,
            None => {
                let key = Key::Name(self.names.length);
                let l = self.get(obj, key, v)?;
                self.to_length(l)?
            }
        };
        if len > 10_000_000.0 {
            return Err(self.throw_range_error("Too many arguments in function call"));
        }
        let n = len as usize;
        let dense = self.heap.elements(obj).get(..n).filter(|e| e.iter().all(|x| !x.is_empty()));
        if let Some(values) = dense {
            // Every element is there: no getter can run, and the values are kept alive as the
            // slow path keeps them (the object may lose them before the list is used).
            let out = values.to_vec();
            self.roots.handles.extend_from_slice(&out);
            return Ok(out);
        }
        let mut out = Vec::with_capacity(n);
        for i in 0..len as u32 {
            let fast = self.heap.elements(obj).get(i as usize).copied().filter(|x| !x.is_empty());
            let x = match fast {
                Some(x) => x,
                None => self.get(obj, Key::Index(i), v)?,
            };
            self.root(x);
            out.push(x);
        }
        Ok(out)
    }

    /// The `length` of an array, or of an arguments object whose `length` is still the data
    /// property it was made with (`apply(this, arguments)`), without a property lookup.
    pub(crate) fn quick_length(&self, obj: Gc<JsObject>) -> Option<f64> {
        if self.heap.object_kind(obj) == CellKind::Array {
            return Some(f64::from(self.heap.array_length(obj)));
        }
        if self.heap.get(obj).shape != self.realm().shapes.arguments {
            return None;
        }
        // The arguments shape keeps `length` in the first inline slot (`create_arguments`).
        let n = self.heap.inline_slots(obj).first()?.as_number()?;
        (n >= 0.0 && n.fract() == 0.0).then_some(n)
    }
}
