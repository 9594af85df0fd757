// Syntax that Iris does not compile yet is a clear SyntaxError at its location, not a crash.
// RUN: not %iris %s 2>&1 | %FileCheck %s
var fine = 1;
switch (fine) { case 1: using later = null; }
// CHECK: not-supported-yet.js:4:25: SyntaxError: {{.*}}not supported yet
