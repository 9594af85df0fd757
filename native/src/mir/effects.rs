//! What an instruction reads and writes, as sets of abstract heaps (B3's heap ranges).
//!
//! ```text
//!  World ⊇ Frame ⊇ Frame(n)        interpreter registers
//!        ⊇ Slot ⊇ Slot(n)          in-object slot n of any object
//!        ⊇ OolSlot ⊇ OolSlot(n)    out-of-line slot n of any object
//!        ⊇ Elements                array elements and their vector's length
//!        ⊇ ArrayLength             arrays' `length`
//!        ⊇ Shape                   objects' shape pointers
//!        ⊇ Memory                  raw native memory (`load`/`store`)
//!        ⊇ Env ⊇ Env(n)            slot n of any environment
//! ```
//!
//! Two accesses may alias only if their heaps overlap: `Slot(2)` and `Slot(3)` never do,
//! `Slot(2)` and `Slot` always do, anything and `World` always do. A call to a helper
//! that may run JavaScript reads and writes the world.

use super::{Inst, Op};

/// A kind of abstract heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeapKind {
    Frame,
    Slot,
    OolSlot,
    Elements,
    ArrayLength,
    Shape,
    Memory,
    /// Environment slots.
    Env,
}

/// An abstract heap: all of a kind, one index of it, or everything.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Heap {
    World,
    Kind(HeapKind),
    At(HeapKind, u32),
}

impl Heap {
    /// Whether an access to `self` may touch what an access to `other` touches.
    pub fn overlaps(self, other: Heap) -> bool {
        match (self, other) {
            (Heap::World, _) | (_, Heap::World) => true,
            (Heap::Kind(a), Heap::Kind(b)) | (Heap::Kind(a), Heap::At(b, _)) | (Heap::At(a, _), Heap::Kind(b)) => {
                a == b
            }
            (Heap::At(a, i), Heap::At(b, j)) => a == b && i == j,
        }
    }
}

/// What an instruction does besides computing its result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effects {
    pub reads: Option<Heap>,
    pub writes: Option<Heap>,
    /// It may leave compiled code through its exit.
    pub exits: bool,
    /// It ends its block.
    pub terminates: bool,
}

impl Effects {
    /// No effects at all: the instruction may be removed when unused, moved and merged
    /// with an equal one.
    pub fn is_pure(&self) -> bool {
        *self == Effects::default()
    }

    /// Whether the instruction must stay even when its result is unused.
    pub fn must_keep(&self) -> bool {
        self.writes.is_some() || self.exits || self.terminates
    }

    /// Whether `self` can be reordered with `other` (neither writes what the other reads
    /// or writes, and they do not both exit).
    pub fn commutes_with(&self, other: &Effects) -> bool {
        let clash = |w: Option<Heap>, h: Option<Heap>| matches!((w, h), (Some(a), Some(b)) if a.overlaps(b));
        !(clash(self.writes, other.reads)
            || clash(self.writes, other.writes)
            || clash(other.writes, self.reads)
            || (self.exits && other.exits)
            || self.terminates
            || other.terminates)
    }
}

/// The effects of `inst`.
pub fn of(inst: &Inst) -> Effects {
    let exits = inst.exit.is_some() || inst.op.needs_exit();
    let e = |reads: Option<Heap>, writes: Option<Heap>| Effects { reads, writes, exits, terminates: false };
    use HeapKind::*;
    match &inst.op {
        Op::Iconst(..)
        | Op::Fconst(_)
        | Op::Vconst(_)
        | Op::Int(..)
        | Op::Icmp(..)
        | Op::Float(..)
        | Op::Fneg(_)
        | Op::Fcmp(..)
        | Op::I32ToF64(_)
        | Op::Sext(_)
        | Op::Trunc(_)
        | Op::Bits(_)
        | Op::FromBits(_)
        | Op::BoxI32(_)
        | Op::BoxF64(_)
        | Op::BoxObject(_)
        | Op::TagIs(..)
        | Op::Checked(..)
        | Op::F64ToI32(_)
        | Op::ToInt32(_)
        | Op::UnboxI32(_)
        | Op::UnboxF64(_)
        | Op::UnboxObject(_)
        | Op::Check(..) => e(None, None),
        Op::LoadShape(_) | Op::GuardShape(..) => e(Some(Heap::Kind(Shape)), None),
        Op::StoreShape(..) => e(None, Some(Heap::Kind(Shape))),
        Op::LoadSlot(_, n) => e(Some(Heap::At(Slot, *n)), None),
        Op::LoadEnv(_, n) => e(Some(Heap::At(Env, *n)), None),
        Op::StoreEnv(_, n, _) => e(None, Some(Heap::At(Env, *n))),
        Op::StoreSlot(_, n, _) => e(None, Some(Heap::At(Slot, *n))),
        Op::LoadOolSlot(_, n) => e(Some(Heap::At(OolSlot, *n)), None),
        Op::StoreOolSlot(_, n, _) => e(None, Some(Heap::At(OolSlot, *n))),
        Op::ArrayLength(_) => e(Some(Heap::Kind(ArrayLength)), None),
        Op::LoadElem(..) | Op::HasElem(..) => e(Some(Heap::Kind(Elements)), None),
        Op::StoreElem(..) | Op::InitElem(..) => e(None, Some(Heap::Kind(Elements))),
        Op::LoadReg(n) => e(Some(Heap::At(Frame, *n)), None),
        Op::StoreReg(n, _) => e(None, Some(Heap::At(Frame, *n))),
        Op::Load(..) => e(Some(Heap::Kind(Memory)), None),
        Op::Store(..) => e(None, Some(Heap::Kind(Memory))),
        Op::CallHelper(..) | Op::Call(..) => e(Some(Heap::World), Some(Heap::World)),
        Op::Jump(..) | Op::Brif(..) | Op::Return(_) | Op::Deopt(_) => Effects { terminates: true, ..e(None, None) },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heaps_overlap_by_kind_and_index() {
        let s2 = Heap::At(HeapKind::Slot, 2);
        assert!(s2.overlaps(Heap::Kind(HeapKind::Slot)));
        assert!(!s2.overlaps(Heap::At(HeapKind::Slot, 3)));
        assert!(!s2.overlaps(Heap::At(HeapKind::OolSlot, 2)));
        assert!(!s2.overlaps(Heap::Kind(HeapKind::Shape)));
        assert!(s2.overlaps(Heap::World));
    }

    #[test]
    fn a_store_does_not_commute_with_a_load_of_the_same_heap() {
        let load = Effects { reads: Some(Heap::At(HeapKind::Slot, 1)), ..Effects::default() };
        let store_same = Effects { writes: Some(Heap::At(HeapKind::Slot, 1)), ..Effects::default() };
        let store_other = Effects { writes: Some(Heap::At(HeapKind::Slot, 4)), ..Effects::default() };
        let call = Effects { reads: Some(Heap::World), writes: Some(Heap::World), ..Effects::default() };
        assert!(!load.commutes_with(&store_same));
        assert!(load.commutes_with(&store_other));
        assert!(!load.commutes_with(&call));
        assert!(load.commutes_with(&load));
    }
}
