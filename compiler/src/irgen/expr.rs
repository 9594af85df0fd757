//! Expressions: identifiers, literals, operators (short-circuiting `&&`, `||`, `??` with
//! Phis), conditionals, calls (with spread), `new`, `super(...)`, `super.x`, member access,
//! optional chains, functions and arrows, `new.target`.
//!
//! An optional chain `a?.b.c()` evaluates its links in order and jumps to one "nullish"
//! block as soon as a `?.` finds null or undefined; the chain's value is a Phi of the last
//! link and `undefined`.

use ir::{BinOp, Block, Imm, Opcode, UnOp, Value};
use swc_common::Spanned;
use swc_ecma_ast::*;

use super::func::{Body, FnDef};
use super::Gen;
use crate::frontend::scope::DeclKind;
use bytecode::BuiltinId;

/// Call arguments: a list, or an array when some are spread.
pub(super) enum Args {
    List(Vec<Value>),
    Array(Value),
}

/// The HIR operator of a non-logical binary operator.
fn bin_op(op: BinaryOp) -> Option<BinOp> {
    Some(match op {
        BinaryOp::EqEq => BinOp::Eq,
        BinaryOp::NotEq => BinOp::Ne,
        BinaryOp::EqEqEq => BinOp::StrictEq,
        BinaryOp::NotEqEq => BinOp::StrictNe,
        BinaryOp::Lt => BinOp::Lt,
        BinaryOp::LtEq => BinOp::Le,
        BinaryOp::Gt => BinOp::Gt,
        BinaryOp::GtEq => BinOp::Ge,
        BinaryOp::LShift => BinOp::Shl,
        BinaryOp::RShift => BinOp::Shr,
        BinaryOp::ZeroFillRShift => BinOp::UShr,
        BinaryOp::Add => BinOp::Add,
        BinaryOp::Sub => BinOp::Sub,
        BinaryOp::Mul => BinOp::Mul,
        BinaryOp::Div => BinOp::Div,
        BinaryOp::Mod => BinOp::Mod,
        BinaryOp::BitOr => BinOp::BitOr,
        BinaryOp::BitXor => BinOp::BitXor,
        BinaryOp::BitAnd => BinOp::BitAnd,
        BinaryOp::In => BinOp::In,
        BinaryOp::InstanceOf => BinOp::InstanceOf,
        BinaryOp::Exp => BinOp::Exp,
        BinaryOp::LogicalOr | BinaryOp::LogicalAnd | BinaryOp::NullishCoalescing => return None,
    })
}

/// Whether `e` is an anonymous function definition, which takes its name from the binding
/// or property it is assigned to (IsAnonymousFunctionDefinition).
pub(super) fn is_anonymous_function(e: &Expr) -> bool {
    match e {
        Expr::Fn(f) => f.ident.is_none(),
        Expr::Arrow(_) => true,
        Expr::Class(c) => c.ident.is_none(),
        Expr::Paren(p) => is_anonymous_function(&p.expr),
        _ => false,
    }
}

impl<'a> Gen<'a> {
    pub(super) fn expr(&mut self, e: &'a Expr) -> Value {
        self.expr_named(e, None)
    }

    /// Evaluates `e`; an anonymous function or class gets `name`.
    pub(super) fn expr_named(&mut self, e: &'a Expr, name: Option<&str>) -> Value {
        self.at(e.span());
        match e {
            Expr::This(_) => self.this_value(),
            Expr::Array(a) => self.array_lit(&a.elems),
            Expr::Object(o) => self.object_lit(o),
            Expr::Fn(f) => {
                let name =
                    f.ident.as_ref().map(|i| i.sym.to_string()).or_else(|| name.map(String::from)).unwrap_or_default();
                let def = self.fn_def(&f.function, name, f.function.span);
                match self.gen_function(&def) {
                    Some(fid) => self.closure(fid),
                    None => self.undef(),
                }
            }
            Expr::Arrow(a) => {
                let def = FnDef {
                    key: a.span,
                    source: a.span,
                    params: a.params.iter().collect(),
                    body: match &*a.body {
                        ArrowFunctionBody::FunctionBody(b) => Body::Stmts(&b.stmts),
                        ArrowFunctionBody::Expr(e) => Body::Expr(e),
                    },
                    name: name.unwrap_or_default().to_string(),
                    is_generator: a.is_generator,
                    is_async: a.is_async,
                    declaration: false,
                    method: false,
                };
                match self.gen_function(&def) {
                    Some(fid) => self.closure(fid),
                    None => self.undef(),
                }
            }
            Expr::Class(c) => {
                let own = c.ident.as_ref().map(|i| &*i.sym);
                self.gen_class(&c.class, own, name)
            }
            Expr::Unary(u) => self.unary(u),
            Expr::Update(u) => self.update(u),
            Expr::Bin(b) => self.binary(b),
            Expr::Assign(a) => self.assign(a),
            Expr::Member(m) => {
                let obj = self.expr(&m.obj);
                if let MemberProp::PrivateName(p) = &m.prop {
                    return self.private_get(obj, p);
                }
                let key = self.member_key(&m.prop);
                self.at_member(m);
                self.emit(Opcode::LoadProperty, vec![obj, key], Imm::None)
            }
            Expr::SuperProp(s) => {
                let this = self.this_value();
                let key = self.super_key(&s.prop);
                self.at(s.span);
                self.super_get(key, this)
            }
            Expr::Cond(c) => {
                let t = self.expr(&c.test);
                let then = self.new_block();
                let otherwise = self.new_block();
                let join = self.new_block();
                self.cond_branch(t, then, otherwise);
                let mut incoming = Vec::new();
                self.switch_to(then);
                let a = self.expr_named(&c.cons, name);
                self.edge(a, join, &mut incoming);
                self.switch_to(otherwise);
                let b = self.expr_named(&c.alt, name);
                self.edge(b, join, &mut incoming);
                self.merge(join, incoming)
            }
            Expr::Call(c) => self.call(c),
            Expr::New(n) => {
                let callee = self.expr(&n.callee);
                let args = match &n.args {
                    Some(args) => self.args(args),
                    None => Args::List(Vec::new()),
                };
                self.at(n.span);
                match args {
                    Args::List(mut list) => {
                        list.insert(0, callee);
                        list.insert(0, callee);
                        self.emit(Opcode::Construct, list, Imm::None)
                    }
                    Args::Array(arr) => self.emit(Opcode::ConstructSpread, vec![callee, callee, arr], Imm::None),
                }
            }
            Expr::Seq(s) => {
                let mut v = self.undef();
                let n = s.exprs.len();
                for (i, e) in s.exprs.iter().enumerate() {
                    v = if i + 1 == n { self.expr_named(e, None) } else { self.expr(e) };
                }
                v
            }
            Expr::Ident(i) => self.ident(i),
            Expr::Lit(l) => self.literal(l),
            Expr::Tpl(t) => self.template(t),
            Expr::TaggedTpl(t) => self.tagged_template(t),
            Expr::Yield(y) => self.gen_yield(y),
            Expr::MetaProp(m) => match m.kind {
                MetaPropKind::NewTarget => self.new_target_value(),
                MetaPropKind::ImportMeta => {
                    let module = self.module_identity();
                    self.call_builtin(BuiltinId::ImportMeta, vec![module])
                }
            },
            Expr::Await(a) => self.gen_await(a),
            Expr::Paren(p) => self.expr_named(&p.expr, name),
            Expr::OptChain(o) => self.opt_chain(o),
            Expr::PrivateName(p) => {
                self.unsupported(p.span, "private name");
                self.undef()
            }
            other => {
                self.unsupported(other.span(), "this expression");
                self.undef()
            }
        }
    }

    fn ident(&mut self, i: &Ident) -> Value {
        let name: &str = &i.sym;
        if self.resolve(name).is_none() && self.with_objects(name).is_empty() {
            // Non-writable, non-configurable properties of the global object.
            match name {
                "undefined" => return self.undef(),
                "NaN" => return self.num(f64::NAN),
                "Infinity" => return self.num(f64::INFINITY),
                _ => {}
            }
        }
        self.load_name(name)
    }

    pub(super) fn literal(&mut self, l: &'a Lit) -> Value {
        match l {
            Lit::Str(s) => {
                let units: Vec<u16> = s.value.to_ill_formed_utf16().collect();
                self.str_units(&units)
            }
            Lit::Bool(b) => self.bool_lit(b.value),
            Lit::Null(_) => self.null(),
            Lit::Num(n) => self.num(n.value),
            Lit::BigInt(b) => {
                let digits = self.str_lit(&b.value.to_string());
                self.call_builtin(BuiltinId::CreateBigInt, vec![digits])
            }
            Lit::Regex(r) => {
                let pattern = self.atom(&r.exp);
                let flags = self.atom(&r.flags);
                self.emit(Opcode::CreateRegExp, Vec::new(), Imm::RegExp(pattern, flags))
            }
            Lit::JSXText(t) => {
                self.unsupported(t.span, "JSX");
                self.undef()
            }
        }
    }

    fn unary(&mut self, u: &'a UnaryExpr) -> Value {
        match u.op {
            UnaryOp::TypeOf => {
                let v = match u.arg.unwrap_parens() {
                    Expr::Ident(i) if !self.with_objects(&i.sym).is_empty() => {
                        // Through `with`: unresolvable names are undefined, not errors.
                        let withs = self.with_objects(&i.sym);
                        let target = self.with_lookup(&i.sym, &withs);
                        let is_static = self.is_empty(target);
                        let stat = self.new_block();
                        let dynamic = self.new_block();
                        let join = self.new_block();
                        let mut incoming = Vec::new();
                        self.cond_branch(is_static, stat, dynamic);
                        self.switch_to(dynamic);
                        let key = self.str_lit(&i.sym);
                        let v = self.emit(Opcode::LoadProperty, vec![target, key], Imm::None);
                        self.edge(v, join, &mut incoming);
                        self.switch_to(stat);
                        let v = match self.resolve(&i.sym) {
                            Some(d) => self.load_decl(d),
                            None => {
                                let a = self.atom(&i.sym);
                                self.emit(Opcode::LoadGlobal, Vec::new(), Imm::Name(a))
                            }
                        };
                        self.edge(v, join, &mut incoming);
                        self.merge(join, incoming)
                    }
                    Expr::Ident(i) if self.resolve(&i.sym).is_none() => {
                        let a = self.atom(&i.sym);
                        self.emit(Opcode::LoadGlobal, Vec::new(), Imm::Name(a))
                    }
                    arg => self.expr(arg),
                };
                self.at(u.span);
                self.b().unary(UnOp::TypeOf, v)
            }
            UnaryOp::Void => {
                self.expr(&u.arg);
                self.undef()
            }
            UnaryOp::Delete => self.delete(&u.arg),
            UnaryOp::Minus => {
                if let Expr::Lit(Lit::Num(n)) = &*u.arg {
                    return self.num(-n.value);
                }
                let v = self.expr(&u.arg);
                self.at(u.span);
                self.b().unary(UnOp::Neg, v)
            }
            UnaryOp::Plus => {
                let v = self.expr(&u.arg);
                self.at(u.span);
                self.emit(Opcode::AsNumber, vec![v], Imm::None)
            }
            UnaryOp::Bang => {
                let v = self.expr(&u.arg);
                self.b().unary(UnOp::Not, v)
            }
            UnaryOp::Tilde => {
                let v = self.expr(&u.arg);
                self.at(u.span);
                self.b().unary(UnOp::BitNot, v)
            }
        }
    }

    /// A binary expression. A left-deep chain (`a + b + c + ...`: generated code writes
    /// thousands of operands) is lowered as a list, innermost first, so its length costs no
    /// stack.
    fn binary(&mut self, b: &'a BinExpr) -> Value {
        let mut chain = vec![b];
        while let Expr::Bin(inner) = &*chain[chain.len() - 1].left {
            chain.push(inner);
        }
        let mut v = None;
        for b in chain.into_iter().rev() {
            v = Some(self.binary_operator(b, v));
        }
        v.expect("a chain has a binary expression")
    }

    /// One operator of a binary expression whose left operand is `left` (already lowered,
    /// or lowered here when None).
    fn binary_operator(&mut self, b: &'a BinExpr, left: Option<Value>) -> Value {
        if let Some(op) = bin_op(b.op) {
            if let Expr::PrivateName(p) = &*b.left {
                // `#x in obj`.
                let obj = self.expr(&b.right);
                return self.private_in(p, obj);
            }
            let l = left.unwrap_or_else(|| self.expr(&b.left));
            let r = self.expr(&b.right);
            self.at(b.span);
            return self.b().binary(op, l, r);
        }
        let l = left.unwrap_or_else(|| self.expr(&b.left));
        let rhs = self.new_block();
        let join = self.new_block();
        let mut incoming = vec![(l, self.cur_block())];
        match b.op {
            BinaryOp::LogicalAnd => self.cond_branch(l, rhs, join),
            BinaryOp::LogicalOr => self.cond_branch(l, join, rhs),
            _ => {
                let n = self.is_nullish(l);
                incoming[0].1 = self.cur_block();
                self.cond_branch(n, rhs, join);
            }
        }
        self.switch_to(rhs);
        let r = self.expr(&b.right);
        self.edge(r, join, &mut incoming);
        self.merge(join, incoming)
    }

    /// Locates the following instructions at the property of a member expression.
    pub(super) fn at_member(&mut self, m: &MemberExpr) {
        let span = match &m.prop {
            MemberProp::Ident(i) => i.span,
            MemberProp::Computed(c) => c.span,
            MemberProp::PrivateName(p) => p.span,
        };
        self.at(span);
    }

    /// The key of `obj.x` or `obj[x]`.
    pub(super) fn member_key(&mut self, prop: &'a MemberProp) -> Value {
        match prop {
            MemberProp::Ident(i) => self.str_lit(&i.sym),
            MemberProp::Computed(c) => self.expr(&c.expr),
            MemberProp::PrivateName(p) => {
                self.unsupported(p.span, "private name");
                self.undef()
            }
        }
    }

    /// The key of `super.x` or `super[x]`: not converted to a property key, which
    /// `superGet`/`superSet` do after reading the [[HomeObject]]'s prototype
    /// (MakeSuperPropertyReference happens before GetValue's ToPropertyKey).
    pub(super) fn super_key(&mut self, prop: &'a SuperProp) -> Value {
        match prop {
            SuperProp::Ident(i) => self.str_lit(&i.sym),
            SuperProp::Computed(c) => self.expr(&c.expr),
        }
    }

    pub(super) fn super_get(&mut self, key: Value, this: Value) -> Value {
        let home = self.home_object_value();
        self.call_builtin(BuiltinId::SuperGet, vec![home, key, this])
    }

    // ---- calls -------------------------------------------------------------------------------

    /// Evaluates arguments.
    pub(super) fn args(&mut self, args: &'a [ExprOrSpread]) -> Args {
        if args.iter().any(|a| a.spread.is_some()) {
            let elems: Vec<Option<&'a ExprOrSpread>> = args.iter().map(Some).collect();
            return Args::Array(self.array_from(&elems));
        }
        Args::List(args.iter().map(|a| self.expr(&a.expr)).collect())
    }

    pub(super) fn do_call(&mut self, f: Value, this: Value, args: Args) -> Value {
        match args {
            Args::List(mut list) => {
                list.insert(0, this);
                list.insert(0, f);
                self.emit(Opcode::Call, list, Imm::None)
            }
            Args::Array(arr) => self.emit(Opcode::CallSpread, vec![f, this, arr], Imm::None),
        }
    }

    /// The function and `this` value of a call's callee.
    pub(super) fn callee_and_this(&mut self, callee: &'a Expr) -> (Value, Value) {
        match callee {
            Expr::Paren(p) if matches!(&*p.expr, Expr::Member(_) | Expr::SuperProp(_) | Expr::Paren(_)) => {
                self.callee_and_this(&p.expr)
            }
            // `(a?.b)()` calls with `this` = `a` (a parenthesized reference keeps its base).
            Expr::Paren(p) if matches!(&*p.expr, Expr::OptChain(o) if matches!(&*o.base, OptChainBase::Member(_))) => {
                let nullish = self.new_block();
                let (f, this) = self.chain_callee(&p.expr, nullish);
                let join = self.new_block();
                let mut fs = Vec::new();
                let mut thises = Vec::new();
                if !self.is_terminated() {
                    let from = self.cur_block();
                    fs.push((f, from));
                    thises.push((this, from));
                    self.branch(join);
                }
                self.switch_to(nullish);
                let u = self.undef();
                if !self.is_terminated() {
                    let from = self.cur_block();
                    fs.push((u, from));
                    thises.push((u, from));
                    self.branch(join);
                }
                let f = self.merge(join, fs);
                let this = if thises.iter().all(|(v, _)| *v == thises[0].0) { thises[0].0 } else { self.phi(thises) };
                (f, this)
            }
            Expr::Member(m) => {
                let obj = self.expr(&m.obj);
                if let MemberProp::PrivateName(p) = &m.prop {
                    return (self.private_get(obj, p), obj);
                }
                let key = self.member_key(&m.prop);
                self.at_member(m);
                let f = self.emit(Opcode::LoadProperty, vec![obj, key], Imm::None);
                (f, obj)
            }
            Expr::SuperProp(s) => {
                let this = self.this_value();
                let key = self.super_key(&s.prop);
                self.at(s.span);
                let f = self.super_get(key, this);
                (f, this)
            }
            // Through `%evalvars` only (a function sloppy direct eval declared): no `this`.
            Expr::Ident(i)
                if !self.with_objects(&i.sym).is_empty()
                    && self.with_objects(&i.sym).iter().all(|&w| self.tree.decl(w).kind == DeclKind::EvalVars) =>
            {
                let f = self.load_name(&i.sym);
                (f, self.undef())
            }
            Expr::Ident(i) if !self.with_objects(&i.sym).is_empty() => {
                // A call through `with` has the object as `this`.
                let withs = self.with_objects(&i.sym);
                let target = self.with_lookup(&i.sym, &withs);
                let f = self.load_dynamic(&i.sym, target);
                let is_static = self.is_empty(target);
                let stat = self.new_block();
                let dynamic = self.new_block();
                let join = self.new_block();
                let mut incoming = Vec::new();
                self.cond_branch(is_static, stat, dynamic);
                self.switch_to(dynamic);
                self.edge(target, join, &mut incoming);
                self.switch_to(stat);
                let u = self.undef();
                self.edge(u, join, &mut incoming);
                let this = self.merge(join, incoming);
                (f, this)
            }
            _ => {
                let f = self.expr(callee);
                (f, self.undef())
            }
        }
    }

    fn call(&mut self, c: &'a CallExpr) -> Value {
        match &c.callee {
            Callee::Super(_) => {
                // SuperCall: new.target and the super constructor first, then the arguments.
                let nt = self.new_target_value();
                let callee = self.super_callee_value();
                let parent = self.call_builtin(BuiltinId::GetPrototypeOf, vec![callee]);
                let args = self.args(&c.args);
                self.at(c.span);
                let r = match args {
                    Args::List(mut list) => {
                        list.insert(0, nt);
                        list.insert(0, parent);
                        self.emit(Opcode::Construct, list, Imm::None)
                    }
                    Args::Array(arr) => self.emit(Opcode::ConstructSpread, vec![parent, nt, arr], Imm::None),
                };
                self.bind_derived_this(r);
                // SuperCall step 10: InitializeInstanceElements(result, F).
                let ctor = self.tree.this_function(self.fr().tree_func);
                self.run_field_initializer(ctor, r);
                r
            }
            Callee::Import(i) => {
                if c.args.iter().any(|a| a.spread.is_some()) || c.args.is_empty() || c.args.len() > 2 {
                    self.unsupported(c.span, "this form of `import()`");
                    return self.undef();
                }
                let specifier = self.expr(&c.args[0].expr);
                let options = match c.args.get(1) {
                    Some(a) => self.expr(&a.expr),
                    None => self.undef(),
                };
                let module = self.module_identity();
                self.at(c.span);
                let mut args = vec![module, specifier, options];
                match i.phase {
                    ImportPhase::Source => args.push(self.num(1.0)),
                    ImportPhase::Defer => args.push(self.num(2.0)),
                    ImportPhase::Evaluation => {}
                }
                self.call_builtin(BuiltinId::DynamicImport, args)
            }
            Callee::Expr(e)
                if matches!(&**e, Expr::Ident(i) if &*i.sym == "eval") && c.args.iter().all(|a| a.spread.is_none()) =>
            {
                self.direct_eval(e, c)
            }
            Callee::Expr(e) => {
                // A function called where it is made (`(function () { ... })()`, also with
                // `.call` or `.apply`) runs at once: compiling it lazily would only cost.
                let unparen = |e: &'a Expr| match e {
                    Expr::Paren(p) => &*p.expr,
                    e => e,
                };
                let made_here = |e: &'a Expr| matches!(unparen(e), Expr::Fn(_) | Expr::Arrow(_));
                self.eager_next = match unparen(e) {
                    Expr::Member(m) => {
                        made_here(&m.obj)
                            && matches!(&m.prop, MemberProp::Ident(p) if p.sym == "call" || p.sym == "apply")
                    }
                    e => made_here(e),
                };
                let (f, this) = self.callee_and_this(e);
                let args = self.args(&c.args);
                // Like V8, a method call is located at the property name.
                match &**e {
                    Expr::Member(m) => self.at_member(m),
                    _ => self.at(c.span),
                }
                self.do_call(f, this, args)
            }
        }
    }

    /// `eval(...)`: a direct eval when `eval` is the realm's %eval% (at run time), with the
    /// innermost environment and the description of the scope chain here (see
    /// `frontend::eval`); a plain call of whatever `eval` is otherwise.
    fn direct_eval(&mut self, callee: &'a Expr, c: &'a CallExpr) -> Value {
        let f = self.expr(callee);
        let (env, irs) = self.current_env();
        let scope = self.eval_scope_here(irs, None);
        let desc = self.str_lit(&scope.encode());
        let mut args = vec![f, env, desc];
        for a in &c.args {
            args.push(self.expr(&a.expr));
        }
        self.at(c.span);
        self.emit(Opcode::DirectEval, args, Imm::None)
    }

    /// The caller's scope of a direct eval here, whose innermost environment is of heap
    /// scope `irs`: every variable of its environments, or (lazy compilation) only `uses`.
    pub(super) fn eval_scope_here(
        &mut self,
        irs: Option<ir::ScopeId>,
        uses: Option<&[ir::Var]>,
    ) -> crate::frontend::eval::EvalScope {
        use crate::frontend::eval::{EvalLevel, EvalScope, EvalVar};
        use crate::frontend::scope::FuncKind;
        let tree = self.tree;
        let cur = self.fr().tree_func;
        let cur_kind = tree.func(cur).kind;
        let f = tree.this_function(cur);
        let kind = tree.func(f).kind;
        let outer = self.eval_outer;
        let is_eval = kind == FuncKind::Eval;
        let in_function = match cur_kind {
            FuncKind::Script | FuncKind::Module => false,
            FuncKind::Eval => outer.is_some_and(|o| o.in_function),
            _ => true,
        };
        let var_irs = match cur_kind {
            FuncKind::Eval => self.eval_var_irs,
            _ => self.tree_ir.get(&tree.func(cur).body_scope).copied(),
        };
        let mut levels = Vec::new();
        let mut s = irs;
        while let Some(id) = s {
            let data = &self.module.scopes[id];
            let var = |slot: u32| {
                let v = &data.vars[slot as usize];
                EvalVar::new(self.module.atom_str(v.name), v.kind, slot)
            };
            let vars = match uses {
                None => (0..data.vars.len() as u32).map(var).collect(),
                Some(uses) => {
                    let mut slots: Vec<u32> = uses.iter().filter(|v| v.scope == id).map(|v| v.index).collect();
                    slots.sort_unstable();
                    slots.dedup();
                    slots.into_iter().map(var).collect()
                }
            };
            levels.push(EvalLevel { var_scope: in_function && Some(id) == var_irs, vars });
            s = data.parent;
        }
        let method = matches!(
            kind,
            FuncKind::Method
                | FuncKind::Getter
                | FuncKind::Setter
                | FuncKind::ClassConstructor
                | FuncKind::DerivedConstructor
        );
        EvalScope {
            strict: self.strict(),
            in_function,
            // An arrow has no `arguments` of its own for eval in its parameters to shadow.
            in_params: self.fr().in_params && cur_kind != FuncKind::Arrow,
            new_target: if is_eval {
                outer.is_some_and(|o| o.new_target)
            } else {
                !matches!(kind, FuncKind::Script | FuncKind::Module)
            },
            super_prop: if is_eval { outer.is_some_and(|o| o.super_prop) } else { method },
            super_call: if is_eval {
                outer.is_some_and(|o| o.super_call)
            } else {
                kind == FuncKind::DerivedConstructor
            },
            no_arguments: if is_eval { outer.is_some_and(|o| o.no_arguments) } else { tree.func(f).initializer },
            derived: if is_eval { outer.is_some_and(|o| o.derived) } else { kind == FuncKind::DerivedConstructor },
            module: if is_eval { outer.is_some_and(|o| o.module) } else { kind == FuncKind::Module },
            declaration: false,
            method: false,
            origin: None,
            levels,
        }
    }

    /// The module's identity (its `%module` binding) in module code; undefined in a script.
    fn module_identity(&mut self) -> Value {
        match self.resolve(crate::frontend::scope::MODULE_BINDING) {
            Some(d) => self.read_decl(d),
            None => self.undef(),
        }
    }

    // ---- optional chains --------------------------------------------------------------------

    fn opt_chain(&mut self, o: &'a OptChainExpr) -> Value {
        let nullish = self.new_block();
        let v = self.chain_link(o, nullish);
        let join = self.new_block();
        let mut incoming = Vec::new();
        self.edge(v, join, &mut incoming);
        self.switch_to(nullish);
        let u = self.undef();
        self.edge(u, join, &mut incoming);
        self.merge(join, incoming)
    }

    /// Jumps to `nullish` when `v` is null or undefined.
    pub(super) fn nullish_check(&mut self, v: Value, nullish: Block) {
        let c = self.is_nullish(v);
        let next = self.new_block();
        self.cond_branch(c, nullish, next);
        self.switch_to(next);
    }

    /// One link of an optional chain.
    fn chain_link(&mut self, o: &'a OptChainExpr, nullish: Block) -> Value {
        match &*o.base {
            OptChainBase::Member(m) => {
                let obj = self.chain_operand(&m.obj, nullish);
                if o.optional {
                    self.nullish_check(obj, nullish);
                }
                if let MemberProp::PrivateName(p) = &m.prop {
                    return self.private_get(obj, p);
                }
                let key = self.member_key(&m.prop);
                self.at_member(m);
                self.emit(Opcode::LoadProperty, vec![obj, key], Imm::None)
            }
            OptChainBase::Call(c) => {
                let (f, this) = self.chain_callee(&c.callee, nullish);
                if o.optional {
                    self.nullish_check(f, nullish);
                }
                let args = self.args(&c.args);
                self.at(c.span);
                self.do_call(f, this, args)
            }
        }
    }

    /// The object of a link: an earlier link of the same chain, or any expression.
    pub(super) fn chain_operand(&mut self, e: &'a Expr, nullish: Block) -> Value {
        match e {
            Expr::OptChain(inner) => self.chain_link(inner, nullish),
            _ => self.expr(e),
        }
    }

    fn chain_callee(&mut self, e: &'a Expr, nullish: Block) -> (Value, Value) {
        match e {
            Expr::OptChain(inner) => match &*inner.base {
                OptChainBase::Member(m) => {
                    let obj = self.chain_operand(&m.obj, nullish);
                    if inner.optional {
                        self.nullish_check(obj, nullish);
                    }
                    if let MemberProp::PrivateName(p) = &m.prop {
                        return (self.private_get(obj, p), obj);
                    }
                    let key = self.member_key(&m.prop);
                    self.at_member(m);
                    let f = self.emit(Opcode::LoadProperty, vec![obj, key], Imm::None);
                    (f, obj)
                }
                OptChainBase::Call(_) => {
                    let f = self.chain_link(inner, nullish);
                    (f, self.undef())
                }
            },
            _ => self.callee_and_this(e),
        }
    }
}
