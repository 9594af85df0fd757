//! Loops: `while`, `do`-`while`, `for` (with per-iteration `let` environments), `for-in`
//! and `for-of`.
//!
//! `for (let i = 0; i < n; i++) body` where a closure captures `i` copies the loop's
//! environment before each iteration's update, as CreatePerIterationEnvironment does:
//! ```text
//!   %e0 = create_scope $S, %outer ; init ; %e1 = create_scope $S, %outer ; copy %e0 → %e1
//! %header: %e = phi %e1, %e2 ; test
//! %body:   ... closures capture %e ...
//! %latch:  %e2 = create_scope $S, %outer ; copy %e → %e2 ; update ; branch %header
//! ```
//! A for-of body runs inside a try region whose handler closes the iterator (ignoring
//! errors from `return()`) and rethrows; `break` and `return` close it normally.
//!
//! `for await (x of e)` (in async functions and async generators) takes GetIterator(e,
//! async) (`getAsyncIterator`), reads its `next` once, and awaits every result:
//! ```text
//!   %it = call_builtin getAsyncIterator, %e ; %next = load_property %it, "next"
//! %header: %r = <await call %next, %it> ; ensureObject %r ; cond_branch %r.done, %exit, %body
//! %body:   x = %r.value ; try { body } — a throw runs AsyncIteratorClose and rethrows
//! ```
//! `break`, `return` and outer `continue` run AsyncIteratorClose, which awaits the result of
//! `return()`.

use ir::{Imm, Opcode, Value};
use swc_ecma_ast::*;

use super::pattern::Mode;
use super::{Cleanup, EnvInfo, Gen, JumpTarget};
use crate::frontend::scope::{DeclKind, ScopeIdx, ScopeKey, ScopeKind};
use bytecode::BuiltinId;

impl<'a> Gen<'a> {
    fn push_loop(
        &mut self,
        labels: Vec<String>,
        brk: ir::Block,
        cont: ir::Block,
        break_depth: usize,
        continue_depth: usize,
    ) {
        self.f().targets.push(JumpTarget {
            labels,
            breakable: true,
            break_block: brk,
            break_depth,
            continue_to: Some((cont, continue_depth)),
        });
    }

    pub(super) fn gen_while(&mut self, w: &'a WhileStmt) {
        let labels = self.take_labels();
        let header = self.new_block();
        let body = self.new_block();
        let exit = self.new_block();
        self.branch(header);
        self.switch_to(header);
        let t = self.expr(&w.test);
        self.cond_branch(t, body, exit);
        self.switch_to(body);
        let depth = self.fr().cleanups.len();
        self.push_loop(labels, exit, header, depth, depth);
        self.sub_stmt(&w.body);
        self.f().targets.pop();
        self.branch(header);
        self.switch_to(exit);
    }

    pub(super) fn gen_do_while(&mut self, w: &'a DoWhileStmt) {
        let labels = self.take_labels();
        let body = self.new_block();
        let test = self.new_block();
        let exit = self.new_block();
        self.branch(body);
        self.switch_to(body);
        let depth = self.fr().cleanups.len();
        self.push_loop(labels, exit, test, depth, depth);
        self.sub_stmt(&w.body);
        self.f().targets.pop();
        self.branch(test);
        self.switch_to(test);
        let t = self.expr(&w.test);
        self.cond_branch(t, body, exit);
        self.switch_to(exit);
    }

    /// The heap scope of tree scope `s` if it has an environment in this function.
    fn loop_env(&self, s: ScopeIdx) -> Option<ir::ScopeId> {
        self.tree_ir.get(&s).copied()
    }

    /// Copies the environment of the `let` bindings of loop scope `s` into a new one
    /// (CreatePerIterationEnvironment) and makes it current.
    fn copy_loop_env(&mut self, s: ScopeIdx, irs: ir::ScopeId) -> Value {
        let old = self.env_value(irs);
        let parent = self.module.scopes[irs].parent;
        let parent_env = match parent {
            Some(p) => self.env_value(p),
            None => self.undef(),
        };
        let new = self.emit(Opcode::CreateScope, vec![parent_env], Imm::Scope(irs));
        let nvars = self.module.scopes[irs].vars.len() as u32;
        for index in 0..nvars {
            let var = ir::Var { scope: irs, index };
            let v = self.emit(Opcode::LoadFrame, vec![old], Imm::Var(var));
            self.emit_void(Opcode::StoreFrame, vec![v, new], Imm::Var(var));
        }
        let _ = s;
        let depth = self.depth();
        self.envs.insert(irs, EnvInfo { depth, value: new });
        new
    }

    pub(super) fn gen_for(&mut self, f: &'a ForStmt) {
        let labels = self.take_labels();
        let lexical = match &f.init {
            Some(VarDeclOrExpr::VarDecl(v)) if v.kind != VarDeclKind::Var => Some(v.kind),
            _ => None,
        };
        let sc = lexical.and_then(|_| self.tree.scope_by_key(ScopeKey::new(f.span, ScopeKind::For)));
        let saved = sc.map(|s| {
            let saved = self.enter_scope(s);
            self.init_tdz(s);
            saved
        });
        // Per-iteration copies only for captured `let` bindings.
        let per_iteration = match (sc, lexical) {
            (Some(s), Some(VarDeclKind::Let)) => self
                .loop_env(s)
                .filter(|_| self.tree.scope(s).decls.iter().any(|&d| self.tree.decl(d).kind == DeclKind::Let))
                .map(|irs| (s, irs)),
            _ => None,
        };
        let using = match &f.init {
            Some(VarDeclOrExpr::VarDecl(v)) => self.lines.for_using(v.span.lo),
            _ => None,
        };
        match (&f.init, using) {
            // `for (using x = v; ...)`: the loop's resources are disposed of when it ends
            // (ForStatement evaluation, DisposeResources of the loop environment).
            (Some(VarDeclOrExpr::VarDecl(v)), Some(is_await)) => {
                self.disposing_region(is_await, |g, cap| {
                    g.using_decls(cap, &v.decls, is_await);
                    g.gen_for_loop(f, labels, per_iteration);
                });
            }
            (Some(VarDeclOrExpr::VarDecl(v)), None) => {
                self.gen_var_decl(v);
                self.gen_for_loop(f, labels, per_iteration);
            }
            (Some(VarDeclOrExpr::Expr(e)), _) => {
                self.expr(e);
                self.gen_for_loop(f, labels, per_iteration);
            }
            (None, _) => self.gen_for_loop(f, labels, per_iteration),
        }
        if let Some(saved) = saved {
            self.exit_scope(saved);
        }
    }

    /// The loop of `for (init; test; update) body`, after `init`; `per_iteration` is the
    /// head's scope and environment when its `let` bindings are copied for each iteration.
    fn gen_for_loop(&mut self, f: &'a ForStmt, labels: Vec<String>, per_iteration: Option<(ScopeIdx, ir::ScopeId)>) {
        let header = self.new_block();
        let body = self.new_block();
        let latch = self.new_block();
        let exit = self.new_block();
        let mut env_phi = None;
        if let Some((s, irs)) = per_iteration {
            let e1 = self.copy_loop_env(s, irs);
            let pre = self.cur_block();
            self.branch(header);
            self.switch_to(header);
            let phi = self.phi(vec![(e1, pre)]);
            let depth = self.depth();
            self.envs.insert(irs, EnvInfo { depth, value: phi });
            env_phi = Some(phi);
        } else {
            self.branch(header);
            self.switch_to(header);
        }
        match &f.test {
            Some(t) => {
                let t = self.expr(t);
                self.cond_branch(t, body, exit);
            }
            None => self.branch(body),
        }
        self.switch_to(body);
        let depth = self.fr().cleanups.len();
        self.push_loop(labels, exit, latch, depth, depth);
        self.sub_stmt(&f.body);
        self.f().targets.pop();
        self.branch(latch);
        self.switch_to(latch);
        if let (Some((s, irs)), Some(phi)) = (per_iteration, env_phi) {
            let e2 = self.copy_loop_env(s, irs);
            if let Some(u) = &f.update {
                self.expr(u);
            }
            let end = self.cur_block();
            self.branch(header);
            // Complete the header Phi with the back edge (when the latch is reachable).
            let st = self.f();
            if let Some(inst) = st.func.def_inst(phi) {
                st.func.insts[inst].args.push(e2);
                st.func.insts[inst].targets.push(end);
            }
        } else {
            if let Some(u) = &f.update {
                self.expr(u);
            }
            self.branch(header);
        }
        self.switch_to(exit);
    }

    /// Enters the scope of a `for (let/const x in/of ...)` head, if it has one.
    fn enter_for_head(&mut self, span: swc_common::Span, left: &ForHead) -> Option<(ScopeIdx, ScopeIdx)> {
        match left {
            ForHead::VarDecl(v) if v.kind != VarDeclKind::Var => {}
            ForHead::UsingDecl(_) => {}
            _ => return None,
        }
        let s = self.tree.scope_by_key(ScopeKey::new(span, ScopeKind::For))?;
        let saved = self.enter_scope(s);
        self.init_tdz(s);
        Some((s, saved))
    }

    /// Binds the value of one iteration to the loop head.
    fn bind_for_head(&mut self, left: &'a ForHead, v: Value) {
        match left {
            ForHead::VarDecl(decl) => {
                let mode = Mode::Init;
                if let Some(d) = decl.decls.first() {
                    self.bind_pattern(&d.name, v, mode);
                }
            }
            ForHead::Pat(p) => self.bind_pattern(p, v, Mode::Assign),
            ForHead::UsingDecl(u) => self.unsupported(u.span, "`using` declaration"),
        }
    }

    pub(super) fn gen_for_in(&mut self, f: &'a ForInStmt) {
        let labels = self.take_labels();
        // Annex B: `for (var x = init in obj)` assigns init first (sloppy code only; the
        // parser keeps such an initializer apart, see `LineTable::for_in_init`).
        if let ForHead::VarDecl(v) = &f.left {
            let lines = self.lines;
            if let (VarDeclKind::Var, Some(d)) = (v.kind, v.decls.first()) {
                let init = d.init.as_deref().or_else(|| lines.for_in_init(v.span.lo));
                if let Some(init) = init {
                    if self.strict() {
                        let msg = "for-in loop variable declaration may not have an initializer".to_string();
                        self.diags.push(lines.diag(d.span, msg));
                    }
                    let val = self.expr(init);
                    self.bind_pattern(&d.name, val, Mode::Init);
                }
            }
        }
        let head = self.enter_for_head(f.span, &f.left);
        let obj = self.expr(&f.right);
        if let Some((_, saved)) = head {
            self.exit_scope(saved);
        }
        self.at(f.span);
        let exit = self.new_block();
        let start = self.new_block();
        let nullish = self.is_nullish(obj);
        self.cond_branch(nullish, exit, start);
        self.switch_to(start);
        let names = self.emit(Opcode::GetPNameList, vec![obj], Imm::None);
        let header = self.new_block();
        let body = self.new_block();
        self.branch(header);
        self.switch_to(header);
        self.at(f.span);
        let key = self.emit(Opcode::GetNextPName, vec![names], Imm::None);
        let done = self.is_empty(key);
        self.cond_branch(done, exit, body);
        self.switch_to(body);
        let depth = self.fr().cleanups.len();
        self.push_loop(labels, exit, header, depth, depth);
        let head = self.enter_for_head(f.span, &f.left);
        self.bind_for_head(&f.left, key);
        self.sub_stmt(&f.body);
        if let Some((_, saved)) = head {
            self.exit_scope(saved);
        }
        self.f().targets.pop();
        self.branch(header);
        self.switch_to(exit);
    }

    pub(super) fn gen_for_of(&mut self, f: &'a ForOfStmt) {
        if f.is_await {
            // The parser accepts `for await` only where `await` is (scripts have no
            // top-level await), so this is always an async body.
            if !self.can_await() {
                self.unsupported(f.span, "`for await` here");
                return;
            }
            self.gen_for_await(f);
            return;
        }
        let labels = self.take_labels();
        let head = self.enter_for_head(f.span, &f.left);
        let iterable = self.expr(&f.right);
        if let Some((_, saved)) = head {
            self.exit_scope(saved);
        }
        self.at(f.span);
        let iter = self.emit(Opcode::GetIterator, vec![iterable], Imm::None);
        let header = self.new_block();
        let body_pre = self.new_block();
        let exit = self.new_block();
        self.branch(header);
        self.switch_to(header);
        self.at(f.span);
        let v = self.emit(Opcode::IteratorNext, vec![iter], Imm::None);
        let done = self.is_empty(v);
        self.cond_branch(done, exit, body_pre);
        self.switch_to(body_pre);
        let e = self.for_of_body(f, labels, v, header, exit, Cleanup::IteratorClose(iter));
        // An exception from the head binding or the body closes the iterator.
        self.emit_void(Opcode::IteratorClose, vec![iter], Imm::Flags(1));
        self.term(Opcode::Throw, vec![e], Vec::new(), Imm::None);
        self.switch_to(exit);
    }

    /// The body of a `for-of` or `for await` loop, entered with the step's value `v`: a try
    /// region over the head binding and the statement, whose `break`s and `return`s run
    /// `close` and whose iterations go back to `header`. Leaves the builder in the region's
    /// handler, after its `catch`, and returns the caught exception.
    fn for_of_body(
        &mut self,
        f: &'a ForOfStmt,
        labels: Vec<String>,
        v: Value,
        header: ir::Block,
        exit: ir::Block,
        close: Cleanup<'a>,
    ) -> Value {
        let body = self.new_block();
        let handler = self.new_block();
        self.term(Opcode::TryStart, Vec::new(), vec![body, handler], Imm::None);
        let break_depth = self.fr().cleanups.len();
        self.f().cleanups.push(close);
        let continue_depth = self.fr().cleanups.len();
        self.f().cleanups.push(Cleanup::TryRegion);
        self.push_loop(labels, exit, header, break_depth, continue_depth);
        self.switch_to(body);
        let head = self.enter_for_head(f.span, &f.left);
        match &f.left {
            // `for ([await] using x of ...)`: each iteration disposes of its value.
            ForHead::UsingDecl(u) => self.disposing_region(u.is_await, |g, cap| {
                if let Some(Pat::Ident(b)) = u.decls.first().map(|d| &d.name) {
                    g.using_binding(cap, &b.id.sym, v, u.is_await);
                }
                g.sub_stmt(&f.body);
            }),
            _ => {
                self.bind_for_head(&f.left, v);
                self.sub_stmt(&f.body);
            }
        }
        if let Some((_, saved)) = head {
            self.exit_scope(saved);
        }
        self.f().targets.pop();
        self.f().cleanups.pop();
        self.f().cleanups.pop();
        if !self.is_terminated() {
            self.term(Opcode::TryEnd, Vec::new(), vec![header], Imm::None);
        }
        self.switch_to(handler);
        self.emit(Opcode::Catch, Vec::new(), Imm::None)
    }

    /// `for await (left of right) body` (14.7.5.6-7 with iteratorKind async).
    fn gen_for_await(&mut self, f: &'a ForOfStmt) {
        let labels = self.take_labels();
        let head = self.enter_for_head(f.span, &f.left);
        let iterable = self.expr(&f.right);
        if let Some((_, saved)) = head {
            self.exit_scope(saved);
        }
        self.at(f.span);
        let iter = self.call_builtin(BuiltinId::GetAsyncIterator, vec![iterable]);
        let next_key = self.str_lit("next");
        let next = self.emit(Opcode::LoadProperty, vec![iter, next_key], Imm::None);
        let header = self.new_block();
        let body_pre = self.new_block();
        let exit = self.new_block();
        self.branch(header);
        self.switch_to(header);
        self.at(f.span);
        // ForIn/OfBodyEvaluation steps 6.a-f: Call(next), Await, an object, `done`, `value`.
        let r = self.emit(Opcode::Call, vec![next, iter], Imm::None);
        let r = self.await_value(r);
        let msg = self.str_lit("iterator result is not an object");
        self.call_builtin(BuiltinId::EnsureObject, vec![r, msg]);
        let done_key = self.str_lit("done");
        let done = self.emit(Opcode::LoadProperty, vec![r, done_key], Imm::None);
        self.cond_branch(done, exit, body_pre);
        self.switch_to(body_pre);
        let value_key = self.str_lit("value");
        let v = self.emit(Opcode::LoadProperty, vec![r, value_key], Imm::None);
        let e = self.for_of_body(f, labels, v, header, exit, Cleanup::AsyncIteratorClose(iter));
        // Steps 6.i and 6.l: an exception from the head binding or the body closes the
        // iterator (AsyncIteratorClose with a throw completion) and is rethrown.
        self.async_iterator_close_and_throw(iter, e);
        self.switch_to(exit);
    }
}
