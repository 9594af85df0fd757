// Async functions: declarations, arrows, methods, named expressions; await ordering against
// promise reactions, try/catch/finally across awaits, parameter errors rejecting.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris --gc-stress %s | %FileCheck %s --match-full-lines --strict-whitespace
async function f(a, b = 2) { const x = await a; return x + b; }
var g = async (x) => { return typeof this === 'object' ? await x : -1; };
var o = { async m() { return await 5; } };
var h = async function self() { return typeof self + " " + (self === h); };
console.log(typeof f, Object.getPrototypeOf(f) === Function.prototype, f.length, 'prototype' in f);
console.log(Object.getPrototypeOf(f).constructor.name, Object.prototype.toString.call(f));
f(1).then(v => console.log("f", v));
g(Promise.resolve(7)).then(v => console.log("g", v));
o.m().then(v => console.log("m", v));
h().then(v => console.log("h", v));
async function thrower() { await null; throw new Error("boom"); }
thrower().catch(e => console.log("caught", e.message));
async function order() { console.log("A"); await undefined; console.log("C"); }
order(); console.log("B");
async function loop() { let s = 0; for (let i = 0; i < 5; i++) { s += await i; } return s; }
loop().then(v => console.log("loop", v));
async function tf() { try { await Promise.reject(1); } catch (e) { return "c" + e; } finally { console.log("fin"); } }
tf().then(v => console.log("tf", v));
new Promise(r => r()).then(() => console.log("tick1")).then(() => console.log("tick2"));
async function argsf() { return arguments.length; }
argsf(1,2,3).then(v => console.log("args", v));
try { new f(); } catch (e) { console.log(e.constructor.name); }
async function bad(x = (() => { throw new Error("param") })()) {}
bad().catch(e => console.log("param rejects", e.message));
// CHECK: function false 1 false
// CHECK-NEXT: AsyncFunction [object AsyncFunction]
// CHECK-NEXT: A
// CHECK-NEXT: B
// CHECK-NEXT: TypeError
// CHECK-NEXT: h function true
// CHECK-NEXT: C
// CHECK-NEXT: fin
// CHECK-NEXT: tick1
// CHECK-NEXT: args 3
// CHECK-NEXT: param rejects param
// CHECK-NEXT: f 3
// CHECK-NEXT: g 7
// CHECK-NEXT: m 5
// CHECK-NEXT: caught boom
// CHECK-NEXT: tf c1
// CHECK-NEXT: tick2
// CHECK-NEXT: loop 10
