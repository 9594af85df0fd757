// --stack-limit bounds the JavaScript calls under way: a call past it throws a RangeError
// the program can catch.
// NODE-SKIP: node's --stack-size counts KiB of native stack, not calls
// RUN: %iris --stack-limit 100 %s | %FileCheck %s --match-full-lines
// RUN: %iris --no-jit --stack-limit 100 %s | %FileCheck %s --match-full-lines
// RUN: not %iris --stack-limit 0 %s 2>&1 | %FileCheck %s --check-prefix=ZERO
function depth(n) {
  return n === 0 ? 0 : 1 + depth(n - 1);
}
print(depth(90));
try {
  depth(100);
} catch (e) {
  print(e instanceof RangeError, e.message);
}
// CHECK: 90
// CHECK-NEXT: true Maximum call stack size exceeded
// ZERO: error: invalid value '0' for '--stack-limit <CALLS>'{{.*}}
