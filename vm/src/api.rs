//! The embedding API beyond running a program: evaluate code and keep its completion value,
//! reach the global object, make and read values, get and set properties, call functions and
//! run the job queue, through [`JsValue`] handles that keep what they hold alive.
//!
//! ```text
//!  host ── Runtime::eval / eval_bundle / global / call / get / set ──▶ JsValue
//!  JsValue ── a number, boolean, undefined or null: held by value
//!          └─ a string, symbol, bigint or object: a slot of the runtime's handle table,
//!             traced as a root until the last JsValue for it is dropped
//! ```
//!
//! Every operation that runs JavaScript returns `Result<_, JsError>`: an exception thrown
//! and not caught, with its name, message and JavaScript stack; an interrupt (see
//! [`InterruptHandle`](crate::InterruptHandle)) or the heap limit end the same way.
//!
//! A `JsValue` belongs to the runtime that made it: giving it to another runtime panics.
//! A `JsValue` kept by the host keeps its value alive, and everything that value reaches:
//! drop it when done.

use std::rc::Rc;

use std::cell::RefCell;

use crate::gc::CellKind;
use crate::object::shape::{CONFIGURABLE, WRITABLE};
use crate::object::{HostObject, JsObject, Key};
use crate::runtime::function::NativeFunction;
use crate::runtime::handles::SharedHandles;

use crate::runtime::{ErrorKind, Exception, ExceptionKind, JsError, JsResult, Runtime};
use crate::value::Value;

/// A JavaScript value held by the host. Numbers, booleans, `undefined` and `null` are held
/// by value; any other value is kept alive (a root of the collector) for as long as a
/// `JsValue` holds it. Cloning holds it again.
///
/// ```
/// let mut rt = vm::Runtime::new(vm::RuntimeOptions::default());
/// let answer = vm::JsValue::from(42.0);
/// assert_eq!(answer.as_number(), Some(42.0));
/// let greeting = vm::JsValue::string(&mut rt, "hello");
/// assert_eq!(greeting.as_string(&mut rt).as_deref(), Some("hello"));
/// ```
pub struct JsValue(Held);

enum Held {
    /// An immediate value (number, boolean, undefined, null).
    Immediate(Value),
    /// A heap value in slot `index` of a runtime's handle table.
    Slot { table: SharedHandles, index: u32 },
}

impl JsValue {
    /// `undefined`.
    pub const UNDEFINED: JsValue = JsValue(Held::Immediate(Value::UNDEFINED));
    /// `null`.
    pub const NULL: JsValue = JsValue(Held::Immediate(Value::NULL));

    /// The number, if this is one.
    pub fn as_number(&self) -> Option<f64> {
        self.immediate().and_then(Value::as_number)
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        self.immediate().and_then(Value::as_boolean)
    }

    /// Whether this is `undefined`.
    pub fn is_undefined(&self) -> bool {
        self.immediate().is_some_and(Value::is_undefined)
    }

    /// Whether this is `null`.
    pub fn is_null(&self) -> bool {
        self.immediate().is_some_and(Value::is_null)
    }

    /// Whether this handle may be given to `rt`: it holds a number, boolean, undefined or
    /// null, or `rt` made it. (Giving a handle to another runtime panics.)
    pub fn belongs_to(&self, rt: &Runtime) -> bool {
        match &self.0 {
            Held::Immediate(_) => true,
            Held::Slot { table, .. } => Rc::ptr_eq(table, &rt.roots.api),
        }
    }

    fn immediate(&self) -> Option<Value> {
        match self.0 {
            Held::Immediate(v) => Some(v),
            Held::Slot { .. } => None,
        }
    }
}

impl From<f64> for JsValue {
    fn from(n: f64) -> JsValue {
        JsValue(Held::Immediate(Value::number(n)))
    }
}

impl From<i32> for JsValue {
    fn from(n: i32) -> JsValue {
        JsValue::from(f64::from(n))
    }
}

impl From<bool> for JsValue {
    fn from(b: bool) -> JsValue {
        JsValue(Held::Immediate(Value::boolean(b)))
    }
}

impl Clone for JsValue {
    fn clone(&self) -> JsValue {
        match &self.0 {
            Held::Immediate(v) => JsValue(Held::Immediate(*v)),
            Held::Slot { table, index } => {
                let v = table.borrow().get(*index);
                let index = table.borrow_mut().add(v);
                JsValue(Held::Slot { table: table.clone(), index })
            }
        }
    }
}

impl Drop for JsValue {
    fn drop(&mut self) {
        if let Held::Slot { table, index } = &self.0 {
            table.borrow_mut().release(*index);
        }
    }
}

impl std::fmt::Debug for JsValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Held::Immediate(v) => write!(f, "JsValue({v:?})"),
            Held::Slot { index, .. } => write!(f, "JsValue(handle {index})"),
        }
    }
}

/// What kind of value a [`JsValue`] is: its `typeof`, with `null` apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsType {
    /// `undefined`.
    Undefined,
    /// `null`.
    Null,
    /// `true` or `false`.
    Boolean,
    /// A number (a double).
    Number,
    /// A string.
    String,
    /// A symbol.
    Symbol,
    /// A BigInt.
    BigInt,
    /// An object that is not callable.
    Object,
    /// A callable object.
    Function,
}

/// Arguments on their way through the API: most calls pass at most four.
type Args<T> = smallvec::SmallVec<[T; 4]>;

/// The state of a promise (see [`JsValue::promise_state`]).
#[derive(Debug)]
pub enum PromiseState {
    /// Not settled yet.
    Pending,
    /// Fulfilled with this value.
    Fulfilled(JsValue),
    /// Rejected with this reason.
    Rejected(JsValue),
}

/// A new promise and the functions that settle it (as `Promise.withResolvers()` gives):
/// calling `resolve` or `reject` settles `promise`, and only the first call counts.
#[derive(Clone, Debug)]
pub struct PromiseWithResolvers {
    /// The promise, pending.
    pub promise: JsValue,
    /// Resolves it (with a thenable: as the thenable settles).
    pub resolve: JsValue,
    /// Rejects it.
    pub reject: JsValue,
}

/// What a host class's constructor does (see [`JsValue::class`]), its state type erased.
type ClassFn = dyn Fn(&mut Runtime, &[JsValue]) -> Result<Box<dyn std::any::Any>, JsError>;

/// What a host function does when JavaScript calls it: `(runtime, this, arguments)` to
/// the result, or the error to throw.
pub type HostFn = dyn Fn(&mut Runtime, &JsValue, &[JsValue]) -> Result<JsValue, JsError>;

impl JsValue {
    /// A new function that runs `f` when called, with `name` and `length` as its `name`
    /// and `length` properties. `f` may keep Rust state (use `Cell`/`RefCell` to change it)
    /// and `JsValue`s, and may call back into JavaScript; it is dropped when the function
    /// is collected (a `JsValue` it keeps keeps its value alive until then).
    ///
    /// The error `f` returns is thrown as a new error of its `name`'s kind (`TypeError`,
    /// `RangeError`, ...; `Error` for any other name) with its `message`; an interrupt or
    /// out-of-memory error from a call back into JavaScript goes on as it was.
    ///
    /// ```
    /// use std::cell::Cell;
    /// use std::rc::Rc;
    /// let mut rt = vm::Runtime::new(vm::RuntimeOptions::default());
    /// let calls = Rc::new(Cell::new(0));
    /// let seen = calls.clone();
    /// let add = vm::JsValue::function(&mut rt, "add", 2, move |_rt, _this, args| {
    ///     seen.set(seen.get() + 1);
    ///     let n = |i: usize| args.get(i).and_then(vm::JsValue::as_number).unwrap_or(f64::NAN);
    ///     Ok(vm::JsValue::from(n(0) + n(1)))
    /// });
    /// let sum = add.call(&mut rt, &vm::JsValue::UNDEFINED, &[2.into(), 3.into()]).unwrap();
    /// assert_eq!((sum.as_number(), calls.get()), (Some(5.0), 1));
    /// ```
    pub fn function(
        rt: &mut Runtime,
        name: &str,
        length: u32,
        f: impl Fn(&mut Runtime, &JsValue, &[JsValue]) -> Result<JsValue, JsError> + 'static,
    ) -> JsValue {
        let state: Rc<HostFn> = Rc::new(f);
        let mark = rt.handle_mark();
        let host = rt.new_host_object(Value::NULL, Box::new(state), 0);
        rt.root(host);
        let func = rt.new_native_with_data(name, call_host_function, length, host);
        rt.release_handles(mark);
        rt.hold(Value::object(func))
    }

    /// A new class whose instances carry Rust state of type `T`: `new Name(...args)` (also
    /// from a JavaScript subclass's `super(...)`) calls `construct` with the arguments and
    /// keeps what it returns in the new object, whose prototype is the class's `prototype`
    /// (or the subclass's). Calling it without `new` throws a TypeError. Methods are
    /// functions the host puts on `prototype`; they reach an instance's state with
    /// [`JsValue::state`]. The state is dropped when the instance is collected.
    ///
    /// ```
    /// use vm::JsValue;
    /// struct Counter { n: u32 }
    /// let mut rt = vm::Runtime::new(vm::RuntimeOptions::default());
    /// let class = JsValue::class(&mut rt, "Counter", 0, |_rt, _args| Ok(Counter { n: 0 }));
    /// let bump = JsValue::function(&mut rt, "bump", 0, |rt, this, _args| {
    ///     let state = this.state::<Counter>(rt).ok_or_else(|| vm::JsError::new("TypeError", "not a Counter"))?;
    ///     state.borrow_mut().n += 1;
    ///     let n = state.borrow().n;
    ///     Ok(JsValue::from(n as f64))
    /// });
    /// class.get(&mut rt, "prototype").unwrap().set(&mut rt, "bump", &bump).unwrap();
    /// let c = class.construct(&mut rt, &[]).unwrap();
    /// let bump = c.get(&mut rt, "bump").unwrap();
    /// bump.call(&mut rt, &c, &[]).unwrap();
    /// assert_eq!(bump.call(&mut rt, &c, &[]).unwrap().as_number(), Some(2.0));
    /// assert_eq!(c.state::<Counter>(&mut rt).unwrap().borrow().n, 2);
    /// ```
    pub fn class<T: 'static>(
        rt: &mut Runtime,
        name: &str,
        length: u32,
        construct: impl Fn(&mut Runtime, &[JsValue]) -> Result<T, JsError> + 'static,
    ) -> JsValue {
        let erased: Rc<ClassFn> = Rc::new(move |rt: &mut Runtime, args: &[JsValue]| {
            let state = construct(rt, args)?;
            Ok(Box::new(Rc::new(RefCell::new(state))) as Box<dyn std::any::Any>)
        });
        let mark = rt.handle_mark();
        let data = rt.new_host_object(Value::NULL, Box::new(erased), 0);
        rt.root(data);
        let name_value = rt.new_string(name);
        rt.root(name_value);
        let ctor = rt.new_native_function(name_value, construct_host_class, length, true);
        rt.heap.get_mut(ctor.cast::<NativeFunction>()).data = data;
        rt.root(Value::object(ctor));
        let proto = JsValue::object(rt);
        let proto_value = rt.value_of(&proto);
        rt.define_value(ctor, "prototype", proto_value, 0);
        rt.define_value(proto_value.gc(), "constructor", Value::object(ctor), WRITABLE | CONFIGURABLE);
        let class = rt.hold(Value::object(ctor));
        rt.release_handles(mark);
        class
    }

    /// The state of a host class's instance (see [`JsValue::class`]), if this is an
    /// instance of a class whose state is a `T`. The `Rc` keeps the state alive while the
    /// host holds it, even if the instance is collected meanwhile.
    pub fn state<T: 'static>(&self, rt: &mut Runtime) -> Option<Rc<RefCell<T>>> {
        let v = rt.value_of(self);
        if !v.is_object() || rt.heap.object_kind(v.gc()) != CellKind::HostObject {
            return None;
        }
        rt.heap.get(v.gc::<HostObject>()).state.downcast_ref::<Rc<RefCell<T>>>().cloned()
    }

    /// A new pending promise and its resolving functions, for the host to settle when
    /// its work is done (jobs then run in [`Runtime::run_pending_jobs`]).
    ///
    /// ```
    /// let mut rt = vm::Runtime::new(vm::RuntimeOptions::default());
    /// let p = vm::JsValue::promise(&mut rt);
    /// assert!(matches!(p.promise.promise_state(&mut rt), Some(vm::PromiseState::Pending)));
    /// p.resolve.call(&mut rt, &vm::JsValue::UNDEFINED, &[7.into()]).unwrap();
    /// match p.promise.promise_state(&mut rt) {
    ///     Some(vm::PromiseState::Fulfilled(v)) => assert_eq!(v.as_number(), Some(7.0)),
    ///     other => panic!("{other:?}"),
    /// }
    /// ```
    pub fn promise(rt: &mut Runtime) -> PromiseWithResolvers {
        let mark = rt.handle_mark();
        let c = rt.intrinsic(crate::runtime::Intrinsic::Promise);
        // %Promise% itself: nothing observable runs, nothing throws.
        let cap = match crate::builtins::promise::new_capability(rt, c, true) {
            Ok(cap) => cap,
            Err(_) => unreachable!("NewPromiseCapability(%Promise%) makes the promise directly"),
        };
        let r = PromiseWithResolvers {
            promise: rt.hold(cap.promise),
            resolve: rt.hold(cap.resolve),
            reject: rt.hold(cap.reject),
        };
        rt.release_handles(mark);
        r
    }

    /// The state of this promise; `None` if it is not a promise.
    pub fn promise_state(&self, rt: &mut Runtime) -> Option<PromiseState> {
        let v = rt.value_of(self);
        if !crate::builtins::promise::is_promise(rt, v) {
            return None;
        }
        Some(match rt.promise_result(v.gc()) {
            None => PromiseState::Pending,
            Some(Ok(v)) => PromiseState::Fulfilled(rt.hold(v)),
            Some(Err(v)) => PromiseState::Rejected(rt.hold(v)),
        })
    }

    /// A new error object of the kind `name` says (`"TypeError"`, `"RangeError"`, ...;
    /// `Error` for any other name) with `message`, as `new TypeError(message)` makes it
    /// (its stack is empty: no JavaScript made it).
    pub fn error(rt: &mut Runtime, name: &str, message: &str) -> JsValue {
        let e = rt.new_error(error_kind(name), message);
        rt.hold(Value::object(e))
    }

    /// A new string.
    pub fn string(rt: &mut Runtime, s: &str) -> JsValue {
        let v = rt.new_string(s);
        rt.hold(v)
    }

    /// A new ordinary object (its prototype `Object.prototype`).
    pub fn object(rt: &mut Runtime) -> JsValue {
        let proto = rt.intrinsic(crate::runtime::Intrinsic::ObjectPrototype);
        let o = rt.new_object(proto);
        rt.hold(Value::object(o))
    }

    /// A new array of these elements.
    pub fn array(rt: &mut Runtime, elements: &[JsValue]) -> JsValue {
        let values: Vec<Value> = elements.iter().map(|e| rt.value_of(e)).collect();
        let a = rt.new_array_from(&values);
        rt.hold(Value::object(a))
    }

    /// What kind of value this is.
    pub fn type_of(&self, rt: &Runtime) -> JsType {
        use crate::value::Kind;
        let v = rt.value_of(self);
        match v.kind() {
            Kind::Undefined | Kind::Empty | Kind::Cell => JsType::Undefined,
            Kind::Null => JsType::Null,
            Kind::Boolean => JsType::Boolean,
            Kind::Number => JsType::Number,
            Kind::String => JsType::String,
            Kind::Symbol => JsType::Symbol,
            Kind::BigInt => JsType::BigInt,
            Kind::Object if rt.is_callable(v) => JsType::Function,
            Kind::Object => JsType::Object,
        }
    }

    /// The string, if this is one (lone surrogates become U+FFFD).
    pub fn as_string(&self, rt: &mut Runtime) -> Option<String> {
        let v = rt.value_of(self);
        v.is_string().then(|| rt.string_to_rust(v))
    }

    /// `String(value)`: ToString, which may run JavaScript (an object's `toString`) and
    /// throw (a symbol).
    pub fn to_rust_string(&self, rt: &mut Runtime) -> Result<String, JsError> {
        let v = rt.value_of(self);
        rt.enter_from_host();
        rt.to_rust_string(v).map_err(|_| rt.take_js_error())
    }

    /// The value as node's `util.inspect` shows it (a string quoted, an object's
    /// properties listed), as the REPL prints a result.
    pub fn inspect(&self, rt: &mut Runtime) -> String {
        let v = rt.value_of(self);
        crate::builtins::console::inspect_quoted(rt, v)
    }

    /// `value[key]`: the property's value (a getter runs), `undefined` when there is none;
    /// `undefined` and `null` have no properties (a TypeError).
    pub fn get(&self, rt: &mut Runtime, key: &str) -> Result<JsValue, JsError> {
        let o = rt.value_of(self);
        rt.enter_from_host();
        let key = rt.key(key);
        let v = rt.get_v(o, key).map_err(|_| rt.take_js_error())?;
        Ok(rt.hold(v))
    }

    /// `value[key] = v`, as strict mode code does it: a failure (a read-only property, a
    /// non-extensible object) throws a TypeError.
    pub fn set(&self, rt: &mut Runtime, key: &str, v: &JsValue) -> Result<(), JsError> {
        let o = rt.value_of(self);
        let v = rt.value_of(v);
        rt.enter_from_host();
        let key = rt.key(key);
        rt.put_v(o, key, v, true).map_err(|_| rt.take_js_error())
    }

    /// Calls this function with `this` and `args`; what is not callable throws a TypeError.
    pub fn call(&self, rt: &mut Runtime, this: &JsValue, args: &[JsValue]) -> Result<JsValue, JsError> {
        let f = rt.value_of(self);
        let this = rt.value_of(this);
        let args: Args<Value> = args.iter().map(|a| rt.value_of(a)).collect();
        rt.enter_from_host();
        let v = rt.call(f, this, &args).map_err(|_| rt.take_js_error())?;
        Ok(rt.hold(v))
    }

    /// `new value(...args)`; what is not a constructor throws a TypeError.
    pub fn construct(&self, rt: &mut Runtime, args: &[JsValue]) -> Result<JsValue, JsError> {
        let f = rt.value_of(self);
        let args: Args<Value> = args.iter().map(|a| rt.value_of(a)).collect();
        rt.enter_from_host();
        if !rt.is_constructor(f) {
            let _ = rt.throw_error(crate::runtime::ErrorKind::TypeError, "the value is not a constructor");
            return Err(rt.take_js_error());
        }
        let v = rt.construct(f, &args, f).map_err(|_| rt.take_js_error())?;
        Ok(rt.hold(v))
    }
}

impl Runtime {
    /// A new host object with prototype `proto` (rooted by the caller, or null) carrying
    /// `state`; not rooted.
    fn new_host_object(&mut self, proto: Value, state: Box<dyn std::any::Any>, cap: u8) -> Value {
        let shape = self.root_shape(proto, CellKind::HostObject, cap);
        let host = HostObject { base: JsObject::new(CellKind::HostObject, shape), state };
        Value::object(self.heap.alloc_object(host, cap))
    }

    /// A `JsValue` holding `v`.
    pub(crate) fn hold(&mut self, v: Value) -> JsValue {
        let v = if v.is_empty() { Value::UNDEFINED } else { v };
        if !v.is_pointer() {
            return JsValue(Held::Immediate(v));
        }
        let table = self.roots.api.clone();
        let index = table.borrow_mut().add(v);
        JsValue(Held::Slot { table, index })
    }

    /// The value a `JsValue` holds; it must be this runtime's.
    pub(crate) fn value_of(&self, v: &JsValue) -> Value {
        match &v.0 {
            Held::Immediate(v) => *v,
            Held::Slot { table, index } => {
                assert!(Rc::ptr_eq(table, &self.roots.api), "a JsValue was given to a runtime that did not make it");
                table.borrow().get(*index)
            }
        }
    }

    /// Starts an operation of the host that runs JavaScript: when none is under way (no
    /// host function is calling back in), as [`Runtime::run_bundle`] starts.
    fn enter_from_host(&mut self) {
        if self.calls.frames.is_empty() && self.calls.native_depth == 0 {
            self.begin_run();
        }
    }

    /// Runs `source` as a script (compiled by the compile hook, which [`Runtime::set_compiler`]
    /// installs) and gives its completion value: the value of the last expression statement
    /// that ran, as `eval` gives. Its top-level `let`, `const` and `class` declarations stay
    /// for the scripts that follow, as between `<script>` elements. Promise jobs it queued
    /// stay queued: [`Runtime::run_pending_jobs`] runs them.
    pub fn eval(&mut self, source: &str, file_name: &str) -> Result<JsValue, JsError> {
        self.enter_from_host();
        let v = self.evaluate(source, file_name)?;
        Ok(self.hold(v))
    }

    /// Verifies and runs the script bundle `bytes` (written by `iris compile`) and gives its
    /// completion value; jobs stay queued, as with [`Runtime::eval`].
    pub fn eval_bundle(&mut self, bytes: Vec<u8>) -> Result<JsValue, JsError> {
        self.enter_from_host();
        let realm = self.realm;
        let v = self.eval_bundle_in(bytes, realm).map_err(|_| self.take_js_error())?;
        Ok(self.hold(v))
    }

    /// Loads the module `specifier` names through the module loader
    /// ([`Runtime::set_module_loader`]: the host finds modules, as source text or bundles),
    /// links and evaluates its graph, runs the job queue until its evaluation settles (a
    /// top-level `await` included), and gives its namespace object: its exports are the
    /// namespace's properties. A module loaded before is not evaluated again.
    pub fn import_module(&mut self, specifier: &str) -> Result<JsValue, JsError> {
        self.enter_from_host();
        let (promise, m) = self.start_module(specifier).map_err(|_| self.take_js_error())?;
        let _kept = self.hold(Value::object(promise));
        self.run_jobs().map_err(|_| self.take_js_error())?;
        match self.promise_result(promise) {
            Some(Ok(_)) => {
                let namespace = self.module_namespace(m, false);
                Ok(self.hold(Value::object(namespace)))
            }
            Some(Err(reason)) => Err(self.describe_thrown(reason)),
            None => {
                Err(JsError::new("Error", "the module's top-level await never finished (unsettled top-level await)"))
            }
        }
    }

    /// Runs the queued promise jobs until none are left (or one throws).
    pub fn run_pending_jobs(&mut self) -> Result<(), JsError> {
        self.enter_from_host();
        self.run_jobs().map_err(|_| self.take_js_error())
    }

    /// The global object.
    pub fn global(&mut self) -> JsValue {
        let g = self.realm().global;
        self.hold(Value::object(g))
    }

    /// Collects garbage now: what no `JsValue` (and nothing else) reaches is freed.
    pub fn gc(&mut self) {
        self.collect_garbage();
    }
}

/// The constructor of every host class: makes an instance with the state its closure
/// gives, its prototype new.target's `prototype` (GetPrototypeFromConstructor).
fn construct_host_class(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let callee = rt.native_callee();
    let new_target = rt.native_new_target();
    if new_target.is_undefined() {
        let name_key = Key::Name(rt.names.name);
        let name = rt.get_v(callee, name_key)?;
        let name = rt.to_rust_string(name)?;
        return Err(rt.throw_type_error(&format!("Class constructor {name} cannot be invoked without 'new'")));
    }
    let data = rt.native_data(callee);
    let Some(f) = rt.heap.get(data.gc::<HostObject>()).state.downcast_ref::<Rc<ClassFn>>().cloned() else {
        return Err(rt.throw_error(ErrorKind::TypeError, "a host class lost its state"));
    };
    let mark = rt.handle_mark();
    let proto_key = Key::Name(rt.names.prototype);
    let mut proto = rt.get_v(new_target, proto_key)?;
    if !proto.is_object() {
        proto = rt.intrinsic(crate::runtime::Intrinsic::ObjectPrototype);
    }
    rt.root(proto);
    let args: Args<JsValue> = args.iter().map(|&a| rt.hold(a)).collect();
    let state = match f(rt, &args) {
        Ok(state) => state,
        Err(e) => return Err(throw_host_error(rt, e)),
    };
    let instance = rt.new_host_object(proto, state, 4);
    rt.release_handles(mark);
    Ok(instance)
}

/// The native function behind every host function: calls the closure in its data.
fn call_host_function(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let data = rt.native_data(rt.native_callee());
    let state = rt.heap.get(data.gc::<HostObject>()).state.downcast_ref::<Rc<HostFn>>().cloned();
    let Some(f) = state else {
        return Err(rt.throw_error(ErrorKind::TypeError, "a host function lost its state"));
    };
    let this = rt.hold(this);
    let args: Args<JsValue> = args.iter().map(|&a| rt.hold(a)).collect();
    match f(rt, &this, &args) {
        Ok(v) if !v.belongs_to(rt) => {
            Err(rt.throw_error(ErrorKind::TypeError, "a host function returned a value of another runtime"))
        }
        // Read before the handle goes: nothing allocates until the caller has it.
        Ok(v) => Ok(rt.value_of(&v)),
        Err(e) => Err(throw_host_error(rt, e)),
    }
}

/// Throws the error a host closure returned: an interrupt or out-of-memory goes on as it
/// was; any other error is a new error of its name's kind with its message.
fn throw_host_error(rt: &mut Runtime, e: JsError) -> Exception {
    if e.interrupted {
        rt.throw_uncatchable(ExceptionKind::Interrupted)
    } else if e.out_of_memory {
        rt.throw_uncatchable(ExceptionKind::OutOfMemory)
    } else {
        rt.throw_error(error_kind(&e.name), &e.message)
    }
}

/// The error kind named `name` (`Error` for a name that is none).
fn error_kind(name: &str) -> ErrorKind {
    ErrorKind::ALL.iter().copied().find(|k| k.name() == name).unwrap_or(ErrorKind::Error)
}
