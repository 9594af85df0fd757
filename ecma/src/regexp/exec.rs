//! The backtracking matcher: runs a [`Program`] over a subject of one-byte (Latin-1) or
//! two-byte (UTF-16) code units.
//!
//! Choice points and undo records share one explicit stack (no Rust recursion, however
//! deep the pattern or long the input). Every write to a capture slot or register pushes
//! the old value, so backtracking to a choice point restores exactly the state it saw:
//! a loop nested in another one gets its counter back when the outer loop backtracks.
//! Lookarounds are atomic: when a positive one succeeds, the choice points its body left
//! are dropped and its undo records kept.
//!
//! The matcher counts steps (instructions run and choice points resumed) and polls the
//! interrupt every [`POLL_INTERVAL`] steps, so that catastrophic backtracking stops when
//! the embedder asks; the stack is bounded by [`MAX_STACK`] entries.

use super::program::{Class, Insn, Program, Test};
use super::unicode::Folding;
use super::ExecError;

/// Steps between two polls of the interrupt.
const POLL_INTERVAL: u32 = 1 << 14;

/// The most stack entries a match may use (about 400 MB); beyond, it fails with
/// [`ExecError::StackOverflow`].
pub(super) const MAX_STACK: usize = 1 << 24;

/// The code units of a subject.
pub(super) trait Units: Copy {
    fn len(self) -> usize;
    fn at(self, i: usize) -> u16;
    /// The first index at or after `from` holding `unit`.
    fn find_unit(self, unit: u16, from: usize) -> Option<usize>;
}

impl Units for &[u8] {
    #[inline]
    fn len(self) -> usize {
        <[u8]>::len(self)
    }
    #[inline]
    fn at(self, i: usize) -> u16 {
        u16::from(self[i])
    }
    fn find_unit(self, unit: u16, from: usize) -> Option<usize> {
        let byte = u8::try_from(unit).ok()?;
        memchr::memchr(byte, &self[from..]).map(|i| i + from)
    }
}

impl Units for &[u16] {
    #[inline]
    fn len(self) -> usize {
        <[u16]>::len(self)
    }
    #[inline]
    fn at(self, i: usize) -> u16 {
        self[i]
    }
    fn find_unit(self, unit: u16, from: usize) -> Option<usize> {
        self[from..].iter().position(|&u| u == unit).map(|i| i + from)
    }
}

/// An entry of the backtracking stack.
#[derive(Clone, Copy, Debug)]
enum Frame {
    /// A choice point: resume at `pc` from `pos`.
    Retry { pc: u32, pos: usize },
    /// Undo: capture slot `slot` had `old`.
    Slot { slot: u32, old: usize },
    /// Undo: register `reg` had `old`.
    Reg { reg: u32, old: usize },
    /// A greedy single-character loop (its `Star` at `pc - 1`) that can give back
    /// characters down to `min_pos`; it stands at `pos`.
    Greedy { pc: u32, min_pos: usize, pos: usize },
    /// A lazy single-character loop (its `Star` at `pc - 1`) that can take up to `left`
    /// more characters; it stands at `pos`.
    Lazy { pc: u32, pos: usize, left: u32 },
    /// A lookaround in progress, started at `pos`; a negative one succeeds (at `end`) when
    /// backtracking reaches this entry.
    Look { end: u32, pos: usize, negated: bool },
}

/// No value in a capture slot.
const UNSET: usize = usize::MAX;

pub(super) struct Matcher<'p, 'i, U: Units> {
    prog: &'p Program,
    input: U,
    slots: Vec<usize>,
    regs: Vec<usize>,
    stack: Vec<Frame>,
    steps: u32,
    interrupt: &'i dyn Fn() -> bool,
}

/// The buffers of the last matcher on this thread, kept so that a match allocates nothing
/// once they have grown (matching never calls back into JavaScript, so one set suffices;
/// a nested matcher would just allocate its own).
struct Buffers {
    slots: Vec<usize>,
    regs: Vec<usize>,
    stack: Vec<Frame>,
}

thread_local! {
    static BUFFERS: std::cell::Cell<Option<Buffers>> = const { std::cell::Cell::new(None) };
}

/// Stacks bigger than this are not kept for the next match.
const KEEP_STACK: usize = 1 << 16;

impl<'p, 'i, U: Units> Matcher<'p, 'i, U> {
    pub(super) fn new(prog: &'p Program, input: U, interrupt: &'i dyn Fn() -> bool) -> Self {
        let Buffers { mut slots, mut regs, mut stack } = BUFFERS.with(|b| b.take()).unwrap_or_else(|| Buffers {
            slots: Vec::new(),
            regs: Vec::new(),
            stack: Vec::new(),
        });
        slots.clear();
        slots.resize(prog.slots, UNSET);
        regs.clear();
        regs.resize(prog.regs, 0);
        stack.clear();
        Matcher { prog, input, slots, regs, stack, steps: 0, interrupt }
    }

    /// The leftmost match starting at or after `from` (only at `from` when `sticky`): the
    /// capture slots (start and end of each group; `usize::MAX` unset).
    pub(super) fn find(&mut self, from: usize, sticky: bool) -> Result<Option<&[usize]>, ExecError> {
        let len = self.input.len();
        let scan = &self.prog.scan;
        let mut pos = from;
        loop {
            // At position 0 the scan tries anyway: paths that begin with `^` add nothing to
            // `first`.
            if !sticky && pos > 0 {
                if scan.anchored {
                    return Ok(None);
                }
                // Skip to a position where a match can start.
                if let Some(&unit) = scan.prefix.first() {
                    match self.input.find_unit(unit, pos) {
                        Some(p) => pos = p,
                        None => return Ok(None),
                    }
                } else if let Some(probe) = &scan.probe {
                    let k = probe.offset;
                    loop {
                        if pos + k >= len {
                            return Ok(None);
                        }
                        if let Some(unit) = probe.unit {
                            match self.input.find_unit(unit, pos + k) {
                                Some(p) => pos = p - k,
                                None => return Ok(None),
                            }
                        } else {
                            while pos + k < len && !probe.class.contains(u32::from(self.input.at(pos + k))) {
                                pos += 1;
                            }
                            if pos + k >= len {
                                return Ok(None);
                            }
                        }
                        // In Unicode mode, not at the trail half of a pair; and what is
                        // known of the other offsets.
                        let inside_pair = self.prog.unicode
                            && is_trail(self.input.at(pos))
                            && pos > from
                            && is_lead(self.input.at(pos - 1));
                        let ruled_out = || {
                            scan.checks
                                .iter()
                                .any(|(j, class)| pos + j >= len || !class.contains(u32::from(self.input.at(pos + j))))
                        };
                        if inside_pair || ruled_out() {
                            pos += 1;
                            continue;
                        }
                        break;
                    }
                }
            }
            if self.attempt(pos)? {
                self.slots[0] = pos;
                return Ok(Some(&self.slots));
            }
            if sticky || pos >= len {
                return Ok(None);
            }
            pos += self.width_at(pos);
            self.tick()?;
        }
    }

    /// The width in code units of the character at `pos` (< len).
    #[inline]
    fn width_at(&self, pos: usize) -> usize {
        if self.prog.unicode
            && is_lead(self.input.at(pos))
            && pos + 1 < self.input.len()
            && is_trail(self.input.at(pos + 1))
        {
            2
        } else {
            1
        }
    }

    #[inline]
    fn tick(&mut self) -> Result<(), ExecError> {
        self.steps += 1;
        if self.steps >= POLL_INTERVAL {
            self.steps = 0;
            if (self.interrupt)() {
                return Err(ExecError::Interrupted);
            }
        }
        Ok(())
    }

    /// The character at `pos` and its width, reading forwards, or None at the end.
    #[inline]
    fn next_char(&self, pos: usize) -> Option<(u32, usize)> {
        if pos >= self.input.len() {
            return None;
        }
        let u = self.input.at(pos);
        if self.prog.unicode && is_lead(u) && pos + 1 < self.input.len() {
            let t = self.input.at(pos + 1);
            if is_trail(t) {
                return Some((combine(u, t), 2));
            }
        }
        Some((u32::from(u), 1))
    }

    /// The character ending at `pos` and its width, reading backwards, or None at the start.
    #[inline]
    fn prev_char(&self, pos: usize) -> Option<(u32, usize)> {
        if pos == 0 {
            return None;
        }
        let u = self.input.at(pos - 1);
        if self.prog.unicode && is_trail(u) && pos >= 2 {
            let l = self.input.at(pos - 2);
            if is_lead(l) {
                return Some((combine(l, u), 2));
            }
        }
        Some((u32::from(u), 1))
    }

    #[inline]
    fn passes(&self, test: Test, c: u32) -> bool {
        match test {
            Test::Char(x) => c == x,
            Test::Class(i) => class(self.prog, i).contains(c),
            Test::Any => true,
            Test::NotLineTerminator => !is_line_terminator(c),
        }
    }

    /// Reads one character passing `test` at `pos`: the new position.
    #[inline]
    fn step(&self, test: Test, pos: usize, back: bool) -> Option<usize> {
        let (c, w) = if back { self.prev_char(pos)? } else { self.next_char(pos)? };
        if !self.passes(test, c) {
            return None;
        }
        Some(if back { pos - w } else { pos + w })
    }

    fn push(&mut self, frame: Frame) -> Result<(), ExecError> {
        if self.stack.len() >= MAX_STACK {
            return Err(ExecError::StackOverflow);
        }
        self.stack.push(frame);
        Ok(())
    }

    fn set_slot(&mut self, slot: u32, value: usize) -> Result<(), ExecError> {
        let old = std::mem::replace(&mut self.slots[slot as usize], value);
        self.push(Frame::Slot { slot, old })
    }

    fn set_reg(&mut self, reg: u32, value: usize) -> Result<(), ExecError> {
        let old = std::mem::replace(&mut self.regs[reg as usize], value);
        self.push(Frame::Reg { reg, old })
    }

    /// One match attempt at `start`: true if it matched (slots hold the captures, slot 1
    /// the end).
    fn attempt(&mut self, start: usize) -> Result<bool, ExecError> {
        // A failed attempt pops every entry, undoing every write: the slots are unset again.
        debug_assert!(self.stack.is_empty() && self.slots.iter().all(|&s| s == UNSET));
        let mut pc = 0u32;
        let mut pos = start;
        loop {
            self.tick()?;
            let ok = match self.prog.insns[pc as usize] {
                Insn::Test { test, back } => match self.step(test, pos, back) {
                    Some(p) => {
                        pos = p;
                        pc += 1;
                        true
                    }
                    None => false,
                },
                Insn::Str { start: s, len, back } => {
                    let units = &self.prog.units[s as usize..(s + len) as usize];
                    let n = units.len();
                    let at = if back { pos.checked_sub(n) } else { Some(pos).filter(|p| p + n <= self.input.len()) };
                    match at {
                        Some(at) if units.iter().enumerate().all(|(k, &u)| self.input.at(at + k) == u) => {
                            pos = if back { at } else { at + n };
                            pc += 1;
                            true
                        }
                        _ => false,
                    }
                }
                Insn::Split { next, alt } => {
                    self.push(Frame::Retry { pc: alt, pos })?;
                    pc = next;
                    true
                }
                Insn::Jump(to) => {
                    pc = to;
                    true
                }
                Insn::Save(slot) => {
                    self.set_slot(slot, pos)?;
                    pc += 1;
                    true
                }
                Insn::Clear { from, to } => {
                    for slot in from..to {
                        if self.slots[slot as usize] != UNSET {
                            self.set_slot(slot, UNSET)?;
                        }
                    }
                    pc += 1;
                    true
                }
                Insn::Mark(reg) => {
                    self.set_reg(reg, pos)?;
                    pc += 1;
                    true
                }
                Insn::Progress(reg) => {
                    pc += 1;
                    pos != self.regs[reg as usize]
                }
                Insn::LoopInit(reg) => {
                    self.set_reg(reg, 0)?;
                    pc += 1;
                    true
                }
                Insn::LoopHead { reg, min, max, greedy, exit } => {
                    let count = self.regs[reg as usize];
                    if count < min as usize {
                        pc += 1;
                    } else if count >= max as usize {
                        pc = exit;
                    } else if greedy {
                        self.push(Frame::Retry { pc: exit, pos })?;
                        pc += 1;
                    } else {
                        self.push(Frame::Retry { pc: pc + 1, pos })?;
                        pc = exit;
                    }
                    true
                }
                Insn::LoopTail { reg, mark, min, check, head } => {
                    let count = self.regs[reg as usize];
                    if check && count >= min as usize && pos == self.regs[mark as usize] {
                        false
                    } else {
                        self.set_reg(reg, count + 1)?;
                        pc = head;
                        true
                    }
                }
                Insn::Star { test, min, max, greedy, back } => {
                    match self.star(test, min, max, greedy, back, pc, pos)? {
                        Some(p) => {
                            pos = p;
                            pc += 1;
                            true
                        }
                        None => false,
                    }
                }
                Insn::LineStart { multiline } => {
                    pc += 1;
                    pos == 0 || (multiline && is_line_terminator(u32::from(self.input.at(pos - 1))))
                }
                Insn::LineEnd { multiline } => {
                    pc += 1;
                    pos == self.input.len() || (multiline && is_line_terminator(u32::from(self.input.at(pos))))
                }
                Insn::WordBoundary { negated, unicode_ignore_case } => {
                    let word = |p: usize| is_word_char(u32::from(self.input.at(p)), unicode_ignore_case);
                    let a = pos > 0 && word(pos - 1);
                    let b = pos < self.input.len() && word(pos);
                    pc += 1;
                    (a != b) != negated
                }
                Insn::BackRef { start, count, ignore_case, back } => {
                    match self.backref(start, count, ignore_case, back, pos) {
                        Some(p) => {
                            pos = p;
                            pc += 1;
                            true
                        }
                        None => false,
                    }
                }
                Insn::LookStart { reg, negated, end } => {
                    // The Look entry goes above the register's undo record.
                    let at = self.stack.len() + 1;
                    self.set_reg(reg, at)?;
                    self.push(Frame::Look { end, pos, negated })?;
                    pc += 1;
                    true
                }
                Insn::LookEnd { reg, negated } => {
                    // The body matched.
                    let at = self.regs[reg as usize];
                    let Frame::Look { pos: look_pos, end, .. } = self.stack[at] else {
                        unreachable!("lookaround register does not point at its entry");
                    };
                    if negated {
                        // Undo what the body did, then fail past the lookaround.
                        self.unwind_to(at);
                        self.stack.truncate(at);
                        false
                    } else {
                        // Keep the body's undo records, drop its choice points.
                        let mut w = at;
                        for r in at + 1..self.stack.len() {
                            let f = self.stack[r];
                            if matches!(f, Frame::Slot { .. } | Frame::Reg { .. }) {
                                self.stack[w] = f;
                                w += 1;
                            }
                        }
                        self.stack.truncate(w);
                        pos = look_pos;
                        pc = end;
                        true
                    }
                }
                Insn::Match => {
                    self.slots[1] = pos;
                    return Ok(true);
                }
            };
            if ok {
                continue;
            }
            // Backtrack to the newest choice point.
            loop {
                let Some(frame) = self.stack.pop() else {
                    return Ok(false);
                };
                match frame {
                    Frame::Retry { pc: p, pos: q } => {
                        pc = p;
                        pos = q;
                        break;
                    }
                    Frame::Slot { slot, old } => self.slots[slot as usize] = old,
                    Frame::Reg { reg, old } => self.regs[reg as usize] = old,
                    Frame::Greedy { pc: p, min_pos, pos: q } => {
                        let Insn::Star { back, .. } = self.prog.insns[p as usize - 1] else {
                            unreachable!("greedy entry without its loop");
                        };
                        // Give back one character; forwards, as many as it takes to reach
                        // the unit the continuation must read first, if it is known.
                        let mut q = if back {
                            q + self.next_char(q).map_or(1, |(_, w)| w)
                        } else {
                            q - self.prev_char(q).map_or(1, |(_, w)| w)
                        };
                        if let (false, Some(unit)) = (back, self.next_unit(p)) {
                            while q > min_pos && self.input.at(q) != unit {
                                q -= self.prev_char(q).map_or(1, |(_, w)| w);
                            }
                        }
                        if q != min_pos {
                            self.stack.push(Frame::Greedy { pc: p, min_pos, pos: q });
                        }
                        pc = p;
                        pos = q;
                        break;
                    }
                    Frame::Lazy { pc: p, pos: q, left } => {
                        let Insn::Star { test, back, .. } = self.prog.insns[p as usize - 1] else {
                            unreachable!("lazy entry without its loop");
                        };
                        // Take one more character.
                        if let Some(q) = self.step(test, q, back) {
                            if left > 1 {
                                self.stack.push(Frame::Lazy { pc: p, pos: q, left: left - 1 });
                            }
                            pc = p;
                            pos = q;
                            break;
                        }
                    }
                    Frame::Look { end, pos: q, negated } => {
                        if negated {
                            // The body failed everywhere: the negative lookaround holds.
                            pc = end;
                            pos = q;
                            break;
                        }
                    }
                }
                self.tick()?;
            }
        }
    }

    /// The code unit the instruction at `pc` must read first, reading forwards, if it is
    /// one known unit that is not a surrogate (so never half of a pair).
    #[inline]
    fn next_unit(&self, pc: u32) -> Option<u16> {
        let unit = match self.prog.insns[pc as usize] {
            Insn::Test { test: Test::Char(c), back: false } => u16::try_from(c).ok()?,
            Insn::Str { start, back: false, .. } => self.prog.units[start as usize],
            _ => return None,
        };
        (!(0xD800..=0xDFFF).contains(&unit)).then_some(unit)
    }

    /// Pops entries down to `len`, applying undo records.
    fn unwind_to(&mut self, len: usize) {
        while self.stack.len() > len {
            match self.stack.pop() {
                Some(Frame::Slot { slot, old }) => self.slots[slot as usize] = old,
                Some(Frame::Reg { reg, old }) => self.regs[reg as usize] = old,
                _ => {}
            }
        }
    }

    /// A single-character loop at `pos`: the position after its first choice, or None.
    #[allow(clippy::too_many_arguments)]
    fn star(
        &mut self,
        test: Test,
        min: u32,
        max: u32,
        greedy: bool,
        back: bool,
        pc: u32,
        pos: usize,
    ) -> Result<Option<usize>, ExecError> {
        let mut p = pos;
        for _ in 0..min {
            match self.step(test, p, back) {
                Some(q) => p = q,
                None => return Ok(None),
            }
        }
        if greedy {
            let min_pos = p;
            let mut n = min;
            while n < max {
                match self.step(test, p, back) {
                    Some(q) => p = q,
                    None => break,
                }
                n += 1;
            }
            if p != min_pos {
                self.push(Frame::Greedy { pc: pc + 1, min_pos, pos: p })?;
            }
        } else if max > min {
            self.push(Frame::Lazy { pc: pc + 1, pos: p, left: max - min })?;
        }
        Ok(Some(p))
    }

    /// A backreference at `pos`: the position after it, or None if it does not match.
    fn backref(&self, start: u32, count: u32, ignore_case: bool, back: bool, pos: usize) -> Option<usize> {
        let groups = &self.prog.groups[start as usize..(start + count) as usize];
        let Some((s, e)) = groups.iter().find_map(|&g| {
            let (s, e) = (self.slots[2 * g as usize], self.slots[2 * g as usize + 1]);
            (s != UNSET && e != UNSET).then_some((s, e))
        }) else {
            // A group that did not participate matches the empty string.
            return Some(pos);
        };
        let n = e - s;
        let at = if back { pos.checked_sub(n)? } else { pos };
        if at + n > self.input.len() {
            return None;
        }
        if !ignore_case {
            return (0..n).all(|k| self.input.at(s + k) == self.input.at(at + k)).then_some(if back {
                at
            } else {
                at + n
            });
        }
        // Character by character, Canonicalize on both sides.
        let fold = Folding::get(self.prog.unicode);
        let (mut i, mut j) = (s, at);
        while i < e {
            let (a, wa) = self.next_char(i)?;
            let (b, wb) = self.next_char(j)?;
            if j + wb > at + n || fold.canon(a) != fold.canon(b) {
                return None;
            }
            i += wa;
            j += wb;
        }
        (j == at + n).then_some(if back { at } else { at + n })
    }
}

impl<U: Units> Drop for Matcher<'_, '_, U> {
    fn drop(&mut self) {
        if self.stack.capacity() <= KEEP_STACK {
            let buffers = Buffers {
                slots: std::mem::take(&mut self.slots),
                regs: std::mem::take(&mut self.regs),
                stack: std::mem::take(&mut self.stack),
            };
            BUFFERS.with(|b| b.set(Some(buffers)));
        }
    }
}

#[inline]
fn class(prog: &Program, i: u32) -> &Class {
    &prog.classes[i as usize]
}

#[inline]
fn is_lead(u: u16) -> bool {
    (0xD800..=0xDBFF).contains(&u)
}

#[inline]
fn is_trail(u: u16) -> bool {
    (0xDC00..=0xDFFF).contains(&u)
}

#[inline]
fn combine(lead: u16, trail: u16) -> u32 {
    0x10000 + ((u32::from(lead) - 0xD800) << 10) + (u32::from(trail) - 0xDC00)
}

#[inline]
fn is_line_terminator(c: u32) -> bool {
    c == 0x0A || c == 0x0D || c == 0x2028 || c == 0x2029
}

/// 22.2.2.9.4 WordCharacters.
#[inline]
fn is_word_char(c: u32, unicode_ignore_case: bool) -> bool {
    match char::from_u32(c) {
        Some(ch) if ch.is_ascii() => ch.is_ascii_alphanumeric() || ch == '_',
        _ => unicode_ignore_case && (c == 0x017F || c == 0x212A),
    }
}
