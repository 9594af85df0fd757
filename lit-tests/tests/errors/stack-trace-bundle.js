// A compiled bundle keeps the source locations: the same stack trace as from source.
// RUN: %iris compile %s -o %t.irb
// RUN: not %iris %t.irb 2>&1 | %FileCheck %s --match-full-lines
// RUN: not %iris -O0 %s 2>&1 | %FileCheck %s --match-full-lines
function Thrower() {}
Thrower.prototype.go = function (depth) {
  if (depth === 0) throw new RangeError("deep enough");
  return this.go(depth - 1);
};
new Thrower().go(2);
// CHECK: Uncaught RangeError: deep enough
// CHECK-NEXT:     at {{.*}}stack-trace-bundle.js:7:26{{.*}}
// CHECK-NEXT:     at {{.*}}stack-trace-bundle.js:8:15{{.*}}
// CHECK-NEXT:     at {{.*}}stack-trace-bundle.js:8:15{{.*}}
// CHECK-NEXT:     at {{.*}}stack-trace-bundle.js:10:15
