// Optimizer: mem2reg turns the stack slots of a loop into SSA values joined by phis.
// RUN: %iris dump --ir %s | %FileCheck %s --match-full-lines --check-prefix=IR
// RUN: %iris dump --ir-opt %s | %FileCheck %s --match-full-lines --check-prefix=OPT
function sum(n) {
  var s = 0;
  for (var i = 0; i < n; i++) s += i;
  return s;
}

// Auto-generated content below. Please do not modify manually.

// IR:      module "{{.*}}mem2reg-phi.js" top_level=@0
// IR-EMPTY:
// IR-NEXT: function @0 ""() kind=toplevel sloppy parent=none length=0 loc=1:1
// IR-NEXT: %BB0:
// IR-NEXT:   %0 = alloc_stack "%completion" : any|empty
// IR-NEXT:   store_stack undefined, %0
// IR-NEXT:   declare_globals "fsum" undefined
// IR-NEXT:   %1 = create_closure @1:"sum" undefined : closure
// IR-NEXT:   %2 = call_builtin #15 "sum", %1 : any
// IR-NEXT:   %3 = load_stack %0 : any|empty
// IR-NEXT:   return %3
// IR-EMPTY:
// IR-NEXT: function @1 "sum"("n") kind=function sloppy parent=none length=1 loc=4:1 source="function sum(n) {\n  var s = 0;\n  for (var i = 0; i < n; i++) s += i;\n  return s;\n}"
// IR-NEXT: %BB0:
// IR-NEXT:   %0 = alloc_stack "n" : any|empty
// IR-NEXT:   %1 = alloc_stack "s" : any|empty
// IR-NEXT:   %2 = alloc_stack "i" : any|empty
// IR-NEXT:   %3 = load_param #1 : any
// IR-NEXT:   store_stack %3, %0
// IR-NEXT:   store_stack undefined, %1
// IR-NEXT:   store_stack undefined, %2
// IR-NEXT:   store_stack 0, %1
// IR-NEXT:   store_stack 0, %2
// IR-NEXT:   branch %BB1
// IR-NEXT: %BB1:
// IR-NEXT:   %4 = load_stack %2 : any|empty
// IR-NEXT:   %5 = load_stack %0 : any|empty
// IR-NEXT:   %6 = binary_op "<" %4, %5 : boolean
// IR-NEXT:   cond_branch %6, %BB2, %BB4
// IR-NEXT: %BB2:
// IR-NEXT:   %7 = load_stack %1 : any|empty
// IR-NEXT:   %8 = load_stack %2 : any|empty
// IR-NEXT:   %9 = binary_op "+" %7, %8 : string|number|bigint
// IR-NEXT:   store_stack %9, %1
// IR-NEXT:   branch %BB3
// IR-NEXT: %BB3:
// IR-NEXT:   %10 = load_stack %2 : any|empty
// IR-NEXT:   %11 = as_numeric %10 : number|bigint
// IR-NEXT:   %12 = unary_op "++" %11 : number|bigint
// IR-NEXT:   store_stack %12, %2
// IR-NEXT:   branch %BB1
// IR-NEXT: %BB4:
// IR-NEXT:   %13 = load_stack %1 : any|empty
// IR-NEXT:   return %13

// OPT:      module "{{.*}}mem2reg-phi.js" top_level=@0
// OPT-EMPTY:
// OPT-NEXT: function @0 ""() kind=toplevel sloppy parent=none length=0 loc=1:1
// OPT-NEXT: %BB0:
// OPT-NEXT:   declare_globals "fsum" undefined
// OPT-NEXT:   %0 = create_closure @1:"sum" undefined : closure
// OPT-NEXT:   %1 = call_builtin #15 "sum", %0 : any
// OPT-NEXT:   return undefined
// OPT-EMPTY:
// OPT-NEXT: function @1 "sum"("n") kind=function sloppy parent=none length=1 loc=4:1 source="function sum(n) {\n  var s = 0;\n  for (var i = 0; i < n; i++) s += i;\n  return s;\n}"
// OPT-NEXT: %BB0:
// OPT-NEXT:   %0 = load_param #1 : any
// OPT-NEXT:   branch %BB1
// OPT-NEXT: %BB1:
// OPT-NEXT:   %1 = phi [0, %BB0], [%4, %BB2] : number
// OPT-NEXT:   %2 = phi [0, %BB0], [%5, %BB2] : number
// OPT-NEXT:   %3 = binary_op "<" %2, %0 : boolean
// OPT-NEXT:   cond_branch %3, %BB2, %BB3
// OPT-NEXT: %BB2:
// OPT-NEXT:   %4 = binary_op "+" %1, %2 : number
// OPT-NEXT:   %5 = unary_op "++" %2 : number
// OPT-NEXT:   branch %BB1
// OPT-NEXT: %BB3:
// OPT-NEXT:   return %1
