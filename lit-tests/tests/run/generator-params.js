// Generator parameters are bound by the call (FunctionDeclarationInstantiation), not by
// the first next(): defaults run and destructuring throws at the call; the body reads the
// bound parameters. Named generator expressions see their own closure.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris --gc-stress %s | %FileCheck %s --match-full-lines --strict-whitespace

function* g(a = (print("default"), 1), [b] = [2]) {
  print("body");
  yield a + b;
  var a;
  yield a;
}
var it = g();
print("created");
print(it.next().value, it.next().value);
try {
  (function* ([x]) {})();
} catch (e) {
  print("destructuring throws at the call:", e.constructor.name);
}
try {
  (function* (x = y, y) {})();
} catch (e) {
  print("TDZ at the call:", e.constructor.name);
}
var named = function* fn(q = 1) { yield fn === named; yield q; };
var n = named(7);
print(n.next().value, n.next().value);
var named2 = function* fn2() { yield fn2 === named2; };
print(named2().next().value);
var o = { *m(a = this) { yield a === this; yield this.k; }, k: 9 };
var mi = o.m();
print(mi.next().value, mi.next().value);
function* gargs(a = 1) { var arguments; yield arguments.length; yield a; }
var ga = gargs(4, 5);
print(ga.next().value, ga.next().value);
function* sloppyThis(a = this) { yield typeof a; yield a === this; }
var st = sloppyThis.call(5);
print(st.next().value, st.next().value);
function* rest(a, ...r) { yield r.length; yield arguments.length; }
var rs = rest(1, 2, 3);
print(rs.next().value, rs.next().value);

// CHECK: default
// CHECK-NEXT: created
// CHECK-NEXT: body
// CHECK-NEXT: 3 1
// CHECK-NEXT: destructuring throws at the call: TypeError
// CHECK-NEXT: TDZ at the call: ReferenceError
// CHECK-NEXT: true 7
// CHECK-NEXT: true
// CHECK-NEXT: true 9
// CHECK-NEXT: 2 4
// CHECK-NEXT: object true
// CHECK-NEXT: 2 3
