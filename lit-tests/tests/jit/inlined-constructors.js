// `new C(...)` of the one constructor a site saw, whose objects had one shape, is compiled
// inline: the object made without a frame, the constructor's code on it. Prototype.js's
// Class.create constructor (`this.initialize.apply(this, arguments)`) inlines the method
// it finds on the prototype. Every way out of such code rebuilds the frames it stands for:
// a failed speculation inside the constructor or the method, a throw, a prototype that
// changed, a heap due for a collection.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 2 %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 2 --gc-stress %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 0 %s | %FileCheck %s --match-full-lines
// RUN: %iris --no-jit %s | %FileCheck %s --match-full-lines

var Class = {
  create: function () {
    return function () {
      this.initialize.apply(this, arguments);
    };
  },
};

var Vec = Class.create();
Vec.prototype = {
  initialize: function (x, y) {
    this.x = x;
    this.y = y;
  },
  add: function (o) {
    return new Vec(this.x + o.x, this.y + o.y);
  },
  scale: function (k) {
    return new Vec(this.x * k, this.y * k);
  },
};

var Color = Class.create();
Color.prototype = {
  initialize: function (r, g, b) {
    if (!r) r = 0;
    if (!g) g = 0;
    if (!b) b = 0;
    this.r = r;
    this.g = g;
    this.b = b;
  },
};

function sum(n) {
  var acc = new Vec(0, 0);
  var d = new Vec(1, 2);
  for (var i = 0; i < n; i++) acc = acc.add(d);
  return acc;
}
var v = sum(5000);
console.log(v.x, v.y, v instanceof Vec, Object.keys(v).join());
// CHECK: 5000 10000 true x,y

// Many objects made inline, kept alive while the heap collects around them.
function many(n) {
  var list = [];
  for (var i = 0; i < n; i++) list.push(new Color(i, i + 1));
  var s = 0;
  for (var j = 0; j < n; j++) s += list[j].r + list[j].g + list[j].b;
  return s;
}
console.log(many(4000));
// CHECK: 16000000

// An overflow inside the method (inlined through apply) leaves with every frame rebuilt.
function grow(n) {
  var v = new Vec(1, 1);
  for (var i = 0; i < n; i++) v = v.scale(3);
  return v.x;
}
console.log(grow(10), grow(40));
// CHECK: 59049 12157665459056929000

// A throw inside the inlined constructor, caught by its caller.
var Checked = Class.create();
Checked.prototype = {
  initialize: function (x) {
    if (x > 1000) throw new RangeError("too big: " + x);
    this.x = x;
  },
};
function make(x) {
  try {
    return new Checked(x).x;
  } catch (e) {
    return e.message;
  }
}
var out = [];
for (var i = 0; i < 300; i++) out.push(make(i * 10));
console.log(out[5], out[100], out[101], out[299]);
// CHECK: 50 1000 too big: 1010 too big: 2990

// The method on the prototype replaced after the code was made: it checks which closure
// it calls.
function point(i) {
  return new Vec(i, -i);
}
for (var i = 0; i < 300; i++) point(i);
Vec.prototype.initialize = function (x, y) {
  this.x = y;
  this.y = x;
  this.swapped = true;
};
var p = point(3);
console.log(p.x, p.y, p.swapped);
// CHECK: -3 3 true

// The constructor's prototype replaced: objects of another shape.
Vec.prototype = {
  initialize: function (x) {
    this.only = x;
  },
};
p = point(4);
console.log(JSON.stringify(p), p instanceof Vec);
// CHECK: {"only":4} true

// A constructor that returns an object gives that object; one that returns anything
// else gives `this`.
function Wrapper(x) {
  this.x = x;
  if (x % 3 === 0) return { wrapped: x };
  if (x % 3 === 1) return 7;
}
function wrap(x) {
  return new Wrapper(x);
}
var seen = [];
for (var i = 0; i < 300; i++) {
  var w = wrap(i);
  if (i >= 297) seen.push(JSON.stringify(w));
}
console.log(seen.join(" "));
// CHECK: {"wrapped":297} {"x":298} {"x":299}

// A plain constructor with more arguments than parameters, and fewer.
function Pair(a, b) {
  this.a = a;
  this.b = b;
  this.n = arguments.length;
}
function pairs() {
  var s = "";
  for (var i = 0; i < 300; i++) {
    var p = i % 2 ? new Pair(i) : new Pair(i, i, i);
    if (i >= 298) s += JSON.stringify(p) + " ";
  }
  return s.trim();
}
console.log(pairs());
// CHECK: {"a":298,"b":298,"n":3} {"a":299,"n":1}
