//! Pattern parser (22.2.1 Patterns, with Annex B.1.2 for legacy mode): checks every early
//! error, reports the first one with V8's wording, and builds the [`Node`] tree.
//!
//! The input is a list of characters: code points in Unicode mode (`u` or `v`), code units
//! otherwise. Modes follow the grammar parameters: `unicode` is [UnicodeMode], `sets` is
//! [UnicodeSetsMode], and `named_groups` is [NamedCaptureGroups], which legacy mode turns on
//! only when the pattern has a group name (B.1.2.9 ParsePattern). Character classes live
//! in `class.rs`.

use super::ast::{ClassEscape, ModFlags, Node};

/// Nesting limit for groups and classes: deeper patterns are refused rather than risking
/// the native stack in this parser and in the compiler, which both recurse.
const MAX_DEPTH: u32 = 250;
/// The most capturing groups a pattern may have (V8's limit is about the same).
const MAX_GROUPS: u32 = 65534;

pub(super) type PResult<T> = Result<T, &'static str>;

/// Error messages, worded as V8 words them.
pub(super) mod msg {
    pub const UNTERMINATED_GROUP: &str = "Unterminated group";
    pub const UNMATCHED_PAREN: &str = "Unmatched ')'";
    pub const ESCAPE_AT_END: &str = "\\ at end of pattern";
    pub const INVALID_PROPERTY_NAME: &str = "Invalid property name";
    pub const INVALID_ESCAPE: &str = "Invalid escape";
    pub const INVALID_DECIMAL_ESCAPE: &str = "Invalid decimal escape";
    pub const INVALID_UNICODE_ESCAPE: &str = "Invalid Unicode escape";
    pub const NOTHING_TO_REPEAT: &str = "Nothing to repeat";
    pub const LONE_QUANTIFIER_BRACKETS: &str = "Lone quantifier brackets";
    pub const QUANTIFIER_OUT_OF_ORDER: &str = "numbers out of order in {} quantifier";
    pub const INCOMPLETE_QUANTIFIER: &str = "Incomplete quantifier";
    pub const INVALID_QUANTIFIER: &str = "Invalid quantifier";
    pub const INVALID_GROUP: &str = "Invalid group";
    pub const TOO_MANY_CAPTURES: &str = "Too many captures";
    pub const INVALID_CAPTURE_GROUP_NAME: &str = "Invalid capture group name";
    pub const DUPLICATE_CAPTURE_GROUP_NAME: &str = "Duplicate capture group name";
    pub const INVALID_NAMED_REFERENCE: &str = "Invalid named reference";
    pub const INVALID_NAMED_CAPTURE_REFERENCED: &str = "Invalid named capture referenced";
    pub const INVALID_CLASS_ESCAPE: &str = "Invalid class escape";
    pub const INVALID_CLASS_PROPERTY_NAME: &str = "Invalid property name in character class";
    pub const INVALID_CHARACTER_CLASS: &str = "Invalid character class";
    pub const UNTERMINATED_CHARACTER_CLASS: &str = "Unterminated character class";
    pub const CLASS_RANGE_OUT_OF_ORDER: &str = "Range out of order in character class";
    pub const INVALID_SET_OPERATION: &str = "Invalid set operation in character class";
    pub const INVALID_CHARACTER_IN_CLASS: &str = "Invalid character in character class";
    pub const NEGATED_CLASS_WITH_STRINGS: &str = "Negated character class may contain strings";
    pub const TOO_LARGE: &str = "Regular expression too large";
}

/// The result of parsing a pattern.
pub(super) struct Parsed {
    pub node: Node,
    /// Number of capturing groups.
    pub group_count: u32,
    /// (name, capture index) of every named group, in pattern order.
    pub names: Vec<(Vec<u32>, u32)>,
}

/// A named group and the alternatives it sits in, for the duplicate-name rule.
struct NameDef {
    name: Vec<u32>,
    index: u32,
    /// (disjunction id, alternative index) from the outermost disjunction inwards.
    path: Vec<(u32, u32)>,
}

pub(super) struct Parser<'a> {
    pub(super) src: &'a [u32],
    pub(super) pos: usize,
    pub(super) unicode: bool,
    pub(super) sets: bool,
    pub(super) named_groups: bool,
    /// CountLeftCapturingParensWithin(pattern): decides `\N` in legacy mode.
    total_groups: u32,
    groups: u32,
    names: Vec<NameDef>,
    alt_path: Vec<(u32, u32)>,
    next_disjunction: u32,
    pub(super) depth: u32,
}

/// Parses a pattern. `unicode` is either Unicode flag, `sets` the `v` flag.
pub(super) fn parse(src: &[u32], unicode: bool, sets: bool) -> PResult<Parsed> {
    let (total_groups, has_names) = scan_groups(src, sets);
    let mut p = Parser {
        src,
        pos: 0,
        unicode,
        sets,
        named_groups: unicode || has_names,
        total_groups,
        groups: 0,
        names: Vec::new(),
        alt_path: Vec::new(),
        next_disjunction: 0,
        depth: 0,
    };
    let mut node = p.disjunction()?;
    if p.pos < src.len() {
        // disjunction() stops only at the end or at a ')' it did not open.
        return Err(msg::UNMATCHED_PAREN);
    }
    let names: Vec<(Vec<u32>, u32)> = p.names.into_iter().map(|d| (d.name, d.index)).collect();
    resolve_named_refs(&mut node, &names)?;
    drop_self_references(&mut node, &mut Vec::new());
    Ok(Parsed { node, group_count: p.groups, names })
}

/// Counts the capturing groups and tells whether one is named, without parsing: `(` not
/// followed by `?`, or followed by `?<` and a name, outside classes and escapes.
fn scan_groups(src: &[u32], sets: bool) -> (u32, bool) {
    let (mut count, mut named) = (0u32, false);
    let mut class_depth = 0u32;
    let mut i = 0;
    while i < src.len() {
        let c = src[i];
        if c == u32::from(b'\\') {
            i += 2;
            continue;
        }
        if class_depth > 0 {
            if c == u32::from(b']') {
                class_depth -= 1;
            } else if sets && c == u32::from(b'[') {
                class_depth += 1;
            }
        } else if c == u32::from(b'[') {
            class_depth = 1;
        } else if c == u32::from(b'(') {
            let at = |k: usize| src.get(i + k).copied();
            if at(1) != Some(u32::from(b'?')) {
                count = count.saturating_add(1);
            } else if at(2) == Some(u32::from(b'<'))
                && !matches!(at(3), Some(c) if c == u32::from(b'=') || c == u32::from(b'!'))
            {
                count = count.saturating_add(1);
                named = true;
            }
        }
        i += 1;
    }
    (count, named)
}

/// MightBothParticipate: false only when the two groups sit in different alternatives of
/// one disjunction.
fn might_both_participate(a: &[(u32, u32)], b: &[(u32, u32)]) -> bool {
    for (x, y) in a.iter().zip(b) {
        if x.0 != y.0 {
            return true;
        }
        if x.1 != y.1 {
            return false;
        }
    }
    true
}

fn resolve_named_refs(node: &mut Node, names: &[(Vec<u32>, u32)]) -> PResult<()> {
    match node {
        Node::NamedRef(name) => {
            let groups: Vec<u32> = names.iter().filter(|(n, _)| n == name).map(|&(_, index)| index).collect();
            if groups.is_empty() {
                return Err(msg::INVALID_NAMED_CAPTURE_REFERENCED);
            }
            *node = Node::BackRef(groups);
            Ok(())
        }
        Node::Look { body, .. }
        | Node::Group { body, .. }
        | Node::Modifiers { body, .. }
        | Node::Repeat { body, .. } => resolve_named_refs(body, names),
        Node::Cat(nodes) | Node::Alt(nodes) => nodes.iter_mut().try_for_each(|n| resolve_named_refs(n, names)),
        _ => Ok(()),
    }
}

/// A backreference inside the group it refers to always matches the empty string: the
/// group is undefined there (not yet closed, or reset by RepeatMatcher at each iteration of
/// an enclosing quantifier).
fn drop_self_references(node: &mut Node, open: &mut Vec<u32>) {
    match node {
        Node::BackRef(groups) => {
            groups.retain(|g| !open.contains(g));
            if groups.is_empty() {
                *node = Node::Empty;
            }
        }
        Node::Group { capture, body } => {
            if let Some(index) = capture {
                open.push(*index);
            }
            drop_self_references(body, open);
            if capture.is_some() {
                open.pop();
            }
        }
        Node::Look { body, .. } | Node::Modifiers { body, .. } | Node::Repeat { body, .. } => {
            drop_self_references(body, open)
        }
        Node::Cat(nodes) | Node::Alt(nodes) => nodes.iter_mut().for_each(|n| drop_self_references(n, open)),
        _ => {}
    }
}

pub(super) fn is_syntax_char(c: u32) -> bool {
    matches!(
        char::from_u32(c),
        Some('^' | '$' | '\\' | '.' | '*' | '+' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '|')
    )
}

pub(super) fn hex_value(c: u32) -> Option<u32> {
    char::from_u32(c).and_then(|c| c.to_digit(16))
}

fn is_lead_surrogate(c: u32) -> bool {
    (0xD800..=0xDBFF).contains(&c)
}

fn is_trail_surrogate(c: u32) -> bool {
    (0xDC00..=0xDFFF).contains(&c)
}

fn combine_surrogates(lead: u32, trail: u32) -> u32 {
    0x10000 + ((lead - 0xD800) << 10) + (trail - 0xDC00)
}

/// IdentifierStartChar: ID_Start, `$` or `_`.
fn is_identifier_start(c: u32) -> bool {
    match char::from_u32(c) {
        Some(ch) if ch.is_ascii() => ch.is_ascii_alphabetic() || ch == '$' || ch == '_',
        _ => super::unicode::is_id_start(c),
    }
}

/// IdentifierPartChar: ID_Continue, `$`, ZWNJ or ZWJ.
fn is_identifier_part(c: u32) -> bool {
    match char::from_u32(c) {
        Some(ch) if ch.is_ascii() => ch.is_ascii_alphanumeric() || ch == '$' || ch == '_',
        _ => c == 0x200C || c == 0x200D || super::unicode::is_id_continue(c),
    }
}

impl Parser<'_> {
    pub(super) fn peek(&self) -> Option<u32> {
        self.src.get(self.pos).copied()
    }

    pub(super) fn peek_at(&self, k: usize) -> Option<u32> {
        self.src.get(self.pos + k).copied()
    }

    pub(super) fn peek_is(&self, c: u8) -> bool {
        self.peek() == Some(u32::from(c))
    }

    pub(super) fn looking_at(&self, s: &str) -> bool {
        s.bytes().enumerate().all(|(k, b)| self.peek_at(k) == Some(u32::from(b)))
    }

    pub(super) fn eat(&mut self, c: u8) -> bool {
        if self.peek_is(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    pub(super) fn eat_str(&mut self, s: &str) -> bool {
        if self.looking_at(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    pub(super) fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(msg::TOO_LARGE);
        }
        Ok(())
    }

    /// Disjunction :: Alternative | Alternative `|` Disjunction
    fn disjunction(&mut self) -> PResult<Node> {
        self.enter()?;
        let id = self.next_disjunction;
        self.next_disjunction += 1;
        let mut alternatives = Vec::new();
        loop {
            self.alt_path.push((id, alternatives.len() as u32));
            let alternative = self.alternative();
            self.alt_path.pop();
            alternatives.push(alternative?);
            if !self.eat(b'|') {
                break;
            }
        }
        self.depth -= 1;
        Ok(if alternatives.len() == 1 { alternatives.pop().unwrap_or(Node::Empty) } else { Node::Alt(alternatives) })
    }

    /// Alternative :: [empty] | Alternative Term
    fn alternative(&mut self) -> PResult<Node> {
        let mut terms = Vec::new();
        while let Some(c) = self.peek() {
            if c == u32::from(b'|') || c == u32::from(b')') {
                break;
            }
            terms.push(self.term()?);
        }
        Ok(match terms.len() {
            0 => Node::Empty,
            1 => terms.pop().unwrap_or(Node::Empty),
            _ => Node::Cat(terms),
        })
    }

    /// Term: an assertion, or an atom with an optional quantifier (Annex B adds quantified
    /// lookaheads and ExtendedAtom in legacy mode).
    fn term(&mut self) -> PResult<Node> {
        let Some(c) = self.peek() else {
            return Ok(Node::Empty);
        };
        // What may follow: a quantifier (Ok), nothing (error message), and the atom.
        let (atom, quantifiable): (Node, Result<(), &'static str>) = match char::from_u32(c) {
            Some('^') => {
                self.pos += 1;
                (Node::LineStart, Err(msg::NOTHING_TO_REPEAT))
            }
            Some('$') => {
                self.pos += 1;
                (Node::LineEnd, Err(msg::NOTHING_TO_REPEAT))
            }
            Some('\\') if matches!(self.peek_at(1), Some(c) if c == u32::from(b'b') || c == u32::from(b'B')) => {
                let negated = self.peek_at(1) == Some(u32::from(b'B'));
                self.pos += 2;
                (Node::WordBoundary { negated }, Err(msg::NOTHING_TO_REPEAT))
            }
            Some('(') if self.looking_at("(?=") || self.looking_at("(?!") => {
                let negated = self.peek_at(2) == Some(u32::from(b'!'));
                self.pos += 3;
                let body = self.group_body()?;
                let look = Node::Look { behind: false, negated, body: Box::new(body) };
                // B.1.2: QuantifiableAssertion in legacy mode only.
                (look, if self.unicode { Err(msg::INVALID_QUANTIFIER) } else { Ok(()) })
            }
            Some('(') if self.looking_at("(?<=") || self.looking_at("(?<!") => {
                let negated = self.peek_at(3) == Some(u32::from(b'!'));
                self.pos += 4;
                let body = self.group_body()?;
                let look = Node::Look { behind: true, negated, body: Box::new(body) };
                (look, Err(msg::INVALID_QUANTIFIER))
            }
            Some('(') => (self.group()?, Ok(())),
            Some('.') => {
                self.pos += 1;
                (Node::Dot, Ok(()))
            }
            Some('[') => {
                self.pos += 1;
                (Node::Class(self.class()?), Ok(()))
            }
            Some('\\') => (self.atom_escape()?, Ok(())),
            Some('*' | '+' | '?') => return Err(msg::NOTHING_TO_REPEAT),
            Some('{') => {
                // A whole braced quantifier with nothing before it is an error in every
                // mode (InvalidBracedQuantifier in legacy mode).
                let start = self.pos;
                let is_quantifier = self.braced_quantifier().is_some();
                self.pos = start;
                if is_quantifier {
                    return Err(msg::NOTHING_TO_REPEAT);
                }
                if self.unicode {
                    return Err(msg::LONE_QUANTIFIER_BRACKETS);
                }
                self.pos += 1;
                (Node::Char(c), Ok(()))
            }
            Some('}' | ']') if self.unicode => return Err(msg::LONE_QUANTIFIER_BRACKETS),
            _ => {
                self.pos += 1;
                (Node::Char(c), Ok(()))
            }
        };
        if quantifiable == Err(msg::NOTHING_TO_REPEAT) {
            // After an assertion, only a complete quantifier is one (and an error); a `{`
            // that does not start one is the next term.
            let start = self.pos;
            let follows = match self.peek().and_then(char::from_u32) {
                Some('*' | '+' | '?') => true,
                Some('{') => self.braced_quantifier().is_some(),
                _ => false,
            };
            self.pos = start;
            return if follows { Err(msg::NOTHING_TO_REPEAT) } else { Ok(atom) };
        }
        let Some((min, max, greedy)) = self.quantifier()? else {
            return Ok(atom);
        };
        quantifiable?;
        Ok(Node::Repeat { body: Box::new(atom), min, max, greedy })
    }

    /// Quantifier: `* + ? {n} {n,} {n,m}` with an optional `?` for lazy. Returns
    /// (min, max, greedy); counts past u32::MAX saturate (no string is that long).
    fn quantifier(&mut self) -> PResult<Option<(u32, Option<u32>, bool)>> {
        let (min, max) = match self.peek().and_then(char::from_u32) {
            Some('*') => {
                self.pos += 1;
                (0, None)
            }
            Some('+') => {
                self.pos += 1;
                (1, None)
            }
            Some('?') => {
                self.pos += 1;
                (0, Some(1))
            }
            Some('{') => match self.braced_quantifier() {
                Some((min, max)) => {
                    if let Some(max) = &max {
                        if digits_greater(&min, max) {
                            return Err(msg::QUANTIFIER_OUT_OF_ORDER);
                        }
                    }
                    (saturate(&min), max.as_deref().map(saturate))
                }
                None if self.unicode => return Err(msg::INCOMPLETE_QUANTIFIER),
                // Legacy mode: the `{` is a literal character, parsed as the next term.
                None => return Ok(None),
            },
            _ => return Ok(None),
        };
        let greedy = !self.eat(b'?');
        Ok(Some((min, max, greedy)))
    }

    /// `{n}`, `{n,}` or `{n,m}` at the current position, as digit strings (see
    /// `decimal_digits`; the order of the bounds is not checked). On a match it is
    /// consumed; if the text is not a braced quantifier, returns None with the position
    /// unchanged.
    fn braced_quantifier(&mut self) -> Option<(Vec<u8>, Option<Vec<u8>>)> {
        let start = self.pos;
        self.pos += 1; // '{'
        let parsed = self.decimal_digits().and_then(|min| {
            let max = if self.eat(b',') {
                if self.peek_is(b'}') {
                    None
                } else {
                    Some(self.decimal_digits()?)
                }
            } else {
                Some(min.clone())
            };
            self.eat(b'}').then_some((min, max))
        });
        if parsed.is_none() {
            self.pos = start;
        }
        parsed
    }

    /// DecimalDigits, as the digit values with leading zeros dropped (exact for any length).
    fn decimal_digits(&mut self) -> Option<Vec<u8>> {
        let start = self.pos;
        let mut digits = Vec::new();
        while let Some(d) = self.peek().and_then(char::from_u32).and_then(|c| c.to_digit(10)) {
            if !(digits.is_empty() && d == 0) {
                digits.push(d as u8);
            }
            self.pos += 1;
        }
        (self.pos > start).then_some(digits)
    }

    /// After `(` has been seen: a capturing group, a named group, `(?:`, or a modifier group.
    fn group(&mut self) -> PResult<Node> {
        self.pos += 1; // '('
        if self.eat(b'?') {
            if self.eat(b':') {
                let body = self.group_body()?;
                return Ok(Node::Group { capture: None, body: Box::new(body) });
            }
            if self.eat(b'<') {
                let index = self.new_capture()?;
                let name = self.group_name()?;
                let path = self.alt_path.clone();
                let body = self.group_body()?;
                // Checked once the group is closed, as V8 does, which decides which error
                // comes first.
                if self.names.iter().any(|d| d.name == name && might_both_participate(&d.path, &path)) {
                    return Err(msg::DUPLICATE_CAPTURE_GROUP_NAME);
                }
                self.names.push(NameDef { name, index, path });
                return Ok(Node::Group { capture: Some(index), body: Box::new(body) });
            }
            let (add, remove) = self.modifiers()?;
            let body = self.group_body()?;
            return Ok(Node::Modifiers { add, remove, body: Box::new(body) });
        }
        let index = self.new_capture()?;
        let body = self.group_body()?;
        Ok(Node::Group { capture: Some(index), body: Box::new(body) })
    }

    fn new_capture(&mut self) -> PResult<u32> {
        if self.groups >= MAX_GROUPS {
            return Err(msg::TOO_MANY_CAPTURES);
        }
        self.groups += 1;
        Ok(self.groups)
    }

    /// A disjunction and its closing `)`.
    fn group_body(&mut self) -> PResult<Node> {
        let body = self.disjunction()?;
        if !self.eat(b')') {
            return Err(msg::UNTERMINATED_GROUP);
        }
        Ok(body)
    }

    /// `(?` RegularExpressionModifiers (`-` RegularExpressionModifiers)? `:` after `(?`.
    /// Each of `i m s` may appear once in all, and the two lists may not both be empty.
    fn modifiers(&mut self) -> PResult<(ModFlags, ModFlags)> {
        let mut add = ModFlags::default();
        let mut remove = ModFlags::default();
        let mut seen = ModFlags::default();
        let mut removing = false;
        loop {
            let c = self.peek().and_then(char::from_u32).ok_or(msg::INVALID_GROUP)?;
            self.pos += 1;
            let target = if removing { &mut remove } else { &mut add };
            let (slot, seen_slot) = match c {
                'i' => (&mut target.ignore_case, &mut seen.ignore_case),
                'm' => (&mut target.multiline, &mut seen.multiline),
                's' => (&mut target.dot_all, &mut seen.dot_all),
                '-' if !removing => {
                    removing = true;
                    continue;
                }
                ':' if !(add.is_empty() && remove.is_empty()) => break,
                _ => return Err(msg::INVALID_GROUP),
            };
            if *seen_slot {
                return Err(msg::INVALID_GROUP);
            }
            *seen_slot = true;
            *slot = true;
        }
        Ok((add, remove))
    }

    /// GroupName after its `<`: RegExpIdentifierName and the closing `>`.
    fn group_name(&mut self) -> PResult<Vec<u32>> {
        let mut name = Vec::new();
        loop {
            if !name.is_empty() && self.eat(b'>') {
                return Ok(name);
            }
            let c = self.identifier_char()?;
            let ok = if name.is_empty() { is_identifier_start(c) } else { is_identifier_part(c) };
            if !ok {
                return Err(msg::INVALID_CAPTURE_GROUP_NAME);
            }
            name.push(c);
        }
    }

    /// One code point of a RegExpIdentifierName: a source character, a `\u` escape (always
    /// with Unicode-mode syntax), or in legacy mode a surrogate pair written as such.
    fn identifier_char(&mut self) -> PResult<u32> {
        let c = self.peek().ok_or(msg::INVALID_CAPTURE_GROUP_NAME)?;
        self.pos += 1;
        if c == u32::from(b'\\') {
            if !self.eat(b'u') {
                return Err(msg::INVALID_CAPTURE_GROUP_NAME);
            }
            return self.unicode_escape(true).ok_or(msg::INVALID_CAPTURE_GROUP_NAME);
        }
        if is_lead_surrogate(c) {
            if let Some(t) = self.peek().filter(|&t| is_trail_surrogate(t)) {
                self.pos += 1;
                return Ok(combine_surrogates(c, t));
            }
        }
        Ok(c)
    }

    /// RegExpUnicodeEscapeSequence after `\u`: `XXXX`, and in Unicode mode `{X...}` and a
    /// surrogate pair `XXXX\uXXXX` as one code point. None (position unchanged) if malformed.
    pub(super) fn unicode_escape(&mut self, unicode: bool) -> Option<u32> {
        let start = self.pos;
        if unicode && self.eat(b'{') {
            let mut value: u32 = 0;
            let mut digits = 0;
            while let Some(d) = self.peek().and_then(hex_value) {
                value = value.saturating_mul(16).saturating_add(d);
                digits += 1;
                self.pos += 1;
            }
            if digits == 0 || value > 0x10FFFF || !self.eat(b'}') {
                self.pos = start;
                return None;
            }
            return Some(value);
        }
        let Some(value) = self.hex4() else {
            self.pos = start;
            return None;
        };
        if unicode && is_lead_surrogate(value) && self.looking_at("\\u") {
            let after_lead = self.pos;
            self.pos += 2;
            match self.hex4() {
                Some(trail) if is_trail_surrogate(trail) => {
                    return Some(combine_surrogates(value, trail));
                }
                _ => self.pos = after_lead,
            }
        }
        Some(value)
    }

    fn hex4(&mut self) -> Option<u32> {
        let mut value = 0;
        for k in 0..4 {
            value = value * 16 + self.peek_at(k).and_then(hex_value)?;
        }
        self.pos += 4;
        Some(value)
    }

    /// `\` AtomEscape, at the backslash (`\b` and `\B` are handled by the caller).
    fn atom_escape(&mut self) -> PResult<Node> {
        self.pos += 1; // '\'
        let c = self.peek().ok_or(msg::ESCAPE_AT_END)?;
        let ch = char::from_u32(c).unwrap_or('\u{FFFD}');
        match ch {
            '1'..='9' => {
                let start = self.pos;
                let n = saturate(&self.decimal_digits().unwrap_or_default());
                if n <= self.total_groups {
                    return Ok(Node::BackRef(vec![n]));
                }
                if self.unicode {
                    return Err(msg::INVALID_ESCAPE);
                }
                // B.1.2: not a backreference; a legacy octal escape or an identity escape.
                self.pos = start + 1;
                Ok(Node::Char(if ch <= '7' { self.legacy_octal(c) } else { c }))
            }
            'd' | 'D' | 's' | 'S' | 'w' | 'W' => {
                self.pos += 1;
                Ok(Node::Class(super::ast::Class::Items {
                    negated: false,
                    items: vec![super::ast::ClassItem::Escape(simple_class_escape(ch))],
                }))
            }
            'p' | 'P' if self.unicode => {
                self.pos += 1;
                let e = self.property_escape(ch == 'P', false)?;
                Ok(Node::Class(super::ast::Class::Items {
                    negated: false,
                    items: vec![super::ast::ClassItem::Escape(e)],
                }))
            }
            'k' if self.named_groups => {
                self.pos += 1;
                if !self.eat(b'<') {
                    return Err(msg::INVALID_NAMED_REFERENCE);
                }
                Ok(Node::NamedRef(self.group_name()?))
            }
            'c' => {
                self.pos += 1;
                match self.peek().and_then(char::from_u32) {
                    Some(l) if l.is_ascii_alphabetic() => {
                        self.pos += 1;
                        Ok(Node::Char(u32::from(l) % 32))
                    }
                    _ if self.unicode => Err(msg::INVALID_UNICODE_ESCAPE),
                    // B.1.2 ExtendedAtom :: `\` [lookahead = c]: a backslash, and the `c`
                    // is read again as a character.
                    _ => {
                        self.pos -= 1;
                        Ok(Node::Char(u32::from(b'\\')))
                    }
                }
            }
            '0' if self.unicode => {
                self.pos += 1;
                if self.peek().and_then(char::from_u32).is_some_and(|d| d.is_ascii_digit()) {
                    return Err(msg::INVALID_DECIMAL_ESCAPE);
                }
                Ok(Node::Char(0))
            }
            _ => {
                self.pos += 1;
                Ok(Node::Char(self.character_escape(c)?))
            }
        }
    }

    /// CharacterEscape after its first character `c` has been consumed: control escapes,
    /// `\x`, `\u`, legacy octal and identity escapes. `\c`, `\k` and digits other than the
    /// octal ones of legacy mode are the caller's.
    pub(super) fn character_escape(&mut self, c: u32) -> PResult<u32> {
        let ch = char::from_u32(c).unwrap_or('\u{FFFD}');
        Ok(match ch {
            'f' => 0x0C,
            'n' => 0x0A,
            'r' => 0x0D,
            't' => 0x09,
            'v' => 0x0B,
            'x' => match (self.peek().and_then(hex_value), self.peek_at(1).and_then(hex_value)) {
                (Some(a), Some(b)) => {
                    self.pos += 2;
                    a * 16 + b
                }
                _ if self.unicode => return Err(msg::INVALID_ESCAPE),
                _ => c,
            },
            'u' => match self.unicode_escape(self.unicode) {
                Some(v) => v,
                None if self.unicode => return Err(msg::INVALID_UNICODE_ESCAPE),
                None => c,
            },
            '0'..='7' if !self.unicode => self.legacy_octal(c),
            _ if self.unicode => {
                if is_syntax_char(c) || c == u32::from(b'/') {
                    c
                } else {
                    return Err(msg::INVALID_ESCAPE);
                }
            }
            // B.1.2 IdentityEscape: any character but `c` (and `k` with named groups),
            // which the callers have taken care of.
            _ => c,
        })
    }

    /// LegacyOctalEscapeSequence whose first digit `first` has been consumed: up to three
    /// octal digits, at most `\377`.
    pub(super) fn legacy_octal(&mut self, first: u32) -> u32 {
        let octal = |c: Option<u32>| c.and_then(char::from_u32).and_then(|c| c.to_digit(8));
        let mut value = first - u32::from(b'0');
        let max_more = if value <= 3 { 2 } else { 1 };
        for _ in 0..max_more {
            match octal(self.peek()) {
                Some(d) => {
                    value = value * 8 + d;
                    self.pos += 1;
                }
                None => break,
            }
        }
        value
    }

    /// `\p{...}` or `\P{...}` after the `p`: a property name and value made of
    /// `[A-Za-z0-9_]`, checked against the Unicode tables.
    pub(super) fn property_escape(&mut self, negated: bool, in_class: bool) -> PResult<ClassEscape> {
        let invalid = if in_class { msg::INVALID_CLASS_PROPERTY_NAME } else { msg::INVALID_PROPERTY_NAME };
        if !self.eat(b'{') {
            return Err(invalid);
        }
        let mut text = Vec::new();
        loop {
            let c = self.peek().ok_or(invalid)?;
            self.pos += 1;
            match char::from_u32(c) {
                Some('}') => break,
                Some(ch) if ch.is_ascii_alphanumeric() || ch == '_' || ch == '=' => text.push(c),
                _ => return Err(invalid),
            }
        }
        let name: String = text.iter().filter_map(|&c| char::from_u32(c)).collect();
        if name.matches('=').count() > 1 {
            return Err(invalid);
        }
        // Properties of strings (table 68) are valid only in `v` mode and never negated.
        let strings = match super::unicode::property(&name) {
            None => return Err(invalid),
            Some(super::unicode::Property::Chars(_)) => false,
            Some(super::unicode::Property::Strings(..)) => true,
        };
        if strings && (negated || !self.sets) {
            return Err(invalid);
        }
        Ok(ClassEscape::Property { negated, text, strings })
    }
}

pub(super) fn simple_class_escape(ch: char) -> ClassEscape {
    match ch {
        'd' => ClassEscape::Digit { negated: false },
        'D' => ClassEscape::Digit { negated: true },
        's' => ClassEscape::Space { negated: false },
        'S' => ClassEscape::Space { negated: true },
        'w' => ClassEscape::Word { negated: false },
        _ => ClassEscape::Word { negated: true },
    }
}

/// `a > b` for digit strings without leading zeros.
fn digits_greater(a: &[u8], b: &[u8]) -> bool {
    (a.len(), a) > (b.len(), b)
}

fn saturate(digits: &[u8]) -> u32 {
    digits.iter().fold(0u32, |v, &d| v.saturating_mul(10).saturating_add(u32::from(d)))
}
