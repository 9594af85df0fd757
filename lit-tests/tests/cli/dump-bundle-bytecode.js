// `dump --bytecode` of a bundle file prints the same disassembly as of its source.
// RUN: %iris dump --bytecode %s > %t.from-source
// RUN: %iris compile %s -o %t.irb
// RUN: %iris dump --bytecode %t.irb > %t.from-bundle
// RUN: diff %t.from-source %t.from-bundle
// RUN: %FileCheck %s --input-file=%t.from-bundle
function square(x) { return x * x; }
print(square(7));
// CHECK: square
