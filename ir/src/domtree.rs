//! The dominator tree of a function's reachable blocks, by Cooper, Harvey and Kennedy's
//! "A Simple, Fast Dominance Algorithm", and dominance frontiers for SSA construction.
//!
//! Unreachable blocks are not in the tree; by convention every block dominates an
//! unreachable block (nothing can be wrong about code that never runs), and an unreachable
//! block dominates nothing but itself and other unreachable blocks.
//!
//! Like the CFG it is built from, the tree is a snapshot invalidated by any CFG change.

use crate::cfg::Cfg;
use crate::entity::EntityRef;
use crate::function::Function;
use crate::Block;

/// Immediate dominators, tree children and O(1) dominance queries.
#[derive(Clone, Debug)]
pub struct DomTree {
    /// By block index; `None` for the entry and unreachable blocks.
    idom: Vec<Option<Block>>,
    children: Vec<Vec<Block>>,
    /// Pre-order and post-order numbers in the tree; `u32::MAX` when unreachable.
    pre: Vec<u32>,
    post: Vec<u32>,
    rpo: Vec<Block>,
}

impl DomTree {
    /// Computes the dominator tree of `func` from its CFG.
    pub fn new(func: &Function, cfg: &Cfg) -> DomTree {
        let n = func.blocks.len();
        let rpo = cfg.rpo().to_vec();
        let mut idom: Vec<Option<Block>> = vec![None; n];
        if let Some(&entry) = rpo.first() {
            // The algorithm keeps idom(entry) = entry while it runs.
            idom[entry.index()] = Some(entry);
            let intersect = |idom: &[Option<Block>], mut a: Block, mut b: Block| -> Block {
                while a != b {
                    while cfg.rpo_index(a) > cfg.rpo_index(b) {
                        a = idom[a.index()].expect("processed block has an idom");
                    }
                    while cfg.rpo_index(b) > cfg.rpo_index(a) {
                        b = idom[b.index()].expect("processed block has an idom");
                    }
                }
                a
            };
            let mut changed = true;
            while changed {
                changed = false;
                for &b in &rpo[1..] {
                    let mut new_idom: Option<Block> = None;
                    for &p in cfg.preds(b) {
                        if idom[p.index()].is_none() {
                            continue; // unreachable or not processed yet
                        }
                        new_idom = Some(match new_idom {
                            None => p,
                            Some(cur) => intersect(&idom, p, cur),
                        });
                    }
                    if new_idom.is_some() && idom[b.index()] != new_idom {
                        idom[b.index()] = new_idom;
                        changed = true;
                    }
                }
            }
            idom[entry.index()] = None;
        }
        let mut children = vec![Vec::new(); n];
        for &b in rpo.iter().skip(1) {
            if let Some(d) = idom[b.index()] {
                children[d.index()].push(b);
            }
        }
        let mut pre = vec![u32::MAX; n];
        let mut post = vec![u32::MAX; n];
        if let Some(&entry) = rpo.first() {
            let (mut pre_n, mut post_n) = (0u32, 0u32);
            let mut stack: Vec<(Block, usize)> = vec![(entry, 0)];
            pre[entry.index()] = pre_n;
            pre_n += 1;
            while let Some(&mut (b, ref mut next)) = stack.last_mut() {
                if let Some(&c) = children[b.index()].get(*next) {
                    *next += 1;
                    pre[c.index()] = pre_n;
                    pre_n += 1;
                    stack.push((c, 0));
                } else {
                    post[b.index()] = post_n;
                    post_n += 1;
                    stack.pop();
                }
            }
        }
        DomTree { idom, children, pre, post, rpo }
    }

    /// The immediate dominator of `b`; `None` for the entry and unreachable blocks.
    pub fn idom(&self, b: Block) -> Option<Block> {
        self.idom.get(b.index()).copied().flatten()
    }

    /// The blocks `b` immediately dominates, in reverse post-order.
    pub fn children(&self, b: Block) -> &[Block] {
        self.children.get(b.index()).map_or(&[], |c| c.as_slice())
    }

    /// Whether `b` is reachable (in the tree).
    pub fn is_reachable(&self, b: Block) -> bool {
        self.pre.get(b.index()).is_some_and(|&p| p != u32::MAX)
    }

    /// Whether `a` dominates `b` (reflexive). Every block dominates an unreachable block.
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        if a == b || !self.is_reachable(b) {
            return true;
        }
        if !self.is_reachable(a) {
            return false;
        }
        self.pre[a.index()] <= self.pre[b.index()] && self.post[b.index()] <= self.post[a.index()]
    }

    /// Whether `a` dominates `b` and is not `b`.
    pub fn strictly_dominates(&self, a: Block, b: Block) -> bool {
        a != b && self.dominates(a, b)
    }

    /// The reachable blocks in reverse post-order.
    pub fn rpo(&self) -> &[Block] {
        &self.rpo
    }

    /// The dominance frontier of every block (by block index): the blocks where a
    /// definition in the block stops dominating, where SSA construction places Phis.
    pub fn frontiers(&self, cfg: &Cfg) -> Vec<Vec<Block>> {
        let mut df: Vec<Vec<Block>> = vec![Vec::new(); self.idom.len()];
        for &b in &self.rpo {
            let preds: Vec<Block> = cfg.preds(b).iter().copied().filter(|&p| self.is_reachable(p)).collect();
            if preds.len() < 2 {
                continue;
            }
            let Some(b_idom) = self.idom(b) else { continue };
            for p in preds {
                let mut runner = p;
                while runner != b_idom {
                    if !df[runner.index()].contains(&b) {
                        df[runner.index()].push(b);
                    }
                    match self.idom(runner) {
                        Some(up) => runner = up,
                        None => break,
                    }
                }
            }
        }
        df
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
    fn diamond_and_loop() {
        // 0 -> 1 -> {2, 3} -> 4 -> 1 (loop), 4 -> 5; 6 unreachable.
        let f = func(
            "%BB0:\n  %0 = load_param #1\n  branch %BB1\n%BB1:\n  cond_branch %0, %BB2, %BB3\n\
             %BB2:\n  branch %BB4\n%BB3:\n  branch %BB4\n%BB4:\n  cond_branch %0, %BB1, %BB5\n\
             %BB5:\n  return %0\n%BB6:\n  branch %BB5\n",
        );
        let cfg = Cfg::new(&f);
        let dt = DomTree::new(&f, &cfg);
        let b = |i: usize| f.layout[i];
        assert_eq!(dt.idom(b(0)), None);
        assert_eq!(dt.idom(b(1)), Some(b(0)));
        assert_eq!(dt.idom(b(2)), Some(b(1)));
        assert_eq!(dt.idom(b(3)), Some(b(1)));
        assert_eq!(dt.idom(b(4)), Some(b(1)));
        assert_eq!(dt.idom(b(5)), Some(b(4)));
        assert_eq!(dt.idom(b(6)), None);
        assert!(dt.dominates(b(1), b(5)));
        assert!(!dt.dominates(b(2), b(4)));
        assert!(dt.dominates(b(2), b(6)), "everything dominates unreachable code");
        assert!(!dt.dominates(b(6), b(5)));
        let df = dt.frontiers(&cfg);
        assert_eq!(df[b(2).index()], vec![b(4)]);
        assert_eq!(df[b(3).index()], vec![b(4)]);
        assert_eq!(df[b(4).index()], vec![b(1)]);
        assert_eq!(df[b(1).index()], vec![b(1)]);
        assert!(df[b(0).index()].is_empty());
    }
}
