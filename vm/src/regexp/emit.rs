//! Writes a checked [`Node`] tree as the pattern given to regress.
//!
//! The emitted pattern says exactly what the tree means in the narrow syntax regress reads
//! reliably, sidestepping the places where regress and ECMA-262 part ways:
//!
//! - Characters: ASCII letters and digits as themselves, other ASCII as `\xHH`, everything
//!   else as the raw character, so no escape is reinterpreted (regress joins `\uD83D\uDE00`
//!   into one code point even in legacy mode, where they are two code units).
//! - Legacy mode folds case here, with the legacy Canonicalize: characters become classes
//!   of their case variants and classes are closed under case equivalence, and regress runs
//!   without `i` (its legacy folding lets U+017F match `s`). Only backreferences keep
//!   regress's folding, through `(?i:\N)`. Unicode modes pass `i` to regress, whose folding
//!   is the simple case folding the spec asks for.
//! - `\d \s \w` become explicit ranges (regress folds `[\W]` wrongly under `iu`).
//! - Groups are unnamed (names are resolved here), backreferences are `(?:\N)` so a digit
//!   after them cannot extend the number.
//! - `v`-mode classes containing the empty string become `(?:[...]|)`, as regress drops
//!   empty strings of `\q{}`.

use super::ast::{
    escape_set, items_set, Class, ClassEscape, ClassItem, Ctx, Node, SetClass, SetExpr, SetOperand,
};
use super::charset::{self, CharSet};

pub(super) struct Emitter {
    pub out: Vec<u32>,
}

impl Emitter {
    pub(super) fn new() -> Emitter {
        Emitter { out: Vec::new() }
    }

    pub(super) fn push_str(&mut self, s: &str) {
        self.out.extend(s.bytes().map(u32::from));
    }

    /// One character, outside or inside a class.
    fn char(&mut self, c: u32) {
        if c < 0x80 && !char::from_u32(c).is_some_and(|ch| ch.is_ascii_alphanumeric()) {
            self.push_str(&format!("\\x{c:02X}"));
        } else {
            self.out.push(c);
        }
    }

    /// The ranges of a set, inside brackets the caller writes.
    fn ranges(&mut self, set: &CharSet) {
        for &(lo, hi) in set.ranges() {
            self.char(lo);
            if hi > lo {
                if hi > lo + 1 {
                    self.out.push(u32::from(b'-'));
                }
                self.char(hi);
            }
        }
    }

    /// A set as a bracketed class.
    pub(super) fn set_class(&mut self, set: &CharSet, negated: bool) {
        self.push_str(if negated { "[^" } else { "[" });
        self.ranges(set);
        self.push_str("]");
    }

    pub(super) fn node(&mut self, node: &Node, ctx: &Ctx) {
        match node {
            Node::Empty => {}
            Node::Char(c) => {
                if ctx.ignore_case && !ctx.unicode {
                    let set = charset::legacy_case_equivalents(*c);
                    if set.chars().nth(1).is_some() {
                        self.set_class(&set, false);
                        return;
                    }
                }
                self.char(*c);
            }
            Node::Dot => self.push_str("."),
            Node::LineStart => self.push_str("^"),
            Node::LineEnd => self.push_str("$"),
            Node::WordBoundary { negated } => self.push_str(if *negated { "\\B" } else { "\\b" }),
            Node::Look {
                behind,
                negated,
                body,
            } => {
                self.push_str(match (behind, negated) {
                    (false, false) => "(?=",
                    (false, true) => "(?!",
                    (true, false) => "(?<=",
                    (true, true) => "(?<!",
                });
                self.node(body, ctx);
                self.push_str(")");
            }
            Node::Group { capture, body } => {
                self.push_str(if capture.is_some() { "(" } else { "(?:" });
                self.node(body, ctx);
                self.push_str(")");
            }
            Node::Modifiers { add, remove, body } => {
                // Legacy mode folds case itself: regress sees only `m` and `s`.
                let keep_i = ctx.unicode;
                let letters = |f: &super::ast::ModFlags| {
                    let mut s = String::new();
                    if f.ignore_case && keep_i {
                        s.push('i');
                    }
                    if f.multiline {
                        s.push('m');
                    }
                    if f.dot_all {
                        s.push('s');
                    }
                    s
                };
                let (a, r) = (letters(add), letters(remove));
                self.push_str("(?");
                self.push_str(&a);
                if !r.is_empty() {
                    self.push_str("-");
                    self.push_str(&r);
                }
                self.push_str(":");
                self.node(body, &ctx.with(*add, *remove));
                self.push_str(")");
            }
            Node::BackRef(groups) => {
                let fold_here = ctx.ignore_case && !ctx.unicode;
                self.push_str(if fold_here { "(?i:" } else { "(?:" });
                for g in groups {
                    self.push_str(&format!("\\{g}"));
                }
                self.push_str(")");
            }
            // Resolved by the parser; an unresolved one could only match the empty string.
            Node::NamedRef(_) => self.push_str("(?:)"),
            Node::Class(class) => self.class(class, ctx),
            Node::Repeat {
                body,
                min,
                max,
                greedy,
            } => {
                let wrap = matches!(**body, Node::Cat(_) | Node::Alt(_) | Node::Empty);
                if wrap {
                    self.push_str("(?:");
                }
                self.node(body, ctx);
                if wrap {
                    self.push_str(")");
                }
                match max {
                    Some(max) => self.push_str(&format!("{{{min},{max}}}")),
                    None => self.push_str(&format!("{{{min},}}")),
                }
                if !greedy {
                    self.push_str("?");
                }
            }
            Node::Cat(nodes) => nodes.iter().for_each(|n| self.node(n, ctx)),
            Node::Alt(nodes) => {
                for (k, n) in nodes.iter().enumerate() {
                    if k > 0 {
                        self.push_str("|");
                    }
                    self.node(n, ctx);
                }
            }
        }
    }

    fn class(&mut self, class: &Class, ctx: &Ctx) {
        match class {
            Class::Items { negated, items } if !ctx.unicode => {
                // Legacy mode has no property escapes: the set is always known.
                let mut set = items_set(items, ctx).unwrap_or_default();
                if ctx.ignore_case {
                    set = charset::legacy_case_closure(&set);
                }
                self.set_class(&set, *negated);
            }
            Class::Items { negated, items } => {
                self.push_str(if *negated { "[^" } else { "[" });
                for item in items {
                    match item {
                        ClassItem::Char(c) => self.char(*c),
                        ClassItem::Range(lo, hi) => {
                            self.ranges(&CharSet::from_ranges(&[(*lo, *hi)]))
                        }
                        ClassItem::Escape(e) => self.escape_in_class(e, ctx),
                    }
                }
                self.push_str("]");
            }
            Class::Set(class) => {
                let empty = !class.negated && has_empty_string(&class.expr);
                if empty {
                    self.push_str("(?:");
                }
                self.set_expr_class(class, ctx);
                if empty {
                    self.push_str("|)");
                }
            }
        }
    }

    /// An escape inside a `u`-mode class: properties go to regress, the rest as ranges.
    fn escape_in_class(&mut self, e: &ClassEscape, ctx: &Ctx) {
        match escape_set(e, ctx) {
            Some(set) => self.ranges(&set),
            None => self.property(e),
        }
    }

    fn property(&mut self, e: &ClassEscape) {
        if let ClassEscape::Property { negated, text, .. } = e {
            self.push_str(if *negated { "\\P{" } else { "\\p{" });
            self.out.extend_from_slice(text);
            self.push_str("}");
        }
    }

    fn set_expr_class(&mut self, class: &SetClass, ctx: &Ctx) {
        self.push_str(if class.negated { "[^" } else { "[" });
        let (ops, sep) = match &class.expr {
            SetExpr::Union(ops) => (ops, ""),
            SetExpr::Intersection(ops) => (ops, "&&"),
            SetExpr::Subtraction(ops) => (ops, "--"),
        };
        for (k, op) in ops.iter().enumerate() {
            if k > 0 {
                self.push_str(sep);
            }
            self.set_operand(op, ctx);
        }
        self.push_str("]");
    }

    fn set_operand(&mut self, op: &SetOperand, ctx: &Ctx) {
        match op {
            SetOperand::Char(c) => self.char(*c),
            SetOperand::Range(lo, hi) => self.ranges(&CharSet::from_ranges(&[(*lo, *hi)])),
            SetOperand::Escape(e) => match escape_set(e, ctx) {
                Some(set) => self.set_class(&set, false),
                None => self.property(e),
            },
            SetOperand::Strings(strings) => {
                // Single characters as such (regress mishandles `\q{a}` in `[^...]`), the
                // longer strings in `\q{}`, the empty string by the caller.
                self.push_str("[");
                for s in strings.iter().filter(|s| s.len() == 1) {
                    self.char(s[0]);
                }
                let long: Vec<&Vec<u32>> = strings.iter().filter(|s| s.len() > 1).collect();
                if !long.is_empty() {
                    self.push_str("\\q{");
                    for (k, s) in long.iter().enumerate() {
                        if k > 0 {
                            self.push_str("|");
                        }
                        s.iter().for_each(|&c| self.char(c));
                    }
                    self.push_str("}");
                }
                self.push_str("]");
            }
            SetOperand::Nested(class) => self.set_expr_class(class, ctx),
        }
    }
}

/// Whether a `v`-mode class expression holds the empty string.
fn has_empty_string(expr: &SetExpr) -> bool {
    fn operand(op: &SetOperand) -> bool {
        match op {
            SetOperand::Strings(strings) => strings.iter().any(|s| s.is_empty()),
            SetOperand::Nested(class) => !class.negated && has_empty_string(&class.expr),
            _ => false,
        }
    }
    match expr {
        SetExpr::Union(ops) => ops.iter().any(operand),
        SetExpr::Intersection(ops) => !ops.is_empty() && ops.iter().all(operand),
        SetExpr::Subtraction(ops) => {
            ops.first().is_some_and(operand) && !ops.iter().skip(1).any(operand)
        }
    }
}
