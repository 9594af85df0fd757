// Object literals: methods, getters, setters, computed keys, shorthand, spread.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

var key = "dyn";
var x = 1, y = 2;
var o = {
  x, y,
  [key + "amic"]: true,
  ["k" + 1]: "one",
  method() { return this.x + this.y; },
  get sum() { return this.x + this.y; },
  set both(v) { this.x = v; this.y = v; },
  "quoted key": 3,
  42: "num",
};
print(o.method(), o.sum, o.dynamic, o.k1, o["quoted key"], o[42]);
o.both = 5;
print(o.x, o.y, o.sum);
var merged = { a: 1, ...{ b: 2, c: 3 }, c: 4, ...null, ...undefined };
print(JSON.stringify(merged));
print(Object.keys(o).join(","));
var d = Object.getOwnPropertyDescriptor(o, "sum");
print(typeof d.get, d.set, d.enumerable, d.configurable);
var frozen = Object.freeze({ v: 1 });
frozen.v = 2;
print(frozen.v, Object.isFrozen(frozen));

// CHECK: 3 3 true one 3 num
// CHECK-NEXT: 5 5 10
// CHECK-NEXT: {"a":1,"b":2,"c":4}
// CHECK-NEXT: 42,x,y,dynamic,k1,method,sum,both,quoted key
// CHECK-NEXT: function undefined true true
// CHECK-NEXT: 1 true
