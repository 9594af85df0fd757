//! Calls from the interpreter loop, closure creation and arguments objects.

use bytecode::FunctionFlags;

use super::super::{push_frame, CallStart};
use crate::code::{info_ref, FunctionInfo};
use crate::gc::{CellKind, Gc};
use crate::object::shape::{CONFIGURABLE, WRITABLE};
use crate::object::{JsObject, Key};
use crate::runtime::frame::CONSTRUCT;
use crate::runtime::function::{Closure, NativeFunction};
use crate::runtime::{Intrinsic, JsResult, Runtime};
use crate::value::Value;

/// Starts a call of `f` whose `this` and arguments are the `argc` registers at stack
/// index `first`: pushes a frame for a closure, or completes a native call.
#[inline(never)]
pub(crate) fn start_call(
    rt: &mut Runtime,
    f: Value,
    first: usize,
    argc: usize,
    dst: u32,
    new_target: Value,
    construct: bool,
) -> JsResult<CallStart> {
    if f.is_object() {
        let obj: Gc<JsObject> = f.gc();
        match rt.heap.object_kind(obj) {
            CellKind::Closure => {
                // SAFETY: a function of this runtime's bundles, used while the runtime lives.
                let info = unsafe { info_ref(rt.heap.get(obj.cast::<Closure>()).func) };
                let flags = info.flags();
                let mut this = Value::UNDEFINED;
                if construct {
                    if !flags.contains(FunctionFlags::CONSTRUCTOR) {
                        return Err(rt.not_a_function(f, true));
                    }
                    this = if flags.contains(FunctionFlags::DERIVED) {
                        Value::EMPTY
                    } else {
                        let proto = rt.prototype_from_constructor(new_target, Intrinsic::ObjectPrototype)?;
                        let cap = info.ctor_slots.get();
                        Value::object(rt.new_object_of_kind(proto, CellKind::Object, cap))
                    };
                } else if flags.contains(FunctionFlags::CLASS_CONSTRUCTOR) {
                    return Err(rt.throw_type_error("Class constructor cannot be invoked without 'new'"));
                }
                rt.ensure_stack(argc + 1)?;
                let at = rt.calls.stack.len();
                if argc == 0 {
                    rt.calls.stack.push(Value::UNDEFINED);
                } else {
                    rt.calls.stack.extend_from_within(first..first + argc);
                }
                if construct {
                    rt.calls.stack[at] = this;
                }
                let nt = if construct { new_target } else { Value::UNDEFINED };
                push_frame(rt, info, f, at, argc.max(1), nt, dst, if construct { CONSTRUCT } else { 0 })?;
                Ok(CallStart::Pushed)
            }
            CellKind::NativeFunction => {
                if !construct && argc > 0 && f == rt.intrinsic(Intrinsic::FunctionProtoApply) {
                    if let Some(start) = apply_in_place(rt, first, argc, dst)? {
                        return Ok(start);
                    }
                }
                let nf = obj.cast::<NativeFunction>();
                if construct && !rt.heap.get(nf).constructor {
                    return Err(rt.not_a_function(f, true));
                }
                let this = if construct || argc == 0 { Value::UNDEFINED } else { rt.calls.stack[first] };
                let n = argc.saturating_sub(1);
                let mut buf = [Value::UNDEFINED; 8];
                let v = if n <= 8 {
                    buf[..n].copy_from_slice(&rt.calls.stack[first + 1..first + 1 + n]);
                    rt.enter_native()?;
                    let r = rt.call_native(nf, this, &buf[..n], if construct { new_target } else { Value::UNDEFINED });
                    rt.leave_native();
                    r?
                } else {
                    let list: Vec<Value> = rt.calls.stack[first + 1..first + 1 + n].to_vec();
                    rt.enter_native()?;
                    let r = rt.call_native(nf, this, &list, if construct { new_target } else { Value::UNDEFINED });
                    rt.leave_native();
                    r?
                };
                Ok(CallStart::Done(v))
            }
            CellKind::BoundFunction | CellKind::Proxy => {
                let this = if argc == 0 { Value::UNDEFINED } else { rt.calls.stack[first] };
                let list: Vec<Value> =
                    if argc > 1 { rt.calls.stack[first + 1..first + argc].to_vec() } else { Vec::new() };
                let v = if construct { rt.construct(f, &list, new_target)? } else { rt.call(f, this, &list)? };
                Ok(CallStart::Done(v))
            }
            _ => Err(rt.not_a_function(f, construct)),
        }
    } else {
        Err(rt.not_a_function(f, construct))
    }
}

/// `g.apply(thisArg, list)` where `g` is a function made from bytecode (not a class
/// constructor) and `list` is nullish or an array or unmodified arguments object with all of
/// its first `length` elements present: pushes `g`'s frame with the elements as its
/// arguments, as Function.prototype.apply would call it (no getter can run on the way, so
/// nothing observes the difference), without a native frame or a list on the Rust heap.
/// None: the call goes through the native `apply`.
fn apply_in_place(rt: &mut Runtime, first: usize, argc: usize, dst: u32) -> JsResult<Option<CallStart>> {
    let g = rt.calls.stack[first];
    if !g.is_object() || rt.heap.object_kind(g.gc::<JsObject>()) != CellKind::Closure {
        return Ok(None);
    }
    // SAFETY: a function of this runtime's bundles, used while the runtime lives.
    let info = unsafe { info_ref(rt.heap.get(g.gc::<Closure>()).func) };
    if info.flags().contains(FunctionFlags::CLASS_CONSTRUCTOR) {
        return Ok(None);
    }
    let this = if argc > 1 { rt.calls.stack[first + 1] } else { Value::UNDEFINED };
    let list = if argc > 2 { rt.calls.stack[first + 2] } else { Value::UNDEFINED };
    let mut n = 0;
    if !list.is_nullish() {
        if !list.is_object() {
            return Ok(None);
        }
        let Some(len) = rt.quick_length(list.gc()) else { return Ok(None) };
        n = len as usize;
        let elements = rt.heap.elements(list.gc());
        if n > MAX_APPLY_IN_PLACE || elements.get(..n).is_none_or(|e| e.iter().any(|x| x.is_empty())) {
            return Ok(None);
        }
    }
    rt.ensure_stack(n + 1)?;
    let at = rt.calls.stack.len();
    rt.calls.stack.push(this);
    if n > 0 {
        rt.calls.stack.extend_from_slice(&rt.heap.elements(list.gc())[..n]);
    }
    push_frame(rt, info, g, at, n + 1, Value::UNDEFINED, dst, 0)?;
    Ok(Some(CallStart::Pushed))
}

/// The longest list `apply_in_place` lays out (longer ones go through the native `apply`,
/// which also makes the RangeError for lists too long to be arguments).
const MAX_APPLY_IN_PLACE: usize = 65536;

/// Records how many slots objects constructed by `info` ended up with, so later
/// instances get that many inline slots.
#[inline]
pub(crate) fn learn_ctor_slots(rt: &mut Runtime, info: &FunctionInfo, this: Value) {
    let o: Gc<JsObject> = this.gc();
    let shape = rt.heap.get(o).shape;
    let n = rt.heap.get(shape).slot_count().min(16) as u8;
    if n > info.ctor_slots.get() {
        info.ctor_slots.set(n);
    }
}

/// An unmapped arguments object for frame `fi`.
#[inline(never)]
pub(crate) fn create_arguments(rt: &mut Runtime, fi: usize) -> Value {
    let f = rt.calls.frames[fi];
    let start = f.args as usize + 1;
    let n = f.argc as usize - 1;
    let shape = rt.realm().shapes.arguments;
    let obj = rt.new_object_with_shape(shape);
    let values_fn = rt.intrinsic(Intrinsic::ArrayProtoValues);
    let strict = f.info().is_some_and(|i| i.is_strict());
    let callee = super::generator::frame_callee(rt, fi);
    {
        let slots = rt.heap.inline_slots_mut(obj);
        slots[0] = Value::number(n as f64);
        slots[1] = values_fn;
        slots[2] = if strict { Value::UNDEFINED } else { callee };
    }
    if n > 0 {
        // (Allocation never collects, so the frame's arguments stay where they are.)
        let e = rt.heap.alloc_vec_from(&rt.calls.stack[start..start + n]);
        rt.heap.get_mut(obj).elements = Some(e);
    }
    if strict {
        // 10.4.4.6 CreateUnmappedArgumentsObject step 8: `callee` is a poison-pill accessor.
        let thrower = rt.intrinsic(Intrinsic::ThrowTypeError);
        let key = Key::Name(rt.names.callee);
        let desc = crate::object::property::PropertyDescriptor {
            get: Some(thrower),
            set: Some(thrower),
            enumerable: Some(false),
            configurable: Some(false),
            ..Default::default()
        };
        let _ = rt.define_own_property(obj, key, &desc);
    }
    let _ = (WRITABLE, CONFIGURABLE);
    Value::object(obj)
}

#[inline(never)]
/// The elements of an array as a list (CreateListFromArrayLike on the compiler's arrays).
pub(crate) fn array_to_list(rt: &mut Runtime, arr: Value) -> JsResult<Vec<Value>> {
    if !arr.is_object() {
        return Err(rt.throw_type_error("spread argument is not an array"));
    }
    let obj: Gc<JsObject> = arr.gc();
    let len = if rt.heap.object_kind(obj) == CellKind::Array {
        rt.heap.array_length(obj) as usize
    } else {
        let key = Key::Name(rt.names.length);
        let l = rt.get(obj, key, arr)?;
        rt.to_length(l)? as usize
    };
    let mut out = Vec::with_capacity(len);
    for i in 0..len {
        let fast = rt.heap.elements(obj).get(i).copied().filter(|v| !v.is_empty());
        let v = match fast {
            Some(v) => v,
            None => rt.get(obj, Key::Index(i as u32), arr)?,
        };
        out.push(v);
    }
    Ok(out)
}
