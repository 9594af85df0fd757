// Unbounded recursion that is never caught ends as an uncaught RangeError, not a crash.
// RUN: not %iris %s 2>&1 | %FileCheck %s
function down(n) { return down(n + 1) + 1; }
down(0);
// CHECK: Uncaught RangeError:
// CHECK: at down ({{.*}}stack-overflow.js:3:
