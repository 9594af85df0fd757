//! Each pass on hand-written MIR.

use super::run;
use crate::mir::parse::parse_function;
use crate::mir::verify::verify;

/// The function after `passes`, printed.
fn after(passes: &[&str], text: &str) -> String {
    let mut f = parse_function(text).unwrap_or_else(|e| panic!("{e}"));
    verify(&f).expect("the input verifies");
    run(&mut f, passes, true).unwrap_or_else(|e| panic!("{e}"));
    f.to_string()
}

#[test]
fn fold_computes_constants_and_wraps_i32() {
    let out = after(
        &["fold", "dce"],
        "\
function %f() -> i32 {
block0:
    v0 = iconst.i32 2147483647
    v1 = iconst.i32 1
    v2 = iadd.i32 v0, v1
    v3 = imul.i32 v2, v1
    return v3
}
",
    );
    assert!(out.contains("block0:\n    v3 = iconst.i32 -2147483648\n    return v3\n"), "{out}");
}

#[test]
fn fold_keeps_an_overflowing_checked_add_and_removes_a_safe_one() {
    let text = "\
function %f(i32) -> i32 {
    e0 = exit @3 [r0: v0]
block0(v0: i32):
    v1 = iconst.i32 2147483647
    v2 = iconst.i32 1
    v3 = iadd_ovf v1, v2, e0
    v4 = iconst.i32 0
    v5 = iadd_ovf v0, v4, e0
    v6 = iadd_ovf v3, v5, e0
    return v6
}
";
    let out = after(&["fold", "dce"], text);
    assert!(out.contains("v3 = iadd_ovf v1, v2, e0"), "{out}");
    assert!(!out.contains("v5 ="), "x + 0 cannot overflow: {out}");
    assert!(out.contains("v6 = iadd_ovf v3, v0, e0"), "{out}");
}

#[test]
fn fold_turns_a_constant_branch_into_a_jump_and_dce_drops_the_dead_arm() {
    let out = after(
        &["fold", "dce"],
        "\
function %f(value) -> value {
    e0 = exit @1 [r0: v0]
block0(v0: value):
    v1 = iconst.i32 0
    brif v1, block1, block2
block1:
    v2 = unbox_i32 v0, e0
    v3 = box_i32 v2
    return v3
block2:
    return v0
}
",
    );
    assert!(out.contains("jump block2"), "{out}");
    assert!(!out.contains("block1"), "{out}");
    // The exit only the dead arm named keeps no values.
    assert!(out.contains("e0 = exit @1 []"), "{out}");
}

#[test]
fn fold_removes_boxing_round_trips() {
    let out = after(
        &["fold", "dce"],
        "\
function %f(i32) -> f64 {
    e0 = exit @1 []
block0(v0: i32):
    v1 = box_i32 v0
    v2 = unbox_i32 v1, e0
    v3 = unbox_f64 v1, e0
    v4 = i32_to_f64 v2
    v5 = fadd v3, v4
    return v5
}
",
    );
    assert!(!out.contains("unbox"), "{out}");
    assert!(out.contains("v3 = i32_to_f64 v0"), "{out}");
}

#[test]
fn fold_compares_int32s_converted_to_f64_as_int32s() {
    // a == b on boxed int32s compares f64s; where both sides were i32s (a loop counter,
    // the result of int32 arithmetic), the conversions go.
    let out = after(
        &["fold", "dce"],
        "\
function %f(i32, i32, f64) -> i32 {
    e0 = exit @1 []
block0(v0: i32, v1: i32, v2: f64):
    v3 = box_i32 v0
    v4 = box_i32 v1
    v5 = unbox_f64 v3, e0
    v6 = unbox_f64 v4, e0
    v7 = fcmp.lt v5, v6
    v8 = i32_to_f64 v0
    v9 = fcmp.eq v8, v2
    v10 = band.i32 v7, v9
    return v10
}
",
    );
    assert!(out.contains("v7 = icmp.slt v0, v1"), "{out}");
    assert!(out.contains("v9 = fcmp.eq v8, v2"), "one side a double: {out}");
    // An int32 converted against a constant that is an int32 (an i32 constant is made for
    // it), and ToInt32 of an int32 converted.
    let out = after(
        &["fold", "dce"],
        "\
function %f(i32) -> i32 {
    e0 = exit @1 []
block0(v0: i32):
    v1 = i32_to_f64 v0
    v2 = fconst 0.0
    v3 = fcmp.ne v1, v2
    v4 = fconst 2.5
    v5 = fcmp.lt v1, v4
    v6 = to_int32 v1, e0
    v7 = band.i32 v3, v5
    v8 = band.i32 v7, v6
    return v8
}
",
    );
    assert!(out.contains("icmp.ne v0, v"), "{out}");
    assert!(out.contains("fcmp.lt v1, v4"), "2.5 is not an int32: {out}");
    assert!(!out.contains("to_int32"), "{out}");
}

#[test]
fn gvn_merges_pure_operations_and_dominated_checks() {
    let out = after(
        &["gvn", "dce"],
        "\
function %f(value, i32) -> i32 {
    e0 = exit @1 [r0: v0]
    e1 = exit @5 [r0: v0, r1: v1]
block0(v0: value, v1: i32):
    v2 = unbox_i32 v0, e0
    v3 = iadd.i32 v2, v1
    brif v1, block1, block2
block1:
    v4 = unbox_i32 v0, e1
    v5 = iadd.i32 v4, v1
    return v5
block2:
    return v3
}
",
    );
    assert!(!out.contains("v4 ="), "the dominated unbox goes: {out}");
    assert!(!out.contains("v5 ="), "{out}");
    assert!(out.contains("block1:\n    return v3"), "{out}");
}

#[test]
fn gvn_does_not_merge_siblings_or_loads_across_a_store() {
    let out = after(
        &["gvn"],
        "\
function %f(ptr, value) -> value {
block0(v0: ptr, v1: value):
    v2 = load_slot v0, 1
    v3 = load_slot v0, 2
    store_slot v0, 2, v1
    v4 = load_slot v0, 1
    v5 = load_slot v0, 2
    brif v0, block1, block2
block1:
    v6 = box_object v0
    return v6
block2:
    v7 = box_object v0
    return v7
}
"
        .replace("brif v0,", "v8 = trunc v0\n    brif v8,")
        .as_str(),
    );
    assert!(!out.contains("v4 ="), "slot 1 was not written: {out}");
    assert!(out.contains("v5 = load_slot v0, 2"), "slot 2 was: {out}");
    assert!(out.contains("v6 = box_object v0") && out.contains("v7 = box_object v0"), "siblings stay: {out}");
}

#[test]
fn gvn_carries_reads_past_a_join_unless_an_arm_writes() {
    // The shape read in block0 still holds at block3, where both arms of a branch join:
    // neither writes shapes. Slot 1 is written in one arm, so its read is made again.
    let out = after(
        &["gvn"],
        "\
function %f(ptr, value, i32) -> value {
block0(v0: ptr, v1: value, v2: i32):
    v3 = load_shape v0
    v4 = load_slot v0, 1
    brif v2, block1, block2
block1:
    store_slot v0, 1, v1
    jump block3
block2:
    jump block3
block3:
    v5 = load_shape v0
    v6 = load_slot v0, 1
    v7 = bits v6
    v8 = trunc v7
    v9 = icmp.eq v5, v3
    v10 = iadd.i32 v8, v9
    v11 = from_bits v7
    return v11
}
",
    );
    assert!(!out.contains("v5 ="), "the shape was not written: {out}");
    assert!(out.contains("v6 = load_slot v0, 1"), "slot 1 was, in one arm: {out}");
}

#[test]
fn unknown_passes_are_named() {
    let mut f = parse_function("function %f() -> i32 {\nblock0:\n    v0 = iconst.i32 1\n    return v0\n}\n").unwrap();
    let e = run(&mut f, &["nope"], true).unwrap_err();
    assert!(e.contains("unknown pass 'nope'") && e.contains("gvn"), "{e}");
}

#[test]
fn fold_wraps_shifts_to_the_width() {
    let out = after(
        &["fold", "dce"],
        "\
function %f() -> i32 {
block0:
    v0 = iconst.i32 -8
    v1 = iconst.i32 33
    v2 = ushr.i32 v0, v1
    v3 = sshr.i32 v0, v1
    v4 = iadd.i32 v2, v3
    return v4
}
",
    );
    // -8 >>> 1 = 2147483644, -8 >> 1 = -4 (shift 33 is shift 1 in 32 bits); their sum wraps.
    assert!(out.contains("v4 = iconst.i32 2147483640"), "{out}");
}

/// A loop over `i` from `start` while `i < n`, with a bounds check, stepping by `step`.
fn bounds_loop(start: i32, step: &str) -> String {
    format!(
        "\
function %f(i32, i32) -> i32 {{
    e0 = exit @3 [r0: v2]
block0(v0: i32, v1: i32):
    v9 = iconst.i32 {start}
    jump block1(v9)
block1(v2: i32) loop:
    v3 = icmp.slt v2, v1
    brif v3, block2, block3
block2:
    v4 = icmp.uge v2, v1
    check v4, e0
    v5 = iconst.i32 1
    v6 = {step} v2, v5
    jump block1(v6)
block3:
    return v2
}}
"
    )
}

#[test]
fn checks_remove_a_bounds_check_only_when_the_counter_starts_at_zero_and_counts_up() {
    assert!(!after(&["checks"], &bounds_loop(0, "iadd.i32")).contains("check v4"));
    assert!(after(&["checks"], &bounds_loop(-1, "iadd.i32")).contains("check v4"), "i may be -1");
    assert!(after(&["checks"], &bounds_loop(0, "isub.i32")).contains("check v4"), "i counts down");
    assert!(after(&["checks"], &bounds_loop(0, "imul.i32")).contains("check v4"), "i is not a counter");
}

#[test]
fn checks_do_not_trust_a_wrapping_increment_without_a_bound() {
    // i + 1 wraps at the largest int32 unless a test `i < n` guards it: here the increment
    // comes before the test, so `i` may wrap to a negative number.
    let text = "\
function %f(i32) -> i32 {
    e0 = exit @3 [r0: v2]
block0(v0: i32):
    v9 = iconst.i32 0
    jump block1(v9)
block1(v2: i32) loop:
    v5 = iconst.i32 1
    v6 = iadd.i32 v2, v5
    v3 = icmp.slt v2, v0
    brif v3, block2, block3
block2:
    v4 = icmp.slt v2, v9
    check v4, e0
    jump block1(v6)
block3:
    return v2
}
";
    assert!(after(&["checks"], text).contains("check v4, e0"));
}

#[test]
fn repr_leaves_a_parameter_that_some_edge_passes_boxed_from_elsewhere() {
    let text = "\
function %f(value) -> value {
    e0 = exit @1 [r0: v0]
block0(v0: value):
    v1 = vconst 1
    v2 = iconst.i32 0
    brif v2, block1(v0), block1(v1)
block1(v3: value):
    v4 = unbox_f64 v3, e0
    v5 = box_f64 v4
    return v5
}
";
    let out = after(&["repr"], text);
    assert!(out.contains("block1(v3: value):"), "v0 arrives boxed from the caller: {out}");
    let unboxed = after(&["repr", "dce"], &text.replace("block1(v0), block1(v1)", "block1(v1), block1(v1)"));
    assert!(unboxed.contains("block1(v3: i32):"), "{unboxed}");
    assert!(unboxed.contains("v4 = i32_to_f64 v3"), "{unboxed}");
}

#[test]
fn licm_needs_a_single_preheader_that_jumps() {
    let text = "\
function %f(i32, ptr) -> value {
block0(v0: i32, v1: ptr):
    brif v0, block1, block2
block1 loop:
    v2 = load_slot v1, 32
    v3 = iconst.i32 5
    v4 = iadd.i32 v0, v3
    brif v4, block1, block2
block2:
    v5 = vconst undefined
    return v5
}
";
    let out = after(&["licm"], text);
    assert!(out.contains("block1 loop:\n    v2 = load_slot v1, 32\n    v3 = iconst.i32 5\n"), "{out}");
}

#[test]
fn params_replace_a_loop_invariant_and_a_single_edge_parameter_and_keep_real_merges() {
    let text = "\
function %f(value, i32) -> value {
    e0 = exit @1 [r0: v3, r1: v4]
block0(v0: value, v1: i32):
    v2 = iconst.i32 0
    jump block1(v0, v2)
block1(v3: value, v4: i32) loop:
    v5 = icmp.slt v4, v1
    brif v5, block2(v3, v4), block3(v3)
block2(v6: value, v7: i32):
    v8 = iconst.i32 1
    v9 = iadd_ovf v7, v8, e0
    jump block1(v6, v9)
block3(v10: value):
    return v10
}
";
    let out = after(&["params"], text);
    // v3 (passed v0, then itself through v6) is v0; v6, v7 and v10 have one edge each.
    assert!(out.contains("block1(v4: i32) loop:"), "{out}");
    assert!(out.contains("brif v5, block2, block3\nblock2:"), "{out}");
    assert!(out.contains("v9 = iadd_ovf v4, v8, e0\n    jump block1(v9)"), "{out}");
    assert!(out.contains("block3:\n    return v0"), "{out}");
    assert!(out.contains("e0 = exit @1 [r0: v0, r1: v4]"), "the exit state follows: {out}");
}

/// A loop counting `v3` (given as a value) down to zero; the loop unboxes it on every trip.
const COUNTDOWN: &str = "\
function %f(value) -> value {
    e0 = exit @4 [r0: v3]
    e1 = exit @2 [r0: v3]
block0(v0: value):
    jump block1(v0)
block1(v3: value) loop resume e1:
    v4 = unbox_i32 v3, e0
    v5 = iconst.i32 0
    v6 = icmp.sgt v4, v5
    brif v6, block2, block3
block2:
    v7 = iconst.i32 1
    v8 = isub_ovf v4, v7, e0
    v9 = box_i32 v8
    jump block1(v9)
block3:
    return v3
}
";

#[test]
fn repr_unboxes_a_loop_counter_on_the_way_into_the_loop() {
    let out = after(&["repr", "dce"], COUNTDOWN);
    assert!(out.contains("block1(v3: i32) loop:"), "{out}");
    assert!(out.contains("block0(v0: value):\n    v10 = unbox_i32 v0, e2\n    jump block1(v10)"), "{out}");
    assert!(out.contains("e2 = exit @2 [r0: v0]"), "the resume exit, with what the edge passes: {out}");
    assert!(out.contains("v8 = isub_ovf v3, v7, e0\n    jump block1(v8)"), "{out}");
}

#[test]
fn repr_does_not_speculate_on_an_unbox_that_some_trip_skips() {
    // The unbox is on one arm of the loop only: a loop whose counter is not a number may
    // go around the other.
    let text = COUNTDOWN.replace(
        "block1(v3: value) loop resume e1:\n    v4 = unbox_i32 v3, e0\n    v5 = iconst.i32 0\n    v6 = icmp.sgt v4, v5\n    brif v6, block2, block3\nblock2:\n",
        "block1(v3: value) loop resume e1:\n    v5 = iconst.i32 0\n    v6 = tag_is.number v3\n    brif v6, block2, block3\nblock2:\n    v4 = unbox_i32 v3, e0\n",
    );
    let out = after(&["repr"], &text);
    assert!(out.contains("block1(v3: i32) loop"), "the unbox in block2 precedes the only back edge: {out}");
    // A back edge straight from the header skips block2.
    let skipped = text
        .replace("brif v6, block2, block3\nblock2:", "brif v6, block2, block1(v3)\nblock2:")
        .replace("    jump block1(v9)\nblock3:", "    brif v8, block1(v9), block3\nblock3:");
    let out = after(&["repr"], &skipped);
    assert!(out.contains("block1(v3: value) loop"), "{out}");
}

#[test]
fn fold_sees_through_a_boolean_boxed_and_tested_again() {
    // `!(a < b)` boxed as a JS boolean (its bits: false's plus 0 or 1), then ToBoolean of
    // those bits (minus false's, at most 1): the branch tests the comparison itself.
    let out = after(
        &["fold", "params", "fold", "dce"],
        "\
function %f(i32, i32) -> i32 {
block0(v0: i32, v1: i32):
    v2 = icmp.slt v0, v1
    v3 = iconst.i32 1
    v4 = bxor.i32 v2, v3
    v5 = sext v4
    v6 = iconst.i64 -1970324836974590
    v7 = iadd.i64 v5, v6
    v8 = isub.i64 v7, v6
    v9 = iconst.i64 1
    v10 = icmp.ule v8, v9
    v11 = trunc v8
    brif v10, block1(v11), block2
block1(v12: i32):
    return v12
block2:
    return v0
}
",
    );
    assert!(out.contains("block0(v0: i32, v1: i32):\n    v2 = icmp.slt v0, v1\n    v3 = iconst.i32 1\n    v4 = bxor.i32 v2, v3\n    jump block1\nblock1:\n    return v4\n"), "{out}");
}

#[test]
fn licm_moves_a_guard_run_on_every_trip_out_through_the_resume_exit() {
    // `unbox_i32 v1` (the bound, given as a value) in the body: its exit names the counter,
    // so only the loop's resume exit can describe the state before the loop.
    let text = "\
function %f(value) -> i32 {
    e0 = exit @5 [r0: v2, r1: v1]
    e1 = exit @2 [r0: v2, r1: v1]
block0(v1: value):
    v0 = iconst.i32 0
    jump block1(v0)
block1(v2: i32) loop resume e1:
    v3 = iconst.i32 1
    v4 = iadd_ovf v2, v3, e0
    v5 = unbox_i32 v1, e0
    v6 = icmp.slt v4, v5
    brif v6, block1(v4), block2
block2:
    return v2
}
";
    let out = after(&["licm"], text);
    assert!(out.contains("e2 = exit @2 [r0: v0, r1: v1]"), "{out}");
    assert!(out.contains("    v5 = unbox_i32 v1, e2\n    jump block1(v0)"), "{out}");
    // Without a resume exit the guard stays.
    let out = after(&["licm"], &text.replace(" resume e1", ""));
    assert!(out.contains("v4 = iadd_ovf v2, v3, e0\n    v5 = unbox_i32 v1, e0"), "{out}");
    // Nor does it move from a block some trip skips (block4 goes back without it).
    let skipped = text.replace(
        "    v5 = unbox_i32 v1, e0\n    v6 = icmp.slt v4, v5\n    brif v6, block1(v4), block2\n",
        "    v6 = icmp.slt v4, v3\n    brif v6, block3, block4\nblock3:\n    v5 = unbox_i32 v1, e0\n    brif v5, block1(v4), block2\nblock4:\n    brif v4, block1(v4), block2\n",
    );
    let out = after(&["licm"], &skipped);
    assert!(!out.contains("unbox_i32 v1, e2"), "{out}");
}

#[test]
fn gvn_carries_a_shape_guard_down_a_chain_of_blocks() {
    // Two reads of `o.x` with a one-shape guard each: the second guard loads the same
    // shape (no write between), compares the same values and branches on a condition the
    // first branch decided, so it becomes a jump; a store of a slot does not hide the shape.
    let text = "\
function %f(value) -> value {
    e0 = exit @1 [r0: v0]
block0(v0: value):
    v1 = unbox_object v0, e0
    v2 = load_shape v1
    v3 = iconst.ptr 0x1000
    v4 = icmp.eq v2, v3
    brif v4, block1, block9
block1:
    v5 = load_slot v1, 32
    store_slot v1, 40, v5
    jump block2
block2:
    v6 = load_shape v1
    v7 = icmp.eq v6, v3
    brif v7, block3, block9
block3:
    v8 = load_slot v1, 32
    check v7, e0
    return v8
block9:
    deopt e0
}
";
    let out = after(&["gvn"], text);
    assert!(out.contains("block2:\n    jump block3\nblock3:\n    return v5\n"), "{out}");
    // A call between them may change the shape: the second guard stays.
    let call = text.replace("    store_slot v1, 40, v5\n", "    v20 = call_helper @safepoint(), e0\n");
    let out = after(&["gvn"], &call);
    assert!(out.contains("brif v7, block3, block9"), "{out}");
}
