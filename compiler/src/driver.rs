//! The driver: source → HIR → optimized HIR → bundle, with diagnostics, for the `iris` CLI,
//! the test262 runner and the VM's compile hook (eval-like features, `$262.evalScript`).
//!
//! ```text
//!  source ─ irgen::lower_script ─▶ HIR ─ verify ─ passes::run_pipeline(level, verify each) ─▶
//!  optimized HIR ─ backend::compile_module ─▶ bundle bytes
//! ```
//! With `CompileOptions::verify` (the default in debug builds, `--verify` on the CLI) the HIR
//! verifier runs after IRGen and after every pass. Errors come in two kinds: syntax errors in
//! the program ([`CompileError::Syntax`], rendered `app.js:3:14: SyntaxError: message` with the
//! source line and a caret), and internal errors (a verifier or backend failure: a bug in Iris,
//! reported with what failed).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use bytecode::{Bundle, SourceMode};
use ir::passes::OptLevel;
use ir::Module;

use crate::backend::{self, BackendOptions, FunctionStats};
use crate::frontend::Diagnostic;
use crate::irgen::{self, IrGenOptions};

/// How to compile.
#[derive(Clone, Debug)]
pub struct CompileOptions {
    /// `O0`: no optimizer passes; `O` (the default): the full pipeline.
    pub opt_level: OptLevel,
    /// Run the HIR verifier after IRGen and after every pass.
    pub verify: bool,
    /// Compile the script as strict mode code (as if it began with `"use strict";`).
    pub strict: bool,
    /// Compile global eval code (an indirect `eval`) rather than a script: top-level `let`,
    /// `const` and `class` are local to the evaluation (ECMA-262 19.2.1.3).
    pub eval_code: bool,
    /// Compile module code (the Module goal): the bundle carries its module record.
    pub module: bool,
    /// Compile direct eval code against this description of its caller's scope (see
    /// `frontend::eval`).
    pub eval_scope: Option<String>,
    /// How the bundle keeps the source text of functions: as it is (the default, for
    /// bundles that run at once), compressed (`iris compile`) or not at all
    /// (`iris compile --strip-source`).
    pub source: SourceMode,
    /// Leave functions uncompiled until their first call where possible (running source:
    /// the bundle keeps their text and the VM compiles it with the compile hook). Never
    /// for bundles written to files, which must run without a compiler.
    pub lazy: bool,
    /// The source is one function left uncompiled, with this name, compiled now against
    /// `eval_scope` (its bundle's function 1 is the function).
    pub function_name: Option<String>,
    /// Parse and lower on the calling thread (`irgen::lower_script_here`): it has a stack
    /// of `irgen::LOWERING_STACK` and runs no JavaScript yet. Never for the compile hook.
    pub lower_here: bool,
    /// Stop (with `CompileError::Interrupted`) once this flag is set: a runtime's interrupt
    /// (`vm::InterruptHandle::flag`), which its compile hook then also stops at.
    pub interrupt: Option<Arc<AtomicBool>>,
}

impl Default for CompileOptions {
    fn default() -> CompileOptions {
        CompileOptions {
            opt_level: OptLevel::O,
            verify: cfg!(debug_assertions),
            strict: false,
            eval_code: false,
            module: false,
            eval_scope: None,
            source: SourceMode::Plain,
            lazy: false,
            function_name: None,
            lower_here: false,
            interrupt: None,
        }
    }
}

/// Why a compilation failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompileError {
    /// The program has syntax errors (including early errors and unsupported features).
    Syntax(Vec<Diagnostic>),
    /// Iris failed on a valid program: a verifier or backend error (a bug).
    Internal(String),
    /// The host asked the compilation to stop (`CompileOptions::interrupt`).
    Interrupted,
}

impl CompileError {
    /// A failure of the optimizer or the backend: `Interrupted` if they stopped because the
    /// host asked (`ir::cancel`), else an internal error.
    fn from_passes(message: String) -> CompileError {
        if message == ir::cancel::STOPPED {
            CompileError::Interrupted
        } else {
            CompileError::Internal(message)
        }
    }
}

impl CompileError {
    /// The error as the CLI prints it: every diagnostic with its source line and caret, or the
    /// internal error with the file name.
    pub fn render(&self, file_name: &str, source: &str) -> String {
        match self {
            CompileError::Syntax(diags) => {
                diags.iter().map(|d| d.render(file_name, source)).collect::<Vec<_>>().join("\n")
            }
            CompileError::Internal(msg) => format!("{file_name}: internal compiler error: {msg}"),
            CompileError::Interrupted => format!("{file_name}: {}", ir::cancel::STOPPED),
        }
    }

    /// The error as an exception message naming the file: `SyntaxError: message
    /// (file:line:column)` (the first diagnostic), or the internal error.
    pub fn exception_text_in(&self, file_name: &str) -> String {
        match self {
            CompileError::Syntax(diags) => match diags.first() {
                Some(d) => format!("SyntaxError: {} ({file_name}:{}:{})", d.message, d.line, d.col),
                None => format!("SyntaxError: invalid program ({file_name})"),
            },
            CompileError::Internal(msg) => format!("SyntaxError: internal compiler error in {file_name}: {msg}"),
            CompileError::Interrupted => format!("Error: {} ({file_name})", ir::cancel::STOPPED),
        }
    }

    /// The error as an exception message for the VM: `SyntaxError: message` (the first
    /// diagnostic), or the internal error.
    pub fn exception_text(&self) -> String {
        match self {
            CompileError::Syntax(diags) => match diags.first() {
                Some(d) => format!("SyntaxError: {}", d.message),
                None => "SyntaxError: invalid program".to_string(),
            },
            CompileError::Internal(msg) => format!("SyntaxError: internal compiler error: {msg}"),
            CompileError::Interrupted => format!("Error: {}", ir::cancel::STOPPED),
        }
    }
}

fn verify(module: &Module, when: &str) -> Result<(), CompileError> {
    ir::verify::verify_module(module).map_err(|errors| {
        CompileError::Internal(format!("the HIR does not verify {when}:\n{}", ir::verify::render_errors(&errors)))
    })
}

/// Source → HIR (IRGen), verified when `opts.verify`.
pub fn lower(source: &str, file_name: &str, opts: &CompileOptions) -> Result<Module, CompileError> {
    let irgen_opts = IrGenOptions {
        strict: opts.strict,
        eval_code: opts.eval_code,
        module: opts.module,
        eval_scope: opts.eval_scope.clone(),
        lazy: opts.lazy && opts.source == SourceMode::Plain,
        function_name: opts.function_name.clone(),
    };
    let lower = if opts.lower_here { irgen::lower_script_here } else { irgen::lower_script };
    let module = lower(source, file_name, &irgen_opts).map_err(CompileError::Syntax)?;
    if opts.verify {
        ir::timing::phase("verify", || verify(&module, "after IRGen"))?;
    }
    Ok(module)
}

/// Runs the optimizer pipeline of `opts.opt_level` (verifying after every pass when
/// `opts.verify`).
pub fn optimize(module: &mut Module, opts: &CompileOptions) -> Result<(), CompileError> {
    ir::timing::phase("optimize", || ir::passes::run_pipeline(module, opts.opt_level, opts.verify))
        .map_err(CompileError::from_passes)
}

/// Runs the named passes in order instead of a pipeline (each verified).
pub fn run_passes(module: &mut Module, passes: &[String]) -> Result<(), CompileError> {
    for p in passes {
        ir::passes::run_pass_by_name(module, p).map_err(CompileError::Internal)?;
    }
    Ok(())
}

/// The backend's options for `opts`: always with debug info (source locations for stack
/// traces).
fn backend_options(opts: &CompileOptions) -> BackendOptions {
    BackendOptions { debug_info: true, source: opts.source }
}

/// HIR → bundle bytes. The HIR of each function is freed once it is lowered.
pub fn emit(module: Module, opts: &CompileOptions) -> Result<Vec<u8>, CompileError> {
    ir::timing::phase("backend", || backend::compile_module(module, &backend_options(opts)))
        .map_err(CompileError::from_passes)
}

/// Source → bundle bytes.
pub fn compile(source: &str, file_name: &str, opts: &CompileOptions) -> Result<Vec<u8>, CompileError> {
    ir::cancel::watching(opts.interrupt.clone(), || {
        let mut module = lower(source, file_name, opts)?;
        optimize(&mut module, opts)?;
        emit(module, opts)
    })
}

/// A module graph → one bundle of all its modules (`backend::compile_graph`): the module
/// with key `entry` and every module it imports, found with `loader` and compiled with
/// `opts` (JSON modules are kept as text). Errors are rendered for a terminal: a syntax
/// error with its file, line and column, an unresolvable import with the importing file
/// and the position of the import.
pub fn compile_module_graph(
    entry: &str,
    loader: &mut dyn vm::ModuleLoader,
    opts: &CompileOptions,
) -> Result<Vec<u8>, String> {
    let opts = CompileOptions { module: true, ..opts.clone() };
    let mut modules = Vec::new();
    // (key, the `type` attribute); JSON, text and bytes modules are kept as their value.
    let mut queue = std::collections::VecDeque::from([(entry.to_string(), String::new())]);
    let mut seen: std::collections::HashSet<(String, String)> = queue.iter().cloned().collect();
    while let Some((key, ty)) = queue.pop_front() {
        let text = match (loader.load(&key)?, ty.as_str()) {
            (vm::ModuleSource::Bundle(_), _) => {
                return Err(format!("{key}: a compiled bundle cannot be bundled again"))
            }
            (vm::ModuleSource::Text(text), t) if !matches!(t, "json" | "text" | "bytes") => text,
            (source, t) => {
                let value = match (source, t) {
                    (vm::ModuleSource::Text(text), "json") => vm::ModuleValue::Json(text),
                    (vm::ModuleSource::Text(text), "text") => vm::ModuleValue::Text(text),
                    (vm::ModuleSource::Text(text), _) => vm::ModuleValue::Bytes(text.into_bytes()),
                    (vm::ModuleSource::Bytes(bytes), "bytes") => vm::ModuleValue::Bytes(bytes),
                    _ => return Err(format!("Module '{key}' is not UTF-8 text")),
                };
                modules.push(backend::GraphModule::Value { key, value });
                continue;
            }
        };
        let mut module = lower(&text, &key, &opts).map_err(|e| e.render(&key, &text))?;
        optimize(&mut module, &opts).map_err(|e| e.render(&key, &text))?;
        let mut resolved = Vec::new();
        for r in module.module_record.iter().flat_map(|m| &m.requests) {
            let specifier = module.atom_str(r.specifier);
            let ty =
                r.attributes.iter().find(|&&(k, _)| module.atom_str(k) == "type").map(|&(_, v)| module.atom_str(v));
            let ty = ty.unwrap_or_default();
            let dep = loader
                .resolve(&specifier, Some(&key))
                .map_err(|e| format!("{key}:{}:{}: cannot import '{specifier}': {e}", r.loc.line, r.loc.col))?;
            if seen.insert((dep.clone(), ty.clone())) {
                queue.push_back((dep.clone(), ty));
            }
            resolved.push(dep);
        }
        modules.push(backend::GraphModule::Code { module: Box::new(module), resolved });
    }
    ir::timing::phase("backend", || backend::compile_graph(modules, &backend_options(&opts)))
}

/// Source → bundle bytes, with errors rendered for a terminal.
pub fn compile_to_bundle(source: &str, file_name: &str, opts: &CompileOptions) -> Result<Vec<u8>, String> {
    compile(source, file_name, opts).map_err(|e| e.render(file_name, source))
}

/// Parses HIR text (an `.ir` file), verified.
pub fn parse_ir(text: &str) -> Result<Module, CompileError> {
    let module = ir::parse::parse_module(text).map_err(|e| CompileError::Internal(format!("HIR parse error: {e}")))?;
    verify(&module, "as parsed")?;
    Ok(module)
}

/// Which HIR to dump.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IrStage {
    /// As IRGen made it.
    Lowered,
    /// After the pipeline of the options' level.
    Optimized,
    /// After exactly these passes, in order.
    Passes(Vec<String>),
}

/// The HIR text of `module` at `stage` (the module is transformed in place).
pub fn dump_module_at(module: &mut Module, stage: &IrStage, opts: &CompileOptions) -> Result<String, CompileError> {
    match stage {
        IrStage::Lowered => {}
        IrStage::Optimized => optimize(module, opts)?,
        IrStage::Passes(p) => run_passes(module, p)?,
    }
    Ok(ir::dump::dump_module(module))
}

/// The HIR of a source file, after IRGen (`optimized == false`) or after the optimizer.
pub fn dump_ir(source: &str, file_name: &str, optimized: bool, opts: &CompileOptions) -> Result<String, String> {
    let stage = if optimized { IrStage::Optimized } else { IrStage::Lowered };
    lower(source, file_name, opts)
        .and_then(|mut m| dump_module_at(&mut m, &stage, opts))
        .map_err(|e| e.render(file_name, source))
}

/// The disassembly of a bundle's bytes (verified first).
pub fn disassemble(bytes: Vec<u8>) -> Result<String, String> {
    let bundle = Bundle::from_bytes(bytes).map_err(|e| e.to_string())?;
    Ok(bytecode::disassemble(&bundle))
}

/// The bytecode disassembly of a source file.
pub fn dump_bytecode(source: &str, file_name: &str, opts: &CompileOptions) -> Result<String, String> {
    let bytes = compile_to_bundle(source, file_name, opts)?;
    disassemble(bytes).map_err(|e| format!("{file_name}: internal compiler error: the backend wrote a bad bundle: {e}"))
}

/// Register allocation figures per function, one line each.
pub fn backend_stats(module: &mut Module) -> Result<String, CompileError> {
    let (_, stats) = backend::compile_module_with_stats(module, &backend_options(&CompileOptions::default()))
        .map_err(CompileError::Internal)?;
    let mut out =
        String::from("function               ssa  regs  slots  alloc  phi-coalesced  phi-kept  arg-coalesced  bytes\n");
    for s in &stats {
        out.push_str(&stats_line(s));
    }
    Ok(out)
}

fn stats_line(s: &FunctionStats) -> String {
    let name = if s.name.is_empty() { "(anonymous)" } else { &s.name };
    format!(
        "{name:<20} {:>5} {:>5} {:>6} {:>6} {:>14} {:>9} {:>14} {:>6}\n",
        s.ssa_values,
        s.frame_size,
        s.stack_slots,
        s.allocated_registers,
        s.phi_moves_coalesced,
        s.phi_moves_kept,
        s.arg_moves_coalesced,
        s.code_size
    )
}

/// The VM's compile hook: compiles with `opts` (a hook never compiles strict by default:
/// evalScript and global eval code choose strictness with their own directives).
pub fn compile_hook(opts: CompileOptions) -> vm::CompileHook {
    // Called from running code, on a stack already in use.
    let opts = CompileOptions { strict: false, lower_here: false, ..opts };
    Box::new(move |source: &str, file_name: &str, kind: vm::SourceKind| {
        let module = kind == vm::SourceKind::Module;
        let (eval_scope, function_name) = match &kind {
            vm::SourceKind::DirectEval(scope) => (Some(scope.clone()), None),
            vm::SourceKind::Function { scope, name } => (Some(scope.clone()), Some(name.clone())),
            _ => (None, None),
        };
        let eval_code =
            matches!(kind, vm::SourceKind::Eval | vm::SourceKind::DirectEval(_) | vm::SourceKind::Function { .. });
        let opts = CompileOptions { eval_code, module, eval_scope, function_name, ..opts.clone() };
        compile(source, file_name, &opts).map_err(|e| match module {
            // An error in one module of a graph says which file it is in.
            true => e.exception_text_in(file_name),
            false => e.exception_text(),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_errors_render_with_location() {
        let src = "var a = 1;\nvar b = ;\n";
        let err = compile(src, "app.js", &CompileOptions::default()).unwrap_err();
        let CompileError::Syntax(ref diags) = err else { panic!("{err:?}") };
        assert_eq!(diags[0].line, 2);
        let text = err.render("app.js", src);
        assert!(text.starts_with("app.js:2:"), "{text}");
        assert!(text.contains("SyntaxError: "), "{text}");
        assert!(text.contains("\nvar b = ;\n"), "{text}");
        assert!(text.ends_with('^'), "{text}");
        assert!(err.exception_text().starts_with("SyntaxError: "), "{}", err.exception_text());
    }

    #[test]
    fn compiles_to_a_verified_bundle() {
        let bytes = compile(
            "var x = 1 + 2; function f(a) { return a * x; }",
            "t.js",
            &CompileOptions { verify: true, ..CompileOptions::default() },
        )
        .unwrap();
        assert!(Bundle::is_bundle(&bytes));
        let text = disassemble(bytes).unwrap();
        assert!(!text.is_empty());
    }

    #[test]
    fn both_levels_and_strict() {
        for opt_level in [OptLevel::O0, OptLevel::O] {
            for strict in [false, true] {
                let opts = CompileOptions { opt_level, verify: true, strict, ..CompileOptions::default() };
                compile("let s = 0; for (let i = 0; i < 3; i++) { s += i; }", "t.js", &opts).unwrap();
            }
        }
        // Strict mode makes `with` a syntax error.
        let strict = CompileOptions { strict: true, ..CompileOptions::default() };
        assert!(matches!(compile("with ({}) {}", "t.js", &strict), Err(CompileError::Syntax(_))));
    }

    #[test]
    fn dumps() {
        let opts = CompileOptions { verify: true, ..CompileOptions::default() };
        let lowered = dump_ir("function f() { var a = 1; return a; }", "t.js", false, &opts).unwrap();
        let optimized = dump_ir("function f() { var a = 1; return a; }", "t.js", true, &opts).unwrap();
        assert!(lowered.contains("function"), "{lowered}");
        assert_ne!(lowered, optimized);
        assert!(dump_bytecode("print(1)", "t.js", &opts).is_ok());
        assert!(dump_ir("var = ;", "t.js", false, &opts).unwrap_err().starts_with("t.js:1:"));
    }

    #[test]
    fn scripts_share_global_lexical_declarations() {
        let mut rt = vm::Runtime::new(vm::RuntimeOptions::default());
        rt.set_compiler(compile_hook(CompileOptions { verify: true, ..CompileOptions::default() }));
        let mut run = |src: &str| rt.run_script(src, "t.js").map_err(|e| format!("{}: {}", e.name, e.message));
        run("let a = 1; const b = 2; class C {} function sum() { return a + b; }").unwrap();
        // A later script reads and assigns them, and the first script's functions see it.
        run("a = 10; if (sum() !== 12 || typeof C !== 'function') throw new Error('shared');").unwrap();
        run("if (globalThis.a !== undefined || 'b' in globalThis) throw new Error('not properties');").unwrap();
        assert_eq!(run("b = 3").unwrap_err(), "TypeError: Assignment to constant variable.");
        // Redeclarations are SyntaxErrors, and a script that has one declares nothing.
        assert_eq!(run("var a;").unwrap_err(), "SyntaxError: Identifier 'a' has already been declared");
        assert_eq!(run("let fresh = 1; let b;").unwrap_err(), "SyntaxError: Identifier 'b' has already been declared");
        run("if (typeof fresh !== 'undefined') throw new Error('declared by a failed script');").unwrap();
        run("var v = 1;").unwrap();
        assert_eq!(run("let v;").unwrap_err(), "SyntaxError: Identifier 'v' has already been declared");
        assert_eq!(run("let undefined;").unwrap_err(), "SyntaxError: Identifier 'undefined' has already been declared");
        // A global lexical declaration shadows a configurable global property, also for code
        // whose inline caches already hold the property.
        run("globalThis.shadowed = 'property'; function read() { return shadowed; } read(); read();").unwrap();
        run("let shadowed = 'lexical';").unwrap();
        run("if (read() !== 'lexical' || globalThis.shadowed !== 'property') throw new Error(read());").unwrap();
        // The TDZ holds for other code too, until the declaration runs.
        let tdz = "let late = (() => { try { (0, eval)('late'); } catch (e) { return e.name; } })();\n\
                   if (late !== 'ReferenceError') throw new Error(late);";
        run(tdz).unwrap();
        // Eval code's lexical declarations are its own.
        run("(0, eval)('let own = 1;'); if (typeof own !== 'undefined') throw new Error('eval let');").unwrap();
    }

    #[test]
    fn incremental_marking_keeps_a_heap_the_program_rewrites_meanwhile() {
        // A live heap past the size that marks incrementally, rewritten while it is marked:
        // new records in old arrays, old records moved between the marked and the unmarked
        // part, links both ways, Map and WeakMap entries. Every incremental marking is
        // verified (debug builds: a whole-heap trace checks that nothing reachable was
        // missed), and the program checks every record at the end.
        let src = "var N = 80000, R = 150000, seed = 12345;\n\
            function next() { seed = (seed * 1103515245 + 12345) % 2147483648; return seed; }\n\
            function make(id) { return { id: id, payload: [id, 'p' + id, { back: id }], link: null }; }\n\
            var recs = new Array(N), m = new Map(), wm = new WeakMap();\n\
            for (var i = 0; i < N; i++) { recs[i] = make(i); m.set(i, recs[i].payload); wm.set(recs[i], i); }\n\
            for (var round = 0; round < R; round++) {\n\
              var i = next() % N, j = next() % N, k = next() % N;\n\
              var r = make(recs[i].id);\n\
              r.link = recs[j]; recs[k].link = r; recs[i] = r;\n\
              m.set(r.id, r.payload); wm.set(r, r.id);\n\
              var t = recs[j]; recs[j] = recs[k]; recs[k] = t;\n\
            }\n\
            for (var i = 0; i < N; i++) {\n\
              var x = recs[i], p = x.payload, l = x.link;\n\
              if (p[0] !== x.id || p[1] !== 'p' + x.id || p[2].back !== x.id || m.get(x.id) !== p ||\n\
                  wm.get(x) !== x.id || (l !== null && l.payload[0] !== l.id)) throw new Error('record ' + i);\n\
            }\n\
            if (m.size !== N) throw new Error('size ' + m.size);";
        let bytes = compile(src, "t.js", &CompileOptions::default()).unwrap();
        for jit in [None, Some(0)] {
            let mut rt = vm::Runtime::new(vm::RuntimeOptions {
                gc_verify: true,
                jit_threshold: jit,
                ..vm::RuntimeOptions::default()
            });
            rt.run_bundle(bytes.clone()).map_err(|e| e.message).unwrap();
            let stats = rt.heap_stats();
            assert!(stats.incremental_collections >= 2, "{} incremental collections", stats.incremental_collections);
        }
    }

    #[test]
    fn catastrophic_backtracking_can_be_interrupted() {
        // Exponential work inside one match attempt: the matcher polls the interrupt as it
        // backtracks. The time from the interrupt to the script's end is printed (run with
        // --nocapture), not asserted.
        let src = "/(a+)+b/.test('a'.repeat(40))";
        let bytes = compile(src, "t.js", &CompileOptions::default()).unwrap();
        let mut rt = vm::Runtime::new(vm::RuntimeOptions::default());
        let h = rt.interrupt_handle();
        let t = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(100));
            h.interrupt();
            std::time::Instant::now()
        });
        let r = rt.run_bundle(bytes);
        let stopped = std::time::Instant::now();
        let asked = t.join().unwrap();
        assert!(r.unwrap_err().interrupted);
        println!("stopped {:?} after the interrupt", stopped.saturating_duration_since(asked));
    }

    #[test]
    fn compiling_stops_at_the_interrupt() {
        let flag = Arc::new(AtomicBool::new(true));
        let opts = CompileOptions { interrupt: Some(flag.clone()), ..CompileOptions::default() };
        assert_eq!(compile("function f() { return 1; } f();", "t.js", &opts), Err(CompileError::Interrupted));
        flag.store(false, std::sync::atomic::Ordering::Relaxed);
        assert!(compile("function f() { return 1; } f();", "t.js", &opts).is_ok());
    }

    #[test]
    fn an_interrupt_while_eval_code_compiles_is_uncatchable() {
        // The hook sees the interrupt as it compiles the eval code (as if it came then): the
        // program stops with the interrupt, which its `catch` does not see (and nothing after
        // it would notice the interrupt otherwise).
        let src = "let caught = 0; try { eval('1 + 1'); } catch (e) { caught++; }";
        let bytes = compile(src, "t.js", &CompileOptions::default()).unwrap();
        let mut rt = vm::Runtime::new(vm::RuntimeOptions::default());
        let handle = rt.interrupt_handle();
        let mut hook = compile_hook(CompileOptions { interrupt: Some(handle.flag()), ..CompileOptions::default() });
        rt.set_compiler(Box::new(move |source, file_name, kind| {
            handle.interrupt();
            hook(source, file_name, kind)
        }));
        let e = rt.run_bundle(bytes).unwrap_err();
        assert!(e.interrupted, "{e}");
    }

    #[test]
    fn an_interrupt_before_a_run_does_not_stop_its_compiling() {
        // The runtime forgets a request made before a run begins; the run's compile must not
        // see it either (a host that interrupted one script runs the next).
        let mut rt = vm::Runtime::new(vm::RuntimeOptions::default());
        let handle = rt.interrupt_handle();
        rt.set_compiler(compile_hook(CompileOptions { interrupt: Some(handle.flag()), ..CompileOptions::default() }));
        handle.interrupt();
        rt.run_script("function f() { return 1; } f();", "t.js").unwrap();
    }

    #[test]
    fn loops_in_natives_over_huge_array_likes_can_be_interrupted() {
        for src in [
            "Array.prototype.indexOf.call({ length: 2 ** 53 - 1 }, 1)",
            "Array.prototype.includes.call({ length: 2 ** 53 - 1 }, 1)",
            "Array.prototype.join.call({ length: 2 ** 53 - 1 })",
        ] {
            let bytes = compile(src, "t.js", &CompileOptions::default()).unwrap();
            let mut rt = vm::Runtime::new(vm::RuntimeOptions::default());
            let h = rt.interrupt_handle();
            let t = std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(100));
                h.interrupt();
            });
            let r = rt.run_bundle(bytes);
            t.join().unwrap();
            assert!(r.unwrap_err().interrupted, "{src}");
        }
    }

    /// Modules from a map: keys are the specifiers themselves.
    struct MapLoader(Vec<(&'static str, &'static str)>);

    impl vm::ModuleLoader for MapLoader {
        fn resolve(&mut self, specifier: &str, _referrer: Option<&str>) -> Result<String, String> {
            Ok(specifier.to_string())
        }
        fn load(&mut self, key: &str) -> Result<vm::ModuleSource, String> {
            let found = self.0.iter().find(|(k, _)| *k == key);
            found.map(|(_, src)| vm::ModuleSource::Text(src.to_string())).ok_or_else(|| format!("no module {key}"))
        }
    }

    fn run_modules(modules: Vec<(&'static str, &'static str)>) -> Result<(), String> {
        let mut rt = vm::Runtime::new(vm::RuntimeOptions::default());
        rt.set_compiler(compile_hook(CompileOptions { verify: true, ..CompileOptions::default() }));
        rt.set_module_loader(Box::new(MapLoader(modules)));
        rt.run_module("main").map_err(|e| format!("{}: {}", e.name, e.message))
    }

    #[test]
    fn modules_link_live_bindings_through_cycles() {
        let check = "if (a.n !== 2 || b() !== 'b2' || x !== 2) throw new Error(`${a.n} ${b()} ${x}`);";
        let main = Box::leak(
            format!("import * as a from 'a'; import b, {{ x }} from 'b'; a.bump(); {check}").into_boxed_str(),
        );
        run_modules(vec![
            ("main", main),
            ("a", "import { bump as bb } from 'b'; export let n = 1; export function bump() { n++; bb(); }"),
            ("b", "import { n } from 'a'; export let x = 1; export function bump() { x = n; } export default () => 'b' + x;"),
        ])
        .unwrap();
        let e = run_modules(vec![("main", "import { missing } from 'a';"), ("a", "export let present;")]);
        assert!(e
            .unwrap_err()
            .starts_with("SyntaxError: The requested module 'a' does not provide an export named 'missing'"));
        let e = run_modules(vec![("main", "import 'nowhere';")]);
        assert!(e.unwrap_err().contains("no module nowhere"));
        let e = run_modules(vec![("main", "import 'bad';"), ("bad", "export let = 1;")]);
        assert!(e.unwrap_err().starts_with("SyntaxError: "));
        // Top-level await: a dependency finishes before its importer runs.
        run_modules(vec![
            ("main", "import { v } from 'slow'; if (v !== 42) throw new Error(String(v));"),
            ("slow", "export let v = 1; v = await Promise.resolve(42);"),
        ])
        .unwrap();
    }

    #[test]
    fn hook_reports_syntax_errors_as_text() {
        let mut hook = compile_hook(CompileOptions::default());
        assert!(hook("1 +", "e.js", vm::SourceKind::Script).unwrap_err().starts_with("SyntaxError: "));
        assert!(hook("1 + 1", "e.js", vm::SourceKind::Eval).is_ok());
    }

    #[test]
    fn bad_ir_is_an_error() {
        assert!(parse_ir("this is not HIR").is_err());
    }
}

#[cfg(test)]
mod lazy_tests {
    use super::*;

    /// `source` lowered with lazy compilation: the lazy description of each function by
    /// name (`None` for a function compiled now).
    fn lazy_functions(source: &str) -> Vec<(String, Option<String>)> {
        let m = lower(source, "l.js", &CompileOptions { lazy: true, ..CompileOptions::default() }).unwrap();
        m.functions.iter().skip(1).map(|(_, f)| (m.atom_str(f.name), f.lazy.map(|a| m.atom_str(a)))).collect()
    }

    fn is_lazy(source: &str, name: &str) -> bool {
        let fs = lazy_functions(source);
        fs.iter().find(|(n, _)| n == name).unwrap_or_else(|| panic!("no {name} in {source}: {fs:?}")).1.is_some()
    }

    #[test]
    fn a_function_is_described_by_what_it_uses() {
        let src = "let top = 5; let unused = 1;\nfunction outer(x) { let y = 2, z = 3; function inner() { return x + z + top; } return [inner, () => y]; }";
        let fs = lazy_functions(src);
        // outer at the top level uses `top` only (of the script's lexical environment).
        assert_eq!(fs[0], ("outer".to_string(), Some("D@2:1\n- top:l".to_string())));
        // Compiled on its own, outer's inner function needs x and z of outer's environment
        // (slots 0 and 2: y is captured by the arrow) and top.
        let scope = fs[0].1.clone().unwrap();
        let text = &src[src.find("function outer").unwrap()..];
        let name = Some("outer".to_string());
        let opts = CompileOptions {
            lazy: true,
            eval_code: true,
            eval_scope: Some(scope),
            function_name: name,
            ..CompileOptions::default()
        };
        let m = lower(text, "l.js", &opts).unwrap();
        let outer = m.functions.iter().nth(1).unwrap().1;
        assert_eq!(m.atom_str(outer.name), "outer");
        assert!(outer.lazy.is_none());
        let inner = m.functions.iter().find(|(_, f)| m.atom_str(f.name) == "inner").unwrap().1;
        assert_eq!(m.atom_str(inner.lazy.unwrap()), "fnD@2:39\nV x:v,z:l@2\n- top:l");
    }

    #[test]
    fn functions_that_run_at_once_or_need_their_context_are_compiled_now() {
        assert!(is_lazy("function f() {}", "f"));
        assert!(is_lazy("var g = (a) => a;", "g"));
        assert!(!is_lazy("(function f() {})();", "f"));
        assert!(!is_lazy("(function f() {}).call(this);", "f"));
        assert!(!is_lazy("function f() { return eval('1'); }", "f"));
        assert!(!is_lazy("function f() { return () => eval('1'); }", "f"));
        assert!(!is_lazy("function* f() {}", "f"));
        assert!(!is_lazy("async function f() {}", "f"));
        // Methods, getters and setters too, unless their key is computed or private (their
        // text is compiled as a method of an object literal).
        assert!(is_lazy("var o = { f() {} };", "f"));
        assert!(is_lazy("var o = { get f() { return 1; } };", "get f"));
        assert!(is_lazy("class C { static f() {} }", "f"));
        assert!(!is_lazy("var o = { ['f']() {} };", ""));
        assert!(!is_lazy("class C { #f() {} }", "#f"));
        assert!(!is_lazy("var o = { *f() {} };", "f"));
        assert!(!is_lazy("var o = { async f() {} };", "f"));
        // A parameter kept in a mapped arguments object is not in an environment.
        assert!(!is_lazy("(function (a) { arguments[0] = 1; return function f() { return a; }; })(1);", "f"));
        // `super` and private names need the class around the function.
        assert!(!is_lazy("class C { #x; m() { return () => this.#x; } }", ""));
        assert!(!is_lazy("class C extends Object { ['m']() { const a = () => super.m; return a; } }", "a"));
        // A method reads its home object from its closure, which its stub's has.
        assert!(is_lazy("class C extends Object { m() { return () => super.m; } }", "m"));
        assert!(is_lazy("class C { ['m']() { const a = () => this; return a; } }", "a"));
    }

    #[test]
    fn module_functions_are_compiled_lazily_unless_they_read_import_meta() {
        let src = "import { x } from 'a'; function f() { return x; } function g() { return import('b'); }\n\
                   function h() { return () => import.meta; }";
        let m = lower(src, "m.mjs", &CompileOptions { lazy: true, module: true, ..CompileOptions::default() }).unwrap();
        let scope = |name: &str| {
            let f = m.functions.iter().find(|(_, f)| m.atom_str(f.name) == name).unwrap().1;
            f.lazy.map(|a| m.atom_str(a))
        };
        // Strict module code; the import is read as an import; import() needs the module.
        assert_eq!(scope("f").as_deref(), Some("smD@1:24\n- x:m@1"));
        assert_eq!(scope("g").as_deref(), Some("smD@1:51\n- %module:i"));
        assert_eq!(scope("h"), None);
    }

    #[test]
    fn a_function_called_where_made_in_code_that_runs_once_runs_once() {
        let src = "(function a() { (function b() {})(); })(); for (;;) { (function c() {})(); break; }\n\
                   function d() { (function e() {})(); } d();";
        let m = lower(src, "l.js", &CompileOptions::default()).unwrap();
        let mut once: Vec<(String, bool)> =
            m.functions.iter().skip(1).map(|(_, f)| (m.atom_str(f.name), f.run_once)).collect();
        once.sort();
        let want = [("a", true), ("b", true), ("c", false), ("d", false), ("e", false)];
        assert_eq!(once, want.map(|(n, o)| (n.to_string(), o)));
    }

    #[test]
    fn a_lazy_function_whose_text_is_another_kind_of_function_throws() {
        use bytecode::bundle::format::{checksum, OFF_CHECKSUM};
        let (text, evil) = ("function f() { return 1; }", "function*f() { return 1; }");
        let src = format!("{text}\nf();");
        let mut bytes = compile(&src, "l.js", &CompileOptions { lazy: true, ..CompileOptions::default() }).unwrap();
        let at = bytes.windows(text.len()).position(|w| w == text.as_bytes()).unwrap();
        bytes[at..at + evil.len()].copy_from_slice(evil.as_bytes());
        let sum = checksum(&bytes);
        bytes[OFF_CHECKSUM..OFF_CHECKSUM + 8].copy_from_slice(&sum.to_le_bytes());
        let mut rt = vm::Runtime::new(vm::RuntimeOptions::default());
        rt.set_compiler(compile_hook(CompileOptions { lazy: true, ..CompileOptions::default() }));
        let e = rt.run_bundle(bytes).unwrap_err();
        assert_eq!(
            (e.name.as_str(), e.message.as_str()),
            ("SyntaxError", "a lazily compiled function's text is not that function")
        );
    }

    #[test]
    fn the_hook_compiles_a_function_on_its_own() {
        let mut hook = compile_hook(CompileOptions { lazy: true, ..CompileOptions::default() });
        let kind = vm::SourceKind::Function { scope: "fD@3:7\n- a:v,b:c@4".into(), name: "f".into() };
        let bytes = hook("function f(x) { return a + b + x; }", "l.js", kind).unwrap();
        let bundle = Bundle::from_bytes(bytes).unwrap();
        let f = bundle.function(1);
        assert_eq!(bundle.string(f.name).to_string_lossy(), "f");
        assert!(!f.flags.contains(bytecode::FunctionFlags::LAZY));
        // Located in its file, not in its text.
        assert_eq!(bundle.locations(1).first().map(|e| (e.1, e.2)), Some((3, 7)));
    }
}
