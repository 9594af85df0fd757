//! Register allocation: every virtual register gets a frame register.
//!
//! ```text
//!  frame:  [ stack slots | allocated registers | argument registers | scratch ]
//!            Slot(k) = k   linear scan over      Out(i) = out_base+i  parallel-move
//!                          live intervals                             cycles only
//! ```
//!
//! The allocator works on the live intervals of `liveness.rs` (SSA values, plus the Phi
//! destinations that the edge moves write) in three steps:
//! 1. **Phi coalescing**: the destination and the source of every edge move are merged into
//!    one group when their intervals do not overlap, so they share a register and the move
//!    disappears. Groups only grow by merging non-overlapping intervals, so a group is never
//!    live twice at one point.
//! 2. **Argument coalescing**: every call reads its arguments from the consecutive registers
//!    `out_base + i`. A value whose only remaining life is to be argument `i` of a call (it
//!    dies at the call, no other call happens while it is live, and nothing else occupies
//!    argument register `i` meanwhile) is computed straight into that register.
//! 3. **Linear scan**: the remaining groups, by start position, each take the lowest
//!    register free over all of their segments (holes included), opening a new register
//!    only when none is. Nothing is ever spilled: the frame just grows (registers beyond 255
//!    use the `wide` encodings).

use super::lir::{LFunction, LKind, LOp, RegClass, VReg};
use super::liveness::{self, IntervalSet, Liveness};

/// The frame register of every vreg.
#[derive(Clone, Debug)]
pub struct Allocation {
    /// Frame register by vreg index.
    pub regs: Vec<u32>,
    /// Registers used by allocated (Normal) vregs.
    pub allocated: u32,
    /// The register above every other one; parallel moves use it to break cycles.
    pub scratch: u32,
    /// Statistics.
    pub stats: AllocStats,
}

/// What the allocator did, for reports and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AllocStats {
    /// Normal vregs allocated.
    pub values: u32,
    /// Phi moves removed by coalescing.
    pub phi_moves_coalesced: u32,
    /// Phi moves that stay.
    pub phi_moves_kept: u32,
    /// Argument moves removed by computing the value in its argument register.
    pub arg_moves_coalesced: u32,
}

/// Union-find over vreg indices.
struct Groups {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl Groups {
    fn new(n: usize) -> Groups {
        Groups { parent: (0..n as u32).collect(), size: vec![1; n] }
    }
    fn find(&mut self, v: usize) -> usize {
        let mut r = v;
        while self.parent[r] as usize != r {
            r = self.parent[r] as usize;
        }
        let mut c = v;
        while self.parent[c] as usize != r {
            let next = self.parent[c] as usize;
            self.parent[c] = r as u32;
            c = next;
        }
        r
    }
}

/// Allocates registers for `f`.
pub fn allocate(f: &LFunction) -> Result<Allocation, String> {
    let live = liveness::compute(f)?;
    let n = f.vreg_count();
    let mut stats = AllocStats::default();

    // Group intervals, indexed by group representative.
    let mut segs: Vec<IntervalSet> = live.intervals.iter().map(|iv| IntervalSet::from_sorted(iv.clone())).collect();
    let mut groups = Groups::new(n);
    let is_normal = |v: VReg| f.classes[v.index()] == RegClass::Normal;

    // 1. Phi coalescing.
    for b in &f.blocks {
        for inst in &b.insts {
            let LKind::Moves(moves) = &inst.kind else { continue };
            for &(dst, src) in moves {
                let super::lir::MoveSrc::Reg(src) = src else { continue };
                if !is_normal(dst) || !is_normal(src) {
                    stats.phi_moves_kept += 1;
                    continue;
                }
                let (a, c) = (groups.find(dst.index()), groups.find(src.index()));
                if a == c {
                    stats.phi_moves_coalesced += 1;
                    continue;
                }
                if segs[a].overlaps_set(&segs[c]) {
                    stats.phi_moves_kept += 1;
                    continue;
                }
                let (big, small) = if groups.size[a] >= groups.size[c] { (a, c) } else { (c, a) };
                let moved = std::mem::take(&mut segs[small]);
                segs[big].insert_all(moved.iter());
                groups.parent[small] = big as u32;
                groups.size[big] += groups.size[small];
                stats.phi_moves_coalesced += 1;
            }
        }
    }

    // 2. Argument coalescing.
    let max_args = f.max_args as usize;
    let mut out_of: Vec<Option<u32>> = vec![None; n];
    // Occupancy of each argument register: sorted disjoint segments.
    let mut out_occ: Vec<IntervalSet> = vec![IntervalSet::default(); max_args];
    for (v, class) in f.classes.iter().enumerate() {
        if let RegClass::Out(i) = *class {
            out_occ[i as usize].insert_all(live.intervals[v].iter().copied());
        }
    }
    let mut call_positions: Vec<u32> = Vec::new();
    {
        let mut i = 0u32;
        for b in &f.blocks {
            for inst in &b.insts {
                if matches!(inst.kind, LKind::Call(..)) {
                    call_positions.push(Liveness::use_pos(i));
                }
                i += 1;
            }
        }
    }
    let mut index = 0u32;
    for b in &f.blocks {
        let base = index;
        // The source of the last move into each register so far in this block.
        let mut moved_from: hashbrown::HashMap<VReg, VReg> = hashbrown::HashMap::new();
        for (k, inst) in b.insts.iter().enumerate() {
            if let LKind::Op(LOp::Mov { dst, src }) = inst.kind {
                moved_from.insert(dst, src);
            }
            let LKind::Call(_, args) = &inst.kind else { continue };
            let call = Liveness::use_pos(base + k as u32);
            for &a in args {
                let RegClass::Out(slot) = f.classes[a.index()] else {
                    return Err(format!("call argument {a} is not an argument register"));
                };
                // The move filling `a`, in this block before the call.
                let Some(&v) = moved_from.get(&a) else { continue };
                if !is_normal(v) || out_of[v.index()].is_some() {
                    continue;
                }
                let g = groups.find(v.index());
                if groups.size[g] != 1 {
                    continue;
                }
                let iv = &segs[g];
                let Some((_, end)) = iv.last() else { continue };
                if end > call + 1 {
                    continue;
                }
                let crosses_call = iv.iter().any(|(s, e)| {
                    let k = call_positions.partition_point(|&p| p < s);
                    k < call_positions.len() && call_positions[k] < e && call_positions[k] != call
                });
                if crosses_call {
                    continue;
                }
                // Overlapping the argument register's own interval is fine (it is the
                // move of this very value); anything else there belongs to another value.
                let own = live.intervals[a.index()].first().copied().unwrap_or((0, 0));
                let mut outside = Vec::new();
                for (s, e) in iv.iter() {
                    if s < own.0 {
                        outside.push((s, e.min(own.0)));
                    }
                    if e > own.1 {
                        outside.push((s.max(own.1), e));
                    }
                }
                let occ = &mut out_occ[slot as usize];
                if occ.overlaps(&outside) {
                    continue;
                }
                out_of[v.index()] = Some(slot);
                occ.insert_all(iv.iter());
                stats.arg_moves_coalesced += 1;
            }
        }
        index += b.insts.len() as u32;
    }

    // 3. Linear scan over the remaining groups.
    let mut order: Vec<usize> = (0..n)
        .filter(|&v| is_normal(VReg(v as u32)) && out_of[v].is_none() && groups.find(v) == v && !segs[v].is_empty())
        .collect();
    order.sort_by_key(|&g| (segs[g].first().map_or(0, |(s, _)| s), g));
    let mut occupied: Vec<IntervalSet> = Vec::new();
    let mut reg_of_group: Vec<u32> = vec![u32::MAX; n];
    for g in order {
        let iv = &segs[g];
        let r = match occupied.iter().position(|occ| !occ.overlaps_set(iv)) {
            Some(r) => r,
            None => {
                occupied.push(IntervalSet::default());
                occupied.len() - 1
            }
        };
        occupied[r].insert_all(iv.iter());
        reg_of_group[g] = r as u32;
    }

    let slots = f.slot_count;
    let allocated = occupied.len() as u32;
    let out_base = slots + allocated;
    let mut regs = vec![0u32; n];
    for v in 0..n {
        regs[v] = match f.classes[v] {
            RegClass::Slot(k) => k,
            RegClass::Out(i) => out_base + i,
            RegClass::Normal => {
                stats.values += 1;
                match out_of[v] {
                    Some(i) => out_base + i,
                    None => {
                        let g = groups.find(v);
                        match reg_of_group[g] {
                            // A vreg never defined nor used (cannot happen for lowered code);
                            // any register will do.
                            u32::MAX => out_base,
                            r => slots + r,
                        }
                    }
                }
            }
        };
    }
    Ok(Allocation { regs, allocated, scratch: out_base + f.max_args, stats })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::lir::{Const, LBlock, LInst, MoveSrc};
    use ir::Loc;

    fn inst(kind: LKind) -> LInst {
        LInst { kind, loc: Loc::default() }
    }
    fn op(op: LOp) -> LInst {
        inst(LKind::Op(op))
    }

    /// Checks that no two vregs live at the same point share a register.
    fn assert_valid(f: &LFunction, a: &Allocation) {
        let live = liveness::compute(f).unwrap();
        let n = f.vreg_count();
        for x in 0..n {
            for y in x + 1..n {
                if a.regs[x] == a.regs[y] && liveness::overlaps(&live.intervals[x], &live.intervals[y]) {
                    // Coalesced copies of the same value may overlap only through their moves.
                    panic!("v{x} and v{y} share r{} while both live", a.regs[x]);
                }
            }
        }
    }

    #[test]
    fn straight_line_reuses_registers() {
        // v0 = 1; v1 = 2; v2 = v0 + v1; v3 = v2 * v2; ret v3
        let mut f = LFunction::default();
        let v: Vec<VReg> = (0..4).map(|_| f.new_vreg(RegClass::Normal)).collect();
        f.blocks.push(LBlock {
            insts: vec![
                op(Const::Int(1).load(v[0])),
                op(Const::Int(2).load(v[1])),
                op(LOp::AddN { dst: v[2], lhs: v[0], rhs: v[1] }),
                op(LOp::MulN { dst: v[3], lhs: v[2], rhs: v[2] }),
                op(LOp::Ret { value: v[3] }),
            ],
            ..LBlock::default()
        });
        let a = allocate(&f).unwrap();
        assert_valid(&f, &a);
        assert_eq!(a.allocated, 2);
        assert_eq!(a.regs[2], a.regs[0], "the sum reuses a dead operand's register");
    }

    #[test]
    fn loop_phi_coalesces() {
        // L0: v0 = 0; v1 = 10; moves v2 <- v0; jmp L1
        // L1: v3 = v2 < v1; jmp_true v3 L2; jmp L3
        // L2: v4 = v2 + 1(v5); moves v2 <- v4; jmp L1
        // L3: ret v2
        let mut f = LFunction::default();
        let v: Vec<VReg> = (0..6).map(|_| f.new_vreg(RegClass::Normal)).collect();
        f.blocks = vec![
            LBlock {
                insts: vec![
                    op(Const::Int(0).load(v[0])),
                    op(Const::Int(10).load(v[1])),
                    inst(LKind::Moves(vec![(v[2], MoveSrc::Reg(v[0]))])),
                    inst(LKind::Branch(LOp::Jmp { off: 0 }, 1)),
                ],
                succs: vec![1],
                ..LBlock::default()
            },
            LBlock {
                insts: vec![
                    op(LOp::LessN { dst: v[3], lhs: v[2], rhs: v[1] }),
                    inst(LKind::Branch(LOp::JmpTrue { off: 0, cond: v[3] }, 2)),
                    inst(LKind::Branch(LOp::Jmp { off: 0 }, 3)),
                ],
                succs: vec![2, 3],
                ..LBlock::default()
            },
            LBlock {
                insts: vec![
                    op(Const::Int(1).load(v[5])),
                    op(LOp::AddN { dst: v[4], lhs: v[2], rhs: v[5] }),
                    inst(LKind::Moves(vec![(v[2], MoveSrc::Reg(v[4]))])),
                    inst(LKind::Branch(LOp::Jmp { off: 0 }, 1)),
                ],
                succs: vec![1],
                ..LBlock::default()
            },
            LBlock { insts: vec![op(LOp::Ret { value: v[2] })], ..LBlock::default() },
        ];
        let a = allocate(&f).unwrap();
        assert_valid(&f, &a);
        assert_eq!(a.stats.phi_moves_coalesced, 2);
        assert_eq!(a.regs[0], a.regs[2]);
        assert_eq!(a.regs[4], a.regs[2]);
        assert_ne!(a.regs[1], a.regs[2], "the bound is live around the loop");
        assert_eq!(a.allocated, 3);
    }

    #[test]
    fn swapping_phis_interfere() {
        // A loop swapping two values: x, y = y, x. Both are live at the back edge, so the
        // moves stay (a cycle the emitter breaks with the scratch register).
        let mut f = LFunction::default();
        let v: Vec<VReg> = (0..5).map(|_| f.new_vreg(RegClass::Normal)).collect();
        f.blocks = vec![
            LBlock {
                insts: vec![
                    op(Const::Int(1).load(v[0])),
                    op(Const::Int(2).load(v[1])),
                    inst(LKind::Moves(vec![(v[2], MoveSrc::Reg(v[0])), (v[3], MoveSrc::Reg(v[1]))])),
                    inst(LKind::Branch(LOp::Jmp { off: 0 }, 1)),
                ],
                succs: vec![1],
                ..LBlock::default()
            },
            LBlock {
                insts: vec![
                    op(LOp::LessN { dst: v[4], lhs: v[2], rhs: v[3] }),
                    inst(LKind::Moves(vec![(v[2], MoveSrc::Reg(v[3])), (v[3], MoveSrc::Reg(v[2]))])),
                    inst(LKind::Branch(LOp::JmpTrue { off: 0, cond: v[4] }, 1)),
                    op(LOp::Ret { value: v[2] }),
                ],
                succs: vec![1],
                ..LBlock::default()
            },
        ];
        let a = allocate(&f).unwrap();
        assert_valid(&f, &a);
        assert_ne!(a.regs[2], a.regs[3]);
        assert!(a.stats.phi_moves_kept >= 2);
    }

    #[test]
    fn arguments_are_computed_in_place() {
        // v0 = callee; v1 = 5; out0 <- undefined; out1 <- v1; call v2 = v0(out0, out1); ret v2
        let mut f = LFunction::default();
        let callee = f.new_vreg(RegClass::Normal);
        let five = f.new_vreg(RegClass::Normal);
        let res = f.new_vreg(RegClass::Normal);
        let a0 = f.new_vreg(RegClass::Out(0));
        let a1 = f.new_vreg(RegClass::Out(1));
        f.max_args = 2;
        f.blocks.push(LBlock {
            insts: vec![
                op(LOp::LoadParam { dst: callee, index: 1 }),
                op(Const::Int(5).load(five)),
                op(Const::Undefined.load(a0)),
                op(LOp::Mov { dst: a1, src: five }),
                inst(LKind::Call(LOp::Call { dst: res, callee, first: a0, argc: 2 }, vec![a0, a1])),
                op(LOp::Ret { value: res }),
            ],
            ..LBlock::default()
        });
        let a = allocate(&f).unwrap();
        assert_valid(&f, &a);
        assert_eq!(a.stats.arg_moves_coalesced, 1);
        assert_eq!(a.regs[five.index()], a.regs[a1.index()]);
        assert_eq!(a.regs[a0.index()] + 1, a.regs[a1.index()]);
        assert_eq!(a.allocated, a.regs[a0.index()], "argument registers follow the allocated ones");
    }

    #[test]
    fn nested_calls_keep_argument_registers_apart() {
        // f(x, g(y)): x must not sit in argument register 0 while g's call uses it.
        let mut f = LFunction::default();
        let fv = f.new_vreg(RegClass::Normal);
        let gv = f.new_vreg(RegClass::Normal);
        let x = f.new_vreg(RegClass::Normal);
        let y = f.new_vreg(RegClass::Normal);
        let gr = f.new_vreg(RegClass::Normal);
        let fr = f.new_vreg(RegClass::Normal);
        let g0 = f.new_vreg(RegClass::Out(0));
        let g1 = f.new_vreg(RegClass::Out(1));
        let f0 = f.new_vreg(RegClass::Out(0));
        let f1 = f.new_vreg(RegClass::Out(1));
        let f2 = f.new_vreg(RegClass::Out(2));
        f.max_args = 3;
        f.blocks.push(LBlock {
            insts: vec![
                op(LOp::LoadParam { dst: fv, index: 1 }),
                op(LOp::LoadParam { dst: gv, index: 2 }),
                op(LOp::LoadParam { dst: x, index: 3 }),
                op(LOp::LoadParam { dst: y, index: 4 }),
                op(Const::Undefined.load(g0)),
                op(LOp::Mov { dst: g1, src: y }),
                inst(LKind::Call(LOp::Call { dst: gr, callee: gv, first: g0, argc: 2 }, vec![g0, g1])),
                op(Const::Undefined.load(f0)),
                op(LOp::Mov { dst: f1, src: x }),
                op(LOp::Mov { dst: f2, src: gr }),
                inst(LKind::Call(LOp::Call { dst: fr, callee: fv, first: f0, argc: 3 }, vec![f0, f1, f2])),
                op(LOp::Ret { value: fr }),
            ],
            ..LBlock::default()
        });
        let a = allocate(&f).unwrap();
        assert_valid(&f, &a);
        // y and g's result go straight to their argument registers; x lives across g's call.
        assert_eq!(a.regs[y.index()], a.regs[g1.index()]);
        assert_eq!(a.regs[gr.index()], a.regs[f2.index()]);
        assert!(a.regs[x.index()] < a.allocated);
        assert_eq!(a.stats.arg_moves_coalesced, 2);
    }
}
