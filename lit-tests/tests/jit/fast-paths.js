// What compiled code does inline or through a dedicated helper rather than by running the
// instruction in the VM: calls and `new` (compiled callees entered directly), bitwise
// operators on doubles (ToInt32), an array's `length`, `instanceof`, string constants,
// property keys, the null check of a compound assignment to an element, and property
// reads of shapes the inline cache had not seen when the code was compiled (they leave,
// and the code is compiled again) or that it cannot hold (megamorphic: the VM reads them).
// Each function runs past the JIT threshold with one kind of value first, then others.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 0 %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 3 --gc-stress %s | %FileCheck %s --match-full-lines
// RUN: %iris --no-jit %s | %FileCheck %s --match-full-lines

function bits(x, y) {
  return [x | 0, x & y, x ^ y, x << 3, x >> 1, x >>> 0];
}
for (let i = 0; i < 200; i++) bits(i * 1.5, i);
console.log(bits(7.9, 3).join(" "));
console.log(bits(-7.9, 3).join(" "));
console.log(bits(4294967301.5, 2 ** 32 + 3).join(" "));
console.log(bits(2 ** 53 + 2, -1).join(" "));
console.log(bits(NaN, Infinity).join(" "));
console.log(bits(1e300, -Infinity).join(" "));
console.log(bits("12", { valueOf: () => 5 }).join(" "));
// CHECK: 7 3 4 56 3 7
// CHECK: -7 1 -6 -56 -4 4294967289
// CHECK: 5 1 6 40 2 5
// CHECK: 2 2 -3 16 1 2
// CHECK: 0 0 0 0 0 0
// CHECK: 0 0 0 0 0 0
// CHECK: 12 4 9 96 6 12

function len(a) {
  return a.length;
}
for (let i = 0; i < 200; i++) len([i, i]);
console.log(len([1, 2, 3]), len("four"), len({ length: "many" }), len(function (a, b) {}));
const sparse = [];
sparse[2 ** 31] = 1;
console.log(len(sparse), len(new Array(5)));
try {
  len(null);
} catch (e) {
  console.log(e instanceof TypeError);
}
// CHECK: 3 4 many 2
// CHECK: 2147483649 5
// CHECK: true

class Base {
  constructor(x) {
    this.x = x;
  }
}
class Derived extends Base {
  constructor(x) {
    super(x * 2);
    this.y = x;
  }
}
function Plain(v) {
  this.v = v;
}
function Returns(v) {
  this.v = v;
  return { other: v };
}
function make(C, v) {
  return new C(v);
}
function isA(o, C) {
  return o instanceof C;
}
let made = 0;
for (let i = 0; i < 200; i++) {
  made += make(Plain, i).v;
  if (isA(make(Derived, i), Base)) made++;
}
console.log(made, make(Returns, 3).other, make(Derived, 4).x, make(Array, 3).length);
console.log(isA([], Array), isA({}, Array), isA(1, Number), isA(make(Derived, 1), Derived));
try {
  make(Math.max, 1);
} catch (e) {
  console.log(e.constructor.name);
}
try {
  isA({}, {});
} catch (e) {
  console.log(e.constructor.name);
}
// CHECK: 20100 3 8 3
// CHECK: true false false true
// CHECK: TypeError
// CHECK: TypeError

function few(a, b, c, d) {
  return [a, b, c, d].map(String).join(",");
}
function many() {
  return arguments.length;
}
function calls(n) {
  return few(n) + " " + few(n, n, n, n, n) + " " + many(n, n, n) + " " + Math.max(n, 2);
}
function fact(n) {
  return n <= 1 ? 1 : n * fact(n - 1);
}
for (let i = 0; i < 200; i++) calls(i);
console.log(calls(1), fact(10));
try {
  calls.call(null, Symbol());
} catch (e) {
  console.log(e.constructor.name);
}
function callsNothing(f) {
  return f();
}
for (let i = 0; i < 200; i++) callsNothing(() => i);
try {
  callsNothing(42);
} catch (e) {
  console.log(e.constructor.name);
}
// CHECK: 1,undefined,undefined,undefined 1,1,1,1 3 2 3628800
// CHECK: TypeError
// CHECK: TypeError

function bump(o, k) {
  o[k] += 1;
  return o[k];
}
const counts = { a: 0, 7: 0 };
for (let i = 0; i < 200; i++) bump(counts, i % 2 ? "a" : 7);
const key = { toString: () => "a" };
console.log(bump(counts, key), bump(counts, 7), bump([5], 0), bump("str", 0));
try {
  bump(null, "a");
} catch (e) {
  console.log(e.constructor.name);
}
// CHECK: 101 101 6 s
// CHECK: TypeError

function greet(name) {
  return "hello " + name;
}
for (let i = 0; i < 200; i++) greet(i);
console.log(greet("jit"));
// CHECK: hello jit

function px(p) {
  return p.x;
}
for (let i = 0; i < 200; i++) px({ x: i });
let seen = 0;
for (let i = 0; i < 200; i++) seen += px({ y: 1, x: i });
const shapes = [{ x: 1 }, { a: 1, x: 2 }, { b: 1, x: 3 }, { c: 1, x: 4 }, { d: 1, x: 5 }, { e: 1, x: 6 }];
for (let i = 0; i < 300; i++) seen += px(shapes[i % 6]);
console.log(seen, px(Object.create({ x: "inherited" })), px({}), px("str"));
// CHECK: 20950 inherited undefined undefined
