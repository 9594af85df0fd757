// IRGen: a regular expression literal compiles to create_regexp.
// RUN: %iris dump --ir %s | %FileCheck %s --match-full-lines
function f() { return /a+b/gi; }

// Auto-generated content below. Please do not modify manually.

// CHECK:      module "{{.*}}regexp-literal.js" top_level=@0
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
// CHECK-NEXT: function @1 "f"() kind=function sloppy parent=none length=0 loc=3:1 source="function f() { return /a+b/gi; }"
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = create_regexp "a+b" "gi" : regexp
// CHECK-NEXT:   return %0
