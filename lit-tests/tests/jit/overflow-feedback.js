// Arithmetic feedback records the results' kinds as well as the operands': a sum of two
// int32s that overflowed while the function was recording makes the compiled addition an
// f64 one, instead of an int32 addition that keeps leaving through its overflow exit.
// RUN: %iris --jit-log %s 2>&1 | %FileCheck %s

function mix(a, b) {
  return a + b;
}
let x = 0;
for (let i = 0; i < 2000; i++) x = mix(i % 7 === 0 ? 2147483647 : i, i) | 0;
print(x);

// CHECK: jit: compiled mix#1 (entry)
// CHECK-NOT: jit: exit mix
// CHECK-NOT: jit: dropped
// CHECK: 3998
