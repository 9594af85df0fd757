//! Internal builtins reachable from bytecode through `call_builtin`.
//!
//! These are the operations too rare or too large to deserve an opcode of their own. The
//! compiler refers to them by `BuiltinId`; the VM implements each one. The numbering is part
//! of the bundle format: append rows, never reorder them.

/// Invokes `$m!` with every internal builtin row: `Name = index, "js name";`.
#[macro_export]
macro_rules! for_each_builtin {
    ($m:ident) => {
        $m! {
            /// `copyDataProperties(target, source, excludedKeys...)`: object spread and rest;
            /// copies the own enumerable properties of `source` not listed in the excluded keys
            /// onto `target` and returns `target`.
            CopyDataProperties = 0, "copyDataProperties";
            /// `defineClass(ctor, superclass)`: wires a class constructor to its superclass (or to
            /// Function.prototype/Object.prototype when `superclass` is empty), creates its
            /// `prototype` object and returns it. Throws a TypeError if `superclass` is neither
            /// null nor a constructor.
            DefineClass = 1, "defineClass";
            /// `setHomeObject(func, home)`: records `home` as the [[HomeObject]] of method
            /// `func`, for `super` lookups; returns `func`.
            SetHomeObject = 2, "setHomeObject";
            /// `getPrototypeOf(obj)`: the [[Prototype]] of `obj` (used for `super`).
            GetPrototypeOf = 3, "getPrototypeOf";
            /// `superGet(home, key, this[, base])`: `super[key]` read with receiver `this`, from
            /// `base` when given (the GetSuperBase of a reference read and then written, taken
            /// before its key is converted), else from the prototype of `home`.
            SuperGet = 4, "superGet";
            /// `superSet(home, key, value, this[, strict[, base]])`: `super[key] = value` with
            /// receiver `this` (on `base` when given, as for `superGet`); a failed assignment
            /// throws a TypeError unless `strict` is false (sloppy code).
            SuperSet = 5, "superSet";
            /// `getTemplateObject(id, cooked..., raw...)`: the frozen template strings array of
            /// tagged template `id`, created once per call site.
            GetTemplateObject = 6, "getTemplateObject";
            /// `appendSpread(array, nextIndex, iterable)`: appends every value of `iterable` to
            /// `array` starting at `nextIndex` and returns the next free index.
            AppendSpread = 7, "appendSpread";
            /// `ensureObject(value, message)`: throws a TypeError with `message` unless `value`
            /// is an object; returns `value`.
            EnsureObject = 8, "ensureObject";
            /// `throwTypeErrorIfNullish(value, message)`: throws a TypeError when destructuring
            /// null or undefined; returns `value`.
            RequireObjectCoercible = 9, "requireObjectCoercible";
            /// `setFunctionName(func, name[, prefix])`: sets the `name` of an anonymous function
            /// or class from a computed key; an accessor's `prefix` ("get" or "set") and a space
            /// go before it.
            SetFunctionName = 10, "setFunctionName";
            /// `checkDerivedThis(this)`: throws a ReferenceError when a derived constructor
            /// reads `this` before calling `super()` (its `this` binding is still empty).
            ThrowSuperNotCalled = 11, "throwSuperNotCalled";
            /// `derivedReturn(result, this)`: the value a derived constructor returns: `result`
            /// if it is an object, `this` if `result` is undefined, else a TypeError.
            DerivedReturn = 12, "derivedReturn";
            /// `restArray(arrayLike, start)`: a new array of the elements of `arrayLike` from
            /// `start` on (rest elements in array destructuring over a closed iterator's list).
            ArrayFromIndex = 13, "arrayFromIndex";
            /// `declareGlobalVar(name, configurable)`: a top-level `var` of a script, or of
            /// global eval code with `configurable` true (CreateGlobalVarBinding with D =
            /// `configurable`): if the global object has no own property `name`, defines it as
            /// `{ value: undefined, writable: true, enumerable: true, configurable }` (a
            /// TypeError if the global object is not extensible); otherwise, or if a global
            /// lexical declaration has the name (an Annex B function var), does nothing.
            /// Returns undefined.
            DeclareGlobalVar = 14, "declareGlobalVar";
            /// `declareGlobalFunction(name, closure, configurable)`: a top-level function
            /// declaration of a script, or of global eval code with `configurable` true
            /// (CanDeclareGlobalFunction + CreateGlobalFunctionBinding with D = `configurable`):
            /// if the existing own property `name` is absent or configurable, defines
            /// `{ value: closure, writable: true, enumerable: true, configurable }`;
            /// else if it is a writable, enumerable data property, sets its value; else throws
            /// a TypeError. Returns undefined.
            DeclareGlobalFunction = 15, "declareGlobalFunction";
            /// `setProtoFromLiteral(obj, value)`: `__proto__: value` in an object literal: sets
            /// the [[Prototype]] of the new object `obj` to `value` if `value` is an object or
            /// null, else does nothing. Returns undefined.
            SetProtoFromLiteral = 16, "setProtoFromLiteral";
            /// `markRawYield()`: in a generator's inner function, immediately before a yield:
            /// the yielded value is an iterator result object handed to the resumer as it is
            /// (not wrapped by CreateIterResultObject). `yield*` passes the inner iterator's
            /// results through this way (27.5.3.8 GeneratorYield of innerResult). Returns
            /// undefined.
            MarkRawYield = 17, "markRawYield";
            /// `createPrivateName(description)`: a new Private Name (a class's `#x`, or a class
            /// brand): a symbol that scripts never see, which `privateAdd` uses as the key of a
            /// private element. [[OwnPropertyKeys]] does not list such keys and the private
            /// builtins below are the only way to reach them.
            CreatePrivateName = 18, "createPrivateName";
            /// `privateGet(obj, name)`: the value of private element `name` of `obj`
            /// (PrivateGet for fields); a TypeError if `obj` is not an object that has it.
            PrivateGet = 19, "privateGet";
            /// `privateSet(obj, name, value)`: sets private field `name` of `obj` (PrivateSet for
            /// fields); a TypeError if `obj` is not an object that has it. Returns `value`.
            PrivateSet = 20, "privateSet";
            /// `privateAdd(obj, name, value)`: adds private element `name` to `obj`
            /// (PrivateFieldAdd, and the brand of classes with private methods); a TypeError if
            /// `obj` already has it or is not extensible (the nonextensible-applies-to-private
            /// amendment). Returns undefined.
            PrivateAdd = 21, "privateAdd";
            /// `privateIn(name, obj)`: `#x in obj`: whether `obj` has private element `name`; a
            /// TypeError if `obj` is not an object.
            PrivateIn = 22, "privateIn";
            /// `createBigInt(digits)`: the BigInt whose decimal digits (with an optional `-`) are
            /// the string `digits` (BigInt literals).
            CreateBigInt = 23, "createBigInt";
            /// `toObject(value)`: ToObject (a TypeError for undefined and null); the object of
            /// a `with` statement.
            ToObject = 24, "toObject";
            /// `withHas(obj, name)`: whether the object environment of a `with` statement over
            /// `obj` has binding `name` (HasBinding: HasProperty(obj, name), unless
            /// `obj[Symbol.unscopables][name]` is truthy).
            WithHas = 25, "withHas";
            /// `mapArguments(args, argc, mask, p1, ..., pn)`: makes arguments object `args` of a
            /// sloppy function with simple parameters `p1..pn` (their initial values) a mapped
            /// one: index `i` aliases parameter `i` when `i < argc` and bit `i` of `mask` is set.
            /// The parameters then live in the arguments object (`argumentsGet`/`argumentsSet`).
            /// Returns undefined.
            MapArguments = 26, "mapArguments";
            /// `argumentsGet(args, i)`: parameter `i` of a function whose arguments object
            /// `args` is mapped.
            ArgumentsGet = 27, "argumentsGet";
            /// `argumentsSet(args, i, value)`: assigns parameter `i` of a function whose
            /// arguments object `args` is mapped. Returns undefined.
            ArgumentsSet = 28, "argumentsSet";
            /// `putValueStrict(obj, key, value)`: `obj[key] = value` as strict mode code (a
            /// TypeError when the assignment fails) inside a sloppy function: class heritages and
            /// computed keys are strict. Returns undefined.
            PutValueStrict = 29, "putValueStrict";
            /// `storeGlobalStrict(name, value)`: assignment to global `name` as strict mode code
            /// inside a sloppy function (a ReferenceError if it does not exist). Returns undefined.
            StoreGlobalStrict = 30, "storeGlobalStrict";
            /// `deleteStrict(obj, key)`: `delete obj[key]` as strict mode code inside a sloppy
            /// function (a TypeError when the property cannot be deleted). Returns true.
            DeleteStrict = 31, "deleteStrict";
            /// `asyncFunctionStart(generator)`: runs the body of an async function, held by
            /// `generator` (made by `create_generator` of its inner function), until its first
            /// `await` or its end, and returns the promise of its result. Each `await` is a yield
            /// of the awaited value; the VM resumes the generator from the reactions of that
            /// value's promise (with `next(value)` or `throw(reason)`).
            AsyncFunctionStart = 32, "asyncFunctionStart";
            /// `asyncGeneratorStart(generator)`: the AsyncGenerator object (27.6) of an async
            /// generator call, whose body is held by `generator` (made by `create_generator` of
            /// the inner function). Runs none of the body: `next`, `throw` and `return` queue
            /// requests that the VM serves by resuming `generator`. Its [[Prototype]] is the
            /// `prototype` of the called function, else %AsyncGeneratorPrototype%.
            AsyncGeneratorStart = 33, "asyncGeneratorStart";
            /// `markAsyncYield()`: in the body of an async generator, the suspension that
            /// follows is a `yield` (AsyncGeneratorYield of the yielded value, which completes
            /// the front request) rather than an `await`. Returns undefined.
            MarkAsyncYield = 34, "markAsyncYield";
            /// `getAsyncIterator(obj)`: GetIterator(obj, async) (7.4.3): the iterator returned by
            /// `obj[Symbol.asyncIterator]()`, else CreateAsyncFromSyncIterator of
            /// `obj[Symbol.iterator]()`; a TypeError when neither is callable or the result is
            /// not an object. The caller reads the iterator's `next` once, right after.
            GetAsyncIterator = 35, "getAsyncIterator";
            /// `createDisposeCapability(isAsync)`: a new empty [[DisposeCapability]] for a
            /// block with `using` (or, when `isAsync`, `await using`) declarations: an internal
            /// object only the two builtins below see.
            CreateDisposeCapability = 36, "createDisposeCapability";
            /// `addDisposableResource(cap, value, isAsync)`: AddDisposableResource of a `using`
            /// (`await using` when `isAsync`) declaration: a TypeError if `value` is not an
            /// object with a dispose method (null and undefined are allowed). Returns
            /// undefined.
            AddDisposableResource = 37, "addDisposableResource";
            /// `disposeResources(cap[, error])`: DisposeResources with a normal completion, or a
            /// throw of `error`: disposes of the resources in reverse order and throws the
            /// final error, if any (errors suppressing earlier ones become SuppressedErrors).
            /// For an async capability it returns a promise of that, to be awaited.
            DisposeResources = 38, "disposeResources";
            /// `importMeta(module)`: the `import.meta` object of module `module` (the value of
            /// its module slot), made on first use.
            ImportMeta = 39, "importMeta";
            /// `dynamicImport(module, specifier, options[, phase])`: `import(specifier,
            /// options)` from module `module` (the value of its module slot; undefined in a
            /// script, whose file then is the referrer): a promise of the module's namespace
            /// object, rejected if loading, linking or evaluating the module fails. Phase 1:
            /// `import.source(specifier)`, the promise of the module's source object (which no
            /// module loaded here has: loaded, it rejects with a SyntaxError); phase 2:
            /// `import.defer(specifier)`, the promise of the deferred namespace, once the
            /// module's asynchronous dependencies are evaluated.
            DynamicImport = 40, "dynamicImport";
            /// `directEval(callee, env, scope, args...)`: `eval(args...)` written directly:
            /// when `callee` is the realm's %eval% and the first argument a string, the
            /// string compiled as direct eval code against `scope` (the caller's scope chain
            /// as text, see the compiler's `frontend::eval`) and run in environment `env`
            /// (its completion value is the result); otherwise `callee(args...)`.
            DirectEval = 41, "directEval";
            /// `declareEvalVar(object, name[, value])`: a `var` (without `value`) or function
            /// (with it) of sloppy direct eval code declared on the caller's `%evalvars`
            /// object: a new configurable property, initialized to undefined unless it exists;
            /// a function's value always.
            DeclareEvalVar = 42, "declareEvalVar";
        }
    };
}
