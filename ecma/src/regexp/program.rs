//! The regexp bytecode: what `compile.rs` produces from a checked pattern and `exec.rs`
//! runs. A program is a flat list of instructions for a backtracking machine with an
//! explicit stack (the shape of V8's irregexp bytecode and QuickJS's lre), so that a native
//! tier can later translate it instruction by instruction.
//!
//! Positions are code-unit indices into the subject. A "character" is a code point in the
//! Unicode modes (a surrogate pair is read as one) and a code unit otherwise. Instructions
//! that read a character carry a direction: lookbehind bodies match backwards (22.2.2.3
//! direction −1), reading the character that ends at the current position.
//!
//! ```text
//! /a(b|c)*d/          0  str "a"
//!                     1  split 2, 9           greedy loop over the group
//!                     2  mark r0              the position an iteration starts at
//!                     3  clear slots 2..4     the group's captures, per iteration
//!                     4  save 2
//!                     5  test [bc]
//!                     6  save 3
//!                     7  progress r0          an iteration that matched nothing fails
//!                     8  jump 1
//!                     9  str "d"
//!                    10  match
//! ```

use super::charset::CharSet;

/// What one character must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Test {
    /// Exactly this character.
    Char(u32),
    /// A member of `Program::classes[i]`.
    Class(u32),
    /// Any character (`.` with dotAll, `[^]`).
    Any,
    /// Any character but a line terminator (`.`).
    NotLineTerminator,
}

/// One instruction. Jump targets are instruction indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Insn {
    /// Reads one character passing `test`, forwards or (`back`) backwards.
    Test {
        test: Test,
        back: bool,
    },
    /// Reads the code units `Program::units[start..start + len]` (in forward order, ending at
    /// the position when `back`).
    Str {
        start: u32,
        len: u32,
        back: bool,
    },
    /// Continues at `next`; on backtracking, at `alt` from the same position.
    Split {
        next: u32,
        alt: u32,
    },
    Jump(u32),
    /// Capture slot `slot` (2n is where group n starts, 2n + 1 where it ends) takes the
    /// position.
    Save(u32),
    /// Capture slots `from..to` become unset (a quantified group's captures, at the start
    /// of each iteration: 22.2.2.3.1 RepeatMatcher step 4).
    Clear {
        from: u32,
        to: u32,
    },
    /// Register `reg` takes the position.
    Mark(u32),
    /// Fails unless the position moved since `Mark(reg)`: an iteration of a loop that may
    /// match the empty string must not (RepeatMatcher step 2.b), once its minimum is met.
    Progress(u32),
    /// Counter `reg` becomes 0.
    LoopInit(u32),
    /// The top of a counted loop: below `min` iterations the body must run, at `max` the
    /// loop ends (at `exit`), in between both are tried, the body first if `greedy`.
    LoopHead {
        reg: u32,
        min: u32,
        max: u32,
        greedy: bool,
        exit: u32,
    },
    /// The bottom of a counted loop: the empty check against `Mark(mark)` once `min` is
    /// met (when `check`), then the counter goes up and the loop goes back to `head`.
    LoopTail {
        reg: u32,
        mark: u32,
        min: u32,
        check: bool,
        head: u32,
    },
    /// Reads between `min` and `max` characters passing `test`: as many as possible, giving
    /// them back one at a time (`greedy`), or as few as possible, taking more one at a time.
    /// The loop of a single character, without a stack entry per iteration.
    Star {
        test: Test,
        min: u32,
        max: u32,
        greedy: bool,
        back: bool,
    },
    /// `^`: at the start of the input, or also after a line terminator (`multiline`).
    LineStart {
        multiline: bool,
    },
    /// `$`: at the end of the input, or also before a line terminator (`multiline`).
    LineEnd {
        multiline: bool,
    },
    /// `\b` or (`negated`) `\B`; `unicode_ignore_case` adds the two extra word characters
    /// (22.2.2.9.4 WordCharacters).
    WordBoundary {
        negated: bool,
        unicode_ignore_case: bool,
    },
    /// A backreference to the groups `Program::groups[start..start + count]` (one group,
    /// or those of a duplicated name, of which at most one participated).
    BackRef {
        start: u32,
        count: u32,
        ignore_case: bool,
        back: bool,
    },
    /// Starts a lookaround whose body follows, ending in `LookEnd` just before `end`.
    /// Register `reg` keeps where its stack entry is.
    LookStart {
        reg: u32,
        negated: bool,
        end: u32,
    },
    LookEnd {
        reg: u32,
        negated: bool,
    },
    /// The whole pattern matched.
    Match,
}

/// A class of characters, tested by bitmap below 256 and by binary search above.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Class {
    low: [u64; 4],
    /// Ranges of the characters from 256 on.
    high: Vec<(u32, u32)>,
}

impl Class {
    pub(super) fn new(set: &CharSet) -> Class {
        let mut low = [0u64; 4];
        let mut high = Vec::new();
        for &(lo, hi) in set.ranges() {
            for c in lo..=hi.min(255) {
                low[(c >> 6) as usize] |= 1 << (c & 63);
            }
            if hi >= 256 {
                high.push((lo.max(256), hi));
            }
        }
        Class { low, high }
    }

    /// The characters of the class.
    pub(super) fn to_set(&self) -> CharSet {
        let mut set = CharSet::new();
        for c in 0..256u32 {
            if self.contains(c) {
                set.add(c);
            }
        }
        for &(lo, hi) in &self.high {
            set.add_range(lo, hi);
        }
        set
    }

    #[inline]
    pub(super) fn contains(&self, c: u32) -> bool {
        if c < 256 {
            return self.low[(c >> 6) as usize] & (1 << (c & 63)) != 0;
        }
        // The last range starting at or before c.
        let i = self.high.partition_point(|&(lo, _)| lo <= c);
        i > 0 && self.high[i - 1].1 >= c
    }
}

/// How the scan over start positions can skip positions where no match starts.
#[derive(Clone, Debug, Default)]
pub(super) struct Scan {
    /// Every match starts with these code units.
    pub prefix: Vec<u16>,
    /// A code unit every match has at a fixed offset from its start, but for matches at 0
    /// by a path that begins with `^`; None when unknown (or a match may be empty).
    pub probe: Option<Probe>,
    /// What matches have at other offsets, checked where the probe finds a candidate.
    pub checks: Vec<(usize, Class)>,
    /// Every match starts at the start of the input (`^` without `m`).
    pub anchored: bool,
}

/// What every match has at `offset` from its start: a code unit of `class` (the lead
/// surrogate for a character beyond the BMP), exactly `unit` if it is one.
#[derive(Clone, Debug)]
pub(super) struct Probe {
    pub offset: usize,
    pub class: Class,
    pub unit: Option<u16>,
}

/// A compiled pattern.
#[derive(Clone, Debug)]
pub(super) struct Program {
    pub insns: Vec<Insn>,
    pub classes: Vec<Class>,
    pub units: Vec<u16>,
    pub groups: Vec<u32>,
    /// Capture slots: two per group, the whole match being group 0.
    pub slots: usize,
    /// Registers for loop counters, marks and lookarounds.
    pub regs: usize,
    /// Characters are code points (either Unicode flag), and case-insensitive
    /// backreferences compare with simple case folding rather than the legacy rule.
    pub unicode: bool,
    pub scan: Scan,
}
