// An exception thrown inside a generator body shows the generator's frame.
// RUN: not %iris %s 2>&1 | %FileCheck %s --match-full-lines
function* gen() {
  yield 1;
  throw new Error("from generator");
}
var g = gen();
print(g.next().value);
g.next();
// CHECK: 1
// CHECK-NEXT: Uncaught Error: from generator
// CHECK-NEXT:     at {{.*}}gen ({{.*}}generator-throw.js:5:9)
// CHECK: {{.*}}generator-throw.js:9:3
