// console.log and print format primitives like node.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

console.log("str", 1, -0, 1.5, true, null, undefined, NaN, -Infinity);
console.log(12345678901234567890, 0.000001, 1e-7, "");
print("print", "joins", "with", "spaces");
console.log();
print(2 ** 31, -(2 ** 31), 4294967296);

// CHECK: str 1 -0 1.5 true null undefined NaN -Infinity
// CHECK-NEXT: 12345678901234567000 0.000001 1e-7 
// CHECK-NEXT: print joins with spaces
// CHECK-EMPTY:
// CHECK-NEXT: 2147483648 -2147483648 4294967296
