//! Proxy exotic objects (10.5): each internal method calls its handler's trap, then checks
//! the result against the target with the invariants of the specification.
//!
//! `property.rs` and `Runtime::call`/`construct` send every internal method of a proxy
//! here. A proxy's own shape holds nothing: no property, no element, and a null
//! prototype, so a lookup that looks at shapes (an inline cache, a fast path) never finds
//! anything on it and falls back to the internal methods.

use super::{JsResult, Runtime};
use crate::gc::{CellKind, Gc};
use crate::object::property::PropertyDescriptor;
use crate::object::{JsObject, Key, ProxyObject};
use crate::value::Value;

impl Runtime {
    /// Whether `obj` is a proxy.
    #[inline]
    pub(crate) fn is_proxy(&self, obj: Gc<JsObject>) -> bool {
        self.heap.object_kind(obj) == CellKind::Proxy
    }

    /// Whether `obj`'s own properties are known only to its internal methods (a Proxy, a
    /// module namespace): fast paths that read shapes ask `get_own_property` instead.
    pub(crate) fn has_own_methods(&self, obj: Gc<JsObject>) -> bool {
        matches!(self.heap.object_kind(obj), CellKind::Proxy | CellKind::ModuleNamespace)
    }

    /// 10.5.14 ProxyCreate(target, handler).
    pub(crate) fn proxy_create(&mut self, target: Value, handler: Value) -> JsResult<Gc<JsObject>> {
        if !target.is_object() || !handler.is_object() {
            return Err(self.throw_type_error("Cannot create proxy with a non-object as target or handler"));
        }
        let (callable, constructor) = (self.is_callable(target), self.is_constructor(target));
        let shape = self.root_shape(Value::NULL, CellKind::Proxy, 0);
        let p = ProxyObject { base: JsObject::new(CellKind::Proxy, shape), target, handler, callable, constructor };
        Ok(self.heap.alloc_object(p, 0).cast())
    }

    /// Revokes a proxy: its target and handler become null.
    pub(crate) fn proxy_revoke(&mut self, proxy: Gc<JsObject>) {
        let p = self.heap.get_mut(proxy.cast::<ProxyObject>());
        p.target = Value::NULL;
        p.handler = Value::NULL;
    }

    /// The target of a proxy, or None once revoked.
    pub(crate) fn proxy_target(&self, proxy: Gc<JsObject>) -> Option<Gc<JsObject>> {
        let t = self.heap.get(proxy.cast::<ProxyObject>()).target;
        t.is_object().then(|| t.gc())
    }

    /// 10.5.13? ValidateNonRevokedProxy, then `GetMethod(handler, name)`: the target, the
    /// handler and the trap (undefined when the handler has none).
    fn trap(&mut self, proxy: Gc<JsObject>, name: &str) -> JsResult<(Gc<JsObject>, Value, Value)> {
        let p = self.heap.get(proxy.cast::<ProxyObject>());
        let (target, handler) = (p.target, p.handler);
        if !handler.is_object() {
            return Err(self.throw_type_error(&format!("Cannot perform '{name}' on a proxy that has been revoked")));
        }
        let key = self.key(name);
        let trap = self.get(handler.gc(), key, handler)?;
        if trap.is_nullish() {
            return Ok((target.gc(), handler, Value::UNDEFINED));
        }
        if !self.is_callable(trap) {
            return Err(self.throw_type_error(&format!("Proxy handler's {name} trap is not a function")));
        }
        Ok((target.gc(), handler, trap))
    }

    /// A failed invariant check.
    fn proxy_invariant(&mut self, what: &str) -> crate::runtime::Exception {
        self.throw_type_error(&format!("Proxy invariant violated: {what}"))
    }

    /// 10.5.1 [[GetPrototypeOf]]().
    pub(crate) fn proxy_get_prototype_of(&mut self, proxy: Gc<JsObject>) -> JsResult<Value> {
        let (target, handler, trap) = self.trap(proxy, "getPrototypeOf")?;
        if trap.is_undefined() {
            return self.prototype_of(target);
        }
        let proto = self.call(trap, handler, &[Value::object(target)])?;
        if !proto.is_object() && !proto.is_null() {
            return Err(self.proxy_invariant("getPrototypeOf trap returned neither an object nor null"));
        }
        if self.is_extensible(target)? {
            return Ok(proto);
        }
        self.root(proto);
        let target_proto = self.prototype_of(target)?;
        if proto != target_proto {
            return Err(self.proxy_invariant("getPrototypeOf trap result differs from a non-extensible target's"));
        }
        Ok(proto)
    }

    /// 10.5.2 [[SetPrototypeOf]](V).
    pub(crate) fn proxy_set_prototype_of(&mut self, proxy: Gc<JsObject>, v: Value) -> JsResult<bool> {
        let (target, handler, trap) = self.trap(proxy, "setPrototypeOf")?;
        if trap.is_undefined() {
            return self.set_prototype_of(target, v);
        }
        let r = self.call(trap, handler, &[Value::object(target), v])?;
        if !self.to_boolean(r) {
            return Ok(false);
        }
        if self.is_extensible(target)? {
            return Ok(true);
        }
        let target_proto = self.prototype_of(target)?;
        if v != target_proto {
            return Err(self.proxy_invariant("setPrototypeOf trap changed a non-extensible target's prototype"));
        }
        Ok(true)
    }

    /// 10.5.3 [[IsExtensible]]().
    pub(crate) fn proxy_is_extensible(&mut self, proxy: Gc<JsObject>) -> JsResult<bool> {
        let (target, handler, trap) = self.trap(proxy, "isExtensible")?;
        if trap.is_undefined() {
            return self.is_extensible(target);
        }
        let r = self.call(trap, handler, &[Value::object(target)])?;
        let result = self.to_boolean(r);
        if result != self.is_extensible(target)? {
            return Err(self.proxy_invariant("isExtensible trap result differs from the target's"));
        }
        Ok(result)
    }

    /// 10.5.4 [[PreventExtensions]]().
    pub(crate) fn proxy_prevent_extensions(&mut self, proxy: Gc<JsObject>) -> JsResult<bool> {
        let (target, handler, trap) = self.trap(proxy, "preventExtensions")?;
        if trap.is_undefined() {
            return self.prevent_extensions(target);
        }
        let r = self.call(trap, handler, &[Value::object(target)])?;
        let result = self.to_boolean(r);
        if result && self.is_extensible(target)? {
            return Err(self.proxy_invariant("preventExtensions trap returned true for an extensible target"));
        }
        Ok(result)
    }

    /// 10.5.5 [[GetOwnProperty]](P).
    pub(crate) fn proxy_get_own_property(
        &mut self,
        proxy: Gc<JsObject>,
        key: Key,
    ) -> JsResult<Option<PropertyDescriptor>> {
        let (target, handler, trap) = self.trap(proxy, "getOwnPropertyDescriptor")?;
        if trap.is_undefined() {
            return self.get_own_property(target, key);
        }
        let k = self.key_to_value(key);
        let result = self.call(trap, handler, &[Value::object(target), k])?;
        if !result.is_object() && !result.is_undefined() {
            return Err(self.proxy_invariant("getOwnPropertyDescriptor trap returned neither an object nor undefined"));
        }
        self.root(result);
        let target_desc = self.get_own_property(target, key)?;
        if result.is_undefined() {
            let Some(td) = target_desc else { return Ok(None) };
            if td.configurable == Some(false) {
                return Err(self.proxy_invariant("getOwnPropertyDescriptor trap hid a non-configurable property"));
            }
            if !self.is_extensible(target)? {
                return Err(
                    self.proxy_invariant("getOwnPropertyDescriptor trap hid a property of a non-extensible target")
                );
            }
            return Ok(None);
        }
        let extensible = self.is_extensible(target)?;
        let mut desc = self.descriptor_from_object(result)?;
        complete_descriptor(&mut desc);
        if !self.is_compatible_descriptor(extensible, &desc, target_desc.as_ref()) {
            return Err(self.proxy_invariant("getOwnPropertyDescriptor trap result is incompatible with the target"));
        }
        if desc.configurable == Some(false) {
            match target_desc {
                Some(td) if td.configurable == Some(false) => {
                    if desc.writable == Some(false) && td.writable == Some(true) {
                        return Err(self.proxy_invariant(
                            "getOwnPropertyDescriptor trap reported a writable property as non-writable",
                        ));
                    }
                }
                _ => {
                    return Err(self.proxy_invariant(
                        "getOwnPropertyDescriptor trap reported a configurable or missing property as non-configurable",
                    ))
                }
            }
        }
        Ok(Some(desc))
    }

    /// 10.5.6 [[DefineOwnProperty]](P, Desc).
    pub(crate) fn proxy_define_own_property(
        &mut self,
        proxy: Gc<JsObject>,
        key: Key,
        desc: &PropertyDescriptor,
    ) -> JsResult<bool> {
        let (target, handler, trap) = self.trap(proxy, "defineProperty")?;
        if trap.is_undefined() {
            return self.define_own_property(target, key, desc);
        }
        let desc_obj = self.descriptor_to_object(Some(*desc));
        self.root(desc_obj);
        let k = self.key_to_value(key);
        let r = self.call(trap, handler, &[Value::object(target), k, desc_obj])?;
        if !self.to_boolean(r) {
            return Ok(false);
        }
        let target_desc = self.get_own_property(target, key)?;
        let extensible = self.is_extensible(target)?;
        let setting_config_false = desc.configurable == Some(false);
        match target_desc {
            None => {
                if !extensible {
                    return Err(self.proxy_invariant("defineProperty trap added a property to a non-extensible target"));
                }
                if setting_config_false {
                    return Err(
                        self.proxy_invariant("defineProperty trap defined a missing property as non-configurable")
                    );
                }
            }
            Some(td) => {
                if !self.is_compatible_descriptor(extensible, desc, Some(&td)) {
                    return Err(self.proxy_invariant("defineProperty trap result is incompatible with the target"));
                }
                if setting_config_false && td.configurable == Some(true) {
                    return Err(
                        self.proxy_invariant("defineProperty trap defined a configurable property as non-configurable")
                    );
                }
                if td.is_data()
                    && td.configurable == Some(false)
                    && td.writable == Some(true)
                    && desc.writable == Some(false)
                {
                    return Err(
                        self.proxy_invariant("defineProperty trap made a non-configurable property non-writable")
                    );
                }
            }
        }
        Ok(true)
    }

    /// 10.5.7 [[HasProperty]](P).
    pub(crate) fn proxy_has(&mut self, proxy: Gc<JsObject>, key: Key) -> JsResult<bool> {
        let (target, handler, trap) = self.trap(proxy, "has")?;
        if trap.is_undefined() {
            return self.has_property(target, key);
        }
        let k = self.key_to_value(key);
        let r = self.call(trap, handler, &[Value::object(target), k])?;
        let result = self.to_boolean(r);
        if !result {
            if let Some(td) = self.get_own_property(target, key)? {
                if td.configurable == Some(false) {
                    return Err(self.proxy_invariant("has trap hid a non-configurable property"));
                }
                if !self.is_extensible(target)? {
                    return Err(self.proxy_invariant("has trap hid a property of a non-extensible target"));
                }
            }
        }
        Ok(result)
    }

    /// 10.5.8 [[Get]](P, Receiver).
    pub(crate) fn proxy_get(&mut self, proxy: Gc<JsObject>, key: Key, receiver: Value) -> JsResult<Value> {
        let (target, handler, trap) = self.trap(proxy, "get")?;
        if trap.is_undefined() {
            return self.get(target, key, receiver);
        }
        let k = self.key_to_value(key);
        let v = self.call(trap, handler, &[Value::object(target), k, receiver])?;
        let mark = self.handle_mark();
        self.root(v);
        if let Some(td) = self.get_own_property(target, key)? {
            if td.configurable == Some(false) {
                if td.is_data()
                    && td.writable == Some(false)
                    && !self.same_value(v, td.value.unwrap_or(Value::UNDEFINED))
                {
                    return Err(
                        self.proxy_invariant("get trap result differs from a non-writable, non-configurable property")
                    );
                }
                if td.is_accessor() && td.get.is_none_or(|g| g.is_undefined()) && !v.is_undefined() {
                    return Err(self.proxy_invariant("get trap returned a value for a property without a getter"));
                }
            }
        }
        self.release_handles(mark);
        Ok(v)
    }

    /// 10.5.9 [[Set]](P, V, Receiver).
    pub(crate) fn proxy_set(&mut self, proxy: Gc<JsObject>, key: Key, v: Value, receiver: Value) -> JsResult<bool> {
        let (target, handler, trap) = self.trap(proxy, "set")?;
        if trap.is_undefined() {
            return self.set(target, key, v, receiver);
        }
        let k = self.key_to_value(key);
        let r = self.call(trap, handler, &[Value::object(target), k, v, receiver])?;
        if !self.to_boolean(r) {
            return Ok(false);
        }
        if let Some(td) = self.get_own_property(target, key)? {
            if td.configurable == Some(false) {
                if td.is_data()
                    && td.writable == Some(false)
                    && !self.same_value(v, td.value.unwrap_or(Value::UNDEFINED))
                {
                    return Err(self.proxy_invariant("set trap changed a non-writable, non-configurable property"));
                }
                if td.is_accessor() && td.set.is_none_or(|s| s.is_undefined()) {
                    return Err(self.proxy_invariant("set trap succeeded for a property without a setter"));
                }
            }
        }
        Ok(true)
    }

    /// 10.5.10 [[Delete]](P).
    pub(crate) fn proxy_delete(&mut self, proxy: Gc<JsObject>, key: Key) -> JsResult<bool> {
        let (target, handler, trap) = self.trap(proxy, "deleteProperty")?;
        if trap.is_undefined() {
            return self.delete(target, key);
        }
        let k = self.key_to_value(key);
        let r = self.call(trap, handler, &[Value::object(target), k])?;
        if !self.to_boolean(r) {
            return Ok(false);
        }
        let Some(td) = self.get_own_property(target, key)? else { return Ok(true) };
        if td.configurable == Some(false) {
            return Err(self.proxy_invariant("deleteProperty trap deleted a non-configurable property"));
        }
        if !self.is_extensible(target)? {
            return Err(self.proxy_invariant("deleteProperty trap deleted a property of a non-extensible target"));
        }
        Ok(true)
    }

    /// 10.5.11 [[OwnPropertyKeys]]().
    pub(crate) fn proxy_own_keys(&mut self, proxy: Gc<JsObject>) -> JsResult<Vec<Key>> {
        let (target, handler, trap) = self.trap(proxy, "ownKeys")?;
        if trap.is_undefined() {
            return self.own_property_keys(target);
        }
        let array = self.call(trap, handler, &[Value::object(target)])?;
        // 7. CreateListFromArrayLike(trapResultArray, property-key).
        if !array.is_object() {
            return Err(self.throw_type_error("ownKeys trap result is not an object"));
        }
        let values = self.create_list_from_array_like(array)?;
        let mut keys: Vec<Key> = Vec::with_capacity(values.len());
        for v in values {
            if !v.is_string() && !v.is_symbol() {
                return Err(self.throw_type_error("ownKeys trap result contains a value that is not a property key"));
            }
            let k = self.to_property_key(v)?;
            // 9. If trapResult contains any duplicate entries, throw a TypeError exception.
            if keys.contains(&k) {
                return Err(self.proxy_invariant("ownKeys trap result contains a key twice"));
            }
            keys.push(k);
        }
        let extensible = self.is_extensible(target)?;
        let target_keys = self.own_property_keys(target)?;
        let (mut configurable, mut fixed) = (Vec::new(), Vec::new());
        for k in target_keys {
            match self.get_own_property(target, k)? {
                Some(d) if d.configurable == Some(false) => fixed.push(k),
                _ => configurable.push(k),
            }
        }
        if extensible && fixed.is_empty() {
            return Ok(keys);
        }
        let mut unchecked: Vec<Option<Key>> = keys.iter().copied().map(Some).collect();
        let mut take = |k: Key| match unchecked.iter_mut().find(|u| **u == Some(k)) {
            Some(u) => {
                *u = None;
                true
            }
            None => false,
        };
        for k in fixed {
            if !take(k) {
                return Err(self.proxy_invariant("ownKeys trap result omits a non-configurable key"));
            }
        }
        if extensible {
            return Ok(keys);
        }
        for k in configurable {
            if !take(k) {
                return Err(self.proxy_invariant("ownKeys trap result omits a key of a non-extensible target"));
            }
        }
        if unchecked.iter().any(Option::is_some) {
            return Err(self.proxy_invariant("ownKeys trap result adds a key to a non-extensible target"));
        }
        Ok(keys)
    }

    /// 10.5.12 [[Call]](thisArgument, argumentsList).
    pub(crate) fn proxy_call(&mut self, proxy: Gc<JsObject>, this: Value, args: &[Value]) -> JsResult<Value> {
        let (target, handler, trap) = self.trap(proxy, "apply")?;
        if trap.is_undefined() {
            return self.call(Value::object(target), this, args);
        }
        let array = Value::object(self.new_array_from(args));
        self.call(trap, handler, &[Value::object(target), this, array])
    }

    /// 10.5.13 [[Construct]](argumentsList, newTarget).
    pub(crate) fn proxy_construct(
        &mut self,
        proxy: Gc<JsObject>,
        args: &[Value],
        new_target: Value,
    ) -> JsResult<Value> {
        let (target, handler, trap) = self.trap(proxy, "construct")?;
        if trap.is_undefined() {
            return self.construct(Value::object(target), args, new_target);
        }
        let array = Value::object(self.new_array_from(args));
        let r = self.call(trap, handler, &[Value::object(target), array, new_target])?;
        if !r.is_object() {
            return Err(self.proxy_invariant("construct trap returned a non-object"));
        }
        Ok(r)
    }

    /// 10.1.6.2 IsCompatiblePropertyDescriptor(Extensible, Desc, Current): whether
    /// ValidateAndApplyPropertyDescriptor would accept `desc` over `current`.
    pub(crate) fn is_compatible_descriptor(
        &mut self,
        extensible: bool,
        desc: &PropertyDescriptor,
        current: Option<&PropertyDescriptor>,
    ) -> bool {
        let Some(cur) = current else { return extensible };
        if desc.value.is_none()
            && desc.writable.is_none()
            && desc.get.is_none()
            && desc.set.is_none()
            && desc.enumerable.is_none()
            && desc.configurable.is_none()
        {
            return true;
        }
        if cur.configurable == Some(false) {
            if desc.configurable == Some(true) {
                return false;
            }
            if desc.enumerable.is_some() && desc.enumerable != cur.enumerable {
                return false;
            }
            let generic = !desc.is_data() && !desc.is_accessor();
            if !generic && desc.is_accessor() != cur.is_accessor() {
                return false;
            }
            if cur.is_accessor() {
                if let Some(g) = desc.get {
                    if !self.same_value(g, cur.get.unwrap_or(Value::UNDEFINED)) {
                        return false;
                    }
                }
                if let Some(s) = desc.set {
                    if !self.same_value(s, cur.set.unwrap_or(Value::UNDEFINED)) {
                        return false;
                    }
                }
            } else if cur.writable == Some(false) {
                if desc.writable == Some(true) {
                    return false;
                }
                if let Some(v) = desc.value {
                    if !self.same_value(v, cur.value.unwrap_or(Value::UNDEFINED)) {
                        return false;
                    }
                }
            }
        }
        true
    }
}

/// 6.2.6.6 CompletePropertyDescriptor(Desc).
fn complete_descriptor(d: &mut PropertyDescriptor) {
    if d.get.is_none() && d.set.is_none() {
        d.value.get_or_insert(Value::UNDEFINED);
        d.writable.get_or_insert(false);
    } else {
        d.get.get_or_insert(Value::UNDEFINED);
        d.set.get_or_insert(Value::UNDEFINED);
    }
    d.enumerable.get_or_insert(false);
    d.configurable.get_or_insert(false);
}
