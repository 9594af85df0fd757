//! The pass pipelines, as plain functions. Every ordering that matters says why.

use crate::passes::Step;

/// `-O0`: nothing. The backend accepts any verified HIR, including unpromoted stack slots
/// and unreachable blocks, so the IR goes to it exactly as IRGen made it.
pub fn o0() -> Vec<Step> {
    Vec::new()
}

/// Under `-O`, for code that runs once and has no loops (a script's global code, a function
/// called where it is made): its stack slots become SSA values and its dead blocks go, and
/// nothing more is worth the time it would take.
pub fn once() -> Vec<Step> {
    vec![Step::Pass("simplify_cfg"), Step::Pass("mem2reg")]
}

/// `-O`: the full pipeline.
pub fn o() -> Vec<Step> {
    vec![
        // Unreachable blocks first: mem2reg places phis from dominance frontiers, and dead
        // predecessors would only add phi entries that carry nothing.
        Step::Pass("simplify_cfg"),
        // mem2reg before everything that reasons about values: types, constants and
        // identities flow through SSA values, not through stack slots.
        Step::Pass("mem2reg"),
        Step::FixedPoint {
            steps: vec![
                // Types first: inst_simplify decides by operand types (a throw_if_empty on a
                // value that cannot be empty, an as_number of a number).
                Step::Pass("type_infer"),
                // sccp rather than the local const_fold: it sees constants through phis and
                // past constant branches in one run, where const_fold and simplify_cfg would
                // need a round per branch.
                Step::Pass("sccp"),
                Step::Pass("inst_simplify"),
                // Forwarding loads exposes more constants and identical phi inputs to the
                // next round.
                Step::Pass("frame_load_elim"),
                // After folding: a cond_branch on a folded literal becomes a branch, and the
                // blocks it no longer reaches go away, taking their phi entries with them.
                Step::Pass("simplify_cfg"),
                // Last in the round: folding and CFG cleanup leave unused instructions.
                Step::Pass("dce"),
            ],
            // Each round removes or narrows something; real functions settle in a few rounds.
            cap: 32,
        },
        // No type_infer after the loop: the loop only ends when a whole round, type_infer
        // included, changed nothing, so the types the backend reads are already final.
    ]
}

#[cfg(test)]
mod tests {
    use crate::dump::dump_module;
    use crate::parse::parse_module;
    use crate::passes::{run_pipeline, OptLevel};

    /// Runs the `-O` pipeline with verification after every pass.
    fn optimize(text: &str) -> String {
        let mut m = parse_module(text).unwrap_or_else(|e| panic!("{e}"));
        run_pipeline(&mut m, OptLevel::O, true).unwrap_or_else(|e| panic!("{e}"));
        let out = dump_module(&m);
        // The optimized text reads back to the same module.
        assert_eq!(dump_module(&parse_module(&out).unwrap()), out);
        out
    }

    #[test]
    fn sum_loop_becomes_typed_ssa() {
        // function f(n) { let s = 0; for (let i = 0; i < n; i++) s += i; return s; }
        let text = "module \"t.js\"\n\nfunction @0 \"f\"(\"n\") kind=function strict parent=none length=1\n\
            %BB0:\n  %0 = alloc_stack \"n\"\n  %1 = alloc_stack \"s\"\n  %2 = alloc_stack \"i\"\n  %3 = load_param #1\n  \
            store_stack %3, %0\n  store_stack empty, %1\n  store_stack empty, %2\n  store_stack 0, %1\n  store_stack 0, %2\n  branch %BB1\n\
            %BB1:\n  %4 = load_stack %2\n  %5 = throw_if_empty \"i\" %4\n  %6 = load_stack %0\n  %7 = binary_op \"<\" %5, %6\n  cond_branch %7, %BB2, %BB3\n\
            %BB2:\n  %8 = load_stack %1\n  %9 = throw_if_empty \"s\" %8\n  %10 = load_stack %2\n  %11 = throw_if_empty \"i\" %10\n  \
            %12 = binary_op \"+\" %9, %11\n  store_stack %12, %1\n  %13 = load_stack %2\n  %14 = throw_if_empty \"i\" %13\n  \
            %15 = as_numeric %14\n  %16 = unary_op \"++\" %15\n  store_stack %16, %2\n  branch %BB1\n\
            %BB3:\n  %17 = load_stack %1\n  %18 = throw_if_empty \"s\" %17\n  return %18\n";
        let want = "module \"t.js\"\n\nfunction @0 \"f\"(\"n\") kind=function strict parent=none length=1\n\
            %BB0:\n  %0 = load_param #1 : any\n  branch %BB1\n\
            %BB1:\n  %1 = phi [0, %BB0], [%4, %BB2] : number\n  %2 = phi [0, %BB0], [%5, %BB2] : number\n  \
            %3 = binary_op \"<\" %2, %0 : boolean\n  cond_branch %3, %BB2, %BB3\n\
            %BB2:\n  %4 = binary_op \"+\" %1, %2 : number\n  %5 = unary_op \"++\" %2 : number\n  branch %BB1\n\
            %BB3:\n  return %1\n";
        assert_eq!(optimize(text), want);
    }

    #[test]
    fn constant_condition_folds_away() {
        // function g() { var x = 1; if (x === 1) return "a" + x; else return 2; }
        let text = "module \"t.js\"\n\nfunction @0 \"g\"() kind=function sloppy parent=none length=0\n\
            %BB0:\n  %0 = alloc_stack \"x\"\n  store_stack undefined, %0\n  store_stack 1, %0\n  %1 = load_stack %0\n  \
            %2 = binary_op \"===\" %1, 1\n  cond_branch %2, %BB1, %BB2\n\
            %BB1:\n  %3 = load_stack %0\n  %4 = binary_op \"+\" \"a\", %3\n  return %4\n%BB2:\n  return 2\n";
        let out = optimize(text);
        assert!(out.ends_with("length=0\n%BB0:\n  return \"a1\"\n"), "{out}");
    }

    #[test]
    fn code_that_runs_once_gets_the_cheap_pipeline_unless_it_loops() {
        // As `constant_condition_folds_away`, marked `once`: SSA, but nothing folded.
        let body = "%BB0:\n  %0 = alloc_stack \"x\"\n  store_stack 1, %0\n  %1 = load_stack %0\n  \
            %2 = binary_op \"+\" \"a\", %1\n  return %2\n";
        let text =
            format!("module \"t.js\"\n\nfunction @0 \"g\"() kind=function sloppy parent=none length=0 once\n{body}");
        let out = optimize(&text);
        assert!(out.contains("once\n%BB0:\n  %0 = binary_op \"+\" \"a\", 1 : string\n  return %0\n"), "{out}");
        // With a loop it gets everything.
        let looping = "%BB0:\n  %0 = alloc_stack \"x\"\n  store_stack 1, %0\n  branch %BB1\n\
            %BB1:\n  %1 = load_stack %0\n  %2 = binary_op \"+\" \"a\", %1\n  %3 = call %2, undefined\n  cond_branch %3, %BB1, %BB2\n\
            %BB2:\n  return %2\n";
        let text =
            format!("module \"t.js\"\n\nfunction @0 \"g\"() kind=function sloppy parent=none length=0 once\n{looping}");
        let out = optimize(&text);
        assert!(!out.contains("binary_op") && out.contains("call \"a1\""), "{out}");
    }

    #[test]
    fn try_catch_keeps_the_slot_the_handler_reads() {
        // function h(f) { var x = 0; try { x = 1; f(); x = 2; } catch (e) { x = x + 10; } return x; }
        let text = "module \"t.js\"\n\nfunction @0 \"h\"(\"f\") kind=function sloppy parent=none length=1\n\
            %BB0:\n  %0 = alloc_stack \"x\"\n  %1 = alloc_stack \"f\"\n  %2 = load_param #1\n  store_stack %2, %1\n  store_stack 0, %0\n  try_start %BB1, %BB2\n\
            %BB1:\n  store_stack 1, %0\n  %3 = load_stack %1\n  %4 = call %3, undefined\n  store_stack 2, %0\n  try_end %BB3\n\
            %BB2:\n  %5 = catch\n  %6 = load_stack %0\n  %7 = binary_op \"+\" %6, 10\n  store_stack %7, %0\n  branch %BB3\n\
            %BB3:\n  %8 = load_stack %0\n  return %8\n";
        let want = "module \"t.js\"\n\nfunction @0 \"h\"(\"f\") kind=function sloppy parent=none length=1\n\
            %BB0:\n  %0 = alloc_stack \"x\" : undefined|number\n  %1 = load_param #1 : any\n  store_stack 0, %0\n  try_start %BB1, %BB2\n\
            %BB1:\n  store_stack 1, %0\n  %2 = call %1, undefined : any\n  store_stack 2, %0\n  try_end %BB3\n\
            %BB2:\n  %3 = catch : any\n  %4 = load_stack %0 : undefined|number\n  %5 = binary_op \"+\" %4, 10 : number\n  store_stack %5, %0\n  branch %BB3\n\
            %BB3:\n  %6 = load_stack %0 : undefined|number\n  return %6\n";
        assert_eq!(optimize(text), want);
    }
}

#[cfg(test)]
mod scale_tests {
    use crate::parse::parse_module;
    use crate::passes::{run_pipeline, OptLevel};

    /// A function of `n` if-statements over `vars` stack variables, IRGen style.
    /// Variables start as a parameter (`varying`) or as 0 (everything folds).
    pub(crate) fn big_function(n: usize, vars: usize, varying: bool) -> String {
        let mut t = String::from(
            "function @0 \"big\"() kind=function sloppy parent=none length=0\n%BB0:\n  %999999 = load_param #1\n",
        );
        let init = if varying { "%999999" } else { "0" };
        for v in 0..vars {
            t += &format!("  %{v} = alloc_stack \"v{v}\"\n  store_stack {init}, %{v}\n");
        }
        let mut next = vars;
        t += "  branch %BB1\n";
        for k in 0..n {
            let (head, then, join) = (1 + 2 * k, 2 + 2 * k, 3 + 2 * k);
            let (a, b) = (k % vars, (k * 7 + 3) % vars);
            t += &format!(
                "%BB{head}:\n  %{l} = load_stack %{a}\n  %{c} = binary_op \"<\" %{l}, {k}\n  cond_branch %{c}, %BB{then}, %BB{join}\n\
                 %BB{then}:\n  %{l2} = load_stack %{b}\n  %{s} = binary_op \"+\" %{l2}, %{l}\n  store_stack %{s}, %{a}\n  branch %BB{join}\n",
                l = next,
                c = next + 1,
                l2 = next + 2,
                s = next + 3
            );
            next += 4;
        }
        t += &format!("%BB{}:\n  %{next} = load_stack %0\n  return %{next}\n", 1 + 2 * n);
        t
    }

    #[test]
    fn large_function_optimizes_and_verifies() {
        for varying in [false, true] {
            let mut m = parse_module(&big_function(300, 20, varying)).unwrap();
            run_pipeline(&mut m, OptLevel::O, true).unwrap();
            let out = crate::dump::dump_module(&m);
            assert!(!out.contains("alloc_stack"));
            assert_eq!(out.contains("phi"), varying, "{out}");
        }
    }

    #[test]
    #[ignore = "timing probe: cargo test -p ir scale -- --ignored --nocapture"]
    fn timing_probe() {
        for (n, varying) in [(1000, false), (16000, false), (1000, true), (4000, true), (16000, true)] {
            let text = big_function(n, 50, varying);
            let t0 = std::time::Instant::now();
            let mut m = parse_module(&text).unwrap();
            let t1 = std::time::Instant::now();
            run_pipeline(&mut m, OptLevel::O, false).unwrap();
            let t2 = std::time::Instant::now();
            crate::verify::verify_module(&m).unwrap();
            let t3 = std::time::Instant::now();
            eprintln!("n={n} varying={varying}: parse {:?} opt {:?} verify {:?}", t1 - t0, t2 - t1, t3 - t2);
        }
    }
}
