// `await using` in a for-of head at a module's top level makes the module body
// asynchronous, as an `await` expression there does (this once crashed the compiler);
// each iteration gets a fresh binding and its resource is disposed of and awaited.
// NODE-SKIP: node 20 has no `using` declarations (written from the spec)
// RUN: %iris --module %s | %FileCheck %s --match-full-lines
// RUN: %iris --module --jit-threshold=0 %s | %FileCheck %s --match-full-lines
// RUN: %iris compile --module %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines
const steps = [];
const res = (n) => ({ async [Symbol.asyncDispose]() { steps.push("dispose " + n); } });
const fs = [];
for (await using x of [res("a"), res("b")]) {
  steps.push("body");
  fs.push(() => x);
}
console.log(steps.join(", "));
// CHECK: body, dispose a, body, dispose b
console.log(fs[0]() !== fs[1](), typeof fs[0]()[Symbol.asyncDispose]);
// CHECK-NEXT: true function
