//! dce: deletes instructions whose results nobody needs and whose effects allow deletion.
//!
//! Liveness is computed by marking, not by counting uses, so cycles of phis (and of pure
//! instructions feeding each other around loops) that nothing else uses are deleted too. The
//! roots are the instructions `Function::effects` says are not removable (they write, throw,
//! run JavaScript, do IO or end a block) and the instructions that must open their block
//! (`catch`, `start_generator`, `resume_generator`: the block's meaning depends on them);
//! phis are the exception, as they are only SSA bookkeeping.
//!
//! Assumes: verified IR; effects refined by types (run after type_infer for more deletions).
//! Invalidates: nothing.
//!
//! ```text
//! before: %1 = binary_op "+" %0, 1 : number   (%0 : number, %1 unused)   return %0
//! after:  return %0
//! ```

use hashbrown::HashSet;

use crate::effects::Effects;
use crate::function::{Function, ValueDef};
use crate::inst::Opcode;
use crate::passes::util::remove_insts;
use crate::passes::{Changed, PassCx};
use crate::Inst;

/// Runs the pass.
pub fn run(func: &mut Function, cx: &mut PassCx) -> Changed {
    let order: Vec<Inst> = func.inst_order().collect();
    let mut live: HashSet<Inst> = HashSet::new();
    let mut work: Vec<Inst> = Vec::new();
    for &i in &order {
        let effects = func.effects(i);
        let structural = effects.has(Effects::FIRST_IN_BLOCK) && func.insts[i].opcode != Opcode::Phi;
        if !effects.is_removable() || structural {
            live.insert(i);
            work.push(i);
        }
    }
    while let Some(i) = work.pop() {
        for &a in &func.insts[i].args {
            if let ValueDef::Inst(def) = func.values[a].def {
                if live.insert(def) {
                    work.push(def);
                }
            }
        }
    }
    let dead: HashSet<Inst> = order.into_iter().filter(|i| !live.contains(i)).collect();
    remove_insts(func, &dead);
    cx.count("removed", dead.len() as u64);
    Changed(!dead.is_empty())
}

#[cfg(test)]
mod tests {
    use crate::passes::test_util::check;

    #[test]
    fn removes_unused_pure_instructions_and_keeps_effects() {
        check(
            "dce",
            "%BB0:\n  %0 = load_param #1 : any\n  %1 = as_number %0 : number\n  %2 = binary_op \"+\" %1, 1 : number\n  \
             %3 = binary_op \"+\" %0, 1 : string|number|bigint\n  %4 = alloc_object : object\n  return %1\n",
            "%BB0:\n  %0 = load_param #1 : any\n  %1 = as_number %0 : number\n  %2 = binary_op \"+\" %0, 1 : string|number|bigint\n  return %1\n",
        );
    }

    #[test]
    fn removes_dead_phi_cycles() {
        check(
            "dce",
            "%BB0:\n  %0 = load_param #1 : any\n  branch %BB1\n%BB1:\n  %1 = phi [0, %BB0], [%2, %BB1] : number\n  \
             %2 = binary_op \"+\" %1, 1 : number\n  %3 = call %0, undefined : any\n  cond_branch %3, %BB1, %BB2\n%BB2:\n  return undefined\n",
            "%BB0:\n  %0 = load_param #1 : any\n  branch %BB1\n%BB1:\n  %1 = call %0, undefined : any\n  cond_branch %1, %BB1, %BB2\n\
             %BB2:\n  return undefined\n",
        );
    }

    #[test]
    fn keeps_catch_and_throwing_checks() {
        let body =
            "%BB0:\n  %0 = alloc_stack \"x\" : any|empty\n  %1 = load_stack %0 : any|empty\n  try_start %BB1, %BB2\n\
                    %BB1:\n  %2 = throw_if_empty \"x\" %1 : any\n  try_end %BB3\n\
                    %BB2:\n  %3 = catch : any\n  branch %BB3\n%BB3:\n  return undefined\n";
        check("dce", body, body);
    }
}
