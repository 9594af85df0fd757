// try/catch/finally, including return and break through finally.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

function f1() {
  try { return "try"; } finally { print("finally runs"); }
}
print(f1());
function f2() {
  try { throw new Error("boom"); } catch (e) { return "caught " + e.message; } finally { print("f2 finally"); }
}
print(f2());
function f3() {
  try { return 1; } finally { return 2; }
}
print(f3());
function f4() {
  var log = [];
  for (var i = 0; i < 3; i++) {
    try {
      if (i === 1) continue;
      if (i === 2) break;
      log.push("body" + i);
    } finally {
      log.push("fin" + i);
    }
  }
  return log.join(",");
}
print(f4());
function f5() {
  try {
    try { throw 1; } finally { print("inner finally"); }
  } catch (e) {
    return "outer caught " + e;
  }
}
print(f5());
try { null.x; } catch ({ name, message }) { print(name); }
try { throw { code: 7 }; } catch (e) { print(e.code); }
try { undefinedFunction(); } catch { print("optional binding"); }

// CHECK: finally runs
// CHECK-NEXT: try
// CHECK-NEXT: f2 finally
// CHECK-NEXT: caught boom
// CHECK-NEXT: 2
// CHECK-NEXT: body0,fin0,fin1,fin2
// CHECK-NEXT: inner finally
// CHECK-NEXT: outer caught 1
// CHECK-NEXT: TypeError
// CHECK-NEXT: 7
// CHECK-NEXT: optional binding
