// Element reads and writes at sites that found dense elements at some runs and holes or
// the end of the array at others (filling `new Array(n)`, reading past the end): compiled
// inline where the element is there, by the VM elsewhere, so holes still read through the
// prototype chain and writes past the end still grow the array.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 0 %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 2 --gc-stress %s | %FileCheck %s --match-full-lines
// RUN: %iris --no-jit %s | %FileCheck %s --match-full-lines

function fill(a, n, v) {
  for (let i = 0; i < n; i++) a[i] = v + i;
  return a;
}
function sum(a, n) {
  let t = 0;
  for (let i = 0; i < n; i++) t += a[i] === undefined ? 100 : a[i];
  return t;
}
let total = 0;
for (let round = 0; round < 200; round++) {
  let a = fill(new Array(4), 4, round);
  fill(a, 4, 1);
  total += sum(a, 6);
}
console.log(total);
// CHECK: 42000

// Writes past the end grow the array; reads of holes see what the prototype has.
let grown = fill([], 6, 10);
console.log(grown.length, grown.join(","));
// CHECK: 6 10,11,12,13,14,15
let holey = [1, , 3];
Array.prototype[1] = 50;
console.log(sum(holey, 3), sum([1, 2, 3], 3));
// CHECK: 54 6
delete Array.prototype[1];
console.log(sum(holey, 3));
// CHECK: 104

// A fractional or string key is a property, not an element.
let o = [1, 2];
fill(o, 2, 5);
o[1.5] = "f";
o["x"] = "s";
console.log(o[1.5], o.x, o.length);
// CHECK: f s 2
