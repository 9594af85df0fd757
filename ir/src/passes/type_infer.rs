//! type_infer: computes the type of every instruction result to a fixed point over the SSA
//! graph, so later passes and the backend can rely on them (typed opcodes, pure arithmetic).
//!
//! Optimistic forward propagation: results start at `none` and only grow; an instruction with
//! a `none` operand (not computed yet) stays `none`; a phi is the union of its inputs;
//! everything else is `Function::result_type` of its operand types (for `fixed` rows, the
//! row's type or a narrower one the operands allow: `as_numeric` of a number is a number). A stack slot
//! (`alloc_stack`) holds the union of what is stored into it, plus `undefined` (an unwritten
//! slot reads undefined) and `boolean` if `resume_generator` writes it; `load_stack` gives the
//! slot's type. Types only grow and the lattice is finite, so the iteration ends. Results in
//! unreachable blocks stay `none`. Literals keep their types.
//!
//! Assumes: verified IR. Invalidates: nothing (narrows types).
//!
//! ```text
//! before: %1 = phi [0, %BB0], [%2, %BB2] : any      %2 = binary_op "+" %1, 1 : any
//! after:  %1 = phi [0, %BB0], [%2, %BB2] : number   %2 = binary_op "+" %1, 1 : number
//! ```

use hashbrown::HashMap;

use crate::cfg::Cfg;
use crate::function::Function;
use crate::inst::Opcode;
use crate::passes::{Changed, PassCx};
use crate::types::Type;
use crate::{Inst, Value};

/// Runs the pass.
pub fn run(func: &mut Function, cx: &mut PassCx) -> Changed {
    let cfg = Cfg::new(func);
    let order: Vec<Inst> = cfg.rpo().iter().flat_map(|&b| func.blocks[b].insts.clone()).collect();
    let before: HashMap<Value, Type> =
        func.inst_order().filter_map(|i| func.insts[i].result).map(|r| (r, func.ty(r))).collect();

    // Optimistic start.
    for i in func.inst_order().collect::<Vec<_>>() {
        let data = &func.insts[i];
        let Some(r) = data.result else { continue };
        func.values[r].ty = if data.opcode == Opcode::AllocStack { Type::UNDEFINED } else { Type::NONE };
    }

    let mut rounds = 0u64;
    loop {
        rounds += 1;
        let mut changed = false;
        for &i in &order {
            let data = &func.insts[i];
            match data.opcode {
                Opcode::StoreStack => {
                    let (v, slot) = (data.args[0], data.args[1]);
                    changed |= widen(func, slot, func.ty(v));
                    continue;
                }
                Opcode::ResumeGenerator => {
                    changed |= widen(func, data.args[0], Type::BOOLEAN);
                    continue;
                }
                Opcode::AllocStack => continue,
                _ => {}
            }
            let Some(r) = data.result else { continue };
            let unknown_operand = data.opcode != Opcode::Phi && data.args.iter().any(|&a| func.ty(a).is_none());
            if unknown_operand {
                continue;
            }
            let ty = func.result_type(i);
            changed |= widen(func, r, ty);
        }
        if !changed {
            break;
        }
    }
    cx.count("rounds", rounds);

    let mut changed = Changed::NO;
    for (r, old) in before {
        if func.ty(r) != old {
            changed = Changed::YES;
            cx.count("narrowed", u64::from(func.ty(r).is_subset_of(old)));
        }
    }
    changed
}

/// `ty(v) |= t`; whether it grew.
fn widen(func: &mut Function, v: Value, t: Type) -> bool {
    let old = func.ty(v);
    let new = old.union(t);
    func.values[v].ty = new;
    new != old
}

#[cfg(test)]
mod tests {
    use crate::passes::test_util::check;

    #[test]
    fn loop_counter_is_a_number() {
        check(
            "type_infer",
            "%BB0:\n  %0 = load_param #1 : any\n  branch %BB1\n\
             %BB1:\n  %1 = phi [0, %BB0], [%3, %BB2] : any\n  %2 = binary_op \"<\" %1, %0 : any\n  cond_branch %2, %BB2, %BB3\n\
             %BB2:\n  %3 = binary_op \"+\" %1, 1 : any\n  branch %BB1\n%BB3:\n  return %1\n",
            "%BB0:\n  %0 = load_param #1 : any\n  branch %BB1\n\
             %BB1:\n  %1 = phi [0, %BB0], [%3, %BB2] : number\n  %2 = binary_op \"<\" %1, %0 : boolean\n  cond_branch %2, %BB2, %BB3\n\
             %BB2:\n  %3 = binary_op \"+\" %1, 1 : number\n  branch %BB1\n%BB3:\n  return %1\n",
        );
    }

    #[test]
    fn string_concat_in_a_loop_widens() {
        check(
            "type_infer",
            "%BB0:\n  %0 = load_param #1 : any\n  branch %BB1\n\
             %BB1:\n  %1 = phi [0, %BB0], [%2, %BB1] : any\n  %2 = binary_op \"+\" %1, \"a\" : any\n  cond_branch %0, %BB1, %BB2\n\
             %BB2:\n  return %1\n",
            "%BB0:\n  %0 = load_param #1 : any\n  branch %BB1\n\
             %BB1:\n  %1 = phi [0, %BB0], [%2, %BB1] : string|number\n  %2 = binary_op \"+\" %1, \"a\" : string\n  cond_branch %0, %BB1, %BB2\n\
             %BB2:\n  return %1\n",
        );
    }

    #[test]
    fn slots_hold_what_is_stored() {
        check(
            "type_infer",
            "%BB0:\n  %0 = alloc_stack \"x\" : any|empty\n  store_stack empty, %0\n  store_stack 1, %0\n  %1 = load_stack %0 : any|empty\n  \
             %2 = throw_if_empty \"x\" %1 : any\n  return %2\n",
            "%BB0:\n  %0 = alloc_stack \"x\" : undefined|number|empty\n  store_stack empty, %0\n  store_stack 1, %0\n  \
             %1 = load_stack %0 : undefined|number|empty\n  %2 = throw_if_empty \"x\" %1 : undefined|number\n  return %2\n",
        );
    }

    #[test]
    fn unreachable_results_have_no_type() {
        check(
            "type_infer",
            "%BB0:\n  return 1\n%BB1:\n  %0 = binary_op \"+\" 1, 2 : number\n  return %0\n",
            "%BB0:\n  return 1\n%BB1:\n  %0 = binary_op \"+\" 1, 2 : none\n  return %0\n",
        );
    }
}
