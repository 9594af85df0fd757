// Number formatting: shortest round trip, radix, toFixed, parsing.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

print(0.1, 1e21, 1e-7, 123456789012345680000, -0, 5e-324, 1.7976931348623157e308, 100, 1.5e300 * 1e10);
print((255).toString(16), (255).toString(2), (-255).toString(36), (0.5).toString(2), (3.75).toString(8));
print((1.005).toFixed(2), (1234.5678).toFixed(1), (0).toFixed(2), (-1.5).toFixed(0), (1e21).toFixed(2));
print(parseInt("42px"), parseInt("0x10"), parseInt("101", 2), parseInt("  -7"), parseInt("z"), parseFloat("3.14abc"), parseFloat(".5e1"));
print(isNaN("abc"), isNaN("12"), isFinite("1e3"), isFinite(Infinity), Number("  12  "), Number("1_000"));
print(Number("0b101"), Number(""), Number(null), Number([]), Number("-Infinity"), (25).toString(36));
print(0.1 * 3, 1 / 3, 2 / 3, 1e21 + 1, 123e-20, 2 ** 53 + 1);

// CHECK: 0.1 1e+21 1e-7 123456789012345680000 -0 5e-324 1.7976931348623157e+308 100 Infinity
// CHECK-NEXT: ff 11111111 -73 0.1 3.6
// CHECK-NEXT: 1.00 1234.6 0.00 -2 1e+21
// CHECK-NEXT: 42 16 5 -7 NaN 3.14 5
// CHECK-NEXT: true false true false 12 NaN
// CHECK-NEXT: 5 0 0 0 -Infinity p
// CHECK-NEXT: 0.30000000000000004 0.3333333333333333 0.6666666666666666 1e+21 1.23e-18 9007199254740992
