//! Iris, a JavaScript engine, embedded in a Rust program.
//!
//! A [`Runtime`] runs JavaScript: source text ([`Runtime::eval`], with the `compiler`
//! feature, on by default) or bundles that `iris compile` wrote ([`Runtime::eval_bundle`]).
//! Both give the completion value. Values reach the host as [`JsValue`]s, handles that
//! keep what they hold alive; an exception that nothing caught is a [`JsError`] with the
//! error's name, message and JavaScript stack.
//!
//! ```
//! let mut rt = iris::Options::default().build();
//! let sum = rt.eval("let total = 0; for (const n of [1, 2, 3]) total += n; total", "sum.js").unwrap();
//! assert_eq!(sum.as_number(), Some(6.0));
//!
//! // `let` and `const` declarations stay for the scripts that follow.
//! let doubled = rt.eval("total * 2", "more.js").unwrap();
//! assert_eq!(doubled.as_number(), Some(12.0));
//!
//! // Properties of the global object, and calls of JavaScript functions.
//! let global = rt.global();
//! let greeting = iris::JsValue::string(&mut rt, "Iris");
//! global.set(&mut rt, "who", &greeting).unwrap();
//! let greet = rt.eval("(name) => `Hello, ${name} and ${who}!`", "greet.js").unwrap();
//! let world = iris::JsValue::string(&mut rt, "world");
//! let text = greet.call(&mut rt, &iris::JsValue::UNDEFINED, &[world]).unwrap();
//! assert_eq!(text.as_string(&mut rt).as_deref(), Some("Hello, world and Iris!"));
//!
//! // An uncaught exception is an error with its JavaScript stack.
//! let err = rt.eval("function f() { null.x }\nf()", "oops.js").unwrap_err();
//! assert_eq!(err.name, "TypeError");
//! assert!(err.stack.contains("at f (oops.js:1:"), "{}", err.stack);
//! ```
//!
//! The features: `compiler` (source text; without it, bundles only, and the parser and
//! compiler are not linked in) and `jit` (the native tier), both on by default.

#![warn(missing_docs)]

pub use vm::{
    HeapStats, HostFn, InterruptHandle, JsError, JsType, JsValue, ModuleLoader, ModuleSource, PromiseState,
    PromiseWithResolvers, Runtime,
};

/// How a [`Runtime`] is made.
///
/// ```
/// let mut rt = iris::Options { heap_limit: 64 << 20, stack_limit: 1000, ..Default::default() }.build();
/// let err = rt.eval("function f() { return f() + 1 } f()", "deep.js").unwrap_err();
/// assert_eq!((err.name.as_str(), err.message.as_str()), ("RangeError", "Maximum call stack size exceeded"));
/// ```
#[derive(Clone, Debug)]
pub struct Options {
    /// The most memory the program's values may take, in bytes (default 3 GiB): past it,
    /// allocating throws a RangeError the program can catch.
    pub heap_limit: usize,
    /// The most JavaScript calls under way at once (default 40,000): a call past it throws
    /// a RangeError the program can catch.
    pub stack_limit: usize,
    /// Compile functions to machine code after this many calls (default 100); `None` runs
    /// everything in the interpreter. Without the `jit` feature, always `None`.
    pub jit_threshold: Option<u32>,
    /// Whether source text compiles (`Runtime::eval`, `eval`, `new Function`, lazily
    /// compiled functions); without it, code generation from strings throws an EvalError.
    /// Needs the `compiler` feature.
    pub compiler: bool,
    /// The longest each run from the host may take (an `eval`, a call, a bundle; what the
    /// program calls back into the host is part of its run): past it the run ends with an
    /// uncatchable "execution interrupted" error (`JsError::interrupted`). `None` (the
    /// default): no limit; an [`InterruptHandle`] still stops a run from another thread.
    pub time_limit: Option<std::time::Duration>,
}

impl Default for Options {
    fn default() -> Options {
        let vm = vm::RuntimeOptions::default();
        Options {
            heap_limit: vm.heap_limit,
            stack_limit: vm.max_stack_depth,
            jit_threshold: cfg!(feature = "jit").then_some(100),
            compiler: cfg!(feature = "compiler"),
            time_limit: None,
        }
    }
}

impl Options {
    /// A runtime with these options.
    ///
    /// # Panics
    ///
    /// With a `time_limit`, when the operating system cannot start the watchdog thread.
    pub fn build(self) -> Runtime {
        let mut rt = Runtime::new(vm::RuntimeOptions {
            heap_limit: self.heap_limit,
            max_stack_depth: self.stack_limit,
            jit_threshold: if cfg!(feature = "jit") { self.jit_threshold } else { None },
            // The host decides what an unhandled rejection is.
            report_unhandled_rejections: false,
            ..vm::RuntimeOptions::default()
        });
        if let Some(limit) = self.time_limit {
            rt.set_time_limit(Some(limit)).expect("the time limit's watchdog thread starts");
        }
        #[cfg(feature = "compiler")]
        if self.compiler {
            let interrupt = Some(rt.interrupt_handle().flag());
            rt.set_compiler(compiler::driver::compile_hook(compiler::driver::CompileOptions {
                interrupt,
                lazy: true,
                ..Default::default()
            }));
        }
        rt
    }
}
