// `iris compile FILE` without -o writes FILE with the extension .irb; a bundle is recognized
// by its contents whatever its name; `iris run` is the same as `iris FILE`.
// RUN: cp %s %t.js
// RUN: %iris compile %t.js
// RUN: %iris %t.irb | %FileCheck %s
// RUN: cp %t.irb %t.bundle-with-odd-name.js
// RUN: %iris run %t.bundle-with-odd-name.js | %FileCheck %s
// RUN: not %iris compile %t.irb 2>&1 | %FileCheck %s --check-prefix=AGAIN
print("compiled " + typeof print);
// CHECK: compiled function
// AGAIN: is already a bundle
