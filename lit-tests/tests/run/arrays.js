// Array literals with holes and spread, and the common Array methods.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

var a = [1, , 3];
print(a.length, 1 in a, a[1], a.join("-"));
var b = [0, ...a, ...[4, 5], ..."ab"];
print(b.length, b.join(","));
var c = [5, 1, 4, 2, 3];
print(c.slice().sort().join(""), c.slice().sort(function (p, q) { return q - p; }).join(""));
print(c.indexOf(4), c.indexOf(9), c.concat([6], 7).join(","));
var d = [1, 2, 3, 4, 5];
print(d.splice(1, 2, "x", "y", "z").join(), d.join());
print(d.reverse().join(), d.shift(), d.pop(), d.unshift(0), d.push(9, 10), d.join());
print([1, 2, 3].map(function (v, i) { return v * i; }).join(), [1, 2, 3, 4].filter(function (v) { return v % 2; }).join());
print([1, 2, 3].reduce(function (s, v) { return s + v; }, 0), [[1], [2]].reduce(function (s, v) { return s.concat(v); }).join());
print([1, 2].some(function (v) { return v > 1; }), [1, 2].every(function (v) { return v > 1; }));
var seen = [];
[7, 8].forEach(function (v, i, arr) { seen.push(i + ":" + v + ":" + arr.length); });
print(seen.join(" "), Array.isArray(seen), Array.isArray("no"));
var big = new Array(3);
print(big.length, new Array(1, 2).join(), Array(2).join("x"));
var grow = [];
grow[5] = 1;
print(grow.length);
grow.length = 2;
print(grow.length, grow[5]);

// CHECK: 3 false undefined 1--3
// CHECK-NEXT: 8 0,1,,3,4,5,a,b
// CHECK-NEXT: 12345 54321
// CHECK-NEXT: 2 -1 5,1,4,2,3,6,7
// CHECK-NEXT: 2,3 1,x,y,z,4,5
// CHECK-NEXT: 5,4,z,y,x,1 5 1 5 7 0,4,z,y,x,9,10
// CHECK-NEXT: 0,2,6 1,3
// CHECK-NEXT: 6 1,2
// CHECK-NEXT: true false
// CHECK-NEXT: 0:7:2 1:8:2 true false
// CHECK-NEXT: 3 1,2 x
// CHECK-NEXT: 6
// CHECK-NEXT: 2 undefined
