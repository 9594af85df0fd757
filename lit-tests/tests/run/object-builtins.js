// Object constructor functions and Object.prototype methods.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

var proto = { greet: function () { return "hi " + this.n; } };
var o = Object.create(proto, { n: { value: "there", enumerable: true } });
print(o.greet(), Object.getPrototypeOf(o) === proto, o.hasOwnProperty("n"), o.hasOwnProperty("greet"));
Object.defineProperty(o, "hidden", { value: 1, enumerable: false, writable: false });
o.hidden = 2;
print(o.hidden, Object.keys(o).join(), proto.isPrototypeOf(o), o.propertyIsEnumerable("hidden"));
var target = Object.setPrototypeOf({ own: 1 }, null);
print(Object.getPrototypeOf(target), "toString" in target);
print(Object.prototype.toString.call([]), Object.prototype.toString.call(null), ({}).toString());
var sealed = Object.freeze([1, 2]);
print(Object.isFrozen(sealed), Object.keys({ b: 1, a: 2, 1: 3 }).join());
print(({ valueOf: function () { return 7; } }).valueOf(), typeof Object.prototype.valueOf.call(1));

// CHECK: hi there true true false
// CHECK-NEXT: 1 n true false
// CHECK-NEXT: null false
// CHECK-NEXT: [object Array] [object Null] [object Object]
// CHECK-NEXT: true 1,b,a
// CHECK-NEXT: 7 object
