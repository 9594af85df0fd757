//! 20.5 Error objects: Error, the NativeError constructors, AggregateError and
//! SuppressedError.

use super::{arg, rows, Builtin, Row};
use crate::gc::{CellKind, Gc};
use crate::object::shape::{CONFIGURABLE, WRITABLE};
use crate::object::{JsObject, Key};
use crate::runtime::{ErrorKind, Intrinsic, JsResult, Runtime};
use crate::value::Value;

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin = Builtin {
    init,
    rows: ROWS,
    globals: &[
        ("Error", Intrinsic::Error),
        ("TypeError", Intrinsic::TypeError),
        ("RangeError", Intrinsic::RangeError),
        ("ReferenceError", Intrinsic::ReferenceError),
        ("SyntaxError", Intrinsic::SyntaxError),
        ("EvalError", Intrinsic::EvalError),
        ("URIError", Intrinsic::UriError),
        ("AggregateError", Intrinsic::AggregateError),
        ("SuppressedError", Intrinsic::SuppressedError),
    ],
    ..Builtin::NONE
};

pub(crate) const ROWS: &[Row] = rows! {
    ErrorPrototype."toString" => to_string, 0;
    ErrorPrototype."stack" => stack_getter, 0, getter;
    ErrorPrototype."stack" => stack_setter, 1, setter;
    Error."captureStackTrace" => capture_stack_trace, 1;
    Error."isError" => is_error, 1;
};

const TYPES: [ErrorKind; 8] = [
    ErrorKind::Error,
    ErrorKind::TypeError,
    ErrorKind::RangeError,
    ErrorKind::ReferenceError,
    ErrorKind::SyntaxError,
    ErrorKind::EvalError,
    ErrorKind::UriError,
    ErrorKind::AggregateError,
];

/// Creates Error, the native errors and their prototypes.
pub(crate) fn init(rt: &mut Runtime) {
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    let fp = rt.intrinsic(Intrinsic::FunctionPrototype);
    let mut error_ctor = Value::UNDEFINED;
    let mut error_proto = op;
    for ty in TYPES {
        let proto = rt.new_object(error_proto);
        let func: crate::runtime::function::NativeFn = match ty {
            ErrorKind::AggregateError => aggregate_error_constructor,
            _ => error_constructor,
        };
        let len = if ty == ErrorKind::AggregateError { 2 } else { 1 };
        let c = rt.make_constructor(ty.name(), func, len, Some(proto));
        let name = rt.new_string(ty.name());
        rt.define_value(proto, "name", name, WRITABLE | CONFIGURABLE);
        let empty = rt.names.empty.value();
        rt.define_value(proto, "message", empty, WRITABLE | CONFIGURABLE);
        rt.set_intrinsic(Intrinsic::error_prototype(ty), Value::object(proto));
        rt.set_intrinsic(Intrinsic::error_constructor(ty), Value::object(c));
        if ty == ErrorKind::Error {
            error_ctor = Value::object(c);
            error_proto = Value::object(proto);
        } else {
            // NativeError constructors inherit from %Error%.
            rt.change_prototype(c, error_ctor);
        }
        let _ = fp;
    }
    // SuppressedError (not an ErrorKind: nothing throws one but DisposeResources).
    let proto = rt.new_object(error_proto);
    let c = rt.make_constructor("SuppressedError", suppressed_error_constructor, 3, Some(proto));
    let name = rt.new_string("SuppressedError");
    rt.define_value(proto, "name", name, WRITABLE | CONFIGURABLE);
    let empty = rt.names.empty.value();
    rt.define_value(proto, "message", empty, WRITABLE | CONFIGURABLE);
    rt.set_intrinsic(Intrinsic::SuppressedErrorPrototype, Value::object(proto));
    rt.set_intrinsic(Intrinsic::SuppressedError, Value::object(c));
    rt.change_prototype(c, error_ctor);
}

/// 20.5.8.1.1 SuppressedError(error, suppressed, message).
fn suppressed_error_constructor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. OrdinaryCreateFromConstructor(newTarget, "%SuppressedError.prototype%").
    let nt = rt.native_new_target();
    let nt = if nt.is_undefined() { rt.native_callee() } else { nt };
    let proto = rt.prototype_from_constructor(nt, Intrinsic::SuppressedErrorPrototype)?;
    let o = rt.new_object_of_kind(proto, CellKind::Error, 3);
    rt.root(Value::object(o));
    // 3. If message is not undefined, the own "message".
    let message = arg(args, 2);
    let mut header = "SuppressedError".to_string();
    if !message.is_undefined() {
        let m = rt.to_string(message)?;
        header = format!("SuppressedError: {}", rt.string_to_rust(m));
        let key = Key::Name(rt.names.message);
        rt.define_data_raw(o, key, m, WRITABLE | CONFIGURABLE);
    }
    // 4-5. The own "error" and "suppressed".
    define_suppressed(rt, o, arg(args, 0), arg(args, 1));
    rt.attach_stack(o, &header);
    Ok(Value::object(o))
}

fn define_suppressed(rt: &mut Runtime, o: Gc<JsObject>, error: Value, suppressed: Value) {
    let ek = rt.key("error");
    rt.define_data_raw(o, ek, error, WRITABLE | CONFIGURABLE);
    let sk = rt.key("suppressed");
    rt.define_data_raw(o, sk, suppressed, WRITABLE | CONFIGURABLE);
}

/// A new SuppressedError of the current realm for `error` thrown while `suppressed` was
/// being thrown (DisposeResources). The result is not rooted.
pub(crate) fn new_suppressed_error(rt: &mut Runtime, error: Value, suppressed: Value) -> Value {
    let proto = rt.intrinsic(Intrinsic::SuppressedErrorPrototype);
    let o = rt.new_object_of_kind(proto, CellKind::Error, 3);
    rt.root(Value::object(o));
    define_suppressed(rt, o, error, suppressed);
    rt.attach_stack(o, "SuppressedError");
    Value::object(o)
}

/// The error type a constructor function stands for.
fn type_of_callee(rt: &Runtime) -> ErrorKind {
    let callee = rt.native_callee();
    for ty in TYPES {
        if rt.intrinsic(Intrinsic::error_constructor(ty)) == callee {
            return ty;
        }
    }
    // A constructor from another realm: find it there.
    for realm in rt.realms.iter() {
        for ty in TYPES {
            if realm.intrinsic(Intrinsic::error_constructor(ty)) == callee {
                return ty;
            }
        }
    }
    ErrorKind::Error
}

/// Creates the error object for `ty` from `new_target` with `message` and `options`.
fn make_error(rt: &mut Runtime, ty: ErrorKind, message: Value, options: Value) -> JsResult<Gc<JsObject>> {
    // 1. If NewTarget is undefined, let newTarget be the active function object.
    let nt = rt.native_new_target();
    let nt = if nt.is_undefined() { rt.native_callee() } else { nt };
    // 2. Let O be ? OrdinaryCreateFromConstructor(newTarget, "%NativeError.prototype%").
    let proto = rt.prototype_from_constructor(nt, Intrinsic::error_prototype(ty))?;
    let o = rt.new_object_of_kind(proto, CellKind::Error, 3);
    rt.root(Value::object(o));
    // 3. If message is not undefined, then
    let mut msg_text = String::new();
    if !message.is_undefined() {
        // a. Let msg be ? ToString(message).
        let m = rt.to_string(message)?;
        msg_text = rt.string_to_rust(m);
        // b. Perform CreateNonEnumerableDataPropertyOrThrow(O, "message", msg).
        let key = Key::Name(rt.names.message);
        rt.define_data_raw(o, key, m, WRITABLE | CONFIGURABLE);
    }
    // 4. Perform ? InstallErrorCause(O, options).
    if options.is_object() {
        let ck = Key::Name(rt.names.cause);
        if rt.has_property(options.gc(), ck)? {
            let cause = rt.get(options.gc(), ck, options)?;
            rt.define_data_raw(o, ck, cause, WRITABLE | CONFIGURABLE);
        }
    }
    let name = error_name(rt, o).unwrap_or_else(|| ty.name().to_string());
    let header = if msg_text.is_empty() { name } else { format!("{name}: {msg_text}") };
    rt.attach_stack(o, &header);
    Ok(o)
}

/// The `name` an error inherits, read without running JavaScript.
fn error_name(rt: &mut Runtime, o: Gc<JsObject>) -> Option<String> {
    let key = Key::Name(rt.names.name);
    let mut cur = o;
    loop {
        if let Some(v) = rt.peek_data(cur, key) {
            return v.is_string().then(|| rt.string_to_rust(v));
        }
        let p = rt.get_prototype_of(cur);
        if !p.is_object() {
            return None;
        }
        cur = p.gc();
    }
}

/// 20.5.1.1 Error(message [, options]) and 20.5.6.1.1 NativeError(message [, options]).
fn error_constructor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let ty = type_of_callee(rt);
    Ok(Value::object(make_error(rt, ty, arg(args, 0), arg(args, 1))?))
}

/// 20.5.7.1.1 AggregateError(errors, message [, options]).
fn aggregate_error_constructor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = make_error(rt, ErrorKind::AggregateError, arg(args, 1), arg(args, 2))?;
    // 5. Let errorsList be ? IteratorToList(? GetIterator(errors, sync)).
    let it = crate::runtime::iteration::get_iterator(rt, arg(args, 0))?;
    rt.root(it);
    let mut list = Vec::new();
    loop {
        let v = crate::runtime::iteration::iterator_next(rt, it)?;
        if v.is_empty() {
            break;
        }
        rt.root(v);
        list.push(v);
    }
    let arr = rt.new_array_from(&list);
    let key = Key::Name(rt.names.errors);
    rt.define_data_raw(o, key, Value::object(arr), WRITABLE | CONFIGURABLE);
    Ok(Value::object(o))
}

/// 20.5.2.1 Error.isError(arg): whether `arg` has an [[ErrorData]] slot (of any realm; a
/// proxy has none).
fn is_error(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let v = arg(args, 0);
    Ok(Value::boolean(v.is_object() && rt.heap.object_kind(v.gc()) == CellKind::Error))
}

/// 20.5.3.4 Error.prototype.toString().
fn to_string(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 2. If O is not an Object, throw a TypeError exception.
    if !this.is_object() {
        return Err(rt.throw_type_error("Error.prototype.toString called on non-object"));
    }
    let o: Gc<JsObject> = this.gc();
    // 3-4. Let name be ? Get(O, "name"); undefined → "Error", else ? ToString(name).
    let nk = Key::Name(rt.names.name);
    let name = rt.get(o, nk, this)?;
    let name = if name.is_undefined() { rt.new_string("Error") } else { rt.to_string(name)? };
    rt.root(name);
    // 5-6. Let msg be ? Get(O, "message"); undefined → "", else ? ToString(msg).
    let mk = Key::Name(rt.names.message);
    let msg = rt.get(o, mk, this)?;
    let msg = if msg.is_undefined() { rt.names.empty.value() } else { rt.to_string(msg)? };
    let (n, m) = (rt.string_to_rust(name), rt.string_to_rust(msg));
    // 7-9.
    let s = if n.is_empty() {
        m
    } else if m.is_empty() {
        n
    } else {
        format!("{n}: {m}")
    };
    Ok(rt.new_string(&s))
}

/// get Error.prototype.stack: the stack recorded when the error was made.
fn stack_getter(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-2. The receiver must be an object.
    if !this.is_object() {
        return Err(rt.throw_type_error("Error.prototype.stack getter called on a non-object"));
    }
    // 3. Without [[ErrorData]]: undefined.
    let o: Gc<JsObject> = this.gc();
    if rt.heap().object_kind(o) != CellKind::Error {
        return Ok(Value::UNDEFINED);
    }
    // 4. An implementation-defined string: the header and frames recorded at construction
    // (an error of another realm has its header only).
    match rt.error_stack(o) {
        Some(s) if s.is_string() => Ok(s),
        _ => {
            let stack = rt.describe_thrown(this).stack;
            Ok(rt.new_string(&stack))
        }
    }
}

/// set Error.prototype.stack: an own data property of the receiver.
fn stack_setter(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. The receiver must be an object; 3. the value a string.
    if !this.is_object() {
        return Err(rt.throw_type_error("Error.prototype.stack setter called on a non-object"));
    }
    let v = arg(args, 0);
    if !v.is_string() {
        return Err(rt.throw_type_error("Error.prototype.stack must be set to a string"));
    }
    // 4. SetterThatIgnoresPrototypeProperties(this, %Error.prototype%, "stack", v).
    let key = Key::Name(rt.names.stack);
    super::setter_that_ignores_prototype_properties(rt, this, Intrinsic::ErrorPrototype, key, v)?;
    Ok(Value::UNDEFINED)
}

/// `Error.captureStackTrace(obj)` (a V8 extension many programs call): defines `stack`.
fn capture_stack_trace(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = arg(args, 0);
    if !o.is_object() {
        return Err(rt.throw_type_error("Invalid argument"));
    }
    let obj: Gc<JsObject> = o.gc();
    let header = {
        let e = rt.describe_thrown(o);
        if e.message.is_empty() {
            if e.name.is_empty() {
                "Error".to_string()
            } else {
                e.name
            }
        } else {
            format!("{}: {}", if e.name.is_empty() { "Error" } else { &e.name }, e.message)
        }
    };
    let s = rt.stack_string(&header);
    let key = Key::Name(rt.names.stack);
    rt.define_data_raw(obj, key, s, WRITABLE | CONFIGURABLE);
    Ok(Value::UNDEFINED)
}
