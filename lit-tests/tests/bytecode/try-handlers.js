// Bytecode: try/catch regions become the handler table; the handler starts with catch.
// RUN: %iris dump --bytecode %s | %FileCheck %s --match-full-lines
function f(g) {
  try { g(); } catch (e) { return e; }
  return 0;
}

// Auto-generated content below. Please do not modify manually.

// CHECK:      bundle "{{.*}}try-handlers.js": 2 functions, 3 strings
// CHECK-EMPTY:
// CHECK-NEXT: function 0 "": params 0, length 0, frame 3, ic 0
// CHECK-NEXT:   0000: load_const_undefined r0
// CHECK-NEXT:   0002: declare_globals r0, "ff"
// CHECK-NEXT:   0006: create_closure r2, r0, f1
// CHECK-NEXT:   0011: load_const_string r1, "f"
// CHECK-NEXT:   0015: call_builtin r0, declareGlobalFunction, r1, 2
// CHECK-NEXT:   0020: ret_undefined
// CHECK-NEXT:   locations:
// CHECK-NEXT:     0006 3:10
// CHECK-NEXT:     0020 3:1
// CHECK-EMPTY:
// CHECK-NEXT: function 1 "f": params 1, length 1, frame 2, ic 0, flags constructor, source 156+68
// CHECK-NEXT:   0000: load_param r0, 1
// CHECK-NEXT:   0003: load_const_undefined r1
// CHECK-NEXT:   0005: call r0, r0, r1, 1
// CHECK-NEXT:   0010: load_const_int r0, 0
// CHECK-NEXT:   0016: ret r0
// CHECK-NEXT:   0018: catch r0
// CHECK-NEXT:   0020: ret r0
// CHECK-NEXT:   handlers:
// CHECK-NEXT:     [0003, 0010) -> 0018
// CHECK-NEXT:   locations:
// CHECK-NEXT:     0000 3:1
// CHECK-NEXT:     0003 4:9
// CHECK-NEXT:     0010 5:3
// CHECK-NEXT:     0018 4:16
// CHECK-NEXT:     0020 4:28
