// Accessors on prototypes, property shadowing, and assignment through setters.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

var base = {
  _v: 0,
  get v() { return this._v; },
  set v(x) { this._v = x * 2; }
};
var child = Object.create(base);
child.v = 5;
print(child.v, base.v, child.hasOwnProperty("_v"), child.hasOwnProperty("v"));
var shadow = Object.create({ p: "proto" });
print(shadow.p);
shadow.p = "own";
print(shadow.p, Object.getPrototypeOf(shadow).p);
var counter = { count: 0, get next() { return ++this.count; } };
print(counter.next, counter.next, counter.count);

// CHECK: 10 0 true false
// CHECK-NEXT: proto
// CHECK-NEXT: own proto
// CHECK-NEXT: 1 2 2
