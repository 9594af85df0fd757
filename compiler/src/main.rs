//! `iris`: run JavaScript files and bytecode bundles, compile bundles, dump the IR and bytecode.
//!
//! ```text
//!  iris FILE | iris run FILE ── .js: driver::compile ─┐
//!                              .irb: verified bundle ─┴─▶ vm::Runtime::run_bundle
//!  iris compile FILE -o OUT.irb      iris dump --ir | --ir-opt | --bytecode | --stats FILE
//! ```
//! Exit status: 0 on success, 1 on a syntax error, an uncaught exception, an invalid bundle or
//! an unreadable file, 2 on a usage error.

// The C `main` is ours (`host::enter`), not the standard library's start-up.
#![cfg_attr(not(test), no_main)]

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use bytecode::{Bundle, SourceMode};
use clap::{Args, Parser, Subcommand};
use compiler::driver::{self, CompileError, CompileOptions, IrStage};
use host::Failure;
use ir::passes::OptLevel;
use vm::{Runtime, RuntimeOptions};

#[cfg(feature = "jit")]
mod mir_cmd;
mod repl;

/// mimalloc instead of the system allocator (see the workspace's Cargo.toml).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Iris, a JavaScript engine: compiles JavaScript ahead of time through an optimizing SSA IR
/// into register bytecode, and runs it in an interpreter.
///
/// `iris FILE` runs FILE: JavaScript source (.js), or a bytecode bundle written by
/// `iris compile` (recognized by its contents, whatever its name). HIR text (.ir) runs too.
#[derive(Parser, Debug)]
#[command(name = "iris", version, after_long_help = EXAMPLES, args_override_self = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,

    /// The file to run (same as `iris run FILE`).
    file: Option<PathBuf>,

    #[command(flatten)]
    opts: GlobalOpts,
}

const EXAMPLES: &str = "\
Examples:
  iris hello.js                      compile in memory and run (hot code as machine code)
  iris --no-jit hello.js             the interpreter only
  iris main.mjs                      run an ES module graph (also .js with --module, or under a
                                     package.json whose \"type\" is \"module\")
  iris --jit-log hello.js            stderr: what the JIT compiles and inlines, each exit and why
  iris dump --mir --jit-threshold 0 app.js   MIR of every function the JIT compiled
  iris compile app.js -o app.irb     write a bytecode bundle
  iris app.irb                       run the bundle (recognized by its magic bytes)
  iris dump --ir app.js              HIR after IRGen (--ir-opt: after the optimizer)
  iris dump --ir-opt --pass mem2reg app.js   HIR after just the named passes
  iris dump --bytecode app.js        disassembly of the bundle

Exit status: 0 on success; 1 on a syntax error (printed as file:line:column with the source
line and a caret), an uncaught exception (printed with its JavaScript stack), an invalid
bundle or an unreadable file; 2 on a usage error; 124 when --timeout stopped the program;
130 when Ctrl-C (SIGINT) did (a second Ctrl-C ends the process at once).";

/// Options every subcommand takes.
#[derive(Args, Debug, Clone, Default)]
struct GlobalOpts {
    /// Optimization level: -O0 runs no optimizer passes; -O (the default, also -O1) runs the
    /// full pipeline (mem2reg, simplify_cfg, constant folding, type inference, ...).
    #[arg(short = 'O', value_name = "LEVEL", global = true, value_parser = ["0", "1", "2", "3"])]
    opt: Option<String>,

    /// Collect garbage at every allocation (finds missing GC roots; slow).
    #[arg(long, global = true)]
    gc_stress: bool,

    /// After each minor garbage collection and each incremental marking, trace the whole
    /// heap again and stop at a cell the collection missed (a write without the write
    /// barrier). Debug builds only; slow.
    #[arg(long, global = true)]
    gc_verify: bool,

    /// Run everything in the interpreter (no machine code).
    #[arg(long, global = true)]
    no_jit: bool,

    /// Compile a function to machine code after this many calls (a loop after 64 times as
    /// many iterations); 0 compiles every function at its first call.
    #[arg(long, global = true, value_name = "N")]
    jit_threshold: Option<u32>,

    /// Report on stderr each function the JIT compiles (what it inlined, and why not
    /// where it did not), each entry into a loop, each exit back to the interpreter (why,
    /// and at which bytecode offset) and each recompile.
    #[arg(long, global = true)]
    jit_log: bool,

    /// Name compiled functions for `perf`: append a line for each to /tmp/perf-<pid>.map.
    #[arg(long, global = true)]
    perf_map: bool,

    /// Compile the script as strict mode code, as if it began with "use strict".
    #[arg(long, global = true)]
    strict: bool,

    /// Run (or compile, or dump) the file as an ES module, whatever its name (without it: a
    /// module if it ends in .mjs, or in .js under a package.json whose "type" is "module").
    /// Imports are found as node finds them (relative paths, node_modules and package.json
    /// "exports"/"main"), more leniently: `./x` finds x.js or x.mjs, a directory its index.js.
    #[arg(long, global = true)]
    module: bool,

    /// Run the HIR verifier after IRGen and after every optimizer pass (always on in debug
    /// builds).
    #[arg(long, global = true)]
    verify: bool,

    /// The most memory the program's values may take, in MiB (default 3072): past it,
    /// allocating throws a RangeError the program can catch.
    #[arg(long, global = true, value_name = "MIB", value_parser = clap::value_parser!(u32).range(1..=1 << 20))]
    heap_limit: Option<u32>,

    /// Stop the program once this many seconds have passed since `iris` started (compiling
    /// included): it ends as Ctrl-C ends it, with the JavaScript stack where it was, and
    /// exit status 124.
    #[arg(long, global = true, value_name = "SECONDS", value_parser = host::parse_seconds)]
    timeout: Option<f64>,

    /// The most JavaScript calls that may be under way at once (default 40000): a call
    /// past it throws a RangeError the program can catch.
    #[arg(long, global = true, value_name = "CALLS", value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    stack_limit: Option<u32>,

    /// Define a global gc() that collects garbage at once (as node's --expose-gc).
    #[arg(long, global = true)]
    expose_gc: bool,

    /// Print on stderr, at exit, how long each phase of the compiler took (each optimizer
    /// pass and backend stage summed over functions) and the memory held after each.
    #[arg(long, global = true)]
    time_passes: bool,

    /// Compile every function of a program before running it (without it, running source
    /// compiles most functions' bodies at their first call).
    #[arg(long, global = true)]
    eager: bool,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run a JavaScript file, an HIR file (.ir) or a bytecode bundle.
    Run {
        /// The file to run.
        file: PathBuf,
    },
    /// Compile a JavaScript (or .ir) file into a bytecode bundle.
    Compile {
        /// The source file.
        file: PathBuf,
        /// The bundle to write (default: FILE with the extension .irb).
        #[arg(short, long, value_name = "OUT")]
        output: Option<PathBuf>,
        /// Leave out the source text of functions (which the bundle otherwise keeps
        /// compressed): `Function.prototype.toString` then gives `function f() { [native code] }`.
        #[arg(long)]
        strip_source: bool,
        /// Print the size of each section of the bundle written, on stdout.
        #[arg(long)]
        sizes: bool,
    },
    /// Print an intermediate form of a file on stdout.
    Dump {
        #[command(flatten)]
        what: DumpWhat,
        /// With --mir: also the machine code, disassembled by binutils' objdump.
        #[arg(long, requires = "mir")]
        disasm: bool,
        /// Instead of the pipeline, run these optimizer passes in order (with --ir-opt; repeatable).
        #[arg(long = "pass", value_name = "PASS")]
        passes: Vec<String>,
        /// The file: JavaScript, HIR text (.ir), or a bundle (for --bytecode).
        file: PathBuf,
    },
    /// Start the REPL: evaluate lines as you type them and print their values (also `iris`
    /// with no file, on a terminal).
    Repl,
    /// Read native-tier MIR functions (.mir), verify them, run passes on them, print them (or
    /// their Cranelift IR or machine code), or run the first (the others are its callees).
    Mir {
        /// Run these MIR passes in order, verifying after each (repeatable; fold, repr, gvn,
        /// checks, licm, dce, layout).
        #[arg(long = "pass", value_name = "PASS")]
        passes: Vec<String>,
        /// Print the Cranelift IR the function lowers to.
        #[arg(long)]
        clif: bool,
        /// Print the machine code, disassembled by binutils' objdump.
        #[arg(long)]
        disasm: bool,
        /// The machine for --clif and --disasm: x86_64 or aarch64 (default: this one).
        #[arg(long, value_name = "ARCH")]
        target: Option<String>,
        /// Compile for this machine and run with these arguments (comma separated; a ptr
        /// parameter takes a buffer such as i32[1;2;3] or f64[0.5;2]); prints the result or
        /// the exit taken with its registers.
        #[arg(long, value_name = "ARGS", allow_hyphen_values = true)]
        run: Option<String>,
        /// Also report how long the compile takes (passes, then lowering and Cranelift) per
        /// MIR instruction and, with --run, the call: the fastest of N repetitions.
        #[arg(long, value_name = "N")]
        time: Option<u32>,
        /// The MIR text file.
        file: PathBuf,
    },
}

#[derive(Args, Debug)]
#[group(required = true, multiple = false)]
struct DumpWhat {
    /// The HIR as IRGen makes it.
    #[arg(long)]
    ir: bool,
    /// The HIR after the optimizer (the -O level, or the --pass list).
    #[arg(long)]
    ir_opt: bool,
    /// The disassembled bytecode bundle.
    #[arg(long)]
    bytecode: bool,
    /// Register allocation figures per function (SSA values, registers, coalesced moves, code size).
    #[arg(long)]
    stats: bool,
    /// Run the program, then print what the interpreter recorded for the JIT: per function,
    /// calls and loop back-edges; per instruction, the operand kinds at arithmetic and
    /// comparison sites, element accesses' kinds and paths, and call targets.
    #[arg(long)]
    feedback: bool,
    /// Run the program, then print the MIR (after the passes) of everything the JIT
    /// compiled: the functions and loops that got hot (all of them with --jit-threshold 0).
    #[arg(long)]
    mir: bool,
}

impl GlobalOpts {
    fn compile_options(&self) -> CompileOptions {
        // Compiling starts on the main thread, before anything runs on it.
        let mut o =
            CompileOptions { strict: self.strict, module: self.module, lower_here: true, ..CompileOptions::default() };
        if self.verify {
            o.verify = true;
        }
        if self.opt.as_deref() == Some("0") {
            o.opt_level = OptLevel::O0;
        }
        o
    }

    /// The JIT's threshold: none with `--no-jit` or in a build without the JIT.
    fn jit_threshold(&self) -> Option<u32> {
        if self.no_jit || !cfg!(feature = "jit") {
            return None;
        }
        Some(self.jit_threshold.unwrap_or(host::JIT_THRESHOLD))
    }
}

fn read(path: &Path) -> Result<Vec<u8>, Failure> {
    std::fs::read(path).map_err(|e| Failure(format!("iris: cannot read {}: {e}", path.display()), 1))
}

fn display_name(path: &Path) -> String {
    path.display().to_string()
}

fn source_text(path: &Path, bytes: Vec<u8>) -> Result<String, Failure> {
    String::from_utf8(bytes).map_err(|e| {
        Failure(
            format!("iris: {} is not UTF-8 text (byte {} is invalid)", path.display(), e.utf8_error().valid_up_to()),
            1,
        )
    })
}

fn is_ir(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "ir")
}

fn compile_error(e: CompileError, name: &str, source: &str) -> Failure {
    Failure(e.render(name, source), 1)
}

/// What `iris FILE` runs.
enum Program {
    /// A module graph, which the module loader reads and compiles.
    Module,
    /// A bundle read from the file, verified.
    Bundle(Box<Bundle>),
    /// The bytes of a bundle just compiled from the file.
    Compiled(Vec<u8>),
}

/// The program in the file at `path`, read once: a bundle is verified here (for a clear
/// message) and not again by the VM.
fn program_for(path: &Path, opts: &CompileOptions) -> Result<Program, Failure> {
    if opts.module {
        return Ok(Program::Module);
    }
    let bytes = read(path)?;
    if !Bundle::is_bundle(&bytes) {
        return compile_file(path, bytes, opts).map(Program::Compiled);
    }
    let bundle = Bundle::from_bytes(bytes).map_err(|e| Failure(format!("iris: {}: {e}", display_name(path)), 1))?;
    Ok(if bundle.modules().is_empty() { Program::Bundle(Box::new(bundle)) } else { Program::Module })
}

/// The bundle compiled from the source (or HIR text) `bytes` of the file at `path`.
fn compile_file(path: &Path, bytes: Vec<u8>, opts: &CompileOptions) -> Result<Vec<u8>, Failure> {
    let name = display_name(path);
    let source = source_text(path, bytes)?;
    if is_ir(path) {
        let mut module = driver::parse_ir(&source).map_err(|e| compile_error(e, &name, &source))?;
        driver::optimize(&mut module, opts).map_err(|e| compile_error(e, &name, &source))?;
        return driver::emit(module, opts).map_err(|e| compile_error(e, &name, &source));
    }
    driver::compile(&source, &name, opts).map_err(|e| compile_error(e, &name, &source))
}

/// The compile options for the file at `path`: module code by its name or `--module`.
fn options_for(path: &Path, g: &GlobalOpts) -> CompileOptions {
    let mut opts = g.compile_options();
    opts.module |= host::loader::is_module_path(path);
    opts
}

fn run(path: &Path, g: &GlobalOpts) -> Result<(), Failure> {
    run_then(path, g, None, false, |_| ()).and_then(|(_, result)| result)
}

/// Runs the program at `path` (functions recording feedback after `profile_after` calls),
/// then `after` on the runtime (whatever the program's outcome, which comes second).
fn run_then<T>(
    path: &Path,
    g: &GlobalOpts,
    profile_after: Option<u32>,
    jit_dump: bool,
    after: impl FnOnce(&Runtime) -> T,
) -> Result<(T, Result<(), Failure>), Failure> {
    if g.gc_verify && !cfg!(debug_assertions) {
        return Err(Failure("iris: --gc-verify needs a debug build of iris (cargo build)".into(), 2));
    }
    let mut opts = options_for(path, g);
    opts.lazy = !g.eager;
    let mut rt_opts = RuntimeOptions::default();
    if let Some(calls) = g.stack_limit {
        rt_opts.max_stack_depth = calls as usize;
    }
    // A module runs through the module loader, which compiles it and what it imports.
    let program = program_for(path, &opts)?;
    let mut rt = Runtime::new(RuntimeOptions {
        gc_stress: g.gc_stress,
        gc_verify: g.gc_verify,
        profile_after,
        jit_threshold: g.jit_threshold(),
        jit_log: g.jit_log,
        jit_dump,
        perf_map: g.perf_map,
        expose_gc: g.expose_gc,
        heap_limit: g.heap_limit.map_or(rt_opts.heap_limit, |mib| (mib as usize) << 20),
        ..rt_opts
    });
    host::stop_on_sigint(rt.interrupt_handle());
    if let Some(seconds) = g.timeout {
        host::stop_after(rt.interrupt_handle(), seconds);
    }
    // Eval code and lazily compiled functions compile while the program runs: an interrupt
    // (Ctrl-C, --timeout) stops their compiling too.
    rt.set_compiler(driver::compile_hook(CompileOptions { interrupt: Some(rt.interrupt_handle().flag()), ..opts }));
    rt.set_output(Box::new(std::io::BufWriter::new(std::io::stdout())));
    // Lines reach a terminal as they are printed, and keep their order with the JIT's log
    // on stderr; a file or a pipe gets whole buffers (200,000 lines took 6.6 times as long
    // as QuickJS's with a write per line).
    rt.set_output_buffered(!std::io::stdout().is_terminal() && !g.jit_log);
    rt.set_module_loader(Box::new(host::loader::FileLoader));
    let result = match program {
        Program::Module => {
            let abs =
                path.canonicalize().map_err(|e| Failure(format!("iris: cannot read {}: {e}", path.display()), 1))?;
            ir::timing::phase("run", || rt.run_module(&abs.to_string_lossy()))
        }
        Program::Bundle(bundle) => ir::timing::phase("run", || rt.run_verified_bundle(*bundle)),
        Program::Compiled(bytes) => ir::timing::phase("run", || rt.run_bundle(bytes)),
    };
    let t = after(&rt);
    // What the program printed is flushed before the error is reported; the process ends
    // right after (`exit_with`).
    rt.end_before_exit();
    let _ = std::io::stdout().flush();
    Ok((t, result.map_err(|e| host::uncaught("iris", &e, g.timeout))))
}

/// `iris repl`: a runtime with the options given, and the REPL on it.
fn repl(g: &GlobalOpts) -> Result<(), Failure> {
    let opts = g.compile_options();
    let mut rt_opts = RuntimeOptions {
        gc_stress: g.gc_stress,
        jit_threshold: g.jit_threshold(),
        expose_gc: g.expose_gc,
        // The REPL reports what each input leaves rejected.
        report_unhandled_rejections: false,
        ..RuntimeOptions::default()
    };
    if let Some(mib) = g.heap_limit {
        rt_opts.heap_limit = (mib as usize) << 20;
    }
    if let Some(calls) = g.stack_limit {
        rt_opts.max_stack_depth = calls as usize;
    }
    let mut rt = Runtime::new(rt_opts);
    host::stop_on_sigint(rt.interrupt_handle());
    rt.set_compiler(driver::compile_hook(CompileOptions {
        interrupt: Some(rt.interrupt_handle().flag()),
        ..opts.clone()
    }));
    rt.set_output(Box::new(std::io::stdout()));
    rt.set_output_buffered(false);
    rt.set_module_loader(Box::new(host::loader::FileLoader));
    repl::run(&mut rt, &opts)
}

/// `iris dump --mir`: runs the program with the JIT keeping what it compiles, then prints
/// it (and its machine code with `disasm`).
fn dump_mir(path: &Path, g: &GlobalOpts, disasm: bool) -> Result<String, Failure> {
    #[cfg(feature = "jit")]
    {
        if g.jit_threshold().is_none() {
            return Err(Failure("iris: dump --mir needs the JIT (not --no-jit)".into(), 2));
        }
        // Every function compiled with the program: the report names them `name#id` by
        // their place in it.
        let g = GlobalOpts { eager: true, ..g.clone() };
        let (text, result) = run_then(path, &g, None, true, |rt| mir_cmd::jit_report(rt, disasm))?;
        result?;
        text.map_err(|m| Failure(m, 1))
    }
    #[cfg(not(feature = "jit"))]
    {
        let _ = (path, g, disasm);
        Err(Failure("iris: this build has no native tier (it was built without the `jit` feature)".into(), 1))
    }
}

/// `iris compile`: what to write, and whether to report the sections' sizes.
struct CompileCmd<'a> {
    output: Option<&'a Path>,
    strip_source: bool,
    sizes: bool,
}

fn compile_cmd(path: &Path, cmd: CompileCmd<'_>, g: &GlobalOpts) -> Result<(), Failure> {
    let bytes = read(path)?;
    if Bundle::is_bundle(&bytes) {
        return Err(Failure(format!("iris: {} is already a bundle", path.display()), 1));
    }
    let mut opts = options_for(path, g);
    opts.source = if cmd.strip_source { SourceMode::Stripped } else { SourceMode::Compressed };
    let bundle = if opts.module && !is_ir(path) {
        // A module and everything it imports, in one bundle.
        let abs = path.canonicalize().map_err(|e| Failure(format!("iris: cannot read {}: {e}", path.display()), 1))?;
        driver::compile_module_graph(&abs.to_string_lossy(), &mut host::loader::FileLoader, &opts)
            .map_err(|e| Failure(e, 1))?
    } else {
        compile_file(path, bytes, &opts)?
    };
    let out = cmd.output.map(Path::to_path_buf).unwrap_or_else(|| path.with_extension("irb"));
    if cmd.sizes {
        let checked = Bundle::from_bytes(bundle.clone())
            .map_err(|e| Failure(format!("iris: internal compiler error: the backend wrote a bad bundle: {e}"), 1))?;
        print!("{}", section_sizes(&checked));
    }
    std::fs::write(&out, bundle).map_err(|e| Failure(format!("iris: cannot write {}: {e}", out.display()), 1))
}

/// A table of the bundle's sections and their sizes, the header and padding last.
fn section_sizes(bundle: &Bundle) -> String {
    let sections = bundle.section_sizes();
    let total = bundle.bytes().len();
    let rest = total - sections.iter().map(|s| s.1).sum::<usize>();
    let mut out = String::new();
    for (name, size) in sections.into_iter().chain([("header and padding", rest), ("total", total)]) {
        out.push_str(&format!("{name:<20} {size:>12}\n"));
    }
    out
}

fn dump(what: &DumpWhat, disasm: bool, passes: &[String], path: &Path, g: &GlobalOpts) -> Result<String, Failure> {
    let opts = options_for(path, g);
    if !passes.is_empty() && !what.ir_opt {
        return Err(Failure("iris: --pass goes with --ir-opt".to_string(), 2));
    }
    if what.feedback {
        // Compiled code records nothing: the feedback is the interpreter's. Every function
        // is compiled with the program, so the report lists them by their place in it.
        let g = GlobalOpts { no_jit: true, eager: true, ..g.clone() };
        let (report, result) = run_then(path, &g, Some(0), false, vm::runtime_interface::feedback_report)?;
        result?;
        return Ok(report);
    }
    if what.mir {
        return dump_mir(path, g, disasm);
    }
    let bytes = read(path)?;
    let name = display_name(path);
    if Bundle::is_bundle(&bytes) {
        if !what.bytecode {
            return Err(Failure(format!("iris: {name} is a bundle: only --bytecode can dump it"), 1));
        }
        return driver::disassemble(bytes).map_err(|e| Failure(format!("iris: {name}: {e}"), 1));
    }
    let source = source_text(path, bytes)?;
    let fail = |e: CompileError| compile_error(e, &name, &source);
    let mut module = if is_ir(path) {
        driver::parse_ir(&source).map_err(fail)?
    } else {
        driver::lower(&source, &name, &opts).map_err(fail)?
    };
    if what.ir || what.ir_opt {
        let stage = match (what.ir_opt, passes.is_empty()) {
            (false, _) => IrStage::Lowered,
            (true, true) => IrStage::Optimized,
            (true, false) => IrStage::Passes(passes.to_vec()),
        };
        return driver::dump_module_at(&mut module, &stage, &opts).map_err(fail);
    }
    driver::optimize(&mut module, &opts).map_err(fail)?;
    if what.stats {
        return driver::backend_stats(&mut module).map_err(fail);
    }
    let bytes = driver::emit(module, &opts).map_err(fail)?;
    driver::disassemble(bytes)
        .map_err(|e| Failure(format!("{name}: internal compiler error: the backend wrote a bad bundle: {e}"), 1))
}

fn real_main(cli: Cli) -> Result<(), Failure> {
    match (&cli.command, &cli.file) {
        (Some(Command::Run { file }), _) | (None, Some(file)) => run(file, &cli.opts),
        (Some(Command::Compile { file, output, strip_source, sizes }), _) => {
            let cmd = CompileCmd { output: output.as_deref(), strip_source: *strip_source, sizes: *sizes };
            compile_cmd(file, cmd, &cli.opts)
        }
        (Some(Command::Dump { what, disasm, passes, file }), _) => {
            let text = dump(what, *disasm, passes, file, &cli.opts)?;
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(text.as_bytes());
            if !text.ends_with('\n') {
                let _ = out.write_all(b"\n");
            }
            Ok(())
        }
        (Some(Command::Mir { passes, clif, disasm, target, run, time, file }), _) => {
            #[cfg(feature = "jit")]
            {
                let req = mir_cmd::MirRequest {
                    file,
                    passes,
                    clif: *clif,
                    disasm: *disasm,
                    target: target.as_deref(),
                    run: run.as_deref(),
                    time: *time,
                };
                let text = mir_cmd::mir(&req).map_err(|m| Failure(m, 1))?;
                let _ = std::io::stdout().lock().write_all(text.as_bytes());
                Ok(())
            }
            #[cfg(not(feature = "jit"))]
            {
                let _ = (passes, clif, disasm, target, run, time, file);
                Err(Failure("iris: this build has no native tier (it was built without the `jit` feature)".into(), 1))
            }
        }
        (Some(Command::Repl), _) => repl(&cli.opts),
        (None, None) if std::io::stdin().is_terminal() && std::io::stdout().is_terminal() => repl(&cli.opts),
        (None, None) => Err(Failure("iris: no file given; `iris --help` lists the commands".to_string(), 2)),
    }
}

/// `-O` alone means `-O1`: clap's short options with optional values would otherwise take the
/// next argument (the file) as the level.
fn normalize_args(args: impl Iterator<Item = std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    args.map(|a| if a == "-O" { "-O1".into() } else { a }).collect()
}

/// The subcommands' names (`help` is clap's); a test checks them against the parser.
const SUBCOMMANDS: [&str; 6] = ["run", "compile", "dump", "repl", "mir", "help"];

/// `iris FILE` and nothing else, read without building the parser (a sixth of a small
/// bundle's start-up): what clap makes of it, a file to run with the default options.
fn plain_run(args: &[std::ffi::OsString]) -> Option<Cli> {
    let [_, file] = args else { return None };
    let name = file.to_str()?;
    if name.is_empty() || name.starts_with('-') || SUBCOMMANDS.contains(&name) {
        return None;
    }
    Some(Cli { command: None, file: Some(PathBuf::from(name)), opts: GlobalOpts::default() })
}

#[cfg(not(test))]
#[no_mangle]
pub extern "C" fn main(_argc: std::ffi::c_int, _argv: *const *const std::ffi::c_char) -> std::ffi::c_int {
    host::enter(start)
}

/// What `iris` does, from its arguments to its exit (the unit tests' harness has a `main` of
/// its own).
#[cfg_attr(test, allow(dead_code))]
fn start() -> std::convert::Infallible {
    host::tune_allocator();
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let cli = plain_run(&args).unwrap_or_else(|| Cli::parse_from(normalize_args(args.into_iter())));
    if cli.opts.time_passes {
        ir::timing::enable();
    }
    // Deeply nested programs recurse in the parser and IRGen, which run on this stack before
    // the program (`CompileOptions::lower_here`): give them the lowering thread's room. A
    // stack of its own on this thread costs a mapping; a thread for it cost a sixteenth of a
    // small bundle's start-up (its creation, its signal stack, its own allocator heap). The
    // VM measures whichever stack it runs on.
    stacker::grow(compiler::irgen::LOWERING_STACK, move || exit_with(real_main(cli)))
}

/// Reports `result` and ends the process from the stack that ran the program (its 256 MiB
/// are not released just before the process goes away whole). `process::exit` flushes stdout.
fn exit_with(result: Result<(), Failure>) -> ! {
    compiler::irgen::finish_dropping();
    if ir::timing::enabled() {
        let _ = std::io::stdout().flush();
        eprint!("{}", ir::timing::take_report());
    }
    host::exit(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn a_plain_run_is_what_clap_makes_of_it() {
        let args = |list: &[&str]| list.iter().map(std::ffi::OsString::from).collect::<Vec<_>>();
        for file in ["hello.js", "dir/app.irb", "x"] {
            let fast = plain_run(&args(&["iris", file])).map(|c| format!("{c:?}"));
            let clap = format!("{:?}", Cli::parse_from(args(&["iris", file])));
            assert_eq!(fast.as_deref(), Some(clap.as_str()), "{file}");
        }
        // Options, subcommands and anything else go to clap.
        for list in [&["iris"][..], &["iris", "--no-jit"], &["iris", "run"], &["iris", "help"], &["iris", "a.js", "b"]]
        {
            assert!(plain_run(&args(list)).is_none(), "{list:?}");
        }
        let mut names: Vec<String> = Cli::command().get_subcommands().map(|c| c.get_name().to_string()).collect();
        names.push("help".into());
        names.sort();
        let mut known = SUBCOMMANDS.map(String::from).to_vec();
        known.sort();
        assert_eq!(names, known);
    }

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(normalize_args(args.iter().map(|s| std::ffi::OsString::from(*s))))
    }

    #[test]
    fn flags_and_subcommands() {
        let c = parse(&["iris", "-O", "app.js"]).unwrap();
        assert_eq!(c.file.as_deref(), Some(Path::new("app.js")));
        assert_eq!(c.opts.compile_options().opt_level, OptLevel::O);
        let c = parse(&["iris", "-O0", "--gc-stress", "app.js"]).unwrap();
        assert_eq!(c.opts.compile_options().opt_level, OptLevel::O0);
        assert!(c.opts.gc_stress);
        let c = parse(&["iris", "run", "--strict", "app.js"]).unwrap();
        assert!(matches!(c.command, Some(Command::Run { .. })) && c.opts.strict);
        let c = parse(&["iris", "--verify", "compile", "a.js", "-o", "a.irb"]).unwrap();
        assert!(matches!(c.command, Some(Command::Compile { output: Some(_), .. })) && c.opts.verify);
        let c = parse(&["iris", "dump", "--ir-opt", "--pass", "mem2reg", "--pass", "dce", "a.js"]).unwrap();
        assert!(matches!(c.command, Some(Command::Dump { ref passes, .. }) if passes.len() == 2));
        assert!(parse(&["iris", "dump", "a.js"]).is_err(), "a dump needs a kind");
        assert!(parse(&["iris", "dump", "--ir", "--bytecode", "a.js"]).is_err(), "one kind at a time");
        assert!(parse(&["iris", "-O7", "a.js"]).is_err());
        let c = parse(&["iris", "--timeout", "1.5", "--stack-limit", "64", "a.js"]).unwrap();
        assert_eq!((c.opts.timeout, c.opts.stack_limit), (Some(1.5), Some(64)));
        for bad in [&["--timeout", "0"][..], &["--timeout", "-1"], &["--timeout", "inf"], &["--stack-limit", "0"]] {
            let args: Vec<&str> = ["iris"].iter().chain(bad).chain(&["a.js"]).copied().collect();
            assert!(parse(&args).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn help_mentions_every_subcommand_and_flag() {
        let help = Cli::command().render_long_help().to_string();
        for word in ["run", "compile", "dump", "mir", "-O", "--gc-stress", "--strict", "--verify"] {
            assert!(help.contains(word), "help lacks {word}:\n{help}");
        }
        let mut cmd = Cli::command();
        let dump = cmd.find_subcommand_mut("dump").unwrap().render_long_help().to_string();
        for word in ["--ir", "--ir-opt", "--bytecode", "--stats", "--pass"] {
            assert!(dump.contains(word), "dump help lacks {word}:\n{dump}");
        }
    }
}
