//! Global value numbering. Walking the dominator tree, an instruction equal to one that
//! dominates it (same operation, same operands) is replaced by it when its effects allow:
//!
//! - pure operations anywhere below their twin;
//! - operations whose only effect is an exit (`check`, unboxes, overflow-checked
//!   arithmetic, `f64_to_i32`): if the dominating one did not exit, this one would not
//!   either, so a dominated duplicate check goes;
//! - reads of the heap (loads, `guard_shape`) within one block and on into a block whose
//!   only predecessor it is (a chain of such blocks runs as one), and from a block on into
//!   a join it immediately dominates (not a loop header) when no block on the paths
//!   between writes the heap, while no instruction between them writes a heap the read
//!   overlaps.
//!
//! A block entered only from one arm of a `brif` knows its condition, and so does every
//! block it dominates (as everything a `check` dominates knows the check's condition): a `brif` on a known condition becomes a jump and a `check` of a true
//! one goes. (After a shape guard, the same object's next guard loads the same shape, so
//! it compares the same values and branches on the same condition.)

use std::collections::HashMap;

use crate::mir::effects::{self, Heap};
use crate::mir::verify::{predecessors, Dominators};
use crate::mir::*;

/// What makes two instructions equal: the operation with its operands (the exit is not
/// part of it) and the result type.
type Key = (Op, Option<Type>);

/// Reads available in a block: key -> (result, heap read).
type Reads = HashMap<Key, (Option<Val>, Heap)>;

/// The dominator-tree walk's scoped tables (each undone when the walk leaves the subtree).
#[derive(Default)]
struct Scope {
    /// Pure operations and checks, by key.
    table: HashMap<Key, Option<Val>>,
    undo: Vec<(Key, Option<Option<Val>>)>,
    /// Conditions known on every path here (from a dominating `brif` arm).
    facts: HashMap<Val, bool>,
    fact_undo: Vec<(Val, Option<bool>)>,
}

pub fn run(f: &mut Function) -> bool {
    let dom = Dominators::new(f);
    let children = dom.children();
    let preds = predecessors(f);
    let Some(entry) = f.entry() else { return false };
    let mut scope = Scope::default();
    let mut reads_out: HashMap<Block, Reads> = HashMap::new();
    let mut replace: HashMap<Val, Val> = HashMap::new();
    let mut changed = false;
    // Preorder over the dominator tree: (block, entering?, undo marks), with a marker entry
    // to unwind.
    let mut stack: Vec<(Block, bool, (usize, usize))> = vec![(entry, true, (0, 0))];
    while let Some((b, enter, (mark, fact_mark))) = stack.pop() {
        if !enter {
            while scope.undo.len() > mark {
                let (k, old) = scope.undo.pop().expect("undo entries above the mark");
                match old {
                    Some(v) => scope.table.insert(k, v),
                    None => scope.table.remove(&k),
                };
            }
            while scope.fact_undo.len() > fact_mark {
                let (c, old) = scope.fact_undo.pop().expect("undo entries above the mark");
                match old {
                    Some(v) => scope.facts.insert(c, v),
                    None => scope.facts.remove(&c),
                };
            }
            continue;
        }
        let marks = (scope.undo.len(), scope.fact_undo.len());
        stack.push((b, false, marks));
        // A block whose only predecessor is its dominator continues it: what that one read
        // is still there, and the arm of its branch that leads here is known.
        let mut reads = Reads::new();
        if preds[b.0 as usize].len() > 1 && !f.block(b).is_loop {
            // A join (of the arms of a branch): what its immediate dominator read is still
            // there unless a block on a path from there writes it.
            if let Some(r) = dom.idom(b).and_then(|d| reads_out.get(&d).map(|r| (d, r))).and_then(|(d, r)| {
                let writes = writes_between(f, &preds, d, b)?;
                Some(
                    r.iter()
                        .filter(|(_, (_, read))| !writes.iter().any(|w| read.overlaps(*w)))
                        .map(|(k, v)| (k.clone(), *v))
                        .collect(),
                )
            }) {
                reads = r;
            }
        }
        if let [pred] = preds[b.0 as usize][..] {
            if let Some(r) = reads_out.get(&pred) {
                reads = r.clone();
            }
            if let Some(Inst { op: Op::Brif(c, t, _, e, _), .. }) = f.block(pred).insts.last() {
                if t != e {
                    let c = super::resolve(&replace, *c);
                    let old = scope.facts.insert(c, *t == b);
                    scope.fact_undo.push((c, old));
                }
            }
        }
        changed |= number_block(f, b, &mut scope, &mut reads, &mut replace);
        reads_out.insert(b, reads);
        for &c in children.get(&b).into_iter().flatten().rev() {
            stack.push((c, true, (0, 0)));
        }
    }
    if changed {
        super::replace_uses(f, &replace);
    }
    changed
}

/// Most blocks between a join and its immediate dominator that `writes_between` looks at.
const MAX_REGION: usize = 64;

/// The heaps written by the blocks on the paths from `d` to `b` (which `d` dominates), `b`
/// not a loop header; None when there are too many blocks to look at.
fn writes_between(f: &Function, preds: &[Vec<Block>], d: Block, b: Block) -> Option<Vec<Heap>> {
    let mut seen = std::collections::HashSet::new();
    let mut stack: Vec<Block> = preds[b.0 as usize].clone();
    let mut writes = Vec::new();
    while let Some(p) = stack.pop() {
        if p == d || !seen.insert(p) {
            continue;
        }
        if seen.len() > MAX_REGION {
            return None;
        }
        writes.extend(f.block(p).insts.iter().filter_map(|inst| effects::of(inst).writes));
        stack.extend(preds[p.0 as usize].iter().copied());
    }
    Some(writes)
}

fn number_block(
    f: &mut Function,
    b: Block,
    scope: &mut Scope,
    reads: &mut Reads,
    replace: &mut HashMap<Val, Val>,
) -> bool {
    let mut changed = false;
    let mut i = 0;
    while i < f.blocks[b.0 as usize].insts.len() {
        let inst = &mut f.blocks[b.0 as usize].insts[i];
        // Operands already replaced in dominating blocks.
        inst.op.map_args(|v| super::resolve(replace, v));
        match inst.op {
            Op::Brif(c, t, ref ta, e, ref ea) => {
                if let Some(&known) = scope.facts.get(&c) {
                    inst.op = if known { Op::Jump(t, ta.clone()) } else { Op::Jump(e, ea.clone()) };
                    changed = true;
                }
            }
            Op::Check(c, _) if scope.facts.get(&c) == Some(&true) => {
                f.blocks[b.0 as usize].insts.remove(i);
                changed = true;
                continue;
            }
            // Past a check, its condition holds.
            Op::Check(c, _) => {
                let old = scope.facts.insert(c, true);
                scope.fact_undo.push((c, old));
            }
            _ => {}
        }
        let inst = &f.blocks[b.0 as usize].insts[i];
        let e = effects::of(inst);
        let key: Key = (inst.op.clone(), inst.result.map(|r| f.values[r.0 as usize].ty));
        let mut redundant_with: Option<Option<Val>> = None;
        if e.terminates {
            // Nothing to number.
        } else if e.reads.is_none() && e.writes.is_none() {
            match scope.table.get(&key) {
                Some(&earlier) => redundant_with = Some(earlier),
                None => {
                    let old = scope.table.insert(key.clone(), inst.result);
                    scope.undo.push((key, old));
                }
            }
        } else if let (Some(heap), None) = (e.reads, e.writes) {
            match reads.get(&key) {
                Some(&(earlier, _)) => redundant_with = Some(earlier),
                None => {
                    reads.insert(key, (inst.result, heap));
                }
            }
        } else if let Some(w) = e.writes {
            reads.retain(|_, (_, read)| !read.overlaps(w));
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
