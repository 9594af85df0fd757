// DataView: every getter and setter in both byte orders, offsets and bounds, views that
// track a resizable buffer, and SharedArrayBuffer as the buffer of views.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --gc-stress %s | %FileCheck %s --match-full-lines
const dv = new DataView(new ArrayBuffer(16), 2, 12);
dv.setUint16(0, 0x1234);
dv.setUint16(2, 0x1234, true);
dv.setInt32(4, -2);
dv.setFloat32(8, 1.5, true);
console.log(new Uint8Array(dv.buffer).join(","));
// CHECK: 0,0,18,52,52,18,255,255,255,254,0,0,192,63,0,0
console.log(dv.getUint16(0, true), dv.getInt16(2), dv.getUint32(4), dv.getInt8(4), dv.getUint8(5), dv.getFloat32(8, true));
// CHECK-NEXT: 13330 13330 4294967294 -1 255 1.5
dv.setFloat64(0, Math.PI);
console.log(dv.getFloat64(0), dv.getFloat64(0, true), dv.getBigInt64(0), dv.getBigUint64(0, true));
// CHECK-NEXT: 3.141592653589793 3.207375630676366e-192 4614256656552045848n 1742123762643437888n
dv.setBigInt64(4, -5n, true);
console.log(dv.getBigInt64(4, true), dv.getInt32(4, true), dv.getUint32(8));
// CHECK-NEXT: -5n -5 4294967295
console.log(dv.byteOffset, dv.byteLength, Object.prototype.toString.call(dv), ArrayBuffer.isView(dv));
// CHECK-NEXT: 2 12 [object DataView] true
for (const bad of [() => dv.getInt32(10), () => dv.setInt8(-1, 0), () => new DataView(new ArrayBuffer(4), 5), () => DataView.prototype.getInt8.call(new Uint8Array(4), 0)]) {
  try {
    bad();
  } catch (e) {
    console.log(e.name);
  }
}
// CHECK-NEXT: RangeError
// CHECK-NEXT: RangeError
// CHECK-NEXT: RangeError
// CHECK-NEXT: TypeError
const rab = new ArrayBuffer(4, { maxByteLength: 8 });
const tracking = new DataView(rab, 1);
rab.resize(8);
console.log(tracking.byteLength);
// CHECK-NEXT: 7
rab.resize(0);
try {
  tracking.byteLength;
} catch (e) {
  console.log(e.name);
}
// CHECK-NEXT: TypeError
const sab = new SharedArrayBuffer(8, { maxByteLength: 16 });
const shared = new Int32Array(sab);
new DataView(sab).setInt32(4, 77, true);
shared[0] = -1;
sab.grow(12);
console.log(shared.length, shared[1], new Uint8Array(sab).slice(0, 4).join(","), sab.growable, sab.byteLength);
// CHECK-NEXT: 3 77 255,255,255,255 true 12
console.log(Object.prototype.toString.call(sab), sab.slice(4).byteLength, sab instanceof ArrayBuffer);
// CHECK-NEXT: [object SharedArrayBuffer] 8 false
