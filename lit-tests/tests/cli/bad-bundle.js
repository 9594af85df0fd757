// A corrupted or truncated bundle is rejected by the verifier with its error, never run.
// RUN: %iris compile %s -o %t.irb
// RUN: %iris %t.irb | %FileCheck %s --check-prefix=GOOD
// RUN: head -c 64 %t.irb > %t.truncated.irb
// RUN: not %iris %t.truncated.irb 2>&1 | %FileCheck %s --check-prefix=TRUNC
// RUN: cp %t.irb %t.flipped.irb
// RUN: printf '\377\377\377\377' | dd of=%t.flipped.irb bs=1 seek=40 conv=notrunc 2>/dev/null
// RUN: not %iris %t.flipped.irb 2>&1 | %FileCheck %s --check-prefix=FLIP
// RUN: not %iris dump --bytecode %t.flipped.irb 2>&1 | %FileCheck %s --check-prefix=FLIP
// RUN: not %iris dump --ir %t.irb 2>&1 | %FileCheck %s --check-prefix=DUMPIR
print("the bundle ran");
// GOOD: the bundle ran
// TRUNC: iris: {{.*}}truncated.irb: invalid bundle{{.*}}
// TRUNC-NOT: the bundle ran
// FLIP: invalid bundle{{.*}}
// FLIP-NOT: the bundle ran
// DUMPIR: is a bundle: only --bytecode can dump it
