// IRGen: a generator is an outer function creating the generator and an inner function with start_generator, save_and_yield and resume_generator.
// RUN: %iris dump --ir %s | %FileCheck %s --match-full-lines
function* g(a) {
  var x = yield a;
  yield x + 1;
}

// Auto-generated content below. Please do not modify manually.

// CHECK:      module "{{.*}}generator.js" top_level=@0
// CHECK-EMPTY:
// CHECK-NEXT: function @0 ""() kind=toplevel sloppy parent=none length=0 loc=1:1
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = alloc_stack "%completion" : any|empty
// CHECK-NEXT:   store_stack undefined, %0
// CHECK-NEXT:   declare_globals "fg" undefined
// CHECK-NEXT:   %1 = create_closure @1:"g" undefined : closure
// CHECK-NEXT:   %2 = call_builtin #15 "g", %1 : any
// CHECK-NEXT:   %3 = load_stack %0 : any|empty
// CHECK-NEXT:   return %3
// CHECK-EMPTY:
// CHECK-NEXT: function @1 "g"("a") kind=generator sloppy parent=none length=1 loc=3:1 source="function* g(a) {\n  var x = yield a;\n  yield x + 1;\n}"
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = create_generator @2:"g" undefined : object
// CHECK-NEXT:   return %0
// CHECK-EMPTY:
// CHECK-NEXT: function @2 "g"("a") kind=generator_inner sloppy parent=none length=1 loc=3:1 source="function* g(a) {\n  var x = yield a;\n  yield x + 1;\n}"
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   start_generator
// CHECK-NEXT:   %0 = alloc_stack "%is_return" : any|empty
// CHECK-NEXT:   %1 = alloc_stack "a" : any|empty
// CHECK-NEXT:   %2 = alloc_stack "x" : any|empty
// CHECK-NEXT:   %3 = load_param #1 : any
// CHECK-NEXT:   store_stack %3, %1
// CHECK-NEXT:   store_stack undefined, %2
// CHECK-NEXT:   %4 = load_stack %1 : any|empty
// CHECK-NEXT:   save_and_yield %4, %BB1
// CHECK-NEXT: %BB1:
// CHECK-NEXT:   %5 = resume_generator %0 : any
// CHECK-NEXT:   %6 = load_stack %0 : any|empty
// CHECK-NEXT:   cond_branch %6, %BB2, %BB3
// CHECK-NEXT: %BB2:
// CHECK-NEXT:   complete_generator
// CHECK-NEXT:   return %5
// CHECK-NEXT: %BB3:
// CHECK-NEXT:   store_stack %5, %2
// CHECK-NEXT:   %7 = load_stack %2 : any|empty
// CHECK-NEXT:   %8 = binary_op "+" %7, 1 : string|number|bigint
// CHECK-NEXT:   save_and_yield %8, %BB4
// CHECK-NEXT: %BB4:
// CHECK-NEXT:   %9 = resume_generator %0 : any
// CHECK-NEXT:   %10 = load_stack %0 : any|empty
// CHECK-NEXT:   cond_branch %10, %BB5, %BB6
// CHECK-NEXT: %BB5:
// CHECK-NEXT:   complete_generator
// CHECK-NEXT:   return %9
// CHECK-NEXT: %BB6:
// CHECK-NEXT:   complete_generator
// CHECK-NEXT:   return undefined
