// Date.now and new Date().getTime agree and move forward.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

var t0 = Date.now();
var d = new Date();
var t1 = d.getTime();
print(typeof t0, t1 >= t0, t1 - t0 < 10000, t0 > 1600000000000);
print(new Date(0).getTime(), new Date(86400000).getTime());

// CHECK: number true true true
// CHECK-NEXT: 0 86400000
