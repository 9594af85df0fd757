//! The parsed pattern: a tree that the parser builds after checking every early error and
//! that `compile.rs` turns into a program.
//!
//! Characters are code points in Unicode mode and code units otherwise.

use super::charset::{MAX_CODE_POINT, MAX_CODE_UNIT};

/// The flags a modifier group `(?ims-ims:...)` adds or removes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct ModFlags {
    pub ignore_case: bool,
    pub multiline: bool,
    pub dot_all: bool,
}

impl ModFlags {
    pub(super) fn is_empty(&self) -> bool {
        !(self.ignore_case || self.multiline || self.dot_all)
    }
}

/// A character class escape: `\d \D \s \S \w \W \p{..} \P{..}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum ClassEscape {
    Digit {
        negated: bool,
    },
    Space {
        negated: bool,
    },
    Word {
        negated: bool,
    },
    /// A Unicode property; `text` is what stands between the braces.
    Property {
        negated: bool,
        text: Vec<u32>,
        strings: bool,
    },
}

/// One item of a legacy or `u`-mode class (`[...]` without `v`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum ClassItem {
    Char(u32),
    Range(u32, u32),
    Escape(ClassEscape),
}

/// A `v`-mode class operand (ClassSetOperand, or a ClassSetRange inside a union).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum SetOperand {
    Char(u32),
    Range(u32, u32),
    Escape(ClassEscape),
    /// `\q{a|bc|}`: the strings of a ClassStringDisjunction.
    Strings(Vec<Vec<u32>>),
    Nested(Box<SetClass>),
}

/// A `v`-mode class: `[` `^`? ClassSetExpression `]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct SetClass {
    pub negated: bool,
    pub expr: SetExpr,
}

/// ClassSetExpression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum SetExpr {
    Union(Vec<SetOperand>),
    Intersection(Vec<SetOperand>),
    Subtraction(Vec<SetOperand>),
}

/// A character class in the pattern, or a class escape standing alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Class {
    /// `[...]` in legacy or `u` mode, or an escape like `\d` (one item, not negated).
    Items { negated: bool, items: Vec<ClassItem> },
    /// `[...]` in `v` mode.
    Set(SetClass),
}

/// A node of the pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Node {
    Empty,
    Char(u32),
    Dot,
    LineStart,
    LineEnd,
    WordBoundary {
        negated: bool,
    },
    Look {
        behind: bool,
        negated: bool,
        body: Box<Node>,
    },
    /// A group; `capture` is the 1-based capture index of a capturing group.
    Group {
        capture: Option<u32>,
        body: Box<Node>,
    },
    Modifiers {
        add: ModFlags,
        remove: ModFlags,
        body: Box<Node>,
    },
    /// A backreference to one group, or to every group of a duplicated name (at most one
    /// of them can have participated).
    BackRef(Vec<u32>),
    /// A named backreference, resolved to `BackRef` once every group name is known.
    NamedRef(Vec<u32>),
    Class(Class),
    Repeat {
        body: Box<Node>,
        min: u32,
        max: Option<u32>,
        greedy: bool,
    },
    Cat(Vec<Node>),
    Alt(Vec<Node>),
}

/// The mode flags in force at a node: the global ones changed by enclosing modifier groups.
#[derive(Clone, Copy, Debug)]
pub(super) struct Ctx {
    /// Either Unicode flag: characters are code points.
    pub unicode: bool,
    /// `v` mode.
    pub sets: bool,
    pub ignore_case: bool,
    pub multiline: bool,
    pub dot_all: bool,
}

impl Ctx {
    pub(super) fn max_char(&self) -> u32 {
        if self.unicode {
            MAX_CODE_POINT
        } else {
            MAX_CODE_UNIT
        }
    }

    pub(super) fn with(self, add: ModFlags, remove: ModFlags) -> Ctx {
        let mut c = self;
        c.ignore_case = (c.ignore_case || add.ignore_case) && !remove.ignore_case;
        c.multiline = (c.multiline || add.multiline) && !remove.multiline;
        c.dot_all = (c.dot_all || add.dot_all) && !remove.dot_all;
        c
    }
}
