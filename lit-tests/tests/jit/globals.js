// Global variables of a program with many globals (the global object in dictionary mode):
// compiled reads check the dictionary's version, so a deleted global elsewhere or a new
// value is seen. The truthiness of numbers, objects, undefined and null is decided inline.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris --jit-threshold 3 %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 0 %s | %FileCheck %s --match-full-lines

var g1 = 1;
var g2 = 2;
for (var i = 0; i < 3000; i++) this["v" + i] = i;
function f() {
  return g1 + g2;
}
var s = 0;
for (var i = 0; i < 500; i++) s += f();
delete this.v5;
for (var i = 0; i < 500; i++) s += f();
g1 = 10;
for (var i = 0; i < 500; i++) s += f();
console.log(s);

function truthy(v) {
  return v ? "yes" : !v;
}
var seen = [];
for (var i = 0; i < 20; i++) for (var v of [0, -0, NaN, 1.5, -2, {}, null, undefined, true, false, "", "a", 0n, 1n]) seen.push(truthy(v));
console.log(seen.slice(-14).join(","));

// CHECK: 9000
// CHECK-NEXT: true,true,true,yes,yes,yes,true,true,yes,true,true,yes,true,yes
