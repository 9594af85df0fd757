// Destructuring in declarations and parameters, with defaults and rest.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

var [a, , b = 5, ...rest] = [1, 2, undefined, 4, 5];
print(a, b, rest.join());
var { x, y: why, z = "dz", ...others } = { x: 1, y: 2, p: 3, q: 4 };
print(x, why, z, JSON.stringify(others));
const { n: { m: [first, second] } } = { n: { m: ["f", "s"] } };
print(first, second);
function f({ a, b = 2 } = {}, [c, d] = [3, 4]) { return [a, b, c, d].join(); }
print(f(), f({ a: 1 }), f({ a: 1, b: 9 }, [7]));
let p, q;
[p, q] = [1, 2];
[p, q] = [q, p];
print(p, q);
var { length } = "four";
print(length);
for (const { k, v } of [{ k: "a", v: 1 }, { k: "b", v: 2 }]) print(k, v);

// CHECK: 1 5 4,5
// CHECK-NEXT: 1 2 dz {"p":3,"q":4}
// CHECK-NEXT: f s
// CHECK-NEXT: ,2,3,4 1,2,3,4 1,9,7,
// CHECK-NEXT: 2 1
// CHECK-NEXT: 4
// CHECK-NEXT: a 1
// CHECK-NEXT: b 2
