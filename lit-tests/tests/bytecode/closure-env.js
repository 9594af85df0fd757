// Bytecode: environments for captured variables (create_environment, load/store slots).
// RUN: %iris dump --bytecode %s | %FileCheck %s --match-full-lines
function make() {
  var x = 1;
  return function () { return x++; };
}

// Auto-generated content below. Please do not modify manually.

// CHECK:      bundle "{{.*}}closure-env.js": 3 functions, 3 strings
// CHECK-EMPTY:
// CHECK-NEXT: function 0 "": params 0, length 0, frame 3, ic 0
// CHECK-NEXT:   0000: load_const_undefined r0
// CHECK-NEXT:   0002: declare_globals r0, "fmake"
// CHECK-NEXT:   0006: create_closure r2, r0, f1
// CHECK-NEXT:   0011: load_const_string r1, "make"
// CHECK-NEXT:   0015: call_builtin r0, declareGlobalFunction, r1, 2
// CHECK-NEXT:   0020: ret_undefined
// CHECK-NEXT:   locations:
// CHECK-NEXT:     0006 3:10
// CHECK-NEXT:     0020 3:1
// CHECK-EMPTY:
// CHECK-NEXT: function 1 "make": params 0, length 0, frame 2, ic 0, flags constructor, source 157+70
// CHECK-NEXT:   0000: load_const_undefined r0
// CHECK-NEXT:   0002: create_env r1, r0, 1
// CHECK-NEXT:   0006: store_env r1, 0, r0
// CHECK-NEXT:   0011: load_const_int r0, 1
// CHECK-NEXT:   0017: store_env r1, 0, r0
// CHECK-NEXT:   0022: create_closure r0, r1, f2
// CHECK-NEXT:   0027: ret r0
// CHECK-NEXT:   locations:
// CHECK-NEXT:     0000 3:1
// CHECK-NEXT:     0011 4:11
// CHECK-NEXT:     0022 5:10
// CHECK-NEXT:     0027 5:3
// CHECK-EMPTY:
// CHECK-NEXT: function 2 "": params 0, length 0, frame 3, ic 0, flags constructor, source 197+27
// CHECK-NEXT:   0000: get_parent_env r0
// CHECK-NEXT:   0002: load_env r1, r0, 0
// CHECK-NEXT:   0007: post_inc r1, r2, r1
// CHECK-NEXT:   0011: store_env r0, 0, r2
// CHECK-NEXT:   0016: ret r1
// CHECK-NEXT:   locations:
// CHECK-NEXT:     0000 5:10
// CHECK-NEXT:     0002 5:31
// CHECK-NEXT:     0016 5:24
