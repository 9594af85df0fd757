//! Character class parsing: CharacterClass with ClassContents as NonemptyClassRanges
//! (legacy and `u` mode, with the Annex B.1.2 class escapes in legacy mode) or as
//! ClassSetExpression (`v` mode).

use super::ast::{Class, ClassEscape, ClassItem, SetClass, SetExpr, SetOperand};
use super::parse::{msg, simple_class_escape, PResult, Parser};

/// An atom of a class before ranges are formed.
enum Atom {
    Char(u32),
    Escape(ClassEscape),
}

/// ClassSetReservedPunctuator: may be escaped inside a `v`-mode class.
fn is_reserved_punctuator(c: u32) -> bool {
    matches!(char::from_u32(c), Some('&' | '-' | '!' | '#' | '%' | ',' | ':' | ';' | '<' | '=' | '>' | '@' | '`' | '~'))
}

/// ClassSetReservedDoublePunctuator: the first character of `&& !! ## $$ ...`.
fn is_double_punctuator_char(c: u32) -> bool {
    matches!(
        char::from_u32(c),
        Some(
            '&' | '!'
                | '#'
                | '$'
                | '%'
                | '*'
                | '+'
                | ','
                | '.'
                | ':'
                | ';'
                | '<'
                | '='
                | '>'
                | '?'
                | '@'
                | '^'
                | '`'
                | '~'
        )
    )
}

/// ClassSetSyntaxCharacter: may not appear unescaped as a `v`-mode class character.
fn is_set_syntax_char(c: u32) -> bool {
    matches!(char::from_u32(c), Some('(' | ')' | '[' | ']' | '{' | '}' | '/' | '-' | '\\' | '|'))
}

/// MayContainStrings of a `v`-mode class operand.
fn operand_may_contain_strings(op: &SetOperand) -> bool {
    match op {
        SetOperand::Strings(strings) => strings.iter().any(|s| s.len() != 1),
        SetOperand::Escape(ClassEscape::Property { strings, .. }) => *strings,
        SetOperand::Nested(class) => !class.negated && may_contain_strings(&class.expr),
        _ => false,
    }
}

/// MayContainStrings of a ClassSetExpression.
pub(super) fn may_contain_strings(expr: &SetExpr) -> bool {
    match expr {
        SetExpr::Union(ops) => ops.iter().any(operand_may_contain_strings),
        SetExpr::Intersection(ops) => ops.iter().all(operand_may_contain_strings),
        SetExpr::Subtraction(ops) => ops.first().is_some_and(operand_may_contain_strings),
    }
}

impl Parser<'_> {
    /// A class after its `[`.
    pub(super) fn class(&mut self) -> PResult<Class> {
        let negated = self.eat(b'^');
        if self.sets {
            return Ok(Class::Set(self.set_class(negated)?));
        }
        let mut items = Vec::new();
        loop {
            let c = self.peek().ok_or(msg::UNTERMINATED_CHARACTER_CLASS)?;
            if c == u32::from(b']') {
                self.pos += 1;
                return Ok(Class::Items { negated, items });
            }
            let a = self.class_atom()?;
            // A range needs `-` followed by an atom, not by the closing bracket.
            let dash_range = self.peek_is(b'-') && self.peek_at(1).is_some_and(|c| c != u32::from(b']'));
            if !dash_range {
                items.push(atom_item(a));
                continue;
            }
            self.pos += 1; // '-'
            let b = self.class_atom()?;
            match (a, b) {
                (Atom::Char(lo), Atom::Char(hi)) => {
                    if lo > hi {
                        return Err(msg::CLASS_RANGE_OUT_OF_ORDER);
                    }
                    items.push(ClassItem::Range(lo, hi));
                }
                _ if self.unicode => return Err(msg::INVALID_CHARACTER_CLASS),
                // B.1.2 ClassAtomNoDash with a class escape: the three atoms stand alone.
                (a, b) => {
                    items.push(atom_item(a));
                    items.push(ClassItem::Char(u32::from(b'-')));
                    items.push(atom_item(b));
                }
            }
        }
    }

    /// ClassAtom: a character or `\` ClassEscape.
    fn class_atom(&mut self) -> PResult<Atom> {
        let c = self.peek().ok_or(msg::UNTERMINATED_CHARACTER_CLASS)?;
        self.pos += 1;
        if c != u32::from(b'\\') {
            return Ok(Atom::Char(c));
        }
        let c = self.peek().ok_or(msg::ESCAPE_AT_END)?;
        let ch = char::from_u32(c).unwrap_or('\u{FFFD}');
        self.pos += 1;
        Ok(match ch {
            'b' => Atom::Char(0x08),
            '-' if self.unicode => Atom::Char(c),
            'd' | 'D' | 's' | 'S' | 'w' | 'W' => Atom::Escape(simple_class_escape(ch)),
            'p' | 'P' if self.unicode => Atom::Escape(self.property_escape(ch == 'P', true)?),
            'c' => match self.peek().and_then(char::from_u32) {
                Some(l) if l.is_ascii_alphabetic() => {
                    self.pos += 1;
                    Atom::Char(u32::from(l) % 32)
                }
                // B.1.2 ClassControlLetter also takes digits and `_` inside classes.
                Some(l) if !self.unicode && (l.is_ascii_digit() || l == '_') => {
                    self.pos += 1;
                    Atom::Char(u32::from(l) % 32)
                }
                _ if self.unicode => return Err(msg::INVALID_UNICODE_ESCAPE),
                // B.1.2 ClassAtomNoDash :: `\` [lookahead = c]: a backslash.
                _ => {
                    self.pos -= 1;
                    Atom::Char(u32::from(b'\\'))
                }
            },
            'k' if self.unicode || self.named_groups => return Err(msg::INVALID_ESCAPE),
            'B' if self.unicode => return Err(msg::INVALID_ESCAPE),
            '1'..='7' if self.unicode => return Err(msg::INVALID_CLASS_ESCAPE),
            '8' | '9' if self.unicode => return Err(msg::INVALID_ESCAPE),
            '0' if self.unicode => {
                if self.peek().and_then(char::from_u32).is_some_and(|d| d.is_ascii_digit()) {
                    return Err(msg::INVALID_CLASS_ESCAPE);
                }
                Atom::Char(0)
            }
            // Legacy `\8` and `\9` in a class are identity escapes.
            '8' | '9' => Atom::Char(c),
            _ => Atom::Char(self.character_escape(c)?),
        })
    }

    /// A `v`-mode class after `[` and its optional `^`, up to and including `]`.
    fn set_class(&mut self, negated: bool) -> PResult<SetClass> {
        self.enter()?;
        let expr = self.set_expression()?;
        self.depth -= 1;
        if negated && may_contain_strings(&expr) {
            return Err(msg::NEGATED_CLASS_WITH_STRINGS);
        }
        Ok(SetClass { negated, expr })
    }

    /// ClassSetExpression: a union, an intersection (`&&`) or a subtraction (`--`), then `]`.
    fn set_expression(&mut self) -> PResult<SetExpr> {
        if self.eat(b']') {
            return Ok(SetExpr::Union(Vec::new()));
        }
        let first = self.set_operand(true)?;
        let op = if self.looking_at("&&") {
            "&&"
        } else if self.looking_at("--") {
            "--"
        } else {
            let mut ops = vec![first];
            loop {
                if self.eat(b']') {
                    return Ok(SetExpr::Union(ops));
                }
                if self.peek().is_none() {
                    return Err(msg::UNTERMINATED_CHARACTER_CLASS);
                }
                if self.looking_at("&&") || self.looking_at("--") {
                    return Err(msg::INVALID_SET_OPERATION);
                }
                ops.push(self.set_operand(true)?);
            }
        };
        if matches!(first, SetOperand::Range(..)) {
            return Err(msg::INVALID_SET_OPERATION);
        }
        let mut ops = vec![first];
        loop {
            if self.eat(b']') {
                break;
            }
            if self.peek().is_none() {
                return Err(msg::UNTERMINATED_CHARACTER_CLASS);
            }
            if !self.eat_str(op) {
                return Err(msg::INVALID_SET_OPERATION);
            }
            // ClassIntersection :: ... `&&` [lookahead ≠ &] ClassSetOperand
            if op == "&&" && self.peek_is(b'&') {
                return Err(msg::INVALID_CHARACTER_IN_CLASS);
            }
            let operand = self.set_operand(false)?;
            ops.push(operand);
        }
        Ok(if op == "&&" { SetExpr::Intersection(ops) } else { SetExpr::Subtraction(ops) })
    }

    /// ClassSetOperand (NestedClass, ClassStringDisjunction or ClassSetCharacter), or with
    /// `allow_range` a ClassSetRange.
    fn set_operand(&mut self, allow_range: bool) -> PResult<SetOperand> {
        let c = self.peek().ok_or(msg::UNTERMINATED_CHARACTER_CLASS)?;
        if c == u32::from(b'[') {
            self.pos += 1;
            let negated = self.eat(b'^');
            return Ok(SetOperand::Nested(Box::new(self.set_class(negated)?)));
        }
        if c == u32::from(b'\\') {
            let next = self.peek_at(1).and_then(char::from_u32);
            match next {
                Some(ch @ ('d' | 'D' | 's' | 'S' | 'w' | 'W' | 'p' | 'P')) => {
                    self.pos += 2;
                    let e = if matches!(ch, 'p' | 'P') {
                        self.property_escape(ch == 'P', true)?
                    } else {
                        simple_class_escape(ch)
                    };
                    // A class escape cannot end a range.
                    if self.peek_is(b'-') && self.peek_at(1) != Some(u32::from(b'-')) {
                        return Err(msg::INVALID_CHARACTER_CLASS);
                    }
                    return Ok(SetOperand::Escape(e));
                }
                Some('q') => {
                    self.pos += 2;
                    return self.class_strings();
                }
                _ => {}
            }
        }
        let lo = self.set_character()?;
        if allow_range && self.peek_is(b'-') && self.peek_at(1) != Some(u32::from(b'-')) {
            self.pos += 1;
            // A class escape cannot start a range either.
            if self.peek_is(b'\\') && self.peek_at(1).and_then(char::from_u32).is_some_and(|c| "dDsSwWpPq".contains(c))
            {
                return Err(msg::INVALID_CHARACTER_CLASS);
            }
            let hi = self.set_character()?;
            if lo > hi {
                return Err(msg::CLASS_RANGE_OUT_OF_ORDER);
            }
            return Ok(SetOperand::Range(lo, hi));
        }
        Ok(SetOperand::Char(lo))
    }

    /// `\q{` ClassStringDisjunctionContents `}` after the `\q`.
    fn class_strings(&mut self) -> PResult<SetOperand> {
        if !self.eat(b'{') {
            return Err(msg::INVALID_ESCAPE);
        }
        let mut strings = vec![Vec::new()];
        loop {
            let c = self.peek().ok_or(msg::UNTERMINATED_CHARACTER_CLASS)?;
            if c == u32::from(b'}') {
                self.pos += 1;
                return Ok(SetOperand::Strings(strings));
            }
            if c == u32::from(b'|') {
                self.pos += 1;
                strings.push(Vec::new());
                continue;
            }
            let ch = self.set_character()?;
            if let Some(last) = strings.last_mut() {
                last.push(ch);
            }
        }
    }

    /// ClassSetCharacter.
    fn set_character(&mut self) -> PResult<u32> {
        let c = self.peek().ok_or(msg::UNTERMINATED_CHARACTER_CLASS)?;
        if c == u32::from(b'\\') {
            self.pos += 1;
            let e = self.peek().ok_or(msg::ESCAPE_AT_END)?;
            self.pos += 1;
            let ch = char::from_u32(e).unwrap_or('\u{FFFD}');
            return match ch {
                'b' => Ok(0x08),
                _ if is_reserved_punctuator(e) => Ok(e),
                'c' => match self.peek().and_then(char::from_u32) {
                    Some(l) if l.is_ascii_alphabetic() => {
                        self.pos += 1;
                        Ok(u32::from(l) % 32)
                    }
                    _ => Err(msg::INVALID_UNICODE_ESCAPE),
                },
                '0' => {
                    if self.peek().and_then(char::from_u32).is_some_and(|d| d.is_ascii_digit()) {
                        return Err(msg::INVALID_CLASS_ESCAPE);
                    }
                    Ok(0)
                }
                '1'..='7' => Err(msg::INVALID_CLASS_ESCAPE),
                '8' | '9' => Err(msg::INVALID_ESCAPE),
                'k' | 'B' => Err(msg::INVALID_ESCAPE),
                _ => self.character_escape(e),
            };
        }
        if is_set_syntax_char(c) {
            return Err(msg::INVALID_CHARACTER_IN_CLASS);
        }
        if is_double_punctuator_char(c) && self.peek_at(1) == Some(c) {
            return Err(msg::INVALID_SET_OPERATION);
        }
        self.pos += 1;
        Ok(c)
    }
}

fn atom_item(a: Atom) -> ClassItem {
    match a {
        Atom::Char(c) => ClassItem::Char(c),
        Atom::Escape(e) => ClassItem::Escape(e),
    }
}
