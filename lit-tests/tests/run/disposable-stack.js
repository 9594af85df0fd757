// DisposableStack and AsyncDisposableStack dispose their resources in reverse order, once;
// errors thrown while disposing are chained with SuppressedError.
// NODE-SKIP: node 20 has no DisposableStack (written from the spec)
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --gc-stress %s | %FileCheck %s --match-full-lines
const log = [];
const resource = (name) => ({ [Symbol.dispose]() { log.push("dispose " + name); } });
const stack = new DisposableStack();
stack.use(resource("a"));
stack.use(null);
stack.defer(() => log.push("deferred"));
console.log(stack.adopt(42, (v) => log.push("adopted " + v)));
// CHECK: 42
const moved = stack.move();
console.log(stack.disposed, moved.disposed);
// CHECK-NEXT: true false
moved.dispose();
moved.dispose();
console.log(log.join(", "), moved.disposed);
// CHECK-NEXT: adopted 42, deferred, dispose a true
try { stack.use(resource("b")); } catch (e) { console.log(e.constructor.name); }
// CHECK-NEXT: ReferenceError
try { new DisposableStack().use(1); } catch (e) { console.log(e.constructor.name); }
// CHECK-NEXT: TypeError
const failing = new DisposableStack();
failing.defer(() => { throw new Error("first"); });
failing.defer(() => { throw new Error("second"); });
try {
  failing[Symbol.dispose]();
} catch (e) {
  console.log(e instanceof SuppressedError, e.error.message, e.suppressed.message);
}
// CHECK-NEXT: true first second
const s = new SuppressedError(1, 2, "msg");
console.log(s.name, s.message, s.error, s.suppressed, Object.keys(s).length);
// CHECK-NEXT: SuppressedError msg 1 2 0
let returned = false;
const it = { __proto__: Iterator.prototype, next() { return { done: true }; }, return() { returned = true; return {}; } };
it[Symbol.dispose]();
console.log(returned);
// CHECK-NEXT: true
(async () => {
  const order = [];
  const astack = new AsyncDisposableStack();
  astack.use({ async [Symbol.asyncDispose]() { await null; order.push("async"); } });
  astack.use({ [Symbol.dispose]() { order.push("sync"); } });
  astack.defer(async () => { order.push("deferred"); });
  const done = astack.disposeAsync();
  order.push("started");
  await done;
  console.log(order.join(", "), astack.disposed);
  // CHECK-NEXT: deferred, started, sync, async true
  const bad = new AsyncDisposableStack();
  bad.defer(() => Promise.reject(new Error("rejected")));
  await bad.disposeAsync().catch((e) => console.log(e.message));
  // CHECK-NEXT: rejected
})();
