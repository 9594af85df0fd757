// IRGen: try/catch/finally with return through finally (try_start, try_end, catch).
// RUN: %iris dump --ir %s | %FileCheck %s --match-full-lines
function f(g) {
  try {
    return g();
  } catch (e) {
    return -1;
  } finally {
    g();
  }
}

// Auto-generated content below. Please do not modify manually.

// CHECK:      module "{{.*}}try-finally.js" top_level=@0
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
// CHECK-NEXT: function @1 "f"("g") kind=function sloppy parent=none length=1 loc=3:1 source="function f(g) {\n  try {\n    return g();\n  } catch (e) {\n    return -1;\n  } finally {\n    g();\n  }\n}"
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = alloc_stack "g" : any|empty
// CHECK-NEXT:   %1 = alloc_stack "e" : any|empty
// CHECK-NEXT:   %2 = load_param #1 : any
// CHECK-NEXT:   store_stack %2, %0
// CHECK-NEXT:   try_start %BB1, %BB2
// CHECK-NEXT: %BB1:
// CHECK-NEXT:   try_start %BB3, %BB4
// CHECK-NEXT: %BB2:
// CHECK-NEXT:   %3 = catch : any
// CHECK-NEXT:   %4 = load_stack %0 : any|empty
// CHECK-NEXT:   %5 = call %4, undefined : any
// CHECK-NEXT:   throw %3
// CHECK-NEXT: %BB3:
// CHECK-NEXT:   %6 = load_stack %0 : any|empty
// CHECK-NEXT:   %7 = call %6, undefined : any
// CHECK-NEXT:   try_end %BB5
// CHECK-NEXT: %BB4:
// CHECK-NEXT:   %8 = catch : any
// CHECK-NEXT:   store_stack %8, %1
// CHECK-NEXT:   try_end %BB7
// CHECK-NEXT: %BB5:
// CHECK-NEXT:   try_end %BB6
// CHECK-NEXT: %BB6:
// CHECK-NEXT:   %9 = load_stack %0 : any|empty
// CHECK-NEXT:   %10 = call %9, undefined : any
// CHECK-NEXT:   return %7
// CHECK-NEXT: %BB7:
// CHECK-NEXT:   %11 = load_stack %0 : any|empty
// CHECK-NEXT:   %12 = call %11, undefined : any
// CHECK-NEXT:   return -1
