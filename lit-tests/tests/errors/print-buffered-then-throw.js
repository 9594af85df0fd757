// Printed lines (more than an output buffer's worth, to a pipe, where they are buffered)
// all come out, in order, before the report of the uncaught error that follows them.
// RUN: not %iris %s 2>&1 | %FileCheck %s
for (let i = 0; i < 3000; i++) print("line " + i);
throw new Error("after the lines");
// CHECK: line 0
// CHECK-NEXT: line 1
// CHECK: line 2998
// CHECK-NEXT: line 2999
// CHECK-NEXT: Uncaught Error: after the lines
