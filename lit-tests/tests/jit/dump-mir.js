// `iris dump --mir`: the MIR of the functions the JIT compiled, after the passes.
// With int32 feedback an addition is speculated (unboxed, overflow-checked, with an exit
// that resumes the interpreter at it). A property read of one shape is a shape compare and
// a slot load; another shape leaves compiled code (to be compiled again once the inline
// cache knows it). A site whose inline cache is full (here five shapes) checks the shapes
// it holds and asks the VM for the others.
// RUN: %iris dump --mir --jit-threshold 4 %s | %FileCheck %s

function add(a, b) {
  return a + b;
}
function getX(p) {
  return p.x;
}
function anyX(p) {
  return p.x;
}
let s = 0;
for (let i = 0; i < 10; i++) s = add(s, i) + getX({ x: i });
const shapes = [{ x: 1 }, { a: 1, x: 2 }, { b: 1, x: 3 }, { c: 1, x: 4 }, { d: 1, x: 5 }];
for (let i = 0; i < 10; i++) s += anyX(shapes[i % 5]);

// CHECK: ; add#1 (entry)
// CHECK: function %add#1(value, value, value) -> value {
// CHECK: unbox_i32
// CHECK: iadd_ovf
// CHECK: ; getX#2 (entry)
// CHECK: load_shape
// CHECK-NOT: call_helper
// CHECK: load_slot
// CHECK-NOT: call_helper
// CHECK: deopt
// CHECK: ; anyX#3 (entry)
// CHECK: load_shape
// CHECK-DAG: load_slot
// CHECK-DAG: call_helper @exec
