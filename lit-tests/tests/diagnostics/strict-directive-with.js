// A "use strict" directive in a function makes `with` inside it an early error.
// RUN: not %iris %s 2>&1 | %FileCheck %s --match-full-lines --strict-whitespace
function f(o) {
  "use strict";
  with (o) {}
}
// CHECK: {{.*}}strict-directive-with.js:5:3: SyntaxError: {{.*}}strict mode
// CHECK-NEXT:   with (o) {}
// CHECK-NEXT:   ^
