// `dump --stats` prints register allocation figures per function.
// RUN: %iris dump --stats %s | %FileCheck %s
function sum(a, b, c) { var t = a + b; var u = t + c; return u * 2; }
print(sum(1, 2, 3));
// CHECK: function {{ +}}ssa {{ +}}regs
// CHECK: sum {{ +[0-9]+ +[0-9]+}}
