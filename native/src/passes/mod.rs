//! Passes over MIR and the pass manager that runs them by name.
//!
//! Every pass asks an instruction's effects (`mir::effects`) what it may do and never keeps
//! its own list of opcodes. After each pass the manager runs the verifier in debug builds
//! (and always when asked), so a pass that breaks SSA or types is caught where it did.

mod checks;
mod dce;
mod fold;
mod gvn;
mod layout;
mod licm;
mod params;
mod repr;

use std::collections::HashMap;

use crate::mir::verify::{verify, VerifyError};
use crate::mir::{Block, ExitId, ExitValue, Function, Inst, Op, Val};

/// A pass: its name (`iris mir --pass NAME`), what it does, and the function that runs it,
/// which reports whether it changed anything.
pub struct Pass {
    pub name: &'static str,
    pub about: &'static str,
    pub run: fn(&mut Function) -> bool,
}

/// Every pass (`PIPELINE` is the order the JIT runs them in).
pub const PASSES: &[Pass] = &[
    Pass {
        name: "params",
        about: "block parameters every edge passes the same value (or itself) become that value",
        run: params::run,
    },
    Pass { name: "fold", about: "constant folding and algebraic simplification", run: fold::run },
    Pass {
        name: "repr",
        about: "numbers passed between blocks unboxed (i32 or f64) instead of as values",
        run: repr::run,
    },
    Pass {
        name: "gvn",
        about: "global value numbering of pure operations and checks; loads within a block",
        run: gvn::run,
    },
    Pass {
        name: "checks",
        about: "checks and overflow checks that ranges and dominating conditions prove never fail",
        run: checks::run,
    },
    Pass {
        name: "licm",
        about: "loop-invariant pure operations, and loads and guards of the loop header, to the preheader",
        run: licm::run,
    },
    Pass { name: "dce", about: "dead instructions and unreachable blocks", run: dce::run },
    Pass {
        name: "layout",
        about: "blocks in reverse postorder, those that only leave compiled code last",
        run: layout::run,
    },
];

/// The default pipeline: `params` and `fold` again where `fold` turned branches into
/// jumps (blocks left with one edge) and `repr` boxed numbers that other uses test.
pub const PIPELINE: &[&str] =
    &["params", "fold", "repr", "fold", "params", "fold", "gvn", "checks", "licm", "dce", "layout"];

/// The pass named `name`.
pub fn pass(name: &str) -> Option<&'static Pass> {
    PASSES.iter().find(|p| p.name == name)
}

/// Runs `names` in order (the default pipeline when `names` is empty), verifying after each
/// when `verify_each` (or in debug builds).
pub fn run(f: &mut Function, names: &[&str], verify_each: bool) -> Result<(), String> {
    let names = if names.is_empty() { PIPELINE } else { names };
    let selected: Vec<&Pass> = {
        let mut v = Vec::new();
        for n in names {
            match pass(n) {
                Some(p) => v.push(p),
                None => {
                    let known: Vec<&str> = PASSES.iter().map(|p| p.name).collect();
                    return Err(format!("unknown pass '{n}' (passes: {})", known.join(", ")));
                }
            }
        }
        v
    };
    for p in selected {
        (p.run)(f);
        if verify_each || cfg!(debug_assertions) {
            verify(f).map_err(|errors| after_pass(p.name, &errors))?;
        }
    }
    Ok(())
}

fn after_pass(name: &str, errors: &[VerifyError]) -> String {
    let mut out = format!("the MIR is invalid after pass '{name}':");
    for e in errors {
        out.push_str("\n  ");
        out.push_str(&e.to_string());
    }
    out
}

/// The value `v` stands for after the replacements in `replace` (followed to the end).
fn resolve(replace: &HashMap<Val, Val>, mut v: Val) -> Val {
    while let Some(&r) = replace.get(&v) {
        v = r;
    }
    v
}

/// A copy of loop header `header`'s exit `resume` for the end of `pred`, which jumps to it:
/// the values that jump passes in place of the header's parameters. (Passes that move a
/// check onto the way into a loop leave through it: the interpreter runs the loop.)
fn resume_exit_for(f: &mut Function, header: Block, pred: Block, resume: ExitId) -> ExitId {
    let Some(Inst { op: Op::Jump(_, args), .. }) = f.block(pred).insts.last() else {
        unreachable!("the way into a loop is a jump")
    };
    let params = &f.block(header).params;
    let mut state = f.exits[resume.0 as usize].clone();
    for (_, v) in &mut state.regs {
        if let ExitValue::Val(x) = v {
            if let Some(k) = params.iter().position(|p| p == x) {
                *x = args[k];
            }
        }
    }
    f.add_exit(state)
}

/// Rewrites every use in `f` (operands and exit states) through `replace`, and renumbers
/// the definitions.
fn replace_uses(f: &mut Function, replace: &HashMap<Val, Val>) {
    if !replace.is_empty() {
        for &b in &f.layout {
            for inst in &mut f.blocks[b.0 as usize].insts {
                inst.op.map_args(|v| resolve(replace, v));
            }
        }
        for state in &mut f.exits {
            for (_, v) in &mut state.regs {
                if let ExitValue::Val(x) = v {
                    *x = resolve(replace, *x);
                }
            }
        }
    }
    f.recompute_defs();
}

#[cfg(test)]
mod tests;
