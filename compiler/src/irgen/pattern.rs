//! Destructuring: binding patterns (declarations, parameters, catch parameters, loop heads)
//! and assignment patterns.
//!
//! Object patterns check the value with `requireObjectCoercible`, read each property with
//! `LoadProperty` and collect the rest with `copyDataProperties` (excluding the keys
//! already taken). Array patterns iterate: a `done` slot records whether the iterator is
//! exhausted (it is set before each `IteratorNext`, so an exception from `next()` leaves
//! it set and the iterator is not closed). When an element can throw (defaults, nested
//! patterns, assignment targets) the elements run in a try region whose handler closes the
//! iterator unless it is done; at the end an unfinished iterator is closed.
//!
//! In assignment patterns a target (`a.b`, `a[k]`) is evaluated before the value it
//! receives is read, as the specification orders it.

use ir::{BinOp, Imm, Opcode, Value};
use swc_common::Spanned;
use swc_ecma_ast::*;

use super::assign::LRef;
use super::expr::is_anonymous_function;
use super::{Cleanup, Gen};
use bytecode::BuiltinId;

/// How a pattern's identifiers receive values.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Mode {
    /// Declarations and parameters: initialize the binding (`var` assigns).
    Init,
    /// Destructuring assignment: PutValue on each target.
    Assign,
}

/// The name an anonymous function in a default value takes from its target.
fn target_name(p: &Pat) -> Option<&str> {
    match p {
        Pat::Ident(b) => Some(&b.id.sym),
        _ => None,
    }
}

impl<'a> Gen<'a> {
    /// Binds `v` to `pat`.
    pub(super) fn bind_pattern(&mut self, pat: &'a Pat, v: Value, mode: Mode) {
        match pat {
            Pat::Ident(b) => self.bind_ident(&b.id.sym, v, mode),
            Pat::Assign(a) => {
                let v = self.apply_default(v, &a.right, target_name(&a.left));
                self.bind_pattern(&a.left, v, mode);
            }
            Pat::Array(a) => self.bind_array(a, v, mode),
            Pat::Object(o) => self.bind_object(o, v, mode),
            Pat::Rest(r) => self.bind_pattern(&r.arg, v, mode),
            Pat::Expr(e) => {
                if let Some(r) = self.lref_expr(e, false) {
                    self.store_lref(&r, v);
                }
            }
            Pat::Invalid(i) => self.unsupported(i.span, "this pattern"),
        }
    }

    fn bind_ident(&mut self, name: &str, v: Value, mode: Mode) {
        match mode {
            Mode::Init => self.init_name(name, v),
            Mode::Assign => self.store_name(name, v),
        }
    }

    /// `v === undefined ? default : v`.
    pub(super) fn apply_default(&mut self, v: Value, default: &'a Expr, name: Option<&str>) -> Value {
        let u = self.undef();
        let is_undef = self.b().binary(BinOp::StrictEq, v, u);
        let dflt = self.new_block();
        let join = self.new_block();
        let mut incoming = vec![(v, self.cur_block())];
        self.cond_branch(is_undef, dflt, join);
        self.switch_to(dflt);
        let name = name.filter(|_| is_anonymous_function(default));
        let d = self.expr_named(default, name);
        self.edge(d, join, &mut incoming);
        self.merge(join, incoming)
    }

    /// In an assignment pattern, evaluates a target that is an expression (before its
    /// value is read).
    fn early_target(&mut self, target: &'a Pat, mode: Mode) -> Option<LRef> {
        match (mode, target) {
            // A call is no destructuring target, not even in sloppy code.
            (Mode::Assign, Pat::Expr(e)) if matches!(&**e, Expr::Member(m) if self.lines.call_target(m.span.lo)) => {
                let d = self.lines.diag(target.span(), "Invalid destructuring assignment target".to_string());
                self.diags.push(d);
                None
            }
            (Mode::Assign, Pat::Expr(e)) if !matches!(&**e, Expr::Ident(_)) => self.lref_expr(e, false),
            _ => None,
        }
    }

    /// Binds `v` to an element target that may have a default, given its early reference.
    fn finish_target(&mut self, target: &'a Pat, lref: Option<LRef>, v: Value, mode: Mode) {
        let (inner, v) = match target {
            Pat::Assign(a) => (&*a.left, self.apply_default(v, &a.right, target_name(&a.left))),
            p => (p, v),
        };
        match lref {
            Some(r) => self.store_lref(&r, v),
            None => self.bind_pattern(inner, v, mode),
        }
    }

    fn inner_target(target: &'a Pat) -> &'a Pat {
        match target {
            Pat::Assign(a) => &a.left,
            p => p,
        }
    }

    pub(super) fn bind_object(&mut self, o: &'a ObjectPat, v: Value, mode: Mode) {
        self.at(o.span);
        let msg = self.str_lit("Cannot destructure 'undefined' or 'null'.");
        self.call_builtin(BuiltinId::RequireObjectCoercible, vec![v, msg]);
        let mut excluded = Vec::new();
        for prop in &o.props {
            match prop {
                ObjectPatProp::KeyValue(kv) => {
                    let (k, _) = self.prop_key(&kv.key);
                    excluded.push(k);
                    let lref = self.early_target(Self::inner_target(&kv.value), mode);
                    let pv = self.emit(Opcode::LoadProperty, vec![v, k], Imm::None);
                    self.finish_target(&kv.value, lref, pv, mode);
                }
                ObjectPatProp::Assign(a) => {
                    let name: &str = &a.key.id.sym;
                    let k = self.str_lit(name);
                    excluded.push(k);
                    self.at(a.span);
                    let pv = self.emit(Opcode::LoadProperty, vec![v, k], Imm::None);
                    let pv = match &a.value {
                        Some(d) => self.apply_default(pv, d, Some(name)),
                        None => pv,
                    };
                    self.bind_ident(name, pv, mode);
                }
                ObjectPatProp::Rest(r) => {
                    let lref = self.early_target(&r.arg, mode);
                    self.at(r.span);
                    let target = self.emit(Opcode::AllocObject, Vec::new(), Imm::None);
                    let mut args = vec![target, v];
                    args.extend(excluded.iter().copied());
                    let rest = self.call_builtin(BuiltinId::CopyDataProperties, args);
                    match lref {
                        Some(r) => self.store_lref(&r, rest),
                        None => self.bind_pattern(&r.arg, rest, mode),
                    }
                }
            }
        }
    }

    /// One step of an array pattern's iterator: the next value, or undefined when done.
    fn pattern_step(&mut self, iter: Value, done: Value) -> Value {
        let u = self.undef();
        let t = self.bool_lit(true);
        let f = self.bool_lit(false);
        let d = self.load_stack(done);
        let step = self.new_block();
        let got = self.new_block();
        let join = self.new_block();
        let mut incoming = vec![(u, self.cur_block())];
        self.cond_branch(d, join, step);
        self.switch_to(step);
        self.store_stack(t, done);
        let x = self.emit(Opcode::IteratorNext, vec![iter], Imm::None);
        let is_done = self.is_empty(x);
        incoming.push((u, self.cur_block()));
        self.cond_branch(is_done, join, got);
        self.switch_to(got);
        self.store_stack(f, done);
        self.edge(x, join, &mut incoming);
        self.merge(join, incoming)
    }

    /// The remaining values of the iterator as a new array (a rest element).
    fn pattern_rest(&mut self, iter: Value, done: Value) -> Value {
        let arr = self.emit(Opcode::AllocArray, Vec::new(), Imm::Index(0));
        let index = self.alloc_stack("%rest_index");
        let zero = self.num(0.0);
        let one = self.num(1.0);
        let t = self.bool_lit(true);
        self.store_stack(zero, index);
        let d = self.load_stack(done);
        let head = self.new_block();
        let body = self.new_block();
        let end = self.new_block();
        self.cond_branch(d, end, head);
        self.switch_to(head);
        self.store_stack(t, done);
        let x = self.emit(Opcode::IteratorNext, vec![iter], Imm::None);
        let is_done = self.is_empty(x);
        self.cond_branch(is_done, end, body);
        self.switch_to(body);
        let i = self.load_stack(index);
        self.emit_void(Opcode::DefineOwnProperty, vec![x, arr, i], Imm::Flags(1));
        let next = self.b().binary(BinOp::Add, i, one);
        self.store_stack(next, index);
        self.branch(head);
        self.switch_to(end);
        arr
    }

    pub(super) fn bind_array(&mut self, a: &'a ArrayPat, v: Value, mode: Mode) {
        self.at(a.span);
        let iter = self.emit(Opcode::GetIterator, vec![v], Imm::None);
        let done = self.alloc_stack("%done");
        let f = self.bool_lit(false);
        self.store_stack(f, done);
        let guarded = mode == Mode::Assign
            || a.elems.iter().flatten().any(|p| match p {
                Pat::Ident(_) => false,
                Pat::Rest(r) => !matches!(&*r.arg, Pat::Ident(_)),
                _ => true,
            });
        let handler = self.new_block();
        if guarded {
            let body = self.new_block();
            self.term(Opcode::TryStart, Vec::new(), vec![body, handler], Imm::None);
            self.switch_to(body);
            self.f().cleanups.push(Cleanup::CloseIfNotDone { iter, done });
            self.f().cleanups.push(Cleanup::TryRegion);
        }
        for elem in &a.elems {
            match elem {
                None => {
                    self.pattern_step(iter, done);
                }
                Some(Pat::Rest(r)) => {
                    let lref = self.early_target(&r.arg, mode);
                    let rest = self.pattern_rest(iter, done);
                    match lref {
                        Some(l) => self.store_lref(&l, rest),
                        None => self.bind_pattern(&r.arg, rest, mode),
                    }
                }
                Some(p) => {
                    let lref = self.early_target(Self::inner_target(p), mode);
                    let x = self.pattern_step(iter, done);
                    self.finish_target(p, lref, x, mode);
                }
            }
        }
        if guarded {
            self.f().cleanups.pop();
            self.f().cleanups.pop();
            let after = self.new_block();
            self.term(Opcode::TryEnd, Vec::new(), vec![after], Imm::None);
            // An exception from an element closes the iterator unless it is done.
            self.switch_to(handler);
            let e = self.emit(Opcode::Catch, Vec::new(), Imm::None);
            let d = self.load_stack(done);
            let close = self.new_block();
            let rethrow = self.new_block();
            self.cond_branch(d, rethrow, close);
            self.switch_to(close);
            self.emit_void(Opcode::IteratorClose, vec![iter], Imm::Flags(1));
            self.term(Opcode::Throw, vec![e], Vec::new(), Imm::None);
            self.switch_to(rethrow);
            self.term(Opcode::Throw, vec![e], Vec::new(), Imm::None);
            self.switch_to(after);
        }
        let d = self.load_stack(done);
        let close = self.new_block();
        let end = self.new_block();
        self.cond_branch(d, end, close);
        self.switch_to(close);
        self.emit_void(Opcode::IteratorClose, vec![iter], Imm::Flags(0));
        self.branch(end);
        self.switch_to(end);
    }
}
