// A `using` declaration directly in a case clause is a SyntaxError (it would have no block
// to be disposed of at the end of); in a block inside the clause it is fine.
// RUN: not %iris %s 2>&1 | %FileCheck %s
switch (0) {
  case 0: { using fine = null; }
  default: using x = null;
}
// CHECK: using-in-case-clause.js:6:12: SyntaxError: `using` declarations are not allowed directly in a case clause
