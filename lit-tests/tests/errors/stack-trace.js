// An uncaught exception prints "Uncaught " and the JavaScript stack with file:line:column of
// every frame (node's format), after the output so far, and exits with status 1.
// RUN: not %iris %s 2>&1 | %FileCheck %s --match-full-lines
function inner(x) {
  if (x > 1) throw new TypeError("bad value " + x);
  return x;
}
function outer(n) {
  return inner(n + 1);
}
print("before");
outer(1);
print("after");
// CHECK: before
// CHECK-NEXT: Uncaught TypeError: bad value 2
// CHECK-NEXT:     at inner ({{.*}}stack-trace.js:5:20)
// CHECK-NEXT:     at outer ({{.*}}stack-trace.js:9:10)
// CHECK-NEXT:     at {{.*}}stack-trace.js:12:1
// CHECK-NOT: after
