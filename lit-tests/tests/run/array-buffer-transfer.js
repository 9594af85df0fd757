// ArrayBuffer.prototype.transfer and transferToFixedLength (ES2024) move the bytes to a new
// buffer and detach the old one, which then has no length and refuses every operation.
// NODE-SKIP: node 20 has no ArrayBuffer.prototype.transfer (written from the spec)
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --gc-stress %s | %FileCheck %s --match-full-lines
const a = new ArrayBuffer(4, { maxByteLength: 8 });
const b = a.transfer();
console.log(a.detached, a.byteLength, a.maxByteLength, b.detached, b.byteLength, b.resizable, b.maxByteLength);
// CHECK: true 0 0 false 4 true 8
const c = b.transferToFixedLength(6);
console.log(c.byteLength, c.resizable, b.detached);
// CHECK-NEXT: 6 false true
for (const bad of [() => a.slice(0), () => a.transfer(), () => a.resize(1)]) {
  try {
    bad();
  } catch (e) {
    console.log(e.name);
  }
}
// CHECK-NEXT: TypeError
// CHECK-NEXT: TypeError
// CHECK-NEXT: TypeError
console.log(a);
// CHECK-NEXT: ArrayBuffer { (detached), byteLength: 0 }
try {
  b.transfer(9);
} catch (e) {
  console.log(e.name);
}
// CHECK-NEXT: TypeError
const d = new ArrayBuffer(2, { maxByteLength: 4 });
try {
  d.transfer(5);
} catch (e) {
  console.log(e.name, d.detached);
}
// CHECK-NEXT: RangeError false
