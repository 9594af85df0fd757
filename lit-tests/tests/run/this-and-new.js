// `this` binding rules, constructors with `new`, and prototypes.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

function Point(x, y) { this.x = x; this.y = y; }
Point.prototype.norm2 = function () { return this.x * this.x + this.y * this.y; };
var p = new Point(3, 4);
print(p.norm2(), p instanceof Point, Object.getPrototypeOf(p) === Point.prototype);
var o = { name: "o", get: function () { return this.name; } };
var g = o.get;
print(o.get(), typeof g.call({ name: "other" }));
print(g.call({ name: "called" }), g.apply({ name: "applied" }, []));
var bound = g.bind({ name: "bound" });
print(bound());
var arrowObj = { name: "arrow", make: function () { return () => this.name; } };
print(arrowObj.make()());
function Returns() { this.a = 1; return { b: 2 }; }
var r = new Returns();
print(r.a, r.b);

// CHECK: 25 true true
// CHECK-NEXT: o string
// CHECK-NEXT: called applied
// CHECK-NEXT: bound
// CHECK-NEXT: arrow
// CHECK-NEXT: undefined 2

// A sloppy-mode function's `this` at its first instruction: an object as is, a primitive
// boxed, undefined and null the global object (a call's fast path runs `load_this_ns`).
function kind() { return typeof this + ":" + (this === globalThis); }
Number.prototype.kind = kind;
var holder = { kind: kind, count: 0, bump: function (n) { this.count += n; return this; } };
print(kind(), holder.kind(), (5).kind(), "s".kind === undefined, kind.call(null), kind.call("s"));
print(holder.bump(1).bump(2).count, [1, 2].map(kind).join(" "));
// CHECK-NEXT: object:true object:false object:false true object:true object:false
// CHECK-NEXT: 3 object:true object:true
