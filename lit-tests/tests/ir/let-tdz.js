// IRGen: let/const start as empty (TDZ) and reads that may see empty get throw_if_empty.
// RUN: %iris dump --ir %s | %FileCheck %s --match-full-lines
function f() {
  g();
  let x = 1;
  function g() { return x; }
  const c = x + 1;
  return c;
}

// Auto-generated content below. Please do not modify manually.

// CHECK:      module "{{.*}}let-tdz.js" top_level=@0
// CHECK-EMPTY:
// CHECK-NEXT: scope $0 in @1 parent=none
// CHECK-NEXT:   $0.0 let "x"
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
// CHECK-NEXT: function @1 "f"() kind=function sloppy parent=none length=0 loc=3:1 source="function f() {\n  g();\n  let x = 1;\n  function g() { return x; }\n  const c = x + 1;\n  return c;\n}"
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = alloc_stack "g" : any|empty
// CHECK-NEXT:   %1 = alloc_stack "c" : any|empty
// CHECK-NEXT:   %2 = create_scope $0 undefined : environment
// CHECK-NEXT:   store_frame $0.0:"x" empty, %2
// CHECK-NEXT:   store_stack empty, %1
// CHECK-NEXT:   %3 = create_closure @2:"g" %2 : closure
// CHECK-NEXT:   store_stack %3, %0
// CHECK-NEXT:   %4 = load_stack %0 : any|empty
// CHECK-NEXT:   %5 = call %4, undefined : any
// CHECK-NEXT:   store_frame $0.0:"x" 1, %2
// CHECK-NEXT:   %6 = load_frame $0.0:"x" %2 : any|empty
// CHECK-NEXT:   %7 = binary_op "+" %6, 1 : string|number|bigint
// CHECK-NEXT:   store_stack %7, %1
// CHECK-NEXT:   %8 = load_stack %1 : any|empty
// CHECK-NEXT:   return %8
// CHECK-EMPTY:
// CHECK-NEXT: function @2 "g"() kind=function sloppy parent=$0 length=0 loc=6:3 source="function g() { return x; }"
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = get_parent_scope $0 : environment
// CHECK-NEXT:   %1 = load_frame $0.0:"x" %0 : any|empty
// CHECK-NEXT:   %2 = throw_if_empty "x" %1 : any
// CHECK-NEXT:   return %2
