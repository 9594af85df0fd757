//! References and what uses them: assignment (plain, compound, logical), `++`/`--`,
//! `delete`.
//!
//! A reference is evaluated once (object, key) and then read and/or written. For
//! read-modify-write operators a computed key is converted with `ToPropertyKey` once, so a
//! key object's `toString` runs once.

use ir::{BinOp, ErrorKind, Imm, Opcode, UnOp, Value};
use swc_ecma_ast::*;

use super::Gen;
use bytecode::BuiltinId;

/// An evaluated reference.
pub(super) enum LRef {
    /// An identifier (resolved at each access: a declaration or a global).
    Name(String),
    /// An identifier inside `with`, resolved once: `target` is the object that has the
    /// binding, or empty for the static binding.
    Dynamic { name: String, target: Value },
    /// `obj[key]`.
    Member { obj: Value, key: Value },
    /// `super[key]` with receiver `this`; `base` is the super base when the reference is
    /// read and then written (taken once, before the key is converted).
    Super { key: Value, this: Value, base: Option<Value> },
    /// `obj.#x`.
    Private { obj: Value, name: PrivateName },
}

fn compound_op(op: AssignOp) -> Option<BinOp> {
    Some(match op {
        AssignOp::AddAssign => BinOp::Add,
        AssignOp::SubAssign => BinOp::Sub,
        AssignOp::MulAssign => BinOp::Mul,
        AssignOp::DivAssign => BinOp::Div,
        AssignOp::ModAssign => BinOp::Mod,
        AssignOp::LShiftAssign => BinOp::Shl,
        AssignOp::RShiftAssign => BinOp::Shr,
        AssignOp::ZeroFillRShiftAssign => BinOp::UShr,
        AssignOp::BitOrAssign => BinOp::BitOr,
        AssignOp::BitXorAssign => BinOp::BitXor,
        AssignOp::BitAndAssign => BinOp::BitAnd,
        AssignOp::ExpAssign => BinOp::Exp,
        AssignOp::Assign | AssignOp::AndAssign | AssignOp::OrAssign | AssignOp::NullishAssign => return None,
    })
}

impl<'a> Gen<'a> {
    fn member_lref(&mut self, m: &'a MemberExpr, convert_key: bool) -> LRef {
        if self.lines.call_target(m.span.lo) {
            return self.call_target_lref(m);
        }
        let obj = self.expr(&m.obj);
        if let MemberProp::PrivateName(p) = &m.prop {
            return LRef::Private { obj, name: p.clone() };
        }
        let mut key = self.member_key(&m.prop);
        if convert_key && matches!(m.prop, MemberProp::Computed(_)) {
            // GetValue converts the base with ToObject before the key is converted.
            let msg = self.str_lit("Cannot read properties of undefined or null");
            self.call_builtin(BuiltinId::RequireObjectCoercible, vec![obj, msg]);
            key = self.emit(Opcode::ToPropertyKey, vec![key], Imm::None);
        }
        LRef::Member { obj, key }
    }

    /// A call as the target of `=`, a compound assignment, `++`/`--` or a for-in/of head,
    /// which the parser gives as a member expression (see `LineTable::call_target`): the
    /// callee is `m.obj` and the arguments are in `m.prop` (`f[a, b]` for `f(a, b)`, `f.$`
    /// for `f()`). Sloppy code makes the call, then throws a ReferenceError (Annex B, Runtime
    /// Errors for Function Call Assignment Targets); in strict code it is an early error.
    fn call_target_lref(&mut self, m: &'a MemberExpr) -> LRef {
        let dead = LRef::Name(String::new());
        if self.strict() {
            let d = self.lines.diag(m.span, "Invalid left-hand side in assignment".to_string());
            self.diags.push(d);
            return dead;
        }
        let (f, this) = self.callee_and_this(&m.obj);
        let args = match &m.prop {
            MemberProp::Computed(c) => match &*c.expr {
                Expr::Seq(s) => s.exprs.iter().map(|e| self.expr(e)).collect(),
                e => vec![self.expr(e)],
            },
            _ => Vec::new(),
        };
        self.at(m.span);
        self.do_call(f, this, super::expr::Args::List(args));
        self.throw_error(ErrorKind::ReferenceError, "Invalid left-hand side in assignment");
        dead
    }

    /// The reference of identifier `name` (resolved now when `with` objects are involved).
    fn name_lref(&mut self, name: &str) -> LRef {
        let withs = self.with_objects(name);
        if withs.is_empty() {
            return LRef::Name(name.to_string());
        }
        let target = self.with_lookup(name, &withs);
        LRef::Dynamic { name: name.to_string(), target }
    }

    fn super_lref(&mut self, s: &'a SuperPropExpr, convert_key: bool) -> LRef {
        let this = self.this_value();
        let mut key = self.super_key(&s.prop);
        let mut base = None;
        if convert_key {
            // Read and written: GetSuperBase once, then the key converted once.
            let home = self.home_object_value();
            base = Some(self.call_builtin(BuiltinId::GetPrototypeOf, vec![home]));
            if matches!(s.prop, SuperProp::Computed(_)) {
                key = self.emit(Opcode::ToPropertyKey, vec![key], Imm::None);
            }
        }
        LRef::Super { key, this, base }
    }

    /// Evaluates an assignment target expression.
    pub(super) fn lref_expr(&mut self, e: &'a Expr, convert_key: bool) -> Option<LRef> {
        match e {
            Expr::Ident(i) => Some(self.name_lref(&i.sym)),
            Expr::Member(m) => Some(self.member_lref(m, convert_key)),
            Expr::SuperProp(s) => Some(self.super_lref(s, convert_key)),
            Expr::Paren(p) => self.lref_expr(&p.expr, convert_key),
            other => {
                self.unsupported(swc_common::Spanned::span(other), "this assignment target");
                None
            }
        }
    }

    fn lref_simple(&mut self, t: &'a SimpleAssignTarget, convert_key: bool) -> Option<LRef> {
        match t {
            SimpleAssignTarget::Ident(b) => Some(self.name_lref(&b.id.sym)),
            SimpleAssignTarget::Member(m) => Some(self.member_lref(m, convert_key)),
            SimpleAssignTarget::SuperProp(s) => Some(self.super_lref(s, convert_key)),
            SimpleAssignTarget::Paren(p) => self.lref_expr(&p.expr, convert_key),
            other => {
                self.unsupported(swc_common::Spanned::span(other), "this assignment target");
                None
            }
        }
    }

    pub(super) fn load_lref(&mut self, r: &LRef) -> Value {
        match r {
            LRef::Name(n) => self.load_name(n),
            LRef::Dynamic { name, target } => self.load_dynamic(name, *target),
            LRef::Member { obj, key } => self.emit(Opcode::LoadProperty, vec![*obj, *key], Imm::None),
            LRef::Super { key, this, base: None } => self.super_get(*key, *this),
            LRef::Super { key, this, base: Some(base) } => {
                let home = self.home_object_value();
                self.call_builtin(BuiltinId::SuperGet, vec![home, *key, *this, *base])
            }
            LRef::Private { obj, name } => self.private_get(*obj, name),
        }
    }

    pub(super) fn store_lref(&mut self, r: &LRef, v: Value) {
        match r {
            LRef::Name(n) => self.store_name(n, v),
            LRef::Dynamic { name, target } => self.store_dynamic(name, *target, v),
            LRef::Member { obj, key } if self.strict_region() => {
                self.call_builtin(BuiltinId::PutValueStrict, vec![*obj, *key, v]);
            }
            LRef::Member { obj, key } => {
                self.emit_void(Opcode::StoreProperty, vec![v, *obj, *key], Imm::None);
            }
            LRef::Super { key, this, base } => {
                let home = self.home_object_value();
                let mut args = vec![home, *key, v, *this];
                if !self.strict() || base.is_some() {
                    let strict = self.strict();
                    args.push(self.bool_lit(strict));
                }
                if let Some(base) = base {
                    args.push(*base);
                }
                self.call_builtin(BuiltinId::SuperSet, args);
            }
            LRef::Private { obj, name } => self.private_set(*obj, name, v),
        }
    }

    pub(super) fn assign(&mut self, a: &'a AssignExpr) -> Value {
        let t = match &a.left {
            AssignTarget::Pat(p) => {
                let v = self.expr(&a.right);
                self.at(a.span);
                match p {
                    AssignTargetPat::Array(arr) => self.bind_array(arr, v, super::pattern::Mode::Assign),
                    AssignTargetPat::Object(obj) => self.bind_object(obj, v, super::pattern::Mode::Assign),
                    AssignTargetPat::Invalid(i) => self.unsupported(i.span, "this assignment target"),
                }
                return v;
            }
            AssignTarget::Simple(t) => t,
        };
        let hint = match t {
            SimpleAssignTarget::Ident(b) => Some(b.id.sym.to_string()),
            _ => None,
        };
        match a.op {
            AssignOp::Assign => {
                let Some(r) = self.lref_simple(t, false) else { return self.undef() };
                let v = self.expr_named(&a.right, hint.as_deref());
                self.at(a.span);
                self.store_lref(&r, v);
                v
            }
            AssignOp::AndAssign | AssignOp::OrAssign | AssignOp::NullishAssign => {
                let Some(r) = self.lref_simple(t, true) else { return self.undef() };
                let old = self.load_lref(&r);
                let rhs = self.new_block();
                let join = self.new_block();
                let mut incoming = Vec::new();
                let test = if a.op == AssignOp::NullishAssign { self.is_nullish(old) } else { old };
                incoming.push((old, self.cur_block()));
                match a.op {
                    AssignOp::OrAssign => self.cond_branch(test, join, rhs),
                    _ => self.cond_branch(test, rhs, join),
                }
                self.switch_to(rhs);
                let v = self.expr_named(&a.right, hint.as_deref());
                self.at(a.span);
                self.store_lref(&r, v);
                self.edge(v, join, &mut incoming);
                self.merge(join, incoming)
            }
            op => {
                let Some(r) = self.lref_simple(t, true) else { return self.undef() };
                let old = self.load_lref(&r);
                let rv = self.expr(&a.right);
                self.at(a.span);
                let bop = compound_op(op).expect("compound assignment operator");
                let nv = self.b().binary(bop, old, rv);
                self.store_lref(&r, nv);
                nv
            }
        }
    }

    pub(super) fn update(&mut self, u: &'a UpdateExpr) -> Value {
        let Some(r) = self.lref_expr(&u.arg, true) else { return self.undef() };
        self.at(u.span);
        let old = self.load_lref(&r);
        let op = if u.op == UpdateOp::PlusPlus { UnOp::Inc } else { UnOp::Dec };
        if u.prefix {
            let nv = self.b().unary(op, old);
            self.store_lref(&r, nv);
            nv
        } else {
            let o = self.emit(Opcode::AsNumeric, vec![old], Imm::None);
            let nv = self.b().unary(op, o);
            self.store_lref(&r, nv);
            o
        }
    }

    pub(super) fn delete(&mut self, arg: &'a Expr) -> Value {
        match arg {
            Expr::Paren(p) => self.delete(&p.expr),
            Expr::Member(m) => {
                let obj = self.expr(&m.obj);
                let key = self.member_key(&m.prop);
                self.at_member(m);
                if self.strict_region() {
                    return self.call_builtin(BuiltinId::DeleteStrict, vec![obj, key]);
                }
                self.emit(Opcode::DeleteProperty, vec![obj, key], Imm::None)
            }
            Expr::SuperProp(s) => {
                self.this_value();
                self.super_key(&s.prop);
                self.at(s.span);
                self.throw_error(ErrorKind::ReferenceError, "Unsupported reference to 'super'");
                self.bool_lit(true)
            }
            Expr::Ident(i) => {
                let withs = self.with_objects(&i.sym);
                let (target, join) = if withs.is_empty() {
                    (None, None)
                } else {
                    let target = self.with_lookup(&i.sym, &withs);
                    let is_static = self.is_empty(target);
                    let stat = self.new_block();
                    let dynamic = self.new_block();
                    self.cond_branch(is_static, stat, dynamic);
                    self.switch_to(dynamic);
                    let k = self.str_lit(&i.sym);
                    let r = self.emit(Opcode::DeleteProperty, vec![target, k], Imm::None);
                    let join = self.new_block();
                    let mut incoming = Vec::new();
                    self.edge(r, join, &mut incoming);
                    self.switch_to(stat);
                    (Some(incoming), Some(join))
                };
                let r = match self.resolve(&i.sym) {
                    Some(_) => self.bool_lit(false),
                    None => {
                        let g = self.emit(Opcode::GetGlobalObject, Vec::new(), Imm::None);
                        let k = self.str_lit(&i.sym);
                        self.emit(Opcode::DeleteProperty, vec![g, k], Imm::None)
                    }
                };
                match (target, join) {
                    (Some(mut incoming), Some(join)) => {
                        self.edge(r, join, &mut incoming);
                        self.merge(join, incoming)
                    }
                    _ => r,
                }
            }
            Expr::OptChain(o) => match &*o.base {
                OptChainBase::Member(m) => {
                    let nullish = self.new_block();
                    let obj = self.chain_operand(&m.obj, nullish);
                    if o.optional {
                        self.nullish_check(obj, nullish);
                    }
                    let key = self.member_key(&m.prop);
                    self.at_member(m);
                    let r = self.emit(Opcode::DeleteProperty, vec![obj, key], Imm::None);
                    let join = self.new_block();
                    let mut incoming = Vec::new();
                    self.edge(r, join, &mut incoming);
                    self.switch_to(nullish);
                    let t = self.bool_lit(true);
                    self.edge(t, join, &mut incoming);
                    self.merge(join, incoming)
                }
                OptChainBase::Call(_) => {
                    self.expr(arg);
                    self.bool_lit(true)
                }
            },
            other => {
                self.expr(other);
                self.bool_lit(true)
            }
        }
    }
}
