//! Dead code removal on LIR: instructions without side effects whose results nobody reads.
//!
//! The HIR optimizer removes dead HIR instructions; what is left here comes from lowering
//! itself, e.g. `load_param 0` feeding a `coerce_this_ns` (whose bytecode, `load_this_ns`,
//! reads `this` from the frame and not from a register), or a Phi destination only ever
//! read by its own moves. It runs before register allocation, so dead values do not take
//! registers either.

use super::lir::{LFunction, LKind, LOp, RegClass, Role, VReg};

/// Whether `op` has no effect besides writing its destination registers: the opcode table's
/// flags say so (no `THROWS`, `CALLS_JS`, `WRITES` or control flow).
fn is_pure(op: &LOp) -> bool {
    op.opcode().flags().removable_if_unused()
}

/// Removes dead pure instructions and dead parallel moves until none is left.
pub fn remove_dead_code(f: &mut LFunction) {
    loop {
        let mut uses = vec![0u32; f.vreg_count()];
        for b in &f.blocks {
            for inst in &b.insts {
                inst.for_each_use(|v| uses[v.index()] += 1);
            }
        }
        // Slot registers are observable (the frame keeps them across the function); only
        // normal vregs can be dead.
        let dead = |v: VReg| f.classes[v.index()] == RegClass::Normal && uses[v.index()] == 0;
        let mut removed = false;
        let mut blocks = std::mem::take(&mut f.blocks);
        for b in &mut blocks {
            b.insts.retain_mut(|inst| match &mut inst.kind {
                LKind::Op(op) if is_pure(op) => {
                    let mut all_dead = true;
                    inst_defs(op, |v| all_dead &= dead(v));
                    removed |= all_dead;
                    !all_dead
                }
                LKind::Moves(moves) => {
                    let before = moves.len();
                    moves.retain(|&(dst, _)| !dead(dst));
                    removed |= moves.len() != before;
                    !moves.is_empty()
                }
                _ => true,
            });
        }
        f.blocks = blocks;
        if !removed {
            break;
        }
    }
}

fn inst_defs(op: &LOp, mut f: impl FnMut(VReg)) {
    op.for_each_reg(|v, role| {
        if role == Role::Def {
            f(v)
        }
    });
}
