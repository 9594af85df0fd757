//! Check elimination by ranges and facts. Walking the dominator tree, the pass knows
//!
//! - a range `[lo, hi]` for every i32 value: constants, array lengths (never negative),
//!   arithmetic on ranges, block parameters as the union of their arguments, and loop
//!   counters that only count up from a known start;
//! - facts `x cc y` that hold where it is: the condition of a branch on the edge into a
//!   block that only that edge enters, and the negation of every `check` already passed.
//!
//! With them it removes a `check` whose condition cannot hold (a bounds check `i >=u n`
//! below a loop test `i < n` with `i` counting up from 0), and turns overflow-checked
//! arithmetic whose result fits into plain arithmetic (`i + 1` below `i < n`). A check
//! dominated by an equal one is GVN's work.

use std::collections::HashMap;

use crate::mir::verify::{predecessors, Dominators};
use crate::mir::*;

/// An inclusive i32 range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Range {
    lo: i64,
    hi: i64,
}

impl Range {
    const FULL: Range = Range { lo: i32::MIN as i64, hi: i32::MAX as i64 };

    fn new(lo: i64, hi: i64) -> Range {
        Range { lo: lo.max(i32::MIN as i64), hi: hi.min(i32::MAX as i64) }
    }

    fn union(self, o: Range) -> Range {
        Range { lo: self.lo.min(o.lo), hi: self.hi.max(o.hi) }
    }

    fn fits(lo: i64, hi: i64) -> bool {
        lo >= i32::MIN as i64 && hi <= i32::MAX as i64
    }
}

/// `x cc y` holds.
#[derive(Clone, Copy, Debug)]
struct Fact {
    cc: IntCC,
    x: Val,
    y: Val,
}

fn inverse(cc: IntCC) -> IntCC {
    use IntCC::*;
    match cc {
        Eq => Ne,
        Ne => Eq,
        Slt => Sge,
        Sge => Slt,
        Sle => Sgt,
        Sgt => Sle,
        Ult => Uge,
        Uge => Ult,
        Ule => Ugt,
        Ugt => Ule,
    }
}

/// `cc` with its operands swapped (`x cc y` is `y swapped(cc) x`).
fn swapped(cc: IntCC) -> IntCC {
    use IntCC::*;
    match cc {
        Eq | Ne => cc,
        Slt => Sgt,
        Sgt => Slt,
        Sle => Sge,
        Sge => Sle,
        Ult => Ugt,
        Ugt => Ult,
        Ule => Uge,
        Uge => Ule,
    }
}

struct Checks<'f> {
    f: &'f Function,
    /// Ranges by value (i32 values only; others are absent).
    ranges: HashMap<Val, Range>,
    /// The facts that hold at the current point of the walk.
    facts: Vec<Fact>,
}

pub fn run(f: &mut Function) -> bool {
    let dom = Dominators::new(f);
    let Some(entry) = f.entry() else { return false };
    let ranges = ranges(f, &dom);
    let preds = predecessors(f);
    let children = dom.children();
    // Decisions are made on an unchanged function and applied afterwards.
    let mut removed: Vec<(Block, usize)> = Vec::new();
    let mut unchecked: Vec<(Block, usize)> = Vec::new();
    {
        let mut c = Checks { f, ranges, facts: Vec::new() };
        let mut stack: Vec<(Block, Option<usize>)> = vec![(entry, None)];
        while let Some((b, leave)) = stack.pop() {
            if let Some(mark) = leave {
                c.facts.truncate(mark);
                continue;
            }
            stack.push((b, Some(c.facts.len())));
            if let Some(fact) = edge_fact(f, &dom, &preds, b) {
                c.facts.push(fact);
            }
            for (i, inst) in f.block(b).insts.iter().enumerate() {
                match inst.op {
                    Op::Check(cond, _) => match c.compare(cond) {
                        Some((cc, x, y)) if c.decide(cc, x, y) == Some(false) => removed.push((b, i)),
                        Some((cc, x, y)) => c.facts.push(Fact { cc: inverse(cc), x, y }),
                        None => {}
                    },
                    Op::Checked(op, x, y) if c.no_overflow(op, x, y) => unchecked.push((b, i)),
                    _ => {}
                }
            }
            for &child in children.get(&b).into_iter().flatten().rev() {
                stack.push((child, None));
            }
        }
    }
    let changed = !removed.is_empty() || !unchecked.is_empty();
    for &(b, i) in &unchecked {
        let inst = &mut f.blocks[b.0 as usize].insts[i];
        if let Op::Checked(op, x, y) = inst.op {
            let op = match op {
                CheckedOp::Add => IntOp::Add,
                CheckedOp::Sub => IntOp::Sub,
                CheckedOp::Mul => IntOp::Mul,
            };
            inst.op = Op::Int(op, x, y);
            inst.exit = None;
        }
    }
    // Removing from the end keeps the earlier indices of a block valid.
    for &(b, i) in removed.iter().rev() {
        f.blocks[b.0 as usize].insts.remove(i);
    }
    if changed {
        f.recompute_defs();
    }
    changed
}

/// The fact the only edge into `b` establishes: `b` is one target of a `brif` on an
/// integer comparison in its only predecessor (and not both).
fn edge_fact(f: &Function, dom: &Dominators, preds: &[Vec<Block>], b: Block) -> Option<Fact> {
    let [p] = preds.get(b.0 as usize)?.as_slice() else { return None };
    if dom.idom(b) != Some(*p) {
        return None;
    }
    let Op::Brif(cond, t, _, e, _) = f.block(*p).insts.last()?.op else { return None };
    if t == e {
        return None;
    }
    let (cc, x, y) = comparison(f, cond)?;
    Some(if b == t { Fact { cc, x, y } } else { Fact { cc: inverse(cc), x, y } })
}

/// The i32 comparison that defines `cond`, if it is one.
fn comparison(f: &Function, cond: Val) -> Option<(IntCC, Val, Val)> {
    let ValueDef::Inst(b, i) = f.values.get(cond.0 as usize)?.def else { return None };
    match f.block(b).insts.get(i as usize)?.op {
        Op::Icmp(cc, x, y) if f.ty(x) == Type::I32 => Some((cc, x, y)),
        _ => None,
    }
}

/// The ranges of the i32 values of `f`, in one pass over the blocks in reverse postorder.
fn ranges(f: &Function, dom: &Dominators) -> HashMap<Val, Range> {
    let preds = predecessors(f);
    let mut ranges: HashMap<Val, Range> = HashMap::new();
    for &b in &dom.rpo {
        let data = f.block(b);
        for (k, &p) in data.params.iter().enumerate() {
            if f.ty(p) != Type::I32 {
                continue;
            }
            let mut r: Option<Range> = None;
            let mut counts_up = true;
            for &pred in &preds[b.0 as usize] {
                let Some(last) = f.block(pred).insts.last() else { continue };
                for (target, args) in last.op.successors() {
                    let Some(&a) = args.get(k).filter(|_| target == b) else { continue };
                    if dom.rpo_index(pred) >= dom.rpo_index(b) {
                        // A back edge: the loop must only count `p` up.
                        counts_up &= increments(f, dom, &preds, a, p);
                    } else {
                        let ra = ranges.get(&a).copied().unwrap_or(Range::FULL);
                        r = Some(r.map_or(ra, |r| r.union(ra)));
                    }
                }
            }
            let r = r.unwrap_or(Range::FULL);
            let looped = data.is_loop || preds[b.0 as usize].iter().any(|&q| dom.rpo_index(q) >= dom.rpo_index(b));
            ranges.insert(
                p,
                if !looped {
                    r
                } else if counts_up {
                    Range::new(r.lo, i32::MAX as i64)
                } else {
                    Range::FULL
                },
            );
        }
        for inst in &data.insts {
            let Some(res) = inst.result.filter(|&r| f.ty(r) == Type::I32) else { continue };
            let get = |v: Val| ranges.get(&v).copied().unwrap_or(Range::FULL);
            let r = match inst.op {
                Op::Iconst(_, n) => Range::new(n as i32 as i64, n as i32 as i64),
                Op::ArrayLength(_) => Range::new(0, i32::MAX as i64),
                Op::Icmp(..) | Op::Fcmp(..) | Op::TagIs(..) => Range::new(0, 1),
                Op::Int(IntOp::Add, x, y) | Op::Checked(CheckedOp::Add, x, y) => {
                    let (a, c) = (get(x), get(y));
                    let (lo, hi) = (a.lo + c.lo, a.hi + c.hi);
                    if Range::fits(lo, hi) || matches!(inst.op, Op::Checked(..)) {
                        Range::new(lo, hi)
                    } else {
                        Range::FULL
                    }
                }
                Op::Int(IntOp::Sub, x, y) | Op::Checked(CheckedOp::Sub, x, y) => {
                    let (a, c) = (get(x), get(y));
                    let (lo, hi) = (a.lo - c.hi, a.hi - c.lo);
                    if Range::fits(lo, hi) || matches!(inst.op, Op::Checked(..)) {
                        Range::new(lo, hi)
                    } else {
                        Range::FULL
                    }
                }
                Op::Int(IntOp::And, x, y) => {
                    let (a, c) = (get(x), get(y));
                    match (a.lo >= 0, c.lo >= 0) {
                        (true, true) => Range::new(0, a.hi.min(c.hi)),
                        (true, false) => Range::new(0, a.hi),
                        (false, true) => Range::new(0, c.hi),
                        _ => Range::FULL,
                    }
                }
                _ => Range::FULL,
            };
            ranges.insert(res, r);
        }
    }
    ranges
}

/// Whether `a`, passed back to loop parameter `p`, is `p` or `p + c` for a constant
/// `c >= 0` that cannot wrap: an overflow-checked add, or an add of 1 below a test `p < y`.
fn increments(f: &Function, dom: &Dominators, preds: &[Vec<Block>], a: Val, p: Val) -> bool {
    if a == p {
        return true;
    }
    let ValueDef::Inst(b, i) = f.values[a.0 as usize].def else { return false };
    let constant = |v: Val| match f.values[v.0 as usize].def {
        ValueDef::Inst(cb, ci) => match f.block(cb).insts[ci as usize].op {
            Op::Iconst(_, n) => Some(n as i32 as i64),
            _ => None,
        },
        _ => None,
    };
    let step = match f.block(b).insts[i as usize].op {
        Op::Checked(CheckedOp::Add, x, y) | Op::Int(IntOp::Add, x, y) if x == p => constant(y),
        Op::Checked(CheckedOp::Add, x, y) | Op::Int(IntOp::Add, x, y) if y == p => constant(x),
        _ => None,
    };
    match (step, &f.block(b).insts[i as usize].op) {
        (Some(c), Op::Checked(..)) => c >= 0,
        (Some(0), _) => true,
        (Some(1), _) => {
            // Below an edge that says `p < y`, `p + 1` cannot wrap.
            let mut at = b;
            loop {
                if let Some(Fact { cc: IntCC::Slt, x, .. }) = edge_fact(f, dom, preds, at) {
                    if x == p {
                        return true;
                    }
                }
                match dom.idom(at) {
                    Some(d) if d != at => at = d,
                    _ => return false,
                }
            }
        }
        _ => false,
    }
}

impl Checks<'_> {
    /// The i32 comparison that defines `cond`.
    fn compare(&self, cond: Val) -> Option<(IntCC, Val, Val)> {
        comparison(self.f, cond)
    }

    /// The range of `v` here: its range narrowed by the facts about it.
    fn range(&self, v: Val) -> Range {
        let global = |v: Val| self.ranges.get(&v).copied().unwrap_or(Range::FULL);
        let mut r = global(v);
        for fact in &self.facts {
            let (cc, other) = if fact.x == v {
                (fact.cc, fact.y)
            } else if fact.y == v {
                (swapped(fact.cc), fact.x)
            } else {
                continue;
            };
            let o = global(other);
            match cc {
                IntCC::Slt => r.hi = r.hi.min(o.hi - 1),
                IntCC::Sle => r.hi = r.hi.min(o.hi),
                IntCC::Sgt => r.lo = r.lo.max(o.lo + 1),
                IntCC::Sge => r.lo = r.lo.max(o.lo),
                IntCC::Eq => r = Range { lo: r.lo.max(o.lo), hi: r.hi.min(o.hi) },
                // `v <u other` with `other` not negative: 0 <= v < other.
                IntCC::Ult if o.lo >= 0 => r = Range { lo: r.lo.max(0), hi: r.hi.min(o.hi - 1) },
                IntCC::Ule if o.lo >= 0 => r = Range { lo: r.lo.max(0), hi: r.hi.min(o.hi) },
                _ => {}
            }
        }
        r
    }

    /// Whether `x cc y` is known true or false here.
    fn decide(&self, cc: IntCC, x: Val, y: Val) -> Option<bool> {
        use IntCC::*;
        if x == y {
            return Some(matches!(cc, Eq | Sle | Sge | Ule | Uge));
        }
        let (rx, ry) = (self.range(x), self.range(y));
        let nonneg = rx.lo >= 0 && ry.lo >= 0;
        // A fact about the same pair, in either order.
        for fact in &self.facts {
            let known = if (fact.x, fact.y) == (x, y) {
                fact.cc
            } else if (fact.x, fact.y) == (y, x) {
                swapped(fact.cc)
            } else {
                continue;
            };
            if let Some(answer) = implies(known, cc, nonneg) {
                return Some(answer);
            }
        }
        // Disjoint or ordered ranges (unsigned ones only when both are not negative).
        let signed = match cc {
            Slt | Ult => (rx.hi < ry.lo, rx.lo >= ry.hi),
            Sle | Ule => (rx.hi <= ry.lo, rx.lo > ry.hi),
            Sgt | Ugt => (rx.lo > ry.hi, rx.hi <= ry.lo),
            Sge | Uge => (rx.lo >= ry.hi, rx.hi < ry.lo),
            Eq => (rx.lo == rx.hi && ry.lo == ry.hi && rx.lo == ry.lo, rx.hi < ry.lo || ry.hi < rx.lo),
            Ne => (rx.hi < ry.lo || ry.hi < rx.lo, rx.lo == rx.hi && ry.lo == ry.hi && rx.lo == ry.lo),
        };
        if matches!(cc, Ult | Ule | Ugt | Uge) && !nonneg {
            return None;
        }
        match signed {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        }
    }

    /// Whether `x op y` cannot overflow here.
    fn no_overflow(&self, op: CheckedOp, x: Val, y: Val) -> bool {
        let (a, b) = (self.range(x), self.range(y));
        let (lo, hi) = match op {
            CheckedOp::Add => (a.lo + b.lo, a.hi + b.hi),
            CheckedOp::Sub => (a.lo - b.hi, a.hi - b.lo),
            CheckedOp::Mul => {
                let products = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi];
                (products.into_iter().min().unwrap_or(0), products.into_iter().max().unwrap_or(0))
            }
        };
        Range::fits(lo, hi)
    }
}

/// What knowing `x known y` says of `x cc y` (`nonneg`: both are known not negative, so
/// signed and unsigned order agree).
fn implies(known: IntCC, cc: IntCC, nonneg: bool) -> Option<bool> {
    use IntCC::*;
    let unsigned_as_signed = |c: IntCC| match c {
        Ult => Slt,
        Ule => Sle,
        Ugt => Sgt,
        Uge => Sge,
        c => c,
    };
    let (known, cc) = if nonneg { (unsigned_as_signed(known), unsigned_as_signed(cc)) } else { (known, cc) };
    if known == cc {
        return Some(true);
    }
    if inverse(known) == cc {
        return Some(false);
    }
    // What each strict or loose order says of the others.
    match (known, cc) {
        (Slt, Sle | Ne) | (Sgt, Sge | Ne) | (Ult, Ule | Ne) | (Ugt, Uge | Ne) => Some(true),
        (Slt, Sgt | Eq) | (Sgt, Slt | Eq) | (Ult, Ugt | Eq) | (Ugt, Ult | Eq) => Some(false),
        (Eq, Sle | Sge | Ule | Uge) => Some(true),
        (Eq, Slt | Sgt | Ult | Ugt) => Some(false),
        _ => None,
    }
}
