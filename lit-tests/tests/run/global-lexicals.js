// A script's top-level let, const and class are global lexical declarations: code that runs
// later in the realm (here: indirect eval and Function bodies, which see them as globals)
// reads and assigns them, respects their TDZ and constness, and they shadow a global object
// property of the same name without being one.
// NODE-SKIP: node runs a file as a CommonJS module, not a script (the output is node's for
// this file run with vm.runInThisContext)
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold=0 %s | %FileCheck %s --match-full-lines
let late = (() => { try { return (0, eval)("late"); } catch (e) { return e.name; } })();
console.log(late);
// CHECK: ReferenceError
let a = 1; const b = 2; class C {}
function f() { return a + b; }
a = 5;
console.log(f(), typeof C, typeof a, globalThis.a);
// CHECK-NEXT: 7 function number undefined
(0, eval)("var w = 4; let q = 9; console.log(a, b, q, typeof w)");
// CHECK-NEXT: 5 2 9 number
console.log(typeof q, w);
// CHECK-NEXT: undefined 4
try { (0, eval)("var a = 1"); } catch (e) { console.log(e.name, e.message); }
// CHECK-NEXT: SyntaxError Identifier 'a' has already been declared
try { (0, eval)("b = 1"); } catch (e) { console.log(e.name, e.message); }
// CHECK-NEXT: TypeError Assignment to constant variable.
(0, eval)("a = 7"); console.log(a, f());
// CHECK-NEXT: 7 9
(0, eval)("globalThis.a = 'prop'; console.log(a, typeof a)");
// CHECK-NEXT: 7 number
const setA = new Function("v", "a = v; return typeof a");
for (let i = 0; i < 3; i++) setA(10 + i);
console.log(a, globalThis.a, Object.keys(globalThis).includes("b"));
// CHECK-NEXT: 12 prop false
