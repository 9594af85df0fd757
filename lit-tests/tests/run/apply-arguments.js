// Function.prototype.apply with an arguments object or an array: the argument list is
// read from `length` and the elements, whatever the program did to them.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 0 %s | %FileCheck %s --match-full-lines
// RUN: %iris --no-jit %s | %FileCheck %s --match-full-lines

function list() {
  return Array.prototype.slice.call(arguments).join(",") + "/" + arguments.length;
}
function forward() {
  return list.apply(null, arguments);
}
console.log(forward(1, 2, 3), forward(), forward(undefined, null));
// CHECK: 1,2,3/3 /0 ,/2

function shorter() {
  arguments.length = 1;
  return list.apply(null, arguments);
}
function longer() {
  arguments.length = 4;
  return list.apply(null, arguments);
}
function fractional() {
  arguments.length = 1.7;
  return list.apply(null, arguments);
}
function text() {
  arguments.length = "2";
  return list.apply(null, arguments);
}
function getter() {
  Object.defineProperty(arguments, "length", { get: () => 2 });
  return list.apply(null, arguments);
}
function deleted() {
  delete arguments[1];
  return list.apply(null, arguments);
}
console.log(shorter(7, 8, 9), longer(7, 8), fractional(7, 8), text(7, 8, 9), getter(7, 8, 9), deleted(7, 8, 9));
// CHECK: 7/1 7,8,,/4 7/1 7,8/2 7,8/2 7,,9/3

let holes = [1, , 3];
Array.prototype[1] = "p";
console.log(list.apply(null, holes), list.apply(null, [4, 5]), list.apply(null, { length: 2, 0: "a", 1: "b" }));
// CHECK: 1,p,3/3 4,5/2 a,b/2
delete Array.prototype[1];
