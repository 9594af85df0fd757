// A chain of operators longer than scope analysis takes (3,000 levels; the pre-scan's
// bracket limit is not reached) is a SyntaxError at the expression it gives up in.
// RUN: { printf 'var x = 1;\nvar s = x'; for i in $(seq 5000); do printf '+x'; done; printf ';\n'; } > %t.js
// RUN: not %iris %t.js 2>&1 | %FileCheck %s --match-full-lines
// CHECK: {{.*}}.js:2:9: SyntaxError: the program is nested too deeply
