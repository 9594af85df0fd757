//! The process around a runtime, shared by Iris's command-line programs (`iris`, and
//! `iris-run`, which runs bundles without the compiler): the entry point, the allocator's
//! tuning, what stops a program (`--timeout`, Ctrl-C), how an uncaught exception becomes the
//! exit status, and module files found as node finds them ([`loader`]).
//!
//! ```text
//!  main ─▶ enter(start) ─ start: tune_allocator, parse arguments, run ─▶ exit(result)
//!                    stop_on_sigint(handle) ─ Ctrl-C ─▶ handle.interrupt()   (status 130)
//!                    stop_after(handle, s)  ─ time up ─▶ handle.interrupt()  (status 124)
//! ```

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;

pub mod loader;

/// A failure with its message for stderr (already rendered) and exit status.
#[derive(Debug)]
pub struct Failure(pub String, pub u8);

/// Calls `start` as the process's entry, in place of the standard library's `lang_start`,
/// which sets up what these programs do not use: a handler that names the thread whose
/// stack overflowed (the program runs on a stack of its own, which that handler does not
/// know), for which it reads /proc/self/maps and maps a signal stack, and the main thread's
/// name; 3% of a hello-world bundle's start-up. What they need of it is here: SIGPIPE
/// ignored (a closed pipe is an error on write, as in any Rust program), and a panic's exit
/// status 101. The arguments are read as in any Rust program (glibc hands them to the
/// standard library's initializer before `main` runs).
pub fn enter(start: fn() -> std::convert::Infallible) -> std::ffi::c_int {
    let _ = STARTED.set(std::time::Instant::now());
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to "ignore" runs no code of ours on a signal;
    // no other thread exists yet.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    match std::panic::catch_unwind(start) {
        Ok(never) => match never {},
        Err(_) => 101,
    }
}

/// Prints `result`'s message (after what the program printed) and ends the process with its
/// exit status. `process::exit` flushes stdout.
pub fn exit(result: Result<(), Failure>) -> ! {
    match result {
        Ok(()) => std::process::exit(0),
        Err(Failure(msg, code)) => {
            let _ = std::io::stdout().flush();
            eprintln!("{msg}");
            std::process::exit(code.into())
        }
    }
}

/// Sets the two mimalloc options the programs change (the binary makes mimalloc its global
/// allocator).
///
/// - No exit handler: it returns every page to the operating system one `madvise` at a time
///   (12 ms after loading typescript.js, 3% of a hello-world bundle's start-up) just before
///   the process's memory goes away whole.
/// - Memory freed is given back to the operating system after a second rather than 10 ms
///   (unless `MIMALLOC_PURGE_DELAY` says otherwise): compiling a large program frees its
///   syntax tree (a hundred MiB for typescript.js) just before the backend and the program
///   allocate again, and every page given back and taken again is faulted in again. Loading
///   typescript.js: system time 0.152 -> 0.133 s, wall 4% less (peak RSS 158 -> 180 MiB).
///
/// And glibc's malloc keeps to one arena. Rust's allocations go to mimalloc, so glibc's
/// malloc serves only glibc itself; but the first call on each new thread
/// (`pthread_getattr_np`, from the standard library's thread start) made it set up an arena
/// for that thread: a 128 MiB reservation trimmed with two `munmap`s and an `mprotect`, for
/// every thread the program starts, its own included.
pub fn tune_allocator() {
    // `mi_option_destroy_on_exit` and `mi_option_purge_delay` in mimalloc.h (v2 and v3),
    // which the sys crate does not name; at 2 or more the exit handler returns at once.
    const DESTROY_ON_EXIT: libmimalloc_sys::mi_option_t = 22;
    const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
    let purge_delay_set = std::env::var_os("MIMALLOC_PURGE_DELAY").is_some();
    // SAFETY: mi_option_set stores one option value; it neither allocates nor touches the
    // heap, and any thread may call it at any time.
    unsafe {
        libmimalloc_sys::mi_option_set(DESTROY_ON_EXIT, 2);
        if !purge_delay_set {
            libmimalloc_sys::mi_option_set(PURGE_DELAY, 1000);
        }
    }
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt sets one of malloc's tuning parameters; it is called before any other
    // thread exists.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

/// Calls after which the JIT compiles a function, by default.
pub const JIT_THRESHOLD: u32 = 100;

/// The stack the program runs on (the main thread's, grown with `stacker`): deep recursion
/// through native calls (a callback of `Array.prototype.map` calling it again) goes as far
/// as the JavaScript call limit allows. A stack of its own on the main thread costs a
/// mapping; the VM measures whichever stack it runs on.
pub const PROGRAM_STACK: usize = 256 << 20;

/// When the process started (`--timeout` counts from there).
static STARTED: OnceLock<std::time::Instant> = OnceLock::new();
/// When the first Ctrl-C (SIGINT) came, in nanoseconds of `CLOCK_MONOTONIC` (0: none yet),
/// and whether `--timeout` stopped the program.
static FIRST_SIGINT: AtomicU64 = AtomicU64::new(0);
static TIMED_OUT: AtomicBool = AtomicBool::new(false);
/// The program's interrupt handle, for the SIGINT handler.
static INTERRUPT: OnceLock<vm::InterruptHandle> = OnceLock::new();

/// `--timeout`: a thread interrupts the program once `seconds` have passed since the process
/// started. It asks again every 10 ms until the process ends, as the runtime forgets a
/// request made before a run begins (the program may still be compiling when the time is up).
pub fn stop_after(handle: vm::InterruptHandle, seconds: f64) {
    let spent = STARTED.get().map_or(0.0, |t| t.elapsed().as_secs_f64());
    let limit = std::time::Duration::from_secs_f64((seconds - spent).max(0.0));
    std::thread::spawn(move || {
        std::thread::sleep(limit);
        TIMED_OUT.store(true, Ordering::Relaxed);
        loop {
            handle.interrupt();
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    });
}

/// How long after the first Ctrl-C a second one ends the process at once. A signal sent
/// to a process and to its process group arrives twice (coreutils' `timeout` does that):
/// that is still one press.
const SECOND_SIGINT_AFTER_NS: u64 = 300_000_000;

/// What a SIGINT at `now` (nanoseconds, above 0) does, `first` the time of the first (0 if
/// this is it): `true` ends the process at once.
fn sigint_ends_process(first: &AtomicU64, now: u64) -> bool {
    match first.compare_exchange(0, now, Ordering::Relaxed, Ordering::Relaxed) {
        Ok(_) => false,
        Err(then) => now.saturating_sub(then) >= SECOND_SIGINT_AFTER_NS,
    }
}

/// Ctrl-C (SIGINT) interrupts the program: it stops at its next safepoint with its
/// JavaScript stack reported, exit status 130. A second Ctrl-C before that (a long native
/// call) ends the process at once. When SIGINT is ignored (a background job of a
/// non-interactive shell, `nohup`), it stays ignored.
pub fn stop_on_sigint(handle: vm::InterruptHandle) {
    #[cfg(unix)]
    {
        extern "C" fn on_sigint(_: libc::c_int) {
            let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
            // SAFETY: `clock_gettime` is async-signal-safe and writes only `ts`.
            unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
            let now = (ts.tv_sec as u64).wrapping_mul(1_000_000_000).wrapping_add(ts.tv_nsec as u64).max(1);
            if sigint_ends_process(&FIRST_SIGINT, now) {
                // SAFETY: `_exit` is async-signal-safe; the process ends here.
                unsafe { libc::_exit(130) };
            }
            if let Some(h) = INTERRUPT.get() {
                h.interrupt();
            }
        }
        if INTERRUPT.set(handle).is_err() {
            return;
        }
        // SAFETY: `sigaction` with no new action only reads the current one. The handler
        // installed does only what a signal handler may: atomic operations on statics (the
        // interrupt flag is an atomic that the handle in `INTERRUPT` keeps alive for the
        // rest of the process) and `_exit`; it allocates nothing and takes no lock.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(libc::SIGINT, std::ptr::null(), &mut old) != 0 || old.sa_sigaction == libc::SIG_IGN {
                return;
            }
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_sigint as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut());
        }
    }
    #[cfg(not(unix))]
    let _ = handle;
}

/// Forgets the Ctrl-C presses so far: the REPL goes on after one stopped an evaluation,
/// and the next press is a first one again.
pub fn forget_sigints() {
    FIRST_SIGINT.store(0, Ordering::Relaxed);
}

/// The failure for an uncaught exception in `program` (`iris`, `iris-run`), `timeout` its
/// `--timeout`: an interrupt's exit status says what stopped the program (130 Ctrl-C, 124
/// the time limit).
pub fn uncaught(program: &str, e: &vm::JsError, timeout: Option<f64>) -> Failure {
    if e.interrupted && FIRST_SIGINT.load(Ordering::Relaxed) > 0 {
        return Failure(e.to_string(), 130);
    }
    if let (true, true, Some(seconds)) = (e.interrupted, TIMED_OUT.load(Ordering::Relaxed), timeout) {
        return Failure(format!("{e}\n{program}: stopped after --timeout {seconds} seconds"), 124);
    }
    Failure(e.to_string(), 1)
}

/// `--timeout`: a positive number of seconds.
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 1e9 => Ok(x),
        _ => Err(format!("{s} is not a number of seconds above 0")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_ctrl_c_ends_the_process_unless_it_is_the_first_again() {
        let first = AtomicU64::new(0);
        assert!(!sigint_ends_process(&first, 1_000));
        // The same signal sent to the process and to its group: one press.
        assert!(!sigint_ends_process(&first, 2_000));
        assert!(sigint_ends_process(&first, 1_000 + SECOND_SIGINT_AFTER_NS));
    }

    #[test]
    fn seconds_are_positive_and_finite() {
        assert_eq!(parse_seconds("1.5"), Ok(1.5));
        for bad in ["0", "-1", "inf", "NaN", "", "1e10", "x"] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
    }
}
