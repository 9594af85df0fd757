// IRGen: switch with fallthrough and default in the middle.
// RUN: %iris dump --ir %s | %FileCheck %s --match-full-lines
function f(x) {
  var r = 0;
  switch (x) {
    case 1: r = 1;
    default: r += 10; break;
    case 2: r = 2;
  }
  return r;
}

// Auto-generated content below. Please do not modify manually.

// CHECK:      module "{{.*}}switch.js" top_level=@0
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
// CHECK-NEXT: function @1 "f"("x") kind=function sloppy parent=none length=1 loc=3:1 source="function f(x) {\n  var r = 0;\n  switch (x) {\n    case 1: r = 1;\n    default: r += 10; break;\n    case 2: r = 2;\n  }\n  return r;\n}"
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = alloc_stack "x" : any|empty
// CHECK-NEXT:   %1 = alloc_stack "r" : any|empty
// CHECK-NEXT:   %2 = load_param #1 : any
// CHECK-NEXT:   store_stack %2, %0
// CHECK-NEXT:   store_stack undefined, %1
// CHECK-NEXT:   store_stack 0, %1
// CHECK-NEXT:   %3 = load_stack %0 : any|empty
// CHECK-NEXT:   %4 = binary_op "===" %3, 1 : boolean
// CHECK-NEXT:   cond_branch %4, %BB2, %BB5
// CHECK-NEXT: %BB1:
// CHECK-NEXT:   %5 = load_stack %1 : any|empty
// CHECK-NEXT:   return %5
// CHECK-NEXT: %BB2:
// CHECK-NEXT:   store_stack 1, %1
// CHECK-NEXT:   branch %BB3
// CHECK-NEXT: %BB3:
// CHECK-NEXT:   %6 = load_stack %1 : any|empty
// CHECK-NEXT:   %7 = binary_op "+" %6, 10 : string|number|bigint
// CHECK-NEXT:   store_stack %7, %1
// CHECK-NEXT:   branch %BB1
// CHECK-NEXT: %BB4:
// CHECK-NEXT:   store_stack 2, %1
// CHECK-NEXT:   branch %BB1
// CHECK-NEXT: %BB5:
// CHECK-NEXT:   %8 = binary_op "===" %3, 2 : boolean
// CHECK-NEXT:   cond_branch %8, %BB4, %BB6
// CHECK-NEXT: %BB6:
// CHECK-NEXT:   branch %BB3
