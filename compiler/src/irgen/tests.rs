//! IRGen tests: every construct lowers, the HIR verifies, and the conventions hold.

use ir::{FunctionKind, Module, Opcode};

use super::*;

fn lower_opts(src: &str, strict: bool) -> Module {
    match lower_script(src, "test.js", &IrGenOptions { strict, ..IrGenOptions::default() }) {
        Ok(m) => {
            if let Err(errs) = ir::verify::verify_module(&m) {
                panic!(
                    "verify failed for {src:?}:\n{}\n{}",
                    ir::verify::render_errors(&errs),
                    ir::dump::dump_module(&m)
                );
            }
            m
        }
        Err(d) => panic!("diagnostics for {src:?}: {d:?}"),
    }
}

fn lower(src: &str) -> Module {
    lower_opts(src, false)
}

fn diags(src: &str) -> Vec<Diagnostic> {
    match lower_script(src, "test.js", &IrGenOptions::default()) {
        Ok(m) => panic!("expected diagnostics for {src:?}, got:\n{}", ir::dump::dump_module(&m)),
        Err(d) => d,
    }
}

/// Every opcode used anywhere in the module.
fn opcodes(m: &Module) -> Vec<Opcode> {
    let mut out = Vec::new();
    for f in m.functions.values() {
        for i in f.inst_order() {
            out.push(f.insts[i].opcode);
        }
    }
    out
}

fn count(m: &Module, op: Opcode) -> usize {
    opcodes(m).into_iter().filter(|&o| o == op).count()
}

fn func_named<'m>(m: &'m Module, name: &str) -> &'m ir::Function {
    m.functions.values().find(|f| m.atom_str(f.name) == name).unwrap_or_else(|| panic!("no function {name}"))
}

#[test]
fn functions_and_closures() {
    for src in [
        "f(); function f() { return 1; }",
        "var g = function h(n) { return n ? h(n - 1) : 0; }; g(3);",
        "var a = (x, y) => x + y; var b = x => { return x; }; var c = () => ({});",
        "function f(a, b = a + 1, ...rest) { return [a, b, rest]; }",
        "function f({a, b: [c, d] = [1, 2]}, ...[e, f]) { return a + c + d + e + f; }",
        "function f() { return arguments.length + arguments[0]; }",
        "function f() { return () => arguments[0] + this.x + (() => new.target)(); }",
        "function f(a) { var a; return a; }",
        "function f(a, a) { return a; }",
        "function outer() { var x = 1; function inner() { return x++; } return inner; }",
        "function f(x = () => y, y = 2) { return x(); }",
        "(function () { 'use strict'; return this; })();",
        "function f() { return this; } var o = { f }; o.f();",
    ] {
        lower(src);
    }
    let m = lower("function outer() { var x = 1; var y = 2; return function () { return x; }; }");
    let outer = func_named(&m, "outer");
    // x is captured (heap scope), y is not (stack slot).
    assert_eq!(m.scopes.len(), 1);
    assert_eq!(m.atom_str(m.scopes.values().next().unwrap().vars[0].name), "x");
    assert!(outer.inst_order().any(|i| outer.insts[i].opcode == Opcode::AllocStack));
}

#[test]
fn function_metadata() {
    let m = lower("var f = function (a, b = 1, c) {}; var g = (x, ...y) => x; var o = { m() {}, get p() { return 1; }, set p(v) {}, 1.5() {} };");
    let f = func_named(&m, "f");
    assert_eq!(f.length, 1);
    assert_eq!(f.params.len(), 3);
    assert_eq!(m.source_slice(f.source.unwrap()), "function (a, b = 1, c) {}");
    let g = func_named(&m, "g");
    assert_eq!(g.kind, FunctionKind::Arrow);
    assert_eq!(g.length, 1);
    assert_eq!(func_named(&m, "m").kind, FunctionKind::Method);
    func_named(&m, "get p");
    func_named(&m, "set p");
    func_named(&m, "1.5");
    assert_eq!(f.loc, ir::Loc { line: 1, col: 9 });
}

#[test]
fn operators() {
    lower(
        "var a = 1, b = 2, o = {x: 1}, k = 'x';
         a + b; a - b; a * b; a / b; a % b; a ** b; a & b; a | b; a ^ b; a << b; a >> b; a >>> b;
         a == b; a != b; a === b; a !== b; a < b; a <= b; a > b; a >= b; k in o; o instanceof Object;
         -a; +a; !a; ~a; void a; typeof a; typeof undeclared; delete o.x; delete o[k]; delete a; delete undeclared; delete 1;
         a && b; a || b; a ?? b; a ? b : 1; (a, b);
         a += 1; a -= 1; a *= 2; a /= 2; a %= 2; a **= 2; a <<= 1; a >>= 1; a >>>= 1; a &= 1; a |= 1; a ^= 1;
         a &&= b; a ||= b; a ??= b; o.x ||= 2; o[k] &&= 3; o.y ??= 4;
         a++; a--; ++a; --a; o.x++; --o[k]; undeclared2 = 1;
         o?.x; o?.[k]; o?.f(); o.f?.(); o?.a.b.c; delete o?.x; (o?.x).y;",
    );
    let m = lower("typeof undeclaredThing; undeclaredThing;");
    assert_eq!(count(&m, Opcode::LoadGlobal), 1);
    assert_eq!(count(&m, Opcode::TryLoadGlobal), 1);
    let m = lower("var x = 0; x++;");
    assert_eq!(count(&m, Opcode::AsNumeric), 1);
}

#[test]
fn control_flow() {
    for src in [
        "if (a) b(); else if (c) d(); else e();",
        "switch (x) { case 1: a(); case 2: b(); break; default: c(); case 3: d(); }",
        "switch (x) { case 1: let y = 1; f(() => y); break; default: y = 2; }",
        "while (a) { if (b) break; if (c) continue; d(); }",
        "do { a(); } while (b);",
        "for (var i = 0; i < 10; i++) { f(i); }",
        "for (let i = 0; i < 10; i++) { f(() => i); }",
        "for (const x = 1; ;) { break; }",
        "for (;;) { if (a) break; }",
        "for (var k in o) { f(k); } for (let k in o) { g(() => k); } for (o.p in q) {} for ([a, b] in q) {}",
        "for (var x of [1, 2]) { f(x); } for (let [a, b] of m) { g(() => a + b); } for (x of 'str') {} for (const {p} of q) {}",
        "outer: for (var i = 0; i < 3; i++) { inner: for (var j = 0; j < 3; j++) { if (j) continue outer; if (i) break outer; } }",
        "lbl: { if (a) break lbl; b(); }",
        "a: b: while (1) { continue a; }",
        "function f() { for (var x of xs) { if (x) break; if (!x) continue; return; } }",
        "function f() { for (const x of xs) { if (x) return x; } }",
        "function f() { for (const x of xs) { for (const y of ys) { if (y) break; return y; } } }",
    ] {
        lower(src);
    }
    // for-of closes its iterator on break and in the handler.
    let m = lower("for (var x of xs) { if (x) break; }");
    assert_eq!(count(&m, Opcode::IteratorClose), 2);
    assert_eq!(count(&m, Opcode::TryStart), 1);
    // A captured for-let gets a per-iteration copy with a Phi of environments.
    let m = lower("for (let i = 0; i < 3; i++) { f(() => i); }");
    assert_eq!(count(&m, Opcode::CreateScope), 3);
    assert_eq!(count(&m, Opcode::Phi), 1);
}

#[test]
fn exceptions() {
    for src in [
        "try { a(); } catch (e) { b(e); }",
        "try { a(); } catch { b(); }",
        "try { a(); } finally { b(); }",
        "try { a(); } catch ({message}) { b(message); } finally { c(); }",
        "function f() { try { return a(); } finally { b(); } }",
        "function f() { try { try { return 1; } finally { a(); } } finally { b(); } }",
        "while (1) { try { break; } finally { a(); } }",
        "while (1) { try { continue; } finally { a(); } }",
        "function f() { try { throw 1; } catch (e) { return e; } finally { return 2; } }",
        "function f() { for (;;) { try { while (1) { return; } } finally { break; } } }",
        "function f() { for (var x of xs) { try { return x; } finally { g(); } } }",
        "throw new Error('x');",
    ] {
        lower(src);
    }
    // The finally block is duplicated: normal path, exception path and the return.
    let m = lower("function f() { try { return a(); } finally { fin(); } }");
    let f = func_named(&m, "f");
    let fin_calls = f
        .inst_order()
        .filter(|&i| {
            f.insts[i].opcode == Opcode::TryLoadGlobal
                && m.atom_str(match f.insts[i].imm {
                    ir::Imm::Name(a) => a,
                    _ => unreachable!(),
                }) == "fin"
        })
        .count();
    assert_eq!(fin_calls, 2, "{}", ir::dump::dump_module(&m));
}

#[test]
fn literals() {
    for src in [
        "var o = { a: 1, 'b': 2, 3: 4, [k]: 5, c, d() {}, get e() { return 1; }, set e(v) {}, ...s, __proto__: null, f: function () {}, [g]: () => 1 };",
        "var o = { get x() {}, y: 1, set x(v) {} }; var p = { set x(v) {}, get x() {} };",
        "var a = [1, , 3, ...b, , 4, ...c, ,];",
        "var a = [, , ]; var b = [...c];",
        "var t = `a${b}c${d}`; var u = ``; var v = `${x}`;",
        "tag`a${b}c`; o.tag`\\unicode`; String.raw`x`;",
        "var r = /ab+c/gi; var s = /[/]/;",
        "var s = '\\ud800'; var n = 0x10; var b = true; var z = null;",
        "f(...a, b, ...c); o.m(...a); new F(...a);",
    ] {
        lower(src);
    }
    let m = lower("var o = { get x() { return 1; }, set x(v) {} };");
    assert_eq!(count(&m, Opcode::DefineOwnAccessor), 1);
    let m = lower("var s = '\\ud800';");
    assert!(m.atoms.iter().any(|a| a == &[0xd800u16]));
}

#[test]
fn destructuring() {
    for src in [
        "var {a, b: c, d = 1, [e]: f, ...g} = o;",
        "let [a, , b = 2, [c], {d}, ...e] = arr;",
        "const [x] = y, {z} = w;",
        "({a, b: o.c, d: o[k] = 3, ...o.rest} = src);",
        "[a, o.b, o[c] = 1, ...o.d] = arr;",
        "[a, b] = [b, a];",
        "function f([a, b], {c, d}) {}",
        "try {} catch ([a, b]) {}",
        "for (const [k, v] of entries) {}",
        "var { f = function () {} } = o; var [g = () => 1] = a;",
    ] {
        lower(src);
    }
}

#[test]
fn classes() {
    for src in [
        "class A { constructor(x) { this.x = x; } m() { return this.x; } static s() { return 1; } get g() { return 1; } set g(v) {} [k]() {} static get [k2]() {} }",
        "class B extends A { constructor() { super(1); super.m(); super.x = 2; super['y']; } m() { return super.m() + 1; } }",
        "class C extends A {}",
        "class D {}",
        "var E = class {}; var F = class Named { m() { return Named; } };",
        "class G extends A { constructor() { const f = () => super(); f(); this.z = () => this; } }",
        "class H extends A { constructor(...args) { super(...args); } }",
        "class I extends null {}",
        "class J { *gen() { yield 1; } static *[k]() {} }",
        "var o = { m() { return super.m(); }, get x() { return super.x; } };",
        "class K extends A { m() { return () => super.m(); } }",
        "class L extends A { constructor() { return {}; } }",
        "class M extends A { constructor() { if (a) super(); else super(1); } }",
    ] {
        lower(src);
    }
    let m = lower("class B extends A { constructor() { super(); } }");
    assert_eq!(func_named(&m, "B").kind, FunctionKind::DerivedConstructor);
    assert!(count(&m, Opcode::CallBuiltin) >= 3);
    let m = lower("class C extends A {}");
    assert_eq!(count(&m, Opcode::ConstructSpread), 1);
    // Accessor pairs are defined together; a computed key in between prevents it.
    let m = lower("class P { get x() {} static get x() {} set x(v) {} static set x(v) {} }");
    assert_eq!(count(&m, Opcode::DefineOwnAccessor), 2);
    let m = lower("class P { get x() {} [k]() {} set x(v) {} }");
    assert_eq!(count(&m, Opcode::DefineOwnAccessor), 2);
}

#[test]
fn generators() {
    for src in [
        "function* g() { yield 1; var x = yield; return x; }",
        "function* g() { yield* [1, 2]; }",
        "function* g(a, b = 1) { try { yield a; } finally { b++; } }",
        "function* g() { for (const x of xs) { yield x; } }",
        "var o = { *m() { yield this; } };",
        "function* g() { const f = () => 1; yield f; return arguments.length; }",
        "function* g() { var [a = yield] = []; }",
        "var g = function* named() { yield named; };",
    ] {
        lower(src);
    }
    let m = lower("function* g(a) { yield a; }");
    let outer = m.functions.values().find(|f| f.kind == FunctionKind::GeneratorOuter).unwrap();
    let ops: Vec<Opcode> = outer.inst_order().map(|i| outer.insts[i].opcode).collect();
    assert_eq!(ops, vec![Opcode::CreateGenerator, Opcode::Return]);
    let inner = m.functions.values().find(|f| f.kind == FunctionKind::GeneratorInner).unwrap();
    let first = inner.blocks[inner.entry()].insts[0];
    assert_eq!(inner.insts[first].opcode, Opcode::StartGenerator);
    assert_eq!(count(&m, Opcode::SaveAndYield), 1);
    assert_eq!(count(&m, Opcode::CompleteGenerator), 2);
}

#[test]
fn scoping() {
    for src in [
        "let x = 1; { let x = 2; f(() => x); } f(x);",
        "const c = 1; function g() { return c; }",
        "{ function h() {} } h();",
        "function f() { if (a) { function g() {} } return g; }",
        "label: function lf() {}",
        "if (a) function q() {} else function r() {} q();",
        "function f() { x; let x = 1; }",
        "function f() { let x = 1; return () => x; }",
        "function f() { const x = 1; x = 2; }",
        "var f = function g() { g = 1; };",
        "class A {} A = 1;",
        "try {} catch (e) { var e = 1; }",
        "var arguments; function f() { var arguments = 1; return arguments; }",
        "this.x = 1;",
        "function f() { 'use strict'; return this; }",
    ] {
        lower(src);
    }
    // `let` read before its declaration is checked; after it, not.
    let m = lower("function f() { let x = 1; return x; }");
    assert_eq!(count(&m, Opcode::ThrowIfEmpty), 0);
    let m = lower("function f() { g(); let x = 1; function g() { return x; } }");
    assert_eq!(count(&m, Opcode::ThrowIfEmpty), 1);
    let m = lower("function f() { const x = 1; x = 2; }");
    assert_eq!(count(&m, Opcode::ThrowError), 1);
    // Top-level declarations.
    let m = lower("var v; function fn() {} let l;");
    let top = &m.functions[m.top_level.unwrap()];
    let builtins: Vec<u8> = top
        .inst_order()
        .filter_map(|i| match top.insts[i].imm {
            ir::Imm::Builtin(b) => Some(b),
            _ => None,
        })
        .collect();
    assert_eq!(builtins, vec![BuiltinId::DeclareGlobalFunction as u8, BuiltinId::DeclareGlobalVar as u8]);
    lower_opts("x = 1; var y = function () { return this; };", true);
    assert!(lower_opts("var y;", true).functions.values().all(|f| f.strict));
}

#[test]
fn locations_on_throwing_instructions() {
    let m = lower("var a;\nfunction f() {\n  return a.b.c;\n}\n");
    let f = func_named(&m, "f");
    for i in f.inst_order() {
        let d = &f.insts[i];
        if d.opcode == Opcode::LoadProperty {
            assert_eq!(d.loc.line, 3, "{:?}", d);
            assert!(d.loc.col >= 10);
        }
    }
}

#[test]
fn async_functions_lower_to_a_generator_started_by_async_function_start() {
    for src in [
        "async function f(a, b = 1) { try { await a; } finally { b++; } }",
        "var f = async (x) => { const g = () => this; return await g(); };",
        "var o = { async m() { return await super.x; } };",
        "class C { async m() { await 1; } static async s() {} }",
        "var f = async function named() { return named; };",
        "async function f() { return arguments.length + await 0; }",
    ] {
        lower(src);
    }
    let m = lower("async function f(a) { return await a; }");
    let outer = m.functions.values().find(|f| f.kind == FunctionKind::AsyncOuter).unwrap();
    let ops: Vec<(Opcode, Imm)> = outer.inst_order().map(|i| (outer.insts[i].opcode, outer.insts[i].imm)).collect();
    assert_eq!(
        ops,
        vec![
            (Opcode::CreateGenerator, ops[0].1),
            (Opcode::CallBuiltin, Imm::Builtin(BuiltinId::AsyncFunctionStart as u8)),
            (Opcode::Return, Imm::None)
        ]
    );
    let inner = m.functions.values().find(|f| f.kind == FunctionKind::AsyncInner).unwrap();
    let first = inner.blocks[inner.entry()].insts[0];
    assert_eq!(inner.insts[first].opcode, Opcode::StartGenerator);
    assert_eq!(count(&m, Opcode::SaveAndYield), 1);
    // In a plain function nested in an async one, `await` is an identifier again.
    lower("async function f() { function g() { await; } }");
}

/// How many `call_builtin` instructions of `b` the module has.
fn count_builtin(m: &Module, b: BuiltinId) -> usize {
    let mut n = 0;
    for f in m.functions.values() {
        for i in f.inst_order() {
            let data = &f.insts[i];
            n += usize::from(data.opcode == Opcode::CallBuiltin && data.imm == ir::Imm::Builtin(b as u8));
        }
    }
    n
}

#[test]
fn async_generators_lower_to_a_generator_wrapped_by_async_generator_start() {
    for src in [
        "async function* g(a, b = 1) { try { yield await a; } finally { b++; } return b; }",
        "var o = { async *m() { yield* super.x; }, async *[Symbol.iterator]() {} };",
        "class C { async *m() { yield 1; } static async *s() { yield* []; } async *#p() { yield* this.#p(); } }",
        "var g = async function* named() { yield named; return arguments.length; };",
        "async function* g(y) { for await (const x of y) { if (x) break; if (!x) continue; return x; } }",
        "async function f(c, e) { l: for await (var [a, b] of c) { for await (d of e) continue l; } }",
        "async function* g() { return yield* [1, 2]; }",
        "async function* g({ a } = {}, ...r) { yield a; yield* r; }",
        "async function* g() { try { for await (x of y) throw x; } catch (e) { yield e; } }",
    ] {
        lower(src);
    }
    let m = lower("async function* g(a) { yield a; }");
    let outer = m.functions.values().find(|f| f.kind == FunctionKind::AsyncGeneratorOuter).unwrap();
    let ops: Vec<(Opcode, ir::Imm)> = outer.inst_order().map(|i| (outer.insts[i].opcode, outer.insts[i].imm)).collect();
    assert_eq!(
        ops,
        vec![
            (Opcode::CreateGenerator, ops[0].1),
            (Opcode::CallBuiltin, ir::Imm::Builtin(BuiltinId::AsyncGeneratorStart as u8)),
            (Opcode::Return, ir::Imm::None)
        ]
    );
    let inner = m.functions.values().find(|f| f.kind == FunctionKind::AsyncGeneratorInner).unwrap();
    assert_eq!(inner.insts[inner.blocks[inner.entry()].insts[0]].opcode, Opcode::StartGenerator);
    // `yield a` awaits `a` and then yields: two suspensions, the second announced.
    assert_eq!(count(&m, Opcode::SaveAndYield), 2);
    assert_eq!(count_builtin(&m, BuiltinId::MarkAsyncYield), 1);
    // Parameters bound by the call: the outer function still wraps the generator.
    let m = lower("async function* g(a = 1) { yield a; }");
    assert_eq!(count_builtin(&m, BuiltinId::AsyncGeneratorStart), 1);
    // `return v` awaits `v` in an async generator, not in an async function.
    assert_eq!(count(&lower("async function* g() { return 1; }"), Opcode::SaveAndYield), 1);
    assert_eq!(count(&lower("async function f() { return 1; }"), Opcode::SaveAndYield), 0);
    // `for await`: GetIterator(v, async); each step awaits `next()`, closing on a throw
    // awaits `return()`.
    let m = lower("async function f(y) { for await (const x of y) {} }");
    assert_eq!(count_builtin(&m, BuiltinId::GetAsyncIterator), 1);
    assert_eq!(count(&m, Opcode::SaveAndYield), 2);
    // `break` adds AsyncIteratorClose: one more await.
    let m = lower("async function f(y) { for await (const x of y) { break; } }");
    assert_eq!(count(&m, Opcode::SaveAndYield), 3);
    // Async `yield*` awaits the results of next/throw/return, the return value without a
    // `return` method and the final value of a return, closes on a missing `throw`, and
    // yields each inner value.
    let m = lower("async function* g(y) { yield* y; }");
    assert_eq!(count_builtin(&m, BuiltinId::GetAsyncIterator), 1);
    assert_eq!(count_builtin(&m, BuiltinId::MarkAsyncYield), 1);
    assert_eq!(count_builtin(&m, BuiltinId::MarkRawYield), 0);
    assert_eq!(count(&m, Opcode::SaveAndYield), 7);
}

#[test]
fn unsupported_features_are_diagnostics() {
    let d = diags("class C { accessor x = 1; }");
    assert!(d[0].message.contains("auto-accessor") && d[0].message.ends_with("is not supported yet"), "{d:?}");
    let d = diags("function dec() {}\n@dec class C {}");
    assert!(d[0].message.contains("decorator") && d[0].message.ends_with("is not supported yet"), "{d:?}");
    assert_eq!((d[0].line, d[0].col), (2, 1));
}

#[test]
fn syntax_errors_are_diagnostics() {
    let d = diags("let a;\nlet a;");
    assert_eq!(d[0].line, 2);
    let d = diags("var x = ;");
    assert_eq!((d[0].line, d[0].col), (1, 9));
    assert!(d[0].render("a.js", "var x = ;").starts_with("a.js:1:9: SyntaxError: "));
}

#[test]
fn deep_nesting_is_a_diagnostic_not_a_crash() {
    let src = format!("var x = {}1{};", "(".repeat(20000), ")".repeat(20000));
    let d = diags(&src);
    assert!(d[0].message.contains("nested too deeply"), "{d:?}");
    let src = format!("{}{}", "{".repeat(5000), "}".repeat(5000));
    diags(&src);
    let src = format!("var x = {}1;", "!".repeat(300_000));
    assert!(diags(&src)[0].message.contains("nested too deeply"));
    let ok = format!("var x = {}1{};", "[".repeat(500), "]".repeat(500));
    lower(&ok);
}

#[test]
fn harness_and_benchmarks_lower() {
    let mut files: Vec<std::path::PathBuf> = ["assert.js", "sta.js", "propertyHelper.js", "compareArray.js"]
        .iter()
        .map(|f| std::path::Path::new("/work/shared/test262/harness").join(f))
        .collect();
    if let Ok(dir) = std::fs::read_dir("/work/shared/bench/octane") {
        let mut bench: Vec<_> =
            dir.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "js")).collect();
        bench.sort();
        files.extend(bench);
    }
    for f in files {
        let Ok(src) = std::fs::read_to_string(&f) else { continue };
        let m = lower(&src);
        assert!(m.top_level.is_some(), "{}", f.display());
    }
}

/// The internal builtins called anywhere in the module, by table name.
fn builtins_called(m: &Module) -> Vec<u8> {
    let mut out = Vec::new();
    for f in m.functions.values() {
        for i in f.inst_order() {
            if let ir::Imm::Builtin(b) = f.insts[i].imm {
                out.push(b);
            }
        }
    }
    out
}

fn calls_builtin(m: &Module, name: &str) -> bool {
    let id = BuiltinId::ALL.iter().find(|b| format!("{b:?}") == name).expect("builtin row exists");
    builtins_called(m).contains(&(*id as u8))
}

#[test]
fn internal_builtin_conventions() {
    assert!(calls_builtin(&lower("var o = { __proto__: p };"), "SetProtoFromLiteral"));
    assert!(!calls_builtin(&lower("var o = { ['__proto__']: p, __proto__ };"), "SetProtoFromLiteral"));
    assert!(calls_builtin(&lower("var o = { ...a };"), "CopyDataProperties"));
    assert!(calls_builtin(&lower("var { a, ...r } = o;"), "CopyDataProperties"));
    assert!(calls_builtin(&lower("var a = [...b];"), "AppendSpread"));
    assert!(calls_builtin(&lower("tag`x`;"), "GetTemplateObject"));
    assert!(calls_builtin(&lower("function f(...r) {}"), "ArrayFromIndex"));
    assert!(calls_builtin(&lower("var o = { [k]: function () {} };"), "SetFunctionName"));
    assert!(calls_builtin(&lower("var { a } = o;"), "RequireObjectCoercible"));
    let m = lower("class A extends B { m() { return super.m(); } }");
    for b in ["DefineClass", "SetHomeObject", "SuperGet"] {
        assert!(calls_builtin(&m, b), "{b}");
    }
    let m = lower("class A extends B { constructor() { super(); super.x = 1; } }");
    for b in ["GetPrototypeOf", "SuperSet", "DerivedReturn"] {
        assert!(calls_builtin(&m, b), "{b}");
    }
    assert!(calls_builtin(&lower("function* g() { yield* x; }"), "EnsureObject"));
}

#[test]
fn annex_b_block_functions() {
    // At the top level the var binding is a global property, updated when the
    // declaration is evaluated.
    let m = lower("{ function h() {} }");
    assert_eq!(count(&m, Opcode::StoreGlobal), 1);
    assert!(calls_builtin(&m, "DeclareGlobalVar"));
    // In a function, a var of the function; in strict code, nothing.
    let m = lower("function f() { { function h() {} } return h; }");
    assert_eq!(count(&m, Opcode::TryLoadGlobal), 0);
    let m = lower("'use strict'; function f() { { function h() {} } return h; }");
    assert_eq!(count(&m, Opcode::TryLoadGlobal), 1);
}

#[test]
fn super_call_checks_this_binding() {
    let m = lower("class A extends B { constructor() { super(); this.x = 1; } }");
    let ctor = func_named(&m, "A");
    let throws: Vec<_> = ctor.inst_order().filter(|&i| ctor.insts[i].opcode == Opcode::ThrowError).collect();
    assert_eq!(throws.len(), 1);
    assert!(calls_builtin(&m, "ThrowSuperNotCalled"));
}

#[test]
fn arrows_read_lexical_this_from_the_environment() {
    let m = lower("function f() { return () => this; }");
    let f = func_named(&m, "f");
    assert!(f.inst_order().any(|i| f.insts[i].opcode == Opcode::CoerceThisNS));
    let arrow = m.functions.values().find(|g| g.kind == FunctionKind::Arrow).unwrap();
    assert!(arrow.inst_order().any(|i| arrow.insts[i].opcode == Opcode::LoadFrame));
    assert!(!arrow.inst_order().any(|i| arrow.insts[i].opcode == Opcode::LoadParam));
    // Top-level arrows use the global object.
    let m = lower("var g = () => this;");
    assert_eq!(count(&m, Opcode::GetGlobalObject), 1);
}

#[test]
fn class_elements_lower() {
    for src in [
        "class A { x = 1; [Symbol.iterator] = 2; static y = this; #p = 3; static #q; get() { return this.#p + A.#q; } }",
        "class A { #m() {} get #a() { return 1; } set #a(v) {} static #s() {} t(o) { return #m in o && #a in o && o.#a && o.#m(); } }",
        "class A { static { var x = 1; this.y = x; } static z = 2; static { this.w = super.toString; } }",
        "class A extends Object { f = () => this; constructor() { (() => super())(); } }",
        "class A extends Object { g = 1; }",
        "class A { #x = 1; inc() { this.#x++; this.#x += 2; [this.#x] = [3]; return this?.#x; } }",
        "function f() { class A { #x; m() { class B { #x; m(o) { return o.#x; } } } } }",
    ] {
        lower(src);
    }
    // The instance fields initializer is a method run by the constructor.
    let m = lower("class A { x = 1; }");
    assert_eq!(func_named(&m, "<instance_members_initializer>").kind, FunctionKind::Method);
    let ctor = func_named(&m, "A");
    assert_eq!(ctor.inst_order().filter(|&i| ctor.insts[i].opcode == Opcode::Call).count(), 1);
    // An undeclared private name is an early error.
    assert!(diags("class A { m() { return this.#x; } }")[0].message.contains("#x"));
    assert!(diags("this.#x")[0].message.contains("#x"));
    for bad in [
        "class A { #x; #x; }",
        "class A { x = arguments; }",
        "class A { static { arguments; } }",
        "class A { #constructor() {} }",
        "class A { constructor = 1; }",
        "class A { get #a() {} static set #a(v) {} }",
    ] {
        assert!(!diags(bad).is_empty(), "{bad}");
    }
}

#[test]
fn generator_parameters_are_bound_by_the_call() {
    // Non-simple parameters: the outer function binds them and creates the generator over
    // the parameter scope; the inner function reads them from it.
    let m = lower("function* g(a = 1, [b]) { var a; yield a + b; }");
    let outer = m.functions.values().find(|f| f.kind == FunctionKind::GeneratorOuter).expect("outer");
    assert!(outer.inst_order().any(|i| outer.insts[i].opcode == Opcode::GetIterator));
    let inner = m.functions.values().find(|f| f.kind == FunctionKind::GeneratorInner).expect("inner");
    assert!(inner.parent_scope.is_some());
    assert!(!inner.inst_order().any(|i| inner.insts[i].opcode == Opcode::LoadParam));
    // Simple parameters stay in the inner function.
    let m = lower("function* g(a) { yield a; }");
    let outer = m.functions.values().find(|f| f.kind == FunctionKind::GeneratorOuter).expect("outer");
    assert_eq!(outer.inst_order().count(), 2);
}

#[test]
fn completion_value_is_returned_by_the_script() {
    let m = lower("1; if (x) {} else { 2; }");
    let top = &m.functions[m.top_level.expect("top level")];
    let ret = top.inst_order().find(|&i| top.insts[i].opcode == Opcode::Return).expect("return");
    assert!(top.as_literal(top.insts[ret].args[0]).is_none());
}

#[test]
fn lowering_here_makes_what_the_lowering_thread_makes() {
    let src = "function f(a) { return [a, `${a}!`, { a }]; }\nlet g = (x) => f(x) + 1;\nprint(g(2));";
    let opts = IrGenOptions::default();
    // The test thread's stack is small: a thread with the lowering thread's stack.
    let here = std::thread::Builder::new()
        .stack_size(LOWERING_STACK)
        .spawn(move || {
            let m = lower_script_here(src, "test.js", &opts).map(|m| ir::dump::dump_module(&m));
            (m, LEFTOVERS.with(|l| l.borrow().len()))
        })
        .expect("a thread")
        .join()
        .expect("no panic");
    let there = lower_script(src, "test.js", &IrGenOptions::default()).map(|m| ir::dump::dump_module(&m));
    assert_eq!(here.0, there);
    assert!(here.0.as_ref().is_ok_and(|m| m.contains("print")));
    // The trees are gone: a small script's are dropped at once.
    assert_eq!(here.1, 0);
    assert_eq!(
        lower_script_here("let x = ;", "test.js", &IrGenOptions::default()).err(),
        lower_script("let x = ;", "test.js", &IrGenOptions::default()).err()
    );
}

#[test]
fn a_large_script_has_its_trees_dropped_beside_it_until_the_end() {
    let src = "var x = [1, 2, 3];\n".repeat(DROP_ON_A_THREAD / 10);
    let dropping = std::thread::Builder::new()
        .stack_size(LOWERING_STACK)
        .spawn(move || {
            lower_script_here(&src, "test.js", &IrGenOptions::default()).expect("lowers");
            DROPPERS.lock().expect("not poisoned").len()
        })
        .expect("a thread")
        .join()
        .expect("no panic");
    assert!(dropping >= 1);
    finish_dropping();
    assert!(DROPPERS.lock().expect("not poisoned").is_empty());
}

/// A process ends with no lowering thread of its own left running: `finish_dropping` ends
/// the caller's (before, the exit's thread-local destructors closed its queue and it ended
/// while the process was exiting), and a later lowering starts another.
#[test]
fn finish_dropping_ends_the_lowering_thread() {
    std::thread::spawn(|| {
        let lowered = || lower_script("print(1);", "test.js", &IrGenOptions::default()).is_ok();
        assert!(lowered());
        let running = LOWERING_THREAD.with(|w| w.borrow().as_ref().map(|(_, h)| h.thread().id()));
        assert!(running.is_some());
        finish_dropping();
        assert!(LOWERING_THREAD.with(|w| w.borrow().is_none()));
        assert!(lowered());
        assert_ne!(LOWERING_THREAD.with(|w| w.borrow().as_ref().map(|(_, h)| h.thread().id())), running);
    })
    .join()
    .expect("no panic");
}
