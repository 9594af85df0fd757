// Assigning to something that is not a reference is an early SyntaxError.
// RUN: not %iris %s 2>&1 | %FileCheck %s
var n = 0;
(n + 1) = 2;
// CHECK: invalid-assignment.js:4:1: SyntaxError: The left-hand side of an assignment expression must be a variable or a property access.
// CHECK-NEXT: (n + 1) = 2;
