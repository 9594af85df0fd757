//! IRGen: lowering of the swc AST to HIR with scopes, closures, exceptions and generators.
//!
//! ```text
//!  source ─ frontend::parse ─▶ AST ─ scope::analyze (+ early errors) ─▶ ScopeTree
//!  AST + ScopeTree ─ irgen (this module) ─▶ ir::Module
//!     func.rs       functions: prologue, parameters, hoisting, generators (outer + inner)
//!     stmt.rs       statements, control flow, labels, try/finally, cleanups on jumps
//!     loops.rs      while, do-while, for (per-iteration environments), for-in, for-of
//!     expr.rs       operators, calls, members, optional chains, `new`, `super`
//!     literal.rs    object, array, template and regexp literals, property keys
//!     assign.rs     references: identifiers, members, super; assignment, update, delete
//!     pattern.rs    destructuring in declarations, parameters, assignments and loop heads
//!     class.rs      classes: constructors, methods, accessors, `extends`, fields
//!     private.rs    private members: `obj.#x`, `#x in obj`
//!     generator.rs  `yield` and `yield*`
//!     binding.rs    storage of declarations (stack slots, heap scopes, mapped arguments),
//!                   TDZ checks, identifiers resolved through `with` objects
//! ```
//!
//! Conventions beyond the HIR seed (the backend and the VM rely on them):
//! - Declarations captured by an inner function live in heap scopes; one `ir` scope is made
//!   each time IRGen enters a tree scope that has captured declarations. The rest are
//!   `AllocStack` slots. Environments flow through SSA values (Phis in `for (let ...)` loops
//!   that copy the environment per iteration), never through stack slots.
//! - "Done" tests for `IteratorNext`/`GetNextPName` and "is this binding still empty" tests
//!   are `binary_op "===" %v, empty` followed by `cond_branch`.
//! - `finally` blocks are duplicated: once on the normal path, once in the exception
//!   handler (`catch`, finally code, `throw`), and once on every `break`/`continue`/`return`
//!   that leaves the try (after its `try_end`).
//! - Top-level `var`s and functions of a script are global object properties declared with
//!   the `declareGlobalVar`/`declareGlobalFunction` internal builtins; top-level `let`,
//!   `const` and `class` are scoped to the script (not shared between scripts yet).
//! - A script returns its completion value (a `%completion` stack slot of the top-level
//!   code), which indirect eval, the Function constructor and `$262.evalScript` use.
//! - Parameters with expressions get their own scope (the body's `var`s are in a separate
//!   `FunctionBody` scope); a generator with non-simple parameters binds them in its outer
//!   function, at the call, and its inner function is a closure over that scope.
//! - Inside `with`, an identifier is first looked up in the `with` objects (`withHas`), at
//!   run time; the static binding is the fallback.

mod assign;
mod binding;
mod class;
mod expr;
mod func;
mod generator;
mod literal;
mod loops;
mod module;
mod pattern;
mod private;
mod stmt;
#[cfg(test)]
mod tests;

use bytecode::BuiltinId;
use hashbrown::{HashMap, HashSet};
use ir::timing;
use ir::{Atom, Block, FuncId, Imm, Inst, Literal, Loc, Module, Opcode, Value};
use swc_common::Span;
use swc_ecma_ast::BlockStmt;

use crate::frontend::scope::{DeclId, FuncIdx, ScopeIdx, ScopeTree};
use crate::frontend::{parse_script, scope, Diagnostic, LineTable};

/// Options of IRGen.
#[derive(Clone, Debug, Default)]
pub struct IrGenOptions {
    /// Compile the script as strict mode code even without a `"use strict"` directive.
    pub strict: bool,
    /// Global eval code (an indirect `eval`) rather than a script: its top-level lexical
    /// declarations belong to the evaluation, not to the realm's global lexical environment.
    pub eval_code: bool,
    /// Module code (the Module goal) rather than a script: see `module.rs`.
    pub module: bool,
    /// Direct eval code: the caller's scope it is compiled against, as text (see
    /// `frontend::eval`).
    pub eval_scope: Option<String>,
    /// Leave functions to be compiled on their first call where that is possible (see
    /// `Gen::lazy_scope`): running source does not wait for code that never runs.
    pub lazy: bool,
    /// The source is one function left uncompiled before, with this name, compiled now
    /// against `eval_scope` (the environments around its closures).
    pub function_name: Option<String>,
}

/// The stack given to the thread that parses and lowers a script: the AST of a deeply
/// nested program is walked (and dropped) recursively.
pub const LOWERING_STACK: usize = 256 << 20;

/// Parses `source` and lowers it to HIR; `file_name` names the module for stack traces.
///
/// The work runs on a lowering thread with a large stack, one per calling thread, started
/// on first use and kept (eval-heavy programs compile many small scripts).
pub fn lower_script(source: &str, file_name: &str, opts: &IrGenOptions) -> Result<Module, Vec<Diagnostic>> {
    let (reply, result) = std::sync::mpsc::channel();
    let job = Job { source: source.to_string(), file_name: file_name.to_string(), opts: opts.clone(), reply };
    let sent = LOWERING_THREAD.with(|worker| {
        let mut worker = worker.borrow_mut();
        let job = match worker.as_ref() {
            Some((w, _)) => match w.send(job) {
                Ok(()) => return true,
                Err(std::sync::mpsc::SendError(job)) => job,
            },
            None => job,
        };
        // Start (or restart, after a panic) the lowering thread.
        let (tx, rx) = std::sync::mpsc::channel::<Job>();
        let spawned =
            std::thread::Builder::new().name("iris-irgen".into()).stack_size(LOWERING_STACK).spawn(move || {
                while let Ok(job) = rx.recv() {
                    // A panic (a compiler bug) becomes this job's error and the thread lives
                    // on: were it to die, a job sent to it before its queue went away would
                    // be dropped unanswered.
                    let lower = || lower_script_inline(&job.source, &job.file_name, &job.opts);
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(lower))
                        .unwrap_or_else(|_| Err(internal_error()));
                    // A small script's trees (a lazily compiled function's, most evals')
                    // go before the reply: the thread is idle whenever its caller runs.
                    // A large one's while the caller goes on with the HIR.
                    let small = job.source.len() < DROP_ON_A_THREAD;
                    if small {
                        drop_leftovers();
                    }
                    let _ = job.reply.send(r);
                    if !small {
                        drop_leftovers();
                    }
                }
            });
        let Ok(handle) = spawned else { return false };
        if tx.send(job).is_err() {
            return false;
        }
        *worker = Some((tx, handle));
        true
    });
    if !sent {
        let r = lower_script_inline(source, file_name, opts);
        drop_leftovers();
        return r;
    }
    result.recv().unwrap_or_else(|_| Err(internal_error()))
}

/// [`lower_script`] on the calling thread, which must have a stack of [`LOWERING_STACK`]
/// with nothing deep on it yet (the `iris` command's main thread before the program starts).
/// The syntax and scope trees are dropped on a thread of their own meanwhile: the memory
/// they free goes back to this thread's heap pages, where the bytecode and the program's
/// objects are made next (the lowering thread's would stay with it), and the text is not
/// copied for another thread.
pub fn lower_script_here(source: &str, file_name: &str, opts: &IrGenOptions) -> Result<Module, Vec<Diagnostic>> {
    // A panic (a compiler bug) is this script's error, as on the lowering thread.
    let lower = || lower_script_inline(source, file_name, opts);
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(lower)).unwrap_or_else(|_| Err(internal_error()));
    let leftovers = LEFTOVERS.with(|l| std::mem::take(&mut *l.borrow_mut()));
    if leftovers.is_empty() {
        return r;
    }
    if source.len() < DROP_ON_A_THREAD {
        drop(leftovers);
        return r;
    }
    // Dropping a deeply nested tree recurses as deep as lowering it. Without a thread,
    // the closure (and the trees) is dropped here.
    let dropper =
        std::thread::Builder::new().name("iris-drop".into()).stack_size(LOWERING_STACK).spawn(move || drop(leftovers));
    if let Ok(handle) = dropper {
        DROPPERS.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(handle);
    }
    r
}

/// Below this much source, the trees a lowering leaves are dropped where it ran rather than
/// beside it: freeing them takes less than starting a thread would (on earley-boyer.js,
/// 195 KB, the drop takes 1 ms; a thread about 50 µs to start).
const DROP_ON_A_THREAD: usize = 32 << 10;

/// The threads that [`lower_script_here`] left dropping trees.
static DROPPERS: std::sync::Mutex<Vec<std::thread::JoinHandle<()>>> = std::sync::Mutex::new(Vec::new());

/// Ends the calling thread's lowering thread and waits until the trees that
/// [`lower_script_here`] left to other threads are dropped: a process that ends calls this
/// first, so that no thread of its own is still running (or just ending) while the process
/// exits.
pub fn finish_dropping() {
    // This thread's lowering thread: with its queue closed, it ends. Left to the exit's
    // thread-local destructors, the queue would close while the process is exiting, and
    // the thread would end (freeing its memory) during the exit.
    if let Some((queue, handle)) = LOWERING_THREAD.with(|worker| worker.borrow_mut().take()) {
        drop(queue);
        let _ = handle.join();
    }
    let handles = std::mem::take(&mut *DROPPERS.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
    for handle in handles {
        let _ = handle.join();
    }
}

/// The error of a script whose lowering panicked.
fn internal_error() -> Vec<Diagnostic> {
    vec![Diagnostic::new("internal compiler error while lowering the script", 1, 1)]
}

/// A script for the lowering thread.
struct Job {
    source: String,
    file_name: String,
    opts: IrGenOptions,
    reply: std::sync::mpsc::Sender<Result<Module, Vec<Diagnostic>>>,
}

thread_local! {
    /// What a lowering leaves to drop (the syntax tree and scope tree of a large program
    /// take a while to free): dropped after its result is sent.
    static LEFTOVERS: std::cell::RefCell<Vec<Box<dyn std::any::Any + Send>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Keeps `garbage` to drop once the lowering's result is on its way (`drop_leftovers`);
/// with `--time-passes`, drops it now, as a phase of its own between IRGen and what follows.
fn drop_later<T: Send + 'static>(garbage: T) {
    if timing::enabled() {
        timing::phase("free the syntax tree", || drop(garbage));
    } else {
        LEFTOVERS.with(|l| l.borrow_mut().push(Box::new(garbage)));
    }
}

/// Drops what the lowerings on this thread left.
fn drop_leftovers() {
    drop(LEFTOVERS.with(|l| std::mem::take(&mut *l.borrow_mut())));
}

thread_local! {
    /// The lowering thread of this thread: its queue and its handle.
    static LOWERING_THREAD: std::cell::RefCell<Option<(std::sync::mpsc::Sender<Job>, std::thread::JoinHandle<()>)>> =
        const { std::cell::RefCell::new(None) };
}

fn lower_script_inline(source: &str, file_name: &str, opts: &IrGenOptions) -> Result<Module, Vec<Diagnostic>> {
    if opts.module {
        return lower_module_inline(source, file_name, opts);
    }
    if let Some(scope) = &opts.eval_scope {
        return lower_direct_eval_inline(source, file_name, scope, opts);
    }

    let mut parsed = timing::phase("parse", || parse_script(source, opts.strict))?;
    if opts.eval_code && crate::frontend::scope::has_use_strict(&parsed.script.body) {
        // Strict global eval code: its `var`s and functions are its own, in a var
        // environment of its own, as in a strict direct eval at the top level of a script.
        let outer = crate::frontend::eval::EvalScope { strict: true, ..Default::default() };
        return lower_eval_parsed(parsed, file_name, &outer, opts);
    }
    let lines = &parsed.lines;
    let to_diags = |errs: Vec<(Span, String)>| -> Vec<Diagnostic> {
        errs.into_iter().map(|(span, m)| lines.diag(span, m)).collect()
    };
    let (mut tree, errors) =
        timing::phase("scope analysis", || scope::analyze(&parsed.script, lines, opts.strict, &parsed.deferred));
    if !errors.is_empty() {
        return Err(to_diags(errors));
    }
    if !opts.eval_code {
        tree.share_script_lexicals();
    }
    let mut g = Gen::new(&tree, lines, file_name);
    g.eval_code = opts.eval_code;
    g.lazy = opts.lazy;
    timing::phase("irgen", || g.gen_script(&parsed.script));
    if !g.diags.is_empty() {
        let mut diags = std::mem::take(&mut g.diags);
        diags.sort_by_key(|d| (d.line, d.col));
        diags.dedup();
        return Err(diags);
    }
    let mut module = std::mem::replace(&mut g.module, Module::new(file_name));
    drop(g);
    module.source_text = parsed.lines.take_text();
    drop_later((tree, parsed));
    Ok(module)
}

fn lower_direct_eval_inline(
    source: &str,
    file_name: &str,
    scope_text: &str,
    opts: &IrGenOptions,
) -> Result<Module, Vec<Diagnostic>> {
    let Some(outer) = crate::frontend::eval::EvalScope::decode(scope_text) else {
        return Err(vec![Diagnostic::new("internal compiler error: a malformed direct eval scope", 1, 1)]);
    };
    let allow =
        crate::frontend::parse::Allow { new_target: outer.new_target, super_: outer.super_prop || outer.super_call };
    let parsed = match (&opts.function_name, outer.origin) {
        (Some(_), Some((line, col))) if outer.method => {
            // A MethodDefinition is compiled as the method of an object literal, `({` and
            // `})` around it, with the origin moved so that its text keeps its place (`({`
            // on a line of its own when the text starts in the first two columns).
            let (text, origin) = match col {
                0..=2 => (
                    format!("({{\n{}{source}\n}})", " ".repeat(col.saturating_sub(1) as usize)),
                    (line.saturating_sub(1), 1),
                ),
                _ => (format!("({{{source}}})"), (line, col - 2)),
            };
            timing::phase("parse", || crate::frontend::parse::parse_function(&text, outer.strict, allow, origin))?
        }
        (Some(_), Some(origin)) => {
            timing::phase("parse", || crate::frontend::parse::parse_function(source, outer.strict, allow, origin))?
        }
        _ => timing::phase("parse", || crate::frontend::parse_eval(source, outer.strict, allow))?,
    };
    lower_eval_parsed(parsed, file_name, &outer, opts)
}

/// Eval code compiled against the caller's scope `outer` (see `frontend::eval`), or a
/// function compiled lazily as the expression of such code (function 1 of the module).
fn lower_eval_parsed(
    mut parsed: crate::frontend::parse::ParsedScript,
    file_name: &str,
    outer: &crate::frontend::eval::EvalScope,
    opts: &IrGenOptions,
) -> Result<Module, Vec<Diagnostic>> {
    if outer.declaration {
        // A declaration's name is bound around it, not inside it as a function
        // expression's would be.
        if let Some(swc_ecma_ast::Stmt::Expr(e)) = parsed.script.body.first_mut() {
            if let swc_ecma_ast::Expr::Fn(f) = &mut *e.expr {
                f.ident = None;
            }
        }
    }
    let lines = &parsed.lines;
    let to_diags = |mut errs: Vec<(Span, String)>| -> Vec<Diagnostic> {
        errs.sort_by_key(|(span, _)| span.lo);
        errs.into_iter().map(|(span, m)| lines.diag(span, m)).collect()
    };
    let (tree, errors) =
        timing::phase("scope analysis", || scope::analyze_eval(&parsed.script, lines, outer, &parsed.deferred));
    if !errors.is_empty() {
        return Err(to_diags(errors));
    }
    let mut g = Gen::new(&tree, lines, file_name);
    g.eval_code = true;
    g.eval_outer = Some(outer);
    g.lazy = opts.lazy;
    g.lazy_name = opts.function_name.clone();
    timing::phase("irgen", || g.gen_script(&parsed.script));
    if !g.diags.is_empty() {
        let mut diags = std::mem::take(&mut g.diags);
        diags.sort_by_key(|d| (d.line, d.col));
        diags.dedup();
        return Err(diags);
    }
    let mut module = std::mem::replace(&mut g.module, Module::new(file_name));
    drop(g);
    module.source_text = parsed.lines.take_text();
    drop_later((tree, parsed));
    Ok(module)
}

fn lower_module_inline(source: &str, file_name: &str, opts: &IrGenOptions) -> Result<Module, Vec<Diagnostic>> {
    let mut parsed = timing::phase("parse", || crate::frontend::parse_module(source))?;
    let lines = &parsed.lines;
    let to_diags = |mut errs: Vec<(Span, String)>| -> Vec<Diagnostic> {
        errs.sort_by_key(|(span, _)| span.lo);
        errs.into_iter().map(|(span, m)| lines.diag(span, m)).collect()
    };
    let (script, syntax, errors) = crate::frontend::module::desugar(parsed.module);
    if !errors.is_empty() {
        return Err(to_diags(errors));
    }
    let (tree, errors) = timing::phase("scope analysis", || scope::analyze_module(&script, &syntax, lines));
    if !errors.is_empty() {
        return Err(to_diags(errors));
    }
    let mut g = Gen::new(&tree, lines, file_name);
    g.lazy = opts.lazy;
    timing::phase("irgen", || g.gen_module(&script, &syntax));
    if !g.diags.is_empty() {
        let mut diags = std::mem::take(&mut g.diags);
        diags.sort_by_key(|d| (d.line, d.col));
        diags.dedup();
        return Err(diags);
    }
    let mut module = std::mem::replace(&mut g.module, Module::new(file_name));
    drop(g);
    module.source_text = parsed.lines.take_text();
    drop_later((tree, script));
    Ok(module)
}

/// Where a declaration lives while its scope is active.
#[derive(Clone, Copy, Debug)]
enum Storage {
    /// An `AllocStack` slot of the declaring function.
    Stack(Value),
    /// A variable of a heap scope.
    Frame(ir::Var),
    /// The executing closure (a function expression's own name, not captured).
    Callee,
    /// Parameter `index` of a function with a mapped arguments object, which holds it
    /// (`argumentsGet`/`argumentsSet` on the declaration `args`).
    Mapped { args: DeclId, index: u32 },
}

/// A heap scope whose environment is available.
#[derive(Clone, Copy, Debug)]
struct EnvInfo {
    /// The depth (index in `Gen::fs`) of the function that created it.
    depth: usize,
    /// The environment value in that function at the current point of generation.
    value: Value,
}

/// Something that must happen when a jump leaves a region of code.
#[derive(Clone, Copy)]
enum Cleanup<'a> {
    /// Leave a try region (`try_end`).
    TryRegion,
    /// Run a finally block. `targets` is the number of jump targets visible to it and
    /// `scope` the tree scope around the try statement.
    Finally { block: &'a BlockStmt, targets: usize, scope: ScopeIdx },
    /// Close a for-of iterator.
    IteratorClose(Value),
    /// Close a for-await-of iterator (AsyncIteratorClose: awaits the result of `return()`).
    AsyncIteratorClose(Value),
    /// Close a destructuring iterator unless the `done` slot says it is exhausted.
    CloseIfNotDone { iter: Value, done: Value },
    /// Dispose the resources of a block's `using` declarations (DisposeResources).
    Dispose { cap: Value, is_async: bool },
}

/// Where `break` and `continue` go.
#[derive(Clone, Debug)]
struct JumpTarget {
    labels: Vec<String>,
    /// Whether an unlabeled `break` may target it (loops and switches).
    breakable: bool,
    break_block: Block,
    break_depth: usize,
    /// For loops: where `continue` goes and the cleanup depth there.
    continue_to: Option<(Block, usize)>,
}

/// The state of one function being generated.
struct FnState<'a> {
    id: FuncId,
    func: ir::Function,
    tree_func: FuncIdx,
    block: Block,
    loc: Loc,
    cur_scope: ScopeIdx,
    /// Instructions at the start of the entry block that form the prologue (StartGenerator,
    /// AllocStack, GetParentScope, ResolveScope); code is appended after them.
    prologue_len: usize,
    parent_env: Option<Value>,
    resolved: HashMap<ir::ScopeId, Value>,
    /// Values of the non-arrow function's own `this`, `new.target`, callee and home object.
    this_value: Option<Value>,
    cleanups: Vec<Cleanup<'a>>,
    targets: Vec<JumpTarget>,
    pending_labels: Vec<String>,
    /// Declarations known to be initialized at this point (TDZ checks elided).
    initialized: HashSet<DeclId>,
    /// The `ResumeGenerator` slot of a generator's inner function.
    resume_slot: Option<Value>,
    /// Whether this is a derived class constructor (returns go through DerivedReturn).
    derived: bool,
    /// In a script's top-level code: the stack slot of the completion value, which the
    /// script returns (the Function constructor, indirect eval and `$262.evalScript` use it).
    completion: Option<Value>,
    /// The [[DisposeCapability]] of the innermost block with `using` declarations.
    disposals: Vec<Value>,
    /// While the parameters are bound (a direct eval there may not declare `arguments`).
    in_params: bool,
}

/// The IRGen state for one script.
struct Gen<'a> {
    module: Module,
    tree: &'a ScopeTree,
    lines: &'a LineTable,
    diags: Vec<Diagnostic>,
    fs: Vec<FnState<'a>>,
    storage: HashMap<DeclId, Storage>,
    /// The heap scope currently made for each tree scope that has one.
    tree_ir: HashMap<ScopeIdx, ir::ScopeId>,
    envs: HashMap<ir::ScopeId, EnvInfo>,
    next_template_id: u32,
    /// Generating global eval code rather than a script (`IrGenOptions::eval_code`).
    eval_code: bool,
    /// Generating direct eval code: the caller's scope.
    eval_outer: Option<&'a crate::frontend::eval::EvalScope>,
    /// Direct eval code: the heap scope of the caller's var scope.
    eval_var_irs: Option<ir::ScopeId>,
    /// Leave functions to be compiled on their first call where possible.
    lazy: bool,
    /// Compiling a function left uncompiled before: its name (taken by the first function
    /// generated, the one the source text is).
    lazy_name: Option<String>,
    /// The next function generated is called at once (`(function () { ... })()`): compile
    /// it now.
    eager_next: bool,
}

impl<'a> Gen<'a> {
    fn new(tree: &'a ScopeTree, lines: &'a LineTable, file_name: &str) -> Gen<'a> {
        // The module's source text is the line table's, moved over when IRGen is done.
        Gen {
            module: Module::new(file_name),
            tree,
            lines,
            diags: Vec::new(),
            fs: Vec::new(),
            storage: HashMap::new(),
            tree_ir: HashMap::new(),
            envs: HashMap::new(),
            next_template_id: 0,
            eval_code: false,
            eval_outer: None,
            eval_var_irs: None,
            lazy: false,
            lazy_name: None,
            eager_next: false,
        }
    }

    // ---- diagnostics and locations ----------------------------------------------------------

    /// Reports `what` as not supported yet at `span`.
    fn unsupported(&mut self, span: Span, what: &str) {
        let d = self.lines.diag(span, format!("{what} is not supported yet"));
        self.diags.push(d);
    }

    fn loc_of(&self, span: Span) -> Loc {
        let (line, col) = self.lines.pos(span.lo);
        Loc { line, col }
    }

    /// Sets the location given to the following instructions.
    fn at(&mut self, span: Span) {
        if span.lo.0 == 0 {
            return;
        }
        let loc = self.loc_of(span);
        self.f().loc = loc;
    }

    // ---- emission -----------------------------------------------------------------------------

    fn f(&mut self) -> &mut FnState<'a> {
        self.fs.last_mut().expect("inside a function")
    }

    fn fr(&self) -> &FnState<'a> {
        self.fs.last().expect("inside a function")
    }

    fn depth(&self) -> usize {
        self.fs.len() - 1
    }

    fn b(&mut self) -> ir::Builder<'_> {
        let st = self.fs.last_mut().expect("inside a function");
        let mut b = ir::Builder::new(&mut st.func, st.block);
        b.loc = st.loc;
        b
    }

    /// Appends an instruction with a result.
    fn emit(&mut self, op: Opcode, args: Vec<Value>, imm: Imm) -> Value {
        self.b().value(op, args, imm)
    }

    /// Appends an instruction without a result.
    fn emit_void(&mut self, op: Opcode, args: Vec<Value>, imm: Imm) -> Inst {
        self.b().inst(op, args, Vec::new(), imm)
    }

    /// Appends a terminator.
    fn term(&mut self, op: Opcode, args: Vec<Value>, targets: Vec<Block>, imm: Imm) {
        if self.is_terminated() {
            return;
        }
        self.b().inst(op, args, targets, imm);
    }

    fn new_block(&mut self) -> Block {
        self.f().func.add_block()
    }

    fn switch_to(&mut self, b: Block) {
        self.f().block = b;
    }

    fn cur_block(&self) -> Block {
        self.fr().block
    }

    fn is_terminated(&self) -> bool {
        let st = self.fr();
        st.func.terminator(st.block).is_some()
    }

    /// Continues in a fresh block (no predecessors) after a terminator, so that code
    /// following an abrupt completion has somewhere to go; it is pruned at the end.
    fn start_dead_block(&mut self) {
        let b = self.new_block();
        self.switch_to(b);
    }

    fn branch(&mut self, to: Block) {
        self.term(Opcode::Branch, Vec::new(), vec![to], Imm::None);
    }

    fn cond_branch(&mut self, cond: Value, then: Block, otherwise: Block) {
        self.term(Opcode::CondBranch, vec![cond], vec![then, otherwise], Imm::None);
    }

    /// A Phi at the start of the current block.
    fn phi(&mut self, incoming: Vec<(Value, Block)>) -> Value {
        let (args, blocks): (Vec<Value>, Vec<Block>) = incoming.into_iter().unzip();
        let st = self.f();
        let loc = st.loc;
        let inst = st.func.make_inst(Opcode::Phi, args, blocks, Imm::None, loc);
        let pos =
            st.func.blocks[st.block].insts.iter().take_while(|&&i| st.func.insts[i].opcode == Opcode::Phi).count();
        let block = st.block;
        st.func.insert_inst(block, pos, inst);
        st.func.result(inst)
    }

    /// Branches to a new join block from the current block with `v`, for a later Phi.
    fn edge(&mut self, v: Value, join: Block, incoming: &mut Vec<(Value, Block)>) {
        if !self.is_terminated() {
            incoming.push((v, self.cur_block()));
            self.branch(join);
        }
    }

    /// Switches to `join` and merges `incoming` (a Phi unless all values are the same).
    fn merge(&mut self, join: Block, incoming: Vec<(Value, Block)>) -> Value {
        self.switch_to(join);
        if incoming.is_empty() {
            return self.undef();
        }
        if incoming.iter().all(|(v, _)| *v == incoming[0].0) {
            return incoming[0].0;
        }
        self.phi(incoming)
    }

    /// Inserts an instruction into the prologue of the entry block.
    fn emit_prologue(&mut self, op: Opcode, args: Vec<Value>, imm: Imm, name_loc: bool) -> Value {
        let st = self.f();
        let loc = if name_loc { st.func.loc } else { Loc::default() };
        let inst = st.func.make_inst(op, args, Vec::new(), imm, loc);
        let entry = st.func.entry();
        let pos = st.prologue_len;
        st.func.insert_inst(entry, pos, inst);
        st.prologue_len += 1;
        st.func.result(inst)
    }

    /// A new stack slot named `name`.
    fn alloc_stack(&mut self, name: &str) -> Value {
        let atom = self.atom(name);
        let st = self.f();
        let inst = st.func.make_inst(Opcode::AllocStack, Vec::new(), Vec::new(), Imm::Name(atom), Loc::default());
        let entry = st.func.entry();
        let pos = st.prologue_len;
        st.func.insert_inst(entry, pos, inst);
        st.prologue_len += 1;
        st.func.result(inst)
    }

    fn load_stack(&mut self, slot: Value) -> Value {
        self.emit(Opcode::LoadStack, vec![slot], Imm::None)
    }

    fn store_stack(&mut self, v: Value, slot: Value) {
        self.emit_void(Opcode::StoreStack, vec![v, slot], Imm::None);
    }

    fn call_builtin(&mut self, b: BuiltinId, args: Vec<Value>) -> Value {
        self.emit(Opcode::CallBuiltin, args, Imm::Builtin(b as u8))
    }

    fn throw_error(&mut self, kind: ir::ErrorKind, message: &str) {
        let atom = self.atom(message);
        self.term(Opcode::ThrowError, Vec::new(), Vec::new(), Imm::Error(kind, atom));
        self.start_dead_block();
    }

    // ---- literals ---------------------------------------------------------------------------

    fn atom(&mut self, s: &str) -> Atom {
        self.module.atom(s)
    }

    fn lit(&mut self, l: Literal) -> Value {
        self.f().func.literal(l)
    }

    fn undef(&mut self) -> Value {
        self.lit(Literal::Undefined)
    }

    fn empty(&mut self) -> Value {
        self.lit(Literal::Empty)
    }

    fn null(&mut self) -> Value {
        self.lit(Literal::Null)
    }

    fn bool_lit(&mut self, b: bool) -> Value {
        self.lit(Literal::Bool(b))
    }

    fn num(&mut self, n: f64) -> Value {
        self.lit(Literal::Number(n))
    }

    fn str_lit(&mut self, s: &str) -> Value {
        let a = self.atom(s);
        self.lit(Literal::String(a))
    }

    fn str_units(&mut self, units: &[u16]) -> Value {
        let a = self.module.atom_utf16(units);
        self.lit(Literal::String(a))
    }

    /// `v === empty`: whether an iterator is done or a binding uninitialized.
    fn is_empty(&mut self, v: Value) -> Value {
        let e = self.empty();
        self.b().binary(ir::BinOp::StrictEq, v, e)
    }

    /// `v == null`: whether `v` is undefined or null.
    fn is_nullish(&mut self, v: Value) -> Value {
        let n = self.null();
        self.b().binary(ir::BinOp::Eq, v, n)
    }

    // ---- function bookkeeping ------------------------------------------------------------------

    /// Removes blocks unreachable from the entry and the Phi entries that came from them.
    fn prune_unreachable(func: &mut ir::Function) {
        let entry = func.entry();
        let mut reachable = HashSet::new();
        let mut work = vec![entry];
        while let Some(b) = work.pop() {
            if reachable.insert(b) {
                work.extend(func.successors(b).iter().copied());
            }
        }
        let dead: Vec<Block> = func.layout.iter().copied().filter(|b| !reachable.contains(b)).collect();
        func.remove_blocks(&dead);
        let layout = func.layout.clone();
        for b in layout {
            let phis: Vec<Inst> =
                func.blocks[b].insts.iter().copied().filter(|&i| func.insts[i].opcode == Opcode::Phi).collect();
            for p in phis {
                let data = &mut func.insts[p];
                let mut args = Vec::new();
                let mut targets = Vec::new();
                for (&a, &t) in data.args.iter().zip(data.targets.iter()) {
                    if reachable.contains(&t) {
                        args.push(a);
                        targets.push(t);
                    }
                }
                data.args = args.into_iter().collect();
                data.targets = targets.into_iter().collect();
            }
        }
    }
}
