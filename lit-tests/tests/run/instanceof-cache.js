// `instanceof` takes a shortcut for functions whose shape says it is OrdinaryHasInstance
// (no own @@hasInstance, [[Prototype]] %Function.prototype%, `prototype` a data property);
// every change that makes the answer come another way must be seen at the next test.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold=0 %s | %FileCheck %s --match-full-lines
function F() {}
function G() {}
const f = new F();
const check = (label, fn) => {
  const out = [];
  for (let i = 0; i < 3; i++) {
    try {
      out.push(fn());
    } catch (e) {
      out.push(e.constructor.name);
    }
  }
  console.log(label, out.join(" "));
};
check("plain", () => f instanceof F);
// CHECK: plain true true true
check("other", () => f instanceof G);
// CHECK-NEXT: other false false false
check("primitive", () => 1 instanceof F);
// CHECK-NEXT: primitive false false false
F.prototype = G.prototype;
check("prototype replaced", () => [f instanceof F, new G() instanceof F].join());
// CHECK-NEXT: prototype replaced false,true false,true false,true
F.prototype = 5;
check("non-object prototype", () => f instanceof F);
// CHECK-NEXT: non-object prototype TypeError TypeError TypeError
check("primitive, non-object prototype", () => 1 instanceof F);
// CHECK-NEXT: primitive, non-object prototype false false false
function H() {}
const h = new H();
check("before", () => h instanceof H);
// CHECK-NEXT: before true true true
Object.defineProperty(H, Symbol.hasInstance, { value: (v) => v === 42 });
check("own hasInstance", () => [h instanceof H, 42 instanceof H].join());
// CHECK-NEXT: own hasInstance false,true false,true false,true
function K() {}
const k = new K();
check("before", () => k instanceof K);
// CHECK-NEXT: before true true true
Object.setPrototypeOf(K, { [Symbol.hasInstance]: () => "yes" });
check("prototype with hasInstance", () => k instanceof K);
// CHECK-NEXT: prototype with hasInstance true true true
function L() {}
const l = new L();
check("before", () => l instanceof L);
// CHECK-NEXT: before true true true
for (let i = 0; i < 40; i++) L["p" + i] = i;
delete L.p3;
check("many properties", () => l instanceof L);
// CHECK-NEXT: many properties true true true
L.prototype = Array.prototype;
check("many properties, replaced", () => [l instanceof L, [] instanceof L].join());
// CHECK-NEXT: many properties, replaced false,true false,true false,true
function M() {}
check("lazy prototype", () => ({}) instanceof M);
// CHECK-NEXT: lazy prototype false false false
const B = M.bind(null);
check("bound", () => new M() instanceof B);
// CHECK-NEXT: bound true true true
check("native", () => [[] instanceof Array, ({}) instanceof Array, [] instanceof Object].join());
// CHECK-NEXT: native true,false,true true,false,true true,false,true
class A {}
class C extends A {}
check("classes", () => [new C() instanceof A, new A() instanceof C, C instanceof Function].join());
// CHECK-NEXT: classes true,false,true true,false,true true,false,true
