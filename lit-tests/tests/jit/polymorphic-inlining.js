// A call site that saw a few functions (up to four) inlines each of them behind a test of
// the callee's function; another callee is called the general way, or leaves compiled
// code where the site is itself inside an inlined callee. Exits inside any of the inlined
// callees rebuild their frames.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 2 %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 2 --gc-stress %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 0 %s | %FileCheck %s --match-full-lines
// RUN: %iris --no-jit %s | %FileCheck %s --match-full-lines

function Unary(v) {
  this.v = v;
}
Unary.prototype.output = function () {
  return this.v;
};
Unary.prototype.weight = function () {
  return 1;
};
function Binary(a, b, forward) {
  this.a = a;
  this.b = b;
  this.forward = forward;
}
Binary.prototype.output = function () {
  return this.forward ? this.b : this.a;
};
Binary.prototype.weight = function () {
  return 2;
};
function Scaled(a, k) {
  this.a = a;
  this.k = k;
}
Scaled.prototype.output = function () {
  return this.a * this.k;
};
Scaled.prototype.weight = function () {
  return this.k;
};

var items = [new Unary(1), new Binary(2, 3, true), new Scaled(4, 5), new Binary(6, 7, false)];

// The site inside total sees three functions.
function total(list) {
  var s = 0;
  for (var i = 0; i < list.length; i++) s += list[i].output();
  return s;
}
var t = 0;
for (var i = 0; i < 2000; i++) t += total(items);
console.log(t);
// CHECK: 60000

// A fourth kind of object reaches the compiled site.
function Other(x) {
  this.x = x;
}
Other.prototype.output = function () {
  return -this.x;
};
console.log(total(items.concat([new Other(100)])));
// CHECK: -70

// A callee that overflows int32 arithmetic leaves with its frame rebuilt.
var big = [new Scaled(1, 2), new Unary(3), new Scaled(2147483647, 2)];
console.log(total(big));
// CHECK: 4294967299

// The polymorphic site inside a callee inlined in turn: every callee it saw is inlined,
// and a new one leaves.
function weighted(o) {
  return o.output() * o.weight();
}
function sumWeighted(list) {
  var s = 0;
  for (var i = 0; i < list.length; i++) s += weighted(list[i]);
  return s;
}
var w = 0;
for (var i = 0; i < 2000; i++) w += sumWeighted(items);
console.log(w);
// CHECK: 238000
Other.prototype.weight = function () {
  return 10;
};
console.log(sumWeighted([new Other(2), new Unary(5), new Scaled(3, 3)]));
// CHECK: 12

// A throw from one of the inlined callees.
Binary.prototype.output = function () {
  if (this.a > 5) throw new Error("too big: " + this.a);
  return this.forward ? this.b : this.a;
};
for (var i = 0; i < 300; i++) total(items.slice(0, 3));
try {
  total(items);
} catch (e) {
  console.log(e.message);
}
// CHECK: too big: 6
