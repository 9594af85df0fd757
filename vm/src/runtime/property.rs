//! The object internal methods (ECMA-262 10.1 ordinary objects, 10.4 exotic objects):
//! [[GetOwnProperty]], [[DefineOwnProperty]], [[Get]], [[Set]], [[Delete]],
//! [[OwnPropertyKeys]], [[GetPrototypeOf]], [[SetPrototypeOf]], [[PreventExtensions]].
//!
//! Everything goes through [`Runtime::own_lookup`], which finds where an own property lives:
//! a named slot of the shape, a dense element, or a virtual property computed by an exotic
//! kind (an array's `length`, a String wrapper's indices and `length`).

use super::{Intrinsic, JsResult, Runtime};
use crate::gc::{CellHeader, CellKind, Gc};
use crate::object::array::{JsArray, MAX_DENSE_GAP};
use crate::object::property::{Own, PropertyDescriptor, IMMUTABLE_PROTO};
use crate::object::shape::{
    PropKey, Shape, ACCESSOR, BUILTIN_TABLE, CONFIGURABLE, DEFAULT_ATTRS, DICTIONARY, ENUMERABLE, HAS_INDEX_KEYS,
    HAS_SPECIAL, MAX_FAST_PROPERTIES, WRITABLE,
};
use crate::object::{
    AccessorPair, JsObject, Key, PrimitiveObject, EXTENSIBLE, IS_PROTOTYPE, LAZY_BUILTINS, LAZY_PROTOTYPE,
    LENGTH_READONLY,
};
use crate::value::Value;

impl Runtime {
    // ---- Keys ----------------------------------------------------------------------------

    /// The key for an atom (an index if the atom is a canonical array index).
    #[inline]
    pub(crate) fn key_from_atom(&self, atom: Value) -> Key {
        let s: Gc<crate::string::JsString> = atom.gc();
        let cell = self.heap.get(s);
        if cell.header.flags & crate::string::INDEX != 0 {
            Key::Index(cell.index)
        } else {
            Key::Name(PropKey::from_value(atom))
        }
    }

    /// The key for a Rust string.
    pub(crate) fn key(&mut self, s: &str) -> Key {
        let atom = self.atoms.intern_str(&mut self.heap, s);
        self.key_from_atom(Value::string(atom))
    }

    /// The key for a string value (flattened and interned).
    pub(crate) fn key_from_string(&mut self, s: Value) -> Key {
        let flat = self.heap.flatten(s);
        if let Some(i) = crate::string::atoms::string_array_index(&mut self.heap, flat) {
            return Key::Index(i);
        }
        let atom = self.atoms.intern(&mut self.heap, flat);
        Key::Name(PropKey::atom(atom))
    }

    /// The atom naming array index `i` (for sparse index properties).
    pub(crate) fn index_atom(&mut self, i: u32) -> PropKey {
        let s = i.to_string();
        PropKey::atom(self.atoms.intern_str(&mut self.heap, &s))
    }

    /// The atom naming array index `i` if one exists: a lookup needs no new one (no property
    /// can have a key that is not an atom), and a loop probing every index of a sparse
    /// object would otherwise make a string per index.
    fn existing_index_atom(&self, i: u32) -> Option<PropKey> {
        let mut digits = [0u8; 10];
        let mut n = i;
        let mut at = digits.len();
        loop {
            at -= 1;
            digits[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        self.atoms.find_latin1(&self.heap, &digits[at..]).map(PropKey::atom)
    }

    /// The key as a JavaScript value (a string or a symbol).
    pub(crate) fn key_to_value(&mut self, key: Key) -> Value {
        match key {
            Key::Name(k) => k.value(),
            Key::Index(i) => self.index_atom(i).value(),
        }
    }

    /// The name key stored in a shape for `key`.
    fn named(&mut self, key: Key) -> PropKey {
        match key {
            Key::Name(k) => k,
            Key::Index(i) => self.index_atom(i),
        }
    }

    // ---- Object creation -------------------------------------------------------------------

    /// The root shape for objects of `kind` with prototype `proto` and `cap` inline slots.
    pub(crate) fn root_shape(&mut self, proto: Value, kind: CellKind, cap: u8) -> Gc<Shape> {
        let key = (proto.bits(), kind, cap);
        let recent = (proto.bits() as usize >> 4) % crate::runtime::RECENT_ROOT_SHAPES;
        if let Some((k, s)) = self.caches.recent_root_shapes[recent] {
            if k == key {
                return s;
            }
        }
        if let Some(&s) = self.caches.root_shapes.get(&key) {
            self.caches.recent_root_shapes[recent] = Some((key, s));
            return s;
        }
        if proto.is_object() {
            let p: Gc<JsObject> = proto.gc();
            self.heap.get_mut(p).header.flags |= IS_PROTOTYPE;
        }
        let s = self.heap.alloc(Shape::root(proto, kind, cap));
        self.caches.root_shapes.insert((proto.bits(), kind, cap), s);
        s
    }

    /// A new ordinary object with prototype `proto` (an object or null).
    pub(crate) fn new_object(&mut self, proto: Value) -> Gc<JsObject> {
        if proto == self.intrinsic(crate::runtime::Intrinsic::ObjectPrototype) {
            let shape = self.realm().shapes.object;
            return self.heap.alloc_object(JsObject::new(CellKind::Object, shape), 4);
        }
        self.new_object_of_kind(proto, CellKind::Object, 4)
    }

    /// A new object of a kind with the plain layout (Object, Error, Arguments).
    pub(crate) fn new_object_of_kind(&mut self, proto: Value, kind: CellKind, cap: u8) -> Gc<JsObject> {
        let shape = self.root_shape(proto, kind, cap);
        self.heap.alloc_object(JsObject::new(kind, shape), cap)
    }

    /// A new plain object using `shape` (which must be of kind Object).
    pub(crate) fn new_object_with_shape(&mut self, shape: Gc<Shape>) -> Gc<JsObject> {
        let cap = self.heap.get(shape).inline_cap;
        let kind = self.heap.get(shape).object_kind;
        self.heap.alloc_object(JsObject::new(kind, shape), cap)
    }

    // ---- Own property lookup --------------------------------------------------------------

    /// Where own property `key` of `obj` lives.
    pub(crate) fn own_lookup(&mut self, obj: Gc<JsObject>, key: Key) -> Own {
        self.install_lazy_builtins(obj);
        let kind = self.heap.get(obj).header.kind;
        if kind == CellKind::TypedArray {
            if let Some(n) = self.canonical_numeric_key(key) {
                return self.typed_own_lookup(obj, n);
            }
        }
        match key {
            Key::Index(i) => {
                if let Some(e) = self.heap.get(obj).elements {
                    let v = self.heap.vec_values(e).get(i as usize).copied();
                    if let Some(v) = v {
                        if !v.is_empty() {
                            return Own::Element(i);
                        }
                    }
                }
                if kind == CellKind::PrimitiveObject {
                    let p = self.heap.get(obj.cast::<PrimitiveObject>()).value;
                    if p.is_string() && (i as usize) < self.heap.string_len(p) {
                        let flat = self.heap.flatten(p);
                        let unit = self.heap.str_view(flat).at(i as usize);
                        let s = self.string_from_unit(unit);
                        return Own::Virtual(s, ENUMERABLE);
                    }
                }
                let shape = self.heap.get(obj).shape;
                if self.heap.get(shape).flags() & HAS_INDEX_KEYS != 0 {
                    if let Some(k) = self.existing_index_atom(i) {
                        if let Some((slot, attrs)) = self.heap.get(shape).lookup(k) {
                            return Own::Slot(slot, attrs);
                        }
                    }
                }
                Own::Absent
            }
            Key::Name(k) => {
                match kind {
                    CellKind::Array if k == self.names.length => {
                        let len = self.heap.array_length(obj);
                        let ro = self.heap.get(obj).header.flags & LENGTH_READONLY != 0;
                        return Own::Virtual(Value::number(len as f64), if ro { 0 } else { WRITABLE });
                    }
                    CellKind::PrimitiveObject if k == self.names.length => {
                        let p = self.heap.get(obj.cast::<PrimitiveObject>()).value;
                        if p.is_string() {
                            let n = self.heap.string_len(p);
                            return Own::Virtual(Value::number(n as f64), 0);
                        }
                    }
                    _ => {}
                }
                let shape = self.heap.get(obj).shape;
                match self.heap.get(shape).lookup(k) {
                    Some((slot, attrs)) => {
                        if self.heap.get(obj).header.flags & LAZY_PROTOTYPE != 0 && k == self.names.prototype {
                            self.materialize_prototype(obj);
                        }
                        Own::Slot(slot, attrs)
                    }
                    None => Own::Absent,
                }
            }
        }
    }

    /// Makes the builtin function properties of `obj` if they are not made yet
    /// (`LAZY_BUILTINS`): before anything reads its own properties, lists them or freezes
    /// the set.
    #[inline(always)]
    pub(crate) fn install_lazy_builtins(&mut self, obj: Gc<JsObject>) {
        if self.heap.get(obj).header.flags & LAZY_BUILTINS != 0 {
            (self.host.hooks.install_builtins)(self, obj);
        }
    }

    /// Creates the lazily allocated `prototype` object of a closure.
    pub(crate) fn materialize_prototype(&mut self, func: Gc<JsObject>) {
        self.heap.get_mut(func).header.flags &= !LAZY_PROTOTYPE;
        let key = self.names.prototype;
        let shape = self.heap.get(func).shape;
        let Some((slot, _)) = self.heap.get(shape).lookup(key) else { return };
        // A store through an inline cache may already have replaced the placeholder.
        if !self.heap.slot(func, slot).is_empty() {
            return;
        }
        let flags = match self.heap.downcast::<crate::runtime::function::Closure>(func) {
            // SAFETY-free read through the runtime-owned function info.
            Some(c) => crate::code::info_flags(self.heap.get(c).func),
            None => bytecode::FunctionFlags::NONE,
        };
        let proto = if flags.contains(bytecode::FunctionFlags::GENERATOR) {
            // Generator and async generator functions: a plain object inheriting
            // %GeneratorPrototype% or %AsyncGeneratorPrototype%, with no `constructor`.
            let i = match flags.contains(bytecode::FunctionFlags::ASYNC) {
                true => crate::runtime::Intrinsic::AsyncGeneratorPrototype,
                false => crate::runtime::Intrinsic::GeneratorPrototype,
            };
            let gp = self.intrinsic(i);
            self.new_object(gp)
        } else {
            let shape = self.realm().shapes.prototype_object;
            let p = self.new_object_with_shape(shape);
            self.heap.set_slot(p, 0, Value::object(func));
            p
        };
        self.heap.set_slot(func, slot, Value::object(proto));
    }

    /// Reads a slot, materializing a lazy value.
    #[inline]
    fn read_slot(&mut self, obj: Gc<JsObject>, slot: u32) -> Value {
        let v = self.heap.slot(obj, slot);
        if v.is_empty() {
            self.materialize_prototype(obj);
            return self.heap.slot(obj, slot);
        }
        v
    }

    /// `[[GetOwnProperty]]`.
    pub(crate) fn get_own_property(&mut self, obj: Gc<JsObject>, key: Key) -> JsResult<Option<PropertyDescriptor>> {
        if self.is_proxy(obj) {
            return self.proxy_get_own_property(obj, key);
        }
        if let Some(r) = self.namespace_get_own_property(obj, key) {
            return r;
        }
        Ok(match self.own_lookup(obj, key) {
            Own::Absent => None,
            Own::Element(i) => {
                let v = self.heap.elements(obj)[i as usize];
                Some(PropertyDescriptor::data(v, DEFAULT_ATTRS))
            }
            Own::Virtual(v, attrs) => Some(PropertyDescriptor::data(v, attrs)),
            Own::Slot(slot, attrs) => {
                let v = self.read_slot(obj, slot);
                if attrs & ACCESSOR != 0 {
                    let pair = self.heap.get(v.gc::<AccessorPair>());
                    Some(PropertyDescriptor::accessor(pair.getter, pair.setter, attrs))
                } else {
                    Some(PropertyDescriptor::data(v, attrs))
                }
            }
        })
    }

    /// The value of an own data property without running JavaScript (None for accessors
    /// and absent properties).
    pub(crate) fn peek_data(&mut self, obj: Gc<JsObject>, key: Key) -> Option<Value> {
        match self.own_lookup(obj, key) {
            Own::Absent => None,
            Own::Element(i) => Some(self.heap.elements(obj)[i as usize]),
            Own::Virtual(v, _) => Some(v),
            Own::Slot(slot, attrs) => {
                if attrs & ACCESSOR != 0 {
                    None
                } else {
                    Some(self.read_slot(obj, slot))
                }
            }
        }
    }

    // ---- [[Get]] ---------------------------------------------------------------------------

    /// `[[Get]](key, receiver)`.
    pub(crate) fn get(&mut self, obj: Gc<JsObject>, key: Key, receiver: Value) -> JsResult<Value> {
        let mut o = obj;
        loop {
            match self.own_lookup(o, key) {
                Own::Element(i) => return Ok(self.heap.elements(o)[i as usize]),
                Own::Virtual(v, _) => return Ok(v),
                Own::Slot(slot, attrs) => {
                    let v = self.read_slot(o, slot);
                    if attrs & ACCESSOR != 0 {
                        let getter = self.heap.get(v.gc::<AccessorPair>()).getter;
                        if getter.is_undefined() {
                            return Ok(Value::UNDEFINED);
                        }
                        return self.call(getter, receiver, &[]);
                    }
                    return Ok(v);
                }
                Own::Absent => {
                    match self.heap.object_kind(o) {
                        // 10.4.5.4: a TypedArray's numeric keys end the lookup.
                        CellKind::TypedArray if self.canonical_numeric_key(key).is_some() => {
                            return Ok(Value::UNDEFINED)
                        }
                        CellKind::Proxy => return self.proxy_get(o, key, receiver),
                        CellKind::ModuleNamespace => {
                            if let Some(r) = self.namespace_get(o, key) {
                                return r;
                            }
                        }
                        _ => {}
                    }
                    let proto = self.heap.get(self.heap.get(o).shape).proto;
                    if !proto.is_object() {
                        return Ok(Value::UNDEFINED);
                    }
                    o = proto.gc();
                }
            }
        }
    }

    /// `Get(O, P)` with the object as receiver.
    #[cfg(test)]
    pub(crate) fn get_prop(&mut self, obj: Gc<JsObject>, key: Key) -> JsResult<Value> {
        self.get(obj, key, Value::object(obj))
    }

    /// `GetV(V, P)`: property access on any value (primitives use their prototype).
    pub(crate) fn get_v(&mut self, v: Value, key: Key) -> JsResult<Value> {
        if v.is_object() {
            return self.get(v.gc(), key, v);
        }
        if v.is_string() {
            match key {
                Key::Name(k) if k == self.names.length => {
                    return Ok(Value::number(self.heap.string_len(v) as f64));
                }
                Key::Index(i) if (i as usize) < self.heap.string_len(v) => {
                    let flat = self.heap.flatten(v);
                    let unit = self.heap.str_view(flat).at(i as usize);
                    return Ok(self.string_from_unit(unit));
                }
                _ => {}
            }
        }
        let proto = self.primitive_prototype(v)?;
        self.get(proto, key, v)
    }

    /// The prototype used for property lookups on a primitive; throws for null/undefined.
    pub(crate) fn primitive_prototype(&mut self, v: Value) -> JsResult<Gc<JsObject>> {
        use crate::runtime::Intrinsic as I;
        let i = match v.kind() {
            crate::value::Kind::Number => I::NumberPrototype,
            crate::value::Kind::String => I::StringPrototype,
            crate::value::Kind::Boolean => I::BooleanPrototype,
            crate::value::Kind::Symbol => I::SymbolPrototype,
            crate::value::Kind::BigInt => I::BigIntPrototype,
            crate::value::Kind::Object => return Ok(v.gc()),
            _ => {
                let what = if v.is_null() { "null" } else { "undefined" };
                return Err(self.throw_type_error(&format!("Cannot read properties of {what}")));
            }
        };
        Ok(self.intrinsic_object(i))
    }

    // ---- [[Set]] ---------------------------------------------------------------------------

    /// `[[Set]](key, value, receiver)` (ECMA-262 10.1.9.2 OrdinarySetWithOwnDescriptor).
    pub(crate) fn set(&mut self, obj: Gc<JsObject>, key: Key, value: Value, receiver: Value) -> JsResult<bool> {
        let mut o = obj;
        // 1-2. Find the property on the prototype chain.
        let found = loop {
            if self.is_proxy(o) {
                return self.proxy_set(o, key, value, receiver);
            }
            // 10.4.6.9: a namespace's [[Set]] is always false.
            if self.heap.object_kind(o) == CellKind::ModuleNamespace {
                return Ok(false);
            }
            // 10.4.5.5 [[Set]] of a TypedArray with a numeric key.
            if self.is_typed_array(o) {
                if let Some(n) = self.canonical_numeric_key(key) {
                    if receiver == Value::object(o) {
                        // The elements of an immutable buffer are read-only.
                        if self.is_immutable_view(o) {
                            return Ok(!self.is_valid_integer_index(o, n));
                        }
                        self.typed_set(o, n, value)?;
                        return Ok(true);
                    }
                    if !self.is_valid_integer_index(o, n) {
                        return Ok(true);
                    }
                }
            }
            match self.own_lookup(o, key) {
                Own::Absent => {
                    let proto = self.heap.get(self.heap.get(o).shape).proto;
                    if !proto.is_object() {
                        break None;
                    }
                    o = proto.gc();
                }
                Own::Slot(slot, attrs) if attrs & ACCESSOR != 0 => {
                    // 3. Accessor: call the setter.
                    let pair = self.heap.slot(o, slot);
                    let setter = self.heap.get(pair.gc::<AccessorPair>()).setter;
                    if setter.is_undefined() {
                        return Ok(false);
                    }
                    self.call(setter, receiver, &[value])?;
                    return Ok(true);
                }
                Own::Slot(_, attrs) | Own::Virtual(_, attrs) => {
                    if attrs & WRITABLE == 0 {
                        return Ok(false);
                    }
                    break Some(o);
                }
                Own::Element(_) => break Some(o),
            }
        };
        // Fast path: the receiver is the object where the data property was found.
        if let Some(holder) = found {
            if receiver == Value::object(holder) {
                return self.write_own(holder, key, value);
            }
        }
        // 2.c-e. Define on the receiver.
        if !receiver.is_object() {
            return Ok(false);
        }
        let r: Gc<JsObject> = receiver.gc();
        if self.is_proxy(r) {
            // The receiver's own property through its internal methods (its traps).
            return match self.get_own_property(r, key)? {
                Some(d) if d.is_accessor() || d.writable == Some(false) => Ok(false),
                Some(_) => {
                    let d = PropertyDescriptor { value: Some(value), ..Default::default() };
                    self.define_own_property(r, key, &d)
                }
                None => {
                    let d = PropertyDescriptor::data(value, DEFAULT_ATTRS);
                    self.define_own_property(r, key, &d)
                }
            };
        }
        match self.own_lookup(r, key) {
            Own::Absent => self.create_data_property(r, key, value),
            Own::Slot(_, attrs) | Own::Virtual(_, attrs) => {
                if attrs & ACCESSOR != 0 || attrs & WRITABLE == 0 {
                    return Ok(false);
                }
                self.define_own_property(r, key, &PropertyDescriptor { value: Some(value), ..Default::default() })
            }
            Own::Element(_) => self.write_own(r, key, value),
        }
    }

    /// Writes an existing own writable data property.
    fn write_own(&mut self, obj: Gc<JsObject>, key: Key, value: Value) -> JsResult<bool> {
        match self.own_lookup(obj, key) {
            Own::Slot(slot, _) => {
                self.heap.set_slot(obj, slot, value);
                Ok(true)
            }
            Own::Element(i) => {
                if let Some(e) = self.heap.get(obj).elements {
                    self.heap.vec_set(e, i as usize, value);
                }
                Ok(true)
            }
            Own::Virtual(..) => {
                self.define_own_property(obj, key, &PropertyDescriptor { value: Some(value), ..Default::default() })
            }
            Own::Absent => self.create_data_property(obj, key, value),
        }
    }

    /// `PutValue` for property references: `[[Set]]`, throwing in strict code on failure.
    pub(crate) fn put_v(&mut self, target: Value, key: Key, value: Value, strict: bool) -> JsResult<()> {
        let ok = if target.is_object() {
            self.set(target.gc(), key, value, target)?
        } else {
            if target.is_nullish() {
                let what = if target.is_null() { "null" } else { "undefined" };
                let name = self.key_display(key);
                return Err(self.throw_type_error(&format!("Cannot set properties of {what} (setting '{name}')")));
            }
            let proto = self.primitive_prototype(target)?;
            self.set(proto, key, value, target)?
        };
        if !ok && strict {
            let name = self.key_display(key);
            return Err(self.throw_type_error(&format!("Cannot assign to read only property '{name}' of object")));
        }
        Ok(())
    }

    /// A key for error messages.
    pub(crate) fn key_display(&mut self, key: Key) -> String {
        match key {
            Key::Index(i) => i.to_string(),
            Key::Name(k) => {
                let v = k.value();
                if v.is_symbol() {
                    self.symbol_descriptive_string(v)
                } else {
                    self.string_to_rust(v)
                }
            }
        }
    }

    // ---- Adding properties ------------------------------------------------------------------

    /// `CreateDataProperty(O, P, V)`.
    pub(crate) fn create_data_property(&mut self, obj: Gc<JsObject>, key: Key, value: Value) -> JsResult<bool> {
        if let Own::Absent = self.own_lookup(obj, key) {
            let kind = self.heap.get(obj).header.kind;
            if self.heap.get(obj).header.flags & EXTENSIBLE == 0
                || !matches!(
                    kind,
                    CellKind::Object | CellKind::Array | CellKind::Error | CellKind::Arguments | CellKind::Closure
                )
            {
                return self.define_own_property(obj, key, &PropertyDescriptor::data(value, DEFAULT_ATTRS));
            }
            return Ok(self.add_property(obj, key, value, DEFAULT_ATTRS));
        }
        self.define_own_property(obj, key, &PropertyDescriptor::data(value, DEFAULT_ATTRS))
    }

    /// `CreateDataPropertyOrThrow`.
    pub(crate) fn create_data_property_or_throw(&mut self, obj: Gc<JsObject>, key: Key, value: Value) -> JsResult<()> {
        if !self.create_data_property(obj, key, value)? {
            let name = self.key_display(key);
            return Err(self.throw_type_error(&format!("Cannot define property {name}")));
        }
        Ok(())
    }

    /// Adds a new own property known to be absent, on an extensible object. Returns false
    /// only when an array's read-only `length` forbids the index.
    pub(crate) fn add_property(&mut self, obj: Gc<JsObject>, key: Key, value: Value, attrs: u8) -> bool {
        if let Key::Index(i) = key {
            let is_array = self.heap.get(obj).header.kind == CellKind::Array;
            if is_array {
                let len = self.heap.array_length(obj);
                if i >= len && self.heap.get(obj).header.flags & LENGTH_READONLY != 0 {
                    return false;
                }
            }
            let dense = self.heap.elements(obj).len();
            if attrs == DEFAULT_ATTRS && (i as usize) < dense + MAX_DENSE_GAP.max(dense / 2) {
                let e = self.heap.ensure_element(obj, i as usize);
                self.heap.vec_set(e, i as usize, value);
            } else {
                let k = self.index_atom(i);
                self.add_named(obj, k, value, attrs);
            }
            if is_array {
                let arr = obj.cast::<JsArray>();
                if i >= self.heap.get(arr).length {
                    self.heap.get_mut(arr).length = i + 1;
                }
            }
            return true;
        }
        let Key::Name(k) = key else { unreachable!() };
        self.add_named(obj, k, value, attrs);
        true
    }

    /// Defines a property on an object being set up (no checks): used by builtins setup,
    /// error construction and the like.
    pub(crate) fn define_data_raw(&mut self, obj: Gc<JsObject>, key: Key, value: Value, attrs: u8) {
        match self.own_lookup(obj, key) {
            Own::Absent => {
                self.add_property(obj, key, value, attrs);
            }
            _ => {
                let _ = self.define_own_property(obj, key, &PropertyDescriptor::data(value, attrs));
            }
        }
    }

    /// Appends named property `k` to the shape of `obj` and stores `value` in its slot.
    pub(crate) fn add_named(&mut self, obj: Gc<JsObject>, k: PropKey, value: Value, attrs: u8) -> u32 {
        let shape = self.heap.get(obj).shape;
        let is_index = {
            let v = k.value();
            v.is_string() && self.heap.get(v.gc::<crate::string::JsString>()).header.flags & crate::string::INDEX != 0
        };
        let mut extra_flags = 0;
        if is_index {
            extra_flags |= HAS_INDEX_KEYS;
        }
        if attrs & (ACCESSOR | WRITABLE) != WRITABLE {
            extra_flags |= HAS_SPECIAL;
        }
        let slot;
        if self.heap.get(shape).is_dictionary() {
            let s = self.heap.get_mut(shape);
            let before = s.external_bytes();
            slot = match s.header.flags & BUILTIN_TABLE {
                0 => s.table.push(k, attrs),
                _ => s.table.push_unindexed(k, attrs),
            };
            s.header.flags |= extra_flags;
            let grown = s.external_bytes().saturating_sub(before);
            self.heap.note_external(grown);
        } else if let Some(next) = self.heap.get(shape).find_transition(k, attrs) {
            self.heap.get_mut(obj).shape = next;
            slot = self.heap.get(next).lookup(k).map(|x| x.0).unwrap_or(0);
        } else if self.heap.get(shape).property_count() >= MAX_FAST_PROPERTIES || self.building_realm.is_some() {
            // While a realm is built, a builtin object grows one table of its own instead of
            // a chain of shapes that each copy the whole table (quadratic in time and memory,
            // and each a cell, a table and a transition list: a fifth of a hello-world
            // bundle's page faults); the realm's setup makes it a fast shape again at the end.
            let mut dict = self.heap.get(shape).to_dictionary();
            if let Some(objects) = &mut self.building_realm {
                if dict.property_count() < MAX_FAST_PROPERTIES {
                    dict.header.flags |= BUILTIN_TABLE;
                    objects.push(obj);
                }
            }
            let d = self.alloc_shape(dict);
            self.heap.get_mut(obj).shape = d;
            let s = self.heap.get_mut(d);
            slot = match s.header.flags & BUILTIN_TABLE {
                0 => s.table.push(k, attrs),
                _ => s.table.push_unindexed(k, attrs),
            };
            s.header.flags |= extra_flags;
        } else {
            let mut derived = self.heap.get(shape).derive_with(shape, k, attrs);
            derived.header.flags |= extra_flags;
            slot = derived.table.entries.last().map(|e| e.slot).unwrap_or(0);
            let next = self.alloc_shape(derived);
            self.heap.get_mut(shape).transitions.push((k, attrs, next));
            self.heap.get_mut(obj).shape = next;
        }
        self.heap.init_slot(obj, slot, value);
        self.bump_if_prototype(obj);
        slot
    }

    /// Gives `obj` a dictionary-mode shape of its own (if it does not have one).
    pub(crate) fn make_dictionary(&mut self, obj: Gc<JsObject>) -> Gc<Shape> {
        let shape = self.heap.get(obj).shape;
        if self.heap.get(shape).is_dictionary() {
            return shape;
        }
        let dict = self.heap.get(shape).to_dictionary();
        let d = self.alloc_shape(dict);
        self.heap.get_mut(obj).shape = d;
        d
    }

    /// Allocates a shape, counting its table towards the heap's limit.
    pub(crate) fn alloc_shape(&mut self, shape: Shape) -> Gc<Shape> {
        let external = shape.external_bytes();
        let s = self.heap.alloc(shape);
        self.heap.note_external(external);
        s
    }

    fn bump_if_prototype(&mut self, obj: Gc<JsObject>) {
        if self.heap.get(obj).header.flags & IS_PROTOTYPE != 0 {
            self.prototypes_changed();
        }
    }

    /// A prototype's layout changed: what inline caches and compiled code found on
    /// prototype chains may not hold any more. The epoch moves (caches compare it), and
    /// compiled code that assumed the old one is not entered again.
    pub(crate) fn prototypes_changed(&mut self) {
        *self.caches.proto_epoch = self.caches.proto_epoch.wrapping_add(1);
        #[cfg(feature = "jit")]
        self.invalidate_code(None);
    }

    /// A dictionary-mode shape's version moved (a property removed, or its attributes
    /// changed; `dict_version`): compiled code that read its properties at their slots
    /// (the global object's, say) is not entered again.
    pub(crate) fn dictionary_changed(&mut self, _shape: Gc<Shape>) {
        #[cfg(feature = "jit")]
        self.invalidate_code(Some(_shape));
    }

    /// Changes the attributes of named property `k` (in slot `slot`) to `attrs`.
    fn set_attrs(&mut self, obj: Gc<JsObject>, k: PropKey, attrs: u8) {
        let d = self.make_dictionary(obj);
        let s = self.heap.get_mut(d);
        if let Some(i) = s.table.find(k) {
            s.table.entries[i].attrs = attrs;
        }
        s.dict_version = s.dict_version.wrapping_add(1);
        if attrs & (ACCESSOR | WRITABLE) != WRITABLE {
            s.header.flags |= HAS_SPECIAL;
        }
        self.dictionary_changed(d);
        self.bump_if_prototype(obj);
    }

    // ---- Property descriptors as objects ------------------------------------------------------

    /// 6.2.6.5 ToPropertyDescriptor.
    pub(crate) fn descriptor_from_object(&mut self, v: Value) -> JsResult<PropertyDescriptor> {
        if !v.is_object() {
            let what = self.short_description(v);
            return Err(self.throw_type_error(&format!("Property description must be an object: {what}")));
        }
        let obj: Gc<JsObject> = v.gc();
        let mut d = PropertyDescriptor::default();
        let n = self.names;
        if self.has_property(obj, Key::Name(n.enumerable))? {
            let x = self.get(obj, Key::Name(n.enumerable), v)?;
            d.enumerable = Some(self.to_boolean(x));
        }
        if self.has_property(obj, Key::Name(n.configurable))? {
            let x = self.get(obj, Key::Name(n.configurable), v)?;
            d.configurable = Some(self.to_boolean(x));
        }
        if self.has_property(obj, Key::Name(n.value))? {
            let x = self.get(obj, Key::Name(n.value), v)?;
            self.root(x);
            d.value = Some(x);
        }
        if self.has_property(obj, Key::Name(n.writable))? {
            let x = self.get(obj, Key::Name(n.writable), v)?;
            d.writable = Some(self.to_boolean(x));
        }
        if self.has_property(obj, Key::Name(n.get))? {
            let g = self.get(obj, Key::Name(n.get), v)?;
            if !g.is_undefined() && !self.is_callable(g) {
                return Err(self.throw_type_error("Getter must be a function"));
            }
            self.root(g);
            d.get = Some(g);
        }
        if self.has_property(obj, Key::Name(n.set))? {
            let s = self.get(obj, Key::Name(n.set), v)?;
            if !s.is_undefined() && !self.is_callable(s) {
                return Err(self.throw_type_error("Setter must be a function"));
            }
            self.root(s);
            d.set = Some(s);
        }
        if (d.get.is_some() || d.set.is_some()) && (d.value.is_some() || d.writable.is_some()) {
            return Err(self.throw_type_error(
                "Invalid property descriptor. Cannot both specify accessors and a value or writable attribute",
            ));
        }
        Ok(d)
    }

    /// 6.2.6.4 FromPropertyDescriptor.
    pub(crate) fn descriptor_to_object(&mut self, d: Option<PropertyDescriptor>) -> Value {
        let Some(d) = d else { return Value::UNDEFINED };
        let op = self.intrinsic(Intrinsic::ObjectPrototype);
        let o = self.new_object(op);
        let n = self.names;
        if let Some(v) = d.value {
            self.define_data_raw(o, Key::Name(n.value), v, WRITABLE | ENUMERABLE | CONFIGURABLE);
        }
        if let Some(w) = d.writable {
            self.define_data_raw(o, Key::Name(n.writable), Value::boolean(w), WRITABLE | ENUMERABLE | CONFIGURABLE);
        }
        if let Some(g) = d.get {
            self.define_data_raw(o, Key::Name(n.get), g, WRITABLE | ENUMERABLE | CONFIGURABLE);
        }
        if let Some(s) = d.set {
            self.define_data_raw(o, Key::Name(n.set), s, WRITABLE | ENUMERABLE | CONFIGURABLE);
        }
        if let Some(e) = d.enumerable {
            self.define_data_raw(o, Key::Name(n.enumerable), Value::boolean(e), WRITABLE | ENUMERABLE | CONFIGURABLE);
        }
        if let Some(c) = d.configurable {
            self.define_data_raw(o, Key::Name(n.configurable), Value::boolean(c), WRITABLE | ENUMERABLE | CONFIGURABLE);
        }
        Value::object(o)
    }

    // ---- [[DefineOwnProperty]] ---------------------------------------------------------------

    /// `[[DefineOwnProperty]](key, desc)`.
    pub(crate) fn define_own_property(
        &mut self,
        obj: Gc<JsObject>,
        key: Key,
        desc: &PropertyDescriptor,
    ) -> JsResult<bool> {
        let kind = self.heap.get(obj).header.kind;
        if kind == CellKind::Proxy {
            return self.proxy_define_own_property(obj, key, desc);
        }
        if let Some(r) = self.namespace_define_own_property(obj, key, desc) {
            return r;
        }
        if kind == CellKind::TypedArray {
            if let Some(n) = self.canonical_numeric_key(key) {
                return self.typed_define(obj, n, desc);
            }
        }
        if kind == CellKind::Array {
            // 10.4.2.1 [[DefineOwnProperty]] of Array exotic objects.
            match key {
                Key::Name(k) if k == self.names.length => return self.array_set_length(obj, desc),
                Key::Index(i) => {
                    let len = self.heap.array_length(obj);
                    if i >= len && self.heap.get(obj).header.flags & LENGTH_READONLY != 0 {
                        return Ok(false);
                    }
                    let ok = self.ordinary_define_own_property(obj, key, desc)?;
                    if ok && i >= len {
                        self.heap.get_mut(obj.cast::<JsArray>()).length = i + 1;
                    }
                    return Ok(ok);
                }
                _ => {}
            }
        }
        // Mapped arguments objects (runtime/arguments.rs).
        if let (CellKind::Arguments, Key::Index(i)) = (kind, key) {
            if let Some((map, value)) = self.mapped_argument(obj, i) {
                return self.arguments_define(obj, i, desc, map, value);
            }
        }
        self.ordinary_define_own_property(obj, key, desc)
    }

    /// 10.1.6.1 OrdinaryDefineOwnProperty and 10.1.6.3 ValidateAndApplyPropertyDescriptor.
    pub(crate) fn ordinary_define_own_property(
        &mut self,
        obj: Gc<JsObject>,
        key: Key,
        desc: &PropertyDescriptor,
    ) -> JsResult<bool> {
        let current = self.own_lookup(obj, key);
        let cur = match current {
            Own::Absent => {
                // 2.a. If extensible is false, return false.
                if self.heap.get(obj).header.flags & EXTENSIBLE == 0 {
                    return Ok(false);
                }
                let attrs = desc.attrs();
                if desc.is_accessor() {
                    let pair = self
                        .new_accessor_pair(desc.get.unwrap_or(Value::UNDEFINED), desc.set.unwrap_or(Value::UNDEFINED));
                    let k = self.named(key);
                    self.add_named(obj, k, pair, attrs);
                } else {
                    let v = desc.value.unwrap_or(Value::UNDEFINED);
                    if !self.add_property(obj, key, v, attrs) {
                        return Ok(false);
                    }
                }
                return Ok(true);
            }
            _ => self.get_own_property(obj, key)?.unwrap_or_default(),
        };
        // 4. If every field in Desc is absent, return true.
        let cur_attrs = cur.attrs();
        let cur_configurable = cur_attrs & CONFIGURABLE != 0;
        // 5. If current.[[Configurable]] is false:
        if !cur_configurable {
            if desc.configurable == Some(true) {
                return Ok(false);
            }
            if let Some(e) = desc.enumerable {
                if e != (cur_attrs & ENUMERABLE != 0) {
                    return Ok(false);
                }
            }
            if !desc.is_generic() && desc.is_accessor() != cur.is_accessor() {
                return Ok(false);
            }
            if cur.is_accessor() {
                if let Some(g) = desc.get {
                    if !same_value_raw(g, cur.get.unwrap_or(Value::UNDEFINED)) {
                        return Ok(false);
                    }
                }
                if let Some(s) = desc.set {
                    if !same_value_raw(s, cur.set.unwrap_or(Value::UNDEFINED)) {
                        return Ok(false);
                    }
                }
            } else if cur_attrs & WRITABLE == 0 {
                if desc.writable == Some(true) {
                    return Ok(false);
                }
                if let Some(v) = desc.value {
                    if !self.same_value(v, cur.value.unwrap_or(Value::UNDEFINED)) {
                        return Ok(false);
                    }
                }
            }
        }
        // 6. Apply the descriptor.
        let enumerable = desc.enumerable.unwrap_or(cur_attrs & ENUMERABLE != 0);
        let configurable = desc.configurable.unwrap_or(cur_configurable);
        let mut new_attrs = (if enumerable { ENUMERABLE } else { 0 }) | (if configurable { CONFIGURABLE } else { 0 });
        let to_accessor = if desc.is_generic() { cur.is_accessor() } else { desc.is_accessor() };
        match current {
            Own::Virtual(..) => {
                // String wrapper indices and `length`: immutable; the checks above passed,
                // so the definition changes nothing.
                Ok(true)
            }
            Own::Element(i) => {
                if !to_accessor {
                    let writable = desc.writable.unwrap_or(true);
                    if writable {
                        new_attrs |= WRITABLE;
                    }
                    if new_attrs == DEFAULT_ATTRS {
                        if let Some(v) = desc.value {
                            if let Some(e) = self.heap.get(obj).elements {
                                self.heap.vec_set(e, i as usize, v);
                            }
                        }
                        return Ok(true);
                    }
                }
                // Move the element to a named property with the new attributes.
                let old = self.heap.elements(obj)[i as usize];
                if let Some(e) = self.heap.get(obj).elements {
                    self.heap.vec_set(e, i as usize, Value::EMPTY);
                }
                let k = self.index_atom(i);
                if to_accessor {
                    new_attrs |= ACCESSOR;
                    let pair = self
                        .new_accessor_pair(desc.get.unwrap_or(Value::UNDEFINED), desc.set.unwrap_or(Value::UNDEFINED));
                    self.add_named(obj, k, pair, new_attrs);
                } else {
                    let v = desc.value.unwrap_or(old);
                    self.add_named(obj, k, v, new_attrs);
                }
                Ok(true)
            }
            Own::Slot(slot, attrs) => {
                let k = self.named(key);
                if to_accessor {
                    new_attrs |= ACCESSOR;
                    let (g, s) = if attrs & ACCESSOR != 0 {
                        let pair = self.heap.get(self.heap.slot(obj, slot).gc::<AccessorPair>());
                        (desc.get.unwrap_or(pair.getter), desc.set.unwrap_or(pair.setter))
                    } else {
                        (desc.get.unwrap_or(Value::UNDEFINED), desc.set.unwrap_or(Value::UNDEFINED))
                    };
                    // Accessor pairs are replaced, not mutated, so caches holding the old
                    // pair stay consistent.
                    let pair = self.new_accessor_pair(g, s);
                    if new_attrs != attrs {
                        self.set_attrs(obj, k, new_attrs);
                    } else {
                        self.bump_if_prototype(obj);
                    }
                    self.heap.set_slot(obj, slot, pair);
                } else {
                    let was_accessor = attrs & ACCESSOR != 0;
                    let writable = desc.writable.unwrap_or(!was_accessor && attrs & WRITABLE != 0);
                    if writable {
                        new_attrs |= WRITABLE;
                    }
                    if new_attrs != attrs {
                        self.set_attrs(obj, k, new_attrs);
                    }
                    if let Some(v) = desc.value {
                        self.heap.set_slot(obj, slot, v);
                    } else if was_accessor {
                        self.heap.set_slot(obj, slot, Value::UNDEFINED);
                    }
                }
                Ok(true)
            }
            Own::Absent => unreachable!(),
        }
    }

    /// A new accessor pair cell value.
    pub(crate) fn new_accessor_pair(&mut self, getter: Value, setter: Value) -> Value {
        let pair = self.heap.alloc(AccessorPair { header: CellHeader::new(CellKind::AccessorPair), getter, setter });
        Value::cell(pair)
    }

    /// `DefinePropertyOrThrow`.
    pub(crate) fn define_property_or_throw(
        &mut self,
        obj: Gc<JsObject>,
        key: Key,
        desc: &PropertyDescriptor,
    ) -> JsResult<()> {
        if !self.define_own_property(obj, key, desc)? {
            let name = self.key_display(key);
            return Err(self.throw_type_error(&format!("Cannot redefine property: {name}")));
        }
        Ok(())
    }

    /// 10.4.2.4 ArraySetLength.
    fn array_set_length(&mut self, arr: Gc<JsObject>, desc: &PropertyDescriptor) -> JsResult<bool> {
        let Some(v) = desc.value else {
            // No value: an ordinary definition of the `length` virtual property.
            let ro = self.heap.get(arr).header.flags & LENGTH_READONLY != 0;
            if desc.configurable == Some(true) || desc.enumerable == Some(true) || desc.is_accessor() {
                return Ok(false);
            }
            if desc.writable == Some(true) && ro {
                return Ok(false);
            }
            if desc.writable == Some(false) {
                self.heap.get_mut(arr).header.flags |= LENGTH_READONLY;
            }
            return Ok(true);
        };
        // 3. Let newLen be ? ToUint32(Desc.[[Value]]).
        let new_len = self.to_uint32(v)?;
        // 4. Let numberLen be ? ToNumber(Desc.[[Value]]).
        let number_len = self.to_number(v)?;
        // 5. If SameValueZero(newLen, numberLen) is false, throw a RangeError.
        if new_len as f64 != number_len {
            return Err(self.throw_range_error("Invalid array length"));
        }
        if desc.configurable == Some(true) || desc.enumerable == Some(true) || desc.is_accessor() {
            return Ok(false);
        }
        let old_len = self.heap.array_length(arr);
        let ro = self.heap.get(arr).header.flags & LENGTH_READONLY != 0;
        if new_len == old_len {
            if desc.writable == Some(true) && ro {
                return Ok(false);
            }
            if desc.writable == Some(false) {
                self.heap.get_mut(arr).header.flags |= LENGTH_READONLY;
            }
            return Ok(true);
        }
        if ro {
            return Ok(false);
        }
        let mut final_len = new_len;
        let mut ok = true;
        if new_len < old_len {
            self.heap.truncate_elements(arr, new_len as usize);
            // Delete sparse index properties from the top down; a non-configurable one
            // stops the truncation.
            let shape = self.heap.get(arr).shape;
            if self.heap.get(shape).flags() & HAS_INDEX_KEYS != 0 {
                let mut idx: Vec<u32> = self
                    .own_keys_raw(arr)
                    .into_iter()
                    .filter_map(|k| match k {
                        Key::Index(i) if i >= new_len => Some(i),
                        _ => None,
                    })
                    .collect();
                idx.sort_unstable_by(|a, b| b.cmp(a));
                for i in idx {
                    if !self.delete(arr, Key::Index(i))? {
                        final_len = i + 1;
                        ok = false;
                        break;
                    }
                }
            }
        }
        self.heap.get_mut(arr.cast::<JsArray>()).length = final_len;
        if desc.writable == Some(false) {
            self.heap.get_mut(arr).header.flags |= LENGTH_READONLY;
        }
        Ok(ok)
    }

    // ---- [[Delete]] --------------------------------------------------------------------------

    /// `[[Delete]](key)`.
    pub(crate) fn delete(&mut self, obj: Gc<JsObject>, key: Key) -> JsResult<bool> {
        if self.is_proxy(obj) {
            return self.proxy_delete(obj, key);
        }
        if let Some(r) = self.namespace_delete(obj, key) {
            return r;
        }
        // 10.4.5.6: a TypedArray's elements cannot be deleted; other numeric keys are absent.
        if self.is_typed_array(obj) {
            if let Some(n) = self.canonical_numeric_key(key) {
                return Ok(!self.is_valid_integer_index(obj, n));
            }
        }
        // Mapped arguments objects (runtime/arguments.rs).
        if let Key::Index(i) = key {
            if self.heap.get(obj).header.kind == CellKind::Arguments {
                if let Some((map, value)) = self.mapped_argument(obj, i) {
                    return self.arguments_delete(obj, i, map, value);
                }
            }
        }
        self.ordinary_delete(obj, key)
    }

    /// 10.1.10.1 OrdinaryDelete.
    pub(crate) fn ordinary_delete(&mut self, obj: Gc<JsObject>, key: Key) -> JsResult<bool> {
        match self.own_lookup(obj, key) {
            Own::Absent => Ok(true),
            Own::Virtual(_, attrs) => Ok(attrs & CONFIGURABLE != 0),
            Own::Element(i) => {
                let e = self.heap.get(obj).elements;
                if let Some(e) = e {
                    let len = self.heap.get(e).len;
                    if i + 1 == len && self.heap.get(obj).header.kind != CellKind::Array {
                        self.heap.vec_set(e, i as usize, Value::UNDEFINED);
                        self.heap.get_mut(e).len = i;
                    } else {
                        self.heap.vec_set(e, i as usize, Value::EMPTY);
                    }
                }
                Ok(true)
            }
            Own::Slot(slot, attrs) => {
                if attrs & CONFIGURABLE == 0 {
                    return Ok(false);
                }
                let k = self.named(key);
                let shape = self.heap.get(obj).shape;
                // Deleting the most recently added property returns to the parent shape.
                let s = self.heap.get(shape);
                if !s.is_dictionary() {
                    if let (Some(parent), Some(last)) = (s.parent, s.table.entries.last()) {
                        if last.key == k && self.heap.get(parent).property_count() + 1 == s.property_count() {
                            self.heap.set_slot(obj, slot, Value::UNDEFINED);
                            self.heap.get_mut(obj).shape = parent;
                            self.bump_if_prototype(obj);
                            return Ok(true);
                        }
                    }
                }
                let d = self.make_dictionary(obj);
                let s = self.heap.get_mut(d);
                if let Some(i) = s.table.find(k) {
                    s.table.remove(i);
                }
                s.dict_version = s.dict_version.wrapping_add(1);
                self.heap.set_slot(obj, slot, Value::UNDEFINED);
                self.dictionary_changed(d);
                self.bump_if_prototype(obj);
                Ok(true)
            }
        }
    }

    // ---- [[OwnPropertyKeys]] ----------------------------------------------------------------

    /// `[[OwnPropertyKeys]]`: indices ascending, then strings and symbols in creation order.
    pub(crate) fn own_property_keys(&mut self, obj: Gc<JsObject>) -> JsResult<Vec<Key>> {
        if self.is_proxy(obj) {
            return self.proxy_own_keys(obj);
        }
        if self.heap.object_kind(obj) == CellKind::ModuleNamespace {
            let mut keys = self.namespace_own_keys(obj)?;
            keys.extend(self.own_keys_raw(obj));
            return Ok(keys);
        }
        Ok(self.own_keys_raw(obj))
    }

    pub(crate) fn own_keys_raw(&mut self, obj: Gc<JsObject>) -> Vec<Key> {
        self.install_lazy_builtins(obj);
        let mut indices: Vec<u32> = Vec::new();
        for (i, v) in self.heap.elements(obj).iter().enumerate() {
            if !v.is_empty() {
                indices.push(i as u32);
            }
        }
        let kind = self.heap.get(obj).header.kind;
        let mut strings: Vec<Key> = Vec::new();
        if kind == CellKind::PrimitiveObject {
            let p = self.heap.get(obj.cast::<PrimitiveObject>()).value;
            if p.is_string() {
                let n = self.heap.string_len(p) as u32;
                indices.extend(0..n);
                strings.push(Key::Name(self.names.length));
            }
        }
        if kind == CellKind::Array {
            strings.push(Key::Name(self.names.length));
        }
        if kind == CellKind::TypedArray {
            indices.extend(0..self.typed_array_length(obj).unwrap_or(0) as u32);
        }
        let shape = self.heap.get(obj).shape;
        let has_index = self.heap.get(shape).flags() & HAS_INDEX_KEYS != 0;
        let mut symbols: Vec<Key> = Vec::new();
        let entries: Vec<PropKey> = self.heap.get(shape).table.entries.iter().map(|e| e.key).collect();
        for k in entries {
            let v = k.value();
            if v.is_symbol() {
                // Private elements are not properties.
                if self.heap.get(v.gc::<crate::object::Symbol>()).header.flags & crate::object::PRIVATE_SYMBOL == 0 {
                    symbols.push(Key::Name(k));
                }
            } else if has_index {
                match self.key_from_atom(v) {
                    Key::Index(i) => indices.push(i),
                    key => strings.push(key),
                }
            } else {
                strings.push(Key::Name(k));
            }
        }
        indices.sort_unstable();
        indices.dedup();
        let mut out: Vec<Key> = indices.into_iter().map(Key::Index).collect();
        out.extend(strings);
        out.extend(symbols);
        out
    }

    // ---- Prototype and extensibility -----------------------------------------------------------

    /// `[[GetPrototypeOf]]`, which a proxy's trap answers.
    pub(crate) fn prototype_of(&mut self, obj: Gc<JsObject>) -> JsResult<Value> {
        if self.is_proxy(obj) {
            return self.proxy_get_prototype_of(obj);
        }
        Ok(self.get_prototype_of(obj))
    }

    /// OrdinaryGetPrototypeOf: the prototype in the object's shape (null for a proxy, whose
    /// callers must use `prototype_of`).
    #[inline]
    pub(crate) fn get_prototype_of(&self, obj: Gc<JsObject>) -> Value {
        self.heap.get(self.heap.get(obj).shape).proto
    }

    /// `[[SetPrototypeOf]]` (10.1.2.1 OrdinarySetPrototypeOf).
    pub(crate) fn set_prototype_of(&mut self, obj: Gc<JsObject>, proto: Value) -> JsResult<bool> {
        if self.is_proxy(obj) {
            return self.proxy_set_prototype_of(obj, proto);
        }
        let current = self.get_prototype_of(obj);
        if current == proto {
            return Ok(true);
        }
        let flags = self.heap.get(obj).header.flags;
        if flags & EXTENSIBLE == 0 || flags & IMMUTABLE_PROTO != 0 {
            return Ok(false);
        }
        // 8. Refuse cycles.
        let mut p = proto;
        while p.is_object() {
            if p == Value::object(obj) {
                return Ok(false);
            }
            // 8.c.i. A proxy's prototype is its trap's business: stop there.
            if self.is_proxy(p.gc()) {
                break;
            }
            p = self.get_prototype_of(p.gc());
        }
        self.change_prototype(obj, proto);
        Ok(true)
    }

    /// Rebuilds the shape of `obj` around a new prototype.
    pub(crate) fn change_prototype(&mut self, obj: Gc<JsObject>, proto: Value) {
        let shape = self.heap.get(obj).shape;
        if proto.is_object() {
            let p: Gc<JsObject> = proto.gc();
            self.heap.get_mut(p).header.flags |= IS_PROTOTYPE;
        }
        if self.heap.get(shape).is_dictionary() {
            self.heap.get_mut(shape).proto = proto;
        } else {
            let (kind, cap) = (self.heap.get(shape).object_kind, self.heap.get(shape).inline_cap);
            let mut s = self.root_shape(proto, kind, cap);
            let entries: Vec<_> = self.heap.get(shape).table.entries.clone();
            let flags = self.heap.get(shape).flags() & !DICTIONARY;
            for e in entries {
                s = match self.heap.get(s).find_transition(e.key, e.attrs) {
                    Some(n) => n,
                    None => {
                        let mut d = self.heap.get(s).derive_with(s, e.key, e.attrs);
                        d.header.flags |= flags;
                        let n = self.heap.alloc(d);
                        self.heap.get_mut(s).transitions.push((e.key, e.attrs, n));
                        n
                    }
                };
            }
            self.heap.get_mut(obj).shape = s;
        }
        // Caches keyed on shapes of objects inheriting from `obj` depend on its chain.
        self.prototypes_changed();
    }

    /// `[[IsExtensible]]`.
    pub(crate) fn is_extensible(&mut self, obj: Gc<JsObject>) -> JsResult<bool> {
        if self.is_proxy(obj) {
            return self.proxy_is_extensible(obj);
        }
        Ok(self.heap.get(obj).header.flags & EXTENSIBLE != 0)
    }

    /// `[[PreventExtensions]]`. The object moves to dictionary mode so that no cached
    /// add-property transition applies to it any more.
    pub(crate) fn prevent_extensions(&mut self, obj: Gc<JsObject>) -> JsResult<bool> {
        if self.is_proxy(obj) {
            return self.proxy_prevent_extensions(obj);
        }
        // 10.4.5.? [[PreventExtensions]]: a TypedArray whose length can change cannot be made non-extensible.
        if self.is_typed_array(obj) && !self.is_typed_array_fixed_length(obj) {
            return Ok(false);
        }
        if self.heap.get(obj).header.flags & EXTENSIBLE != 0 {
            self.install_lazy_builtins(obj);
            self.make_dictionary(obj);
            self.heap.get_mut(obj).header.flags &= !EXTENSIBLE;
            self.bump_if_prototype(obj);
        }
        Ok(true)
    }

    /// `HasProperty(O, P)`.
    pub(crate) fn has_property(&mut self, obj: Gc<JsObject>, key: Key) -> JsResult<bool> {
        let mut o = obj;
        loop {
            if self.own_lookup(o, key) != Own::Absent {
                return Ok(true);
            }
            match self.heap.object_kind(o) {
                // 10.4.5.2 [[HasProperty]]: a TypedArray's numeric keys end the lookup.
                CellKind::TypedArray if self.canonical_numeric_key(key).is_some() => return Ok(false),
                CellKind::Proxy => return self.proxy_has(o, key),
                CellKind::ModuleNamespace => {
                    if let Some(r) = self.namespace_has_property(o, key) {
                        return r;
                    }
                }
                _ => {}
            }
            let proto = self.get_prototype_of(o);
            if !proto.is_object() {
                return Ok(false);
            }
            o = proto.gc();
        }
    }

    /// `HasOwnProperty(O, P)`.
    pub(crate) fn has_own_property(&mut self, obj: Gc<JsObject>, key: Key) -> JsResult<bool> {
        if self.is_proxy(obj) || self.heap.object_kind(obj) == CellKind::ModuleNamespace {
            return Ok(self.get_own_property(obj, key)?.is_some());
        }
        Ok(self.own_lookup(obj, key) != Own::Absent)
    }

    /// `DeletePropertyOrThrow`.
    pub(crate) fn delete_or_throw(&mut self, obj: Gc<JsObject>, key: Key) -> JsResult<()> {
        if !self.delete(obj, key)? {
            let name = self.key_display(key);
            return Err(self.throw_type_error(&format!("Cannot delete property '{name}'")));
        }
        Ok(())
    }

    /// `Set(O, P, V, true)`: throws on failure.
    pub(crate) fn set_or_throw(&mut self, obj: Gc<JsObject>, key: Key, value: Value) -> JsResult<()> {
        if !self.set(obj, key, value, Value::object(obj))? {
            let name = self.key_display(key);
            return Err(self.throw_type_error(&format!("Cannot assign to read only property '{name}' of object")));
        }
        Ok(())
    }

    /// 7.3.15 SetIntegrityLevel(O, level): `frozen` true for "frozen", false for "sealed".
    pub(crate) fn set_integrity_level(&mut self, obj: Gc<JsObject>, frozen: bool) -> JsResult<bool> {
        // 3-4. Let status be ? O.[[PreventExtensions]](). If status is false, return false.
        if !self.prevent_extensions(obj)? {
            return Ok(false);
        }
        let keys = self.own_property_keys(obj)?;
        for k in keys {
            let desc = if frozen {
                match self.get_own_property(obj, k)? {
                    Some(d) if d.is_accessor() => {
                        PropertyDescriptor { configurable: Some(false), ..Default::default() }
                    }
                    None => continue,
                    _ => PropertyDescriptor { configurable: Some(false), writable: Some(false), ..Default::default() },
                }
            } else {
                PropertyDescriptor { configurable: Some(false), ..Default::default() }
            };
            self.define_property_or_throw(obj, k, &desc)?;
        }
        Ok(true)
    }

    /// 7.3.16 TestIntegrityLevel(O, level).
    pub(crate) fn test_integrity_level(&mut self, obj: Gc<JsObject>, frozen: bool) -> JsResult<bool> {
        if self.is_extensible(obj)? {
            return Ok(false);
        }
        for k in self.own_property_keys(obj)? {
            if let Some(d) = self.get_own_property(obj, k)? {
                if d.configurable == Some(true) {
                    return Ok(false);
                }
                if frozen && d.is_data() && d.writable == Some(true) {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }
}

/// SameValue on values whose identity is their bits (functions, undefined).
fn same_value_raw(a: Value, b: Value) -> bool {
    a == b
}
