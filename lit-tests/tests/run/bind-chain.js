// A bound function's name is "bound " + its target's name: a chain of 10,000 binds makes a
// 60,001-unit name in linear time (iris-stress runs 100,000), and lone surrogates in the
// target's name stay.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines
let f = function g() {};
for (let i = 0; i < 10000; i++) f = f.bind(null);
print(f.name.length, f.name.slice(0, 13), f.name.slice(-8));
const h = function () {};
Object.defineProperty(h, "name", { value: "\uD800x" });
const b = h.bind();
print(b.name.length, b.name.charCodeAt(6).toString(16));
print(typeof Object.defineProperty(function () {}, "name", { value: 1 }).bind().name);
// CHECK: 60001 bound bound b  bound g
// CHECK-NEXT: 8 d800
// CHECK-NEXT: string
