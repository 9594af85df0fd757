//! Loading bundles into the runtime and running their global code.

use bytecode::{Bundle, BundleStr};

use super::{ErrorKind, JsResult, Runtime};
use crate::code::ic::{Ic, WAYS};
use crate::code::{FuncRef, FunctionInfo, LoadedBundle};
use crate::gc::Heap;
use crate::value::Value;

/// The loaded bundles and the inline caches of their functions.
#[derive(Default)]
pub(crate) struct LoadedCode {
    /// Boxed: frames and functions point into a loaded bundle, which must not move when
    /// the vector grows.
    #[allow(clippy::vec_box)]
    pub(crate) bundles: Vec<Box<LoadedBundle>>,
    /// `WAYS` entries per inline-cache slot of every loaded function.
    pub(crate) ics: Vec<Ic>,
    /// Shapes compiled code compares with (kept alive: a freed shape's address could be
    /// reused by another).
    pub(crate) jit_shapes: Vec<crate::gc::Gc<crate::object::Shape>>,
    /// Prototypes compiled code reads properties of.
    pub(crate) jit_holders: Vec<crate::gc::Gc<crate::object::JsObject>>,
    /// The shapes of `this` that construct sites recorded (`code::feedback`), kept alive
    /// for the JIT to look properties up in.
    pub(crate) feedback_shapes: Vec<crate::gc::Gc<crate::object::Shape>>,
    /// Functions whose compiled code assumes the current prototype epoch (read properties
    /// of prototypes, or added properties by transitions): when it moves, their code is not
    /// entered again (`jit::invalidate`).
    #[cfg(feature = "jit")]
    pub(crate) epoch_dependents: Vec<FuncRef>,
    /// Functions whose compiled code read properties of a dictionary-mode shape at their
    /// slots, which hold while its version stays (the shapes are kept in `jit_shapes`).
    #[cfg(feature = "jit")]
    pub(crate) dictionary_dependents: Vec<(crate::gc::Gc<crate::object::Shape>, FuncRef)>,
    /// What the JIT compiled, with `RuntimeOptions::jit_dump`: (heading, MIR text after
    /// the passes, machine code).
    pub(crate) jit_dumps: Vec<(String, String, Vec<u8>)>,
}

impl LoadedCode {
    /// Marks the bundles' string atoms and what the inline caches point to.
    pub(crate) fn trace(&self, heap: &mut Heap) {
        for b in &self.bundles {
            for &v in &b.strings {
                heap.mark_value(v);
            }
        }
        for ic in &self.ics {
            ic.trace(heap);
        }
        for &s in self.jit_shapes.iter().chain(&self.feedback_shapes) {
            heap.mark(s);
        }
        for &h in &self.jit_holders {
            heap.mark(h);
        }
    }
}

impl Runtime {
    /// What compiled code assumed changed: the prototype epoch moved (`shape` None,
    /// `prototypes_changed`: what the code read on a prototype chain, the transitions it
    /// adds properties by), or the version of dictionary-mode `shape` (what the code read
    /// at its slots). The code that assumed it is not entered again, and frames running it
    /// leave at its next check. Its functions run in the interpreter until they are warm
    /// again, which refills their inline caches, then are compiled anew; that is not
    /// counted against them as exits are.
    #[cfg(feature = "jit")]
    pub(crate) fn invalidate_code(&mut self, shape: Option<crate::gc::Gc<crate::object::Shape>>) {
        let dependents: Vec<FuncRef> = match shape {
            None => std::mem::take(&mut self.code.epoch_dependents),
            Some(s) => {
                if self.code.dictionary_dependents.is_empty() {
                    return;
                }
                let all = std::mem::take(&mut self.code.dictionary_dependents);
                let (hit, kept): (Vec<_>, Vec<_>) = all.into_iter().partition(|d| d.0 == s);
                self.code.dictionary_dependents = kept;
                hit.into_iter().map(|(_, f)| f).collect()
            }
        };
        for f in dependents {
            // SAFETY: a function of this runtime's bundles, used while the runtime lives.
            let info = unsafe { crate::code::info_ref(f) };
            if !info.jit.has_code() {
                continue;
            }
            let stays = info.jit.invalidate();
            info.warm.entries.set(0);
            info.warm.back_edges.set(0);
            if self.host.options.jit_log {
                let what = if shape.is_some() { "a dictionary's properties changed" } else { "a prototype changed" };
                let again = if stays { "it stays interpreted" } else { "to be compiled again" };
                let name = info.display_name();
                let name = if name.is_empty() { "<anonymous>".to_string() } else { name };
                eprintln!("jit: invalidated the code of {name}#{}: {what}, {again}", info.id);
            }
        }
    }

    /// Loads a bundle into `realm` and runs its global code; returns the completion value.
    pub(crate) fn eval_bundle_in(&mut self, bytes: Vec<u8>, realm: u32) -> JsResult<Value> {
        let bundle = match bytecode::Bundle::from_bytes(bytes) {
            Ok(b) => b,
            Err(e) => return Err(self.throw_error(ErrorKind::SyntaxError, &format!("invalid bundle: {e}"))),
        };
        self.eval_verified(bundle, realm)
    }

    /// Loads a verified bundle into `realm` and runs its global code.
    pub(crate) fn eval_verified(&mut self, bundle: Bundle, realm: u32) -> JsResult<Value> {
        let index = self.load_bundle(bundle, realm);
        run_global_code(self, index)
    }

    /// Loads a verified bundle into `realm`; returns its index.
    pub(crate) fn load_bundle(&mut self, bundle: Bundle, realm: u32) -> u32 {
        let index = self.code.bundles.len() as u32;
        let mut strings = Vec::with_capacity(bundle.string_count() as usize);
        self.atoms.reserve(&self.heap, bundle.string_count() as usize);
        for id in 0..bundle.string_count() {
            let atom = match bundle.string(id) {
                BundleStr::OneByte(b) => self.atoms.intern_latin1(&mut self.heap, b),
                BundleStr::TwoByte(_) => {
                    let units = bundle.string_units(id);
                    self.atoms.intern_units(&mut self.heap, &units)
                }
            };
            strings.push(Value::string(atom));
        }
        let mut loaded = Box::new(LoadedBundle { bundle, strings, functions: Vec::new(), realm, index });
        let ptr: *const LoadedBundle = &*loaded;
        let mut functions = Vec::with_capacity(loaded.bundle.function_count() as usize);
        for id in 0..loaded.bundle.function_count() {
            functions.push(FunctionInfo::new(ptr, id, realm, loaded.bundle.function(id)));
        }
        loaded.functions = functions;
        self.code.bundles.push(loaded);
        index
    }
}

impl Runtime {
    /// Gives `info` its inline caches if it has none (see `FunctionInfo::ic_base`).
    #[cold]
    pub(crate) fn give_ics(&mut self, info: &FunctionInfo) {
        if info.ic_base.get() != crate::code::NO_ICS {
            return;
        }
        let n = info.header.ic_count as usize * WAYS;
        let base = self.code.ics.len() / WAYS;
        // A table of 2^32 slots would take hundreds of gigabytes: the heap limit and the
        // bundle verifier stop far short of it, and a function past it only goes uncached.
        let Ok(base) = u32::try_from(base) else { return };
        if base == crate::code::NO_ICS {
            return;
        }
        self.code.ics.resize(self.code.ics.len() + n, Ic::EMPTY);
        info.ic_base.set(base);
    }

    /// Notes that `info` is being entered: a function gets its inline caches at its first
    /// call (what it sees then is feedback the JIT uses), a bundle's global code (function
    /// 0, which usually runs once) at its second entry.
    #[inline(always)]
    pub(crate) fn note_entry(&mut self, info: &FunctionInfo) {
        if info.ic_base.get() == crate::code::NO_ICS {
            if info.entered.get() || info.id != 0 {
                self.give_ics(info);
            } else {
                info.entered.set(true);
            }
        }
    }
}

/// Runs the global code (function 0) of loaded bundle `index`.
fn run_global_code(rt: &mut Runtime, index: u32) -> JsResult<Value> {
    let bundle = &rt.code.bundles[index as usize];
    let info = FuncRef::new(&bundle.functions[0]);
    let realm = bundle.realm;
    let saved_realm = rt.realm;
    rt.realm = realm;
    let closure = super::function::make_closure(rt, info, Value::UNDEFINED);
    let global = Value::object(rt.global_object());
    let mark = rt.handle_mark();
    rt.root(closure);
    let r = rt.call(closure, global, &[]);
    // (A host that runs script after script would otherwise keep every one's closure.)
    rt.release_handles(mark);
    rt.realm = saved_realm;
    r
}

impl Runtime {
    /// The function a `LAZY` function's closures run: on its first call, its source text
    /// compiled by the compile hook against the description of its scope its bundle keeps
    /// (a bundle of its own, function 1 of which it becomes). A compile error throws a
    /// SyntaxError (only a damaged bundle gives one: the program was checked whole).
    #[cold]
    pub(crate) fn compile_lazy(&mut self, stub: FuncRef) -> JsResult<FuncRef> {
        // SAFETY: the info belongs to this runtime, which outlives the call.
        let info = unsafe { stub.get() };
        if let Some(f) = info.compiled.get() {
            return Ok(f);
        }
        let loaded = info.bundle();
        let bundle = &loaded.bundle;
        let (Some(text), Some(scope)) = (bundle.function_source(info.id), bundle.lazy_scope(info.id)) else {
            return Err(self.throw_syntax_error("the source text of a function to compile is missing"));
        };
        let (text, file) = (text.into_owned(), bundle.source_name());
        let scope = bundle.string(scope).to_string_lossy();
        let name = bundle.string(info.header.name).to_string_lossy();
        let realm = info.realm();
        let bytes = self.compile_source(&text, &file, super::SourceKind::Function { scope, name })?;
        // The function it became is of the same kind (a damaged bundle's text could be
        // anything: a generator's body must never be called as a function).
        let flags = bytecode::FunctionFlags(info.header.flags.0 & !bytecode::FunctionFlags::LAZY.0);
        let compiled = match Bundle::from_bytes(bytes) {
            Ok(b) if b.function_count() > 1 && b.function(1).flags == flags => b,
            Ok(_) => return Err(self.throw_syntax_error("a lazily compiled function's text is not that function")),
            Err(e) => return Err(self.throw_syntax_error(&format!("invalid bundle: {e}"))),
        };
        let index = self.load_bundle(compiled, realm);
        let f = FuncRef::new(&self.code.bundles[index as usize].functions[1]);
        info.compiled.set(Some(f));
        Ok(f)
    }
}
