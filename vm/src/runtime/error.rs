//! Error objects, stack traces and the embedder-facing [`JsError`].

use std::fmt;

use super::{ExceptionKind, Intrinsic, Runtime};
use crate::gc::{CellKind, Gc};
use crate::object::shape::{PropKey, CONFIGURABLE, WRITABLE};
use crate::object::{BigIntCell, JsObject, Key};
use crate::value::{Kind, Value};

/// Frames listed in a `stack` string (V8's default `Error.stackTraceLimit`).
const STACK_TRACE_LIMIT: usize = 10;

pub use ecma::ErrorKind;

impl Intrinsic {
    /// The prototype of errors of `kind`.
    pub(crate) fn error_prototype(kind: ErrorKind) -> Intrinsic {
        match kind {
            ErrorKind::Error => Intrinsic::ErrorPrototype,
            ErrorKind::TypeError => Intrinsic::TypeErrorPrototype,
            ErrorKind::RangeError => Intrinsic::RangeErrorPrototype,
            ErrorKind::ReferenceError => Intrinsic::ReferenceErrorPrototype,
            ErrorKind::SyntaxError => Intrinsic::SyntaxErrorPrototype,
            ErrorKind::EvalError => Intrinsic::EvalErrorPrototype,
            ErrorKind::UriError => Intrinsic::UriErrorPrototype,
            ErrorKind::AggregateError => Intrinsic::AggregateErrorPrototype,
        }
    }

    /// The constructor of errors of `kind`.
    pub(crate) fn error_constructor(kind: ErrorKind) -> Intrinsic {
        match kind {
            ErrorKind::Error => Intrinsic::Error,
            ErrorKind::TypeError => Intrinsic::TypeError,
            ErrorKind::RangeError => Intrinsic::RangeError,
            ErrorKind::ReferenceError => Intrinsic::ReferenceError,
            ErrorKind::SyntaxError => Intrinsic::SyntaxError,
            ErrorKind::EvalError => Intrinsic::EvalError,
            ErrorKind::UriError => Intrinsic::UriError,
            ErrorKind::AggregateError => Intrinsic::AggregateError,
        }
    }
}

/// An uncaught exception, as the embedder sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsError {
    /// The error's name ("TypeError", "Test262Error", ...), or "" if the thrown value is not
    /// an error object.
    pub name: String,
    /// The message (for a thrown non-error, its string conversion).
    pub message: String,
    /// Node-like stack: "TypeError: msg\n    at f (app.js:3:14)\n...".
    pub stack: String,
    /// Execution was interrupted through an `InterruptHandle`.
    pub interrupted: bool,
    /// The heap limit was reached with no way to recover.
    pub out_of_memory: bool,
    /// The value is the reason of a promise rejection no handler took (see
    /// `RuntimeOptions::report_unhandled_rejections`), not a thrown exception.
    pub unhandled_rejection: bool,
}

impl JsError {
    /// An error with a name ("TypeError", ...) and a message, as a host function returns
    /// one to throw (see `api::JsValue::function`).
    pub fn new(name: &str, message: &str) -> JsError {
        JsError::plain(name, message)
    }

    /// An error with just a name and message.
    pub(crate) fn plain(name: &str, message: &str) -> JsError {
        JsError {
            name: name.to_string(),
            message: message.to_string(),
            stack: format!("{name}: {message}"),
            interrupted: false,
            out_of_memory: false,
            unhandled_rejection: false,
        }
    }

    /// The error for a compile hook failure ("SyntaxError: ..." or a rendered diagnostic).
    pub(crate) fn from_compile_error(text: &str) -> JsError {
        let first = text.lines().next().unwrap_or("");
        let (name, message) = match first.find("SyntaxError: ") {
            Some(i) => ("SyntaxError", first[i + "SyntaxError: ".len()..].to_string()),
            None => ("SyntaxError", first.to_string()),
        };
        JsError {
            name: name.into(),
            message,
            stack: text.to_string(),
            interrupted: false,
            out_of_memory: false,
            unhandled_rejection: false,
        }
    }
}

impl fmt::Display for JsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let prefix = if self.unhandled_rejection { "Uncaught (in promise)" } else { "Uncaught" };
        if !self.stack.is_empty() {
            write!(f, "{prefix} {}", self.stack)
        } else if self.name.is_empty() {
            write!(f, "{prefix} {}", self.message)
        } else if self.message.is_empty() {
            write!(f, "{prefix} {}", self.name)
        } else {
            write!(f, "{prefix} {}: {}", self.name, self.message)
        }
    }
}

impl std::error::Error for JsError {}

impl Runtime {
    /// A new error object of `ty` with `msg` and a captured stack.
    pub(crate) fn new_error(&mut self, ty: ErrorKind, msg: &str) -> Gc<JsObject> {
        let proto = self.intrinsic(Intrinsic::error_prototype(ty));
        let obj = self.new_object_of_kind(proto, CellKind::Error, 2);
        let m = self.new_string(msg);
        let key = self.names.message;
        self.define_data_raw(obj, Key::Name(key), m, WRITABLE | CONFIGURABLE);
        let header = if msg.is_empty() { ty.name().to_string() } else { format!("{}: {}", ty.name(), msg) };
        self.attach_stack(obj, &header);
        obj
    }

    /// Records the stack of error `obj` (what the `Error.prototype.stack` getter gives for
    /// it): `header` followed by the frames.
    pub(crate) fn attach_stack(&mut self, obj: Gc<JsObject>, header: &str) {
        let s = self.stack_string(header);
        // The realm's Private Name for an error's stack.
        let key = self.realm_private_name(Intrinsic::ErrorStackKey, "[[ErrorStack]]");
        self.define_data_raw(obj, Key::Name(key), s, WRITABLE | CONFIGURABLE);
    }

    /// `header` followed by the frames, as a string value.
    pub(crate) fn stack_string(&mut self, header: &str) -> Value {
        let mut text = header.to_string();
        text.push_str(&self.stack_trace());
        self.new_string(&text)
    }

    /// The stack this realm recorded for error `obj` (see `attach_stack`), if any; an own
    /// `stack` data property (set by a script or `Error.captureStackTrace`) comes first.
    pub(crate) fn error_stack(&mut self, obj: Gc<JsObject>) -> Option<Value> {
        let own = Key::Name(self.names.stack);
        if let Some(s) = self.peek_data(obj, own) {
            return Some(s);
        }
        let k = self.intrinsic(Intrinsic::ErrorStackKey);
        k.is_symbol().then(|| self.peek_data(obj, Key::Name(PropKey::from_value(k)))).flatten()
    }

    /// "\n    at f (file:line:col)" for each of the innermost JavaScript frames.
    pub(crate) fn stack_trace(&self) -> String {
        let mut out = String::new();
        for frame in self.calls.frames.iter().rev().take(STACK_TRACE_LIMIT) {
            let Some(info) = frame.info() else { continue };
            let bundle = info.bundle();
            let file = bundle.bundle.function_file(info.id);
            let pc = info.byte_pc(frame.ip);
            let loc = info.location(pc);
            let name = info.display_name();
            let place = match loc {
                Some((line, col)) => format!("{file}:{line}:{col}"),
                None => file,
            };
            if name.is_empty() {
                out.push_str(&format!("\n    at {place}"));
            } else {
                out.push_str(&format!("\n    at {name} ({place})"));
            }
        }
        out
    }

    /// Converts the pending exception into a `JsError` (clearing it).
    pub(crate) fn take_js_error(&mut self) -> JsError {
        match self.exception_kind {
            ExceptionKind::Interrupted => {
                self.exception_kind = ExceptionKind::Normal;
                let trace = std::mem::take(&mut self.uncatchable_trace);
                return JsError {
                    name: "Error".into(),
                    message: "execution interrupted".into(),
                    stack: format!("Error: execution interrupted{trace}"),
                    interrupted: true,
                    out_of_memory: false,
                    unhandled_rejection: false,
                };
            }
            ExceptionKind::OutOfMemory => {
                self.exception_kind = ExceptionKind::Normal;
                let trace = std::mem::take(&mut self.uncatchable_trace);
                return JsError {
                    name: "RangeError".into(),
                    message: "out of memory".into(),
                    stack: format!("RangeError: out of memory{trace}"),
                    interrupted: false,
                    out_of_memory: true,
                    unhandled_rejection: false,
                };
            }
            ExceptionKind::Normal => {}
        }
        let v = self.take_exception();
        self.describe_thrown(v)
    }

    /// Describes a thrown value without running JavaScript.
    pub(crate) fn describe_thrown(&mut self, v: Value) -> JsError {
        let mut err = JsError {
            name: String::new(),
            message: String::new(),
            stack: String::new(),
            interrupted: false,
            out_of_memory: false,
            unhandled_rejection: false,
        };
        if let Some(obj) = v.is_object().then(|| v.gc::<JsObject>()) {
            let name_key = self.names.name;
            let msg_key = self.names.message;
            let stack_key = self.names.stack;
            let name = self.peek_chain(obj, Key::Name(name_key));
            err.name = match name {
                Some(n) if n.is_string() => self.string_to_rust(n),
                _ => {
                    // Fall back to the constructor's name (Test262Error has no `name`).
                    let ctor_key = self.names.constructor;
                    match self.peek_chain(obj, Key::Name(ctor_key)) {
                        Some(c) if c.is_object() => match self.peek_data(c.gc(), Key::Name(name_key)) {
                            Some(n) if n.is_string() => self.string_to_rust(n),
                            _ => String::new(),
                        },
                        _ => String::new(),
                    }
                }
            };
            if let Some(m) = self.peek_chain(obj, Key::Name(msg_key)) {
                if m.is_string() {
                    err.message = self.string_to_rust(m);
                }
            }
            let is_error = self.heap.object_kind(obj) == CellKind::Error;
            let stack = match is_error {
                true => self.error_stack(obj),
                false => self.peek_data(obj, Key::Name(stack_key)),
            };
            match stack {
                Some(s) if s.is_string() && is_error => {
                    let text = self.string_to_rust(s);
                    // The stack header was written at construction; use the current name
                    // and message in case they were changed afterwards.
                    let frames = text.find("\n    at ").map(|i| text[i..].to_string()).unwrap_or_default();
                    err.stack = format!("{}{}", header_of(&err.name, &err.message), frames);
                }
                _ => err.stack = header_of(&err.name, &err.message),
            }
        } else {
            err.message = self.display_primitive(v);
        }
        err
    }

    /// A data property found on `obj` or its prototypes, without running JavaScript.
    pub(crate) fn peek_chain(&mut self, obj: Gc<JsObject>, key: Key) -> Option<Value> {
        let mut cur = obj;
        for _ in 0..10_000 {
            if let Some(v) = self.peek_data(cur, key) {
                return Some(v);
            }
            let p = self.get_prototype_of(cur);
            if !p.is_object() {
                return None;
            }
            cur = p.gc();
        }
        None
    }

    /// A primitive's display text, as `console.log` shows it (for uncaught non-error values
    /// and error messages).
    pub(crate) fn display_primitive(&mut self, v: Value) -> String {
        match v.kind() {
            Kind::Number => match v.number_unchecked() {
                n if n == 0.0 && n.is_sign_negative() => "-0".to_string(),
                n => ecma::conv::number_to_string::number_to_string(n),
            },
            Kind::Undefined | Kind::Empty | Kind::Cell => "undefined".to_string(),
            Kind::Object => "#<Object>".to_string(),
            Kind::Null => "null".to_string(),
            Kind::Boolean => (if v == Value::TRUE { "true" } else { "false" }).to_string(),
            Kind::String => self.string_to_rust(v),
            Kind::Symbol => self.symbol_descriptive_string(v),
            Kind::BigInt => format!("{}n", self.heap.get(v.gc::<BigIntCell>()).value),
        }
    }

    /// A short description of a value for error messages ("undefined", "foo", "#<Object>").
    pub(crate) fn short_description(&mut self, v: Value) -> String {
        match v.kind() {
            Kind::String => {
                let s = self.string_to_rust(v);
                format!("\"{s}\"")
            }
            Kind::Object => {
                let obj: Gc<JsObject> = v.gc();
                if self.is_callable(v) {
                    let n = self.function_name(obj);
                    if n.is_empty() {
                        "function".to_string()
                    } else {
                        n
                    }
                } else if self.heap.object_kind(obj) == CellKind::Array {
                    "object".to_string()
                } else {
                    let proto = self.get_prototype_of(obj);
                    let mut name = "Object".to_string();
                    if proto.is_object() {
                        let ck = Key::Name(self.names.constructor);
                        if let Some(c) = self.peek_data(proto.gc(), ck) {
                            if c.is_object() {
                                let n = self.function_name(c.gc());
                                if !n.is_empty() {
                                    name = n;
                                }
                            }
                        }
                    }
                    format!("#<{name}>")
                }
            }
            _ => self.display_primitive(v),
        }
    }

    pub(crate) fn function_name(&mut self, obj: Gc<JsObject>) -> String {
        let key = Key::Name(self.names.name);
        match self.peek_data(obj, key) {
            Some(n) if n.is_string() => self.string_to_rust(n),
            _ => String::new(),
        }
    }
}

fn header_of(name: &str, message: &str) -> String {
    match (name.is_empty(), message.is_empty()) {
        (true, true) => "Error".to_string(),
        (false, true) => name.to_string(),
        (true, false) => message.to_string(),
        (false, false) => format!("{name}: {message}"),
    }
}
