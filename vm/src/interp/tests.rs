//! Interpreter tests on hand-assembled bundles.

use bytecode::{Assembler, BundleBuilder, FunctionDesc, FunctionFlags, HandlerEntry, Inst};

use crate::runtime::{Runtime, RuntimeOptions};
use crate::value::Value;

/// A function under construction for a test bundle.
struct Func {
    asm: Assembler,
    name: &'static str,
    params: u32,
    frame: u32,
    flags: FunctionFlags,
    handlers: Vec<(bytecode::Label, bytecode::Label, bytecode::Label)>,
}

impl Func {
    fn new(name: &'static str, params: u32, frame: u32) -> Func {
        Func { asm: Assembler::new(), name, params, frame, flags: FunctionFlags::STRICT, handlers: Vec::new() }
    }
}

fn build(funcs: Vec<Func>, strings: &[&str]) -> (Vec<u8>, Vec<u32>) {
    let mut b = BundleBuilder::new("test.js");
    let ids: Vec<u32> = strings.iter().map(|s| b.add_str(s)).collect();
    let fids: Vec<u32> = funcs.iter().map(|_| b.reserve_function()).collect();
    for (f, id) in funcs.into_iter().zip(fids) {
        let name = b.add_str(f.name);
        let handlers_labels = f.handlers.clone();
        let asm = f.asm.finish().expect("assembles");
        let handlers = handlers_labels
            .iter()
            .map(|(s, e, t)| HandlerEntry {
                start: asm.label_offsets[s.index()],
                end: asm.label_offsets[e.index()],
                target: asm.label_offsets[t.index()],
            })
            .collect();
        b.define_function(
            id,
            FunctionDesc {
                name,
                length: f.params,
                param_count: f.params,
                frame_size: f.frame,
                // As many caches as the verifier allows: more than the code names.
                ic_count: asm.code.len() as u32,
                flags: f.flags,
                code: asm.code,
                handlers,
                locations: asm.locations,
                source: None,
                lazy_scope: None,
            },
        );
    }
    (b.finish(), ids)
}

fn run(bytes: Vec<u8>) -> (Runtime, Result<Value, crate::runtime::JsError>) {
    let mut rt = Runtime::new(RuntimeOptions::default());
    let r = rt.eval_bundle_in(bytes, 0).map_err(|_| rt.take_js_error());
    (rt, r)
}

fn run_stress(bytes: Vec<u8>) -> (Runtime, Result<Value, crate::runtime::JsError>) {
    let mut rt = Runtime::new(RuntimeOptions { gc_stress: true, ..Default::default() });
    let r = rt.eval_bundle_in(bytes, 0).map_err(|_| rt.take_js_error());
    (rt, r)
}

#[test]
fn arithmetic_returns_value() {
    let mut g = Func::new("", 0, 4);
    g.asm.emit(Inst::LoadConstInt { dst: 0, value: 2 });
    g.asm.emit(Inst::LoadConstDouble { dst: 1, value: 3.5 });
    g.asm.emit(Inst::Add { dst: 2, lhs: 0, rhs: 1 });
    g.asm.emit(Inst::Mul { dst: 2, lhs: 2, rhs: 0 });
    g.asm.emit(Inst::Ret { value: 2 });
    let (bytes, _) = build(vec![g], &[]);
    let (_, r) = run(bytes);
    assert_eq!(r.unwrap().as_number(), Some(11.0));
}

/// `function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) }` called through a
/// global, so calls, returns, globals and inline caches are exercised.
fn fib_bundle(n: i32) -> Vec<u8> {
    let mut g = Func::new("", 0, 8);
    // strings: 0 "fib"
    g.asm.emit(Inst::LoadConstUndefined { dst: 0 });
    g.asm.emit(Inst::CreateClosure { dst: 1, env: 0, func: 1 });
    g.asm.emit(Inst::GetGlobalObject { dst: 2 });
    g.asm.emit(Inst::PutById { obj: 2, name: 0, value: 1, ic: 0 });
    g.asm.emit(Inst::LoadConstUndefined { dst: 3 });
    g.asm.emit(Inst::LoadConstInt { dst: 4, value: n });
    g.asm.emit(Inst::Call { dst: 5, callee: 1, first: 3, argc: 2 });
    g.asm.emit(Inst::Ret { value: 5 });

    let mut f = Func::new("fib", 1, 8);
    let rec = f.asm.new_label();
    f.asm.emit(Inst::LoadParam { dst: 0, index: 1 });
    f.asm.emit(Inst::LoadConstInt { dst: 1, value: 2 });
    f.asm.emit(Inst::Less { dst: 2, lhs: 0, rhs: 1 });
    f.asm.emit_branch(Inst::JmpFalse { off: 0, cond: 2 }, rec);
    f.asm.emit(Inst::Ret { value: 0 });
    f.asm.bind(rec);
    f.asm.emit(Inst::GetGlobal { dst: 3, name: 0, ic: 0 });
    f.asm.emit(Inst::LoadConstUndefined { dst: 4 });
    f.asm.emit(Inst::LoadConstInt { dst: 1, value: 1 });
    f.asm.emit(Inst::Sub { dst: 5, lhs: 0, rhs: 1 });
    f.asm.emit(Inst::Call { dst: 6, callee: 3, first: 4, argc: 2 });
    f.asm.emit(Inst::LoadConstInt { dst: 1, value: 2 });
    f.asm.emit(Inst::Sub { dst: 5, lhs: 0, rhs: 1 });
    f.asm.emit(Inst::Call { dst: 7, callee: 3, first: 4, argc: 2 });
    f.asm.emit(Inst::Add { dst: 6, lhs: 6, rhs: 7 });
    f.asm.emit(Inst::Ret { value: 6 });
    build(vec![g, f], &["fib"]).0
}

#[test]
fn recursive_calls() {
    let (_, r) = run(fib_bundle(20));
    assert_eq!(r.unwrap().as_number(), Some(6765.0));
}

#[test]
fn recursive_calls_under_gc_stress() {
    let (rt, r) = run_stress(fib_bundle(12));
    assert_eq!(r.unwrap().as_number(), Some(144.0));
    assert!(rt.heap_stats().collections > 100);
}

/// `function down(n) { return n === 0 ? 0 : 1 + down(n - 1) }`.
fn depth_bundle(n: i32) -> Vec<u8> {
    let mut g = Func::new("", 0, 8);
    g.asm.emit(Inst::LoadConstUndefined { dst: 0 });
    g.asm.emit(Inst::CreateClosure { dst: 1, env: 0, func: 1 });
    g.asm.emit(Inst::GetGlobalObject { dst: 2 });
    g.asm.emit(Inst::PutById { obj: 2, name: 0, value: 1, ic: 0 });
    g.asm.emit(Inst::LoadConstUndefined { dst: 3 });
    g.asm.emit(Inst::LoadConstInt { dst: 4, value: n });
    g.asm.emit(Inst::Call { dst: 5, callee: 1, first: 3, argc: 2 });
    g.asm.emit(Inst::Ret { value: 5 });
    let mut f = Func::new("down", 1, 8);
    let rec = f.asm.new_label();
    f.asm.emit(Inst::LoadParam { dst: 0, index: 1 });
    f.asm.emit(Inst::LoadConstInt { dst: 1, value: 0 });
    f.asm.emit(Inst::StrictEq { dst: 2, lhs: 0, rhs: 1 });
    f.asm.emit_branch(Inst::JmpFalse { off: 0, cond: 2 }, rec);
    f.asm.emit(Inst::Ret { value: 1 });
    f.asm.bind(rec);
    f.asm.emit(Inst::GetGlobalObject { dst: 3 });
    f.asm.emit(Inst::GetById { dst: 3, obj: 3, name: 0, ic: 0 });
    f.asm.emit(Inst::LoadConstUndefined { dst: 4 });
    f.asm.emit(Inst::LoadConstInt { dst: 1, value: 1 });
    f.asm.emit(Inst::Sub { dst: 5, lhs: 0, rhs: 1 });
    f.asm.emit(Inst::Call { dst: 6, callee: 3, first: 4, argc: 2 });
    f.asm.emit(Inst::Add { dst: 6, lhs: 6, rhs: 1 });
    f.asm.emit(Inst::Ret { value: 6 });
    build(vec![g, f], &["down"]).0
}

#[test]
fn recursion_ten_thousand_deep_works() {
    let (_, r) = run(depth_bundle(10_000));
    assert_eq!(r.unwrap().as_number(), Some(10_000.0));
}

#[test]
fn runaway_recursion_is_a_range_error() {
    let (_, r) = run(depth_bundle(10_000_000));
    let e = r.unwrap_err();
    assert_eq!(e.name, "RangeError");
    assert!(e.message.contains("Maximum call stack size exceeded"), "{}", e.message);
}

#[test]
fn exceptions_unwind_to_handlers() {
    // try { null.x } catch (e) { return e instanceof TypeError }
    let mut g = Func::new("", 0, 6);
    let (s, e, h) = (g.asm.new_label(), g.asm.new_label(), g.asm.new_label());
    g.asm.bind(s);
    g.asm.emit(Inst::LoadConstNull { dst: 0 });
    g.asm.emit(Inst::GetById { dst: 1, obj: 0, name: 0, ic: 0 });
    g.asm.emit(Inst::Ret { value: 1 });
    g.asm.bind(e);
    g.asm.bind(h);
    g.asm.emit(Inst::Catch { dst: 2 });
    g.asm.emit(Inst::GetGlobalObject { dst: 3 });
    g.asm.emit(Inst::GetById { dst: 3, obj: 3, name: 1, ic: 1 });
    g.asm.emit(Inst::InstanceOf { dst: 4, lhs: 2, rhs: 3 });
    g.asm.emit(Inst::Ret { value: 4 });
    g.handlers.push((s, e, h));
    let (bytes, _) = build(vec![g], &["x", "TypeError"]);
    let (_, r) = run(bytes);
    assert_eq!(r.unwrap(), Value::TRUE);
}

#[test]
fn uncaught_error_has_a_stack() {
    let mut g = Func::new("", 0, 2);
    g.asm.set_loc(3, 14);
    g.asm.emit(Inst::ThrowError { kind: 1, msg: 0 });
    let (bytes, _) = build(vec![g], &["boom"]);
    let (_, r) = run(bytes);
    let e = r.unwrap_err();
    assert_eq!(e.name, "TypeError");
    assert_eq!(e.message, "boom");
    assert_eq!(e.stack, "TypeError: boom\n    at test.js:3:14");
    assert_eq!(e.to_string(), "Uncaught TypeError: boom\n    at test.js:3:14");
}

#[test]
fn trap_throws_a_catchable_internal_error() {
    // try { <trap> } catch (e) { return e.message }
    let mut g = Func::new("", 0, 2);
    let (s, e, h) = (g.asm.new_label(), g.asm.new_label(), g.asm.new_label());
    g.asm.bind(s);
    g.asm.emit(Inst::Trap {});
    g.asm.bind(e);
    g.asm.bind(h);
    g.asm.emit(Inst::Catch { dst: 0 });
    g.asm.emit(Inst::GetById { dst: 1, obj: 0, name: 0, ic: 0 });
    g.asm.emit(Inst::Ret { value: 1 });
    g.handlers.push((s, e, h));
    let (bytes, _) = build(vec![g], &["message"]);
    let (mut rt, r) = run(bytes);
    let message = r.unwrap();
    assert_eq!(rt.string_to_rust(message), "internal error: unreachable code was executed");
}

#[test]
fn decoded_code_ends_with_a_trap() {
    let mut g = Func::new("", 0, 1);
    g.asm.emit(Inst::LoadConstInt { dst: 0, value: 7 });
    g.asm.emit(Inst::Ret { value: 0 });
    let (bytes, _) = build(vec![g], &[]);
    let (rt, r) = run(bytes);
    assert_eq!(r.unwrap().as_number(), Some(7.0));
    let insts = &rt.code.bundles[0].functions[0].code().insts;
    assert_eq!(insts.len(), 3);
    assert!(matches!(insts[2], Inst::Trap {}));
}

#[test]
fn objects_and_inline_caches() {
    // o = {}; for (i = 0; i < 1000; i++) { o.a = i; o.b = o.a + 1 } return o.b
    let mut g = Func::new("", 0, 8);
    let (top, done) = (g.asm.new_label(), g.asm.new_label());
    g.asm.emit(Inst::NewObject { dst: 0 });
    g.asm.emit(Inst::LoadConstInt { dst: 1, value: 0 });
    g.asm.emit(Inst::LoadConstInt { dst: 2, value: 1000 });
    g.asm.bind(top);
    g.asm.emit(Inst::Less { dst: 3, lhs: 1, rhs: 2 });
    g.asm.emit_branch(Inst::JmpFalse { off: 0, cond: 3 }, done);
    g.asm.emit(Inst::PutById { obj: 0, name: 0, value: 1, ic: 0 });
    g.asm.emit(Inst::GetById { dst: 4, obj: 0, name: 0, ic: 1 });
    g.asm.emit(Inst::Inc { dst: 4, src: 4 });
    g.asm.emit(Inst::PutById { obj: 0, name: 1, value: 4, ic: 2 });
    g.asm.emit(Inst::NewObject { dst: 5 });
    g.asm.emit(Inst::PutById { obj: 5, name: 0, value: 4, ic: 3 });
    g.asm.emit(Inst::Inc { dst: 1, src: 1 });
    g.asm.emit_branch(Inst::Jmp { off: 0 }, top);
    g.asm.bind(done);
    g.asm.emit(Inst::GetById { dst: 6, obj: 0, name: 1, ic: 4 });
    g.asm.emit(Inst::Ret { value: 6 });
    let (bytes, _) = build(vec![g], &["a", "b"]);
    let (rt, r) = run(bytes.clone());
    assert_eq!(r.unwrap().as_number(), Some(1000.0));
    assert!(rt.code.ics.iter().any(|ic| ic.kind == crate::code::ic::ADD));
    assert_eq!(rt.code.ics.len() % crate::code::ic::WAYS, 0);
    let (_, r) = run_stress(bytes);
    assert_eq!(r.unwrap().as_number(), Some(1000.0));
}

#[test]
fn arrays_and_strings() {
    // a = [] ; a[0] = "ab"; a[1] = a[0] + "cd"; return a[1].length + a.length
    let mut g = Func::new("", 0, 8);
    g.asm.emit(Inst::NewArray { dst: 0, size: 0 });
    g.asm.emit(Inst::LoadConstInt { dst: 1, value: 0 });
    g.asm.emit(Inst::LoadConstString { dst: 2, id: 0 });
    g.asm.emit(Inst::PutByVal { obj: 0, key: 1, value: 2 });
    g.asm.emit(Inst::GetByVal { dst: 3, obj: 0, key: 1 });
    g.asm.emit(Inst::LoadConstString { dst: 4, id: 1 });
    g.asm.emit(Inst::Add { dst: 3, lhs: 3, rhs: 4 });
    g.asm.emit(Inst::LoadConstInt { dst: 1, value: 1 });
    g.asm.emit(Inst::PutByVal { obj: 0, key: 1, value: 3 });
    g.asm.emit(Inst::GetByVal { dst: 5, obj: 0, key: 1 });
    g.asm.emit(Inst::GetById { dst: 5, obj: 5, name: 2, ic: 0 });
    g.asm.emit(Inst::GetById { dst: 6, obj: 0, name: 2, ic: 1 });
    g.asm.emit(Inst::Add { dst: 5, lhs: 5, rhs: 6 });
    g.asm.emit(Inst::Ret { value: 5 });
    let (bytes, _) = build(vec![g], &["ab", "cd", "length"]);
    let (_, r) = run(bytes);
    assert_eq!(r.unwrap().as_number(), Some(6.0));
}

#[test]
fn closures_capture_environments() {
    // function mk() { let c = 0; return () => ++c } f = mk(); f(); f(); return f()
    let mut g = Func::new("", 0, 8);
    g.asm.emit(Inst::LoadConstUndefined { dst: 0 });
    g.asm.emit(Inst::CreateClosure { dst: 1, env: 0, func: 1 });
    g.asm.emit(Inst::Call { dst: 2, callee: 1, first: 0, argc: 1 });
    g.asm.emit(Inst::Call { dst: 3, callee: 2, first: 0, argc: 1 });
    g.asm.emit(Inst::Call { dst: 3, callee: 2, first: 0, argc: 1 });
    g.asm.emit(Inst::Call { dst: 3, callee: 2, first: 0, argc: 1 });
    g.asm.emit(Inst::Ret { value: 3 });
    let mut mk = Func::new("mk", 0, 4);
    mk.asm.emit(Inst::LoadConstUndefined { dst: 0 });
    mk.asm.emit(Inst::CreateEnvironment { dst: 1, parent: 0, size: 1 });
    mk.asm.emit(Inst::LoadConstInt { dst: 2, value: 0 });
    mk.asm.emit(Inst::StoreToEnvironment { env: 1, slot: 0, value: 2 });
    mk.asm.emit(Inst::CreateClosure { dst: 3, env: 1, func: 2 });
    mk.asm.emit(Inst::Ret { value: 3 });
    let mut inc = Func::new("", 0, 3);
    inc.flags = FunctionFlags::STRICT | FunctionFlags::ARROW;
    inc.asm.emit(Inst::GetParentEnvironment { dst: 0 });
    inc.asm.emit(Inst::LoadFromEnvironment { dst: 1, env: 0, slot: 0 });
    inc.asm.emit(Inst::Inc { dst: 1, src: 1 });
    inc.asm.emit(Inst::StoreToEnvironment { env: 0, slot: 0, value: 1 });
    inc.asm.emit(Inst::Ret { value: 1 });
    let (bytes, _) = build(vec![g, mk, inc], &[]);
    let (_, r) = run_stress(bytes);
    assert_eq!(r.unwrap().as_number(), Some(3.0));
}

#[test]
fn interrupt_stops_an_infinite_loop() {
    let mut g = Func::new("", 0, 2);
    let top = g.asm.new_label();
    g.asm.bind(top);
    g.asm.emit_branch(Inst::Jmp { off: 0 }, top);
    let (bytes, _) = build(vec![g], &[]);
    let mut rt = Runtime::new(RuntimeOptions::default());
    let h = rt.interrupt_handle();
    let t = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(50));
        h.interrupt();
    });
    let r = rt.run_bundle(bytes);
    t.join().unwrap();
    assert!(r.unwrap_err().interrupted);
}

#[test]
fn a_verified_bundle_runs_as_its_bytes_do() {
    // throw 7
    let mut g = Func::new("", 0, 2);
    g.asm.emit(Inst::LoadConstInt { dst: 0, value: 7 });
    g.asm.emit(Inst::Throw { value: 0 });
    let (bytes, _) = build(vec![g], &[]);
    let bundle = bytecode::Bundle::from_bytes(bytes.clone()).expect("verifies");
    let (mut a, mut b) = (Runtime::new(RuntimeOptions::default()), Runtime::new(RuntimeOptions::default()));
    let from_bytes = a.run_bundle(bytes).map_err(|e| e.to_string());
    let verified = b.run_verified_bundle(bundle).map_err(|e| e.to_string());
    assert!(from_bytes.as_ref().is_err_and(|m| m.contains('7')), "{from_bytes:?}");
    assert_eq!(from_bytes, verified);
}

#[test]
fn heap_limit_is_a_catchable_range_error() {
    // try { let l = null; for (;;) l = { next: l }; } catch (e) { return e instanceof RangeError }
    let mut g = Func::new("", 0, 6);
    let (s, e, h, top) = (g.asm.new_label(), g.asm.new_label(), g.asm.new_label(), g.asm.new_label());
    g.asm.bind(s);
    g.asm.emit(Inst::LoadConstNull { dst: 0 });
    g.asm.bind(top);
    g.asm.emit(Inst::NewObject { dst: 1 });
    g.asm.emit(Inst::PutById { obj: 1, name: 0, value: 0, ic: 0 });
    g.asm.emit(Inst::Mov { dst: 0, src: 1 });
    g.asm.emit_branch(Inst::Jmp { off: 0 }, top);
    g.asm.bind(e);
    g.asm.bind(h);
    g.asm.emit(Inst::Catch { dst: 2 });
    g.asm.emit(Inst::LoadConstNull { dst: 0 });
    g.asm.emit(Inst::GetGlobalObject { dst: 3 });
    g.asm.emit(Inst::GetById { dst: 3, obj: 3, name: 1, ic: 1 });
    g.asm.emit(Inst::InstanceOf { dst: 4, lhs: 2, rhs: 3 });
    g.asm.emit(Inst::Ret { value: 4 });
    g.handlers.push((s, e, h));
    let (bytes, _) = build(vec![g], &["next", "RangeError"]);
    let mut rt = Runtime::new(RuntimeOptions { heap_limit: 24 << 20, ..Default::default() });
    let r = rt.eval_bundle_in(bytes, 0).map_err(|_| rt.take_js_error());
    assert_eq!(r.unwrap(), Value::TRUE);
}

/// The interpreter polls a safepoint (`safepoint!()`) in the arm of exactly the opcodes whose
/// row says `ALLOCATES`: the table is the rule, and this test keeps the match to it.
#[test]
fn safepoints_follow_the_opcode_table() {
    let source = include_str!("mod.rs");
    // Arms start with `Inst::Name {` (possibly `| Inst::Other {`) on a line ending in `=> {`.
    let mut arms: Vec<(Vec<&str>, bool)> = Vec::new();
    for line in source.lines() {
        let t = line.trim_start();
        if t.starts_with("Inst::") && t.contains("=>") {
            let names = t
                .split("Inst::")
                .skip(1)
                .map(|rest| rest.split(|c: char| !c.is_ascii_alphanumeric()).next().unwrap_or(""))
                .collect();
            arms.push((names, false));
        } else if let Some(arm) = arms.last_mut() {
            arm.1 |= t.contains("safepoint!()");
        }
    }
    let mut wrong = Vec::new();
    for &op in bytecode::Opcode::ALL {
        let Some((_, polls)) = arms.iter().find(|(names, _)| names.contains(&op.name())) else { continue };
        let allocates = op.flags().contains(bytecode::OpFlags::ALLOCATES);
        if *polls != allocates {
            wrong.push(format!("{} (ALLOCATES: {allocates}, safepoint in its arm: {polls})", op.name()));
        }
    }
    assert!(wrong.is_empty(), "interpreter arms disagree with the opcode table: {wrong:#?}");
    assert!(arms.len() > 100, "the arms were not found ({})", arms.len());
}

/// No arm of the interpreter's `match` is empty: an empty arm makes the block after the
/// `match` its own successor, and LLVM then gives the arms that fall through one shared
/// dispatch jump instead of a copy each (see the comment on the `match`).
#[test]
fn no_interpreter_arm_is_empty() {
    let empty: Vec<&str> = include_str!("mod.rs")
        .lines()
        .map(str::trim)
        .filter(|t| t.starts_with("Inst::") && t.ends_with("=> {}"))
        .collect();
    assert!(empty.is_empty(), "empty interpreter arms: {empty:#?}");
}

#[test]
fn instructions_leave_no_handles_behind() {
    // A regexp literal is made outside any native call (whose end releases the handles a
    // native roots): it rooted three handles for good, a leak of the object, the pattern
    // and the flags each time it ran. The loop's instructions check the handle stack
    // between instructions in debug builds; here the count is checked at the end too (the
    // global code's closure stayed rooted after the script).
    let mut g = Func::new("", 0, 4);
    let head = g.asm.new_label();
    g.asm.emit(Inst::LoadConstInt { dst: 0, value: 1000 });
    g.asm.bind(head);
    g.asm.emit(Inst::CreateRegExp { dst: 1, pattern: 0, flags: 1 });
    g.asm.emit(Inst::Dec { dst: 0, src: 0 });
    g.asm.emit_branch(Inst::JmpTrue { off: 0, cond: 0 }, head);
    g.asm.emit(Inst::GetById { dst: 2, obj: 1, name: 2, ic: 0 });
    g.asm.emit(Inst::Ret { value: 2 });
    let (bytes, _) = build(vec![g], &["a+b", "gi", "flags"]);
    let mut rt = Runtime::new(RuntimeOptions::default());
    let handles = rt.roots.handles.len();
    let r = rt.eval_bundle_in(bytes, 0).map_err(|_| rt.take_js_error());
    assert_eq!(rt.string_to_rust(r.unwrap()), "gi");
    assert_eq!(rt.roots.handles.len(), handles);
}
