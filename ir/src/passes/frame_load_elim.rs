//! frame_load_elim: forwards a stored or already loaded value to later loads of the same
//! heap-scope variable (`load_frame`) or stack slot (`load_stack`), along straight-line code.
//!
//! Walking each block, a map holds the known value of (variable, environment) and of each
//! slot. A load with a known value is replaced by it; a load or store records its value. A
//! store to a variable forgets that variable through every other environment value (two
//! values may name one environment); any other instruction whose effects include
//! `writes_frame` or `executes_js` (a call, or a `valueOf` run by an operator, may assign a
//! captured variable) forgets everything. A block with a
//! single predecessor starts from the predecessor's final state, unless it opens with a
//! `first_in_block` instruction other than a phi: a handler is entered from anywhere in its
//! try region and a resumed generator after arbitrary code ran.
//!
//! Assumes: verified IR. Invalidates: nothing (removes loads).
//!
//! ```text
//! before: store_frame $0.0:"x" 1, %0    %1 = load_frame $0.0:"x" %0 : any|empty    return %1
//! after:  store_frame $0.0:"x" 1, %0    return 1
//! ```

use hashbrown::{HashMap, HashSet};
use smallvec::SmallVec;

use crate::cfg::Cfg;
use crate::effects::Effects;
use crate::function::Function;
use crate::inst::{Imm, Opcode};
use crate::module::Var;
use crate::passes::util::{apply_replacements, remove_insts};
use crate::passes::{Changed, PassCx};
use crate::{Block, Inst, Value};

/// What is known at a point: the value of each variable through each environment value
/// that names it (a store replaces all of them), and of each stack slot.
#[derive(Clone, Default)]
struct Known {
    frames: HashMap<Var, SmallVec<[(Value, Value); 1]>>,
    slots: HashMap<Value, Value>,
}

impl Known {
    fn clear(&mut self) {
        self.frames.clear();
        self.slots.clear();
    }
}

/// Runs the pass.
pub fn run(func: &mut Function, cx: &mut PassCx) -> Changed {
    let cfg = Cfg::new(func);
    let mut out_state: HashMap<Block, Known> = HashMap::new();
    let mut replace: HashMap<Value, Value> = HashMap::new();
    let mut dead: HashSet<Inst> = HashSet::new();
    let resolve = |replace: &HashMap<Value, Value>, v: Value| replace.get(&v).copied().unwrap_or(v);
    for &b in cfg.rpo() {
        let insts = &func.blocks[b].insts;
        let opener = insts.iter().find(|&&i| func.insts[i].opcode != Opcode::Phi);
        let entered_abnormally = opener.is_some_and(|&i| func.effects(i).has(Effects::FIRST_IN_BLOCK));
        let mut known = match cfg.preds(b) {
            // The only successor of its predecessor takes the state over; others copy it.
            [p] if !entered_abnormally && cfg.succs(*p).len() == 1 => out_state.remove(p).unwrap_or_default(),
            [p] if !entered_abnormally => out_state.get(p).cloned().unwrap_or_default(),
            _ => Known::default(),
        };
        for &i in insts {
            let data = &func.insts[i];
            match (data.opcode, data.imm) {
                (Opcode::LoadFrame, Imm::Var(var)) => {
                    let env = resolve(&replace, data.args[0]);
                    let r = func.result(i);
                    let through = known.frames.entry(var).or_default();
                    match through.iter().find(|(e, _)| *e == env) {
                        Some(&(_, v)) => {
                            replace.insert(r, v);
                            dead.insert(i);
                        }
                        None => through.push((env, r)),
                    }
                }
                (Opcode::StoreFrame, Imm::Var(var)) => {
                    let env = resolve(&replace, data.args[1]);
                    let v = resolve(&replace, data.args[0]);
                    let through = known.frames.entry(var).or_default();
                    through.clear();
                    through.push((env, v));
                }
                (Opcode::LoadStack, _) => {
                    let r = func.result(i);
                    match known.slots.get(&data.args[0]) {
                        Some(&v) => {
                            replace.insert(r, v);
                            dead.insert(i);
                        }
                        None => {
                            known.slots.insert(data.args[0], r);
                        }
                    }
                }
                (Opcode::StoreStack, _) => {
                    known.slots.insert(data.args[1], resolve(&replace, data.args[0]));
                }
                // Running JavaScript (a call, a valueOf behind `+`, a getter) may assign any
                // captured variable.
                _ if func.effects(i).has(Effects::WRITES_FRAME.union(Effects::EXECUTES_JS)) => known.clear(),
                _ => {}
            }
        }
        out_state.insert(b, known);
    }
    apply_replacements(func, &replace);
    remove_insts(func, &dead);
    cx.count("loads_removed", dead.len() as u64);
    Changed(!dead.is_empty())
}

#[cfg(test)]
mod tests {
    use crate::passes::test_util::{check, run_module};

    const SCOPES: &str = "module \"t.js\"\n\nscope $0 in @0 parent=none\n  $0.0 let \"x\"\n  $0.1 let \"y\"\n\n\
                          function @0 \"t\"() kind=function strict parent=none length=0\n";

    #[test]
    fn forwards_stores_and_loads_until_a_call() {
        let text = format!(
            "{SCOPES}%BB0:\n  %0 = create_scope $0 undefined : environment\n  store_frame $0.0:\"x\" 1, %0\n  \
             %1 = load_frame $0.0:\"x\" %0 : any|empty\n  %2 = load_frame $0.1:\"y\" %0 : any|empty\n  %3 = load_frame $0.1:\"y\" %0 : any|empty\n  \
             %4 = call %1, %2, %3 : any\n  %5 = load_frame $0.0:\"x\" %0 : any|empty\n  branch %BB1\n\
             %BB1:\n  %6 = load_frame $0.0:\"x\" %0 : any|empty\n  return %6\n"
        );
        let want = format!(
            "{SCOPES}%BB0:\n  %0 = create_scope $0 undefined : environment\n  store_frame $0.0:\"x\" 1, %0\n  \
             %1 = load_frame $0.1:\"y\" %0 : any|empty\n  \
             %2 = call 1, %1, %1 : any\n  %3 = load_frame $0.0:\"x\" %0 : any|empty\n  branch %BB1\n\
             %BB1:\n  return %3\n"
        );
        let (out, changed) = run_module("frame_load_elim", &text);
        assert!(changed);
        assert_eq!(out, want);
    }

    #[test]
    fn operators_that_may_run_javascript_forget_variables() {
        let text = format!(
            "{SCOPES}%BB0:\n  %0 = create_scope $0 undefined : environment\n  %1 = load_param #1 : any\n  store_frame $0.0:\"x\" 1, %0\n  \
             %2 = binary_op \"+\" %1, 1 : string|number|bigint\n  %3 = load_frame $0.0:\"x\" %0 : any|empty\n  \
             %4 = binary_op \"+\" %3, 1 : string|number|bigint\n  %5 = load_frame $0.0:\"x\" %0 : any|empty\n  \
             %6 = call %2, %3, %4, %5 : any\n  return %6\n"
        );
        // The first `+` may run valueOf on a parameter; the second adds to a value that may
        // be an object too. Neither load can be forwarded.
        let (out, changed) = run_module("frame_load_elim", &text);
        assert!(!changed, "{out}");
    }

    #[test]
    fn handler_blocks_start_empty() {
        let body = "%BB0:\n  %0 = alloc_stack \"x\" : any|empty\n  store_stack 1, %0\n  try_start %BB1, %BB2\n\
                    %BB1:\n  %1 = load_stack %0 : any|empty\n  store_stack 2, %0\n  %2 = call %1, undefined : any\n  try_end %BB3\n\
                    %BB2:\n  %3 = catch : any\n  %4 = load_stack %0 : any|empty\n  return %4\n%BB3:\n  return 0\n";
        let want = "%BB0:\n  %0 = alloc_stack \"x\" : any|empty\n  store_stack 1, %0\n  try_start %BB1, %BB2\n\
                    %BB1:\n  store_stack 2, %0\n  %1 = call 1, undefined : any\n  try_end %BB3\n\
                    %BB2:\n  %2 = catch : any\n  %3 = load_stack %0 : any|empty\n  return %3\n%BB3:\n  return 0\n";
        check("frame_load_elim", body, want);
    }
}
