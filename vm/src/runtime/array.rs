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
}
