// `break` to a label that does not enclose it is an early error.
// RUN: not %iris %s 2>&1 | %FileCheck %s --match-full-lines --strict-whitespace
outer: for (;;) { break outer; }
for (let i of []) { break missing; }
// CHECK: {{.*}}undefined-label.js:4:21: SyntaxError: {{.*}}label{{.*}}
// CHECK-NEXT: for (let i of []) { break missing; }
// CHECK-NEXT:                     ^
