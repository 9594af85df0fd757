//! The parsed pattern: a tree that the parser builds after checking every early error and
//! that the emitter turns into the pattern given to regress. Also two analyses over it: the
//! characters a match can start with (a scan guard) and a bound on the work of one match
//! attempt (to pick the scanning strategy).
//!
//! Characters are code points in Unicode mode and code units otherwise.

use super::charset::{self, CharSet, MAX_CODE_POINT, MAX_CODE_UNIT};

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
    /// A Unicode property, checked by regress; `text` is what stands between the braces.
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
    pub unicode: bool,
    /// `v` mode.
    pub sets: bool,
    pub ignore_case: bool,
    pub dot_all: bool,
    /// The `i` flag given to regress for the whole pattern.
    pub global_ignore_case: bool,
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
        if add.ignore_case {
            c.ignore_case = true;
        }
        if remove.ignore_case {
            c.ignore_case = false;
        }
        if add.dot_all {
            c.dot_all = true;
        }
        if remove.dot_all {
            c.dot_all = false;
        }
        c
    }
}

/// The set of an escape such as `\d` or `\W`, or None for a property (only regress knows
/// those). `\w` includes the extra word characters when Unicode mode and ignoreCase meet.
pub(super) fn escape_set(e: &ClassEscape, ctx: &Ctx) -> Option<CharSet> {
    let (set, negated) = match e {
        ClassEscape::Digit { negated } => (charset::digit_set(), *negated),
        ClassEscape::Space { negated } => (charset::space_set(), *negated),
        ClassEscape::Word { negated } => (charset::word_set(ctx.unicode && ctx.ignore_case), *negated),
        ClassEscape::Property { .. } => return None,
    };
    Some(if negated { set.complement(ctx.max_char()) } else { set })
}

/// The characters of a legacy or `u`-mode class before negation and case folding, or None
/// if it holds a property escape.
pub(super) fn items_set(items: &[ClassItem], ctx: &Ctx) -> Option<CharSet> {
    let mut set = CharSet::new();
    for item in items {
        match item {
            ClassItem::Char(c) => set.add(*c),
            ClassItem::Range(lo, hi) => set.add_range(*lo, *hi),
            ClassItem::Escape(e) => set.add_set(&escape_set(e, ctx)?),
        }
    }
    Some(set)
}

/// What a match of a node can start with.
struct First {
    /// A superset of the first characters of the node's non-empty matches; None if unknown.
    chars: Option<CharSet>,
    /// The node can match the empty string.
    nullable: bool,
}

impl First {
    fn zero_width() -> First {
        First { chars: Some(CharSet::new()), nullable: true }
    }
    fn unknown(nullable: bool) -> First {
        First { chars: None, nullable }
    }
    fn chars(set: CharSet) -> First {
        First { chars: Some(set), nullable: false }
    }
}

fn union(a: Option<CharSet>, b: &Option<CharSet>) -> Option<CharSet> {
    match (a, b) {
        (Some(mut a), Some(b)) => {
            a.add_set(b);
            Some(a)
        }
        _ => None,
    }
}

/// The characters any match of the pattern must start with, or None when the pattern can
/// match the empty string or its first characters are not known here. The result feeds a
/// `(?=[...])` guard emitted outside every modifier group, so a node whose case folding
/// differs from the global one (and that regress folds itself) counts as unknown.
pub(super) fn first_chars(node: &Node, ctx: &Ctx) -> Option<CharSet> {
    let f = first(node, ctx);
    if f.nullable {
        None
    } else {
        f.chars
    }
}

fn first(node: &Node, ctx: &Ctx) -> First {
    // In Unicode modes regress folds case itself, so a set is right for the guard only when
    // the node is folded the same way as the guard (by the global flag).
    let regress_folds = ctx.unicode && ctx.ignore_case != ctx.global_ignore_case;
    match node {
        Node::Empty | Node::LineStart | Node::LineEnd | Node::WordBoundary { .. } | Node::Look { .. } => {
            First::zero_width()
        }
        Node::BackRef(_) | Node::NamedRef(_) => First::unknown(true),
        Node::Char(c) => {
            if regress_folds {
                First::unknown(false)
            } else if ctx.ignore_case && !ctx.unicode {
                First::chars(charset::legacy_case_equivalents(*c))
            } else {
                First::chars(CharSet::single(*c))
            }
        }
        Node::Dot => {
            if ctx.dot_all {
                First::unknown(false)
            } else {
                First::chars(charset::line_terminator_set().complement(ctx.max_char()))
            }
        }
        Node::Class(Class::Items { negated, items }) => {
            if regress_folds {
                return First::unknown(false);
            }
            let Some(mut set) = items_set(items, ctx) else {
                return First::unknown(false);
            };
            if ctx.ignore_case && !ctx.unicode {
                set = charset::legacy_case_closure(&set);
            }
            if *negated {
                set = set.complement(ctx.max_char());
            }
            First::chars(set)
        }
        // v-mode classes may hold strings, properties and set operations: not analysed.
        Node::Class(Class::Set(_)) => First::unknown(true),
        Node::Group { body, .. } => first(body, ctx),
        Node::Modifiers { add, remove, body } => first(body, &ctx.with(*add, *remove)),
        Node::Repeat { body, min, .. } => {
            let f = first(body, ctx);
            First { chars: f.chars, nullable: f.nullable || *min == 0 }
        }
        Node::Cat(nodes) => {
            let mut acc = First::zero_width();
            for n in nodes {
                let f = first(n, ctx);
                acc.chars = union(acc.chars, &f.chars);
                if !f.nullable {
                    acc.nullable = false;
                    break;
                }
            }
            acc
        }
        Node::Alt(nodes) => {
            let mut acc = First { chars: Some(CharSet::new()), nullable: false };
            for n in nodes {
                let f = first(n, ctx);
                acc.chars = union(acc.chars, &f.chars);
                acc.nullable |= f.nullable;
            }
            acc
        }
    }
}

/// An estimate of the work of one match attempt, saturating at `u64::MAX` for "unbounded":
/// the number of paths a backtracking matcher can explore times their length. Unbounded
/// quantifiers and backreferences (whose length is the input's) are unbounded.
pub(super) fn attempt_cost(node: &Node) -> u64 {
    let (paths, len) = cost(node);
    paths.saturating_mul(len)
}

/// (paths, longest path) of a node.
fn cost(node: &Node) -> (u64, u64) {
    match node {
        Node::Empty
        | Node::Char(_)
        | Node::Dot
        | Node::LineStart
        | Node::LineEnd
        | Node::WordBoundary { .. }
        | Node::Class(_) => (1, 1),
        Node::BackRef(_) | Node::NamedRef(_) => (u64::MAX, u64::MAX),
        // A lookaround is atomic: it is entered and left once, whatever it explored.
        Node::Look { body, .. } => (1, attempt_cost(body)),
        Node::Group { body, .. } | Node::Modifiers { body, .. } => cost(body),
        Node::Cat(nodes) => nodes.iter().fold((1, 0), |(p, l), n| {
            let (np, nl) = cost(n);
            (p.saturating_mul(np), l.saturating_add(nl))
        }),
        Node::Alt(nodes) => nodes.iter().fold((0, 0), |(p, l), n| {
            let (np, nl) = cost(n);
            (p.saturating_add(np), l.max(nl))
        }),
        Node::Repeat { body, min, max, .. } => {
            let Some(max) = *max else {
                return (u64::MAX, u64::MAX);
            };
            let (bp, bl) = cost(body);
            let counts = u64::from(max - min) + 1;
            let paths = if bp <= 1 { counts } else { bp.saturating_pow(max).saturating_mul(counts) };
            (paths, bl.saturating_mul(u64::from(max)))
        }
    }
}
