//! Reads the text form (see `text`) back into a `Function`. Errors name the line and column
//! of the offending token. `;` starts a comment that runs to the end of the line.

use std::collections::HashMap;
use std::fmt;

use super::*;

/// A syntax or naming error in MIR text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based.
    pub line: u32,
    /// 1-based, in characters.
    pub col: u32,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for ParseError {}

type Result<T> = std::result::Result<T, ParseError>;

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    /// One of `( ) , : = [ ] { } % @`.
    Punct(char),
    Arrow,
    /// Anything else up to white space or punctuation: names, numbers, mnemonics.
    Word(String),
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    line: u32,
    col: u32,
}

const PUNCT: &[char] = &['(', ')', ',', ':', '=', '[', ']', '{', '}', '%', '@'];

fn lex_line(text: &str, line: u32, out: &mut Vec<Token>) {
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let col = i as u32 + 1;
        if c == ';' {
            break;
        }
        if c.is_whitespace() {
            i += 1;
        } else if c == '-' && chars.get(i + 1) == Some(&'>') {
            out.push(Token { tok: Tok::Arrow, line, col });
            i += 2;
        } else if PUNCT.contains(&c) {
            out.push(Token { tok: Tok::Punct(c), line, col });
            i += 1;
        } else {
            let start = i;
            while i < chars.len()
                && !chars[i].is_whitespace()
                && !PUNCT.contains(&chars[i])
                && chars[i] != ';'
                && !(chars[i] == '-' && chars.get(i + 1) == Some(&'>'))
            {
                i += 1;
            }
            out.push(Token { tok: Tok::Word(chars[start..i].iter().collect()), line, col });
        }
    }
}

/// The tokens of one line, with a cursor.
struct Line {
    toks: Vec<Token>,
    pos: usize,
    /// Where the line ends (for errors about a missing token).
    end: (u32, u32),
}

fn err<T>(line: u32, col: u32, message: impl Into<String>) -> Result<T> {
    Err(ParseError { line, col, message: message.into() })
}

impl Line {
    fn peek(&self) -> Option<&Token> {
        self.toks.get(self.pos)
    }

    /// The next token if it is a word.
    fn peek_word(&self) -> Option<&str> {
        match &self.peek()?.tok {
            Tok::Word(w) => Some(w),
            _ => None,
        }
    }

    fn at(&self) -> (u32, u32) {
        self.peek().map_or(self.end, |t| (t.line, t.col))
    }

    fn fail<T>(&self, message: impl Into<String>) -> Result<T> {
        let (l, c) = self.at();
        err(l, c, message)
    }

    fn next(&mut self, what: &str) -> Result<Token> {
        match self.toks.get(self.pos) {
            Some(t) => {
                self.pos += 1;
                Ok(t.clone())
            }
            None => self.fail(format!("expected {what}, found the end of the line")),
        }
    }

    fn is_punct(&self, c: char) -> bool {
        matches!(self.peek(), Some(Token { tok: Tok::Punct(p), .. }) if *p == c)
    }

    fn eat(&mut self, c: char) -> bool {
        if self.is_punct(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: char) -> Result<()> {
        if self.eat(c) {
            Ok(())
        } else {
            self.fail(format!("expected '{c}'"))
        }
    }

    fn word(&mut self, what: &str) -> Result<(String, u32, u32)> {
        let t = self.next(what)?;
        match t.tok {
            Tok::Word(w) => Ok((w, t.line, t.col)),
            _ => err(t.line, t.col, format!("expected {what}")),
        }
    }

    fn done(&self) -> Result<()> {
        match self.peek() {
            None => Ok(()),
            Some(t) => err(t.line, t.col, "unexpected text at the end of the line"),
        }
    }
}

/// The largest value, block, exit or register number the text may use (the tables are
/// indexed by number, so a huge one would be a huge allocation).
pub const MAX_NUMBER: u32 = 1 << 20;

/// `prefix` followed by a decimal number (`v12`, `block3`, `e0`, `r4`) up to `MAX_NUMBER`.
fn numbered(word: &str, prefix: &str) -> Option<u32> {
    let digits = word.strip_prefix(prefix)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || (digits.len() > 1 && digits.starts_with('0'))
    {
        return None;
    }
    digits.parse().ok().filter(|&n| n <= MAX_NUMBER)
}

/// An error for a name like `v4000000000` whose number is over `MAX_NUMBER`, if `word` is one.
fn check_number(word: &str, l: u32, c: u32) -> Result<()> {
    for prefix in ["block", "v", "e", "r"] {
        if let Some(d) = word.strip_prefix(prefix) {
            if !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()) && numbered(word, prefix).is_none() {
                return err(l, c, format!("'{word}': numbers go up to {MAX_NUMBER}"));
            }
        }
    }
    Ok(())
}

fn parse_int(word: &str) -> Option<i64> {
    let (neg, digits) = match word.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, word),
    };
    let n = match digits.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok()? as i64,
        None => digits.parse::<i64>().ok()?,
    };
    Some(if neg { n.wrapping_neg() } else { n })
}

fn parse_f64(word: &str) -> Option<f64> {
    if word.bytes().any(|b| b.is_ascii_digit()) || matches!(word, "NaN" | "inf" | "-inf") {
        word.parse().ok()
    } else {
        None
    }
}

fn parse_const(word: &str) -> Option<JsConst> {
    Some(match word {
        "undefined" => JsConst::Undefined,
        "null" => JsConst::Null,
        "true" => JsConst::True,
        "false" => JsConst::False,
        "empty" => JsConst::Empty,
        _ => JsConst::Number(Ieee64::new(parse_f64(word)?)),
    })
}

/// An operand as written.
enum Operand {
    Val(u32),
    Block(u32, Vec<u32>),
    Exit(u32),
    Word(String),
    Callee(char, String, Vec<u32>),
}

struct Parser {
    f: Function,
    /// Where each value was defined (to report a second definition).
    defined: HashMap<u32, (u32, u32)>,
    /// Every use of a value, block or exit, checked once all are defined.
    used_values: Vec<(u32, u32, u32)>,
    used_blocks: Vec<(u32, u32, u32)>,
    used_exits: Vec<(u32, u32, u32)>,
    defined_blocks: HashMap<u32, (u32, u32)>,
    defined_exits: HashMap<u32, (u32, u32)>,
}

const DEAD: ValueData = ValueData { ty: Type::I32, def: ValueDef::Dead };

impl Parser {
    fn define(&mut self, v: u32, ty: Type, def: ValueDef, at: (u32, u32)) -> Result<Val> {
        if let Some(&(l, c)) = self.defined.get(&v) {
            return err(at.0, at.1, format!("v{v} is already defined at {l}:{c}"));
        }
        self.defined.insert(v, at);
        let i = v as usize;
        if self.f.values.len() <= i {
            self.f.values.resize(i + 1, DEAD);
        }
        self.f.values[i] = ValueData { ty, def };
        Ok(Val(v))
    }

    fn block_slot(&mut self, b: u32) {
        let i = b as usize;
        if self.f.blocks.len() <= i {
            self.f.blocks.resize(i + 1, BlockData::default());
        }
    }

    fn values_in_parens(&mut self, line: &mut Line) -> Result<Vec<u32>> {
        let mut out = Vec::new();
        if !line.eat('(') {
            return Ok(out);
        }
        if line.eat(')') {
            return Ok(out);
        }
        loop {
            let (w, l, c) = line.word("a value")?;
            let Some(v) = numbered(&w, "v") else { return err(l, c, format!("expected a value, found '{w}'")) };
            self.used_values.push((v, l, c));
            out.push(v);
            if line.eat(')') {
                return Ok(out);
            }
            line.expect(',')?;
        }
    }

    fn operand(&mut self, line: &mut Line) -> Result<Operand> {
        if line.is_punct('@') || line.is_punct('%') {
            let t = line.next("a callee")?;
            let Tok::Punct(sigil) = t.tok else { unreachable!("checked above") };
            let (name, _, _) = line.word("a callee name")?;
            if !line.is_punct('(') {
                return line.fail("expected '(' after the callee");
            }
            let args = self.values_in_parens(line)?;
            return Ok(Operand::Callee(sigil, name, args));
        }
        let (w, l, c) = line.word("an operand")?;
        check_number(&w, l, c)?;
        if let Some(v) = numbered(&w, "v") {
            self.used_values.push((v, l, c));
            return Ok(Operand::Val(v));
        }
        if let Some(b) = numbered(&w, "block") {
            self.used_blocks.push((b, l, c));
            let args = self.values_in_parens(line)?;
            return Ok(Operand::Block(b, args));
        }
        if let Some(e) = numbered(&w, "e") {
            self.used_exits.push((e, l, c));
            return Ok(Operand::Exit(e));
        }
        Ok(Operand::Word(w))
    }

    fn exit_decl(&mut self, line: &mut Line, id: u32, at: (u32, u32)) -> Result<()> {
        if let Some(&(l, c)) = self.defined_exits.get(&id) {
            return err(at.0, at.1, format!("e{id} is already declared at {l}:{c}"));
        }
        self.defined_exits.insert(id, at);
        line.expect('=')?;
        let (kw, l, c) = line.word("'exit'")?;
        if kw != "exit" {
            return err(l, c, format!("expected 'exit', found '{kw}'"));
        }
        line.expect('@')?;
        let (off, l, c) = line.word("a bytecode offset")?;
        let Ok(offset) = off.parse::<u32>() else { return err(l, c, format!("bad bytecode offset '{off}'")) };
        line.expect('[')?;
        let mut regs = Vec::new();
        if !line.eat(']') {
            loop {
                let (r, l, c) = line.word("a register")?;
                let Some(reg) = numbered(&r, "r") else {
                    return err(l, c, format!("expected a register, found '{r}'"));
                };
                line.expect(':')?;
                let (w, l, c) = line.word("a value or a constant")?;
                let value = if let Some(v) = numbered(&w, "v") {
                    self.used_values.push((v, l, c));
                    ExitValue::Val(Val(v))
                } else if let Some(k) = parse_const(&w) {
                    ExitValue::Const(k)
                } else {
                    return err(l, c, format!("expected a value or a constant, found '{w}'"));
                };
                regs.push((reg, value));
                if line.eat(']') {
                    break;
                }
                line.expect(',')?;
            }
        }
        let mut inlined = Vec::new();
        let mut arguments = None;
        while line.peek().is_some() {
            let (kw, l, c) = line.word("'inlined' or 'arguments'")?;
            if kw == "arguments" && arguments.is_none() && inlined.is_empty() {
                let (r, l, c) = line.word("a register")?;
                let Some(reg) = numbered(&r, "r") else {
                    return err(l, c, format!("expected a register, found '{r}'"));
                };
                arguments = Some(reg);
                continue;
            }
            if kw != "inlined" {
                return err(l, c, format!("expected 'inlined', found '{kw}'"));
            }
            let (f, l, c) = line.word("a function")?;
            let Some(function) = f.strip_prefix("0x").and_then(|h| u64::from_str_radix(h, 16).ok()) else {
                return err(l, c, format!("expected a function address, found '{f}'"));
            };
            let (kw, l, c) = line.word("'at'")?;
            if kw != "at" {
                return err(l, c, format!("expected 'at', found '{kw}'"));
            }
            line.expect('@')?;
            let (w, l, c) = line.word("a bytecode offset")?;
            let Ok(call) = w.parse::<u32>() else { return err(l, c, format!("bad bytecode offset '{w}'")) };
            let (kw, l, c) = line.word("'window'")?;
            if kw != "window" {
                return err(l, c, format!("expected 'window', found '{kw}'"));
            }
            let (w, l, c) = line.word("a register number")?;
            let Ok(window) = w.parse::<u32>() else { return err(l, c, format!("bad register number '{w}'")) };
            let mut frame = InlinedFrame { function, call, window, kind: FrameKind::Call, arguments: None };
            for (word, kind) in [("construct", FrameKind::Construct), ("forward", FrameKind::Forward)] {
                if line.peek_word() == Some(word) {
                    line.word(word)?;
                    frame.kind = kind;
                }
            }
            if line.peek_word() == Some("arguments") {
                line.word("'arguments'")?;
                let (r, l, c) = line.word("a register")?;
                let Some(reg) = numbered(&r, "r") else {
                    return err(l, c, format!("expected a register, found '{r}'"));
                };
                frame.arguments = Some(reg);
            }
            inlined.push(frame);
        }
        line.done()?;
        let i = id as usize;
        if self.f.exits.len() <= i {
            self.f.exits.resize(i + 1, ExitState::default());
        }
        self.f.exits[i] = ExitState { offset, regs, inlined, arguments };
        Ok(())
    }

    fn block_header(&mut self, line: &mut Line, b: u32, at: (u32, u32)) -> Result<Block> {
        if let Some(&(l, c)) = self.defined_blocks.get(&b) {
            return err(at.0, at.1, format!("block{b} is already defined at {l}:{c}"));
        }
        self.defined_blocks.insert(b, at);
        self.block_slot(b);
        let block = Block(b);
        self.f.layout.push(block);
        if line.eat('(') {
            loop {
                let (w, l, c) = line.word("a parameter")?;
                let Some(v) = numbered(&w, "v") else { return err(l, c, format!("expected a parameter, found '{w}'")) };
                line.expect(':')?;
                let (tn, tl, tc) = line.word("a type")?;
                let Some(ty) = Type::from_name(&tn) else { return err(tl, tc, format!("unknown type '{tn}'")) };
                let index = self.f.blocks[b as usize].params.len() as u32;
                let p = self.define(v, ty, ValueDef::Param(block, index), (l, c))?;
                self.f.blocks[b as usize].params.push(p);
                if line.eat(')') {
                    break;
                }
                line.expect(',')?;
            }
        }
        while let Some(Token { tok: Tok::Word(w), .. }) = line.peek().cloned() {
            match w.as_str() {
                "loop" => {
                    line.pos += 1;
                    self.f.blocks[b as usize].is_loop = true;
                }
                "osr" => {
                    line.pos += 1;
                    line.expect('@')?;
                    let (off, l, c) = line.word("a bytecode offset")?;
                    let Ok(off) = off.parse() else { return err(l, c, format!("bad bytecode offset '{off}'")) };
                    self.f.blocks[b as usize].osr = Some(off);
                }
                "resume" => {
                    line.pos += 1;
                    let (w, l, c) = line.word("an exit")?;
                    let Some(e) = numbered(&w, "e") else { return err(l, c, format!("expected an exit, found '{w}'")) };
                    self.used_exits.push((e, l, c));
                    self.f.blocks[b as usize].resume = Some(ExitId(e));
                }
                _ => return line.fail(format!("unexpected '{w}' in a block header")),
            }
        }
        line.expect(':')?;
        line.done()?;
        Ok(block)
    }

    fn inst(&mut self, line: &mut Line, block: Block) -> Result<()> {
        let mut result = None;
        let (first, l, c) = line.word("an instruction")?;
        check_number(&first, l, c)?;
        let (mnemonic, ml, mc) = if let Some(v) = numbered(&first, "v") {
            line.expect('=')?;
            result = Some((v, (l, c)));
            line.word("an operation")?
        } else {
            (first, l, c)
        };
        let mut operands = Vec::new();
        if line.peek().is_some() {
            loop {
                let at = line.at();
                operands.push((self.operand(line)?, at));
                if line.peek().is_none() {
                    break;
                }
                line.expect(',')?;
            }
        }
        let (op, ty, exit) = build(&mnemonic, operands, (ml, mc))?;
        let index = self.f.blocks[block.0 as usize].insts.len() as u32;
        let result = match (result, ty) {
            (Some((v, at)), Some(ty)) => Some(self.define(v, ty, ValueDef::Inst(block, index), at)?),
            (None, None) => None,
            (Some((_, (l, c))), None) => return err(l, c, format!("'{mnemonic}' has no result")),
            (None, Some(_)) => return err(ml, mc, format!("'{mnemonic}' needs a result value")),
        };
        self.f.blocks[block.0 as usize].insts.push(Inst { result, op, exit });
        Ok(())
    }
}

/// The operation, its result type and its exit, from a mnemonic and its operands.
fn build(
    mnemonic: &str,
    operands: Vec<(Operand, (u32, u32))>,
    at: (u32, u32),
) -> Result<(Op, Option<Type>, Option<ExitId>)> {
    let (base, suffix) = match mnemonic.split_once('.') {
        Some((b, s)) => (b, Some(s)),
        None => (mnemonic, None),
    };
    let mut ops = operands.into_iter();
    let mut exit = None;
    let mut next = |what: &str| -> Result<(Operand, (u32, u32))> {
        ops.next().ok_or(ParseError { line: at.0, col: at.1, message: format!("'{mnemonic}' expects {what}") })
    };
    macro_rules! val {
        () => {{
            match next("a value")? {
                (Operand::Val(v), _) => Val(v),
                (_, (l, c)) => return err(l, c, "expected a value"),
            }
        }};
    }
    macro_rules! num {
        () => {{
            match next("a number")? {
                (Operand::Word(w), (l, c)) => match w.parse::<u32>() {
                    Ok(n) => n,
                    Err(_) => return err(l, c, format!("expected a number, found '{w}'")),
                },
                (_, (l, c)) => return err(l, c, "expected a number"),
            }
        }};
    }
    macro_rules! word {
        () => {{
            match next("a literal")? {
                (Operand::Word(w), lc) => (w, lc),
                (_, (l, c)) => return err(l, c, "expected a literal"),
            }
        }};
    }
    macro_rules! target {
        () => {{
            match next("a block")? {
                (Operand::Block(b, args), _) => (Block(b), args.into_iter().map(Val).collect::<Vec<_>>()),
                (_, (l, c)) => return err(l, c, "expected a block"),
            }
        }};
    }
    let ty_suffix = |s: Option<&str>| -> Result<Type> {
        match s {
            None => err(at.0, at.1, format!("'{mnemonic}' needs a type suffix such as .i32")),
            Some(s) => match Type::from_name(s) {
                Some(t) => Ok(t),
                None => err(at.0, at.1, format!("unknown type '{s}' in '{mnemonic}'")),
            },
        }
    };
    let no_suffix = |s: Option<&str>| -> Result<()> {
        match s {
            None => Ok(()),
            Some(_) => err(at.0, at.1, format!("unknown operation '{mnemonic}'")),
        }
    };
    use Type::*;
    let (op, ty) = if let Some(o) = IntOp::ALL.iter().find(|o| o.name() == base) {
        let t = ty_suffix(suffix)?;
        (Op::Int(*o, val!(), val!()), Some(t))
    } else if let Some(o) = CheckedOp::ALL.iter().find(|o| o.name() == base) {
        no_suffix(suffix)?;
        (Op::Checked(*o, val!(), val!()), Some(I32))
    } else if let Some(o) = FloatOp::ALL.iter().find(|o| o.name() == base) {
        no_suffix(suffix)?;
        (Op::Float(*o, val!(), val!()), Some(F64))
    } else {
        match base {
            "iconst" => {
                let t = ty_suffix(suffix)?;
                let (w, (l, c)) = word!();
                match parse_int(&w) {
                    Some(n) => (Op::Iconst(t, n), Some(t)),
                    None => return err(l, c, format!("bad integer '{w}'")),
                }
            }
            "load" => {
                let t = ty_suffix(suffix)?;
                let p = val!();
                let (w, (l, c)) = word!();
                match w.parse::<i32>() {
                    Ok(off) => (Op::Load(t, p, off), Some(t)),
                    Err(_) => return err(l, c, format!("bad offset '{w}'")),
                }
            }
            "icmp" | "fcmp" | "tag_is" => {
                let Some(s) = suffix else { return err(at.0, at.1, format!("'{base}' needs a condition suffix")) };
                let unknown = || err(at.0, at.1, format!("unknown condition '{s}'"));
                let op = match base {
                    "icmp" => match IntCC::ALL.iter().find(|c| c.name() == s) {
                        Some(cc) => Op::Icmp(*cc, val!(), val!()),
                        None => return unknown(),
                    },
                    "fcmp" => match FloatCC::ALL.iter().find(|c| c.name() == s) {
                        Some(cc) => Op::Fcmp(*cc, val!(), val!()),
                        None => return unknown(),
                    },
                    _ => match Tag::ALL.iter().find(|t| t.name() == s) {
                        Some(t) => Op::TagIs(*t, val!()),
                        None => return unknown(),
                    },
                };
                (op, Some(I32))
            }
            "check" | "deopt" => {
                let why = match suffix {
                    None => Reason::Check,
                    Some(s) => match Reason::ALL.iter().find(|r| r.name() == s) {
                        Some(r) => *r,
                        None => return err(at.0, at.1, format!("unknown reason '{s}' in '{mnemonic}'")),
                    },
                };
                if base == "check" {
                    (Op::Check(val!(), why), None)
                } else {
                    (Op::Deopt(why), None)
                }
            }
            _ => {
                no_suffix(suffix)?;
                match base {
                    "fconst" => {
                        let (w, (l, c)) = word!();
                        match parse_f64(&w) {
                            Some(n) => (Op::Fconst(Ieee64::new(n)), Some(F64)),
                            None => return err(l, c, format!("bad number '{w}'")),
                        }
                    }
                    "vconst" => {
                        let (w, (l, c)) = word!();
                        match parse_const(&w) {
                            Some(k) => (Op::Vconst(k), Some(Value)),
                            None => return err(l, c, format!("bad constant '{w}'")),
                        }
                    }
                    "fneg" => (Op::Fneg(val!()), Some(F64)),
                    "i32_to_f64" => (Op::I32ToF64(val!()), Some(F64)),
                    "f64_to_i32" => (Op::F64ToI32(val!()), Some(I32)),
                    "to_int32" => (Op::ToInt32(val!()), Some(I32)),
                    "sext" => (Op::Sext(val!()), Some(I64)),
                    "trunc" => (Op::Trunc(val!()), Some(I32)),
                    "bits" => (Op::Bits(val!()), Some(I64)),
                    "from_bits" => (Op::FromBits(val!()), Some(Value)),
                    "box_i32" => (Op::BoxI32(val!()), Some(Value)),
                    "box_f64" => (Op::BoxF64(val!()), Some(Value)),
                    "box_object" => (Op::BoxObject(val!()), Some(Value)),
                    "unbox_i32" => (Op::UnboxI32(val!()), Some(I32)),
                    "unbox_f64" => (Op::UnboxF64(val!()), Some(F64)),
                    "unbox_object" => (Op::UnboxObject(val!()), Some(Ptr)),
                    "load_shape" => (Op::LoadShape(val!()), Some(Ptr)),
                    "store_shape" => (Op::StoreShape(val!(), val!()), None),
                    "guard_shape" => (Op::GuardShape(val!(), val!()), None),
                    "load_slot" => (Op::LoadSlot(val!(), num!()), Some(Value)),
                    "store_slot" => (Op::StoreSlot(val!(), num!(), val!()), None),
                    "load_env" => (Op::LoadEnv(val!(), num!()), Some(Value)),
                    "store_env" => (Op::StoreEnv(val!(), num!(), val!()), None),
                    "load_ool_slot" => (Op::LoadOolSlot(val!(), num!()), Some(Value)),
                    "store_ool_slot" => (Op::StoreOolSlot(val!(), num!(), val!()), None),
                    "array_length" => (Op::ArrayLength(val!()), Some(I32)),
                    "load_elem" => (Op::LoadElem(val!(), val!()), Some(Value)),
                    "has_elem" => (Op::HasElem(val!(), val!()), Some(I32)),
                    "store_elem" => (Op::StoreElem(val!(), val!(), val!()), None),
                    "init_elem" => (Op::InitElem(val!(), val!(), val!()), None),
                    "load_reg" => (Op::LoadReg(num!()), Some(Value)),
                    "store_reg" => (Op::StoreReg(num!(), val!()), None),
                    "store" => {
                        let p = val!();
                        let (w, (l, c)) = word!();
                        let Ok(off) = w.parse::<i32>() else { return err(l, c, format!("bad offset '{w}'")) };
                        (Op::Store(p, off, val!()), None)
                    }
                    "call_helper" | "call" => {
                        let want = if base == "call" { '%' } else { '@' };
                        match next("a callee")? {
                            (Operand::Callee(s, name, args), _) if s == want => {
                                let args = args.into_iter().map(Val).collect();
                                let op = if base == "call" { Op::Call(name, args) } else { Op::CallHelper(name, args) };
                                (op, Some(Value))
                            }
                            (_, (l, c)) => return err(l, c, format!("expected a callee '{want}name(...)'")),
                        }
                    }
                    "jump" => {
                        let (b, args) = target!();
                        (Op::Jump(b, args), None)
                    }
                    "brif" => {
                        let c = val!();
                        let (t, ta) = target!();
                        let (e, ea) = target!();
                        (Op::Brif(c, t, ta, e, ea), None)
                    }
                    "return" => (Op::Return(val!()), None),
                    _ => return err(at.0, at.1, format!("unknown operation '{mnemonic}'")),
                }
            }
        }
    };
    if op.needs_exit() {
        match next("an exit")? {
            (Operand::Exit(e), _) => exit = Some(ExitId(e)),
            (_, (l, c)) => return err(l, c, "expected an exit"),
        }
    }
    if let Some((_, (l, c))) = ops.next() {
        return err(l, c, format!("too many operands for '{mnemonic}'"));
    }
    Ok((op, ty, exit))
}

/// Parses one function.
pub fn parse_function(text: &str) -> Result<Function> {
    let mut functions = parse(text, false)?;
    match functions.pop() {
        Some(f) => Ok(f),
        None => err(1, 1, "expected 'function'"),
    }
}

/// Parses a module: functions one after another, with different names (a `call` names
/// another function of its module).
pub fn parse_module(text: &str) -> Result<Vec<Function>> {
    let functions = parse(text, true)?;
    for (i, f) in functions.iter().enumerate() {
        if functions[..i].iter().any(|g| g.name == f.name) {
            return err(1, 1, format!("%{} is defined twice", f.name));
        }
    }
    Ok(functions)
}

fn parse(text: &str, many: bool) -> Result<Vec<Function>> {
    let mut lines = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let mut toks = Vec::new();
        lex_line(l, i as u32 + 1, &mut toks);
        if !toks.is_empty() {
            lines.push(Line { toks, pos: 0, end: (i as u32 + 1, l.chars().count() as u32 + 1) });
        }
    }
    let last = u32::try_from(text.lines().count()).unwrap_or(u32::MAX).max(1);
    let mut it = lines.into_iter();
    let mut functions = Vec::new();
    loop {
        let Some(head) = it.next() else {
            if functions.is_empty() {
                return err(1, 1, "expected 'function'");
            }
            return Ok(functions);
        };
        if !functions.is_empty() && !many {
            return head.fail("text after the end of the function");
        }
        functions.push(function(head, &mut it, last)?);
    }
}

/// One function: its header line, then lines up to its closing brace.
fn function(mut head: Line, it: &mut impl Iterator<Item = Line>, last: u32) -> Result<Function> {
    let head_at = head.toks.first().map_or((1, 1), |t| (t.line, t.col));
    let mut p = Parser {
        f: Function::default(),
        defined: HashMap::new(),
        used_values: Vec::new(),
        used_blocks: Vec::new(),
        used_exits: Vec::new(),
        defined_blocks: HashMap::new(),
        defined_exits: HashMap::new(),
    };
    // function %name(types) -> type {
    let (kw, l, c) = head.word("'function'")?;
    if kw != "function" {
        return err(l, c, format!("expected 'function', found '{kw}'"));
    }
    head.expect('%')?;
    p.f.name = head.word("a function name")?.0;
    head.expect('(')?;
    let mut sig = Vec::new();
    if !head.eat(')') {
        loop {
            let (tn, l, c) = head.word("a type")?;
            match Type::from_name(&tn) {
                Some(t) => sig.push((t, (l, c))),
                None => return err(l, c, format!("unknown type '{tn}'")),
            }
            if head.eat(')') {
                break;
            }
            head.expect(',')?;
        }
    }
    if matches!(head.peek(), Some(Token { tok: Tok::Arrow, .. })) {
        head.pos += 1;
        let (tn, l, c) = head.word("a type")?;
        p.f.ret = match Type::from_name(&tn) {
            Some(t) => Some(t),
            None => return err(l, c, format!("unknown type '{tn}'")),
        };
    }
    head.expect('{')?;
    head.done()?;
    let mut current: Option<Block> = None;
    let mut closed = false;
    for mut line in it.by_ref() {
        if line.eat('}') {
            line.done()?;
            closed = true;
            break;
        }
        let Some(Token { tok: Tok::Word(w), line: l, col: c }) = line.peek().cloned() else {
            return line.fail("expected a block, an exit or an instruction");
        };
        check_number(&w, l, c)?;
        if let Some(b) = numbered(&w, "block") {
            line.pos += 1;
            current = Some(p.block_header(&mut line, b, (l, c))?);
        } else if let Some(e) = numbered(&w, "e") {
            if current.is_some() {
                return err(l, c, "exits are declared before the first block");
            }
            line.pos += 1;
            p.exit_decl(&mut line, e, (l, c))?;
        } else {
            let Some(b) = current else { return err(l, c, "an instruction before the first block") };
            p.inst(&mut line, b)?;
        }
    }
    if !closed {
        return err(last, 1, "expected '}' at the end");
    }
    for &(v, l, c) in &p.used_values {
        if !p.defined.contains_key(&v) {
            return err(l, c, format!("v{v} is not defined"));
        }
    }
    for &(b, l, c) in &p.used_blocks {
        if !p.defined_blocks.contains_key(&b) {
            return err(l, c, format!("block{b} is not defined"));
        }
    }
    for &(e, l, c) in &p.used_exits {
        if !p.defined_exits.contains_key(&e) {
            return err(l, c, format!("e{e} is not declared"));
        }
    }
    // The signature must be the entry block's parameters.
    let entry: Vec<Type> = match p.f.entry() {
        Some(b) => p.f.block(b).params.iter().map(|&v| p.f.ty(v)).collect(),
        None => Vec::new(),
    };
    if entry != sig.iter().map(|(t, _)| *t).collect::<Vec<_>>() {
        return err(head_at.0, head_at.1, "the signature's parameters are not the entry block's");
    }
    Ok(p.f)
}
