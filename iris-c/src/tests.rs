//! The C API called as C calls it, and the header checked against the library.

use super::*;

fn new_runtime() -> *mut IrisRuntime {
    let mut o = IrisOptions { heap_limit: 0, stack_limit: 0, time_limit_ms: 0, jit: 0 };
    // SAFETY: `o` is writable and readable.
    unsafe {
        iris_options_default(&mut o);
        iris_runtime_new(&o)
    }
}

fn eval(rt: *mut IrisRuntime, src: &str) -> (IrisStatus, *mut IrisValue) {
    let mut out = ptr::null_mut();
    // SAFETY: live runtime, `src.len()` bytes, a C string, a writable out pointer.
    let s = unsafe { iris_eval(rt, src.as_ptr().cast(), src.len(), c"test.js".as_ptr(), &mut out) };
    (s, out)
}

fn text(rt: *mut IrisRuntime, v: *const IrisValue) -> String {
    let mut s = ptr::null_mut();
    // SAFETY: live runtime and handle, writable out pointer; the string is freed below.
    unsafe {
        assert_eq!(iris_to_string(rt, v, &mut s, ptr::null_mut()), IrisStatus::Ok);
        let owned = CStr::from_ptr(s).to_string_lossy().into_owned();
        iris_string_free(s);
        owned
    }
}

fn exception(rt: *mut IrisRuntime) -> String {
    // SAFETY: live runtime; the strings are the runtime's, read at once.
    unsafe {
        format!(
            "{}: {}",
            CStr::from_ptr(iris_exception_name(rt)).to_string_lossy(),
            CStr::from_ptr(iris_exception_message(rt)).to_string_lossy()
        )
    }
}

/// `add(a, b)` with a call counter in its user data.
unsafe extern "C" fn add(
    rt: *mut IrisRuntime,
    user_data: *mut c_void,
    _this: *const IrisValue,
    argc: usize,
    argv: *const *const IrisValue,
    result: *mut *mut IrisValue,
) -> IrisStatus {
    // SAFETY: the user data is the test's counter; argv holds argc handles.
    unsafe {
        *user_data.cast::<u32>() += 1;
        let (mut a, mut b) = (0.0, 0.0);
        if argc < 2 || iris_get_number(*argv, &mut a) == 0 || iris_get_number(*argv.add(1), &mut b) == 0 {
            iris_throw_error(rt, c"TypeError".as_ptr(), c"add needs two numbers".as_ptr());
            return IrisStatus::Exception;
        }
        *result = iris_number(rt, a + b);
        IrisStatus::Ok
    }
}

unsafe extern "C" fn count_free(user_data: *mut c_void) {
    // SAFETY: the test's counter.
    unsafe { *user_data.cast::<u32>() += 100 };
}

#[test]
fn eval_values_properties_and_exceptions() {
    let rt = new_runtime();
    assert!(!rt.is_null());
    let (s, v) = eval(rt, "let n = 20; n + 22");
    assert_eq!(s, IrisStatus::Ok);
    let mut n = 0.0;
    // SAFETY: live handles and runtime throughout.
    unsafe {
        assert_eq!((iris_get_number(v, &mut n), n), (1, 42.0));
        iris_value_free(v);
        let g = iris_global(rt);
        let obj = iris_object(rt);
        let s = iris_string(rt, "héllo".as_ptr().cast(), "héllo".len());
        assert_eq!(iris_set(rt, obj, c"greeting".as_ptr(), s), IrisStatus::Ok);
        assert_eq!(iris_set(rt, g, c"box".as_ptr(), obj), IrisStatus::Ok);
        let (st, v) = eval(rt, "box.greeting.toUpperCase() + n");
        assert_eq!((st, text(rt, v)), (IrisStatus::Ok, "HÉLLO20".to_string()));
        assert_eq!(iris_typeof(rt, obj), IrisType::Object);
        let mut got = ptr::null_mut();
        assert_eq!(iris_get(rt, obj, c"greeting".as_ptr(), &mut got), IrisStatus::Ok);
        assert_eq!(iris_typeof(rt, got), IrisType::String);
        for p in [v, got, s, obj, g] {
            iris_value_free(p);
        }
        let (st, v) = eval(rt, "function f() { null.x }\nf()");
        assert!(v.is_null());
        assert_eq!(st, IrisStatus::Exception);
        assert!(exception(rt).starts_with("TypeError: "), "{}", exception(rt));
        let stack = CStr::from_ptr(iris_exception_stack(rt)).to_string_lossy();
        assert!(stack.contains("at f (test.js:1:"), "{stack}");
        let (st, _) = eval(rt, "let n = 1");
        assert_eq!((st, exception(rt).split(':').next()), (IrisStatus::Exception, Some("SyntaxError")));
        // Misuse: NULL pointers, invalid UTF-8.
        assert_eq!(
            iris_eval(ptr::null_mut(), ptr::null(), 0, ptr::null(), ptr::null_mut()),
            IrisStatus::InvalidArgument
        );
        let bad = [0xffu8, 0xfe];
        assert_eq!(
            iris_eval(rt, bad.as_ptr().cast(), 2, c"x.js".as_ptr(), ptr::null_mut()),
            IrisStatus::InvalidArgument
        );
        assert!(iris_string(rt, bad.as_ptr().cast(), 2).is_null());
        iris_runtime_free(rt);
    }
}

#[test]
fn host_functions_with_user_data_and_calls_from_the_host() {
    let rt = new_runtime();
    let mut calls: u32 = 0;
    // SAFETY: live runtime and handles; `calls` outlives the runtime.
    unsafe {
        let f = iris_function(rt, c"add".as_ptr(), 2, Some(add), ptr::from_mut(&mut calls).cast(), Some(count_free));
        let g = iris_global(rt);
        assert_eq!(iris_set(rt, g, c"add".as_ptr(), f), IrisStatus::Ok);
        let (s, v) = eval(rt, "[add(1, 2), add(add(1, 1), 40)].join()");
        assert_eq!((s, text(rt, v)), (IrisStatus::Ok, "3,42".to_string()));
        iris_value_free(v);
        let (s, v) = eval(rt, "try { add('x') } catch (e) { `${e instanceof TypeError} ${e.message}` }");
        assert_eq!((s, text(rt, v)), (IrisStatus::Ok, "true add needs two numbers".to_string()));
        iris_value_free(v);
        assert_eq!(calls, 4);
        // The host calls a JavaScript function.
        let (_, twice) = eval(rt, "(function (x) { return add(x, x) + this.k })");
        let this = iris_object(rt);
        let k = iris_number(rt, 0.5);
        iris_set(rt, this, c"k".as_ptr(), k);
        let arg = iris_number(rt, 10.0);
        let mut out = ptr::null_mut();
        assert_eq!(iris_call(rt, twice, this, 1, &arg.cast_const(), &mut out), IrisStatus::Ok);
        let mut n = 0.0;
        assert_eq!((iris_get_number(out, &mut n), n), (1, 20.5));
        // Calling what is not a function is a TypeError.
        assert_eq!(iris_call(rt, k, ptr::null(), 0, ptr::null(), ptr::null_mut()), IrisStatus::Exception);
        for p in [f, g, twice, this, k, arg, out] {
            iris_value_free(p);
        }
        assert_eq!(calls, 5);
        iris_runtime_free(rt);
    }
    assert_eq!(calls, 105, "the user data was freed with the runtime");
}

/// A host function that uses the runtime it was not given (the busy outer one).
unsafe extern "C" fn misuse(
    _rt: *mut IrisRuntime,
    user_data: *mut c_void,
    _this: *const IrisValue,
    _argc: usize,
    _argv: *const *const IrisValue,
    result: *mut *mut IrisValue,
) -> IrisStatus {
    let outer = user_data.cast::<IrisRuntime>();
    // SAFETY: the outer runtime is live; the call must be refused, not run.
    unsafe {
        let s = iris_eval(outer, "1".as_ptr().cast(), 1, c"inner.js".as_ptr(), ptr::null_mut());
        *result = iris_bool(_rt, c_int::from(s == IrisStatus::InvalidArgument));
    }
    IrisStatus::Ok
}

/// A host function that returns a value of the runtime in its user data (another one).
unsafe extern "C" fn foreign(
    _rt: *mut IrisRuntime,
    user_data: *mut c_void,
    _this: *const IrisValue,
    _argc: usize,
    _argv: *const *const IrisValue,
    result: *mut *mut IrisValue,
) -> IrisStatus {
    // SAFETY: the other runtime is live; the handle is given up to the caller.
    unsafe { *result = iris_object(user_data.cast()) };
    IrisStatus::Ok
}

#[test]
fn a_host_function_returning_another_runtimes_value_throws() {
    let rt = new_runtime();
    let other = new_runtime();
    // SAFETY: live runtimes and handles.
    unsafe {
        let f = iris_function(rt, c"foreign".as_ptr(), 0, Some(foreign), other.cast(), None);
        let g = iris_global(rt);
        iris_set(rt, g, c"foreign".as_ptr(), f);
        let (s, v) = eval(rt, "try { foreign() } catch (e) { e.name + ': ' + e.message }");
        assert_eq!(
            (s, text(rt, v)),
            (IrisStatus::Ok, "TypeError: a host function returned a value of another runtime".to_string())
        );
        for p in [f, g, v] {
            iris_value_free(p);
        }
        iris_runtime_free(other);
        iris_runtime_free(rt);
    }
}

#[test]
fn a_busy_runtime_refuses_calls_and_values_stay_with_their_runtime() {
    let rt = new_runtime();
    let other = new_runtime();
    // SAFETY: live runtimes and handles.
    unsafe {
        let f = iris_function(rt, c"misuse".as_ptr(), 0, Some(misuse), rt.cast(), None);
        let mut out = ptr::null_mut();
        assert_eq!(iris_call(rt, f, ptr::null(), 0, ptr::null(), &mut out), IrisStatus::Ok);
        let mut refused = 0;
        assert_eq!((iris_get_bool(out, &mut refused), refused), (1, 1));
        // A handle of one runtime given to another.
        let s = iris_string(rt, c"x".as_ptr(), 1);
        assert_eq!(iris_typeof(other, s), IrisType::Undefined);
        let g = iris_global(other);
        assert_eq!(iris_set(other, g, c"x".as_ptr(), s), IrisStatus::InvalidArgument);
        for p in [f, out, s, g] {
            iris_value_free(p);
        }
        iris_runtime_free(other);
        iris_runtime_free(rt);
    }
}

#[test]
fn interrupts_limits_and_jobs() {
    let mut o = IrisOptions { heap_limit: 0, stack_limit: 0, time_limit_ms: 0, jit: 0 };
    // SAFETY: live pointers throughout.
    unsafe {
        iris_options_default(&mut o);
        o.time_limit_ms = 100;
        let limited = iris_runtime_new(&o);
        let (s, _) = eval(limited, "for (;;) {}");
        assert_eq!((s, iris_exception_interrupted(limited)), (IrisStatus::Exception, 1));
        iris_runtime_free(limited);
        o.time_limit_ms = 0;
        o.heap_limit = 32 << 20;
        let rt = iris_runtime_new(&o);
        let (s, v) = eval(rt, "let a = []; try { for (;;) a.push([a]) } catch (e) { a = 0; e.name }");
        assert_eq!((s, text(rt, v)), (IrisStatus::Ok, "RangeError".to_string()));
        iris_value_free(v);
        let (_, v) = eval(rt, "var log = []; Promise.resolve().then(() => log.push('job')); log");
        assert_eq!(text(rt, v), "");
        assert_eq!(iris_run_jobs(rt), IrisStatus::Ok);
        assert_eq!(text(rt, v), "job");
        iris_value_free(v);
        iris_gc(rt);
        let handle = iris_interrupt_handle(rt);
        iris_runtime_free(rt);
        // The handle outlives its runtime.
        iris_interrupt(handle);
        iris_interrupt_handle_free(handle);
    }
}

#[test]
fn the_header_declares_what_the_library_defines() {
    let header = include_str!("../include/iris.h");
    let source = include_str!("lib.rs");
    // Every `iris_name(` in the header: a declaration (the comments name none that way).
    let declared: Vec<&str> = header
        .match_indices("iris_")
        .filter(|&(i, _)| i == 0 || !header.as_bytes()[i - 1].is_ascii_alphanumeric())
        .filter_map(|(i, _)| {
            let rest = &header[i..];
            let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
            rest[end..].starts_with('(').then(|| &rest[..end])
        })
        .collect();
    let defined: Vec<&str> =
        source.split("pub unsafe extern \"C\" fn ").skip(1).filter_map(|rest| rest.split('(').next()).collect();
    let mut declared_sorted = declared.clone();
    declared_sorted.sort_unstable();
    declared_sorted.dedup();
    let mut defined_sorted = defined.clone();
    defined_sorted.sort_unstable();
    assert_eq!(declared_sorted, defined_sorted);
    assert!(declared_sorted.len() >= 30, "{declared_sorted:?}");
}
