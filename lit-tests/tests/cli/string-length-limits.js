// Strings longer than the maximum length (2^29 - 24 units, as V8's) are a RangeError from
// every builtin that would make one, before the string is built.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines
function t(name, f) {
  try {
    f();
    print(name + ": made");
  } catch (e) {
    print(name + ": " + e.name + ": " + e.message);
  }
}
const big = "x".repeat(2 ** 28);
t("String.raw", () => String.raw({ raw: { length: 5 } }, big, big, big, big));
t("join", () => [big, big, big].join(""));
t("join separators", () => [, , , ].join(big));
t("encodeURIComponent", () => encodeURIComponent("\u00ff".repeat(2 ** 27)));
t("repeat", () => big.repeat(3));
t("concat", () => big + big + big);
print(big.length);
// CHECK: String.raw: RangeError: Invalid string length
// CHECK-NEXT: join: RangeError: Invalid string length
// CHECK-NEXT: join separators: RangeError: Invalid string length
// CHECK-NEXT: encodeURIComponent: RangeError: Invalid string length
// CHECK-NEXT: repeat: RangeError: Invalid string length
// CHECK-NEXT: concat: RangeError: Invalid string length
// CHECK-NEXT: 268435456
