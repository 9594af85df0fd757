// Bytecode: a loop with a backward jump; phi moves coalesced into one register.
// RUN: %iris dump --bytecode %s | %FileCheck %s --match-full-lines
function count(n) {
  var c = 0;
  for (var i = 0; i < n; i++) c = c + i;
  return c;
}

// Auto-generated content below. Please do not modify manually.

// CHECK:      bundle "{{.*}}loop.js": 2 functions, 3 strings
// CHECK-EMPTY:
// CHECK-NEXT: function 0 "": params 0, length 0, frame 3, ic 0
// CHECK-NEXT:   0000: load_const_undefined r0
// CHECK-NEXT:   0002: declare_globals r0, "fcount"
// CHECK-NEXT:   0006: create_closure r2, r0, f1
// CHECK-NEXT:   0011: load_const_string r1, "count"
// CHECK-NEXT:   0015: call_builtin r0, declareGlobalFunction, r1, 2
// CHECK-NEXT:   0020: ret_undefined
// CHECK-NEXT:   locations:
// CHECK-NEXT:     0006 3:10
// CHECK-NEXT:     0020 3:1
// CHECK-EMPTY:
// CHECK-NEXT: function 1 "count": params 1, length 1, frame 3, ic 0, flags constructor, source 149+87
// CHECK-NEXT:   0000: load_param r0, 1
// CHECK-NEXT:   0003: load_const_int r1, 0
// CHECK-NEXT:   0009: load_const_int r2, 0
// CHECK-NEXT:   0015: jmp @0024
// CHECK-NEXT:   0017: add_n r1, r1, r2
// CHECK-NEXT:   0021: inc r2, r2
// CHECK-NEXT:   0024: jmp_less @0017, r2, r0
// CHECK-NEXT:   0028: ret r1
// CHECK-NEXT:   locations:
// CHECK-NEXT:     0000 3:1
// CHECK-NEXT:     0003 5:16
// CHECK-NEXT:     0017 5:35
// CHECK-NEXT:     0021 5:26
// CHECK-NEXT:     0024 5:19
// CHECK-NEXT:     0028 6:3
