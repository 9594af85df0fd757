//! Dead code elimination: blocks the entry cannot reach leave the layout, and instructions
//! whose result nothing uses go when their effects allow it (no write, no exit, not a
//! terminator). Exits no instruction names any more forget their values. Loop headers
//! forget their resume exits (only passes before this one speculate on loop entries): the
//! values those name would otherwise stay live through the loop.

use std::collections::HashSet;

use crate::mir::effects;
use crate::mir::verify::Dominators;
use crate::mir::{ExitValue, Function, Val, ValueDef};

pub fn run(f: &mut Function) -> bool {
    let mut changed = false;
    for &b in &f.layout {
        changed |= f.blocks[b.0 as usize].resume.take().is_some();
    }
    let dom = Dominators::new(f);
    let before = f.layout.len();
    let unreachable: Vec<_> = f.layout.iter().copied().filter(|&b| !dom.reachable(b)).collect();
    f.layout.retain(|&b| dom.reachable(b));
    for b in unreachable {
        let data = std::mem::take(&mut f.blocks[b.0 as usize]);
        for v in data.params.iter().copied().chain(data.insts.iter().filter_map(|i| i.result)) {
            f.values[v.0 as usize].def = ValueDef::Dead;
        }
    }
    changed |= f.layout.len() != before;
    loop {
        let used = uses(f);
        let mut removed = false;
        for &b in &f.layout {
            let insts = &mut f.blocks[b.0 as usize].insts;
            let n = insts.len();
            insts.retain(|inst| match inst.result {
                Some(r) if !used.contains(&r) && !effects::of(inst).must_keep() => {
                    f.values[r.0 as usize].def = ValueDef::Dead;
                    false
                }
                _ => true,
            });
            removed |= insts.len() != n;
        }
        if !removed {
            break;
        }
        changed = true;
    }
    f.recompute_defs();
    // Exits no instruction names keep their offset but no values.
    let named: HashSet<u32> = f
        .layout
        .iter()
        .flat_map(|&b| f.blocks[b.0 as usize].insts.iter().filter_map(|i| i.exit.map(|e| e.0)))
        .collect();
    for (i, state) in f.exits.iter_mut().enumerate() {
        if !named.contains(&(i as u32)) && !state.regs.is_empty() {
            state.regs.clear();
            changed = true;
        }
    }
    changed
}

/// Every value used by an instruction in the layout or by an exit one of them names.
fn uses(f: &Function) -> HashSet<Val> {
    let mut used = HashSet::new();
    for &b in &f.layout {
        for inst in &f.blocks[b.0 as usize].insts {
            used.extend(inst.op.args());
            if let Some(e) = inst.exit {
                for (_, v) in &f.exits[e.0 as usize].regs {
                    if let ExitValue::Val(v) = v {
                        used.insert(*v);
                    }
                }
            }
        }
    }
    used
}
