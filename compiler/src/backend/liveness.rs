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

/// A dense bit set over vreg indices (one for the whole function, reused block by block).
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
///
/// The sets of the dataflow are sorted lists of vreg indices, not bit sets over every vreg:
/// a function of forty thousand blocks and as many values keeps only what is live at each
/// block's edges, and a worklist revisits only the blocks whose successors changed.
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

    // Upward-exposed uses and definitions of every block, and the blocks that reach each one
    // by a normal edge or an exception edge.
    let (mut defined, mut used) = (BitSet::new(n), BitSet::new(n));
    let mut gen: Vec<Vec<u32>> = Vec::with_capacity(nb);
    let mut kill: Vec<Vec<u32>> = Vec::with_capacity(nb);
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); nb];
    for (bi, b) in f.blocks.iter().enumerate() {
        let (mut g, mut k) = (Vec::new(), Vec::new());
        for inst in &b.insts {
            inst.for_each_use(|v| {
                if tracked(v) && !defined.contains(v.index()) && used.insert(v.index()) {
                    g.push(v.0);
                }
            });
            inst.for_each_def(|v| {
                if tracked(v) && defined.insert(v.index()) {
                    k.push(v.0);
                }
            });
        }
        for &v in &g {
            used.remove(v as usize);
        }
        for &v in &k {
            defined.remove(v as usize);
        }
        g.sort_unstable();
        k.sort_unstable();
        gen.push(g);
        kill.push(k);
        for &s in b.succs.iter().chain(&b.handlers) {
            preds[s].push(bi as u32);
        }
    }

    // live_in = gen ∪ (live_out − kill) ∪ exc_in, where live_out is the union of the
    // successors' live_in and exc_in that of the handlers'. Every set only grows, so a
    // block's live_in changed when its size did.
    let mut live_in: Vec<Vec<u32>> = vec![Vec::new(); nb];
    let union_of = |sets: &mut dyn Iterator<Item = &Vec<u32>>| -> Vec<u32> {
        let mut out: Vec<u32> = sets.flatten().copied().collect();
        out.sort_unstable();
        out.dedup();
        out
    };
    // Blocks to visit, last block first (fast for forward layouts).
    let mut work: Vec<u32> = (0..nb as u32).collect();
    let mut queued = vec![true; nb];
    while let Some(bi) = work.pop() {
        let bi = bi as usize;
        queued[bi] = false;
        let b = &f.blocks[bi];
        let out = union_of(&mut b.succs.iter().map(|&s| &live_in[s]));
        let mut new_in = minus(&out, &kill[bi]);
        new_in.extend_from_slice(&gen[bi]);
        new_in.extend(b.handlers.iter().flat_map(|&h| live_in[h].iter().copied()));
        new_in.sort_unstable();
        new_in.dedup();
        if new_in.len() != live_in[bi].len() {
            live_in[bi] = new_in;
            for &p in &preds[bi] {
                if !std::mem::replace(&mut queued[p as usize], true) {
                    work.push(p);
                }
            }
        }
    }

    if let Some(v) = live_in.first().and_then(|s| s.first()) {
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
    // What is live at the current instruction of the block being walked, and every vreg
    // that set held (to empty it for the next block).
    let mut live = BitSet::new(n);
    let mut touched: Vec<u32> = Vec::new();
    for bi in (0..nb).rev() {
        let b = &f.blocks[bi];
        let from = 2 * block_start[bi];
        let to = 2 * (block_start[bi] + b.insts.len() as u32);
        for &v in &union_of(&mut b.succs.iter().map(|&s| &live_in[s])) {
            add_range(&mut intervals[v as usize], from, to);
            live.insert(v as usize);
            touched.push(v);
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
                    if live.insert(v.index()) {
                        touched.push(v.0);
                    }
                }
            });
        }
        for v in touched.drain(..) {
            live.remove(v as usize);
        }
        for &v in &union_of(&mut b.handlers.iter().map(|&h| &live_in[h])) {
            add_range(&mut intervals[v as usize], from, to);
        }
    }
    for iv in &mut intervals {
        normalize(iv);
    }
    Ok(Liveness { intervals })
}

/// The members of sorted `a` that are not in sorted `b`.
fn minus(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(a.len());
    let mut j = 0;
    for &x in a {
        while j < b.len() && b[j] < x {
            j += 1;
        }
        if j >= b.len() || b[j] != x {
            out.push(x);
        }
    }
    out
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
#[cfg(test)]
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

/// A set of positions that grows by segments: a sorted list while it is small, a search tree
/// once it is large, so that adding to it and testing a segment against it cost a logarithm
/// of its size (a register's occupancy over a function of a million instructions).
#[derive(Clone, Debug)]
pub enum IntervalSet {
    /// Sorted segments, merged where they overlap or touch.
    List(Vec<Segment>),
    /// Disjoint segments, start to end, merged where they overlap or touch.
    Tree(std::collections::BTreeMap<u32, u32>),
}

impl Default for IntervalSet {
    fn default() -> IntervalSet {
        IntervalSet::List(Vec::new())
    }
}

/// The segments of an [`IntervalSet`], ascending (an iterator the allocator makes for every
/// interference test: not boxed).
pub enum Segments<'a> {
    /// Of a list.
    List(std::slice::Iter<'a, Segment>),
    /// Of a tree.
    Tree(std::collections::btree_map::Iter<'a, u32, u32>),
}

impl Iterator for Segments<'_> {
    type Item = Segment;

    fn next(&mut self) -> Option<Segment> {
        match self {
            Segments::List(l) => l.next().copied(),
            Segments::Tree(t) => t.next().map(|(&s, &e)| (s, e)),
        }
    }
}

/// Past this many segments a list becomes a tree.
const LIST_LIMIT: usize = 32;

impl IntervalSet {
    /// The set of sorted, disjoint `segs`.
    pub fn from_sorted(segs: Vec<Segment>) -> IntervalSet {
        if segs.len() > LIST_LIMIT {
            IntervalSet::Tree(segs.into_iter().collect())
        } else {
            IntervalSet::List(segs)
        }
    }

    /// Number of segments.
    pub fn len(&self) -> usize {
        match self {
            IntervalSet::List(l) => l.len(),
            IntervalSet::Tree(t) => t.len(),
        }
    }

    /// Whether the set has no position.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The segments, ascending.
    pub fn iter(&self) -> Segments<'_> {
        match self {
            IntervalSet::List(l) => Segments::List(l.iter()),
            IntervalSet::Tree(t) => Segments::Tree(t.iter()),
        }
    }

    /// The first segment.
    pub fn first(&self) -> Option<Segment> {
        match self {
            IntervalSet::List(l) => l.first().copied(),
            IntervalSet::Tree(t) => t.first_key_value().map(|(&s, &e)| (s, e)),
        }
    }

    /// The last segment.
    pub fn last(&self) -> Option<Segment> {
        match self {
            IntervalSet::List(l) => l.last().copied(),
            IntervalSet::Tree(t) => t.last_key_value().map(|(&s, &e)| (s, e)),
        }
    }

    /// Whether the set shares a position with `[s, e)`.
    pub fn overlaps_segment(&self, (s, e): Segment) -> bool {
        match self {
            IntervalSet::List(l) => {
                let k = l.partition_point(|&(_, le)| le <= s);
                k < l.len() && l[k].0 < e
            }
            // Disjoint segments sorted by start have their ends sorted too: the last one
            // starting before `e` ends last of those.
            IntervalSet::Tree(t) => t.range(..e).next_back().is_some_and(|(_, &te)| te > s),
        }
    }

    /// Whether the set shares a position with any of `segs`.
    pub fn overlaps(&self, segs: &[Segment]) -> bool {
        segs.iter().any(|&seg| self.overlaps_segment(seg))
    }

    /// Whether two sets share a position (the smaller one is looked up in the larger).
    pub fn overlaps_set(&self, other: &IntervalSet) -> bool {
        let (small, big) = if self.len() <= other.len() { (self, other) } else { (other, self) };
        small.iter().any(|seg| big.overlaps_segment(seg))
    }

    /// Adds `[s, e)`.
    pub fn insert(&mut self, (mut s, mut e): Segment) {
        match self {
            IntervalSet::List(l) => {
                // The segments that overlap or touch [s, e) are l[lo..hi].
                let lo = l.partition_point(|&(_, le)| le < s);
                let hi = l.partition_point(|&(ls, _)| ls <= e);
                if lo < hi {
                    s = s.min(l[lo].0);
                    e = e.max(l[hi - 1].1);
                }
                l.splice(lo..hi, [(s, e)]);
                if l.len() > LIST_LIMIT {
                    *self = IntervalSet::Tree(std::mem::take(l).into_iter().collect());
                }
            }
            IntervalSet::Tree(t) => {
                if let Some((&ps, &pe)) = t.range(..=s).next_back() {
                    if pe >= s {
                        s = ps;
                        e = e.max(pe);
                        t.remove(&ps);
                    }
                }
                while let Some((&ns, &ne)) = t.range(s..=e).next() {
                    e = e.max(ne);
                    t.remove(&ns);
                }
                t.insert(s, e);
            }
        }
    }

    /// Adds every segment of `segs`.
    pub fn insert_all(&mut self, segs: impl IntoIterator<Item = Segment>) {
        for seg in segs {
            self.insert(seg);
        }
    }
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
        assert!(s.contains(3) && s.contains(129) && !s.contains(4));
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
        let mut occ = IntervalSet::from_sorted(vec![(0, 2), (8, 9)]);
        assert!(occ.overlaps(&[(4, 5), (1, 2)]));
        assert!(!occ.overlaps(&[(2, 3), (9, 10)]));
        occ.insert_all([(2, 4), (10, 11)]);
        assert_eq!(occ.iter().collect::<Vec<_>>(), vec![(0, 4), (8, 9), (10, 11)]);
    }

    #[test]
    fn interval_sets_agree_with_a_position_model() {
        // Random segments into a set (a list, then a tree past LIST_LIMIT) and into a plain
        // array of positions; every query must agree.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |m: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % u64::from(m)) as u32
        };
        for _ in 0..20 {
            let mut set = IntervalSet::default();
            let mut model = vec![false; 600];
            for _ in 0..120 {
                let s = next(580);
                let e = s + 1 + next(12);
                let overlaps = (s..e).any(|p| model[p as usize]);
                assert_eq!(set.overlaps_segment((s, e)), overlaps, "[{s}, {e}) against {set:?}");
                if next(3) > 0 {
                    set.insert((s, e));
                    (s..e).for_each(|p| model[p as usize] = true);
                }
                let segs: Vec<Segment> = set.iter().collect();
                assert!(segs.windows(2).all(|w| w[0].1 < w[1].0), "sorted, disjoint, apart: {segs:?}");
                let covered: Vec<bool> = (0..600).map(|p| segs.iter().any(|&(a, b)| a <= p && p < b)).collect();
                assert_eq!(covered, model);
            }
            assert!(matches!(set, IntervalSet::Tree(_)) || set.len() <= LIST_LIMIT);
            let other = IntervalSet::from_sorted(vec![(0, 1), (599, 600)]);
            assert_eq!(set.overlaps_set(&other), model[0] || model[599]);
        }
    }
}
