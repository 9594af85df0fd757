// Equality, relational comparison and their coercions.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

print(1 == "1", 0 == "", null == undefined, null == 0, NaN == NaN, "0" == false, [] == "", [1] == 1);
print(1 === "1", null === null, undefined === void 0, NaN !== NaN);
print("a" < "b", "B" < "a", "10" < "9", 10 < 9, "10" < 9, null >= 0, undefined > 0, undefined == 0);
var obj = { valueOf: function () { return 42; } };
print(obj == 42, obj > 41, obj + 1, `${obj}`);
var str = { toString: function () { return "str"; } };
print(str + "!", str == "str");
print(typeof 1, typeof "s", typeof true, typeof undefined, typeof null, typeof {}, typeof [], typeof function () {}, typeof undeclaredVariable);

// CHECK: true true true false false true true true
// CHECK-NEXT: false true true true
// CHECK-NEXT: true true true false false true false false
// CHECK-NEXT: true true 43 [object Object]
// CHECK-NEXT: str! true
// CHECK-NEXT: number string boolean undefined object object object function undefined
