// A property write that adds a property moves the object to the next shape in compiled
// code, unless the object may not get it: not extensible (frozen, sealed), or a
// prototype that has since got a setter for the name.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris --jit-threshold 3 %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 0 %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 3 --gc-stress %s | %FileCheck %s --match-full-lines

function Point(x, y) {
  this.x = x;
  this.y = y;
}
function init(o, v) {
  o.a = v;
  o.b = v + 1;
  return o;
}
let sum = 0;
for (let i = 0; i < 100; i++) {
  const p = new Point(i, 2 * i);
  sum += p.x + p.y;
  sum += init({}, i).b;
}
console.log(sum);
const frozen = Object.freeze({});
console.log(JSON.stringify(init(frozen, 1)), Object.isExtensible(frozen));
let seen = [];
Object.defineProperty(Object.prototype, "b", {
  set(v) { seen.push(v); },
  configurable: true,
});
const o = init({}, 41);
console.log(JSON.stringify(o), seen.join(","), Object.keys(o).join(","));
delete Object.prototype.b;
console.log(JSON.stringify(init({}, 7)));

// CHECK: 19900
// CHECK-NEXT: {} false
// CHECK-NEXT: {"a":41} 42 a
// CHECK-NEXT: {"a":7,"b":8}
