// The function properties of builtin objects are made at the first look at the object's
// own properties (a lookup, a key listing, preventExtensions, freezing): whichever comes
// first, the object has them all, in the same order, and inherited lookups see them.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 0 %s | %FileCheck %s --match-full-lines
// RUN: %iris --no-jit %s | %FileCheck %s --match-full-lines

// A key listing first.
const names = Object.getOwnPropertyNames(Date.prototype);
console.log(names.includes("getTime"), names.includes("toISOString"), names[0]);
// CHECK: true true constructor

// preventExtensions first: the functions are there, and nothing can be added after.
Object.preventExtensions(Number);
console.log(typeof Number.isInteger, Object.isExtensible(Number), Number.isInteger(3));
// CHECK: function false true
Object.freeze(Boolean.prototype);
console.log(Object.isFrozen(Boolean.prototype), typeof Boolean.prototype.valueOf);
// CHECK: true function

// A non-enumerable builtin shadows an enumerable property further up the chain in for-in
// (String.prototype.charAt over Object.prototype.charAt).
Object.prototype.charAt = 5;
const keys = [];
for (const k in new String("xy")) keys.push(k);
console.log(keys.join());
// CHECK: 0,1
delete Object.prototype.charAt;

// An inherited lookup through an object that has not been looked at.
const d = Object.create(WeakMap.prototype);
console.log(typeof d.has, "has" in d, Reflect.has(WeakSet.prototype, "add"));
// CHECK: function true true

// Deleting or redefining one first.
delete DataView.prototype.getInt8;
console.log(typeof DataView.prototype.getInt8, typeof DataView.prototype.getInt16);
// CHECK: undefined function
Object.defineProperty(Promise, "all", { value: 1 });
console.log(Promise.all, typeof Promise.race);
// CHECK: 1 function

// Getters come as accessors, with their names.
const desc = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, "byteLength");
console.log(typeof desc.get, desc.get.name, desc.set, desc.enumerable, desc.configurable);
// CHECK: function get byteLength undefined false true

// A method through a property read on a fresh object of each kind.
console.log("abc".at(-1), (255).toString(16), Symbol.for("k").description, BigInt.asIntN(8, 255n));
// CHECK: c ff k -1n

// Aliases made with their object's functions: the same function under both names.
console.log(String.prototype.trimLeft === String.prototype.trimStart, Date.prototype.toGMTString === Date.prototype.toUTCString);
// CHECK: true true
console.log(Map.prototype[Symbol.iterator] === Map.prototype.entries, Set.prototype.keys === Set.prototype.values);
// CHECK: true true
console.log([..."ab"].join("-"), [...new Map([[1, 2]])].join(), [...new Set([5, 6])].join());
// CHECK: a-b 1,2 5,6
