// Async generators: the request queue (next/throw/return each get a promise, served in
// order), awaits and yields interleaved with other promise jobs, return() awaiting its
// value at a yield and after completion, throw() before start, yield* over async and sync
// iterables, and the prototypes of the objects involved.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris --gc-stress %s | %FileCheck %s --match-full-lines --strict-whitespace

const show = (tag) => (r) => print(tag, JSON.stringify(r));
const fail = (tag) => (e) => print(tag, "rejected:", e instanceof Error ? e.message : e);

async function* counter(n) {
  print("counter starts");
  for (let i = 0; i < n; i++) {
    const sent = yield i;
    print("counter got", sent);
  }
  return "done";
}

// Requests made before the body runs are queued and served in order.
const c = counter(2);
c.next("a").then(show("c1"));
c.next("b").then(show("c2"));
c.next("c").then(show("c3"));
c.next("d").then(show("c4"));
print("after the calls");

// Jobs interleave: each await and each yield takes its turn in the job queue.
async function* ticker() {
  print("t: before await");
  await null;
  print("t: after await");
  yield 1;
  print("t: after yield");
}
const t = ticker();
t.next().then(show("t1"));
Promise.resolve().then(() => print("job 1")).then(() => print("job 2")).then(() => print("job 3"));
t.next().then(show("t2"));

// return() at a yield awaits its value, runs finally blocks, and later requests see the
// generator completed.
async function* guarded() {
  try {
    yield "first";
    yield "never";
  } finally {
    print("guarded finally");
  }
}
const g = guarded();
g.next().then(show("g1"));
g.return(Promise.resolve("early")).then(show("g2"));
g.next().then(show("g3"));

// return() of a generator that has not started does not run it; its value is awaited and
// a rejection rejects the request.
async function* untouched() {
  print("never printed");
}
const u = untouched();
u.return(Promise.reject(new Error("nope"))).then(show("u1"), fail("u1"));
u.next().then(show("u2"));
const u2 = untouched();
u2.throw(new Error("thrown before start")).then(show("u3"), fail("u3"));
u2.next().then(show("u4"));

// A throw() at a yield is thrown there and can be caught.
async function* catcher() {
  try {
    yield 1;
  } catch (e) {
    print("caught in body:", e);
    yield 2;
  }
}
const k = catcher();
k.next().then(show("k1"));
k.throw("oops").then(show("k2"));
k.next().then(show("k3"));

// An exception from the body rejects the request; the generator is then completed.
async function* thrower() {
  yield 1;
  throw new Error("body threw");
}
const th = thrower();
th.next().then(show("th1"));
th.next().then(show("th2"), fail("th2"));
th.next().then(show("th3"));

// yield awaits its operand; a rejected operand is thrown at the yield.
async function* awaiting() {
  const r = yield Promise.resolve("resolved value");
  try {
    yield Promise.reject(new Error("rejected operand"));
  } catch (e) {
    print("yield threw:", e.message);
  }
  return Promise.resolve("returned value");
}
const aw = awaiting();
aw.next().then(show("aw1"));
aw.next().then(show("aw2"));
aw.next().then(show("aw3"));

// yield* delegates to async and sync iterables; the delegate's return value is its value.
async function* inner() {
  yield "in-1";
  const x = yield "in-2";
  return "inner result " + x;
}
async function* outer() {
  const r = yield* inner();
  print("yield* returned:", r);
  yield* ["sync-1", Promise.resolve("sync-2")];
}
const o = outer();
o.next().then(show("o1"));
o.next().then(show("o2"));
o.next("sent").then(show("o3"));
o.next().then(show("o4"));
o.next().then(show("o5"));

// Methods, prototypes and tags.
class K {
  async *m() { yield this instanceof K; }
  static async *s() { yield "static"; }
}
new K().m().next().then(show("method"));
K.s().next().then(show("static"));
const AsyncGeneratorFunction = Object.getPrototypeOf(async function* () {}).constructor;
const proto = Object.getPrototypeOf(counter.prototype);
print(AsyncGeneratorFunction.name, Object.prototype.toString.call(c), proto[Symbol.toStringTag]);
print(Object.getPrototypeOf(c) === counter.prototype, typeof proto[Symbol.asyncIterator], c[Symbol.asyncIterator]() === c);
print(Object.getOwnPropertyNames(counter).sort().join(), Object.hasOwn(counter.prototype, "constructor"));
const dyn = new AsyncGeneratorFunction("a", "yield a * 2;");
dyn(21).next().then(show("dynamic"));
try {
  new counter();
} catch (e) {
  print("not a constructor:", e.constructor.name);
}
AsyncGeneratorFunction.prototype.prototype.next.call({}).then(show("bad receiver"), (e) => print("bad receiver:", e.constructor.name));

// CHECK: counter starts
// CHECK-NEXT: after the calls
// CHECK-NEXT: t: before await
// CHECK-NEXT: AsyncGeneratorFunction [object AsyncGenerator] AsyncGenerator
// CHECK-NEXT: true function true
// CHECK-NEXT: length,name,prototype false
// CHECK-NEXT: not a constructor: TypeError
// CHECK-NEXT: counter got b
// CHECK-NEXT: t: after await
// CHECK-NEXT: job 1
// CHECK-NEXT: u3 rejected: thrown before start
// CHECK-NEXT: u4 {"done":true}
// CHECK-NEXT: caught in body: oops
// CHECK-NEXT: bad receiver: TypeError
// CHECK-NEXT: c1 {"value":0,"done":false}
// CHECK-NEXT: counter got c
// CHECK-NEXT: t: after yield
// CHECK-NEXT: job 2
// CHECK-NEXT: g1 {"value":"first","done":false}
// CHECK-NEXT: guarded finally
// CHECK-NEXT: u1 rejected: nope
// CHECK-NEXT: u2 {"done":true}
// CHECK-NEXT: k1 {"value":1,"done":false}
// CHECK-NEXT: th1 {"value":1,"done":false}
// CHECK-NEXT: th2 rejected: body threw
// CHECK-NEXT: th3 {"done":true}
// CHECK-NEXT: aw1 {"value":"resolved value","done":false}
// CHECK-NEXT: yield threw: rejected operand
// CHECK-NEXT: method {"value":true,"done":false}
// CHECK-NEXT: static {"value":"static","done":false}
// CHECK-NEXT: dynamic {"value":42,"done":false}
// CHECK-NEXT: c2 {"value":1,"done":false}
// CHECK-NEXT: t1 {"value":1,"done":false}
// CHECK-NEXT: t2 {"done":true}
// CHECK-NEXT: job 3
// CHECK-NEXT: g2 {"value":"early","done":true}
// CHECK-NEXT: g3 {"done":true}
// CHECK-NEXT: k2 {"value":2,"done":false}
// CHECK-NEXT: k3 {"done":true}
// CHECK-NEXT: o1 {"value":"in-1","done":false}
// CHECK-NEXT: c3 {"value":"done","done":true}
// CHECK-NEXT: c4 {"done":true}
// CHECK-NEXT: aw2 {"value":"returned value","done":true}
// CHECK-NEXT: aw3 {"done":true}
// CHECK-NEXT: o2 {"value":"in-2","done":false}
// CHECK-NEXT: yield* returned: inner result sent
// CHECK-NEXT: o3 {"value":"sync-1","done":false}
// CHECK-NEXT: o4 {"value":"sync-2","done":false}
// CHECK-NEXT: o5 {"done":true}
