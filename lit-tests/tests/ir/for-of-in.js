// IRGen: for-of uses the iterator protocol (with close on break); for-in enumerates keys.
// RUN: %iris dump --ir %s | %FileCheck %s --match-full-lines
function f(arr, obj) {
  var s = 0;
  for (const x of arr) { if (x) break; s += x; }
  for (var k in obj) s += k;
  return s;
}

// Auto-generated content below. Please do not modify manually.

// CHECK:      module "{{.*}}for-of-in.js" top_level=@0
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
// CHECK-NEXT: function @1 "f"("arr", "obj") kind=function sloppy parent=none length=2 loc=3:1 source="function f(arr, obj) {\n  var s = 0;\n  for (const x of arr) { if (x) break; s += x; }\n  for (var k in obj) s += k;\n  return s;\n}"
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = alloc_stack "arr" : any|empty
// CHECK-NEXT:   %1 = alloc_stack "obj" : any|empty
// CHECK-NEXT:   %2 = alloc_stack "s" : any|empty
// CHECK-NEXT:   %3 = alloc_stack "k" : any|empty
// CHECK-NEXT:   %4 = alloc_stack "x" : any|empty
// CHECK-NEXT:   %5 = alloc_stack "x" : any|empty
// CHECK-NEXT:   %6 = load_param #1 : any
// CHECK-NEXT:   store_stack %6, %0
// CHECK-NEXT:   %7 = load_param #2 : any
// CHECK-NEXT:   store_stack %7, %1
// CHECK-NEXT:   store_stack undefined, %2
// CHECK-NEXT:   store_stack undefined, %3
// CHECK-NEXT:   store_stack 0, %2
// CHECK-NEXT:   store_stack empty, %4
// CHECK-NEXT:   %8 = load_stack %0 : any|empty
// CHECK-NEXT:   %9 = get_iterator %8 : anyobject
// CHECK-NEXT:   branch %BB1
// CHECK-NEXT: %BB1:
// CHECK-NEXT:   %10 = iterator_next %9 : any|empty
// CHECK-NEXT:   %11 = binary_op "===" %10, empty : boolean
// CHECK-NEXT:   cond_branch %11, %BB3, %BB2
// CHECK-NEXT: %BB2:
// CHECK-NEXT:   try_start %BB4, %BB5
// CHECK-NEXT: %BB3:
// CHECK-NEXT:   %12 = load_stack %1 : any|empty
// CHECK-NEXT:   %13 = binary_op "==" %12, null : boolean
// CHECK-NEXT:   cond_branch %13, %BB9, %BB10
// CHECK-NEXT: %BB4:
// CHECK-NEXT:   store_stack empty, %5
// CHECK-NEXT:   store_stack %10, %5
// CHECK-NEXT:   %14 = load_stack %5 : any|empty
// CHECK-NEXT:   cond_branch %14, %BB6, %BB7
// CHECK-NEXT: %BB5:
// CHECK-NEXT:   %15 = catch : any
// CHECK-NEXT:   iterator_close #1 %9
// CHECK-NEXT:   throw %15
// CHECK-NEXT: %BB6:
// CHECK-NEXT:   try_end %BB8
// CHECK-NEXT: %BB7:
// CHECK-NEXT:   %16 = load_stack %2 : any|empty
// CHECK-NEXT:   %17 = load_stack %5 : any|empty
// CHECK-NEXT:   %18 = binary_op "+" %16, %17 : string|number|bigint
// CHECK-NEXT:   store_stack %18, %2
// CHECK-NEXT:   try_end %BB1
// CHECK-NEXT: %BB8:
// CHECK-NEXT:   iterator_close #0 %9
// CHECK-NEXT:   branch %BB3
// CHECK-NEXT: %BB9:
// CHECK-NEXT:   %19 = load_stack %2 : any|empty
// CHECK-NEXT:   return %19
// CHECK-NEXT: %BB10:
// CHECK-NEXT:   %20 = get_pname_list %12 : object
// CHECK-NEXT:   branch %BB11
// CHECK-NEXT: %BB11:
// CHECK-NEXT:   %21 = get_next_pname %20 : string|empty
// CHECK-NEXT:   %22 = binary_op "===" %21, empty : boolean
// CHECK-NEXT:   cond_branch %22, %BB9, %BB12
// CHECK-NEXT: %BB12:
// CHECK-NEXT:   store_stack %21, %3
// CHECK-NEXT:   %23 = load_stack %2 : any|empty
// CHECK-NEXT:   %24 = load_stack %3 : any|empty
// CHECK-NEXT:   %25 = binary_op "+" %23, %24 : string|number|bigint
// CHECK-NEXT:   store_stack %25, %2
// CHECK-NEXT:   branch %BB11
