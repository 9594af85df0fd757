// var and function declarations are hoisted to the top of their function.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

print(typeof f, typeof v, v);
var v = 1;
function f() { return "f"; }
print(f(), v);
function outer() {
  print(typeof inner, typeof later);
  return inner();
  function inner() { return "inner"; }
  var later = 2;
}
print(outer());
var v;
print(v);

// CHECK: function undefined undefined
// CHECK-NEXT: f 1
// CHECK-NEXT: function undefined
// CHECK-NEXT: inner
// CHECK-NEXT: 1
