// `new F` reads F.prototype through a cache keyed by F's shape: functions that share a
// shape with their prototypes made lazily or not, a prototype replaced by another object
// or by a primitive (the realm's %Object.prototype% then), Reflect.construct's newTarget,
// native constructors and classes. Expected output is node's (checked by
// `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold=0 %s | %FileCheck %s --match-full-lines
function make(tag) {
  return function F() { this.tag = tag; };
}
var fs = [];
for (var i = 0; i < 4; i++) fs.push(make("f" + i));
fs[0].prototype.who = "zero";
fs[2].prototype = { who: "replaced" };
var out = [];
for (var round = 0; round < 3; round++) {
  for (var j = 0; j < fs.length; j++) {
    var o = new fs[j]();
    out.push(o.tag + ":" + (o.who || "-") + ":" + (Object.getPrototypeOf(o) === fs[j].prototype));
  }
  if (round === 0) fs[1].prototype = 42;
  if (round === 1) fs[3].prototype = { who: "late" };
}
console.log(out.join(" "));
// CHECK: f0:zero:true f1:-:true f2:replaced:true f3:-:true f0:zero:true f1:-:false f2:replaced:true f3:-:true f0:zero:true f1:-:false f2:replaced:true f3:late:true

var p = new fs[1]();
console.log(Object.getPrototypeOf(p) === Object.prototype);
// CHECK-NEXT: true

function Base() { this.made = new.target.name; }
function Other() {}
Other.prototype.kind = "other";
var r = [];
for (var k = 0; k < 3; k++) {
  var x = Reflect.construct(Base, [], Other);
  r.push(x.made + "/" + x.kind);
  var y = new Base();
  r.push(y.made + "/" + (y instanceof Base));
}
console.log(r.join(" "));
// CHECK-NEXT: Other/other Base/true Other/other Base/true Other/other Base/true

class A { constructor() { this.a = 1; } }
class B extends A {}
function MyArray() {}
MyArray.prototype = Object.create(Array.prototype);
var c = [];
for (var m = 0; m < 3; m++) {
  c.push(new B() instanceof A, Object.getPrototypeOf(new B()) === B.prototype);
  c.push(Array.isArray(Reflect.construct(Array, [], MyArray)), Object.getPrototypeOf(Reflect.construct(Array, [], MyArray)) === MyArray.prototype);
  c.push(Object.getPrototypeOf(Reflect.construct(Map, [], Other)) === Other.prototype);
}
console.log(c.join(" "));
// CHECK-NEXT: true true true true true true true true true true true true true true true

// Constructors of every layout (native ones, classes, functions, methods' shapes) as
// newTarget, round after round: entries for one shape must not be read for another.
var targets = [Array, Map, Set, Date, Error, TypeError, RegExp, Promise, Object, Number, String, Boolean, ArrayBuffer, Uint8Array, WeakMap, A, B, Base, Other, MyArray];
for (var q = 0; q < 12; q++) targets.push(make("t" + q), class { }, class extends A { });
var ok = 0;
for (var n = 0; n < 4; n++) {
  for (var t = 0; t < targets.length; t++) {
    var made = Reflect.construct(Object, [], targets[t]);
    if (Object.getPrototypeOf(made) === targets[t].prototype) ok++;
  }
}
console.log(ok === 4 * targets.length, targets.length);
// CHECK-NEXT: true 56
