// Numbers that stay int32 are recorded as int32 only, doubles as double; a loop's
// back-edges are counted; a call site that always calls the same closure names it.
// RUN: %iris dump --feedback %s | %FileCheck %s
function dot(n) {
  let acc = 0;
  for (let i = 0; i < n; i++) acc = acc + i * 2;
  return acc;
}
function half(x) { return x / 2; }
let t = 0;
for (let k = 0; k < 3; k++) t += half(dot(10));
print(t);

// CHECK:      135
// CHECK:      function dot#1: entries 3, back-edges 30
// CHECK:        mul{{.*}} int32
// CHECK-NEXT:   @{{[0-9]+}} {{ *}}add{{.*}} int32
// CHECK:      function half#2: entries 3, back-edges 0
// CHECK-NEXT:   @{{[0-9]+}} {{ *}}div{{.*}} int32
