//! Instruction selection: the bytecode for each HIR instruction.
//!
//! One exhaustive `match` over the HIR opcodes, so a new row of the HIR table is a compile
//! error here until it is lowered. Operands go through `Lowering::operand` (literal
//! materialization, aliases); results get their vreg from `Lowering::vreg`.

use ir::{BinOp, Imm, Inst, Literal, Opcode, UnOp};

use super::super::lir::{LKind, LOp, MoveSrc, RegClass, VReg};
use super::{FusedTest, Lowering};

impl Lowering<'_> {
    pub(super) fn lower_inst(&mut self, inst: Inst) -> Result<(), String> {
        let func = self.func;
        let data = &func.insts[inst];
        let block = data.block.expect("lowered instruction is in a block");
        let args = &data.args;
        if let Some(r) = data.result {
            if self.aliases.contains_key(&r) {
                return Ok(());
            }
        }
        if self.fused_conditions.contains(&inst) || self.folded_steps.contains(&inst) {
            return Ok(());
        }
        let arg_ty = |i: usize| func.ty(args[i]);
        match data.opcode {
            // ---- Frame
            Opcode::AllocStack => {}
            Opcode::LoadStack => {
                let src = self.slot(args[0])?;
                let dst = self.vreg(func.result(inst));
                self.op(LOp::Mov { dst, src });
            }
            Opcode::StoreStack => {
                let dst = self.slot(args[1])?;
                match self.move_src(args[0]) {
                    MoveSrc::Const(c) => self.op(c.load(dst)),
                    MoveSrc::Reg(src) => self.op(LOp::Mov { dst, src }),
                }
            }
            Opcode::LoadParam => {
                let Imm::Index(index) = data.imm else { return Err(bad_imm(data.opcode)) };
                let dst = self.vreg(func.result(inst));
                self.op(LOp::LoadParam { dst, index });
            }
            Opcode::ArgCount => {
                let dst = self.vreg(func.result(inst));
                self.op(LOp::LoadArgCount { dst });
            }
            Opcode::CoerceThisNS => {
                let this = self.resolve(args[0]);
                let is_this = func
                    .def_inst(this)
                    .is_some_and(|d| func.insts[d].opcode == Opcode::LoadParam && func.insts[d].imm == Imm::Index(0));
                if !is_this {
                    return Err(format!("coerce_this_ns of {this}, which is not parameter 0"));
                }
                let dst = self.vreg(func.result(inst));
                self.op(LOp::LoadThisNS { dst });
            }
            Opcode::GetNewTarget => {
                let dst = self.vreg(func.result(inst));
                self.op(LOp::GetNewTarget { dst });
            }
            Opcode::GetCallee => {
                let dst = self.vreg(func.result(inst));
                self.op(LOp::LoadCallee { dst });
            }
            Opcode::CreateArguments => {
                let dst = self.vreg(func.result(inst));
                self.op(LOp::CreateArguments { dst });
            }
            Opcode::GetGlobalObject => {
                let dst = self.vreg(func.result(inst));
                self.op(LOp::GetGlobalObject { dst });
            }

            // ---- Scopes
            Opcode::GetParentScope => {
                let dst = self.vreg(func.result(inst));
                self.op(LOp::GetParentEnvironment { dst });
            }
            Opcode::CreateScope => {
                let Imm::Scope(s) = data.imm else { return Err(bad_imm(data.opcode)) };
                let size = self.module.scopes.get(s).ok_or_else(|| format!("{s} does not exist"))?.vars.len() as u32;
                let parent = self.operand(args[0]);
                let dst = self.vreg(func.result(inst));
                self.op(LOp::CreateEnvironment { dst, parent, size });
            }
            Opcode::ResolveScope => {
                let Imm::Scope(target) = data.imm else { return Err(bad_imm(data.opcode)) };
                let from = self.env_scope(args[0])?;
                let levels = self
                    .module
                    .scope_distance(from, target)
                    .ok_or_else(|| format!("resolve_scope: {target} does not enclose {from}"))?;
                let env = self.operand(args[0]);
                let dst = self.vreg(func.result(inst));
                self.op(LOp::ResolveEnvironment { dst, env, levels });
            }
            Opcode::LoadFrame => {
                let Imm::Var(var) = data.imm else { return Err(bad_imm(data.opcode)) };
                let env = self.operand(args[0]);
                let dst = self.vreg(func.result(inst));
                self.op(LOp::LoadFromEnvironment { dst, env, slot: var.index });
            }
            Opcode::LoadImport => {
                let Imm::Var(var) = data.imm else { return Err(bad_imm(data.opcode)) };
                let name = self.module.scopes[var.scope].vars[var.index as usize].name;
                let name = self.ids.atom(name);
                let env = self.operand(args[0]);
                let dst = self.vreg(func.result(inst));
                self.op(LOp::LoadImport { dst, env, slot: var.index, name });
            }
            Opcode::StoreFrame => {
                let Imm::Var(var) = data.imm else { return Err(bad_imm(data.opcode)) };
                let value = self.operand(args[0]);
                let env = self.operand(args[1]);
                self.op(LOp::StoreToEnvironment { env, slot: var.index, value });
            }
            Opcode::ThrowIfEmpty => {
                let Imm::Name(name) = data.imm else { return Err(bad_imm(data.opcode)) };
                let name = self.ids.atom(name);
                let src = self.operand(args[0]);
                let dst = self.vreg(func.result(inst));
                self.op(LOp::ThrowIfEmpty { dst, src, name });
            }

            // ---- Operators
            Opcode::BinaryOp => {
                let Imm::BinOp(op) = data.imm else { return Err(bad_imm(data.opcode)) };
                let numbers = arg_ty(0).is_number() && arg_ty(1).is_number();
                let lhs = self.operand(args[0]);
                let rhs = self.operand(args[1]);
                let dst = self.vreg(func.result(inst));
                self.op(select_binary(op, numbers, dst, lhs, rhs));
            }
            Opcode::UnaryOp => {
                let Imm::UnOp(op) = data.imm else { return Err(bad_imm(data.opcode)) };
                let src = self.operand(args[0]);
                let dst = self.vreg(func.result(inst));
                self.op(match op {
                    UnOp::Neg => LOp::Negate { dst, src },
                    UnOp::BitNot => LOp::BitNot { dst, src },
                    UnOp::Not => LOp::Not { dst, src },
                    UnOp::TypeOf => LOp::TypeOf { dst, src },
                    UnOp::Inc => LOp::Inc { dst, src },
                    UnOp::Dec => LOp::Dec { dst, src },
                });
            }
            Opcode::AsNumber => self.unary(inst, |dst, src| LOp::ToNumber { dst, src }),
            Opcode::AsNumeric => match self.post_steps.get(&inst).copied() {
                Some(step) => {
                    let src = self.operand(args[0]);
                    let old = self.vreg(func.result(inst));
                    let dst = self.vreg(func.result(step));
                    self.op(match func.insts[step].imm {
                        Imm::UnOp(UnOp::Dec) => LOp::PostDec { old, dst, src },
                        _ => LOp::PostInc { old, dst, src },
                    });
                }
                None => self.unary(inst, |dst, src| LOp::ToNumeric { dst, src }),
            },
            Opcode::AsString => self.unary(inst, |dst, src| LOp::ToString { dst, src }),
            Opcode::ToPropertyKey => self.unary(inst, |dst, src| LOp::ToPropertyKey { dst, src }),

            // ---- Properties
            Opcode::LoadProperty => {
                let obj = self.operand(args[0]);
                let op = match self.named_key(args[1]) {
                    Some(name) => {
                        let ic = self.ic();
                        let dst = self.vreg(func.result(inst));
                        LOp::GetById { dst, obj, name, ic }
                    }
                    None => {
                        let key = self.key_operand(args[1]);
                        let dst = self.vreg(func.result(inst));
                        LOp::GetByVal { dst, obj, key }
                    }
                };
                self.op(op);
            }
            Opcode::StoreProperty => {
                let value = self.operand(args[0]);
                let obj = self.operand(args[1]);
                let op = match self.named_key(args[2]) {
                    Some(name) => {
                        let ic = self.ic();
                        LOp::PutById { obj, name, value, ic }
                    }
                    None => {
                        let key = self.key_operand(args[2]);
                        LOp::PutByVal { obj, key, value }
                    }
                };
                self.op(op);
            }
            Opcode::DeleteProperty => {
                let obj = self.operand(args[0]);
                let op = match self.named_key(args[1]) {
                    Some(name) => LOp::DelById { dst: self.vreg(func.result(inst)), obj, name },
                    None => {
                        let key = self.key_operand(args[1]);
                        LOp::DelByVal { dst: self.vreg(func.result(inst)), obj, key }
                    }
                };
                self.op(op);
            }
            Opcode::DefineOwnProperty => {
                let Imm::Flags(flags) = data.imm else { return Err(bad_imm(data.opcode)) };
                let enumerable = flags & 1 != 0;
                let value = self.operand(args[0]);
                let obj = self.operand(args[1]);
                let op = match (enumerable, self.named_key(args[2]), self.index_key(args[2])) {
                    (true, Some(name), _) => LOp::PutOwnById { obj, name, value, ic: self.ic() },
                    (true, None, Some(index)) => LOp::PutOwnByIndex { obj, index, value },
                    _ => {
                        let key = self.key_operand(args[2]);
                        LOp::PutOwnByVal { obj, key, value, flags: (flags & 1) as u8 }
                    }
                };
                self.op(op);
            }
            Opcode::DefineOwnAccessor => {
                let Imm::Flags(flags) = data.imm else { return Err(bad_imm(data.opcode)) };
                let getter = self.operand(args[0]);
                let setter = self.operand(args[1]);
                let obj = self.operand(args[2]);
                let key = self.operand(args[3]);
                self.op(LOp::PutOwnGetterSetter { obj, key, getter, setter, flags: (flags & 1) as u8 });
            }
            Opcode::TryLoadGlobal => {
                let Imm::Name(name) = data.imm else { return Err(bad_imm(data.opcode)) };
                let name = self.ids.atom(name);
                let ic = self.ic();
                let dst = self.vreg(func.result(inst));
                self.op(LOp::GetGlobal { dst, name, ic });
            }
            Opcode::LoadGlobal => {
                let Imm::Name(name) = data.imm else { return Err(bad_imm(data.opcode)) };
                let name = self.ids.atom(name);
                let ic = self.ic();
                let dst = self.vreg(func.result(inst));
                self.op(LOp::TypeofGlobal { dst, name, ic });
            }
            Opcode::StoreGlobal => {
                let Imm::Name(name) = data.imm else { return Err(bad_imm(data.opcode)) };
                let name = self.ids.atom(name);
                let value = self.operand(args[0]);
                let ic = self.ic();
                self.op(LOp::PutGlobal { name, value, ic });
            }
            Opcode::DeclareGlobals => {
                let Imm::Name(decls) = data.imm else { return Err(bad_imm(data.opcode)) };
                let decls = self.ids.atom(decls);
                let env = self.operand(args[0]);
                self.op(LOp::DeclareGlobals { env, decls });
            }
            Opcode::AllocObject => {
                let op = match args.first() {
                    Some(&proto) => {
                        let proto = self.operand(proto);
                        LOp::NewObjectWithProto { dst: self.vreg(func.result(inst)), proto }
                    }
                    None => LOp::NewObject { dst: self.vreg(func.result(inst)) },
                };
                self.op(op);
            }
            Opcode::AllocArray => {
                let Imm::Index(size) = data.imm else { return Err(bad_imm(data.opcode)) };
                let dst = self.vreg(func.result(inst));
                self.op(LOp::NewArray { dst, size });
            }
            Opcode::StoreOwnIndex => {
                let Imm::Index(index) = data.imm else { return Err(bad_imm(data.opcode)) };
                let value = self.operand(args[0]);
                let obj = self.operand(args[1]);
                self.op(LOp::PutOwnByIndex { obj, index, value });
            }

            // ---- Functions
            Opcode::CreateClosure | Opcode::CreateGenerator => {
                let Imm::Func(f) = data.imm else { return Err(bad_imm(data.opcode)) };
                if self.module.functions.get(f).is_none() {
                    return Err(format!("{f} does not exist"));
                }
                let func_id = self.ids.function(f);
                let env = self.operand(args[0]);
                let dst = self.vreg(func.result(inst));
                self.op(if data.opcode == Opcode::CreateClosure {
                    LOp::CreateClosure { dst, env, func: func_id }
                } else {
                    LOp::CreateGenerator { dst, env, func: func_id }
                });
            }
            Opcode::Call => {
                let callee = self.operand(args[0]);
                let regs = self.call_args(&args[1..], 0);
                let argc = regs.len() as u32;
                self.note_argc(argc);
                let dst = self.vreg(func.result(inst));
                self.push(LKind::Call(LOp::Call { dst, callee, first: regs[0], argc }, regs));
            }
            Opcode::Construct => {
                let callee = self.operand(args[0]);
                let new_target = self.operand(args[1]);
                let regs = self.call_args(&args[2..], 1);
                let argc = regs.len() as u32 + 1;
                self.note_argc(argc);
                let first = self.out.new_vreg(RegClass::Out(0));
                let dst = self.vreg(func.result(inst));
                self.push(LKind::Call(LOp::Construct { dst, callee, new_target, first, argc }, regs));
            }
            Opcode::CallSpread => {
                let callee = self.operand(args[0]);
                let this = self.operand(args[1]);
                let array = self.operand(args[2]);
                let dst = self.vreg(func.result(inst));
                self.op(LOp::CallSpread { dst, callee, this, args: array });
            }
            Opcode::ConstructSpread => {
                let callee = self.operand(args[0]);
                let new_target = self.operand(args[1]);
                let array = self.operand(args[2]);
                let dst = self.vreg(func.result(inst));
                self.op(LOp::ConstructSpread { dst, callee, new_target, args: array });
            }
            Opcode::CallBuiltin | Opcode::DirectEval => {
                let builtin = match (data.opcode, data.imm) {
                    (Opcode::DirectEval, _) => bytecode::BuiltinId::DirectEval as u8,
                    (_, Imm::Builtin(b)) => b,
                    _ => return Err(bad_imm(data.opcode)),
                };
                if bytecode::BuiltinId::from_u8(builtin).is_none() {
                    return Err(format!("call_builtin of unknown builtin {builtin}"));
                }
                let regs = self.call_args(args, 0);
                let argc = regs.len() as u32;
                self.note_argc(argc);
                let first = match regs.first() {
                    Some(&r) => r,
                    None => self.out.new_vreg(RegClass::Out(0)),
                };
                let dst = self.vreg(func.result(inst));
                self.push(LKind::Call(LOp::CallBuiltin { dst, builtin, first, argc }, regs));
            }
            Opcode::GetHomeObject => {
                let dst = self.vreg(func.result(inst));
                self.op(LOp::LoadHomeObject { dst });
            }
            Opcode::CreateRegExp => {
                let Imm::RegExp(pattern, flags) = data.imm else { return Err(bad_imm(data.opcode)) };
                let pattern = self.ids.atom(pattern);
                let flags = self.ids.atom(flags);
                let dst = self.vreg(func.result(inst));
                self.op(LOp::CreateRegExp { dst, pattern, flags });
            }

            // ---- Iteration
            Opcode::GetIterator => self.unary(inst, |dst, src| LOp::GetIterator { dst, src }),
            Opcode::IteratorNext => self.unary(inst, |dst, iter| LOp::IteratorNext { dst, iter }),
            Opcode::IteratorClose => {
                let Imm::Flags(flags) = data.imm else { return Err(bad_imm(data.opcode)) };
                let iter = self.operand(args[0]);
                self.op(LOp::IteratorClose { iter, ignore_errors: (flags & 1) as u8 });
            }
            Opcode::GetPNameList => self.unary(inst, |dst, obj| LOp::GetPNameList { dst, obj }),
            Opcode::GetNextPName => self.unary(inst, |dst, iter| LOp::GetNextPName { dst, iter }),

            // ---- Generators
            Opcode::StartGenerator => self.op(LOp::StartGenerator {}),
            Opcode::SaveAndYield => {
                let value = self.operand(args[0]);
                let resume = self.lblock[&data.targets[0]];
                self.push(LKind::Branch(LOp::SaveGenerator { off: 0 }, resume));
                self.op(LOp::Ret { value });
            }
            Opcode::ResumeGenerator => {
                let is_return = self.slot(args[0])?;
                let dst = self.vreg(func.result(inst));
                self.op(LOp::ResumeGenerator { dst, is_return });
            }
            Opcode::CompleteGenerator => self.op(LOp::CompleteGenerator {}),

            // ---- Control flow
            Opcode::Phi => return Err(format!("phi {} is not at the start of {block}", func.result(inst))),
            Opcode::Branch => self.jump(block, data.targets[0])?,
            Opcode::CondBranch => {
                let (t, f) = (data.targets[0], data.targets[1]);
                if t == f {
                    self.jump(block, t)?;
                } else {
                    let (lt, lf) = (self.edge_target(block, t), self.edge_target(block, f));
                    match self.fused_branches.get(&inst).copied() {
                        Some(FusedTest::Not(x)) => {
                            let cond = self.operand(x);
                            self.push(LKind::Branch(LOp::JmpTrue { off: 0, cond }, lf));
                            self.push(LKind::Branch(LOp::Jmp { off: 0 }, lt));
                        }
                        Some(FusedTest::Is { value, empty, negate }) => {
                            let value = self.operand(value);
                            let (yes, no) = if negate { (lf, lt) } else { (lt, lf) };
                            let op = if empty {
                                LOp::JmpEmpty { off: 0, value }
                            } else {
                                LOp::JmpUndefined { off: 0, value }
                            };
                            self.push(LKind::Branch(op, yes));
                            self.push(LKind::Branch(LOp::Jmp { off: 0 }, no));
                        }
                        Some(FusedTest::Nullish { value, negate }) => {
                            let value = self.operand(value);
                            let (yes, no) = if negate { (lf, lt) } else { (lt, lf) };
                            self.push(LKind::Branch(LOp::JmpNullish { off: 0, value }, yes));
                            self.push(LKind::Branch(LOp::Jmp { off: 0 }, no));
                        }
                        Some(FusedTest::Compare { op, lhs, rhs }) => {
                            // A throwing comparison reports the comparison's location.
                            if let Some(def) = func.def_inst(args[0]) {
                                self.loc = func.insts[def].loc;
                            }
                            let (lhs, rhs) = (self.operand(lhs), self.operand(rhs));
                            let op = compare_jump(op, lhs, rhs).ok_or_else(|| format!("{op:?} is not a comparison"))?;
                            self.push(LKind::Branch(op, lt));
                            self.push(LKind::Branch(LOp::Jmp { off: 0 }, lf));
                        }
                        None => {
                            let cond = self.operand(args[0]);
                            self.push(LKind::Branch(LOp::JmpTrue { off: 0, cond }, lt));
                            self.push(LKind::Branch(LOp::Jmp { off: 0 }, lf));
                        }
                    }
                }
            }
            Opcode::Return if func.as_literal(self.resolve(args[0])) == Some(Literal::Undefined) => {
                self.op(LOp::RetUndefined {})
            }
            Opcode::Return => {
                let value = self.operand(args[0]);
                self.op(LOp::Ret { value });
            }
            Opcode::Throw => {
                let value = self.operand(args[0]);
                self.op(LOp::Throw { value });
            }
            Opcode::ThrowError => {
                let Imm::Error(kind, msg) = data.imm else { return Err(bad_imm(data.opcode)) };
                let msg = self.ids.atom(msg);
                self.op(LOp::ThrowError { kind: kind as u8, msg });
            }
            // Never executed in a correct program; if it is, fail loudly and safely.
            Opcode::Unreachable => self.op(LOp::Trap {}),
            Opcode::TryStart => {
                let t = self.edge_target(block, data.targets[0]);
                self.push(LKind::Branch(LOp::Jmp { off: 0 }, t));
            }
            Opcode::TryEnd => self.jump(block, data.targets[0])?,
            Opcode::Catch => {
                let dst = self.vreg(func.result(inst));
                self.op(LOp::Catch { dst });
            }
            Opcode::Debugger => self.op(LOp::Debugger {}),
        }
        Ok(())
    }

    /// `dst = make(dst, operand 0)`.
    fn unary(&mut self, inst: Inst, make: impl FnOnce(VReg, VReg) -> LOp) {
        let data = &self.func.insts[inst];
        let src = self.operand(data.args[0]);
        let dst = self.vreg(self.func.result(inst));
        self.op(make(dst, src));
    }
}

fn bad_imm(op: Opcode) -> String {
    format!("`{op}` has a malformed immediate (expected {:?})", op.info().imm)
}

/// The instruction for binary operator `op`; `numbers` when both operands are numbers.
fn select_binary(op: BinOp, numbers: bool, dst: VReg, lhs: VReg, rhs: VReg) -> LOp {
    match (op, numbers) {
        (BinOp::Add, true) => LOp::AddN { dst, lhs, rhs },
        (BinOp::Sub, true) => LOp::SubN { dst, lhs, rhs },
        (BinOp::Mul, true) => LOp::MulN { dst, lhs, rhs },
        (BinOp::Div, true) => LOp::DivN { dst, lhs, rhs },
        (BinOp::Lt, true) => LOp::LessN { dst, lhs, rhs },
        (BinOp::Le, true) => LOp::LessEqN { dst, lhs, rhs },
        (BinOp::Gt, true) => LOp::GreaterN { dst, lhs, rhs },
        (BinOp::Ge, true) => LOp::GreaterEqN { dst, lhs, rhs },
        (BinOp::Add, _) => LOp::Add { dst, lhs, rhs },
        (BinOp::Sub, _) => LOp::Sub { dst, lhs, rhs },
        (BinOp::Mul, _) => LOp::Mul { dst, lhs, rhs },
        (BinOp::Div, _) => LOp::Div { dst, lhs, rhs },
        (BinOp::Mod, _) => LOp::Mod { dst, lhs, rhs },
        (BinOp::Exp, _) => LOp::Exp { dst, lhs, rhs },
        (BinOp::BitAnd, _) => LOp::BitAnd { dst, lhs, rhs },
        (BinOp::BitOr, _) => LOp::BitOr { dst, lhs, rhs },
        (BinOp::BitXor, _) => LOp::BitXor { dst, lhs, rhs },
        (BinOp::Shl, _) => LOp::Shl { dst, lhs, rhs },
        (BinOp::Shr, _) => LOp::Shr { dst, lhs, rhs },
        (BinOp::UShr, _) => LOp::UShr { dst, lhs, rhs },
        (BinOp::Eq, _) => LOp::Eq { dst, lhs, rhs },
        (BinOp::Ne, _) => LOp::Neq { dst, lhs, rhs },
        (BinOp::StrictEq, _) => LOp::StrictEq { dst, lhs, rhs },
        (BinOp::StrictNe, _) => LOp::StrictNeq { dst, lhs, rhs },
        (BinOp::Lt, _) => LOp::Less { dst, lhs, rhs },
        (BinOp::Le, _) => LOp::LessEq { dst, lhs, rhs },
        (BinOp::Gt, _) => LOp::Greater { dst, lhs, rhs },
        (BinOp::Ge, _) => LOp::GreaterEq { dst, lhs, rhs },
        (BinOp::In, _) => LOp::IsIn { dst, key: lhs, obj: rhs },
        (BinOp::InstanceOf, _) => LOp::InstanceOf { dst, lhs, rhs },
    }
}

/// The jump taken when `lhs op rhs` holds, for the comparisons `find_fused_branches` folds.
fn compare_jump(op: BinOp, lhs: VReg, rhs: VReg) -> Option<LOp> {
    let off = 0;
    Some(match op {
        BinOp::Eq => LOp::JmpEq { off, lhs, rhs },
        BinOp::Ne => LOp::JmpNeq { off, lhs, rhs },
        BinOp::StrictEq => LOp::JmpStrictEq { off, lhs, rhs },
        BinOp::StrictNe => LOp::JmpStrictNeq { off, lhs, rhs },
        BinOp::Lt => LOp::JmpLess { off, lhs, rhs },
        BinOp::Le => LOp::JmpLessEq { off, lhs, rhs },
        BinOp::Gt => LOp::JmpGreater { off, lhs, rhs },
        BinOp::Ge => LOp::JmpGreaterEq { off, lhs, rhs },
        _ => return None,
    })
}
