// Array literals in compiled code store their elements straight into the slots the new
// array has for them: holes stay holes, setters on the prototype chain are not called
// (literals define their elements), and an exit while an element is computed leaves the
// half-made literal to the interpreter.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 0 %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 2 --gc-stress %s | %FileCheck %s --match-full-lines
// RUN: %iris --no-jit %s | %FileCheck %s --match-full-lines

function make(x, f) {
  return [x, [x + 1, x + 2], , f(x), "s" + x];
}
let last;
for (let i = 0; i < 300; i++) last = make(i, (v) => v * 2);
console.log(JSON.stringify(last), last.length, 2 in last);
// CHECK: [299,[300,301],null,598,"s299"] 5 false

Object.defineProperty(Array.prototype, 0, {
  set() {
    throw new Error("setter called");
  },
  configurable: true,
});
console.log(JSON.stringify(make(1, (v) => v)));
// CHECK: [1,[2,3],null,1,"s1"]
delete Array.prototype[0];

// The element computation leaves compiled code (a double where ints were seen) and
// throws.
console.log(JSON.stringify(make(0.5, (v) => v)));
// CHECK: [0.5,[1.5,2.5],null,0.5,"s0.5"]
try {
  make(1, () => {
    throw new Error("in element");
  });
} catch (e) {
  console.log(e.message);
}
// CHECK: in element
