// `g.apply(thisArg, list)` from the interpreter: arrays and arguments objects, lists with
// holes or accessors (whose getters run), array-likes, nullish lists, this in sloppy and
// strict functions, class constructors, natives, exceptions, and the argument count seen
// through `arguments`. Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold=0 %s | %FileCheck %s --match-full-lines
function show() {
  var parts = [];
  for (var i = 0; i < arguments.length; i++) parts.push(String(arguments[i]));
  return arguments.length + ":" + parts.join(",");
}
function strictThis() { "use strict"; return this === undefined ? "undefined" : typeof this; }
function sloppyThis() { return this === globalThis ? "global" : typeof this; }
function forward() { return show.apply(this, arguments); }
var out = [];
for (var r = 0; r < 3; r++) {
  out.push(show.apply(null, [1, 2, 3]));
  out.push(show.apply(null, []));
  out.push(show.apply(null));
  out.push(show.apply(null, null));
  out.push(forward(4, 5));
  out.push(forward());
  var holes = [1, , 3];
  out.push(show.apply(null, holes));
  var longer = [7, 8];
  longer.length = 4;
  out.push(show.apply(null, longer));
  out.push(show.apply(null, { length: 2, 0: "a", 1: "b" }));
  var getter = [0, 0];
  Object.defineProperty(getter, 1, { get: function () { return "got"; } });
  out.push(show.apply(null, getter));
  out.push(strictThis.apply(undefined, []), strictThis.apply(5, []), sloppyThis.apply(undefined, []), sloppyThis.apply(5, []));
}
console.log(out.join(" "));
// CHECK: 3:1,2,3 0: 0: 0: 2:4,5 0: 3:1,undefined,3 4:7,8,undefined,undefined 2:a,b 2:0,got undefined number global object 3:1,2,3 0: 0: 0: 2:4,5 0: 3:1,undefined,3 4:7,8,undefined,undefined 2:a,b 2:0,got undefined number global object 3:1,2,3 0: 0: 0: 2:4,5 0: 3:1,undefined,3 4:7,8,undefined,undefined 2:a,b 2:0,got undefined number global object

Array.prototype[1] = "inherited";
console.log(show.apply(null, [1, , 3]));
delete Array.prototype[1];
// CHECK-NEXT: 3:1,inherited,3

class K {}
try { K.apply(null, []); } catch (e) { console.log(e.constructor.name); }
// CHECK-NEXT: TypeError
console.log(Math.max.apply(null, [3, 9, 4]), String.fromCharCode.apply(null, [104, 105]));
// CHECK-NEXT: 9 hi
function thrower(x) { throw new Error("from " + x); }
try { thrower.apply(null, ["apply"]); } catch (e) { console.log(e.message); }
// CHECK-NEXT: from apply
try { show.apply(null, 5); } catch (e) { console.log(e.constructor.name); }
// CHECK-NEXT: TypeError
function deep(n) { return n === 0 ? "bottom" : deep.apply(null, [n - 1]); }
console.log(deep(2000));
// CHECK-NEXT: bottom
function forever() { return forever.apply(null, arguments); }
try { forever(1); } catch (e) { console.log(e.constructor.name); }
// CHECK-NEXT: RangeError
function count() { return arguments.length + ":" + arguments[arguments.length - 1]; }
console.log(count.apply(null, new Array(65536).fill(2)), count.apply(null, new Array(70000).fill(3)));
// CHECK-NEXT: 65536:2 70000:3
