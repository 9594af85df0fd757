// Promise.all / allSettled / any / race, subclassing and species: settlement order and
// results. Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

function later(v, fail) {
  return new Promise(function (resolve, reject) {
    Promise.resolve().then(function () { (fail ? reject : resolve)(v); });
  });
}
function show(label) {
  return function (v) {
    if (v instanceof Error) v = v.constructor.name + (v.errors ? " [" + v.errors.join(",") + "]" : ": " + v.message);
    else if (typeof v === "object") v = JSON.stringify(v);
    print(label + " " + v);
  };
}

Promise.all([later(1), 2, Promise.resolve(3)]).then(show("all"));
Promise.all([later("x", true), later(2)]).catch(show("all rejected"));
Promise.all([]).then(show("all empty"));
Promise.allSettled([later(1), later(2, true), 3]).then(show("allSettled"));
Promise.any([later(1, true), later(2)]).then(show("any"));
Promise.any([Promise.reject(1), later(2, true)]).catch(show("any rejected"));
Promise.race([later("slow"), Promise.resolve("fast")]).then(show("race"));
Promise.race([]).then(show("race never"));

class Tracked extends Promise {
  constructor(executor) {
    super(executor);
    print("Tracked constructed");
  }
}
var t = Tracked.resolve(5);
var d = t.then(function (v) { return v * 2; });
print(d instanceof Tracked, Object.prototype.toString.call(d), Tracked.all([t]) instanceof Tracked);
d.then(show("subclass"));

var iter = { [Symbol.iterator]: function () {
  var i = 0;
  return { next: function () { i++; return { value: i, done: i > 3 }; }, return: function () { print("closed"); return {}; } };
} };
Promise.all(iter).then(show("iterable"));
var calls = 0;
function Fake(executor) { return new Promise(executor); }
Fake.resolve = function (v) { calls++; if (v === 2) throw new Error("resolve failed"); return Promise.resolve(v); };
Promise.all.call(Fake, iter).catch(show("closing"));
print("resolve calls " + calls);

// CHECK: Tracked constructed
// CHECK-NEXT: Tracked constructed
// CHECK-NEXT: Tracked constructed
// CHECK-NEXT: Tracked constructed
// CHECK-NEXT: true [object Promise] true
// CHECK-NEXT: Tracked constructed
// CHECK-NEXT: closed
// CHECK-NEXT: resolve calls 2
// CHECK-NEXT: all empty []
// CHECK-NEXT: closing Error: resolve failed
// CHECK-NEXT: race fast
// CHECK-NEXT: subclass 10
// CHECK-NEXT: iterable [1,2,3]
// CHECK-NEXT: all [1,2,3]
// CHECK-NEXT: all rejected x
// CHECK-NEXT: allSettled [{"status":"fulfilled","value":1},{"status":"rejected","reason":2},{"status":"fulfilled","value":3}]
// CHECK-NEXT: any 2
// CHECK-NEXT: any rejected AggregateError [1,2]
