//! Classes: the constructor closure, `defineClass` (prototype chain and `prototype`
//! object), methods, getters and setters (non-enumerable, on the prototype or, when
//! static, on the constructor) with their [[HomeObject]], and the class's inner name.
//!
//! ```text
//! class C extends B { m() {} }
//!   %scope = create_scope $C                      (when methods refer to C)
//!   %b     = <B>
//!   %ctor  = create_closure %scope, @C            (a derived_constructor)
//!   %proto = call_builtin defineClass(%ctor, %b)  (empty when there is no `extends`)
//!   %m     = create_closure %scope, @m
//!   define_own_property %m, %proto, "m" flags(0)
//!   store_frame %ctor, %scope, C
//! ```
//! Class bodies are strict. The class body scope holds the Private Names of private fields
//! (new symbols per evaluation, `createPrivateName`), the private methods and accessors
//! (instances carry a brand, one per class and placement, checked before a private method
//! is used), the computed keys of fields and `%fields`, the instance elements initializer:
//! a method that adds the brand and defines the fields on `this`, run by the constructor at
//! its start (base classes) or after `super()` returns (derived classes). Static private
//! methods, then the static fields and blocks (a static elements initializer run with the
//! constructor as `this`) follow the definition of the class binding.

use ir::{Imm, Opcode, Value};
use swc_ecma_ast::*;

use ir::FunctionKind;

use super::func::{Body, FnDef};
use super::literal::{static_key, MethodKind as Kind};
use super::Gen;
use crate::frontend::scope::{DeclKind, PrivateKind, ScopeKey, ScopeKind};
use bytecode::BuiltinId;

impl<'a> Gen<'a> {
    /// Evaluates a class; returns its constructor. `own_name` is the class's binding name,
    /// `hint` the name an anonymous class expression takes from its context.
    pub(super) fn gen_class(&mut self, class: &'a Class, own_name: Option<&str>, hint: Option<&str>) -> Value {
        for m in &class.body {
            if let ClassMember::AutoAccessor(a) = m {
                self.unsupported(a.span, "auto-accessor");
                return self.undef();
            }
        }
        let member_decorators = class.body.iter().flat_map(|m| match m {
            ClassMember::ClassProp(p) => &p.decorators[..],
            ClassMember::PrivateProp(p) => &p.decorators[..],
            ClassMember::Method(m) => &m.function.decorators[..],
            ClassMember::PrivateMethod(m) => &m.function.decorators[..],
            _ => &[],
        });
        if let Some(d) = class.decorators.iter().chain(member_decorators).next() {
            self.unsupported(d.span, "decorator");
            return self.undef();
        }
        let tree = self.tree;
        let name = own_name.or(hint).unwrap_or("").to_string();
        let sc = tree.scope_by_key(ScopeKey::new(class.span, ScopeKind::Class));
        let saved = sc.map(|s| {
            let saved = self.enter_scope(s);
            self.init_tdz(s);
            saved
        });
        let saved_strict = self.fr().func.strict;
        self.f().func.strict = true;

        let heritage = match &class.super_class {
            Some(e) => self.expr(e),
            None => self.empty(),
        };
        let derived = class.super_class.is_some();
        let body_scope = tree.scope_by_key(ScopeKey::new(class.span, ScopeKind::ClassBody));
        let saved_body = body_scope.map(|b| self.enter_scope(b));
        let local = |name: &str| body_scope.and_then(|b| tree.lookup_local(b, name));
        // New Private Names for the private fields and the brands, in this evaluation.
        if let Some(b) = body_scope {
            for &d in &tree.scope(b).decls {
                let decl = tree.decl(d);
                let private_name = match (decl.kind, tree.private.get(&d).map(|i| i.kind)) {
                    (DeclKind::PrivateName, Some(PrivateKind::Field)) => true,
                    (DeclKind::PrivateName, _) => {
                        // Methods and accessors are stored below; an accessor without a getter
                        // keeps undefined.
                        let u = self.undef();
                        self.init_decl(d, u);
                        false
                    }
                    (DeclKind::ClassInternal, _) => decl.name == "%brand" || decl.name == "%static_brand",
                    _ => false,
                };
                if private_name {
                    let desc = if decl.name.starts_with('#') { decl.name.to_string() } else { name.clone() };
                    let desc = self.str_lit(&desc);
                    let v = self.call_builtin(BuiltinId::CreatePrivateName, vec![desc]);
                    self.init_decl(d, v);
                }
            }
        }
        self.at(class.span);
        let ctor_member = class.body.iter().find_map(|m| match m {
            ClassMember::Constructor(c) => Some(c),
            _ => None,
        });
        let fields_decl = local("%fields");
        let ctor = match ctor_member {
            Some(c) => {
                let def = FnDef {
                    key: c.span,
                    source: class.span,
                    params: c
                        .params
                        .iter()
                        .filter_map(|p| match p {
                            ParamOrTsParamProp::Param(p) => Some(&p.pat),
                            ParamOrTsParamProp::TsParamProp(_) => None,
                        })
                        .collect(),
                    body: Body::Stmts(c.body.as_ref().map_or(&[], |b| &b.stmts)),
                    name: name.clone(),
                    is_generator: false,
                    is_async: false,
                    declaration: false,
                    method: false,
                };
                match self.gen_function(&def) {
                    Some(fid) => self.closure(fid),
                    None => self.undef(),
                }
            }
            None => {
                let fields = fields_decl.and_then(|d| match self.storage.get(&d) {
                    Some(super::Storage::Frame(var)) => Some(*var),
                    _ => None,
                });
                let fid = self.gen_default_constructor(&name, derived, class.span, fields);
                let env = match fields {
                    Some(var) => self.env_value(var.scope),
                    None => self.undef(),
                };
                self.emit(Opcode::CreateClosure, vec![env], Imm::Func(fid))
            }
        };
        self.at(class.span);
        let proto = self.call_builtin(BuiltinId::DefineClass, vec![ctor, heritage]);
        if let Some(c) = ctor_member {
            let uses_super = tree.func_by_span(c.span).is_some_and(|f| tree.func(f).uses_super_property);
            if uses_super {
                self.call_builtin(BuiltinId::SetHomeObject, vec![ctor, proto]);
            }
        }

        // The elements in order: methods are defined, private methods stored, computed field
        // keys evaluated.
        let methods: Vec<&'a ClassMethod> = class
            .body
            .iter()
            .filter_map(|m| match m {
                ClassMember::Method(m) => Some(m),
                _ => None,
            })
            .collect();
        let partner = accessor_partners(&methods);
        let mut mi = 0;
        for (index, member) in class.body.iter().enumerate() {
            match member {
                ClassMember::Method(m) => {
                    let i = mi;
                    mi += 1;
                    if partner[i] == Some(usize::MAX) {
                        continue;
                    }
                    self.gen_class_method(m, partner[i].map(|j| methods[j]), ctor, proto);
                }
                ClassMember::PrivateMethod(m) => {
                    let home = if m.is_static { ctor } else { proto };
                    let private_name = format!("#{}", m.key.name);
                    self.at(m.span);
                    let kind = match m.kind {
                        MethodKind::Method => Kind::Method,
                        MethodKind::Getter => Kind::Getter,
                        MethodKind::Setter => Kind::Setter,
                    };
                    let u = self.undef();
                    let source = without_static(self, m.function.span, m.is_static);
                    let closure = self.method_closure(&m.function, kind, u, Some(&private_name), home, source);
                    let target = match kind {
                        Kind::Setter => local(&format!("%set{private_name}")),
                        _ => local(&private_name),
                    };
                    if let Some(d) = target {
                        self.init_decl(d, closure);
                    }
                }
                ClassMember::ClassProp(p) => {
                    if let (PropName::Computed(_), Some(d)) = (&p.key, local(&format!("%key{index}"))) {
                        self.at(p.span);
                        let (k, _) = self.prop_key(&p.key);
                        self.init_decl(d, k);
                    }
                }
                _ => {}
            }
        }

        // The instance fields initializer, run by the constructor.
        if let Some(d) = fields_decl {
            if let Some(f) = self.gen_fields_function(class, false) {
                self.call_builtin(BuiltinId::SetHomeObject, vec![f, proto]);
                self.init_decl(d, f);
            }
        }
        if let (Some(n), Some(s)) = (own_name, sc) {
            if let Some(d) = tree.lookup_local(s, n) {
                self.init_decl(d, ctor);
            }
        }
        // Static private methods, then the static fields and blocks in order.
        if let Some(d) = local("%static_brand") {
            let brand = self.read_decl(d);
            let t = self.bool_lit(true);
            self.call_builtin(BuiltinId::PrivateAdd, vec![ctor, brand, t]);
        }
        if let Some(f) = self.gen_fields_function(class, true) {
            self.call_builtin(BuiltinId::SetHomeObject, vec![f, ctor]);
            self.at(class.span);
            self.emit(Opcode::Call, vec![f, ctor], Imm::None);
        }

        self.f().func.strict = saved_strict;
        if let Some(saved) = saved_body {
            self.exit_scope(saved);
        }
        if let Some(saved) = saved {
            self.exit_scope(saved);
        }
        ctor
    }

    /// A public method, getter or setter (with its accessor partner, defined together).
    fn gen_class_method(&mut self, m: &'a ClassMethod, other: Option<&'a ClassMethod>, ctor: Value, proto: Value) {
        let home = if m.is_static { ctor } else { proto };
        self.at(m.span);
        let (key, key_name) = self.prop_key(&m.key);
        let kind = method_kind(m);
        let source = method_source(self, m);
        let closure = self.method_closure(&m.function, kind, key, key_name.as_deref(), home, source);
        let other = match other {
            Some(o) => {
                let source = method_source(self, o);
                Some(self.method_closure(&o.function, method_kind(o), key, key_name.as_deref(), home, source))
            }
            None => None,
        };
        self.at(m.span);
        let u = self.undef();
        match kind {
            Kind::Method => {
                self.emit_void(Opcode::DefineOwnProperty, vec![closure, home, key], Imm::Flags(0));
            }
            Kind::Getter => {
                self.emit_void(Opcode::DefineOwnAccessor, vec![closure, other.unwrap_or(u), home, key], Imm::Flags(0));
            }
            Kind::Setter => {
                self.emit_void(Opcode::DefineOwnAccessor, vec![other.unwrap_or(u), closure, home, key], Imm::Flags(0));
            }
        }
    }

    /// The closure of the instance (or static) elements initializer of `class`: a method
    /// run with the new object (the constructor) as `this` that adds the brand and defines
    /// the fields in order (and runs the static blocks). `None` if the class has none.
    fn gen_fields_function(&mut self, class: &'a Class, statics: bool) -> Option<Value> {
        let tree = self.tree;
        let tf = if statics {
            tree.func_by_key(ScopeKey::new(class.span, ScopeKind::StaticFields))?
        } else {
            tree.func_by_span(class.span)?
        };
        let body_scope = tree.scope_by_key(ScopeKey::new(class.span, ScopeKind::ClassBody))?;
        let def = FnDef {
            key: class.span,
            source: class.span,
            params: Vec::new(),
            body: Body::Stmts(&[]),
            name: String::new(),
            is_generator: false,
            is_async: false,
            declaration: false,
            method: false,
        };
        let parent_scope = self.nearest_env_scope(Some(self.fr().cur_scope));
        let name = self.atom(if statics { "<static_initializer>" } else { "<instance_members_initializer>" });
        let mut func = ir::Function::new(name, FunctionKind::Method, true);
        func.parent_scope = parent_scope;
        func.loc = self.loc_of(class.span);
        let id = self.module.add_function(ir::Function::new(name, FunctionKind::Method, true));
        let entry = func.add_block();
        let creator_scope = self.fr().cur_scope;
        self.fs.push(super::func::new_state(id, func, tf, entry, creator_scope, false));
        self.at(class.span);
        self.enter_function_params(tf, &def);
        let this = self.this_value();
        if !statics {
            if let Some(d) = tree.lookup_local(body_scope, "%brand") {
                let brand = self.load_decl(d);
                let t = self.bool_lit(true);
                self.call_builtin(BuiltinId::PrivateAdd, vec![this, brand, t]);
            }
        }
        for (index, member) in class.body.iter().enumerate() {
            match member {
                ClassMember::ClassProp(p) if p.is_static == statics => {
                    self.at(p.span);
                    let (key, name) = match &p.key {
                        PropName::Computed(_) => match tree.lookup_local(body_scope, &format!("%key{index}")) {
                            Some(d) => (self.load_decl(d), None),
                            None => (self.undef(), None),
                        },
                        k => {
                            let name = static_key(k);
                            (self.str_lit(name.as_deref().unwrap_or("")), name)
                        }
                    };
                    let v = match &p.value {
                        Some(e) => self.named_value(e, key, name.as_deref()),
                        None => self.undef(),
                    };
                    self.at(p.span);
                    self.emit_void(Opcode::DefineOwnProperty, vec![v, this, key], Imm::Flags(1));
                }
                ClassMember::PrivateProp(p) if p.is_static == statics => {
                    self.at(p.span);
                    let private_name = format!("#{}", p.key.name);
                    let v = match &p.value {
                        Some(e) => self.expr_named(e, Some(&private_name)),
                        None => self.undef(),
                    };
                    if let Some(d) = tree.lookup_local(body_scope, &private_name) {
                        let sym = self.load_decl(d);
                        self.at(p.span);
                        self.call_builtin(BuiltinId::PrivateAdd, vec![this, sym, v]);
                    }
                }
                ClassMember::StaticBlock(sb) if statics => {
                    let def = FnDef {
                        key: sb.span,
                        source: sb.span,
                        params: Vec::new(),
                        body: Body::Stmts(&sb.body.stmts),
                        name: String::new(),
                        is_generator: false,
                        is_async: false,
                        declaration: false,
                        method: false,
                    };
                    if let Some(fid) = self.gen_function(&def) {
                        let f = self.closure(fid);
                        if tree.func_by_span(sb.span).is_some_and(|f| tree.func(f).uses_super_property) {
                            self.call_builtin(BuiltinId::SetHomeObject, vec![f, this]);
                        }
                        self.at(sb.span);
                        self.emit(Opcode::Call, vec![f, this], Imm::None);
                    }
                }
                _ => {}
            }
        }
        let u = self.undef();
        self.term(Opcode::Return, vec![u], Vec::new(), Imm::None);
        self.finish_function();
        Some(self.closure(id))
    }

    /// Runs the instance fields initializer of the class whose constructor is function
    /// `ctor_func` on `this` (after `super()` returns, or at the start of a base
    /// constructor).
    pub(super) fn run_field_initializer(&mut self, ctor_func: crate::frontend::scope::FuncIdx, this: Value) {
        let tree = self.tree;
        let Some(body_scope) = tree.scope(tree.func(ctor_func).scope).parent else { return };
        if tree.scope(body_scope).kind != ScopeKind::ClassBody {
            return;
        }
        if let Some(d) = tree.lookup_local(body_scope, "%fields") {
            let f = self.read_decl(d);
            self.emit(Opcode::Call, vec![f, this], Imm::None);
        }
    }
}

fn method_kind(m: &ClassMethod) -> Kind {
    match m.kind {
        MethodKind::Method => Kind::Method,
        MethodKind::Getter => Kind::Getter,
        MethodKind::Setter => Kind::Setter,
    }
}

/// Pairs a getter and a setter of the same static key and placement (static or not) that
/// are defined together: `partner[i] = Some(j)` for the first, `Some(usize::MAX)` for the
/// second. Nothing may come between them that could redefine the key (a member with the
/// same key or a computed key).
fn accessor_partners(methods: &[&ClassMethod]) -> Vec<Option<usize>> {
    let mut partner = vec![None; methods.len()];
    for i in 0..methods.len() {
        let m = methods[i];
        if m.kind == MethodKind::Method || partner[i].is_some() {
            continue;
        }
        let Some(k) = static_key(&m.key) else { continue };
        for (j, o) in methods.iter().enumerate().skip(i + 1) {
            if o.is_static != m.is_static {
                continue;
            }
            let ok = static_key(&o.key);
            if ok.is_none() {
                break;
            }
            if ok.as_deref() == Some(k.as_str()) {
                if o.kind != MethodKind::Method && o.kind != m.kind {
                    partner[i] = Some(j);
                    partner[j] = Some(usize::MAX);
                }
                break;
            }
        }
    }
    partner
}

/// The source text of a class method for `toString`: the MethodDefinition, without a
/// leading `static`.
fn method_source(g: &Gen<'_>, m: &ClassMethod) -> swc_common::Span {
    without_static(g, m.function.span, m.is_static)
}

/// `span` without a leading `static` and the white space and comments after it (the
/// MethodDefinition of a static ClassElement starts at its next token).
fn without_static(g: &Gen<'_>, mut span: swc_common::Span, is_static: bool) -> swc_common::Span {
    if !is_static {
        return span;
    }
    let text = g.lines.slice(span);
    let Some(mut rest) = text.strip_prefix("static") else { return span };
    loop {
        let trimmed = rest.trim_start();
        if let Some(comment) = trimmed.strip_prefix("/*") {
            match comment.find("*/") {
                Some(end) => rest = &comment[end + 2..],
                None => break,
            }
        } else if let Some(comment) = trimmed.strip_prefix("//") {
            match comment.find(['\n', '\r', '\u{2028}', '\u{2029}']) {
                Some(end) => rest = &comment[end..],
                None => break,
            }
        } else {
            rest = trimmed;
            break;
        }
    }
    span.lo = swc_common::BytePos(span.lo.0 + (text.len() - rest.len()) as u32);
    span
}
