//! The text form of MIR (what `iris mir` reads and the dumps print; `parse` reads it back):
//!
//! ```text
//! function %sum(ptr, i32) -> value {
//!     e0 = exit @14 [r0: v1, r1: v4, r2: undefined]
//!     e2 = exit @4 [r0: v1, r3: undefined] arguments r3   (the VM makes r3's arguments object)
//!     e1 = exit @2 [r0: v1, r9: v7] inlined 0x5e10 at @14 window 9   (in an inlined callee;
//!                                   one `inlined` per frame, outermost first, when nested)
//!     e3 = exit @1 [r0: v1, r4: v9] inlined 0x5e10 at @6 window 4 construct arguments r3
//!                                   (a constructor's frame; the VM makes its r3's arguments
//!                                   object; `forward` for f.apply(x, arguments))
//! block0(v0: ptr, v1: i32):
//!     v2 = iconst.i32 0
//!     jump block1(v2, v2)
//! block1(v3: i32, v4: i32) loop osr @8:
//!     v5 = icmp.slt v3, v1
//!     brif v5, block2, block3
//! block2:
//!     v6 = load.i32 v0, 0
//!     v7 = iadd_ovf v4, v6, e0
//!     v8 = iconst.i32 1
//!     v9 = iadd.i32 v3, v8
//!     jump block1(v9, v7)
//! block3:
//!     v10 = box_i32 v4
//!     return v10
//! }
//! ```
//!
//! Exits are declared first; an instruction that can leave names its exit last. Integer
//! operations and `iconst`/`load` carry their type (`iadd.i32`); every other result type
//! follows from the operation. Values, blocks and exits keep their numbers, so printing a
//! parsed function gives the text back.

use std::fmt::{self, Write};

use super::*;

impl IntCC {
    pub const ALL: [IntCC; 10] = [
        IntCC::Eq,
        IntCC::Ne,
        IntCC::Slt,
        IntCC::Sle,
        IntCC::Sgt,
        IntCC::Sge,
        IntCC::Ult,
        IntCC::Ule,
        IntCC::Ugt,
        IntCC::Uge,
    ];
    pub fn name(self) -> &'static str {
        match self {
            IntCC::Eq => "eq",
            IntCC::Ne => "ne",
            IntCC::Slt => "slt",
            IntCC::Sle => "sle",
            IntCC::Sgt => "sgt",
            IntCC::Sge => "sge",
            IntCC::Ult => "ult",
            IntCC::Ule => "ule",
            IntCC::Ugt => "ugt",
            IntCC::Uge => "uge",
        }
    }
}

impl FloatCC {
    pub const ALL: [FloatCC; 6] = [FloatCC::Eq, FloatCC::Ne, FloatCC::Lt, FloatCC::Le, FloatCC::Gt, FloatCC::Ge];
    pub fn name(self) -> &'static str {
        match self {
            FloatCC::Eq => "eq",
            FloatCC::Ne => "ne",
            FloatCC::Lt => "lt",
            FloatCC::Le => "le",
            FloatCC::Gt => "gt",
            FloatCC::Ge => "ge",
        }
    }
}

impl IntOp {
    pub const ALL: [IntOp; 9] =
        [IntOp::Add, IntOp::Sub, IntOp::Mul, IntOp::And, IntOp::Or, IntOp::Xor, IntOp::Shl, IntOp::Sshr, IntOp::Ushr];
    pub fn name(self) -> &'static str {
        match self {
            IntOp::Add => "iadd",
            IntOp::Sub => "isub",
            IntOp::Mul => "imul",
            IntOp::And => "band",
            IntOp::Or => "bor",
            IntOp::Xor => "bxor",
            IntOp::Shl => "shl",
            IntOp::Sshr => "sshr",
            IntOp::Ushr => "ushr",
        }
    }
}

impl FloatOp {
    pub const ALL: [FloatOp; 4] = [FloatOp::Add, FloatOp::Sub, FloatOp::Mul, FloatOp::Div];
    pub fn name(self) -> &'static str {
        match self {
            FloatOp::Add => "fadd",
            FloatOp::Sub => "fsub",
            FloatOp::Mul => "fmul",
            FloatOp::Div => "fdiv",
        }
    }
}

impl CheckedOp {
    pub const ALL: [CheckedOp; 3] = [CheckedOp::Add, CheckedOp::Sub, CheckedOp::Mul];
    pub fn name(self) -> &'static str {
        match self {
            CheckedOp::Add => "iadd_ovf",
            CheckedOp::Sub => "isub_ovf",
            CheckedOp::Mul => "imul_ovf",
        }
    }
}

impl Tag {
    pub const ALL: [Tag; 8] =
        [Tag::Number, Tag::Object, Tag::String, Tag::Symbol, Tag::BigInt, Tag::Undefined, Tag::Null, Tag::Boolean];
    pub fn name(self) -> &'static str {
        match self {
            Tag::Number => "number",
            Tag::Object => "object",
            Tag::String => "string",
            Tag::Symbol => "symbol",
            Tag::BigInt => "bigint",
            Tag::Undefined => "undefined",
            Tag::Null => "null",
            Tag::Boolean => "boolean",
        }
    }
}

impl fmt::Display for JsConst {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsConst::Undefined => f.write_str("undefined"),
            JsConst::Null => f.write_str("null"),
            JsConst::True => f.write_str("true"),
            JsConst::False => f.write_str("false"),
            JsConst::Empty => f.write_str("empty"),
            JsConst::Number(n) => write!(f, "{}", F64(n.get())),
        }
    }
}

/// An f64 printed so that it parses back to the same bits (`-0.0`, `NaN`, `inf`).
struct F64(f64);

impl fmt::Display for F64 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

impl Op {
    /// The operation's name in the text form (with its type or condition suffix).
    pub fn mnemonic(&self, f: &Function) -> String {
        match self {
            Op::Iconst(ty, _) => format!("iconst.{}", ty.name()),
            Op::Fconst(_) => "fconst".into(),
            Op::Vconst(_) => "vconst".into(),
            Op::Int(op, a, _) => format!("{}.{}", op.name(), f.ty(*a).name()),
            Op::Checked(op, ..) => op.name().into(),
            Op::Icmp(cc, ..) => format!("icmp.{}", cc.name()),
            Op::Float(op, ..) => op.name().into(),
            Op::Fneg(_) => "fneg".into(),
            Op::Fcmp(cc, ..) => format!("fcmp.{}", cc.name()),
            Op::I32ToF64(_) => "i32_to_f64".into(),
            Op::F64ToI32(_) => "f64_to_i32".into(),
            Op::ToInt32(_) => "to_int32".into(),
            Op::Sext(_) => "sext".into(),
            Op::Trunc(_) => "trunc".into(),
            Op::Bits(_) => "bits".into(),
            Op::FromBits(_) => "from_bits".into(),
            Op::BoxI32(_) => "box_i32".into(),
            Op::BoxF64(_) => "box_f64".into(),
            Op::BoxObject(_) => "box_object".into(),
            Op::UnboxI32(_) => "unbox_i32".into(),
            Op::UnboxF64(_) => "unbox_f64".into(),
            Op::UnboxObject(_) => "unbox_object".into(),
            Op::TagIs(tag, _) => format!("tag_is.{}", tag.name()),
            Op::Check(_, Reason::Check) => "check".into(),
            Op::Check(_, why) => format!("check.{}", why.name()),
            Op::LoadShape(_) => "load_shape".into(),
            Op::StoreShape(..) => "store_shape".into(),
            Op::GuardShape(..) => "guard_shape".into(),
            Op::LoadSlot(..) => "load_slot".into(),
            Op::StoreSlot(..) => "store_slot".into(),
            Op::LoadEnv(..) => "load_env".into(),
            Op::StoreEnv(..) => "store_env".into(),
            Op::LoadOolSlot(..) => "load_ool_slot".into(),
            Op::StoreOolSlot(..) => "store_ool_slot".into(),
            Op::ArrayLength(_) => "array_length".into(),
            Op::LoadElem(..) => "load_elem".into(),
            Op::HasElem(..) => "has_elem".into(),
            Op::StoreElem(..) => "store_elem".into(),
            Op::InitElem(..) => "init_elem".into(),
            Op::LoadReg(_) => "load_reg".into(),
            Op::StoreReg(..) => "store_reg".into(),
            Op::Load(ty, ..) => format!("load.{}", ty.name()),
            Op::Store(..) => "store".into(),
            Op::CallHelper(..) => "call_helper".into(),
            Op::Call(..) => "call".into(),
            Op::Jump(..) => "jump".into(),
            Op::Brif(..) => "brif".into(),
            Op::Return(_) => "return".into(),
            Op::Deopt(Reason::Check) => "deopt".into(),
            Op::Deopt(why) => format!("deopt.{}", why.name()),
        }
    }
}

fn block_target(out: &mut String, b: Block, args: &[Val]) {
    let _ = write!(out, "{b}");
    if !args.is_empty() {
        out.push('(');
        list(out, args);
        out.push(')');
    }
}

fn list(out: &mut String, vals: &[Val]) {
    for (i, v) in vals.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{v}");
    }
}

/// One instruction, without indentation or newline.
pub fn inst_to_string(f: &Function, inst: &Inst) -> String {
    let mut out = String::new();
    if let Some(r) = inst.result {
        let _ = write!(out, "{r} = ");
    }
    out.push_str(&inst.op.mnemonic(f));
    let mut operands: Vec<String> = Vec::new();
    match &inst.op {
        Op::Iconst(Type::Ptr, n) => operands.push(format!("{:#x}", *n as u64)),
        Op::Iconst(_, n) => operands.push(n.to_string()),
        Op::Fconst(n) => operands.push(F64(n.get()).to_string()),
        Op::Vconst(c) => operands.push(c.to_string()),
        Op::LoadSlot(o, n) | Op::LoadOolSlot(o, n) | Op::LoadEnv(o, n) => {
            operands.extend([o.to_string(), n.to_string()])
        }
        Op::StoreSlot(o, n, v) | Op::StoreOolSlot(o, n, v) | Op::StoreEnv(o, n, v) => {
            operands.extend([o.to_string(), n.to_string(), v.to_string()])
        }
        Op::LoadReg(n) => operands.push(n.to_string()),
        Op::StoreReg(n, v) => operands.extend([n.to_string(), v.to_string()]),
        Op::Load(_, p, off) => operands.extend([p.to_string(), off.to_string()]),
        Op::Store(p, off, v) => operands.extend([p.to_string(), off.to_string(), v.to_string()]),
        Op::CallHelper(name, args) | Op::Call(name, args) => {
            let sigil = if matches!(inst.op, Op::CallHelper(..)) { '@' } else { '%' };
            let mut s = format!("{sigil}{name}(");
            list(&mut s, args);
            s.push(')');
            operands.push(s);
        }
        Op::Jump(b, args) => {
            let mut s = String::new();
            block_target(&mut s, *b, args);
            operands.push(s);
        }
        Op::Brif(c, t, ta, e, ea) => {
            operands.push(c.to_string());
            for (b, args) in [(t, ta), (e, ea)] {
                let mut s = String::new();
                block_target(&mut s, *b, args);
                operands.push(s);
            }
        }
        op => operands.extend(op.args().iter().map(|v| v.to_string())),
    }
    if let Some(e) = inst.exit {
        operands.push(e.to_string());
    }
    if !operands.is_empty() {
        out.push(' ');
        out.push_str(&operands.join(", "));
    }
    out
}

/// An exit declaration, without indentation or newline.
pub fn exit_to_string(id: ExitId, state: &ExitState) -> String {
    let mut out = format!("{id} = exit @{} [", state.offset);
    for (i, (reg, v)) in state.regs.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = match v {
            ExitValue::Val(v) => write!(out, "r{reg}: {v}"),
            ExitValue::Const(c) => write!(out, "r{reg}: {c}"),
        };
    }
    out.push(']');
    if let Some(r) = state.arguments {
        let _ = write!(out, " arguments r{r}");
    }
    for i in &state.inlined {
        let _ = write!(out, " inlined {:#x} at @{} window {}", i.function, i.call, i.window);
        match i.kind {
            FrameKind::Call => {}
            FrameKind::Construct => out.push_str(" construct"),
            FrameKind::Forward => out.push_str(" forward"),
        }
        if let Some(r) = i.arguments {
            let _ = write!(out, " arguments r{r}");
        }
    }
    out
}

impl fmt::Display for Function {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        let params: Vec<&str> = match self.entry() {
            Some(b) => self.block(b).params.iter().map(|&p| self.ty(p).name()).collect(),
            None => Vec::new(),
        };
        write!(out, "function %{}({})", self.name, params.join(", "))?;
        if let Some(ret) = self.ret {
            write!(out, " -> {}", ret.name())?;
        }
        writeln!(out, " {{")?;
        for (i, state) in self.exits.iter().enumerate() {
            writeln!(out, "    {}", exit_to_string(ExitId(i as u32), state))?;
        }
        for &b in &self.layout {
            let data = self.block(b);
            write!(out, "{b}")?;
            if !data.params.is_empty() {
                let ps: Vec<String> = data.params.iter().map(|&p| format!("{p}: {}", self.ty(p).name())).collect();
                write!(out, "({})", ps.join(", "))?;
            }
            if data.is_loop {
                write!(out, " loop")?;
            }
            if let Some(off) = data.osr {
                write!(out, " osr @{off}")?;
            }
            if let Some(e) = data.resume {
                write!(out, " resume {e}")?;
            }
            writeln!(out, ":")?;
            for inst in &data.insts {
                writeln!(out, "    {}", inst_to_string(self, inst))?;
            }
        }
        writeln!(out, "}}")
    }
}
