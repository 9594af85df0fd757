// ArrayBuffer: fixed-length and resizable buffers, slice with relative indices, the
// allocation limit as a RangeError, and how console.log shows a buffer.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --gc-stress %s | %FileCheck %s --match-full-lines
const a = new ArrayBuffer(8);
console.log(a.byteLength, a.resizable, a.maxByteLength, Object.prototype.toString.call(a));
// CHECK: 8 false 8 [object ArrayBuffer]
console.log(a.slice(2).byteLength, a.slice(-3).byteLength, a.slice(1, -1).byteLength, a.slice(5, 2).byteLength);
// CHECK-NEXT: 6 3 6 0
const r = new ArrayBuffer(2, { maxByteLength: 16 });
r.resize(10);
console.log(r.byteLength, r.maxByteLength, r.resizable);
// CHECK-NEXT: 10 16 true
for (const bad of [() => r.resize(17), () => new ArrayBuffer(-1), () => new ArrayBuffer(2 ** 53), () => new ArrayBuffer(4, { maxByteLength: 2 })]) {
  try {
    bad();
  } catch (e) {
    console.log(e.name);
  }
}
// CHECK-NEXT: RangeError
// CHECK-NEXT: RangeError
// CHECK-NEXT: RangeError
// CHECK-NEXT: RangeError
try {
  a.resize(4);
} catch (e) {
  console.log(e.name);
}
// CHECK-NEXT: TypeError
console.log(ArrayBuffer.isView(a), ArrayBuffer[Symbol.species] === ArrayBuffer, ArrayBuffer.length);
// CHECK-NEXT: false true 1
console.log(new ArrayBuffer(3), new ArrayBuffer(0));
// CHECK-NEXT: ArrayBuffer { [Uint8Contents]: <00 00 00>, byteLength: 3 } ArrayBuffer { [Uint8Contents]: <>, byteLength: 0 }
const o = new ArrayBuffer(1);
o.x = 5;
console.log([o]);
// CHECK-NEXT: [ ArrayBuffer { [Uint8Contents]: <00>, byteLength: 1, x: 5 } ]
class Sub extends ArrayBuffer {}
const s = new Sub(4).slice(1);
console.log(s instanceof Sub, s.byteLength);
// CHECK-NEXT: true 3
