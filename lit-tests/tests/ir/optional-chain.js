// IRGen: optional chaining short-circuits the whole chain; ?? tests null and undefined only.
// RUN: %iris dump --ir %s | %FileCheck %s --match-full-lines
function f(o) { return o?.a.b ?? o?.m?.(); }

// Auto-generated content below. Please do not modify manually.

// CHECK:      module "{{.*}}optional-chain.js" top_level=@0
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
// CHECK-NEXT: function @1 "f"("o") kind=function sloppy parent=none length=1 loc=3:1 source="function f(o) { return o?.a.b ?? o?.m?.(); }"
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = alloc_stack "o" : any|empty
// CHECK-NEXT:   %1 = load_param #1 : any
// CHECK-NEXT:   store_stack %1, %0
// CHECK-NEXT:   %2 = load_stack %0 : any|empty
// CHECK-NEXT:   %3 = binary_op "==" %2, null : boolean
// CHECK-NEXT:   cond_branch %3, %BB1, %BB2
// CHECK-NEXT: %BB1:
// CHECK-NEXT:   branch %BB3
// CHECK-NEXT: %BB2:
// CHECK-NEXT:   %4 = load_property %2, "a" : any
// CHECK-NEXT:   %5 = load_property %4, "b" : any
// CHECK-NEXT:   branch %BB3
// CHECK-NEXT: %BB3:
// CHECK-NEXT:   %6 = phi [%5, %BB2], [undefined, %BB1] : any
// CHECK-NEXT:   %7 = binary_op "==" %6, null : boolean
// CHECK-NEXT:   cond_branch %7, %BB4, %BB5
// CHECK-NEXT: %BB4:
// CHECK-NEXT:   %8 = load_stack %0 : any|empty
// CHECK-NEXT:   %9 = binary_op "==" %8, null : boolean
// CHECK-NEXT:   cond_branch %9, %BB6, %BB7
// CHECK-NEXT: %BB5:
// CHECK-NEXT:   %10 = phi [%6, %BB3], [%14, %BB9] : any
// CHECK-NEXT:   return %10
// CHECK-NEXT: %BB6:
// CHECK-NEXT:   branch %BB9
// CHECK-NEXT: %BB7:
// CHECK-NEXT:   %11 = load_property %8, "m" : any
// CHECK-NEXT:   %12 = binary_op "==" %11, null : boolean
// CHECK-NEXT:   cond_branch %12, %BB6, %BB8
// CHECK-NEXT: %BB8:
// CHECK-NEXT:   %13 = call %11, %8 : any
// CHECK-NEXT:   branch %BB9
// CHECK-NEXT: %BB9:
// CHECK-NEXT:   %14 = phi [%13, %BB8], [undefined, %BB6] : any
// CHECK-NEXT:   branch %BB5
