// Function.prototype: call, apply, bind, toString, name and length.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

function add(a, b) { return this.base + a + b; }
print(add.call({ base: 1 }, 2, 3), add.apply({ base: 10 }, [20, 30]));
var add5 = add.bind({ base: 0 }, 5);
print(add5(1), add5.length, add5.name);
print(add.name, (function () {}).name, (() => {}).name, ({ m() {} }).m.name);
var anon = function () {};
print(anon.name);
function shown(x) { return x * 2; }
print(shown.toString());
print(typeof Function.prototype, Math.max.apply(null, [3, 9, 2]));

// CHECK: 6 60
// CHECK-NEXT: 6 1 bound add
// CHECK-NEXT: add   m
// CHECK-NEXT: anon
// CHECK-NEXT: function shown(x) { return x * 2; }
// CHECK-NEXT: function 9
