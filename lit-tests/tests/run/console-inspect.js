// console.log shows a promise's state and value and the entries of maps and sets, as node
// does.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
const a = Promise.resolve(1);
const b = new Promise(() => {});
const c = Promise.reject(2);
c.catch(() => {});
const d = Promise.resolve({ x: [1, 2] });
const e = Promise.resolve("s");
e.extra = true;
console.log(a, b, c);
console.log(d);
console.log(e);
console.log([a]);
console.log(new Map([["a", 1], [{ x: 1 }, [2]]]), new Set([1, "b"]), new Map(), new WeakMap());
console.log([new Set([1])], { m: new Map([[1, 2]]) });
// CHECK: Promise { 1 } Promise { <pending> } Promise { <rejected> 2 }
// CHECK-NEXT: Promise { { x: [ 1, 2 ] } }
// CHECK-NEXT: Promise { 's', extra: true }
// CHECK-NEXT: [ Promise { 1 } ]
// CHECK-NEXT: Map(2) { 'a' => 1, { x: 1 } => [ 2 ] } Set(2) { 1, 'b' } Map(0) {} WeakMap { <items unknown> }
// CHECK-NEXT: [ Set(1) { 1 } ] { m: Map(1) { 1 => 2 } }
// Index keys of objects are quoted, as every key that is not an identifier.
console.log({ 0: "a", 1: "b", x: 1 });
const arr = [1, 2];
arr.foo = 3;
console.log(arr, Object.assign(Object.create(null), { 7: 1 }));
// CHECK-NEXT: { '0': 'a', '1': 'b', x: 1 }
// CHECK-NEXT: [ 1, 2, foo: 3 ] [Object: null prototype] { '7': 1 }
