// Small callees that one call site always calls are compiled into their caller: the call
// checks that the callee is a closure of that function (else it leaves and the interpreter
// calls), and runs its code on the arguments. Where the inlined code needs the VM or a
// speculation fails, it leaves with both frames rebuilt: the callee's frame resumes in the
// interpreter where it left (what it did before is not done again), and returns to the
// caller's frame, which goes on after the call.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 0 %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 3 %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 3 --gc-stress %s | %FileCheck %s --match-full-lines
// RUN: %iris --no-jit %s | %FileCheck %s --match-full-lines

function Counter() {
  this.count = 0;
  this.step = 1;
}
Counter.prototype.bump = function (by) {
  this.count = this.count + this.step;
  return this.count * by;
};
Counter.prototype.isBig = function () {
  return this.count > 1000 || this.count < -1000;
};
function run(c, n, by) {
  let total = 0;
  for (let i = 0; i < n; i++) {
    total += c.bump(by);
    if (c.isBig()) total -= 1;
  }
  return total;
}
const c = new Counter();
console.log(run(c, 500, 2), c.count);
// CHECK: 250500 500

// A double where the callee saw int32s: the multiplication in the inlined `bump` leaves
// after the count was stored; the interpreter finishes `bump` once.
console.log(run(c, 3, 0.5), c.count);
// CHECK: 753 503

// An overflow inside the callee, and a count past 1000 (the other side of the ||).
c.step = 2 ** 30;
console.log(run(c, 3, 1), c.count);
c.step = 1;
console.log(run(c, 2, 1), c.count);
// CHECK: 6442452450 3221225975
// CHECK: 6442451951 3221225977

// Another function at the same call site: the guard leaves, the interpreter calls it.
const other = { bump: (by) => by * 100, isBig: () => false };
console.log(run(other, 3, 1));
// CHECK: 300

// A new shape of `this` inside the inlined callee.
const odd = new Counter();
odd.extra = true;
console.log(run(odd, 4, 1), odd.count);
// CHECK: 10 4

// Fewer arguments than parameters; the callee's `this` from a plain call (sloppy: the
// global object, which the inlined code leaves for).
function pair(a, b) {
  return a + "/" + b;
}
function whoIsThis() {
  return typeof this;
}
function callsPair(x) {
  return pair(x) + " " + pair(x, x) + " " + whoIsThis();
}
let s = "";
for (let i = 0; i < 300; i++) s = callsPair(i);
console.log(s);
// CHECK: 299/undefined 299/299 object

// An error inside a rebuilt frame is thrown from the callee, through the caller.
function getName(o) {
  return o.name;
}
function names(list) {
  let out = "";
  for (let i = 0; i < list.length; i++) out += getName(list[i]);
  return out;
}
const list = [];
for (let i = 0; i < 300; i++) list.push({ name: "n" });
console.log(names(list).length);
list.push(null);
try {
  names(list);
} catch (e) {
  console.log(e instanceof TypeError);
}
// CHECK: 300
// CHECK: true
