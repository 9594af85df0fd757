// Deep recursion: 10,000 frames must work; unbounded recursion is a RangeError.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

function depth(n) { return n === 0 ? 0 : 1 + depth(n - 1); }
print(depth(10000));
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
print(fib(20));
function forever(n) { return forever(n + 1) + 1; }
try { forever(0); } catch (e) { print(e instanceof RangeError); }
var even = function (n) { return n === 0 ? true : odd(n - 1); };
var odd = function (n) { return n === 0 ? false : even(n - 1); };
print(even(5000), odd(777));

// CHECK: 10000
// CHECK-NEXT: 6765
// CHECK-NEXT: true
// CHECK-NEXT: true true
