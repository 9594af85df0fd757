//! simplify_cfg: cleans up the control-flow graph, repeating until nothing applies:
//! - a `cond_branch` on a value whose truthiness is known (a literal, or a type that is always
//!   truthy or always falsy) becomes a `branch`; so does one with both targets the same;
//! - blocks unreachable from the entry are removed, with their entries in successors' phis;
//! - a block whose only successor has it as only predecessor absorbs that successor
//!   (single-entry phis there are replaced by their value);
//! - a block holding only `branch T` is threaded: its predecessors jump to `T` directly, when
//!   `T`'s phis can take the new edges without conflict;
//! - phis left with a single entry are replaced by their value.
//!
//! Assumes: verified IR. Invalidates: CFG, dominator tree, try regions (their nesting is kept).
//!
//! ```text
//! before: cond_branch true, %BB1, %BB2   %BB1: branch %BB3   %BB2: ...   %BB3: return 1
//! after:  return 1
//! ```

use hashbrown::{HashMap, HashSet};

use crate::cfg::Cfg;
use crate::effects::Effects;
use crate::function::Function;
use crate::inst::{Imm, Opcode};
use crate::passes::util::{
    apply_replacements, phi_value_from, phis, remove_blocks, remove_insts, remove_phi_entries, rename_phi_pred,
};
use crate::passes::{js, Changed, PassCx};
use crate::types::Type;
use crate::{Block, Inst, Value};

/// Rounds of the local rewrites after which the pass stops and reports a bug. Every round
/// that changes something removes a block, a conditional branch or a phi, so real functions
/// never get near it.
const MAX_ROUNDS: usize = 100_000;

/// Runs the pass.
pub fn run(func: &mut Function, cx: &mut PassCx) -> Changed {
    let mut changed = Changed::NO;
    for _ in 0..MAX_ROUNDS {
        let round = fold_branches(func, cx)
            | remove_unreachable(func, cx)
            | merge_blocks(func, cx)
            | thread_empty_blocks(func, cx)
            | single_entry_phis(func);
        if !round.any() {
            return changed;
        }
        changed |= round;
    }
    debug_assert!(false, "simplify_cfg did not settle after {MAX_ROUNDS} rounds");
    cx.count("round_cap_hit", 1);
    changed
}

/// The truthiness of `v`, if known statically.
pub fn known_truthiness(func: &Function, cx: &PassCx, v: Value) -> Option<bool> {
    if let Some(p) = crate::passes::const_fold::literal_prim(func, cx, v) {
        return Some(js::to_boolean(&p));
    }
    let ty = func.ty(v);
    if ty.is_none() {
        return None;
    }
    if ty.is_subset_of(Type::OBJECT) && ty != Type::OBJECT {
        // Objects are truthy, except host objects like test262's IsHTMLDDA (document.all).
        // Those only ever have the full `anyobject` type: a narrower object type comes from
        // instructions that make fresh ordinary objects.
        return Some(true);
    }
    if ty.is_subset_of(Type::NULLISH) {
        return Some(false);
    }
    None
}

fn fold_branches(func: &mut Function, cx: &mut PassCx) -> Changed {
    let mut changed = Changed::NO;
    for b in func.layout.clone() {
        let Some(term) = func.terminator(b) else { continue };
        let data = &func.insts[term];
        if data.opcode != Opcode::CondBranch {
            continue;
        }
        let (then, other) = (data.targets[0], data.targets[1]);
        let (keep, drop) = if then == other {
            (then, None)
        } else {
            match known_truthiness(func, cx, data.args[0]) {
                Some(true) => (then, Some(other)),
                Some(false) => (other, Some(then)),
                None => continue,
            }
        };
        let loc = data.loc;
        func.remove_inst(term);
        let br = func.make_inst(Opcode::Branch, Vec::new(), vec![keep], Imm::None, loc);
        func.append_inst(b, br);
        if let Some(d) = drop {
            remove_phi_entries(func, d, b);
        }
        cx.count("branches_folded", 1);
        changed = Changed::YES;
    }
    changed
}

fn remove_unreachable(func: &mut Function, cx: &mut PassCx) -> Changed {
    let cfg = Cfg::new(func);
    let dead: HashSet<Block> = func.layout.iter().copied().filter(|&b| !cfg.is_reachable(b)).collect();
    if dead.is_empty() {
        return Changed::NO;
    }
    for &d in &dead {
        for &s in cfg.succs(d) {
            if !dead.contains(&s) {
                remove_phi_entries(func, s, d);
            }
        }
    }
    remove_blocks(func, &dead);
    cx.count("blocks_removed", dead.len() as u64);
    Changed::YES
}

/// Merges chains of blocks joined by an unconditional branch to a block with no other
/// predecessor. One CFG snapshot serves the whole sweep: merging only renames the
/// predecessor of the absorbed block's successors, which `merged_into` tracks.
fn merge_blocks(func: &mut Function, cx: &mut PassCx) -> Changed {
    let cfg = Cfg::new(func);
    let entry = func.entry();
    let mut merged_into: HashMap<Block, Block> = HashMap::new();
    let mut removed: HashSet<Block> = HashSet::new();
    let mut replace: HashMap<Value, Value> = HashMap::new();
    let mut dead_phis: HashSet<Inst> = HashSet::new();
    let resolve = |merged_into: &HashMap<Block, Block>, mut b: Block| {
        while let Some(&n) = merged_into.get(&b) {
            b = n;
        }
        b
    };
    for b in func.layout.clone() {
        if removed.contains(&b) {
            continue;
        }
        while let Some(term) = func.terminator(b) {
            if func.insts[term].opcode != Opcode::Branch {
                break;
            }
            let s = func.insts[term].targets[0];
            let preds = cfg.preds(s);
            if s == b || s == entry || removed.contains(&s) || preds.len() != 1 || resolve(&merged_into, preds[0]) != b
            {
                break;
            }
            // An instruction that must open a block (catch, resume_generator) keeps `s` apart.
            let s_phis = phis(func, s);
            if func.blocks[s].insts.get(s_phis.len()).is_some_and(|&i| func.effects(i).has(Effects::FIRST_IN_BLOCK)) {
                break;
            }
            // Single-entry phis of `s` become their value.
            for phi in s_phis {
                let v = phi_value_from(func, phi, b).expect("a phi has an entry for its only predecessor");
                replace.insert(func.result(phi), v);
                dead_phis.insert(phi);
            }
            func.remove_inst(term);
            let moved: Vec<Inst> =
                std::mem::take(&mut func.blocks[s].insts).into_iter().filter(|i| !dead_phis.contains(i)).collect();
            for i in moved {
                func.append_inst(b, i);
            }
            for succ in func.successors(b).to_vec() {
                rename_phi_pred(func, succ, s, b);
            }
            merged_into.insert(s, b);
            removed.insert(s);
            cx.count("blocks_merged", 1);
        }
    }
    // The absorbed single-entry phis were left behind when their block's instructions moved.
    for &phi in &dead_phis {
        func.insts[phi].block = None;
    }
    apply_replacements(func, &replace);
    remove_blocks(func, &removed);
    Changed(!removed.is_empty())
}

/// Threads blocks that hold only `branch T`. One CFG snapshot serves the sweep; blocks whose
/// edges changed are not looked at again until the next round.
fn thread_empty_blocks(func: &mut Function, cx: &mut PassCx) -> Changed {
    let cfg = Cfg::new(func);
    let entry = func.entry();
    let mut dirty: HashSet<Block> = HashSet::new();
    let mut removed: HashSet<Block> = HashSet::new();
    for e in func.layout.clone() {
        if e == entry || dirty.contains(&e) {
            continue;
        }
        let insts = &func.blocks[e].insts;
        if insts.len() != 1 || func.insts[insts[0]].opcode != Opcode::Branch {
            continue;
        }
        let t = func.insts[insts[0]].targets[0];
        let preds = cfg.preds(e).to_vec();
        if t == e || dirty.contains(&t) || preds.is_empty() || preds.iter().any(|p| dirty.contains(p)) {
            continue;
        }
        let t_phis = phis(func, t);
        // Each predecessor must be able to jump to `t` directly: if it already does, the
        // phis of `t` must agree on the value along both edges.
        let ok = preds.iter().all(|&p| {
            !cfg.preds(t).contains(&p)
                || t_phis.iter().all(|&phi| phi_value_from(func, phi, p) == phi_value_from(func, phi, e))
        });
        if !ok {
            continue;
        }
        for &p in &preds {
            let term = func.terminator(p).expect("a predecessor ends in a terminator");
            let already = cfg.preds(t).contains(&p);
            for target in &mut func.insts[term].targets {
                if *target == e {
                    *target = t;
                }
            }
            if !already {
                for &phi in &t_phis {
                    let v = phi_value_from(func, phi, e).expect("a phi has an entry per predecessor");
                    let data = &mut func.insts[phi];
                    data.args.push(v);
                    data.targets.push(p);
                }
            }
        }
        remove_phi_entries(func, t, e);
        dirty.insert(e);
        dirty.insert(t);
        dirty.extend(preds.iter().copied());
        removed.insert(e);
        cx.count("blocks_threaded", 1);
    }
    remove_blocks(func, &removed);
    Changed(!removed.is_empty())
}

fn single_entry_phis(func: &mut Function) -> Changed {
    let mut replace: HashMap<Value, Value> = HashMap::new();
    let mut dead: HashSet<Inst> = HashSet::new();
    for &b in &func.layout {
        for phi in phis(func, b) {
            let data = &func.insts[phi];
            if data.args.len() == 1 && data.args[0] != func.result(phi) {
                replace.insert(func.result(phi), data.args[0]);
                dead.insert(phi);
            }
        }
    }
    apply_replacements(func, &replace);
    remove_insts(func, &dead);
    Changed(!dead.is_empty())
}

#[cfg(test)]
mod tests {
    use crate::passes::test_util::check;

    #[test]
    fn folds_constant_branch_and_removes_dead_arm() {
        check(
            "simplify_cfg",
            "%BB0:\n  %0 = load_param #1 : any\n  cond_branch true, %BB1, %BB2\n%BB1:\n  branch %BB3\n%BB2:\n  branch %BB3\n\
             %BB3:\n  %1 = phi [1, %BB1], [%0, %BB2] : any\n  return %1\n",
            "%BB0:\n  %0 = load_param #1 : any\n  return 1\n",
        );
    }

    #[test]
    fn object_typed_condition_is_truthy() {
        check(
            "simplify_cfg",
            "%BB0:\n  %0 = alloc_object : object\n  cond_branch %0, %BB1, %BB2\n%BB1:\n  return 1\n%BB2:\n  return 2\n",
            "%BB0:\n  %0 = alloc_object : object\n  return 1\n",
        );
    }

    #[test]
    fn threads_empty_blocks_and_keeps_phis_right() {
        check(
            "simplify_cfg",
            "%BB0:\n  %0 = load_param #1 : any\n  cond_branch %0, %BB1, %BB2\n%BB1:\n  %1 = call %0, undefined : any\n  branch %BB3\n\
             %BB2:\n  branch %BB3\n%BB3:\n  %2 = phi [%1, %BB1], [2, %BB2] : any\n  %3 = call %2, undefined : any\n  return %3\n",
            "%BB0:\n  %0 = load_param #1 : any\n  cond_branch %0, %BB1, %BB2\n%BB1:\n  %1 = call %0, undefined : any\n  branch %BB2\n\
             %BB2:\n  %2 = phi [%1, %BB1], [2, %BB0] : any\n  %3 = call %2, undefined : any\n  return %3\n",
        );
    }

    #[test]
    fn does_not_thread_when_phi_values_conflict() {
        let body = "%BB0:\n  %0 = load_param #1 : any\n  cond_branch %0, %BB1, %BB2\n%BB1:\n  branch %BB2\n\
                    %BB2:\n  %1 = phi [1, %BB0], [2, %BB1] : number\n  return %1\n";
        check("simplify_cfg", body, body);
    }

    #[test]
    fn same_targets_become_a_branch() {
        check(
            "simplify_cfg",
            "%BB0:\n  %0 = load_param #1 : any\n  cond_branch %0, %BB1, %BB1\n%BB1:\n  return %0\n",
            "%BB0:\n  %0 = load_param #1 : any\n  return %0\n",
        );
    }

    #[test]
    fn keeps_handler_blocks_and_loops() {
        let body = "%BB0:\n  try_start %BB1, %BB2\n%BB1:\n  %0 = call 1, undefined : any\n  try_end %BB3\n\
                    %BB2:\n  %1 = catch : any\n  branch %BB3\n%BB3:\n  %2 = phi [%0, %BB1], [%1, %BB2] : any\n  branch %BB4\n\
                    %BB4:\n  %3 = phi [%2, %BB3], [%4, %BB4] : any\n  %4 = call %3, undefined : any\n  cond_branch %4, %BB4, %BB5\n\
                    %BB5:\n  return %4\n";
        check("simplify_cfg", body, body);
    }
}
