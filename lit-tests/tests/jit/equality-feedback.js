// `==` and `===` where the interpreter saw only numbers compile to a number comparison
// that leaves for anything else: the comparisons after that (strings, objects, null,
// NaN, -0, mixed types) still give JavaScript's answers.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 0 %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 2 --gc-stress %s | %FileCheck %s --match-full-lines
// RUN: %iris --no-jit %s | %FileCheck %s --match-full-lines

function loose(a, b) {
  return a == b;
}
function strict(a, b) {
  return a === b;
}
function branch(a, b) {
  if (a != b) return "differ";
  return "same";
}
let n = 0;
for (let i = 0; i < 500; i++) {
  if (loose(i, i & 7)) n++;
  if (strict(i, i & 3)) n++;
  if (branch(i, i) === "same") n++;
}
console.log(n);
// CHECK: 512
console.log(loose(1, 1.5), loose(2.5, 2.5), strict(0, -0), loose(NaN, NaN), strict(NaN, NaN));
// CHECK: false true true false false
console.log(loose("1", 1), strict("1", 1), loose(null, undefined), strict(null, undefined));
// CHECK: true false true false
let o = {};
console.log(loose(o, o), strict(o, {}), loose({ valueOf: () => 3 }, 3), branch("a", "a"), branch(1, "1"));
// CHECK: true false true same same
console.log(loose(1n, 1), strict(1n, 1n), loose(true, 1), branch(0, false));
// CHECK: true true true same
