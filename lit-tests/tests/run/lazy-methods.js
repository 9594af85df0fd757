// Methods, getters and setters (of object literals and classes) are compiled at their
// first call too: their text is compiled as a method of an object literal, and must keep
// its name, `toString`, strictness and the positions its errors report. Expected output is
// node's.
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris --eager %s | %FileCheck %s --match-full-lines --strict-whitespace
const o = {
  plain(a, b) { return a + b; },
  'quoted key' /* ( */ (x) { return x * 2; },
  42() { return 'number key'; },
  get g() { return this._v ?? 'unset'; },
  set g(v) { this._v = v; },
  thrower() {
    throw new Error('from a method');
  },
};
print(o.plain(1, 2), o['quoted key'](21), o[42](), o.g);
o.g = 7;
print(o.g, o.plain.name, Object.getOwnPropertyDescriptor(o, 'g').get.name);
print(o.plain.toString());
print(o['quoted key'].toString());
print(Object.getOwnPropertyDescriptor(o, 'g').set.toString());
try { o.thrower(); } catch (e) { print(e.message, /:(\d+:\d+)\)?$/.exec(e.stack.split('\n')[1])[1]); }
print('prototype' in o.plain, (() => { try { new o.plain(); } catch (e) { return e.constructor.name; } })());
class C {
  constructor(v) { this.v = v; }
  get double() { return this.v * 2; }
  static make(v) { return new C(v); }
  static
    /* a comment */ tag() { return 'static'; }
  add(n) { this.v += n; return this; }
  [Symbol.iterator]() { return [this.v][Symbol.iterator](); }
}
const c = C.make(5);
print(c.add(1).double, C.tag(), [...c].join(), C.tag.toString(), c.add.toString());
let counter = 0;
const p = { bump() { counter++; return counter; }, read: () => counter };
p.bump(); p.bump();
print(p.read(), p.bump.name);
function outer(k) { return { m() { return k + this.n; }, n: 1 }; }
print(outer(10).m(), outer(20).m());
const q = {
m() { throw new Error('column 1'); },
 n() { return () => { throw new Error('nested'); }; },
};
for (const f of [() => q.m(), () => q.n()()]) {
  try { f(); } catch (e) { print(e.message, /:(\d+:\d+)\)?$/.exec(e.stack.split('\n')[1])[1]); }
}
print(q.n().toString(), q.m.toString());
class A { m() { return 'A.m'; } get g() { return 'A.g'; } static s() { return 'A.s'; } }
class B extends A {
  m() { return () => super.m() + '<-B arrow'; }
  direct() { return super.m() + '<-B'; }
  get g() { return super.g + '<-B.g'; }
  static s() { return super.s() + '<-B.s'; }
}
const b = new B();
print(b.m()(), b.direct(), b.g, B.s());
const base = { hi() { return 'base hi'; } };
const obj = { __proto__: base, hi() { return super.hi() + '!'; } };
print(obj.hi());

// CHECK: 3 42 number key unset
// CHECK-NEXT: 7 plain get g
// CHECK-NEXT: plain(a, b) { return a + b; }
// CHECK-NEXT: 'quoted key' /* ( */ (x) { return x * 2; }
// CHECK-NEXT: set g(v) { this._v = v; }
// CHECK-NEXT: from a method 14:11
// CHECK-NEXT: false TypeError
// CHECK-NEXT: 12 static 6 tag() { return 'static'; } add(n) { this.v += n; return this; }
// CHECK-NEXT: 2 bump
// CHECK-NEXT: 11 21
// CHECK-NEXT: column 1 43:13
// CHECK-NEXT: nested 44:29
// CHECK-NEXT: () => { throw new Error('nested'); } m() { throw new Error('column 1'); }
// CHECK-NEXT: A.m<-B arrow A.m<-B A.g<-B.g A.s<-B.s
// CHECK-NEXT: base hi!
