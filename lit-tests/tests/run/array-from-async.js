// Array.fromAsync (ES2026) awaits each value of an async iterable, a sync iterable or an
// array-like, maps it with an awaited mapper, and closes an async iterator it stops early.
// NODE-SKIP: node 20 has no Array.fromAsync (written from the spec)
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --gc-stress %s | %FileCheck %s --match-full-lines
async function* gen() { yield 1; yield Promise.resolve(2); yield 3; }
const log = [];
const closing = {
  [Symbol.asyncIterator]() {
    let i = 0;
    return {
      next() { return Promise.resolve({ value: i++, done: false }); },
      return() { log.push("return"); return Promise.resolve({ done: true }); },
    };
  },
};
class Box { constructor(...args) { this.args = args; } }
(async () => {
  console.log(await Array.fromAsync(gen()));
  // CHECK: [ 1, 2, 3 ]
  console.log(await Array.fromAsync([Promise.resolve("a"), "b"], async (v, i) => v + i));
  // CHECK-NEXT: [ 'a0', 'b1' ]
  console.log(await Array.fromAsync({ length: 2, 0: Promise.resolve(7), 1: 8 }));
  // CHECK-NEXT: [ 7, 8 ]
  const boxed = await Array.fromAsync.call(Box, { length: 1, 0: "x" });
  console.log(boxed instanceof Box, boxed.args, boxed.length, boxed[0]);
  // CHECK-NEXT: true [ 1 ] 1 x
  try {
    await Array.fromAsync(closing, (v) => { if (v === 2) throw new Error("stop at " + v); return v; });
  } catch (e) {
    console.log(e.message, log);
  }
  // CHECK-NEXT: stop at 2 [ 'return' ]
  const p = Array.fromAsync(null);
  console.log(p instanceof Promise);
  // CHECK-NEXT: true
  await p.catch((e) => console.log(e.constructor.name));
  // CHECK-NEXT: TypeError
  await Array.fromAsync([], 5).catch((e) => console.log(e.constructor.name));
  // CHECK-NEXT: TypeError
})();
