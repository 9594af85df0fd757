// Array literals: `new_array` runs the constant loads and element definitions that follow it
// without a dispatch each, up to the first other instruction. Every kind of constant, holes,
// -0, repeated constants, elements computed between the constants (the fill stops and goes
// on as usual), a literal as an element, and literals made in a loop.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines
function make(i) {
  return [0, -1, 2.5, 'two', undefined, null, true, false, , 1e300, i, i * 2, 'x' + i, [1, 2, [3]], 7];
}
for (let i = 0; i < 3; i++) {
  const a = make(i);
  console.log(a.length, JSON.stringify(a), 8 in a, 4 in a, typeof a[4], a[13].length);
}
const zeros = [-0, 0, -0];
console.log(Object.is(zeros[0], -0), Object.is(zeros[1], 0), Object.is(zeros[2], -0));
const same = [5, 5, 5, 5, , ];
console.log(same.join(), same.length, Object.keys(same).join());
let sum = 0;
for (let k = 0; k < 1000; k++) {
  const r = [k, 1, 2, 3, 4, 5, 6, 7, 8, 9];
  r[0] += r[9];
  sum += r[0] + r.length;
}
console.log(sum);
const nested = [[], [[]], [[[]]]];
console.log(JSON.stringify(nested), nested.map((x) => x.length).join());
// CHECK: 15 [0,-1,2.5,"two",null,null,true,false,null,1e+300,0,0,"x0",[1,2,[3]],7] false true undefined 3
// CHECK-NEXT: 15 [0,-1,2.5,"two",null,null,true,false,null,1e+300,1,2,"x1",[1,2,[3]],7] false true undefined 3
// CHECK-NEXT: 15 [0,-1,2.5,"two",null,null,true,false,null,1e+300,2,4,"x2",[1,2,[3]],7] false true undefined 3
// CHECK-NEXT: true true true
// CHECK-NEXT: 5,5,5,5, 5 0,1,2,3
// CHECK-NEXT: 518500
// CHECK-NEXT: [[],[[]],[[[]]]] 0,1,1
