//! Side-effect labels carried by every HIR instruction.
//!
//! Passes decide what they may move, merge or delete by asking these labels, never by
//! listing opcodes. The labels of an instruction start from its row in the instruction table
//! and are refined by what is known of its operands (see `Function::effects`).

/// A set of side effects.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Effects(pub u16);

macro_rules! effect_bits {
    ($($(#[$attr:meta])* $name:ident = $bit:expr, $text:literal;)*) => {
        impl Effects {
            $($(#[$attr])* pub const $name: Effects = Effects(1 << $bit);)*
            const NAMES: &'static [(Effects, &'static str)] = &[$((Effects::$name, $text)),*];
        }
    };
}

effect_bits! {
    /// Reads a stack slot or a heap scope variable of the current function.
    READS_FRAME = 0, "reads_frame";
    /// Writes a stack slot or a heap scope variable.
    WRITES_FRAME = 1, "writes_frame";
    /// Reads object properties or other heap state.
    READS_HEAP = 2, "reads_heap";
    /// Writes object properties or other heap state.
    WRITES_HEAP = 3, "writes_heap";
    /// May throw an exception.
    MAY_THROW = 4, "may_throw";
    /// May run arbitrary JavaScript (which may do anything at all).
    EXECUTES_JS = 5, "executes_js";
    /// Performs input or output.
    IO = 6, "io";
    /// Evaluating twice with the same operands gives the same result and no further effect.
    IDEMPOTENT = 7, "idempotent";
    /// Must stay first in its block (Phi, Catch, StartGenerator).
    FIRST_IN_BLOCK = 8, "first_in_block";
    /// Ends a basic block.
    TERMINATOR = 9, "terminator";
}

impl Effects {
    /// No side effects: the instruction may be deleted when unused, moved and merged.
    pub const PURE: Effects = Effects(0);
    /// Everything a call into unknown JavaScript may do.
    pub const UNKNOWN: Effects = Effects(
        Effects::READS_FRAME.0
            | Effects::WRITES_FRAME.0
            | Effects::READS_HEAP.0
            | Effects::WRITES_HEAP.0
            | Effects::MAY_THROW.0
            | Effects::EXECUTES_JS.0,
    );

    /// The union of two sets.
    pub const fn union(self, other: Effects) -> Effects {
        Effects(self.0 | other.0)
    }
    /// `self` without `other`.
    pub const fn without(self, other: Effects) -> Effects {
        Effects(self.0 & !other.0)
    }
    /// Whether any label of `other` is present.
    pub const fn has(self, other: Effects) -> bool {
        self.0 & other.0 != 0
    }
    /// Whether an instruction with these effects and no users can be deleted.
    pub const fn is_removable(self) -> bool {
        !self.has(Effects(
            Effects::WRITES_FRAME.0
                | Effects::WRITES_HEAP.0
                | Effects::MAY_THROW.0
                | Effects::EXECUTES_JS.0
                | Effects::IO.0
                | Effects::TERMINATOR.0,
        ))
    }
    /// Whether the instruction writes anything observable.
    pub const fn writes(self) -> bool {
        self.has(Effects(Effects::WRITES_FRAME.0 | Effects::WRITES_HEAP.0 | Effects::EXECUTES_JS.0 | Effects::IO.0))
    }
}

impl std::ops::BitOr for Effects {
    type Output = Effects;
    fn bitor(self, rhs: Effects) -> Effects {
        self.union(rhs)
    }
}

impl std::fmt::Display for Effects {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut first = true;
        for (bit, name) in Effects::NAMES {
            if self.has(*bit) {
                if !first {
                    f.write_str("|")?;
                }
                first = false;
                f.write_str(name)?;
            }
        }
        if first {
            f.write_str("pure")?;
        }
        Ok(())
    }
}

impl std::fmt::Debug for Effects {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}
