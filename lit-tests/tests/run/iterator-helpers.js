// ES2025 Iterator helpers: Iterator, Iterator.from, Iterator.concat, the lazy helpers
// (map/filter/take/drop/flatMap) and the eager ones, closing and generator states.
// node 20 lacks Iterator helpers, so the expected output below is derived from
// ECMA-262 27.1 by hand rather than checked with `--node`.
// NODE-SKIP: node 20 has no Iterator helpers
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

function* nat() { let i = 0; while (true) yield i++; }
function err(f) { try { f(); return "no error"; } catch (e) { return e.constructor.name; } }

print(nat().map(x => x * 2).filter(x => x % 3 === 0).drop(1).take(3).toArray().join(","));
// CHECK: 6,12,18
print([1, 2].values().flatMap(x => [x, x * 10]).toArray().join(","));
// CHECK: 1,10,2,20
print(nat().take(5).reduce((a, b) => a + b));
// CHECK: 10
print(nat().take(4).reduce((a, b) => a + b, 100));
// CHECK: 106
print(nat().some(x => x > 3), nat().take(3).every(x => x < 3), nat().find(x => x * x > 50));
// CHECK: true true 8
let seen = [];
nat().take(3).forEach((v, i) => seen.push(v + ":" + i));
print(seen.join(" "));
// CHECK: 0:0 1:1 2:2

// Closing: return() on a helper closes the underlying iterator once.
let log = [];
let base = {
  i: 0,
  next() { return { value: this.i++, done: false }; },
  return() { log.push("return"); return {}; },
  __proto__: Iterator.prototype,
};
let h = base.map(x => x + 1);
print(JSON.stringify(h.next()), JSON.stringify(h.return()), JSON.stringify(h.next()), log.join());
// CHECK: {"value":1,"done":false} {"done":true} {"done":true} return
print(err(() => base.take(NaN)), err(() => base.drop(-1)), err(() => base.map(1)), log.length);
// CHECK: RangeError RangeError TypeError 4
print(base.find(x => x > 5), log.length);
// CHECK: 6 5

// Iterator itself.
print(err(() => new Iterator()), err(() => Iterator()));
// CHECK: TypeError TypeError
class Counter extends Iterator {
  constructor() { super(); this.n = 0; }
  next() { return this.n < 3 ? { value: this.n++, done: false } : { value: undefined, done: true }; }
}
print(new Counter().map(x => x * x).toArray().join(","), new Counter() instanceof Iterator);
// CHECK: 0,1,4 true
print(Object.prototype.toString.call(h), Iterator.prototype[Symbol.toStringTag], Iterator.prototype.constructor === Iterator);
// CHECK: [object Iterator Helper] Iterator true
let wrapped = Iterator.from({ next() { return { value: 42, done: false }; } });
print(wrapped instanceof Iterator, wrapped.take(2).toArray().join(","), Iterator.from("ab").toArray().join("|"));
// CHECK: true 42,42 a|b
print(Iterator.concat([1, 2], new Set([3]), "xy".split("")).toArray().join(","));
// CHECK: 1,2,3,x,y

// Re-entrant next is a TypeError; the helper is then done.
let self;
self = [1, 2].values().map(() => self.next());
print(err(() => self.next()), JSON.stringify(self.next()));
// CHECK: TypeError {"done":true}
