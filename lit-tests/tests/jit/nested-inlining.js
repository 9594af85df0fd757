// Small callees are inlined into callees that are inlined in turn (up to three deep): an
// exit in the innermost rebuilds every frame of the chain, and the interpreter finishes
// each call where the compiled code left it.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 0 %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 2 --gc-stress %s | %FileCheck %s --match-full-lines
// RUN: %iris --no-jit %s | %FileCheck %s --match-full-lines

function Box(v) {
  this.v = v;
}
Box.prototype.get = function () {
  return this.v;
};
Box.prototype.plus = function (n) {
  return this.get() + n;
};
Box.prototype.twice = function (n) {
  return this.plus(n) * 2;
};
function run(boxes, n) {
  let t = 0;
  for (let i = 0; i < boxes.length; i++) t += boxes[i].twice(n);
  return t;
}
let boxes = [];
for (let i = 0; i < 100; i++) boxes.push(new Box(i));
let t = 0;
for (let k = 0; k < 50; k++) t += run(boxes, k);
console.log(t);
// CHECK: 740000

// The innermost callee sees a double, a string, then a getter: each exit resumes the
// three frames.
boxes.push(new Box(0.5));
console.log(run(boxes, 1));
// CHECK: 10103
boxes.push(new Box("s"));
console.log(run(boxes, 1));
// CHECK: NaN
let g = new Box(0);
Object.defineProperty(g, "v", { get: () => 100 });
console.log(run([g, new Box(1)], 1));
// CHECK: 206

// A throw from the innermost callee's getter unwinds through all of them.
let bad = new Box(0);
Object.defineProperty(bad, "v", {
  get() {
    throw new Error("inner");
  },
});
try {
  run([new Box(1), bad], 1);
} catch (e) {
  console.log(e.message);
}
// CHECK: inner
