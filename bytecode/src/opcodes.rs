//! The opcode table: the only place a bytecode instruction is declared.
//!
//! Every other view of the instruction set — the `Opcode` enum, the decoded `Inst` enum, the
//! encoder, the decoder, the disassembler and the verifier's operand checks — is generated from
//! `for_each_opcode!` by passing it a consumer macro. A new row is a compile error in the
//! interpreter's exhaustive `match` until it is handled there.
//!
//! Row syntax: `mnemonic = Name { operand: Kind(Role), ... } [FLAGS] negated(Other);`
//!
//! The table drives its consumers: the `Role` of each operand (`Def`/`Use` registers, argument
//! ranges, string or function ids, cache slots, ...) is what the verifier checks, the
//! disassembler prints and the backend's liveness reads; `negated(Other)` (conditional jumps
//! only) is the jump taken exactly when this one is not, for code layout; the flags say what
//! the instruction may do (`THROWS`, `CALLS_JS`, `ALLOCATES`: the interpreter polls a
//! safepoint first, `WRITES`: state besides its `Def` registers), and the backend removes
//! an unused instruction exactly when they allow it. Adding an opcode is one row, its
//! interpreter arm (the exhaustive match says so) and its selection in the backend.
//!
//! Operand kinds (see `operand.rs`): `Reg` a frame register, `Id` an index into one of the
//! bundle's tables (strings, functions, regexps, literal buffers), `Slot` an inline-cache or
//! environment slot, `Off` a signed jump offset relative to the first byte of the
//! instruction (including a `Wide` prefix), `Count` a small unsigned count, `Imm32` a signed
//! 32-bit immediate, `F64` a double, `U8` a byte of flags or an enum tag.
//!
//! Encoding: one opcode byte followed by the operands, little-endian, unaligned. `Reg`, `Id`,
//! `Slot`, `Off` and `Count` have a narrow form (1, 2, 2, 1, 1 bytes) and a wide form (4 bytes
//! each); an instruction whose operands do not all fit the narrow form is preceded by the
//! `Wide` prefix byte, which widens every variable-width operand of the instruction after it.
//!
//! Calls pass their arguments in consecutive registers: `first` holds `this` and
//! `first + 1 .. first + argc` the arguments (`argc` counts `this`).
//!
//! Changing a row changes the bundle format: bump `BUNDLE_VERSION` and the snapshot test.

/// Invokes `$m!` with every opcode row.
#[macro_export]
macro_rules! for_each_opcode {
    ($m:ident) => { $m! {
        // ---- Prefix -------------------------------------------------------------------
        /// Prefix: the next instruction's variable-width operands are 4 bytes wide.
        wide = Wide {} [PREFIX];

        // ---- Moves and constants ------------------------------------------------------
        /// `dst = src`.
        mov = Mov { dst: Reg(Def), src: Reg(Use) } [];
        /// `dst = undefined`.
        load_const_undefined = LoadConstUndefined { dst: Reg(Def) } [];
        /// `dst = null`.
        load_const_null = LoadConstNull { dst: Reg(Def) } [];
        /// `dst = true`.
        load_const_true = LoadConstTrue { dst: Reg(Def) } [];
        /// `dst = false`.
        load_const_false = LoadConstFalse { dst: Reg(Def) } [];
        /// `dst = empty`, the internal "uninitialized binding" marker (never visible to JS).
        load_const_empty = LoadConstEmpty { dst: Reg(Def) } [];
        /// `dst = value` as a number.
        load_const_int = LoadConstInt { dst: Reg(Def), value: Imm32(Immediate) } [];
        /// `dst = value`.
        load_const_double = LoadConstDouble { dst: Reg(Def), value: F64(Immediate) } [];
        /// `dst = strings[id]`.
        load_const_string = LoadConstString { dst: Reg(Def), id: Id(StringId) } [];
        /// `dst = ` parameter `index` of the current frame (0 is `this`, as passed); missing
        /// arguments read as undefined.
        load_param = LoadParam { dst: Reg(Def), index: Count(Immediate) } [];
        /// `dst = ` the number of arguments passed, not counting `this`.
        load_arg_count = LoadArgCount { dst: Reg(Def) } [];
        /// `dst = ` sloppy-mode `this`: undefined/null become the global object, primitives are
        /// wrapped with ToObject.
        load_this_ns = LoadThisNS { dst: Reg(Def) } [ALLOCATES];
        /// `dst = new.target` of the current frame (undefined for a plain call).
        get_new_target = GetNewTarget { dst: Reg(Def) } [];
        /// `dst = ` the closure being executed.
        load_callee = LoadCallee { dst: Reg(Def) } [];
        /// `dst = ` an unmapped arguments object for the current frame.
        create_arguments = CreateArguments { dst: Reg(Def) } [ALLOCATES];
        /// `dst = ` the global object.
        get_global_object = GetGlobalObject { dst: Reg(Def) } [];

        // ---- Generic operators (ECMAScript semantics; may call valueOf/toString) --------
        /// `dst = lhs + rhs`.
        add = Add { dst: Reg(Def), lhs: Reg(Use), rhs: Reg(Use) } [THROWS | CALLS_JS | ALLOCATES];
        /// `dst = lhs - rhs`.
        sub = Sub { dst: Reg(Def), lhs: Reg(Use), rhs: Reg(Use) } [THROWS | CALLS_JS];
        /// `dst = lhs * rhs`.
        mul = Mul { dst: Reg(Def), lhs: Reg(Use), rhs: Reg(Use) } [THROWS | CALLS_JS];
        /// `dst = lhs / rhs`.
        div = Div { dst: Reg(Def), lhs: Reg(Use), rhs: Reg(Use) } [THROWS | CALLS_JS];
        /// `dst = lhs % rhs`.
        modulo = Mod { dst: Reg(Def), lhs: Reg(Use), rhs: Reg(Use) } [THROWS | CALLS_JS];
        /// `dst = lhs ** rhs`.
        exp = Exp { dst: Reg(Def), lhs: Reg(Use), rhs: Reg(Use) } [THROWS | CALLS_JS];
        /// `dst = lhs & rhs`.
        bit_and = BitAnd { dst: Reg(Def), lhs: Reg(Use), rhs: Reg(Use) } [THROWS | CALLS_JS];
        /// `dst = lhs | rhs`.
        bit_or = BitOr { dst: Reg(Def), lhs: Reg(Use), rhs: Reg(Use) } [THROWS | CALLS_JS];
        /// `dst = lhs ^ rhs`.
        bit_xor = BitXor { dst: Reg(Def), lhs: Reg(Use), rhs: Reg(Use) } [THROWS | CALLS_JS];
        /// `dst = lhs << rhs`.
        shl = Shl { dst: Reg(Def), lhs: Reg(Use), rhs: Reg(Use) } [THROWS | CALLS_JS];
        /// `dst = lhs >> rhs`.
        shr = Shr { dst: Reg(Def), lhs: Reg(Use), rhs: Reg(Use) } [THROWS | CALLS_JS];
        /// `dst = lhs >>> rhs`.
        ushr = UShr { dst: Reg(Def), lhs: Reg(Use), rhs: Reg(Use) } [THROWS | CALLS_JS];
        /// `dst = lhs == rhs`.
        eq = Eq { dst: Reg(Def), lhs: Reg(Use), rhs: Reg(Use) } [THROWS | CALLS_JS];
        /// `dst = lhs != rhs`.
        neq = Neq { dst: Reg(Def), lhs: Reg(Use), rhs: Reg(Use) } [THROWS | CALLS_JS];
        /// `dst = lhs === rhs`.
        strict_eq = StrictEq { dst: Reg(Def), lhs: Reg(Use), rhs: Reg(Use) } [];
        /// `dst = lhs !== rhs`.
        strict_neq = StrictNeq { dst: Reg(Def), lhs: Reg(Use), rhs: Reg(Use) } [];
        /// `dst = lhs < rhs`.
        less = Less { dst: Reg(Def), lhs: Reg(Use), rhs: Reg(Use) } [THROWS | CALLS_JS];
        /// `dst = lhs <= rhs`.
        less_eq = LessEq { dst: Reg(Def), lhs: Reg(Use), rhs: Reg(Use) } [THROWS | CALLS_JS];
        /// `dst = lhs > rhs`.
        greater = Greater { dst: Reg(Def), lhs: Reg(Use), rhs: Reg(Use) } [THROWS | CALLS_JS];
        /// `dst = lhs >= rhs`.
        greater_eq = GreaterEq { dst: Reg(Def), lhs: Reg(Use), rhs: Reg(Use) } [THROWS | CALLS_JS];
        /// `dst = lhs instanceof rhs`.
        instance_of = InstanceOf { dst: Reg(Def), lhs: Reg(Use), rhs: Reg(Use) } [THROWS | CALLS_JS];
        /// `dst = key in obj`.
        is_in = IsIn { dst: Reg(Def), key: Reg(Use), obj: Reg(Use) } [THROWS | CALLS_JS];

        // ---- Typed operators (operands proven to be numbers by the optimizer) ----------
        /// `dst = lhs + rhs`, both numbers.
        add_n = AddN { dst: Reg(Def), lhs: Reg(Use), rhs: Reg(Use) } [];
        /// `dst = lhs - rhs`, both numbers.
        sub_n = SubN { dst: Reg(Def), lhs: Reg(Use), rhs: Reg(Use) } [];
        /// `dst = lhs * rhs`, both numbers.
        mul_n = MulN { dst: Reg(Def), lhs: Reg(Use), rhs: Reg(Use) } [];
        /// `dst = lhs / rhs`, both numbers.
        div_n = DivN { dst: Reg(Def), lhs: Reg(Use), rhs: Reg(Use) } [];
        /// `dst = lhs < rhs`, both numbers.
        less_n = LessN { dst: Reg(Def), lhs: Reg(Use), rhs: Reg(Use) } [];
        /// `dst = lhs <= rhs`, both numbers.
        less_eq_n = LessEqN { dst: Reg(Def), lhs: Reg(Use), rhs: Reg(Use) } [];
        /// `dst = lhs > rhs`, both numbers.
        greater_n = GreaterN { dst: Reg(Def), lhs: Reg(Use), rhs: Reg(Use) } [];
        /// `dst = lhs >= rhs`, both numbers.
        greater_eq_n = GreaterEqN { dst: Reg(Def), lhs: Reg(Use), rhs: Reg(Use) } [];

        // ---- Unary operators -------------------------------------------------------------
        /// `dst = -src`.
        negate = Negate { dst: Reg(Def), src: Reg(Use) } [THROWS | CALLS_JS];
        /// `dst = ~src`.
        bit_not = BitNot { dst: Reg(Def), src: Reg(Use) } [THROWS | CALLS_JS];
        /// `dst = !src`.
        not = Not { dst: Reg(Def), src: Reg(Use) } [];
        /// `dst = typeof src`.
        type_of = TypeOf { dst: Reg(Def), src: Reg(Use) } [];
        /// `dst = ToNumber(src)` (unary `+`).
        to_number = ToNumber { dst: Reg(Def), src: Reg(Use) } [THROWS | CALLS_JS];
        /// `dst = ToNumeric(src)` (the old value of a postfix `++`/`--`).
        to_numeric = ToNumeric { dst: Reg(Def), src: Reg(Use) } [THROWS | CALLS_JS];
        /// `dst = ToNumeric(src) + 1`.
        inc = Inc { dst: Reg(Def), src: Reg(Use) } [THROWS | CALLS_JS];
        /// `dst = ToNumeric(src) - 1`.
        dec = Dec { dst: Reg(Def), src: Reg(Use) } [THROWS | CALLS_JS];
        /// `old = ToNumeric(src)`, then `dst = old + 1`: a postfix `++` whose old value is
        /// read (`to_numeric` and `inc` in one dispatch).
        post_inc = PostInc { old: Reg(Def), dst: Reg(Def), src: Reg(Use) } [THROWS | CALLS_JS];
        /// `old = ToNumeric(src)`, then `dst = old - 1`: a postfix `--` whose old value is read.
        post_dec = PostDec { old: Reg(Def), dst: Reg(Def), src: Reg(Use) } [THROWS | CALLS_JS];
        /// `dst = ToString(src)` (template literal substitutions).
        to_string = ToString { dst: Reg(Def), src: Reg(Use) } [THROWS | CALLS_JS | ALLOCATES];
        /// `dst = ToPropertyKey(src)` (computed keys evaluated before their values).
        to_property_key = ToPropertyKey { dst: Reg(Def), src: Reg(Use) } [THROWS | CALLS_JS];

        // ---- Control flow ------------------------------------------------------------------
        /// Jump by `off`. A backward jump polls for interrupts.
        jmp = Jmp { off: Off(JumpOffset) } [BRANCH | TERMINATOR];
        /// Jump by `off` if ToBoolean(cond).
        jmp_true = JmpTrue { off: Off(JumpOffset), cond: Reg(Use) } [BRANCH] negated(JmpFalse);
        /// Jump by `off` if !ToBoolean(cond).
        jmp_false = JmpFalse { off: Off(JumpOffset), cond: Reg(Use) } [BRANCH] negated(JmpTrue);
        /// Jump by `off` if `value` is undefined.
        jmp_undefined = JmpUndefined { off: Off(JumpOffset), value: Reg(Use) } [BRANCH] negated(JmpNotUndefined);
        /// Jump by `off` if `value` is the empty marker.
        jmp_empty = JmpEmpty { off: Off(JumpOffset), value: Reg(Use) } [BRANCH] negated(JmpNotEmpty);
        /// Jump by `off` if `value` is not undefined.
        jmp_not_undefined = JmpNotUndefined { off: Off(JumpOffset), value: Reg(Use) } [BRANCH] negated(JmpUndefined);
        /// Jump by `off` if `value` is not the empty marker.
        jmp_not_empty = JmpNotEmpty { off: Off(JumpOffset), value: Reg(Use) } [BRANCH] negated(JmpEmpty);
        /// Jump by `off` if `value` is undefined or null (`value == null`).
        jmp_nullish = JmpNullish { off: Off(JumpOffset), value: Reg(Use) } [BRANCH] negated(JmpNotNullish);
        /// Jump by `off` if `value` is neither undefined nor null (`value != null`).
        jmp_not_nullish = JmpNotNullish { off: Off(JumpOffset), value: Reg(Use) } [BRANCH] negated(JmpNullish);
        // Compare and branch: the comparison of the operator row of the same name, folded
        // into the jump that tests it. `not_` forms jump when the comparison is false (which
        // for the relational ones differs from the opposite comparison when NaN is involved).
        /// Jump by `off` if `lhs == rhs`.
        jmp_eq = JmpEq { off: Off(JumpOffset), lhs: Reg(Use), rhs: Reg(Use) } [BRANCH | THROWS | CALLS_JS] negated(JmpNeq);
        /// Jump by `off` if `lhs != rhs`.
        jmp_neq = JmpNeq { off: Off(JumpOffset), lhs: Reg(Use), rhs: Reg(Use) } [BRANCH | THROWS | CALLS_JS] negated(JmpEq);
        /// Jump by `off` if `lhs === rhs`.
        jmp_strict_eq = JmpStrictEq { off: Off(JumpOffset), lhs: Reg(Use), rhs: Reg(Use) } [BRANCH] negated(JmpStrictNeq);
        /// Jump by `off` if `lhs !== rhs`.
        jmp_strict_neq = JmpStrictNeq { off: Off(JumpOffset), lhs: Reg(Use), rhs: Reg(Use) } [BRANCH] negated(JmpStrictEq);
        /// Jump by `off` if `lhs < rhs`.
        jmp_less = JmpLess { off: Off(JumpOffset), lhs: Reg(Use), rhs: Reg(Use) } [BRANCH | THROWS | CALLS_JS] negated(JmpNotLess);
        /// Jump by `off` unless `lhs < rhs`.
        jmp_not_less = JmpNotLess { off: Off(JumpOffset), lhs: Reg(Use), rhs: Reg(Use) } [BRANCH | THROWS | CALLS_JS] negated(JmpLess);
        /// Jump by `off` if `lhs <= rhs`.
        jmp_less_eq = JmpLessEq { off: Off(JumpOffset), lhs: Reg(Use), rhs: Reg(Use) } [BRANCH | THROWS | CALLS_JS] negated(JmpNotLessEq);
        /// Jump by `off` unless `lhs <= rhs`.
        jmp_not_less_eq = JmpNotLessEq { off: Off(JumpOffset), lhs: Reg(Use), rhs: Reg(Use) } [BRANCH | THROWS | CALLS_JS] negated(JmpLessEq);
        /// Jump by `off` if `lhs > rhs`.
        jmp_greater = JmpGreater { off: Off(JumpOffset), lhs: Reg(Use), rhs: Reg(Use) } [BRANCH | THROWS | CALLS_JS] negated(JmpNotGreater);
        /// Jump by `off` unless `lhs > rhs`.
        jmp_not_greater = JmpNotGreater { off: Off(JumpOffset), lhs: Reg(Use), rhs: Reg(Use) } [BRANCH | THROWS | CALLS_JS] negated(JmpGreater);
        /// Jump by `off` if `lhs >= rhs`.
        jmp_greater_eq = JmpGreaterEq { off: Off(JumpOffset), lhs: Reg(Use), rhs: Reg(Use) } [BRANCH | THROWS | CALLS_JS] negated(JmpNotGreaterEq);
        /// Jump by `off` unless `lhs >= rhs`.
        jmp_not_greater_eq = JmpNotGreaterEq { off: Off(JumpOffset), lhs: Reg(Use), rhs: Reg(Use) } [BRANCH | THROWS | CALLS_JS] negated(JmpGreaterEq);
        /// Return `value` to the caller.
        ret = Ret { value: Reg(Use) } [TERMINATOR];
        /// Return undefined to the caller.
        ret_undefined = RetUndefined {} [TERMINATOR];
        /// Throw `value`.
        throw = Throw { value: Reg(Use) } [TERMINATOR | THROWS];
        /// `dst = src`; throws a ReferenceError naming `strings[name]` if `src` is empty (TDZ).
        throw_if_empty = ThrowIfEmpty { dst: Reg(Def), src: Reg(Use), name: Id(StringId) } [THROWS];
        /// Throw a new error of kind `kind` (see `ErrorKind`) with message `strings[msg]`.
        throw_error = ThrowError { kind: U8(ErrorKind), msg: Id(StringId) } [TERMINATOR | THROWS];
        /// Throw an internal error: marks code that is never executed in a correct program
        /// (unreachable blocks; the VM also ends every decoded function with one).
        trap = Trap {} [TERMINATOR | THROWS];
        /// `dst = ` the exception being handled; first instruction of every handler.
        catch = Catch { dst: Reg(Def) } [WRITES];
        /// Does nothing (the `debugger` statement).
        debugger = Debugger {} [WRITES];

        // ---- Environments (heap scopes of captured variables) ------------------------------
        /// `dst = ` a new environment of `size` slots (all undefined) whose parent is `parent`.
        create_env = CreateEnvironment { dst: Reg(Def), parent: Reg(Use), size: Count(Immediate) } [ALLOCATES];
        /// `dst = ` the environment the executing closure was created in.
        get_parent_env = GetParentEnvironment { dst: Reg(Def) } [];
        /// `dst = ` the environment `levels` parents above `env`.
        resolve_env = ResolveEnvironment { dst: Reg(Def), env: Reg(Use), levels: Count(Immediate) } [];
        /// `dst = env[slot]`.
        load_env = LoadFromEnvironment { dst: Reg(Def), env: Reg(Use), slot: Slot(EnvSlot) } [];
        /// `dst = ` the binding that import slot `slot` of `env` (a module environment) refers
        /// to: the slot holds an import reference (an environment of one slot whose parent is
        /// the exporting module's environment and whose slot is the index of the binding
        /// there). A ReferenceError naming `strings[name]` while the binding is uninitialized.
        load_import = LoadImport { dst: Reg(Def), env: Reg(Use), slot: Slot(EnvSlot), name: Id(StringId) } [THROWS];
        /// `env[slot] = value`.
        store_env = StoreToEnvironment { env: Reg(Use), slot: Slot(EnvSlot), value: Reg(Use) } [WRITES];

        // ---- Properties --------------------------------------------------------------------
        /// `dst = obj[strings[name]]`, cached in inline-cache slot `ic`.
        get_by_id = GetById { dst: Reg(Def), obj: Reg(Use), name: Id(StringId), ic: Slot(IcSlot) } [THROWS | CALLS_JS];
        /// `dst = ` global variable `strings[name]`: the realm's global lexical declaration of
        /// that name (a ReferenceError in its TDZ), else the global object's property (a
        /// ReferenceError if it does not exist). The cache holds global object properties only.
        get_global = GetGlobal { dst: Reg(Def), name: Id(StringId), ic: Slot(IcSlot) } [THROWS | CALLS_JS];
        /// Like `get_global` but undefined when the name does not exist (`typeof x`).
        typeof_global = TypeofGlobal { dst: Reg(Def), name: Id(StringId), ic: Slot(IcSlot) } [THROWS | CALLS_JS];
        /// `obj[strings[name]] = value` (strictness from the function's header).
        put_by_id = PutById { obj: Reg(Use), name: Id(StringId), value: Reg(Use), ic: Slot(IcSlot) } [THROWS | CALLS_JS | ALLOCATES | WRITES];
        /// Global variable `strings[name] = value`: the realm's global lexical declaration of
        /// that name (a ReferenceError in its TDZ, a TypeError if it is `const`), else the
        /// global object's property; in strict code a ReferenceError if neither exists.
        put_global = PutGlobal { name: Id(StringId), value: Reg(Use), ic: Slot(IcSlot) } [THROWS | CALLS_JS | ALLOCATES | WRITES];
        /// GlobalDeclarationInstantiation of a script (for eval code, the global checks of
        /// EvalDeclarationInstantiation): `strings[decls]` lists the declarations, separated
        /// by spaces, each a kind letter and the name (`l` let or class, `c` const, `f`
        /// function, `v` var, `b` Annex B function var); the lexical ones are slots 0, 1, ...
        /// of `env`, the script's top-level environment (undefined when there are none),
        /// which the realm shares with later scripts from then on. Throws a SyntaxError or
        /// TypeError, declaring nothing, on a conflict with earlier declarations. The
        /// functions and vars themselves are then made by `declareGlobalFunction` and
        /// `declareGlobalVar`.
        declare_globals = DeclareGlobals { env: Reg(Use), decls: Id(StringId) } [THROWS | ALLOCATES | WRITES];
        /// `dst = obj[key]`.
        get_by_val = GetByVal { dst: Reg(Def), obj: Reg(Use), key: Reg(Use) } [THROWS | CALLS_JS];
        /// `obj[key] = value` (strictness from the function's header).
        put_by_val = PutByVal { obj: Reg(Use), key: Reg(Use), value: Reg(Use) } [THROWS | CALLS_JS | ALLOCATES | WRITES];
        /// `dst = delete obj[strings[name]]`.
        del_by_id = DelById { dst: Reg(Def), obj: Reg(Use), name: Id(StringId) } [THROWS | WRITES];
        /// `dst = delete obj[key]`.
        del_by_val = DelByVal { dst: Reg(Def), obj: Reg(Use), key: Reg(Use) } [THROWS | CALLS_JS | WRITES];
        /// Define an own enumerable, writable, configurable data property
        /// `strings[name]` of `obj` (object literals, class fields), through inline cache
        /// `ic` (the shape transition that adds it, or the slot it replaces).
        put_own_by_id = PutOwnById { obj: Reg(Use), name: Id(StringId), value: Reg(Use), ic: Slot(IcSlot) } [THROWS | ALLOCATES | WRITES];
        /// Define an own data property `key` of `obj`; `flags` bit 0: enumerable.
        put_own_by_val = PutOwnByVal { obj: Reg(Use), key: Reg(Use), value: Reg(Use), flags: U8(Immediate) } [THROWS | CALLS_JS | ALLOCATES | WRITES];
        /// Define an own enumerable data property at array index `index` of `obj`.
        put_own_by_index = PutOwnByIndex { obj: Reg(Use), index: Count(Immediate), value: Reg(Use) } [THROWS | ALLOCATES | WRITES];
        /// Define an accessor property `key` of `obj` from `getter` and `setter`, either of
        /// which may be undefined; `flags` bit 0: enumerable.
        put_own_getter_setter = PutOwnGetterSetter { obj: Reg(Use), key: Reg(Use), getter: Reg(Use), setter: Reg(Use), flags: U8(Immediate) } [THROWS | CALLS_JS | ALLOCATES | WRITES];
        /// `dst = ` a new empty object whose prototype is Object.prototype.
        new_object = NewObject { dst: Reg(Def) } [ALLOCATES];
        /// `dst = ` a new empty object whose prototype is `proto` (an object or null).
        new_object_with_proto = NewObjectWithProto { dst: Reg(Def), proto: Reg(Use) } [ALLOCATES];
        /// `dst = ` a new array of length `size`, all holes.
        new_array = NewArray { dst: Reg(Def), size: Count(Immediate) } [ALLOCATES];

        // ---- Calls and closures ------------------------------------------------------------
        /// `dst = callee.call(first, first+1 .. first+argc-1)`.
        call = Call { dst: Reg(Def), callee: Reg(Use), first: Reg(ArgStart), argc: Count(ArgCount) } [THROWS | CALLS_JS];
        /// `dst = Reflect.construct(callee, [first+1 .. first+argc-1], new_target)`;
        /// register `first` is unused (it keeps the argument layout of `call`).
        construct = Construct { dst: Reg(Def), callee: Reg(Use), new_target: Reg(Use), first: Reg(ArgStart), argc: Count(ArgCount) } [THROWS | CALLS_JS];
        /// `dst = callee.apply(this, args)` where `args` is an array built by the caller.
        call_spread = CallSpread { dst: Reg(Def), callee: Reg(Use), this: Reg(Use), args: Reg(Use) } [THROWS | CALLS_JS];
        /// `dst = Reflect.construct(callee, args, new_target)`, `args` an array.
        construct_spread = ConstructSpread { dst: Reg(Def), callee: Reg(Use), new_target: Reg(Use), args: Reg(Use) } [THROWS | CALLS_JS];
        /// `dst = ` internal builtin `builtin` (see `builtins.rs`) applied to registers
        /// `first .. first+argc-1` (no `this`).
        call_builtin = CallBuiltin { dst: Reg(Def), builtin: U8(Builtin), first: Reg(ArgStart), argc: Count(ArgCount) } [THROWS | CALLS_JS];
        /// `dst = ` a closure of function `func` over environment `env`.
        create_closure = CreateClosure { dst: Reg(Def), env: Reg(Use), func: Id(FunctionId) } [ALLOCATES];
        /// `dst = ` a generator object whose body is inner function `func` over `env`,
        /// receiving the current frame's `this` and arguments.
        create_generator = CreateGenerator { dst: Reg(Def), env: Reg(Use), func: Id(FunctionId) } [ALLOCATES];
        /// `dst = ` the [[HomeObject]] of the executing closure (for `super`).
        load_home_object = LoadHomeObject { dst: Reg(Def) } [];
        /// `dst = ` a new RegExp object from `strings[pattern]` and `strings[flags]`.
        create_regexp = CreateRegExp { dst: Reg(Def), pattern: Id(StringId), flags: Id(StringId) } [THROWS | ALLOCATES];

        // ---- Generators (inner function of a generator) ------------------------------------
        /// First instruction of a generator's inner function: suspends in the "start" state
        /// until the first `next()`.
        start_generator = StartGenerator {} [WRITES];
        /// Record that the next resumption continues at `off` (then `ret` yields a value).
        save_generator = SaveGenerator { off: Off(JumpOffset) } [WRITES];
        /// `dst = ` the value sent by `next(v)`/`return(v)`; throws it for `throw(v)`;
        /// `is_return = ` true when resumed by `return(v)`.
        resume_generator = ResumeGenerator { dst: Reg(Def), is_return: Reg(Def) } [THROWS | WRITES];
        /// Mark the generator completed (following `ret` returns `{value, done: true}`).
        complete_generator = CompleteGenerator {} [WRITES];

        // ---- Iteration -----------------------------------------------------------------------
        /// `dst = GetIterator(src)` (fast path for arrays and strings with unmodified
        /// iteration protocol).
        get_iterator = GetIterator { dst: Reg(Def), src: Reg(Use) } [THROWS | CALLS_JS | ALLOCATES];
        /// `dst = ` the next value of iterator `iter`, or empty when it is done.
        iterator_next = IteratorNext { dst: Reg(Def), iter: Reg(Use) } [THROWS | CALLS_JS];
        /// Call `iter.return()` if it exists; `ignore_errors` nonzero: errors from it are
        /// dropped (used while an exception is already propagating).
        iterator_close = IteratorClose { iter: Reg(Use), ignore_errors: U8(Immediate) } [THROWS | CALLS_JS];
        /// `dst = ` a for-in enumerator over the enumerable string keys of `obj` and its
        /// prototype chain.
        get_pname_list = GetPNameList { dst: Reg(Def), obj: Reg(Use) } [THROWS | ALLOCATES];
        /// `dst = ` the next key of for-in enumerator `iter` still present on the object, or
        /// empty when done.
        get_next_pname = GetNextPName { dst: Reg(Def), iter: Reg(Use) } [THROWS | WRITES];
    }};
}

/// Behaviour flags of an opcode row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpFlags(pub u8);

impl OpFlags {
    /// No flags.
    pub const NONE: OpFlags = OpFlags(0);
    /// May throw an exception.
    pub const THROWS: OpFlags = OpFlags(1);
    /// May run JavaScript code (getters, valueOf, calls).
    pub const CALLS_JS: OpFlags = OpFlags(2);
    /// Ends a basic block: control never falls through to the next instruction.
    pub const TERMINATOR: OpFlags = OpFlags(4);
    /// Has a jump offset operand.
    pub const BRANCH: OpFlags = OpFlags(8);
    /// May allocate on the heap itself (not only through JavaScript it calls): the
    /// interpreter polls a safepoint before it, so a collection can happen there.
    pub const ALLOCATES: OpFlags = OpFlags(16);
    /// A prefix that modifies the next instruction.
    pub const PREFIX: OpFlags = OpFlags(32);
    /// Changes state other than its `Def` registers: the heap, an environment, a generator,
    /// the pending exception or the debugger. Without this flag (and without `THROWS`,
    /// `CALLS_JS` or a control-flow flag) an instruction whose results are unused can be
    /// removed.
    pub const WRITES: OpFlags = OpFlags(64);

    /// Whether an instruction of these flags can be removed when nothing reads its `Def`
    /// registers: it has no effect besides them.
    pub const fn removable_if_unused(self) -> bool {
        self.0
            & (OpFlags::THROWS.0
                | OpFlags::CALLS_JS.0
                | OpFlags::TERMINATOR.0
                | OpFlags::BRANCH.0
                | OpFlags::PREFIX.0
                | OpFlags::WRITES.0)
            == 0
    }

    /// Whether every flag of `other` is set in `self`.
    pub const fn contains(self, other: OpFlags) -> bool {
        self.0 & other.0 == other.0
    }
}

impl std::ops::BitOr for OpFlags {
    type Output = OpFlags;
    fn bitor(self, rhs: OpFlags) -> OpFlags {
        OpFlags(self.0 | rhs.0)
    }
}
