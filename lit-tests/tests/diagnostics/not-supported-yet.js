// Syntax that Iris does not compile yet is a clear SyntaxError at its location, not a crash.
// RUN: not %iris %s 2>&1 | %FileCheck %s
function logged(value) { return value; }
class Counter { @logged count = 0; }
// CHECK: not-supported-yet.js:4:17: SyntaxError: decorator is not supported yet
