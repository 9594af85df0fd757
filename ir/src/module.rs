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
