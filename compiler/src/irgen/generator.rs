//! `yield` and `yield*` in the inner function of a generator.
//!
//! ```text
//! yield v:                          %BBresume:
//!   save_and_yield %v, %BBresume      %r = resume_generator %is_return   (throws for throw())
//!                                     %ret = load_stack %is_return
//!                                     cond_branch %ret, %BBreturn, %BBcontinue
//! ```
//! `%BBreturn` runs the enclosing finally blocks and returns `%r` (resumption by
//! `return()`); `%r` is the value of the `yield` expression otherwise.
//!
//! `yield* iterable` runs the delegation loop of the specification with a `mode` slot
//! (0 next, 1 throw, 2 return) and a `received` slot: it calls `next`, `throw` or
//! `return` of the inner iterator, checks the result is an object, finishes when `done`,
//! and otherwise yields the result's `value` inside a try region whose handler turns an
//! exception sent by `throw()` into mode 1. Without a `throw` method the inner iterator is
//! closed and a TypeError thrown; without a `return` method the generator returns.
//! The inner result object is yielded as it is (`markRawYield` before the yield tells the
//! generator not to wrap it in a new iterator result), as GeneratorYield(innerResult) does.

use ir::{BinOp, ErrorKind, FunctionKind, Imm, Opcode, Value};
use swc_ecma_ast::*;

use super::{Builtin, Gen};

impl<'a> Gen<'a> {
    pub(super) fn gen_yield(&mut self, y: &'a YieldExpr) -> Value {
        if self.fr().func.kind != FunctionKind::GeneratorInner || self.fr().resume_slot.is_none() {
            self.unsupported(y.span, "`yield` here");
            return self.undef();
        }
        if y.delegate {
            let iterable = match &y.arg {
                Some(a) => self.expr(a),
                None => self.undef(),
            };
            self.at(y.span);
            return self.gen_yield_star(iterable);
        }
        let v = match &y.arg {
            Some(a) => self.expr(a),
            None => self.undef(),
        };
        self.at(y.span);
        let (r, is_return) = self.yield_value(v);
        let ret = self.new_block();
        let cont = self.new_block();
        self.cond_branch(is_return, ret, cont);
        self.switch_to(ret);
        self.gen_return(Some(r));
        self.switch_to(cont);
        r
    }

    /// Yields `v`; returns the value sent on resumption and whether it was by `return()`.
    fn yield_value(&mut self, v: Value) -> (Value, Value) {
        let slot = self.fr().resume_slot.expect("inside a generator's inner function");
        let resume = self.new_block();
        self.term(Opcode::SaveAndYield, vec![v], vec![resume], Imm::None);
        self.switch_to(resume);
        let r = self.emit(Opcode::ResumeGenerator, vec![slot], Imm::None);
        let is_return = self.load_stack(slot);
        (r, is_return)
    }

    fn gen_yield_star(&mut self, iterable: Value) -> Value {
        let iter = self.emit(Opcode::GetIterator, vec![iterable], Imm::None);
        let next_key = self.str_lit("next");
        let next = self.emit(Opcode::LoadProperty, vec![iter, next_key], Imm::None);
        let received = self.alloc_stack("%received");
        let mode = self.alloc_stack("%mode");
        let u = self.undef();
        let zero = self.num(0.0);
        let one = self.num(1.0);
        let two = self.num(2.0);
        self.store_stack(u, received);
        self.store_stack(zero, mode);
        let looph = self.new_block();
        self.branch(looph);
        self.switch_to(looph);
        let m = self.load_stack(mode);
        let r = self.load_stack(received);
        let do_next = self.new_block();
        let not_next = self.new_block();
        let do_throw = self.new_block();
        let do_return = self.new_block();
        let check = self.new_block();
        let mut results = Vec::new();

        let is_next = self.b().binary(BinOp::StrictEq, m, zero);
        self.cond_branch(is_next, do_next, not_next);
        self.switch_to(do_next);
        let res = self.emit(Opcode::Call, vec![next, iter, r], Imm::None);
        self.edge(res, check, &mut results);

        self.switch_to(not_next);
        let is_throw = self.b().binary(BinOp::StrictEq, m, one);
        self.cond_branch(is_throw, do_throw, do_return);

        // throw(): forward to the inner iterator's `throw`, or close it and fail.
        self.switch_to(do_throw);
        let throw_key = self.str_lit("throw");
        let throw_fn = self.emit(Opcode::LoadProperty, vec![iter, throw_key], Imm::None);
        let missing = self.is_nullish(throw_fn);
        let call_throw = self.new_block();
        let no_throw = self.new_block();
        self.cond_branch(missing, no_throw, call_throw);
        self.switch_to(call_throw);
        let res = self.emit(Opcode::Call, vec![throw_fn, iter, r], Imm::None);
        self.edge(res, check, &mut results);
        self.switch_to(no_throw);
        self.emit_void(Opcode::IteratorClose, vec![iter], Imm::Flags(0));
        self.throw_error(ErrorKind::TypeError, "The iterator does not provide a 'throw' method");

        // return(): forward to the inner iterator's `return`, or return directly.
        self.switch_to(do_return);
        let return_key = self.str_lit("return");
        let return_fn = self.emit(Opcode::LoadProperty, vec![iter, return_key], Imm::None);
        let missing = self.is_nullish(return_fn);
        let call_return = self.new_block();
        let no_return = self.new_block();
        self.cond_branch(missing, no_return, call_return);
        self.switch_to(call_return);
        let res = self.emit(Opcode::Call, vec![return_fn, iter, r], Imm::None);
        self.edge(res, check, &mut results);
        self.switch_to(no_return);
        self.gen_return(Some(r));

        // The inner result.
        let res = self.merge(check, results);
        let msg = self.str_lit("iterator result is not an object");
        self.call_builtin(Builtin::EnsureObject, vec![res, msg]);
        let done_key = self.str_lit("done");
        let value_key = self.str_lit("value");
        let done = self.emit(Opcode::LoadProperty, vec![res, done_key], Imm::None);
        let finished = self.new_block();
        let yield_bb = self.new_block();
        self.cond_branch(done, finished, yield_bb);

        self.switch_to(finished);
        let value = self.emit(Opcode::LoadProperty, vec![res, value_key], Imm::None);
        let m2 = self.load_stack(mode);
        let was_return = self.b().binary(BinOp::StrictEq, m2, two);
        let ret = self.new_block();
        let after = self.new_block();
        self.cond_branch(was_return, ret, after);
        self.switch_to(ret);
        self.gen_return(Some(value));

        // Not done: yield the inner result object itself and wait for the next resumption.
        self.switch_to(yield_bb);
        let body = self.new_block();
        let handler = self.new_block();
        self.term(Opcode::TryStart, Vec::new(), vec![body, handler], Imm::None);
        self.switch_to(body);
        self.call_builtin(Builtin::MarkRawYield, Vec::new());
        let (x, is_return) = self.yield_value(res);
        let resumed = self.new_block();
        self.term(Opcode::TryEnd, Vec::new(), vec![resumed], Imm::None);
        self.switch_to(resumed);
        self.store_stack(x, received);
        let as_return = self.new_block();
        let as_next = self.new_block();
        self.cond_branch(is_return, as_return, as_next);
        self.switch_to(as_return);
        self.store_stack(two, mode);
        self.branch(looph);
        self.switch_to(as_next);
        self.store_stack(zero, mode);
        self.branch(looph);
        self.switch_to(handler);
        let e = self.emit(Opcode::Catch, Vec::new(), Imm::None);
        self.store_stack(e, received);
        self.store_stack(one, mode);
        self.branch(looph);

        self.switch_to(after);
        value
    }
}
