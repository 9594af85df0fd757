// `iris dump --mir`: the MIR of the functions the JIT compiled, after the passes.
// With int32 feedback an addition is speculated (unboxed, overflow-checked, with an exit
// that resumes the interpreter at it); a property read of one shape is a shape compare and
// a slot load, with the VM as the fallback.
// RUN: %iris dump --mir --jit-threshold 4 %s | %FileCheck %s

function add(a, b) {
  return a + b;
}
function getX(p) {
  return p.x;
}
let s = 0;
for (let i = 0; i < 10; i++) s = add(s, i) + getX({ x: i });

// CHECK: ; add#1 (entry)
// CHECK: function %add#1(value, value, value) -> value {
// CHECK: unbox_i32
// CHECK: iadd_ovf
// CHECK: ; getX#2 (entry)
// CHECK: load_shape
// CHECK-DAG: load_slot
// CHECK-DAG: call_helper @exec
