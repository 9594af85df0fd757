//! `test262-runner`: runs tc39/test262 against Iris, in process and in parallel, and holds the
//! results to a committed expectations file.
//!
//! ```text
//!  find tests ─ frontmatter ─ jobs (test × mode) ─▶ supervisor ─▶ worker child (--worker)
//!                                                      │              threads × engine::run_test
//!                                                      ▼
//!          progress line ─ summary (overall, per area, per directory) ─ JSON ─ --check/--update
//! ```
//! `cargo run --release -p test262-runner -- [FILTERS] [--check|--update]`; see `--help`.

mod engine;

use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use clap::Parser;
use compiler::driver::CompileOptions;
use indicatif::{ProgressBar, ProgressStyle};

use test262_runner::discover::{self, Mode};
use test262_runner::report::{self, TestResult};
use test262_runner::worker::{self, JobSpec};
use test262_runner::{expectations, frontmatter, supervisor};

/// Runs tc39/test262 against Iris.
///
/// Tests come from $TEST262_DIR, else ../shared/test262 beside the repository. Every test runs
/// in a fresh runtime, in strict and non-strict mode as its flags say, on a worker thread per
/// core, with a time and a heap limit; a test that crashes its worker process is reported as
/// that test's failure. `test/intl402` and `test/staging` are left out unless named.
#[derive(Parser, Debug)]
#[command(name = "test262-runner", version)]
struct Cli {
    /// Tests to run: directories or files under test/ (e.g. built-ins/Array), or substrings of
    /// their paths. All of test/ (less intl402 and staging) when none.
    filters: Vec<String>,

    /// The test262 checkout (default: $TEST262_DIR, else ../shared/test262).
    #[arg(long, value_name = "DIR")]
    test262_dir: Option<PathBuf>,

    /// Fail (exit 1) when a test not listed in the expectations file fails; list the listed
    /// tests that now pass.
    #[arg(long)]
    check: bool,

    /// Rewrite the expectations file from this run (entries of tests that did not run are kept).
    #[arg(long, conflicts_with = "check")]
    update: bool,

    /// The expectations file.
    #[arg(long, value_name = "FILE")]
    expectations: Option<PathBuf>,

    /// Where to write every result as JSON (default: target/test262-results.json).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,

    /// Worker threads (default: one per core).
    #[arg(short = 'j', long, value_name = "N")]
    threads: Option<usize>,

    /// Time limit per test, seconds (the interpreter is interrupted).
    #[arg(long, default_value_t = 10, value_name = "SECS")]
    timeout: u64,

    /// Heap limit per test, MiB.
    #[arg(long, default_value_t = 512, value_name = "MIB")]
    heap_limit_mb: usize,

    /// Compile without the optimizer (-O0).
    #[arg(long)]
    o0: bool,

    /// Compile every function before running a test (without it, as `iris` runs source,
    /// most functions are compiled at their first call).
    #[arg(long)]
    eager: bool,

    /// Run the HIR verifier after IRGen and after every pass (the default in debug builds).
    #[arg(long)]
    verify: bool,

    /// Run with the JIT, compiling a function after this many calls (0: every function at
    /// its first call). Without it, tests run in the interpreter.
    #[arg(long, value_name = "N")]
    jit_threshold: Option<u32>,

    /// Collect garbage at every safepoint (`iris --gc-stress`): a missing GC root shows as a
    /// use of a freed cell. Slow; the CI runs a sample (`--shard 0/50`).
    #[arg(long)]
    gc_stress: bool,

    /// Run a test that runs in both strict and non-strict mode in non-strict mode only (about
    /// half the runs; the JIT gates use it, the interpreter's gate runs both).
    #[arg(long)]
    one_mode: bool,

    /// Run every Nth test only, starting at the Kth (`K/N`, 0 ≤ K < N, in path order): the
    /// CI's two JIT gates split the suite between them this way.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    shard: Option<(usize, usize)>,

    /// Print every failure with its reason.
    #[arg(short, long)]
    verbose: bool,

    /// Run in this process, without a supervising parent (a crash ends the run).
    #[arg(long)]
    in_process: bool,

    /// Internal: run as a worker over --jobs-file, reporting on stdout.
    #[arg(long, hide = true)]
    worker: bool,

    /// Internal: the worker's jobs file.
    #[arg(long, hide = true)]
    jobs_file: Option<PathBuf>,
}

/// `K/N` with 0 ≤ K < N.
fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let (k, n) = s.split_once('/').ok_or("expected K/N")?;
    let (k, n) = (k.parse::<usize>().map_err(|e| e.to_string())?, n.parse::<usize>().map_err(|e| e.to_string())?);
    if k >= n {
        return Err("K must be less than N".into());
    }
    Ok((k, n))
}

fn engine_config(cli: &Cli) -> engine::EngineConfig {
    let mut compile = CompileOptions::default();
    if cli.o0 {
        compile.opt_level = ir::passes::OptLevel::O0;
    }
    compile.verify |= cli.verify;
    compile.lazy = !cli.eager;
    engine::EngineConfig {
        compile,
        heap_limit: cli.heap_limit_mb << 20,
        jit_threshold: cli.jit_threshold,
        gc_stress: cli.gc_stress,
    }
}

fn threads(cli: &Cli) -> usize {
    cli.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get())).max(1)
}

fn worker_main(cli: &Cli, root: &Path) -> ExitCode {
    let Some(jobs_file) = &cli.jobs_file else {
        eprintln!("error: --worker needs --jobs-file");
        return ExitCode::from(2);
    };
    let jobs = match worker::read_jobs(jobs_file) {
        Ok(j) => j,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    worker::install_quiet_panic_hook();
    let harness = engine::Harness::new(root);
    let cfg = engine_config(cli);
    let run = |job: &worker::TestJob<'_>, arm: &dyn Fn(worker::Interrupter)| engine::run_test(job, arm, &harness, &cfg);
    let wcfg = worker::WorkerConfig {
        root: root.to_path_buf(),
        threads: threads(cli),
        timeout: Duration::from_secs(cli.timeout),
    };
    let out: Mutex<Box<dyn Write + Send>> = Mutex::new(Box::new(std::io::stdout()));
    worker::run_worker(&wcfg, &jobs, &run, &out);
    ExitCode::SUCCESS
}

/// Plain progress lines for logs (no terminal): one per tenth of the run.
struct Progress {
    bar: Option<ProgressBar>,
    total: usize,
    done: usize,
    passed: usize,
    next_note: usize,
    start: Instant,
}

impl Progress {
    fn new(total: usize) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let b = ProgressBar::new(total as u64);
            b.set_style(
                ProgressStyle::with_template("{elapsed_precise} [{bar:40.cyan/blue}] {pos}/{len} {msg} (eta {eta})")
                    .expect("valid template")
                    .progress_chars("=> "),
            );
            b
        });
        Progress { bar, total, done: 0, passed: 0, next_note: total / 10, start: Instant::now() }
    }

    fn record(&mut self, passed: bool) {
        self.done += 1;
        self.passed += usize::from(passed);
        match &self.bar {
            Some(b) => {
                b.set_position(self.done as u64);
                b.set_message(format!("passed {} failed {}", self.passed, self.done - self.passed));
            }
            None if self.done >= self.next_note && self.done < self.total => {
                eprintln!(
                    "test262: {}/{} runs, {} pass, {:.0}s",
                    self.done,
                    self.total,
                    self.passed,
                    self.start.elapsed().as_secs_f64()
                );
                self.next_note += (self.total / 10).max(1);
            }
            None => {}
        }
    }

    fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

/// How to start workers with a given time limit and thread count.
fn supervisor_config(cli: &Cli, root: &Path, timeout: u64, threads: usize) -> supervisor::SupervisorConfig {
    let mut worker_args = vec![
        "--test262-dir".to_string(),
        root.display().to_string(),
        "--timeout".to_string(),
        timeout.to_string(),
        "--heap-limit-mb".to_string(),
        cli.heap_limit_mb.to_string(),
    ];
    if cli.eager {
        worker_args.push("--eager".to_string());
    }
    if cli.o0 {
        worker_args.push("--o0".to_string());
    }
    if cli.verify {
        worker_args.push("--verify".to_string());
    }
    if let Some(t) = cli.jit_threshold {
        worker_args.extend(["--jit-threshold".to_string(), t.to_string()]);
    }
    if cli.gc_stress {
        worker_args.push("--gc-stress".to_string());
    }
    supervisor::SupervisorConfig {
        // Without a path to this executable the supervisor cannot start workers; it reports
        // that as every test's failure.
        exe: std::env::current_exe().unwrap_or_else(|_| PathBuf::from("test262-runner")),
        worker_args,
        threads,
        hard_limit: Duration::from_secs(timeout * 3 + 30),
        scratch: discover::repo_root().join("target").join("test262-jobs"),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let root = match cli.test262_dir.clone().or_else(discover::default_test262_dir) {
        Some(r) if r.join("test").is_dir() && r.join("harness").is_dir() => r,
        other => {
            let looked = other.map_or_else(
                || discover::repo_root().join("../shared/test262").display().to_string(),
                |p| p.display().to_string(),
            );
            println!(
                "test262-runner: no test262 checkout at {looked}; nothing to run.\n\
                 Get the suite with `git clone https://github.com/tc39/test262` and point TEST262_DIR at it\n\
                 (or pass --test262-dir); the tests Iris is held to are listed in test262-runner/expectations.txt."
            );
            return ExitCode::SUCCESS;
        }
    };
    if cli.worker {
        return worker_main(&cli, &root);
    }
    let start = Instant::now();
    let commit = std::fs::read_to_string(root.join("COMMIT")).map(|s| s.trim().to_string()).unwrap_or_default();
    let mut tests = discover::find_tests(&root, &cli.filters);
    if let Some((k, n)) = cli.shard {
        tests = tests.into_iter().skip(k).step_by(n).collect();
    }
    if tests.is_empty() {
        eprintln!("test262-runner: no tests match {:?} under {}", cli.filters, root.join("test").display());
        return ExitCode::from(2);
    }
    // Jobs: one per test and mode. A test whose metadata does not parse fails in every mode.
    let mut jobs: Vec<JobSpec> = Vec::new();
    let mut results: Vec<Option<TestResult>> = Vec::new();
    let mut early: Vec<TestResult> = Vec::new();
    for rel in &tests {
        let source = std::fs::read(root.join("test").join(rel))
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default();
        match frontmatter::parse(&source) {
            Ok(meta) => {
                let mut modes = discover::modes_for(&meta);
                if cli.one_mode {
                    modes.truncate(1);
                }
                for mode in modes {
                    jobs.push(JobSpec { idx: jobs.len(), path: rel.clone(), mode });
                    results.push(None);
                }
            }
            Err(e) => early.push(TestResult {
                path: rel.clone(),
                mode: Mode::Sloppy,
                passed: false,
                reason: format!("bad metadata: {e}"),
            }),
        }
    }
    eprintln!(
        "test262-runner: {} tests, {} runs, {} threads, test262 {}",
        tests.len(),
        jobs.len(),
        threads(&cli),
        if commit.is_empty() { "(no COMMIT file)" } else { &commit }
    );
    let mut progress = Progress::new(jobs.len());
    let verbose = cli.verbose;
    let mut record = |idx: usize, passed: bool, reason: String| {
        progress.record(passed);
        let job = &jobs[idx];
        if verbose && !passed {
            let line = format!("FAIL {} ({}): {}", job.path, job.mode, reason.lines().next().unwrap_or(""));
            match &progress.bar {
                Some(b) => b.println(line),
                None => eprintln!("{line}"),
            }
        }
        results[idx] = Some(TestResult { path: job.path.clone(), mode: job.mode, passed, reason });
    };
    if cli.in_process {
        worker::install_quiet_panic_hook();
        let harness = engine::Harness::new(&root);
        let cfg = engine_config(&cli);
        let run =
            |job: &worker::TestJob<'_>, arm: &dyn Fn(worker::Interrupter)| engine::run_test(job, arm, &harness, &cfg);
        let wcfg = worker::WorkerConfig {
            root: root.clone(),
            threads: threads(&cli),
            timeout: Duration::from_secs(cli.timeout),
        };
        // The worker's protocol, read back in this process.
        let buf = std::sync::Arc::new(Mutex::new(Vec::<u8>::new()));
        struct Sink(std::sync::Arc<Mutex<Vec<u8>>>);
        impl Write for Sink {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap_or_else(|e| e.into_inner()).extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let out: Mutex<Box<dyn Write + Send>> = Mutex::new(Box::new(Sink(buf.clone())));
        worker::run_worker(&wcfg, &jobs, &run, &out);
        let text = String::from_utf8_lossy(&buf.lock().unwrap_or_else(|e| e.into_inner())).into_owned();
        for line in text.lines() {
            let mut parts = line.splitn(4, '\t');
            if let (Some("D"), Some(idx)) = (parts.next(), parts.next().and_then(|s| s.parse().ok())) {
                let passed = parts.next() == Some("P");
                record(idx, passed, worker::unescape(parts.next().unwrap_or("")));
            }
        }
        let _ = std::panic::take_hook();
    } else {
        let scfg = supervisor_config(&cli, &root, cli.timeout, threads(&cli));
        if let Err(e) = supervisor::run_all(&scfg, &jobs, &mut record) {
            progress.finish();
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    }
    progress.finish();
    let mut all: Vec<TestResult> = early;
    for (i, r) in results.into_iter().enumerate() {
        all.push(r.unwrap_or_else(|| TestResult {
            path: jobs[i].path.clone(),
            mode: jobs[i].mode,
            passed: false,
            reason: "no result reported".to_string(),
        }));
    }
    all.sort_by(|a, b| (&a.path, a.mode).cmp(&(&b.path, b.mode)));
    let exp_path = cli
        .expectations
        .clone()
        .unwrap_or_else(|| discover::repo_root().join("test262-runner").join("expectations.txt"));
    if cli.check && !cli.in_process {
        // A test that passes but ran out of time on a loaded machine is not a regression: run
        // the unexpected timeouts again, one at a time, with three times the limit.
        let expected = expectations::read(&exp_path).unwrap_or_default();
        let retry: Vec<usize> = (0..all.len())
            .filter(|&i| {
                !all[i].passed
                    && all[i].reason.starts_with("timeout")
                    && !expected.contains(&(all[i].path.clone(), all[i].mode))
            })
            .collect();
        if !retry.is_empty() {
            eprintln!(
                "test262-runner: {} unexpected timeouts; running them again alone with 3x the time limit",
                retry.len()
            );
            let jobs: Vec<JobSpec> = retry
                .iter()
                .enumerate()
                .map(|(k, &i)| JobSpec { idx: k, path: all[i].path.clone(), mode: all[i].mode })
                .collect();
            let scfg = supervisor_config(&cli, &root, cli.timeout * 3, 1);
            let mut again = |k: usize, passed: bool, reason: String| {
                let r = &mut all[retry[k]];
                r.passed = passed;
                r.reason = reason;
            };
            if let Err(e) = supervisor::run_all(&scfg, &jobs, &mut again) {
                eprintln!("warning: the retry failed: {e}");
            }
        }
    }
    let elapsed = start.elapsed();
    print!("{}", report::summary(&all, elapsed));
    let json = cli.json.clone().unwrap_or_else(|| discover::repo_root().join("target").join("test262-results.json"));
    match report::write_json(&json, &all, elapsed, &commit) {
        Ok(()) => println!("results: {}", json.display()),
        Err(e) => eprintln!("warning: {e}"),
    }

    let ran: HashMap<expectations::Key, bool> = all.iter().map(|r| ((r.path.clone(), r.mode), r.passed)).collect();
    if cli.update || cli.check {
        let expected = match expectations::read(&exp_path) {
            Ok(e) => e,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        };
        if cli.update {
            let new = expectations::updated(&expected, &ran);
            if let Err(e) = std::fs::write(&exp_path, expectations::render(&new)) {
                eprintln!("error: cannot write {}: {e}", exp_path.display());
                return ExitCode::from(2);
            }
            println!("updated {}: {} known failures (was {})", exp_path.display(), new.len(), expected.len());
            return ExitCode::SUCCESS;
        }
        let cmp = expectations::compare(&expected, &ran);
        let reasons: HashMap<(&str, Mode), &str> =
            all.iter().map(|r| ((r.path.as_str(), r.mode), r.reason.as_str())).collect();
        if !cmp.new_passes.is_empty() {
            println!(
                "{} tests listed in {} now pass (tighten it with --update):",
                cmp.new_passes.len(),
                exp_path.display()
            );
            for (p, m) in cmp.new_passes.iter().take(200) {
                println!("  PASS {p} {m}");
            }
        }
        if !cmp.new_failures.is_empty() {
            println!(
                "{} regressions: tests that fail but are not listed in {}:",
                cmp.new_failures.len(),
                exp_path.display()
            );
            for (p, m) in &cmp.new_failures {
                let why = reasons.get(&(p.as_str(), *m)).copied().unwrap_or("");
                println!("  FAIL {p} {m}: {}", why.lines().next().unwrap_or(""));
            }
            println!("test262 check: FAILED with {} regressions", cmp.new_failures.len());
            return ExitCode::FAILURE;
        }
        println!("test262 check: no regressions ({} known failures listed)", expected.len());
    }
    ExitCode::SUCCESS
}
