//! Loading and evaluating modules (ECMA-262 16.2.1.5), `import()` and `import.meta`, and the
//! embedding API for modules. The records, linking and namespace objects are in
//! `runtime::modules`.
//!
//! Loading is synchronous: the embedder's `ModuleLoader` resolves each specifier to a key
//! and gives the key's source, which is compiled (JavaScript, through the compile hook) or
//! parsed (JSON), and the top-level function of compiled code makes the module environment.
//! A graph is loaded breadth-first with a work list (no recursion), then linked, then
//! evaluated: `evaluate_module` is Evaluate() with its asynchronous part (top-level `await`:
//! a module whose body or dependencies are asynchronous finishes in promise reactions).

use bytecode::ValueKind;

use crate::gc::Gc;
use crate::object::JsObject;
use crate::runtime::error::ErrorKind;
use crate::runtime::function::make_closure;
use crate::runtime::modules::{
    AsyncOrder, Export, Import, ImportPhase, Imported, ModuleLoader, ModuleRecord, ModuleSource, ModuleType,
    ModuleValue, Referrer, Request, Status,
};
use crate::runtime::{JsError, JsResult, Runtime, SourceKind};
use crate::value::Value;

// ---- loading ----------------------------------------------------------------------------------

/// Loads the module `specifier` names from `referrer` and every module it depends on;
/// returns its record. `at` says where the request is written, for errors.
fn load_graph(rt: &mut Runtime, specifier: &str, ty: ModuleType, referrer: Option<&str>, at: &str) -> JsResult<u32> {
    let mut created = Vec::new();
    let result = load_graph_into(rt, specifier, ty, referrer, at, &mut created);
    if result.is_err() {
        // Forget the modules of a graph that failed to load: a later import tries again.
        rt.modules.map.retain(|_, m| !created.contains(m));
    }
    result
}

fn load_graph_into(
    rt: &mut Runtime,
    specifier: &str,
    ty: ModuleType,
    referrer: Option<&str>,
    at: &str,
    created: &mut Vec<u32>,
) -> JsResult<u32> {
    let root = load_one(rt, specifier, ty, referrer, at, created)?;
    // Every record made (a bundle makes several) has its requests loaded in turn.
    let mut done = 0;
    while done < created.len() {
        let m = created[done];
        done += 1;
        for q in 0..rt.modules.records[m as usize].requests.len() {
            let r = &rt.modules.records[m as usize];
            let req = &r.requests[q];
            if req.module.is_some() {
                continue;
            }
            let (spec, ty, key) = (req.specifier.clone(), req.module_type(), r.key.clone());
            // A module the same bundle holds was resolved when the bundle was made.
            let bundled = req.bundled.as_ref().and_then(|k| rt.modules.map.get(&(k.clone(), ty)).copied());
            if let Some(dep) = bundled {
                rt.modules.records[m as usize].requests[q].module = Some(dep);
                continue;
            }
            let at = format!("{key}:{}:{}", req.line, req.col);
            let dep = load_one(rt, &spec, ty, Some(&key), &at, created)?;
            rt.modules.records[m as usize].requests[q].module = Some(dep);
        }
    }
    Ok(root)
}

/// HostLoadImportedModule for one request: the record of an already loaded key, or a new
/// one (its requests not loaded yet).
fn load_one(
    rt: &mut Runtime,
    specifier: &str,
    ty: ModuleType,
    referrer: Option<&str>,
    at: &str,
    created: &mut Vec<u32>,
) -> JsResult<u32> {
    let Some(loader) = rt.modules.loader.as_mut() else {
        return Err(rt.throw_type_error("modules are not supported here (no module loader is installed)"));
    };
    let key = match loader.resolve(specifier, referrer) {
        Ok(k) => k,
        Err(msg) => return Err(rt.throw_error(ErrorKind::Error, &format!("{msg} (imported at {at})"))),
    };
    if let Some(&m) = rt.modules.map.get(&(key.clone(), ty)) {
        return Ok(m);
    }
    let source = match rt.modules.loader.as_mut().map(|l| l.load(&key)) {
        Some(Ok(s)) => s,
        Some(Err(msg)) => return Err(rt.throw_error(ErrorKind::Error, &format!("{msg} (imported at {at})"))),
        None => return Err(rt.throw_type_error("no module loader is installed")),
    };
    let m = match (source, ty) {
        (ModuleSource::Text(text), ModuleType::JavaScript) => {
            let bytes = rt.compile_source(&text, &key, SourceKind::Module)?;
            bundle_modules(rt, &key, bytes, created)?
        }
        (ModuleSource::Bundle(bytes), ModuleType::JavaScript) => bundle_modules(rt, &key, bytes, created)?,
        (ModuleSource::Bundle(_), _) => {
            return Err(rt.throw_type_error(&format!("'{key}' is a compiled bundle, not a {ty:?} module")));
        }
        (ModuleSource::Bytes(_), ModuleType::JavaScript | ModuleType::Json | ModuleType::Text) => {
            return Err(rt.throw_type_error(&format!("Module '{key}' is not UTF-8 text (imported at {at})")));
        }
        (ModuleSource::Text(text), ModuleType::Json) => {
            value_module(rt, key.clone(), &ModuleValue::Json(text), created)?
        }
        (ModuleSource::Text(text), ModuleType::Text) => {
            value_module(rt, key.clone(), &ModuleValue::Text(text), created)?
        }
        (ModuleSource::Text(text), ModuleType::Bytes) => {
            value_module(rt, key.clone(), &ModuleValue::Bytes(text.into_bytes()), created)?
        }
        (ModuleSource::Bytes(bytes), ModuleType::Bytes) => {
            value_module(rt, key.clone(), &ModuleValue::Bytes(bytes), created)?
        }
    };
    rt.modules.map.insert((key, ty), m);
    Ok(m)
}

/// A JSON, text or bytes module: its value is made now (JSON parsed, text as a string,
/// bytes as a Uint8Array over an immutable ArrayBuffer), and it is linked and evaluated at
/// once (its default export is the value).
fn value_module(rt: &mut Runtime, key: String, value: &ModuleValue, created: &mut Vec<u32>) -> JsResult<u32> {
    let mark = rt.handle_mark();
    let value = match value {
        ModuleValue::Json(text) => {
            let s = rt.new_string(text);
            rt.root(s);
            super::json::parse(rt, Value::UNDEFINED, &[s])?
        }
        ModuleValue::Text(text) => rt.new_string(text),
        ModuleValue::Bytes(bytes) => {
            let buffer = super::array_buffer::new_immutable(rt, bytes)?;
            rt.root(Value::object(buffer.cast::<JsObject>()));
            Value::object(super::typed_array::uint8_array_over(rt, buffer.cast(), bytes.len()))
        }
    };
    rt.root(value);
    let env = rt.heap.alloc_env(Value::UNDEFINED, 1);
    rt.heap.env_slots_mut(env)[0] = value;
    let realm = rt.realm;
    let mut record = ModuleRecord::new(key, realm, Value::cell(env), Value::UNDEFINED);
    record.exports.push(Export::Local { name: "default".into(), slot: 0 });
    record.status = Status::Evaluated;
    record.cycle_root = rt.modules.records.len() as u32;
    rt.modules.records.push(record);
    rt.release_handles(mark);
    let m = rt.modules.records.len() as u32 - 1;
    created.push(m);
    Ok(m)
}

/// The modules of a bundle of module code (loaded as `key`): loads the bundle and makes a
/// record of each of its modules (see `module_record`), registered by their own keys (a
/// bundle of a module graph holds several, the entry first); returns the entry's.
fn bundle_modules(rt: &mut Runtime, key: &str, bytes: Vec<u8>, created: &mut Vec<u32>) -> JsResult<u32> {
    let bundle = match bytecode::Bundle::from_bytes(bytes) {
        Ok(b) => b,
        Err(e) => return Err(rt.throw_error(ErrorKind::SyntaxError, &format!("invalid bundle '{key}': {e}"))),
    };
    if bundle.modules().is_empty() {
        return Err(rt.throw_error(ErrorKind::SyntaxError, &format!("'{key}' is a script, not a module")));
    }
    let descs = bundle.modules().to_vec();
    let keys: Vec<String> = descs.iter().map(|d| bundle.string(d.key).to_string_lossy()).collect();
    let values: Result<Vec<Option<ModuleValue>>, ()> = descs
        .iter()
        .map(|d| {
            d.value
                .map(|(kind, t)| {
                    let s = bundle.string(t);
                    match kind {
                        ValueKind::Json => Ok(ModuleValue::Json(s.to_string_lossy())),
                        ValueKind::Text => Ok(ModuleValue::Text(s.to_string_lossy())),
                        // One byte per code unit: a bundle writes such a string with one-byte
                        // characters.
                        ValueKind::Bytes => match s {
                            bytecode::BundleStr::OneByte(bytes) => Ok(ModuleValue::Bytes(bytes.to_vec())),
                            bytecode::BundleStr::TwoByte(_) => Err(()),
                        },
                    }
                })
                .transpose()
        })
        .collect();
    let Ok(values) = values else {
        let msg = format!("invalid bundle '{key}': a bytes module with characters above 255");
        return Err(rt.throw_error(ErrorKind::SyntaxError, &msg));
    };
    let realm = rt.realm;
    let index = rt.load_bundle(bundle, realm);
    let mut entry = None;
    for (i, desc) in descs.iter().enumerate() {
        let ty = values[i].as_ref().map_or(ModuleType::JavaScript, ModuleValue::module_type);
        // A module already loaded (from another bundle or its source) stays the one.
        if let Some(&m) = rt.modules.map.get(&(keys[i].clone(), ty)) {
            entry.get_or_insert(m);
            continue;
        }
        let m = match &values[i] {
            Some(value) => value_module(rt, keys[i].clone(), value, created)?,
            None => {
                let m = module_record(rt, index, desc, keys[i].clone())?;
                created.push(m);
                m
            }
        };
        rt.modules.map.insert((keys[i].clone(), ty), m);
        entry.get_or_insert(m);
    }
    entry.ok_or_else(|| rt.throw_type_error("internal error: an empty module bundle"))
}

/// The record of module `desc` of loaded bundle `index`: runs its top-level function, which
/// makes the module environment and returns the body.
fn module_record(rt: &mut Runtime, index: u32, desc: &bytecode::ModuleDesc, key: String) -> JsResult<u32> {
    let bundle = &rt.code.bundles[index as usize].bundle;
    let string = |id: u32| bundle.string(id).to_string_lossy();
    let requests: Vec<Request> = desc
        .requests
        .iter()
        .map(|r| Request {
            specifier: string(r.specifier),
            attributes: r.attributes.iter().map(|&(k, v)| (string(k), string(v))).collect(),
            line: r.line,
            col: r.col,
            bundled: r.resolved.map(string),
            defer: r.defer,
            module: None,
        })
        .collect();
    let imports: Vec<Import> = desc
        .imports
        .iter()
        .map(|i| {
            let name = match i.name {
                bytecode::Imported::Name(n) => Imported::Name(string(n)),
                bytecode::Imported::Namespace => Imported::Namespace,
                bytecode::Imported::Source => Imported::Source,
                bytecode::Imported::Deferred => Imported::Deferred,
            };
            Import { request: i.request, name, slot: i.slot }
        })
        .collect();
    let exports: Vec<Export> = desc
        .exports
        .iter()
        .map(|e| match *e {
            bytecode::ExportDesc::Local { name, slot } => Export::Local { name: string(name), slot },
            bytecode::ExportDesc::Indirect { name, request, import } => {
                Export::Indirect { name: string(name), request, import: import.map(string) }
            }
            bytecode::ExportDesc::Star { request } => Export::Star { request },
        })
        .collect();
    let realm = rt.code.bundles[index as usize].realm;
    let info = crate::code::FuncRef::new(&rt.code.bundles[index as usize].functions[desc.top_level as usize]);
    let init = make_closure(rt, info, Value::UNDEFINED);
    let mark = rt.handle_mark();
    rt.root(init);
    let body = rt.call(init, Value::UNDEFINED, &[]);
    rt.release_handles(mark);
    let body = body?;
    let env = match rt.closure_env(body) {
        Some(env) => env,
        None => return Err(rt.throw_type_error(&format!("internal error: module '{key}' made no environment"))),
    };
    let m = rt.modules.records.len() as u32;
    // The module slot holds the record's index (`import.meta`, `import()`).
    match rt.heap.env_slots_mut(env.gc()).get_mut(desc.module_slot as usize) {
        Some(s) => *s = Value::number(m as f64),
        None => return Err(rt.throw_type_error(&format!("internal error: module '{key}' has a bad module slot"))),
    }
    let mut record = ModuleRecord::new(key, realm, env, body);
    record.has_tla = desc.has_tla;
    record.requests = requests;
    record.imports = imports;
    record.exports = exports;
    rt.modules.records.push(record);
    Ok(m)
}

// ---- evaluation ---------------------------------------------------------------------------

/// 16.2.1.5.3 Evaluate(): evaluates `m` (linked) and what it depends on; returns the
/// promise of the evaluation, rejected with the error of a module that threw.
fn evaluate_module(rt: &mut Runtime, m: u32) -> JsResult<Gc<JsObject>> {
    let mut m = m;
    let r = &rt.modules.records[m as usize];
    if matches!(r.status, Status::EvaluatingAsync | Status::Evaluated) {
        m = r.cycle_root;
    }
    let existing = rt.modules.records[m as usize].capability;
    if existing.is_object() {
        return Ok(existing.gc());
    }
    let promise = rt.new_promise();
    rt.modules.records[m as usize].capability = Value::object(promise);
    let mut stack = Vec::new();
    match inner_evaluate(rt, m, &mut stack, 0) {
        Ok(_) => {
            // An asynchronous evaluation still running settles the promise when it finishes.
            if !matches!(rt.modules.records[m as usize].async_order, AsyncOrder::Order(_)) {
                rt.resolve_promise(promise, Value::UNDEFINED);
            }
        }
        Err(Thrown::Uncatchable) => return Err(crate::runtime::Exception),
        Err(Thrown::Error(e)) => {
            for s in stack {
                let r = &mut rt.modules.records[s as usize];
                r.status = Status::Evaluated;
                r.error = Some(e);
            }
            rt.reject_promise(promise, e);
        }
    }
    Ok(promise)
}

/// How an evaluation ended abruptly: with a JavaScript error (which the modules of the
/// cycle record) or an uncatchable condition (an interrupt).
enum Thrown {
    Error(Value),
    Uncatchable,
}

fn thrown(rt: &mut Runtime) -> Thrown {
    if rt.exception_kind != crate::runtime::ExceptionKind::Normal {
        return Thrown::Uncatchable;
    }
    let e = rt.exception;
    rt.exception = Value::UNDEFINED;
    Thrown::Error(e)
}

/// 16.2.1.5.3.1 InnerModuleEvaluation.
fn inner_evaluate(rt: &mut Runtime, m: u32, stack: &mut Vec<u32>, mut index: u32) -> Result<u32, Thrown> {
    let r = &rt.modules.records[m as usize];
    match r.status {
        Status::EvaluatingAsync | Status::Evaluated => {
            return match r.error {
                Some(e) => Err(Thrown::Error(e)),
                None => Ok(index),
            };
        }
        Status::Evaluating => return Ok(index),
        _ => {}
    }
    let r = &mut rt.modules.records[m as usize];
    r.status = Status::Evaluating;
    r.dfs_index = index;
    r.dfs_ancestor = index;
    r.pending = 0;
    index += 1;
    stack.push(m);
    // The modules to evaluate first: those requested, but of a deferred one only its
    // asynchronous dependencies.
    let mut evaluation_list: Vec<u32> = Vec::new();
    for q in 0..rt.modules.records[m as usize].requests.len() {
        let req = &rt.modules.records[m as usize].requests[q];
        let required = req.module.unwrap_or(m);
        let add = if req.defer { gather_async_dependencies(rt, required, &mut Vec::new()) } else { vec![required] };
        for a in add {
            if !evaluation_list.contains(&a) {
                evaluation_list.push(a);
            }
        }
    }
    for mut required in evaluation_list {
        index = inner_evaluate(rt, required, stack, index)?;
        let req = &rt.modules.records[required as usize];
        if req.status == Status::Evaluating {
            let a = req.dfs_ancestor;
            let r = &mut rt.modules.records[m as usize];
            r.dfs_ancestor = r.dfs_ancestor.min(a);
        } else {
            required = req.cycle_root;
            if let Some(e) = rt.modules.records[required as usize].error {
                return Err(Thrown::Error(e));
            }
        }
        if matches!(rt.modules.records[required as usize].async_order, AsyncOrder::Order(_)) {
            rt.modules.records[m as usize].pending += 1;
            rt.modules.records[required as usize].async_parents.push(m);
        }
    }
    let r = &rt.modules.records[m as usize];
    if r.pending > 0 || r.has_tla {
        let order = rt.modules.next_async_order;
        rt.modules.next_async_order += 1;
        rt.modules.records[m as usize].async_order = AsyncOrder::Order(order);
        if rt.modules.records[m as usize].pending == 0 {
            execute_async_module(rt, m);
        }
    } else {
        execute_module(rt, m).map_err(|_| thrown(rt))?;
    }
    let r = &rt.modules.records[m as usize];
    if r.dfs_ancestor == r.dfs_index {
        while let Some(s) = stack.pop() {
            let r = &mut rt.modules.records[s as usize];
            r.status = if r.async_order == AsyncOrder::Unset { Status::Evaluated } else { Status::EvaluatingAsync };
            r.cycle_root = m;
            if s == m {
                break;
            }
        }
    }
    Ok(index)
}

/// IsModuleSCCEvaluated: whether `m`'s strongly connected component finished evaluating.
fn scc_evaluated(rt: &Runtime, m: u32) -> bool {
    let r = &rt.modules.records[m as usize];
    let root = if matches!(r.status, Status::EvaluatingAsync | Status::Evaluated) { r.cycle_root } else { m };
    rt.modules.records[root as usize].status == Status::Evaluated
}

/// GatherAsynchronousTransitiveDependencies: the modules with top-level `await` that `m`
/// (not evaluated yet) depends on, through modules without it.
fn gather_async_dependencies(rt: &Runtime, m: u32, seen: &mut Vec<u32>) -> Vec<u32> {
    let mut result = Vec::new();
    if seen.contains(&m) {
        return result;
    }
    seen.push(m);
    let r = &rt.modules.records[m as usize];
    if r.status == Status::Evaluating || scc_evaluated(rt, m) {
        return result;
    }
    if r.has_tla {
        result.push(m);
        return result;
    }
    for q in &r.requests {
        for a in gather_async_dependencies(rt, q.module.unwrap_or(m), seen) {
            if !result.contains(&a) {
                result.push(a);
            }
        }
    }
    result
}

/// ReadyForSyncExecution: whether `m` can be evaluated synchronously now.
fn ready_for_sync(rt: &Runtime, m: u32, seen: &mut Vec<u32>) -> bool {
    if seen.contains(&m) {
        return true;
    }
    seen.push(m);
    if scc_evaluated(rt, m) {
        return true;
    }
    let r = &rt.modules.records[m as usize];
    if matches!(r.status, Status::Evaluating | Status::EvaluatingAsync) || r.has_tla {
        return false;
    }
    r.requests.iter().all(|q| ready_for_sync(rt, q.module.unwrap_or(m), seen))
}

/// EvaluateSync of the module of a deferred namespace being used (GetModuleExportsList): a
/// TypeError if it cannot finish synchronously, its error if it threw.
pub(crate) fn evaluate_sync(rt: &mut Runtime, m: u32) -> JsResult<()> {
    if rt.modules.records[m as usize].status == Status::Evaluated {
        return match rt.modules.records[m as usize].error {
            Some(e) => Err(rt.throw(e)),
            None => Ok(()),
        };
    }
    if !ready_for_sync(rt, m, &mut Vec::new()) {
        let key = rt.modules.records[m as usize].key.clone();
        return Err(rt.throw_type_error(&format!("the deferred module '{key}' cannot be evaluated now")));
    }
    let promise = evaluate_module(rt, m)?;
    rt.promise_then(promise, Value::UNDEFINED, Value::UNDEFINED);
    match rt.promise_result(promise) {
        Some(Err(e)) => Err(rt.throw(e)),
        _ => Ok(()),
    }
}

/// Runs the body of a module without top-level `await`.
fn execute_module(rt: &mut Runtime, m: u32) -> JsResult<()> {
    let body = rt.modules.records[m as usize].body;
    call_in_realm(rt, m, body).map(|_| ())
}

/// Calls a module's body in the module's realm.
fn call_in_realm(rt: &mut Runtime, m: u32, body: Value) -> JsResult<Value> {
    let saved = rt.realm;
    rt.realm = rt.modules.records[m as usize].realm;
    let r = rt.call(body, Value::UNDEFINED, &[]);
    rt.realm = saved;
    r
}

/// 16.2.1.5.3.2 ExecuteAsyncModule: starts the async body; its promise's reactions go on
/// with the modules that wait for this one.
fn execute_async_module(rt: &mut Runtime, m: u32) {
    let body = rt.modules.records[m as usize].body;
    let promise = match call_in_realm(rt, m, body) {
        Ok(p) if p.is_object() => Ok(p.gc::<JsObject>()),
        Ok(_) => Err(rt.throw_type_error("internal error: an async module body returned no promise")),
        Err(e) => Err(e),
    };
    let promise = match promise {
        Ok(p) => p,
        Err(_) => {
            let Thrown::Error(e) = thrown(rt) else { return };
            async_rejected(rt, m, e);
            return;
        }
    };
    let mark = rt.handle_mark();
    rt.root(Value::object(promise));
    let data = Value::number(m as f64);
    let on_fulfilled = Value::object(rt.new_native_with_data("", async_fulfilled_fn, 1, data));
    rt.root(on_fulfilled);
    let on_rejected = Value::object(rt.new_native_with_data("", async_rejected_fn, 1, data));
    rt.promise_then(promise, on_fulfilled, on_rejected);
    rt.release_handles(mark);
}

fn reaction_module(rt: &Runtime) -> u32 {
    let d = rt.native_data(rt.native_callee());
    d.as_number().map_or(0, |n| n as u32)
}

fn async_fulfilled_fn(rt: &mut Runtime, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let m = reaction_module(rt);
    async_fulfilled(rt, m);
    Ok(Value::UNDEFINED)
}

fn async_rejected_fn(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let m = reaction_module(rt);
    async_rejected(rt, m, args.first().copied().unwrap_or(Value::UNDEFINED));
    Ok(Value::UNDEFINED)
}

/// 16.2.1.5.3.4 AsyncModuleExecutionFulfilled.
fn async_fulfilled(rt: &mut Runtime, m: u32) {
    if rt.modules.records[m as usize].status == Status::Evaluated {
        return;
    }
    let r = &mut rt.modules.records[m as usize];
    r.async_order = AsyncOrder::Done;
    r.status = Status::Evaluated;
    let cap = r.capability;
    if cap.is_object() {
        rt.resolve_promise(cap.gc(), Value::UNDEFINED);
    }
    let mut ready = Vec::new();
    gather_available_ancestors(rt, m, &mut ready);
    let order = |rt: &Runtime, x: u32| match rt.modules.records[x as usize].async_order {
        AsyncOrder::Order(o) => o,
        _ => u64::MAX,
    };
    ready.sort_by_key(|&x| order(rt, x));
    for p in ready {
        let r = &rt.modules.records[p as usize];
        if r.status == Status::Evaluated {
            continue;
        }
        if r.has_tla {
            execute_async_module(rt, p);
            continue;
        }
        match execute_module(rt, p) {
            Err(_) => {
                let Thrown::Error(e) = thrown(rt) else { return };
                async_rejected(rt, p, e);
            }
            Ok(()) => {
                let r = &mut rt.modules.records[p as usize];
                r.async_order = AsyncOrder::Done;
                r.status = Status::Evaluated;
                let cap = r.capability;
                if cap.is_object() {
                    rt.resolve_promise(cap.gc(), Value::UNDEFINED);
                }
            }
        }
    }
}

/// 16.2.1.5.3.3 GatherAvailableAncestors.
fn gather_available_ancestors(rt: &mut Runtime, m: u32, list: &mut Vec<u32>) {
    let parents = rt.modules.records[m as usize].async_parents.clone();
    for p in parents {
        let root = rt.modules.records[p as usize].cycle_root;
        if list.contains(&p) || rt.modules.records[root as usize].error.is_some() {
            continue;
        }
        let r = &mut rt.modules.records[p as usize];
        r.pending = r.pending.saturating_sub(1);
        if r.pending == 0 {
            list.push(p);
            if !r.has_tla {
                gather_available_ancestors(rt, p, list);
            }
        }
    }
}

/// 16.2.1.5.3.5 AsyncModuleExecutionRejected.
fn async_rejected(rt: &mut Runtime, m: u32, error: Value) {
    if rt.modules.records[m as usize].status == Status::Evaluated {
        return;
    }
    let r = &mut rt.modules.records[m as usize];
    r.error = Some(error);
    r.status = Status::Evaluated;
    r.async_order = AsyncOrder::Done;
    let cap = r.capability;
    for p in r.async_parents.clone() {
        async_rejected(rt, p, error);
    }
    if cap.is_object() {
        rt.reject_promise(cap.gc(), error);
    }
}

// ---- import() and import.meta --------------------------------------------------------------

/// The record index in a module slot.
fn module_of(rt: &Runtime, v: Value) -> Option<u32> {
    let n = v.as_number()?;
    (n >= 0.0 && (n as usize) < rt.modules.records.len() && n.fract() == 0.0).then_some(n as u32)
}

/// `import.meta` (HostGetImportMetaProperties: `url`, and `filename` and `dirname` for
/// files, as node gives).
pub(crate) fn import_meta(rt: &mut Runtime, module: Value) -> JsResult<Value> {
    let Some(m) = module_of(rt, module) else {
        return Err(rt.throw_type_error("internal error: import.meta outside a module"));
    };
    let existing = rt.modules.records[m as usize].meta;
    if existing.is_object() {
        return Ok(existing);
    }
    let meta = rt.new_object(Value::NULL);
    let mark = rt.handle_mark();
    rt.root(Value::object(meta));
    let key = rt.modules.records[m as usize].key.clone();
    let url = if key.contains("://") { key.clone() } else { format!("file://{key}") };
    let url = rt.new_string(&url);
    let k = rt.key("url");
    rt.create_data_property_or_throw(meta, k, url)?;
    if key.starts_with('/') {
        let dir = std::path::Path::new(&key).parent().map_or(String::from("/"), |p| p.display().to_string());
        for (name, v) in [("filename", key.clone()), ("dirname", dir)] {
            let s = rt.new_string(&v);
            let k = rt.key(name);
            rt.create_data_property_or_throw(meta, k, s)?;
        }
    }
    rt.release_handles(mark);
    rt.modules.records[m as usize].meta = Value::object(meta);
    Ok(Value::object(meta))
}

/// `import(specifier, options)` (13.3.10.1 EvaluateImportCall and ContinueDynamicImport):
/// the promise of the namespace; loading, linking and evaluation errors reject it.
pub(crate) fn dynamic_import(
    rt: &mut Runtime,
    referrer: Referrer,
    specifier: Value,
    options: Value,
    phase: ImportPhase,
) -> JsResult<Value> {
    let promise = rt.new_promise();
    let mark = rt.handle_mark();
    rt.root(Value::object(promise));
    let r = start_import(rt, &referrer, specifier, options, phase, promise);
    rt.release_handles(mark);
    if r.is_err() {
        match thrown(rt) {
            Thrown::Error(e) => rt.reject_promise(promise, e),
            Thrown::Uncatchable => return Err(crate::runtime::Exception),
        }
    }
    Ok(Value::object(promise))
}

fn start_import(
    rt: &mut Runtime,
    referrer: &Referrer,
    specifier: Value,
    options: Value,
    phase: ImportPhase,
    promise: Gc<JsObject>,
) -> JsResult<()> {
    let s = rt.to_string(specifier)?;
    let spec = rt.string_to_rust(s);
    let mut ty = ModuleType::JavaScript;
    if !options.is_undefined() {
        if !options.is_object() {
            return Err(rt.throw_type_error("The second argument of import() must be an object"));
        }
        let k = rt.key("with");
        let with = rt.get(options.gc(), k, options)?;
        if !with.is_undefined() {
            if !with.is_object() {
                return Err(rt.throw_type_error("The 'with' option of import() must be an object"));
            }
            let keys = rt.own_property_keys(with.gc())?;
            for key in keys {
                let Some(desc) = rt.get_own_property(with.gc(), key)? else { continue };
                if desc.enumerable != Some(true) || matches!(key, crate::object::Key::Name(k) if k.is_symbol()) {
                    continue;
                }
                let v = rt.get(with.gc(), key, with)?;
                if !v.is_string() {
                    return Err(rt.throw_type_error("Import attribute values must be strings"));
                }
                let name = rt.key_display(key);
                let value = rt.string_to_rust(v);
                if name == "type" {
                    ty = match ModuleType::from_attribute(&value) {
                        Some(t) => t,
                        None => {
                            return Err(
                                rt.throw_type_error(&format!("Import attribute type '{value}' is not supported"))
                            )
                        }
                    };
                }
            }
        }
    }
    let referrer_key = match referrer {
        Referrer::Module(v) => module_of(rt, *v).map(|m| rt.modules.records[m as usize].key.clone()),
        Referrer::Script(name) => Some(name.clone()),
    };
    let at = referrer_key.clone().unwrap_or_else(|| "<unknown>".into());
    // A specifier the module imports statically names the module it loaded for it (the
    // referrer's [[LoadedModules]]), also when that came from a bundle.
    let loaded = match referrer {
        Referrer::Module(v) => module_of(rt, *v).and_then(|r| {
            let requests = &rt.modules.records[r as usize].requests;
            requests.iter().find(|q| q.specifier == spec && q.module_type() == ty).and_then(|q| q.module)
        }),
        Referrer::Script(_) => None,
    };
    let m = match loaded {
        Some(m) => m,
        None => load_graph(rt, &spec, ty, referrer_key.as_deref(), &at)?,
    };
    if phase == ImportPhase::Source {
        return Err(rt.no_module_source(m));
    }
    rt.link_module(m)?;
    // A deferred import evaluates the module's asynchronous dependencies only.
    let evaluate = match phase {
        ImportPhase::Defer => gather_async_dependencies(rt, m, &mut Vec::new()),
        _ => vec![m],
    };
    let mark = rt.handle_mark();
    let data = rt.new_object(Value::NULL);
    rt.root(Value::object(data));
    for (name, v) in [
        ("promise", Value::object(promise)),
        ("module", Value::number(m as f64)),
        ("deferred", Value::boolean(phase == ImportPhase::Defer)),
        ("remaining", Value::number(evaluate.len() as f64)),
    ] {
        let k = rt.key(name);
        rt.create_data_property_or_throw(data, k, v)?;
    }
    if evaluate.is_empty() {
        let ns = rt.module_namespace(m, true);
        rt.resolve_promise(promise, Value::object(ns));
    }
    for e in evaluate {
        let evaluation = evaluate_module(rt, e)?;
        rt.root(Value::object(evaluation));
        let on_fulfilled = Value::object(rt.new_native_with_data("", import_fulfilled, 0, Value::object(data)));
        rt.root(on_fulfilled);
        let on_rejected = Value::object(rt.new_native_with_data("", import_rejected, 1, Value::object(data)));
        rt.promise_then(evaluation, on_fulfilled, on_rejected);
    }
    rt.release_handles(mark);
    Ok(())
}

/// What a dynamic import's reaction continues: its data object, the promise and the module.
fn import_reaction(rt: &mut Runtime) -> Option<(Gc<JsObject>, Gc<JsObject>, u32)> {
    let data = rt.native_data(rt.native_callee());
    if !data.is_object() {
        return None;
    }
    let k = rt.key("promise");
    let p = rt.peek_data(data.gc(), k)?;
    let k = rt.key("module");
    let m = rt.peek_data(data.gc(), k)?;
    Some((data.gc(), p.gc(), module_of(rt, m)?))
}

/// One evaluation the import waits for finished: once the last one has, the promise gets
/// the namespace (the deferred namespace for `import.defer`).
fn import_fulfilled(rt: &mut Runtime, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let Some((data, promise, m)) = import_reaction(rt) else { return Ok(Value::UNDEFINED) };
    let k = rt.key("remaining");
    let remaining = rt.peek_data(data, k).and_then(|v| v.as_number()).unwrap_or(1.0) - 1.0;
    rt.define_data_raw(data, k, Value::number(remaining), crate::object::shape::WRITABLE);
    if remaining <= 0.0 {
        let k = rt.key("deferred");
        let deferred = rt.peek_data(data, k) == Some(Value::TRUE);
        let ns = rt.module_namespace(m, deferred);
        rt.resolve_promise(promise, Value::object(ns));
    }
    Ok(Value::UNDEFINED)
}

fn import_rejected(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    if let Some((_, promise, _)) = import_reaction(rt) {
        rt.reject_promise(promise, args.first().copied().unwrap_or(Value::UNDEFINED));
    }
    Ok(Value::UNDEFINED)
}

// ---- the embedding API ---------------------------------------------------------------------

impl Runtime {
    /// Sets the module loader: how `run_module`, `import` declarations and `import()` find
    /// modules.
    pub fn set_module_loader(&mut self, loader: Box<dyn ModuleLoader>) {
        self.modules.loader = Some(loader);
    }

    /// Loads the module `specifier` names (resolved with no referrer), links and evaluates
    /// its graph, then drains the job queue. The error is the one a module threw (or the
    /// loading or linking error); with `report_unhandled_rejections`, then also a promise
    /// rejected with no handler. A module still waiting for a promise that nothing will
    /// settle when the job queue is empty is an error too ("unsettled top-level await").
    pub fn run_module(&mut self, specifier: &str) -> Result<(), JsError> {
        self.begin_run();
        let started = self.start_module(specifier);
        let promise = match started {
            Ok((p, _)) => p,
            Err(_) => return Err(self.take_js_error()),
        };
        let mark = self.handle_mark();
        self.root(Value::object(promise));
        let jobs = self.run_jobs();
        self.release_handles(mark);
        jobs.map_err(|_| self.take_js_error())?;
        match self.promise_result(promise) {
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(self.describe_thrown(e)),
            None => {
                return Err(JsError::plain(
                    "Error",
                    "the module's top-level await never finished (unsettled top-level await)",
                ))
            }
        }
        self.check_unhandled_rejections()
    }

    /// Loads, links and starts evaluating a module graph; the promise of its evaluation and
    /// the module.
    pub(crate) fn start_module(&mut self, specifier: &str) -> JsResult<(Gc<JsObject>, u32)> {
        let m = load_graph(self, specifier, ModuleType::JavaScript, None, specifier)?;
        self.link_module(m)?;
        let promise = evaluate_module(self, m)?;
        // The host looks at the result itself: not an unhandled rejection.
        self.promise_then(promise, Value::UNDEFINED, Value::UNDEFINED);
        Ok((promise, m))
    }

    /// The environment of closure `f`, if it is one.
    fn closure_env(&self, f: Value) -> Option<Value> {
        let obj: Gc<JsObject> = if f.is_object() { f.gc() } else { return None };
        let c = self.heap.downcast::<crate::runtime::function::Closure>(obj)?;
        let env = self.heap.get(c).env;
        env.is_cell().then_some(env)
    }
}
