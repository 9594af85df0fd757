// Math functions.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

print(Math.abs(-3), Math.floor(-1.5), Math.ceil(-1.5), Math.round(2.5), Math.round(-2.5), Math.trunc(-4.7), Math.sign(-3));
print(Math.max(1, 5, 3), Math.min(), Math.max(), Math.max(1, NaN), Math.pow(2, 0.5), Math.sqrt(16), Math.cbrt(27));
print(Math.hypot(3, 4), Math.log(Math.E), Math.log2(8), Math.log10(1000), Math.exp(0), Math.PI);
print(Math.sin(0), Math.cos(Math.PI), Math.atan2(1, 1) * 4, Math.fround(5.5), Math.clz32(1), Math.imul(3, -4));
var r = Math.random();
print(r >= 0 && r < 1);

// CHECK: 3 -2 -1 3 -2 -4 -1
// CHECK-NEXT: 5 Infinity -Infinity NaN 1.4142135623730951 4 3
// CHECK-NEXT: 5 1 3 3 1 3.141592653589793
// CHECK-NEXT: 0 -1 3.141592653589793 5.5 31 -12
// CHECK-NEXT: true
