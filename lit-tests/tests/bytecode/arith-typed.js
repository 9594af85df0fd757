// Bytecode: number-typed arithmetic uses typed opcodes; untyped uses the generic ones.
// RUN: %iris dump --bytecode %s | %FileCheck %s --match-full-lines
function typed(a, b) { a = +a; b = +b; return a * b + 1; }
function generic(a, b) { return a + b; }

// Auto-generated content below. Please do not modify manually.

// CHECK:      bundle "{{.*}}arith-typed.js": 3 functions, 4 strings
// CHECK-EMPTY:
// CHECK-NEXT: function 0 "": params 0, length 0, frame 4, ic 0
// CHECK-NEXT:   0000: load_const_undefined r0
// CHECK-NEXT:   0002: declare_globals r0, "ftyped fgeneric"
// CHECK-NEXT:   0006: create_closure r3, r0, f1
// CHECK-NEXT:   0011: load_const_string r2, "typed"
// CHECK-NEXT:   0015: call_builtin r1, declareGlobalFunction, r2, 2
// CHECK-NEXT:   0020: create_closure r3, r0, f2
// CHECK-NEXT:   0025: load_const_string r2, "generic"
// CHECK-NEXT:   0029: call_builtin r0, declareGlobalFunction, r2, 2
// CHECK-NEXT:   0034: ret_undefined
// CHECK-NEXT:   locations:
// CHECK-NEXT:     0006 3:10
// CHECK-NEXT:     0020 4:10
// CHECK-NEXT:     0034 4:1
// CHECK-EMPTY:
// CHECK-NEXT: function 1 "typed": params 2, length 2, frame 2, ic 0, flags constructor, source 156+58
// CHECK-NEXT:   0000: load_param r0, 1
// CHECK-NEXT:   0003: load_param r1, 2
// CHECK-NEXT:   0006: to_number r0, r0
// CHECK-NEXT:   0009: to_number r1, r1
// CHECK-NEXT:   0012: mul_n r0, r0, r1
// CHECK-NEXT:   0016: load_const_int r1, 1
// CHECK-NEXT:   0022: add_n r0, r0, r1
// CHECK-NEXT:   0026: ret r0
// CHECK-NEXT:   locations:
// CHECK-NEXT:     0000 3:1
// CHECK-NEXT:     0006 3:28
// CHECK-NEXT:     0009 3:36
// CHECK-NEXT:     0012 3:47
// CHECK-NEXT:     0026 3:40
// CHECK-EMPTY:
// CHECK-NEXT: function 2 "generic": params 2, length 2, frame 2, ic 0, flags constructor, source 215+40
// CHECK-NEXT:   0000: load_param r0, 1
// CHECK-NEXT:   0003: load_param r1, 2
// CHECK-NEXT:   0006: add r0, r0, r1
// CHECK-NEXT:   0010: ret r0
// CHECK-NEXT:   locations:
// CHECK-NEXT:     0000 4:1
// CHECK-NEXT:     0006 4:33
// CHECK-NEXT:     0010 4:26
