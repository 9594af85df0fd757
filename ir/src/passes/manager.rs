//! Runs passes over the functions of a module: single passes, fixed-point groups, the
//! verifier between passes, and statistics.
//!
//! Each function is taken out of the module while a pass transforms it (see `PassCx`), so a
//! pass holds `&mut Function` and can still read scopes, other functions and atoms. A
//! fixed-point group repeats until no pass in it changes the function; hitting its iteration
//! cap means a pass keeps undoing another's work, which is a bug: with `verify_each` (debug
//! pipelines, tests) it is reported as an error; otherwise it is counted in the statistics
//! and the (valid, if less optimized) IR goes on.

use crate::dump::dump_function;
use crate::function::{Function, FunctionKind};
use crate::module::{FuncId, Module};
use crate::passes::{pass_info, pipeline, Changed, OptLevel, PassCx, PassInfo, Stats};
use crate::verify::{render_errors, verify_function};

/// One step of a pipeline.
#[derive(Clone, Debug)]
pub enum Step {
    /// Run the pass with this id once.
    Pass(&'static str),
    /// Repeat the steps until none changes the function, at most `cap` times.
    FixedPoint {
        /// What to repeat.
        steps: Vec<Step>,
        /// The most iterations a correct pipeline can need.
        cap: usize,
    },
}

/// Runs the pipeline of `level` over every function of `module`. The input is always
/// verified first when there are passes to run (passes may assume valid IR). With
/// `verify_each`, the verifier also runs after every pass that changed something. A failure
/// is returned with the function's dump.
pub fn run_pipeline(module: &mut Module, level: OptLevel, verify_each: bool) -> Result<(), String> {
    run_pipeline_with_stats(module, level, verify_each).map(|_| ())
}

/// `run_pipeline`, returning the statistics the passes counted.
pub fn run_pipeline_with_stats(module: &mut Module, level: OptLevel, verify_each: bool) -> Result<Stats, String> {
    let steps = match level {
        OptLevel::O0 => pipeline::o0(),
        OptLevel::O => pipeline::o(),
    };
    let mut stats = Stats::default();
    if !steps.is_empty() && !verify_each {
        crate::timing::time("verify", || {
            module.functions.keys().try_for_each(|id| verify(module, id, "before the pipeline"))
        })?;
    }
    let once = match level {
        OptLevel::O0 => Vec::new(),
        OptLevel::O => pipeline::once(),
    };
    check_steps(&steps)?;
    check_steps(&once)?;
    for id in module.functions.keys() {
        let func = &module.functions[id];
        // A function left to be compiled lazily has only a placeholder body.
        if func.lazy.is_some() {
            continue;
        }
        let steps = if runs_once_without_loops(func) { &once } else { &steps };
        if verify_each {
            verify(module, id, "before the pipeline")?;
        }
        run_steps_on(module, id, steps, verify_each, &mut stats)?;
    }
    Ok(stats)
}

/// Whether `func` runs once (a script's global code, a function called where it is made)
/// and has no loop (no branch back to a block before it in reverse post-order).
fn runs_once_without_loops(func: &Function) -> bool {
    if func.kind != FunctionKind::TopLevel && !func.run_once {
        return false;
    }
    let cfg = crate::cfg::Cfg::new(func);
    cfg.rpo().iter().enumerate().all(|(i, &b)| cfg.succs(b).iter().all(|&s| cfg.rpo_index(s).is_none_or(|j| j > i)))
}

/// Runs `steps` over every function of `module`, counting into `stats`.
pub fn run_steps(module: &mut Module, steps: &[Step], verify_each: bool, stats: &mut Stats) -> Result<(), String> {
    check_steps(steps)?;
    for id in module.functions.keys() {
        if verify_each {
            verify(module, id, "before the pipeline")?;
        }
        run_steps_on(module, id, steps, verify_each, stats)?;
    }
    Ok(())
}

/// Runs the pass named `name` once over every function, verifying before and after it.
pub fn run_pass_by_name(module: &mut Module, name: &str) -> Result<Changed, String> {
    let info = pass_info(name)
        .ok_or_else(|| format!("unknown pass `{name}`; passes: {}", crate::passes::PASS_NAMES.join(", ")))?;
    let mut stats = Stats::default();
    let mut changed = Changed::NO;
    for id in module.functions.keys() {
        verify(module, id, &format!("before pass `{name}`"))?;
        changed |= run_one(module, id, info, true, &mut stats)?;
    }
    Ok(changed)
}

fn check_steps(steps: &[Step]) -> Result<(), String> {
    for s in steps {
        match s {
            Step::Pass(id) => {
                pass_info(id).ok_or_else(|| format!("pipeline names unknown pass `{id}`"))?;
            }
            Step::FixedPoint { steps, .. } => check_steps(steps)?,
        }
    }
    Ok(())
}

fn run_steps_on(
    module: &mut Module,
    id: FuncId,
    steps: &[Step],
    verify_each: bool,
    stats: &mut Stats,
) -> Result<Changed, String> {
    let mut changed = Changed::NO;
    for step in steps {
        match step {
            Step::Pass(name) => {
                if crate::cancel::requested() {
                    return Err(crate::cancel::STOPPED.to_string());
                }
                let info = pass_info(name).expect("checked by check_steps");
                changed |= run_one(module, id, info, verify_each, stats)?;
            }
            Step::FixedPoint { steps, cap } => {
                let mut iterations = 0;
                loop {
                    if iterations == *cap {
                        // The IR is valid, only not fully simplified: a debug pipeline reports
                        // the bug; a release one counts it and goes on.
                        if !verify_each {
                            stats.add("fixed_point.cap_hit", 1);
                            break;
                        }
                        let names = describe(steps);
                        return Err(format!(
                            "internal compiler error: passes [{names}] did not reach a fixed point in {cap} iterations on function @{}\n{}",
                            id.0,
                            dump_function(module, id)
                        ));
                    }
                    iterations += 1;
                    let c = run_steps_on(module, id, steps, verify_each, stats)?;
                    changed |= c;
                    if !c.any() {
                        break;
                    }
                }
                stats.add("fixed_point.iterations", iterations as u64);
            }
        }
    }
    Ok(changed)
}

fn describe(steps: &[Step]) -> String {
    steps
        .iter()
        .map(|s| match s {
            Step::Pass(id) => id.to_string(),
            Step::FixedPoint { steps, .. } => format!("fixed_point({})", describe(steps)),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn run_one(
    module: &mut Module,
    id: FuncId,
    info: &PassInfo,
    verify_each: bool,
    stats: &mut Stats,
) -> Result<Changed, String> {
    let placeholder = Function::new(module.functions[id].name, FunctionKind::Normal, false);
    let mut func = std::mem::replace(&mut module.functions[id], placeholder);
    let changed = {
        let mut cx = PassCx { module, func_id: id, stats, pass: info.id };
        crate::timing::time(info.id, || (info.run)(&mut func, &mut cx))
    };
    module.functions[id] = func;
    if changed.any() {
        stats.add(&format!("{}.changed", info.id), 1);
        if verify_each {
            verify(module, id, &format!("after pass `{}`", info.id))?;
        }
    }
    Ok(changed)
}

fn verify(module: &Module, id: FuncId, when: &str) -> Result<(), String> {
    verify_function(module, id).map_err(|errors| {
        format!(
            "internal compiler error: HIR verification failed {when}:\n{}{}",
            render_errors(&errors),
            dump_function(module, id)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_module;

    #[test]
    fn unknown_pass_is_an_error() {
        let mut m = Module::new("t.js");
        assert!(run_pass_by_name(&mut m, "nope").unwrap_err().contains("unknown pass `nope`"));
    }

    #[test]
    fn verification_failure_names_the_stage() {
        for verify_each in [false, true] {
            let mut m =
                parse_module("function @0 \"t\"() kind=function strict parent=none length=0\n%BB0:\n  return\n")
                    .unwrap();
            let e = run_pipeline(&mut m, OptLevel::O, verify_each).unwrap_err();
            assert!(e.contains("before the pipeline"), "{e}");
            assert!(e.contains("expects Exactly(1) operands"), "{e}");
        }
        let mut m =
            parse_module("function @0 \"t\"() kind=function strict parent=none length=0\n%BB0:\n  return\n").unwrap();
        assert!(run_pass_by_name(&mut m, "dce").unwrap_err().contains("before pass `dce`"));
    }

    #[test]
    fn fixed_point_cap_reports_a_bug() {
        // type_infer reports no change on a second run, so a cap of 1 with a pass that
        // changes the function on its first run is hit.
        let mut m = parse_module(
            "function @0 \"t\"() kind=function strict parent=none length=0\n%BB0:\n  %0 = binary_op \"+\" 1, 2 : any\n  return %0\n",
        )
        .unwrap();
        let steps = vec![Step::FixedPoint { steps: vec![Step::Pass("type_infer")], cap: 1 }];
        let e = run_steps(&mut m, &steps, true, &mut Stats::default()).unwrap_err();
        assert!(e.contains("did not reach a fixed point in 1 iterations"), "{e}");
        let steps = vec![Step::FixedPoint { steps: vec![Step::Pass("type_infer")], cap: 2 }];
        run_steps(&mut m, &steps, true, &mut Stats::default()).unwrap();
    }
}
