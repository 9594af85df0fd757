// Optimizer: constant folding with ECMAScript semantics, then dead code elimination.
// RUN: %iris dump --ir-opt %s | %FileCheck %s --match-full-lines
function f() {
  var a = 2 * 3 + 1;
  var b = "x" + a;
  var c = typeof b;
  var unused = a - 1;
  return [a, b, c, 1 / 0, -0 + 0, "5" * "2", null == undefined];
}

// Auto-generated content below. Please do not modify manually.

// CHECK:      module "{{.*}}const-fold.js" top_level=@0
// CHECK-EMPTY:
// CHECK-NEXT: function @0 ""() kind=toplevel sloppy parent=none length=0 loc=1:1
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   declare_globals "ff" undefined
// CHECK-NEXT:   %0 = create_closure @1:"f" undefined : closure
// CHECK-NEXT:   %1 = call_builtin #15 "f", %0 : any
// CHECK-NEXT:   return undefined
// CHECK-EMPTY:
// CHECK-NEXT: function @1 "f"() kind=function sloppy parent=none length=0 loc=3:1 source="function f() {\n  var a = 2 * 3 + 1;\n  var b = \"x\" + a;\n  var c = typeof b;\n  var unused = a - 1;\n  return [a, b, c, 1 / 0, -0 + 0, \"5\" * \"2\", null == undefined];\n}"
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = alloc_array #7 : object
// CHECK-NEXT:   store_own_index #0 7, %0
// CHECK-NEXT:   store_own_index #1 "x7", %0
// CHECK-NEXT:   store_own_index #2 "string", %0
// CHECK-NEXT:   store_own_index #3 Infinity, %0
// CHECK-NEXT:   store_own_index #4 0, %0
// CHECK-NEXT:   store_own_index #5 10, %0
// CHECK-NEXT:   store_own_index #6 true, %0
// CHECK-NEXT:   return %0
