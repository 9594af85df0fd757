//! 27.1 Iteration: %IteratorPrototype%, %ArrayIteratorPrototype%,
//! %StringIteratorPrototype%, and 27.3-27.5 generator function and generator objects.

use super::{arg, rows, Builtin, Row};
use crate::gc::{CellKind, Gc};
use crate::interp::ops::generator::{resume, RESUME_NEXT, RESUME_RETURN, RESUME_THROW};
use crate::object::shape::CONFIGURABLE;
use crate::object::{iter_kind, IteratorObject, JsObject, Key};
use crate::runtime::{Intrinsic, JsResult, Runtime};
use crate::value::Value;

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin = Builtin { init, rows: ROWS, link, ..Builtin::NONE };

pub(crate) const ROWS: &[Row] = rows! {
    IteratorPrototype.[iterator] => iterator_self, 0;
    ArrayIteratorPrototype."next" => array_iterator_next, 0;
    StringIteratorPrototype."next" => string_iterator_next, 0;
    GeneratorPrototype."next" => generator_next, 1;
    GeneratorPrototype."return" => generator_return, 1;
    GeneratorPrototype."throw" => generator_throw, 1;
};

/// Defines `obj[@@toStringTag] = tag` (not writable, not enumerable, configurable).
pub(crate) fn define_tag(rt: &mut Runtime, obj: Gc<JsObject>, tag: &str) {
    let key = Key::Name(rt.symbols.to_string_tag);
    let v = rt.new_string(tag);
    rt.define_data_raw(obj, key, v, CONFIGURABLE);
}

/// Creates the iterator and generator prototypes.
pub(crate) fn init(rt: &mut Runtime) {
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    let ip = rt.new_object(op);
    rt.set_intrinsic(Intrinsic::IteratorPrototype, Value::object(ip));
    for (i, tag) in [
        (Intrinsic::ArrayIteratorPrototype, "Array Iterator"),
        (Intrinsic::StringIteratorPrototype, "String Iterator"),
        (Intrinsic::MapIteratorPrototype, "Map Iterator"),
        (Intrinsic::SetIteratorPrototype, "Set Iterator"),
        (Intrinsic::RegExpStringIteratorPrototype, "RegExp String Iterator"),
    ] {
        let p = rt.new_object(Value::object(ip));
        define_tag(rt, p, tag);
        rt.set_intrinsic(i, Value::object(p));
    }
    // 27.5.1 %GeneratorPrototype% and 27.3.3 %GeneratorFunction.prototype%.
    let gp = rt.new_object(Value::object(ip));
    define_tag(rt, gp, "Generator");
    rt.set_intrinsic(Intrinsic::GeneratorPrototype, Value::object(gp));
    let fp = rt.intrinsic(Intrinsic::FunctionPrototype);
    let gfp = rt.new_object(fp);
    define_tag(rt, gfp, "GeneratorFunction");
    let pk = Key::Name(rt.names.prototype);
    rt.define_data_raw(gfp, pk, Value::object(gp), CONFIGURABLE);
    let ck = Key::Name(rt.names.constructor);
    rt.define_data_raw(gp, ck, Value::object(gfp), CONFIGURABLE);
    rt.set_intrinsic(Intrinsic::GeneratorFunctionPrototype, Value::object(gfp));
    let gf = rt.make_constructor("GeneratorFunction", generator_function_constructor, 1, None);
    rt.define_data_raw(gf, pk, Value::object(gfp), 0);
    rt.define_data_raw(gfp, ck, Value::object(gf), CONFIGURABLE);
    let function = rt.intrinsic(Intrinsic::Function);
    rt.change_prototype(gf, function);
    rt.set_intrinsic(Intrinsic::GeneratorFunction, Value::object(gf));
    // Generator function closures inherit %GeneratorFunction.prototype%.
    rt.realm_mut().shapes.generator_function = super::closure_shape(rt, Value::object(gfp), true);
}

/// The `next` methods the interpreter's fast iteration recognizes, once the table has made
/// them.
fn link(rt: &mut Runtime) {
    let next = rt.intrinsic_prop(Intrinsic::ArrayIteratorPrototype, "next");
    rt.set_intrinsic(Intrinsic::ArrayIteratorProtoNext, next);
    let next = rt.intrinsic_prop(Intrinsic::StringIteratorPrototype, "next");
    rt.set_intrinsic(Intrinsic::StringIteratorProtoNext, next);
}

/// 27.1.2.1 %IteratorPrototype%[@@iterator]().
fn iterator_self(_rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    Ok(this)
}

fn builtin_iterator(rt: &mut Runtime, this: Value, kinds: &[u8], what: &str) -> JsResult<Gc<IteratorObject>> {
    if this.is_object() {
        let o: Gc<JsObject> = this.gc();
        if rt.heap().object_kind(o) == CellKind::Iterator {
            let it = o.cast::<IteratorObject>();
            if kinds.contains(&rt.heap().get(it).kind) {
                return Ok(it);
            }
        }
    }
    Err(rt.throw_type_error(&format!("{what} called on incompatible receiver")))
}

/// 23.1.5.2.1 %ArrayIteratorPrototype%.next().
fn array_iterator_next(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let it = builtin_iterator(
        rt,
        this,
        &[iter_kind::ARRAY_KEYS, iter_kind::ARRAY_VALUES, iter_kind::ARRAY_ENTRIES],
        "Array Iterator.prototype.next",
    )?;
    let r = rt.builtin_iterator_step(it)?;
    Ok(match r {
        Some(v) => rt.create_iter_result(v, false),
        None => rt.create_iter_result(Value::UNDEFINED, true),
    })
}

/// 22.1.5.2.1 %StringIteratorPrototype%.next().
fn string_iterator_next(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let it = builtin_iterator(rt, this, &[iter_kind::STRING], "String Iterator.prototype.next")?;
    let r = rt.builtin_iterator_step(it)?;
    Ok(match r {
        Some(v) => rt.create_iter_result(v, false),
        None => rt.create_iter_result(Value::UNDEFINED, true),
    })
}

/// 27.5.1.2 %GeneratorPrototype%.next(value).
fn generator_next(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    resume(rt, this, arg(args, 0), RESUME_NEXT)
}

/// 27.5.1.3 %GeneratorPrototype%.return(value).
fn generator_return(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    resume(rt, this, arg(args, 0), RESUME_RETURN)
}

/// 27.5.1.4 %GeneratorPrototype%.throw(exception).
fn generator_throw(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    resume(rt, this, arg(args, 0), RESUME_THROW)
}

/// 27.3.1.1 GeneratorFunction(...parameterArgs, bodyArg).
fn generator_function_constructor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    super::function::create_dynamic_function(rt, args, super::function::DynamicKind::Generator)
}
