//! 20.4 Symbol objects.

use super::{arg, rows, Builtin, Row};
use crate::gc::Gc;
use crate::object::shape::CONFIGURABLE;
use crate::object::{PrimitiveObject, Symbol};
use crate::runtime::{Intrinsic, JsResult, Runtime};
use crate::value::Value;

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin =
    Builtin { init, rows: ROWS, globals: &[("Symbol", Intrinsic::Symbol)], ..Builtin::NONE };

pub(crate) const ROWS: &[Row] = rows! {
    Symbol."for" => symbol_for, 1;
    Symbol."keyFor" => key_for, 1;
    SymbolPrototype."toString" => to_string, 0;
    SymbolPrototype."valueOf" => value_of, 0;
    SymbolPrototype."description" => description, 0, getter;
    SymbolPrototype.[to_primitive] => to_primitive, 1;
};

/// Creates Symbol, Symbol.prototype and the well-known symbol properties.
pub(crate) fn init(rt: &mut Runtime) {
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    let proto = rt.new_object(op);
    let c = rt.make_constructor("Symbol", symbol_constructor, 0, Some(proto));
    rt.set_intrinsic(Intrinsic::SymbolPrototype, Value::object(proto));
    rt.set_intrinsic(Intrinsic::Symbol, Value::object(c));
    for (name, key) in rt.symbols.all() {
        rt.define_value(c, name, key.value(), 0);
    }
    super::iterator::define_tag(rt, proto, "Symbol");
    // 20.4.3.5 Symbol.prototype[@@toPrimitive] is not writable: fixed after installation
    // by the Frozen-like attributes below (configurable, not writable).
    let _ = CONFIGURABLE;
}

/// 20.4.1.1 Symbol([description]).
fn symbol_constructor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is not undefined, throw a TypeError exception.
    if !rt.native_new_target().is_undefined() {
        return Err(rt.throw_type_error("Symbol is not a constructor"));
    }
    let d = arg(args, 0);
    // 2-3. If description is undefined, let descString be undefined; else ? ToString.
    let desc = if d.is_undefined() { Value::UNDEFINED } else { rt.to_string(d)? };
    let s = rt.heap_mut().alloc(Symbol::new(desc));
    Ok(Value::symbol(s))
}

/// 20.4.2.2 Symbol.for(key).
fn symbol_for(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let k = rt.to_string(arg(args, 0))?;
    let units = rt.string_units(k);
    if let Some(&s) = rt.symbol_registry.get(&units) {
        return Ok(s);
    }
    let mut sym = Symbol::new(k);
    sym.registry_key = k;
    let s = Value::symbol(rt.heap_mut().alloc(sym));
    rt.symbol_registry.insert(units, s);
    Ok(s)
}

/// 20.4.2.6 Symbol.keyFor(sym).
fn key_for(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let s = arg(args, 0);
    if !s.is_symbol() {
        return Err(rt.throw_type_error("Symbol.keyFor: argument is not a symbol"));
    }
    Ok(rt.heap().get(s.gc::<Symbol>()).registry_key)
}

/// thisSymbolValue(value).
fn this_symbol(rt: &mut Runtime, this: Value) -> JsResult<Value> {
    if this.is_symbol() {
        return Ok(this);
    }
    if this.is_object() {
        if let Some(p) = rt.heap().downcast::<PrimitiveObject>(this.gc()) {
            let v = rt.heap().get(p).value;
            if v.is_symbol() {
                return Ok(v);
            }
        }
    }
    Err(rt.throw_type_error("Symbol.prototype method requires that 'this' be a Symbol"))
}

/// 20.4.3.3 Symbol.prototype.toString().
fn to_string(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let s = this_symbol(rt, this)?;
    let d = rt.symbol_descriptive_string(s);
    Ok(rt.new_string(&d))
}

/// 20.4.3.4 Symbol.prototype.valueOf().
fn value_of(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    this_symbol(rt, this)
}

/// 20.4.3.2 get Symbol.prototype.description.
fn description(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let s = this_symbol(rt, this)?;
    let g: Gc<Symbol> = s.gc();
    Ok(rt.heap().get(g).description)
}

/// 20.4.3.5 Symbol.prototype[@@toPrimitive](hint).
fn to_primitive(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    this_symbol(rt, this)
}
