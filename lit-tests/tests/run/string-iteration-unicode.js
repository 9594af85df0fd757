// Strings are UTF-16: length counts code units, for-of iterates code points.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

var s = "a😀b";
print(s.length, s.charCodeAt(1), s.charCodeAt(2), s.codePointAt(1));
var cps = [];
for (const c of s) cps.push(c.length);
print(cps.join());
print([..."añb"].length, "ÄÖ".toLowerCase(), "straße".toUpperCase());
print("abc" < "abd", "a" < "😀", "\uD83D" + "\uDE00" === "😀");

// CHECK: 4 55357 56832 128512
// CHECK-NEXT: 1,2,1
// CHECK-NEXT: 3 äö STRASSE
// CHECK-NEXT: true true true
