// Redeclaring a lexical binding is an early error at the second declaration's name.
// RUN: not %iris %s 2>&1 | %FileCheck %s --match-full-lines --strict-whitespace
let x = 1;
let x = 2;
// CHECK: {{.*}}redeclared-let.js:4:5: SyntaxError: Identifier 'x' has already been declared
// CHECK-NEXT: let x = 2;
// CHECK-NEXT:     ^
