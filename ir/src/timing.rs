//! Compile-time profiling for `iris --time-passes`: how long each phase of the compiler took
//! and how much memory the process held after it, in the manner of rustc's `-Z time-passes`.
//!
//! ```text
//!  driver ── phase("parse") ── phase("irgen") ── phase("optimize") ─┬─ time("mem2reg") ...
//!                                                                   └─ (one entry per pass,
//!                                                                       summed over functions)
//! ```
//! A *phase* runs once per compilation and records the resident memory after it; a *timed
//! step* (a pass, a backend stage) runs once per function and its times are summed. Both nest:
//! an entry is indented under the phase that was running when it first ran. Recording is off
//! unless [`enable`] was called, and then costs one uncontended lock per entry; the state is
//! process-wide because the frontend runs on its own thread.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

static ENABLED: AtomicBool = AtomicBool::new(false);
static STATE: Mutex<State> = Mutex::new(State { entries: Vec::new(), depth: 0 });

struct State {
    /// In order of first use.
    entries: Vec<Entry>,
    /// How many phases or steps are running.
    depth: usize,
}

struct Entry {
    name: &'static str,
    depth: usize,
    time: Duration,
    calls: u64,
    /// Resident bytes after the last run (phases only).
    rss_after: Option<u64>,
}

/// Starts recording (for the rest of the process).
pub fn enable() {
    ENABLED.store(true, Ordering::Relaxed);
}

/// Whether recording is on.
pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// Runs `f` as the phase `name`, recording its time and the resident memory after it.
pub fn phase<R>(name: &'static str, f: impl FnOnce() -> R) -> R {
    record(name, true, f)
}

/// Runs `f` as a step of `name` (called once per function or per pass), adding its time to
/// the entry's total.
pub fn time<R>(name: &'static str, f: impl FnOnce() -> R) -> R {
    record(name, false, f)
}

fn record<R>(name: &'static str, rss: bool, f: impl FnOnce() -> R) -> R {
    if !enabled() {
        return f();
    }
    let depth = {
        let mut s = lock();
        s.depth += 1;
        s.depth - 1
    };
    let start = Instant::now();
    let result = f();
    let elapsed = start.elapsed();
    let rss_after = if rss { resident_bytes() } else { None };
    let mut s = lock();
    s.depth -= 1;
    match s.entries.iter_mut().find(|e| e.name == name && e.depth == depth) {
        Some(e) => {
            e.time += elapsed;
            e.calls += 1;
            e.rss_after = rss_after.or(e.rss_after);
        }
        None => s.entries.push(Entry { name, depth, time: elapsed, calls: 1, rss_after }),
    }
    result
}

fn lock() -> std::sync::MutexGuard<'static, State> {
    // A panic while recording leaves only figures behind: keep using them.
    STATE.lock().unwrap_or_else(|e| e.into_inner())
}

/// The report of everything recorded so far, one line per entry (empty if nothing was), and
/// forgets it.
pub fn take_report() -> String {
    let entries = std::mem::take(&mut lock().entries);
    if entries.is_empty() {
        return String::new();
    }
    let mut out = format!("{:<34} {:>9} {:>8} {:>10}\n", "phase", "seconds", "calls", "rss after");
    for e in entries {
        let name = format!("{:indent$}{}", "", e.name, indent = 2 * e.depth);
        let rss = e.rss_after.map(|b| format!("{} MiB", b >> 20)).unwrap_or_default();
        out.push_str(&format!("{name:<34} {:>9.3} {:>8} {rss:>10}\n", e.time.as_secs_f64(), e.calls));
    }
    if let Some(peak) = peak_resident_bytes() {
        out.push_str(&format!("{:<34} {:>9} {:>8} {:>10}\n", "peak", "", "", format!("{} MiB", peak >> 20)));
    }
    out
}

/// The process's resident memory now, where the system says (Linux).
fn resident_bytes() -> Option<u64> {
    status_kib("VmRSS:").map(|k| k * 1024)
}

/// The most memory the process has held, where the system says (Linux).
fn peak_resident_bytes() -> Option<u64> {
    status_kib("VmHWM:").map(|k| k * 1024)
}

/// A `/proc/self/status` figure in KiB.
fn status_kib(key: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_entries_sum_and_indent() {
        enable();
        phase("outer-test-phase", || {
            for _ in 0..3 {
                time("inner-test-step", || std::hint::black_box(1 + 1));
            }
        });
        let report = take_report();
        let outer = report.lines().find(|l| l.starts_with("outer-test-phase")).expect(&report);
        let inner = report.lines().find(|l| l.trim_start().starts_with("inner-test-step")).expect(&report);
        assert!(inner.starts_with("  inner-test-step"), "{report}");
        assert_eq!(inner.split_whitespace().nth(2), Some("3"), "{report}");
        assert_eq!(outer.split_whitespace().nth(2), Some("1"), "{report}");
        if cfg!(target_os = "linux") {
            assert!(outer.ends_with("MiB"), "{report}");
        }
    }
}
