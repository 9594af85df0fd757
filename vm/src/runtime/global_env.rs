//! The global environment beyond the global object: the lexical declarations that the
//! scripts of a realm share (ECMA-262 9.1.1.4, a Global Environment Record's
//! [[DeclarativeRecord]]).
//!
//! A script's top-level `let`, `const` and `class` bindings live in the script's own heap
//! environment, where its code reads and writes them by slot like any captured variable.
//! `declareGlobals` (GlobalDeclarationInstantiation) records each of them here by name with
//! that environment and slot, so that code of later scripts, for which the name is a
//! global, reaches the binding: the slow paths of `get_global`, `typeof_global` and
//! `put_global` look here before the global object. Their inline caches hold global object
//! properties only and a lexical name is never cached; declaring lexical bindings gives the
//! global object a fresh shape, which misses every entry made before (an entry for a global
//! property or a prototype's property that the new binding now shadows).

use hashbrown::HashMap;

use crate::gc::CellKind;
use crate::gc::{Gc, Heap};
use crate::object::shape::PropKey;
use crate::object::{Environment, Key};
use crate::runtime::{JsResult, Runtime};
use crate::value::Value;

/// A global lexical binding: slot `slot` of the declaring script's environment `env`.
#[derive(Clone, Copy, Debug)]
pub struct GlobalLexical {
    pub env: Gc<Environment>,
    pub slot: u32,
    /// Declared with `const`.
    pub constant: bool,
}

/// The global lexical declarations of a realm. See the module docs.
#[derive(Default)]
pub struct GlobalDecls {
    lexical: HashMap<PropKey, GlobalLexical>,
}

impl GlobalDecls {
    /// The lexical binding `key`, if a script declared one.
    #[inline]
    pub(crate) fn lexical(&self, key: PropKey) -> Option<GlobalLexical> {
        if self.lexical.is_empty() {
            return None;
        }
        self.lexical.get(&key).copied()
    }

    /// Marks the names and the environments.
    pub(crate) fn trace(&self, heap: &mut Heap) {
        for (k, b) in &self.lexical {
            heap.mark_value(k.value());
            heap.mark(b.env);
        }
    }
}

/// One entry of `declareGlobals`' list.
#[derive(Clone, Copy, PartialEq, Eq)]
enum DeclKind {
    Let,
    Const,
    Function,
    Var,
    AnnexBVar,
}

impl Runtime {
    /// The current realm's global lexical binding of `key`.
    #[inline]
    pub(crate) fn global_lexical(&self, key: Key) -> Option<GlobalLexical> {
        match key {
            Key::Name(k) => self.realm().globals.lexical(k),
            Key::Index(_) => None,
        }
    }

    /// Reads global lexical binding `b` (named `key`): a ReferenceError in its TDZ.
    pub(crate) fn read_global_lexical(&mut self, b: GlobalLexical, key: Key) -> JsResult<Value> {
        let v = self.heap.env_slots(b.env).get(b.slot as usize).copied().unwrap_or(Value::EMPTY);
        if v.is_empty() {
            let n = self.key_display(key);
            return Err(self.throw_reference_error(&format!("Cannot access '{n}' before initialization")));
        }
        Ok(v)
    }

    /// Assigns `v` to global lexical binding `b` (named `key`): a ReferenceError in its TDZ,
    /// a TypeError if it is a constant.
    pub(crate) fn write_global_lexical(&mut self, b: GlobalLexical, key: Key, v: Value) -> JsResult<()> {
        self.read_global_lexical(b, key)?;
        if b.constant {
            return Err(self.throw_type_error("Assignment to constant variable."));
        }
        if let Some(slot) = self.heap.env_slots_mut(b.env).get_mut(b.slot as usize) {
            *slot = v;
        }
        Ok(())
    }

    /// `declareGlobals(env, decls)`: 16.1.7 GlobalDeclarationInstantiation for a script (or
    /// the global part of 19.2.1.3 EvalDeclarationInstantiation for eval code, which lists
    /// no lexical declarations). Every check runs before anything is declared; then the
    /// lexical bindings are recorded (the functions and vars are created by
    /// `declareGlobalFunction` and `declareGlobalVar`, which follow).
    pub(crate) fn declare_globals(&mut self, env: Value, decls: Value) -> JsResult<()> {
        let text = self.string_to_rust(decls);
        let mut entries = Vec::new();
        for item in text.split(' ').filter(|s| !s.is_empty()) {
            let mut chars = item.chars();
            let kind = match chars.next() {
                Some('l') => DeclKind::Let,
                Some('c') => DeclKind::Const,
                Some('f') => DeclKind::Function,
                Some('v') => DeclKind::Var,
                Some('b') => DeclKind::AnnexBVar,
                _ => return Err(self.throw_type_error("internal error: bad global declaration list")),
            };
            let key = self.key(chars.as_str());
            entries.push((kind, key));
        }
        let is_lexical = |k: DeclKind| matches!(k, DeclKind::Let | DeclKind::Const);
        let g = self.global_object();
        // Lexical declarations may not redeclare a lexical declaration or a non-configurable
        // property of the global object (`undefined`, a script's `var`; a var of eval code
        // is configurable and may be shadowed).
        for &(_, key) in entries.iter().filter(|e| is_lexical(e.0)) {
            let declared = self.global_lexical(key).is_some();
            let restricted = !declared && self.get_own_property(g, key)?.is_some_and(|d| d.configurable == Some(false));
            if declared || restricted {
                let n = self.key_display(key);
                return Err(self.throw_syntax_error(&format!("Identifier '{n}' has already been declared")));
            }
        }
        // Vars and functions may not redeclare a lexical declaration.
        for &(_, key) in entries.iter().filter(|e| matches!(e.0, DeclKind::Function | DeclKind::Var)) {
            if self.global_lexical(key).is_some() {
                let n = self.key_display(key);
                return Err(self.throw_syntax_error(&format!("Identifier '{n}' has already been declared")));
            }
        }
        // The global object must be able to take the functions and vars.
        let extensible = self.is_extensible(g)?;
        for &(_, key) in entries.iter().rev().filter(|e| e.0 == DeclKind::Function) {
            let ok = match self.get_own_property(g, key)? {
                None => extensible,
                Some(d) if d.configurable == Some(true) => true,
                Some(d) => d.is_data() && d.writable == Some(true) && d.enumerable == Some(true),
            };
            if !ok {
                let n = self.key_display(key);
                return Err(self.throw_type_error(&format!("Cannot declare global function '{n}'")));
            }
        }
        for &(_, key) in entries.iter().filter(|e| e.0 == DeclKind::Var) {
            if !extensible && !self.has_own_property(g, key)? {
                let n = self.key_display(key);
                return Err(self.throw_type_error(&format!("Cannot declare global variable '{n}'")));
            }
        }
        // The lexical bindings, in the order of their slots.
        let lexical: Vec<(DeclKind, Key)> = entries.iter().copied().filter(|e| is_lexical(e.0)).collect();
        if !lexical.is_empty() {
            let env = match env.is_cell() && self.heap.kind_of(env.gc::<Environment>()) == CellKind::Environment {
                true => env.gc::<Environment>(),
                false => return Err(self.throw_type_error("internal error: bad global declaration environment")),
            };
            if lexical.len() > self.heap.env_slots(env).len() {
                return Err(self.throw_type_error("internal error: bad global declaration environment"));
            }
            for (slot, &(kind, key)) in lexical.iter().enumerate() {
                if let Key::Name(k) = key {
                    let b = GlobalLexical { env, slot: slot as u32, constant: kind == DeclKind::Const };
                    self.realm_mut().globals.lexical.insert(k, b);
                }
            }
            self.reshape_global_object();
        }
        Ok(())
    }

    /// Gives the global object a fresh shape, so that no inline cache entry or compiled
    /// code made for its old shape applies any more.
    fn reshape_global_object(&mut self) {
        let g = self.global_object();
        let old = self.heap.get(g).shape;
        let fresh = self.heap.get(old).to_dictionary();
        let shape = self.alloc_shape(fresh);
        self.heap.get_mut(g).shape = shape;
        self.dictionary_changed(old);
    }
}
