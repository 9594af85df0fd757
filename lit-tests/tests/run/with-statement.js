// The `with` statement: identifiers in its body (and in functions nested in it) are looked
// up in the object first (HasProperty, minus @@unscopables), at run time; calls through it
// get the object as `this`; `var` initializers assign through it.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace

var o = { x: 1, f() { return this === o; } };
var x = "global";
with (o) {
  print(x, f(), typeof x, typeof nothere);
  x = 2;
  var x = 3;
  var y = 4;
}
print(o.x, x, typeof y, y);
function g() {
  var z = "local";
  with ({ z: "obj" }) {
    return [z, (function () { return z; })(), (() => z)()];
  }
}
print(g().join());
var arr = [1, 2, 3];
with (arr) { print(length, join("-")); }
var q = { values: "v", a: 1 };
with ([]) { print(typeof values); }
with ("str") { print(length, charAt(1)); }
try { with (null) {} } catch (e) { print(e.constructor.name); }
var c = { n: 0 };
with (c) { n++; n += 5; }
print(c.n);
with ({}) { print(delete nope); }
print(eval("with ({a: 42}) a"));
function h() { with ({ arguments: 1 }) { return arguments; } }
print(h());
var u = { a: 1, [Symbol.unscopables]: { a: true } };
var a = "outer a";
with (u) { print(a); }

// CHECK: 1 true number undefined
// CHECK-NEXT: 3 global number 4
// CHECK-NEXT: obj,obj,obj
// CHECK-NEXT: 3 1-2-3
// CHECK-NEXT: undefined
// CHECK-NEXT: 3 t
// CHECK-NEXT: TypeError
// CHECK-NEXT: 6
// CHECK-NEXT: true
// CHECK-NEXT: 42
// CHECK-NEXT: 1
// CHECK-NEXT: outer a
