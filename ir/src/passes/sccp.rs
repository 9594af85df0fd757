//! sccp: sparse conditional constant propagation (Wegman and Zadeck). Finds every value that
//! is a constant on all executable paths, treating a `cond_branch` on a constant as taking
//! only one edge, and replaces such values by literals; a `cond_branch` whose condition is
//! constant gets the literal, for simplify_cfg to fold.
//!
//! Lattice per value: unknown (no executable definition seen yet) → a constant primitive →
//! varying. Constants are evaluated with const_fold's ECMAScript folding, so results are
//! exact; `empty` is never a constant here (it only feeds throw_if_empty, which then varies).
//! Phis meet over their executable incoming edges only. Instructions other than operators,
//! conversions, `throw_if_empty` and phis produce varying values.
//!
//! Assumes: verified IR. Invalidates: nothing (replaces values by literals; folding branches
//! and removing dead blocks is left to simplify_cfg).
//!
//! ```text
//! before: %BB1: %1 = phi [0, %BB0], [%3, %BB2] : number   %2 = binary_op "<" %1, 0 ...
//!         (the loop body never runs, so %1 is always 0 and %2 false)
//! after:  cond_branch false, %BB2, %BB3
//! ```

use hashbrown::{HashMap, HashSet};

use crate::cfg::Cfg;
use crate::entity::EntityRef;
use crate::function::{Function, Literal, ValueDef};
use crate::inst::{Imm, Opcode};
use crate::passes::const_fold::{fold_binary, fold_unary, literal_prim};
use crate::passes::js::{self, Prim};
use crate::passes::util::{apply_replacements, remove_insts};
use crate::passes::{Changed, PassCx};
use crate::{Block, Inst, Value};

/// What is known of a value.
#[derive(Clone, Debug, PartialEq)]
enum Lattice {
    /// No executable definition seen yet.
    Unknown,
    /// Always this primitive.
    Const(Prim),
    /// Not a constant.
    Varying,
}

impl Lattice {
    fn meet(&self, other: &Lattice) -> Lattice {
        match (self, other) {
            (Lattice::Unknown, x) | (x, Lattice::Unknown) => x.clone(),
            (Lattice::Const(a), Lattice::Const(b)) if same_prim(a, b) => Lattice::Const(a.clone()),
            _ => Lattice::Varying,
        }
    }
}

/// Identity of primitives for the lattice: numbers by bit pattern, so `0` and `-0` differ
/// and `NaN` equals itself.
fn same_prim(a: &Prim, b: &Prim) -> bool {
    match (a, b) {
        (Prim::Number(x), Prim::Number(y)) => x.to_bits() == y.to_bits(),
        _ => a == b,
    }
}

struct Solver<'a> {
    func: &'a Function,
    cfg: Cfg,
    /// By value index (literals are read from the function instead).
    values: Vec<Lattice>,
    /// By block index.
    executable_blocks: Vec<bool>,
    executable_edges: HashSet<(Block, Block)>,
    /// The users of value `v` are `user_list[user_start[v]..user_start[v + 1]]`.
    user_start: Vec<u32>,
    user_list: Vec<Inst>,
    block_work: Vec<Block>,
    inst_work: Vec<Inst>,
}

/// Runs the pass.
pub fn run(func: &mut Function, cx: &mut PassCx) -> Changed {
    let Some(&entry) = func.layout.first() else { return Changed::NO };
    let mut s = Solver {
        func,
        cfg: Cfg::new(func),
        values: vec![Lattice::Unknown; func.values.len()],
        executable_blocks: vec![false; func.blocks.len()],
        executable_edges: HashSet::new(),
        user_start: Vec::new(),
        user_list: Vec::new(),
        block_work: vec![entry],
        inst_work: Vec::new(),
    };
    s.index_users();
    s.solve(cx);

    // Replace constant results by literals; give constant conditions to branches.
    let mut replace: HashMap<Value, Value> = HashMap::new();
    let mut dead: HashSet<Inst> = HashSet::new();
    let mut cond_literals: Vec<(Inst, Literal)> = Vec::new();
    let results: Vec<(Inst, Value, Prim)> = func
        .inst_order()
        .filter_map(|i| {
            let r = func.insts[i].result?;
            match &s.values[r.index()] {
                Lattice::Const(p) => Some((i, r, p.clone())),
                _ => None,
            }
        })
        .collect();
    for &b in &func.layout {
        let Some(t) = func.terminator(b) else { continue };
        let data = &func.insts[t];
        if data.opcode == Opcode::CondBranch && func.as_literal(data.args[0]).is_none() {
            if let Lattice::Const(p) = s.lattice(cx, data.args[0]) {
                cond_literals.push((t, Literal::Bool(js::to_boolean(&p))));
            }
        }
    }
    drop(s);
    for (i, r, p) in results {
        let lit = match p {
            Prim::Undefined => Literal::Undefined,
            Prim::Null => Literal::Null,
            Prim::Bool(b) => Literal::Bool(b),
            Prim::Number(n) => Literal::Number(n),
            Prim::String(units) => Literal::String(cx.atom_utf16(&units)),
        };
        replace.insert(r, func.literal(lit));
        dead.insert(i);
    }
    let conds = cond_literals.len();
    for (t, lit) in cond_literals {
        let v = func.literal(lit);
        func.insts[t].args[0] = v;
    }
    apply_replacements(func, &replace);
    remove_insts(func, &dead);
    cx.count("constants", dead.len() as u64);
    cx.count("conditions", conds as u64);
    Changed(!dead.is_empty() || conds > 0)
}

impl Solver<'_> {
    /// The lattice value of `v` (literals are constants, except `empty`).
    fn lattice(&self, cx: &PassCx, v: Value) -> Lattice {
        match self.func.values[v].def {
            ValueDef::Literal(_) => match literal_prim(self.func, cx, v) {
                Some(p) => Lattice::Const(p),
                None => Lattice::Varying,
            },
            ValueDef::Inst(_) => self.values[v.index()].clone(),
        }
    }

    /// Fills `user_start` and `user_list` (counting, then placing).
    fn index_users(&mut self) {
        let func = self.func;
        let mut start = vec![0u32; func.values.len() + 1];
        for i in func.inst_order() {
            for &a in &func.insts[i].args {
                start[a.index() + 1] += 1;
            }
        }
        for k in 1..start.len() {
            start[k] += start[k - 1];
        }
        let mut next = start.clone();
        self.user_list = vec![Inst::new(0); start[func.values.len()] as usize];
        for i in func.inst_order() {
            for &a in &func.insts[i].args {
                self.user_list[next[a.index()] as usize] = i;
                next[a.index()] += 1;
            }
        }
        self.user_start = start;
    }

    fn solve(&mut self, cx: &PassCx) {
        loop {
            if let Some(b) = self.block_work.pop() {
                if !std::mem::replace(&mut self.executable_blocks[b.index()], true) {
                    for &i in &self.func.blocks[b].insts {
                        self.visit(cx, i);
                    }
                } else {
                    // A new edge into a block already visited: only its phis can change.
                    for &i in &self.func.blocks[b].insts {
                        if self.func.insts[i].opcode == Opcode::Phi {
                            self.visit(cx, i);
                        }
                    }
                }
            } else if let Some(i) = self.inst_work.pop() {
                match self.func.insts[i].block {
                    Some(b) if self.executable_blocks[b.index()] => self.visit(cx, i),
                    _ => {}
                }
            } else {
                break;
            }
        }
    }

    fn mark_edge(&mut self, from: Block, to: Block) {
        if self.cfg.in_layout(to) && self.executable_edges.insert((from, to)) {
            self.block_work.push(to);
        }
    }

    fn set(&mut self, v: Value, new: Lattice) {
        let old = &self.values[v.index()];
        let merged = old.meet(&new);
        if merged != *old {
            self.values[v.index()] = merged;
            let (start, end) = (self.user_start[v.index()], self.user_start[v.index() + 1]);
            self.inst_work.extend_from_slice(&self.user_list[start as usize..end as usize]);
        }
    }

    fn visit(&mut self, cx: &PassCx, i: Inst) {
        let func = self.func;
        let data = &func.insts[i];
        let b = data.block.expect("visited instructions are in the layout");
        if data.opcode.is_terminator() {
            if data.opcode == Opcode::CondBranch {
                match self.lattice(cx, data.args[0]) {
                    Lattice::Unknown => {}
                    Lattice::Const(p) => {
                        let k = if js::to_boolean(&p) { 0 } else { 1 };
                        self.mark_edge(b, data.targets[k]);
                    }
                    Lattice::Varying => {
                        for &t in &data.targets {
                            self.mark_edge(b, t);
                        }
                    }
                }
            } else {
                for &t in &data.targets {
                    self.mark_edge(b, t);
                }
            }
            return;
        }
        let Some(r) = data.result else { return };
        let value = match (data.opcode, data.imm) {
            (Opcode::Phi, _) => {
                let mut acc = Lattice::Unknown;
                for (k, &a) in data.args.iter().enumerate() {
                    let Some(&pred) = data.targets.get(k) else { continue };
                    if self.executable_edges.contains(&(pred, b)) {
                        acc = acc.meet(&self.lattice(cx, a));
                    }
                }
                acc
            }
            (Opcode::BinaryOp, Imm::BinOp(op)) => self.eval(cx, &data.args, |a| fold_binary(op, &a[0], &a[1])),
            (Opcode::UnaryOp, Imm::UnOp(op)) => self.eval(cx, &data.args, |a| fold_unary(op, &a[0])),
            (Opcode::AsNumber | Opcode::AsNumeric, _) => {
                self.eval(cx, &data.args, |a| Some(Prim::Number(js::to_number(&a[0]))))
            }
            (Opcode::AsString, _) => self.eval(cx, &data.args, |a| Some(Prim::String(js::to_string(&a[0])))),
            (Opcode::ThrowIfEmpty, _) => self.eval(cx, &data.args, |a| Some(a[0].clone())),
            _ => Lattice::Varying,
        };
        self.set(r, value);
    }

    /// Evaluates `f` on constant operands: unknown if any operand is unknown, varying if any
    /// varies or `f` cannot fold.
    fn eval(&self, cx: &PassCx, args: &[Value], f: impl Fn(&[Prim]) -> Option<Prim>) -> Lattice {
        let mut prims = Vec::with_capacity(args.len());
        let mut unknown = false;
        for &a in args {
            match self.lattice(cx, a) {
                Lattice::Unknown => unknown = true,
                Lattice::Varying => return Lattice::Varying,
                Lattice::Const(p) => prims.push(p),
            }
        }
        if unknown {
            return Lattice::Unknown;
        }
        match f(&prims) {
            Some(Prim::String(s)) if s.len() > crate::passes::const_fold::MAX_FOLDED_STRING => Lattice::Varying,
            Some(p) => Lattice::Const(p),
            None => Lattice::Varying,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::passes::test_util::check;

    #[test]
    fn constants_through_phis_and_dead_arms() {
        // x = 1; if (x === 1) y = x + 1; else y = "s"; return y;  — the else arm never runs.
        check(
            "sccp",
            "%BB0:\n  %0 = binary_op \"===\" 1, 1 : boolean\n  cond_branch %0, %BB1, %BB2\n%BB1:\n  %1 = binary_op \"+\" 1, 1 : number\n  branch %BB3\n\
             %BB2:\n  branch %BB3\n%BB3:\n  %2 = phi [%1, %BB1], [\"s\", %BB2] : string|number\n  return %2\n",
            "%BB0:\n  cond_branch true, %BB1, %BB2\n%BB1:\n  branch %BB3\n%BB2:\n  branch %BB3\n%BB3:\n  return 2\n",
        );
    }

    #[test]
    fn loop_that_never_runs() {
        check(
            "sccp",
            "%BB0:\n  %0 = load_param #1 : any\n  branch %BB1\n%BB1:\n  %1 = phi [0, %BB0], [%3, %BB2] : number\n  %2 = binary_op \"<\" %1, 0 : boolean\n  \
             cond_branch %2, %BB2, %BB3\n%BB2:\n  %3 = binary_op \"+\" %1, %0 : any\n  branch %BB1\n%BB3:\n  return %1\n",
            "%BB0:\n  %0 = load_param #1 : any\n  branch %BB1\n%BB1:\n  cond_branch false, %BB2, %BB3\n\
             %BB2:\n  %1 = binary_op \"+\" 0, %0 : any\n  branch %BB1\n%BB3:\n  return 0\n",
        );
    }

    #[test]
    fn varying_loop_stays() {
        let body = "%BB0:\n  %0 = load_param #1 : any\n  branch %BB1\n%BB1:\n  %1 = phi [0, %BB0], [%3, %BB2] : number\n  %2 = binary_op \"<\" %1, %0 : boolean\n  \
                    cond_branch %2, %BB2, %BB3\n%BB2:\n  %3 = binary_op \"+\" %1, 1 : number\n  branch %BB1\n%BB3:\n  return %1\n";
        check("sccp", body, body);
    }

    #[test]
    fn zero_and_negative_zero_are_different_constants() {
        let body = "%BB0:\n  %0 = load_param #1 : any\n  cond_branch %0, %BB1, %BB2\n%BB1:\n  branch %BB3\n%BB2:\n  branch %BB3\n\
                    %BB3:\n  %1 = phi [0, %BB1], [-0, %BB2] : number\n  return %1\n";
        check("sccp", body, body);
    }
}
