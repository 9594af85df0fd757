// The runner's own FileCheck, exercised through real RUN lines (no iris needed).
// RUN: printf 'function f(x)\n  %%%%3 = add %%%%1, %%%%2\n\n  return %%%%3\n' | %FileCheck %s
// CHECK-LABEL: function f
// CHECK-NEXT:  %[[R:[0-9]+]] = add %{{[0-9]+}}, %2
// CHECK-NOT:   sub
// CHECK-EMPTY:
// CHECK-NEXT:  return %[[R]]
