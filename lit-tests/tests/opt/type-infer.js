// Optimizer: type inference proves number operands so later code can use typed instructions.
// RUN: %iris dump --ir-opt %s | %FileCheck %s --match-full-lines
function f(a) {
  a = +a;
  var b = a * 2;
  var c = b - 1;
  return c < 10 ? c : b;
}

// Auto-generated content below. Please do not modify manually.

// CHECK:      module "{{.*}}type-infer.js" top_level=@0
// CHECK-EMPTY:
// CHECK-NEXT: function @0 ""() kind=toplevel sloppy parent=none length=0 loc=1:1
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   declare_globals "ff" undefined
// CHECK-NEXT:   %0 = create_closure @1:"f" undefined : closure
// CHECK-NEXT:   %1 = call_builtin #15 "f", %0 : any
// CHECK-NEXT:   return undefined
// CHECK-EMPTY:
// CHECK-NEXT: function @1 "f"("a") kind=function sloppy parent=none length=1 loc=3:1 source="function f(a) {\n  a = +a;\n  var b = a * 2;\n  var c = b - 1;\n  return c < 10 ? c : b;\n}"
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = load_param #1 : any
// CHECK-NEXT:   %1 = as_number %0 : number
// CHECK-NEXT:   %2 = binary_op "*" %1, 2 : number
// CHECK-NEXT:   %3 = binary_op "-" %2, 1 : number
// CHECK-NEXT:   %4 = binary_op "<" %3, 10 : boolean
// CHECK-NEXT:   cond_branch %4, %BB2, %BB1
// CHECK-NEXT: %BB1:
// CHECK-NEXT:   branch %BB2
// CHECK-NEXT: %BB2:
// CHECK-NEXT:   %5 = phi [%2, %BB1], [%3, %BB0] : number
// CHECK-NEXT:   return %5
