// A parenthesized optional chain used as a callee keeps its base as `this`:
// `(a?.b)()` calls `a.b` with `this` = `a`.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace

var a = { b: function () { return this === a; }, c: { d() { return this === a.c; } } };
print((a?.b)(), (a?.["b"])(), (a?.c.d)(), (a.c?.d)());
var n = null;
try {
  (n?.b)();
} catch (e) {
  print(e.constructor.name);
}
print(a?.b(), a.c?.d());

// CHECK: true true true true
// CHECK-NEXT: TypeError
// CHECK-NEXT: true true
