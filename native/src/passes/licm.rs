//! Loop-invariant code motion. For each natural loop, innermost first, whose header has
//! one entering block that jumps to it unconditionally (the preheader), an instruction
//! whose operands are all defined outside the loop moves to the end of the preheader when
//! its effects allow:
//!
//! - a pure operation, from any block of the loop (it may run when the loop body would
//!   not: it has no effect and cannot fail);
//! - a load or a guard (`guard_shape`, a check, an unbox) from the loop header, which runs
//!   whenever the loop is entered, when nothing in the loop writes the heap it reads, the
//!   values its exit describes are defined outside the loop too, and nothing before it in
//!   the header stays behind that writes or may exit (a guard must not move above a write
//!   its exit would miss, a load not above the guard that makes it safe).
//!
//! An exit taken in the preheader is one the first iteration would have taken with the
//! same state.
//!
//! A guard on values defined outside the loop that runs on every trip around it (its block
//! comes on every way back to the header) also moves, from any block, when the header has
//! a resume exit: in the preheader it leaves through a copy of that exit (the interpreter
//! at the loop's start, with what the preheader passes), and the interpreter runs the whole
//! loop instead, so nothing the loop did before the guard is lost.

use std::collections::HashSet;

use crate::mir::effects::{self, Heap};
use crate::mir::verify::{predecessors, Dominators};
use crate::mir::*;

pub fn run(f: &mut Function) -> bool {
    let dom = Dominators::new(f);
    let preds = predecessors(f);
    let mut loops = natural_loops(&dom, &preds);
    // Innermost first: an inner header comes later in reverse postorder.
    loops.sort_by_key(|(h, _)| std::cmp::Reverse(dom.rpo_index(*h)));
    let mut changed = false;
    for (header, body) in loops {
        changed |= hoist(f, &dom, header, &body, &preds);
    }
    if changed {
        f.recompute_defs();
    }
    changed
}

/// Each loop header with the blocks of its loop (back edges to one header merged).
fn natural_loops(dom: &Dominators, preds: &[Vec<Block>]) -> Vec<(Block, HashSet<Block>)> {
    let mut loops: Vec<(Block, HashSet<Block>)> = Vec::new();
    for &h in &dom.rpo {
        let latches: Vec<Block> =
            preds[h.0 as usize].iter().copied().filter(|&p| dom.reachable(p) && dom.dominates(h, p)).collect();
        if latches.is_empty() {
            continue;
        }
        let mut body: HashSet<Block> = HashSet::from([h]);
        let mut work = latches;
        while let Some(b) = work.pop() {
            if body.insert(b) {
                work.extend(preds[b.0 as usize].iter().copied().filter(|&p| dom.reachable(p)));
            }
        }
        loops.push((h, body));
    }
    loops
}

/// Hoists what it can out of one loop; whether anything moved.
fn hoist(f: &mut Function, dom: &Dominators, header: Block, body: &HashSet<Block>, preds: &[Vec<Block>]) -> bool {
    let outside: Vec<Block> = preds[header.0 as usize].iter().copied().filter(|p| !body.contains(p)).collect();
    let [pre] = outside.as_slice() else { return false };
    let pre = *pre;
    if !matches!(f.block(pre).insts.last(), Some(Inst { op: Op::Jump(t, _), .. }) if *t == header) {
        return false;
    }
    // What the loop writes, and the values it defines (which nothing hoisted may use).
    let mut writes: Vec<Heap> = Vec::new();
    let mut inside: HashSet<Val> = HashSet::new();
    for &b in body {
        let data = f.block(b);
        inside.extend(data.params.iter().copied());
        for inst in &data.insts {
            inside.extend(inst.result);
            writes.extend(effects::of(inst).writes);
        }
    }
    let written = |h: Heap| writes.iter().any(|w| w.overlaps(h));
    // The blocks that every trip around the loop runs (they dominate every back edge).
    let latches: Vec<Block> = preds[header.0 as usize].iter().copied().filter(|p| body.contains(p)).collect();
    let every_trip = |b: Block| latches.iter().all(|&l| dom.dominates(b, l));
    let resume = f.block(header).resume;
    let mut resumed: Vec<usize> = Vec::new();
    let mut moved: Vec<Inst> = Vec::new();
    // Blocks in reverse postorder, the header first, so that what an instruction uses has
    // had its chance to move before it.
    let mut blocks: Vec<Block> = body.iter().copied().collect();
    blocks.sort_by_key(|&b| dom.rpo_index(b));
    for b in blocks {
        let mut blocked = b != header;
        let mut kept = Vec::new();
        for inst in std::mem::take(&mut f.blocks[b.0 as usize].insts) {
            let e = effects::of(&inst);
            let invariant = inst.op.args().iter().all(|a| !inside.contains(a));
            let exit_invariant = inst.exit.is_none_or(|x| {
                f.exits[x.0 as usize].regs.iter().all(|(_, v)| !matches!(v, ExitValue::Val(v) if inside.contains(v)))
            });
            let movable = invariant
                && !e.terminates
                && e.writes.is_none()
                && if e.is_pure() { true } else { !blocked && exit_invariant && e.reads.is_none_or(|h| !written(h)) };
            let via_resume = !movable
                && resume.is_some()
                && invariant
                && inst.exit.is_some()
                && !e.terminates
                && e.writes.is_none()
                && e.reads.is_none_or(|h| !written(h))
                && every_trip(b);
            if via_resume {
                resumed.push(moved.len());
            }
            if movable || via_resume {
                if let Some(r) = inst.result {
                    inside.remove(&r);
                }
                moved.push(inst);
            } else {
                blocked |= e.writes.is_some() || e.exits;
                kept.push(inst);
            }
        }
        f.blocks[b.0 as usize].insts = kept;
    }
    if moved.is_empty() {
        return false;
    }
    if let Some(resume) = resume.filter(|_| !resumed.is_empty()) {
        let e = super::resume_exit_for(f, header, pre, resume);
        for i in resumed {
            moved[i].exit = Some(e);
        }
    }
    let insts = &mut f.blocks[pre.0 as usize].insts;
    let jump = insts.pop();
    insts.extend(moved);
    insts.extend(jump);
    true
}
