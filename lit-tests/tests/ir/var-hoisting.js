// IRGen: var and function declarations are hoisted; globals go through the global object.
// RUN: %iris dump --ir %s | %FileCheck %s --match-full-lines
print(f(), v);
var v = 1;
function f() { return typeof v; }

// Auto-generated content below. Please do not modify manually.

// CHECK:      module "{{.*}}var-hoisting.js" top_level=@0
// CHECK-EMPTY:
// CHECK-NEXT: function @0 ""() kind=toplevel sloppy parent=none length=0 loc=1:1
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = alloc_stack "%completion" : any|empty
// CHECK-NEXT:   store_stack undefined, %0
// CHECK-NEXT:   declare_globals "ff vv" undefined
// CHECK-NEXT:   %1 = create_closure @1:"f" undefined : closure
// CHECK-NEXT:   %2 = call_builtin #15 "f", %1 : any
// CHECK-NEXT:   %3 = call_builtin #14 "v" : any
// CHECK-NEXT:   %4 = try_load_global "print" : any
// CHECK-NEXT:   %5 = try_load_global "f" : any
// CHECK-NEXT:   %6 = call %5, undefined : any
// CHECK-NEXT:   %7 = try_load_global "v" : any
// CHECK-NEXT:   %8 = call %4, undefined, %6, %7 : any
// CHECK-NEXT:   store_stack %8, %0
// CHECK-NEXT:   store_global "v" 1
// CHECK-NEXT:   %9 = load_stack %0 : any|empty
// CHECK-NEXT:   return %9
// CHECK-EMPTY:
// CHECK-NEXT: function @1 "f"() kind=function sloppy parent=none length=0 loc=5:1 source="function f() { return typeof v; }"
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = load_global "v" : any
// CHECK-NEXT:   %1 = unary_op "typeof" %0 : string
// CHECK-NEXT:   return %1
