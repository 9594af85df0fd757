//! `iris-run`: runs bytecode bundles written by `iris compile`, with no parser and no
//! compiler in it (the build an app that ships only bundles embeds). Code generation from
//! strings (`eval`, `new Function`) throws an EvalError. The native tier is there unless it
//! is built without the `jit` feature.
//!
//! ```text
//!  iris-run [OPTIONS] BUNDLE ─ Bundle::from_bytes (verified) ─▶ vm::Runtime::run_verified_bundle
//!                                                  (a module graph: run_module)
//! ```

// The C `main` is ours (`host::enter`), not the standard library's start-up.
#![cfg_attr(not(test), no_main)]

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use bytecode::Bundle;
use host::Failure;
use vm::{Runtime, RuntimeOptions};

/// mimalloc instead of the system allocator (see the workspace's Cargo.toml).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str = "\
Usage: iris-run [OPTIONS] BUNDLE

Runs a bytecode bundle written by `iris compile` (this build has no compiler: code
generation from strings, eval and new Function, throws an EvalError).

Options:
      --no-jit               Run everything in the interpreter (no machine code)
      --jit-threshold N      Compile a function to machine code after N calls (default 100)
      --heap-limit MIB       The most memory the program's values may take (default 3072):
                             past it, allocating throws a RangeError
      --stack-limit CALLS    The most JavaScript calls under way at once (default 40000)
      --timeout SECONDS      Stop the program after this long (exit status 124)
      --expose-gc            Define a global gc() that collects garbage at once
  -h, --help                 Print this help
  -V, --version              Print the version

Exit status: 0 on success; 1 on an uncaught exception (printed with its JavaScript stack),
an invalid bundle or an unreadable file; 2 on a usage error; 124 when --timeout stopped
the program; 130 when Ctrl-C (SIGINT) did.";

/// What the command line asks for.
#[derive(Debug, PartialEq)]
struct Cli {
    file: PathBuf,
    jit_threshold: Option<u32>,
    heap_limit_mib: Option<u32>,
    stack_limit: Option<u32>,
    timeout: Option<f64>,
    expose_gc: bool,
}

/// What the arguments ask for.
#[derive(Debug)]
enum Asked {
    Run(Cli),
    /// Text for stdout (the help, the version).
    Print(String),
}

/// What the arguments (after the program's name) ask for.
fn parse(args: &[String]) -> Result<Asked, Failure> {
    let usage = |msg: String| Failure(format!("iris-run: {msg}\n(iris-run --help lists the options)"), 2);
    let mut cli = Cli {
        file: PathBuf::new(),
        jit_threshold: Some(host::JIT_THRESHOLD),
        heap_limit_mib: None,
        stack_limit: None,
        timeout: None,
        expose_gc: false,
    };
    let mut file = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        // `--name=value` or `--name value`.
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = |what: &str| match inline.clone().or_else(|| it.next().cloned()) {
            Some(v) => Ok(v),
            None => Err(usage(format!("{name} needs {what}"))),
        };
        let number = |v: String, max: u32| match v.parse::<u32>() {
            Ok(n) if n <= max => Ok(n),
            _ => Err(usage(format!("{name}: {v} is not a whole number from 0 to {max}"))),
        };
        match name {
            "-h" | "--help" => return Ok(Asked::Print(USAGE.to_string())),
            "-V" | "--version" => return Ok(Asked::Print(format!("iris-run {}", env!("CARGO_PKG_VERSION")))),
            "--no-jit" => cli.jit_threshold = None,
            "--jit-threshold" => cli.jit_threshold = Some(number(value("a number of calls")?, u32::MAX)?),
            "--heap-limit" => match number(value("a number of MiB")?, 1 << 20)? {
                0 => return Err(usage(format!("{name} must be at least 1"))),
                n => cli.heap_limit_mib = Some(n),
            },
            "--stack-limit" => match number(value("a number of calls")?, 10_000_000)? {
                0 => return Err(usage(format!("{name} must be at least 1"))),
                n => cli.stack_limit = Some(n),
            },
            "--timeout" => cli.timeout = Some(host::parse_seconds(&value("a number of seconds")?).map_err(usage)?),
            "--expose-gc" => cli.expose_gc = true,
            _ if name.starts_with('-') && name != "-" => return Err(usage(format!("unknown option {arg}"))),
            _ if file.is_some() => return Err(usage(format!("one bundle at a time ({arg} is a second)"))),
            _ => file = Some(PathBuf::from(arg)),
        }
    }
    if !cfg!(feature = "jit") {
        cli.jit_threshold = None;
    }
    cli.file = file.ok_or_else(|| usage("no bundle given".to_string()))?;
    Ok(Asked::Run(cli))
}

fn run(cli: &Cli) -> Result<(), Failure> {
    let path = &cli.file;
    let bytes =
        std::fs::read(path).map_err(|e| Failure(format!("iris-run: cannot read {}: {e}", path.display()), 1))?;
    if !Bundle::is_bundle(&bytes) {
        let msg = format!(
            "iris-run: {} is not a bundle: iris-run has no compiler (`iris compile {0}` writes one)",
            path.display()
        );
        return Err(Failure(msg, 1));
    }
    let bundle = Bundle::from_bytes(bytes).map_err(|e| Failure(format!("iris-run: {}: {e}", path.display()), 1))?;
    let mut opts =
        RuntimeOptions { jit_threshold: cli.jit_threshold, expose_gc: cli.expose_gc, ..RuntimeOptions::default() };
    if let Some(mib) = cli.heap_limit_mib {
        opts.heap_limit = (mib as usize) << 20;
    }
    if let Some(calls) = cli.stack_limit {
        opts.max_stack_depth = calls as usize;
    }
    let mut rt = Runtime::new(opts);
    host::stop_on_sigint(rt.interrupt_handle());
    if let Some(seconds) = cli.timeout {
        host::stop_after(rt.interrupt_handle(), seconds);
    }
    rt.set_output(Box::new(std::io::BufWriter::new(std::io::stdout())));
    // Lines reach a terminal as they are printed; a file or a pipe gets whole buffers.
    rt.set_output_buffered(!std::io::stdout().is_terminal());
    rt.set_module_loader(Box::new(host::loader::FileLoader));
    let result = if bundle.modules().is_empty() {
        rt.run_verified_bundle(bundle)
    } else {
        // A module graph: the loader reads the bundle again by its path, the module's key.
        let abs = absolute(path)?;
        rt.run_module(&abs.to_string_lossy())
    };
    // What the program printed is flushed before the error is reported; the process ends
    // right after (`host::exit`).
    rt.end_before_exit();
    let _ = std::io::stdout().flush();
    result.map_err(|e| host::uncaught("iris-run", &e, cli.timeout))
}

fn absolute(path: &Path) -> Result<PathBuf, Failure> {
    path.canonicalize().map_err(|e| Failure(format!("iris-run: cannot read {}: {e}", path.display()), 1))
}

/// What `iris-run` does, from its arguments to its exit (the unit tests' harness has a
/// `main` of its own).
#[cfg_attr(test, allow(dead_code))]
fn start() -> std::convert::Infallible {
    host::tune_allocator();
    let args: Vec<String> = match std::env::args_os().skip(1).map(|a| a.into_string()).collect() {
        Ok(args) => args,
        Err(a) => host::exit(Err(Failure(format!("iris-run: {} is not UTF-8", Path::new(&a).display()), 2))),
    };
    let cli = match parse(&args) {
        Ok(Asked::Run(cli)) => cli,
        Ok(Asked::Print(text)) => {
            println!("{text}");
            host::exit(Ok(()))
        }
        Err(failure) => host::exit(Err(failure)),
    };
    stacker::grow(host::PROGRAM_STACK, move || host::exit(run(&cli)))
}

#[cfg(not(test))]
#[no_mangle]
pub extern "C" fn main(_argc: std::ffi::c_int, _argv: *const *const std::ffi::c_char) -> std::ffi::c_int {
    host::enter(start)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn run_of(list: &[&str]) -> Cli {
        match parse(&args(list)) {
            Ok(Asked::Run(cli)) => cli,
            other => panic!("{list:?}: {other:?}"),
        }
    }

    #[test]
    fn options_and_the_bundle() {
        let cli = run_of(&["--no-jit", "--heap-limit=64", "--stack-limit", "500", "--timeout", "1.5", "a.irb"]);
        assert_eq!(cli.file, PathBuf::from("a.irb"));
        assert_eq!(
            (cli.jit_threshold, cli.heap_limit_mib, cli.stack_limit, cli.timeout),
            (None, Some(64), Some(500), Some(1.5))
        );
        let cli = run_of(&["--jit-threshold", "0", "--expose-gc", "b.irb"]);
        assert_eq!(cli.jit_threshold, if cfg!(feature = "jit") { Some(0) } else { None });
        assert!(cli.expose_gc);
        assert!(matches!(parse(&args(&["--help"])), Ok(Asked::Print(text)) if text.contains("Usage: iris-run")));
    }

    #[test]
    fn usage_errors_have_status_2() {
        for bad in [
            &[][..],
            &["--timeout", "0", "a.irb"],
            &["--heap-limit", "0", "a.irb"],
            &["--stack-limit", "x", "a.irb"],
            &["--jit-threshold"],
            &["--bogus", "a.irb"],
            &["a.irb", "b.irb"],
        ] {
            match parse(&args(bad)) {
                Err(Failure(msg, 2)) => assert!(msg.starts_with("iris-run: "), "{msg}"),
                other => panic!("{bad:?}: {other:?}"),
            }
        }
    }
}
