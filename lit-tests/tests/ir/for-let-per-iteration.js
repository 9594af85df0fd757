// IRGen: a captured for-let binding gets a fresh environment per iteration.
// RUN: %iris dump --ir %s | %FileCheck %s --match-full-lines
function f() {
  var fs = [];
  for (let i = 0; i < 3; i++) fs.push(() => i);
  return fs;
}

// Auto-generated content below. Please do not modify manually.

// CHECK:      module "{{.*}}for-let-per-iteration.js" top_level=@0
// CHECK-EMPTY:
// CHECK-NEXT: scope $0 in @1 parent=none
// CHECK-NEXT:   $0.0 let "i"
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
// CHECK-NEXT: function @1 "f"() kind=function sloppy parent=none length=0 loc=3:1 source="function f() {\n  var fs = [];\n  for (let i = 0; i < 3; i++) fs.push(() => i);\n  return fs;\n}"
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = alloc_stack "fs" : any|empty
// CHECK-NEXT:   store_stack undefined, %0
// CHECK-NEXT:   %1 = alloc_array #0 : object
// CHECK-NEXT:   store_stack %1, %0
// CHECK-NEXT:   %2 = create_scope $0 undefined : environment
// CHECK-NEXT:   store_frame $0.0:"i" empty, %2
// CHECK-NEXT:   store_frame $0.0:"i" 0, %2
// CHECK-NEXT:   %3 = create_scope $0 undefined : environment
// CHECK-NEXT:   %4 = load_frame $0.0:"i" %2 : any|empty
// CHECK-NEXT:   store_frame $0.0:"i" %4, %3
// CHECK-NEXT:   branch %BB1
// CHECK-NEXT: %BB1:
// CHECK-NEXT:   %5 = phi [%3, %BB0], [%12, %BB3] : environment
// CHECK-NEXT:   %6 = load_frame $0.0:"i" %5 : any|empty
// CHECK-NEXT:   %7 = binary_op "<" %6, 3 : boolean
// CHECK-NEXT:   cond_branch %7, %BB2, %BB4
// CHECK-NEXT: %BB2:
// CHECK-NEXT:   %8 = load_stack %0 : any|empty
// CHECK-NEXT:   %9 = load_property %8, "push" : any
// CHECK-NEXT:   %10 = create_closure @2:"" %5 : closure
// CHECK-NEXT:   %11 = call %9, %8, %10 : any
// CHECK-NEXT:   branch %BB3
// CHECK-NEXT: %BB3:
// CHECK-NEXT:   %12 = create_scope $0 undefined : environment
// CHECK-NEXT:   %13 = load_frame $0.0:"i" %5 : any|empty
// CHECK-NEXT:   store_frame $0.0:"i" %13, %12
// CHECK-NEXT:   %14 = load_frame $0.0:"i" %12 : any|empty
// CHECK-NEXT:   %15 = as_numeric %14 : number|bigint
// CHECK-NEXT:   %16 = unary_op "++" %15 : number|bigint
// CHECK-NEXT:   store_frame $0.0:"i" %16, %12
// CHECK-NEXT:   branch %BB1
// CHECK-NEXT: %BB4:
// CHECK-NEXT:   %17 = load_stack %0 : any|empty
// CHECK-NEXT:   return %17
// CHECK-EMPTY:
// CHECK-NEXT: function @2 ""() kind=arrow sloppy parent=$0 length=0 loc=5:39 source="() => i"
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = get_parent_scope $0 : environment
// CHECK-NEXT:   %1 = load_frame $0.0:"i" %0 : any|empty
// CHECK-NEXT:   %2 = throw_if_empty "i" %1 : any
// CHECK-NEXT:   return %2
