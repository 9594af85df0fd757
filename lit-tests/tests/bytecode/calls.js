// Bytecode: calls take this and the arguments from consecutive registers.
// RUN: %iris dump --bytecode %s | %FileCheck %s --match-full-lines
function f(o, a, b) { return o.m(a, b, 3) + g(a); }
function g(x) { return x; }

// Auto-generated content below. Please do not modify manually.

// CHECK:      bundle "{{.*}}calls.js": 3 functions, 5 strings
// CHECK-EMPTY:
// CHECK-NEXT: function 0 "": params 0, length 0, frame 4, ic 0
// CHECK-NEXT:   0000: load_const_undefined r0
// CHECK-NEXT:   0002: declare_globals r0, "ff fg"
// CHECK-NEXT:   0006: create_closure r3, r0, f1
// CHECK-NEXT:   0011: load_const_string r2, "f"
// CHECK-NEXT:   0015: call_builtin r1, declareGlobalFunction, r2, 2
// CHECK-NEXT:   0020: create_closure r3, r0, f2
// CHECK-NEXT:   0025: load_const_string r2, "g"
// CHECK-NEXT:   0029: call_builtin r0, declareGlobalFunction, r2, 2
// CHECK-NEXT:   0034: ret_undefined
// CHECK-NEXT:   locations:
// CHECK-NEXT:     0006 3:10
// CHECK-NEXT:     0020 4:10
// CHECK-NEXT:     0034 4:1
// CHECK-EMPTY:
// CHECK-NEXT: function 1 "f": params 3, length 3, frame 7, ic 2, flags constructor, source 143+51
// CHECK-NEXT:   0000: load_param r3, 1
// CHECK-NEXT:   0003: load_param r0, 2
// CHECK-NEXT:   0006: load_param r5, 3
// CHECK-NEXT:   0009: get_by_id r1, r3, "m", ic0
// CHECK-NEXT:   0016: mov r4, r0
// CHECK-NEXT:   0019: load_const_int r6, 3
// CHECK-NEXT:   0025: call r1, r1, r3, 4
// CHECK-NEXT:   0030: get_global r2, "g", ic1
// CHECK-NEXT:   0036: load_const_undefined r3
// CHECK-NEXT:   0038: mov r4, r0
// CHECK-NEXT:   0041: call r0, r2, r3, 2
// CHECK-NEXT:   0046: add r0, r1, r0
// CHECK-NEXT:   0050: ret r0
// CHECK-NEXT:   locations:
// CHECK-NEXT:     0000 3:1
// CHECK-NEXT:     0009 3:32
// CHECK-NEXT:     0030 3:45
// CHECK-NEXT:     0046 3:30
// CHECK-NEXT:     0050 3:23
// CHECK-EMPTY:
// CHECK-NEXT: function 2 "g": params 1, length 1, frame 1, ic 0, flags constructor, source 195+27
// CHECK-NEXT:   0000: load_param r0, 1
// CHECK-NEXT:   0003: ret r0
// CHECK-NEXT:   locations:
// CHECK-NEXT:     0000 4:1
// CHECK-NEXT:     0003 4:17
