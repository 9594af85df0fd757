// Function.prototype.toString gives each function's own source text, from source and from a
// compiled bundle (which keeps the program's text once, compressed); a bundle compiled with
// --strip-source gives the NativeFunction placeholder instead.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile --strip-source %s -o %t-stripped.irb
// RUN: %iris %t-stripped.irb | %FileCheck %s --check-prefix=STRIPPED --match-full-lines --strict-whitespace
function add(a, b) { return a + b; }
const arrow = (x) => x * 2;
class Point { constructor(x) { this.x = x; } get norm() { return Math.abs(this.x); } }
function* gen() { yield "é"; }
async function later() { await 1; }
const o = { "ü→"() { return "☃"; } };
print(add.toString());
print(String(arrow));
print(Point.toString());
print(Object.getOwnPropertyDescriptor(Point.prototype, "norm").get.toString());
print(gen.toString());
print(later.toString());
print(o["ü→"].toString());
print(new Function("a", "b", "return a - b").toString());
print(typeof Math.max.toString());
// CHECK: function add(a, b) { return a + b; }
// CHECK-NEXT: (x) => x * 2
// CHECK-NEXT: class Point { constructor(x) { this.x = x; } get norm() { return Math.abs(this.x); } }
// CHECK-NEXT: get norm() { return Math.abs(this.x); }
// CHECK-NEXT: function* gen() { yield "é"; }
// CHECK-NEXT: async function later() { await 1; }
// CHECK-NEXT: "ü→"() { return "☃"; }
// CHECK-NEXT: function anonymous(a,b
// CHECK-NEXT: ) {
// CHECK-NEXT: return a - b
// CHECK-NEXT: }
// CHECK-NEXT: string
// STRIPPED: function add() { [native code] }
// STRIPPED-NEXT: function arrow() { [native code] }
// STRIPPED-NEXT: function Point() { [native code] }
// STRIPPED-NEXT: function get norm() { [native code] }
// STRIPPED-NEXT: function gen() { [native code] }
// STRIPPED-NEXT: function later() { [native code] }
// STRIPPED-NEXT: function ü→() { [native code] }
// STRIPPED-NEXT: function anonymous(a,b
// STRIPPED-NEXT: ) {
// STRIPPED-NEXT: return a - b
// STRIPPED-NEXT: }
// STRIPPED-NEXT: string
