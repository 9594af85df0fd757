// A source file nested past the limit is a SyntaxError at the line and column where it
// passes it (before the parser could overflow its stack), showing the part of the line near
// the column.
// RUN: { printf 'var ok = 1;\nvar x = '; head -c 100000 /dev/zero | tr '\0' '('; printf 1; head -c 100000 /dev/zero | tr '\0' ')'; printf ';\n'; } > %t.js
// RUN: not %iris %t.js 2>&1 | %FileCheck %s --match-full-lines --strict-whitespace
// CHECK: {{.*}}.js:2:9008: SyntaxError: the program is nested too deeply
// CHECK-NEXT: ...((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((...
// CHECK-NEXT:                                                                                    ^
