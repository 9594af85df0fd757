// Classes: constructors, methods, static methods, accessors, extends and super.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

class Animal {
  constructor(name) { this.name = name; }
  speak() { return this.name + " makes a sound"; }
  get label() { return "<" + this.name + ">"; }
  static create(name) { return new this(name); }
}
class Dog extends Animal {
  constructor(name) { super(name); this.kind = "dog"; }
  speak() { return super.speak() + " (woof)"; }
  static create(name) { return super.create(name + "!"); }
}
var d = new Dog("Rex");
print(d.speak(), d.label, d.kind);
print(Dog.create("Fido").speak(), Dog.create("Fido") instanceof Dog);
print(d instanceof Animal, Object.getPrototypeOf(Dog) === Animal, typeof Animal);
try { Animal("x"); } catch (e) { print(e.name); }
class Counter {
  constructor() { this.n = 0; }
  inc() { this.n++; return this; }
}
print(new Counter().inc().inc().n);
var Expr = class Named { who() { return Named.name; } };
print(new Expr().who());
class Empty extends Counter {}
print(new Empty().inc().n);

// CHECK: Rex makes a sound (woof) <Rex> dog
// CHECK-NEXT: Fido! makes a sound (woof) true
// CHECK-NEXT: true true function
// CHECK-NEXT: TypeError
// CHECK-NEXT: 2
// CHECK-NEXT: Named
// CHECK-NEXT: 1
