// With -O0 the IR goes to the backend as IRGen made it.
// RUN: %iris -O0 dump --ir-opt %s | %FileCheck %s --match-full-lines
function f(a) { var t = a + 1; return t; }

// Auto-generated content below. Please do not modify manually.

// CHECK:      module "{{.*}}o0-keeps-stack.js" top_level=@0
// CHECK-EMPTY:
// CHECK-NEXT: function @0 ""() kind=toplevel sloppy parent=none length=0 loc=1:1
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = alloc_stack "%completion" : any|empty
// CHECK-NEXT:   store_stack undefined, %0
// CHECK-NEXT:   declare_globals "ff" undefined
// CHECK-NEXT:   %1 = create_closure @1:"f" undefined : closure
// CHECK-NEXT:   %2 = call_builtin #15 "f", %1 : any
// CHECK-NEXT:   %3 = load_stack %0 : any|empty
// CHECK-NEXT:   return %3
// CHECK-EMPTY:
// CHECK-NEXT: function @1 "f"("a") kind=function sloppy parent=none length=1 loc=3:1 source="function f(a) { var t = a + 1; return t; }"
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = alloc_stack "a" : any|empty
// CHECK-NEXT:   %1 = alloc_stack "t" : any|empty
// CHECK-NEXT:   %2 = load_param #1 : any
// CHECK-NEXT:   store_stack %2, %0
// CHECK-NEXT:   store_stack undefined, %1
// CHECK-NEXT:   %3 = load_stack %0 : any|empty
// CHECK-NEXT:   %4 = binary_op "+" %3, 1 : string|number|bigint
// CHECK-NEXT:   store_stack %4, %1
// CHECK-NEXT:   %5 = load_stack %1 : any|empty
// CHECK-NEXT:   return %5
