// IRGen: array and object destructuring with defaults and rest.
// RUN: %iris dump --ir %s | %FileCheck %s --match-full-lines
function f([a, b = 2], { c, ...rest }) { return a + b + c + rest.d; }

// Auto-generated content below. Please do not modify manually.

// CHECK:      module "{{.*}}destructuring.js" top_level=@0
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
// CHECK-NEXT: function @1 "f"("[a, b = 2]", "{ c, ...rest }") kind=function sloppy parent=none length=2 loc=3:1 source="function f([a, b = 2], { c, ...rest }) { return a + b + c + rest.d; }"
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = alloc_stack "a" : any|empty
// CHECK-NEXT:   %1 = alloc_stack "b" : any|empty
// CHECK-NEXT:   %2 = alloc_stack "c" : any|empty
// CHECK-NEXT:   %3 = alloc_stack "rest" : any|empty
// CHECK-NEXT:   %4 = alloc_stack "%done" : any|empty
// CHECK-NEXT:   store_stack empty, %0
// CHECK-NEXT:   store_stack empty, %1
// CHECK-NEXT:   store_stack empty, %2
// CHECK-NEXT:   store_stack empty, %3
// CHECK-NEXT:   %5 = load_param #1 : any
// CHECK-NEXT:   %6 = get_iterator %5 : anyobject
// CHECK-NEXT:   store_stack false, %4
// CHECK-NEXT:   try_start %BB2, %BB1
// CHECK-NEXT: %BB1:
// CHECK-NEXT:   %7 = catch : any
// CHECK-NEXT:   %8 = load_stack %4 : any|empty
// CHECK-NEXT:   cond_branch %8, %BB13, %BB12
// CHECK-NEXT: %BB2:
// CHECK-NEXT:   %9 = load_stack %4 : any|empty
// CHECK-NEXT:   cond_branch %9, %BB5, %BB3
// CHECK-NEXT: %BB3:
// CHECK-NEXT:   store_stack true, %4
// CHECK-NEXT:   %10 = iterator_next %6 : any|empty
// CHECK-NEXT:   %11 = binary_op "===" %10, empty : boolean
// CHECK-NEXT:   cond_branch %11, %BB5, %BB4
// CHECK-NEXT: %BB4:
// CHECK-NEXT:   store_stack false, %4
// CHECK-NEXT:   branch %BB5
// CHECK-NEXT: %BB5:
// CHECK-NEXT:   %12 = phi [undefined, %BB2], [undefined, %BB3], [%10, %BB4] : any|empty
// CHECK-NEXT:   store_stack %12, %0
// CHECK-NEXT:   %13 = load_stack %4 : any|empty
// CHECK-NEXT:   cond_branch %13, %BB8, %BB6
// CHECK-NEXT: %BB6:
// CHECK-NEXT:   store_stack true, %4
// CHECK-NEXT:   %14 = iterator_next %6 : any|empty
// CHECK-NEXT:   %15 = binary_op "===" %14, empty : boolean
// CHECK-NEXT:   cond_branch %15, %BB8, %BB7
// CHECK-NEXT: %BB7:
// CHECK-NEXT:   store_stack false, %4
// CHECK-NEXT:   branch %BB8
// CHECK-NEXT: %BB8:
// CHECK-NEXT:   %16 = phi [undefined, %BB5], [undefined, %BB6], [%14, %BB7] : any|empty
// CHECK-NEXT:   %17 = binary_op "===" %16, undefined : boolean
// CHECK-NEXT:   cond_branch %17, %BB9, %BB10
// CHECK-NEXT: %BB9:
// CHECK-NEXT:   branch %BB10
// CHECK-NEXT: %BB10:
// CHECK-NEXT:   %18 = phi [%16, %BB8], [2, %BB9] : any|empty
// CHECK-NEXT:   store_stack %18, %1
// CHECK-NEXT:   try_end %BB11
// CHECK-NEXT: %BB11:
// CHECK-NEXT:   %19 = load_stack %4 : any|empty
// CHECK-NEXT:   cond_branch %19, %BB15, %BB14
// CHECK-NEXT: %BB12:
// CHECK-NEXT:   iterator_close #1 %6
// CHECK-NEXT:   throw %7
// CHECK-NEXT: %BB13:
// CHECK-NEXT:   throw %7
// CHECK-NEXT: %BB14:
// CHECK-NEXT:   iterator_close #0 %6
// CHECK-NEXT:   branch %BB15
// CHECK-NEXT: %BB15:
// CHECK-NEXT:   %20 = load_param #2 : any
// CHECK-NEXT:   %21 = call_builtin #9 %20, "Cannot destructure 'undefined' or 'null'." : any
// CHECK-NEXT:   %22 = load_property %20, "c" : any
// CHECK-NEXT:   store_stack %22, %2
// CHECK-NEXT:   %23 = alloc_object : object
// CHECK-NEXT:   %24 = call_builtin #0 %23, %20, "c" : any
// CHECK-NEXT:   store_stack %24, %3
// CHECK-NEXT:   %25 = load_stack %0 : any|empty
// CHECK-NEXT:   %26 = load_stack %1 : any|empty
// CHECK-NEXT:   %27 = binary_op "+" %25, %26 : string|number|bigint
// CHECK-NEXT:   %28 = load_stack %2 : any|empty
// CHECK-NEXT:   %29 = binary_op "+" %27, %28 : string|number|bigint
// CHECK-NEXT:   %30 = load_stack %3 : any|empty
// CHECK-NEXT:   %31 = load_property %30, "d" : any
// CHECK-NEXT:   %32 = binary_op "+" %29, %31 : string|number|bigint
// CHECK-NEXT:   return %32
