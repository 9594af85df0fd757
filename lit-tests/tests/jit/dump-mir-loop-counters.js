// A loop whose counters start from the function's parameters runs on unboxed int32s: the
// edge into the loop unboxes them (leaving for the interpreter at the loop's start if one
// is not a number), the loop's header takes i32 parameters, and values the loop only passes
// around (`step`) are not loop parameters at all.
// RUN: %iris dump --mir --jit-threshold 2 %s | %FileCheck %s
// RUN: %iris --jit-threshold 2 %s | %FileCheck %s --check-prefix=OUT

function sum(from, to, step) {
  let s = 0;
  for (let i = from; i < to; i += step) s = (s + i) | 0;
  return s;
}
let total = 0;
for (let k = 0; k < 5; k++) total += sum(k, 1000, 3);
console.log(total);
console.log(sum(0.5, 3, 1), sum("1", 4, 1));

// CHECK-LABEL: ; sum#{{[0-9]+}} (entry)
// CHECK:       unbox_i32 v1, e[[E:[0-9]+]]
// CHECK:       jump block[[H:[0-9]+]](v{{[0-9]+}}, v{{[0-9]+}})
// CHECK:       block[[H]](v{{[0-9]+}}: i32, v{{[0-9]+}}: i32) loop:

// OUT: 832499
// OUT-NEXT: 3 1
