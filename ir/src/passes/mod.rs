//! The HIR optimizer: function passes, the registry naming them, and the pipelines.
//!
//! ```text
//!  IRGen ─▶ HIR ─▶ pipeline::o() ─────────────────────────────────────────▶ backend
//!                  simplify_cfg, mem2reg,
//!                  fixed point { type_infer, sccp, inst_simplify, frame_load_elim,
//!                                simplify_cfg, dce }
//! ```
//!
//! A pass is `pub fn run(func: &mut Function, cx: &mut PassCx) -> Changed`. It may read the
//! rest of the module (scopes, other functions, atoms) and intern new strings through `cx`.
//! Every pass is named once, in `PASSES`; its id is its CLI name
//! (`iris dump --ir-opt --pass <id>`) and the prefix of its statistics keys.

pub mod const_fold;
pub mod dce;
pub mod frame_load_elim;
pub mod inst_simplify;
pub mod js;
pub mod manager;
pub mod mem2reg;
pub mod pipeline;
pub mod sccp;
pub mod simplify_cfg;
pub mod type_infer;
pub mod util;

use std::collections::BTreeMap;

use crate::function::{Function, FunctionKind};
use crate::module::{Atom, FuncId, Module};

pub use manager::{run_pass_by_name, run_pipeline, run_pipeline_with_stats, run_steps, Step};

/// Whether a pass changed the function.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Changed(pub bool);

impl Changed {
    /// Nothing changed.
    pub const NO: Changed = Changed(false);
    /// Something changed.
    pub const YES: Changed = Changed(true);
    /// Whether something changed.
    pub fn any(self) -> bool {
        self.0
    }
}

impl std::ops::BitOr for Changed {
    type Output = Changed;
    fn bitor(self, rhs: Changed) -> Changed {
        Changed(self.0 || rhs.0)
    }
}

impl std::ops::BitOrAssign for Changed {
    fn bitor_assign(&mut self, rhs: Changed) {
        self.0 |= rhs.0;
    }
}

impl From<bool> for Changed {
    fn from(b: bool) -> Changed {
        Changed(b)
    }
}

/// The optimization level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OptLevel {
    /// No optimization: the IR goes to the backend as IRGen made it.
    O0,
    /// The full pipeline.
    #[default]
    O,
}

/// Counters kept while passes run, keyed `"<pass id>.<counter>"`.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Counter values.
    pub counters: BTreeMap<String, u64>,
}

impl Stats {
    /// Adds `n` to counter `key`.
    pub fn add(&mut self, key: &str, n: u64) {
        *self.counters.entry(key.to_string()).or_insert(0) += n;
    }
    /// The value of counter `key` (0 if never counted).
    pub fn get(&self, key: &str) -> u64 {
        self.counters.get(key).copied().unwrap_or(0)
    }
}

/// What a pass may see and change besides its function.
///
/// While a pass runs, its function is taken out of `module.functions` (the slot holds an
/// empty placeholder), so the pass owns it mutably and can still read the rest of the module.
pub struct PassCx<'m> {
    /// The module, without the function being transformed.
    pub module: &'m mut Module,
    /// The id of the function being transformed.
    pub func_id: FuncId,
    /// Statistics.
    pub stats: &'m mut Stats,
    /// The id of the running pass (the prefix of its counters).
    pub pass: &'static str,
}

impl PassCx<'_> {
    /// Interns a string given as UTF-16 code units.
    pub fn atom_utf16(&mut self, units: &[u16]) -> Atom {
        self.module.atom_utf16(units)
    }
    /// The code units of `atom`.
    pub fn atom_units(&self, atom: Atom) -> &[u16] {
        self.module.atom_units(atom)
    }
    /// Adds `n` to this pass's counter `name`.
    pub fn count(&mut self, name: &str, n: u64) {
        if n > 0 {
            self.stats.add(&format!("{}.{name}", self.pass), n);
        }
    }
    /// The kind of function `id` (the function being transformed reports its own kind
    /// through the `Function` the pass holds, not here).
    pub fn function_kind(&self, id: FuncId) -> Option<FunctionKind> {
        self.module.functions.get(id).map(|f| f.kind)
    }
}

/// A registry row.
#[derive(Clone, Copy)]
pub struct PassInfo {
    /// The id: CLI name and statistics key.
    pub id: &'static str,
    /// One line saying what it does.
    pub summary: &'static str,
    /// The pass.
    pub run: fn(&mut Function, &mut PassCx) -> Changed,
}

macro_rules! pass_registry {
    ($($id:ident : $summary:literal,)*) => {
        /// Every pass, by id.
        pub const PASSES: &[PassInfo] = &[$(PassInfo { id: stringify!($id), summary: $summary, run: $id::run }),*];
        /// The ids of every pass, in registry order.
        pub const PASS_NAMES: &[&str] = &[$(stringify!($id)),*];
    };
}

pass_registry! {
    mem2reg: "promote alloc_stack slots to SSA values with phis",
    simplify_cfg: "fold constant branches, remove unreachable blocks, merge and thread blocks",
    dce: "delete unused instructions whose effects allow it",
    const_fold: "evaluate operators and conversions on literals with ECMAScript semantics",
    inst_simplify: "simplify instructions using operand types and identities",
    type_infer: "compute result types to a fixed point over the SSA graph",
    sccp: "sparse conditional constant propagation: constants through phis and constant branches",
    frame_load_elim: "forward stores and earlier loads to later loads of the same slot or variable in a block",
}

/// The registry row of pass `id`.
pub fn pass_info(id: &str) -> Option<&'static PassInfo> {
    PASSES.iter().find(|p| p.id == id)
}

#[cfg(test)]
pub(crate) mod test_util {
    //! Helpers for pass tests: parse a function, run a pass, compare dumps.
    use super::*;
    use crate::dump::dump_module;
    use crate::parse::parse_module;
    use crate::verify::{render_errors, verify_module};

    /// The header of a one-function test module.
    pub const HEAD: &str = "module \"t.js\"\n\nfunction @0 \"t\"() kind=function strict parent=none length=0\n";

    /// Parses `HEAD + body`, runs `pass` on every function (verifying before and after) and
    /// returns the new body text (after the header) and whether it changed.
    pub fn run_on(pass: &str, body: &str) -> (String, bool) {
        let text = format!("{HEAD}{body}");
        let (out, changed) = run_module(pass, &text);
        (out.strip_prefix(HEAD).unwrap_or_else(|| panic!("header changed:\n{out}")).to_string(), changed)
    }

    /// Runs `pass` on a whole module text; returns the dump and whether it changed.
    pub fn run_module(pass: &str, text: &str) -> (String, bool) {
        let mut m = parse_module(text).unwrap_or_else(|e| panic!("{e}"));
        if let Err(es) = verify_module(&m) {
            panic!("input does not verify:\n{}", render_errors(&es));
        }
        let changed = run_pass_by_name(&mut m, pass).unwrap_or_else(|e| panic!("{e}"));
        let out = dump_module(&m);
        if let Err(es) = verify_module(&m) {
            panic!("output does not verify:\n{}\n{out}", render_errors(&es));
        }
        (out, changed.any())
    }

    /// Asserts that `pass` turns `before` into `after` (function bodies after `HEAD`).
    #[track_caller]
    pub fn check(pass: &str, before: &str, after: &str) {
        let (out, changed) = run_on(pass, before);
        assert_eq!(out, after, "\n--- got ---\n{out}\n--- want ---\n{after}");
        assert_eq!(changed, before != after, "the Changed flag is wrong");
    }
}
