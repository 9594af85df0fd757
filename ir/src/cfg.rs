//! The control-flow graph of a function: successors, predecessors, reverse post-order and
//! try regions.
//!
//! Edges come from terminator targets of blocks in the layout (targets outside the layout are
//! ignored here and reported by the verifier). A `TryStart` has two edges, to the try body
//! and to the handler: the handler is entered from the point the region starts, so a value
//! defined inside the body does not dominate the handler. A `SaveAndYield` has an edge to its
//! resume block. Predecessor lists hold each predecessor once, in layout order.
//!
//! The CFG is a snapshot: any pass that changes terminators or the layout invalidates it.

use hashbrown::HashSet;

use crate::entity::EntityRef;
use crate::function::Function;
use crate::inst::Opcode;
use crate::{Block, Inst};

/// Successors, predecessors and reverse post-order of a function.
#[derive(Clone, Debug)]
pub struct Cfg {
    /// The successors of block `b` are `succ_list[succ_range[b].0..succ_range[b].1]`.
    succ_range: Vec<(u32, u32)>,
    succ_list: Vec<Block>,
    /// The predecessors of block `b` are `pred_list[pred_start[b]..pred_start[b + 1]]`.
    pred_start: Vec<u32>,
    pred_list: Vec<Block>,
    rpo: Vec<Block>,
    /// Position of each block in `rpo`; `u32::MAX` when unreachable or not in the layout.
    rpo_index: Vec<u32>,
    in_layout: Vec<bool>,
}

impl Cfg {
    /// Computes the CFG of `func`.
    pub fn new(func: &Function) -> Cfg {
        let n = func.blocks.len();
        let mut in_layout = vec![false; n];
        for &b in &func.layout {
            if b.index() < n {
                in_layout[b.index()] = true;
            }
        }
        // Successors in layout order, each block's list one run of `succ_list`; then the
        // predecessors by counting and placing, which keeps them in layout order.
        let mut succ_range = vec![(0u32, 0u32); n];
        let mut succ_list = Vec::new();
        let mut pred_start = vec![0u32; n + 1];
        for &b in &func.layout {
            if b.index() >= n || func.blocks[b].insts.last().is_some_and(|i| i.index() >= func.insts.len()) {
                continue; // reported by the verifier
            }
            let start = succ_list.len();
            for &s in func.successors(b) {
                if s.index() < n && in_layout[s.index()] && !succ_list[start..].contains(&s) {
                    succ_list.push(s);
                    pred_start[s.index() + 1] += 1;
                }
            }
            succ_range[b.index()] = (start as u32, succ_list.len() as u32);
        }
        for k in 1..pred_start.len() {
            pred_start[k] += pred_start[k - 1];
        }
        let mut next = pred_start.clone();
        let mut pred_list = vec![Block::new(0); succ_list.len()];
        for &b in &func.layout {
            if b.index() < n {
                let (start, end) = succ_range[b.index()];
                for &s in &succ_list[start as usize..end as usize] {
                    pred_list[next[s.index()] as usize] = b;
                    next[s.index()] += 1;
                }
            }
        }
        let succs = |b: Block| -> &[Block] {
            let (start, end) = succ_range[b.index()];
            &succ_list[start as usize..end as usize]
        };
        // Reverse post-order by an iterative depth-first search from the entry, visiting
        // successors in target order.
        let mut rpo = Vec::new();
        let mut visited = vec![false; n];
        if let Some(&entry) = func.layout.first().filter(|b| b.index() < n) {
            let mut stack: Vec<(Block, usize)> = vec![(entry, 0)];
            visited[entry.index()] = true;
            while let Some(&mut (b, ref mut next)) = stack.last_mut() {
                if let Some(&s) = succs(b).get(*next) {
                    *next += 1;
                    if !visited[s.index()] {
                        visited[s.index()] = true;
                        stack.push((s, 0));
                    }
                } else {
                    rpo.push(b);
                    stack.pop();
                }
            }
            rpo.reverse();
        }
        let mut rpo_index = vec![u32::MAX; n];
        for (i, &b) in rpo.iter().enumerate() {
            rpo_index[b.index()] = i as u32;
        }
        Cfg { succ_range, succ_list, pred_start, pred_list, rpo, rpo_index, in_layout }
    }

    /// The distinct successors of `b`, in target order.
    pub fn succs(&self, b: Block) -> &[Block] {
        match self.succ_range.get(b.index()) {
            Some(&(start, end)) => &self.succ_list[start as usize..end as usize],
            None => &[],
        }
    }

    /// The distinct predecessors of `b` (blocks in the layout), in layout order.
    pub fn preds(&self, b: Block) -> &[Block] {
        match (self.pred_start.get(b.index()), self.pred_start.get(b.index() + 1)) {
            (Some(&start), Some(&end)) => &self.pred_list[start as usize..end as usize],
            _ => &[],
        }
    }

    /// The blocks reachable from the entry, in reverse post-order (the entry first).
    pub fn rpo(&self) -> &[Block] {
        &self.rpo
    }

    /// The position of `b` in reverse post-order, if it is reachable.
    pub fn rpo_index(&self, b: Block) -> Option<usize> {
        match self.rpo_index.get(b.index()) {
            Some(&i) if i != u32::MAX => Some(i as usize),
            _ => None,
        }
    }

    /// Whether `b` is reachable from the entry.
    pub fn is_reachable(&self, b: Block) -> bool {
        self.rpo_index(b).is_some()
    }

    /// Whether `b` is in the layout.
    pub fn in_layout(&self, b: Block) -> bool {
        self.in_layout.get(b.index()).copied().unwrap_or(false)
    }

    /// Every block reachable from `from` (including `from`).
    pub fn reachable_from(&self, from: Block) -> HashSet<Block> {
        let mut seen = HashSet::new();
        let mut work = vec![from];
        while let Some(b) = work.pop() {
            if seen.insert(b) {
                work.extend(self.succs(b).iter().copied());
            }
        }
        seen
    }
}

/// The try regions of a function: for each reachable block, the `TryStart` instructions of
/// the regions it is inside, outermost first.
///
/// A region of `TryStart body, handler` contains `body` and everything reached from it until
/// the `TryEnd` that closes it; the handler and what follows it are outside the region (but
/// inside any enclosing one). Every block must be reached with one nesting; the backend's
/// handler tables depend on it.
#[derive(Clone, Debug)]
pub struct TryRegions {
    /// By block index; `None` for unreachable blocks.
    stacks: Vec<Option<Vec<Inst>>>,
}

/// A block reached with two different try nestings, or a `TryEnd` outside any region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TryRegionError {
    /// Where the inconsistency was found.
    pub block: Block,
    /// What is wrong.
    pub message: String,
}

impl TryRegions {
    /// Computes the try nesting of every reachable block; errors name the blocks whose
    /// nesting is inconsistent (the result is still usable: the first nesting found wins).
    pub fn new(func: &Function, cfg: &Cfg) -> (TryRegions, Vec<TryRegionError>) {
        let n = func.blocks.len();
        let mut stacks: Vec<Option<Vec<Inst>>> = vec![None; n];
        let mut errors = Vec::new();
        let Some(&entry) = cfg.rpo().first() else {
            return (TryRegions { stacks }, errors);
        };
        stacks[entry.index()] = Some(Vec::new());
        let mut work = vec![entry];
        while let Some(b) = work.pop() {
            let stack = stacks[b.index()].clone().expect("worklist blocks have a nesting");
            let Some(term) = func.terminator(b) else { continue };
            let data = &func.insts[term];
            let mut edges: Vec<(Block, Vec<Inst>)> = Vec::new();
            match data.opcode {
                Opcode::TryStart => {
                    let mut inner = stack.clone();
                    inner.push(term);
                    if let Some(&body) = data.targets.first() {
                        edges.push((body, inner));
                    }
                    if let Some(&handler) = data.targets.get(1) {
                        edges.push((handler, stack.clone()));
                    }
                }
                Opcode::TryEnd => {
                    let mut outer = stack.clone();
                    if outer.pop().is_none() {
                        errors.push(TryRegionError { block: b, message: "try_end outside any try region".into() });
                    }
                    for &t in &data.targets {
                        edges.push((t, outer.clone()));
                    }
                }
                _ => {
                    for &t in &data.targets {
                        edges.push((t, stack.clone()));
                    }
                }
            }
            for (t, s) in edges {
                if !cfg.in_layout(t) {
                    continue;
                }
                match &stacks[t.index()] {
                    None => {
                        stacks[t.index()] = Some(s);
                        work.push(t);
                    }
                    Some(existing) if *existing != s => errors.push(TryRegionError {
                        block: t,
                        message: format!(
                            "block is reached inside {} try regions and inside {}",
                            existing.len(),
                            s.len()
                        ),
                    }),
                    Some(_) => {}
                }
            }
        }
        (TryRegions { stacks }, errors)
    }

    /// The `TryStart`s of the regions enclosing `b`, outermost first; `None` if `b` is
    /// unreachable.
    pub fn enclosing(&self, b: Block) -> Option<&[Inst]> {
        self.stacks.get(b.index()).and_then(|s| s.as_deref())
    }

    /// Whether `b` is inside the region of `try_start`.
    pub fn is_inside(&self, b: Block, try_start: Inst) -> bool {
        self.enclosing(b).is_some_and(|s| s.contains(&try_start))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_module;

    fn func(body: &str) -> Function {
        let text = format!("function @0 \"t\"() kind=function strict parent=none length=0\n{body}");
        let m = parse_module(&text).unwrap();
        let f = m.functions.values().next().unwrap().clone();
        f
    }

    #[test]
    fn preds_succs_and_rpo() {
        let f = func(
            "%BB0:\n  %0 = load_param #1\n  cond_branch %0, %BB2, %BB1\n%BB1:\n  branch %BB3\n\
             %BB2:\n  branch %BB3\n%BB3:\n  return %0\n%BB4:\n  branch %BB3\n",
        );
        let cfg = Cfg::new(&f);
        let b = |i: usize| f.layout[i];
        assert_eq!(cfg.succs(b(0)), &[b(2), b(1)]);
        assert_eq!(cfg.preds(b(3)), &[b(1), b(2), b(4)]);
        assert_eq!(cfg.rpo(), &[b(0), b(1), b(2), b(3)]);
        assert!(!cfg.is_reachable(b(4)));
    }

    #[test]
    fn try_regions_nest() {
        let f = func(
            "%BB0:\n  try_start %BB1, %BB2\n%BB1:\n  try_start %BB3, %BB4\n%BB3:\n  try_end %BB5\n\
             %BB4:\n  %0 = catch\n  branch %BB5\n%BB5:\n  try_end %BB6\n%BB2:\n  %1 = catch\n  branch %BB6\n%BB6:\n  return undefined\n",
        );
        let cfg = Cfg::new(&f);
        let (tr, errors) = TryRegions::new(&f, &cfg);
        assert!(errors.is_empty(), "{errors:?}");
        let b = |i: usize| f.layout[i];
        let outer = f.terminator(b(0)).unwrap();
        let inner = f.terminator(b(1)).unwrap();
        assert_eq!(tr.enclosing(b(0)).unwrap(), &[]);
        assert_eq!(tr.enclosing(b(2)).unwrap(), &[outer, inner]);
        assert_eq!(tr.enclosing(b(3)).unwrap(), &[outer]);
        assert_eq!(tr.enclosing(b(4)).unwrap(), &[outer]);
        assert_eq!(tr.enclosing(b(5)).unwrap(), &[]);
        assert_eq!(tr.enclosing(b(6)).unwrap(), &[]);
    }

    #[test]
    fn inconsistent_try_nesting_is_reported() {
        let f = func("%BB0:\n  try_start %BB1, %BB2\n%BB1:\n  branch %BB2\n%BB2:\n  %0 = catch\n  return %0\n");
        let cfg = Cfg::new(&f);
        let (_, errors) = TryRegions::new(&f, &cfg);
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].block, f.layout[2]);
    }
}
