// Throwing a value that is not an error object prints the value.
// RUN: not %iris %s 2>&1 | %FileCheck %s --match-full-lines
print("start");
throw 42;
// CHECK: start
// CHECK-NEXT: Uncaught 42
