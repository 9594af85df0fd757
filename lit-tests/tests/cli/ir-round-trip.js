// The HIR text form round-trips: dump it, then compile and run the .ir file.
// RUN: %iris dump --ir %s > %t.ir
// RUN: %iris %t.ir | %FileCheck %s
// RUN: %iris dump --ir-opt %s > %t.opt.ir
// RUN: %iris %t.opt.ir | %FileCheck %s
// RUN: %iris dump --ir %t.ir > %t.again.ir && diff %t.ir %t.again.ir
function fact(n) { return n <= 1 ? 1 : n * fact(n - 1); }
var parts = [];
for (let i = 1; i <= 5; i++) parts.push(fact(i));
print(parts.join(" "));
// CHECK: 1 2 6 24 120
