//! What the fuzz targets share: a runtime with a heap limit, a stack limit and a time limit
//! (a watchdog thread interrupts a run that goes on too long), so that an input that loops
//! or allocates without end is an ordinary, quickly finished run rather than a hang or an
//! out-of-memory kill that libFuzzer would report.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use vm::{InterruptHandle, Runtime, RuntimeOptions};

/// How long one input may run.
pub const TIME_LIMIT: Duration = Duration::from_millis(200);
/// How much heap one input may use.
pub const HEAP_LIMIT: usize = 64 << 20;
/// How many JavaScript calls may be under way at once.
pub const STACK_LIMIT: usize = 2_000;

/// When the watchdog interrupts the run: milliseconds since `EPOCH`, 0 for no run.
static DEADLINE: AtomicU64 = AtomicU64::new(0);
/// The interrupt of the runtime running now.
static RUNNING: Mutex<Option<InterruptHandle>> = Mutex::new(None);
static EPOCH: OnceLock<Instant> = OnceLock::new();

fn now_ms() -> u64 {
    EPOCH.get_or_init(Instant::now).elapsed().as_millis() as u64 + 1
}

/// Starts the watchdog thread (once): every few milliseconds it interrupts the running
/// runtime if its deadline has passed. It asks again until the run ends, as a runtime
/// forgets an interrupt asked for before its run begins.
fn watchdog() {
    static STARTED: OnceLock<()> = OnceLock::new();
    STARTED.get_or_init(|| {
        std::thread::spawn(|| loop {
            std::thread::sleep(Duration::from_millis(5));
            let deadline = DEADLINE.load(Ordering::Relaxed);
            if deadline != 0 && now_ms() > deadline {
                if let Some(handle) = RUNNING.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
                    handle.interrupt();
                }
            }
        });
    });
}

/// A runtime with the limits above, the compiler installed (eval, lazily compiled
/// functions), output thrown away, and the JIT compiling every function at its first call
/// when `jit` is set.
pub fn runtime(jit: bool) -> Runtime {
    let mut rt = Runtime::new(RuntimeOptions {
        heap_limit: HEAP_LIMIT,
        max_stack_depth: STACK_LIMIT,
        jit_threshold: jit.then_some(0),
        ..RuntimeOptions::default()
    });
    let opts = compiler::driver::CompileOptions {
        interrupt: Some(rt.interrupt_handle().flag()),
        ..compiler::driver::CompileOptions::default()
    };
    rt.set_compiler(compiler::driver::compile_hook(opts));
    rt.set_output(Box::new(std::io::sink()));
    rt
}

/// Runs `run` on `rt` under the time limit; the outcome is the program's business.
pub fn limited<T>(rt: &mut Runtime, run: impl FnOnce(&mut Runtime) -> T) -> T {
    watchdog();
    *RUNNING.lock().unwrap_or_else(|e| e.into_inner()) = Some(rt.interrupt_handle());
    DEADLINE.store(now_ms() + TIME_LIMIT.as_millis() as u64, Ordering::Relaxed);
    let result = run(rt);
    DEADLINE.store(0, Ordering::Relaxed);
    *RUNNING.lock().unwrap_or_else(|e| e.into_inner()) = None;
    result
}

/// A JavaScript string literal (double-quoted) holding `units` exactly.
pub fn js_string_literal(units: impl IntoIterator<Item = u16>) -> String {
    let mut out = String::from("\"");
    for u in units {
        match u {
            0x20..=0x7e if u != u16::from(b'"') && u != u16::from(b'\\') => out.push(u as u8 as char),
            _ => out.push_str(&format!("\\u{u:04x}")),
        }
    }
    out.push('"');
    out
}
