// Arithmetic operators with ECMAScript semantics.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

print(1 + 2, "1" + 2, 1 + "2", 3 - "1", "6" / "2", 7 % 3, -7 % 3, 2 ** 10, 2 ** -1);
print(0.1 + 0.2, 1 / 0, -1 / 0, 0 / 0, 1 / -0);
print(5 & 3, 5 | 3, 5 ^ 3, ~5, 1 << 31, -1 >> 1, -1 >>> 28);
print(+"", +" 42 ", +"0x1f", +"1e3", +"abc", +[], +[5], +true, +null, +undefined);
var i = 5;
print(i++, i, ++i, i--, --i);
var s = "a";
s += "b"; s += 1;
var n = 10;
n -= 3; n *= 2; n /= 7; n **= 3; n %= 5; n <<= 3; n >>= 1; n >>>= 0; n |= 1; n &= 7; n ^= 2;
print(s, n);
print(2 ** 3 ** 2, (-2) ** 2, 10 / 3);

// CHECK: 3 12 12 2 3 1 -1 1024 0.5
// CHECK-NEXT: 0.30000000000000004 Infinity -Infinity NaN -Infinity
// CHECK-NEXT: 1 7 6 -6 -2147483648 -1 15
// CHECK-NEXT: 0 42 31 1000 NaN 0 5 1 0 NaN
// CHECK-NEXT: 5 6 7 7 5
// CHECK-NEXT: ab1 7
// CHECK-NEXT: 512 4 3.3333333333333335
