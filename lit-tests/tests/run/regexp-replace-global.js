// A global replace with a string replacement replaces each match as it is found (no list of
// match results, so a long subject takes no memory per match); with a function, a user exec,
// named groups or `$<`, results are still collected and replaced in order.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 0 %s | %FileCheck %s --match-full-lines
const r = "a".repeat(1e6).replace(/a/g, "bb");
print(r.length, r.slice(0, 6));
print("x-y-z".replace(/-/g, "$&$&"), "abc".replace(/(b)/, "[$1$`$']"), "aaa".replace(/a*?/g, "-"));
print("a1b2".replace(/\d/g, (m, p) => "<" + m + p + ">"), "abc".replace(/(?<n>b)/, "[$<n>]"));
print("abcb".replace(/(b)/g, "$<x>$1$$"), "\u{1F600}x".replace(/(?:)/gu, "."));
const re = /o/g;
re.exec = function () { return null; };
print("foo".replace(re, "0"));
let calls = 0;
const counted = /o/g;
counted.exec = function (s) {
  calls++;
  return RegExp.prototype.exec.call(this, s);
};
print("foo".replace(counted, "0"), calls);
const sticky = /a/y;
sticky.lastIndex = 1;
print("aab".replace(sticky, "X"), sticky.lastIndex);
// CHECK: 2000000 bbbbbb
// CHECK-NEXT: x--y--z a[bac]c -a-a-a-
// CHECK-NEXT: a<11>b<23> a[b]c
// CHECK-NEXT: a$<x>b$c$<x>b$ .😀.x.
// CHECK-NEXT: foo
// CHECK-NEXT: f00 3
// CHECK-NEXT: aXb 2
