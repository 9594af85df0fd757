// `f.apply(x, arguments)` in a function that uses its arguments object for nothing else:
// compiled code forwards the frame's arguments without making the object, and makes it
// when it is needed after all (the callee is not Function.prototype.apply, or the code
// leaves before the call).
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 0 %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 2 --gc-stress %s | %FileCheck %s --match-full-lines
// RUN: %iris --no-jit %s | %FileCheck %s --match-full-lines

function Point() {
  this.init.apply(this, arguments);
}
Point.prototype.init = function (x, y) {
  this.x = x;
  this.y = y === undefined ? -1 : y;
};
let s = 0;
for (let i = 0; i < 300; i++) {
  let p = new Point(i, i + 1);
  s += p.x + p.y;
}
console.log(s, JSON.stringify(new Point(7)), JSON.stringify(new Point(1, 2, 3)));
// CHECK: 90000 {"x":7,"y":-1} {"x":1,"y":2}

// The read of `this.init` leaves (a new shape): the interpreter gets the object.
let q = Object.create(Point.prototype);
q.extra = true;
Point.call(q, 4, 5);
console.log(q.x, q.y);
// CHECK: 4 5

// A callee that is not apply gets the arguments object itself.
Point.prototype.init = {
  apply(self, args) {
    self.x = args.length;
    self.y = Array.prototype.join.call(args, "+");
  },
};
console.log(JSON.stringify(new Point(1, 2, 3)));
// CHECK: {"x":3,"y":"1+2+3"}

// apply of something that is not callable throws a TypeError.
Point.prototype.init = { apply: Function.prototype.apply };
try {
  new Point(1);
} catch (e) {
  console.log(e instanceof TypeError);
}
// CHECK: true
