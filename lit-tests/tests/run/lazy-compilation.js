// Running source compiles most functions at their first call (lazy compilation): the
// functions below are left uncompiled until called, and must behave as when compiled with
// the program (`--eager`). Expected output is node's.
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris --eager %s | %FileCheck %s --match-full-lines --strict-whitespace
var log = [];
let counter = 0;
const K = 3;
function bump(n) { counter += n * K; return counter; }
print(bump(1), bump(2));
// CHECK: 3 9

// Closures over parameters, let and const of several levels, made before and after the
// first call, share their variables.
function outer(a) {
  let b = a + 1;
  const c = b * 2;
  function middle(d) {
    let e = d + c;
    return function inner(f) { b++; return [a, b, c, d, e, f].join(","); };
  }
  return middle;
}
const m = outer(1);
const i1 = m(10), i2 = m(20);
print(i1(0), i2(1), i1(2));
// CHECK: 1,3,4,10,14,0 1,4,4,20,24,1 1,5,4,10,14,2

// A declaration refers to its binding (reassigned here); a named function expression to
// itself (its name cannot be assigned).
function rec(n) { return n === 0 ? "done" : rec(n - 1); }
const keep = rec;
rec = function () { return "replaced"; };
print(keep(2));
// CHECK: replaced
const fact = function f(n) { f = null; return n <= 1 ? 1 : n * f(n - 1); };
print(fact(5));
// CHECK: 120

// Arrows read `this` and `arguments` of the function around them.
function host() { return [(() => this.tag)(), (() => arguments.length)(), ((x) => x + arguments[0])(1)]; }
print(JSON.stringify(host.call({ tag: "T" }, 5, 6)));
// CHECK: ["T",2,6]

// Properties of a function not compiled yet, and calling it in every way.
function Point(x, y) { this.x = x; this.y = y; }
print(Point.name, Point.length, typeof Point.prototype, Point.toString());
// CHECK: Point 2 object function Point(x, y) { this.x = x; this.y = y; }
Point.prototype.sum = function () { return this.x + this.y; };
print(new Point(1, 2).sum(), Reflect.construct(Point, [3, 4]).sum());
// CHECK: 3 7
const add3 = (a, b, c) => a + b + c;
print(add3.call(null, 1, 2, 3), add3.apply(null, [4, 5, 6]), add3.bind(null, 1)(1, 1), [1, 2].map((x) => x * 10).join());
// CHECK: 6 15 3 10,20
print(typeof (function () {}), (function () { return typeof this; })());
// CHECK: function object

// Temporal dead zone: a lexical binding read before its declaration runs.
function early() { return late; }
try { early(); } catch (e) { print(e.name); }
let late = "ok";
print(early());
// CHECK: ReferenceError
// CHECK-NEXT: ok

// Loops: a closure per iteration of a `let`.
const fns = [];
for (let j = 0; j < 3; j++) fns.push(() => j * K);
print(fns.map((f) => f()).join());
// CHECK: 0,3,6

// Default parameters, destructuring, rest.
function params({ p = counter } = {}, [q] = [K], ...rest) { return [p, q, rest.length].join(); }
print(params(), params({ p: 1 }, [2], 3, 4));
// CHECK: 9,3,0 1,2,2

// A mapped arguments object aliases the parameters the arrow reads.
function mapped(a) { const get = () => a; arguments[0] = "changed"; return get(); }
print(mapped("orig"));
// CHECK: changed

// `with`: a name inside is looked up in the object first.
var scope = { w: "from with" };
var w = "global";
with (scope) { var fromWith = function () { return w; }; }
print(fromWith());
// CHECK: from with

// Strictness comes from around the function and from its own directive.
function sloppyThis() { return typeof this; }
function strictThis() { "use strict"; return typeof this; }
print(sloppyThis(), strictThis());
// CHECK: object undefined

// Classes, methods and private names around and inside functions.
class Counter {
  #n = 0;
  inc() { const step = () => { this.#n += K; return this.#n; }; return step(); }
  static make() { return function () { return new Counter(); }; }
}
const c1 = Counter.make()();
c1.inc();
print(c1.inc());
// CHECK: 6

// Generators and async functions in functions compiled later.
function makeGen() { return function* () { yield K; yield K * 2; }; }
print([...makeGen()()].join());
// CHECK: 3,6
function later() { return async () => K; }
later()().then((v) => print("async", v));

// Direct eval sees the function's variables.
function withEval(s) { const hidden = 42; return eval(s); }
print(withEval("hidden + 1"));
// CHECK: 43

// A stack trace names the function and its line and column in the file.
function thrower() { throw new Error("boom"); }
function callsThrower() { thrower(); }
try { callsThrower(); } catch (e) { print(e.stack.split("\n").slice(0, 3).join("|").replace(/\([^()]*[\/\\]/g, "(")); }
// CHECK: Error: boom|    at thrower (lazy-compilation.js:{{[0-9]+}}:28)|    at callsThrower (lazy-compilation.js:{{[0-9]+}}:27)

// Functions in blocks (Annex B in sloppy code).
{ function inBlock() { return "block"; } }
print(inBlock());
// CHECK: block
// CHECK-NEXT: async 3
