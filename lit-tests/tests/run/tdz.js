// let/const are in the temporal dead zone until their declaration runs.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

function readBefore() {
  try {
    x;
  } catch (e) {
    print(e instanceof ReferenceError, e.name);
  }
  let x = 1;
  return x;
}
print(readBefore());
function assignConst() {
  const c = 1;
  try {
    c = 2;
  } catch (e) {
    print(e.name);
  }
  return c;
}
print(assignConst());
{
  function inner() { return y; }
  let threw = false;
  try { inner(); } catch (e) { threw = e instanceof ReferenceError; }
  let y = 5;
  print(threw, inner());
}

// CHECK: true ReferenceError
// CHECK-NEXT: 1
// CHECK-NEXT: TypeError
// CHECK-NEXT: 1
// CHECK-NEXT: true 5
