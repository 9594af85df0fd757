// for-in over own and inherited enumerable keys; for-of over arrays and strings.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

var proto = { inherited: 1 };
var o = Object.create(proto);
o.b = 2; o.a = 1; o[2] = "two"; o[1] = "one";
var keys = [];
for (var k in o) keys.push(k);
print(keys.join(","));
var sum = 0;
for (const x of [1, 2, 3, 4]) sum += x;
print(sum);
var chars = [];
for (const ch of "héllo") chars.push(ch.toUpperCase());
print(chars.join("."));
var arr = [10, 20, 30];
arr.extra = "x";
var idx = [];
for (var i in arr) idx.push(i);
print(idx.join(" "));
for (var [k2, v2] of [["a", 1], ["b", 2]]) print(k2 + "=" + v2);

// CHECK: 1,2,b,a,inherited
// CHECK-NEXT: 10
// CHECK-NEXT: H.É.L.L.O
// CHECK-NEXT: 0 1 2 extra
// CHECK-NEXT: a=1
// CHECK-NEXT: b=2
