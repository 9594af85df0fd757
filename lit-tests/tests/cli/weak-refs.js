// Weak references are weak: with --expose-gc's gc(), a WeakRef's target lives through the
// job that made or read it and is gone in a later one; a WeakMap entry keeps its value
// only while its key lives, even when the value refers to the key; a FinalizationRegistry
// calls back for each registered target that died (in a cleanup job, in any order) unless
// it was unregistered.
// NODE-SKIP: node runs cleanup callbacks between tasks, later than the jobs here
// RUN: %iris --expose-gc %s | %FileCheck %s --match-full-lines
// RUN: %iris --expose-gc --jit-threshold=0 %s | %FileCheck %s --match-full-lines
// Collecting at every allocation, the registered targets die while the script still runs,
// and their cleanup job is queued before the promise job, unless an incremental marking
// under way when they died had reached them (they then wait for the next full collection,
// and are finalized after the promise job): the second run sorts the lines to see that each
// is finalized, whenever.
// RUN: %iris --expose-gc --gc-stress %s | %FileCheck %s --check-prefix=STRESS --match-full-lines
// RUN: %iris --expose-gc --gc-stress %s | LC_ALL=C sort | %FileCheck %s --check-prefix=SORTED --match-full-lines
// STRESS: same job: target
// STRESS-NEXT: unregister: true false
// STRESS-NEXT: TypeError
// STRESS: next job: undefined
// STRESS-NEXT: live key: true
// STRESS-NOT: never
// SORTED: TypeError
// SORTED-NEXT: finalized a symbol
// SORTED-NEXT: finalized key in a cycle with its value
// SORTED-NEXT: finalized value of a dead key
// SORTED-NEXT: live key: true
// SORTED-NEXT: next job: undefined
// SORTED-NEXT: same job: target
// SORTED-NEXT: unregister: true false
const registry = new FinalizationRegistry((held) => console.log("finalized", held));

const ref = (() => new WeakRef({ name: "target" }))();
gc();
console.log("same job:", ref.deref()?.name);
// CHECK: same job: target

const wm = new WeakMap();
(() => {
  const k = {};
  const v = { k };
  wm.set(k, v);
  registry.register(k, "key in a cycle with its value");
  registry.register(v, "value of a dead key");
})();
const liveKey = {};
(() => {
  const v = {};
  wm.set(liveKey, v);
  registry.register(v, "value of a live key (never)");
})();

const token = {};
(() => registry.register({}, "unregistered (never)", token))();
console.log("unregister:", registry.unregister(token), registry.unregister(token));
// CHECK-NEXT: unregister: true false

(() => registry.register(Symbol("s"), "a symbol"))();
try {
  new WeakRef(Symbol.for("registered"));
} catch (e) {
  console.log(e.name);
}
// CHECK-NEXT: TypeError

Promise.resolve().then(() => {
  // The script's job has ended: what it kept alive is not any more.
  gc();
  console.log("next job:", ref.deref());
  console.log("live key:", wm.get(liveKey) !== undefined);
});
// CHECK-NEXT: next job: undefined
// CHECK-NEXT: live key: true
// CHECK-DAG: finalized key in a cycle with its value
// CHECK-DAG: finalized value of a dead key
// CHECK-DAG: finalized a symbol
// CHECK-NOT: never
