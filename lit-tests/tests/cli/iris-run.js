// iris-run runs bundles and has no compiler: a bundle prints what `iris` prints, code
// generation from strings throws an EvalError, source text is refused, a bad bundle is
// rejected, and its limits and usage errors are those of `iris`.
// NODE-SKIP: eval and new Function work in node; iris-run has no compiler
// RUN: %iris compile %s -o %t.irb
// RUN: %iris-run %t.irb | %FileCheck %s --match-full-lines
// RUN: %iris-run --no-jit %t.irb | %FileCheck %s --match-full-lines
// RUN: %iris-run --jit-threshold=0 %t.irb | %FileCheck %s --match-full-lines
// RUN: %iris-run --stack-limit 50 %t.irb | %FileCheck %s --check-prefix=STACK
// RUN: %iris-run --heap-limit 8 %t.irb | %FileCheck %s --check-prefix=HEAP
// RUN: not %iris-run %s 2>&1 | %FileCheck %s --check-prefix=SOURCE
// RUN: head -c 64 %t.irb > %t.truncated.irb
// RUN: not %iris-run %t.truncated.irb 2>&1 | %FileCheck %s --check-prefix=TRUNC
// RUN: (%iris-run --bogus %t.irb 2>&1; echo "status $?") | %FileCheck %s --check-prefix=USAGE
// RUN: (%iris-run 2>&1; echo "status $?") | %FileCheck %s --check-prefix=NOFILE
// RUN: %iris-run --help | %FileCheck %s --check-prefix=HELP
function depth(n) {
  return n === 0 ? 0 : 1 + depth(n - 1);
}
const words = ["a", "bundle", "ran"].map((w) => w.toUpperCase());
print(words.join(" "), depth(40));
for (const make of [() => eval("1 + 1"), () => new Function("return 1"), () => Function("a", "return a")]) {
  try {
    make();
    print("compiled");
  } catch (e) {
    print(e.name, e.constructor === EvalError);
  }
}
try {
  depth(100);
  print("deep calls ran");
} catch (e) {
  print(e.name, e.message);
}
try {
  const big = [];
  for (let i = 0; i < 1e6; i++) big.push({ i, s: "x" + i });
  print("allocated", big.length);
} catch (e) {
  print(e.name, e.message);
}
// CHECK: A BUNDLE RAN 40
// CHECK-NEXT: EvalError true
// CHECK-NEXT: EvalError true
// CHECK-NEXT: EvalError true
// CHECK-NEXT: deep calls ran
// CHECK-NEXT: allocated 1000000
// STACK: RangeError Maximum call stack size exceeded
// STACK-NEXT: allocated 1000000
// HEAP: deep calls ran
// HEAP-NEXT: RangeError {{.*}}
// SOURCE: iris-run: {{.*}}iris-run.js is not a bundle: iris-run has no compiler (`iris compile {{.*}}iris-run.js` writes one)
// TRUNC: iris-run: {{.*}}truncated.irb: invalid bundle{{.*}}
// TRUNC-NOT: RAN
// USAGE: iris-run: unknown option --bogus
// USAGE-NEXT: (iris-run --help lists the options)
// USAGE-NEXT: status 2
// NOFILE: iris-run: no bundle given
// NOFILE: status 2
// HELP: Usage: iris-run [OPTIONS] BUNDLE
