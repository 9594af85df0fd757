//! 25.4 The Atomics object: sequentially consistent operations on the elements of integer
//! TypedArrays, and `wait`/`notify` between agents sharing a SharedArrayBuffer.
//!
//! Over a SharedArrayBuffer the read-modify-write operations are compare-and-swap loops on
//! the element's memory (`SharedBlock::update`); over an ArrayBuffer no other agent can see
//! the bytes, so they are ordinary reads and writes. Waiters are kept per address in one
//! process-wide table (runtime/agents.rs); `waitAsync`'s promises settle in the event loop
//! (`settle_async_waits`, run by `run_jobs` when no job is left).

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::typed_array::{kind_of, validate};
use super::{arg, Builtin};
use crate::gc::{CellKind, Gc};
use crate::object::shape::{CONFIGURABLE, WRITABLE};
use crate::object::shared_buffer::{SharedArrayBufferObject, SharedBlock};
use crate::object::typed_array::{decode, encode, ElementKind, Raw};
use crate::object::JsObject;
use crate::runtime::agents::{AsyncWait, Waiter, WaiterLists};
use crate::runtime::{JsResult, Runtime};
use crate::value::Value;

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin = Builtin { install, ..Builtin::NONE };

/// The functions of the Atomics namespace object.
const FUNCTIONS: &[(&str, crate::runtime::function::NativeFn, u32)] = &[
    ("add", add, 3),
    ("and", and, 3),
    ("compareExchange", compare_exchange, 4),
    ("exchange", exchange, 3),
    ("isLockFree", is_lock_free, 1),
    ("load", load, 2),
    ("notify", notify, 3),
    ("or", or, 3),
    ("pause", pause, 0),
    ("store", store, 3),
    ("sub", sub, 3),
    ("wait", wait, 4),
    ("waitAsync", wait_async, 4),
    ("xor", xor, 3),
];

/// Defines the `Atomics` object on a realm's global object.
fn install(rt: &mut Runtime, global: Gc<JsObject>) {
    let op = rt.intrinsic(crate::runtime::Intrinsic::ObjectPrototype);
    let atomics = rt.new_object(op);
    for &(name, f, len) in FUNCTIONS {
        rt.define_method(atomics, name, f, len);
    }
    super::iterator::define_tag(rt, atomics, "Atomics");
    rt.define_value(global, "Atomics", Value::object(atomics), WRITABLE | CONFIGURABLE);
}

/// An element to operate on: the array, its kind, its byte index in the buffer, and the
/// shared block when the buffer is shared.
struct Access {
    ta: Gc<JsObject>,
    kind: ElementKind,
    at: usize,
    shared: Option<Arc<SharedBlock>>,
}

/// 25.4.3.1 ValidateIntegerTypedArray(typedArray, waitable): the array and its length.
fn validate_integer(rt: &mut Runtime, v: Value, waitable: bool, what: &str) -> JsResult<(Gc<JsObject>, usize)> {
    let (ta, len) = validate(rt, v, what)?;
    let kind = kind_of(rt, ta);
    let ok = if waitable {
        matches!(kind, ElementKind::Int32 | ElementKind::BigInt64)
    } else {
        !matches!(kind, ElementKind::Uint8Clamped | ElementKind::Float16 | ElementKind::Float32 | ElementKind::Float64)
    };
    if !ok {
        let which = if waitable { "an Int32Array or BigInt64Array" } else { "an integer typed array" };
        return Err(rt.throw_type_error(&format!("{what}: the array is not {which}")));
    }
    Ok((ta, len))
}

/// ValidateIntegerTypedArray for an operation that writes: not over an immutable buffer.
fn validate_writable_integer(rt: &mut Runtime, v: Value, what: &str) -> JsResult<(Gc<JsObject>, usize)> {
    let r = validate_integer(rt, v, false, what)?;
    if rt.is_immutable_view(r.0) {
        return Err(rt.throw_type_error(&format!("{what}: the typed array's buffer is immutable")));
    }
    Ok(r)
}

/// 25.4.3.2 ValidateAtomicAccess(taRecord, requestIndex): the element's byte index.
fn validate_access(rt: &mut Runtime, ta: Gc<JsObject>, len: usize, index: Value) -> JsResult<Access> {
    let i = rt.to_index(index)?;
    if i >= len as f64 {
        return Err(rt.throw_range_error("Atomics: the index is out of range"));
    }
    let v = rt.view(ta);
    let (kind, buffer) = (v.kind, v.buffer);
    let at = v.byte_offset + i as usize * kind.size();
    let shared = match rt.heap().object_kind(buffer) {
        CellKind::SharedArrayBuffer => Some(rt.heap().get(buffer.cast::<SharedArrayBufferObject>()).block.clone()),
        _ => None,
    };
    Ok(Access { ta, kind, at, shared })
}

/// 25.4.3.4 RevalidateAtomicAccess: the conversions may have detached or shrunk the buffer.
fn revalidate(rt: &mut Runtime, a: &Access) -> JsResult<()> {
    let Some(len) = rt.typed_array_length(a.ta) else {
        return Err(rt.throw_type_error("Atomics: the typed array is detached or out of bounds"));
    };
    let v = rt.view(a.ta);
    if a.at + a.kind.size() > v.byte_offset + len * a.kind.size() {
        return Err(rt.throw_range_error("Atomics: the index is out of range"));
    }
    Ok(())
}

/// The element's bits (zero-extended, native byte order) of an already converted value.
fn bits_of(kind: ElementKind, raw: Raw) -> u64 {
    let mut b = [0u8; 8];
    encode(kind, raw, cfg!(target_endian = "little"), &mut b[..kind.size()]);
    u64::from_ne_bytes(b)
}

/// The value of element bits.
fn value_of(rt: &mut Runtime, kind: ElementKind, bits: u64) -> Value {
    let b = bits.to_ne_bytes();
    let raw = decode(kind, &b[..kind.size()], cfg!(target_endian = "little"));
    rt.raw_to_value(raw)
}

/// The converted operand of an operation on an element of `kind`: ToBigInt, or
/// ToIntegerOrInfinity for Numbers.
fn operand(rt: &mut Runtime, kind: ElementKind, v: Value) -> JsResult<Raw> {
    if kind.is_bigint() {
        return rt.coerce_element(kind, v);
    }
    Ok(Raw::Number(rt.to_integer_or_infinity(v)?))
}

/// A read-modify-write of the element: `f` maps old bits to new ones (None: unchanged);
/// returns the old bits.
fn modify(rt: &mut Runtime, a: &Access, f: impl FnMut(u64) -> Option<u64>) -> u64 {
    let size = a.kind.size();
    if let Some(block) = &a.shared {
        return block.update(a.at, size, f);
    }
    let mut f = f;
    let buffer = rt.view(a.ta).buffer;
    let mut b = [0u8; 8];
    rt.buffer_read(buffer, a.at..a.at + size, |bytes| b[..size].copy_from_slice(bytes));
    let old = u64::from_ne_bytes(b);
    if let Some(new) = f(old) {
        rt.buffer_write(buffer, a.at..a.at + size, |bytes| bytes.copy_from_slice(&new.to_ne_bytes()[..size]));
    }
    old
}

/// The mask of an element's bits.
fn mask(kind: ElementKind) -> u64 {
    match kind.size() {
        8 => u64::MAX,
        n => (1u64 << (n * 8)) - 1,
    }
}

/// 25.4.3.17 AtomicReadModifyWrite(typedArray, index, value, op).
fn read_modify_write(rt: &mut Runtime, args: &[Value], what: &str, op: fn(u64, u64) -> u64) -> JsResult<Value> {
    let (ta, len) = validate_writable_integer(rt, arg(args, 0), what)?;
    let a = validate_access(rt, ta, len, arg(args, 1))?;
    let v = operand(rt, a.kind, arg(args, 2))?;
    revalidate(rt, &a)?;
    let (operand_bits, m) = (bits_of(a.kind, v), mask(a.kind));
    let old = modify(rt, &a, |old| Some(op(old, operand_bits) & m));
    Ok(value_of(rt, a.kind, old))
}

/// 25.4.4 Atomics.add(typedArray, index, value).
fn add(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    read_modify_write(rt, args, "Atomics.add", u64::wrapping_add)
}

/// 25.4.5 Atomics.and(typedArray, index, value).
fn and(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    read_modify_write(rt, args, "Atomics.and", |a, b| a & b)
}

/// 25.4.15 Atomics.or(typedArray, index, value).
fn or(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    read_modify_write(rt, args, "Atomics.or", |a, b| a | b)
}

/// 25.4.17 Atomics.sub(typedArray, index, value).
fn sub(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    read_modify_write(rt, args, "Atomics.sub", u64::wrapping_sub)
}

/// 25.4.20 Atomics.xor(typedArray, index, value).
fn xor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    read_modify_write(rt, args, "Atomics.xor", |a, b| a ^ b)
}

/// 25.4.8 Atomics.exchange(typedArray, index, value).
fn exchange(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    read_modify_write(rt, args, "Atomics.exchange", |_, b| b)
}

/// 25.4.6 Atomics.compareExchange(typedArray, index, expectedValue, replacementValue).
fn compare_exchange(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let (ta, len) = validate_writable_integer(rt, arg(args, 0), "Atomics.compareExchange")?;
    let a = validate_access(rt, ta, len, arg(args, 1))?;
    let expected = operand(rt, a.kind, arg(args, 2))?;
    let replacement = operand(rt, a.kind, arg(args, 3))?;
    revalidate(rt, &a)?;
    let (e, r) = (bits_of(a.kind, expected), bits_of(a.kind, replacement));
    let old = modify(rt, &a, |old| (old == e).then_some(r));
    Ok(value_of(rt, a.kind, old))
}

/// 25.4.9 Atomics.isLockFree(size).
fn is_lock_free(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let n = rt.to_integer_or_infinity(arg(args, 0))?;
    Ok(Value::boolean(matches!(n as i64, 1 | 2 | 4 | 8) && n.fract() == 0.0))
}

/// 25.4.10 Atomics.load(typedArray, index).
fn load(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let (ta, len) = validate_integer(rt, arg(args, 0), false, "Atomics.load")?;
    let a = validate_access(rt, ta, len, arg(args, 1))?;
    revalidate(rt, &a)?;
    let old = modify(rt, &a, |_| None);
    Ok(value_of(rt, a.kind, old))
}

/// 25.4.16 Atomics.store(typedArray, index, value): returns the converted value.
fn store(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let (ta, len) = validate_writable_integer(rt, arg(args, 0), "Atomics.store")?;
    let a = validate_access(rt, ta, len, arg(args, 1))?;
    let v = arg(args, 2);
    let (raw, result) = if a.kind.is_bigint() {
        let b = rt.to_bigint(v)?;
        let raw = Raw::Unsigned(crate::runtime::typed_array::bigint_low_bits(&b));
        (raw, rt.new_bigint(b))
    } else {
        // ToIntegerOrInfinity: -0 stores and returns +0.
        let n = rt.to_integer_or_infinity(v)? + 0.0;
        (Raw::Number(n), Value::number(n))
    };
    revalidate(rt, &a)?;
    let bits = bits_of(a.kind, raw);
    modify(rt, &a, |_| Some(bits));
    Ok(result)
}

/// Atomics.pause([N]): a hint that the agent is spinning.
fn pause(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let n = arg(args, 0);
    if !n.is_undefined() && !n.as_number().is_some_and(|x| x.is_finite() && x.fract() == 0.0) {
        return Err(rt.throw_type_error("Atomics.pause: the argument must be an integral Number"));
    }
    std::hint::spin_loop();
    Ok(Value::UNDEFINED)
}

/// The checked operands of DoWait (25.4.3.14 steps 1-13): the element, the shared block,
/// the expected bits and the timeout in milliseconds (+∞: none).
struct WaitRequest {
    block: Arc<SharedBlock>,
    at: usize,
    size: usize,
    expected: u64,
    timeout: f64,
}

/// DoWait steps 1-13, shared by `wait` and `waitAsync`.
fn wait_request(rt: &mut Runtime, args: &[Value], what: &str) -> JsResult<WaitRequest> {
    // 1-2. ValidateIntegerTypedArray(typedArray, true); the buffer must be shared.
    let (ta, len) = validate_integer(rt, arg(args, 0), true, what)?;
    let buffer = rt.view(ta).buffer;
    if rt.heap().object_kind(buffer) != CellKind::SharedArrayBuffer {
        return Err(rt.throw_type_error(&format!("{what}: the typed array is not over a SharedArrayBuffer")));
    }
    // 4. Let i be ? ValidateAtomicAccess(taRecord, index).
    let a = validate_access(rt, ta, len, arg(args, 1))?;
    // 6-7. The expected value: ToBigInt64 or ToInt32.
    let expected = if a.kind.is_bigint() {
        let b = rt.to_bigint(arg(args, 2))?;
        Raw::Unsigned(crate::runtime::typed_array::bigint_low_bits(&b))
    } else {
        Raw::Number(rt.to_number(arg(args, 2))?)
    };
    // 8-9. q = ? ToNumber(timeout); NaN waits forever, negative values not at all.
    let q = rt.to_number(arg(args, 3))?;
    let timeout = if q.is_nan() { f64::INFINITY } else { q.max(0.0) };
    Ok(WaitRequest {
        block: a.shared.expect("a shared buffer"),
        at: a.at,
        size: a.kind.size(),
        expected: bits_of(a.kind, expected),
        timeout,
    })
}

impl WaitRequest {
    /// The address of the element (its waiter list's key).
    fn address(&self) -> usize {
        self.block.address(self.at)
    }

    /// Whether the element still holds the expected value.
    fn still_expected(&self) -> bool {
        self.block.update(self.at, self.size, |_| None) == self.expected
    }

    /// When a wait from now times out (None: never).
    fn deadline(&self) -> Option<Instant> {
        self.timeout.is_finite().then(|| Instant::now() + Duration::from_secs_f64(self.timeout.min(1e12) / 1000.0))
    }
}

/// 25.4.13 Atomics.wait(typedArray, index, value, timeout): DoWait(sync).
fn wait(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let w = wait_request(rt, args, "Atomics.wait")?;
    // 11. If mode is sync and AgentCanSuspend() is false, throw a TypeError exception.
    if !rt.host.options.can_block {
        return Err(rt.throw_type_error("Atomics.wait cannot be called in this context"));
    }
    // 14-18. Under the waiter-list lock: compare, then enlist.
    let lists = WaiterLists::get();
    let waiter = Waiter::new(None);
    if !lists.enlist_if(w.address(), &waiter, || w.still_expected()) {
        return Ok(rt.new_string("not-equal"));
    }
    // 19-21. Suspend until notified or the time is up.
    let notified = waiter.block(w.deadline()) || !lists.remove(w.address(), &waiter);
    Ok(rt.new_string(if notified { "ok" } else { "timed-out" }))
}

/// Atomics.waitAsync(typedArray, index, value, timeout): DoWait(async). `{ async, value }`:
/// "not-equal" or "timed-out" at once, or a promise of "ok" or "timed-out".
fn wait_async(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let w = wait_request(rt, args, "Atomics.waitAsync")?;
    let lists = WaiterLists::get();
    let waiter = Waiter::new(Some(rt.host.doorbell.clone()));
    let mut immediate = None;
    let enlisted = lists.enlist_if(w.address(), &waiter, || {
        if !w.still_expected() {
            immediate = Some("not-equal");
            return false;
        }
        if w.timeout == 0.0 {
            immediate = Some("timed-out");
            return false;
        }
        true
    });
    let (is_async, value) = if enlisted {
        let promise = rt.new_promise();
        rt.host.async_waits.push(AsyncWait { waiter, address: w.address(), deadline: w.deadline() });
        rt.roots.waits.push(Value::object(promise));
        (true, Value::object(promise))
    } else {
        (false, rt.new_string(immediate.unwrap_or("not-equal")))
    };
    rt.root(value);
    let op = rt.intrinsic(crate::runtime::Intrinsic::ObjectPrototype);
    let result = rt.new_object(op);
    let (ak, vk) = (rt.key("async"), rt.key("value"));
    rt.create_data_property_or_throw(result, ak, Value::boolean(is_async))?;
    rt.create_data_property_or_throw(result, vk, value)?;
    Ok(Value::object(result))
}

/// The event loop's part of `waitAsync`: resolves the promises of the pending waits that
/// were notified or timed out; with `block`, first waits (in short slices that poll the
/// interrupt) until there is one.
pub(crate) fn settle_async_waits(rt: &mut Runtime, block: bool) -> JsResult<()> {
    loop {
        let now = Instant::now();
        let mut settled = false;
        let mut i = 0;
        while i < rt.host.async_waits.len() {
            let w = &rt.host.async_waits[i];
            let outcome = if w.waiter.is_woken() {
                Some("ok")
            } else if w.deadline.is_some_and(|d| now >= d) {
                // Timed out, unless a notify took it off its list meanwhile.
                Some(if WaiterLists::get().remove(w.address, &w.waiter) { "timed-out" } else { "ok" })
            } else {
                None
            };
            match outcome {
                Some(result) => {
                    rt.host.async_waits.swap_remove(i);
                    let promise = rt.roots.waits.swap_remove(i);
                    rt.root(promise);
                    let v = rt.new_string(result);
                    rt.resolve_promise(promise.gc(), v);
                    settled = true;
                }
                None => i += 1,
            }
        }
        if settled || !block || rt.host.async_waits.is_empty() {
            return Ok(());
        }
        rt.poll_interrupt()?;
        let next = rt.host.async_waits.iter().filter_map(|w| w.deadline).min();
        let slice = Duration::from_millis(10);
        let wait = next.map_or(slice, |d| d.saturating_duration_since(Instant::now()).min(slice));
        rt.host.doorbell.wait(wait);
    }
}

/// 25.4.12 Atomics.notify(typedArray, index, count): the number of waiters woken.
fn notify(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let (ta, len) = validate_integer(rt, arg(args, 0), true, "Atomics.notify")?;
    let a = validate_access(rt, ta, len, arg(args, 1))?;
    // 3-4. The count: all when undefined, at least 0.
    let count = arg(args, 2);
    let c = if count.is_undefined() { f64::INFINITY } else { rt.to_integer_or_infinity(count)?.max(0.0) };
    // 6. A buffer no other agent shares has no waiters.
    let Some(block) = a.shared else { return Ok(Value::number(0.0)) };
    let n = WaiterLists::get().notify(block.address(a.at), c);
    Ok(Value::number(n as f64))
}
