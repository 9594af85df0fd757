// Left-associative operator chains are read, analyzed and lowered as lists: 100,000
// operands cost no stack (generated code writes such chains), through new Function and
// eval as from a file (diagnostics/chain-too-deep.js has the limit).
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines
const n = 100000;
const sum = new Function("x", "return x" + " + x".repeat(n - 1));
console.log(sum(1));
// CHECK: 100000
const mixed = new Function("a", "b", "return a" + " * b - a + b".repeat(300));
console.log(mixed(2, 3));
// CHECK-NEXT: 2100
const or = new Function("z", "y", "return z" + " || z".repeat(n) + " || y");
const and = new Function("y", "return y" + " && y".repeat(n));
const nullish = new Function("u", "y", "return u" + " ?? u".repeat(n) + " ?? y");
console.log(or(0, "last"), and("all"), and(0), nullish(undefined, "end"));
// CHECK-NEXT: last all 0 end
console.log(eval("1" + " + 1".repeat(n - 1)), eval("1" + " < 2".repeat(1000)));
// CHECK-NEXT: 100000 true
