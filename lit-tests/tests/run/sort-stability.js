// Array.prototype.sort is stable and uses string order by default.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

var people = [
  { n: "a", age: 30 }, { n: "b", age: 25 }, { n: "c", age: 30 }, { n: "d", age: 25 }, { n: "e", age: 20 }
];
people.sort(function (x, y) { return x.age - y.age; });
print(people.map(function (p) { return p.n; }).join(""));
print([10, 9, 1, 100, 25].sort().join(), [3, undefined, 1, , 2].sort().length);
print(["b", "a", "C", "B"].sort().join(""));

// CHECK: ebdac
// CHECK-NEXT: 1,10,100,25,9 5
// CHECK-NEXT: BCab
