// IRGen of a direct eval: every declaration in scope is kept in a heap environment (with
// `this` and `new.target`), a sloppy function gets `%evalvars` for the vars eval code
// declares, and the call passes the innermost environment and the text describing the
// scope chain (see the compiler's frontend/eval.rs).
// RUN: %iris dump --ir %s | %FileCheck %s --match-full-lines
function f(a) {
  let b = 2;
  return eval('a + b');
}

// Auto-generated content below. Please do not modify manually.

// CHECK:      module "{{.*}}direct-eval.js" top_level=@0
// CHECK-EMPTY:
// CHECK-NEXT: scope $0 in @1 parent=none
// CHECK-NEXT:   $0.0 var "a"
// CHECK-NEXT:   $0.1 var "arguments"
// CHECK-NEXT:   $0.2 let "b"
// CHECK-NEXT:   $0.3 internal "this"
// CHECK-NEXT:   $0.4 internal "new.target"
// CHECK-NEXT:   $0.5 internal "%evalvars"
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
// CHECK-NEXT: function @1 "f"("a") kind=function sloppy parent=none length=1 loc=6:1 source="function f(a) {\n  let b = 2;\n  return eval('a + b');\n}"
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = create_scope $0 undefined : environment
// CHECK-NEXT:   %1 = load_param #0 : any
// CHECK-NEXT:   %2 = coerce_this_ns %1 : anyobject
// CHECK-NEXT:   store_frame $0.3:"this" %2, %0
// CHECK-NEXT:   %3 = get_new_target : anyobject|undefined
// CHECK-NEXT:   store_frame $0.4:"new.target" %3, %0
// CHECK-NEXT:   %4 = create_arguments : object
// CHECK-NEXT:   store_frame $0.1:"arguments" %4, %0
// CHECK-NEXT:   %5 = load_param #1 : any
// CHECK-NEXT:   store_frame $0.0:"a" %5, %0
// CHECK-NEXT:   store_frame $0.2:"b" empty, %0
// CHECK-NEXT:   %6 = alloc_object null : object
// CHECK-NEXT:   store_frame $0.5:"%evalvars" %6, %0
// CHECK-NEXT:   store_frame $0.2:"b" 2, %0
// CHECK-NEXT:   %7 = load_frame $0.5:"%evalvars" %0 : any|empty
// CHECK-NEXT:   %8 = call_builtin #25 %7, "eval" : any
// CHECK-NEXT:   cond_branch %8, %BB2, %BB3
// CHECK-NEXT: %BB1:
// CHECK-NEXT:   %9 = phi [%7, %BB2], [empty, %BB3] : any|empty
// CHECK-NEXT:   %10 = binary_op "===" %9, empty : boolean
// CHECK-NEXT:   cond_branch %10, %BB4, %BB5
// CHECK-NEXT: %BB2:
// CHECK-NEXT:   branch %BB1
// CHECK-NEXT: %BB3:
// CHECK-NEXT:   branch %BB1
// CHECK-NEXT: %BB4:
// CHECK-NEXT:   %11 = try_load_global "eval" : any
// CHECK-NEXT:   branch %BB6
// CHECK-NEXT: %BB5:
// CHECK-NEXT:   %12 = load_property %9, "eval" : any
// CHECK-NEXT:   branch %BB6
// CHECK-NEXT: %BB6:
// CHECK-NEXT:   %13 = phi [%12, %BB5], [%11, %BB4] : any
// CHECK-NEXT:   %14 = direct_eval %13, %0, "fn\nV a:v,arguments:v,b:l,this:i,new.target:i,%evalvars:i", "a + b" : any
// CHECK-NEXT:   return %14
