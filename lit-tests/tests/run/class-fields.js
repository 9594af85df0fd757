// Class fields: public and private, instance and static, computed keys evaluated once at
// class definition, initializers run by the constructor (at its start in base classes,
// after super() in derived ones), static blocks in order, private methods and accessors
// with brand checks, `#x in obj`, and anonymous function names.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris --gc-stress %s | %FileCheck %s --match-full-lines --strict-whitespace

class A {
  x = 1;
  ["y" + 1] = this.x + 1;
  #p = 10;
  static s = "static";
  static #sp = 5;
  f = () => this.#p;
  anon = function () {};
  #m() { return this.#p * 2; }
  get #acc() { return this.#p + 100; }
  set #acc(v) { this.#p = v; }
  static #sm() { return A.#sp; }
  static { this.fromBlock = this.s + "!"; }
  has(o) { return #p in o; }
  hasM(o) { return #m in o; }
  run() { this.#acc = 7; return [this.#m(), this.#acc, this.f(), A.#sm()]; }
  inc() { this.#p++; this.#p += 2; return this.#p; }
}
var a = new A();
print(a.x, a.y1, A.s, A.fromBlock, a.anon.name, Object.keys(a).join());
print(a.run().join(), a.inc(), a.has(a), a.has({}), a.hasM(a), a.hasM({}));
try {
  a.run.call({});
} catch (e) {
  print(e.constructor.name);
}
class B extends A {
  z = this.x + 100;
  constructor() {
    print("before super");
    super();
    this.w = this.z;
  }
}
var b = new B();
print(b.x, b.z, b.w, b.has(b));
class C extends A { q = 3; }
var c = new C();
print(c.q, c.x, Object.keys(c).join());
class D { static self = D; static n = D.name; [Symbol.iterator] = 1; }
print(D.self === D, D.n);
var k = 0;
class E { [k++] = k; [k++] = k; }
print(JSON.stringify(new E()), JSON.stringify(new E()), k);
try {
  class F { #x; static test(o) { return o.#x; } }
  F.test({});
} catch (e) {
  print(e.constructor.name, e.message);
}
var O = Object.freeze(new (class { #a = 1; get a() { return this.#a; } set a(v) { this.#a = v; } })());
O.a = 9;
print(O.a, Object.getOwnPropertySymbols(O).length, Reflect.ownKeys(O).length);
class G { #x = 1; static get(o) { return o?.#x; } }
print(G.get(new G()), G.get(null));
var order = [];
class H {
  static a = order.push("a");
  static { order.push("block"); }
  static b = order.push("b");
  [(order.push("key"), "k")] = order.push("field");
}
new H();
print(order.join());
class Counter {
  static #count = 0;
  static next() { return ++Counter.#count; }
}
print(Counter.next(), Counter.next());

// CHECK: 1 2 static static! anon x,y1,f,anon
// CHECK-NEXT: 14,107,7,5 10 true false true false
// CHECK-NEXT: TypeError
// CHECK-NEXT: before super
// CHECK-NEXT: 1 101 101 true
// CHECK-NEXT: 3 1 x,y1,f,anon,q
// CHECK-NEXT: true D
// CHECK-NEXT: {"0":2,"1":2} {"0":2,"1":2} 2
// CHECK-NEXT: TypeError Cannot read private member #x from an object whose class did not declare it
// CHECK-NEXT: 9 0 0
// CHECK-NEXT: 1 undefined
// CHECK-NEXT: key,a,block,b,field
// CHECK-NEXT: 1 2
