//! Mapped arguments objects (ECMA-262 10.4.4): the arguments object of a sloppy function
//! with simple parameters whose indices alias the parameters.
//!
//! The compiler decides which functions need the mapping (see its `mapped_arguments`), and
//! keeps their parameters in the arguments object itself: `mapArguments` attaches a
//! parameter map, `argumentsGet`/`argumentsSet` read and write parameter `i`. While index
//! `i` is mapped, its ordinary element is the parameter's value (so every read and write of
//! `arguments[i]`, fast paths included, sees the parameter); once unmapped (deleted,
//! redefined as an accessor or as non-writable), the parameter's value lives in the map.
//!
//! The map is an array `[mapped₀, value₀, mapped₁, value₁, ...]` stored under a Private
//! Name of the realm (`Intrinsic::ArgumentsMapKey`), so scripts never see it.

use super::{Intrinsic, JsResult, Runtime};
use crate::gc::{CellKind, Gc};
use crate::object::property::PropertyDescriptor;
use crate::object::shape::{PropKey, WRITABLE};
use crate::object::{JsObject, Key};
use crate::value::Value;

impl Runtime {
    /// The realm's Private Name for parameter maps.
    fn arguments_map_key(&mut self) -> PropKey {
        self.realm_private_name(Intrinsic::ArgumentsMapKey, "[[ParameterMap]]")
    }

    /// The parameter map of arguments object `obj`, if it has one.
    fn arguments_map(&mut self, obj: Gc<JsObject>) -> Option<Gc<JsObject>> {
        if self.heap.get(obj).header.kind != CellKind::Arguments {
            return None;
        }
        let k = self.intrinsic(Intrinsic::ArgumentsMapKey);
        if !k.is_symbol() {
            return None;
        }
        let shape = self.heap.get(obj).shape;
        let (slot, _) = self.heap.get(shape).lookup(PropKey::from_value(k))?;
        let m = self.heap.slot(obj, slot);
        m.is_object().then(|| m.gc())
    }

    /// `mapArguments(args, argc, mask, p₁, ..., pₙ)`: attaches the parameter map; index `i`
    /// is mapped when it was passed (`i < argc`) and bit `i` of `mask` is set (the last of
    /// duplicate parameter names); `pᵢ` are the parameters' initial values.
    pub(crate) fn map_arguments(&mut self, args: Value, argc: Value, mask: Value, params: &[Value]) -> JsResult<Value> {
        if !args.is_object() {
            return Err(self.throw_type_error("internal error: mapArguments on a non-object"));
        }
        let argc = argc.as_number().unwrap_or(0.0) as usize;
        let mask = mask.as_number().unwrap_or(0.0) as u64;
        let mut entries = Vec::with_capacity(params.len() * 2);
        for (i, &p) in params.iter().enumerate() {
            let mapped = i < argc && i < 53 && (mask >> i) & 1 == 1;
            entries.push(Value::boolean(mapped));
            entries.push(p);
        }
        let map = self.new_array_from(&entries);
        let key = self.arguments_map_key();
        self.add_named(args.gc(), key, Value::object(map), WRITABLE);
        Ok(Value::UNDEFINED)
    }

    /// Whether index `i` of parameter map `map` is mapped.
    fn map_is_mapped(&self, map: Gc<JsObject>, i: u32) -> bool {
        self.heap.elements(map).get(2 * i as usize) == Some(&Value::TRUE)
    }

    /// `argumentsGet(args, i)`: parameter `i` of a function with a mapped arguments object.
    pub(crate) fn arguments_get(&mut self, args: Value, i: u32) -> JsResult<Value> {
        let Some(map) = args.is_object().then(|| args.gc()).and_then(|o| self.arguments_map(o)) else {
            return Ok(Value::UNDEFINED);
        };
        if self.map_is_mapped(map, i) {
            return self.get(args.gc(), Key::Index(i), args);
        }
        Ok(self.heap.elements(map).get(2 * i as usize + 1).copied().unwrap_or(Value::UNDEFINED))
    }

    /// `argumentsSet(args, i, value)`: assigns parameter `i`.
    pub(crate) fn arguments_set(&mut self, args: Value, i: u32, v: Value) -> JsResult<()> {
        let Some(map) = args.is_object().then(|| args.gc()).and_then(|o| self.arguments_map(o)) else {
            return Ok(());
        };
        if self.map_is_mapped(map, i) {
            self.set(args.gc(), Key::Index(i), v, args)?;
            return Ok(());
        }
        if let Some(e) = self.heap.get(map).elements {
            if ((2 * i + 1) as usize) < self.heap.get(e).len as usize {
                self.heap.vec_set(e, 2 * i as usize + 1, v);
            }
        }
        Ok(())
    }

    /// The value of mapped index `i` of arguments object `obj`, if it is mapped.
    pub(crate) fn mapped_argument(&mut self, obj: Gc<JsObject>, i: u32) -> Option<(Gc<JsObject>, Value)> {
        let map = self.arguments_map(obj)?;
        if !self.map_is_mapped(map, i) {
            return None;
        }
        let v = self.peek_data(obj, Key::Index(i)).unwrap_or(Value::UNDEFINED);
        Some((map, v))
    }

    /// Ends the mapping of index `i`: the parameter keeps `value`.
    fn unmap_argument(&mut self, map: Gc<JsObject>, i: u32, value: Value) {
        if let Some(e) = self.heap.get(map).elements {
            if ((2 * i + 1) as usize) < self.heap.get(e).len as usize {
                self.heap.vec_set(e, 2 * i as usize, Value::FALSE);
                self.heap.vec_set(e, 2 * i as usize + 1, value);
            }
        }
    }

    /// 10.4.4.5 [[Delete]] of a mapped index: a successful delete unmaps it.
    pub(crate) fn arguments_delete(
        &mut self,
        obj: Gc<JsObject>,
        i: u32,
        map: Gc<JsObject>,
        value: Value,
    ) -> JsResult<bool> {
        let ok = self.ordinary_delete(obj, Key::Index(i))?;
        if ok {
            self.unmap_argument(map, i, value);
        }
        Ok(ok)
    }

    /// 10.4.4.2 [[DefineOwnProperty]] of a mapped index.
    pub(crate) fn arguments_define(
        &mut self,
        obj: Gc<JsObject>,
        i: u32,
        desc: &PropertyDescriptor,
        map: Gc<JsObject>,
        old: Value,
    ) -> JsResult<bool> {
        // Steps 3-4: a generic or data redefinition keeps the current value; the ordinary
        // definition does that already, as the element holds the parameter's value.
        if !self.ordinary_define_own_property(obj, Key::Index(i), desc)? {
            return Ok(false);
        }
        if desc.is_accessor() {
            // 6.a: the parameter keeps the value it had.
            self.unmap_argument(map, i, old);
        } else if desc.writable == Some(false) {
            // 6.b.ii: after taking the new value, if any.
            let v = desc.value.unwrap_or(old);
            self.unmap_argument(map, i, v);
        }
        Ok(true)
    }
}
