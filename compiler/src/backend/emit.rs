//! Emission: allocated LIR to encoded bytecode, handler table and debug locations.
//!
//! ```text
//!  LFunction + Allocation ──▶ per block: Inst list (moves sequentialized) ──▶ jump threading,
//!  fallthrough ──▶ bytecode::Assembler ──▶ code, label pcs ──▶ handler ranges
//! ```
//!
//! - A `mov` whose registers coincide after allocation is dropped; a block left with only a
//!   `jmp` is skipped and jumps to it go straight to its target (the entry block is always
//!   kept, it is where the function starts).
//! - A `jmp` to the block emitted next is dropped; `jmp_true c, A; jmp B` with `A` next
//!   becomes `jmp_false c, B`.
//! - Parallel moves become `mov`s ordered so no source is overwritten before it is read; a
//!   cycle is broken through the scratch register (the highest one of the frame, used only
//!   inside such a sequence). Constant sources are loaded last.
//! - Handler table: each try region covers the pcs of the emitted blocks that list it,
//!   split into one entry per contiguous run; deeper regions come first, so the first entry
//!   containing a pc is its innermost handler.

use bytecode::{Assembler, HandlerEntry, Inst, Label};

use super::lir::{LBlockId, LFunction, LKind, LOp, MoveSrc, VReg};
use super::regalloc::Allocation;

/// Code and tables of one function.
#[derive(Clone, Debug)]
pub struct Emitted {
    /// Encoded instructions.
    pub code: Vec<u8>,
    /// Exception handlers, inner regions first.
    pub handlers: Vec<HandlerEntry>,
    /// `(pc, line, col)` sorted by pc.
    pub locations: Vec<(u32, u32, u32)>,
    /// Registers of the frame.
    pub frame_size: u32,
}

macro_rules! inst_operand {
    (Reg, $v:expr, $reg:ident) => {
        $reg($v)
    };
    ($kind:ident, $v:expr, $reg:ident) => {
        $v
    };
}

macro_rules! define_to_inst {
    ($(
        $(#[$meta:meta])*
        $mnemonic:ident = $name:ident { $($field:ident : $kind:ident ($role:ident)),* $(,)? }
            [$($flag:ident)|*] $(negated($negated:ident))?;
    )*) => {
        impl LOp {
            /// The bytecode instruction, each register operand `r` encoded as `reg(r)`.
            #[allow(unused_variables, unused_mut)]
            pub fn to_inst(self, mut reg: impl FnMut(VReg) -> u32) -> Inst {
                match self {
                    $( LOp::$name { $($field),* } => Inst::$name { $($field: inst_operand!($kind, $field, reg)),* }, )*
                }
            }
        }
    };
}

bytecode::for_each_opcode!(define_to_inst);

/// One instruction ready for the assembler.
#[derive(Clone, Copy, Debug)]
struct Item {
    inst: Inst,
    target: Option<LBlockId>,
    loc: ir::Loc,
}

/// Emits `f` with registers from `alloc`.
pub fn emit(f: &LFunction, alloc: &Allocation, debug_info: bool) -> Result<Emitted, String> {
    let reg = |v: VReg| alloc.regs[v.index()];
    let mut scratch_used = false;

    // Per-block instruction lists with physical registers.
    let mut lists: Vec<Vec<Item>> = Vec::with_capacity(f.blocks.len());
    for b in &f.blocks {
        let mut items = Vec::with_capacity(b.insts.len());
        for inst in &b.insts {
            let loc = inst.loc;
            match &inst.kind {
                LKind::Op(LOp::Mov { dst, src }) if reg(*dst) == reg(*src) => {}
                LKind::Op(op) => items.push(Item { inst: op.to_inst(reg), target: None, loc }),
                LKind::Branch(op, t) => items.push(Item { inst: op.to_inst(reg), target: Some(*t), loc }),
                LKind::Call(op, args) => {
                    let inst = op.to_inst(reg);
                    check_arg_range(&inst, args, &reg)?;
                    items.push(Item { inst, target: None, loc });
                }
                LKind::Moves(moves) => {
                    let physical: Vec<(u32, PhysSrc)> = moves
                        .iter()
                        .map(|&(d, s)| {
                            let src = match s {
                                MoveSrc::Reg(r) => PhysSrc::Reg(reg(r)),
                                MoveSrc::Const(c) => PhysSrc::Const(c),
                            };
                            (reg(d), src)
                        })
                        .collect();
                    for inst in sequentialize(&physical, alloc.scratch, &mut scratch_used)? {
                        items.push(Item { inst, target: None, loc });
                    }
                }
            }
        }
        lists.push(items);
    }

    // Jump threading: blocks that are just `jmp T`. A cycle of such blocks (an empty
    // infinite loop) keeps one of them.
    let n = f.blocks.len();
    let mut trivial: Vec<Option<LBlockId>> = lists
        .iter()
        .enumerate()
        .map(|(i, items)| match items.as_slice() {
            [Item { inst: Inst::Jmp { .. }, target: Some(t), .. }] if i != 0 => Some(*t),
            _ => None,
        })
        .collect();
    for b in 0..n {
        let mut seen = vec![b];
        let mut c = b;
        while let Some(t) = trivial[c] {
            if seen.contains(&t) {
                trivial[t] = None;
                break;
            }
            seen.push(t);
            c = t;
        }
    }
    let final_target: Vec<LBlockId> = (0..n)
        .map(|mut b| {
            while let Some(t) = trivial[b] {
                b = t;
            }
            b
        })
        .collect();
    let emitted: Vec<LBlockId> = (0..n).filter(|&b| trivial[b].is_none()).collect();
    let mut next_emitted = vec![None; n];
    for w in emitted.windows(2) {
        next_emitted[w[0]] = Some(w[1]);
    }

    let mut asm = Assembler::new();
    let labels: Vec<Label> = (0..n).map(|_| asm.new_label()).collect();
    let end_label = asm.new_label();
    for &b in &emitted {
        asm.bind(labels[b]);
        let mut items = std::mem::take(&mut lists[b]);
        let next = next_emitted[b];
        // Fallthrough into the next emitted block.
        if let Some(&Item { inst: Inst::Jmp { .. }, target: Some(t), .. }) = items.last() {
            let len = items.len();
            // `jmp_x A; jmp B` with A next becomes `jmp_not_x B`.
            let cond_before = match len.checked_sub(2).map(|k| items[k]) {
                Some(Item { inst, target: Some(a), loc }) => inst.negated().map(|neg| (neg, a, loc)),
                _ => None,
            };
            if Some(final_target[t]) == next {
                items.pop();
            } else if let Some((negated, a, loc)) = cond_before {
                if Some(final_target[a]) == next {
                    items.truncate(len - 2);
                    items.push(Item { inst: negated, target: Some(t), loc });
                }
            }
        }
        for item in items {
            if debug_info && item.loc.line != 0 {
                asm.set_loc(item.loc.line, item.loc.col);
            }
            match item.target {
                Some(t) => asm.emit_branch(item.inst, labels[final_target[t]]),
                None => asm.emit(item.inst),
            }
        }
    }
    asm.bind(end_label);
    let assembled = asm.finish().map_err(|e| e.to_string())?;
    let pc = |l: Label| assembled.label_offsets[l.index()];

    // Handler table.
    let mut order: Vec<usize> = (0..f.regions.len()).collect();
    order.sort_by_key(|&r| (std::cmp::Reverse(f.regions[r].depth), r));
    let mut handlers = Vec::new();
    for r in order {
        let target = pc(labels[final_target[f.regions[r].handler]]);
        let mut run: Option<(u32, u32)> = None;
        for (k, &b) in emitted.iter().enumerate() {
            let start = pc(labels[b]);
            let end = emitted.get(k + 1).map_or(pc(end_label), |&nb| pc(labels[nb]));
            if f.blocks[b].regions.contains(&(r as u32)) {
                run = Some(match run {
                    Some((s, _)) => (s, end),
                    None => (start, end),
                });
            } else if let Some((s, e)) = run.take() {
                if s < e {
                    handlers.push(HandlerEntry { start: s, end: e, target });
                }
            }
        }
        if let Some((s, e)) = run {
            if s < e {
                handlers.push(HandlerEntry { start: s, end: e, target });
            }
        }
    }

    let frame_size = if scratch_used { alloc.scratch + 1 } else { alloc.scratch };
    Ok(Emitted { code: assembled.code, handlers, locations: assembled.locations, frame_size: frame_size.max(1) })
}

/// Checks that a call's argument registers are the consecutive range it names.
fn check_arg_range(inst: &Inst, args: &[VReg], reg: &impl Fn(VReg) -> u32) -> Result<(), String> {
    let (first, argc, skip) = match *inst {
        Inst::Call { first, argc, .. } => (first, argc, 0),
        Inst::Construct { first, argc, .. } => (first, argc, 1),
        Inst::CallBuiltin { first, argc, .. } => (first, argc, 0),
        _ => return Err(format!("`{}` is not a call", inst.opcode().mnemonic())),
    };
    if args.len() as u32 + skip != argc {
        return Err(format!("call with {} argument registers but argc {argc}", args.len()));
    }
    for (i, &a) in args.iter().enumerate() {
        if reg(a) != first + skip + i as u32 {
            return Err(format!("argument {i} of a call is in r{}, not r{}", reg(a), first + skip + i as u32));
        }
    }
    Ok(())
}

/// The source of a physical move.
#[derive(Clone, Copy, Debug, PartialEq)]
enum PhysSrc {
    Reg(u32),
    Const(super::lir::Const),
}

/// Orders the parallel moves `moves` (distinct destinations) into sequential instructions.
fn sequentialize(moves: &[(u32, PhysSrc)], scratch: u32, scratch_used: &mut bool) -> Result<Vec<Inst>, String> {
    let mut out = Vec::new();
    let mut pending: Vec<(u32, u32)> = Vec::new();
    let mut consts = Vec::new();
    for (i, &(d, s)) in moves.iter().enumerate() {
        if moves[..i].iter().any(|&(d2, _)| d2 == d) {
            return Err(format!("parallel move writes r{d} twice"));
        }
        match s {
            PhysSrc::Reg(s) if s == d => {}
            PhysSrc::Reg(s) => pending.push((d, s)),
            PhysSrc::Const(c) => consts.push((d, c)),
        }
    }
    while !pending.is_empty() {
        // A move whose destination no other pending move still reads can go now.
        if let Some(k) = (0..pending.len()).find(|&k| {
            let d = pending[k].0;
            !pending.iter().enumerate().any(|(j, &(_, s))| j != k && s == d)
        }) {
            let (d, s) = pending.remove(k);
            out.push(Inst::Mov { dst: d, src: s });
            continue;
        }
        // Only cycles remain: save one destination in the scratch register and read it
        // from there.
        let d = pending[0].0;
        out.push(Inst::Mov { dst: scratch, src: d });
        *scratch_used = true;
        for m in &mut pending {
            if m.1 == d {
                m.1 = scratch;
            }
        }
    }
    for (d, c) in consts {
        out.push(const_inst(d, c));
    }
    Ok(out)
}

fn const_inst(dst: u32, c: super::lir::Const) -> Inst {
    use super::lir::Const;
    match c {
        Const::Undefined => Inst::LoadConstUndefined { dst },
        Const::Null => Inst::LoadConstNull { dst },
        Const::Empty => Inst::LoadConstEmpty { dst },
        Const::Bool(true) => Inst::LoadConstTrue { dst },
        Const::Bool(false) => Inst::LoadConstFalse { dst },
        Const::Int(value) => Inst::LoadConstInt { dst, value },
        Const::Double(value) => Inst::LoadConstDouble { dst, value },
        Const::String(id) => Inst::LoadConstString { dst, id },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the sequential moves on a register file and compares with the parallel meaning.
    fn check(moves: &[(u32, PhysSrc)]) -> usize {
        let mut used = false;
        let seq = sequentialize(moves, 100, &mut used).unwrap();
        let mut regs: Vec<i64> = (0..101).collect();
        let before = regs.clone();
        for inst in &seq {
            match *inst {
                Inst::Mov { dst, src } => regs[dst as usize] = regs[src as usize],
                Inst::LoadConstInt { dst, value } => regs[dst as usize] = 1000 + i64::from(value),
                _ => unreachable!(),
            }
        }
        for &(d, s) in moves {
            let want = match s {
                PhysSrc::Reg(s) => before[s as usize],
                PhysSrc::Const(super::super::lir::Const::Int(v)) => 1000 + i64::from(v),
                _ => unreachable!(),
            };
            assert_eq!(regs[d as usize], want, "r{d} after {seq:?}");
        }
        for r in 0..100u32 {
            if !moves.iter().any(|&(d, _)| d == r) {
                assert_eq!(regs[r as usize], before[r as usize], "r{r} clobbered by {seq:?}");
            }
        }
        seq.len()
    }

    #[test]
    fn parallel_moves_respect_parallel_semantics() {
        use PhysSrc::Reg as R;
        assert_eq!(check(&[(1, R(2)), (2, R(1))]), 3, "a swap needs the scratch register");
        check(&[(1, R(2)), (2, R(3)), (3, R(1))]);
        check(&[(1, R(2)), (2, R(3)), (4, R(1))]);
        check(&[(1, R(0)), (2, R(0)), (3, R(0))]);
        check(&[(1, R(2)), (2, R(1)), (3, R(4)), (4, R(3)), (5, R(1))]);
        check(&[(1, PhysSrc::Const(super::super::lir::Const::Int(7))), (2, R(1)), (1 + 2, R(2))]);
        assert_eq!(check(&[(1, R(1))]), 0);
    }

    #[test]
    fn parallel_moves_exhaustive_small() {
        // Every map from 4 destinations to sources among 5 registers.
        use PhysSrc::Reg as R;
        for code in 0..5u32.pow(4) {
            let mut c = code;
            let mut moves = Vec::new();
            for d in 0..4u32 {
                moves.push((d, R(c % 5)));
                c /= 5;
            }
            check(&moves);
        }
    }
}
