//! `yield` and `yield*` in the inner function of a generator, and `await` in the inner
//! function of an async function (a yield to the driver that awaits the value).
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
//!
//! In the body of an async generator both `await` and `yield` suspend to the driver (the
//! AsyncGenerator object, `vm/src/builtins/async_generator.rs`); `markAsyncYield` before a
//! suspension says it is a yield. `yield v` awaits `v` first (27.5.3.7 Yield), and a
//! resumption by `return(x)` reaches the body only after the driver has awaited `x`
//! (AsyncGeneratorUnwrapYieldResumption), so it returns like in a generator:
//! ```text
//! yield v (async):   %a = <await %v>
//!                    call_builtin markAsyncYield
//!                    save_and_yield %a, %BBresume      ... as above
//! ```
//! `yield*` in an async generator runs the same loop over GetIterator(v, async), awaiting
//! every result of `next`/`throw`/`return` and yielding the inner result's `value`
//! (27.6.3.8 AsyncGeneratorYield, without a second await); AsyncIteratorClose
//! (`async_iterator_close`) replaces IteratorClose.

use ir::{BinOp, ErrorKind, FunctionKind, Imm, Opcode, Value};
use swc_ecma_ast::*;

use super::Gen;
use bytecode::BuiltinId;

impl<'a> Gen<'a> {
    /// Whether the current function is the body of an async generator.
    fn in_async_generator(&self) -> bool {
        self.fr().func.kind == FunctionKind::AsyncGeneratorInner
    }

    /// Whether the current function can suspend for `await`: the body of an async
    /// function or async generator.
    pub(super) fn can_await(&self) -> bool {
        matches!(self.fr().func.kind, FunctionKind::AsyncInner | FunctionKind::AsyncGeneratorInner)
            && self.fr().resume_slot.is_some()
    }

    pub(super) fn gen_yield(&mut self, y: &'a YieldExpr) -> Value {
        let kind = self.fr().func.kind;
        let ok = matches!(kind, FunctionKind::GeneratorInner | FunctionKind::AsyncGeneratorInner);
        if !ok || self.fr().resume_slot.is_none() {
            self.unsupported(y.span, "`yield` here");
            return self.undef();
        }
        let is_async = kind == FunctionKind::AsyncGeneratorInner;
        if y.delegate {
            let iterable = match &y.arg {
                Some(a) => self.expr(a),
                None => self.undef(),
            };
            self.at(y.span);
            return self.gen_yield_star(iterable, is_async);
        }
        let v = match &y.arg {
            Some(a) => self.expr(a),
            None => self.undef(),
        };
        self.at(y.span);
        let (r, is_return) = if is_async {
            // 27.5.3.7 Yield: AsyncGeneratorYield(? Await(value)).
            let a = self.await_value(v);
            self.async_yield(a)
        } else {
            self.yield_value(v)
        };
        let ret = self.new_block();
        let cont = self.new_block();
        self.cond_branch(is_return, ret, cont);
        self.switch_to(ret);
        self.gen_return(Some(r));
        self.switch_to(cont);
        r
    }

    /// `await v` in the body of an async function or async generator: a yield of `v` to the
    /// driver (`asyncFunctionStart`, or the AsyncGenerator object), which resumes the body
    /// with `next(value)` when the promise of `v` fulfils and with `throw(reason)` (thrown
    /// by `resume_generator`) when it rejects. The driver never resumes an `await` with
    /// `return()`.
    pub(super) fn gen_await(&mut self, a: &'a AwaitExpr) -> Value {
        if !self.can_await() {
            self.unsupported(a.span, "`await` here");
            return self.undef();
        }
        let v = self.expr(&a.arg);
        self.at(a.span);
        self.await_value(v)
    }

    /// Await(v) in the body of an async function or async generator: a yield of `v` to
    /// the driver, which resumes with the fulfilment value or throws the rejection reason
    /// at the `resume_generator`.
    pub(super) fn await_value(&mut self, v: Value) -> Value {
        self.yield_value(v).0
    }

    /// The operand of `return expr` in an async generator is awaited before the function
    /// returns (14.10.1 ReturnStatement step 3), inside the enclosing try statements.
    pub(super) fn await_return_value(&mut self, v: Value) -> Value {
        if self.in_async_generator() && self.fr().resume_slot.is_some() {
            return self.await_value(v);
        }
        v
    }

    /// AsyncGeneratorYield(v): completes the front request with `{ value: v, done: false }`
    /// and waits for the next one; returns the value sent and whether it is a `return()`
    /// (whose value the driver has awaited already).
    fn async_yield(&mut self, v: Value) -> (Value, Value) {
        self.call_builtin(BuiltinId::MarkAsyncYield, Vec::new());
        self.yield_value(v)
    }

    /// AsyncIteratorClose(iter, completion) (7.4.13) for a normal or return completion:
    /// calls `iter.return()` if there is one, awaits its result and requires an object.
    /// Errors propagate.
    pub(super) fn async_iterator_close(&mut self, iter: Value) {
        self.call_async_return(iter, true);
    }

    /// Calls `iter.return()` if there is one and awaits its result, which must be an object
    /// when `require_object` (a normal completion; a throw completion ignores it).
    fn call_async_return(&mut self, iter: Value, require_object: bool) {
        let return_key = self.str_lit("return");
        let ret = self.emit(Opcode::LoadProperty, vec![iter, return_key], Imm::None);
        let missing = self.is_nullish(ret);
        let call = self.new_block();
        let after = self.new_block();
        self.cond_branch(missing, after, call);
        self.switch_to(call);
        let r = self.emit(Opcode::Call, vec![ret, iter], Imm::None);
        let r = self.await_value(r);
        if require_object {
            let msg = self.str_lit("iterator.return() did not return an object");
            self.call_builtin(BuiltinId::EnsureObject, vec![r, msg]);
        }
        self.branch(after);
        self.switch_to(after);
    }

    /// AsyncIteratorClose(iter, ThrowCompletion(e)) and the rethrow of `e`: `iter.return()`
    /// is called and its result awaited, but whatever goes wrong there is ignored.
    pub(super) fn async_iterator_close_and_throw(&mut self, iter: Value, e: Value) {
        let body = self.new_block();
        let handler = self.new_block();
        let rethrow = self.new_block();
        self.term(Opcode::TryStart, Vec::new(), vec![body, handler], Imm::None);
        self.switch_to(body);
        self.call_async_return(iter, false);
        self.term(Opcode::TryEnd, Vec::new(), vec![rethrow], Imm::None);
        self.switch_to(handler);
        self.emit(Opcode::Catch, Vec::new(), Imm::None);
        self.branch(rethrow);
        self.switch_to(rethrow);
        self.term(Opcode::Throw, vec![e], Vec::new(), Imm::None);
        self.start_dead_block();
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

    fn gen_yield_star(&mut self, iterable: Value, is_async: bool) -> Value {
        let iter = match is_async {
            true => self.call_builtin(BuiltinId::GetAsyncIterator, vec![iterable]),
            false => self.emit(Opcode::GetIterator, vec![iterable], Imm::None),
        };
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
        let res = self.await_if(is_async, res);
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
        let res = self.await_if(is_async, res);
        self.edge(res, check, &mut results);
        self.switch_to(no_throw);
        if is_async {
            self.async_iterator_close(iter);
        } else {
            self.emit_void(Opcode::IteratorClose, vec![iter], Imm::Flags(0));
        }
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
        let res = self.await_if(is_async, res);
        self.edge(res, check, &mut results);
        self.switch_to(no_return);
        let r = self.await_if(is_async, r);
        self.gen_return(Some(r));

        // The inner result.
        let res = self.merge(check, results);
        let msg = self.str_lit("iterator result is not an object");
        self.call_builtin(BuiltinId::EnsureObject, vec![res, msg]);
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
        let value_returned = self.await_if(is_async, value);
        self.gen_return(Some(value_returned));

        // Not done: yield the inner result object itself (an async generator yields its
        // value) and wait for the next resumption.
        self.switch_to(yield_bb);
        let yielded = match is_async {
            true => self.emit(Opcode::LoadProperty, vec![res, value_key], Imm::None),
            false => res,
        };
        let body = self.new_block();
        let handler = self.new_block();
        self.term(Opcode::TryStart, Vec::new(), vec![body, handler], Imm::None);
        self.switch_to(body);
        let (x, is_return) = if is_async {
            self.async_yield(yielded)
        } else {
            self.call_builtin(BuiltinId::MarkRawYield, Vec::new());
            self.yield_value(yielded)
        };
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

    /// Await(v) when `is_async`, else `v`.
    fn await_if(&mut self, is_async: bool, v: Value) -> Value {
        if is_async {
            self.await_value(v)
        } else {
            v
        }
    }
}
