//! The internal builtins of `call_builtin` (see `bytecode/src/builtins.rs` for each one's
//! contract). The match is exhaustive over `BuiltinId`.

use bytecode::BuiltinId;

use crate::code::FunctionInfo;
use crate::gc::Gc;
use crate::object::property::PropertyDescriptor;
use crate::object::shape::{CONFIGURABLE, ENUMERABLE, WRITABLE};
use crate::object::{JsObject, Key};
use crate::runtime::function::Closure;
use crate::runtime::{Intrinsic, JsResult, Runtime};
use crate::value::Value;

fn arg(args: &[Value], i: usize) -> Value {
    args.get(i).copied().unwrap_or(Value::UNDEFINED)
}

/// Runs internal builtin `id` on `args` for code of function `info`. It runs outside any
/// native call, whose end would release the handles it roots: they are released here.
#[inline(never)]
pub(crate) fn call_internal(rt: &mut Runtime, id: u8, args: &[Value], info: &FunctionInfo) -> JsResult<Value> {
    let mark = rt.handle_mark();
    let r = run_internal(rt, id, args, info);
    rt.release_handles(mark);
    r
}

fn run_internal(rt: &mut Runtime, id: u8, args: &[Value], info: &FunctionInfo) -> JsResult<Value> {
    let Some(b) = BuiltinId::from_u8(id) else {
        return Err(rt.throw_type_error("internal error: unknown builtin"));
    };
    match b {
        BuiltinId::CopyDataProperties => {
            let (target, source) = (arg(args, 0), arg(args, 1));
            copy_data_properties(rt, target, source, &args[2.min(args.len())..])?;
            Ok(target)
        }
        BuiltinId::DefineClass => define_class(rt, arg(args, 0), arg(args, 1)),
        BuiltinId::SetHomeObject => {
            let (f, home) = (arg(args, 0), arg(args, 1));
            if f.is_object() {
                if let Some(c) = rt.heap.downcast::<Closure>(f.gc()) {
                    rt.heap.get_mut(c).home = home;
                }
            }
            Ok(f)
        }
        BuiltinId::GetPrototypeOf => {
            let o = arg(args, 0);
            let obj = rt.to_object(o)?;
            rt.prototype_of(obj)
        }
        BuiltinId::SuperGet => {
            let (home, k, this) = (arg(args, 0), arg(args, 1), arg(args, 2));
            let proto = match args.get(3) {
                Some(&base) => super_base_value(rt, base)?,
                None => super_base(rt, home)?,
            };
            let key = rt.to_property_key(k)?;
            rt.get(proto, key, this)
        }
        BuiltinId::SuperSet => {
            let (home, k, v, this) = (arg(args, 0), arg(args, 1), arg(args, 2), arg(args, 3));
            let proto = match args.get(5) {
                Some(&base) => super_base_value(rt, base)?,
                None => super_base(rt, home)?,
            };
            let key = rt.to_property_key(k)?;
            // PutValue step 6.c: only strict references throw.
            let strict = args.get(4).is_none_or(|s| *s != Value::FALSE);
            if !rt.set(proto, key, v, this)? && strict {
                let n = rt.key_display(key);
                return Err(rt.throw_type_error(&format!("Cannot assign to read only property '{n}' of object")));
            }
            Ok(v)
        }
        BuiltinId::GetTemplateObject => get_template_object(rt, args, info),
        BuiltinId::AppendSpread => {
            let (arr, next, iterable) = (arg(args, 0), arg(args, 1), arg(args, 2));
            let mut i = rt.to_number(next)? as u32;
            if !arr.is_object() {
                return Err(rt.throw_type_error("internal error: appendSpread on a non-object"));
            }
            let it = crate::runtime::iteration::get_iterator(rt, iterable)?;
            let mark = rt.handle_mark();
            rt.root(it);
            loop {
                let v = crate::runtime::iteration::iterator_next(rt, it)?;
                if v.is_empty() {
                    break;
                }
                rt.create_data_property_or_throw(arr.gc(), Key::Index(i), v)?;
                i += 1;
            }
            rt.release_handles(mark);
            Ok(Value::number(i as f64))
        }
        BuiltinId::EnsureObject => {
            let v = arg(args, 0);
            if !v.is_object() {
                let m = arg(args, 1);
                let msg = if m.is_string() { rt.string_to_rust(m) } else { "value is not an object".to_string() };
                return Err(rt.throw_type_error(&msg));
            }
            Ok(v)
        }
        BuiltinId::RequireObjectCoercible => {
            let v = arg(args, 0);
            if v.is_nullish() {
                let m = arg(args, 1);
                let msg = if m.is_string() {
                    rt.string_to_rust(m)
                } else {
                    let what = if v.is_null() { "null" } else { "undefined" };
                    format!("Cannot destructure '{what}' as it is {what}.")
                };
                return Err(rt.throw_type_error(&msg));
            }
            Ok(v)
        }
        BuiltinId::SetFunctionName => {
            let (f, name) = (arg(args, 0), arg(args, 1));
            if f.is_object() {
                let n = if name.is_symbol() {
                    let d = rt.heap.get(name.gc::<crate::object::Symbol>()).description;
                    if d.is_string() {
                        let s = rt.string_to_rust(d);
                        rt.new_string(&format!("[{s}]"))
                    } else {
                        rt.names.empty.value()
                    }
                } else {
                    rt.to_string(name)?
                };
                // SetFunctionName step 5: an accessor's prefix ("get"/"set").
                let prefix = arg(args, 2);
                let n = if prefix.is_string() {
                    let (p, s) = (rt.string_to_rust(prefix), rt.string_to_rust(n));
                    rt.new_string(&format!("{p} {s}"))
                } else {
                    n
                };
                let key = Key::Name(rt.names.name);
                rt.define_own_property(f.gc(), key, &PropertyDescriptor::data(n, CONFIGURABLE))?;
            }
            Ok(f)
        }
        BuiltinId::ThrowSuperNotCalled => {
            let this = arg(args, 0);
            if this.is_empty() {
                return Err(rt.throw_reference_error(
                    "Must call super constructor in derived class before accessing 'this' or returning from derived constructor",
                ));
            }
            Ok(this)
        }
        BuiltinId::DerivedReturn => {
            let (result, this) = (arg(args, 0), arg(args, 1));
            if result.is_object() {
                return Ok(result);
            }
            if !result.is_undefined() {
                return Err(rt.throw_type_error("Derived constructors may only return object or undefined"));
            }
            if this.is_empty() {
                return Err(rt.throw_reference_error(
                    "Must call super constructor in derived class before accessing 'this' or returning from derived constructor",
                ));
            }
            Ok(this)
        }
        BuiltinId::ArrayFromIndex => {
            let (src, start) = (arg(args, 0), arg(args, 1));
            let start = rt.to_number(start)? as usize;
            let list = super::call::array_to_list(rt, src)?;
            let rest = if start < list.len() { &list[start..] } else { &[] };
            Ok(Value::object(rt.new_array_from(rest)))
        }
        BuiltinId::DeclareGlobalVar => {
            let (name, configurable) = (arg(args, 0), arg(args, 1) == Value::TRUE);
            let key = rt.to_property_key(name)?;
            let g = rt.global_object();
            // An Annex B function var that a lexical declaration shadows is not declared.
            if rt.global_lexical(key).is_none() && !rt.has_own_property(g, key)? {
                if !rt.is_extensible(g)? {
                    let n = rt.key_display(key);
                    return Err(rt.throw_type_error(&format!("Cannot declare global variable '{n}'")));
                }
                let attrs = if configurable { WRITABLE | ENUMERABLE | CONFIGURABLE } else { WRITABLE | ENUMERABLE };
                let desc = PropertyDescriptor::data(Value::UNDEFINED, attrs);
                rt.define_property_or_throw(g, key, &desc)?;
            }
            Ok(Value::UNDEFINED)
        }
        BuiltinId::DeclareGlobalFunction => {
            let (name, f, configurable) = (arg(args, 0), arg(args, 1), arg(args, 2) == Value::TRUE);
            let attrs = if configurable { WRITABLE | ENUMERABLE | CONFIGURABLE } else { WRITABLE | ENUMERABLE };
            let key = rt.to_property_key(name)?;
            let g = rt.global_object();
            let existing = rt.get_own_property(g, key)?;
            let desc = match existing {
                None => {
                    if !rt.is_extensible(g)? {
                        let n = rt.key_display(key);
                        return Err(rt.throw_type_error(&format!("Cannot declare global function '{n}'")));
                    }
                    PropertyDescriptor::data(f, attrs)
                }
                Some(d) if d.configurable == Some(true) => PropertyDescriptor::data(f, attrs),
                Some(d) if d.is_data() && d.writable == Some(true) && d.enumerable == Some(true) => {
                    PropertyDescriptor { value: Some(f), ..Default::default() }
                }
                Some(_) => {
                    let n = rt.key_display(key);
                    return Err(rt.throw_type_error(&format!("Cannot redefine global function '{n}'")));
                }
            };
            rt.define_property_or_throw(g, key, &desc)?;
            Ok(Value::UNDEFINED)
        }
        BuiltinId::SetProtoFromLiteral => {
            let (o, v) = (arg(args, 0), arg(args, 1));
            if o.is_object() && (v.is_object() || v.is_null()) {
                rt.set_prototype_of(o.gc(), v)?;
            }
            Ok(Value::UNDEFINED)
        }
        BuiltinId::CreatePrivateName => {
            let mut sym = crate::object::Symbol::new(arg(args, 0));
            sym.header.flags |= crate::object::PRIVATE_SYMBOL;
            Ok(Value::symbol(rt.heap.alloc(sym)))
        }
        BuiltinId::PrivateGet => {
            let (o, name) = (arg(args, 0), arg(args, 1));
            match private_slot(rt, o, name) {
                Some((obj, slot)) => Ok(rt.heap.slot(obj, slot)),
                None => {
                    let n = private_description(rt, name);
                    Err(rt.throw_type_error(&format!(
                        "Cannot read private member {n} from an object whose class did not declare it"
                    )))
                }
            }
        }
        BuiltinId::PrivateSet => {
            let (o, name, v) = (arg(args, 0), arg(args, 1), arg(args, 2));
            match private_slot(rt, o, name) {
                Some((obj, slot)) => {
                    rt.heap.set_slot(obj, slot, v);
                    Ok(v)
                }
                None => {
                    let n = private_description(rt, name);
                    Err(rt.throw_type_error(&format!(
                        "Cannot write private member {n} to an object whose class did not declare it"
                    )))
                }
            }
        }
        BuiltinId::PrivateAdd => {
            let (o, name, v) = (arg(args, 0), arg(args, 1), arg(args, 2));
            if !o.is_object() || !name.is_symbol() {
                return Err(rt.throw_type_error("internal error: privateAdd on a non-object"));
            }
            if private_slot(rt, o, name).is_some() {
                let n = private_description(rt, name);
                return Err(rt.throw_type_error(&format!("Cannot initialize {n} twice on the same object")));
            }
            // PrivateFieldAdd step 1 (and PrivateMethodOrAccessorAdd), as amended by the
            // nonextensible-applies-to-private proposal: a TypeError on non-extensible objects.
            if !rt.is_extensible(o.gc())? {
                let n = private_description(rt, name);
                return Err(
                    rt.throw_type_error(&format!("Cannot define private member {n} on a non-extensible object"))
                );
            }
            rt.add_named(o.gc(), crate::object::shape::PropKey::from_value(name), v, WRITABLE);
            Ok(Value::UNDEFINED)
        }
        BuiltinId::PrivateIn => {
            let (name, o) = (arg(args, 0), arg(args, 1));
            if !o.is_object() {
                let n = private_description(rt, name);
                return Err(
                    rt.throw_type_error(&format!("Cannot use 'in' operator to search for '{n}' in a non-object"))
                );
            }
            Ok(Value::boolean(private_slot(rt, o, name).is_some()))
        }
        BuiltinId::CreateBigInt => {
            let digits = arg(args, 0);
            let s = if digits.is_string() { rt.string_to_rust(digits) } else { String::new() };
            match ecma::bigint::parse_bigint_literal(&s) {
                Some(b) => Ok(rt.new_bigint(b)),
                None => Err(rt.throw_syntax_error("internal error: invalid BigInt literal")),
            }
        }
        BuiltinId::ToObject => {
            let o = rt.to_object(arg(args, 0))?;
            Ok(Value::object(o))
        }
        BuiltinId::WithHas => {
            // 9.1.1.2.1 HasBinding for object environment records (withEnvironment true).
            let (o, name) = (arg(args, 0), arg(args, 1));
            if !o.is_object() {
                return Ok(Value::FALSE);
            }
            let obj: Gc<JsObject> = o.gc();
            let key = rt.to_property_key(name)?;
            if !rt.has_property(obj, key)? {
                return Ok(Value::FALSE);
            }
            // The getters may run JavaScript (a safepoint): keep the key alive.
            let mark = rt.handle_mark();
            let key_value = rt.key_to_value(key);
            rt.root(key_value);
            let unscopables_key = Key::Name(rt.symbols.unscopables);
            let result = (|| {
                let unscopables = rt.get(obj, unscopables_key, o)?;
                if unscopables.is_object() {
                    let blocked = rt.get(unscopables.gc(), key, unscopables)?;
                    if rt.to_boolean(blocked) {
                        return Ok(Value::FALSE);
                    }
                }
                Ok(Value::TRUE)
            })();
            rt.release_handles(mark);
            result
        }
        BuiltinId::MapArguments => {
            rt.map_arguments(arg(args, 0), arg(args, 1), arg(args, 2), args.get(3..).unwrap_or(&[]))
        }
        BuiltinId::ArgumentsGet => {
            let i = arg(args, 1).as_number().unwrap_or(0.0) as u32;
            rt.arguments_get(arg(args, 0), i)
        }
        BuiltinId::ArgumentsSet => {
            let i = arg(args, 1).as_number().unwrap_or(0.0) as u32;
            rt.arguments_set(arg(args, 0), i, arg(args, 2))?;
            Ok(Value::UNDEFINED)
        }
        BuiltinId::PutValueStrict => {
            let (o, k, v) = (arg(args, 0), arg(args, 1), arg(args, 2));
            let key = rt.to_property_key(k)?;
            rt.put_v(o, key, v, true)?;
            Ok(Value::UNDEFINED)
        }
        BuiltinId::StoreGlobalStrict => {
            let (k, v) = (arg(args, 0), arg(args, 1));
            let key = rt.to_property_key(k)?;
            let g = rt.global_object();
            if !rt.has_property(g, key)? {
                let n = rt.key_display(key);
                return Err(rt.throw_reference_error(&format!("{n} is not defined")));
            }
            rt.put_v(Value::object(g), key, v, true)?;
            Ok(Value::UNDEFINED)
        }
        BuiltinId::DeleteStrict => {
            let (o, k) = (arg(args, 0), arg(args, 1));
            let key = rt.to_property_key(k)?;
            super::property::delete_property(rt, o, key, true)?;
            Ok(Value::TRUE)
        }
        BuiltinId::AsyncFunctionStart => (rt.host.hooks.async_function_start)(rt, arg(args, 0)),
        BuiltinId::AsyncGeneratorStart => (rt.host.hooks.async_generator_start)(rt, arg(args, 0)),
        BuiltinId::MarkAsyncYield => {
            (rt.host.hooks.mark_async_yield)(rt);
            Ok(Value::UNDEFINED)
        }
        BuiltinId::GetAsyncIterator => (rt.host.hooks.get_async_iterator)(rt, arg(args, 0)),
        BuiltinId::CreateDisposeCapability => {
            Ok((rt.host.hooks.new_dispose_capability)(rt, arg(args, 0) == Value::TRUE))
        }
        BuiltinId::AddDisposableResource => {
            let is_async = arg(args, 2) == Value::TRUE;
            (rt.host.hooks.add_disposable_resource)(rt, arg(args, 0), arg(args, 1), is_async)?;
            Ok(Value::UNDEFINED)
        }
        BuiltinId::DisposeResources => {
            let error = (args.len() > 1).then(|| arg(args, 1));
            (rt.host.hooks.dispose_resources)(rt, arg(args, 0), error)
        }
        BuiltinId::ImportMeta => (rt.host.hooks.import_meta)(rt, arg(args, 0)),
        BuiltinId::DynamicImport => {
            // A script's referrer is the file its code came from.
            let referrer = match arg(args, 0) {
                m if m.is_number() => crate::runtime::modules::Referrer::Module(m),
                _ => crate::runtime::modules::Referrer::Script(info.bundle().bundle.source_name()),
            };
            use crate::runtime::modules::ImportPhase;
            let phase = match arg(args, 3).as_number() {
                Some(1.0) => ImportPhase::Source,
                Some(2.0) => ImportPhase::Defer,
                _ => ImportPhase::Evaluation,
            };
            (rt.host.hooks.dynamic_import)(rt, referrer, arg(args, 1), arg(args, 2), phase)
        }
        BuiltinId::DirectEval => (rt.host.hooks.direct_eval)(rt, args),
        BuiltinId::DeclareEvalVar => {
            let (o, name) = (arg(args, 0), arg(args, 1));
            if !o.is_object() {
                return Err(rt.throw_type_error("internal error: declareEvalVar on a non-object"));
            }
            let key = rt.to_property_key(name)?;
            let obj: Gc<JsObject> = o.gc();
            if let Some(&v) = args.get(2) {
                rt.create_data_property_or_throw(obj, key, v)?;
            } else if !rt.has_own_property(obj, key)? {
                rt.create_data_property_or_throw(obj, key, Value::UNDEFINED)?;
            }
            Ok(Value::UNDEFINED)
        }
        BuiltinId::MarkRawYield => {
            // The executing frame is the generator's inner function.
            if let Some(frame) = rt.calls.frames.last() {
                let g = frame.generator;
                super::generator::mark_raw_yield(rt, g);
            }
            Ok(Value::UNDEFINED)
        }
    }
}

/// The object and slot of private element `name` of `o`, if `o` is an object that has it.
fn private_slot(rt: &mut Runtime, o: Value, name: Value) -> Option<(Gc<JsObject>, u32)> {
    if !o.is_object() || !name.is_symbol() {
        return None;
    }
    let obj: Gc<JsObject> = o.gc();
    let shape = rt.heap.get(obj).shape;
    rt.heap.get(shape).lookup(crate::object::shape::PropKey::from_value(name)).map(|(slot, _)| (obj, slot))
}

/// The `#x` of a Private Name, for error messages.
fn private_description(rt: &mut Runtime, name: Value) -> String {
    if !name.is_symbol() {
        return String::from("#<private>");
    }
    let d = rt.heap.get(name.gc::<crate::object::Symbol>()).description;
    if d.is_string() {
        rt.string_to_rust(d)
    } else {
        String::from("#<private>")
    }
}

/// A super base computed earlier (`getPrototypeOf(home)`): a TypeError if it is null.
fn super_base_value(rt: &mut Runtime, base: Value) -> JsResult<Gc<JsObject>> {
    if !base.is_object() {
        return Err(rt.throw_type_error("Cannot read properties of null (super)"));
    }
    Ok(base.gc())
}

/// The object `super` lookups start from: the prototype of the home object.
fn super_base(rt: &mut Runtime, home: Value) -> JsResult<Gc<JsObject>> {
    if !home.is_object() {
        return Err(rt.throw_syntax_error("'super' keyword unexpected here"));
    }
    let p = rt.prototype_of(home.gc())?;
    if !p.is_object() {
        return Err(rt.throw_type_error("Cannot read properties of null (super)"));
    }
    Ok(p.gc())
}

/// 7.3.25 CopyDataProperties.
#[inline(never)]
pub(crate) fn copy_data_properties(rt: &mut Runtime, target: Value, source: Value, excluded: &[Value]) -> JsResult<()> {
    if source.is_nullish() {
        return Ok(());
    }
    if !target.is_object() {
        return Err(rt.throw_type_error("internal error: copyDataProperties target"));
    }
    let from = rt.to_object(source)?;
    let mark = rt.handle_mark();
    rt.root(Value::object(from));
    let mut excluded_keys = Vec::with_capacity(excluded.len());
    for &e in excluded {
        excluded_keys.push(rt.to_property_key(e)?);
    }
    let keys = rt.own_property_keys(from)?;
    for &k in &keys {
        let kv = rt.key_to_value(k);
        rt.root(kv);
    }
    for k in keys {
        if excluded_keys.contains(&k) {
            continue;
        }
        if let Some(d) = rt.get_own_property(from, k)? {
            if d.enumerable == Some(true) {
                let v = rt.get(from, k, Value::object(from))?;
                rt.create_data_property_or_throw(target.gc(), k, v)?;
            }
        }
    }
    rt.release_handles(mark);
    Ok(())
}

/// `defineClass(ctor, superclass)`.
fn define_class(rt: &mut Runtime, ctor: Value, superclass: Value) -> JsResult<Value> {
    if !ctor.is_object() {
        return Err(rt.throw_type_error("internal error: defineClass on a non-object"));
    }
    let (proto_parent, ctor_parent) = if superclass.is_empty() {
        (rt.intrinsic(Intrinsic::ObjectPrototype), rt.intrinsic(Intrinsic::FunctionPrototype))
    } else if superclass.is_null() {
        (Value::NULL, rt.intrinsic(Intrinsic::FunctionPrototype))
    } else if rt.is_constructor(superclass) {
        let key = Key::Name(rt.names.prototype);
        let pp = rt.get(superclass.gc(), key, superclass)?;
        if !pp.is_object() && !pp.is_null() {
            return Err(rt.throw_type_error("Class extends value does not have valid prototype property"));
        }
        (pp, superclass)
    } else {
        let what = rt.short_description(superclass);
        return Err(rt.throw_type_error(&format!("Class extends value {what} is not a constructor or null")));
    };
    let c: Gc<JsObject> = ctor.gc();
    let proto = rt.new_object(proto_parent);
    let ckey = Key::Name(rt.names.constructor);
    rt.define_data_raw(proto, ckey, ctor, WRITABLE | CONFIGURABLE);
    if rt.get_prototype_of(c) != ctor_parent {
        rt.change_prototype(c, ctor_parent);
    }
    // The class constructor's `prototype` is read-only from the start (its shape says so);
    // this is the one write that fills it.
    let pkey = Key::Name(rt.names.prototype);
    match rt.own_lookup(c, pkey) {
        crate::object::property::Own::Slot(slot, _) => rt.heap.set_slot(c, slot, Value::object(proto)),
        _ => {
            rt.define_own_property(c, pkey, &PropertyDescriptor::data(Value::object(proto), 0))?;
        }
    }
    Ok(Value::object(proto))
}

/// `getTemplateObject(id, cooked..., raw...)`: one frozen strings array per call site.
fn get_template_object(rt: &mut Runtime, args: &[Value], info: &FunctionInfo) -> JsResult<Value> {
    let id = rt.to_number(arg(args, 0))? as u32;
    let bundle = info.bundle().index;
    let cache_key = (bundle, id ^ (info.id << 16));
    if let Some(&t) = rt.realm().templates.get(&cache_key) {
        return Ok(t);
    }
    let rest = &args[1.min(args.len())..];
    let n = rest.len() / 2;
    let cooked = rt.new_array_from(&rest[..n]);
    let raw = rt.new_array_from(&rest[n..2 * n]);
    rt.set_integrity_level(raw, true)?;
    let raw_key = Key::Name(rt.names.raw);
    rt.define_own_property(cooked, raw_key, &PropertyDescriptor::data(Value::object(raw), 0))?;
    rt.set_integrity_level(cooked, true)?;
    let realm = rt.realm as usize;
    rt.realms[realm].templates.insert(cache_key, Value::object(cooked));
    Ok(Value::object(cooked))
}
