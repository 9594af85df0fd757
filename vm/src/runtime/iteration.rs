//! Iteration: `for-of` (GetIterator / IteratorNext / IteratorClose) and `for-in`.
//!
//! Arrays and strings whose iteration protocol is unmodified are iterated without calling
//! JavaScript: GetIterator makes the built-in iterator object directly and IteratorNext
//! steps it in Rust while its `next` is still the original one.

use crate::gc::{CellHeader, CellKind, Gc};
use crate::object::{iter_kind, ForInState, IteratorObject, JsObject, Key};
use crate::runtime::{ExceptionKind, Intrinsic, JsResult, Runtime};
use crate::value::Value;

/// `get_iterator`.
#[inline(never)]
pub(crate) fn get_iterator(rt: &mut Runtime, v: Value) -> JsResult<Value> {
    let key = Key::Name(rt.symbols.iterator);
    let method = rt.get_v(v, key)?;
    get_iterator_from_method(rt, v, method)
}

/// 7.4.2 GetIteratorFromMethod(obj, method), with the built-in iterators made directly.
pub(crate) fn get_iterator_from_method(rt: &mut Runtime, v: Value, method: Value) -> JsResult<Value> {
    if v.is_object() && method == rt.intrinsic(Intrinsic::ArrayProtoValues) {
        return Ok(rt.new_builtin_iterator(v, iter_kind::ARRAY_VALUES));
    }
    if v.is_string() && method == rt.intrinsic(Intrinsic::StringProtoIterator) {
        return Ok(rt.new_builtin_iterator(v, iter_kind::STRING));
    }
    if !rt.is_callable(method) {
        let what = rt.short_description(v);
        return Err(rt.throw_type_error(&format!("{what} is not iterable")));
    }
    let it = rt.call(method, v, &[])?;
    if !it.is_object() {
        return Err(rt.throw_type_error("Result of the Symbol.iterator method is not an object"));
    }
    Ok(it)
}

/// `iterator_next`: the next value, or empty when done.
#[inline(never)]
pub(crate) fn iterator_next(rt: &mut Runtime, it: Value) -> JsResult<Value> {
    if !it.is_object() {
        return Err(rt.throw_type_error("iterator is not an object"));
    }
    let obj: Gc<JsObject> = it.gc();
    let key = Key::Name(rt.names.next);
    let next = rt.get(obj, key, it)?;
    if rt.heap.object_kind(obj) == CellKind::Iterator {
        let kind = rt.heap.get(obj.cast::<IteratorObject>()).kind;
        let pristine = match kind {
            iter_kind::ARRAY_KEYS | iter_kind::ARRAY_VALUES | iter_kind::ARRAY_ENTRIES => {
                next == rt.intrinsic(Intrinsic::ArrayIteratorProtoNext)
            }
            iter_kind::STRING => next == rt.intrinsic(Intrinsic::StringIteratorProtoNext),
            _ => false,
        };
        if pristine {
            return Ok(rt.builtin_iterator_step(obj.cast())?.unwrap_or(Value::EMPTY));
        }
    }
    Ok(iterator_step_value(rt, it, next)?.unwrap_or(Value::EMPTY))
}

/// 7.4.8 IteratorStepValue(iteratorRecord): the next value, or `None` when done.
pub(crate) fn iterator_step_value(rt: &mut Runtime, it: Value, next: Value) -> JsResult<Option<Value>> {
    if !rt.is_callable(next) {
        return Err(rt.throw_type_error("iterator.next is not a function"));
    }
    let r = rt.call(next, it, &[])?;
    if !r.is_object() {
        let what = rt.short_description(r);
        return Err(rt.throw_type_error(&format!("Iterator result {what} is not an object")));
    }
    let mark = rt.handle_mark();
    rt.root(r);
    let ro: Gc<JsObject> = r.gc();
    let done_key = Key::Name(rt.names.done);
    let result = match rt.get(ro, done_key, r) {
        Ok(d) if rt.to_boolean(d) => Ok(None),
        Ok(_) => {
            let value_key = Key::Name(rt.names.value);
            rt.get(ro, value_key, r).map(Some)
        }
        Err(e) => Err(e),
    };
    rt.release_handles(mark);
    result
}

/// `iterator_close`.
#[inline(never)]
pub(crate) fn iterator_close(rt: &mut Runtime, it: Value, ignore_errors: bool) -> JsResult<()> {
    if !ignore_errors {
        return close_inner(rt, it);
    }
    // IteratorClose with a throw completion: the exception being propagated (pending in
    // the runtime when a builtin closes on its way out) wins over anything `return` throws.
    let pending = rt.exception();
    let mark = rt.handle_mark();
    rt.root(pending);
    let r = close_inner(rt, it);
    rt.release_handles(mark);
    match r {
        Err(e) if rt.exception_kind != ExceptionKind::Normal => Err(e),
        _ => {
            rt.restore_exception(pending);
            Ok(())
        }
    }
}

fn close_inner(rt: &mut Runtime, it: Value) -> JsResult<()> {
    if !it.is_object() {
        return Ok(());
    }
    let key = Key::Name(rt.names.return_);
    let ret = rt.get(it.gc(), key, it)?;
    if ret.is_nullish() {
        return Ok(());
    }
    if !rt.is_callable(ret) {
        return Err(rt.throw_type_error("iterator.return is not a function"));
    }
    let r = rt.call(ret, it, &[])?;
    if !r.is_object() {
        return Err(rt.throw_type_error("iterator.return() did not return an object"));
    }
    Ok(())
}

/// `get_pname_list`: the for-in keys of `o` and its prototypes.
#[inline(never)]
pub(crate) fn get_pname_list(rt: &mut Runtime, o: Value) -> JsResult<Value> {
    let mut keys: Vec<Value> = Vec::new();
    let mut obj_val = Value::UNDEFINED;
    if !o.is_nullish() {
        let obj = rt.to_object(o)?;
        obj_val = Value::object(obj);
        let mut seen: hashbrown::HashSet<Key> = hashbrown::HashSet::new();
        let mut cur = obj;
        loop {
            for k in rt.own_property_keys(cur)? {
                if let Key::Name(n) = k {
                    if n.is_symbol() {
                        continue;
                    }
                }
                if !seen.insert(k) {
                    continue;
                }
                if let Some(d) = rt.get_own_property(cur, k)? {
                    if d.enumerable == Some(true) {
                        let v = rt.key_to_value(k);
                        keys.push(v);
                    }
                }
            }
            let p = rt.prototype_of(cur)?;
            if !p.is_object() {
                break;
            }
            cur = p.gc();
        }
    }
    let vec = rt.heap.alloc_vec_from(&keys);
    let state = rt.heap.alloc(ForInState::new(obj_val, Value::cell(vec)));
    Ok(Value::cell(state))
}

/// `get_next_pname`.
#[inline(never)]
pub(crate) fn get_next_pname(rt: &mut Runtime, s: Value) -> JsResult<Value> {
    let ok = s.is_cell() && rt.heap.kind_of(s.gc::<CellHeader>()) == CellKind::ForInState;
    if !ok {
        return Err(rt.throw_type_error("internal error: bad for-in state"));
    }
    let st: Gc<ForInState> = s.gc();
    loop {
        let state = rt.heap.get(st);
        let (obj, keys, index) = (state.object, state.keys, state.index);
        let list = rt.heap.vec_values(keys.gc());
        if index as usize >= list.len() {
            return Ok(Value::EMPTY);
        }
        let k = list[index as usize];
        rt.heap.get_mut(st).index += 1;
        // Keys deleted before being visited are skipped.
        let key = rt.to_property_key(k)?;
        if rt.has_property(obj.gc(), key)? {
            return Ok(k);
        }
    }
}

impl Runtime {
    /// A built-in iterator (array or string) over `target`.
    pub(crate) fn new_builtin_iterator(&mut self, target: Value, kind: u8) -> Value {
        let proto = match kind {
            iter_kind::STRING => self.intrinsic(Intrinsic::StringIteratorPrototype),
            iter_kind::MAP_KEYS | iter_kind::MAP_VALUES | iter_kind::MAP_ENTRIES => {
                self.intrinsic(Intrinsic::MapIteratorPrototype)
            }
            iter_kind::SET_VALUES | iter_kind::SET_ENTRIES => self.intrinsic(Intrinsic::SetIteratorPrototype),
            iter_kind::REGEXP_STRING => self.intrinsic(Intrinsic::RegExpStringIteratorPrototype),
            _ => self.intrinsic(Intrinsic::ArrayIteratorPrototype),
        };
        let shape = self.root_shape(proto, CellKind::Iterator, 0);
        let it = IteratorObject::new(JsObject::new(CellKind::Iterator, shape), target, kind);
        Value::object(self.heap.alloc_object(it, 0))
    }

    /// One step of an array or string iterator: the next value, or None when exhausted.
    pub(crate) fn builtin_iterator_step(&mut self, it: Gc<IteratorObject>) -> JsResult<Option<Value>> {
        let i = self.heap.get(it);
        let (target, index, kind) = (i.target, i.index, i.kind);
        if target.is_undefined() {
            return Ok(None);
        }
        if kind == iter_kind::STRING {
            let len = self.heap.string_len(target);
            if index as usize >= len {
                self.heap.get_mut(it).target = Value::UNDEFINED;
                return Ok(None);
            }
            let flat = self.heap.flatten(target);
            let view = self.heap.str_view(flat);
            let first = view.at(index as usize);
            let n = if (0xd800..0xdc00).contains(&first) && (index as usize) + 1 < len {
                let second = view.at(index as usize + 1);
                if (0xdc00..0xe000).contains(&second) {
                    2
                } else {
                    1
                }
            } else {
                1
            };
            let v = if n == 1 {
                self.string_from_unit(first)
            } else {
                let second = view.at(index as usize + 1);
                Value::string(self.heap.alloc_utf16(&[first, second]))
            };
            self.heap.get_mut(it).index = index + n;
            return Ok(Some(v));
        }
        let obj: Gc<JsObject> = target.gc();
        let len = if self.heap.object_kind(obj) == CellKind::Array {
            self.heap.array_length(obj) as f64
        } else if self.heap.object_kind(obj) == CellKind::TypedArray {
            // 23.1.5.1 step 1.b: a TypedArray out of bounds throws.
            match self.typed_array_length(obj) {
                Some(n) => n as f64,
                None => return Err(self.throw_type_error("Cannot iterate a detached or out-of-bounds typed array")),
            }
        } else {
            let key = Key::Name(self.names.length);
            let l = self.get(obj, key, target)?;
            self.to_length(l)?
        };
        if index as f64 >= len {
            self.heap.get_mut(it).target = Value::UNDEFINED;
            return Ok(None);
        }
        self.heap.get_mut(it).index = index + 1;
        let idx = Value::number(index as f64);
        match kind {
            iter_kind::ARRAY_KEYS => Ok(Some(idx)),
            _ => {
                let fast = self.heap.elements(obj).get(index as usize).copied().filter(|v| !v.is_empty());
                let v = match fast {
                    Some(v) => v,
                    None => self.get(obj, Key::Index(index), target)?,
                };
                if kind == iter_kind::ARRAY_VALUES {
                    Ok(Some(v))
                } else {
                    let pair = self.new_array_from(&[idx, v]);
                    Ok(Some(Value::object(pair)))
                }
            }
        }
    }
}
