// `iris dump --mir --disasm`: the MIR of each compiled function, then its machine code.
// (--disasm goes with --mir; alone it is an error, not another dump.)
// RUN: %iris dump --mir --disasm --jit-threshold 0 %s | %FileCheck %s
// RUN: not %iris dump --disasm %s 2>&1 | %FileCheck %s --check-prefix=ALONE

function twice(x) {
  return x + x;
}
twice(2);

// CHECK-LABEL: ; twice#{{[0-9]+}} (entry)
// CHECK:       function %twice#{{[0-9]+}}(value, value) -> value {
// CHECK:       ; machine code ({{[0-9]+}} bytes)
// CHECK-NEXT:  0:

// ALONE: the following required arguments were not provided
// ALONE: --mir
