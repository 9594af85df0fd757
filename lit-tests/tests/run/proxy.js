// Proxy: traps reached from property reads, `in`, Object.keys, JSON.stringify, spread,
// calls and `new`; invariants that make a trap's answer a TypeError; revocation; how
// Array.isArray, Object.prototype.toString, typeof, instanceof, `with` and console.log
// see a proxy.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold=0 %s | %FileCheck %s --match-full-lines
const log = [];
const target = { a: 1, b: [1, 2] };
const p = new Proxy(target, {
  get(t, k, r) { log.push("get " + String(k)); return Reflect.get(t, k, r); },
  has(t, k) { log.push("has " + String(k)); return k in t; },
  ownKeys(t) { log.push("ownKeys"); return Reflect.ownKeys(t); },
  getOwnPropertyDescriptor(t, k) { log.push("gopd " + String(k)); return Reflect.getOwnPropertyDescriptor(t, k); },
});
console.log(p.a, "a" in p, Object.keys(p), JSON.stringify(p), { ...p }.b.length);
// CHECK: 1 true [ 'a', 'b' ] {"a":1,"b":[1,2]} 2
console.log(log.join("; "));
// CHECK-NEXT: get a; has a; ownKeys; gopd a; gopd b; get toJSON; ownKeys; gopd a; gopd b; get a; get b; ownKeys; gopd a; get a; gopd b; get b
function reads(o) { return o.x + o.x; }
const counting = new Proxy({ x: 2 }, { get(t, k) { log.push(k); return t[k] * 10; } });
log.length = 0;
for (let i = 0; i < 50; i++) reads({ x: 1 });
console.log(reads(counting), log.length);
// CHECK-NEXT: 40 2
console.log(p, Array.isArray(new Proxy([], {})), Object.prototype.toString.call(new Proxy([], {})), typeof new Proxy(function () {}, {}));
// CHECK-NEXT: { a: 1, b: [ 1, 2 ] } true [object Array] function
const f = new Proxy(function (x) { return x * 2; }, { apply(t, self, args) { return t(...args) + 1; }, construct(t, args) { return { made: args[0] }; } });
console.log(f(20), new f(5).made, Function.prototype.toString.call(f));
// CHECK-NEXT: 41 5 function () { [native code] }
const frozen = Object.freeze({ k: 1 });
for (const bad of [
  () => new Proxy(frozen, { get() { return 2; } }).k,
  () => Object.keys(new Proxy(frozen, { ownKeys() { return []; } })),
  () => Object.getPrototypeOf(new Proxy(frozen, { getPrototypeOf() { return Array.prototype; } })),
  () => new Proxy({}, { set() { return false; } }).x = 1,
]) {
  try {
    console.log("no error", bad());
  } catch (e) {
    console.log(e.name);
  }
}
// CHECK-NEXT: TypeError
// CHECK-NEXT: TypeError
// CHECK-NEXT: TypeError
// CHECK-NEXT: no error 1
const { proxy, revoke } = Proxy.revocable({}, {});
revoke();
try {
  proxy.x;
} catch (e) {
  console.log(e.name);
}
// CHECK-NEXT: TypeError
console.log(proxy);
// CHECK-NEXT: <Revoked Proxy>
with (new Proxy({ q: 42 }, {})) {
  console.log(q);
}
// CHECK-NEXT: 42
class A {}
const inherits = Object.create(new Proxy({ inherited: "yes" }, {}));
console.log(new Proxy(new A(), {}) instanceof A, inherits.inherited, "inherited" in inherits);
// CHECK-NEXT: true yes true
