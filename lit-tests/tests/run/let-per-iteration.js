// Each iteration of a `for (let ...)` loop has its own binding.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

var fs = [];
for (let i = 0; i < 4; i++) {
  fs.push(() => i * 10);
}
print(fs.map(f => f()).join(" "));
let gs = [];
for (let j = 0; j < 3; j++) {
  gs.push(() => j);
  j++;
}
print(gs.map(g => g()).join(" "));
const obj = { a: 1, b: 2, c: 3 };
let hs = [];
for (const k in obj) hs.push(() => k);
print(hs.map(h => h()).join(""));

// CHECK: 0 10 20 30
// CHECK-NEXT: 1 3
// CHECK-NEXT: abc
