// A syntax error is reported at its line and column with the source line and a caret, on
// stderr, with exit status 1 and nothing run.
// RUN: not %iris %s 2>&1 | %FileCheck %s --match-full-lines --strict-whitespace
print("never printed");
var a = 1;
var b = a +;
// CHECK-NOT: never printed
// CHECK: {{.*}}unexpected-token.js:6:12: SyntaxError: Expression expected
// CHECK-NEXT: var b = a +;
// CHECK-NEXT:            ^
