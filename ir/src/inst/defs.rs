//! The HIR instruction table: the only place an HIR instruction is declared.
//!
//! Row syntax:
//! `Name = "mnemonic" args(N) targets(N) imm(ImmKind) [effect | ...] -> result;`
//! - `args(N)`: the number of value operands, or `args(N+)` for at least N (variadic).
//! - `targets(N)`: the number of successor blocks (terminators), or `targets(N+)`.
//! - `imm`: the kind of the immediate payload (see `Imm`).
//! - effects: the labels every instance has; `Function::effects` may narrow them from the
//!   operand types and the immediate (an `add` of two numbers is pure).
//! - result: `none` (no result value), a fixed type, or `dynamic` (computed by
//!   `Function::result_type`, which type inference refines).
//!
//! Invariants the row cannot say are checked by the verifier (`verify.rs`).

/// Invokes `$m!` with every HIR instruction row.
#[macro_export]
macro_rules! for_each_hir_inst {
    ($m:ident) => { $m! {
        // ---- Frame -------------------------------------------------------------------------
        /// A stack slot for a non-captured variable named by `imm`; entry block only.
        /// mem2reg replaces it with SSA values. The result names the slot and is used only as
        /// the slot operand of LoadStack, StoreStack and ResumeGenerator; its type is the type
        /// of every value stored in it (`any|empty` until type inference narrows it).
        AllocStack = "alloc_stack" args(0) targets(0) imm(Name) [] -> dynamic;
        /// `%r = *slot`.
        LoadStack = "load_stack" args(1) targets(0) imm(None) [READS_FRAME] -> dynamic;
        /// `*slot = value` (operands: value, slot).
        StoreStack = "store_stack" args(2) targets(0) imm(None) [WRITES_FRAME] -> none;
        /// Parameter `imm` of the function: 0 is `this` as passed, 1.. the formals.
        LoadParam = "load_param" args(0) targets(0) imm(Index) [IDEMPOTENT] -> any;
        /// The number of arguments passed (not counting `this`).
        ArgCount = "arg_count" args(0) targets(0) imm(None) [IDEMPOTENT] -> number;
        /// Sloppy-mode `this`: the global object for undefined/null, ToObject otherwise.
        CoerceThisNS = "coerce_this_ns" args(1) targets(0) imm(None) [READS_HEAP] -> anyobject;
        /// `new.target`.
        GetNewTarget = "get_new_target" args(0) targets(0) imm(None) [IDEMPOTENT] -> dynamic;
        /// The closure being executed.
        GetCallee = "get_callee" args(0) targets(0) imm(None) [IDEMPOTENT] -> closure;
        /// A fresh unmapped arguments object.
        CreateArguments = "create_arguments" args(0) targets(0) imm(None) [READS_FRAME] -> object;
        /// The global object.
        GetGlobalObject = "get_global_object" args(0) targets(0) imm(None) [IDEMPOTENT] -> object;

        // ---- Scopes -------------------------------------------------------------------------
        /// The environment the executing closure was created in (that of scope `imm`, the
        /// innermost scope of the enclosing function at the point of creation).
        GetParentScope = "get_parent_scope" args(0) targets(0) imm(Scope) [IDEMPOTENT] -> environment;
        /// A new environment for scope `imm` whose parent is operand 0.
        CreateScope = "create_scope" args(1) targets(0) imm(Scope) [] -> environment;
        /// The environment of scope `imm`, found by walking up the parents of operand 0
        /// (an environment of a scope nested in `imm`).
        ResolveScope = "resolve_scope" args(1) targets(0) imm(Scope) [READS_FRAME] -> environment;
        /// `%r = env.var`, operand 0 the environment of the variable's scope.
        LoadFrame = "load_frame" args(1) targets(0) imm(Var) [READS_FRAME] -> dynamic;
        /// `%r = ` the binding that import variable `imm` of environment operand 0 refers to
        /// (a variable of the exporting module, linked before the module runs); a
        /// ReferenceError while that binding is uninitialized.
        LoadImport = "load_import" args(1) targets(0) imm(Var) [READS_FRAME | MAY_THROW] -> any;
        /// `env.var = value` (operands: value, env).
        StoreFrame = "store_frame" args(2) targets(0) imm(Var) [WRITES_FRAME] -> none;
        /// Operand 0 unchanged, or a ReferenceError naming `imm` if it is empty (TDZ).
        ThrowIfEmpty = "throw_if_empty" args(1) targets(0) imm(Name) [MAY_THROW] -> dynamic;

        // ---- Operators ------------------------------------------------------------------------
        /// A binary operator `imm` with ECMAScript semantics.
        BinaryOp = "binary_op" args(2) targets(0) imm(BinOp) [READS_HEAP | WRITES_HEAP | MAY_THROW | EXECUTES_JS] -> dynamic;
        /// A unary operator `imm` with ECMAScript semantics.
        UnaryOp = "unary_op" args(1) targets(0) imm(UnOp) [READS_HEAP | WRITES_HEAP | MAY_THROW | EXECUTES_JS] -> dynamic;
        /// ToNumber (unary `+`).
        AsNumber = "as_number" args(1) targets(0) imm(None) [READS_HEAP | WRITES_HEAP | MAY_THROW | EXECUTES_JS] -> number;
        /// ToNumeric (old value of postfix `++`/`--`).
        AsNumeric = "as_numeric" args(1) targets(0) imm(None) [READS_HEAP | WRITES_HEAP | MAY_THROW | EXECUTES_JS] -> number|bigint;
        /// ToString (template literal substitutions).
        AsString = "as_string" args(1) targets(0) imm(None) [READS_HEAP | WRITES_HEAP | MAY_THROW | EXECUTES_JS] -> string;
        /// ToPropertyKey.
        ToPropertyKey = "to_property_key" args(1) targets(0) imm(None) [READS_HEAP | WRITES_HEAP | MAY_THROW | EXECUTES_JS] -> string|number|symbol;

        // ---- Properties -------------------------------------------------------------------------
        /// `%r = obj[key]` (operands: obj, key).
        LoadProperty = "load_property" args(2) targets(0) imm(None) [READS_HEAP | WRITES_HEAP | MAY_THROW | EXECUTES_JS] -> any;
        /// `obj[key] = value` (operands: value, obj, key), strictness from the function.
        StoreProperty = "store_property" args(3) targets(0) imm(None) [READS_HEAP | WRITES_HEAP | MAY_THROW | EXECUTES_JS] -> none;
        /// `%r = delete obj[key]` (operands: obj, key).
        DeleteProperty = "delete_property" args(2) targets(0) imm(None) [READS_HEAP | WRITES_HEAP | MAY_THROW | EXECUTES_JS] -> boolean;
        /// Defines an own data property (operands: value, obj, key); `imm` bit 0: enumerable.
        DefineOwnProperty = "define_own_property" args(3) targets(0) imm(Flags) [READS_HEAP | WRITES_HEAP | MAY_THROW | EXECUTES_JS] -> none;
        /// Defines an own accessor property (operands: getter, setter, obj, key; getter or
        /// setter may be undefined); `imm` bit 0: enumerable.
        DefineOwnAccessor = "define_own_accessor" args(4) targets(0) imm(Flags) [READS_HEAP | WRITES_HEAP | MAY_THROW | EXECUTES_JS] -> none;
        /// Reads global `imm`; ReferenceError if it does not exist.
        TryLoadGlobal = "try_load_global" args(0) targets(0) imm(Name) [READS_HEAP | WRITES_HEAP | MAY_THROW | EXECUTES_JS] -> any;
        /// Reads global `imm`, undefined if it does not exist (`typeof x`).
        LoadGlobal = "load_global" args(0) targets(0) imm(Name) [READS_HEAP | WRITES_HEAP | MAY_THROW | EXECUTES_JS] -> any;
        /// Writes global `imm` (operand: value); in strict functions a ReferenceError if it
        /// does not exist.
        StoreGlobal = "store_global" args(1) targets(0) imm(Name) [READS_HEAP | WRITES_HEAP | MAY_THROW | EXECUTES_JS] -> none;
        /// GlobalDeclarationInstantiation of a script (EvalDeclarationInstantiation's global
        /// checks for eval code): operand 0 is the script's top-level environment, whose slots
        /// 0, 1, ... hold the lexical declarations `imm` lists (undefined when it lists none);
        /// `imm` lists the declarations, separated by spaces, each a kind letter and the name
        /// (`l` let or class, `c` const, `f` function, `v` var, `b` Annex B function var).
        /// SyntaxError or TypeError on a conflict with what earlier scripts declared.
        DeclareGlobals = "declare_globals" args(1) targets(0) imm(Name) [READS_HEAP | WRITES_HEAP | MAY_THROW] -> none;
        /// A new empty object; operand 0, if present, is its prototype (object or null).
        AllocObject = "alloc_object" args(0+) targets(0) imm(None) [] -> object;
        /// A new array of length `imm`, all holes.
        AllocArray = "alloc_array" args(0) targets(0) imm(Index) [] -> object;
        /// Defines element `imm` of a new array (operands: value, array).
        StoreOwnIndex = "store_own_index" args(2) targets(0) imm(Index) [WRITES_HEAP] -> none;

        // ---- Functions ------------------------------------------------------------------------
        /// A closure of function `imm` over environment operand 0.
        CreateClosure = "create_closure" args(1) targets(0) imm(Func) [] -> closure;
        /// A generator object whose body is inner function `imm` over environment operand 0.
        CreateGenerator = "create_generator" args(1) targets(0) imm(Func) [READS_FRAME] -> object;
        /// `%r = callee.call(this, args...)` (operands: callee, this, args...).
        Call = "call" args(2+) targets(0) imm(None) [READS_HEAP | WRITES_HEAP | MAY_THROW | EXECUTES_JS | READS_FRAME | WRITES_FRAME] -> any;
        /// `%r = new callee(args...)` with new.target (operands: callee, new_target, args...).
        Construct = "construct" args(2+) targets(0) imm(None) [READS_HEAP | WRITES_HEAP | MAY_THROW | EXECUTES_JS | READS_FRAME | WRITES_FRAME] -> anyobject;
        /// `%r = callee.apply(this, array)` (operands: callee, this, array).
        CallSpread = "call_spread" args(3) targets(0) imm(None) [READS_HEAP | WRITES_HEAP | MAY_THROW | EXECUTES_JS | READS_FRAME | WRITES_FRAME] -> any;
        /// `%r = Reflect.construct(callee, array, new_target)` (operands: callee,
        /// new_target, array).
        ConstructSpread = "construct_spread" args(3) targets(0) imm(None) [READS_HEAP | WRITES_HEAP | MAY_THROW | EXECUTES_JS | READS_FRAME | WRITES_FRAME] -> anyobject;
        /// A direct `eval(...)` (operands: callee, the innermost environment here, the text
        /// describing the scope chain for the eval code, then the call's arguments): the
        /// eval code runs in that environment when the callee is %eval%, else the callee is
        /// called (the `directEval` internal builtin).
        DirectEval = "direct_eval" args(3+) targets(0) imm(None) [READS_HEAP | WRITES_HEAP | MAY_THROW | EXECUTES_JS | READS_FRAME | WRITES_FRAME] -> any;
        /// Internal builtin `imm` applied to the operands.
        CallBuiltin = "call_builtin" args(0+) targets(0) imm(Builtin) [READS_HEAP | WRITES_HEAP | MAY_THROW | EXECUTES_JS] -> any;
        /// The [[HomeObject]] of the executing method.
        GetHomeObject = "get_home_object" args(0) targets(0) imm(None) [IDEMPOTENT] -> anyobject;
        /// A new RegExp object from pattern and flags `imm`.
        CreateRegExp = "create_regexp" args(0) targets(0) imm(RegExp) [MAY_THROW] -> regexp;

        // ---- Iteration -------------------------------------------------------------------------
        /// GetIterator(operand 0).
        GetIterator = "get_iterator" args(1) targets(0) imm(None) [READS_HEAP | WRITES_HEAP | MAY_THROW | EXECUTES_JS] -> anyobject;
        /// The next value of iterator operand 0, or empty when it is done.
        IteratorNext = "iterator_next" args(1) targets(0) imm(None) [READS_HEAP | WRITES_HEAP | MAY_THROW | EXECUTES_JS] -> dynamic;
        /// Closes iterator operand 0; `imm` bit 0: ignore errors from `return()`.
        IteratorClose = "iterator_close" args(1) targets(0) imm(Flags) [READS_HEAP | WRITES_HEAP | MAY_THROW | EXECUTES_JS] -> none;
        /// A for-in enumerator over operand 0.
        GetPNameList = "get_pname_list" args(1) targets(0) imm(None) [READS_HEAP | MAY_THROW] -> object;
        /// The next key of for-in enumerator operand 0, or empty when done.
        GetNextPName = "get_next_pname" args(1) targets(0) imm(None) [READS_HEAP | WRITES_HEAP | MAY_THROW] -> string|empty;

        // ---- Generators (inner function) --------------------------------------------------------
        /// First instruction of a generator's inner function.
        StartGenerator = "start_generator" args(0) targets(0) imm(None) [FIRST_IN_BLOCK | WRITES_FRAME] -> none;
        /// Yields operand 0; the generator resumes at the target block, whose first
        /// instruction is `ResumeGenerator`.
        SaveAndYield = "save_and_yield" args(1) targets(1) imm(None) [TERMINATOR | WRITES_FRAME] -> none;
        /// The value sent on resumption; throws it if resumed by `throw()`; stores whether it
        /// was resumed by `return()` into stack slot operand 0.
        ResumeGenerator = "resume_generator" args(1) targets(0) imm(None) [FIRST_IN_BLOCK | WRITES_FRAME | MAY_THROW] -> any;
        /// Marks the generator completed.
        CompleteGenerator = "complete_generator" args(0) targets(0) imm(None) [WRITES_FRAME] -> none;

        // ---- Control flow ---------------------------------------------------------------------------
        /// One value per predecessor: operand i flows in from target i.
        Phi = "phi" args(0+) targets(0+) imm(None) [FIRST_IN_BLOCK] -> dynamic;
        /// Unconditional jump.
        Branch = "branch" args(0) targets(1) imm(None) [TERMINATOR] -> none;
        /// Jump to target 0 if ToBoolean(operand 0), else target 1.
        CondBranch = "cond_branch" args(1) targets(2) imm(None) [TERMINATOR] -> none;
        /// Return operand 0.
        Return = "return" args(1) targets(0) imm(None) [TERMINATOR] -> none;
        /// Throw operand 0.
        Throw = "throw" args(1) targets(0) imm(None) [TERMINATOR | MAY_THROW] -> none;
        /// Throw a new error of kind and message `imm`.
        ThrowError = "throw_error" args(0) targets(0) imm(Error) [TERMINATOR | MAY_THROW] -> none;
        /// Control never reaches here.
        Unreachable = "unreachable" args(0) targets(0) imm(None) [TERMINATOR] -> none;
        /// Enter a try region: the body starts at target 0, exceptions thrown inside go to
        /// target 1 (whose first instruction is `Catch`).
        TryStart = "try_start" args(0) targets(2) imm(None) [TERMINATOR] -> none;
        /// Leave the innermost try region and continue at target 0.
        TryEnd = "try_end" args(0) targets(1) imm(None) [TERMINATOR] -> none;
        /// The exception caught; first instruction of a handler block.
        Catch = "catch" args(0) targets(0) imm(None) [FIRST_IN_BLOCK] -> any;
        /// The `debugger` statement.
        Debugger = "debugger" args(0) targets(0) imm(None) [IO] -> none;
    }};
}
