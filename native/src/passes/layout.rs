//! Block layout: the order machine code places blocks in. Blocks go in reverse postorder
//! (a block after the blocks that reach it, loops mostly together), and the blocks that
//! only leave compiled code (ending in `deopt`) go last, out of the hot path; the lowering
//! marks them cold. The exits of checks are out of line already (the lowering gives each
//! its own cold block).

use crate::mir::verify::Dominators;
use crate::mir::{Function, Op};

pub fn run(f: &mut Function) -> bool {
    let dom = Dominators::new(f);
    let cold = |b: &crate::mir::Block| matches!(f.block(*b).insts.last().map(|i| &i.op), Some(Op::Deopt(_)));
    let mut order: Vec<_> = dom.rpo.iter().copied().filter(|b| !cold(b)).collect();
    order.extend(dom.rpo.iter().copied().filter(|b| cold(b)));
    // Blocks the entry does not reach keep their place at the end (DCE removes them).
    order.extend(f.layout.iter().copied().filter(|&b| !dom.reachable(b)));
    let changed = order != f.layout;
    f.layout = order;
    changed
}
