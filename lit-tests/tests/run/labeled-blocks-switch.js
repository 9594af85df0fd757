// Lexical declarations in switch cases and blocks get their own scope.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

function pick(k) {
  switch (k) {
    case 0: { let msg = "zero"; return msg; }
    case 1: let msg = "one"; return msg;
    default: return "other";
  }
}
print(pick(0), pick(1), pick(2));
let shadow = "outer";
{
  let shadow = "inner";
  print(shadow);
}
print(shadow);
function fnInBlock() {
  var r = [];
  {
    function hoistedInBlock() { return "block fn"; }
    r.push(hoistedInBlock());
  }
  return r.join();
}
print(fnInBlock());

// CHECK: zero one other
// CHECK-NEXT: inner
// CHECK-NEXT: outer
// CHECK-NEXT: block fn
