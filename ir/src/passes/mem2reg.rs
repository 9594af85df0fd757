//! mem2reg: promotes `alloc_stack` slots to SSA values, placing phis where stores meet
//! (Cytron et al., pruned by liveness so no dead phis are made).
//!
//! A slot is promoted when every use of it is the slot operand of `load_stack` or
//! `store_stack`. It is left alone when:
//! - `resume_generator` writes it (the value comes from outside the SSA graph);
//! - it is stored inside a try region and loaded in code reachable from that region's handler:
//!   the handler is entered from the region's start in the CFG, so SSA would give it the value
//!   from before the region, not the value last stored before the throw. (Hermes keeps such
//!   variables in stack slots too.)
//!
//! A load with no store before it reads `undefined`, as a fresh frame register does.
//! Assumes: verified IR. Invalidates: nothing outside the function; adds phis, removes slots,
//! loads and stores.
//!
//! ```text
//! before: %0 = alloc_stack "x"   store_stack 1, %0   ...   %5 = load_stack %0 : any|empty
//! after:  (uses of %5 are 1, or a phi where stores from different paths meet)
//! ```

use hashbrown::{HashMap, HashSet};

use crate::cfg::{Cfg, TryRegions};
use crate::domtree::DomTree;
use crate::entity::EntityRef;
use crate::function::{Function, Literal};
use crate::inst::{Imm, Loc, Opcode};
use crate::passes::util::{apply_replacements, remove_insts};
use crate::passes::{Changed, PassCx};
use crate::types::Type;
use crate::{Block, Inst, Value};

/// Runs the pass.
pub fn run(func: &mut Function, cx: &mut PassCx) -> Changed {
    let slots = promotable_slots(func);
    if slots.is_empty() {
        return Changed::NO;
    }
    let cfg = Cfg::new(func);
    let dom = DomTree::new(func, &cfg);
    let frontiers = dom.frontiers(&cfg);
    let slot_index: HashMap<Value, usize> = slots.iter().enumerate().map(|(i, &s)| (s, i)).collect();

    // Where each slot is stored, and where it is loaded before any store in the block.
    let mut def_blocks: Vec<Vec<Block>> = vec![Vec::new(); slots.len()];
    let mut upward_uses: Vec<Vec<Block>> = vec![Vec::new(); slots.len()];
    for &b in &func.layout {
        let mut stored: HashSet<usize> = HashSet::new();
        for &i in &func.blocks[b].insts {
            let data = &func.insts[i];
            match data.opcode {
                Opcode::StoreStack => {
                    if let Some(&s) = slot_index.get(&data.args[1]) {
                        if stored.insert(s) {
                            def_blocks[s].push(b);
                        }
                    }
                }
                Opcode::LoadStack => {
                    if let Some(&s) = slot_index.get(&data.args[0]) {
                        if !stored.contains(&s) && upward_uses[s].last() != Some(&b) {
                            upward_uses[s].push(b);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    // Phi placement: the iterated dominance frontier of the stores, where the slot is live.
    let mut phi_of: HashMap<(Block, usize), Inst> = HashMap::new();
    let mut new_phis: Vec<Inst> = Vec::new();
    for s in 0..slots.len() {
        let live_in = live_in_blocks(&cfg, &upward_uses[s], &def_blocks[s]);
        let mut work: Vec<Block> = def_blocks[s].clone();
        let mut placed: HashSet<Block> = HashSet::new();
        let mut queued: HashSet<Block> = work.iter().copied().collect();
        while let Some(b) = work.pop() {
            for &f in &frontiers[b.index()] {
                if placed.contains(&f) || !live_in.contains(&f) {
                    continue;
                }
                placed.insert(f);
                let preds = cfg.preds(f).to_vec();
                let undef = func.literal(Literal::Undefined);
                let phi = func.make_inst(Opcode::Phi, vec![undef; preds.len()], preds, Imm::None, Loc::default());
                let at = func.blocks[f].insts.iter().take_while(|&&i| func.insts[i].opcode == Opcode::Phi).count();
                func.insert_inst(f, at, phi);
                phi_of.insert((f, s), phi);
                new_phis.push(phi);
                if queued.insert(f) {
                    work.push(f);
                }
            }
        }
    }

    let slot_of_phi: HashMap<Inst, usize> = phi_of.iter().map(|(&(_, s), &phi)| (phi, s)).collect();

    // Renaming over the dominator tree: the current value of each slot, loads replaced by
    // it, phi entries filled on the way out of each block.
    let undef = func.literal(Literal::Undefined);
    let mut replace: HashMap<Value, Value> = HashMap::new();
    let mut dead: HashSet<Inst> = HashSet::new();
    let resolve = |replace: &HashMap<Value, Value>, v: Value| replace.get(&v).copied().unwrap_or(v);
    let mut current: Vec<Vec<Value>> = vec![vec![undef]; slots.len()];
    // (block, entering?) — entering pushes definitions, leaving pops them.
    let mut stack: Vec<(Block, bool)> = Vec::new();
    let mut pushed: HashMap<Block, Vec<usize>> = HashMap::new();
    if let Some(&entry) = dom.rpo().first() {
        stack.push((entry, true));
    }
    while let Some((b, entering)) = stack.pop() {
        if !entering {
            for s in pushed.remove(&b).unwrap_or_default() {
                current[s].pop();
            }
            continue;
        }
        let mut mine = Vec::new();
        for i in func.blocks[b].insts.clone() {
            let data = &func.insts[i];
            match data.opcode {
                Opcode::Phi => {
                    if let Some(&s) = slot_of_phi.get(&i) {
                        current[s].push(func.result(i));
                        mine.push(s);
                    }
                }
                Opcode::LoadStack => {
                    if let Some(&s) = slot_index.get(&data.args[0]) {
                        let v = *current[s].last().expect("slot stacks are never empty");
                        replace.insert(func.result(i), v);
                        dead.insert(i);
                    }
                }
                Opcode::StoreStack => {
                    if let Some(&s) = slot_index.get(&data.args[1]) {
                        let v = resolve(&replace, data.args[0]);
                        current[s].push(v);
                        mine.push(s);
                        dead.insert(i);
                    }
                }
                _ => {}
            }
        }
        for &succ in cfg.succs(b) {
            for (s, values) in current.iter().enumerate() {
                if let Some(&phi) = phi_of.get(&(succ, s)) {
                    let v = *values.last().expect("slot stacks are never empty");
                    let data = &mut func.insts[phi];
                    if let Some(k) = data.targets.iter().position(|&t| t == b) {
                        data.args[k] = v;
                    }
                }
            }
        }
        pushed.insert(b, mine);
        stack.push((b, false));
        for &c in dom.children(b).iter().rev() {
            stack.push((c, true));
        }
    }

    // Loads in unreachable blocks read nothing meaningful; give them undefined.
    for &b in &func.layout {
        if dom.is_reachable(b) {
            continue;
        }
        for &i in &func.blocks[b].insts {
            let data = &func.insts[i];
            let slot = match data.opcode {
                Opcode::LoadStack => Some(data.args[0]),
                Opcode::StoreStack => Some(data.args[1]),
                _ => None,
            };
            if slot.is_some_and(|s| slot_index.contains_key(&s)) {
                if data.opcode == Opcode::LoadStack {
                    replace.insert(func.result(i), undef);
                }
                dead.insert(i);
            }
        }
    }

    apply_replacements(func, &replace);
    dead.extend(slots.iter().filter_map(|&slot| func.def_inst(slot)));
    remove_insts(func, &dead);
    set_phi_types(func, &new_phis);
    cx.count("slots_promoted", slots.len() as u64);
    cx.count("phis_placed", new_phis.len() as u64);
    Changed::YES
}

/// The slots every use of which is a load or store through it, minus the ones the module
/// doc says must stay.
fn promotable_slots(func: &Function) -> Vec<Value> {
    let mut candidates: Vec<Value> = Vec::new();
    let mut bad: HashSet<Value> = HashSet::new();
    for i in func.inst_order() {
        let data = &func.insts[i];
        if data.opcode == Opcode::AllocStack {
            if let Some(r) = data.result {
                candidates.push(r);
            }
        }
        for (n, &a) in data.args.iter().enumerate() {
            let slot_use = matches!((data.opcode, n), (Opcode::LoadStack, 0) | (Opcode::StoreStack, 1));
            if !slot_use {
                bad.insert(a);
            }
        }
    }
    candidates.retain(|s| !bad.contains(s));
    if candidates.is_empty() {
        return candidates;
    }

    // Slots stored inside a try region and loaded where its handler leads.
    let cfg = Cfg::new(func);
    let (regions, _) = TryRegions::new(func, &cfg);
    let mut stored_in: HashMap<Value, HashSet<Inst>> = HashMap::new();
    let mut loaded_in: HashMap<Value, HashSet<Block>> = HashMap::new();
    for &b in &func.layout {
        for &i in &func.blocks[b].insts {
            let data = &func.insts[i];
            match data.opcode {
                Opcode::StoreStack => {
                    if let Some(enclosing) = regions.enclosing(b) {
                        stored_in.entry(data.args[1]).or_default().extend(enclosing.iter().copied());
                    }
                }
                Opcode::LoadStack => {
                    loaded_in.entry(data.args[0]).or_default().insert(b);
                }
                _ => {}
            }
        }
    }
    let mut after_handler: HashMap<Inst, HashSet<Block>> = HashMap::new();
    candidates.retain(|slot| {
        let Some(regions) = stored_in.get(slot) else { return true };
        let Some(loads) = loaded_in.get(slot) else { return true };
        for &try_start in regions {
            let reach = after_handler.entry(try_start).or_insert_with(|| match func.insts[try_start].targets.get(1) {
                Some(&h) => cfg.reachable_from(h),
                None => HashSet::new(),
            });
            if loads.iter().any(|b| reach.contains(b)) {
                return false;
            }
        }
        true
    });
    candidates
}

/// The blocks where the slot is live on entry: backwards from the upward-exposed loads,
/// stopping at blocks that store it first.
fn live_in_blocks(cfg: &Cfg, uses: &[Block], defs: &[Block]) -> HashSet<Block> {
    let defs: HashSet<Block> = defs.iter().copied().collect();
    let mut live: HashSet<Block> = HashSet::new();
    let mut work: Vec<Block> = uses.to_vec();
    while let Some(b) = work.pop() {
        if !live.insert(b) {
            continue;
        }
        for &p in cfg.preds(b) {
            // A predecessor that stores the slot kills liveness above its store; whether it
            // also loads before the store is recorded in `uses` already.
            if !defs.contains(&p) && !live.contains(&p) {
                work.push(p);
            }
        }
    }
    live
}

/// Phi types: the union of the inputs, to a fixed point (phis may feed each other).
fn set_phi_types(func: &mut Function, phis: &[Inst]) {
    for &p in phis {
        let r = func.result(p);
        func.values[r].ty = Type::NONE;
    }
    let mut changed = true;
    while changed {
        changed = false;
        for &p in phis {
            let r = func.result(p);
            let ty = func.insts[p].args.iter().fold(Type::NONE, |t, &a| t.union(func.ty(a)));
            if ty != func.ty(r) {
                func.values[r].ty = ty;
                changed = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::passes::test_util::check;

    #[test]
    fn straight_line() {
        check(
            "mem2reg",
            "%BB0:\n  %0 = alloc_stack \"x\" : any|empty\n  store_stack 1, %0\n  %1 = load_stack %0 : any|empty\n  return %1\n",
            "%BB0:\n  return 1\n",
        );
    }

    #[test]
    fn diamond_gets_a_phi() {
        check(
            "mem2reg",
            "%BB0:\n  %0 = alloc_stack \"x\" : any|empty\n  %1 = load_param #1 : any\n  cond_branch %1, %BB1, %BB2\n\
             %BB1:\n  store_stack 1, %0\n  branch %BB3\n%BB2:\n  store_stack \"s\", %0\n  branch %BB3\n\
             %BB3:\n  %2 = load_stack %0 : any|empty\n  return %2\n",
            "%BB0:\n  %0 = load_param #1 : any\n  cond_branch %0, %BB1, %BB2\n%BB1:\n  branch %BB3\n%BB2:\n  branch %BB3\n\
             %BB3:\n  %1 = phi [1, %BB1], [\"s\", %BB2] : string|number\n  return %1\n",
        );
    }

    #[test]
    fn loop_counter() {
        check(
            "mem2reg",
            "%BB0:\n  %0 = alloc_stack \"i\" : any|empty\n  store_stack 0, %0\n  branch %BB1\n\
             %BB1:\n  %1 = load_stack %0 : any|empty\n  %2 = binary_op \"<\" %1, 10 : boolean\n  cond_branch %2, %BB2, %BB3\n\
             %BB2:\n  %3 = load_stack %0 : any|empty\n  %4 = binary_op \"+\" %3, 1 : any\n  store_stack %4, %0\n  branch %BB1\n\
             %BB3:\n  %5 = load_stack %0 : any|empty\n  return %5\n",
            "%BB0:\n  branch %BB1\n\
             %BB1:\n  %0 = phi [0, %BB0], [%2, %BB2] : any\n  %1 = binary_op \"<\" %0, 10 : boolean\n  cond_branch %1, %BB2, %BB3\n\
             %BB2:\n  %2 = binary_op \"+\" %0, 1 : any\n  branch %BB1\n\
             %BB3:\n  return %0\n",
        );
    }

    #[test]
    fn no_phi_where_the_slot_is_dead() {
        // Stores in both arms but no load after the join: pruned SSA places no phi.
        check(
            "mem2reg",
            "%BB0:\n  %0 = alloc_stack \"x\" : any|empty\n  %1 = load_param #1 : any\n  cond_branch %1, %BB1, %BB2\n\
             %BB1:\n  store_stack 1, %0\n  branch %BB3\n%BB2:\n  store_stack 2, %0\n  branch %BB3\n%BB3:\n  return %1\n",
            "%BB0:\n  %0 = load_param #1 : any\n  cond_branch %0, %BB1, %BB2\n%BB1:\n  branch %BB3\n%BB2:\n  branch %BB3\n\
             %BB3:\n  return %0\n",
        );
    }

    #[test]
    fn load_before_store_reads_undefined() {
        check(
            "mem2reg",
            "%BB0:\n  %0 = alloc_stack \"x\" : any|empty\n  %1 = load_stack %0 : any|empty\n  return %1\n",
            "%BB0:\n  return undefined\n",
        );
    }

    #[test]
    fn slot_stored_in_try_and_read_after_handler_stays() {
        let body = "%BB0:\n  %0 = alloc_stack \"x\" : any|empty\n  %1 = alloc_stack \"y\" : any|empty\n  store_stack 0, %0\n  try_start %BB1, %BB2\n\
                    %BB1:\n  store_stack 1, %0\n  store_stack 2, %1\n  %2 = load_stack %1 : any|empty\n  %3 = call %2, undefined : any\n  try_end %BB3\n\
                    %BB2:\n  %4 = catch : any\n  branch %BB3\n\
                    %BB3:\n  %5 = load_stack %0 : any|empty\n  return %5\n";
        // x is stored in the try body and read after the handler: kept. y is only read inside
        // the body: promoted.
        let want = "%BB0:\n  %0 = alloc_stack \"x\" : any|empty\n  store_stack 0, %0\n  try_start %BB1, %BB2\n\
                    %BB1:\n  store_stack 1, %0\n  %1 = call 2, undefined : any\n  try_end %BB3\n\
                    %BB2:\n  %2 = catch : any\n  branch %BB3\n\
                    %BB3:\n  %3 = load_stack %0 : any|empty\n  return %3\n";
        check("mem2reg", body, want);
    }

    #[test]
    fn resume_generator_slot_stays() {
        let text = "module \"t.js\"\n\nfunction @0 \"g\"() kind=generator_inner strict parent=none length=0\n\
                    %BB0:\n  start_generator\n  %0 = alloc_stack \"r\" : any|empty\n  save_and_yield 1, %BB1\n\
                    %BB1:\n  %1 = resume_generator %0 : any\n  %2 = load_stack %0 : any|empty\n  return %2\n";
        let (out, changed) = crate::passes::test_util::run_module("mem2reg", text);
        assert!(!changed);
        assert_eq!(out, text);
    }
}
