// An unterminated string literal points at its opening quote.
// RUN: not %iris %s 2>&1 | %FileCheck %s --match-full-lines --strict-whitespace
var ok = "fine";
var s = "abc
// CHECK: {{.*}}unterminated-string.js:4:9: SyntaxError: Unterminated string constant
// CHECK-NEXT: var s = "abc
// CHECK-NEXT:         ^
