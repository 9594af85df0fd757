//! A cursor that appends instructions to a block of a function.

use crate::function::{Function, Literal};
use crate::inst::{BinOp, Imm, Loc, Opcode, UnOp};
use crate::{Block, Inst, Value};

/// Appends instructions at the end of the current block.
pub struct Builder<'f> {
    /// The function being built.
    pub func: &'f mut Function,
    block: Block,
    /// The location given to new instructions.
    pub loc: Loc,
}

impl<'f> Builder<'f> {
    /// A builder appending to `block`.
    pub fn new(func: &'f mut Function, block: Block) -> Builder<'f> {
        Builder { func, block, loc: Loc::default() }
    }

    /// The block instructions are appended to.
    pub fn block(&self) -> Block {
        self.block
    }

    /// Continues appending at the end of `block`.
    pub fn switch_to(&mut self, block: Block) {
        self.block = block;
    }

    /// A new block at the end of the layout.
    pub fn create_block(&mut self) -> Block {
        self.func.add_block()
    }

    /// Whether the current block already ends in a terminator.
    pub fn is_terminated(&self) -> bool {
        self.func.terminator(self.block).is_some()
    }

    /// Appends an instruction and returns it.
    pub fn inst(&mut self, opcode: Opcode, args: Vec<Value>, targets: Vec<Block>, imm: Imm) -> Inst {
        let inst = self.func.make_inst(opcode, args, targets, imm, self.loc);
        self.func.append_inst(self.block, inst);
        inst
    }

    /// Appends an instruction that has a result and returns the result.
    pub fn value(&mut self, opcode: Opcode, args: Vec<Value>, imm: Imm) -> Value {
        let inst = self.inst(opcode, args, Vec::new(), imm);
        self.func.result(inst)
    }

    /// The value for a literal.
    pub fn lit(&mut self, lit: Literal) -> Value {
        self.func.literal(lit)
    }

    /// `undefined`.
    pub fn undefined(&mut self) -> Value {
        self.lit(Literal::Undefined)
    }

    /// A number literal.
    pub fn number(&mut self, n: f64) -> Value {
        self.lit(Literal::Number(n))
    }

    /// A binary operator.
    pub fn binary(&mut self, op: BinOp, lhs: Value, rhs: Value) -> Value {
        self.value(Opcode::BinaryOp, vec![lhs, rhs], Imm::BinOp(op))
    }

    /// A unary operator.
    pub fn unary(&mut self, op: UnOp, arg: Value) -> Value {
        self.value(Opcode::UnaryOp, vec![arg], Imm::UnOp(op))
    }

    /// An unconditional branch.
    pub fn branch(&mut self, to: Block) {
        self.inst(Opcode::Branch, Vec::new(), vec![to], Imm::None);
    }

    /// A conditional branch.
    pub fn cond_branch(&mut self, cond: Value, then: Block, otherwise: Block) {
        self.inst(Opcode::CondBranch, vec![cond], vec![then, otherwise], Imm::None);
    }

    /// A return.
    pub fn ret(&mut self, value: Value) {
        self.inst(Opcode::Return, vec![value], Vec::new(), Imm::None);
    }
}
