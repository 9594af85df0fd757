//! The MIR verifier: checks a function and reports every error it finds.
//!
//! - Structure: an entry block that nothing jumps to; every block in the layout once, ending
//!   in exactly one terminator; loop headers marked (`loop`) where a back edge arrives, and
//!   OSR entries only on loop headers.
//! - Types: each operation's operands and result; `return` of the function's type; branch
//!   arguments of the target's parameter types, as many as it has.
//! - SSA: every value defined once, where its `ValueData` says, and every use dominated by
//!   its definition (exit states included).
//! - Exits: an instruction has an exit exactly when it can leave; the exit is declared; its
//!   registers are distinct and its values are `value`, `i32` or `f64`.

use std::collections::{HashMap, HashSet};
use std::fmt;

use super::text::inst_to_string;
use super::*;

/// One problem, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    /// `block3`, `block3: v7 = iadd.i32 v1, v9`, or `e2`.
    pub at: String,
    pub message: String,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

/// The dominator tree of the blocks reachable from the entry.
pub struct Dominators {
    /// Immediate dominator by block number (the entry is its own; unreachable: None).
    idom: Vec<Option<Block>>,
    /// Reverse postorder index by block number.
    rpo_index: Vec<u32>,
    /// The reachable blocks in reverse postorder.
    pub rpo: Vec<Block>,
    /// By block number, the interval of a depth-first walk of the dominator tree that the
    /// block's subtree takes (`a` dominates `b` when `b`'s interval is inside `a`'s): a
    /// query in constant time, where walking up the tree is linear in its depth (a chain of
    /// ten thousand blocks deep in straight-line code).
    tree_interval: Vec<(u32, u32)>,
}

impl Dominators {
    /// Computes the dominators of `f` (Cooper, Harvey and Kennedy's iteration).
    pub fn new(f: &Function) -> Dominators {
        let n = f.blocks.len();
        let mut rpo = Vec::new();
        let mut idom = vec![None; n];
        let mut rpo_index = vec![u32::MAX; n];
        let Some(entry) = f.entry() else { return Dominators { idom, rpo_index, rpo, tree_interval: Vec::new() } };
        // Postorder by an explicit stack (no recursion on deep CFGs).
        let mut seen = vec![false; n];
        let mut stack: Vec<(Block, usize)> = vec![(entry, 0)];
        seen[entry.0 as usize] = true;
        while let Some((b, i)) = stack.pop() {
            let succs = successors(f, b);
            if i < succs.len() {
                stack.push((b, i + 1));
                let s = succs[i];
                if (s.0 as usize) < n && !seen[s.0 as usize] {
                    seen[s.0 as usize] = true;
                    stack.push((s, 0));
                }
            } else {
                rpo.push(b);
            }
        }
        rpo.reverse();
        for (i, b) in rpo.iter().enumerate() {
            rpo_index[b.0 as usize] = i as u32;
        }
        let preds = predecessors(f);
        idom[entry.0 as usize] = Some(entry);
        let mut changed = true;
        while changed {
            changed = false;
            for &b in rpo.iter().skip(1) {
                let mut new: Option<Block> = None;
                for &p in &preds[b.0 as usize] {
                    if idom[p.0 as usize].is_none() {
                        continue;
                    }
                    new = Some(match new {
                        None => p,
                        Some(cur) => intersect(&idom, &rpo_index, p, cur),
                    });
                }
                if new.is_some() && idom[b.0 as usize] != new {
                    idom[b.0 as usize] = new;
                    changed = true;
                }
            }
        }
        let tree_interval = tree_intervals(&idom, &rpo, entry);
        Dominators { idom, rpo_index, rpo, tree_interval }
    }

    /// Whether `b` is reachable from the entry.
    pub fn reachable(&self, b: Block) -> bool {
        self.idom.get(b.0 as usize).is_some_and(|d| d.is_some())
    }

    /// The immediate dominator of `b` (the entry's is itself).
    pub fn idom(&self, b: Block) -> Option<Block> {
        self.idom.get(b.0 as usize).copied().flatten()
    }

    /// Whether `a` dominates `b` (both reachable).
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        if a == b {
            return true;
        }
        if !self.reachable(a) || !self.reachable(b) {
            return false;
        }
        let (ea, la) = self.tree_interval[a.0 as usize];
        let (eb, lb) = self.tree_interval[b.0 as usize];
        ea <= eb && lb <= la
    }

    /// Reverse postorder position of a reachable block.
    pub fn rpo_index(&self, b: Block) -> u32 {
        self.rpo_index[b.0 as usize]
    }

    /// The blocks each block immediately dominates, in reverse postorder.
    pub fn children(&self) -> HashMap<Block, Vec<Block>> {
        let mut children: HashMap<Block, Vec<Block>> = HashMap::new();
        for &b in &self.rpo {
            if let Some(d) = self.idom(b).filter(|&d| d != b) {
                children.entry(d).or_default().push(b);
            }
        }
        children
    }
}

/// The enter and leave times of each reachable block in a depth-first walk of the
/// dominator tree given by `idom` (by an explicit stack: the tree can be deep).
fn tree_intervals(idom: &[Option<Block>], rpo: &[Block], entry: Block) -> Vec<(u32, u32)> {
    let n = idom.len();
    // Children as one counted array: `first[d]..first[d + 1]` index `kids`.
    let mut first = vec![0u32; n + 1];
    for &b in rpo {
        if let Some(d) = idom[b.0 as usize].filter(|&d| d != b) {
            first[d.0 as usize + 1] += 1;
        }
    }
    for i in 0..n {
        first[i + 1] += first[i];
    }
    let mut fill = first.clone();
    let mut kids = vec![Block(0); first[n] as usize];
    for &b in rpo {
        if let Some(d) = idom[b.0 as usize].filter(|&d| d != b) {
            kids[fill[d.0 as usize] as usize] = b;
            fill[d.0 as usize] += 1;
        }
    }
    let mut interval = vec![(0, 0); n];
    let mut clock = 0u32;
    let mut stack = vec![(entry, first[entry.0 as usize])];
    interval[entry.0 as usize].0 = clock;
    while let Some(top) = stack.last_mut() {
        let (b, next) = *top;
        if next < first[b.0 as usize + 1] {
            top.1 += 1;
            let c = kids[next as usize];
            clock += 1;
            interval[c.0 as usize].0 = clock;
            stack.push((c, first[c.0 as usize]));
        } else {
            clock += 1;
            interval[b.0 as usize].1 = clock;
            stack.pop();
        }
    }
    interval
}

fn intersect(idom: &[Option<Block>], rpo_index: &[u32], mut a: Block, mut b: Block) -> Block {
    while a != b {
        while rpo_index[a.0 as usize] > rpo_index[b.0 as usize] {
            a = idom[a.0 as usize].unwrap_or(a);
        }
        while rpo_index[b.0 as usize] > rpo_index[a.0 as usize] {
            b = idom[b.0 as usize].unwrap_or(b);
        }
    }
    a
}

/// The blocks `b`'s terminator goes to.
pub fn successors(f: &Function, b: Block) -> Vec<Block> {
    match f.blocks.get(b.0 as usize).and_then(|d| d.insts.last()) {
        Some(inst) => inst.op.successors().into_iter().map(|(s, _)| s).collect(),
        None => Vec::new(),
    }
}

/// The predecessors of every block, by block number (layout blocks only).
pub fn predecessors(f: &Function) -> Vec<Vec<Block>> {
    let mut preds = vec![Vec::new(); f.blocks.len()];
    for &b in &f.layout {
        for s in successors(f, b) {
            if let Some(p) = preds.get_mut(s.0 as usize) {
                p.push(b);
            }
        }
    }
    preds
}

struct Verifier<'f> {
    f: &'f Function,
    errors: Vec<VerifyError>,
    dom: Dominators,
}

impl Verifier<'_> {
    fn error(&mut self, at: String, message: impl Into<String>) {
        self.errors.push(VerifyError { at, message: message.into() });
    }

    fn ty(&self, v: Val) -> Option<Type> {
        self.f.values.get(v.0 as usize).filter(|d| d.def != ValueDef::Dead).map(|d| d.ty)
    }

    /// Whether the definition of `v` dominates position `index` of block `b`.
    fn dominates_use(&self, v: Val, b: Block, index: usize) -> bool {
        match self.f.values.get(v.0 as usize).map(|d| d.def) {
            Some(ValueDef::Param(db, _)) => self.dom.dominates(db, b),
            Some(ValueDef::Inst(db, di)) => {
                if db == b {
                    (di as usize) < index
                } else {
                    self.dom.dominates(db, b)
                }
            }
            _ => false,
        }
    }

    fn structure(&mut self) {
        let f = self.f;
        let Some(entry) = f.entry() else {
            self.error("function".into(), "has no blocks");
            return;
        };
        let mut seen = HashSet::new();
        for &b in &f.layout {
            if b.0 as usize >= f.blocks.len() {
                self.error(b.to_string(), "is in the layout but does not exist");
            } else if !seen.insert(b) {
                self.error(b.to_string(), "is in the layout twice");
            }
        }
        let preds = predecessors(f);
        if !preds[entry.0 as usize].is_empty() {
            self.error(entry.to_string(), "the entry block cannot be a branch target");
        }
        for &b in &f.layout {
            let Some(data) = f.blocks.get(b.0 as usize) else { continue };
            match data.insts.last() {
                None => self.error(b.to_string(), "is empty"),
                Some(last) if !last.op.is_terminator() => self.error(b.to_string(), "does not end with a terminator"),
                _ => {}
            }
            for inst in data.insts.iter().rev().skip(1) {
                if inst.op.is_terminator() {
                    self.error(format!("{b}: {}", inst_to_string(f, inst)), "a terminator in the middle of a block");
                }
            }
            if data.osr.is_some() && !data.is_loop {
                self.error(b.to_string(), "an OSR entry must be a loop header");
            }
            if data.resume.is_some() && !data.is_loop {
                self.error(b.to_string(), "only a loop header has a resume exit");
            }
            if self.dom.reachable(b) {
                let back_edge = preds[b.0 as usize].iter().any(|&p| self.dom.reachable(p) && self.dom.dominates(b, p));
                if back_edge && !data.is_loop {
                    self.error(b.to_string(), "is the target of a back edge but not marked 'loop'");
                }
            }
        }
    }

    fn ssa(&mut self) {
        let f = self.f;
        let mut defined = HashSet::new();
        for &b in &f.layout {
            let Some(data) = f.blocks.get(b.0 as usize) else { continue };
            for (i, &p) in data.params.iter().enumerate() {
                let want = ValueDef::Param(b, i as u32);
                if !defined.insert(p) {
                    self.error(b.to_string(), format!("{p} is defined twice"));
                } else if f.values.get(p.0 as usize).map(|d| d.def) != Some(want) {
                    self.error(b.to_string(), format!("{p}'s recorded definition is not this parameter"));
                }
            }
            for (i, inst) in data.insts.iter().enumerate() {
                if let Some(r) = inst.result {
                    let want = ValueDef::Inst(b, i as u32);
                    if !defined.insert(r) {
                        self.error(format!("{b}: {}", inst_to_string(f, inst)), format!("{r} is defined twice"));
                    } else if f.values.get(r.0 as usize).map(|d| d.def) != Some(want) {
                        self.error(
                            format!("{b}: {}", inst_to_string(f, inst)),
                            format!("{r}'s recorded definition is not this instruction"),
                        );
                    }
                }
            }
        }
    }

    fn insts(&mut self) {
        let f = self.f;
        let mut used_exits = Vec::new();
        for &b in &f.layout {
            let Some(data) = f.blocks.get(b.0 as usize) else { continue };
            let reachable = self.dom.reachable(b);
            for (i, inst) in data.insts.iter().enumerate() {
                let at = || format!("{b}: {}", inst_to_string(f, inst));
                for v in inst.op.args() {
                    if self.ty(v).is_none() {
                        self.error(at(), format!("{v} is not defined"));
                    } else if reachable && !self.dominates_use(v, b, i) {
                        self.error(at(), format!("{v} does not dominate this use"));
                    }
                }
                self.types(inst, &at());
                match (inst.op.needs_exit(), inst.exit) {
                    (true, None) => self.error(at(), "needs an exit"),
                    (false, Some(_)) => self.error(at(), "cannot exit"),
                    (true, Some(e)) if e.0 as usize >= f.exits.len() => {
                        self.error(at(), format!("{e} is not declared"))
                    }
                    (true, Some(e)) => used_exits.push((e, b, i)),
                    _ => {}
                }
                for (target, args) in inst.op.successors() {
                    let Some(tdata) = f.blocks.get(target.0 as usize) else {
                        self.error(at(), format!("{target} does not exist"));
                        continue;
                    };
                    if !f.layout.contains(&target) {
                        self.error(at(), format!("{target} is not in the layout"));
                    }
                    if args.len() != tdata.params.len() {
                        self.error(
                            at(),
                            format!("{target} takes {} arguments, {} given", tdata.params.len(), args.len()),
                        );
                        continue;
                    }
                    for (k, (&a, &p)) in args.iter().zip(&tdata.params).enumerate() {
                        if let (Some(ta), Some(tp)) = (self.ty(a), self.ty(p)) {
                            if ta != tp {
                                self.error(
                                    at(),
                                    format!(
                                        "argument {k} to {target} is {}, the parameter is {}",
                                        ta.name(),
                                        tp.name()
                                    ),
                                );
                            }
                        }
                    }
                }
            }
        }
        for (k, state) in f.exits.iter().enumerate() {
            let id = ExitId(k as u32);
            let mut regs = HashSet::new();
            for (r, v) in &state.regs {
                if !regs.insert(*r) {
                    self.error(id.to_string(), format!("r{r} is listed twice"));
                }
                if let ExitValue::Val(v) = v {
                    match self.ty(*v) {
                        None => self.error(id.to_string(), format!("{v} is not defined")),
                        Some(Type::Value | Type::I32 | Type::F64) => {}
                        Some(t) => self
                            .error(id.to_string(), format!("r{r}: a {} cannot be an interpreter register", t.name())),
                    }
                }
            }
        }
        // A loop header's resume exit describes the state where the block starts.
        for &b in &f.layout {
            let Some(e) = f.blocks.get(b.0 as usize).and_then(|d| d.resume) else { continue };
            let Some(state) = f.exits.get(e.0 as usize) else {
                self.error(b.to_string(), format!("{e} is not declared"));
                continue;
            };
            for (r, v) in &state.regs {
                if let ExitValue::Val(v) = v {
                    if self.dom.reachable(b) && self.ty(*v).is_some() && !self.dominates_use(*v, b, 0) {
                        self.error(b.to_string(), format!("resume {e} r{r}: {v} does not dominate the block's start"));
                    }
                }
            }
        }
        for (e, b, i) in used_exits {
            if !self.dom.reachable(b) {
                continue;
            }
            for (r, v) in &f.exits[e.0 as usize].regs {
                if let ExitValue::Val(v) = v {
                    if self.ty(*v).is_some() && !self.dominates_use(*v, b, i) {
                        let inst = &f.blocks[b.0 as usize].insts[i];
                        self.error(
                            format!("{b}: {}", inst_to_string(f, inst)),
                            format!("{e} r{r}: {v} does not dominate this exit"),
                        );
                    }
                }
            }
        }
    }

    /// Operand and result types of one instruction.
    fn types(&mut self, inst: &Inst, at: &str) {
        use Type::*;
        let f = self.f;
        let ty = |v: Val| self.ty(v);
        let mut problems: Vec<String> = Vec::new();
        let mismatch = |v: Val, t: Type, what: &str| match ty(v) {
            Some(actual) if actual != t => Some(format!("{what} {v} is {}, expected {}", actual.name(), t.name())),
            _ => None,
        };
        macro_rules! want {
            ($v:expr, $t:expr, $what:expr) => {
                if let Some(p) = mismatch($v, $t, $what) {
                    problems.push(p);
                }
            };
        }
        let result: Option<Type> = match &inst.op {
            Op::Iconst(t, _) => {
                if !t.is_int() {
                    problems.push(format!("iconst of type {}", t.name()));
                }
                Some(*t)
            }
            Op::Fconst(_) => Some(F64),
            Op::Vconst(_) => Some(Value),
            Op::Int(_, a, b) | Op::Icmp(_, a, b) => {
                let t = ty(*a);
                // Address arithmetic: a ptr plus or minus an i64 offset is a ptr.
                let offset =
                    matches!(inst.op, Op::Int(IntOp::Add | IntOp::Sub, ..)) && t == Some(Ptr) && ty(*b) == Some(I64);
                if let Some(t) = t {
                    if !t.is_int() {
                        problems.push(format!("integer operation on {}", t.name()));
                    }
                    if !offset {
                        want!(*b, t, "operand");
                    }
                }
                match inst.op {
                    Op::Icmp(..) => Some(I32),
                    _ => t,
                }
            }
            Op::Checked(_, a, b) => {
                want!(*a, I32, "operand");
                want!(*b, I32, "operand");
                Some(I32)
            }
            Op::Float(_, a, b) | Op::Fcmp(_, a, b) => {
                want!(*a, F64, "operand");
                want!(*b, F64, "operand");
                Some(if matches!(inst.op, Op::Fcmp(..)) { I32 } else { F64 })
            }
            Op::Fneg(a) => {
                want!(*a, F64, "operand");
                Some(F64)
            }
            Op::I32ToF64(a) => {
                want!(*a, I32, "operand");
                Some(F64)
            }
            Op::F64ToI32(a) | Op::ToInt32(a) => {
                want!(*a, F64, "operand");
                Some(I32)
            }
            Op::Sext(a) => {
                want!(*a, I32, "operand");
                Some(I64)
            }
            Op::Bits(a) => {
                want!(*a, Value, "operand");
                Some(I64)
            }
            Op::FromBits(a) => {
                want!(*a, I64, "operand");
                Some(Value)
            }
            Op::Trunc(a) => {
                if let Some(t) = ty(*a) {
                    if !matches!(t, I64 | Ptr) {
                        problems.push(format!("trunc of {}", t.name()));
                    }
                }
                Some(I32)
            }
            Op::BoxI32(a) => {
                want!(*a, I32, "operand");
                Some(Value)
            }
            Op::BoxF64(a) => {
                want!(*a, F64, "operand");
                Some(Value)
            }
            Op::BoxObject(a) => {
                want!(*a, Ptr, "operand");
                Some(Value)
            }
            Op::UnboxI32(a) | Op::UnboxF64(a) | Op::UnboxObject(a) => {
                want!(*a, Value, "operand");
                Some(match inst.op {
                    Op::UnboxI32(_) => I32,
                    Op::UnboxF64(_) => F64,
                    _ => Ptr,
                })
            }
            Op::TagIs(_, a) => {
                want!(*a, Value, "operand");
                Some(I32)
            }
            Op::Check(c, _) => {
                want!(*c, I32, "condition");
                None
            }
            Op::StoreShape(o, s) => {
                want!(*o, Ptr, "object");
                want!(*s, Ptr, "shape");
                None
            }
            Op::LoadShape(o) => {
                want!(*o, Ptr, "object");
                Some(Ptr)
            }
            Op::GuardShape(o, s) => {
                want!(*o, Ptr, "object");
                want!(*s, Ptr, "shape");
                None
            }
            Op::LoadEnv(e, _) => {
                want!(*e, Value, "environment");
                Some(Value)
            }
            Op::StoreEnv(e, _, v) => {
                want!(*e, Value, "environment");
                want!(*v, Value, "stored");
                None
            }
            Op::LoadSlot(o, _) | Op::LoadOolSlot(o, _) => {
                want!(*o, Ptr, "object");
                Some(Value)
            }
            Op::StoreSlot(o, _, v) | Op::StoreOolSlot(o, _, v) => {
                want!(*o, Ptr, "object");
                want!(*v, Value, "stored");
                None
            }
            Op::ArrayLength(o) => {
                want!(*o, Ptr, "array");
                Some(I32)
            }
            Op::LoadElem(o, i) => {
                want!(*o, Ptr, "object");
                want!(*i, I32, "index");
                Some(Value)
            }
            Op::HasElem(o, i) => {
                want!(*o, Ptr, "object");
                want!(*i, I32, "index");
                Some(I32)
            }
            Op::StoreElem(o, i, v) | Op::InitElem(o, i, v) => {
                want!(*o, Ptr, "object");
                want!(*i, I32, "index");
                want!(*v, Value, "stored");
                None
            }
            Op::LoadReg(_) => Some(Value),
            Op::StoreReg(_, v) => {
                want!(*v, Value, "stored");
                None
            }
            Op::Load(t, p, _) => {
                want!(*p, Ptr, "address");
                Some(*t)
            }
            Op::Store(p, _, _) => {
                want!(*p, Ptr, "address");
                None
            }
            Op::CallHelper(_, args) | Op::Call(_, args) => {
                for a in args {
                    want!(*a, Value, "argument");
                }
                Some(Value)
            }
            Op::Brif(c, ..) => {
                want!(*c, I32, "condition");
                None
            }
            Op::Return(v) => {
                if let Some(ret) = f.ret {
                    want!(*v, ret, "returned");
                }
                None
            }
            Op::Jump(..) | Op::Deopt(_) => None,
        };
        if let Op::CallHelper(name, _) = &inst.op {
            if name.is_empty() {
                problems.push("a helper needs a name".into());
            }
        }
        match (inst.result, result) {
            (Some(r), Some(t)) => {
                if let Some(actual) = self.ty(r) {
                    if actual != t {
                        problems.push(format!("result {r} is {}, the operation gives {}", actual.name(), t.name()));
                    }
                }
            }
            (Some(r), None) => problems.push(format!("{r}: the operation has no result")),
            (None, Some(_)) => problems.push("the operation's result is not named".into()),
            (None, None) => {}
        }
        for p in problems {
            self.error(at.to_string(), p);
        }
    }
}

/// Checks `f`; all errors found, or none.
pub fn verify(f: &Function) -> Result<(), Vec<VerifyError>> {
    let mut v = Verifier { f, errors: Vec::new(), dom: Dominators::new(f) };
    v.structure();
    v.ssa();
    v.insts();
    if v.errors.is_empty() {
        Ok(())
    } else {
        Err(v.errors)
    }
}
