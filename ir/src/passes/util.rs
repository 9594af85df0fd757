//! Small edits shared by passes: phi bookkeeping and use replacement.

use hashbrown::{HashMap, HashSet};

use crate::cfg::Cfg;
use crate::function::Function;
use crate::inst::Opcode;
use crate::{Block, Inst, Value};

/// The phis at the start of `block`.
pub fn phis(func: &Function, block: Block) -> Vec<Inst> {
    func.blocks[block].insts.iter().copied().take_while(|&i| func.insts[i].opcode == Opcode::Phi).collect()
}

/// Removes the entries for predecessor `pred` from the phis of `block`.
pub fn remove_phi_entries(func: &mut Function, block: Block, pred: Block) {
    for phi in phis(func, block) {
        let data = &mut func.insts[phi];
        let mut k = 0;
        while k < data.targets.len() {
            if data.targets[k] == pred {
                data.targets.remove(k);
                if k < data.args.len() {
                    data.args.remove(k);
                }
            } else {
                k += 1;
            }
        }
    }
}

/// Renames predecessor `old` to `new` in the phis of `block` (the edge now comes from `new`).
pub fn rename_phi_pred(func: &mut Function, block: Block, old: Block, new: Block) {
    for phi in phis(func, block) {
        for t in &mut func.insts[phi].targets {
            if *t == old {
                *t = new;
            }
        }
    }
}

/// The value a phi of `block` receives from `pred`.
pub fn phi_value_from(func: &Function, phi: Inst, pred: Block) -> Option<Value> {
    let data = &func.insts[phi];
    data.targets.iter().position(|&t| t == pred).and_then(|k| data.args.get(k).copied())
}

/// Replaces operands through `map` (resolving chains) in every instruction of the layout.
pub fn apply_replacements(func: &mut Function, map: &HashMap<Value, Value>) {
    if map.is_empty() {
        return;
    }
    let resolve = |mut v: Value| {
        let mut steps = 0;
        while let Some(&n) = map.get(&v) {
            if n == v || steps > map.len() {
                break;
            }
            v = n;
            steps += 1;
        }
        v
    };
    let order: Vec<Inst> = func.inst_order().collect();
    for i in order {
        for a in &mut func.insts[i].args {
            *a = resolve(*a);
        }
    }
}

/// Detaches every instruction of `dead` from its block, in one sweep per block.
pub fn remove_insts(func: &mut Function, dead: &HashSet<Inst>) {
    if dead.is_empty() {
        return;
    }
    let mut blocks: Vec<Block> = dead.iter().filter_map(|&i| func.insts[i].block).collect();
    blocks.sort();
    blocks.dedup();
    for b in blocks {
        func.blocks[b].insts.retain(|i| !dead.contains(i));
    }
    for &i in dead {
        func.insts[i].block = None;
    }
}

/// Removes every block of `dead` (and its instructions) from the layout in one sweep.
pub fn remove_blocks(func: &mut Function, dead: &HashSet<Block>) {
    if dead.is_empty() {
        return;
    }
    for &b in dead {
        for inst in std::mem::take(&mut func.blocks[b].insts) {
            func.insts[inst].block = None;
        }
    }
    func.layout.retain(|b| !dead.contains(b));
}

/// Visits the instructions of reachable blocks in reverse post-order (definitions before
/// uses, except around loops) with operands already renamed by earlier replacements; when
/// `f` returns a value, the instruction's result is replaced by it and the instruction is
/// removed. Returns how many were replaced.
pub fn simplify_each(func: &mut Function, mut f: impl FnMut(&mut Function, Inst) -> Option<Value>) -> usize {
    let cfg = Cfg::new(func);
    let order: Vec<Inst> = cfg.rpo().iter().flat_map(|&b| func.blocks[b].insts.clone()).collect();
    let mut map: HashMap<Value, Value> = HashMap::new();
    let mut dead: HashSet<Inst> = HashSet::new();
    for inst in order {
        if !map.is_empty() {
            let args = &mut func.insts[inst].args;
            for a in args.iter_mut() {
                let mut steps = 0;
                while let Some(&n) = map.get(a) {
                    if n == *a || steps > map.len() {
                        break;
                    }
                    *a = n;
                    steps += 1;
                }
            }
        }
        if let Some(v) = f(func, inst) {
            if let Some(r) = func.insts[inst].result {
                if v != r {
                    map.insert(r, v);
                    dead.insert(inst);
                }
            }
        }
    }
    apply_replacements(func, &map);
    remove_insts(func, &dead);
    dead.len()
}
