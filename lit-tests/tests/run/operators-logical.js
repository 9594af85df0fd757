// Logical operators, ?? and ?., logical assignment, delete, in, instanceof, void, comma.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

print(0 || "x", 1 && 2, null ?? "d", 0 ?? "d", "" || null, !0, !!"");
var o = { a: { b: { c: 1 } }, f: function () { return "called"; } };
print(o?.a?.b?.c, o.x?.y, o.x?.y.z.w, o.f?.(), o.g?.(), o?.["a"]?.b.c);
var la = null, lb = 0, lc = 1;
la ??= "set"; lb ||= "set"; lc &&= "set";
print(la, lb, lc);
var d = { p: 1, q: 2 };
print(delete d.p, "p" in d, "q" in d, delete d.nothing, Object.keys(d).join());
print([] instanceof Array, [] instanceof Object, {} instanceof Array);
print(void 0, (1, 2, 3));
var calls = 0;
function side() { calls++; return true; }
false && side(); true || side(); null ?? side();
print(calls);

// CHECK: x 2 d 0 null true false
// CHECK-NEXT: 1 undefined undefined called undefined 1
// CHECK-NEXT: set set set
// CHECK-NEXT: true false true true q
// CHECK-NEXT: true true false
// CHECK-NEXT: undefined 3
// CHECK-NEXT: 1
