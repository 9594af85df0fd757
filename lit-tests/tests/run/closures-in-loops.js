// Closures capturing loop variables, block variables and parameters.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

function capture() {
  var out = [];
  for (let i = 0; i < 3; i++) {
    let j = i * 2;
    out.push(function () { return i + ":" + j; });
  }
  return out.map(function (f) { return f(); }).join(" ");
}
print(capture());
function makeAccumulators(n) {
  var acc = [];
  while (n > 0) {
    let local = n;
    acc.push(() => local += 100);
    n--;
  }
  return acc;
}
var accs = makeAccumulators(2);
print(accs[0](), accs[0](), accs[1]());
function paramCapture(p) { return function () { return p++; }; }
var pc = paramCapture(5);
print(pc(), pc(), pc());

// CHECK: 0:0 1:2 2:4
// CHECK-NEXT: 102 202 101
// CHECK-NEXT: 5 6 7
