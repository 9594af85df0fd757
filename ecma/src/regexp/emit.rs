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
//!   empty strings of `\q{}`; single characters of `\q{}` are written as characters.
//! - `v` mode with ignoreCase: set operations and complements are written with lookarounds
//!   over simple classes (see `needs_lookaround_form`).

use super::ast::{escape_set, items_set, Class, ClassEscape, ClassItem, Ctx, Node, SetClass, SetExpr, SetOperand};
use super::charset::{self, CharSet};
use super::class::may_contain_strings;

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
            Node::Look { behind, negated, body } => {
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
            Node::Repeat { body, min, max, greedy } => {
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
            Class::Items { negated: false, items }
                if ctx.sets
                    && ctx.ignore_case
                    && matches!(items.as_slice(), [ClassItem::Escape(ClassEscape::Property { negated: true, .. })]) =>
            {
                if let [ClassItem::Escape(ClassEscape::Property { text, .. })] = items.as_slice() {
                    self.folded_complement_property(text);
                }
            }
            Class::Items { negated, items } => {
                self.push_str(if *negated { "[^" } else { "[" });
                for item in items {
                    match item {
                        ClassItem::Char(c) => self.char(*c),
                        ClassItem::Range(lo, hi) => self.ranges(&CharSet::from_ranges(&[(*lo, *hi)])),
                        ClassItem::Escape(e) => self.escape_in_class(e, ctx),
                    }
                }
                self.push_str("]");
            }
            Class::Set(class) if needs_lookaround_form(class, ctx) => {
                self.push_str("(?:");
                self.set_class_folded(class, ctx);
                self.push_str(")");
            }
            // With strings, a union is split: the longer strings, then the single
            // characters in the folded form, then the empty string.
            Class::Set(class) if needs_lookaround_form_for_chars(class, ctx) => {
                let mut long = Vec::new();
                let single = split_strings(&class.expr, &mut long);
                self.push_str("(?:");
                if !long.is_empty() {
                    self.set_operand(&SetOperand::Strings(long), ctx);
                    self.push_str("|");
                }
                self.set_class_folded(&SetClass { negated: false, expr: single }, ctx);
                if has_empty_string(&class.expr) {
                    self.push_str("|");
                }
                self.push_str(")");
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

    /// `\P{..}` in `v` mode with ignoreCase: the complement of the case-closed property,
    /// `(?!\p{..})[\s\S]` (regress's `\P` complements before folding, as `u` mode wants).
    fn folded_complement_property(&mut self, text: &[u32]) {
        self.push_str("(?:(?!\\p{");
        self.out.extend_from_slice(text);
        self.push_str("})[\\s\\S])");
    }

    fn set_class_folded(&mut self, class: &SetClass, ctx: &Ctx) {
        if class.negated {
            self.push_str("(?!");
            self.set_expr_folded(&class.expr, ctx);
            self.push_str(")[\\s\\S]");
        } else {
            self.set_expr_folded(&class.expr, ctx);
        }
    }

    fn set_expr_folded(&mut self, expr: &SetExpr, ctx: &Ctx) {
        match expr {
            SetExpr::Union(ops) if ops.is_empty() => self.push_str("[]"),
            SetExpr::Union(ops) => {
                self.push_str("(?:");
                for (k, op) in ops.iter().enumerate() {
                    if k > 0 {
                        self.push_str("|");
                    }
                    self.set_operand_folded(op, ctx);
                }
                self.push_str(")");
            }
            SetExpr::Intersection(ops) => {
                self.push_str("(?:");
                for (k, op) in ops.iter().enumerate() {
                    let last = k + 1 == ops.len();
                    if !last {
                        self.push_str("(?=");
                    }
                    self.set_operand_folded(op, ctx);
                    if !last {
                        self.push_str(")");
                    }
                }
                self.push_str(")");
            }
            SetExpr::Subtraction(ops) => {
                self.push_str("(?:");
                for op in ops.iter().skip(1) {
                    self.push_str("(?!");
                    self.set_operand_folded(op, ctx);
                    self.push_str(")");
                }
                if let Some(first) = ops.first() {
                    self.set_operand_folded(first, ctx);
                }
                self.push_str(")");
            }
        }
    }

    fn set_operand_folded(&mut self, op: &SetOperand, ctx: &Ctx) {
        match op {
            SetOperand::Nested(class) => {
                self.push_str("(?:");
                self.set_class_folded(class, ctx);
                self.push_str(")");
            }
            SetOperand::Escape(ClassEscape::Property { negated: true, text, .. }) => {
                self.folded_complement_property(text)
            }
            // Single characters and positive escapes as a simple class.
            other => {
                self.push_str("[");
                self.set_operand(other, ctx);
                self.push_str("]");
            }
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

/// `v` mode with ignoreCase folds every operand before the set operations and complements
/// within the folded characters (22.2.2.9 CompileToCharSet with MaybeSimpleCaseFolding,
/// CharacterComplement). That amounts to closing each operand under case equivalence and
/// then doing plain set algebra. regress folds only the final set and mishandles nested
/// complements, so a class beyond a flat union of characters, ranges and positive escapes
/// is written with lookarounds over simple classes, each of which regress closes right:
/// `A&&B` as `(?=A)B`, `A--B` as `(?!B)A`, `[^A]` as `(?!A)[\s\S]`. Only classes of
/// single characters (no strings) can be written so; others are left to regress.
fn needs_lookaround_form(class: &SetClass, ctx: &Ctx) -> bool {
    fn flat(expr: &SetExpr) -> bool {
        match expr {
            SetExpr::Union(ops) => ops.iter().all(|op| match op {
                SetOperand::Char(_) | SetOperand::Range(..) | SetOperand::Strings(_) => true,
                SetOperand::Escape(ClassEscape::Property { negated, .. }) => !negated,
                SetOperand::Escape(_) => true,
                SetOperand::Nested(_) => false,
            }),
            _ => false,
        }
    }
    ctx.sets && ctx.ignore_case && !may_contain_strings(&class.expr) && !flat(&class.expr)
}

/// A non-negated class with strings that needs the folded form for its characters: a
/// union at every level (strings can be pulled out of unions only) that is not flat.
fn needs_lookaround_form_for_chars(class: &SetClass, ctx: &Ctx) -> bool {
    fn unions_only(expr: &SetExpr) -> bool {
        match expr {
            SetExpr::Union(ops) => ops.iter().all(|op| match op {
                SetOperand::Nested(c) => c.negated || unions_only(&c.expr),
                _ => true,
            }),
            _ => false,
        }
    }
    ctx.sets
        && ctx.ignore_case
        && !class.negated
        && may_contain_strings(&class.expr)
        && unions_only(&class.expr)
        && needs_lookaround_form(&SetClass { negated: false, expr: split_strings(&class.expr, &mut Vec::new()) }, ctx)
}

/// Removes the strings of other than one character from a union-only expression (nested
/// negated classes hold none), collecting those longer than one into `long`.
fn split_strings(expr: &SetExpr, long: &mut Vec<Vec<u32>>) -> SetExpr {
    let SetExpr::Union(ops) = expr else {
        return expr.clone();
    };
    let ops = ops
        .iter()
        .map(|op| match op {
            SetOperand::Strings(strings) => {
                long.extend(strings.iter().filter(|s| s.len() > 1).cloned());
                SetOperand::Strings(strings.iter().filter(|s| s.len() == 1).cloned().collect())
            }
            SetOperand::Nested(c) if !c.negated => {
                SetOperand::Nested(Box::new(SetClass { negated: false, expr: split_strings(&c.expr, long) }))
            }
            other => other.clone(),
        })
        .collect();
    SetExpr::Union(ops)
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
        SetExpr::Subtraction(ops) => ops.first().is_some_and(operand) && !ops.iter().skip(1).any(operand),
    }
}
