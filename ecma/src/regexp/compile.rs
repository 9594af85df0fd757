//! Compiles a checked pattern tree to a [`Program`] (22.2.2 Pattern Semantics, as code for
//! the backtracking machine of `exec.rs`), and works out how the scan can skip start
//! positions.
//!
//! Case-insensitive matching is settled here: a character or class becomes the set of all
//! characters that Canonicalize like one of its members (the case closure), so the matcher
//! never folds case but for backreferences. In `v` mode with ignoreCase, class operands are
//! folded first and the set operations and complements work on folded characters
//! (22.2.2.9 MaybeSimpleCaseFolding, CharacterComplement); the result is then closed.

use super::ast::{Class, ClassEscape, ClassItem, Ctx, Node, SetClass, SetExpr, SetOperand};
use super::charset::{self, CharSet, MAX_CODE_POINT, MAX_CODE_UNIT};
use super::program::{self, Insn, Probe, Program, Scan, Test};
use super::unicode::{self, Folding, Property};

/// Compiles `node` for a regexp with `group_count` capturing groups.
pub(super) fn compile(node: &Node, group_count: u32, ctx: &Ctx) -> Program {
    let mut c = Compiler {
        prog: Program {
            insns: Vec::new(),
            classes: Vec::new(),
            units: Vec::new(),
            groups: Vec::new(),
            slots: 2 * (group_count as usize + 1),
            regs: 0,
            unicode: ctx.unicode,
            scan: Scan::default(),
        },
    };
    c.node(node, ctx, false);
    c.emit(Insn::Match);
    c.prog.scan = scan(&c.prog);
    c.prog
}

struct Compiler {
    prog: Program,
}

/// A class's value: its characters and, in `v` mode, its strings of other than one
/// character (possibly the empty string).
#[derive(Clone, Default)]
struct ClassValue {
    chars: CharSet,
    strings: Vec<Vec<u32>>,
}

impl Compiler {
    fn pc(&self) -> u32 {
        self.prog.insns.len() as u32
    }

    fn emit(&mut self, insn: Insn) -> u32 {
        self.prog.insns.push(insn);
        self.pc() - 1
    }

    fn reg(&mut self) -> u32 {
        self.prog.regs += 1;
        self.prog.regs as u32 - 1
    }

    /// Sets the jump target of the instruction at `at` (a Split's `alt`, a Jump, a loop's
    /// exit or a lookaround's end) to the current end.
    fn patch(&mut self, at: u32) {
        let here = self.pc();
        match &mut self.prog.insns[at as usize] {
            Insn::Split { alt, .. } => *alt = here,
            Insn::Jump(to) => *to = here,
            Insn::LoopHead { exit, .. } => *exit = here,
            Insn::LookStart { end, .. } => *end = here,
            other => unreachable!("patching {other:?}"),
        }
    }

    fn class_test(&mut self, set: &CharSet, ctx: &Ctx) -> Test {
        match set.ranges() {
            [(lo, hi)] if lo == hi => Test::Char(*lo),
            [(0, hi)] if *hi >= ctx.max_char() => Test::Any,
            _ => {
                self.prog.classes.push(program::Class::new(set));
                Test::Class(self.prog.classes.len() as u32 - 1)
            }
        }
    }

    /// The test for a single character `c` in `ctx`.
    fn char_test(&mut self, c: u32, ctx: &Ctx) -> Test {
        if ctx.ignore_case {
            let set = Folding::get(ctx.unicode).equivalents(c);
            self.class_test(&set, ctx)
        } else {
            Test::Char(c)
        }
    }

    fn node(&mut self, node: &Node, ctx: &Ctx, back: bool) {
        match node {
            // Resolved by the parser; an unresolved one could only match the empty string.
            Node::Empty | Node::NamedRef(_) => {}
            Node::Char(_) => self.chars(std::slice::from_ref(node), ctx, back),
            Node::Dot => {
                let test = if ctx.dot_all { Test::Any } else { Test::NotLineTerminator };
                self.emit(Insn::Test { test, back });
            }
            Node::LineStart => {
                self.emit(Insn::LineStart { multiline: ctx.multiline });
            }
            Node::LineEnd => {
                self.emit(Insn::LineEnd { multiline: ctx.multiline });
            }
            Node::WordBoundary { negated } => {
                let unicode_ignore_case = ctx.unicode && ctx.ignore_case;
                self.emit(Insn::WordBoundary { negated: *negated, unicode_ignore_case });
            }
            Node::Look { behind, negated, body } => {
                let reg = self.reg();
                let start = self.emit(Insn::LookStart { reg, negated: *negated, end: 0 });
                self.node(body, ctx, *behind);
                self.emit(Insn::LookEnd { reg, negated: *negated });
                self.patch(start);
            }
            Node::Group { capture: Some(n), body } => {
                let (open, close) = (2 * n, 2 * n + 1);
                self.emit(Insn::Save(if back { close } else { open }));
                self.node(body, ctx, back);
                self.emit(Insn::Save(if back { open } else { close }));
            }
            Node::Group { capture: None, body } => self.node(body, ctx, back),
            Node::Modifiers { add, remove, body } => self.node(body, &ctx.with(*add, *remove), back),
            Node::BackRef(groups) => {
                let start = self.prog.groups.len() as u32;
                self.prog.groups.extend_from_slice(groups);
                self.emit(Insn::BackRef { start, count: groups.len() as u32, ignore_case: ctx.ignore_case, back });
            }
            Node::Class(class) => {
                let value = self.class_value(class, ctx);
                self.class(value, ctx, back);
            }
            Node::Repeat { body, min, max, greedy } => self.repeat(body, *min, *max, *greedy, ctx, back),
            Node::Cat(nodes) => {
                // Runs of plain characters become one string; backwards, the runs come in
                // reverse order (each still read as a whole).
                let mut runs: Vec<&[Node]> = Vec::new();
                let mut i = 0;
                while i < nodes.len() {
                    let mut j = i;
                    while j < nodes.len() && self.is_plain_char(&nodes[j], ctx) {
                        j += 1;
                    }
                    if j == i {
                        j = i + 1;
                    }
                    runs.push(&nodes[i..j]);
                    i = j;
                }
                if back {
                    runs.reverse();
                }
                for run in runs {
                    match run {
                        [single] if !self.is_plain_char(single, ctx) => self.node(single, ctx, back),
                        _ => self.chars(run, ctx, back),
                    }
                }
            }
            Node::Alt(nodes) => self.alternatives(nodes.len(), |this, k| this.node(&nodes[k], ctx, back)),
        }
    }

    /// `count` alternatives, each compiled by `branch(k)`, tried in order: a Split before
    /// each but the last, whose other way is the next alternative, and a Jump after each
    /// to the end.
    fn alternatives(&mut self, count: usize, mut branch: impl FnMut(&mut Compiler, usize)) {
        let mut jumps = Vec::new();
        for k in 0..count {
            let split = (k + 1 < count).then(|| {
                let next = self.pc() + 1;
                self.emit(Insn::Split { next, alt: 0 })
            });
            branch(self, k);
            if let Some(split) = split {
                jumps.push(self.emit(Insn::Jump(0)));
                self.patch(split);
            }
        }
        for j in jumps {
            self.patch(j);
        }
    }

    /// A character matched as a code-unit string: without ignoreCase, and in the Unicode
    /// modes not a surrogate (a lone surrogate must not match half of a pair).
    fn is_plain_char(&self, node: &Node, ctx: &Ctx) -> bool {
        match node {
            Node::Char(c) => !(ctx.ignore_case || ctx.unicode && (0xD800..=0xDFFF).contains(c)),
            _ => false,
        }
    }

    /// A run of characters.
    fn chars(&mut self, run: &[Node], ctx: &Ctx, back: bool) {
        let astral = |n: &Node| matches!(n, Node::Char(c) if *c > 0xFFFF);
        if run.iter().all(|n| self.is_plain_char(n, ctx)) && (run.len() > 1 || run.iter().any(astral)) {
            let start = self.prog.units.len() as u32;
            for n in run {
                if let Node::Char(c) = n {
                    push_units(&mut self.prog.units, *c);
                }
            }
            let len = self.prog.units.len() as u32 - start;
            self.emit(Insn::Str { start, len, back });
            return;
        }
        let iter: Box<dyn Iterator<Item = &Node>> =
            if back { Box::new(run.iter().rev()) } else { Box::new(run.iter()) };
        for n in iter {
            if let Node::Char(c) = n {
                let test = self.char_test(*c, ctx);
                self.emit(Insn::Test { test, back });
            }
        }
    }

    /// A class: a test of one character, or in `v` mode with strings, the strings longest
    /// first, then the single characters, then the empty string (22.2.2.7.1 CompileAtom).
    fn class(&mut self, value: ClassValue, ctx: &Ctx, back: bool) {
        let set = if ctx.ignore_case { Folding::get(ctx.unicode).closure(&value.chars) } else { value.chars };
        if value.strings.is_empty() {
            let test = self.class_test(&set, ctx);
            self.emit(Insn::Test { test, back });
            return;
        }
        let mut strings = value.strings;
        strings.sort_by(|a, b| (b.len(), a).cmp(&(a.len(), b)));
        strings.dedup();
        let has_empty = strings.last().is_some_and(|s| s.is_empty());
        let mut branches: Vec<Node> = strings
            .iter()
            .filter(|s| !s.is_empty())
            .map(|s| Node::Cat(s.iter().map(|&c| Node::Char(c)).collect()))
            .collect();
        // The single characters: a placeholder branch, compiled as the set's test.
        let chars_at = (!set.is_empty()).then(|| {
            branches.push(Node::Dot);
            branches.len() - 1
        });
        if has_empty {
            branches.push(Node::Empty);
        }
        self.alternatives(branches.len(), |this, k| {
            if Some(k) == chars_at {
                let test = this.class_test(&set, ctx);
                this.emit(Insn::Test { test, back });
            } else {
                this.node(&branches[k], ctx, back);
            }
        });
    }

    fn repeat(&mut self, body: &Node, min: u32, max: Option<u32>, greedy: bool, ctx: &Ctx, back: bool) {
        let max_n = max.unwrap_or(u32::MAX);
        if max_n == 0 {
            return;
        }
        if let Some(test) = self.single_char(body, ctx) {
            self.emit(Insn::Star { test, min, max: max_n, greedy, back });
            return;
        }
        let captures = capture_range(body);
        let nullable = can_be_empty(body);
        let clear = |this: &mut Compiler| {
            if let Some((lo, hi)) = captures {
                this.emit(Insn::Clear { from: 2 * lo, to: 2 * hi + 2 });
            }
        };
        if min == 0 && max.is_none() {
            // head: split body, exit; body: [mark] [clear] body [progress] jump head
            let head = self.pc();
            let split = self.emit(Insn::Split { next: 0, alt: 0 });
            let body_pc = self.pc();
            let mark = nullable.then(|| {
                let r = self.reg();
                self.emit(Insn::Mark(r));
                r
            });
            clear(self);
            self.node(body, ctx, back);
            if let Some(r) = mark {
                self.emit(Insn::Progress(r));
            }
            self.emit(Insn::Jump(head));
            let exit = self.pc();
            self.prog.insns[split as usize] = if greedy {
                Insn::Split { next: body_pc, alt: exit }
            } else {
                Insn::Split { next: exit, alt: body_pc }
            };
            return;
        }
        let reg = self.reg();
        let mark = self.reg();
        self.emit(Insn::LoopInit(reg));
        let head = self.emit(Insn::LoopHead { reg, min, max: max_n, greedy, exit: 0 });
        self.emit(Insn::Mark(mark));
        clear(self);
        self.node(body, ctx, back);
        self.emit(Insn::LoopTail { reg, mark, min, check: nullable, head });
        self.patch(head);
    }

    /// The test of a loop body that always reads exactly one character and captures
    /// nothing.
    fn single_char(&mut self, body: &Node, ctx: &Ctx) -> Option<Test> {
        match body {
            Node::Char(c) => Some(self.char_test(*c, ctx)),
            Node::Dot => Some(if ctx.dot_all { Test::Any } else { Test::NotLineTerminator }),
            Node::Class(class) => {
                if matches!(class, Class::Set(_)) && may_have_strings(class) {
                    return None;
                }
                let value = self.class_value(class, ctx);
                if !value.strings.is_empty() {
                    return None;
                }
                let set = if ctx.ignore_case { Folding::get(ctx.unicode).closure(&value.chars) } else { value.chars };
                Some(self.class_test(&set, ctx))
            }
            Node::Group { capture: None, body } => self.single_char(body, ctx),
            Node::Modifiers { add, remove, body } => self.single_char(body, &ctx.with(*add, *remove)),
            _ => None,
        }
    }

    /// The characters and strings of a class, before the final case closure.
    fn class_value(&self, class: &Class, ctx: &Ctx) -> ClassValue {
        match class {
            // In `v` mode a class escape standing alone is a class set operand.
            Class::Items { negated: false, items } if ctx.sets => {
                let ops = items
                    .iter()
                    .map(|item| match item {
                        ClassItem::Char(c) => SetOperand::Char(*c),
                        ClassItem::Range(lo, hi) => SetOperand::Range(*lo, *hi),
                        ClassItem::Escape(e) => SetOperand::Escape(e.clone()),
                    })
                    .collect();
                set_expr(&SetExpr::Union(ops), ctx)
            }
            Class::Items { negated, items } => {
                let mut set = CharSet::new();
                for item in items {
                    match item {
                        ClassItem::Char(c) => set.add(*c),
                        ClassItem::Range(lo, hi) => set.add_range(*lo, *hi),
                        ClassItem::Escape(e) => set.add_set(&escape_set(e, ctx)),
                    }
                }
                if *negated {
                    // Complemented after the closure (CharacterSetMatcher with invert).
                    if ctx.ignore_case {
                        set = Folding::get(ctx.unicode).closure(&set);
                    }
                    set = set.complement(ctx.max_char());
                }
                ClassValue { chars: set, strings: Vec::new() }
            }
            Class::Set(class) => set_class(class, ctx),
        }
    }
}

fn may_have_strings(class: &Class) -> bool {
    match class {
        Class::Set(c) => !c.negated && super::class::may_contain_strings(&c.expr),
        Class::Items { .. } => false,
    }
}

/// The code units of character `c`.
fn push_units(units: &mut Vec<u16>, c: u32) {
    if c > 0xFFFF {
        let v = c - 0x10000;
        units.push(0xD800 + (v >> 10) as u16);
        units.push(0xDC00 + (v & 0x3FF) as u16);
    } else {
        units.push(c as u16);
    }
}

/// The set of `\d \D \s \S \w \W \p{..} \P{..}` in `u` or legacy mode (no folding: the
/// class is closed as a whole). `\w` holds the two extra word characters when Unicode
/// mode and ignoreCase meet.
fn escape_set(e: &ClassEscape, ctx: &Ctx) -> CharSet {
    let (set, negated) = match e {
        ClassEscape::Digit { negated } => (charset::digit_set(), *negated),
        ClassEscape::Space { negated } => (charset::space_set(), *negated),
        ClassEscape::Word { negated } => (charset::word_set(ctx.unicode && ctx.ignore_case), *negated),
        ClassEscape::Property { negated, text, .. } => (property_chars(text).0, *negated),
    };
    if negated {
        set.complement(ctx.max_char())
    } else {
        set
    }
}

/// The characters and strings of a property the parser accepted.
fn property_chars(text: &[u32]) -> (CharSet, Vec<Vec<u32>>) {
    let name: String = text.iter().filter_map(|&c| char::from_u32(c)).collect();
    match unicode::property(&name) {
        Some(Property::Chars(set)) => (set, Vec::new()),
        Some(Property::Strings(set, strings)) => (set, strings),
        None => (CharSet::new(), Vec::new()),
    }
}

/// A `v`-mode class (22.2.2.9 CompileToCharSet), with the operands folded when ignoreCase
/// (MaybeSimpleCaseFolding) and complements taken within AllCharacters.
fn set_class(class: &SetClass, ctx: &Ctx) -> ClassValue {
    let mut value = set_expr(&class.expr, ctx);
    if class.negated {
        value = ClassValue { chars: complement(&value.chars, ctx), strings: Vec::new() };
    }
    value
}

/// CharacterComplement: the characters of AllCharacters not in `set`.
fn complement(set: &CharSet, ctx: &Ctx) -> CharSet {
    if ctx.ignore_case {
        Folding::get(true).fixed_points().intersect(&set.complement(MAX_CODE_POINT))
    } else {
        set.complement(MAX_CODE_POINT)
    }
}

fn set_expr(expr: &SetExpr, ctx: &Ctx) -> ClassValue {
    match expr {
        SetExpr::Union(ops) => {
            let mut acc = ClassValue::default();
            for op in ops {
                let v = set_operand(op, ctx);
                acc.chars.add_set(&v.chars);
                for s in v.strings {
                    if !acc.strings.contains(&s) {
                        acc.strings.push(s);
                    }
                }
            }
            acc
        }
        SetExpr::Intersection(ops) => {
            let mut values = ops.iter().map(|op| set_operand(op, ctx));
            let mut acc = values.next().unwrap_or_default();
            for v in values {
                acc.chars = acc.chars.intersect(&v.chars);
                acc.strings.retain(|s| v.strings.contains(s));
            }
            acc
        }
        SetExpr::Subtraction(ops) => {
            let mut values = ops.iter().map(|op| set_operand(op, ctx));
            let mut acc = values.next().unwrap_or_default();
            for v in values {
                acc.chars = acc.chars.subtract(&v.chars);
                acc.strings.retain(|s| !v.strings.contains(s));
            }
            acc
        }
    }
}

fn set_operand(op: &SetOperand, ctx: &Ctx) -> ClassValue {
    let fold = |set: CharSet| if ctx.ignore_case { Folding::get(true).fold_set(&set) } else { set };
    let fold_string = |s: &[u32]| -> Vec<u32> {
        if ctx.ignore_case {
            s.iter().map(|&c| unicode::simple_fold(c)).collect()
        } else {
            s.to_vec()
        }
    };
    match op {
        SetOperand::Char(c) => ClassValue { chars: fold(CharSet::single(*c)), strings: Vec::new() },
        SetOperand::Range(lo, hi) => {
            ClassValue { chars: fold(CharSet::from_ranges(&[(*lo, *hi)])), strings: Vec::new() }
        }
        SetOperand::Escape(e) => {
            let (set, strings, negated) = match e {
                ClassEscape::Digit { negated } => (charset::digit_set(), Vec::new(), *negated),
                ClassEscape::Space { negated } => (charset::space_set(), Vec::new(), *negated),
                ClassEscape::Word { negated } => (charset::word_set(ctx.ignore_case), Vec::new(), *negated),
                ClassEscape::Property { negated, text, .. } => {
                    let (set, strings) = property_chars(text);
                    (set, strings, *negated)
                }
            };
            let set = fold(set);
            if negated {
                ClassValue { chars: complement(&set, ctx), strings: Vec::new() }
            } else {
                let mut value = ClassValue { chars: set, strings: Vec::new() };
                for s in strings {
                    value.strings.push(fold_string(&s));
                }
                value
            }
        }
        SetOperand::Strings(strings) => {
            let mut value = ClassValue::default();
            for s in strings {
                let s = fold_string(s);
                match s.as_slice() {
                    [c] => value.chars.add(*c),
                    _ => {
                        if !value.strings.contains(&s) {
                            value.strings.push(s)
                        }
                    }
                }
            }
            value
        }
        SetOperand::Nested(class) => set_class(class, ctx),
    }
}

/// The lowest and highest capture index inside `node`, if any.
fn capture_range(node: &Node) -> Option<(u32, u32)> {
    fn walk(node: &Node, acc: &mut Option<(u32, u32)>) {
        match node {
            Node::Group { capture, body } => {
                if let Some(n) = capture {
                    *acc = Some(match *acc {
                        Some((lo, hi)) => (lo.min(*n), hi.max(*n)),
                        None => (*n, *n),
                    });
                }
                walk(body, acc);
            }
            Node::Look { body, .. } | Node::Modifiers { body, .. } | Node::Repeat { body, .. } => walk(body, acc),
            Node::Cat(nodes) | Node::Alt(nodes) => nodes.iter().for_each(|n| walk(n, acc)),
            _ => {}
        }
    }
    let mut acc = None;
    walk(node, &mut acc);
    acc
}

/// Whether `node` can match without reading a character.
fn can_be_empty(node: &Node) -> bool {
    match node {
        Node::Char(_) | Node::Dot => false,
        // A v-mode class may hold the empty string.
        Node::Class(Class::Set(c)) => !c.negated && set_may_be_empty(&c.expr),
        Node::Class(Class::Items { .. }) => false,
        Node::Empty
        | Node::LineStart
        | Node::LineEnd
        | Node::WordBoundary { .. }
        | Node::Look { .. }
        | Node::BackRef(_)
        | Node::NamedRef(_) => true,
        Node::Group { body, .. } | Node::Modifiers { body, .. } => can_be_empty(body),
        Node::Repeat { body, min, .. } => *min == 0 || can_be_empty(body),
        Node::Cat(nodes) => nodes.iter().all(can_be_empty),
        Node::Alt(nodes) => nodes.iter().any(can_be_empty),
    }
}

fn set_may_be_empty(expr: &SetExpr) -> bool {
    // Conservative: strings (`\q{}`) anywhere may hold the empty string.
    fn operand(op: &SetOperand) -> bool {
        match op {
            SetOperand::Strings(s) => s.iter().any(|s| s.is_empty()),
            SetOperand::Nested(c) => !c.negated && set_may_be_empty(&c.expr),
            _ => false,
        }
    }
    match expr {
        SetExpr::Union(ops) | SetExpr::Intersection(ops) | SetExpr::Subtraction(ops) => ops.iter().any(operand),
    }
}

/// What the scan can use: a literal prefix, the possible first code units, an anchor.
fn scan(prog: &Program) -> Scan {
    let mut s = Scan::default();
    // The prefix: strings and plain characters read forwards before anything else.
    let mut pc = 0;
    loop {
        match prog.insns[pc] {
            Insn::Save(_) => pc += 1,
            Insn::Str { start, len, back: false } => {
                s.prefix.extend_from_slice(&prog.units[start as usize..(start + len) as usize]);
                pc += 1;
            }
            Insn::Test { test: Test::Char(c), back: false } if c <= 0xFFFF && !(0xD800..=0xDFFF).contains(&c) => {
                s.prefix.push(c as u16);
                pc += 1;
            }
            _ => break,
        }
    }
    // The code units at the first offsets of a match, by walking every path (each
    // position of the program at each offset once). `sets[k]` None: anything may be there.
    let mut sets: Vec<Option<CharSet>> = vec![Some(CharSet::new()); LOOK];
    let unknown_from =
        |sets: &mut Vec<Option<CharSet>>, from: usize| sets.iter_mut().skip(from).for_each(|k| *k = None);
    let add = |sets: &mut Vec<Option<CharSet>>, at: usize, units: &CharSet| {
        if let Some(Some(set)) = sets.get_mut(at) {
            set.add_set(units);
        }
    };
    let mut anchored = true;
    let mut visited = std::collections::HashSet::new();
    let mut work = vec![(0u32, 0usize)];
    while let Some((pc, off)) = work.pop() {
        if off >= LOOK || !visited.insert((pc, off)) {
            continue;
        }
        if visited.len() > 10_000 {
            unknown_from(&mut sets, 0);
            anchored = false;
            break;
        }
        let next = pc + 1;
        match prog.insns[pc as usize] {
            // A path through `^` matches only at 0, where the scan always tries.
            Insn::LineStart { multiline: false } => {}
            Insn::Test { test, back: false } => {
                anchored = false;
                add(&mut sets, off, &test_units(prog, test));
                if width_one(prog, test) {
                    work.push((next, off + 1));
                } else {
                    unknown_from(&mut sets, off + 1);
                }
            }
            Insn::Str { start, len, back: false } => {
                anchored = false;
                for i in 0..len as usize {
                    add(&mut sets, off + i, &CharSet::single(u32::from(prog.units[start as usize + i])));
                }
                work.push((next, off + len as usize));
            }
            Insn::Star { test, min, max, back: false, .. } => {
                anchored = false;
                let units = test_units(prog, test);
                if !width_one(prog, test) {
                    // What follows depends on the widths read.
                    add(&mut sets, off, &units);
                    unknown_from(&mut sets, off + 1);
                    if min == 0 {
                        work.push((next, off));
                    }
                } else {
                    for i in 0..(min as usize).min(LOOK) {
                        add(&mut sets, off + i, &units);
                    }
                    let at = off + min as usize;
                    if min == max {
                        work.push((next, at));
                    } else {
                        // At off + min: one more character or what follows; beyond, unknown.
                        add(&mut sets, at, &units);
                        unknown_from(&mut sets, at + 1);
                        work.push((next, at));
                    }
                }
            }
            Insn::Split { next, alt } => {
                work.push((next, off));
                work.push((alt, off));
            }
            Insn::Jump(to) => work.push((to, off)),
            // Back at the top after an iteration: the minimum may be met, so both ways.
            Insn::LoopTail { head, .. } => {
                work.push((head + 1, off));
                if let Insn::LoopHead { exit, .. } = prog.insns[head as usize] {
                    work.push((exit, off));
                }
            }
            Insn::Save(_) | Insn::Clear { .. } | Insn::Mark(_) | Insn::Progress(_) | Insn::LoopInit(_) => {
                work.push((next, off))
            }
            Insn::LineStart { multiline: true } | Insn::LineEnd { .. } | Insn::WordBoundary { .. } => {
                anchored = false;
                work.push((next, off));
            }
            // A lookaround reads nothing of the match: skip it (a superset).
            Insn::LookStart { end, .. } => {
                anchored = false;
                work.push((end, off));
            }
            Insn::LoopHead { min, exit, .. } => {
                work.push((next, off));
                if min == 0 {
                    work.push((exit, off));
                }
            }
            // The match may end here, or read what is not known here.
            _ => {
                anchored = false;
                unknown_from(&mut sets, off);
            }
        }
    }
    s.anchored = anchored;
    if anchored {
        return s;
    }
    // The most selective offset.
    let size = |set: &CharSet| set.ranges().iter().map(|&(lo, hi)| u64::from(hi - lo) + 1).sum::<u64>();
    let best = sets
        .iter()
        .enumerate()
        .filter_map(|(k, set)| Some((k, set.as_ref()?)))
        .min_by_key(|&(k, set)| (size(set), k))
        .filter(|&(_, set)| size(set) < u64::from(MAX_CODE_UNIT) + 1);
    if let Some((offset, set)) = best {
        let unit = match set.ranges() {
            [(lo, hi)] if lo == hi => Some(*lo as u16),
            _ => None,
        };
        s.probe = Some(Probe { offset, class: program::Class::new(set), unit });
        // The other offsets that rule out much, most selective first.
        let mut checks: Vec<(u64, usize, &CharSet)> = sets
            .iter()
            .enumerate()
            .filter_map(|(k, set)| Some((size(set.as_ref()?), k, set.as_ref()?)))
            .filter(|&(n, k, _)| k != offset && n <= 256)
            .collect();
        checks.sort_by_key(|&(n, k, _)| (n, k));
        s.checks = checks.into_iter().map(|(_, k, set)| (k, program::Class::new(set))).collect();
    }
    s
}

/// How many code units from a match's start `scan` looks at.
const LOOK: usize = 4;

/// Whether a character passing `test` is always one code unit.
fn width_one(prog: &Program, test: Test) -> bool {
    if !prog.unicode {
        return true;
    }
    match test {
        Test::Char(c) => c <= MAX_CODE_UNIT,
        Test::Class(i) => prog.classes[i as usize].to_set().ranges().last().is_none_or(|&(_, hi)| hi <= MAX_CODE_UNIT),
        Test::Any | Test::NotLineTerminator => false,
    }
}

/// The code units that can begin a character passing `test`: beyond the BMP, their lead
/// surrogates.
fn test_units(prog: &Program, test: Test) -> CharSet {
    let set = match test {
        Test::Char(c) => CharSet::single(c),
        Test::Class(i) => prog.classes[i as usize].to_set(),
        Test::Any => return CharSet::from_ranges(&[(0, MAX_CODE_UNIT)]),
        Test::NotLineTerminator => charset::line_terminator_set().complement(MAX_CODE_UNIT),
    };
    let mut units = CharSet::new();
    for &(lo, hi) in set.ranges() {
        if lo <= MAX_CODE_UNIT {
            units.add_range(lo, hi.min(MAX_CODE_UNIT));
        }
        if hi > MAX_CODE_UNIT {
            let lead = |c: u32| 0xD800 + ((c - 0x10000) >> 10);
            units.add_range(lead(lo.max(0x10000)), lead(hi));
        }
    }
    units
}
