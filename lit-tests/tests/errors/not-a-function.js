// A TypeError thrown by the VM carries the location of the failing call.
// RUN: not %iris %s 2>&1 | %FileCheck %s --match-full-lines
var o = {};
function call() { return o.missing(); }
call();
// CHECK: Uncaught TypeError: {{.*}}not a function
// CHECK-NEXT:     at call ({{.*}}not-a-function.js:4:28)
// CHECK-NEXT:     at {{.*}}not-a-function.js:5:1
