// `using` and `await using` declarations dispose of their resources in reverse order when
// the block or function body they are in is left, however it is left.
// NODE-SKIP: node 20 has no `using` declarations (written from the spec)
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold=0 %s | %FileCheck %s --match-full-lines
// RUN: %iris --gc-stress %s | %FileCheck %s --match-full-lines
const log = [];
function res(name) { return { [Symbol.dispose]() { log.push("dispose " + name); } }; }
{
  using a = res("a"), b = res("b");
  log.push("body");
}
console.log(log.join(", "));
// CHECK: body, dispose b, dispose a
log.length = 0;
function early(flag) {
  using r = res("r");
  if (flag) return "returned";
  log.push("end");
  return "fell through";
}
console.log(early(true), log.join(", "));
// CHECK-NEXT: returned dispose r
log.length = 0;
for (let i = 0; i < 2; i++) {
  using x = res("x" + i);
  if (i === 0) continue;
  log.push("after continue");
}
console.log(log.join(", "));
// CHECK-NEXT: dispose x0, after continue, dispose x1
try {
  using bad = { [Symbol.dispose]() { throw new Error("in dispose"); } };
  throw new Error("in body");
} catch (e) {
  console.log(e.constructor.name, e.error.message, e.suppressed.message);
}
// CHECK-NEXT: SuppressedError in dispose in body
try { using n = 1; } catch (e) { console.log(e.constructor.name); }
// CHECK-NEXT: TypeError
{ using nothing = null, undef = undefined; }
const f = () => { using fn = { [Symbol.dispose]: () => log.push("arrow") }; return fn; };
log.length = 0;
f();
console.log(log.join(", "));
// CHECK-NEXT: arrow
(async () => {
  const order = [];
  {
    await using a = { async [Symbol.asyncDispose]() { order.push("async a"); } };
    using b = { [Symbol.dispose]() { order.push("sync b"); } };
    await using c = null;
    order.push("body");
  }
  console.log(order.join(", "));
  // (printed after the synchronous code below)
})();
// A `for (;;)` head's resources are disposed of when the loop ends, however it ends; a
// for-of head's at the end of each iteration, `await using` ones awaited.
log.length = 0;
for (using a = res("a"), b = res("b"); log.length < 1; log.push("update")) {
  log.push("body");
}
console.log(log.join(", "));
// CHECK-NEXT: body, update, dispose b, dispose a
log.length = 0;
outer: for (using c = res("c"); ; ) {
  for (;;) break outer;
}
try {
  for (using d = res("d"), e = 5; ; ) {}
} catch (err) {
  log.push(err.constructor.name);
}
try {
  for (using i = null; i === null; i = 1) {}
} catch (err) {
  log.push(err.constructor.name);
}
for (using of = null; ; ) break;
console.log(log.join(", "), (function () { for (using x = null; ; ) return x; })());
// CHECK-NEXT: dispose c, dispose d, TypeError, TypeError null
// CHECK-NEXT: body, sync b, async a
(async function () {
  const steps = [];
  const ares = (n) => ({ async [Symbol.asyncDispose]() { steps.push("adispose " + n); } });
  for (await using x = ares("x"); steps.length < 1; steps.push("update")) {}
  for (await using of of [ares("of")]) steps.push("of");
  for await (using y of [res("y")]) steps.push("y");
  console.log(steps.join(", "), log.at(-1));
  // CHECK-NEXT: update, adispose x, of, adispose of, y dispose y
})();
