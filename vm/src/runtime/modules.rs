//! Modules (ECMA-262 16.2.1): the module map, module records, linking, import bindings and
//! module namespace objects. Loading (which compiles source and parses JSON), evaluation
//! (which needs promises), `import()`, `import.meta` and the embedding API are in
//! `builtins::modules`.
//!
//! ```text
//!  Modules ─┬─ records     every module loaded, by index (never unloaded: the map keeps them)
//!           ├─ map         (key, module type) → index
//!           └─ loader      the embedder's ModuleLoader (resolve a specifier, load a key)
//!  ModuleRecord: key, status, environment, body closure, requests (each resolved to a
//!    record once loaded), imports, exports, namespace, and the DFS and async-evaluation
//!    fields of a Cyclic Module Record
//! ```
//!
//! A module's environment is made by its top-level function when it is loaded (see the
//! compiler's `irgen/module.rs`); linking fills its import slots. A named import's slot
//! holds an *import reference*: an environment of one slot whose parent is the exporting
//! module's environment and whose slot holds the index of the binding there, which
//! `load_import` reads through (so the importer sees every later assignment). A namespace
//! import's slot holds the namespace object.
//!
//! A JSON module is a record with no requests whose environment has one slot, its default
//! export; it is linked and evaluated as soon as it is loaded.

use hashbrown::HashMap;

use super::{Exception, JsResult, Runtime};
use crate::gc::{CellKind, Gc, Heap};
use crate::object::property::PropertyDescriptor;
use crate::object::{Environment, JsObject, Key, NamespaceObject, EXTENSIBLE};
use crate::value::Value;

/// How an embedder finds modules.
pub trait ModuleLoader {
    /// The key of the module `specifier` names when `referrer` (the key of the importing
    /// module, or the file name of a script; `None` for the embedder's own request)
    /// imports it. The key identifies the module: two specifiers that resolve to the same
    /// key are the same module. An error is the message of the exception thrown.
    fn resolve(&mut self, specifier: &str, referrer: Option<&str>) -> Result<String, String>;
    /// The source of the module with key `key`.
    fn load(&mut self, key: &str) -> Result<ModuleSource, String>;
}

/// What a module loader gives for a key.
#[derive(Clone, Debug)]
pub enum ModuleSource {
    /// Source text: JavaScript, or JSON or text when the import says `with { type: "json" }`
    /// or `with { type: "text" }`.
    Text(String),
    /// A compiled bundle of module code.
    Bundle(Vec<u8>),
    /// Bytes that are not UTF-8 text: only an import `with { type: "bytes" }` can load them.
    Bytes(Vec<u8>),
}

/// The value of a module that holds one value as its default export (a JSON, text or
/// bytes module), as a module graph's bundle keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModuleValue {
    /// `type: "json"`: JSON text, parsed when the module is made.
    Json(String),
    /// `type: "text"`: the text itself.
    Text(String),
    /// `type: "bytes"`: a Uint8Array over an immutable ArrayBuffer of the bytes.
    Bytes(Vec<u8>),
}

impl ModuleValue {
    /// The module type of a module with this value.
    pub(crate) fn module_type(&self) -> ModuleType {
        match self {
            ModuleValue::Json(_) => ModuleType::Json,
            ModuleValue::Text(_) => ModuleType::Text,
            ModuleValue::Bytes(_) => ModuleType::Bytes,
        }
    }
}

/// Who calls `import()`: module code (the value of its module slot) or a script (its file
/// name).
#[derive(Clone, Debug)]
pub enum Referrer {
    /// A module: the number in its module slot.
    Module(Value),
    /// A script, by file name.
    Script(String),
}

/// [[Status]] of a Cyclic Module Record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    Unlinked,
    Linking,
    Linked,
    Evaluating,
    EvaluatingAsync,
    Evaluated,
}

/// [[AsyncEvaluationOrder]].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AsyncOrder {
    Unset,
    Order(u64),
    Done,
}

/// A requested module.
#[derive(Clone, Debug)]
pub(crate) struct Request {
    pub(crate) specifier: String,
    /// Sorted by key.
    pub(crate) attributes: Vec<(String, String)>,
    /// Where the module names it (1-based), for errors.
    pub(crate) line: u32,
    pub(crate) col: u32,
    /// The key the bundle resolved it to, if the bundle holds that module.
    pub(crate) bundled: Option<String>,
    /// `import defer`: not evaluated with the importer.
    pub(crate) defer: bool,
    /// The record, once loaded.
    pub(crate) module: Option<u32>,
}

/// What a module is, from the `type` import attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ModuleType {
    /// JavaScript (no `type`).
    JavaScript,
    /// `type: "json"`: the default export is the parsed JSON.
    Json,
    /// `type: "text"`: the default export is the source text as a string.
    Text,
    /// `type: "bytes"`: the default export is a Uint8Array of the file's bytes.
    Bytes,
}

impl ModuleType {
    /// The type `with { type: value }` asks for; `None` for a type Iris does not load.
    pub(crate) fn from_attribute(value: &str) -> Option<ModuleType> {
        match value {
            "json" => Some(ModuleType::Json),
            "text" => Some(ModuleType::Text),
            "bytes" => Some(ModuleType::Bytes),
            _ => None,
        }
    }
}

impl Request {
    /// The type of module the import asks for.
    pub(crate) fn module_type(&self) -> ModuleType {
        let t = self.attributes.iter().find(|(k, _)| k == "type");
        t.and_then(|(_, v)| ModuleType::from_attribute(v)).unwrap_or(ModuleType::JavaScript)
    }
}

/// What an import binding imports.
#[derive(Clone, Debug)]
pub(crate) enum Imported {
    Name(String),
    Namespace,
    /// The module source object (source phase imports): no module type here has one.
    Source,
    /// The deferred namespace object.
    Deferred,
}

/// The phase of an `import()`: `import(x)`, `import.source(x)` or `import.defer(x)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImportPhase {
    /// The namespace, once the module is evaluated.
    Evaluation,
    /// The module source object.
    Source,
    /// The deferred namespace, once the module's asynchronous dependencies are evaluated.
    Defer,
}

/// An import binding: `slot` refers to what it imports from a request.
#[derive(Clone, Debug)]
pub(crate) struct Import {
    pub(crate) request: u32,
    pub(crate) name: Imported,
    pub(crate) slot: u32,
}

/// An export entry.
#[derive(Clone, Debug)]
pub(crate) enum Export {
    Local { name: String, slot: u32 },
    Indirect { name: String, request: u32, import: Option<String> },
    Star { request: u32 },
}

/// What an export name resolves to (ResolvedBinding).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Binding {
    /// Slot `slot` of module `module`'s environment.
    Slot { module: u32, slot: u32 },
    /// The namespace object of module `.0`.
    Namespace(u32),
}

enum Resolved {
    Found(Binding),
    NotFound,
    Ambiguous,
}

/// A module record (Source Text or JSON).
pub(crate) struct ModuleRecord {
    pub(crate) key: String,
    pub(crate) realm: u32,
    pub(crate) status: Status,
    /// The module environment.
    pub(crate) env: Value,
    /// The body closure (undefined for JSON modules).
    pub(crate) body: Value,
    pub(crate) has_tla: bool,
    pub(crate) requests: Vec<Request>,
    pub(crate) imports: Vec<Import>,
    pub(crate) exports: Vec<Export>,
    /// The namespace object and the deferred namespace object, once made, and their
    /// exports: key → binding, the keys in order, and the name strings (which keep the keys'
    /// atoms alive).
    pub(crate) namespace: Value,
    pub(crate) deferred_namespace: Value,
    ns_bindings: HashMap<Key, Binding>,
    ns_keys: Vec<Key>,
    ns_names: Vec<Value>,
    /// The `import.meta` object, once made.
    pub(crate) meta: Value,
    /// [[EvaluationError]].
    pub(crate) error: Option<Value>,
    pub(crate) dfs_index: u32,
    pub(crate) dfs_ancestor: u32,
    pub(crate) cycle_root: u32,
    pub(crate) async_order: AsyncOrder,
    /// [[TopLevelCapability]]: the promise `Evaluate()` returned (undefined if none).
    pub(crate) capability: Value,
    pub(crate) async_parents: Vec<u32>,
    pub(crate) pending: u32,
}

impl ModuleRecord {
    /// A new record, unlinked.
    pub(crate) fn new(key: String, realm: u32, env: Value, body: Value) -> ModuleRecord {
        ModuleRecord {
            key,
            realm,
            status: Status::Unlinked,
            env,
            body,
            has_tla: false,
            requests: Vec::new(),
            imports: Vec::new(),
            exports: Vec::new(),
            namespace: Value::UNDEFINED,
            deferred_namespace: Value::UNDEFINED,
            ns_bindings: HashMap::new(),
            ns_keys: Vec::new(),
            ns_names: Vec::new(),
            meta: Value::UNDEFINED,
            error: None,
            dfs_index: 0,
            dfs_ancestor: 0,
            cycle_root: 0,
            async_order: AsyncOrder::Unset,
            capability: Value::UNDEFINED,
            async_parents: Vec::new(),
            pending: 0,
        }
    }
}

/// The module map and the loader.
#[derive(Default)]
pub(crate) struct Modules {
    pub(crate) records: Vec<ModuleRecord>,
    pub(crate) map: HashMap<(String, ModuleType), u32>,
    pub(crate) loader: Option<Box<dyn ModuleLoader>>,
    pub(crate) next_async_order: u64,
}

impl Modules {
    /// Marks what the records hold.
    pub(crate) fn trace(&self, heap: &mut Heap) {
        for r in &self.records {
            let error = r.error.unwrap_or(Value::UNDEFINED);
            for v in [r.env, r.body, r.namespace, r.deferred_namespace, r.meta, r.capability, error] {
                heap.mark_value(v);
            }
            for &v in &r.ns_names {
                heap.mark_value(v);
            }
        }
    }
}

/// Why `load_import` gave no value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ImportProblem {
    /// The exported binding is in its TDZ.
    Uninitialized,
    /// The slot holds no import reference (only a malformed bundle gets here).
    Malformed,
}

fn as_env(heap: &Heap, v: Value) -> Option<Gc<Environment>> {
    (v.is_cell() && heap.kind_of(v.gc::<crate::gc::CellHeader>()) == CellKind::Environment).then(|| v.gc())
}

impl Runtime {
    // ---- import bindings ------------------------------------------------------------------

    /// The value of the binding that import slot `slot` of module environment `env` refers
    /// to (see the module docs).
    pub(crate) fn load_import(&self, env: Value, slot: u32) -> Result<Value, ImportProblem> {
        let read = || -> Option<Value> {
            let env = as_env(&self.heap, env)?;
            let reference = as_env(&self.heap, *self.heap.env_slots(env).get(slot as usize)?)?;
            let target = as_env(&self.heap, self.heap.get(reference).parent)?;
            let index = self.heap.env_slots(reference).first()?.as_number()?;
            if !(index >= 0.0 && index < u32::MAX as f64) {
                return None;
            }
            self.heap.env_slots(target).get(index as usize).copied()
        };
        match read() {
            Some(v) if v.is_empty() => Err(ImportProblem::Uninitialized),
            Some(v) => Ok(v),
            None => Err(ImportProblem::Malformed),
        }
    }

    /// Throws the error of a failed `load_import` of the import named `name` (a string).
    pub(crate) fn throw_import_problem(&mut self, problem: ImportProblem, name: Value) -> Exception {
        match problem {
            ImportProblem::Uninitialized => {
                let n = self.string_to_rust(name);
                self.throw_reference_error(&format!("Cannot access '{n}' before initialization"))
            }
            ImportProblem::Malformed => self.throw_type_error("internal error: bad import binding"),
        }
    }

    /// An import reference to `binding` (see the module docs). Not rooted.
    fn import_reference(&mut self, binding: Binding) -> Value {
        let (target, slot) = match binding {
            Binding::Slot { module, slot } => (self.modules.records[module as usize].env, slot),
            Binding::Namespace(m) => {
                // A one-slot environment holding the namespace is the binding.
                let ns = Value::object(self.module_namespace(m, false));
                let mark = self.handle_mark();
                self.root(ns);
                let holder = self.heap.alloc_env(Value::UNDEFINED, 1);
                self.heap.env_slots_mut(holder)[0] = ns;
                self.release_handles(mark);
                (Value::cell(holder), 0)
            }
        };
        let mark = self.handle_mark();
        self.root(target);
        let reference = self.heap.alloc_env(target, 1);
        self.heap.env_slots_mut(reference)[0] = Value::number(slot as f64);
        self.release_handles(mark);
        Value::cell(reference)
    }

    // ---- export resolution ----------------------------------------------------------------

    /// The module record requested by request `request` of `m` (loaded before linking).
    fn requested(&self, m: u32, request: u32) -> u32 {
        self.modules.records[m as usize].requests[request as usize].module.unwrap_or(m)
    }

    /// 16.2.1.6.3 ResolveExport(exportName, resolveSet).
    fn resolve_export(&self, m: u32, name: &str, set: &mut Vec<(u32, String)>) -> Resolved {
        if set.iter().any(|(mm, n)| *mm == m && n == name) {
            // A circular import request.
            return Resolved::NotFound;
        }
        set.push((m, name.to_string()));
        let record = &self.modules.records[m as usize];
        for e in &record.exports {
            match e {
                Export::Local { name: n, slot } if n == name => {
                    return Resolved::Found(Binding::Slot { module: m, slot: *slot });
                }
                Export::Indirect { name: n, request, import } if n == name => {
                    let imported = self.requested(m, *request);
                    return match import {
                        None => Resolved::Found(Binding::Namespace(imported)),
                        Some(i) => self.resolve_export(imported, i, set),
                    };
                }
                _ => {}
            }
        }
        if name == "default" {
            return Resolved::NotFound;
        }
        let mut star = None;
        for e in &record.exports {
            let Export::Star { request } = e else { continue };
            match self.resolve_export(self.requested(m, *request), name, set) {
                Resolved::Ambiguous => return Resolved::Ambiguous,
                Resolved::NotFound => {}
                Resolved::Found(b) => match star {
                    None => star = Some(b),
                    Some(s) if s != b => return Resolved::Ambiguous,
                    Some(_) => {}
                },
            }
        }
        star.map_or(Resolved::NotFound, Resolved::Found)
    }

    /// 16.2.1.6.2 GetExportedNames(exportStarSet).
    fn exported_names(&self, m: u32, set: &mut Vec<u32>) -> Vec<String> {
        if set.contains(&m) {
            return Vec::new();
        }
        set.push(m);
        let mut names = Vec::new();
        for e in &self.modules.records[m as usize].exports {
            match e {
                Export::Local { name, .. } | Export::Indirect { name, .. } => names.push(name.clone()),
                Export::Star { request } => {
                    for n in self.exported_names(self.requested(m, *request), set) {
                        if n != "default" && !names.contains(&n) {
                            names.push(n);
                        }
                    }
                }
            }
        }
        names
    }

    // ---- linking ----------------------------------------------------------------------------

    /// 16.2.1.5.1 Link(): links `m` and the modules it requests (all loaded). On an error
    /// (a SyntaxError: an import no module exports), the modules of this link are unlinked
    /// again.
    pub(crate) fn link_module(&mut self, m: u32) -> JsResult<()> {
        let mut stack = Vec::new();
        if let Err(e) = self.inner_link(m, &mut stack, 0) {
            for s in stack {
                self.modules.records[s as usize].status = Status::Unlinked;
            }
            return Err(e);
        }
        Ok(())
    }

    /// 16.2.1.5.1.1 InnerModuleLinking.
    fn inner_link(&mut self, m: u32, stack: &mut Vec<u32>, mut index: u32) -> JsResult<u32> {
        let r = &mut self.modules.records[m as usize];
        if r.status != Status::Unlinked {
            return Ok(index);
        }
        r.status = Status::Linking;
        r.dfs_index = index;
        r.dfs_ancestor = index;
        index += 1;
        stack.push(m);
        for q in 0..self.modules.records[m as usize].requests.len() {
            let required = self.requested(m, q as u32);
            index = self.inner_link(required, stack, index)?;
            let req = &self.modules.records[required as usize];
            if req.status == Status::Linking {
                let a = req.dfs_ancestor;
                let r = &mut self.modules.records[m as usize];
                r.dfs_ancestor = r.dfs_ancestor.min(a);
            }
        }
        self.initialize_environment(m)?;
        let r = &self.modules.records[m as usize];
        if r.dfs_ancestor == r.dfs_index {
            while let Some(s) = stack.pop() {
                self.modules.records[s as usize].status = Status::Linked;
                if s == m {
                    break;
                }
            }
        }
        Ok(index)
    }

    /// The SyntaxError of an import or re-export of `name` from request `request` of `m`
    /// that resolves to nothing or to more than one binding.
    fn unresolvable(&mut self, m: u32, request: u32, name: &str, ambiguous: bool) -> Exception {
        let r = &self.modules.records[m as usize];
        let q = &r.requests[request as usize];
        let at = format!("{}:{}:{}", r.key, q.line, q.col);
        let msg = match ambiguous {
            true => format!(
                "The requested module '{}' contains conflicting star exports for name '{name}' ({at})",
                q.specifier
            ),
            false => format!("The requested module '{}' does not provide an export named '{name}' ({at})", q.specifier),
        };
        self.throw_error(super::ErrorKind::SyntaxError, &msg)
    }

    /// 16.2.1.6.4 InitializeEnvironment, the part linking does: the indirect exports must
    /// resolve, and the import slots get their references (the environment and the
    /// functions were made when the module was loaded).
    fn initialize_environment(&mut self, m: u32) -> JsResult<()> {
        let exports = self.modules.records[m as usize].exports.clone();
        for e in &exports {
            if let Export::Indirect { name, request, import: Some(_) } = e {
                match self.resolve_export(m, name, &mut Vec::new()) {
                    Resolved::Found(_) => {}
                    Resolved::NotFound => return Err(self.unresolvable(m, *request, name, false)),
                    Resolved::Ambiguous => return Err(self.unresolvable(m, *request, name, true)),
                }
            }
        }
        let imports = self.modules.records[m as usize].imports.clone();
        for i in &imports {
            let imported = self.requested(m, i.request);
            let value = match &i.name {
                Imported::Namespace => Value::object(self.module_namespace(imported, false)),
                Imported::Deferred => Value::object(self.module_namespace(imported, true)),
                Imported::Source => return Err(self.no_module_source(imported)),
                Imported::Name(name) => match self.resolve_export(imported, name, &mut Vec::new()) {
                    Resolved::Found(b) => self.import_reference(b),
                    Resolved::NotFound => return Err(self.unresolvable(m, i.request, name, false)),
                    Resolved::Ambiguous => return Err(self.unresolvable(m, i.request, name, true)),
                },
            };
            let env = self.modules.records[m as usize].env;
            let Some(env) = as_env(&self.heap, env) else {
                return Err(self.throw_type_error("internal error: a module without an environment"));
            };
            match self.heap.env_slots_mut(env).get_mut(i.slot as usize) {
                Some(s) => *s = value,
                None => return Err(self.throw_type_error("internal error: import slot out of range")),
            }
        }
        Ok(())
    }

    /// GetModuleSource() of a module: a SyntaxError, for every kind of module Iris loads
    /// (JavaScript and JSON modules have no source object).
    pub(crate) fn no_module_source(&mut self, m: u32) -> Exception {
        let key = self.modules.records[m as usize].key.clone();
        self.throw_error(super::ErrorKind::SyntaxError, &format!("'{key}' has no module source to import"))
    }

    // ---- namespace objects ------------------------------------------------------------------

    /// 16.2.1.12 GetModuleNamespace: the namespace object of `m` (`deferred`: its deferred
    /// namespace), made on first use.
    pub(crate) fn module_namespace(&mut self, m: u32, deferred: bool) -> Gc<JsObject> {
        let r = &self.modules.records[m as usize];
        let existing = if deferred { r.deferred_namespace } else { r.namespace };
        if existing.is_object() {
            return existing.gc();
        }
        let shape = self.root_shape(Value::NULL, CellKind::ModuleNamespace, 1);
        let ns = NamespaceObject::new(shape, m, deferred);
        let obj: Gc<JsObject> = self.heap.alloc_object(ns, 1).cast();
        let r = &mut self.modules.records[m as usize];
        let first = !r.namespace.is_object() && !r.deferred_namespace.is_object();
        match deferred {
            true => r.deferred_namespace = Value::object(obj),
            false => r.namespace = Value::object(obj),
        }
        let tag = self.symbols.to_string_tag;
        let name = self.new_string(if deferred { "Deferred Module" } else { "Module" });
        self.define_data_raw(obj, Key::Name(tag), name, 0);
        self.heap.get_mut(obj).header.flags &= !EXTENSIBLE;
        if first {
            self.namespace_exports(m);
        }
        obj
    }

    /// Fills in the exports of `m`'s namespace objects.
    fn namespace_exports(&mut self, m: u32) {
        let names = self.exported_names(m, &mut Vec::new());
        let mut exports: Vec<(Vec<u16>, Binding)> = Vec::new();
        for n in names {
            if let Resolved::Found(b) = self.resolve_export(m, &n, &mut Vec::new()) {
                exports.push((n.encode_utf16().collect(), b));
            }
        }
        exports.sort_by(|a, b| a.0.cmp(&b.0));
        for (units, b) in exports {
            let atom = self.atoms.intern_units(&mut self.heap, &units);
            let name = Value::string(atom);
            let key = self.key_from_atom(name);
            let r = &mut self.modules.records[m as usize];
            r.ns_names.push(name);
            r.ns_keys.push(key);
            r.ns_bindings.insert(key, b);
        }
    }

    /// The module of namespace object `obj`.
    fn namespace_module(&self, obj: Gc<JsObject>) -> u32 {
        self.heap.get(obj.cast::<NamespaceObject>()).module
    }

    /// The export `key` of namespace `obj` names, if any.
    fn namespace_binding(&self, obj: Gc<JsObject>, key: Key) -> Option<Binding> {
        let m = self.namespace_module(obj);
        self.modules.records.get(m as usize)?.ns_bindings.get(&key).copied()
    }

    /// GetModuleExportsList's evaluation: a deferred namespace evaluates its module (now,
    /// synchronously) before its exports are used; a TypeError if the module cannot run
    /// synchronously (it is evaluating, or waits for top-level await).
    fn namespace_ready(&mut self, obj: Gc<JsObject>) -> JsResult<()> {
        if !self.heap.get(obj.cast::<NamespaceObject>()).deferred {
            return Ok(());
        }
        let m = self.namespace_module(obj);
        (self.host.hooks.evaluate_sync)(self, m)
    }

    /// The value of an export binding: a ReferenceError in its TDZ.
    fn binding_value(&mut self, b: Binding, key: Key) -> JsResult<Value> {
        match b {
            Binding::Namespace(m) => Ok(Value::object(self.module_namespace(m, false))),
            Binding::Slot { module, slot } => {
                let env = self.modules.records[module as usize].env;
                let v = as_env(&self.heap, env).and_then(|e| self.heap.env_slots(e).get(slot as usize).copied());
                match v {
                    Some(v) if !v.is_empty() => Ok(v),
                    Some(_) => {
                        let n = self.key_display(key);
                        Err(self.throw_reference_error(&format!("Cannot access '{n}' before initialization")))
                    }
                    None => Err(self.throw_type_error("internal error: bad export binding")),
                }
            }
        }
    }

    /// Whether `key` is a string key of namespace `obj` (an export or not: the namespace's
    /// own methods answer for every string key) rather than a symbol, an ordinary property
    /// (IsSymbolLikeNamespaceKey: for a deferred namespace, `then` is one too, so that
    /// awaiting it does not evaluate the module).
    fn is_namespace_string_key(&self, obj: Gc<JsObject>, key: Key) -> bool {
        if self.heap.object_kind(obj) != CellKind::ModuleNamespace || matches!(key, Key::Name(k) if k.is_symbol()) {
            return false;
        }
        !(self.heap.get(obj.cast::<NamespaceObject>()).deferred && key == Key::Name(self.names.then))
    }

    /// 10.4.6.5 [[GetOwnProperty]] of a namespace, for string keys (`None`: a symbol key,
    /// an ordinary property).
    pub(crate) fn namespace_get_own_property(
        &mut self,
        obj: Gc<JsObject>,
        key: Key,
    ) -> Option<JsResult<Option<PropertyDescriptor>>> {
        if !self.is_namespace_string_key(obj, key) {
            return None;
        }
        if let Err(e) = self.namespace_ready(obj) {
            return Some(Err(e));
        }
        let Some(b) = self.namespace_binding(obj, key) else { return Some(Ok(None)) };
        use crate::object::shape::{ENUMERABLE, WRITABLE};
        Some(self.binding_value(b, key).map(|v| Some(PropertyDescriptor::data(v, WRITABLE | ENUMERABLE))))
    }

    /// 10.4.6.6 [[DefineOwnProperty]] of a namespace, for string keys.
    pub(crate) fn namespace_define_own_property(
        &mut self,
        obj: Gc<JsObject>,
        key: Key,
        desc: &PropertyDescriptor,
    ) -> Option<JsResult<bool>> {
        let current = match self.namespace_get_own_property(obj, key)? {
            Ok(Some(c)) => c,
            Ok(None) => return Some(Ok(false)),
            Err(e) => return Some(Err(e)),
        };
        if desc.configurable == Some(true)
            || desc.enumerable == Some(false)
            || desc.is_accessor()
            || desc.writable == Some(false)
        {
            return Some(Ok(false));
        }
        Some(Ok(match (desc.value, current.value) {
            (Some(v), Some(c)) => self.same_value(c, v),
            (Some(_), None) => false,
            (None, _) => true,
        }))
    }

    /// 10.4.6.7 [[HasProperty]] of a namespace, for string keys.
    pub(crate) fn namespace_has_property(&mut self, obj: Gc<JsObject>, key: Key) -> Option<JsResult<bool>> {
        if !self.is_namespace_string_key(obj, key) {
            return None;
        }
        Some(self.namespace_ready(obj).map(|_| self.namespace_binding(obj, key).is_some()))
    }

    /// 10.4.6.8 [[Get]] of a namespace, for string keys.
    pub(crate) fn namespace_get(&mut self, obj: Gc<JsObject>, key: Key) -> Option<JsResult<Value>> {
        if !self.is_namespace_string_key(obj, key) {
            return None;
        }
        if let Err(e) = self.namespace_ready(obj) {
            return Some(Err(e));
        }
        Some(match self.namespace_binding(obj, key) {
            Some(b) => self.binding_value(b, key),
            None => Ok(Value::UNDEFINED),
        })
    }

    /// 10.4.6.10 [[Delete]] of a namespace, for string keys.
    pub(crate) fn namespace_delete(&mut self, obj: Gc<JsObject>, key: Key) -> Option<JsResult<bool>> {
        if !self.is_namespace_string_key(obj, key) {
            return None;
        }
        Some(self.namespace_ready(obj).map(|_| self.namespace_binding(obj, key).is_none()))
    }

    /// 10.4.6.11 [[OwnPropertyKeys]] of a namespace: the export names in order (the symbol
    /// keys follow, from the ordinary properties).
    pub(crate) fn namespace_own_keys(&mut self, obj: Gc<JsObject>) -> JsResult<Vec<Key>> {
        self.namespace_ready(obj)?;
        Ok(self.namespace_export_keys(obj))
    }

    /// The export keys of a namespace, without evaluating a deferred one (for display).
    pub(crate) fn namespace_export_keys(&self, obj: Gc<JsObject>) -> Vec<Key> {
        let m = self.namespace_module(obj);
        self.modules.records.get(m as usize).map_or(Vec::new(), |r| r.ns_keys.clone())
    }
}
