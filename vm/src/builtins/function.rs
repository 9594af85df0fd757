//! 20.2 Function objects: the constructor and Function.prototype.

use super::{arg, rows, Builtin, Row};
use crate::gc::{CellKind, Gc};
use crate::object::property::PropertyDescriptor;
use crate::object::shape::CONFIGURABLE;
use crate::object::{JsObject, Key};
use crate::runtime::function::{BoundFunction, Closure};
use crate::runtime::{Intrinsic, JsResult, Runtime};
use crate::value::Value;

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin =
    Builtin { init, rows: ROWS, link, globals: &[("Function", Intrinsic::Function)], ..Builtin::NONE };

pub(crate) const ROWS: &[Row] = rows! {
    FunctionPrototype."apply" => apply, 2;
    FunctionPrototype."bind" => bind, 1;
    FunctionPrototype."call" => call, 1;
    FunctionPrototype."toString" => to_string, 0;
    FunctionPrototype.[has_instance] => has_instance, 1, frozen;
};

/// Creates the Function constructor.
pub(crate) fn init(rt: &mut Runtime) {
    let fp = rt.intrinsic_object(Intrinsic::FunctionPrototype);
    let c = rt.make_constructor("Function", function_constructor, 1, Some(fp));
    rt.set_intrinsic(Intrinsic::Function, Value::object(c));
}

/// What the table made that other parts find as intrinsics: %Function.prototype.apply%
/// (compiled code forwards its arguments when it is called with a frame's own arguments
/// object), and %ThrowTypeError%.
fn link(rt: &mut Runtime) {
    let apply = rt.intrinsic_prop(Intrinsic::FunctionPrototype, "apply");
    rt.set_intrinsic(Intrinsic::FunctionProtoApply, apply);
    init_throw_type_error(rt);
}

/// %ThrowTypeError% (10.2.4.1): a frozen function that always throws.
fn init_throw_type_error(rt: &mut Runtime) {
    let f = rt.new_native("", throw_type_error, 0);
    let _ = rt.prevent_extensions(f);
    for key in [Key::Name(rt.names.length), Key::Name(rt.names.name)] {
        let d = PropertyDescriptor { configurable: Some(false), writable: Some(false), ..Default::default() };
        let _ = rt.define_own_property(f, key, &d);
    }
    rt.set_intrinsic(Intrinsic::ThrowTypeError, Value::object(f));
    // Function.prototype.caller/arguments poison pills (10.2.4 AddRestrictedFunctionProperties).
    let fp = rt.intrinsic_object(Intrinsic::FunctionPrototype);
    for name in ["caller", "arguments"] {
        let key = rt.key(name);
        let d = PropertyDescriptor::accessor(Value::object(f), Value::object(f), CONFIGURABLE);
        let _ = rt.define_own_property(fp, key, &d);
    }
}

fn throw_type_error(rt: &mut Runtime, _this: Value, _args: &[Value]) -> JsResult<Value> {
    Err(rt.throw_type_error("'caller', 'callee', and 'arguments' properties may not be accessed on strict mode functions or the arguments objects for calls to them"))
}

/// The behaviour of %Function.prototype% itself: returns undefined.
pub(crate) fn function_prototype_call(_rt: &mut Runtime, _this: Value, _args: &[Value]) -> JsResult<Value> {
    Ok(Value::UNDEFINED)
}

/// 20.2.1.1 Function(...parameterArgs, bodyArg): compiles through the compile hook.
fn function_constructor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    create_dynamic_function(rt, args, DynamicKind::Normal)
}

/// The kind of function CreateDynamicFunction makes.
#[derive(Clone, Copy)]
pub(crate) enum DynamicKind {
    /// `function`
    Normal,
    /// `function*`
    Generator,
    /// `async function`
    Async,
    /// `async function*`
    AsyncGenerator,
}

/// 20.2.1.1.1 CreateDynamicFunction(constructor, newTarget, kind, parameterArgs, bodyArg):
/// the source text `(<kind> anonymous(<params>\n) {\n<body>\n})` compiled through the
/// runtime's compile hook and evaluated in the current realm.
pub(crate) fn create_dynamic_function(rt: &mut Runtime, args: &[Value], kind: DynamicKind) -> JsResult<Value> {
    let (params, body) = match args.split_last() {
        Some((b, p)) => (p, *b),
        None => (&[][..], Value::UNDEFINED),
    };
    let mut p = Vec::new();
    for &a in params {
        p.push(rt.to_rust_string(a)?);
    }
    let body = if body.is_undefined() { String::new() } else { rt.to_rust_string(body)? };
    let (prefix, constructor) = match kind {
        DynamicKind::Normal => ("function", "Function"),
        DynamicKind::Generator => ("function*", "GeneratorFunction"),
        DynamicKind::Async => ("async function", "AsyncFunction"),
        DynamicKind::AsyncGenerator => ("async function*", "AsyncGeneratorFunction"),
    };
    let source = format!("({prefix} anonymous({}\n) {{\n{body}\n}})", p.join(","));
    let bytes = rt.compile_source(&source, "anonymous", crate::runtime::SourceKind::Script)?;
    let realm = rt.realm;
    let f = rt.eval_bundle_in(bytes, realm)?;
    if !rt.is_callable(f) {
        return Err(
            rt.throw_syntax_error(&format!("{constructor} constructor: the compiler did not produce a function"))
        );
    }
    Ok(f)
}

/// 20.2.3.1 Function.prototype.apply(thisArg, argArray).
fn apply(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If IsCallable(func) is false, throw a TypeError exception.
    if !rt.is_callable(this) {
        return Err(rt.throw_type_error("Function.prototype.apply was called on a non-function"));
    }
    let arr = arg(args, 1);
    // 2. If argArray is either undefined or null, then return ? Call(func, thisArg).
    if arr.is_nullish() {
        return rt.call(this, arg(args, 0), &[]);
    }
    // 3. Let argList be ? CreateListFromArrayLike(argArray).
    let list = rt.create_list_from_array_like(arr)?;
    rt.call(this, arg(args, 0), &list)
}

/// 20.2.3.2 Function.prototype.bind(thisArg, ...args).
fn bind(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    // 2. If IsCallable(Target) is false, throw a TypeError exception.
    if !rt.is_callable(this) {
        return Err(rt.throw_type_error("Bind must be called on a function"));
    }
    let target: Gc<JsObject> = this.gc();
    // 3. Let F be ? BoundFunctionCreate(Target, thisArg, args).
    let proto = rt.prototype_of(target)?;
    let bound_args =
        if args.len() > 1 { Value::cell(rt.heap_mut().alloc_vec_from(&args[1..])) } else { Value::UNDEFINED };
    let shape = rt.root_shape(proto, CellKind::BoundFunction, 2);
    let b = BoundFunction {
        base: JsObject::new(CellKind::BoundFunction, shape),
        target: this,
        this: arg(args, 0),
        args: bound_args,
    };
    let f: Gc<JsObject> = rt.heap_mut().alloc_object(b, 2).cast();
    rt.root(Value::object(f));
    // 5-6. length.
    let mut l = 0.0;
    let lk = Key::Name(rt.names.length);
    if rt.has_own_property(target, lk)? {
        let tl = rt.get(target, lk, this)?;
        if let Some(n) = tl.as_number() {
            if n == f64::INFINITY {
                l = f64::INFINITY;
            } else if n.is_finite() {
                l = (n.trunc() - args.len().saturating_sub(1) as f64).max(0.0);
            }
        }
    }
    rt.define_data_raw(f, lk, Value::number(l), CONFIGURABLE);
    // 7-8. name: "bound " + targetName.
    let nk = Key::Name(rt.names.name);
    let tn = rt.get(target, nk, this)?;
    // A concatenation, not a copy: a chain of binds makes a rope per link instead of
    // names that grow by copying (quadratic in the chain's length).
    let prefix = rt.new_string("bound ");
    let n = if tn.is_string() { rt.concat_strings(prefix, tn)? } else { prefix };
    rt.define_data_raw(f, nk, n, CONFIGURABLE);
    Ok(Value::object(f))
}

/// 20.2.3.3 Function.prototype.call(thisArg, ...args).
fn call(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    if !rt.is_callable(this) {
        return Err(rt.throw_type_error("Function.prototype.call was called on a non-function"));
    }
    let rest = if args.len() > 1 { &args[1..] } else { &[] };
    rt.call(this, arg(args, 0), rest)
}

/// 20.2.3.5 Function.prototype.toString().
fn to_string(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    if !rt.is_callable(this) {
        return Err(rt.throw_type_error("Function.prototype.toString requires that 'this' be a Function"));
    }
    let obj: Gc<JsObject> = this.gc();
    if let Some(c) = rt.heap().downcast::<Closure>(obj) {
        // SAFETY: a function of this runtime's bundles, used while the runtime lives.
        let info = unsafe { crate::code::info_ref(rt.heap().get(c).func) };
        if let Some(text) = info.bundle().bundle.function_source(info.id) {
            return Ok(rt.new_string(&text));
        }
    }
    let nk = Key::Name(rt.names.name);
    let n = rt.peek_data(obj, nk).unwrap_or(Value::UNDEFINED);
    let name = if n.is_string() { rt.string_to_rust(n) } else { String::new() };
    Ok(rt.new_string(&format!("function {name}() {{ [native code] }}")))
}

/// 20.2.3.6 Function.prototype[@@hasInstance](V).
fn has_instance(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    Ok(Value::boolean(rt.ordinary_has_instance(this, arg(args, 0))?))
}
