// Optimizer: constant conditions fold their branches and unreachable blocks go away.
// RUN: %iris dump --ir %s | %FileCheck %s --match-full-lines --check-prefix=IR
// RUN: %iris dump --ir-opt %s | %FileCheck %s --match-full-lines --check-prefix=OPT
function f(x) {
  if (true) { x = x + 1; } else { x = x - 1; }
  while (false) { x = 0; }
  return x;
}

// Auto-generated content below. Please do not modify manually.

// IR:      module "{{.*}}simplify-cfg.js" top_level=@0
// IR-EMPTY:
// IR-NEXT: function @0 ""() kind=toplevel sloppy parent=none length=0 loc=1:1
// IR-NEXT: %BB0:
// IR-NEXT:   %0 = alloc_stack "%completion" : any|empty
// IR-NEXT:   store_stack undefined, %0
// IR-NEXT:   declare_globals "ff" undefined
// IR-NEXT:   %1 = create_closure @1:"f" undefined : closure
// IR-NEXT:   %2 = call_builtin #15 "f", %1 : any
// IR-NEXT:   %3 = load_stack %0 : any|empty
// IR-NEXT:   return %3
// IR-EMPTY:
// IR-NEXT: function @1 "f"("x") kind=function sloppy parent=none length=1 loc=4:1 source="function f(x) {\n  if (true) { x = x + 1; } else { x = x - 1; }\n  while (false) { x = 0; }\n  return x;\n}"
// IR-NEXT: %BB0:
// IR-NEXT:   %0 = alloc_stack "x" : any|empty
// IR-NEXT:   %1 = load_param #1 : any
// IR-NEXT:   store_stack %1, %0
// IR-NEXT:   cond_branch true, %BB1, %BB3
// IR-NEXT: %BB1:
// IR-NEXT:   %2 = load_stack %0 : any|empty
// IR-NEXT:   %3 = binary_op "+" %2, 1 : string|number|bigint
// IR-NEXT:   store_stack %3, %0
// IR-NEXT:   branch %BB2
// IR-NEXT: %BB2:
// IR-NEXT:   branch %BB4
// IR-NEXT: %BB3:
// IR-NEXT:   %4 = load_stack %0 : any|empty
// IR-NEXT:   %5 = binary_op "-" %4, 1 : number|bigint
// IR-NEXT:   store_stack %5, %0
// IR-NEXT:   branch %BB2
// IR-NEXT: %BB4:
// IR-NEXT:   cond_branch false, %BB5, %BB6
// IR-NEXT: %BB5:
// IR-NEXT:   store_stack 0, %0
// IR-NEXT:   branch %BB4
// IR-NEXT: %BB6:
// IR-NEXT:   %6 = load_stack %0 : any|empty
// IR-NEXT:   return %6

// OPT:      module "{{.*}}simplify-cfg.js" top_level=@0
// OPT-EMPTY:
// OPT-NEXT: function @0 ""() kind=toplevel sloppy parent=none length=0 loc=1:1
// OPT-NEXT: %BB0:
// OPT-NEXT:   declare_globals "ff" undefined
// OPT-NEXT:   %0 = create_closure @1:"f" undefined : closure
// OPT-NEXT:   %1 = call_builtin #15 "f", %0 : any
// OPT-NEXT:   return undefined
// OPT-EMPTY:
// OPT-NEXT: function @1 "f"("x") kind=function sloppy parent=none length=1 loc=4:1 source="function f(x) {\n  if (true) { x = x + 1; } else { x = x - 1; }\n  while (false) { x = 0; }\n  return x;\n}"
// OPT-NEXT: %BB0:
// OPT-NEXT:   %0 = load_param #1 : any
// OPT-NEXT:   %1 = binary_op "+" %0, 1 : string|number|bigint
// OPT-NEXT:   return %1
