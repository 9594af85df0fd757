// Object literal and class field definitions (`put_own_by_id`) go through an inline cache
// of the shape transition; duplicates, accessors replaced by data, frozen targets and
// setters on the prototype (which a definition ignores) must come out as without it.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines
function lit(a, b) { return { x: a, y: b, x: b }; }
for (let i = 0; i < 5; i++) { const o = lit(i, i + 1); print(o.x, o.y, Object.keys(o).join()); }
function acc(v) { return { get p() { return 1; }, p: v }; }
for (let i = 0; i < 3; i++) { const o = acc(i); print(JSON.stringify(Object.getOwnPropertyDescriptor(o, 'p'))); }
class C { f = 1; g = this.f + 1; }
class D extends C { h = 3; }
for (let i = 0; i < 3; i++) print(JSON.stringify(new D()));
// A field defined over a non-writable property throws; on a frozen object too.
class Base { constructor(o) { return o; } }
class F extends Base { z = 1; }
for (let i = 0; i < 3; i++) {
  const target = i === 2 ? Object.freeze({}) : {};
  try { print(JSON.stringify(new F(target))); } catch (e) { print(e.constructor.name); }
}
const proto = { set q(v) { print('setter', v); } };
for (let i = 0; i < 3; i++) { const o = { __proto__: proto, q: i }; print(Object.getOwnPropertyNames(o).join(), o.q); }

// CHECK: 1 1 x,y
// CHECK-NEXT: 2 2 x,y
// CHECK-NEXT: 3 3 x,y
// CHECK-NEXT: 4 4 x,y
// CHECK-NEXT: 5 5 x,y
// CHECK-NEXT: {"value":0,"writable":true,"enumerable":true,"configurable":true}
// CHECK-NEXT: {"value":1,"writable":true,"enumerable":true,"configurable":true}
// CHECK-NEXT: {"value":2,"writable":true,"enumerable":true,"configurable":true}
// CHECK-NEXT: {"f":1,"g":2,"h":3}
// CHECK-NEXT: {"f":1,"g":2,"h":3}
// CHECK-NEXT: {"f":1,"g":2,"h":3}
// CHECK-NEXT: {"z":1}
// CHECK-NEXT: {"z":1}
// CHECK-NEXT: TypeError
// CHECK-NEXT: q 0
// CHECK-NEXT: q 1
// CHECK-NEXT: q 2
