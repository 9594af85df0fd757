//! Statements: blocks, declarations, `if`, `switch`, labels, `break`/`continue`/`return`,
//! `throw`, and `try`/`catch`/`finally`.
//!
//! Jumps out of a region run the region's cleanups, innermost first (`emit_cleanups`):
//! leaving a try region emits `try_end`, leaving a `finally`-protected region emits a copy
//! of the finally block, leaving a for-of body closes its iterator. So
//! `try { return f(); } finally { g(); }` lowers to
//! ```text
//!   try_start %body, %handler
//! %body:   %r = call f ...; try_end %exit
//! %exit:   call g ...; return %r
//! %handler: %e = catch; call g ...; throw %e
//! ```

use bytecode::BuiltinId;
use ir::{BinOp, Imm, Opcode, Value};
use swc_ecma_ast::*;

use super::pattern::Mode;
use super::{Cleanup, Gen, JumpTarget};
use crate::frontend::scope::{self, AnnexBTarget, ScopeKey, ScopeKind};

impl<'a> Gen<'a> {
    pub(super) fn gen_stmts(&mut self, stmts: &'a [Stmt]) {
        for s in stmts {
            self.stmt(s);
        }
    }

    pub(super) fn stmt(&mut self, s: &'a Stmt) {
        let span = swc_common::Spanned::span(s);
        self.at(span);
        if !matches!(
            s,
            Stmt::Labeled(_) | Stmt::While(_) | Stmt::DoWhile(_) | Stmt::For(_) | Stmt::ForIn(_) | Stmt::ForOf(_)
        ) {
            self.f().pending_labels.clear();
        }
        // Completion values (top-level code): these statements complete with
        // UpdateEmpty(result, undefined), so they start by setting undefined, which a
        // value-producing statement inside overwrites.
        if let Some(slot) = self.fr().completion {
            if matches!(
                s,
                Stmt::If(_)
                    | Stmt::While(_)
                    | Stmt::DoWhile(_)
                    | Stmt::For(_)
                    | Stmt::ForIn(_)
                    | Stmt::ForOf(_)
                    | Stmt::Switch(_)
                    | Stmt::Try(_)
                    | Stmt::With(_)
            ) {
                let u = self.undef();
                self.store_stack(u, slot);
            }
        }
        match s {
            Stmt::Block(b) => self.gen_block(b),
            Stmt::Empty(_) => {}
            Stmt::Debugger(_) => {
                self.emit_void(Opcode::Debugger, Vec::new(), Imm::None);
            }
            Stmt::With(w) => {
                let v = self.expr(&w.obj);
                self.at(w.span);
                let obj = self.call_builtin(BuiltinId::ToObject, vec![v]);
                match self.tree.scope_by_key(ScopeKey::new(w.span, ScopeKind::With)) {
                    Some(sc) => {
                        let saved = self.enter_scope(sc);
                        if let Some(d) = self.tree.lookup_local(sc, "%with") {
                            self.init_decl(d, obj);
                        }
                        self.sub_stmt(&w.body);
                        self.exit_scope(saved);
                    }
                    None => self.sub_stmt(&w.body),
                }
            }
            Stmt::Return(r) => {
                let v = r.arg.as_ref().map(|e| {
                    let v = self.expr(e);
                    self.await_return_value(v)
                });
                self.at(r.span);
                self.gen_return(v);
            }
            Stmt::Labeled(l) => self.gen_labeled(l),
            Stmt::Break(b) => self.gen_break(b.label.as_ref()),
            Stmt::Continue(c) => self.gen_continue(c.label.as_ref()),
            Stmt::If(i) => {
                let test = self.expr(&i.test);
                let then = self.new_block();
                let end = self.new_block();
                let otherwise = if i.alt.is_some() { self.new_block() } else { end };
                self.cond_branch(test, then, otherwise);
                self.switch_to(then);
                self.sub_stmt(&i.cons);
                self.branch(end);
                if let Some(alt) = &i.alt {
                    self.switch_to(otherwise);
                    self.sub_stmt(alt);
                    self.branch(end);
                }
                self.switch_to(end);
            }
            Stmt::Switch(sw) => self.gen_switch(sw),
            Stmt::Throw(t) => {
                let v = self.expr(&t.arg);
                self.at(t.span);
                self.term(Opcode::Throw, vec![v], Vec::new(), Imm::None);
                self.start_dead_block();
            }
            Stmt::Try(t) => self.gen_try(t),
            Stmt::While(w) => self.gen_while(w),
            Stmt::DoWhile(w) => self.gen_do_while(w),
            Stmt::For(f) => self.gen_for(f),
            Stmt::ForIn(f) => self.gen_for_in(f),
            Stmt::ForOf(f) => self.gen_for_of(f),
            Stmt::Decl(d) => self.gen_decl(d),
            Stmt::Expr(e) => {
                let v = self.expr(&e.expr);
                if let Some(slot) = self.fr().completion {
                    self.store_stack(v, slot);
                }
            }
        }
    }

    /// A finally block: its normal completion does not change the completion value.
    fn gen_finally(&mut self, block: &'a BlockStmt) {
        let Some(slot) = self.fr().completion else {
            self.gen_block(block);
            return;
        };
        let saved = self.load_stack(slot);
        // A jump out of the finally block completes with the block's own value.
        let u = self.undef();
        self.store_stack(u, slot);
        self.gen_block(block);
        if !self.is_terminated() {
            self.store_stack(saved, slot);
        }
    }

    /// A statement in a position where a declaration is in an implicit block (Annex B
    /// `if (x) function f() {}`).
    pub(super) fn sub_stmt(&mut self, s: &'a Stmt) {
        if let Stmt::Decl(_) = s {
            let key = ScopeKey::new(scope::stmt_span(s), ScopeKind::ImplicitBlock);
            if let Some(sc) = self.tree.scope_by_key(key) {
                let saved = self.enter_scope(sc);
                self.init_tdz(sc);
                self.hoist_functions(std::slice::from_ref(s), sc);
                self.stmt(s);
                self.exit_scope(saved);
                return;
            }
        }
        self.stmt(s);
    }

    pub(super) fn gen_block(&mut self, b: &'a BlockStmt) {
        let Some(sc) = self.tree.scope_by_key(ScopeKey::new(b.span, ScopeKind::Block)) else {
            self.gen_stmts(&b.stmts);
            return;
        };
        let saved = self.enter_scope(sc);
        self.init_tdz(sc);
        self.hoist_functions(&b.stmts, sc);
        self.gen_stmts_disposing(&b.stmts);
        self.exit_scope(saved);
    }

    /// The statements of a block or function body; when they declare `using` resources, in
    /// a region whose every exit disposes of them (DisposeResources: a throw disposes with
    /// the thrown value as the completion, which the disposal's own errors suppress).
    /// ```text
    ///   %cap = call_builtin createDisposeCapability(isAsync)
    ///   try_start %body, %handler
    /// %body:     ... using x = v: addDisposableResource(%cap, v, isAsync); x = v ...
    ///            try_end %normal            (break, continue, return: try_end, dispose)
    /// %normal:   disposeResources(%cap)     (async: awaited)
    /// %handler:  %e = catch;  disposeResources(%cap, %e);  throw %e
    /// ```
    pub(super) fn gen_stmts_disposing(&mut self, stmts: &'a [Stmt]) {
        let mut using = stmts.iter().filter_map(|s| match s {
            Stmt::Decl(Decl::Using(u)) => Some(u.is_await),
            _ => None,
        });
        let Some(first) = using.next() else {
            self.gen_stmts(stmts);
            return;
        };
        let is_async = first || using.any(|a| a);
        self.disposing_region(is_async, |g, cap| {
            g.f().disposals.push(cap);
            g.gen_stmts(stmts);
            g.f().disposals.pop();
        });
    }

    /// Generates `gen`'s code in a region that disposes of the resources added to its
    /// capability (the closure's second argument) on every exit (see `gen_stmts_disposing`).
    pub(super) fn disposing_region(&mut self, is_async: bool, gen: impl FnOnce(&mut Self, Value)) {
        let flag = self.bool_lit(is_async);
        let cap = self.call_builtin(BuiltinId::CreateDisposeCapability, vec![flag]);
        let cont = self.new_block();
        let body = self.new_block();
        let handler = self.new_block();
        self.term(Opcode::TryStart, Vec::new(), vec![body, handler], Imm::None);
        self.f().cleanups.push(Cleanup::Dispose { cap, is_async });
        self.f().cleanups.push(Cleanup::TryRegion);
        self.switch_to(body);
        gen(self, cap);
        self.f().cleanups.pop();
        self.f().cleanups.pop();
        if !self.is_terminated() {
            let normal = self.new_block();
            self.term(Opcode::TryEnd, Vec::new(), vec![normal], Imm::None);
            self.switch_to(normal);
            self.dispose_resources(cap, None, is_async);
            self.branch(cont);
        }
        self.switch_to(handler);
        let e = self.emit(Opcode::Catch, Vec::new(), Imm::None);
        self.dispose_resources(cap, Some(e), is_async);
        self.term(Opcode::Throw, vec![e], Vec::new(), Imm::None);
        self.switch_to(cont);
    }

    /// DisposeResources(cap, completion): normal, or a throw of `error` (then it throws).
    /// Async disposal awaits the promise the builtin gives, unless there was nothing to
    /// dispose of (an `await using` never reached): then it gives `undefined` and nothing
    /// awaits.
    pub(super) fn dispose_resources(&mut self, cap: Value, error: Option<Value>, is_async: bool) {
        let mut args = vec![cap];
        args.extend(error);
        let r = self.call_builtin(BuiltinId::DisposeResources, args);
        if is_async {
            let undef = self.undef();
            let none = self.b().binary(ir::BinOp::StrictEq, r, undef);
            let wait = self.new_block();
            let done = self.new_block();
            self.cond_branch(none, done, wait);
            self.switch_to(wait);
            self.await_value(r);
            self.branch(done);
            self.switch_to(done);
        }
    }

    /// `using x = v` / `await using x = v`: AddDisposableResource, then the binding.
    fn gen_using_decl(&mut self, u: &'a UsingDecl) {
        // Scope analysis allows `using` only in blocks, function bodies and modules.
        let Some(&cap) = self.fr().disposals.last() else {
            self.unsupported(u.span, "`using` declaration here");
            return;
        };
        self.using_decls(cap, &u.decls, u.is_await);
    }

    /// The bindings of a `using` (or `await using`) declaration, adding each value to the
    /// capability `cap`.
    pub(super) fn using_decls(&mut self, cap: Value, decls: &'a [VarDeclarator], is_await: bool) {
        for d in decls {
            self.at(d.span);
            let Pat::Ident(b) = &d.name else { continue };
            let name = b.id.sym.to_string();
            let v = match &d.init {
                Some(init) => self.expr_named(init, Some(&name)),
                None => self.undef(),
            };
            self.using_binding(cap, &name, v, is_await);
        }
    }

    /// Adds `v` to the capability `cap` (AddDisposableResource), then binds `name` to it.
    pub(super) fn using_binding(&mut self, cap: Value, name: &str, v: Value, is_async: bool) {
        let hint = self.bool_lit(is_async);
        self.call_builtin(BuiltinId::AddDisposableResource, vec![cap, v, hint]);
        self.init_name(name, v);
    }

    fn gen_decl(&mut self, d: &'a Decl) {
        match d {
            Decl::Var(v) => self.gen_var_decl(v),
            Decl::Fn(f) => {
                // Hoisted; here only the Annex B copy into the var binding happens.
                if let Some(d) = self.resolve(&f.ident.sym) {
                    if let Some(target) = self.tree.annexb.get(&d) {
                        let v = self.read_decl(d);
                        match target {
                            AnnexBTarget::Decl(var) => self.write_decl(*var, v),
                            AnnexBTarget::Global(name) if self.eval_outer.is_some_and(|o| o.in_function) => {
                                self.store_eval_var(name, v);
                            }
                            AnnexBTarget::Global(name) => {
                                let a = self.atom(name);
                                self.emit_void(Opcode::StoreGlobal, vec![v], Imm::Name(a));
                            }
                        }
                    }
                }
            }
            Decl::Class(c) => {
                let ctor = self.gen_class(&c.class, Some(crate::frontend::module::function_name(&c.ident.sym)), None);
                self.init_name(&c.ident.sym, ctor);
            }
            Decl::Using(u) => self.gen_using_decl(u),
            _ => {}
        }
    }

    pub(super) fn gen_var_decl(&mut self, v: &'a VarDecl) {
        let mode = Mode::Init;
        for d in &v.decls {
            self.at(d.span);
            match &d.init {
                Some(init) => {
                    let hint = match &d.name {
                        Pat::Ident(b) => Some(crate::frontend::module::function_name(&b.id.sym).to_string()),
                        _ => None,
                    };
                    // `var x = v` in a `with` body resolves `x` before evaluating `v`.
                    if let (Pat::Ident(b), VarDeclKind::Var) = (&d.name, v.kind) {
                        let withs = self.with_objects(&b.id.sym);
                        if !withs.is_empty() {
                            let target = self.with_lookup(&b.id.sym, &withs);
                            let val = self.expr_named(init, hint.as_deref());
                            self.init_resolved(&b.id.sym, target, val);
                            continue;
                        }
                    }
                    let val = self.expr_named(init, hint.as_deref());
                    self.bind_pattern(&d.name, val, mode);
                }
                None if v.kind != VarDeclKind::Var => {
                    let u = self.undef();
                    self.bind_pattern(&d.name, u, mode);
                }
                None => {}
            }
        }
    }

    // ---- labels and jumps -------------------------------------------------------------------

    pub(super) fn take_labels(&mut self) -> Vec<String> {
        std::mem::take(&mut self.f().pending_labels)
    }

    fn gen_labeled(&mut self, l: &'a LabeledStmt) {
        self.f().pending_labels.push(l.label.sym.to_string());
        match &*l.body {
            Stmt::Labeled(_) | Stmt::While(_) | Stmt::DoWhile(_) | Stmt::For(_) | Stmt::ForIn(_) | Stmt::ForOf(_) => {
                self.stmt(&l.body)
            }
            body => {
                let labels = self.take_labels();
                let brk = self.new_block();
                let depth = self.fr().cleanups.len();
                self.f().targets.push(JumpTarget {
                    labels,
                    breakable: false,
                    break_block: brk,
                    break_depth: depth,
                    continue_to: None,
                });
                self.sub_stmt(body);
                self.f().targets.pop();
                self.branch(brk);
                self.switch_to(brk);
            }
        }
    }

    fn gen_break(&mut self, label: Option<&Ident>) {
        let targets = &self.fr().targets;
        let found = match label {
            Some(l) => targets.iter().rposition(|t| t.labels.iter().any(|x| *x == *l.sym)),
            None => targets.iter().rposition(|t| t.breakable),
        };
        let Some(i) = found else {
            self.unsupported(label.map_or(swc_common::DUMMY_SP, |l| l.span), "this `break`");
            return;
        };
        let t = self.fr().targets[i].clone();
        self.emit_cleanups(t.break_depth);
        self.branch(t.break_block);
        self.start_dead_block();
    }

    fn gen_continue(&mut self, label: Option<&Ident>) {
        let targets = &self.fr().targets;
        let found = match label {
            Some(l) => targets.iter().rposition(|t| t.continue_to.is_some() && t.labels.iter().any(|x| *x == *l.sym)),
            None => targets.iter().rposition(|t| t.continue_to.is_some()),
        };
        let Some((block, depth)) = found.and_then(|i| self.fr().targets[i].continue_to) else {
            self.unsupported(label.map_or(swc_common::DUMMY_SP, |l| l.span), "this `continue`");
            return;
        };
        self.emit_cleanups(depth);
        self.branch(block);
        self.start_dead_block();
    }

    /// Runs the cleanups above `depth`, innermost first (see the module docs).
    pub(super) fn emit_cleanups(&mut self, depth: usize) {
        let mut i = self.fr().cleanups.len();
        while i > depth {
            i -= 1;
            let c = self.fr().cleanups[i];
            match c {
                Cleanup::TryRegion => {
                    let next = self.new_block();
                    self.term(Opcode::TryEnd, Vec::new(), vec![next], Imm::None);
                    self.switch_to(next);
                }
                Cleanup::IteratorClose(iter) => {
                    self.emit_void(Opcode::IteratorClose, vec![iter], Imm::Flags(0));
                }
                Cleanup::AsyncIteratorClose(iter) => self.async_iterator_close(iter),
                Cleanup::Dispose { cap, is_async } => self.dispose_resources(cap, None, is_async),
                Cleanup::CloseIfNotDone { iter, done } => {
                    let d = self.load_stack(done);
                    let close = self.new_block();
                    let after = self.new_block();
                    self.cond_branch(d, after, close);
                    self.switch_to(close);
                    self.emit_void(Opcode::IteratorClose, vec![iter], Imm::Flags(0));
                    self.branch(after);
                    self.switch_to(after);
                }
                Cleanup::Finally { block, targets, scope } => {
                    let saved_cleanups = self.f().cleanups.split_off(i);
                    let keep = targets.min(self.fr().targets.len());
                    let saved_targets = self.f().targets.split_off(keep);
                    let saved_scope = self.fr().cur_scope;
                    let saved_loc = self.fr().loc;
                    self.f().cur_scope = scope;
                    self.gen_finally(block);
                    self.f().cur_scope = saved_scope;
                    self.f().loc = saved_loc;
                    self.f().targets.extend(saved_targets);
                    self.f().cleanups.extend(saved_cleanups);
                }
            }
        }
    }

    // ---- switch -----------------------------------------------------------------------------

    fn gen_switch(&mut self, sw: &'a SwitchStmt) {
        let labels = self.take_labels();
        let d = self.expr(&sw.discriminant);
        let sc = self.tree.scope_by_key(ScopeKey::new(sw.span, ScopeKind::Switch));
        let saved = sc.map(|sc| {
            let saved = self.enter_scope(sc);
            self.init_tdz(sc);
            let all: Vec<&'a Stmt> = sw.cases.iter().flat_map(|c| c.cons.iter()).collect();
            for s in all {
                self.hoist_functions(std::slice::from_ref(s), sc);
            }
            saved
        });
        let exit = self.new_block();
        let bodies: Vec<ir::Block> = sw.cases.iter().map(|_| self.new_block()).collect();
        // Tests in source order; the default case is taken when none matches.
        for (i, case) in sw.cases.iter().enumerate() {
            if let Some(test) = &case.test {
                let t = self.expr(test);
                self.at(case.span);
                let eq = self.b().binary(BinOp::StrictEq, d, t);
                let next = self.new_block();
                self.cond_branch(eq, bodies[i], next);
                self.switch_to(next);
            }
        }
        let default = sw.cases.iter().position(|c| c.test.is_none()).map_or(exit, |i| bodies[i]);
        self.branch(default);
        let depth = self.fr().cleanups.len();
        self.f().targets.push(JumpTarget {
            labels,
            breakable: true,
            break_block: exit,
            break_depth: depth,
            continue_to: None,
        });
        for (i, case) in sw.cases.iter().enumerate() {
            self.switch_to(bodies[i]);
            self.gen_stmts(&case.cons);
            let next = bodies.get(i + 1).copied().unwrap_or(exit);
            self.branch(next);
        }
        self.f().targets.pop();
        if let Some(saved) = saved {
            self.exit_scope(saved);
        }
        self.switch_to(exit);
    }

    // ---- try --------------------------------------------------------------------------------

    fn gen_try(&mut self, t: &'a TryStmt) {
        let Some(fin) = &t.finalizer else {
            match &t.handler {
                Some(h) => self.gen_try_catch(&t.block, h),
                None => self.gen_block(&t.block),
            }
            return;
        };
        let cont = self.new_block();
        let body = self.new_block();
        let handler = self.new_block();
        self.term(Opcode::TryStart, Vec::new(), vec![body, handler], Imm::None);
        let scope = self.fr().cur_scope;
        let targets = self.fr().targets.len();
        self.f().cleanups.push(Cleanup::Finally { block: fin, targets, scope });
        self.f().cleanups.push(Cleanup::TryRegion);
        self.switch_to(body);
        match &t.handler {
            Some(h) => self.gen_try_catch(&t.block, h),
            None => self.gen_block(&t.block),
        }
        self.f().cleanups.pop();
        self.f().cleanups.pop();
        if !self.is_terminated() {
            let normal = self.new_block();
            self.term(Opcode::TryEnd, Vec::new(), vec![normal], Imm::None);
            self.switch_to(normal);
            self.gen_finally(fin);
            self.branch(cont);
        }
        // Exceptional path: run the finally block and rethrow.
        self.switch_to(handler);
        self.at(fin.span);
        let e = self.emit(Opcode::Catch, Vec::new(), Imm::None);
        self.gen_block(fin);
        self.term(Opcode::Throw, vec![e], Vec::new(), Imm::None);
        self.switch_to(cont);
    }

    fn gen_try_catch(&mut self, block: &'a BlockStmt, h: &'a CatchClause) {
        let cont = self.new_block();
        let body = self.new_block();
        let handler = self.new_block();
        self.term(Opcode::TryStart, Vec::new(), vec![body, handler], Imm::None);
        self.f().cleanups.push(Cleanup::TryRegion);
        self.switch_to(body);
        self.gen_block(block);
        self.f().cleanups.pop();
        if !self.is_terminated() {
            self.term(Opcode::TryEnd, Vec::new(), vec![cont], Imm::None);
        }
        self.switch_to(handler);
        self.at(h.span);
        let e = self.emit(Opcode::Catch, Vec::new(), Imm::None);
        if let Some(slot) = self.fr().completion {
            let u = self.undef();
            self.store_stack(u, slot);
        }
        match self.tree.scope_by_key(ScopeKey::new(h.span, ScopeKind::Catch)) {
            Some(sc) => {
                let saved = self.enter_scope(sc);
                self.init_tdz(sc);
                if let Some(p) = &h.param {
                    self.bind_pattern(p, e, Mode::Init);
                }
                self.gen_block(&h.body);
                self.exit_scope(saved);
            }
            None => self.gen_block(&h.body),
        }
        self.branch(cont);
        self.switch_to(cont);
    }
}
