// Reading a property of null inside a class method.
// RUN: not %iris %s 2>&1 | %FileCheck %s --match-full-lines
class A {
  m(v) { return v.x; }
}
new A().m(null);
// CHECK: Uncaught TypeError: Cannot read properties of null (reading 'x')
// CHECK-NEXT:     at {{.*}}m ({{.*}}null-property.js:4:19)
// CHECK-NEXT:     at {{.*}}null-property.js:6:9
