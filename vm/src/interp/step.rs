//! One instruction of the running frame, run on its own: what compiled code calls for an
//! instruction it does not compile inline (`runtime_interface`'s `exec` helper).
//!
//! ```text
//!  compiled code ── stores the live registers into the frame ──▶ step(rt, ip)
//!       ◀── the instruction's results in the frame's registers (and, for a comparison or
//!           a conditional jump, whether it holds / the jump is taken) ──
//! ```
//!
//! Each arm does what the interpreter loop does for the instruction, through the same
//! runtime functions its slow paths call; the fast paths (inline caches, dense elements)
//! are the compiled code's business, not this function's.

use bytecode::Inst;

use super::{fast_loose_eq, ops, run, CallStart};
use crate::code::{ic, info_ref};
use crate::gc::Gc;
use crate::object::{JsObject, Key};
use crate::runtime::frame::ENTRY;
use crate::runtime::function::Closure;
use crate::runtime::operators::NumOp;
use crate::runtime::{ErrorKind, JsResult, Runtime};
use crate::value::Value;

/// Runs instruction `ip` of the running (top) frame, reading its operands from the frame's
/// registers and writing its results there. Returns, for a comparison or a conditional
/// jump, whether the comparison holds or the jump is taken (as a boolean), else undefined.
/// Control flow itself (jumps, returns) and generators are not run here.
pub(crate) fn step(rt: &mut Runtime, ip: u32) -> JsResult<Value> {
    let fi = rt.calls.frames.len() - 1;
    let frame = rt.calls.frames[fi];
    // SAFETY: a function of this runtime's bundles, used while the runtime lives.
    let info = unsafe { info_ref(frame.info) };
    let Some(&inst) = info.code().insts.get(ip as usize) else {
        return Err(rt.throw_error(ErrorKind::Error, "internal error: compiled code named no instruction"));
    };
    rt.calls.frames[fi].ip = ip;
    let base = frame.base as usize;
    let strict = info.is_strict();
    let ic_base = info.ic_base.get() as usize;
    let strings = &info.bundle().strings;
    macro_rules! reg {
        ($r:expr) => {
            rt.calls.stack[base + $r as usize]
        };
    }
    macro_rules! set {
        ($r:expr, $v:expr) => {{
            let v = $v;
            rt.calls.stack[base + $r as usize] = v;
        }};
    }
    macro_rules! numeric {
        ($dst:expr, $lhs:expr, $rhs:expr, $op:expr) => {{
            let v = rt.op_numeric($op, reg!($lhs), reg!($rhs))?;
            set!($dst, v);
        }};
    }
    macro_rules! relational {
        ($lhs:expr, $rhs:expr, $swap:expr, $left_first:expr, $want:expr) => {{
            let (a, b) = (reg!($lhs), reg!($rhs));
            let (x, y) = if $swap { (b, a) } else { (a, b) };
            rt.op_less_than(x, y, $left_first)? == $want
        }};
    }
    let less = |rt: &mut Runtime, a: u32, b: u32| -> JsResult<bool> {
        let (x, y) = (rt.calls.stack[base + a as usize], rt.calls.stack[base + b as usize]);
        Ok(rt.op_less_than(x, y, true)? == Some(true))
    };
    let loose = |rt: &mut Runtime, a: u32, b: u32| -> JsResult<bool> {
        let (x, y) = (rt.calls.stack[base + a as usize], rt.calls.stack[base + b as usize]);
        match fast_loose_eq(x, y) {
            Some(r) => Ok(r),
            None => rt.loose_equals(x, y),
        }
    };
    let strict_eq = |rt: &mut Runtime, a: u32, b: u32| -> bool {
        let (x, y) = (rt.calls.stack[base + a as usize], rt.calls.stack[base + b as usize]);
        rt.strict_equals(x, y)
    };
    let truthy = |rt: &mut Runtime, r: u32| -> bool {
        let v = rt.calls.stack[base + r as usize];
        rt.to_boolean(v)
    };
    let name_key = |rt: &mut Runtime, id: u32| -> Key { rt.key_from_atom(strings[id as usize]) };
    let outcome = match inst {
        Inst::LoadConstString { dst, id } => {
            set!(dst, strings[id as usize]);
            None
        }
        Inst::LoadArgCount { dst } => {
            set!(dst, Value::number((frame.argc - 1) as f64));
            None
        }
        Inst::LoadThisNS { dst } => {
            let this = rt.calls.stack[frame.args as usize];
            let v = if this.is_object() {
                this
            } else if this.is_nullish() {
                Value::object(rt.global_object())
            } else {
                rt.safepoint()?;
                let this = rt.calls.stack[frame.args as usize];
                Value::object(rt.to_object(this)?)
            };
            set!(dst, v);
            None
        }
        Inst::GetNewTarget { dst } => {
            set!(dst, frame.new_target);
            None
        }
        Inst::LoadCallee { dst } => {
            set!(dst, ops::generator::frame_callee(rt, fi));
            None
        }
        Inst::CreateArguments { dst } => {
            rt.safepoint()?;
            set!(dst, ops::call::create_arguments(rt, fi));
            None
        }
        Inst::GetGlobalObject { dst } => {
            set!(dst, Value::object(rt.global_object()));
            None
        }
        Inst::DeclareGlobals { env, decls } => {
            rt.safepoint()?;
            rt.declare_globals(reg!(env), strings[decls as usize])?;
            None
        }

        Inst::Add { dst, lhs, rhs } | Inst::AddN { dst, lhs, rhs } => {
            rt.safepoint()?;
            let v = rt.op_add(reg!(lhs), reg!(rhs))?;
            set!(dst, v);
            None
        }
        Inst::Sub { dst, lhs, rhs } | Inst::SubN { dst, lhs, rhs } => {
            numeric!(dst, lhs, rhs, NumOp::Sub);
            None
        }
        Inst::Mul { dst, lhs, rhs } | Inst::MulN { dst, lhs, rhs } => {
            numeric!(dst, lhs, rhs, NumOp::Mul);
            None
        }
        Inst::Div { dst, lhs, rhs } | Inst::DivN { dst, lhs, rhs } => {
            numeric!(dst, lhs, rhs, NumOp::Div);
            None
        }
        Inst::Mod { dst, lhs, rhs } => {
            numeric!(dst, lhs, rhs, NumOp::Mod);
            None
        }
        Inst::Exp { dst, lhs, rhs } => {
            numeric!(dst, lhs, rhs, NumOp::Exp);
            None
        }
        Inst::BitAnd { dst, lhs, rhs } => {
            numeric!(dst, lhs, rhs, NumOp::BitAnd);
            None
        }
        Inst::BitOr { dst, lhs, rhs } => {
            numeric!(dst, lhs, rhs, NumOp::BitOr);
            None
        }
        Inst::BitXor { dst, lhs, rhs } => {
            numeric!(dst, lhs, rhs, NumOp::BitXor);
            None
        }
        Inst::Shl { dst, lhs, rhs } => {
            numeric!(dst, lhs, rhs, NumOp::Shl);
            None
        }
        Inst::Shr { dst, lhs, rhs } => {
            numeric!(dst, lhs, rhs, NumOp::Shr);
            None
        }
        Inst::UShr { dst, lhs, rhs } => {
            numeric!(dst, lhs, rhs, NumOp::UShr);
            None
        }
        Inst::Eq { dst, lhs, rhs } => Some((dst, loose(rt, lhs, rhs)?)),
        Inst::Neq { dst, lhs, rhs } => Some((dst, !loose(rt, lhs, rhs)?)),
        Inst::StrictEq { dst, lhs, rhs } => Some((dst, strict_eq(rt, lhs, rhs))),
        Inst::StrictNeq { dst, lhs, rhs } => Some((dst, !strict_eq(rt, lhs, rhs))),
        Inst::Less { dst, lhs, rhs } | Inst::LessN { dst, lhs, rhs } => Some((dst, less(rt, lhs, rhs)?)),
        Inst::LessEq { dst, lhs, rhs } | Inst::LessEqN { dst, lhs, rhs } => {
            Some((dst, relational!(lhs, rhs, true, false, Some(false))))
        }
        Inst::Greater { dst, lhs, rhs } | Inst::GreaterN { dst, lhs, rhs } => {
            Some((dst, relational!(lhs, rhs, true, false, Some(true))))
        }
        Inst::GreaterEq { dst, lhs, rhs } | Inst::GreaterEqN { dst, lhs, rhs } => {
            Some((dst, relational!(lhs, rhs, false, true, Some(false))))
        }
        Inst::InstanceOf { dst, lhs, rhs } => {
            let r = rt.op_instance_of(reg!(lhs), reg!(rhs))?;
            Some((dst, r))
        }
        Inst::IsIn { dst, key, obj } => {
            let r = rt.op_in(reg!(key), reg!(obj))?;
            Some((dst, r))
        }

        Inst::Negate { dst, src } => {
            let v = rt.op_negate(reg!(src))?;
            set!(dst, v);
            None
        }
        Inst::BitNot { dst, src } => {
            let v = rt.op_bit_not(reg!(src))?;
            set!(dst, v);
            None
        }
        Inst::Not { dst, src } => Some((dst, !truthy(rt, src))),
        Inst::TypeOf { dst, src } => {
            let v = rt.type_of(reg!(src));
            set!(dst, v);
            None
        }
        Inst::ToNumber { dst, src } => {
            let v = Value::number(rt.to_number(reg!(src))?);
            set!(dst, v);
            None
        }
        Inst::ToNumeric { dst, src } => {
            let v = rt.to_numeric(reg!(src))?;
            set!(dst, v);
            None
        }
        Inst::Inc { dst, src } => {
            let v = rt.op_inc_dec(reg!(src), 1.0)?;
            set!(dst, v);
            None
        }
        Inst::Dec { dst, src } => {
            let v = rt.op_inc_dec(reg!(src), -1.0)?;
            set!(dst, v);
            None
        }
        Inst::PostInc { old, dst, src } | Inst::PostDec { old, dst, src } => {
            let delta = if matches!(inst, Inst::PostInc { .. }) { 1.0 } else { -1.0 };
            // A BigInt old value stays in its register (a root) while the new one is made.
            let n = rt.to_numeric(reg!(src))?;
            set!(old, n);
            let v = rt.op_inc_dec(reg!(old), delta)?;
            set!(dst, v);
            None
        }
        Inst::ToString { dst, src } => {
            rt.safepoint()?;
            let v = rt.to_string(reg!(src))?;
            set!(dst, v);
            None
        }
        Inst::ToPropertyKey { dst, src } => {
            let k = rt.to_property_key(reg!(src))?;
            let v = rt.key_to_value(k);
            set!(dst, v);
            None
        }

        // Conditional jumps: whether the jump is taken.
        Inst::JmpTrue { cond, .. } => return Ok(Value::boolean(truthy(rt, cond))),
        Inst::JmpFalse { cond, .. } => return Ok(Value::boolean(!truthy(rt, cond))),
        Inst::JmpEq { lhs, rhs, .. } => return Ok(Value::boolean(loose(rt, lhs, rhs)?)),
        Inst::JmpNeq { lhs, rhs, .. } => return Ok(Value::boolean(!loose(rt, lhs, rhs)?)),
        Inst::JmpStrictEq { lhs, rhs, .. } => return Ok(Value::boolean(strict_eq(rt, lhs, rhs))),
        Inst::JmpStrictNeq { lhs, rhs, .. } => return Ok(Value::boolean(!strict_eq(rt, lhs, rhs))),
        Inst::JmpLess { lhs, rhs, .. } => return Ok(Value::boolean(less(rt, lhs, rhs)?)),
        Inst::JmpNotLess { lhs, rhs, .. } => return Ok(Value::boolean(!less(rt, lhs, rhs)?)),
        Inst::JmpLessEq { lhs, rhs, .. } => return Ok(Value::boolean(relational!(lhs, rhs, true, false, Some(false)))),
        Inst::JmpNotLessEq { lhs, rhs, .. } => {
            return Ok(Value::boolean(!relational!(lhs, rhs, true, false, Some(false))))
        }
        Inst::JmpGreater { lhs, rhs, .. } => return Ok(Value::boolean(relational!(lhs, rhs, true, false, Some(true)))),
        Inst::JmpNotGreater { lhs, rhs, .. } => {
            return Ok(Value::boolean(!relational!(lhs, rhs, true, false, Some(true))))
        }
        Inst::JmpGreaterEq { lhs, rhs, .. } => {
            return Ok(Value::boolean(relational!(lhs, rhs, false, true, Some(false))))
        }
        Inst::JmpNotGreaterEq { lhs, rhs, .. } => {
            return Ok(Value::boolean(!relational!(lhs, rhs, false, true, Some(false))))
        }
        Inst::JmpUndefined { value, .. } => return Ok(Value::boolean(reg!(value).is_undefined())),
        Inst::JmpNotUndefined { value, .. } => return Ok(Value::boolean(!reg!(value).is_undefined())),
        Inst::JmpEmpty { value, .. } => return Ok(Value::boolean(reg!(value).is_empty())),
        Inst::JmpNotEmpty { value, .. } => return Ok(Value::boolean(!reg!(value).is_empty())),
        Inst::JmpNullish { value, .. } => return Ok(Value::boolean(reg!(value).is_nullish())),
        Inst::JmpNotNullish { value, .. } => return Ok(Value::boolean(!reg!(value).is_nullish())),

        Inst::Throw { value } => {
            let v = reg!(value);
            return Err(rt.throw(v));
        }
        Inst::ThrowIfEmpty { dst, src, name } => {
            let v = reg!(src);
            if v.is_empty() {
                let n = rt.string_to_rust(strings[name as usize]);
                return Err(rt.throw_reference_error(&format!("Cannot access '{n}' before initialization")));
            }
            set!(dst, v);
            None
        }
        Inst::Trap {} => return Err(rt.throw_error(ErrorKind::Error, "internal error: unreachable code was executed")),
        Inst::ThrowError { kind, msg } => {
            let ty = ErrorKind::from_u8(kind).unwrap_or(ErrorKind::Error);
            let m = rt.string_to_rust(strings[msg as usize]);
            return Err(rt.throw_error(ty, &m));
        }
        Inst::Debugger {} => None,

        Inst::CreateEnvironment { dst, parent, size } => {
            rt.safepoint()?;
            let env = rt.heap.alloc_env(reg!(parent), size as usize);
            set!(dst, Value::cell(env));
            None
        }
        Inst::GetParentEnvironment { dst } => {
            let env = rt.heap.get(frame.closure.gc::<Closure>()).env;
            set!(dst, env);
            None
        }
        Inst::ResolveEnvironment { dst, env, levels } => {
            let mut e = reg!(env);
            for _ in 0..levels {
                match super::env_of(rt, e) {
                    Some(g) => e = rt.heap.get(g).parent,
                    None => break,
                }
            }
            set!(dst, e);
            None
        }
        Inst::LoadFromEnvironment { dst, env, slot } => {
            let e = reg!(env);
            match super::env_of(rt, e).and_then(|g| rt.heap.env_slots(g).get(slot as usize).copied()) {
                Some(v) => set!(dst, v),
                None => return Err(rt.throw_type_error("internal error: bad environment access")),
            }
            None
        }
        Inst::LoadImport { dst, env, slot, name } => {
            match rt.load_import(reg!(env), slot) {
                Ok(v) => set!(dst, v),
                Err(problem) => return Err(rt.throw_import_problem(problem, strings[name as usize])),
            }
            None
        }
        Inst::StoreToEnvironment { env, slot, value } => {
            let (e, v) = (reg!(env), reg!(value));
            match super::env_of(rt, e) {
                Some(g) if (slot as usize) < rt.heap.env_slots(g).len() => rt.heap.env_slots_mut(g)[slot as usize] = v,
                _ => return Err(rt.throw_type_error("internal error: bad environment access")),
            }
            None
        }

        Inst::GetById { dst, obj, name, ic } => {
            let o = reg!(obj);
            if o.is_object() {
                let ob: Gc<JsObject> = o.gc();
                let shape = rt.heap.get(ob).shape;
                if let Some(v) = super::ic_read(rt, (ic_base + ic as usize) * ic::WAYS, ob, shape) {
                    set!(dst, v);
                    return Ok(Value::UNDEFINED);
                }
            }
            let key = name_key(rt, name);
            let v = ops::property::get_by_id_slow(rt, o, key, ic_base + ic as usize, false)?;
            set!(dst, v);
            None
        }
        Inst::GetGlobal { dst, name, ic } | Inst::TypeofGlobal { dst, name, ic } => {
            let go = rt.global_object();
            let shape = rt.heap.get(go).shape;
            if let Some(v) = super::ic_read(rt, (ic_base + ic as usize) * ic::WAYS, go, shape) {
                set!(dst, v);
                return Ok(Value::UNDEFINED);
            }
            let key = name_key(rt, name);
            let is_typeof = matches!(inst, Inst::TypeofGlobal { .. });
            let v = ops::property::get_global_slow(rt, key, ic_base + ic as usize, is_typeof)?;
            set!(dst, v);
            None
        }
        Inst::PutGlobal { name, value, ic } => {
            let v = reg!(value);
            if super::ic_write(rt, (ic_base + ic as usize) * ic::WAYS, rt.global_object(), v) {
                return Ok(Value::UNDEFINED);
            }
            rt.safepoint()?;
            let v = reg!(value);
            let key = name_key(rt, name);
            ops::property::put_global_slow(rt, key, v, strict, ic_base + ic as usize)?;
            None
        }
        Inst::PutById { obj, name, value, ic } => {
            let (o, v) = (reg!(obj), reg!(value));
            if o.is_object() && super::ic_write(rt, (ic_base + ic as usize) * ic::WAYS, o.gc(), v) {
                return Ok(Value::UNDEFINED);
            }
            rt.safepoint()?;
            let (o, v) = (reg!(obj), reg!(value));
            let key = name_key(rt, name);
            ops::property::put_by_id_slow(rt, o, key, v, strict, ic_base + ic as usize, false)?;
            None
        }
        Inst::GetByVal { dst, obj, key } => {
            let v = ops::property::get_by_val_slow(rt, reg!(obj), reg!(key))?;
            set!(dst, v);
            None
        }
        Inst::PutByVal { obj, key, value } => {
            rt.safepoint()?;
            ops::property::put_by_val_slow(rt, reg!(obj), reg!(key), reg!(value), strict)?;
            None
        }
        Inst::DelById { dst, obj, name } => {
            let key = name_key(rt, name);
            Some((dst, ops::property::delete_property(rt, reg!(obj), key, strict)?))
        }
        Inst::DelByVal { dst, obj, key } => {
            let k = rt.to_property_key(reg!(key))?;
            Some((dst, ops::property::delete_property(rt, reg!(obj), k, strict)?))
        }
        Inst::PutOwnById { obj, name, value, ic } => {
            let (o, v) = (reg!(obj), reg!(value));
            if o.is_object() && super::ic_write(rt, (ic_base + ic as usize) * ic::WAYS, o.gc(), v) {
                return Ok(Value::UNDEFINED);
            }
            rt.safepoint()?;
            let key = name_key(rt, name);
            ops::property::put_own_by_id_slow(rt, reg!(obj), key, reg!(value), ic_base + ic as usize)?;
            None
        }
        Inst::PutOwnByVal { obj, key, value, flags } => {
            rt.safepoint()?;
            let k = rt.to_property_key(reg!(key))?;
            let attrs = if flags & 1 != 0 {
                crate::object::shape::DEFAULT_ATTRS
            } else {
                crate::object::shape::WRITABLE | crate::object::shape::CONFIGURABLE
            };
            ops::property::put_own(rt, reg!(obj), k, reg!(value), attrs)?;
            None
        }
        Inst::PutOwnByIndex { obj, index, value } => {
            rt.safepoint()?;
            ops::property::put_own(rt, reg!(obj), Key::Index(index), reg!(value), crate::object::shape::DEFAULT_ATTRS)?;
            None
        }
        Inst::PutOwnGetterSetter { obj, key, getter, setter, flags } => {
            rt.safepoint()?;
            ops::property::put_own_accessor(rt, reg!(obj), reg!(key), reg!(getter), reg!(setter), flags & 1 != 0)?;
            None
        }
        Inst::NewObject { dst } => {
            rt.safepoint()?;
            let cap = info.code().literal_caps.get(ip as usize).copied().unwrap_or(4);
            let shape = rt.realm().shapes.object_by_cap[(cap as usize).min(16)];
            let o = rt.new_object_with_shape(shape);
            set!(dst, Value::object(o));
            None
        }
        Inst::NewObjectWithProto { dst, proto } => {
            rt.safepoint()?;
            let p = reg!(proto);
            let o = rt.new_object(if p.is_object() { p } else { Value::NULL });
            set!(dst, Value::object(o));
            None
        }
        Inst::NewArray { dst, size } => {
            rt.safepoint()?;
            let a = rt.new_array(size);
            set!(dst, Value::object(a));
            None
        }

        Inst::Call { dst, callee, first, argc } => {
            let f = reg!(callee);
            let v = call(rt, f, base + first as usize, argc as usize, dst, Value::UNDEFINED, false)?;
            set!(dst, v);
            None
        }
        Inst::Construct { dst, callee, new_target, first, argc } => {
            let (f, nt) = (reg!(callee), reg!(new_target));
            let v = call(rt, f, base + first as usize, argc as usize, dst, nt, true)?;
            set!(dst, v);
            None
        }
        Inst::CallSpread { dst, callee, this, args } => {
            let (f, t) = (reg!(callee), reg!(this));
            let list = ops::call::array_to_list(rt, reg!(args))?;
            let v = rt.call(f, t, &list)?;
            set!(dst, v);
            None
        }
        Inst::ConstructSpread { dst, callee, new_target, args } => {
            let (f, nt) = (reg!(callee), reg!(new_target));
            if !rt.is_constructor(f) {
                return Err(rt.not_a_function(f, true));
            }
            let list = ops::call::array_to_list(rt, reg!(args))?;
            let v = rt.construct(f, &list, nt)?;
            set!(dst, v);
            None
        }
        Inst::CallBuiltin { dst, builtin, first, argc } => {
            let start = base + first as usize;
            let list: Vec<Value> = rt.calls.stack[start..start + argc as usize].to_vec();
            let v = ops::builtin::call_internal(rt, builtin, &list, info)?;
            set!(dst, v);
            None
        }
        Inst::CreateClosure { dst, env, func } => {
            rt.safepoint()?;
            let target = crate::code::FuncRef::new(&info.bundle().functions[func as usize]);
            let c = crate::runtime::function::make_closure(rt, target, reg!(env));
            set!(dst, c);
            None
        }
        Inst::LoadHomeObject { dst } => {
            let h = rt.heap.get(frame.closure.gc::<Closure>()).home;
            set!(dst, h);
            None
        }
        Inst::CreateRegExp { dst, pattern, flags } => {
            rt.safepoint()?;
            let (p, f) = (strings[pattern as usize], strings[flags as usize]);
            let r = (rt.host.hooks.regexp_create)(rt, p, f)?;
            set!(dst, r);
            None
        }

        Inst::GetIterator { dst, src } => {
            rt.safepoint()?;
            let it = crate::runtime::iteration::get_iterator(rt, reg!(src))?;
            set!(dst, it);
            None
        }
        Inst::IteratorNext { dst, iter } => {
            let v = crate::runtime::iteration::iterator_next(rt, reg!(iter))?;
            set!(dst, v);
            None
        }
        Inst::IteratorClose { iter, ignore_errors } => {
            crate::runtime::iteration::iterator_close(rt, reg!(iter), ignore_errors != 0)?;
            None
        }
        Inst::GetPNameList { dst, obj } => {
            rt.safepoint()?;
            let s = crate::runtime::iteration::get_pname_list(rt, reg!(obj))?;
            set!(dst, s);
            None
        }
        Inst::GetNextPName { dst, iter } => {
            let v = crate::runtime::iteration::get_next_pname(rt, reg!(iter))?;
            set!(dst, v);
            None
        }

        // Compiled code does these itself, or never compiles functions that have them.
        Inst::Wide {}
        | Inst::Mov { .. }
        | Inst::LoadConstUndefined { .. }
        | Inst::LoadConstNull { .. }
        | Inst::LoadConstTrue { .. }
        | Inst::LoadConstFalse { .. }
        | Inst::LoadConstEmpty { .. }
        | Inst::LoadConstInt { .. }
        | Inst::LoadConstDouble { .. }
        | Inst::LoadParam { .. }
        | Inst::Jmp { .. }
        | Inst::Ret { .. }
        | Inst::RetUndefined {}
        | Inst::Catch { .. }
        | Inst::CreateGenerator { .. }
        | Inst::StartGenerator {}
        | Inst::SaveGenerator { .. }
        | Inst::ResumeGenerator { .. }
        | Inst::CompleteGenerator {} => {
            return Err(rt.throw_error(ErrorKind::Error, "internal error: compiled code cannot run this instruction"))
        }
    };
    Ok(match outcome {
        Some((dst, b)) => {
            set!(dst, Value::boolean(b));
            Value::boolean(b)
        }
        None => Value::UNDEFINED,
    })
}

/// A call or `new` from compiled code: pushes the callee's frame like the interpreter and
/// runs it to its return (a nested run of the interpreter, or of the callee's own code).
pub(crate) fn call(
    rt: &mut Runtime,
    f: Value,
    first: usize,
    argc: usize,
    dst: u32,
    new_target: Value,
    construct: bool,
) -> JsResult<Value> {
    if crate::runtime::stack_address() < rt.calls.stack_guard {
        return Err(rt.throw_range_error("Maximum call stack size exceeded"));
    }
    #[cfg(feature = "jit")]
    if !construct {
        if let Some(r) = crate::jit::call_compiled(rt, f, first, argc) {
            return r;
        }
    }
    match ops::call::start_call(rt, f, first, argc, dst, new_target, construct)? {
        CallStart::Pushed => {
            let top = rt.calls.frames.len() - 1;
            rt.calls.frames[top].flags |= ENTRY;
            // A callee with code runs it right away, without a turn of the interpreter.
            #[cfg(feature = "jit")]
            if let Some(outcome) = crate::jit::run_compiled(rt, top, 0) {
                return crate::jit::finish(rt, top, Ok(outcome));
            }
            run(rt)
        }
        CallStart::Done(v) => Ok(v),
    }
}
