//! Global value numbering. Walking the dominator tree, an instruction equal to one that
//! dominates it (same operation, same operands) is replaced by it when its effects allow:
//!
//! - pure operations anywhere below their twin;
//! - operations whose only effect is an exit (`check`, unboxes, overflow-checked
//!   arithmetic, `f64_to_i32`): if the dominating one did not exit, this one would not
//!   either, so a dominated duplicate check goes;
//! - reads of the heap (loads, `guard_shape`) only within one block, and only while no
//!   instruction between them writes a heap the read overlaps.

use std::collections::HashMap;

use crate::mir::effects::{self, Heap};
use crate::mir::verify::Dominators;
use crate::mir::*;

/// What makes two instructions equal: the operation with its operands (the exit is not
/// part of it) and the result type.
type Key = (Op, Option<Type>);

pub fn run(f: &mut Function) -> bool {
    let dom = Dominators::new(f);
    let children = dom.children();
    let Some(entry) = f.entry() else { return false };
    let mut table: HashMap<Key, Option<Val>> = HashMap::new();
    let mut undo: Vec<(Key, Option<Option<Val>>)> = Vec::new();
    let mut replace: HashMap<Val, Val> = HashMap::new();
    let mut changed = false;
    // Preorder over the dominator tree: (block, undo mark), with a marker entry to unwind.
    let mut stack: Vec<(Block, bool, usize)> = vec![(entry, true, 0)];
    while let Some((b, enter, mark)) = stack.pop() {
        if !enter {
            while undo.len() > mark {
                let (k, old) = undo.pop().expect("undo entries above the mark");
                match old {
                    Some(v) => table.insert(k, v),
                    None => table.remove(&k),
                };
            }
            continue;
        }
        let mark = undo.len();
        stack.push((b, false, mark));
        changed |= number_block(f, b, &mut table, &mut undo, &mut replace);
        for &c in children.get(&b).into_iter().flatten().rev() {
            stack.push((c, true, 0));
        }
    }
    if changed {
        super::replace_uses(f, &replace);
    }
    changed
}

fn number_block(
    f: &mut Function,
    b: Block,
    table: &mut HashMap<Key, Option<Val>>,
    undo: &mut Vec<(Key, Option<Option<Val>>)>,
    replace: &mut HashMap<Val, Val>,
) -> bool {
    let mut changed = false;
    // Reads available in this block: key -> (result, heap read).
    let mut local: HashMap<Key, (Option<Val>, Heap)> = HashMap::new();
    let mut i = 0;
    while i < f.blocks[b.0 as usize].insts.len() {
        let inst = &mut f.blocks[b.0 as usize].insts[i];
        // Operands already replaced in dominating blocks.
        inst.op.map_args(|v| super::resolve(replace, v));
        let e = effects::of(inst);
        let key: Key = (inst.op.clone(), inst.result.map(|r| f.values[r.0 as usize].ty));
        let mut redundant_with: Option<Option<Val>> = None;
        if e.terminates {
            // Nothing to number.
        } else if e.reads.is_none() && e.writes.is_none() {
            match table.get(&key) {
                Some(&earlier) => redundant_with = Some(earlier),
                None => {
                    undo.push((key.clone(), table.insert(key, inst.result)));
                }
            }
        } else if let (Some(heap), None) = (e.reads, e.writes) {
            match local.get(&key) {
                Some(&(earlier, _)) => redundant_with = Some(earlier),
                None => {
                    local.insert(key, (inst.result, heap));
                }
            }
        } else if let Some(w) = e.writes {
            local.retain(|_, (_, read)| !read.overlaps(w));
        }
        if let Some(earlier) = redundant_with {
            if let (Some(r), Some(e)) = (inst.result, earlier) {
                replace.insert(r, e);
                f.values[r.0 as usize].def = ValueDef::Dead;
            }
            f.blocks[b.0 as usize].insts.remove(i);
            changed = true;
            continue;
        }
        i += 1;
    }
    changed
}
