// Strict code may not assign to a call or give a for-in `var` an initializer (Annex B allows
// both in sloppy code only): early SyntaxErrors at the call and at the declaration.
// RUN: not %iris %s 2>&1 | %FileCheck %s
function f() {}
function g() { 'use strict'; f() = 1; }
// CHECK: call-assignment-target.js:5:30: SyntaxError: Invalid left-hand side in assignment
function h(o) { 'use strict'; for (var k = 0 in o); }
// CHECK: call-assignment-target.js:7:40: SyntaxError: for-in loop variable declaration may not have an initializer
