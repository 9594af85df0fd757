//! Representation selection: numbers stay unboxed across block parameters. A `value`
//! parameter (of a block other than the entry) that every edge passes a boxed number — a
//! `box_i32`, a `box_f64`, a number constant, or the parameter itself around a loop — and
//! that some instruction unboxes, becomes an `i32` parameter (when every number is an
//! int32) or an `f64` one:
//!
//! ```text
//!  block1(v8: value):  v9 = unbox_f64 v8, e1   ──▶   block1(v8: f64):  (uses of v9 use v8)
//!  jump block1(v20) where v20 = box_f64 v19     ──▶   jump block1(v19)
//! ```
//!
//! Each edge passes the unboxed number (converted to f64 when the parameter became f64),
//! unboxes of the parameter become the parameter (or a conversion, which keeps the check
//! when an f64 must be an int32), exits box it as they do every number, and any other use
//! gets it boxed, once per block that has such uses. The boxes left unused are DCE's.
//!
//! A loop counter starts from whatever the function was given, so the edge into a loop
//! header may pass a value that is not known to be a number. When the loop unboxes the
//! parameter on every trip anyway (an unbox in a block that every back edge comes through),
//! the edge unboxes it instead, before the loop, leaving through the header's resume exit
//! (the interpreter at the loop's start) when it is not a number:
//!
//! ```text
//!  jump block3(v4)           ──▶   v9 = unbox_i32 v4, e7     (e7: the header's resume
//!                                  jump block3(v9)              exit, with v4 for v8)
//!  block3(v8: value) loop resume e5:  v10 = unbox_i32 v8, e2  ...   ──▶   block3(v8: i32) loop ...
//! ```

use std::collections::{HashMap, HashSet};

use crate::mir::verify::{predecessors, Dominators};
use crate::mir::*;

pub fn run(f: &mut Function) -> bool {
    let mut changed = false;
    // Converting inserts instructions but no blocks or edges.
    let preds = predecessors(f);
    // Converting one parameter can make another's arguments boxes of numbers.
    while let Some((p, ty)) = candidate(f, &preds) {
        convert(f, &preds, p, ty);
        f.recompute_defs();
        changed = true;
    }
    changed
}

/// What an edge passes to a parameter, seen as a number.
enum Incoming {
    I32(Val),
    F64(Val),
    Const(f64),
    Itself,
}

fn def_op(f: &Function, v: Val) -> Option<&Op> {
    match f.values[v.0 as usize].def {
        ValueDef::Inst(b, i) => f.block(b).insts.get(i as usize).map(|inst| &inst.op),
        _ => None,
    }
}

/// Every argument passed to parameter `k` of `b`, with the block that passes it (`preds`
/// are the predecessors of every block).
fn incoming(f: &Function, preds: &[Vec<Block>], b: Block, k: usize) -> Vec<(Block, Val)> {
    let mut out = Vec::new();
    let mut from = preds[b.0 as usize].clone();
    // A branch with both edges to `b` is listed twice; its edges are read once below.
    from.dedup();
    for pred in from {
        if let Some(last) = f.block(pred).insts.last() {
            for (target, args) in last.op.successors() {
                if target == b {
                    if let Some(&a) = args.get(k) {
                        out.push((pred, a));
                    }
                }
            }
        }
    }
    out
}

/// How an unbox that every trip around `b`'s loop executes unboxes `p` (a parameter of `b`),
/// when `b` is a loop header with a resume exit: `Some(true)` for `unbox_i32`.
fn unboxed_every_trip(f: &Function, dom: &Dominators, b: Block, p: Val) -> Option<bool> {
    f.block(b).resume?;
    let latches: Vec<Block> =
        f.layout.iter().copied().filter(|&q| dom.reachable(q) && dom.dominates(b, q) && jumps_to(f, q, b)).collect();
    let mut found = None;
    for &ub in f.layout.iter().filter(|&&ub| dom.reachable(ub) && dom.dominates(b, ub)) {
        if !latches.iter().all(|&q| dom.dominates(ub, q)) {
            continue;
        }
        for inst in &f.block(ub).insts {
            match inst.op {
                Op::UnboxI32(v) if v == p => found = Some(found.unwrap_or(true)),
                Op::UnboxF64(v) if v == p => found = Some(false),
                _ => {}
            }
        }
    }
    found
}

/// Whether `q`'s terminator goes to `b`.
fn jumps_to(f: &Function, q: Block, b: Block) -> bool {
    f.block(q).insts.last().is_some_and(|i| i.op.successors().iter().any(|&(s, _)| s == b))
}

/// Whether the edge from `pred` into loop header `b` can unbox what it passes: it enters
/// the loop (`pred` is not in it) and is `pred`'s only way out.
fn speculable(f: &Function, dom: &Dominators, b: Block, pred: Block) -> bool {
    !dom.dominates(b, pred) && matches!(f.block(pred).insts.last(), Some(Inst { op: Op::Jump(t, _), .. }) if *t == b)
}

fn classify(f: &Function, p: Val, a: Val) -> Option<Incoming> {
    if a == p {
        return Some(Incoming::Itself);
    }
    match def_op(f, a)? {
        Op::BoxI32(x) => Some(Incoming::I32(*x)),
        Op::BoxF64(x) => Some(Incoming::F64(*x)),
        Op::Vconst(JsConst::Number(n)) => Some(Incoming::Const(n.get())),
        _ => None,
    }
}

/// A parameter worth unboxing, and the type it becomes.
fn candidate(f: &Function, preds: &[Vec<Block>]) -> Option<(Val, Type)> {
    let entry = f.entry()?;
    let dom = Dominators::new(f);
    let mut unboxed: HashSet<Val> = HashSet::new();
    for &b in &f.layout {
        for inst in &f.block(b).insts {
            if let Op::UnboxI32(v) | Op::UnboxF64(v) = inst.op {
                unboxed.insert(v);
            }
        }
    }
    for &b in f.layout.iter().filter(|&&b| b != entry) {
        'params: for (k, &p) in f.block(b).params.iter().enumerate() {
            if f.ty(p) != Type::Value || !unboxed.contains(&p) {
                continue;
            }
            let mut all_int = true;
            let mut every_trip = None;
            for (pred, a) in incoming(f, preds, b, k) {
                match classify(f, p, a) {
                    None => match *every_trip.get_or_insert_with(|| unboxed_every_trip(f, &dom, b, p)) {
                        Some(as_i32) if speculable(f, &dom, b, pred) => all_int &= as_i32,
                        _ => continue 'params,
                    },
                    Some(Incoming::F64(_)) => all_int = false,
                    Some(Incoming::Const(n)) => {
                        all_int &= n.fract() == 0.0 && n.abs() <= i32::MAX as f64 && !(n == 0.0 && n.is_sign_negative())
                    }
                    Some(Incoming::I32(_) | Incoming::Itself) => {}
                }
            }
            return Some((p, if all_int { Type::I32 } else { Type::F64 }));
        }
    }
    None
}

/// Inserts `op` (a pure operation giving `ty`) before instruction `at` of `b`.
fn insert(f: &mut Function, b: Block, at: usize, op: Op, ty: Type) -> Val {
    let v = Val(f.values.len() as u32);
    f.values.push(ValueData { ty, def: ValueDef::Dead });
    f.blocks[b.0 as usize].insts.insert(at, Inst { result: Some(v), op, exit: None });
    v
}

fn convert(f: &mut Function, preds: &[Vec<Block>], p: Val, ty: Type) {
    let ValueDef::Param(b, k) = f.values[p.0 as usize].def else { return };
    let k = k as usize;
    // Each edge passes the number unboxed.
    for (pred, a) in incoming(f, preds, b, k) {
        let before = f.block(pred).insts.len() - 1;
        let unboxed = match classify(f, p, a) {
            Some(Incoming::I32(x)) if ty == Type::F64 => insert(f, pred, before, Op::I32ToF64(x), Type::F64),
            Some(Incoming::I32(x) | Incoming::F64(x)) => x,
            Some(Incoming::Const(n)) if ty == Type::I32 => insert(f, pred, before, Op::Iconst(Type::I32, n as i64), ty),
            Some(Incoming::Const(n)) => insert(f, pred, before, Op::Fconst(Ieee64::new(n)), ty),
            Some(Incoming::Itself) => continue,
            None => {
                // `candidate` saw that this edge enters the loop: it leaves through the
                // loop's resume exit, with this edge's arguments for the header's parameters.
                let resume = f.block(b).resume.expect("a speculated edge enters a loop with a resume exit");
                let e = super::resume_exit_for(f, b, pred, resume);
                let op = if ty == Type::I32 { Op::UnboxI32(a) } else { Op::UnboxF64(a) };
                let v = insert(f, pred, before, op, ty);
                f.blocks[pred.0 as usize].insts[before].exit = Some(e);
                v
            }
        };
        let last = f.blocks[pred.0 as usize].insts.last_mut().expect("a terminator");
        rewrite_edge_arg(&mut last.op, b, k, a, unboxed);
    }
    f.values[p.0 as usize].ty = ty;
    // Uses: unboxes become the parameter or a conversion; other uses get one box.
    // One box per block that needs the value, before its first use there.
    let mut boxed: HashMap<Block, Val> = HashMap::new();
    let mut replace: HashMap<Val, Val> = HashMap::new();
    let blocks: Vec<Block> = f.layout.clone();
    for ub in blocks {
        let mut i = 0;
        while i < f.block(ub).insts.len() {
            let inst = &mut f.blocks[ub.0 as usize].insts[i];
            match (&inst.op, ty) {
                (Op::UnboxF64(v), Type::F64) | (Op::UnboxI32(v), Type::I32) if *v == p => {
                    if let Some(r) = inst.result {
                        replace.insert(r, p);
                    }
                    f.blocks[ub.0 as usize].insts.remove(i);
                    continue;
                }
                (Op::UnboxF64(v), Type::I32) if *v == p => {
                    inst.op = Op::I32ToF64(p);
                    inst.exit = None;
                }
                (Op::UnboxI32(v), Type::F64) if *v == p => inst.op = Op::F64ToI32(p),
                _ if inst.op.args().contains(&p) => {
                    let bx = match boxed.get(&ub) {
                        Some(&bx) => bx,
                        None => {
                            let op = if ty == Type::I32 { Op::BoxI32(p) } else { Op::BoxF64(p) };
                            let bx = insert(f, ub, i, op, Type::Value);
                            boxed.insert(ub, bx);
                            i += 1;
                            bx
                        }
                    };
                    let inst = &mut f.blocks[ub.0 as usize].insts[i];
                    let keep = inst.op.clone();
                    inst.op.map_args(|v| if v == p { bx } else { v });
                    // The parameter passed back to itself stays unboxed.
                    restore_self_edges(&mut inst.op, &keep, b, k, p);
                }
                _ => {}
            }
            i += 1;
        }
    }
    if !replace.is_empty() {
        super::replace_uses(f, &replace);
    }
}

/// Replaces argument `k` to `b` (`old`) with `new` on every edge of `op` to `b`.
fn rewrite_edge_arg(op: &mut Op, b: Block, k: usize, old: Val, new: Val) {
    op.for_each_edge_to(b, |args| {
        if let Some(a) = args.get_mut(k) {
            if *a == old {
                *a = new;
            }
        }
    });
}

/// Puts `p` back where `before` (the terminator before its arguments were boxed) passed it
/// as argument `k` to `b`.
fn restore_self_edges(op: &mut Op, before: &Op, b: Block, k: usize, p: Val) {
    let fix = |args: &mut Vec<Val>, old: &[Val]| {
        if old.get(k) == Some(&p) {
            args[k] = p;
        }
    };
    match (op, before) {
        (Op::Jump(t, args), Op::Jump(_, old)) if *t == b => fix(args, old),
        (Op::Brif(_, t, ta, e, ea), Op::Brif(_, _, ota, _, oea)) => {
            if *t == b {
                fix(ta, ota);
            }
            if *e == b {
                fix(ea, oea);
            }
        }
        _ => {}
    }
}
