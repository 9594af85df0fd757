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
//! Class bodies are strict. Fields, private names and static blocks are not supported yet.

use ir::{Imm, Opcode, Value};
use swc_ecma_ast::*;

use super::func::{Body, FnDef};
use super::literal::{static_key, MethodKind as Kind};
use super::{Builtin, Gen};
use crate::frontend::scope::{ScopeKey, ScopeKind};

impl<'a> Gen<'a> {
    /// Evaluates a class; returns its constructor. `own_name` is the class's binding name,
    /// `hint` the name an anonymous class expression takes from its context.
    pub(super) fn gen_class(&mut self, class: &'a Class, own_name: Option<&str>, hint: Option<&str>) -> Value {
        for m in &class.body {
            let unsupported = match m {
                ClassMember::ClassProp(p) => Some((p.span, "class field")),
                ClassMember::PrivateProp(p) => Some((p.span, "private class field")),
                ClassMember::PrivateMethod(p) => Some((p.span, "private method")),
                ClassMember::StaticBlock(b) => Some((b.span, "class static block")),
                ClassMember::AutoAccessor(a) => Some((a.span, "auto-accessor")),
                _ => None,
            };
            if let Some((span, what)) = unsupported {
                self.unsupported(span, what);
                return self.undef();
            }
        }
        if let Some(d) = class.decorators.first() {
            self.unsupported(d.span, "decorator");
            return self.undef();
        }
        let name = own_name.or(hint).unwrap_or("").to_string();
        let sc = self.tree.scope_by_key(ScopeKey::new(class.span, ScopeKind::Class));
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
        self.at(class.span);
        let ctor_member = class.body.iter().find_map(|m| match m {
            ClassMember::Constructor(c) => Some(c),
            _ => None,
        });
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
                };
                match self.gen_function(&def) {
                    Some(fid) => self.closure(fid),
                    None => self.undef(),
                }
            }
            None => {
                let fid = self.gen_default_constructor(&name, derived, class.span);
                let u = self.undef();
                self.emit(Opcode::CreateClosure, vec![u], Imm::Func(fid))
            }
        };
        self.at(class.span);
        let proto = self.call_builtin(Builtin::DefineClass, vec![ctor, heritage]);
        if let Some(c) = ctor_member {
            let uses_super = self.tree.func_by_span(c.span).is_some_and(|f| self.tree.func(f).uses_super_property);
            if uses_super {
                self.call_builtin(Builtin::SetHomeObject, vec![ctor, proto]);
            }
        }
        let methods: Vec<&'a ClassMethod> = class
            .body
            .iter()
            .filter_map(|m| match m {
                ClassMember::Method(m) => Some(m),
                _ => None,
            })
            .collect();
        let partner = accessor_partners(&methods);
        for (i, m) in methods.iter().enumerate() {
            if partner[i] == Some(usize::MAX) {
                continue;
            }
            let home = if m.is_static { ctor } else { proto };
            self.at(m.span);
            let (key, key_name) = self.prop_key(&m.key);
            let kind = method_kind(m);
            let source = method_source(self, m);
            let closure = self.method_closure(&m.function, kind, key, key_name.as_deref(), home, source);
            let other = match partner[i] {
                Some(j) => {
                    let o = methods[j];
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

        self.f().func.strict = saved_strict;
        if let (Some(n), Some(s)) = (own_name, sc) {
            if let Some(d) = self.tree.lookup_local(s, n) {
                self.init_decl(d, ctor);
            }
        }
        if let Some(saved) = saved {
            self.exit_scope(saved);
        }
        ctor
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
    let mut span = m.function.span;
    if m.is_static {
        let text = g.lines.slice(span);
        if let Some(rest) = text.strip_prefix("static") {
            let skip = text.len() - rest.trim_start().len();
            span.lo = swc_common::BytePos(span.lo.0 + skip as u32);
        }
    }
    span
}
