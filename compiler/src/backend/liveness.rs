//! Liveness of virtual registers over the LIR control-flow graph, as live intervals.
//!
//! Instructions are numbered in layout order; instruction `i` reads its operands at position
//! `2i` and writes its results at `2i + 1`, so a result may share the register of an operand
//! that dies at the same instruction. A block covers `[2 * first, 2 * (last + 1))`. An
//! interval is a sorted list of disjoint half-open segments (holes where the value is dead,
//! e.g. on the other arm of a branch).
//!
//! Liveness is the usual backward dataflow (`live_in = use ∪ (live_out − def)`), iterated to
//! a fixed point, so values live around loops cover the whole loop. Exception edges are
//! different from normal edges: a handler may be entered from any instruction of a block in
//! its try region, so what the handler needs is live throughout such a block, even across a
//! definition in it.
//!
//! Stack-slot vregs are not tracked: they own their registers for the whole function.

use super::lir::{LFunction, RegClass, VReg};

/// A dense bit set over vreg indices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BitSet {
    words: Vec<u64>,
}

impl BitSet {
    /// An empty set for indices below `n`.
    pub fn new(n: usize) -> BitSet {
        BitSet { words: vec![0; n.div_ceil(64)] }
    }
    /// Adds `i`; returns whether it was absent.
    pub fn insert(&mut self, i: usize) -> bool {
        let (w, b) = (i / 64, 1u64 << (i % 64));
        let absent = self.words[w] & b == 0;
        self.words[w] |= b;
        absent
    }
    /// Removes `i`.
    pub fn remove(&mut self, i: usize) {
        self.words[i / 64] &= !(1u64 << (i % 64));
    }
    /// Whether `i` is in the set.
    pub fn contains(&self, i: usize) -> bool {
        self.words[i / 64] & (1u64 << (i % 64)) != 0
    }
    /// `self ∪= other`; returns whether `self` changed.
    pub fn union_with(&mut self, other: &BitSet) -> bool {
        let mut changed = false;
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            let new = *a | b;
            changed |= new != *a;
            *a = new;
        }
        changed
    }
    /// `self = (self − minus) ∪ plus`.
    fn assign_minus_union(&mut self, base: &BitSet, minus: &BitSet, plus: &BitSet) {
        for i in 0..self.words.len() {
            self.words[i] = (base.words[i] & !minus.words[i]) | plus.words[i];
        }
    }
    /// The members, ascending.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &bits)| {
            let mut bits = bits;
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let t = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(w * 64 + t)
            })
        })
    }
}

/// A half-open range of positions.
pub type Segment = (u32, u32);

/// Live intervals and the numbering they are expressed in.
#[derive(Clone, Debug)]
pub struct Liveness {
    /// Per vreg, sorted disjoint segments (empty for untracked or unused vregs).
    pub intervals: Vec<Vec<Segment>>,
}

impl Liveness {
    /// The use position of global instruction `i`.
    pub fn use_pos(i: u32) -> u32 {
        2 * i
    }
    /// The def position of global instruction `i`.
    pub fn def_pos(i: u32) -> u32 {
        2 * i + 1
    }
}

/// Computes liveness for every vreg of `f` that is not a stack slot.
pub fn compute(f: &LFunction) -> Result<Liveness, String> {
    let n = f.vreg_count();
    let nb = f.blocks.len();
    let tracked = |v: VReg| !matches!(f.classes[v.index()], RegClass::Slot(_));

    let mut block_start = Vec::with_capacity(nb);
    let mut next = 0u32;
    for b in &f.blocks {
        block_start.push(next);
        next += b.insts.len() as u32;
    }

    // Upward-exposed uses and definitions of every block.
    let mut gen = vec![BitSet::new(n); nb];
    let mut kill = vec![BitSet::new(n); nb];
    for (bi, b) in f.blocks.iter().enumerate() {
        for inst in &b.insts {
            inst.for_each_use(|v| {
                if tracked(v) && !kill[bi].contains(v.index()) {
                    gen[bi].insert(v.index());
                }
            });
            inst.for_each_def(|v| {
                if tracked(v) {
                    kill[bi].insert(v.index());
                }
            });
        }
    }

    // Fixed point, visiting blocks backwards (fast for forward layouts).
    let mut live_in = vec![BitSet::new(n); nb];
    let mut live_out = vec![BitSet::new(n); nb];
    let mut exc_in = vec![BitSet::new(n); nb];
    let mut changed = true;
    let mut rounds = 0;
    while changed {
        changed = false;
        rounds += 1;
        if rounds > nb + 2 {
            // Monotone dataflow over a finite lattice converges in at most one round per
            // block plus one; more means a bug.
            return Err("liveness did not converge".to_string());
        }
        for bi in (0..nb).rev() {
            let mut out = BitSet::new(n);
            for &s in &f.blocks[bi].succs {
                out.union_with(&live_in[s]);
            }
            let mut exc = BitSet::new(n);
            for &h in &f.blocks[bi].handlers {
                exc.union_with(&live_in[h]);
            }
            let mut new_in = BitSet::new(n);
            new_in.assign_minus_union(&out, &kill[bi], &gen[bi]);
            new_in.union_with(&exc);
            if new_in != live_in[bi] {
                live_in[bi] = new_in;
                changed = true;
            }
            live_out[bi] = out;
            exc_in[bi] = exc;
        }
    }

    if let Some(v) = live_in.first().and_then(|s| s.iter().next()) {
        return Err(format!("v{v} is used before it is defined"));
    }

    // Intervals, built backwards (segments pushed in decreasing order, then normalized).
    let mut intervals: Vec<Vec<Segment>> = vec![Vec::new(); n];
    fn add_range(iv: &mut Vec<Segment>, from: u32, to: u32) {
        if let Some(last) = iv.last_mut() {
            if last.0 <= to && from <= last.1 {
                last.0 = last.0.min(from);
                last.1 = last.1.max(to);
                return;
            }
        }
        iv.push((from, to));
    }
    for bi in (0..nb).rev() {
        let b = &f.blocks[bi];
        let from = 2 * block_start[bi];
        let to = 2 * (block_start[bi] + b.insts.len() as u32);
        let mut live = live_out[bi].clone();
        for v in live.iter() {
            add_range(&mut intervals[v], from, to);
        }
        for (k, inst) in b.insts.iter().enumerate().rev() {
            let i = block_start[bi] + k as u32;
            inst.for_each_def(|v| {
                if !tracked(v) {
                    return;
                }
                let iv = &mut intervals[v.index()];
                if live.contains(v.index()) {
                    // The most recent segment starts at the block start: cut it at the def.
                    if let Some(last) = iv.last_mut() {
                        last.0 = Liveness::def_pos(i);
                    }
                    live.remove(v.index());
                } else {
                    add_range(iv, Liveness::def_pos(i), Liveness::def_pos(i) + 1);
                }
            });
            inst.for_each_use(|v| {
                if tracked(v) {
                    add_range(&mut intervals[v.index()], from, Liveness::use_pos(i) + 1);
                    live.insert(v.index());
                }
            });
        }
        for v in exc_in[bi].iter() {
            add_range(&mut intervals[v], from, to);
        }
    }
    for iv in &mut intervals {
        normalize(iv);
    }
    Ok(Liveness { intervals })
}

/// Sorts segments and merges the overlapping or touching ones.
pub fn normalize(iv: &mut Vec<Segment>) {
    iv.sort_unstable();
    let mut out: Vec<Segment> = Vec::with_capacity(iv.len());
    for &(s, e) in iv.iter() {
        match out.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => out.push((s, e)),
        }
    }
    *iv = out;
}

/// Whether two sorted segment lists share a position.
pub fn overlaps(a: &[Segment], b: &[Segment]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i].1 <= b[j].0 {
            i += 1;
        } else if b[j].1 <= a[i].0 {
            j += 1;
        } else {
            return true;
        }
    }
    false
}

/// Whether `segs` (sorted) shares a position with `occupied` (sorted, disjoint, large),
/// by binary search.
pub fn overlaps_sparse(segs: &[Segment], occupied: &[Segment]) -> bool {
    segs.iter().any(|&(s, e)| {
        let k = occupied.partition_point(|&(_, oe)| oe <= s);
        k < occupied.len() && occupied[k].0 < e
    })
}

/// Merges sorted `add` into sorted `into`, keeping it sorted (segments may touch).
pub fn merge_into(into: &mut Vec<Segment>, add: &[Segment]) {
    let mut out: Vec<Segment> = Vec::with_capacity(into.len() + add.len());
    let (mut i, mut j) = (0, 0);
    while i < into.len() || j < add.len() {
        let take_into = j >= add.len() || (i < into.len() && into[i].0 <= add[j].0);
        let seg = if take_into {
            i += 1;
            into[i - 1]
        } else {
            j += 1;
            add[j - 1]
        };
        match out.last_mut() {
            Some(last) if seg.0 <= last.1 => last.1 = last.1.max(seg.1),
            _ => out.push(seg),
        }
    }
    *into = out;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bitset_basics() {
        let mut s = BitSet::new(130);
        assert!(s.insert(3));
        assert!(!s.insert(3));
        s.insert(129);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![3, 129]);
        s.remove(3);
        assert!(!s.contains(3));
        assert!(s.contains(129));
    }

    #[test]
    fn segment_helpers() {
        let mut iv = vec![(10, 12), (0, 4), (3, 6), (12, 13)];
        normalize(&mut iv);
        assert_eq!(iv, vec![(0, 6), (10, 13)]);
        assert!(overlaps(&[(0, 2), (5, 7)], &[(6, 9)]));
        assert!(!overlaps(&[(0, 2), (5, 7)], &[(2, 5), (7, 8)]));
        assert!(overlaps_sparse(&[(4, 5)], &[(0, 2), (3, 6)]));
        assert!(!overlaps_sparse(&[(2, 3)], &[(0, 2), (3, 6)]));
        let mut occ = vec![(0, 2), (8, 9)];
        merge_into(&mut occ, &[(2, 4), (10, 11)]);
        assert_eq!(occ, vec![(0, 4), (8, 9), (10, 11)]);
    }
}
