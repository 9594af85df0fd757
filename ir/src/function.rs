//! A function body in SSA form: blocks of instructions, values and literals.
//!
//! Storage follows Cranelift: instructions, blocks and values live in dense maps named by
//! `Inst`, `Block` and `Value`; a block keeps the ordered list of its instructions and
//! `layout` the order of blocks (the first is the entry). Removing an instruction detaches it
//! from its block; its slot in the map stays, so handles never dangle.
//!
//! A value is either the result of an instruction or a literal. Literals are interned per
//! function, so two uses of `1` share one `Value`.

use hashbrown::{HashMap, HashSet};

use crate::effects::Effects;
use crate::entity::EntityMap;
use crate::inst::{BinOp, Imm, InstData, Loc, Opcode, ResultRule, UnOp};
use crate::module::{Atom, ScopeId};
use crate::types::Type;
use crate::{Block, Inst, Value};

/// A constant value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Literal {
    /// `undefined`
    Undefined,
    /// `null`
    Null,
    /// The TDZ marker.
    Empty,
    /// `true` / `false`
    Bool(bool),
    /// A number.
    Number(f64),
    /// A string.
    String(Atom),
}

impl Literal {
    /// The type of this literal.
    pub fn ty(&self) -> Type {
        match self {
            Literal::Undefined => Type::UNDEFINED,
            Literal::Null => Type::NULL,
            Literal::Empty => Type::EMPTY,
            Literal::Bool(_) => Type::BOOLEAN,
            Literal::Number(_) => Type::NUMBER,
            Literal::String(_) => Type::STRING,
        }
    }
}

/// Literals compare by bit pattern when interned, so `0` and `-0` stay apart and `NaN` is
/// one literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum LiteralKey {
    Undefined,
    Null,
    Empty,
    Bool(bool),
    Number(u64),
    String(Atom),
}

impl From<Literal> for LiteralKey {
    fn from(lit: Literal) -> Self {
        match lit {
            Literal::Undefined => LiteralKey::Undefined,
            Literal::Null => LiteralKey::Null,
            Literal::Empty => LiteralKey::Empty,
            Literal::Bool(b) => LiteralKey::Bool(b),
            Literal::Number(n) => LiteralKey::Number(n.to_bits()),
            Literal::String(a) => LiteralKey::String(a),
        }
    }
}

/// What defines a value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ValueDef {
    /// The result of an instruction.
    Inst(Inst),
    /// A constant.
    Literal(Literal),
}

/// A value and its type.
#[derive(Clone, Copy, Debug)]
pub struct ValueData {
    /// Its definition.
    pub def: ValueDef,
    /// What it may hold at run time.
    pub ty: Type,
}

/// A basic block.
#[derive(Clone, Debug, Default)]
pub struct BlockData {
    /// Its instructions, in order; the last is the terminator.
    pub insts: Vec<Inst>,
}

/// What kind of function this is, which decides how it is called and what `this` means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FunctionKind {
    /// The global code of a script.
    TopLevel,
    /// A function declaration or expression: callable and constructible.
    Normal,
    /// An arrow function: lexical `this`, not constructible.
    Arrow,
    /// A method, getter or setter: not constructible.
    Method,
    /// A base class constructor: constructible, throws when called.
    ClassConstructor,
    /// A derived class constructor.
    DerivedConstructor,
    /// The outer function of a generator: creates the generator object.
    GeneratorOuter,
    /// The inner function of a generator: its body, resumed by `next`.
    GeneratorInner,
    /// The outer function of an async function (declaration, expression, arrow or method):
    /// creates the generator object that runs its body and returns the promise of the
    /// result (`asyncFunctionStart`). Not constructible.
    AsyncOuter,
    /// The inner function of an async function: a generator body whose suspensions are
    /// `await`s, resumed by the promise reactions.
    AsyncInner,
    /// The outer function of an async generator: creates the generator object that runs
    /// its body and wraps it in an AsyncGenerator object (`asyncGeneratorStart`) without
    /// running any of the body. Not constructible.
    AsyncGeneratorOuter,
    /// The inner function of an async generator: a generator body that suspends for both
    /// `await` and `yield` (a yield is announced by `markAsyncYield`), driven by the
    /// AsyncGenerator object's request queue.
    AsyncGeneratorInner,
}

impl FunctionKind {
    /// The text-form name.
    pub fn as_str(self) -> &'static str {
        match self {
            FunctionKind::TopLevel => "toplevel",
            FunctionKind::Normal => "function",
            FunctionKind::Arrow => "arrow",
            FunctionKind::Method => "method",
            FunctionKind::ClassConstructor => "class_constructor",
            FunctionKind::DerivedConstructor => "derived_constructor",
            FunctionKind::GeneratorOuter => "generator",
            FunctionKind::GeneratorInner => "generator_inner",
            FunctionKind::AsyncOuter => "async",
            FunctionKind::AsyncInner => "async_inner",
            FunctionKind::AsyncGeneratorOuter => "async_generator",
            FunctionKind::AsyncGeneratorInner => "async_generator_inner",
        }
    }
    /// Whether this is the inner function of a generator, async function or async
    /// generator (a body run by a generator object: `start_generator`, `save_and_yield` and
    /// kin).
    pub fn is_generator_body(self) -> bool {
        matches!(self, FunctionKind::GeneratorInner | FunctionKind::AsyncInner | FunctionKind::AsyncGeneratorInner)
    }
    /// Whether this is the outer function of a generator, async function or async generator
    /// (it makes the generator object with `create_generator`).
    pub fn makes_generator(self) -> bool {
        matches!(self, FunctionKind::GeneratorOuter | FunctionKind::AsyncOuter | FunctionKind::AsyncGeneratorOuter)
    }
    /// The kind named `text`.
    pub fn parse(text: &str) -> Option<FunctionKind> {
        [
            FunctionKind::TopLevel,
            FunctionKind::Normal,
            FunctionKind::Arrow,
            FunctionKind::Method,
            FunctionKind::ClassConstructor,
            FunctionKind::DerivedConstructor,
            FunctionKind::GeneratorOuter,
            FunctionKind::GeneratorInner,
            FunctionKind::AsyncOuter,
            FunctionKind::AsyncInner,
            FunctionKind::AsyncGeneratorOuter,
            FunctionKind::AsyncGeneratorInner,
        ]
        .into_iter()
        .find(|k| k.as_str() == text)
    }
}

/// A function body.
#[derive(Clone, Debug)]
pub struct Function {
    /// Its name (`""` for anonymous functions).
    pub name: Atom,
    /// What kind of function it is.
    pub kind: FunctionKind,
    /// Whether its code is strict mode code.
    pub strict: bool,
    /// The names of its formal parameters, for dumps and `Function.prototype.toString`.
    pub params: Vec<Atom>,
    /// The value of its `length` property.
    pub length: u32,
    /// The scope its closures are created in (the parent of its own scopes); `None` for
    /// top-level code.
    pub parent_scope: Option<ScopeId>,
    /// Where the function starts in the source.
    pub loc: Loc,
    /// Where the function's source text is in the module's (`Module::source_text`), for
    /// `Function.prototype.toString`.
    pub source: Option<TextRange>,
    /// A function left to be compiled on its first call (lazy compilation): the description
    /// of the scope its source text is compiled against (the compiler's
    /// `frontend::eval::EvalScope` in text form). Its body is a placeholder that returns.
    pub lazy: Option<Atom>,
    /// It is called where it is made (`(function () { ... })()`) and so runs once, as a
    /// script's global code does: without loops, it gets the optimizer's cheap pipeline.
    pub run_once: bool,
    /// Instructions.
    pub insts: EntityMap<Inst, InstData>,
    /// Blocks.
    pub blocks: EntityMap<Block, BlockData>,
    /// The order of blocks; the first is the entry block. Removed blocks are not listed.
    pub layout: Vec<Block>,
    /// Values.
    pub values: EntityMap<Value, ValueData>,
    literals: HashMap<LiteralKey, Value>,
}

/// A range of a module's source text, in bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TextRange {
    /// The first byte.
    pub start: u32,
    /// The byte after the last.
    pub end: u32,
}

impl Function {
    /// An empty function.
    pub fn new(name: Atom, kind: FunctionKind, strict: bool) -> Function {
        Function {
            name,
            kind,
            strict,
            params: Vec::new(),
            length: 0,
            parent_scope: None,
            loc: Loc::default(),
            source: None,
            lazy: None,
            run_once: false,
            insts: EntityMap::new(),
            blocks: EntityMap::new(),
            layout: Vec::new(),
            values: EntityMap::new(),
            literals: HashMap::new(),
        }
    }

    /// The entry block.
    pub fn entry(&self) -> Block {
        self.layout[0]
    }

    /// Appends a new empty block to the layout.
    pub fn add_block(&mut self) -> Block {
        let b = self.blocks.push(BlockData::default());
        self.layout.push(b);
        b
    }

    /// The value for literal `lit`, interned.
    pub fn literal(&mut self, lit: Literal) -> Value {
        let key = LiteralKey::from(lit);
        if let Some(&v) = self.literals.get(&key) {
            return v;
        }
        let v = self.values.push(ValueData { def: ValueDef::Literal(lit), ty: lit.ty() });
        self.literals.insert(key, v);
        v
    }

    /// The literal `v` is, if it is one.
    pub fn as_literal(&self, v: Value) -> Option<Literal> {
        match self.values[v].def {
            ValueDef::Literal(lit) => Some(lit),
            ValueDef::Inst(_) => None,
        }
    }

    /// The instruction defining `v`, if it is not a literal.
    pub fn def_inst(&self, v: Value) -> Option<Inst> {
        match self.values[v].def {
            ValueDef::Inst(i) => Some(i),
            ValueDef::Literal(_) => None,
        }
    }

    /// The type of `v`.
    pub fn ty(&self, v: Value) -> Type {
        self.values[v].ty
    }

    /// Creates an instruction (not yet in any block) with its result value, if any.
    pub fn make_inst(&mut self, opcode: Opcode, args: Vec<Value>, targets: Vec<Block>, imm: Imm, loc: Loc) -> Inst {
        let (args, targets) = (args.into_iter().collect(), targets.into_iter().collect());
        let inst = self.insts.push(InstData { opcode, args, targets, imm, result: None, block: None, loc });
        if opcode.info().result != ResultRule::None {
            let v = self.values.push(ValueData { def: ValueDef::Inst(inst), ty: Type::ANY });
            self.insts[inst].result = Some(v);
            let ty = self.result_type(inst);
            self.values[v].ty = ty;
        }
        inst
    }

    /// Appends `inst` to the end of `block`.
    pub fn append_inst(&mut self, block: Block, inst: Inst) {
        self.insts[inst].block = Some(block);
        self.blocks[block].insts.push(inst);
    }

    /// Inserts `inst` into `block` at position `pos`.
    pub fn insert_inst(&mut self, block: Block, pos: usize, inst: Inst) {
        self.insts[inst].block = Some(block);
        self.blocks[block].insts.insert(pos, inst);
    }

    /// Detaches `inst` from its block. Its result must have no remaining uses.
    pub fn remove_inst(&mut self, inst: Inst) {
        if let Some(b) = self.insts[inst].block.take() {
            // Searched from the end: passes remove terminators this way (many instructions
            // at once go through `passes::util::remove_insts`, one sweep per block).
            let insts = &mut self.blocks[b].insts;
            if let Some(k) = insts.iter().rposition(|&i| i == inst) {
                insts.remove(k);
            }
        }
    }

    /// Removes `block` and its instructions from the layout.
    pub fn remove_block(&mut self, block: Block) {
        self.remove_blocks(&[block]);
    }

    /// Frees the body (instructions, blocks, values), keeping the signature: what a backend
    /// does with a function it has compiled.
    pub fn clear_body(&mut self) {
        self.insts = EntityMap::new();
        self.blocks = EntityMap::new();
        self.layout = Vec::new();
        self.values = EntityMap::new();
        self.literals = HashMap::new();
    }

    /// Removes `blocks` from the layout and their instructions from them, in one pass over
    /// the layout.
    pub fn remove_blocks(&mut self, blocks: &[Block]) {
        let mut gone = HashSet::with_capacity(blocks.len());
        for &block in blocks {
            for inst in std::mem::take(&mut self.blocks[block].insts) {
                self.insts[inst].block = None;
            }
            gone.insert(block);
        }
        self.layout.retain(|b| !gone.contains(b));
    }

    /// The result value of `inst`; panics if its opcode has none (a compiler bug).
    pub fn result(&self, inst: Inst) -> Value {
        self.insts[inst].result.expect("instruction has no result")
    }

    /// The terminator of `block`, if it has one.
    pub fn terminator(&self, block: Block) -> Option<Inst> {
        let last = *self.blocks[block].insts.last()?;
        self.insts[last].opcode.is_terminator().then_some(last)
    }

    /// The successors of `block`.
    pub fn successors(&self, block: Block) -> &[Block] {
        match self.terminator(block) {
            Some(t) => &self.insts[t].targets,
            None => &[],
        }
    }

    /// The predecessors of every block in the layout, in layout order of the predecessors.
    pub fn predecessors(&self) -> HashMap<Block, Vec<Block>> {
        let mut preds: HashMap<Block, Vec<Block>> = self.layout.iter().map(|&b| (b, Vec::new())).collect();
        for &b in &self.layout {
            for &s in self.successors(b) {
                let list = preds.entry(s).or_default();
                if !list.contains(&b) {
                    list.push(b);
                }
            }
        }
        preds
    }

    /// Every instruction in layout order.
    pub fn inst_order(&self) -> impl Iterator<Item = Inst> + '_ {
        self.layout.iter().flat_map(move |&b| self.blocks[b].insts.iter().copied())
    }

    /// How many times each value is used by instructions in the layout.
    pub fn use_counts(&self) -> HashMap<Value, u32> {
        let mut counts = HashMap::new();
        for i in self.inst_order() {
            for &a in &self.insts[i].args {
                *counts.entry(a).or_insert(0) += 1;
            }
        }
        counts
    }

    /// The effects of `inst`, narrowed by what its operand types and immediate say.
    pub fn effects(&self, inst: Inst) -> Effects {
        let data = &self.insts[inst];
        let base = data.opcode.info().effects;
        let arg_ty = |i: usize| data.args.get(i).map_or(Type::ANY, |&a| self.ty(a));
        match (data.opcode, data.imm) {
            (Opcode::BinaryOp, Imm::BinOp(op)) => {
                let (l, r) = (arg_ty(0), arg_ty(1));
                match op {
                    BinOp::StrictEq | BinOp::StrictNe => Effects::PURE,
                    BinOp::Add
                        if l.is_primitive()
                            && r.is_primitive()
                            && !l.overlaps(Type::SYMBOL)
                            && !r.overlaps(Type::SYMBOL)
                            && !(l.overlaps(Type::BIGINT) || r.overlaps(Type::BIGINT)) =>
                    {
                        Effects::PURE
                    }
                    BinOp::In | BinOp::InstanceOf => base,
                    _ if l.is_number() && r.is_number() => Effects::PURE,
                    BinOp::Eq | BinOp::Ne if l.is_primitive() && r.is_primitive() => Effects::PURE,
                    _ => base,
                }
            }
            (Opcode::UnaryOp, Imm::UnOp(op)) => match op {
                UnOp::Not | UnOp::TypeOf => Effects::PURE,
                _ if arg_ty(0).is_number() => Effects::PURE,
                _ => base,
            },
            (Opcode::AsNumber | Opcode::AsNumeric, _) if arg_ty(0).is_number() => Effects::PURE,
            (Opcode::AsNumber | Opcode::AsNumeric, _)
                if arg_ty(0)
                    .is_subset_of(Type::NUMBER.union(Type::BOOLEAN).union(Type::NULLISH).union(Type::STRING)) =>
            {
                Effects::PURE
            }
            (Opcode::AsString, _)
                if arg_ty(0)
                    .is_subset_of(Type::STRING.union(Type::NUMBER).union(Type::BOOLEAN).union(Type::NULLISH)) =>
            {
                Effects::PURE
            }
            (Opcode::ToPropertyKey, _) if arg_ty(0).is_subset_of(Type::STRING.union(Type::NUMBER)) => Effects::PURE,
            (Opcode::ThrowIfEmpty, _) if !arg_ty(0).overlaps(Type::EMPTY) => Effects::PURE,
            _ => base,
        }
    }

    /// The result type of `inst` from its row, its operands and its immediate.
    pub fn result_type(&self, inst: Inst) -> Type {
        let data = &self.insts[inst];
        match data.opcode.info().result {
            ResultRule::None => Type::NONE,
            // A fixed row type is an upper bound that some operand types narrow.
            ResultRule::Fixed(ty) => match data.opcode {
                // ToNumeric of anything but a BigInt or an object (whose valueOf may return
                // a BigInt) is a number.
                Opcode::AsNumeric
                    if data.args.first().is_some_and(|&a| !self.ty(a).overlaps(Type::BIGINT.union(Type::OBJECT))) =>
                {
                    Type::NUMBER
                }
                _ => ty,
            },
            ResultRule::Dynamic => {
                let arg_ty = |i: usize| data.args.get(i).map_or(Type::ANY, |&a| self.ty(a));
                match (data.opcode, data.imm) {
                    (Opcode::ThrowIfEmpty, _) => arg_ty(0).without(Type::EMPTY),
                    (Opcode::Phi, _) => data.args.iter().fold(Type::NONE, |t, &a| t.union(self.ty(a))),
                    (Opcode::BinaryOp, Imm::BinOp(op)) => binop_type(op, arg_ty(0), arg_ty(1)),
                    (Opcode::UnaryOp, Imm::UnOp(op)) => match op {
                        UnOp::Not => Type::BOOLEAN,
                        UnOp::TypeOf => Type::STRING,
                        _ if arg_ty(0).is_number() => Type::NUMBER,
                        _ if !arg_ty(0).overlaps(Type::BIGINT.union(Type::OBJECT)) => Type::NUMBER,
                        _ => Type::NUMERIC,
                    },
                    (Opcode::GetNewTarget, _) => Type::UNDEFINED.union(Type::OBJECT),
                    (Opcode::IteratorNext, _) => Type::ANY.union(Type::EMPTY),
                    // A load from a slot gives what was stored in it.
                    (Opcode::LoadStack, _) => data.args.first().map_or(Type::ANY.union(Type::EMPTY), |&a| self.ty(a)),
                    (Opcode::LoadFrame, _) => Type::ANY.union(Type::EMPTY),
                    _ => Type::ANY.union(Type::EMPTY),
                }
            }
        }
    }
}

/// The type of binary operator `op` applied to operands of types `l` and `r`.
pub fn binop_type(op: BinOp, l: Type, r: Type) -> Type {
    let no_bigint = !l.overlaps(Type::BIGINT.union(Type::OBJECT)) && !r.overlaps(Type::BIGINT.union(Type::OBJECT));
    match op {
        BinOp::Eq
        | BinOp::Ne
        | BinOp::StrictEq
        | BinOp::StrictNe
        | BinOp::Lt
        | BinOp::Le
        | BinOp::Gt
        | BinOp::Ge
        | BinOp::In
        | BinOp::InstanceOf => Type::BOOLEAN,
        BinOp::Add => {
            if l.is_number() && r.is_number() {
                Type::NUMBER
            } else if l.is_string() || r.is_string() {
                Type::STRING
            } else if no_bigint && !l.overlaps(Type::STRING) && !r.overlaps(Type::STRING) {
                Type::NUMBER
            } else {
                Type::STRING.union(Type::NUMERIC)
            }
        }
        BinOp::UShr => Type::NUMBER,
        _ if no_bigint => Type::NUMBER,
        _ => Type::NUMERIC,
    }
}
