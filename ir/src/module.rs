//! A module: every function of one compilation unit, their scopes and the interned strings.
//!
//! ```text
//! Module
//!  ├─ atoms      interned JavaScript strings (UTF-16), named by Atom
//!  ├─ scopes     variable scopes (one per function body or block that captures), by ScopeId
//!  └─ functions  by FuncId; `top_level` is the script's global code
//! ```

use indexmap::IndexSet;

use crate::entity::EntityMap;
use crate::function::Function;

crate::entity!(
    /// An interned JavaScript string of a module.
    Atom,
    "atom"
);
crate::entity!(
    /// A function of a module.
    FuncId,
    "func"
);
crate::entity!(
    /// A variable scope of a module.
    ScopeId,
    "scope"
);

/// A variable of a heap scope: the scope and the slot index within it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Var {
    /// The scope that declares it.
    pub scope: ScopeId,
    /// Its slot in that scope's environments.
    pub index: u32,
}

/// How a variable was declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VarKind {
    /// `var`, a parameter or a function declaration.
    Var,
    /// `let` or a class declaration.
    Let,
    /// `const`.
    Const,
    /// Internal bookkeeping (the saved `this`, `new.target`, a generator's state, ...).
    Internal,
    /// An import binding of a module: the slot holds a reference to the exporting module's
    /// binding, which `load_import` reads through (see [`ModuleRecord`]).
    Import,
}

/// A variable declared in a heap scope.
#[derive(Clone, Debug)]
pub struct VarData {
    /// Its source name.
    pub name: Atom,
    /// How it was declared.
    pub kind: VarKind,
}

/// A variable scope whose variables live in a heap environment.
#[derive(Clone, Debug)]
pub struct ScopeData {
    /// The enclosing scope, `None` for the global scope.
    pub parent: Option<ScopeId>,
    /// The function whose code creates environments of this scope.
    pub function: FuncId,
    /// The variables, by slot.
    pub vars: Vec<VarData>,
}

/// A module's interned strings: an `Atom` is an index into it.
pub type AtomSet = IndexSet<Vec<u16>>;

/// A compilation unit.
#[derive(Debug, Default)]
pub struct Module {
    /// Interned strings; an `Atom` indexes this set.
    pub atoms: AtomSet,
    /// Variable scopes.
    pub scopes: EntityMap<ScopeId, ScopeData>,
    /// Functions.
    pub functions: EntityMap<FuncId, Function>,
    /// The script's top-level function, once created.
    pub top_level: Option<FuncId>,
    /// The name of the source file, for diagnostics and stack traces.
    pub source_name: String,
    /// The source text, which functions' `source` ranges refer to.
    pub source_text: String,
    /// For module code: its imports and exports (`None` for a script).
    pub module_record: Option<ModuleRecord>,
}

/// What a module imports or re-exports from another: one binding, or its namespace object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImportName {
    /// The export of this name.
    Name(Atom),
    /// The namespace object (`import * as ns`, `export * as ns from`).
    Namespace,
    /// The module source object (`import source x from`; imports only).
    Source,
    /// The deferred namespace object (`import defer * as ns from`; imports only).
    Deferred,
}

/// A module specifier of a module's `import`/`export ... from` and its import attributes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleRequest {
    /// The specifier as written.
    pub specifier: Atom,
    /// `with { key: "value" }`, sorted by key.
    pub attributes: Vec<(Atom, Atom)>,
    /// An `import defer` request: the module is evaluated when its namespace is first used
    /// (its asynchronous dependencies with the importer).
    pub defer: bool,
    /// Where the first declaration naming it is (for "cannot find module" errors).
    pub loc: crate::Loc,
}

/// An import binding: the slot of the module environment that refers to an export of a
/// requested module (ImportEntry of ECMA-262 16.2.1.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImportEntry {
    /// Index into `ModuleRecord::requests`.
    pub request: u32,
    /// What is imported.
    pub name: ImportName,
    /// The slot of the module scope that holds the binding: for a name, the reference
    /// `load_import` reads through; for a namespace, the namespace object itself.
    pub slot: u32,
}

/// An export of a module (ExportEntry of ECMA-262 16.2.1.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportEntry {
    /// A binding of the module scope.
    Local {
        /// The export name.
        name: Atom,
        /// The binding's slot.
        slot: u32,
    },
    /// What another module exports (`export { x as name } from`, `export * as name from`,
    /// or the re-export of an import binding).
    Indirect {
        /// The export name.
        name: Atom,
        /// Index into `ModuleRecord::requests`.
        request: u32,
        /// What is re-exported.
        import: ImportName,
    },
    /// Every export of a requested module but `default` (`export * from`).
    Star {
        /// Index into `ModuleRecord::requests`.
        request: u32,
    },
}

/// The module record of module code: what the runtime links. The module's top-level
/// function creates the module environment (scope `scope`), initializes its function
/// declarations and returns the closure of the module body over it; `import` bindings are
/// filled in by linking, before the body runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleRecord {
    /// The module scope: the environment of every top-level declaration and import.
    pub scope: ScopeId,
    /// The slot of the module scope that holds the module's identity for `import.meta`
    /// and `import()` (the runtime fills it in).
    pub module_slot: u32,
    /// Whether the body uses `await` at its top level (the body is an async function).
    pub has_tla: bool,
    /// The requested modules, in source order, without duplicates.
    pub requests: Vec<ModuleRequest>,
    /// The import bindings.
    pub imports: Vec<ImportEntry>,
    /// The exports, in source order.
    pub exports: Vec<ExportEntry>,
}

impl Module {
    /// An empty module for source file `source_name`.
    pub fn new(source_name: impl Into<String>) -> Module {
        Module { source_name: source_name.into(), ..Module::default() }
    }

    /// Interns a string given as UTF-16 code units.
    pub fn atom_utf16(&mut self, units: &[u16]) -> Atom {
        if let Some(i) = self.atoms.get_index_of(units) {
            return Atom(i as u32);
        }
        Atom(self.atoms.insert_full(units.to_vec()).0 as u32)
    }

    /// Interns a Rust string.
    pub fn atom(&mut self, text: &str) -> Atom {
        let units: Vec<u16> = text.encode_utf16().collect();
        self.atom_utf16(&units)
    }

    /// The code units of `atom`.
    pub fn atom_units(&self, atom: Atom) -> &[u16] {
        &self.atoms[atom.0 as usize]
    }

    /// `atom` as a Rust string, lone surrogates replaced by U+FFFD.
    pub fn atom_str(&self, atom: Atom) -> String {
        String::from_utf16_lossy(self.atom_units(atom))
    }

    /// The text of `range` of the source text (empty if it is not a range of it).
    pub fn source_slice(&self, range: crate::TextRange) -> &str {
        self.source_text.get(range.start as usize..range.end as usize).unwrap_or("")
    }

    /// Appends `text` to the source text; returns its range.
    pub fn add_source_text(&mut self, text: &str) -> crate::TextRange {
        let start = self.source_text.len() as u32;
        self.source_text.push_str(text);
        crate::TextRange { start, end: self.source_text.len() as u32 }
    }

    /// Creates a scope.
    pub fn add_scope(&mut self, parent: Option<ScopeId>, function: FuncId) -> ScopeId {
        self.scopes.push(ScopeData { parent, function, vars: Vec::new() })
    }

    /// Declares a variable in `scope` and returns it.
    pub fn add_var(&mut self, scope: ScopeId, name: Atom, kind: VarKind) -> Var {
        let vars = &mut self.scopes[scope].vars;
        vars.push(VarData { name, kind });
        Var { scope, index: (vars.len() - 1) as u32 }
    }

    /// Declares a variable in slot `slot` of `scope` (a scope of environments made
    /// elsewhere, described to the compiler), the slots before it unnamed if they are new.
    pub fn add_var_at(&mut self, scope: ScopeId, slot: u32, name: Atom, kind: VarKind) -> Var {
        let unnamed = VarData { name: self.atom(""), kind: VarKind::Internal };
        let vars = &mut self.scopes[scope].vars;
        if vars.len() <= slot as usize {
            vars.resize(slot as usize + 1, unnamed);
        }
        vars[slot as usize] = VarData { name, kind };
        Var { scope, index: slot }
    }

    /// Adds a function and returns its id.
    pub fn add_function(&mut self, function: Function) -> FuncId {
        self.functions.push(function)
    }

    /// How many parents up from `from` scope `to` is, if it is an ancestor (or itself).
    pub fn scope_distance(&self, from: ScopeId, to: ScopeId) -> Option<u32> {
        let mut cur = Some(from);
        let mut n = 0;
        while let Some(s) = cur {
            if s == to {
                return Some(n);
            }
            cur = self.scopes[s].parent;
            n += 1;
        }
        None
    }
}
