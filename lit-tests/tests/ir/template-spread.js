// IRGen: template literals, array spread with holes and object literal with accessors.
// RUN: %iris dump --ir %s | %FileCheck %s --match-full-lines
function f(a, b) {
  var arr = [1, , ...a];
  var o = { get x() { return 1; }, set x(v) {}, [b]: 2, ...a };
  return `${arr.length}-${o.x}`;
}

// Auto-generated content below. Please do not modify manually.

// CHECK:      module "{{.*}}template-spread.js" top_level=@0
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
// CHECK-NEXT: function @1 "f"("a", "b") kind=function sloppy parent=none length=2 loc=3:1 source="function f(a, b) {\n  var arr = [1, , ...a];\n  var o = { get x() { return 1; }, set x(v) {}, [b]: 2, ...a };\n  return `${arr.length}-${o.x}`;\n}"
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = alloc_stack "a" : any|empty
// CHECK-NEXT:   %1 = alloc_stack "b" : any|empty
// CHECK-NEXT:   %2 = alloc_stack "arr" : any|empty
// CHECK-NEXT:   %3 = alloc_stack "o" : any|empty
// CHECK-NEXT:   %4 = load_param #1 : any
// CHECK-NEXT:   store_stack %4, %0
// CHECK-NEXT:   %5 = load_param #2 : any
// CHECK-NEXT:   store_stack %5, %1
// CHECK-NEXT:   store_stack undefined, %2
// CHECK-NEXT:   store_stack undefined, %3
// CHECK-NEXT:   %6 = alloc_array #2 : object
// CHECK-NEXT:   store_own_index #0 1, %6
// CHECK-NEXT:   %7 = load_stack %0 : any|empty
// CHECK-NEXT:   %8 = call_builtin #7 %6, 2, %7 : any
// CHECK-NEXT:   store_stack %6, %2
// CHECK-NEXT:   %9 = alloc_object : object
// CHECK-NEXT:   %10 = create_closure @2:"get x" undefined : closure
// CHECK-NEXT:   %11 = create_closure @3:"set x" undefined : closure
// CHECK-NEXT:   define_own_accessor #1 %10, %11, %9, "x"
// CHECK-NEXT:   %12 = load_stack %1 : any|empty
// CHECK-NEXT:   %13 = to_property_key %12 : string|number|symbol
// CHECK-NEXT:   define_own_property #1 2, %9, %13
// CHECK-NEXT:   %14 = load_stack %0 : any|empty
// CHECK-NEXT:   %15 = call_builtin #0 %9, %14 : any
// CHECK-NEXT:   store_stack %9, %3
// CHECK-NEXT:   %16 = load_stack %2 : any|empty
// CHECK-NEXT:   %17 = load_property %16, "length" : any
// CHECK-NEXT:   %18 = as_string %17 : string
// CHECK-NEXT:   %19 = binary_op "+" %18, "-" : string
// CHECK-NEXT:   %20 = load_stack %3 : any|empty
// CHECK-NEXT:   %21 = load_property %20, "x" : any
// CHECK-NEXT:   %22 = as_string %21 : string
// CHECK-NEXT:   %23 = binary_op "+" %19, %22 : string
// CHECK-NEXT:   return %23
// CHECK-EMPTY:
// CHECK-NEXT: function @2 "get x"() kind=method sloppy parent=none length=0 loc=5:13 source="get x() { return 1; }"
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   return 1
// CHECK-EMPTY:
// CHECK-NEXT: function @3 "set x"("v") kind=method sloppy parent=none length=1 loc=5:36 source="set x(v) {}"
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = alloc_stack "v" : any|empty
// CHECK-NEXT:   %1 = load_param #1 : any
// CHECK-NEXT:   store_stack %1, %0
// CHECK-NEXT:   return undefined
