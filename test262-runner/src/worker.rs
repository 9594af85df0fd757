//! The worker process: runs jobs on a thread per core, one fresh runtime per test, with a
//! watchdog that interrupts tests past their time limit and `catch_unwind` around every test.
//!
//! ```text
//!  supervisor ── jobs file ──▶ worker ── stdout: "S\t<idx>" (started), "D\t<idx>\t<P|F>\t<reason>" (done)
//!                               ├─ thread 1..N: engine(job) under catch_unwind
//!                               └─ watchdog: interrupts a test whose deadline passed
//! ```
//! The worker knows nothing of the VM: the engine function hands the watchdog an interrupter
//! closure for each test.

use std::cell::RefCell;
use std::io::Write;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::discover::Mode;
use crate::frontmatter::{self, Metadata};

/// Stops the test running on one worker thread (the VM's interrupt handle, wrapped).
pub type Interrupter = Box<dyn Fn() + Send + Sync>;

/// A job as listed in the jobs file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobSpec {
    /// Index in the supervisor's job list.
    pub idx: usize,
    /// Path under `test/`.
    pub path: String,
    /// The mode to run in.
    pub mode: Mode,
}

/// What the engine gets for one job.
pub struct TestJob<'a> {
    /// The test262 root (holding `harness/` and `test/`).
    pub root: &'a Path,
    /// Path under `test/`.
    pub rel: &'a str,
    /// The mode.
    pub mode: Mode,
    /// The test's source text.
    pub source: &'a str,
    /// Its metadata.
    pub meta: &'a Metadata,
}

/// Runs one test: `Ok` when it passes, `Err(reason)` when it fails. `arm` hands the watchdog
/// the interrupter of the runtime the test runs in.
pub type Engine<'e> = dyn Fn(&TestJob<'_>, &dyn Fn(Interrupter)) -> Result<(), String> + Sync + 'e;

/// Worker settings.
#[derive(Clone, Debug)]
pub struct WorkerConfig {
    /// The test262 root.
    pub root: PathBuf,
    /// Threads.
    pub threads: usize,
    /// Per-test time limit.
    pub timeout: Duration,
}

/// Writes a jobs file.
pub fn write_jobs(path: &Path, jobs: &[JobSpec]) -> std::io::Result<()> {
    let mut text = String::new();
    for j in jobs {
        text.push_str(&format!("{}\t{}\t{}\n", j.idx, j.path, j.mode));
    }
    std::fs::write(path, text)
}

/// Reads a jobs file.
pub fn read_jobs(path: &Path) -> Result<Vec<JobSpec>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    text.lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let mut it = l.split('\t');
            let idx = it.next().and_then(|s| s.parse().ok());
            let path = it.next();
            let mode = it.next().and_then(Mode::from_name);
            match (idx, path, mode) {
                (Some(idx), Some(path), Some(mode)) => Ok(JobSpec { idx, path: path.to_string(), mode }),
                _ => Err(format!("bad job line {l:?}")),
            }
        })
        .collect()
}

/// Escapes a reason onto one line.
pub fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('\n', "\\n").replace('\t', "\\t").replace('\r', "\\r")
}

/// The inverse of [`escape`].
pub fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some(o) => out.push(o),
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

thread_local! {
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Replaces the panic hook with one that records the message for the test's report instead of
/// printing it.
pub fn install_quiet_panic_hook() {
    panic::set_hook(Box::new(|info| {
        let msg = info.to_string();
        LAST_PANIC.with(|p| *p.borrow_mut() = Some(msg));
    }));
}

/// Runs one job under `catch_unwind`, reading its source and metadata.
pub fn run_job(root: &Path, job: &JobSpec, engine: &Engine<'_>, arm: &dyn Fn(Interrupter)) -> Result<(), String> {
    let abs = root.join("test").join(&job.path);
    let bytes = std::fs::read(&abs).map_err(|e| format!("cannot read {}: {e}", abs.display()))?;
    let source = String::from_utf8(bytes).map_err(|_| "the test file is not UTF-8".to_string())?;
    let meta = frontmatter::parse(&source).map_err(|e| format!("bad metadata: {e}"))?;
    let test = TestJob { root, rel: &job.path, mode: job.mode, source: &source, meta: &meta };
    LAST_PANIC.with(|p| p.borrow_mut().take());
    match panic::catch_unwind(AssertUnwindSafe(|| engine(&test, arm))) {
        Ok(r) => r,
        Err(payload) => {
            let recorded = LAST_PANIC.with(|p| p.borrow_mut().take());
            let msg = recorded.unwrap_or_else(|| {
                payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "panic with a non-string payload".to_string())
            });
            Err(format!("panic: {msg}"))
        }
    }
}

/// Runs `jobs` on `cfg.threads` threads, reporting on `out` (stdout in the worker process).
pub fn run_worker(cfg: &WorkerConfig, jobs: &[JobSpec], engine: &Engine<'_>, out: &Mutex<Box<dyn Write + Send>>) {
    let next = AtomicUsize::new(0);
    let finished = AtomicBool::new(false);
    let threads = cfg.threads.max(1);
    // One slot per thread: the running test's deadline and interrupter.
    let slots: Vec<Mutex<Option<(Instant, Interrupter)>>> = (0..threads).map(|_| Mutex::new(None)).collect();
    let say = |line: String| {
        let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
        let _ = o.write_all(line.as_bytes());
        let _ = o.flush();
    };
    std::thread::scope(|s| {
        s.spawn(|| {
            while !finished.load(Ordering::Relaxed) {
                let now = Instant::now();
                for slot in &slots {
                    let mut g = slot.lock().unwrap_or_else(|e| e.into_inner());
                    if let Some((deadline, interrupt)) = g.as_ref() {
                        if now >= *deadline {
                            interrupt();
                            // Interrupted once; the test now unwinds (or the supervisor kills us).
                            *g = None;
                        }
                    }
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let slot = &slots[t];
                let (next, say) = (&next, &say);
                std::thread::Builder::new()
                    .name(format!("test262-{t}"))
                    // Deep recursion in the parser or in builtins must not overflow first.
                    .stack_size(256 << 20)
                    .spawn_scoped(s, move || loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(job) = jobs.get(i) else { break };
                        say(format!("S\t{}\n", job.idx));
                        let arm = |interrupt: Interrupter| {
                            *slot.lock().unwrap_or_else(|e| e.into_inner()) =
                                Some((Instant::now() + cfg.timeout, interrupt));
                        };
                        let result = run_job(&cfg.root, job, engine, &arm);
                        *slot.lock().unwrap_or_else(|e| e.into_inner()) = None;
                        let line = match result {
                            Ok(()) => format!("D\t{}\tP\t\n", job.idx),
                            Err(reason) => format!("D\t{}\tF\t{}\n", job.idx, escape(&reason)),
                        };
                        say(line);
                    })
                    .expect("spawn a worker thread")
            })
            .collect();
        for w in workers {
            let _ = w.join();
        }
        finished.store(true, Ordering::Relaxed);
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn escape_round_trip() {
        for s in ["plain", "a\nb\tc\\d\r", "\\n literally", ""] {
            assert_eq!(unescape(&escape(s)), s);
            assert!(!escape(s).contains('\n'));
        }
    }

    #[test]
    fn jobs_file_round_trip() {
        let p = std::env::temp_dir().join(format!("t262-jobs-{}", std::process::id()));
        let jobs = vec![
            JobSpec { idx: 3, path: "a/b.js".into(), mode: Mode::Strict },
            JobSpec { idx: 7, path: "c.js".into(), mode: Mode::Module },
        ];
        write_jobs(&p, &jobs).unwrap();
        assert_eq!(read_jobs(&p).unwrap(), jobs);
        std::fs::remove_file(&p).unwrap();
    }

    #[derive(Clone, Default)]
    struct Buf(Arc<Mutex<Vec<u8>>>);
    impl Write for Buf {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn worker_reports_pass_fail_panic_and_timeout() {
        let root = std::env::temp_dir().join(format!("t262-worker-{}", std::process::id()));
        std::fs::create_dir_all(root.join("test")).unwrap();
        for name in ["pass", "fail", "panic", "hang"] {
            std::fs::write(root.join("test").join(format!("{name}.js")), format!("/*---\nflags: []\n---*/\n{name}"))
                .unwrap();
        }
        let engine = |job: &TestJob<'_>, arm: &dyn Fn(Interrupter)| -> Result<(), String> {
            match job.source.lines().last().unwrap() {
                "pass" => Ok(()),
                "fail" => Err("Test262Error: nope".into()),
                "panic" => panic!("boom in engine"),
                _ => {
                    let stop = Arc::new(AtomicBool::new(false));
                    let s2 = stop.clone();
                    arm(Box::new(move || s2.store(true, Ordering::Relaxed)));
                    while !stop.load(Ordering::Relaxed) {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    Err("timeout".into())
                }
            }
        };
        let jobs: Vec<JobSpec> = ["pass", "fail", "panic", "hang"]
            .iter()
            .enumerate()
            .map(|(i, n)| JobSpec { idx: i, path: format!("{n}.js"), mode: Mode::Sloppy })
            .collect();
        let buf = Buf::default();
        let out: Mutex<Box<dyn Write + Send>> = Mutex::new(Box::new(buf.clone()));
        let cfg = WorkerConfig { root: root.clone(), threads: 2, timeout: Duration::from_millis(100) };
        install_quiet_panic_hook();
        run_worker(&cfg, &jobs, &engine, &out);
        let _ = panic::take_hook();
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        assert_eq!(text.lines().filter(|l| l.starts_with("S\t")).count(), 4, "{text}");
        assert!(text.contains("D\t0\tP\t"), "{text}");
        assert!(text.contains("D\t1\tF\tTest262Error: nope"), "{text}");
        assert!(text.contains("boom in engine"), "{text}");
        assert!(text.contains("D\t3\tF\ttimeout"), "{text}");
        std::fs::remove_dir_all(&root).unwrap();
    }
}
