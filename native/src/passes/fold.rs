//! Constant folding and algebraic simplification: operations on constants become constants
//! (i32 arithmetic wraps, overflow-checked arithmetic folds only when it does not overflow),
//! `x + 0`, `x * 1`, `x | 0`, `x ^ 0`, shifts by 0 become `x`, a `check` of 0 goes, a
//! `brif` on a constant becomes a `jump`, and boxing round trips (`unbox_i32 (box_i32 x)`)
//! become `x` without their exits; the tag of a boxed number, object or constant is known,
//! and a boolean boxed and tested again is the boolean.

use std::collections::HashMap;

use crate::mir::*;

#[derive(Clone, Copy)]
enum Known {
    Int(i64),
    Float(f64),
}

/// `a op b` in type `ty`, wrapped to its width (shift amounts taken modulo the width).
fn int_op(op: IntOp, ty: Type, a: i64, b: i64) -> i64 {
    let bits: u32 = if ty == Type::I32 { 32 } else { 64 };
    let wrap = |x: i64| if bits == 32 { x as i32 as i64 } else { x };
    let (a, b) = (wrap(a), wrap(b));
    let shift = b as u32 & (bits - 1);
    let unsigned = if bits == 32 { a as u32 as u64 } else { a as u64 };
    wrap(match op {
        IntOp::Add => a.wrapping_add(b),
        IntOp::Sub => a.wrapping_sub(b),
        IntOp::Mul => a.wrapping_mul(b),
        IntOp::And => a & b,
        IntOp::Or => a | b,
        IntOp::Xor => a ^ b,
        IntOp::Shl => a.wrapping_shl(shift),
        IntOp::Sshr => a >> shift,
        IntOp::Ushr => (unsigned >> shift) as i64,
    })
}

fn int_cmp(cc: IntCC, ty: Type, a: i64, b: i64) -> bool {
    let (a, b) = if ty == Type::I32 { (a as i32 as i64, b as i32 as i64) } else { (a, b) };
    let (ua, ub) = if ty == Type::I32 { (a as u32 as u64, b as u32 as u64) } else { (a as u64, b as u64) };
    match cc {
        IntCC::Eq => a == b,
        IntCC::Ne => a != b,
        IntCC::Slt => a < b,
        IntCC::Sle => a <= b,
        IntCC::Sgt => a > b,
        IntCC::Sge => a >= b,
        IntCC::Ult => ua < ub,
        IntCC::Ule => ua <= ub,
        IntCC::Ugt => ua > ub,
        IntCC::Uge => ua >= ub,
    }
}

fn float_cmp(cc: FloatCC, a: f64, b: f64) -> bool {
    match cc {
        FloatCC::Eq => a == b,
        FloatCC::Ne => a != b,
        FloatCC::Lt => a < b,
        FloatCC::Le => a <= b,
        FloatCC::Gt => a > b,
        FloatCC::Ge => a >= b,
    }
}

/// What instruction `inst` simplifies to.
enum Simpler {
    Same,
    /// A new operation (and no exit).
    Op(Op),
    /// Its result is this other value; the instruction goes.
    Value(Val),
    /// The instruction goes (a check that cannot fail).
    Remove,
    /// An int32 comparison of a value with a constant (that goes first, or second): an
    /// `iconst` is inserted for it.
    IcmpConst(IntCC, Val, i32, bool),
}

fn simplify(f: &Function, known: &HashMap<Val, Known>, defs: &HashMap<Val, Op>, inst: &Inst) -> Simpler {
    let int = |v: &Val| match known.get(v) {
        Some(Known::Int(n)) => Some(*n),
        _ => None,
    };
    let float = |v: &Val| match known.get(v) {
        Some(Known::Float(n)) => Some(*n),
        _ => None,
    };
    match &inst.op {
        Op::Int(op, a, b) => {
            let ty = f.ty(*a);
            if let (Some(x), Some(y)) = (int(a), int(b)) {
                return Simpler::Op(Op::Iconst(ty, int_op(*op, ty, x, y)));
            }
            let identity = match op {
                IntOp::Add | IntOp::Or | IntOp::Xor | IntOp::Shl | IntOp::Sshr | IntOp::Ushr | IntOp::Sub => 0,
                IntOp::Mul => 1,
                IntOp::And => -1,
            };
            let masked = |n: i64| if ty == Type::I32 { n as i32 as i64 } else { n };
            if int(b).map(masked) == Some(identity) {
                return Simpler::Value(*a);
            }
            let commutes = matches!(op, IntOp::Add | IntOp::Mul | IntOp::And | IntOp::Or | IntOp::Xor);
            if commutes && int(a).map(masked) == Some(identity) {
                return Simpler::Value(*b);
            }
            // (x + c) - c: a boolean boxed and its bits taken apart again.
            if let (IntOp::Sub, Some(Op::Int(IntOp::Add, x, c))) = (op, defs.get(a)) {
                if int(c).is_some() && int(c) == int(b) {
                    return Simpler::Value(*x);
                }
            }
            Simpler::Same
        }
        Op::Checked(op, a, b) => {
            let (Some(x), Some(y)) = (int(a), int(b)) else {
                // x + 0, x - 0, x * 1 cannot overflow.
                let zero_right = int(b) == Some(0) && matches!(op, CheckedOp::Add | CheckedOp::Sub);
                let one_right = int(b) == Some(1) && *op == CheckedOp::Mul;
                return if zero_right || one_right { Simpler::Value(*a) } else { Simpler::Same };
            };
            let (x, y) = (x as i32, y as i32);
            let r = match op {
                CheckedOp::Add => x.checked_add(y),
                CheckedOp::Sub => x.checked_sub(y),
                CheckedOp::Mul => x.checked_mul(y),
            };
            match r {
                Some(r) => Simpler::Op(Op::Iconst(Type::I32, r as i64)),
                None => Simpler::Same,
            }
        }
        Op::Icmp(cc, a, b) => match (int(a), int(b)) {
            (Some(x), Some(y)) => Simpler::Op(Op::Iconst(Type::I32, int_cmp(*cc, f.ty(*a), x, y) as i64)),
            // A boolean (0 or 1, widened) is at most 1.
            (None, Some(1..)) if *cc == IntCC::Ule && is_boolean(known, defs, *a, 4) => {
                Simpler::Op(Op::Iconst(Type::I32, 1))
            }
            _ if a == b && matches!(cc, IntCC::Eq | IntCC::Sle | IntCC::Sge | IntCC::Ule | IntCC::Uge) => {
                Simpler::Op(Op::Iconst(Type::I32, 1))
            }
            _ if a == b => Simpler::Op(Op::Iconst(Type::I32, 0)),
            _ => Simpler::Same,
        },
        Op::Float(op, a, b) => match (float(a), float(b)) {
            (Some(x), Some(y)) => Simpler::Op(Op::Fconst(Ieee64::new(match op {
                FloatOp::Add => x + y,
                FloatOp::Sub => x - y,
                FloatOp::Mul => x * y,
                FloatOp::Div => x / y,
            }))),
            _ => Simpler::Same,
        },
        Op::Fneg(a) => float(a).map_or(Simpler::Same, |x| Simpler::Op(Op::Fconst(Ieee64::new(-x)))),
        Op::Fcmp(cc, a, b) => match (float(a), float(b)) {
            (Some(x), Some(y)) => Simpler::Op(Op::Iconst(Type::I32, float_cmp(*cc, x, y) as i64)),
            // Int32s converted (or constants that are int32s) compare as the int32s: there
            // is no NaN among them.
            _ => {
                let icc = cc.for_int32s();
                let int32 =
                    |x: f64| (x == (x as i32) as f64 && !(x == 0.0 && x.is_sign_negative())).then_some(x as i32);
                match (defs.get(a), defs.get(b)) {
                    (Some(Op::I32ToF64(x)), Some(Op::I32ToF64(y))) => Simpler::Op(Op::Icmp(icc, *x, *y)),
                    (Some(Op::I32ToF64(x)), _) => match float(b).and_then(int32) {
                        Some(n) => Simpler::IcmpConst(icc, *x, n, false),
                        None => Simpler::Same,
                    },
                    (_, Some(Op::I32ToF64(y))) => match float(a).and_then(int32) {
                        Some(n) => Simpler::IcmpConst(icc, *y, n, true),
                        None => Simpler::Same,
                    },
                    _ => Simpler::Same,
                }
            }
        },
        Op::I32ToF64(a) => int(a).map_or(Simpler::Same, |x| Simpler::Op(Op::Fconst(Ieee64::new(x as i32 as f64)))),
        Op::Sext(a) => int(a).map_or(Simpler::Same, |x| Simpler::Op(Op::Iconst(Type::I64, x as i32 as i64))),
        Op::Trunc(a) => match (int(a), defs.get(a)) {
            (Some(x), _) => Simpler::Op(Op::Iconst(Type::I32, x as i32 as i64)),
            (None, Some(Op::Sext(x))) => Simpler::Value(*x),
            _ => Simpler::Same,
        },
        Op::ToInt32(a) => match (float(a), defs.get(a)) {
            (Some(x), _) if x.is_nan() => Simpler::Op(Op::Iconst(Type::I32, 0)),
            (Some(x), _) if x.abs() < TWO_TO_63 => Simpler::Op(Op::Iconst(Type::I32, x.trunc() as i64 as i32 as i64)),
            (None, Some(Op::I32ToF64(x))) => Simpler::Value(*x),
            _ => Simpler::Same,
        },
        Op::F64ToI32(a) => match float(a) {
            Some(x) if x == (x as i32) as f64 && !(x == 0.0 && x.is_sign_negative()) => {
                Simpler::Op(Op::Iconst(Type::I32, x as i32 as i64))
            }
            _ => Simpler::Same,
        },
        Op::BoxI32(a) => {
            int(a).map_or(Simpler::Same, |x| Simpler::Op(Op::Vconst(JsConst::Number(Ieee64::new(x as i32 as f64)))))
        }
        Op::UnboxI32(a) => match defs.get(a) {
            Some(Op::BoxI32(x)) => Simpler::Value(*x),
            Some(Op::Vconst(JsConst::Number(n))) => {
                let x = n.get();
                if x == (x as i32) as f64 && !(x == 0.0 && x.is_sign_negative()) {
                    Simpler::Op(Op::Iconst(Type::I32, x as i32 as i64))
                } else {
                    Simpler::Same
                }
            }
            _ => Simpler::Same,
        },
        Op::UnboxF64(a) => match defs.get(a) {
            Some(Op::BoxF64(x)) => Simpler::Value(*x),
            Some(Op::BoxI32(x)) => Simpler::Op(Op::I32ToF64(*x)),
            Some(Op::Vconst(JsConst::Number(n))) => Simpler::Op(Op::Fconst(*n)),
            _ => Simpler::Same,
        },
        Op::Bits(a) => match defs.get(a) {
            Some(Op::FromBits(x)) => Simpler::Value(*x),
            _ => Simpler::Same,
        },
        Op::FromBits(a) => match defs.get(a) {
            Some(Op::Bits(x)) => Simpler::Value(*x),
            _ => Simpler::Same,
        },
        Op::UnboxObject(a) => match defs.get(a) {
            Some(Op::BoxObject(x)) => Simpler::Value(*x),
            _ => Simpler::Same,
        },
        Op::TagIs(tag, a) => {
            let is = match defs.get(a) {
                Some(Op::BoxI32(_) | Op::BoxF64(_)) => Tag::Number,
                Some(Op::BoxObject(_)) => Tag::Object,
                Some(Op::Vconst(JsConst::Number(_))) => Tag::Number,
                Some(Op::Vconst(JsConst::Undefined)) => Tag::Undefined,
                Some(Op::Vconst(JsConst::Null)) => Tag::Null,
                Some(Op::Vconst(JsConst::True | JsConst::False)) => Tag::Boolean,
                _ => return Simpler::Same,
            };
            Simpler::Op(Op::Iconst(Type::I32, (is == *tag) as i64))
        }
        Op::Check(c, _) if int(c) == Some(0) => Simpler::Remove,
        Op::Brif(c, t, ta, e, ea) => match int(c) {
            Some(0) => Simpler::Op(Op::Jump(*e, ea.clone())),
            Some(_) => Simpler::Op(Op::Jump(*t, ta.clone())),
            None => Simpler::Same,
        },
        _ => Simpler::Same,
    }
}

/// Whether `v` is 0 or 1 (a comparison, a tag test, logic on such, or one widened),
/// looking `depth` definitions deep.
fn is_boolean(known: &HashMap<Val, Known>, defs: &HashMap<Val, Op>, v: Val, depth: u32) -> bool {
    if let Some(Known::Int(n)) = known.get(&v) {
        return matches!(n, 0 | 1);
    }
    if depth == 0 {
        return false;
    }
    let bool_at = |x: &Val| is_boolean(known, defs, *x, depth - 1);
    match defs.get(&v) {
        Some(Op::Icmp(..) | Op::Fcmp(..) | Op::TagIs(..)) => true,
        Some(Op::Int(IntOp::And | IntOp::Or | IntOp::Xor, a, b)) => bool_at(a) && bool_at(b),
        Some(Op::Sext(a)) => bool_at(a),
        _ => false,
    }
}

pub fn run(f: &mut Function) -> bool {
    let mut changed = false;
    let mut known: HashMap<Val, Known> = HashMap::new();
    let mut defs: HashMap<Val, Op> = HashMap::new();
    let mut replace: HashMap<Val, Val> = HashMap::new();
    // Definitions dominate uses, so one pass in reverse postorder sees operands first.
    let order = crate::mir::verify::Dominators::new(f).rpo;
    for b in order {
        let mut i = 0;
        while i < f.blocks[b.0 as usize].insts.len() {
            f.blocks[b.0 as usize].insts[i].op.map_args(|v| super::resolve(&replace, v));
            let inst = f.blocks[b.0 as usize].insts[i].clone();
            match simplify(f, &known, &defs, &inst) {
                Simpler::Same => {}
                Simpler::Op(op) => {
                    let slot = &mut f.blocks[b.0 as usize].insts[i];
                    slot.op = op;
                    slot.exit = None;
                    changed = true;
                }
                Simpler::Value(v) => {
                    if let Some(r) = inst.result {
                        replace.insert(r, v);
                        f.values[r.0 as usize].def = ValueDef::Dead;
                    }
                    f.blocks[b.0 as usize].insts.remove(i);
                    changed = true;
                    continue;
                }
                Simpler::Remove => {
                    f.blocks[b.0 as usize].insts.remove(i);
                    changed = true;
                    continue;
                }
                Simpler::IcmpConst(cc, x, n, first) => {
                    let k = Val(f.values.len() as u32);
                    f.values.push(ValueData { ty: Type::I32, def: ValueDef::Inst(b, i as u32) });
                    let konst = Inst { result: Some(k), op: Op::Iconst(Type::I32, i64::from(n)), exit: None };
                    f.blocks[b.0 as usize].insts.insert(i, konst);
                    known.insert(k, Known::Int(i64::from(n)));
                    defs.insert(k, Op::Iconst(Type::I32, i64::from(n)));
                    i += 1;
                    let slot = &mut f.blocks[b.0 as usize].insts[i];
                    slot.op = if first { Op::Icmp(cc, k, x) } else { Op::Icmp(cc, x, k) };
                    slot.exit = None;
                    changed = true;
                }
            }
            let inst = &f.blocks[b.0 as usize].insts[i];
            if let Some(r) = inst.result {
                match inst.op {
                    Op::Iconst(_, n) => {
                        known.insert(r, Known::Int(n));
                    }
                    Op::Fconst(n) => {
                        known.insert(r, Known::Float(n.get()));
                    }
                    _ => {}
                }
                defs.insert(r, inst.op.clone());
            }
            i += 1;
        }
    }
    // Uses in blocks visited before their operands' replacement (loop back edges) and in
    // exit states.
    super::replace_uses(f, &replace);
    // Exits box numbers themselves: a box that only they use need not run.
    for state in &mut f.exits {
        for (_, v) in &mut state.regs {
            if let ExitValue::Val(x) = v {
                if let Some(Op::BoxI32(n) | Op::BoxF64(n)) = defs.get(x) {
                    *x = *n;
                    changed = true;
                }
            }
        }
    }
    changed
}
