// Code that read a property on a prototype (or added one by a transition) holds while no
// prototype changes its layout. When one does, that code is not entered again: the
// function runs in the interpreter until it is warm again, then is compiled anew, with
// what the interpreter found since. Frames running the old code leave at its next check.
// RUN: %iris --jit-log --jit-threshold 50 %s 2>&1 | %FileCheck %s
// RUN: %iris --jit-log --jit-threshold 2 %s 2>&1 | %FileCheck %s --check-prefix=OUT
// RUN: %iris --no-jit %s | %FileCheck %s --check-prefix=OUT

function Point(x) {
  this.x = x;
}
Point.prototype.scale = function () {
  return 2;
};
function sum(points) {
  let s = 0;
  for (let i = 0; i < points.length; i++) s += points[i].x * points[i].scale();
  return s;
}
const points = [new Point(1), new Point(2), new Point(3)];
let total = 0;
for (let i = 0; i < 200; i++) total += sum(points);
print(total);

// A new property on the prototype: the epoch moves, and sum's code is not entered again.
Point.prototype.label = "p";
// A method found on the prototype replaced: the new one runs.
Point.prototype.scale = function () {
  return 10;
};
print(sum(points));
for (let i = 0; i < 200; i++) total += sum(points);
print(total, points[0].label);

// A global read at its slot of the (dictionary-mode) global object: deleting it changes
// the dictionary, and code that read it is not entered again.
for (let i = 0; i < 200; i++) globalThis["g" + i] = i;
function readG() {
  return g5 + 1;
}
let r = 0;
for (let i = 0; i < 200; i++) r += readG();
delete globalThis.g5;
globalThis.g5 = 99;
print(r, readG());

// CHECK: jit: compiled sum#{{[0-9]+}} (entry)
// CHECK: 2400
// CHECK: jit: invalidated the code of sum#{{[0-9]+}}: a prototype changed, to be compiled again
// CHECK-NOT: jit: exit sum
// CHECK: 60
// CHECK: jit: compiled sum#{{[0-9]+}} (entry)
// CHECK: 14400 p
// CHECK: jit: compiled readG#{{[0-9]+}} (entry)
// CHECK: jit: invalidated the code of readG#{{[0-9]+}}: a dictionary's properties changed
// CHECK: 1200 100

// OUT: 2400
// OUT: 60
// OUT: 14400 p
// OUT: 1200 100
