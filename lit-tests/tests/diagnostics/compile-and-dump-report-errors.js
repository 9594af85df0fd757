// `iris compile` and `iris dump` report syntax errors the same way and write nothing.
// RUN: rm -f %t.irb
// RUN: not %iris compile %s -o %t.irb 2>&1 | %FileCheck %s
// RUN: test ! -e %t.irb
// RUN: not %iris dump --ir %s 2>&1 | %FileCheck %s
// RUN: not %iris dump --bytecode %s 2>&1 | %FileCheck %s
function f() {
  return 1 +* 2;
}
// CHECK: compile-and-dump-report-errors.js:8:13: SyntaxError:
// CHECK-NEXT:   return 1 +* 2;
