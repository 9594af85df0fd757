//! inst_simplify: rewrites instructions using operand types and algebraic identities.
//!
//! - a phi whose entries are all one value (ignoring the phi itself) is that value;
//! - `throw_if_empty` of a value that cannot be empty is the value;
//! - `as_number`/`as_numeric` of a number, `as_string` of a string, and `to_property_key`
//!   of a string, number or symbol are their operand;
//! - `typeof` of an operand whose type decides the answer is a string literal;
//! - `===`/`!==` on operands of disjoint types are `false`/`true`;
//! - `x * 1`, `x / 1` and `x - 0` on a number `x` are `x` (exact for -0 and NaN too);
//! - `cond_branch` on `!x` branches on `x` with the targets swapped.
//!
//! Assumes: types are sound (run type_infer first for the most effect). Invalidates: nothing.
//!
//! ```text
//! before: %1 = throw_if_empty "x" %0 : number   (with %0 : number)    return %1
//! after:  return %0
//! ```

use crate::function::{Function, Literal};
use crate::inst::{BinOp, Imm, Opcode, UnOp};
use crate::passes::util::simplify_each;
use crate::passes::{Changed, PassCx};
use crate::types::Type;
use crate::{Inst, Value};

/// Runs the pass.
pub fn run(func: &mut Function, cx: &mut PassCx) -> Changed {
    let mut inverted = 0;
    let simplified = simplify_each(func, |func, inst| {
        let v = simplify(func, cx, inst);
        if v.is_none() && branch_on_not(func, inst) {
            inverted += 1;
        }
        v
    });
    cx.count("simplified", simplified as u64);
    cx.count("branches_inverted", inverted);
    Changed(simplified > 0 || inverted > 0)
}

/// The value `inst` can be replaced by, if any.
fn simplify(func: &mut Function, cx: &mut PassCx, inst: Inst) -> Option<Value> {
    let data = &func.insts[inst];
    let result = data.result?;
    let ty = |v: Value| func.ty(v);
    let arg = |n: usize| data.args.get(n).copied();
    match (data.opcode, data.imm) {
        (Opcode::Phi, _) => {
            let mut others = data.args.iter().copied().filter(|&a| a != result);
            let first = others.next()?;
            others.all(|a| a == first).then_some(first)
        }
        (Opcode::ThrowIfEmpty, _) => arg(0).filter(|&a| !ty(a).overlaps(Type::EMPTY) && !ty(a).is_none()),
        (Opcode::AsNumber | Opcode::AsNumeric, _) => arg(0).filter(|&a| ty(a).is_number()),
        (Opcode::AsString, _) => arg(0).filter(|&a| ty(a).is_string()),
        (Opcode::ToPropertyKey, _) => arg(0)
            .filter(|&a| !ty(a).is_none() && ty(a).is_subset_of(Type::STRING.union(Type::NUMBER).union(Type::SYMBOL))),
        (Opcode::UnaryOp, Imm::UnOp(UnOp::TypeOf)) => {
            let name = typeof_by_type(ty(arg(0)?))?;
            let atom = cx.atom_utf16(&name.encode_utf16().collect::<Vec<_>>());
            Some(func.literal(Literal::String(atom)))
        }
        (Opcode::BinaryOp, Imm::BinOp(op @ (BinOp::StrictEq | BinOp::StrictNe))) => {
            let (l, r) = (ty(arg(0)?), ty(arg(1)?));
            if l.is_none() || r.is_none() || l.overlaps(r) {
                return None;
            }
            Some(func.literal(Literal::Bool(op == BinOp::StrictNe)))
        }
        (Opcode::BinaryOp, Imm::BinOp(op @ (BinOp::Mul | BinOp::Div | BinOp::Sub))) => {
            let (x, k) = (arg(0)?, arg(1)?);
            let identity = if op == BinOp::Sub { 0.0 } else { 1.0 };
            // `x - 0` keeps -0 (-0 - +0 is -0); `x - -0` would not, so +0 only.
            let is_identity =
                matches!(func.as_literal(k), Some(Literal::Number(n)) if n == identity && n.is_sign_positive());
            (is_identity && ty(x).is_number()).then_some(x)
        }
        _ => None,
    }
}

/// The `typeof` string every value of type `ty` has, if they all have the same.
pub fn typeof_by_type(ty: Type) -> Option<&'static str> {
    // The full `anyobject` type may hold host objects whose typeof is "undefined" (see
    // types.rs); it never has a single answer anyway, as it includes closures.
    if ty.is_none() || ty.overlaps(Type::ENVIRONMENT.union(Type::EMPTY)) || Type::OBJECT.is_subset_of(ty) {
        return None;
    }
    let kinds: &[(Type, &str)] = &[
        (Type::UNDEFINED, "undefined"),
        (Type::NULL, "object"),
        (Type::BOOLEAN, "boolean"),
        (Type::STRING, "string"),
        (Type::NUMBER, "number"),
        (Type::BIGINT, "bigint"),
        (Type::SYMBOL, "symbol"),
        (Type::PLAIN_OBJECT, "object"),
        (Type::REGEXP, "object"),
        (Type::CLOSURE, "function"),
    ];
    let mut answer = None;
    for &(kind, name) in kinds {
        if ty.overlaps(kind) {
            match answer {
                None => answer = Some(name),
                Some(a) if a == name => {}
                Some(_) => return None,
            }
        }
    }
    answer
}

/// `cond_branch (!x), A, B` becomes `cond_branch x, B, A`.
fn branch_on_not(func: &mut Function, inst: Inst) -> bool {
    let data = &func.insts[inst];
    if data.opcode != Opcode::CondBranch {
        return false;
    }
    let Some(def) = func.def_inst(data.args[0]) else { return false };
    let d = &func.insts[def];
    if d.opcode != Opcode::UnaryOp || d.imm != Imm::UnOp(UnOp::Not) {
        return false;
    }
    let x = d.args[0];
    let data = &mut func.insts[inst];
    data.args[0] = x;
    data.targets.swap(0, 1);
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::test_util::check;

    #[test]
    fn type_based_identities() {
        check(
            "inst_simplify",
            "%BB0:\n  %0 = load_param #1 : any\n  %1 = as_number %0 : number\n  %2 = throw_if_empty \"x\" %1 : number\n  \
             %3 = as_number %2 : number\n  %4 = binary_op \"*\" %3, 1 : number\n  %5 = binary_op \"-\" %4, -0 : number\n  \
             %6 = unary_op \"typeof\" %5 : string\n  %7 = as_string %6 : string\n  %8 = binary_op \"===\" %7, %1 : boolean\n  \
             %9 = call %0, %5, %7, %8 : any\n  return %9\n",
            "%BB0:\n  %0 = load_param #1 : any\n  %1 = as_number %0 : number\n  %2 = binary_op \"-\" %1, -0 : number\n  \
             %3 = call %0, %2, \"number\", false : any\n  return %3\n",
        );
    }

    #[test]
    fn phis_with_one_input() {
        check(
            "inst_simplify",
            "%BB0:\n  %0 = load_param #1 : any\n  branch %BB1\n%BB1:\n  %1 = phi [%0, %BB0], [%1, %BB2] : any\n  cond_branch %0, %BB2, %BB3\n\
             %BB2:\n  branch %BB1\n%BB3:\n  return %1\n",
            "%BB0:\n  %0 = load_param #1 : any\n  branch %BB1\n%BB1:\n  cond_branch %0, %BB2, %BB3\n\
             %BB2:\n  branch %BB1\n%BB3:\n  return %0\n",
        );
    }

    #[test]
    fn branch_on_not_swaps_targets() {
        check(
            "inst_simplify",
            "%BB0:\n  %0 = load_param #1 : any\n  %1 = unary_op \"!\" %0 : boolean\n  cond_branch %1, %BB1, %BB2\n%BB1:\n  return 1\n%BB2:\n  return 2\n",
            "%BB0:\n  %0 = load_param #1 : any\n  %1 = unary_op \"!\" %0 : boolean\n  cond_branch %0, %BB2, %BB1\n%BB1:\n  return 1\n%BB2:\n  return 2\n",
        );
    }

    #[test]
    fn typeof_needs_one_answer() {
        assert_eq!(typeof_by_type(Type::NULL.union(Type::PLAIN_OBJECT)), Some("object"));
        assert_eq!(typeof_by_type(Type::CLOSURE), Some("function"));
        assert_eq!(typeof_by_type(Type::OBJECT), None);
        assert_eq!(typeof_by_type(Type::ANY), None);
    }
}
