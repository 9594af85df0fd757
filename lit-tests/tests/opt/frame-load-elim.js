// Optimizer: repeated loads of a captured variable in one block reuse the stored value.
// RUN: %iris dump --ir-opt %s | %FileCheck %s --match-full-lines
function outer() {
  var v = 1;
  function inner() { v = v + 1; return v + v; }
  return inner;
}

// Auto-generated content below. Please do not modify manually.

// CHECK:      module "{{.*}}frame-load-elim.js" top_level=@0
// CHECK-EMPTY:
// CHECK-NEXT: scope $0 in @1 parent=none
// CHECK-NEXT:   $0.0 var "v"
// CHECK-EMPTY:
// CHECK-NEXT: function @0 ""() kind=toplevel sloppy parent=none length=0 loc=1:1
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   declare_globals "fouter" undefined
// CHECK-NEXT:   %0 = create_closure @1:"outer" undefined : closure
// CHECK-NEXT:   %1 = call_builtin #15 "outer", %0 : any
// CHECK-NEXT:   return undefined
// CHECK-EMPTY:
// CHECK-NEXT: function @1 "outer"() kind=function sloppy parent=none length=0 loc=3:1 source="function outer() {\n  var v = 1;\n  function inner() { v = v + 1; return v + v; }\n  return inner;\n}"
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = create_scope $0 undefined : environment
// CHECK-NEXT:   store_frame $0.0:"v" undefined, %0
// CHECK-NEXT:   %1 = create_closure @2:"inner" %0 : closure
// CHECK-NEXT:   store_frame $0.0:"v" 1, %0
// CHECK-NEXT:   return %1
// CHECK-EMPTY:
// CHECK-NEXT: function @2 "inner"() kind=function sloppy parent=$0 length=0 loc=5:3 source="function inner() { v = v + 1; return v + v; }"
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = get_parent_scope $0 : environment
// CHECK-NEXT:   %1 = load_frame $0.0:"v" %0 : any|empty
// CHECK-NEXT:   %2 = binary_op "+" %1, 1 : string|number|bigint
// CHECK-NEXT:   store_frame $0.0:"v" %2, %0
// CHECK-NEXT:   %3 = binary_op "+" %2, %2 : string|number|bigint
// CHECK-NEXT:   return %3
