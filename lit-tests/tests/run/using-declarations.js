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
  // CHECK-NEXT: body, sync b, async a
})();
