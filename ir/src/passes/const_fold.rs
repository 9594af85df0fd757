//! const_fold: evaluates operators and conversions whose operands are literals, with the
//! exact ECMAScript semantics of `js.rs`, and replaces them by the resulting literal.
//!
//! Folded: `binary_op` (arithmetic, bitwise, shifts, `+` including string concatenation,
//! equality and relational operators; not `in`/`instanceof`, which throw on primitives),
//! `unary_op`, `as_number`, `as_numeric`, `as_string` and `throw_if_empty` of a literal
//! other than `empty`. Conversions of literals run no user code, so folding them is exact.
//! Concatenations longer than `MAX_FOLDED_STRING` code units are left for run time.
//!
//! Assumes: nothing beyond verified IR. Invalidates: nothing (removes instructions).
//!
//! ```text
//! before: %0 = binary_op "+" "n=", 1.5 : string     return %0
//! after:  return "n=1.5"
//! ```

use crate::function::{Function, Literal};
use crate::inst::{BinOp, Imm, Opcode, UnOp};
use crate::passes::js::{self, Prim};
use crate::passes::util::simplify_each;
use crate::passes::{Changed, PassCx};
use crate::{Inst, Value};

/// The longest string a fold may create.
pub const MAX_FOLDED_STRING: usize = 1 << 12;

/// Runs the pass.
pub fn run(func: &mut Function, cx: &mut PassCx) -> Changed {
    let folded = simplify_each(func, |func, inst| {
        let lit = match fold(func, cx, inst)? {
            Prim::Undefined => Literal::Undefined,
            Prim::Null => Literal::Null,
            Prim::Bool(b) => Literal::Bool(b),
            Prim::Number(n) => Literal::Number(n),
            Prim::String(s) => Literal::String(cx.atom_utf16(&s)),
        };
        Some(func.literal(lit))
    });
    cx.count("folded", folded as u64);
    Changed(folded > 0)
}

/// The primitive value of literal `v` (`None` for non-literals and `empty`).
pub fn literal_prim(func: &Function, cx: &PassCx, v: Value) -> Option<Prim> {
    Some(match func.as_literal(v)? {
        Literal::Undefined => Prim::Undefined,
        Literal::Null => Prim::Null,
        Literal::Empty => return None,
        Literal::Bool(b) => Prim::Bool(b),
        Literal::Number(n) => Prim::Number(n),
        Literal::String(a) => Prim::String(cx.atom_units(a).to_vec()),
    })
}

fn fold(func: &Function, cx: &PassCx, inst: Inst) -> Option<Prim> {
    let data = &func.insts[inst];
    let arg = |n: usize| data.args.get(n).and_then(|&a| literal_prim(func, cx, a));
    match (data.opcode, data.imm) {
        (Opcode::BinaryOp, Imm::BinOp(op)) => fold_binary(op, &arg(0)?, &arg(1)?),
        (Opcode::UnaryOp, Imm::UnOp(op)) => fold_unary(op, &arg(0)?),
        (Opcode::AsNumber | Opcode::AsNumeric, _) => Some(Prim::Number(js::to_number(&arg(0)?))),
        (Opcode::AsString, _) => Some(Prim::String(js::to_string(&arg(0)?))),
        (Opcode::ThrowIfEmpty, _) => arg(0),
        _ => None,
    }
}

/// Folds `l op r` on primitives; `None` when it cannot be done exactly here.
pub fn fold_binary(op: BinOp, l: &Prim, r: &Prim) -> Option<Prim> {
    let num = |p: &Prim| js::to_number(p);
    Some(match op {
        // 13.15.3 ApplyStringOrNumericBinaryOperator: `+` concatenates if either side is a
        // string (primitives are their own ToPrimitive), else adds numbers.
        BinOp::Add => {
            if matches!(l, Prim::String(_)) || matches!(r, Prim::String(_)) {
                let mut s = js::to_string(l);
                s.extend(js::to_string(r));
                if s.len() > MAX_FOLDED_STRING {
                    return None;
                }
                Prim::String(s)
            } else {
                Prim::Number(num(l) + num(r))
            }
        }
        BinOp::Sub => Prim::Number(num(l) - num(r)),
        BinOp::Mul => Prim::Number(num(l) * num(r)),
        BinOp::Div => Prim::Number(num(l) / num(r)),
        BinOp::Mod => Prim::Number(js::remainder(num(l), num(r))),
        BinOp::Exp => Prim::Number(js::exponentiate(num(l), num(r))),
        BinOp::BitAnd => Prim::Number((js::to_int32(num(l)) & js::to_int32(num(r))) as f64),
        BinOp::BitOr => Prim::Number((js::to_int32(num(l)) | js::to_int32(num(r))) as f64),
        BinOp::BitXor => Prim::Number((js::to_int32(num(l)) ^ js::to_int32(num(r))) as f64),
        // 6.1.6.1.9-11: the shift count is ToUint32(r) modulo 32.
        BinOp::Shl => Prim::Number(js::to_int32(num(l)).wrapping_shl(js::to_uint32(num(r)) & 31) as f64),
        BinOp::Shr => Prim::Number((js::to_int32(num(l)) >> (js::to_uint32(num(r)) & 31)) as f64),
        BinOp::UShr => Prim::Number((js::to_uint32(num(l)) >> (js::to_uint32(num(r)) & 31)) as f64),
        BinOp::Eq => Prim::Bool(js::loose_equals(l, r)),
        BinOp::Ne => Prim::Bool(!js::loose_equals(l, r)),
        BinOp::StrictEq => Prim::Bool(js::strict_equals(l, r)),
        BinOp::StrictNe => Prim::Bool(!js::strict_equals(l, r)),
        // 13.10.1: `a < b` is IsLessThan(a, b) with undefined as false; `a > b` swaps the
        // operands; `a <= b` is "not IsLessThan(b, a)" with undefined as false.
        BinOp::Lt => Prim::Bool(js::less_than(l, r) == Some(true)),
        BinOp::Gt => Prim::Bool(js::less_than(r, l) == Some(true)),
        BinOp::Le => Prim::Bool(js::less_than(r, l) == Some(false)),
        BinOp::Ge => Prim::Bool(js::less_than(l, r) == Some(false)),
        // TypeError on a primitive right-hand side: leave it to run time.
        BinOp::In | BinOp::InstanceOf => return None,
    })
}

/// Folds `op v` on a primitive.
pub fn fold_unary(op: UnOp, v: &Prim) -> Option<Prim> {
    Some(match op {
        UnOp::Neg => Prim::Number(-js::to_number(v)),
        UnOp::BitNot => Prim::Number(!js::to_int32(js::to_number(v)) as f64),
        UnOp::Not => Prim::Bool(!js::to_boolean(v)),
        UnOp::TypeOf => Prim::String(js::type_of(v).encode_utf16().collect()),
        UnOp::Inc => Prim::Number(js::to_number(v) + 1.0),
        UnOp::Dec => Prim::Number(js::to_number(v) - 1.0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::test_util::check;

    #[test]
    fn folds_arithmetic_and_strings() {
        check(
            "const_fold",
            "%BB0:\n  %0 = binary_op \"+\" 1, 2 : number\n  %1 = binary_op \"*\" %0, 0.1 : number\n  %2 = binary_op \"+\" \"n=\", %1 : string\n  return %2\n",
            "%BB0:\n  return \"n=0.30000000000000004\"\n",
        );
        check(
            "const_fold",
            "%BB0:\n  %0 = binary_op \"+\" \"a\", 1e+21 : string\n  %1 = binary_op \"+\" %0, null : string\n  %2 = binary_op \"+\" %1, undefined : string\n  return %2\n",
            "%BB0:\n  return \"a1e+21nullundefined\"\n",
        );
    }

    #[test]
    fn folds_number_conversions_with_coercions() {
        check(
            "const_fold",
            "%BB0:\n  %0 = binary_op \"-\" \" 0x10 \", true : number\n  %1 = binary_op \"*\" undefined, 1 : number\n  %2 = unary_op \"-\" 0 : number\n  \
             %3 = call %0, %1, %2 : any\n  return %3\n",
            "%BB0:\n  %0 = call 15, NaN, -0 : any\n  return %0\n",
        );
    }

    #[test]
    fn folds_bitwise_shifts_and_comparisons() {
        check(
            "const_fold",
            "%BB0:\n  %0 = binary_op \">>>\" -1, 0 : number\n  %1 = binary_op \"<<\" 1, 33 : number\n  %2 = binary_op \">>\" -8, 1 : number\n  \
             %3 = binary_op \"|\" 4294967297, 0 : number\n  %4 = binary_op \"<=\" undefined, 1 : boolean\n  %5 = binary_op \"<\" \"10\", \"9\" : boolean\n  \
             %6 = binary_op \"==\" null, 0 : boolean\n  %7 = binary_op \"==\" \"1\", true : boolean\n  %8 = binary_op \"===\" NaN, NaN : boolean\n  \
             %9 = call %0, %1, %2, %3, %4, %5, %6, %7, %8 : any\n  return %9\n",
            "%BB0:\n  %0 = call 4294967295, 2, -4, 1, false, true, false, true, false : any\n  return %0\n",
        );
    }

    #[test]
    fn folds_unary_and_conversions() {
        check(
            "const_fold",
            "%BB0:\n  %0 = unary_op \"typeof\" null : string\n  %1 = unary_op \"!\" \"\" : boolean\n  %2 = unary_op \"~\" 1.5 : number\n  \
             %3 = as_number \"12px\" : number\n  %4 = as_string 100 : string\n  %5 = unary_op \"++\" \"4\" : number\n  \
             %6 = throw_if_empty \"x\" 3 : number\n  %7 = call %0, %1, %2, %3, %4, %5, %6 : any\n  return %7\n",
            "%BB0:\n  %0 = call \"object\", true, -2, NaN, \"100\", 5, 3 : any\n  return %0\n",
        );
    }

    #[test]
    fn leaves_what_it_cannot_fold() {
        let body = "%BB0:\n  %0 = throw_if_empty \"x\" empty : any\n  %1 = binary_op \"in\" \"x\", 1 : boolean\n  %2 = load_param #1 : any\n  \
                    %3 = binary_op \"+\" %2, 1 : string|number|bigint\n  %4 = call %0, %1, %3 : any\n  return %4\n";
        check("const_fold", body, body);
    }

    #[test]
    fn exponent_and_remainder_semantics() {
        assert_eq!(fold_binary(BinOp::Mod, &Prim::Number(-5.0), &Prim::Number(3.0)), Some(Prim::Number(-2.0)));
        assert!(
            matches!(fold_binary(BinOp::Exp, &Prim::Number(1.0), &Prim::Number(f64::INFINITY)), Some(Prim::Number(n)) if n.is_nan())
        );
    }
}
