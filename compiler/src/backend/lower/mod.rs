//! Lowering: one HIR function to LIR (instruction selection over virtual registers).
//!
//! ```text
//!  ir::Function ──(reachable blocks, try regions, Phi placement)──▶ LFunction ──▶ regalloc.rs
//! ```
//!
//! Conventions (see also `mod.rs`):
//! - **Literals** are materialized at their first use in each block (`load_const_*` right
//!   before the instruction that needs them) and shared by the later uses in the same block,
//!   so their live ranges stay short. Literals used inside a loop (a block on a cycle of the
//!   CFG) are instead loaded once per call, at the start of the entry block, so a loop does
//!   not reload them on every iteration (the dozen used most often in loops; the others stay
//!   per block). A Phi operand that is a literal is loaded straight
//!   into the Phi's register on the edge, a call argument straight into its argument
//!   register. The global object (`get_global_object`) is handled like a literal.
//! - **Unpromoted stack slots** (AllocStack left by mem2reg, e.g. the slot `ResumeGenerator`
//!   writes `is_return` into) each get a dedicated frame register for the whole function;
//!   LoadStack/StoreStack are `mov`s from/to it.
//! - **Phis** become parallel moves on their incoming edges: at the start of the block when
//!   it has a single predecessor, else at the end of each predecessor whose only successor it
//!   is, else in a new block splitting the critical edge (placed right after the
//!   predecessor). The register allocator coalesces most of them away.
//! - **Values that need no code** (ThrowIfEmpty of a value that cannot be empty, AsNumber of
//!   a number, ...) are aliases of their operand.
//! - **Try regions**: every block gets the stack of try regions it is in (from a walk of
//!   the CFG: TryStart pushes on its body edge, TryEnd pops); blocks in a region list its
//!   handler as an exceptional successor so values the handler reads stay live throughout
//!   the region. The regions become handler-table ranges in `emit.rs`.

use hashbrown::{HashMap, HashSet};
use ir::entity::{EntityRef as _, SecondaryMap};

use ir::{
    BinOp, Block, Effects, FuncId, Function, FunctionKind, Imm, Inst, Literal, Loc, Module, Opcode, ScopeId, Type,
    UnOp, Value,
};

mod select;

use super::lir::{Const, LBlock, LBlockId, LFunction, LInst, LKind, LOp, MoveSrc, RegClass, Region, VReg};

/// Where lowering gets bundle ids from.
pub trait Ids {
    /// The string id of atom `atom` of the module.
    fn atom(&mut self, atom: ir::Atom) -> u32;
    /// The bundle function id of `func`.
    fn function(&self, func: FuncId) -> u32;
}

/// Lowers function `fid` of `module`.
pub fn lower_function(module: &Module, fid: FuncId, ids: &mut dyn Ids) -> Result<LFunction, String> {
    let func = &module.functions[fid];
    if func.layout.is_empty() {
        return Err("function has no blocks".to_string());
    }
    let mut cx = Lowering::new(module, func, ids)?;
    cx.run()?;
    let mut out = cx.out;
    super::dce::remove_dead_code(&mut out);
    Ok(out)
}

/// A literal used again within this many instructions of its last use in a block reuses
/// that use's register; beyond, it is loaded again. Keeping every literal of a long block
/// in its first register made a frame of over a thousand registers of a module body whose
/// tables reuse the same numbers thousands of instructions apart (registers beyond 255
/// need `wide` instructions, and every call's arguments go above all of them).
const LITERAL_REUSE_DISTANCE: usize = 64;

/// The most literals a function loads once for all its loops (see `choose_hoisted`).
const MAX_HOISTED: usize = 12;

/// A condition folded into its branch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FusedTest {
    /// The branch tests `!x`: test `x` with the targets swapped.
    Not(Value),
    /// The branch tests `value === empty` (or `=== undefined`), negated for `!==`.
    Is { value: Value, empty: bool, negate: bool },
    /// The branch tests `value == null` (or `== undefined`), negated for `!=`.
    Nullish { value: Value, negate: bool },
    /// The branch tests the comparison `lhs op rhs` (`jmp_less` and its kin).
    Compare { op: BinOp, lhs: Value, rhs: Value },
}

/// Where the moves of a Phi edge go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EdgeMoves {
    /// At the start of the Phi's block (it has one predecessor).
    AtStart,
    /// At the end of the predecessor, before its jump.
    AtPredEnd,
    /// In this split block.
    Split(LBlockId),
}

struct Lowering<'a> {
    module: &'a Module,
    func: &'a Function,
    ids: &'a mut dyn Ids,
    out: LFunction,
    /// Reachable HIR blocks in layout order.
    order: Vec<Block>,
    /// HIR block -> its LIR block.
    lblock: SecondaryMap<Block, LBlockId>,
    /// Reachable predecessors, deduplicated, in layout order.
    preds: SecondaryMap<Block, Vec<Block>>,
    /// How the moves of edge (pred, succ) are placed, for successors with Phis.
    edges: HashMap<(Block, Block), EdgeMoves>,
    /// Split blocks created after each HIR block: (successor, split block).
    splits: HashMap<Block, Vec<(Block, LBlockId)>>,
    /// Try-region stack of every reachable block.
    region_stack: SecondaryMap<Block, Vec<u32>>,
    /// The HIR handler block of every region.
    handler_blocks: Vec<Block>,
    /// The vreg of every instruction result.
    vregs: SecondaryMap<Value, VReg>,
    /// Results that are their operand (no code).
    aliases: HashMap<Value, Value>,
    /// AllocStack instruction -> its slot vreg.
    slots: HashMap<Inst, VReg>,
    /// Values stored into each slot (for the scope of environments kept in slots at -O0).
    slot_stores: HashMap<Inst, Vec<Value>>,
    /// Scope of environment values, memoized.
    env_scopes: HashMap<Value, ScopeId>,
    /// CondBranch instructions whose condition is folded into the branch.
    fused_branches: HashMap<Inst, FusedTest>,
    /// The conditions folded into their branches (they emit nothing).
    fused_conditions: HashSet<Inst>,
    /// ToNumeric instructions that emit the `inc`/`dec` right after them too (`post_inc`).
    post_steps: HashMap<Inst, Inst>,
    /// The steps emitted with their ToNumeric (they emit nothing themselves).
    folded_steps: HashSet<Inst>,
    /// Blocks that are part of a cycle of the CFG.
    in_loop: HashSet<Block>,
    /// Whether the block being lowered is in a loop.
    cur_in_loop: bool,
    /// The literals used in loops that are loaded once, at the start of the entry block: the
    /// `MAX_HOISTED` used most often in loops.
    hoistable: HashSet<Value>,
    /// The registers of the hoisted literals loaded so far.
    hoisted: HashMap<Value, VReg>,
    /// The loads of `hoisted`, inserted into the entry block at the end.
    hoisted_loads: Vec<LInst>,
    /// Where in the entry block's LIR the hoisted loads go (after `start_generator`).
    entry_insert_at: usize,
    /// Per-block cache of materialized literals: the register and the position in `cur` of
    /// the last use (see `LITERAL_REUSE_DISTANCE`).
    lit_cache: HashMap<Value, (VReg, usize)>,
    /// The instructions of the block being lowered.
    cur: Vec<LInst>,
    loc: Loc,
}

impl<'a> Lowering<'a> {
    fn new(module: &'a Module, func: &'a Function, ids: &'a mut dyn Ids) -> Result<Lowering<'a>, String> {
        let mut cx = Lowering {
            module,
            func,
            ids,
            out: LFunction::default(),
            order: Vec::new(),
            lblock: SecondaryMap::new(),
            preds: SecondaryMap::new(),
            edges: HashMap::new(),
            splits: HashMap::new(),
            region_stack: SecondaryMap::new(),
            handler_blocks: Vec::new(),
            vregs: SecondaryMap::new(),
            aliases: HashMap::new(),
            slots: HashMap::new(),
            slot_stores: HashMap::new(),
            env_scopes: HashMap::new(),
            fused_branches: HashMap::new(),
            fused_conditions: HashSet::new(),
            post_steps: HashMap::new(),
            folded_steps: HashSet::new(),
            in_loop: HashSet::new(),
            cur_in_loop: false,
            hoistable: HashSet::new(),
            hoisted: HashMap::new(),
            hoisted_loads: Vec::new(),
            entry_insert_at: 0,
            lit_cache: HashMap::new(),
            cur: Vec::new(),
            loc: Loc::default(),
        };
        cx.compute_order();
        cx.in_loop = loop_blocks(func, &cx.order);
        cx.check_shapes()?;
        cx.rotate_loops();
        cx.sink_exits();
        cx.compute_regions()?;
        cx.compute_edges()?;
        cx.scan_values()?;
        Ok(cx)
    }

    // ---- Analysis ------------------------------------------------------------------------

    /// Reachable blocks (in layout order) and their reachable predecessors.
    fn compute_order(&mut self) {
        let func = self.func;
        let entry = func.entry();
        let mut seen = HashSet::new();
        let mut stack = vec![entry];
        seen.insert(entry);
        while let Some(b) = stack.pop() {
            for &s in func.successors(b) {
                if seen.insert(s) {
                    stack.push(s);
                }
            }
        }
        self.order = func.layout.iter().copied().filter(|b| seen.contains(b)).collect();
        for &b in &self.order {
            self.preds.insert(b, Vec::new());
        }
        for &b in &self.order {
            let mut distinct = Vec::new();
            for &s in func.successors(b) {
                if !distinct.contains(&s) {
                    distinct.push(s);
                }
            }
            for s in distinct {
                if let Some(list) = self.preds.get_mut(&s) {
                    list.push(b);
                }
            }
        }
    }

    /// Loop rotation by layout: a loop header `H` ending in a conditional branch, entered
    /// back from a single later block `L` ending in `branch H` (or `try_end H`), is moved
    /// right after `L`.
    /// `L` then falls through into the test and the test jumps back into the body, so an
    /// iteration takes one jump instead of two (`jmp H` plus the exit test); entering the
    /// loop costs a `jmp` once.
    ///
    /// ```text
    ///  before: P  H: test; jmp_false X   B ... L: jmp H   X
    ///  after:  P: jmp H   B ... L   H: test; jmp_true B   X
    /// ```
    ///
    /// The layout is a linked list with order labels (gaps of 2^20, halved by each block
    /// moved into one, all relabelled when one runs out), so that each test and each move
    /// costs the same in a function of forty thousand blocks as in one of ten.
    fn rotate_loops(&mut self) {
        const GAP: u64 = 1 << 20;
        let func = self.func;
        let n = func.blocks.len();
        let none = usize::MAX;
        let (mut next, mut prev, mut label) = (vec![none; n], vec![none; n], vec![0u64; n]);
        for (i, &b) in self.order.iter().enumerate() {
            label[b.index()] = (i as u64 + 1) * GAP;
            if i > 0 {
                prev[b.index()] = self.order[i - 1].index();
                next[self.order[i - 1].index()] = b.index();
            }
        }
        let head = self.order.first().map_or(none, |b| b.index());
        for h in self.order.clone() {
            let hi = h.index();
            if prev[hi] == none {
                continue;
            }
            let Some(term) = func.terminator(h) else { continue };
            let data = &func.insts[term];
            if data.opcode != Opcode::CondBranch || data.targets[0] == data.targets[1] {
                continue;
            }
            if !data.targets.iter().any(|&t| t.index() == next[hi]) {
                continue;
            }
            let latches: Vec<Block> = self.preds[&h].iter().copied().filter(|p| label[p.index()] > label[hi]).collect();
            let [l] = latches[..] else { continue };
            if !matches!(func.terminator(l).map(|t| func.insts[t].opcode), Some(Opcode::Branch | Opcode::TryEnd)) {
                continue;
            }
            // Unlink h (it has a block before it, so it is not the head), then link it
            // after l.
            let (p, nx) = (prev[hi], next[hi]);
            next[p] = nx;
            if nx != none {
                prev[nx] = p;
            }
            let li = l.index();
            let after = next[li];
            next[li] = hi;
            prev[hi] = li;
            next[hi] = after;
            if after != none {
                prev[after] = hi;
            }
            let upper = if after == none { label[li] + 2 * GAP } else { label[after] };
            label[hi] = label[li] + (upper - label[li]) / 2;
            if label[hi] == label[li] {
                let (mut i, mut k) = (head, 1u64);
                while i != none {
                    label[i] = k * GAP;
                    k += 1;
                    i = next[i];
                }
            }
        }
        let mut order = Vec::with_capacity(self.order.len());
        let mut i = head;
        while i != none {
            order.push(Block(i as u32));
            i = next[i];
        }
        self.order = order;
    }

    /// Blocks that leave the function (`return`, `throw`) and that the block laid out before
    /// them does not fall into are moved to the end of the layout. Nothing falls into them,
    /// so moving them costs no jump, and it lets the block before them fall into one of its
    /// own targets: an early `return` laid out inside a loop otherwise separates the loop's
    /// `if` from its arms, which costs a `jmp` per iteration.
    fn sink_exits(&mut self) {
        let func = self.func;
        let opcode = |b: Block| func.terminator(b).map(|t| func.insts[t].opcode);
        let targets = |b: Block| func.terminator(b).map_or(&[][..], |t| &func.insts[t].targets[..]);
        let (mut kept, mut sunk) = (Vec::new(), Vec::new());
        for (i, &b) in self.order.iter().enumerate() {
            let leaves =
                matches!(opcode(b), Some(Opcode::Return | Opcode::Throw | Opcode::ThrowError | Opcode::Unreachable));
            let fallen_into = i > 0 && targets(self.order[i - 1]).contains(&b);
            if i > 0 && leaves && !fallen_into {
                sunk.push(b);
            } else {
                kept.push(b);
            }
        }
        kept.extend(sunk);
        self.order = kept;
    }

    /// Checks what the code below indexes without looking: operand and target counts and
    /// immediate kinds match the instruction table, scopes and functions exist, handler
    /// blocks start with `catch` and resume blocks with `resume_generator`.
    fn check_shapes(&self) -> Result<(), String> {
        let func = self.func;
        let first_op = |b: Block| func.blocks[b].insts.first().map(|&i| func.insts[i].opcode);
        for &b in &self.order {
            if func.terminator(b).is_none() {
                return Err(format!("{b} does not end in a terminator"));
            }
            let insts = &func.blocks[b].insts;
            for (k, &i) in insts.iter().enumerate() {
                let data = &func.insts[i];
                let info = data.opcode.info();
                if k + 1 < insts.len() && data.opcode.is_terminator() {
                    return Err(format!("`{}` in the middle of {b}", data.opcode));
                }
                if data.opcode == Opcode::Phi && k > 0 && func.insts[insts[k - 1]].opcode != Opcode::Phi {
                    return Err(format!("phi after other instructions in {b}"));
                }
                let phi_ok = data.opcode != Opcode::Phi || data.args.len() == data.targets.len();
                if !info.args.accepts(data.args.len())
                    || !info.targets.accepts(data.targets.len())
                    || data.imm.kind() != info.imm
                    || !phi_ok
                {
                    return Err(format!("malformed `{}` in {b}", data.opcode));
                }
                match data.imm {
                    Imm::Scope(s) if self.module.scopes.get(s).is_none() => {
                        return Err(format!("`{}` names {s}, which does not exist", data.opcode))
                    }
                    Imm::Var(v) if self.module.scopes.get(v.scope).is_none() => {
                        return Err(format!("`{}` names {}, which does not exist", data.opcode, v.scope))
                    }
                    Imm::Func(f) if self.module.functions.get(f).is_none() => {
                        return Err(format!("`{}` names {f}, which does not exist", data.opcode))
                    }
                    _ => {}
                }
                match data.opcode {
                    Opcode::TryStart if first_op(data.targets[1]) != Some(Opcode::Catch) => {
                        return Err(format!("the handler {} of a try_start does not start with catch", data.targets[1]))
                    }
                    Opcode::SaveAndYield if first_op(data.targets[0]) != Some(Opcode::ResumeGenerator) => {
                        return Err(format!(
                            "the resume block {} does not start with resume_generator",
                            data.targets[0]
                        ))
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// The try-region stack of every block: TryStart pushes a region on its body edge, TryEnd
    /// pops one; every other edge keeps the stack. A block reached with two different
    /// stacks is malformed IR.
    fn compute_regions(&mut self) -> Result<(), String> {
        let func = self.func;
        let entry = func.entry();
        let mut region_of_try: HashMap<Inst, u32> = HashMap::new();
        let mut handler_of: Vec<Block> = Vec::new();
        self.region_stack.insert(entry, Vec::new());
        let mut work = vec![entry];
        while let Some(b) = work.pop() {
            let stack = self.region_stack[&b].clone();
            let Some(term) = func.terminator(b) else {
                return Err(format!("{b} does not end in a terminator"));
            };
            let data = &func.insts[term];
            let mut flows: Vec<(Block, Vec<u32>)> = Vec::new();
            match data.opcode {
                Opcode::TryStart => {
                    let region = *region_of_try.entry(term).or_insert_with(|| {
                        handler_of.push(data.targets[1]);
                        handler_of.len() as u32 - 1
                    });
                    let mut inner = stack.clone();
                    inner.push(region);
                    flows.push((data.targets[0], inner));
                    flows.push((data.targets[1], stack.clone()));
                }
                Opcode::TryEnd => {
                    let mut outer = stack.clone();
                    if outer.pop().is_none() {
                        return Err(format!("try_end in {b}, which is in no try region"));
                    }
                    flows.push((data.targets[0], outer));
                }
                _ => {
                    for &t in &data.targets {
                        flows.push((t, stack.clone()));
                    }
                }
            }
            for (t, st) in flows {
                match self.region_stack.get(&t) {
                    Some(existing) if *existing != st => {
                        return Err(format!("{t} is reached inside different try regions ({existing:?} and {st:?})"))
                    }
                    Some(_) => {}
                    None => {
                        self.region_stack.insert(t, st);
                        work.push(t);
                    }
                }
            }
        }
        // Regions are numbered in discovery order; the handler block ids are known once the
        // LIR blocks are numbered (compute_edges).
        self.out.regions = handler_of.iter().map(|_| Region { handler: 0, depth: 0 }).collect();
        self.handler_blocks = handler_of;
        Ok(())
    }

    /// Decides where the moves of every Phi edge go and numbers the LIR blocks.
    fn compute_edges(&mut self) -> Result<(), String> {
        let func = self.func;
        for &s in &self.order {
            if !self.has_phis(s) {
                continue;
            }
            let preds = self.preds[&s].clone();
            for p in preds {
                let placement = if self.preds[&s].len() == 1 {
                    EdgeMoves::AtStart
                } else {
                    let term = func.terminator(p).expect("reachable block has a terminator");
                    let data = &func.insts[term];
                    let distinct: HashSet<Block> = data.targets.iter().copied().collect();
                    match data.opcode {
                        Opcode::Branch | Opcode::TryEnd => EdgeMoves::AtPredEnd,
                        Opcode::CondBranch if distinct.len() == 1 => EdgeMoves::AtPredEnd,
                        Opcode::CondBranch => EdgeMoves::Split(0),
                        Opcode::TryStart if data.targets[0] == s && data.targets[1] != s => EdgeMoves::Split(0),
                        op => {
                            return Err(format!(
                                "{s} has phis and several predecessors, and its predecessor {p} ends in `{op}`, \
                                 whose edge cannot carry moves"
                            ))
                        }
                    }
                };
                self.edges.insert((p, s), placement);
            }
        }
        // Number the LIR blocks: every HIR block, then its split blocks.
        let mut next = 0;
        for &b in &self.order.clone() {
            self.lblock.insert(b, next);
            next += 1;
            let mut list = Vec::new();
            for &s in self.func.successors(b) {
                if let Some(EdgeMoves::Split(_)) = self.edges.get(&(b, s)) {
                    if !list.iter().any(|&(t, _)| t == s) {
                        list.push((s, next));
                        self.edges.insert((b, s), EdgeMoves::Split(next));
                        next += 1;
                    }
                }
            }
            self.splits.insert(b, list);
        }
        self.out.blocks = vec![LBlock::default(); next];
        for (r, h) in self.handler_blocks.iter().enumerate() {
            self.out.regions[r].handler = self.lblock[h];
        }
        for (r, region) in self.out.regions.iter_mut().enumerate() {
            let h = self.handler_blocks[r];
            region.depth = self.region_stack[&h].len() as u32;
        }
        Ok(())
    }

    /// Aliases, stack slots and the stores into them.
    fn scan_values(&mut self) -> Result<(), String> {
        let func = self.func;
        for &b in &self.order {
            for &i in &func.blocks[b].insts {
                let data = &func.insts[i];
                match data.opcode {
                    Opcode::AllocStack => {
                        let k = self.out.slot_count;
                        self.out.slot_count += 1;
                        let v = self.out.new_vreg(RegClass::Slot(k));
                        self.slots.insert(i, v);
                    }
                    Opcode::StoreStack => {
                        if let Some(slot) = func.def_inst(data.args[1]) {
                            self.slot_stores.entry(slot).or_default().push(data.args[0]);
                        }
                    }
                    _ => {}
                }
                if let (Some(result), Some(&arg)) = (data.result, data.args.first()) {
                    let ty = func.ty(arg);
                    let alias = match data.opcode {
                        Opcode::ThrowIfEmpty => !ty.overlaps(Type::EMPTY),
                        Opcode::AsNumber | Opcode::AsNumeric => ty.is_number(),
                        Opcode::AsString => ty.is_string(),
                        Opcode::ToPropertyKey => {
                            !ty.is_none() && ty.is_subset_of(Type::STRING.union(Type::NUMBER).union(Type::SYMBOL))
                        }
                        _ => false,
                    };
                    if alias {
                        self.aliases.insert(result, arg);
                    }
                }
            }
        }
        // `inc`/`dec` apply ToNumeric themselves: a ToNumeric only feeding one of them (the
        // old value of a postfix `++` that nobody reads) is dropped. One whose value is read
        // too, with the step right after it, becomes one `post_inc`/`post_dec` with it.
        let uses = func.use_counts();
        for &b in &self.order {
            let insts = &func.blocks[b].insts;
            for (n, &i) in insts.iter().enumerate() {
                let data = &func.insts[i];
                if !matches!((data.opcode, data.imm), (Opcode::UnaryOp, Imm::UnOp(UnOp::Inc | UnOp::Dec))) {
                    continue;
                }
                let arg = data.args[0];
                let Some(def) = func.def_inst(arg) else { continue };
                if func.insts[def].opcode != Opcode::AsNumeric || self.aliases.contains_key(&arg) {
                    continue;
                }
                if uses.get(&arg).copied() == Some(1) {
                    self.aliases.insert(arg, func.insts[def].args[0]);
                } else if n > 0 && insts[n - 1] == def {
                    self.post_steps.insert(def, i);
                    self.folded_steps.insert(i);
                }
            }
        }
        self.find_fused_branches();
        self.choose_hoisted();
        Ok(())
    }

    /// Picks the literals to load once per call instead of once per loop iteration: those
    /// read most often by instructions in loops, at most `MAX_HOISTED` of them, so a function
    /// whose loops use many different literals (and may run them only a few times) does not
    /// trade all of them for a large frame and loads of values it may never need.
    fn choose_hoisted(&mut self) {
        let func = self.func;
        let mut counts: HashMap<Value, (u32, usize)> = HashMap::new();
        let mut seen = 0usize;
        for &b in &self.order {
            if !self.in_loop.contains(&b) {
                continue;
            }
            for &i in &func.blocks[b].insts {
                let data = &func.insts[i];
                if data.opcode == Opcode::Phi {
                    continue;
                }
                for &a in &data.args {
                    let a = self.resolve(a);
                    if func.as_literal(a).is_some() {
                        seen += 1;
                        counts.entry(a).or_insert((0, seen)).0 += 1;
                    }
                }
            }
        }
        let mut ranked: Vec<(Value, (u32, usize))> = counts.into_iter().collect();
        ranked.sort_by_key(|&(_, (count, first))| (std::cmp::Reverse(count), first));
        self.hoistable = ranked.into_iter().take(MAX_HOISTED).map(|(k, _)| k).collect();
    }

    /// Conditions only used by the branch that ends their block and expressible in the branch
    /// itself: `!x` (swap the targets), `x === empty` / `x === undefined` / `x == null` and
    /// their negations (`jmp_empty`, `jmp_undefined`, `jmp_nullish`), and the other equality
    /// and relational comparisons (`jmp_eq`, `jmp_less`, ...). A comparison that may run
    /// JavaScript or throw is only moved to the branch over instructions without effects.
    fn find_fused_branches(&mut self) {
        let func = self.func;
        let uses = func.use_counts();
        for &b in &self.order {
            let Some(term) = func.terminator(b) else { continue };
            let data = &func.insts[term];
            if data.opcode != Opcode::CondBranch {
                continue;
            }
            let cond = data.args[0];
            let Some(def) = func.def_inst(cond) else { continue };
            let d = &func.insts[def];
            if d.block != Some(b) || uses.get(&cond).copied() != Some(1) {
                continue;
            }
            let lit = |v: Value| func.as_literal(self.resolve(v));
            // The operand compared with a literal marker (`x === undefined`), if any.
            let marker = || match (lit(d.args[0]), lit(d.args[1])) {
                (None, Some(m)) => Some((d.args[0], m)),
                (Some(m), None) => Some((d.args[1], m)),
                _ => None,
            };
            let fused = match (d.opcode, d.imm) {
                (Opcode::UnaryOp, Imm::UnOp(UnOp::Not)) => Some(FusedTest::Not(d.args[0])),
                (Opcode::BinaryOp, Imm::BinOp(op)) => {
                    let negate = matches!(op, BinOp::StrictNe | BinOp::Ne);
                    match (op, marker()) {
                        (BinOp::StrictEq | BinOp::StrictNe, Some((value, Literal::Empty))) => {
                            Some(FusedTest::Is { value, empty: true, negate })
                        }
                        (BinOp::StrictEq | BinOp::StrictNe, Some((value, Literal::Undefined))) => {
                            Some(FusedTest::Is { value, empty: false, negate })
                        }
                        (BinOp::Eq | BinOp::Ne, Some((value, Literal::Null | Literal::Undefined))) => {
                            Some(FusedTest::Nullish { value, negate })
                        }
                        (
                            BinOp::Eq
                            | BinOp::Ne
                            | BinOp::StrictEq
                            | BinOp::StrictNe
                            | BinOp::Lt
                            | BinOp::Le
                            | BinOp::Gt
                            | BinOp::Ge,
                            _,
                        ) if self.movable_to_end(def, b) => {
                            Some(FusedTest::Compare { op, lhs: d.args[0], rhs: d.args[1] })
                        }
                        _ => None,
                    }
                }
                _ => None,
            };
            if let Some(fused) = fused {
                self.fused_branches.insert(term, fused);
                self.fused_conditions.insert(def);
            }
        }
    }

    /// Whether `inst` of block `b` may be evaluated at the end of `b` instead: it has no
    /// effects, or nothing after it (before the terminator) has any.
    fn movable_to_end(&self, inst: Inst, b: Block) -> bool {
        let func = self.func;
        if func.effects(inst).without(Effects::IDEMPOTENT) == Effects::PURE {
            return true;
        }
        let insts = &func.blocks[b].insts;
        let Some(pos) = insts.iter().position(|&i| i == inst) else { return false };
        insts[pos + 1..insts.len().saturating_sub(1)]
            .iter()
            .all(|&i| func.effects(i).without(Effects::IDEMPOTENT) == Effects::PURE)
    }

    fn has_phis(&self, b: Block) -> bool {
        self.func.blocks[b].insts.first().is_some_and(|&i| self.func.insts[i].opcode == Opcode::Phi)
    }

    /// `v` with aliases resolved.
    fn resolve(&self, mut v: Value) -> Value {
        let mut steps = 0;
        while let Some(&a) = self.aliases.get(&v) {
            v = a;
            steps += 1;
            if steps > self.aliases.len() {
                break;
            }
        }
        v
    }

    /// The scope of environment value `v` (from the instruction that made it).
    fn env_scope(&mut self, v: Value) -> Result<ScopeId, String> {
        let mut visiting = HashSet::new();
        self.env_scope_rec(v, &mut visiting)?.ok_or_else(|| format!("cannot tell the scope of environment {v}"))
    }

    fn env_scope_rec(&mut self, v: Value, visiting: &mut HashSet<Value>) -> Result<Option<ScopeId>, String> {
        let v = self.resolve(v);
        if let Some(&s) = self.env_scopes.get(&v) {
            return Ok(Some(s));
        }
        if !visiting.insert(v) {
            return Ok(None);
        }
        let func = self.func;
        let Some(inst) = func.def_inst(v) else {
            return Err(format!("environment operand {v} is a literal"));
        };
        let data = &func.insts[inst];
        let mut sources: Vec<Value> = Vec::new();
        let scope = match (data.opcode, data.imm) {
            (Opcode::CreateScope | Opcode::GetParentScope | Opcode::ResolveScope, Imm::Scope(s)) => Some(s),
            (Opcode::Phi, _) => {
                sources.extend(data.args.iter().copied());
                None
            }
            (Opcode::LoadStack, _) => {
                let slot = func.def_inst(data.args[0]).ok_or("load_stack of a non-slot")?;
                sources.extend(self.slot_stores.get(&slot).cloned().unwrap_or_default());
                None
            }
            (op, _) => return Err(format!("environment operand {v} is made by `{op}`")),
        };
        let scope = match scope {
            Some(s) => Some(s),
            None => {
                let mut found: Option<ScopeId> = None;
                for src in sources {
                    if func.as_literal(self.resolve(src)).is_some() {
                        // An `undefined` placeholder stored before the environment exists.
                        continue;
                    }
                    if let Some(s) = self.env_scope_rec(src, visiting)? {
                        if found.is_some_and(|f| f != s) {
                            return Err(format!("environment {v} merges environments of different scopes"));
                        }
                        found = Some(s);
                    }
                }
                found
            }
        };
        if let Some(s) = scope {
            self.env_scopes.insert(v, s);
        }
        Ok(scope)
    }

    // ---- Operands ------------------------------------------------------------------------

    /// The vreg of instruction result `v` (not a literal, aliases resolved).
    fn vreg(&mut self, v: Value) -> VReg {
        let v = self.resolve(v);
        if let Some(&r) = self.vregs.get(&v) {
            return r;
        }
        let r = self.out.new_vreg(RegClass::Normal);
        self.vregs.insert(v, r);
        r
    }

    /// The constant for a literal.
    fn constant(&mut self, lit: Literal) -> Const {
        match lit {
            Literal::Undefined => Const::Undefined,
            Literal::Null => Const::Null,
            Literal::Empty => Const::Empty,
            Literal::Bool(b) => Const::Bool(b),
            Literal::Number(n) => Const::number(n),
            Literal::String(a) => Const::String(self.ids.atom(a)),
        }
    }

    /// A register holding operand `v`, materializing a literal in the current block (or, in
    /// a loop, in the entry block).
    fn operand(&mut self, v: Value) -> VReg {
        let v = self.resolve(v);
        match self.func.as_literal(v) {
            None => self.vreg(v),
            Some(lit) if self.cur_in_loop && self.hoistable.contains(&v) => {
                if let Some(&r) = self.hoisted.get(&v) {
                    return r;
                }
                let r = self.out.new_vreg(RegClass::Normal);
                let c = self.constant(lit);
                self.hoisted_loads.push(LInst { kind: LKind::Op(c.load(r)), loc: self.func.loc });
                self.hoisted.insert(v, r);
                r
            }
            Some(lit) => {
                let here = self.cur.len();
                if let Some((r, last)) = self.lit_cache.get_mut(&v) {
                    if here - *last <= LITERAL_REUSE_DISTANCE {
                        *last = here;
                        return *r;
                    }
                }
                let r = self.out.new_vreg(RegClass::Normal);
                let c = self.constant(lit);
                self.push(LKind::Op(c.load(r)));
                self.lit_cache.insert(v, (r, here));
                r
            }
        }
    }

    /// The source of a move of `v`.
    fn move_src(&mut self, v: Value) -> MoveSrc {
        let v = self.resolve(v);
        match self.func.as_literal(v) {
            Some(lit) => MoveSrc::Const(self.constant(lit)),
            None => MoveSrc::Reg(self.vreg(v)),
        }
    }

    /// The register of the stack slot `slot` (an AllocStack result).
    fn slot(&self, slot: Value) -> Result<VReg, String> {
        self.func
            .def_inst(slot)
            .and_then(|i| self.slots.get(&i).copied())
            .ok_or_else(|| format!("{slot} is not a stack slot"))
    }

    fn ic(&mut self) -> u32 {
        self.out.ic_count += 1;
        self.out.ic_count - 1
    }

    fn push(&mut self, kind: LKind) {
        self.cur.push(LInst { kind, loc: self.loc });
    }

    fn op(&mut self, op: LOp) {
        self.push(LKind::Op(op));
    }

    /// The string id of a literal key that names a property other than an array index.
    fn named_key(&mut self, key: Value) -> Option<u32> {
        match self.func.as_literal(self.resolve(key)) {
            Some(Literal::String(a)) if array_index(self.module.atom_units(a)).is_none() => Some(self.ids.atom(a)),
            _ => None,
        }
    }

    /// A register holding property key `key`; a string literal that is an array index is
    /// loaded as the number it denotes, which takes the VM's element fast path.
    fn key_operand(&mut self, key: Value) -> VReg {
        if let Some(Literal::String(a)) = self.func.as_literal(self.resolve(key)) {
            if let Some(index) = array_index(self.module.atom_units(a)) {
                let r = self.out.new_vreg(RegClass::Normal);
                self.op(Const::number(f64::from(index)).load(r));
                return r;
            }
        }
        self.operand(key)
    }

    /// The array index a literal key denotes, if it is one.
    fn index_key(&self, key: Value) -> Option<u32> {
        match self.func.as_literal(self.resolve(key))? {
            Literal::String(a) => array_index(self.module.atom_units(a)),
            Literal::Number(n) if n >= 0.0 && n < u32::MAX as f64 && n.fract() == 0.0 && !n.is_sign_negative() => {
                Some(n as u32)
            }
            _ => None,
        }
    }

    /// Fills argument registers `first_index..` with `args` and returns them.
    fn call_args(&mut self, args: &[Value], first_index: u32) -> Vec<VReg> {
        let mut regs = Vec::with_capacity(args.len());
        for (i, &a) in args.iter().enumerate() {
            let out = self.out.new_vreg(RegClass::Out(first_index + i as u32));
            match self.move_src(a) {
                MoveSrc::Const(c) => self.op(c.load(out)),
                MoveSrc::Reg(r) => self.op(LOp::Mov { dst: out, src: r }),
            }
            regs.push(out);
        }
        regs
    }

    fn note_argc(&mut self, argc: u32) {
        self.out.max_args = self.out.max_args.max(argc.max(1));
    }

    // ---- Blocks ----------------------------------------------------------------------------

    fn run(&mut self) -> Result<(), String> {
        for b in self.order.clone() {
            self.lower_block(b)?;
        }
        let entry = self.lblock[&self.func.entry()];
        let at = self.entry_insert_at;
        let loads = std::mem::take(&mut self.hoisted_loads);
        self.out.blocks[entry].insts.splice(at..at, loads);
        Ok(())
    }

    fn lower_block(&mut self, b: Block) -> Result<(), String> {
        let func = self.func;
        let id = self.lblock[&b];
        self.lit_cache.clear();
        self.cur.clear();
        self.cur_in_loop = self.in_loop.contains(&b);
        let insts = &func.blocks[b].insts;
        let mut pos = 0;
        // Phis: their moves live on the edges.
        while pos < insts.len() && func.insts[insts[pos]].opcode == Opcode::Phi {
            pos += 1;
        }
        let phis: Vec<Inst> = insts[..pos].to_vec();
        let single_pred = self.preds[&b].len() == 1;
        // The instructions that must stay first (catch, resume_generator, start_generator).
        while pos < insts.len() && func.insts[insts[pos]].opcode.info().effects.has(ir::Effects::FIRST_IN_BLOCK) {
            self.loc = func.insts[insts[pos]].loc;
            self.lower_inst(insts[pos])?;
            pos += 1;
        }
        if b == func.entry() {
            self.entry_insert_at = self.cur.len();
        }
        if !phis.is_empty() && single_pred {
            let pred = self.preds[&b][0];
            let moves = self.phi_moves(b, pred)?;
            if !moves.is_empty() {
                self.push(LKind::Moves(moves));
            }
        }
        for &i in &insts[pos..] {
            self.loc = func.insts[i].loc;
            self.lower_inst(i)?;
        }
        let stack = self.region_stack[&b].clone();
        let handlers: Vec<LBlockId> = stack.iter().map(|&r| self.out.regions[r as usize].handler).collect();
        let succs = self.block_succs(b);
        let block = &mut self.out.blocks[id];
        block.insts = std::mem::take(&mut self.cur);
        block.succs = succs;
        block.handlers = handlers.clone();
        block.regions = stack.clone();
        block.hir = Some(b);
        // Split blocks of this block's critical edges.
        for (s, split) in self.splits[&b].clone() {
            let moves = self.phi_moves(s, b)?;
            let target = self.lblock[&s];
            let mut insts = Vec::new();
            let loc = func.terminator(b).map(|t| func.insts[t].loc).unwrap_or_default();
            if !moves.is_empty() {
                insts.push(LInst { kind: LKind::Moves(moves), loc });
            }
            insts.push(LInst { kind: LKind::Branch(LOp::Jmp { off: 0 }, target), loc });
            self.out.blocks[split] =
                LBlock { insts, succs: vec![target], handlers: handlers.clone(), regions: stack.clone(), hir: None };
        }
        Ok(())
    }

    /// The LIR successors of HIR block `b` (through split blocks).
    fn block_succs(&self, b: Block) -> Vec<LBlockId> {
        let mut out = Vec::new();
        for &s in self.func.successors(b) {
            let t = self.edge_target(b, s);
            if !out.contains(&t) {
                out.push(t);
            }
        }
        out
    }

    /// The LIR block a jump from `from` to `to` goes to.
    fn edge_target(&self, from: Block, to: Block) -> LBlockId {
        match self.edges.get(&(from, to)) {
            Some(EdgeMoves::Split(x)) => *x,
            _ => self.lblock[&to],
        }
    }

    /// The parallel moves of the Phis of `block` for the edge from `pred`.
    fn phi_moves(&mut self, block: Block, pred: Block) -> Result<Vec<(VReg, MoveSrc)>, String> {
        let func = self.func;
        let mut moves = Vec::new();
        for &i in &func.blocks[block].insts {
            let data = &func.insts[i];
            if data.opcode != Opcode::Phi {
                break;
            }
            let Some(k) = data.targets.iter().position(|&t| t == pred) else {
                return Err(format!("phi {} in {block} has no operand for predecessor {pred}", func.result(i)));
            };
            let dst = self.vreg(func.result(i));
            let src = self.move_src(data.args[k]);
            if src != MoveSrc::Reg(dst) {
                moves.push((dst, src));
            }
        }
        Ok(moves)
    }

    /// The moves to place at the end of `b` (before its jump), for its successor's Phis.
    fn pred_end_moves(&mut self, b: Block) -> Result<Option<Vec<(VReg, MoveSrc)>>, String> {
        let succs: Vec<Block> = self.func.successors(b).to_vec();
        for s in succs {
            if self.edges.get(&(b, s)) == Some(&EdgeMoves::AtPredEnd) {
                let moves = self.phi_moves(s, b)?;
                return Ok((!moves.is_empty()).then_some(moves));
            }
        }
        Ok(None)
    }

    fn jump(&mut self, from: Block, to: Block) -> Result<(), String> {
        if let Some(moves) = self.pred_end_moves(from)? {
            self.push(LKind::Moves(moves));
        }
        let t = self.edge_target(from, to);
        self.push(LKind::Branch(LOp::Jmp { off: 0 }, t));
        Ok(())
    }
}

/// The blocks of `order` that lie on a cycle of the CFG (strongly connected components with
/// more than one block, or a block jumping to itself), by Tarjan's algorithm without
/// recursion.
fn loop_blocks(func: &Function, order: &[Block]) -> HashSet<Block> {
    let index_of: HashMap<Block, usize> = order.iter().enumerate().map(|(i, &b)| (b, i)).collect();
    let n = order.len();
    let succs: Vec<Vec<usize>> =
        order.iter().map(|&b| func.successors(b).iter().filter_map(|s| index_of.get(s).copied()).collect()).collect();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut result = HashSet::new();
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        // (node, next successor to visit)
        let mut work = vec![(root, 0usize)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut k)) = work.last_mut() {
            if *k < succs[v].len() {
                let w = succs[v][*k];
                *k += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut members = Vec::new();
                loop {
                    let w = stack.pop().expect("Tarjan stack holds the component");
                    on_stack[w] = false;
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                if members.len() > 1 || succs[v].contains(&v) {
                    result.extend(members.into_iter().map(|m| order[m]));
                }
            }
        }
    }
    result
}

/// The array index (ECMA-262 §6.1.7: a canonical numeric string of an integer below
/// 2^32 - 1) a property name denotes, if any.
pub fn array_index(units: &[u16]) -> Option<u32> {
    if units.is_empty() || units.len() > 10 || (units.len() > 1 && units[0] == u16::from(b'0')) {
        return None;
    }
    let mut n: u64 = 0;
    for &u in units {
        if !(u16::from(b'0')..=u16::from(b'9')).contains(&u) {
            return None;
        }
        n = n * 10 + u64::from(u - u16::from(b'0'));
    }
    (n < u64::from(u32::MAX)).then_some(n as u32)
}

/// Function flags for a HIR function (see `bytecode::FunctionFlags`).
pub fn function_flags(func: &Function) -> bytecode::FunctionFlags {
    use bytecode::FunctionFlags as F;
    let mut flags = match func.kind {
        FunctionKind::TopLevel => F::NONE,
        FunctionKind::Normal => F::CONSTRUCTOR,
        FunctionKind::Arrow => F::ARROW,
        FunctionKind::Method => F::METHOD,
        FunctionKind::ClassConstructor => F::CONSTRUCTOR | F::CLASS_CONSTRUCTOR,
        FunctionKind::DerivedConstructor => F::CONSTRUCTOR | F::CLASS_CONSTRUCTOR | F::DERIVED,
        FunctionKind::GeneratorOuter => F::GENERATOR,
        FunctionKind::GeneratorInner => F::GENERATOR_INNER,
        FunctionKind::AsyncOuter => F::ASYNC,
        FunctionKind::AsyncInner => F::GENERATOR_INNER | F::ASYNC,
        FunctionKind::AsyncGeneratorOuter => F::GENERATOR | F::ASYNC,
        FunctionKind::AsyncGeneratorInner => F::GENERATOR_INNER | F::ASYNC,
    };
    if func.strict {
        flags |= F::STRICT;
    }
    if func.lazy.is_some() {
        flags |= F::LAZY;
    }
    flags
}
