//! The text form round trip, the parser's errors and the verifier's rules.

use super::parse::parse_function;
use super::verify::verify;
use super::*;

const SUM: &str = "\
function %sum(ptr, i32) -> value {
    e0 = exit @14 [r0: v1, r1: v4, r2: undefined, r3: -0.0]
    e1 = exit @8 [r0: v3, r1: v4]
block0(v0: ptr, v1: i32):
    v2 = iconst.i32 0
    jump block1(v2, v2)
block1(v3: i32, v4: i32) loop osr @8 resume e1:
    v5 = icmp.slt v3, v1
    brif v5, block2, block3
block2:
    v6 = load.i32 v0, 0
    v7 = iadd_ovf v4, v6, e0
    v8 = iconst.i32 1
    v9 = iadd.i32 v3, v8
    jump block1(v9, v7)
block3:
    v10 = box_i32 v4
    return v10
}
";

const EVERYTHING: &str = "\
function %all(value, ptr) -> value {
    e0 = exit @0 []
    e1 = exit @3 [r0: v0, r7: NaN, r2: empty]
block0(v0: value, v1: ptr):
    v2 = iconst.ptr 0x7f001000
    v3 = iconst.i64 -5
    v4 = fconst 1.5e300
    v5 = vconst null
    v6 = unbox_object v0, e0
    guard_shape v6, v2, e1
    v7 = load_shape v6
    v8 = load_slot v6, 2
    store_slot v6, 3, v8
    v9 = load_ool_slot v6, 0
    store_ool_slot v6, 1, v9
    v10 = array_length v6, e1
    v11 = load_elem v6, v10, e1
    store_elem v6, v10, v11, e1
    v12 = load_reg 4
    store_reg 5, v12
    v13 = unbox_f64 v12, e0
    v14 = fmul v13, v4
    v15 = fneg v14
    v16 = fcmp.ge v15, v4
    check v16, e0
    v17 = f64_to_i32 v15, e1
    v18 = sext v17
    v19 = imul.i64 v18, v3
    v20 = trunc v19
    v21 = i32_to_f64 v20
    v22 = box_f64 v21
    v23 = tag_is.string v22
    v24 = call_helper @add(v22, v5), e1
    v25 = call %other(v24), e0
    v26 = unbox_i32 v25, e0
    v27 = isub_ovf v26, v20, e1
    v28 = imul_ovf v27, v27, e1
    v29 = ushr.i32 v28, v23
    store v1, 8, v29
    v30 = box_object v7
    brif v29, block1(v30), block2
block1(v31: value):
    return v31
block2:
    deopt e1
}
";

fn roundtrip(text: &str) -> Function {
    let f = parse_function(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(f.to_string(), text);
    f
}

#[test]
fn text_round_trips() {
    let f = roundtrip(SUM);
    assert_eq!(verify(&f), Ok(()));
    let g = roundtrip(EVERYTHING);
    assert_eq!(verify(&g), Ok(()));
    // Printing a parsed function and parsing it again gives the same function.
    assert_eq!(parse_function(&g.to_string()).unwrap(), g);
}

#[test]
fn comments_and_gaps_in_numbering_are_kept() {
    let text = "\
function %f(i32) -> i32 { ; a comment
block3(v7: i32):   ; the entry need not be block0
    return v7
}
";
    let f = parse_function(text).unwrap();
    assert_eq!(f.entry(), Some(Block(3)));
    assert_eq!(f.values[7].def, ValueDef::Param(Block(3), 0));
    assert_eq!(f.values[0].def, ValueDef::Dead);
    assert_eq!(verify(&f), Ok(()));
}

fn parse_error(text: &str) -> (u32, u32, String) {
    let e = parse_function(text).expect_err("should not parse");
    (e.line, e.col, e.message)
}

#[test]
fn parse_errors_point_at_the_token() {
    let (l, c, m) = parse_error("function %f() -> i32 {\nblock0:\n    v0 = iadd.i33 v1, v2\n}\n");
    assert_eq!((l, c), (3, 10), "{m}");
    let (l, c, m) = parse_error("function %f() -> i32 {\nblock0:\n    v0 = frobnicate v1\n}\n");
    assert_eq!((l, c, m.as_str()), (3, 10, "unknown operation 'frobnicate'"));
    let (l, c, m) = parse_error("function %f() -> i32 {\nblock0:\n    return v9\n}\n");
    assert_eq!((l, c, m.as_str()), (3, 12, "v9 is not defined"));
    let (l, c, m) =
        parse_error("function %f(i32) -> i32 {\nblock0(v0: i32):\n    v0 = iconst.i32 1\n    return v0\n}\n");
    assert_eq!((l, c), (3, 5));
    assert!(m.contains("already defined at 2:8"), "{m}");
    let (l, _, m) =
        parse_error("function %f(value) -> i32 {\nblock0(v0: value):\n    v1 = unbox_i32 v0\n    return v1\n}\n");
    assert_eq!(l, 3);
    assert!(m.contains("expects an exit"), "{m}");
    let (l, c, m) = parse_error("function %f() -> i32 {\nblock0:\n    jump block4\n}\n");
    assert_eq!((l, c, m.as_str()), (3, 10, "block4 is not defined"));
    let (_, _, m) = parse_error("function %f() -> i32 {\nblock0:\n    deopt e0\n}\n");
    assert_eq!(m, "e0 is not declared");
    let (l, _, m) = parse_error("function %f() -> i32 {\nblock0:\n    v1 = iconst.i32 1\n");
    assert_eq!((l, m.as_str()), (3, "expected '}' at the end"));
    // Numbers index tables: a huge one is an error, not a huge allocation.
    let (l, c, m) = parse_error("function %f() -> i32 {\nblock0:\n    v4000000000 = iconst.i32 1\n}\n");
    assert_eq!((l, c, m.as_str()), (3, 5, "'v4000000000': numbers go up to 1048576"));
    let (l, _, _) = parse_error("function %f() -> i32 {\nblock99999999:\n    v0 = iconst.i32 1\n}\n");
    assert_eq!(l, 2);
    let (_, _, m) = parse_error("function %f(i32) -> i32 {\nblock0:\n    deopt\n}\n");
    assert!(m.contains("expects an exit"), "{m}");
}

/// The verifier's messages for `text` (which must parse).
fn verify_errors(text: &str) -> Vec<String> {
    let f = parse_function(text).unwrap_or_else(|e| panic!("{e}"));
    match verify(&f) {
        Ok(()) => Vec::new(),
        Err(es) => es.into_iter().map(|e| e.to_string()).collect(),
    }
}

fn rejects(text: &str, expected: &str) {
    let errors = verify_errors(text);
    assert!(errors.iter().any(|e| e.contains(expected)), "expected an error containing {expected:?}, got {errors:?}");
}

#[test]
fn verifier_checks_structure() {
    rejects("function %f() -> i32 {\nblock0:\n    v0 = iconst.i32 1\n}\n", "does not end with a terminator");
    rejects(
        "function %f() -> i32 {\nblock0:\n    v0 = iconst.i32 1\n    return v0\n    return v0\n}\n",
        "a terminator in the middle",
    );
    rejects("function %f() -> i32 {\nblock0:\n    jump block0\n}\n", "cannot be a branch target");
    rejects("function %f() -> i32 {\nblock0:\n    jump block1\nblock1:\n    jump block1\n}\n", "not marked 'loop'");
    rejects(
        "function %f() -> i32 {\nblock0:\n    jump block1\nblock1 osr @4:\n    v0 = iconst.i32 0\n    return v0\n}\n",
        "must be a loop header",
    );
}

#[test]
fn verifier_checks_types() {
    rejects(
        "function %f(i32, f64) -> i32 {\nblock0(v0: i32, v1: f64):\n    v2 = iadd.i32 v0, v1\n    return v2\n}\n",
        "operand v1 is f64, expected i32",
    );
    rejects(
        "function %f(i32) -> i32 {\nblock0(v0: i32):\n    v1 = iadd.i64 v0, v0\n    return v0\n}\n",
        "result v1 is i64, the operation gives i32",
    );
    rejects("function %f(i32) -> value {\nblock0(v0: i32):\n    return v0\n}\n", "returned v0 is i32, expected value");
    rejects(
        "function %f(value) -> value {\nblock0(v0: value):\n    v1 = call_helper @add(v0, v0), e0\n    return v1\n}\n"
            .replace("{\nblock0", "{\n    e0 = exit @0 []\nblock0")
            .replace("@add(v0, v0)", "@add(v0, v1)")
            .as_str(),
        "v1 does not dominate this use",
    );
    rejects(
        "function %f(f64) -> f64 {\nblock0(v0: f64):\n    brif v0, block1, block1\nblock1:\n    return v0\n}\n",
        "condition v0 is f64, expected i32",
    );
}

#[test]
fn verifier_checks_block_arguments() {
    rejects(
        "function %f(i32) -> i32 {\nblock0(v0: i32):\n    jump block1\nblock1(v1: i32):\n    return v1\n}\n",
        "block1 takes 1 arguments, 0 given",
    );
    rejects(
        "function %f(i32, f64) -> i32 {\nblock0(v0: i32, v1: f64):\n    jump block1(v1)\nblock1(v2: i32):\n    return v2\n}\n",
        "argument 0 to block1 is f64, the parameter is i32",
    );
}

#[test]
fn verifier_checks_dominance() {
    // v2 is defined in one arm and used after the join.
    rejects(
        "\
function %f(i32) -> i32 {
block0(v0: i32):
    brif v0, block1, block2
block1:
    v2 = iconst.i32 1
    jump block3
block2:
    jump block3
block3:
    return v2
}
",
        "v2 does not dominate this use",
    );
    // A use before its definition in the same block.
    rejects(
        "function %f() -> i32 {\nblock0:\n    v1 = iadd.i32 v2, v2\n    v2 = iconst.i32 1\n    return v1\n}\n",
        "v2 does not dominate this use",
    );
}

#[test]
fn verifier_checks_exits() {
    rejects(
        "\
function %f(i32, i64) -> i32 {
    e0 = exit @2 [r0: v0, r0: v0, r1: v1]
block0(v0: i32, v1: i64):
    check v0, e0
    return v0
}
",
        "r0 is listed twice",
    );
    rejects(
        "\
function %f(i32, i64) -> i32 {
    e0 = exit @2 [r1: v1]
block0(v0: i32, v1: i64):
    check v0, e0
    return v0
}
",
        "a i64 cannot be an interpreter register",
    );
    rejects(
        "\
function %f(i32) -> i32 {
    e0 = exit @2 [r1: v2]
block0(v0: i32):
    check v0, e0
    v2 = iconst.i32 3
    return v2
}
",
        "e0 r1: v2 does not dominate this exit",
    );
    // An instruction that cannot exit must not name one.
    let mut f =
        parse_function("function %f(i32) -> i32 {\n    e0 = exit @0 []\nblock0(v0: i32):\n    return v0\n}\n").unwrap();
    f.blocks[0].insts[0].exit = Some(ExitId(0));
    assert!(verify(&f).unwrap_err().iter().any(|e| e.message == "cannot exit"));
}

#[test]
fn verifier_reports_every_error() {
    let errors = verify_errors(
        "function %f(i32, f64) -> value {\nblock0(v0: i32, v1: f64):\n    v2 = fadd v0, v0\n    return v2\n}\n",
    );
    // Both operands of fadd and the return type.
    assert_eq!(errors.len(), 3, "{errors:?}");
}

#[test]
fn builder_makes_what_the_parser_makes() {
    let mut f = Function::new("sum", Type::Value);
    let b0 = f.add_block();
    let b1 = f.add_block();
    let b2 = f.add_block();
    let b3 = f.add_block();
    let p = f.add_param(b0, Type::Ptr);
    let n = f.add_param(b0, Type::I32);
    let zero = f.push(b0, Op::Iconst(Type::I32, 0), Some(Type::I32), None).unwrap();
    let i = f.add_param(b1, Type::I32);
    let acc = f.add_param(b1, Type::I32);
    f.blocks[b1.0 as usize].is_loop = true;
    f.blocks[b1.0 as usize].osr = Some(8);
    let e0 = f.add_exit(ExitState {
        offset: 14,
        regs: vec![
            (0, ExitValue::Val(n)),
            (1, ExitValue::Val(acc)),
            (2, ExitValue::Const(JsConst::Undefined)),
            (3, ExitValue::Const(JsConst::Number(Ieee64::new(-0.0)))),
        ],
        inlined: Vec::new(),
        arguments: None,
    });
    let resume = f.add_exit(ExitState {
        offset: 8,
        regs: vec![(0, ExitValue::Val(i)), (1, ExitValue::Val(acc))],
        inlined: Vec::new(),
        arguments: None,
    });
    f.blocks[b1.0 as usize].resume = Some(resume);
    f.push(b0, Op::Jump(b1, vec![zero, zero]), None, None);
    let c = f.push(b1, Op::Icmp(IntCC::Slt, i, n), Some(Type::I32), None).unwrap();
    f.push(b1, Op::Brif(c, b2, vec![], b3, vec![]), None, None);
    let x = f.push(b2, Op::Load(Type::I32, p, 0), Some(Type::I32), None).unwrap();
    let sum = f.push(b2, Op::Checked(CheckedOp::Add, acc, x), Some(Type::I32), Some(e0)).unwrap();
    let one = f.push(b2, Op::Iconst(Type::I32, 1), Some(Type::I32), None).unwrap();
    let next = f.push(b2, Op::Int(IntOp::Add, i, one), Some(Type::I32), None).unwrap();
    f.push(b2, Op::Jump(b1, vec![next, sum]), None, None);
    let boxed = f.push(b3, Op::BoxI32(acc), Some(Type::Value), None).unwrap();
    f.push(b3, Op::Return(boxed), None, None);
    assert_eq!(f.to_string(), SUM);
    assert_eq!(f, parse_function(SUM).unwrap());
}

#[test]
fn a_module_holds_functions_with_different_names() {
    use super::parse::{parse_function, parse_module};
    let one = "function %f() -> i32 {\nblock0:\n    v0 = iconst.i32 1\n    return v0\n}\n";
    let two = format!("{one}\n{}", one.replace("%f", "%g"));
    let module = parse_module(&two).unwrap();
    assert_eq!(module.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(), ["f", "g"]);
    let e = parse_function(&two).unwrap_err();
    assert_eq!((e.line, e.message.as_str()), (7, "text after the end of the function"));
    let e = parse_module(&format!("{one}{one}")).unwrap_err();
    assert!(e.message.contains("%f is defined twice"), "{e}");
    assert!(parse_module("").is_err());
}

#[test]
fn dominators_answer_from_tree_intervals() {
    // block0 → block1 → {block2, block3} → block4, with block5 unreachable, and a chain
    // 2,000 deep after block4 (straight-line code: a deep dominator tree).
    let mut text = String::from(
        "function %f(i32) -> i32 {\nblock0(v0: i32):\n    jump block1\nblock1:\n    brif v0, block2, block3\n\
         block2:\n    jump block4\nblock3:\n    jump block4\nblock4:\n    jump block6\nblock5:\n    jump block4\n",
    );
    for b in 6..2006 {
        text.push_str(&format!("block{b}:\n    jump block{}\n", b + 1));
    }
    text.push_str("block2006:\n    return v0\n}\n");
    let f = parse_function(&text).unwrap_or_else(|e| panic!("{e}"));
    let dom = super::verify::Dominators::new(&f);
    let b = Block;
    for (x, y, expected) in [
        (0, 2006, true),
        (1, 4, true),
        (2, 4, false),
        (3, 4, false),
        (4, 1000, true),
        (1000, 4, false),
        (2, 3, false),
        (5, 4, false),
        (4, 5, false),
        (5, 5, true),
        (1500, 1500, true),
        (1499, 1500, true),
        (1500, 1499, false),
    ] {
        assert_eq!(dom.dominates(b(x), b(y)), expected, "block{x} dominates block{y}");
    }
    assert!(!dom.reachable(b(5)));
}
