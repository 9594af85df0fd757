// IRGen: class with constructor, method, static method, extends and super.
// RUN: %iris dump --ir %s | %FileCheck %s --match-full-lines
class A { constructor(x) { this.x = x; } get() { return this.x; } }
class B extends A {
  constructor() { super(1); }
  get() { return super.get() + 1; }
  static make() { return new B(); }
}

// Auto-generated content below. Please do not modify manually.

// CHECK:      module "{{.*}}class.js" top_level=@0
// CHECK-EMPTY:
// CHECK-NEXT: scope $0 in @0 parent=none
// CHECK-NEXT:   $0.0 let "A"
// CHECK-NEXT:   $0.1 let "B"
// CHECK-EMPTY:
// CHECK-NEXT: scope $1 in @0 parent=$0
// CHECK-NEXT:   $1.0 const "B"
// CHECK-EMPTY:
// CHECK-NEXT: function @0 ""() kind=toplevel sloppy parent=none length=0 loc=1:1
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = alloc_stack "%completion" : any|empty
// CHECK-NEXT:   store_stack undefined, %0
// CHECK-NEXT:   %1 = create_scope $0 undefined : environment
// CHECK-NEXT:   store_frame $0.0:"A" empty, %1
// CHECK-NEXT:   store_frame $0.1:"B" empty, %1
// CHECK-NEXT:   declare_globals "lA lB" %1
// CHECK-NEXT:   %2 = create_closure @1:"A" %1 : closure
// CHECK-NEXT:   %3 = call_builtin #1 %2, empty : any
// CHECK-NEXT:   %4 = create_closure @2:"get" %1 : closure
// CHECK-NEXT:   define_own_property #0 %4, %3, "get"
// CHECK-NEXT:   store_frame $0.0:"A" %2, %1
// CHECK-NEXT:   %5 = create_scope $1 %1 : environment
// CHECK-NEXT:   store_frame $1.0:"B" empty, %5
// CHECK-NEXT:   %6 = load_frame $0.0:"A" %1 : any|empty
// CHECK-NEXT:   %7 = create_closure @3:"B" %5 : closure
// CHECK-NEXT:   %8 = call_builtin #1 %7, %6 : any
// CHECK-NEXT:   %9 = create_closure @4:"get" %5 : closure
// CHECK-NEXT:   %10 = call_builtin #2 %9, %8 : any
// CHECK-NEXT:   define_own_property #0 %9, %8, "get"
// CHECK-NEXT:   %11 = create_closure @5:"make" %5 : closure
// CHECK-NEXT:   define_own_property #0 %11, %7, "make"
// CHECK-NEXT:   store_frame $1.0:"B" %7, %5
// CHECK-NEXT:   store_frame $0.1:"B" %7, %1
// CHECK-NEXT:   %12 = load_stack %0 : any|empty
// CHECK-NEXT:   return %12
// CHECK-EMPTY:
// CHECK-NEXT: function @1 "A"("x") kind=class_constructor strict parent=$0 length=1 loc=3:1 source="class A { constructor(x) { this.x = x; } get() { return this.x; } }"
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = get_parent_scope $0 : environment
// CHECK-NEXT:   %1 = alloc_stack "x" : any|empty
// CHECK-NEXT:   %2 = load_param #0 : any
// CHECK-NEXT:   %3 = load_param #1 : any
// CHECK-NEXT:   store_stack %3, %1
// CHECK-NEXT:   %4 = load_stack %1 : any|empty
// CHECK-NEXT:   store_property %4, %2, "x"
// CHECK-NEXT:   return undefined
// CHECK-EMPTY:
// CHECK-NEXT: function @2 "get"() kind=method strict parent=$0 length=0 loc=3:42 source="get() { return this.x; }"
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = get_parent_scope $0 : environment
// CHECK-NEXT:   %1 = load_param #0 : any
// CHECK-NEXT:   %2 = load_property %1, "x" : any
// CHECK-NEXT:   return %2
// CHECK-EMPTY:
// CHECK-NEXT: function @3 "B"() kind=derived_constructor strict parent=$1 length=0 loc=4:1 source="class B extends A {\n  constructor() { super(1); }\n  get() { return super.get() + 1; }\n  static make() { return new B(); }\n}"
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = get_parent_scope $1 : environment
// CHECK-NEXT:   %1 = alloc_stack "this" : any|empty
// CHECK-NEXT:   store_stack empty, %1
// CHECK-NEXT:   %2 = get_new_target : anyobject|undefined
// CHECK-NEXT:   %3 = get_callee : closure
// CHECK-NEXT:   %4 = call_builtin #3 %3 : any
// CHECK-NEXT:   %5 = construct %4, %2, 1 : anyobject
// CHECK-NEXT:   %6 = load_stack %1 : any|empty
// CHECK-NEXT:   %7 = binary_op "===" %6, empty : boolean
// CHECK-NEXT:   cond_branch %7, %BB1, %BB2
// CHECK-NEXT: %BB1:
// CHECK-NEXT:   store_stack %5, %1
// CHECK-NEXT:   %8 = load_stack %1 : any|empty
// CHECK-NEXT:   %9 = call_builtin #12 undefined, %8 : any
// CHECK-NEXT:   return %9
// CHECK-NEXT: %BB2:
// CHECK-NEXT:   throw_error ReferenceError "Super constructor may only be called once"
// CHECK-EMPTY:
// CHECK-NEXT: function @4 "get"() kind=method strict parent=$1 length=0 loc=6:3 source="get() { return super.get() + 1; }"
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = get_parent_scope $1 : environment
// CHECK-NEXT:   %1 = load_param #0 : any
// CHECK-NEXT:   %2 = get_home_object : anyobject
// CHECK-NEXT:   %3 = call_builtin #4 %2, "get", %1 : any
// CHECK-NEXT:   %4 = call %3, %1 : any
// CHECK-NEXT:   %5 = binary_op "+" %4, 1 : string|number|bigint
// CHECK-NEXT:   return %5
// CHECK-EMPTY:
// CHECK-NEXT: function @5 "make"() kind=method strict parent=$1 length=0 loc=7:10 source="make() { return new B(); }"
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = get_parent_scope $1 : environment
// CHECK-NEXT:   %1 = load_frame $1.0:"B" %0 : any|empty
// CHECK-NEXT:   %2 = throw_if_empty "B" %1 : any
// CHECK-NEXT:   %3 = construct %2, %2 : anyobject
// CHECK-NEXT:   return %3
