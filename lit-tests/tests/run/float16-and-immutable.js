// Float16Array and DataView's float16 accessors (binary16, rounded to nearest even from
// the double), and immutable ArrayBuffers: their views read but never write.
// NODE-SKIP: node 20 has neither Float16Array nor transferToImmutable.
// RUN: %iris %s | %FileCheck %s --match-full-lines
const h = new Float16Array([1.1, 65504, 65520, 0.1, -0, 2 ** -24, 2 ** -25, 1 + 2 ** -11, 1 + 2 ** -11 + 2 ** -30]);
console.log(h);
// CHECK: Float16Array(9) [
// CHECK-NEXT:   1.099609375,
// CHECK-NEXT:   65504,
// CHECK-NEXT:   Infinity,
// CHECK-NEXT:   0.0999755859375,
// CHECK-NEXT:   -0,
// CHECK-NEXT:   5.960464477539063e-8,
// CHECK-NEXT:   0,
// CHECK-NEXT:   1,
// CHECK-NEXT:   1.0009765625
// CHECK-NEXT: ]
const dv = new DataView(new ArrayBuffer(4));
dv.setFloat16(0, 1.5);
dv.setFloat16(2, -2, true);
console.log(dv.getUint16(0).toString(16), dv.getUint16(2, true).toString(16), dv.getFloat16(0), dv.getFloat16(2, true));
// CHECK-NEXT: 3e00 c000 1.5 -2
const frozen = new Uint8Array([1, 2, 3]).buffer.transferToImmutable();
const view = new Uint8Array(frozen);
view[0] = 9;
console.log(frozen.immutable, view[0], Object.isFrozen(view), JSON.stringify(Object.getOwnPropertyDescriptor(view, 1)));
// CHECK-NEXT: true 1 false {"value":2,"writable":false,"enumerable":true,"configurable":false}
for (const bad of [() => view.fill(0), () => new DataView(frozen).setInt8(0, 1), () => frozen.transfer(), () => { "use strict"; view[1] = 0; }]) {
  try {
    bad();
  } catch (e) {
    console.log(e.name);
  }
}
// CHECK-NEXT: TypeError
// CHECK-NEXT: TypeError
// CHECK-NEXT: TypeError
// CHECK-NEXT: TypeError
const part = new ArrayBuffer(6).sliceToImmutable(2, 5);
console.log(part.byteLength, part.immutable, part.resizable, part.slice(1).immutable, view.subarray(1).join());
// CHECK-NEXT: 3 true false false 2,3
