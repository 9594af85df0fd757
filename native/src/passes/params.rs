//! Block parameters that are not real merges go: a parameter that every edge into its block
//! (from a block the entry reaches) passes the same value — the only edge of a block with one predecessor, or a loop header's
//! value that the loop passes back unchanged (the parameter itself) — is that value.
//!
//! ```text
//!  block3(v20: value) loop:  ...  brif v9, block2(v20), block4      block3:  ... brif v9, block2, block4
//!  block2(v7: value):  ...  jump block3(v7)                   ──▶    block2:  ... jump block3
//!  (block3 entered from the preheader with v34)                      (uses of v20 and v7 use v34)
//! ```
//!
//! Such a value dominates the block (every path into it passes through an edge that passes
//! it, except edges from inside the loop, which pass the parameter itself). The translator
//! passes every live register along every edge; this leaves the merges that matter, so that
//! `repr` can unbox them and `fold` sees constants through loops.

use std::collections::HashMap;

use crate::mir::verify::Dominators;
use crate::mir::*;

pub fn run(f: &mut Function) -> bool {
    let Some(entry) = f.entry() else { return false };
    let mut replace: HashMap<Val, Val> = HashMap::new();
    let dom = Dominators::new(f);
    loop {
        // The arguments of every edge into each block (through the replacements so far),
        // from blocks the entry reaches (`fold` may have cut others off).
        let mut edges: HashMap<Block, Vec<Vec<Val>>> = HashMap::new();
        for &pred in f.layout.iter().filter(|&&b| dom.reachable(b)) {
            if let Some(last) = f.block(pred).insts.last() {
                for (target, args) in last.op.successors() {
                    edges.entry(target).or_default().push(args.iter().map(|&a| super::resolve(&replace, a)).collect());
                }
            }
        }
        let mut removed: Vec<(Block, Vec<usize>)> = Vec::new();
        for &b in f.layout.iter().filter(|&&b| b != entry) {
            let Some(list) = edges.get(&b) else { continue };
            let mut gone = Vec::new();
            for (k, &p) in f.block(b).params.iter().enumerate() {
                let Some(x) = same_value(list.iter().map(|args| args[k]), p) else { continue };
                // (Blocks the entry cannot reach may pass each other's parameters around.)
                let x = super::resolve(&replace, x);
                if x != p {
                    replace.insert(p, x);
                    gone.push(k);
                }
            }
            if !gone.is_empty() {
                removed.push((b, gone));
            }
        }
        if removed.is_empty() {
            break;
        }
        for (b, gone) in removed {
            remove_params(f, b, &gone);
        }
    }
    let changed = !replace.is_empty();
    super::replace_uses(f, &replace);
    changed
}

/// The one value `args` holds besides `p` itself, if there is exactly one.
fn same_value(args: impl Iterator<Item = Val>, p: Val) -> Option<Val> {
    let mut same = None;
    for a in args.filter(|&a| a != p) {
        match same {
            None => same = Some(a),
            Some(s) if s == a => {}
            Some(_) => return None,
        }
    }
    same
}

/// Removes parameters `gone` (ascending indices) of `b`, and the arguments every edge into
/// `b` passes for them.
fn remove_params(f: &mut Function, b: Block, gone: &[usize]) {
    for &pred in &f.layout.clone() {
        let Some(last) = f.blocks[pred.0 as usize].insts.last_mut() else { continue };
        last.op.for_each_edge_to(b, |args| {
            for &k in gone.iter().rev() {
                args.remove(k);
            }
        });
    }
    let params = &mut f.blocks[b.0 as usize].params;
    for &k in gone.iter().rev() {
        let p = params.remove(k);
        f.values[p.0 as usize].def = ValueDef::Dead;
    }
}
