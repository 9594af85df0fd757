// --time-passes prints, on stderr at exit, each compiler phase with its time and the memory
// held after it, the optimizer passes and backend stages indented under their phase (with
// --eager: every function compiled before the program runs).
// NODE-SKIP: an iris option
// RUN: %iris --eager --time-passes %s 2>&1 >/dev/null | %FileCheck %s
function add(a, b) { return a + b; }
print(add(1, 2));
// CHECK: phase {{ +}}seconds {{ +}}calls {{ +}}rss after
// CHECK-NEXT: {{^  }}line table, nesting check {{ +}}{{[0-9.]+}} {{ +}}1
// CHECK-NEXT: parse {{ +}}{{[0-9.]+}} {{ +}}1 {{.*}}
// CHECK-NEXT: scope analysis {{ +}}{{[0-9.]+}} {{ +}}1
// CHECK-NEXT: irgen {{ +}}{{[0-9.]+}} {{ +}}1
// CHECK-NEXT: free the syntax tree
// CHECK: {{^  }}mem2reg {{ +}}{{[0-9.]+}} {{ +}}2
// CHECK: optimize {{ +}}{{[0-9.]+}} {{ +}}1
// CHECK-NEXT: {{^  }}lower {{ +}}{{[0-9.]+}} {{ +}}2
// CHECK-NEXT: {{^  }}regalloc
// CHECK-NEXT: {{^  }}emit
// CHECK-NEXT: {{^  }}write the bundle
// CHECK-NEXT: backend
// CHECK-NEXT: run
