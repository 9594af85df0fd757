//! The C API of Iris (`include/iris.h`, which says who owns what): a runtime, values held
//! through handles, evaluation, properties, calls, host functions with user data,
//! exceptions, jobs, limits, interrupts and collection, over the `iris` crate.
//!
//! ```text
//!  C ── iris_* (extern "C") ── entry(): null and busy checks, catch_unwind ──▶ iris::Runtime
//!  IrisRuntime { the Runtime (owned, or the one a host function is given), busy, last error }
//!  IrisValue = iris::JsValue, boxed; host functions see JsValues as IrisValue pointers
//! ```
//!
//! Soundness: no panic crosses into C (each function catches it and reports
//! `IRIS_INTERNAL_ERROR`); the runtime is reached through a raw pointer that one call at a
//! time turns into `&mut` (a runtime in use is `busy`: its host functions are given a
//! borrowed `IrisRuntime` of their own, and a call on the busy one is refused), and
//! everything else of an `IrisRuntime` is behind `Cell`/`RefCell`, so C holding several
//! pointers to it never makes two `&mut`s.

use std::cell::{Cell, RefCell};
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::{self, NonNull};

use iris::{InterruptHandle, JsError, JsType, JsValue, Runtime};

/// `IrisStatus`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IrisStatus {
    /// Success.
    Ok = 0,
    /// JavaScript threw; `iris_exception_*` describe it.
    Exception = 1,
    /// A misuse of the API (see iris.h).
    InvalidArgument = 2,
    /// A bug in Iris, caught before it reached C.
    InternalError = 3,
}

/// `IrisType`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IrisType {
    /// `undefined`
    Undefined = 0,
    /// `null`
    Null = 1,
    /// A boolean.
    Boolean = 2,
    /// A number.
    Number = 3,
    /// A string.
    String = 4,
    /// A symbol.
    Symbol = 5,
    /// A BigInt.
    BigInt = 6,
    /// An object that is not callable.
    Object = 7,
    /// A callable object.
    Function = 8,
}

/// `IrisOptions`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct IrisOptions {
    /// Bytes JavaScript values may take.
    pub heap_limit: usize,
    /// JavaScript calls under way at once.
    pub stack_limit: u32,
    /// Milliseconds each call into the runtime may run (0: no limit).
    pub time_limit_ms: u32,
    /// Nonzero: the JIT compiles hot functions.
    pub jit: c_int,
}

/// `IrisRuntime`: a runtime, or (given to a host function) the runtime it runs on.
pub struct IrisRuntime {
    rt: NonNull<Runtime>,
    /// Whether `rt` was made by `iris_runtime_new` (and is freed by `iris_runtime_free`).
    owned: bool,
    /// A call on it is under way.
    busy: Cell<bool>,
    /// The last exception, as C strings (none yet: a host function's `IrisRuntime` is
    /// made for each call, and allocates nothing until it must).
    error: RefCell<Option<ErrorText>>,
    /// In a host function: the error `iris_throw_error` set for it to throw.
    throw: RefCell<Option<JsError>>,
}

struct ErrorText {
    name: CString,
    message: CString,
    stack: CString,
    interrupted: bool,
}

/// `IrisValue`: a handle on a JavaScript value.
#[repr(transparent)]
pub struct IrisValue(JsValue);

/// `IrisInterrupt`.
pub struct IrisInterrupt(InterruptHandle);

/// A C string of `s`, NULs replaced (a JavaScript message may hold them).
fn c_string(s: &str) -> CString {
    CString::new(s.replace('\0', "\u{FFFD}")).unwrap_or_default()
}

/// A UTF-8 string C gave, `len` bytes at `p`.
///
/// # Safety
/// `p` points at `len` readable bytes (or is NULL).
unsafe fn str_of<'a>(p: *const c_char, len: usize) -> Option<&'a str> {
    if p.is_null() {
        return None;
    }
    // SAFETY: the caller promises `len` readable bytes at `p`.
    let bytes = unsafe { std::slice::from_raw_parts(p.cast::<u8>(), len) };
    std::str::from_utf8(bytes).ok()
}

/// A NUL-terminated UTF-8 string C gave.
///
/// # Safety
/// `p` is NULL or points at a NUL-terminated string.
unsafe fn cstr_of<'a>(p: *const c_char) -> Option<&'a str> {
    if p.is_null() {
        return None;
    }
    // SAFETY: the caller promises a NUL-terminated string.
    unsafe { CStr::from_ptr(p) }.to_str().ok()
}

/// The value behind a handle C gave, if it is one and `rt` may take it.
///
/// # Safety
/// `v` is NULL or a live `IrisValue` pointer.
unsafe fn value_of<'a>(v: *const IrisValue, rt: &Runtime) -> Option<&'a JsValue> {
    // SAFETY: the caller promises a live handle or NULL.
    let v = unsafe { v.as_ref() }?;
    v.0.belongs_to(rt).then_some(&v.0)
}

fn boxed(v: JsValue) -> *mut IrisValue {
    Box::into_raw(Box::new(IrisValue(v)))
}

/// Writes `v` to `out` if it is not NULL.
///
/// # Safety
/// `out` is NULL or writable.
unsafe fn put(out: *mut *mut IrisValue, v: JsValue) {
    if !out.is_null() {
        // SAFETY: the caller promises a writable pointer.
        unsafe { *out = boxed(v) };
    }
}

/// Runs `f` on the runtime behind `rt` as one call: refused (`None`) if `rt` is NULL or a
/// call on it is under way; a panic is caught (`Err`).
///
/// # Safety
/// `rt` is NULL or a live `IrisRuntime` pointer.
unsafe fn entry<T>(rt: *mut IrisRuntime, f: impl FnOnce(&IrisRuntime, &mut Runtime) -> T) -> Option<Result<T, ()>> {
    // SAFETY: the caller promises a live pointer or NULL; only shared references to an
    // `IrisRuntime` are made.
    let ir = unsafe { rt.as_ref() }?;
    if ir.busy.replace(true) {
        return None;
    }
    // SAFETY: `rt.rt` is the runtime this `IrisRuntime` was made for, alive while it is
    // (owned: until `iris_runtime_free`; borrowed: for the host function's call, which
    // outlives this one). `busy` makes this the one `&mut` to it made through `ir`; a
    // host function called meanwhile gets an `IrisRuntime` of its own, made from the
    // `&mut` the runtime gives it.
    let runtime = unsafe { &mut *ir.rt.as_ptr() };
    let r = catch_unwind(AssertUnwindSafe(|| f(ir, runtime)));
    ir.busy.set(false);
    Some(r.map_err(|_| ()))
}

/// A status from the result of `entry` whose work gave a `Result<(), JsError>`, recording
/// the error.
fn status(ir: Option<&IrisRuntime>, r: Option<Result<Result<(), JsError>, ()>>) -> IrisStatus {
    match r {
        None => IrisStatus::InvalidArgument,
        Some(Err(())) => IrisStatus::InternalError,
        Some(Ok(Ok(()))) => IrisStatus::Ok,
        Some(Ok(Err(e))) => {
            if let Some(ir) = ir {
                ir.record(&e);
            }
            if e.name == INVALID {
                IrisStatus::InvalidArgument
            } else {
                IrisStatus::Exception
            }
        }
    }
}

/// The name of the error a misuse is reported with (never a JavaScript error's name).
const INVALID: &str = "\0invalid";

fn invalid(what: &str) -> JsError {
    let mut e = JsError::new(INVALID, what);
    e.stack = String::new();
    e
}

impl IrisRuntime {
    fn record(&self, e: &JsError) {
        let name = if e.name == INVALID { "InvalidArgument" } else { &e.name };
        *self.error.borrow_mut() = Some(ErrorText {
            name: c_string(name),
            message: c_string(&e.message),
            stack: c_string(&e.stack),
            interrupted: e.interrupted,
        });
    }

    /// `field` of the last exception, "" if there was none.
    fn error_field(&self, field: impl Fn(&ErrorText) -> &CStr) -> *const c_char {
        self.error.borrow().as_ref().map_or(c"".as_ptr(), |e| field(e).as_ptr())
    }
}

/// # Safety
/// `rt` is NULL or a live `IrisRuntime` pointer.
unsafe fn runtime_ref<'a>(rt: *mut IrisRuntime) -> Option<&'a IrisRuntime> {
    // SAFETY: as the caller promises.
    unsafe { rt.as_ref() }
}

/// Fills `options` with the defaults.
///
/// # Safety
/// `options` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn iris_options_default(options: *mut IrisOptions) {
    let d = iris::Options::default();
    if !options.is_null() {
        let o = IrisOptions {
            heap_limit: d.heap_limit,
            stack_limit: d.stack_limit.min(u32::MAX as usize) as u32,
            time_limit_ms: 0,
            jit: c_int::from(d.jit_threshold.is_some()),
        };
        // SAFETY: the caller promises a writable pointer.
        unsafe { options.write(o) };
    }
}

/// A new runtime.
///
/// # Safety
/// `options` is NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn iris_runtime_new(options: *const IrisOptions) -> *mut IrisRuntime {
    // SAFETY: the caller promises a readable pointer or NULL.
    let Some(o) = (unsafe { options.as_ref() }).copied() else { return ptr::null_mut() };
    let made = catch_unwind(|| {
        let d = iris::Options::default();
        let rt = iris::Options {
            heap_limit: if o.heap_limit == 0 { d.heap_limit } else { o.heap_limit },
            stack_limit: if o.stack_limit == 0 { d.stack_limit } else { o.stack_limit as usize },
            jit_threshold: if o.jit != 0 { d.jit_threshold } else { None },
            time_limit: (o.time_limit_ms > 0).then(|| std::time::Duration::from_millis(o.time_limit_ms.into())),
            ..d
        }
        .build();
        Box::new(IrisRuntime {
            rt: NonNull::from(Box::leak(Box::new(rt))),
            owned: true,
            busy: Cell::new(false),
            error: RefCell::default(),
            throw: RefCell::new(None),
        })
    });
    made.map_or(ptr::null_mut(), Box::into_raw)
}

/// Frees a runtime.
///
/// # Safety
/// `rt` is NULL or a pointer `iris_runtime_new` returned, not freed yet, not in use.
#[no_mangle]
pub unsafe extern "C" fn iris_runtime_free(rt: *mut IrisRuntime) {
    // SAFETY: as the caller promises.
    let Some(ir) = (unsafe { rt.as_ref() }) else { return };
    if !ir.owned || ir.busy.get() {
        return;
    }
    // SAFETY: made by `iris_runtime_new` with `Box::into_raw`; the caller gives it up.
    let ir = unsafe { Box::from_raw(rt) };
    // SAFETY: `owned`: the runtime was leaked from a box by `iris_runtime_new`.
    let runtime = unsafe { Box::from_raw(ir.rt.as_ptr()) };
    let _ = catch_unwind(AssertUnwindSafe(|| drop(runtime)));
}

/// Runs source text as a script.
///
/// # Safety
/// Pointers as iris.h says: `rt` live, `source` `len` bytes, `file_name` a C string,
/// `result` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn iris_eval(
    rt: *mut IrisRuntime,
    source: *const c_char,
    len: usize,
    file_name: *const c_char,
    result: *mut *mut IrisValue,
) -> IrisStatus {
    // SAFETY: as the caller promises.
    let (source, name) = unsafe { (str_of(source, len), cstr_of(file_name)) };
    // SAFETY: `rt` is live or NULL.
    let r = unsafe {
        entry(rt, |_, runtime| {
            let (Some(source), Some(name)) = (source, name) else {
                return Err(invalid("iris_eval: source and file name must be UTF-8"));
            };
            let v = runtime.eval(source, name)?;
            // SAFETY: `result` is NULL or writable.
            put(result, v);
            Ok(())
        })
    };
    // SAFETY: `rt` is live or NULL.
    status(unsafe { runtime_ref(rt) }, r)
}

/// Verifies and runs a bundle.
///
/// # Safety
/// `rt` live, `bytes` `len` readable bytes, `result` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn iris_eval_bundle(
    rt: *mut IrisRuntime,
    bytes: *const u8,
    len: usize,
    result: *mut *mut IrisValue,
) -> IrisStatus {
    // SAFETY: as the caller promises.
    let r = unsafe {
        entry(rt, |_, runtime| {
            if bytes.is_null() {
                return Err(invalid("iris_eval_bundle: no bytes"));
            }
            // SAFETY: `len` readable bytes at `bytes`.
            let bytes = std::slice::from_raw_parts(bytes, len).to_vec();
            let v = runtime.eval_bundle(bytes)?;
            put(result, v);
            Ok(())
        })
    };
    // SAFETY: `rt` is live or NULL.
    status(unsafe { runtime_ref(rt) }, r)
}

/// Runs the queued promise jobs.
///
/// # Safety
/// `rt` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn iris_run_jobs(rt: *mut IrisRuntime) -> IrisStatus {
    // SAFETY: as the caller promises.
    let r = unsafe { entry(rt, |_, runtime| runtime.run_pending_jobs()) };
    // SAFETY: `rt` is live or NULL.
    status(unsafe { runtime_ref(rt) }, r)
}

/// Collects garbage now.
///
/// # Safety
/// `rt` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn iris_gc(rt: *mut IrisRuntime) {
    // SAFETY: as the caller promises.
    let _ = unsafe { entry(rt, |_, runtime| runtime.gc()) };
}

/// The last exception's name.
///
/// # Safety
/// `rt` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn iris_exception_name(rt: *mut IrisRuntime) -> *const c_char {
    // SAFETY: as the caller promises.
    unsafe { runtime_ref(rt) }.map_or(c"".as_ptr(), |ir| ir.error_field(|e| &e.name))
}

/// The last exception's message.
///
/// # Safety
/// `rt` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn iris_exception_message(rt: *mut IrisRuntime) -> *const c_char {
    // SAFETY: as the caller promises.
    unsafe { runtime_ref(rt) }.map_or(c"".as_ptr(), |ir| ir.error_field(|e| &e.message))
}

/// The last exception's JavaScript stack.
///
/// # Safety
/// `rt` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn iris_exception_stack(rt: *mut IrisRuntime) -> *const c_char {
    // SAFETY: as the caller promises.
    unsafe { runtime_ref(rt) }.map_or(c"".as_ptr(), |ir| ir.error_field(|e| &e.stack))
}

/// Whether the last exception was an interrupt.
///
/// # Safety
/// `rt` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn iris_exception_interrupted(rt: *mut IrisRuntime) -> c_int {
    // SAFETY: as the caller promises.
    unsafe { runtime_ref(rt) }.map_or(0, |ir| c_int::from(ir.error.borrow().as_ref().is_some_and(|e| e.interrupted)))
}

/// A handle that interrupts the runtime from any thread.
///
/// # Safety
/// `rt` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn iris_interrupt_handle(rt: *mut IrisRuntime) -> *mut IrisInterrupt {
    // SAFETY: as the caller promises.
    match unsafe { entry(rt, |_, runtime| runtime.interrupt_handle()) } {
        Some(Ok(h)) => Box::into_raw(Box::new(IrisInterrupt(h))),
        _ => ptr::null_mut(),
    }
}

/// Interrupts the runtime of `handle`.
///
/// # Safety
/// `handle` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn iris_interrupt(handle: *const IrisInterrupt) {
    // SAFETY: as the caller promises.
    if let Some(h) = unsafe { handle.as_ref() } {
        h.0.interrupt();
    }
}

/// Frees an interrupt handle.
///
/// # Safety
/// `handle` is NULL or a live pointer from `iris_interrupt_handle`, given up.
#[no_mangle]
pub unsafe extern "C" fn iris_interrupt_handle_free(handle: *mut IrisInterrupt) {
    if !handle.is_null() {
        // SAFETY: made by `Box::into_raw`; the caller gives it up.
        drop(unsafe { Box::from_raw(handle) });
    }
}

/// A new value made by `make`, or NULL.
///
/// # Safety
/// `rt` is NULL or live.
unsafe fn new_value(rt: *mut IrisRuntime, make: impl FnOnce(&mut Runtime) -> Option<JsValue>) -> *mut IrisValue {
    // SAFETY: as the caller promises.
    match unsafe { entry(rt, |_, runtime| make(runtime)) } {
        Some(Ok(Some(v))) => boxed(v),
        _ => ptr::null_mut(),
    }
}

/// `undefined`.
///
/// # Safety
/// `rt` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn iris_undefined(rt: *mut IrisRuntime) -> *mut IrisValue {
    // SAFETY: as the caller promises.
    unsafe { new_value(rt, |_| Some(JsValue::UNDEFINED)) }
}

/// `null`.
///
/// # Safety
/// `rt` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn iris_null(rt: *mut IrisRuntime) -> *mut IrisValue {
    // SAFETY: as the caller promises.
    unsafe { new_value(rt, |_| Some(JsValue::NULL)) }
}

/// A boolean.
///
/// # Safety
/// `rt` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn iris_bool(rt: *mut IrisRuntime, b: c_int) -> *mut IrisValue {
    // SAFETY: as the caller promises.
    unsafe { new_value(rt, |_| Some(JsValue::from(b != 0))) }
}

/// A number.
///
/// # Safety
/// `rt` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn iris_number(rt: *mut IrisRuntime, n: f64) -> *mut IrisValue {
    // SAFETY: as the caller promises.
    unsafe { new_value(rt, |_| Some(JsValue::from(n))) }
}

/// A string.
///
/// # Safety
/// `rt` is NULL or live; `utf8` points at `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn iris_string(rt: *mut IrisRuntime, utf8: *const c_char, len: usize) -> *mut IrisValue {
    // SAFETY: as the caller promises.
    let s = unsafe { str_of(utf8, len) };
    // SAFETY: as the caller promises.
    unsafe { new_value(rt, |runtime| s.map(|s| JsValue::string(runtime, s))) }
}

/// A new object.
///
/// # Safety
/// `rt` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn iris_object(rt: *mut IrisRuntime) -> *mut IrisValue {
    // SAFETY: as the caller promises.
    unsafe { new_value(rt, |runtime| Some(JsValue::object(runtime))) }
}

/// The global object.
///
/// # Safety
/// `rt` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn iris_global(rt: *mut IrisRuntime) -> *mut IrisValue {
    // SAFETY: as the caller promises.
    unsafe { new_value(rt, |runtime| Some(runtime.global())) }
}

/// Another handle on `v`'s value.
///
/// # Safety
/// `v` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn iris_value_dup(v: *const IrisValue) -> *mut IrisValue {
    // SAFETY: as the caller promises.
    match unsafe { v.as_ref() } {
        Some(v) => catch_unwind(AssertUnwindSafe(|| boxed(v.0.clone()))).unwrap_or(ptr::null_mut()),
        None => ptr::null_mut(),
    }
}

/// Frees a handle.
///
/// # Safety
/// `v` is NULL or a live handle the caller owns, given up.
#[no_mangle]
pub unsafe extern "C" fn iris_value_free(v: *mut IrisValue) {
    if !v.is_null() {
        // SAFETY: made by `boxed`; the caller gives it up.
        let v = unsafe { Box::from_raw(v) };
        let _ = catch_unwind(AssertUnwindSafe(|| drop(v)));
    }
}

/// The type of `v` (undefined for a NULL or foreign handle).
///
/// # Safety
/// `rt` and `v` are NULL or live.
#[no_mangle]
pub unsafe extern "C" fn iris_typeof(rt: *mut IrisRuntime, v: *const IrisValue) -> IrisType {
    // SAFETY: as the caller promises.
    let t = unsafe { entry(rt, |_, runtime| value_of(v, runtime).map(|v| v.type_of(runtime))) };
    match t {
        Some(Ok(Some(t))) => match t {
            JsType::Undefined => IrisType::Undefined,
            JsType::Null => IrisType::Null,
            JsType::Boolean => IrisType::Boolean,
            JsType::Number => IrisType::Number,
            JsType::String => IrisType::String,
            JsType::Symbol => IrisType::Symbol,
            JsType::BigInt => IrisType::BigInt,
            JsType::Object => IrisType::Object,
            JsType::Function => IrisType::Function,
        },
        _ => IrisType::Undefined,
    }
}

/// The number `v` is.
///
/// # Safety
/// `v` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn iris_get_number(v: *const IrisValue, out: *mut f64) -> c_int {
    // SAFETY: as the caller promises.
    match (unsafe { v.as_ref() }.and_then(|v| v.0.as_number()), out.is_null()) {
        (Some(n), false) => {
            // SAFETY: writable, as the caller promises.
            unsafe { *out = n };
            1
        }
        _ => 0,
    }
}

/// The boolean `v` is.
///
/// # Safety
/// `v` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn iris_get_bool(v: *const IrisValue, out: *mut c_int) -> c_int {
    // SAFETY: as the caller promises.
    match (unsafe { v.as_ref() }.and_then(|v| v.0.as_bool()), out.is_null()) {
        (Some(b), false) => {
            // SAFETY: writable, as the caller promises.
            unsafe { *out = c_int::from(b) };
            1
        }
        _ => 0,
    }
}

/// `String(v)`.
///
/// # Safety
/// `rt`, `v` NULL or live; `out` writable; `len` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn iris_to_string(
    rt: *mut IrisRuntime,
    v: *const IrisValue,
    out: *mut *mut c_char,
    len: *mut usize,
) -> IrisStatus {
    // SAFETY: as the caller promises.
    let r = unsafe {
        entry(rt, |_, runtime| {
            let (Some(v), false) = (value_of(v, runtime), out.is_null()) else {
                return Err(invalid("iris_to_string: a value of this runtime and an out pointer"));
            };
            let s = c_string(&v.to_rust_string(runtime)?);
            if !len.is_null() {
                *len = s.as_bytes().len();
            }
            *out = s.into_raw();
            Ok(())
        })
    };
    // SAFETY: `rt` is live or NULL.
    status(unsafe { runtime_ref(rt) }, r)
}

/// Frees a string from `iris_to_string`.
///
/// # Safety
/// `s` is NULL or a string `iris_to_string` gave, given up.
#[no_mangle]
pub unsafe extern "C" fn iris_string_free(s: *mut c_char) {
    if !s.is_null() {
        // SAFETY: made by `CString::into_raw`; the caller gives it up.
        drop(unsafe { CString::from_raw(s) });
    }
}

/// `obj[key]`.
///
/// # Safety
/// `rt`, `obj` NULL or live; `key` a C string; `result` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn iris_get(
    rt: *mut IrisRuntime,
    obj: *const IrisValue,
    key: *const c_char,
    result: *mut *mut IrisValue,
) -> IrisStatus {
    // SAFETY: as the caller promises.
    let r = unsafe {
        entry(rt, |_, runtime| {
            let (Some(obj), Some(key)) = (value_of(obj, runtime), cstr_of(key)) else {
                return Err(invalid("iris_get: a value of this runtime and a UTF-8 key"));
            };
            let v = obj.get(runtime, key)?;
            put(result, v);
            Ok(())
        })
    };
    // SAFETY: `rt` is live or NULL.
    status(unsafe { runtime_ref(rt) }, r)
}

/// `obj[key] = value`.
///
/// # Safety
/// `rt`, `obj`, `value` NULL or live; `key` a C string.
#[no_mangle]
pub unsafe extern "C" fn iris_set(
    rt: *mut IrisRuntime,
    obj: *const IrisValue,
    key: *const c_char,
    value: *const IrisValue,
) -> IrisStatus {
    // SAFETY: as the caller promises.
    let r = unsafe {
        entry(rt, |_, runtime| {
            let (Some(obj), Some(key), Some(value)) = (value_of(obj, runtime), cstr_of(key), value_of(value, runtime))
            else {
                return Err(invalid("iris_set: values of this runtime and a UTF-8 key"));
            };
            obj.set(runtime, key, value)
        })
    };
    // SAFETY: `rt` is live or NULL.
    status(unsafe { runtime_ref(rt) }, r)
}

/// `f.call(this_value, ...argv)`.
///
/// # Safety
/// `rt`, `f`, `this_value` NULL or live; `argv` `argc` live handles; `result` NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn iris_call(
    rt: *mut IrisRuntime,
    f: *const IrisValue,
    this_value: *const IrisValue,
    argc: usize,
    argv: *const *const IrisValue,
    result: *mut *mut IrisValue,
) -> IrisStatus {
    // SAFETY: as the caller promises.
    let r = unsafe {
        entry(rt, |_, runtime| {
            let Some(f) = value_of(f, runtime) else { return Err(invalid("iris_call: a function of this runtime")) };
            let this = if this_value.is_null() { Some(&JsValue::UNDEFINED) } else { value_of(this_value, runtime) };
            let Some(this) = this else { return Err(invalid("iris_call: `this` of another runtime")) };
            if argc > 0 && argv.is_null() {
                return Err(invalid("iris_call: no argv"));
            }
            let mut args: smallvec::SmallVec<[JsValue; 4]> = smallvec::SmallVec::with_capacity(argc);
            for i in 0..argc {
                match value_of(*argv.add(i), runtime) {
                    Some(a) => args.push(a.clone()),
                    None => return Err(invalid("iris_call: an argument of another runtime")),
                }
            }
            let v = f.call(runtime, this, &args)?;
            put(result, v);
            Ok(())
        })
    };
    // SAFETY: `rt` is live or NULL.
    status(unsafe { runtime_ref(rt) }, r)
}

/// `IrisHostFunction`.
pub type IrisHostFunction = unsafe extern "C" fn(
    rt: *mut IrisRuntime,
    user_data: *mut c_void,
    this_value: *const IrisValue,
    argc: usize,
    argv: *const *const IrisValue,
    result: *mut *mut IrisValue,
) -> IrisStatus;

/// A host function's user data, handed to its free function when the function goes.
struct UserData {
    data: *mut c_void,
    free: Option<unsafe extern "C" fn(*mut c_void)>,
}

impl Drop for UserData {
    fn drop(&mut self) {
        if let Some(free) = self.free {
            // SAFETY: the host gave this function for this data, to be called once.
            unsafe { free(self.data) };
        }
    }
}

/// A new host function.
///
/// # Safety
/// `rt` NULL or live; `name` a C string; `f` callable as iris.h says; `user_data` what `f`
/// and `free_user_data` expect.
#[no_mangle]
pub unsafe extern "C" fn iris_function(
    rt: *mut IrisRuntime,
    name: *const c_char,
    length: u32,
    f: Option<IrisHostFunction>,
    user_data: *mut c_void,
    free_user_data: Option<unsafe extern "C" fn(*mut c_void)>,
) -> *mut IrisValue {
    let user = UserData { data: user_data, free: free_user_data };
    // SAFETY: as the caller promises.
    let name = unsafe { cstr_of(name) };
    let (Some(f), Some(name)) = (f, name) else { return ptr::null_mut() };
    // SAFETY: as the caller promises.
    unsafe {
        new_value(rt, move |runtime| {
            Some(JsValue::function(runtime, name, length, move |runtime, this, args| {
                call_host(f, &user, runtime, this, args)
            }))
        })
    }
}

/// Calls host function `f` from JavaScript, with an `IrisRuntime` of its own for the
/// runtime it is given.
fn call_host(
    f: IrisHostFunction,
    user: &UserData,
    runtime: &mut Runtime,
    this: &JsValue,
    args: &[JsValue],
) -> Result<JsValue, JsError> {
    let mut ctx = IrisRuntime {
        rt: NonNull::from(runtime),
        owned: false,
        busy: Cell::new(false),
        error: RefCell::default(),
        throw: RefCell::new(None),
    };
    // `IrisValue` is a transparent `JsValue`: the arguments are lent as they are.
    let argv: smallvec::SmallVec<[*const IrisValue; 4]> =
        args.iter().map(|a| ptr::from_ref(a).cast::<IrisValue>()).collect();
    let mut result: *mut IrisValue = ptr::null_mut();
    // SAFETY: the host promised `f` is callable with these; every pointer lives for the call.
    let status = unsafe {
        f(&mut ctx, user.data, ptr::from_ref(this).cast::<IrisValue>(), args.len(), argv.as_ptr(), &mut result)
    };
    let value = if result.is_null() {
        JsValue::UNDEFINED
    } else {
        // SAFETY: a handle the host function made and gave up by returning it.
        unsafe { Box::from_raw(result) }.0
    };
    // SAFETY: the runtime the host function was given, alive for this call; C is done
    // with it (a shared reference for the check only).
    if !value.belongs_to(unsafe { ctx.rt.as_ref() }) {
        return Err(JsError::new("TypeError", "a host function returned a value of another runtime"));
    }
    match status {
        IrisStatus::Ok => Ok(value),
        IrisStatus::Exception => Err(ctx.throw.take().unwrap_or_else(|| {
            JsError::new("Error", "a host function returned IRIS_EXCEPTION without iris_throw_error")
        })),
        _ => Err(JsError::new("Error", "a host function failed")),
    }
}

/// Sets the error a host function throws.
///
/// # Safety
/// `rt` NULL or live; `name` and `message` C strings (or NULL).
#[no_mangle]
pub unsafe extern "C" fn iris_throw_error(rt: *mut IrisRuntime, name: *const c_char, message: *const c_char) {
    // SAFETY: as the caller promises.
    let (Some(ir), name, message) = (unsafe { runtime_ref(rt) }, unsafe { cstr_of(name) }, unsafe { cstr_of(message) })
    else {
        return;
    };
    *ir.throw.borrow_mut() = Some(JsError::new(name.unwrap_or("Error"), message.unwrap_or("")));
}

#[cfg(test)]
mod tests;
