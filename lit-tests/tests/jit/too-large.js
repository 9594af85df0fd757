// A function of more than 8,000 bytecode instructions stays in the interpreter (compiling
// one of 20,000 additions took seconds, most of it in Cranelift's register allocator);
// one just under the limit is compiled. Both compute the same as without the JIT.
// RUN: %iris --jit-threshold=0 --jit-log %s 2>&1 | %FileCheck %s
const big = new Function("x", "return x" + " + x".repeat(9000));
const small = new Function("x", "return x" + " + x".repeat(500));
console.log(big(1), small(1), big("a").length);
// CHECK-DAG: jit: anonymous#{{[0-9]+}} is not compiled: anonymous#{{[0-9]+}}: too large to compile (9003 instructions, {{[0-9]+}} registers)
// CHECK-DAG: jit: compiled anonymous#{{[0-9]+}} (entry): 503 instructions
// CHECK: 9001 501 9001
