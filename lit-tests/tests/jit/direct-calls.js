// Calls from compiled code to compiled code push the callee's frame and enter its code
// without the VM (`native::CallPath`): results, exits and throws inside the callee, deep
// recursion, missing and extra arguments, `this`, and stack traces come out as in the
// interpreter. Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// (No --gc-stress line: 40,000 frames each collecting is minutes under qemu; the CI runs
// every lit program under --gc-stress on x86-64.)
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 0 %s | %FileCheck %s --match-full-lines
// RUN: %iris --no-jit %s | %FileCheck %s --match-full-lines

function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}
console.log(fib(25));
// CHECK: 75025

// A callee whose code leaves (its int32 speculation fails) and one that throws, called
// from a loop in compiled code; the caller goes on with the value the interpreter made.
function add(a, b) {
  return a + b;
}
function sums(xs) {
  let t = 0;
  for (let i = 0; i < xs.length; i++) t = add(t, xs[i]);
  return t;
}
let ints = [];
for (let i = 0; i < 500; i++) ints.push(i);
console.log(sums(ints), sums([1, 2.5, 3]), sums(["a", 1, 2]));
// CHECK: 124750 6.5 0a12

function check(x) {
  if (x > 400) throw new RangeError("too big: " + x);
  return x;
}
function guarded(n) {
  let seen = 0;
  for (let i = 0; i < n; i++) {
    try {
      seen += check(i);
    } catch (e) {
      return seen + " " + e.message;
    }
  }
  return seen;
}
console.log(guarded(300), guarded(1000));
// CHECK: 44850 80200 too big: 401

// Deep recursion ends in a RangeError the program can catch, wherever it happens.
function depth(n) {
  return n === 0 ? 0 : 1 + depth(n - 1);
}
for (let i = 0; i < 100; i++) depth(10);
let tooDeep;
try {
  depth(1e7);
} catch (e) {
  tooDeep = e instanceof RangeError;
}
console.log(tooDeep, depth(1000));
// CHECK: true 1000

// Fewer arguments than parameters, more, `arguments`, and `this`.
function three(a, b, c) {
  return [a, b, c, arguments.length].join("/");
}
function counter() {
  return this.count++;
}
let o = { count: 0, counter };
let out = [];
for (let i = 0; i < 300; i++) {
  out[0] = three(i);
  out[1] = three(i, 1, 2, 3);
  out[2] = o.counter();
}
console.log(out.join(" | "));
// CHECK: 299///1 | 299/1/2/4 | 299

// A stack trace names each function of a chain of compiled calls.
function inner() {
  return new Error("here").stack;
}
function middle() {
  return inner();
}
function outer() {
  return middle();
}
let stack;
for (let i = 0; i < 300; i++) stack = outer();
console.log(
  stack
    .split("\n")
    .slice(1, 4)
    .map((l) => l.trim().split(" ")[1])
    .join(" < "),
);
// CHECK: inner < middle < outer
