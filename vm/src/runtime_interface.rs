//! The runtime interface of the native tier: everything JIT code may know of the VM.
//!
//! Compiled code reads a few things directly (value tags, an object's shape, its slots and
//! elements, an array's length, the registers of a frame) and asks the runtime for the
//! rest through helper functions. Both are listed here and nowhere else, so that a change of
//! layout is a change of this module, and `native` depends on no other part of `vm`.
//!
//! ```text
//!   JIT code ──loads at layout::*──▶ cells, register stack
//!            ──calls HELPERS[i]─────▶ Runtime (may allocate, run JS, throw)
//! ```
//!
//! Every helper takes the runtime first and reports a throw as `Err(Exception)` with the
//! value pending in the runtime, as every runtime function does. Compiled code calls each
//! through its `entry`, one C-ABI function per helper that unpacks the operands from an
//! array of value bits (`NativeEntry`); the table of entries, indexed like `HELPERS`, is what
//! the native tier's context points at. A helper may reach a safepoint (and so a collection):
//! compiled code keeps its live values in the frame's registers across such calls, where the
//! collector finds them.

use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::gc::CellHeader;
use crate::object::array::JsArray;
use crate::object::{JsObject, Key, ValueVec};
use crate::runtime::frame::Frame;
use crate::runtime::{JsError, JsResult, Runtime};
use crate::value::{self, Value};

/// Byte offsets and bit patterns that compiled code may rely on.
pub mod layout {
    use std::mem::offset_of;

    use super::*;
    #[cfg(feature = "jit")]
    use crate::code::compiled::JitState;
    use crate::gc::Heap;
    use crate::runtime::frame::CallStack;

    /// A `Value` is 8 bytes; a double is stored as itself.
    pub const VALUE_SIZE: usize = size_of::<Value>();
    /// The top 16 bits of a boxed value are its tag (shift right by this).
    pub const TAG_SHIFT: u32 = value::TAG_SHIFT;
    /// The low 48 bits of a boxed value: a cell address or a special value's number.
    pub const PAYLOAD_MASK: u64 = value::PAYLOAD_MASK;
    /// The first tag that is not a double: `bits >> TAG_SHIFT >= FIRST_TAG` is "not a number".
    pub const FIRST_TAG: u64 = value::FIRST_TAG;
    /// Tag of undefined, null, the booleans and the empty marker.
    pub const TAG_SPECIAL: u64 = value::TAG_SPECIAL;
    /// Tag of an object (payload: the address of a cell with an object kind).
    pub const TAG_OBJECT: u64 = value::TAG_OBJECT;
    /// Tag of a string (payload: a String or Rope cell).
    pub const TAG_STRING: u64 = value::TAG_STRING;
    /// Tag of a symbol.
    pub const TAG_SYMBOL: u64 = value::TAG_SYMBOL;
    /// Tag of a BigInt.
    pub const TAG_BIGINT: u64 = value::TAG_BIGINT;
    /// Tag of an internal cell (environment, accessor pair, ...).
    pub const TAG_CELL: u64 = value::TAG_CELL;
    /// The one NaN that arithmetic results are stored as.
    pub const CANONICAL_NAN: u64 = value::CANONICAL_NAN;
    /// `undefined`.
    pub const UNDEFINED: u64 = Value::UNDEFINED.bits();
    /// `null`.
    pub const NULL: u64 = Value::NULL.bits();
    /// `false`; `true` is `FALSE + 1`.
    pub const FALSE: u64 = Value::FALSE.bits();
    /// `true`.
    pub const TRUE: u64 = Value::TRUE.bits();
    /// The "uninitialized binding" marker (and an array hole).
    pub const EMPTY: u64 = Value::EMPTY.bits();

    /// The cell kind byte (`CellKind as u8`) of every cell, at its start.
    pub const CELL_KIND: usize = offset_of!(CellHeader, kind);
    /// The collector's mark byte of every cell: 1 or 2 for an old cell that is not in the
    /// remembered set (see `gc::heap`), which the write barrier tests.
    pub const CELL_MARK: usize = offset_of!(CellHeader, mark);
    /// The environment cell kind byte.
    pub const ENVIRONMENT_KIND: u8 = crate::gc::CellKind::Environment as u8;
    /// The array cell kind byte.
    pub const ARRAY_KIND: u8 = crate::gc::CellKind::Array as u8;
    /// The closure cell kind byte, and a closure's function (a `FunctionInfo` pointer).
    pub const CLOSURE_KIND: u8 = crate::gc::CellKind::Closure as u8;
    pub const CLOSURE_FUNC: usize = offset_of!(crate::runtime::function::Closure, func);
    /// An environment's slot count (u32).
    pub const ENVIRONMENT_SIZE: usize = offset_of!(CellHeader, aux32);
    /// An environment's first slot (its slots follow the cell).
    pub const ENVIRONMENT_SLOTS: usize = Heap::trailing_offset::<crate::object::Environment, Value>();
    /// A cell's flags byte; for an object, `EXTENSIBLE` and `IS_PROTOTYPE` bits.
    pub const CELL_FLAGS: usize = offset_of!(CellHeader, flags);
    pub const EXTENSIBLE: u8 = crate::object::EXTENSIBLE;
    pub const IS_PROTOTYPE: u8 = crate::object::IS_PROTOTYPE;
    /// A dictionary-mode shape's version (u32; inline caches of its properties check it).
    pub const SHAPE_DICT_VERSION: usize = offset_of!(crate::object::Shape, dict_version);
    /// An object's inline slot capacity (a byte in its header).
    pub const OBJECT_INLINE_CAPACITY: usize = offset_of!(CellHeader, aux8);
    /// An object's shape pointer (a shape guard compares it).
    pub const OBJECT_SHAPE: usize = offset_of!(JsObject, shape);
    /// An object's out-of-line slot vector (a `ValueVec` pointer or null).
    pub const OBJECT_SLOTS: usize = offset_of!(JsObject, slots);
    /// An object's element vector (a `ValueVec` pointer or null).
    pub const OBJECT_ELEMENTS: usize = offset_of!(JsObject, elements);
    /// A slot location from an inline cache (`Shape::slot_location`) with this bit set is an
    /// index into the out-of-line vector; without it, the byte offset of an inline slot in
    /// the object cell.
    pub const SLOT_OUT_OF_LINE: u32 = crate::object::OUT_OF_LINE;
    /// An array's `length` (u32).
    pub const ARRAY_LENGTH: usize = offset_of!(JsArray, length);
    /// The number of values in a `ValueVec` (u32); the dense elements of an array.
    pub const VALUE_VEC_LEN: usize = offset_of!(ValueVec, len);
    /// The first value of a `ValueVec`.
    pub const VALUE_VEC_DATA: usize = Heap::trailing_offset::<ValueVec, Value>();

    /// Stack index of register 0 of a frame (u32): its registers are
    /// `stack[base..base + frame_size]` on the register stack, 8 bytes each.
    pub const FRAME_BASE: usize = offset_of!(Frame, base);
    /// Stack index of a frame's `this` argument (u32); the arguments follow it.
    pub const FRAME_ARGS: usize = offset_of!(Frame, args);
    /// Arguments passed to a frame, `this` included (u32).
    pub const FRAME_ARGC: usize = offset_of!(Frame, argc);
    /// The bytecode offset a frame resumes at (u32): an exit stores it before returning to
    /// the interpreter.
    pub const FRAME_IP: usize = offset_of!(Frame, ip);

    /// The runtime's register stack and frame stack (`FixedStack`s: their first value's
    /// address at `FIXED_STACK_PTR`, their length at `FIXED_STACK_LEN`), and the limits of
    /// each (usize), for calls that push frames themselves.
    pub const RUNTIME_STACK: usize = offset_of!(Runtime, calls) + offset_of!(CallStack, stack);
    pub const RUNTIME_FRAMES: usize = offset_of!(Runtime, calls) + offset_of!(CallStack, frames);
    pub const FIXED_STACK_PTR: usize = crate::runtime::frame::FIXED_STACK_PTR;
    pub const FIXED_STACK_LEN: usize = crate::runtime::frame::FIXED_STACK_LEN;
    pub const RUNTIME_STACK_LIMIT: usize = offset_of!(Runtime, calls) + offset_of!(CallStack, stack_limit);
    pub const RUNTIME_MAX_DEPTH: usize = offset_of!(Runtime, calls) + offset_of!(CallStack, max_depth);
    /// The lowest machine stack address calls may reach (usize).
    pub const RUNTIME_STACK_GUARD: usize = offset_of!(Runtime, calls) + offset_of!(CallStack, stack_guard);
    /// A pointer to the interrupt flag (a byte, non-zero when set).
    pub const RUNTIME_INTERRUPT: usize = offset_of!(Runtime, calls) + offset_of!(CallStack, interrupt);
    /// Whether every safepoint collects (a byte).
    pub const RUNTIME_GC_STRESS: usize = offset_of!(Runtime, host) + offset_of!(crate::runtime::Host, gc_stress);
    /// The current realm (u32).
    pub const RUNTIME_REALM: usize = offset_of!(Runtime, realm);
    /// A function's record for direct calls from compiled code (`Direct`).
    #[cfg(feature = "jit")]
    pub const DIRECT: usize = offset_of!(crate::code::FunctionInfo, jit) + offset_of!(JitState, direct);
}

/// The signature of a helper, one variant per calling convention the native tier wraps.
///
/// # Safety
/// Every helper reads the cells its operands point to, so a caller must pass only values
/// that are live: made by the same runtime and, if they hold a pointer, reachable from its
/// roots since its last safepoint (compiled code keeps its values in the frame's
/// registers, which are roots). A value that was not rooted across a safepoint may point
/// at a freed cell.
#[derive(Clone, Copy)]
pub enum HelperFn {
    /// `(value) -> value`.
    Unary(unsafe fn(&mut Runtime, Value) -> JsResult<Value>),
    /// `(value, value) -> value`.
    Binary(unsafe fn(&mut Runtime, Value, Value) -> JsResult<Value>),
    /// `(value, value) -> bool`.
    Predicate(unsafe fn(&mut Runtime, Value, Value) -> JsResult<bool>),
    /// `(object, key) -> value`: a property read by key.
    GetByKey(unsafe fn(&mut Runtime, Value, Key) -> JsResult<Value>),
    /// `(object, key, value, strict)`: a property write.
    PutByVal(unsafe fn(&mut Runtime, Value, Value, Value, bool) -> JsResult<()>),
    /// `(value, value, value) -> value`.
    Ternary(unsafe fn(&mut Runtime, Value, Value, Value) -> JsResult<Value>),
    /// `()`: no operands, may throw (an interrupt, the heap limit).
    Poll(unsafe fn(&mut Runtime) -> JsResult<()>),
    /// `(ip, callee, first, argc, new_target) -> value`: a call at instruction `ip` of the
    /// running frame with `argc` registers from `first` (those three are integers, passed as
    /// the operands' bits).
    Call(unsafe fn(&mut Runtime, u32, Value, u32, u32, Value) -> JsResult<Value>),
    /// The same for `new`.
    Construct(unsafe fn(&mut Runtime, u32, Value, u32, u32, Value) -> JsResult<Value>),
}

impl HelperFn {
    /// The number of value operands compiled code passes.
    pub fn arity(self) -> usize {
        match self {
            HelperFn::Poll(_) => 0,
            HelperFn::Unary(_) => 1,
            HelperFn::Binary(_) | HelperFn::Predicate(_) | HelperFn::GetByKey(_) => 2,
            HelperFn::Ternary(_) => 3,
            HelperFn::PutByVal(_) => 4,
            HelperFn::Call(_) | HelperFn::Construct(_) => 5,
        }
    }
}

/// How compiled code calls a helper (the C ABI of the target):
/// `status = entry(runtime, operands, result)`, where `runtime` is the `*mut Runtime` the
/// code was handed, `operands` points at `arity` value bits (a `PutByVal`'s fourth operand,
/// `strict`, is a boolean value), and the result's bits are written to `*result` (a
/// predicate's as `true`/`false`, no result as `undefined`). Status 0: returned; 1: threw,
/// the exception pending in the runtime.
///
/// # Safety
/// `runtime` is a live runtime that nothing else uses during the call, `operands` holds
/// `arity` live values (see `HelperFn`), and `result` is writable.
pub type NativeEntry = unsafe extern "C" fn(runtime: *mut c_void, operands: *const u64, result: *mut u64) -> u32;

/// A runtime function JIT code may call.
#[derive(Clone, Copy)]
pub struct Helper {
    /// The name in MIR dumps (`call_helper @add`).
    pub name: &'static str,
    /// The function and its signature.
    pub f: HelperFn,
    /// Whether it may run JavaScript (getters, `valueOf`, proxies): compiled code must
    /// assume any heap state changed after the call.
    pub calls_js: bool,
    /// Whether it runs no JavaScript, never reaches a safepoint (so never collects) and
    /// does not use the running frame: code may call it with live values outside the
    /// frame, from an inlined callee too (`native::HelperSig::pure`).
    pub pure: bool,
    /// The C-ABI entry compiled code calls.
    pub entry: NativeEntry,
}

/// Calls `f` for a `NativeEntry` (inlined into each entry, where `f` is a constant).
///
/// # Safety
/// As `NativeEntry`.
#[inline(always)]
unsafe fn enter(rt: *mut c_void, operands: *const u64, result: *mut u64, f: HelperFn) -> u32 {
    // SAFETY: the caller hands a live runtime used by nothing else during the call, and
    // `arity` readable operands (`operands` may be anything when there are none).
    let rt = unsafe { &mut *(rt as *mut Runtime) };
    let ops = match f.arity() {
        0 => &[][..],
        // SAFETY: as above.
        n => unsafe { std::slice::from_raw_parts(operands, n) },
    };
    let v = |i: usize| value::from_bits(ops[i]);
    // An integer operand (of `Call` and `Construct`).
    let index = |i: usize| u32::try_from(ops[i]).unwrap_or(u32::MAX);
    // A call of a function with code: straight into it.
    #[cfg(feature = "jit")]
    if let HelperFn::Call(_) = f {
        let fast = catch_unwind(AssertUnwindSafe(|| fast_call(rt, index(0), v(1), index(2), index(3))));
        let outcome = match fast {
            Ok(None) => None,
            Ok(Some(outcome)) => Some(outcome),
            Err(_) => Some(Err(rt.throw_error(crate::runtime::ErrorKind::Error, "internal error in a runtime helper"))),
        };
        if let Some(outcome) = outcome {
            // SAFETY: the caller hands a writable result.
            return unsafe { finish_entry(outcome, result) };
        }
    }
    let outcome = catch_unwind(AssertUnwindSafe(|| -> JsResult<Value> {
        // SAFETY: the operands are live values (the caller's promise, passed on).
        unsafe {
            match f {
                HelperFn::Unary(h) => h(rt, v(0)),
                HelperFn::Binary(h) => h(rt, v(0), v(1)),
                HelperFn::Predicate(h) => h(rt, v(0), v(1)).map(Value::boolean),
                HelperFn::GetByKey(h) => {
                    let key = rt.to_property_key(v(1))?;
                    h(rt, v(0), key)
                }
                HelperFn::PutByVal(h) => h(rt, v(0), v(1), v(2), v(3) == Value::TRUE).map(|()| Value::UNDEFINED),
                HelperFn::Ternary(h) => h(rt, v(0), v(1), v(2)),
                HelperFn::Poll(h) => h(rt).map(|()| Value::UNDEFINED),
                HelperFn::Call(h) | HelperFn::Construct(h) => h(rt, index(0), v(1), index(2), index(3), v(4)),
            }
        }
    }));
    let outcome = match outcome {
        Ok(r) => r,
        // A panic must not unwind into machine code; it becomes a pending error.
        Err(_) => Err(rt.throw_error(crate::runtime::ErrorKind::Error, "internal error in a runtime helper")),
    };
    // SAFETY: the caller hands a writable result.
    unsafe { finish_entry(outcome, result) }
}

/// A helper's outcome as a `NativeEntry` status.
///
/// # Safety
/// `result` is writable.
#[inline(always)]
unsafe fn finish_entry(outcome: JsResult<Value>, result: *mut u64) -> u32 {
    match outcome {
        Ok(value) => {
            // SAFETY: the caller's promise.
            unsafe { *result = value.bits() };
            0
        }
        Err(_) => 1,
    }
}

/// The `call` helper's way for a closure with code: its frame pushed and its code entered
/// here. None: the general way.
#[cfg(feature = "jit")]
#[inline(always)]
fn fast_call(rt: &mut Runtime, ip: u32, f: Value, first: u32, argc: u32) -> Option<JsResult<Value>> {
    if crate::runtime::stack_address() < rt.calls.stack_guard {
        return None;
    }
    let first = call_site(rt, ip, first);
    crate::jit::call_compiled(rt, f, first, argc as usize)
}

/// `CallPath::left`, a helper's entry for the operands `[status, compiled]`: the code of
/// `compiled` (a `Compiled`, from its function's direct-call record) that a direct call
/// entered left the callee's frame (the top one) with `status`; the frame is finished as
/// the interpreter finishes it.
///
/// # Safety
/// As `NativeEntry`; `compiled` is the code that ran for the top frame.
#[cfg(feature = "jit")]
unsafe extern "C" fn call_left(rt: *mut c_void, operands: *const u64, result: *mut u64) -> u32 {
    // SAFETY: the caller's promise: a live runtime, two operands, the code of the top frame
    // (kept as long as its function, which the frame's closure keeps alive).
    let (rt, status, code) = unsafe {
        let ops = std::slice::from_raw_parts(operands, 2);
        (&mut *(rt as *mut Runtime), ops[0], &*(ops[1] as *const crate::code::compiled::Compiled))
    };
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let fi = rt.calls.frames.len() - 1;
        // SAFETY: a function of this runtime's bundles, used while the runtime lives.
        let info = unsafe { crate::code::info_ref(rt.calls.frames[fi].info) };
        let outcome = crate::jit::left(rt, fi, info, code, status);
        crate::jit::finish(rt, fi, Ok(outcome))
    }))
    .unwrap_or_else(|_| Err(rt.throw_error(crate::runtime::ErrorKind::Error, "internal error in a runtime helper")));
    // SAFETY: the caller hands a writable result.
    unsafe { finish_entry(outcome, result) }
}

/// Invokes `$m!` with every helper: `name => function, Signature, calls_js;`.
macro_rules! for_each_helper {
    ($m:ident) => {
        $m! {
            /// `a + b` (13.15.3): numbers, strings, or ToPrimitive first.
            add => Runtime::op_add, Binary, true, false;
            /// Concatenation of two strings (no conversion).
            concat_strings => Runtime::concat_strings, Binary, false, false;
            /// `-v` on a non-number.
            negate => Runtime::op_negate, Unary, true, false;
            /// `~v` on a non-number.
            bit_not => Runtime::op_bit_not, Unary, true, false;
            /// ToNumeric (7.1.3).
            to_numeric => Runtime::to_numeric, Unary, true, false;
            /// ToString (7.1.17), as a string value.
            to_string => Runtime::to_string, Unary, true, false;
            /// `a == b` (7.2.14).
            loose_equals => Runtime::loose_equals, Predicate, true, false;
            /// `v instanceof target` (13.10.2).
            instance_of => Runtime::op_instance_of, Predicate, true, false;
            /// `key in obj` (13.10.1).
            has_property => Runtime::op_in, Predicate, true, false;
            /// GetV(v, key) (7.3.3): any value, primitives through their prototype.
            get_v => Runtime::get_v, GetByKey, true, false;
            /// `obj[key]` with ToPropertyKey, past the inline caches.
            get_by_val => crate::interp::ops::property::get_by_val_slow, Binary, true, false;
            /// `obj[key] = value` with ToPropertyKey, past the inline caches.
            put_by_val => crate::interp::ops::property::put_by_val_slow, PutByVal, true, false;
            /// `obj[key]` when `obj` is a TypedArray of Numbers over a plain buffer and `key` a
            /// valid index: the element; anything else gives the empty marker (the
            /// interpreter runs the access). Pure: reads memory only.
            typed_get => typed_get, Binary, false, true;
            /// `obj[key] = value` in the same case, `value` a Number: true once stored, false
            /// when anything else (the interpreter runs the access). Pure.
            typed_set => typed_set, Ternary, false, true;
            /// A safepoint: collects when the heap budget is spent and checks for interrupts.
            safepoint => Runtime::safepoint, Poll, false, false;
            /// `callee(...)` for the `call` at `ip` of the running frame: compiled callees run
            /// their code right away.
            call => call, Call, true, false;
            /// `callee(...)` for the `call` at `ip` whose last argument is the frame's
            /// arguments object, which compiled code did not make: `f.apply(x, arguments)`
            /// calls `f` with the frame's arguments; any other callee gets the object.
            call_forwarding => call_forwarding, Call, true, false;
            /// `new callee(...)` for the `construct` at `ip` of the running frame.
            construct => construct, Construct, true, false;
            /// Runs instruction `ip` (a number) of the running frame as the interpreter does,
            /// its operands and results in the frame's registers; gives a comparison's or a
            /// conditional jump's outcome as a boolean (see `interp::step`).
            exec => exec, Unary, true, false;
            /// The object `new f(...)` makes as `this` for `f`, a closure of a base
            /// constructor, of the root shape given (as a cell value) if its prototype is
            /// `f.prototype`; else, or when the heap is due for a collection (which
            /// compiled code leaves for), undefined. Pure: allocates without collecting.
            create_this => create_this, Binary, false, true;
            /// The write barrier's slow path: puts the cell (a cell value) compiled code
            /// stored into in the remembered set; compiled code calls it when the cell's mark
            /// says old and not remembered (`layout::CELL_MARK`). Pure.
            write_barrier => write_barrier, Unary, false, true;
        }
    };
}

macro_rules! define_helpers {
    ($($(#[$doc:meta])* $name:ident => $f:path, $sig:ident, $calls_js:literal, $pure:literal;)*) => {
        /// Every helper, by name. The index is the helper's number in compiled code.
        pub static HELPERS: &[Helper] = &[
            $( Helper {
                name: stringify!($name),
                f: HelperFn::$sig($f),
                calls_js: $calls_js,
                pure: $pure,
                entry: {
                    unsafe extern "C" fn entry(rt: *mut c_void, operands: *const u64, result: *mut u64) -> u32 {
                        // SAFETY: `NativeEntry`'s contract is this function's.
                        unsafe { enter(rt, operands, result, HelperFn::$sig($f)) }
                    }
                    entry
                },
            }, )*
        ];
    };
}

for_each_helper!(define_helpers);

/// The `exec` helper: instruction `ip` of the running frame.
fn exec(rt: &mut Runtime, ip: Value) -> JsResult<Value> {
    let ip = ip.as_number().map_or(u32::MAX, |n| n as u32);
    crate::interp::step::step(rt, ip)
}

/// The `call` helper: the plain call at instruction `ip` of the running frame of `f` with
/// the `argc` registers from register `first` (`this` first). (Compiled callees are
/// entered by `fast_call` before this.)
fn call(rt: &mut Runtime, ip: u32, f: Value, first: u32, argc: u32, _new_target: Value) -> JsResult<Value> {
    let first = call_site(rt, ip, first);
    crate::interp::step::call(rt, f, first, argc as usize, 0, Value::UNDEFINED, false)
}

/// The `call_forwarding` helper (see the list).
fn call_forwarding(rt: &mut Runtime, ip: u32, f: Value, first: u32, argc: u32, new_target: Value) -> JsResult<Value> {
    let fi = rt.calls.frames.len() - 1;
    let frame = rt.calls.frames[fi];
    let at = frame.base as usize + first as usize;
    if argc == 3 && f == rt.intrinsic(crate::runtime::Intrinsic::FunctionProtoApply) {
        // Function.prototype.apply(target, this, the frame's arguments), as it would run.
        rt.calls.frames[fi].ip = ip;
        let (target, this) = (rt.calls.stack[at], rt.calls.stack[at + 1]);
        if !rt.is_callable(target) {
            return Err(rt.throw_type_error("Function.prototype.apply was called on a non-function"));
        }
        let from = frame.args as usize + 1;
        let args = rt.calls.stack[from..from + frame.argc as usize - 1].to_vec();
        return rt.call(target, this, &args);
    }
    let arguments = crate::interp::ops::call::create_arguments(rt, fi);
    rt.calls.stack[at + argc as usize - 1] = arguments;
    call(rt, ip, f, first, argc, new_target)
}

/// The `construct` helper: as `call`, for `new` with `new_target`.
fn construct(rt: &mut Runtime, ip: u32, f: Value, first: u32, argc: u32, new_target: Value) -> JsResult<Value> {
    let first = call_site(rt, ip, first);
    crate::interp::step::call(rt, f, first, argc as usize, 0, new_target, true)
}

/// The `write_barrier` helper (see its row).
fn write_barrier(rt: &mut Runtime, cell: Value) -> JsResult<Value> {
    rt.heap.remember(cell.gc());
    Ok(Value::UNDEFINED)
}

/// The `typed_get` helper (see its row).
fn typed_get(rt: &mut Runtime, o: Value, k: Value) -> JsResult<Value> {
    Ok(crate::interp::ops::property::typed_element(rt, o, k).unwrap_or(Value::EMPTY))
}

/// The `typed_set` helper (see its row).
fn typed_set(rt: &mut Runtime, o: Value, k: Value, v: Value) -> JsResult<Value> {
    Ok(Value::boolean(crate::interp::ops::property::store_typed_element(rt, o, k, v)))
}

/// The `create_this` helper (see the list): what `construct` makes as `this` for `f`, a
/// closure of a base constructor (`interp::ops::call::start_call`), when its prototype is
/// that of `shape` (a root shape of ordinary objects, as a cell value): an object of that
/// shape. Undefined otherwise, or when the heap is due for a collection. Never reaches a
/// safepoint.
fn create_this(rt: &mut Runtime, f: Value, shape: Value) -> JsResult<Value> {
    use crate::gc::{CellKind, Gc};
    if rt.heap.should_collect() || !f.is_object() || !shape.is_cell() {
        return Ok(Value::UNDEFINED);
    }
    let o: Gc<JsObject> = f.gc();
    let s: Gc<crate::object::Shape> = shape.gc::<crate::gc::CellHeader>().cast();
    if rt.heap.kind_of(o) != CellKind::Closure {
        return Ok(Value::UNDEFINED);
    }
    // SAFETY: a function of this runtime's bundles, used while the runtime lives.
    let info = unsafe { crate::code::info_ref(rt.heap.get(o.cast::<crate::runtime::function::Closure>()).func) };
    let flags = info.flags();
    let root = rt.heap.get(s);
    if !flags.contains(bytecode::FunctionFlags::CONSTRUCTOR)
        || flags.contains(bytecode::FunctionFlags::DERIVED)
        || root.object_kind != CellKind::Object
        || root.property_count() != 0
        || root.is_dictionary()
    {
        return Ok(Value::UNDEFINED);
    }
    // A constructor's `prototype` is a data property of its own that cannot become an
    // accessor (it is not configurable): reading it runs no JavaScript.
    let key = crate::object::Key::Name(rt.names.prototype);
    let proto = match rt.own_lookup(o, key) {
        crate::object::property::Own::Slot(slot, _) => rt.heap.slot(o, slot),
        _ => return Ok(Value::UNDEFINED),
    };
    if proto != rt.heap.get(s).proto {
        return Ok(Value::UNDEFINED);
    }
    Ok(Value::object(rt.new_object_with_shape(s)))
}

/// Records that the running frame is at call instruction `ip` (for stack traces and what
/// the callee throws) and gives the stack index of its register `first`.
#[inline(always)]
fn call_site(rt: &mut Runtime, ip: u32, first: u32) -> usize {
    let fi = rt.calls.frames.len() - 1;
    rt.calls.frames[fi].ip = ip;
    rt.calls.frames[fi].base as usize + first as usize
}

/// The VM as the native tier sees it: its NaN-boxing, object layout and helpers.
#[cfg(feature = "jit")]
pub fn interface() -> &'static native::Interface {
    use native::{HelperSig, Interface, ObjectLayout, ValueLayout};
    static INTERFACE: std::sync::OnceLock<Interface> = std::sync::OnceLock::new();
    INTERFACE.get_or_init(|| {
        use std::mem::offset_of;

        use crate::code::compiled::Direct;
        use layout as l;
        let values = ValueLayout {
            tag_shift: l::TAG_SHIFT,
            payload_mask: l::PAYLOAD_MASK,
            first_tag: l::FIRST_TAG,
            tag_object: l::TAG_OBJECT,
            tag_string: l::TAG_STRING,
            tag_symbol: l::TAG_SYMBOL,
            tag_bigint: l::TAG_BIGINT,
            tag_cell: l::TAG_CELL,
            canonical_nan: l::CANONICAL_NAN,
            undefined: l::UNDEFINED,
            null: l::NULL,
            true_: l::TRUE,
            false_: l::FALSE,
            empty: l::EMPTY,
        };
        let offset = |o: usize| o as i32;
        let objects = ObjectLayout {
            shape: offset(l::OBJECT_SHAPE),
            slots: offset(l::OBJECT_SLOTS),
            elements: offset(l::OBJECT_ELEMENTS),
            array_length: offset(l::ARRAY_LENGTH),
            vec_len: offset(l::VALUE_VEC_LEN),
            vec_data: offset(l::VALUE_VEC_DATA),
            cell_kind: offset(l::CELL_KIND),
            cell_mark: offset(l::CELL_MARK),
            env_kind: l::ENVIRONMENT_KIND,
            array_kind: l::ARRAY_KIND,
            closure_kind: l::CLOSURE_KIND,
            closure_func: offset(l::CLOSURE_FUNC),
            env_size: offset(l::ENVIRONMENT_SIZE),
            env_slots: offset(l::ENVIRONMENT_SLOTS),
            shape_dict_version: offset(l::SHAPE_DICT_VERSION),
            cell_flags: offset(l::CELL_FLAGS),
            extensible: l::EXTENSIBLE,
            is_prototype: l::IS_PROTOTYPE,
        };
        let helpers =
            HELPERS.iter().map(|h| HelperSig { name: h.name.to_string(), arity: h.f.arity(), pure: h.pure }).collect();
        let calls = Some(native::CallPath {
            helper: "call".to_string(),
            left: call_left as NativeEntry as usize,
            stack_ptr: offset(l::RUNTIME_STACK + l::FIXED_STACK_PTR),
            stack_len: offset(l::RUNTIME_STACK + l::FIXED_STACK_LEN),
            stack_limit: offset(l::RUNTIME_STACK_LIMIT),
            frames_ptr: offset(l::RUNTIME_FRAMES + l::FIXED_STACK_PTR),
            frames_len: offset(l::RUNTIME_FRAMES + l::FIXED_STACK_LEN),
            frames_limit: offset(l::RUNTIME_MAX_DEPTH),
            stack_guard: offset(l::RUNTIME_STACK_GUARD),
            interrupt: offset(l::RUNTIME_INTERRUPT),
            gc_stress: offset(l::RUNTIME_GC_STRESS),
            realm: offset(l::RUNTIME_REALM),
            direct_code: offset(l::DIRECT + offset_of!(Direct, code)),
            direct_compiled: offset(l::DIRECT + offset_of!(Direct, compiled)),
            direct_params: offset(l::DIRECT + offset_of!(Direct, params)),
            direct_room: offset(l::DIRECT + offset_of!(Direct, room)),
            direct_frame_size: offset(l::DIRECT + offset_of!(Direct, frame_size)),
            direct_realm: offset(l::DIRECT + offset_of!(Direct, realm)),
            frame_size: offset(size_of::<Frame>()),
            frame_info: offset(offset_of!(Frame, info)),
            frame_closure: offset(offset_of!(Frame, closure)),
            frame_new_target: offset(offset_of!(Frame, new_target)),
            frame_generator: offset(offset_of!(Frame, generator)),
            frame_base: offset(l::FRAME_BASE),
            frame_args: offset(l::FRAME_ARGS),
            frame_argc: offset(l::FRAME_ARGC),
            frame_ip: offset(l::FRAME_IP),
            frame_ret_reg: offset(offset_of!(Frame, ret_reg)),
            frame_flags: offset(offset_of!(Frame, flags)),
            frame_saved_realm: offset(offset_of!(Frame, saved_realm)),
            entry_flags: crate::runtime::frame::ENTRY,
        });
        Interface { values, objects, helpers, calls }
    })
}

/// The helper named `name`.
pub fn helper(name: &str) -> Option<&'static Helper> {
    HELPERS.iter().find(|h| h.name == name)
}

/// Every helper's entry, indexed like `HELPERS`: the table compiled code calls through.
pub fn entries() -> &'static [NativeEntry] {
    static ENTRIES: std::sync::OnceLock<Vec<NativeEntry>> = std::sync::OnceLock::new();
    ENTRIES.get_or_init(|| HELPERS.iter().map(|h| h.entry).collect())
}

/// Runs `source` as a script and gives its completion value's bits, kept alive (rooted) for
/// as long as the runtime lives: operands for compiled code that tools such as
/// `iris mir --run` call outside any JavaScript frame.
pub fn evaluate(rt: &mut Runtime, source: &str) -> Result<u64, JsError> {
    rt.begin_run();
    let v = rt.evaluate(source, "<operand>")?;
    rt.root(v);
    Ok(v.bits())
}

/// What the interpreter recorded for the JIT in every function that has run (see
/// `code::feedback`), one function after another: its entries and loop back-edges, then each
/// instruction with feedback, at its byte pc, with the kinds seen or the call's target.
pub fn feedback_report(rt: &Runtime) -> String {
    use crate::code::feedback::{self, MANY, NONE};
    use std::fmt::Write as _;
    let mut out = String::new();
    let mut name_of: std::collections::HashMap<usize, String> = std::collections::HashMap::new();
    for b in &rt.code.bundles {
        for f in &b.functions {
            let name = if f.id == 0 { "<global>".to_string() } else { f.display_name() };
            name_of.insert(crate::code::FuncRef::new(f).addr(), format!("{name}#{}", f.id));
        }
    }
    for b in &rt.code.bundles {
        for f in &b.functions {
            let Some(code) = f.code_if_decoded() else { continue };
            let fb = &code.feedback;
            let _ = writeln!(
                out,
                "function {}: entries {}, back-edges {}",
                name_of[&crate::code::FuncRef::new(f).addr()],
                f.warm.entries.get(),
                f.warm.back_edges.get()
            );
            for (ip, inst) in code.insts.iter().enumerate() {
                let bits = fb.sites[ip].get();
                if bits == 0 {
                    continue;
                }
                let seen = if crate::code::feedback::is_call(inst) {
                    match fb.calls[bits as usize - 1][0].get() {
                        NONE => "not called".to_string(),
                        MANY => "many targets".to_string(),
                        _ => {
                            let targets = fb.call_targets(ip).unwrap_or_default();
                            let names: Vec<&str> =
                                targets.iter().map(|t| name_of.get(t).map_or("?", String::as_str)).collect();
                            format!("calls {}", names.join(", "))
                        }
                    }
                } else {
                    feedback::describe(bits)
                };
                let _ = writeln!(out, "  @{:<5} {:<40} {seen}", code.pcs[ip], inst.to_string());
            }
        }
    }
    out
}

/// What the JIT compiled while `RuntimeOptions::jit_dump` was set, in order: a heading
/// (function and entry), the MIR after the passes, the machine code.
pub fn jit_dumps(rt: &Runtime) -> &[(String, String, Vec<u8>)] {
    &rt.code.jit_dumps
}

/// The exception a helper left pending when it reported a throw (status 1), described.
pub fn take_exception(rt: &mut Runtime) -> JsError {
    rt.take_js_error()
}

/// A value as node's `util.inspect` shows it (strings quoted).
///
/// # Safety
/// `bits` is a live value of `rt` (made by it and rooted, or not a pointer).
pub unsafe fn display(rt: &mut Runtime, bits: u64) -> String {
    (rt.host.hooks.inspect)(rt, value::from_bits(bits))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::RuntimeOptions;

    /// Reads a `T` at `offset` bytes into the cell of `v`.
    ///
    /// # Safety
    /// `v` must point to a live cell at least `offset + size_of::<T>()` bytes long whose
    /// bytes there hold a valid `T`.
    unsafe fn read<T: Copy>(v: Value, offset: usize) -> T {
        let addr = (v.bits() & layout::PAYLOAD_MASK) as usize;
        // SAFETY: the caller guarantees the cell and the field.
        unsafe { std::ptr::read_unaligned((addr + offset) as *const T) }
    }

    #[test]
    fn value_bits_are_the_documented_ones() {
        assert_eq!(Value::number(1.5).bits(), 1.5f64.to_bits());
        assert!(Value::number(1.5).bits() >> layout::TAG_SHIFT < layout::FIRST_TAG);
        assert_eq!(Value::NAN.bits(), layout::CANONICAL_NAN);
        assert_eq!(layout::UNDEFINED >> layout::TAG_SHIFT, layout::TAG_SPECIAL);
        assert_eq!(layout::TRUE, layout::FALSE + 1);
        let mut rt = Runtime::new(RuntimeOptions::default());
        let o = Value::object(rt.new_object(Value::NULL));
        assert_eq!(o.bits() >> layout::TAG_SHIFT, layout::TAG_OBJECT);
        let s = rt.number_to_string(42.0);
        assert_eq!(s.bits() >> layout::TAG_SHIFT, layout::TAG_STRING);
    }

    #[test]
    fn offsets_match_the_objects_the_heap_builds() {
        let mut rt = Runtime::new(RuntimeOptions::default());
        let arr = rt.new_array_from(&[Value::number(7.0), Value::TRUE, Value::NULL]);
        let a = Value::object(arr);
        // SAFETY: `a` is a live Array cell (JsArray layout); nothing collects in this test.
        unsafe {
            assert_eq!(read::<u8>(a, layout::CELL_KIND), crate::gc::CellKind::Array as u8);
            assert_eq!(read::<u32>(a, layout::ARRAY_LENGTH), 3);
            assert_eq!(read::<usize>(a, layout::OBJECT_SHAPE), rt.heap.get(arr).shape.addr());
            let elements: usize = read(a, layout::OBJECT_ELEMENTS);
            assert_ne!(elements, 0);
            let ev = crate::value::from_bits(elements as u64);
            assert_eq!(read::<u32>(ev, layout::VALUE_VEC_LEN), 3);
            assert_eq!(read::<u64>(ev, layout::VALUE_VEC_DATA), Value::number(7.0).bits());
            assert_eq!(read::<u64>(ev, layout::VALUE_VEC_DATA + 8), layout::TRUE);
            assert_eq!(read::<u64>(ev, layout::VALUE_VEC_DATA + 16), layout::NULL);
        }

        // A named property in an inline slot, found through the slot location an inline
        // cache would hold.
        let obj = rt.new_object(Value::NULL);
        let key = rt.key("x");
        rt.create_data_property(obj, key, Value::number(3.25)).unwrap();
        let o = Value::object(obj);
        let crate::object::property::Own::Slot(slot, _) = rt.own_lookup(obj, key) else { panic!("x is a named slot") };
        let loc = rt.heap.slot_location(obj, slot);
        assert_eq!(loc & layout::SLOT_OUT_OF_LINE, 0, "a fresh object keeps its first property inline");
        // SAFETY: `o` is a live object cell and `loc` the byte offset of its initialized slot.
        unsafe {
            assert!(read::<u8>(o, layout::OBJECT_INLINE_CAPACITY) > 0);
            assert_eq!(read::<u64>(o, loc as usize), Value::number(3.25).bits());
            assert_eq!(read::<usize>(o, layout::OBJECT_SLOTS), 0, "no out-of-line slots yet");
        }
    }

    #[test]
    fn frame_offsets_address_the_frame_fields() {
        let f = std::mem::MaybeUninit::<Frame>::uninit();
        let base = f.as_ptr() as usize;
        // SAFETY: only field addresses are taken, nothing is read.
        let (b, ip) = unsafe { (std::ptr::addr_of!((*f.as_ptr()).base), std::ptr::addr_of!((*f.as_ptr()).ip)) };
        assert_eq!(b as usize - base, layout::FRAME_BASE);
        assert_eq!(ip as usize - base, layout::FRAME_IP);
    }

    #[test]
    fn call_stack_offsets_address_the_runtime_fields() {
        let mut rt =
            Runtime::new(RuntimeOptions { max_stack_depth: 123, gc_stress: true, ..RuntimeOptions::default() });
        rt.calls.stack.extend_from_slice(&[Value::TRUE; 5]);
        rt.realm = 7;
        let at = &rt as *const Runtime as usize;
        // SAFETY: reads of fields of a live runtime at the offsets under test, each of the
        // field's type.
        let read = |offset: usize| unsafe { ((at + offset) as *const usize).read() };
        assert_eq!(read(layout::RUNTIME_STACK + layout::FIXED_STACK_LEN), 5);
        assert_eq!(read(layout::RUNTIME_STACK + layout::FIXED_STACK_PTR), rt.calls.stack.as_ptr() as usize);
        assert_eq!(read(layout::RUNTIME_STACK_LIMIT), rt.calls.stack_limit);
        assert_eq!(read(layout::RUNTIME_FRAMES + layout::FIXED_STACK_LEN), rt.calls.frames.len());
        assert_eq!(read(layout::RUNTIME_FRAMES + layout::FIXED_STACK_PTR), rt.calls.frames.as_ptr() as usize);
        assert_eq!(read(layout::RUNTIME_MAX_DEPTH), 123);
        assert_eq!(read(layout::RUNTIME_STACK_GUARD), rt.calls.stack_guard);
        assert_eq!(read(layout::RUNTIME_INTERRUPT), std::sync::Arc::as_ptr(&rt.host.interrupt) as usize);
        // SAFETY: as above, for the u32 realm and the bool flag.
        unsafe {
            assert_eq!(((at + layout::RUNTIME_REALM) as *const u32).read(), 7);
            assert_eq!(((at + layout::RUNTIME_GC_STRESS) as *const u8).read(), 1);
        }
    }

    #[test]
    fn helpers_are_unique_and_callable() {
        for (i, h) in HELPERS.iter().enumerate() {
            assert!(HELPERS[..i].iter().all(|o| o.name != h.name), "{} listed twice", h.name);
        }
        let mut rt = Runtime::new(RuntimeOptions::default());
        let Some(Helper { f: HelperFn::Binary(add), .. }) = helper("add") else { panic!("add is a binary helper") };
        // SAFETY: numbers point at nothing.
        let three = unsafe { add(&mut rt, Value::number(1.0), Value::number(2.0)) }.unwrap();
        assert_eq!(three.as_number(), Some(3.0));
        let Some(Helper { f: HelperFn::Predicate(eq), .. }) = helper("loose_equals") else { panic!() };
        let one = rt.number_to_string(1.0);
        // SAFETY: `one` was made just now, with no safepoint since.
        assert!(unsafe { eq(&mut rt, one, Value::number(1.0)) }.unwrap());
        let Some(Helper { f: HelperFn::Poll(poll), .. }) = helper("safepoint") else { panic!() };
        // SAFETY: no operands.
        unsafe { poll(&mut rt) }.unwrap();
        assert!(helper("no_such_helper").is_none());
    }

    #[test]
    fn entries_unpack_operands_and_report_throws() {
        let mut rt = Runtime::new(RuntimeOptions::default());
        let rtp = &mut rt as *mut Runtime as *mut c_void;
        let index = |name: &str| HELPERS.iter().position(|h| h.name == name).unwrap();
        let mut out = 0u64;
        let ops = [Value::number(1.5).bits(), Value::number(2.0).bits()];
        // SAFETY: a live runtime, two number operands, a writable result.
        assert_eq!(unsafe { entries()[index("add")](rtp, ops.as_ptr(), &mut out) }, 0);
        assert_eq!(out, Value::number(3.5).bits());
        // SAFETY: as above.
        assert_eq!(unsafe { entries()[index("loose_equals")](rtp, ops.as_ptr(), &mut out) }, 0);
        assert_eq!(out, layout::FALSE, "a predicate's result is a boolean value");
        // `1 instanceof 2` throws a TypeError: status 1, the exception pending.
        // SAFETY: as above.
        assert_eq!(unsafe { entries()[index("instance_of")](rtp, ops.as_ptr(), &mut out) }, 1);
        assert_eq!(take_exception(&mut rt).name, "TypeError");
        // SAFETY: no operands.
        assert_eq!(unsafe { entries()[index("safepoint")](rtp, std::ptr::null(), &mut out) }, 0);
        assert_eq!(out, layout::UNDEFINED);
    }
}
