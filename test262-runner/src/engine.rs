//! Running one test262 test in Iris: compile with the driver, a fresh `vm::Runtime` with the
//! `$262` host, the harness includes, the test, and the verdict (INTERPRETING.md).
//!
//! ```text
//!  negative parse test ── driver compile error of the expected type ─▶ pass
//!  other tests ── Runtime::new ─ $262 ─ assert.js, sta.js, [doneprintHandle.js], includes ─ test
//!     ├─ no exception (async: "Test262:AsyncTestComplete" printed) ─▶ pass
//!     └─ negative runtime test: uncaught error whose name is the expected type ─▶ pass
//! ```
//! Harness files are compiled once per process (non-strict, as their own scripts) and their
//! bundles reused by every test.

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::{Arc, Mutex};

use compiler::driver::{self, CompileError, CompileOptions};
use host::loader::FileLoader;
use vm::{JsError, ModuleLoader, ModuleSource, Runtime, RuntimeOptions};

use test262_runner::discover::Mode;
use test262_runner::frontmatter::Phase;
use test262_runner::worker::{Interrupter, TestJob};

/// Engine settings.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// Compiler options for tests and harness files.
    pub compile: CompileOptions,
    /// Heap limit per runtime, bytes.
    pub heap_limit: usize,
    /// The JIT's threshold (`RuntimeOptions::jit_threshold`); None: the interpreter only.
    pub jit_threshold: Option<u32>,
    /// Collect garbage at every safepoint (`RuntimeOptions::gc_stress`).
    pub gc_stress: bool,
}

/// A harness file's bundle, or why it has none.
type Compiled = Arc<Result<Vec<u8>, String>>;

/// Compiled harness files, shared by the worker threads.
pub struct Harness {
    dir: PathBuf,
    cache: Mutex<HashMap<String, Compiled>>,
}

impl Harness {
    /// Harness files come from `root/harness`.
    pub fn new(root: &Path) -> Harness {
        Harness { dir: root.join("harness"), cache: Mutex::new(HashMap::new()) }
    }

    /// The bundle of harness file `name`, compiled on first use.
    fn bundle(&self, name: &str, opts: &CompileOptions) -> Result<Vec<u8>, String> {
        if let Some(b) = self.cache.lock().unwrap_or_else(|e| e.into_inner()).get(name) {
            return (**b).clone();
        }
        let path = self.dir.join(name);
        let result = match std::fs::read_to_string(&path) {
            Err(e) => Err(format!("cannot read harness file {}: {e}", path.display())),
            Ok(src) => driver::compile(&src, name, opts)
                .map_err(|e| format!("harness file {name} does not compile: {}", e.render(name, &src))),
        };
        let result = Arc::new(result);
        self.cache.lock().unwrap_or_else(|e| e.into_inner()).insert(name.to_string(), result.clone());
        (*result).clone()
    }
}

/// Collects what the test prints (bounded: a test printing in a loop must not exhaust memory).
#[derive(Clone, Default)]
struct Output(Rc<RefCell<Vec<u8>>>);

const OUTPUT_LIMIT: usize = 1 << 20;

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut v = self.0.borrow_mut();
        let room = OUTPUT_LIMIT.saturating_sub(v.len());
        v.extend_from_slice(&buf[..buf.len().min(room)]);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn describe(e: &JsError) -> String {
    if e.interrupted {
        return "timeout: interrupted at the time limit".to_string();
    }
    if e.out_of_memory {
        return "heap limit exceeded".to_string();
    }
    let head = match (e.name.as_str(), e.message.as_str()) {
        ("", m) => format!("uncaught non-error value: {m}"),
        (n, "") => n.to_string(),
        (n, m) => format!("{n}: {m}"),
    };
    // The first frame says where: enough to find the failing assertion.
    match e.stack.lines().find(|l| l.trim_start().starts_with("at ")) {
        Some(frame) => format!("{head} ({})", frame.trim()),
        None => head,
    }
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

/// Finds modules as files, but gives the test's own bundle, compiled already, for the test.
struct TestLoader {
    entry: Option<(String, Vec<u8>)>,
    files: FileLoader,
}

impl ModuleLoader for TestLoader {
    fn resolve(&mut self, specifier: &str, referrer: Option<&str>) -> Result<String, String> {
        if referrer.is_none() && self.entry.as_ref().is_some_and(|e| e.0 == specifier) {
            return Ok(specifier.to_string());
        }
        self.files.resolve(specifier, referrer)
    }

    fn load(&mut self, key: &str) -> Result<ModuleSource, String> {
        match &self.entry {
            Some((k, bundle)) if k == key => Ok(ModuleSource::Bundle(bundle.clone())),
            _ => self.files.load(key),
        }
    }
}

/// Runs one test; `Ok` when it passes.
pub fn run_test(
    job: &TestJob<'_>,
    arm: &dyn Fn(Interrupter),
    harness: &Harness,
    cfg: &EngineConfig,
) -> Result<(), String> {
    let meta = job.meta;
    let module = job.mode == Mode::Module;
    let raw = meta.has_flag("raw");
    let source = match job.mode {
        // INTERPRETING.md: the directive, a semicolon and a newline come first.
        Mode::Strict => format!("\"use strict\";\n{}", job.source),
        _ => job.source.to_string(),
    };
    // The test's own path names it: module tests and `import()` find their fixtures from it.
    let path = job.root.join("test").join(job.rel);
    let path = path.canonicalize().unwrap_or(path);
    let name = path.to_string_lossy().into_owned();
    let compiled = driver::compile(&source, &name, &CompileOptions { module, ..cfg.compile.clone() });

    if let Some(neg) = &meta.negative {
        match neg.phase {
            Phase::Parse => {
                return match compiled {
                    Err(CompileError::Syntax(_)) if neg.error_type == "SyntaxError" => Ok(()),
                    Err(e) => Err(format!(
                        "expected a {} at parse time, got: {}",
                        neg.error_type,
                        first_line(&e.render(&name, &source))
                    )),
                    Ok(_) => Err(format!("expected a {} at parse time, but the test compiled", neg.error_type)),
                };
            }
            Phase::Resolution | Phase::Runtime => {}
        }
    }
    let bundle = compiled.map_err(|e| format!("compile error: {}", first_line(&e.render(&name, &source))))?;

    // Unhandled rejections are not failures in test262 (a test fails by throwing, or through
    // $DONE for async tests), so they are not tracked.
    let options = RuntimeOptions {
        heap_limit: cfg.heap_limit,
        report_unhandled_rejections: false,
        jit_threshold: cfg.jit_threshold,
        gc_stress: cfg.gc_stress,
        can_block: !meta.has_flag("CanBlockIsFalse"),
        ..RuntimeOptions::default()
    };
    let mut rt = Runtime::new(options.clone());
    rt.set_compiler(driver::compile_hook(cfg.compile.clone()));
    // $262.agent.start: agents are runtimes like this one, on their own threads.
    let compile = cfg.compile.clone();
    let agent_options = RuntimeOptions { can_block: true, ..options };
    rt.set_agent_factory(std::sync::Arc::new(move || {
        let mut agent = Runtime::new(agent_options.clone());
        agent.set_compiler(driver::compile_hook(compile.clone()));
        agent.set_output(Box::new(std::io::sink()));
        agent.install_test262_host();
        agent
    }));
    let output = Output::default();
    rt.set_output(Box::new(output.clone()));
    rt.install_test262_host();
    // A module test's own bundle is the module of its path (a script test imported as a
    // module is compiled again, as a module).
    let entry = if module { Some((name.clone(), bundle.clone())) } else { None };
    rt.set_module_loader(Box::new(TestLoader { entry, files: FileLoader }));
    let handle = rt.interrupt_handle();
    arm(Box::new(move || handle.interrupt()));

    let is_async = meta.has_flag("async");
    if !raw {
        let mut includes: Vec<&str> = vec!["assert.js", "sta.js"];
        if is_async {
            includes.push("doneprintHandle.js");
        }
        includes.extend(meta.includes.iter().map(String::as_str));
        for inc in includes {
            let b = harness.bundle(inc, &cfg.compile)?;
            rt.run_bundle(b).map_err(|e| format!("harness file {inc} threw: {}", describe(&e)))?;
        }
    }
    let result = if module { rt.run_module(&name) } else { rt.run_bundle(bundle) };
    let printed = String::from_utf8_lossy(&output.0.borrow()).into_owned();
    match (&meta.negative, result) {
        (Some(neg), Err(e)) if !e.interrupted && !e.out_of_memory => {
            if e.name == neg.error_type {
                Ok(())
            } else {
                Err(format!("expected a {} at run time, got {}", neg.error_type, describe(&e)))
            }
        }
        (Some(neg), Ok(())) => Err(format!("expected a {} at run time, but the test completed", neg.error_type)),
        (_, Err(e)) => Err(describe(&e)),
        (None, Ok(())) if is_async => {
            if let Some(line) = printed.lines().find(|l| l.starts_with("Test262:AsyncTestFailure:")) {
                Err(line.trim_start_matches("Test262:AsyncTestFailure:").to_string())
            } else if printed.lines().any(|l| l == "Test262:AsyncTestComplete") {
                Ok(())
            } else {
                Err("async test did not call $DONE".to_string())
            }
        }
        (None, Ok(())) => Ok(()),
    }
}
