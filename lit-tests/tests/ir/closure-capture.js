// IRGen: captured variables live in a heap scope (create_scope/load_frame/store_frame); others in stack slots.
// RUN: %iris dump --ir %s | %FileCheck %s --match-full-lines
function counter() {
  var n = 0;
  var notCaptured = 5;
  return function () { n += notCaptured; return n; };
}

// Auto-generated content below. Please do not modify manually.

// CHECK:      module "{{.*}}closure-capture.js" top_level=@0
// CHECK-EMPTY:
// CHECK-NEXT: scope $0 in @1 parent=none
// CHECK-NEXT:   $0.0 var "n"
// CHECK-NEXT:   $0.1 var "notCaptured"
// CHECK-EMPTY:
// CHECK-NEXT: function @0 ""() kind=toplevel sloppy parent=none length=0 loc=1:1
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = alloc_stack "%completion" : any|empty
// CHECK-NEXT:   store_stack undefined, %0
// CHECK-NEXT:   declare_globals "fcounter" undefined
// CHECK-NEXT:   %1 = create_closure @1:"counter" undefined : closure
// CHECK-NEXT:   %2 = call_builtin #15 "counter", %1 : any
// CHECK-NEXT:   %3 = load_stack %0 : any|empty
// CHECK-NEXT:   return %3
// CHECK-EMPTY:
// CHECK-NEXT: function @1 "counter"() kind=function sloppy parent=none length=0 loc=3:1 source="function counter() {\n  var n = 0;\n  var notCaptured = 5;\n  return function () { n += notCaptured; return n; };\n}"
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = create_scope $0 undefined : environment
// CHECK-NEXT:   store_frame $0.0:"n" undefined, %0
// CHECK-NEXT:   store_frame $0.1:"notCaptured" undefined, %0
// CHECK-NEXT:   store_frame $0.0:"n" 0, %0
// CHECK-NEXT:   store_frame $0.1:"notCaptured" 5, %0
// CHECK-NEXT:   %1 = create_closure @2:"" %0 : closure
// CHECK-NEXT:   return %1
// CHECK-EMPTY:
// CHECK-NEXT: function @2 ""() kind=function sloppy parent=$0 length=0 loc=6:10 source="function () { n += notCaptured; return n; }"
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = get_parent_scope $0 : environment
// CHECK-NEXT:   %1 = load_frame $0.0:"n" %0 : any|empty
// CHECK-NEXT:   %2 = load_frame $0.1:"notCaptured" %0 : any|empty
// CHECK-NEXT:   %3 = binary_op "+" %1, %2 : string|number|bigint
// CHECK-NEXT:   store_frame $0.0:"n" %3, %0
// CHECK-NEXT:   %4 = load_frame $0.0:"n" %0 : any|empty
// CHECK-NEXT:   return %4
