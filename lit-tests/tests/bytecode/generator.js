// Bytecode: generator suspension (save_generator + ret) and resumption (resume_generator).
// RUN: %iris dump --bytecode %s | %FileCheck %s --match-full-lines
function* g() { yield 1; yield 2; }

// Auto-generated content below. Please do not modify manually.

// CHECK:      bundle "{{.*}}generator.js": 3 functions, 3 strings
// CHECK-EMPTY:
// CHECK-NEXT: function 0 "": params 0, length 0, frame 3, ic 0
// CHECK-NEXT:   0000: load_const_undefined r0
// CHECK-NEXT:   0002: declare_globals r0, "fg"
// CHECK-NEXT:   0006: create_closure r2, r0, f1
// CHECK-NEXT:   0011: load_const_string r1, "g"
// CHECK-NEXT:   0015: call_builtin r0, declareGlobalFunction, r1, 2
// CHECK-NEXT:   0020: ret_undefined
// CHECK-NEXT:   locations:
// CHECK-NEXT:     0006 3:11
// CHECK-NEXT:     0020 3:1
// CHECK-EMPTY:
// CHECK-NEXT: function 1 "g": params 0, length 0, frame 1, ic 0, flags generator, source 160+35
// CHECK-NEXT:   0000: load_const_undefined r0
// CHECK-NEXT:   0002: create_generator r0, r0, f2
// CHECK-NEXT:   0007: ret r0
// CHECK-NEXT:   locations:
// CHECK-NEXT:     0000 3:1
// CHECK-EMPTY:
// CHECK-NEXT: function 2 "g": params 0, length 0, frame 3, ic 0, flags generator_inner, source 160+35
// CHECK-NEXT:   0000: start_generator
// CHECK-NEXT:   0001: load_const_int r1, 1
// CHECK-NEXT:   0007: save_generator @0011
// CHECK-NEXT:   0009: ret r1
// CHECK-NEXT:   0011: resume_generator r1, r0
// CHECK-NEXT:   0014: mov r2, r0
// CHECK-NEXT:   0017: jmp_false @0023, r2
// CHECK-NEXT:   0020: complete_generator
// CHECK-NEXT:   0021: ret r1
// CHECK-NEXT:   0023: load_const_int r1, 2
// CHECK-NEXT:   0029: save_generator @0033
// CHECK-NEXT:   0031: ret r1
// CHECK-NEXT:   0033: resume_generator r1, r0
// CHECK-NEXT:   0036: mov r2, r0
// CHECK-NEXT:   0039: jmp_false @0045, r2
// CHECK-NEXT:   0042: complete_generator
// CHECK-NEXT:   0043: ret r1
// CHECK-NEXT:   0045: complete_generator
// CHECK-NEXT:   0046: ret_undefined
// CHECK-NEXT:   locations:
// CHECK-NEXT:     0000 3:1
// CHECK-NEXT:     0001 3:17
// CHECK-NEXT:     0023 3:26
