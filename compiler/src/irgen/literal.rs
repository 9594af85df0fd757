//! Object, array and template literals, and property keys.
//!
//! Object literal properties are defined in source order on a fresh object:
//! `DefineOwnProperty` for data properties and methods (enumerable), `DefineOwnAccessor`
//! for getters and setters (a getter and a setter of the same static key with nothing in
//! between that could redefine it are defined together), `copyDataProperties` for spread
//! and `setProtoFromLiteral` for `__proto__: value`. Array literals store the elements
//! before the first spread at constant indices of a new array and the rest after
//! `appendSpread` at run-time indices.

use ir::{BinOp, Imm, Opcode, Value};
use swc_common::Spanned;
use swc_ecma_ast::*;

use super::func::FnDef;
use super::Gen;
use crate::frontend::scope::FuncIdx;
use bytecode::BuiltinId;
use ecma::conv::number_to_string::number_to_string;

/// Whether a function definition needs its [[HomeObject]] set (it uses `super.x`).
fn needs_home(g: &Gen<'_>, f: &Function) -> bool {
    g.tree.func_by_span(f.span).is_some_and(|i: FuncIdx| g.tree.func(i).uses_super_property)
}

/// The static string of a property name, if it has one.
pub(super) fn static_key(key: &PropName) -> Option<String> {
    match key {
        PropName::Ident(i) => Some(i.sym.to_string()),
        PropName::Str(s) => Some(s.value.to_string_lossy().into_owned()),
        PropName::Num(n) => Some(number_to_string(n.value)),
        PropName::BigInt(b) => Some(b.value.to_string()),
        PropName::Computed(_) => None,
    }
}

/// What a method definition defines.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum MethodKind {
    Method,
    Getter,
    Setter,
}

impl<'a> Gen<'a> {
    /// A property key: its value and its static name if it is not computed.
    pub(super) fn prop_key(&mut self, key: &'a PropName) -> (Value, Option<String>) {
        match key {
            PropName::Ident(i) => (self.str_lit(&i.sym), Some(i.sym.to_string())),
            PropName::Str(s) => {
                let units: Vec<u16> = s.value.to_ill_formed_utf16().collect();
                (self.str_units(&units), Some(s.value.to_string_lossy().into_owned()))
            }
            PropName::Num(n) => {
                let s = number_to_string(n.value);
                (self.str_lit(&s), Some(s))
            }
            PropName::Computed(c) => {
                let v = self.expr(&c.expr);
                self.at(c.span);
                (self.emit(Opcode::ToPropertyKey, vec![v], Imm::None), None)
            }
            PropName::BigInt(b) => {
                // A BigInt key is its decimal string.
                let s = b.value.to_string();
                (self.str_lit(&s), Some(s))
            }
        }
    }

    /// The closure of a method, getter or setter with key `key` (static name `name`);
    /// `home` becomes its [[HomeObject]] when it uses `super`.
    pub(super) fn method_closure(
        &mut self,
        f: &'a Function,
        kind: MethodKind,
        key: Value,
        name: Option<&str>,
        home: Value,
        source: swc_common::Span,
    ) -> Value {
        let prefix = match kind {
            MethodKind::Method => "",
            MethodKind::Getter => "get ",
            MethodKind::Setter => "set ",
        };
        let fn_name = name.map_or(String::new(), |n| format!("{prefix}{n}"));
        let mut def: FnDef<'a> = self.fn_def(f, fn_name, source);
        def.method = name.is_some_and(|n| !n.starts_with('#'));
        let closure = match self.gen_function(&def) {
            Some(fid) => self.closure(fid),
            None => return self.undef(),
        };
        if name.is_none() {
            let mut args = vec![closure, key];
            if kind != MethodKind::Method {
                let p = self.str_lit(prefix.trim_end());
                args.push(p);
            }
            self.call_builtin(BuiltinId::SetFunctionName, args);
        }
        if needs_home(self, f) {
            self.call_builtin(BuiltinId::SetHomeObject, vec![closure, home]);
        }
        closure
    }

    pub(super) fn object_lit(&mut self, o: &'a ObjectLit) -> Value {
        let obj = self.emit(Opcode::AllocObject, Vec::new(), Imm::None);
        let props = &o.props;
        // Getter/setter pairs defined together: index of the partner, and skipped indices.
        let mut partner: Vec<Option<usize>> = vec![None; props.len()];
        for i in 0..props.len() {
            let Some((kind, Some(k))) = accessor_of(&props[i]) else { continue };
            if partner[i].is_some() {
                continue;
            }
            for j in i + 1..props.len() {
                match &props[j] {
                    PropOrSpread::Spread(_) => break,
                    PropOrSpread::Prop(p) => {
                        let key = match &**p {
                            Prop::Shorthand(id) => Some(id.sym.to_string()),
                            p => match prop_name_of(p) {
                                Some(PropName::Computed(_)) => break,
                                Some(key) => static_key(key),
                                None => None,
                            },
                        };
                        if key.as_deref() == Some(k.as_str()) {
                            if let Some((other, _)) = accessor_of(&props[j]) {
                                if other != kind && partner[j].is_none() {
                                    partner[i] = Some(j);
                                    partner[j] = Some(usize::MAX);
                                }
                            }
                            break;
                        }
                    }
                }
            }
        }
        for (i, prop) in props.iter().enumerate() {
            if partner[i] == Some(usize::MAX) {
                continue;
            }
            match prop {
                PropOrSpread::Spread(s) => {
                    let v = self.expr(&s.expr);
                    self.at(s.dot3_token);
                    self.call_builtin(BuiltinId::CopyDataProperties, vec![obj, v]);
                }
                PropOrSpread::Prop(p) => match &**p {
                    Prop::Shorthand(id) => {
                        let v = self.load_name(&id.sym);
                        let k = self.str_lit(&id.sym);
                        self.emit_void(Opcode::DefineOwnProperty, vec![v, obj, k], Imm::Flags(1));
                    }
                    Prop::KeyValue(kv) => {
                        let is_proto = !matches!(kv.key, PropName::Computed(_))
                            && static_key(&kv.key).as_deref() == Some("__proto__");
                        if is_proto {
                            let v = self.expr(&kv.value);
                            self.call_builtin(BuiltinId::SetProtoFromLiteral, vec![obj, v]);
                            continue;
                        }
                        let (k, name) = self.prop_key(&kv.key);
                        let v = self.named_value(&kv.value, k, name.as_deref());
                        self.emit_void(Opcode::DefineOwnProperty, vec![v, obj, k], Imm::Flags(1));
                    }
                    Prop::Assign(a) => {
                        // `{ a = 1 }` is only valid as a pattern; swc reports it elsewhere.
                        self.unsupported(a.span, "a shorthand default outside a pattern");
                    }
                    Prop::Getter(g) => {
                        let (k, name) = self.prop_key(&g.key);
                        let getter = self.method_closure(
                            &g.function,
                            MethodKind::Getter,
                            k,
                            name.as_deref(),
                            obj,
                            g.function.span,
                        );
                        let setter = match partner[i] {
                            Some(j) => self.partner_accessor(&props[j], k, name.as_deref(), obj),
                            None => self.undef(),
                        };
                        self.emit_void(Opcode::DefineOwnAccessor, vec![getter, setter, obj, k], Imm::Flags(1));
                    }
                    Prop::Setter(s) => {
                        let (k, name) = self.prop_key(&s.key);
                        let setter = self.method_closure(
                            &s.function,
                            MethodKind::Setter,
                            k,
                            name.as_deref(),
                            obj,
                            s.function.span,
                        );
                        let getter = match partner[i] {
                            Some(j) => self.partner_accessor(&props[j], k, name.as_deref(), obj),
                            None => self.undef(),
                        };
                        self.emit_void(Opcode::DefineOwnAccessor, vec![getter, setter, obj, k], Imm::Flags(1));
                    }
                    Prop::Method(m) => {
                        let (k, name) = self.prop_key(&m.key);
                        let closure = self.method_closure(
                            &m.function,
                            MethodKind::Method,
                            k,
                            name.as_deref(),
                            obj,
                            m.function.span,
                        );
                        self.emit_void(Opcode::DefineOwnProperty, vec![closure, obj, k], Imm::Flags(1));
                    }
                },
            }
        }
        obj
    }

    fn partner_accessor(&mut self, prop: &'a PropOrSpread, k: Value, name: Option<&str>, obj: Value) -> Value {
        match prop {
            PropOrSpread::Prop(p) => match &**p {
                Prop::Getter(g) => self.method_closure(&g.function, MethodKind::Getter, k, name, obj, g.function.span),
                Prop::Setter(s) => self.method_closure(&s.function, MethodKind::Setter, k, name, obj, s.function.span),
                _ => self.undef(),
            },
            PropOrSpread::Spread(_) => self.undef(),
        }
    }

    /// A property value: anonymous functions take the property's name (computed keys set
    /// it at run time).
    pub(super) fn named_value(&mut self, e: &'a Expr, key: Value, name: Option<&str>) -> Value {
        let v = self.expr_named(e, name);
        if name.is_none() && super::expr::is_anonymous_function(e) {
            self.call_builtin(BuiltinId::SetFunctionName, vec![v, key]);
        }
        v
    }

    pub(super) fn array_lit(&mut self, elems: &'a [Option<ExprOrSpread>]) -> Value {
        let refs: Vec<Option<&'a ExprOrSpread>> = elems.iter().map(|e| e.as_ref()).collect();
        self.array_from(&refs)
    }

    /// A new array of `elems` (holes are `None`).
    pub(super) fn array_from(&mut self, elems: &[Option<&'a ExprOrSpread>]) -> Value {
        let first_spread = elems.iter().position(|e| e.is_some_and(|e| e.spread.is_some()));
        let fixed = first_spread.unwrap_or(elems.len());
        let arr = self.emit(Opcode::AllocArray, Vec::new(), Imm::Index(fixed as u32));
        for (i, e) in elems[..fixed].iter().enumerate() {
            if let Some(e) = e {
                let v = self.expr(&e.expr);
                self.emit_void(Opcode::StoreOwnIndex, vec![v, arr], Imm::Index(i as u32));
            }
        }
        if let Some(start) = first_spread {
            let mut idx = self.num(start as f64);
            let mut trailing_hole = false;
            let one = self.num(1.0);
            for e in &elems[start..] {
                match e {
                    None => {
                        idx = self.b().binary(BinOp::Add, idx, one);
                        trailing_hole = true;
                    }
                    Some(e) if e.spread.is_some() => {
                        let v = self.expr(&e.expr);
                        self.at(e.expr.span());
                        idx = self.call_builtin(BuiltinId::AppendSpread, vec![arr, idx, v]);
                        trailing_hole = false;
                    }
                    Some(e) => {
                        let v = self.expr(&e.expr);
                        self.emit_void(Opcode::DefineOwnProperty, vec![v, arr, idx], Imm::Flags(1));
                        idx = self.b().binary(BinOp::Add, idx, one);
                        trailing_hole = false;
                    }
                }
            }
            if trailing_hole {
                let len = self.str_lit("length");
                self.emit_void(Opcode::StoreProperty, vec![idx, arr, len], Imm::None);
            }
        }
        arr
    }

    // ---- templates ----------------------------------------------------------------------------

    pub(super) fn template(&mut self, t: &'a Tpl) -> Value {
        let mut acc: Option<Value> = None;
        let mut push = |g: &mut Gen<'a>, v: Value| {
            acc = Some(match acc {
                Some(a) => g.b().binary(BinOp::Add, a, v),
                None => v,
            });
        };
        for (i, q) in t.quasis.iter().enumerate() {
            let units: Vec<u16> = q.cooked.as_ref().map(|c| c.to_ill_formed_utf16().collect()).unwrap_or_default();
            if !units.is_empty() || (i == 0 && t.exprs.is_empty()) {
                let s = self.str_units(&units);
                push(self, s);
            }
            if let Some(e) = t.exprs.get(i) {
                let v = self.expr(e);
                self.at(e.span());
                let s = self.emit(Opcode::AsString, vec![v], Imm::None);
                push(self, s);
            }
        }
        match acc {
            Some(v) => v,
            None => self.str_lit(""),
        }
    }

    pub(super) fn tagged_template(&mut self, t: &'a TaggedTpl) -> Value {
        let (f, this) = self.callee_and_this(&t.tag);
        let id = self.next_template_id;
        self.next_template_id += 1;
        let mut args = vec![self.num(id as f64)];
        for q in &t.tpl.quasis {
            // NotEscapeSequence (`\1`, `\8`, ...): the cooked string is undefined.
            let cooked = if crate::frontend::early_errors::legacy_escape(&q.raw) { None } else { q.cooked.as_ref() };
            let v = match cooked {
                Some(c) => {
                    let units: Vec<u16> = c.to_ill_formed_utf16().collect();
                    self.str_units(&units)
                }
                None => self.undef(),
            };
            args.push(v);
        }
        for q in &t.tpl.quasis {
            // The raw strings normalize CR and CRLF to LF (TRV).
            let raw = q.raw.replace("\r\n", "\n").replace('\r', "\n");
            let v = self.str_lit(&raw);
            args.push(v);
        }
        self.at(t.span);
        let strings = self.call_builtin(BuiltinId::GetTemplateObject, args);
        let mut call_args = vec![strings];
        for e in &t.tpl.exprs {
            call_args.push(self.expr(e));
        }
        self.at(t.span);
        self.do_call(f, this, super::expr::Args::List(call_args))
    }
}

/// The accessor kind and static key of a getter or setter property.
fn accessor_of(p: &PropOrSpread) -> Option<(MethodKind, Option<String>)> {
    match p {
        PropOrSpread::Prop(p) => match &**p {
            Prop::Getter(g) => Some((MethodKind::Getter, static_key(&g.key))),
            Prop::Setter(s) => Some((MethodKind::Setter, static_key(&s.key))),
            _ => None,
        },
        PropOrSpread::Spread(_) => None,
    }
}

/// The property name a property defines, if it has one.
fn prop_name_of(p: &Prop) -> Option<&PropName> {
    match p {
        Prop::KeyValue(kv) => Some(&kv.key),
        Prop::Getter(g) => Some(&g.key),
        Prop::Setter(s) => Some(&s.key),
        Prop::Method(m) => Some(&m.key),
        Prop::Shorthand(_) | Prop::Assign(_) => None,
    }
}
