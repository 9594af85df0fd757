// TypedArrays: construction from lengths, arrays, iterables, array-likes, buffers and other
// TypedArrays; element conversions; the %TypedArray% methods; length tracking over a
// resizable buffer; how console.log shows them.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --gc-stress %s | %FileCheck %s --match-full-lines
const u8 = new Uint8Array([1, 2, 300, -1, 1.9]);
console.log(u8, u8.length, u8.byteLength, u8.BYTES_PER_ELEMENT);
// CHECK: Uint8Array(5) [ 1, 2, 44, 255, 1 ] 5 5 1
console.log(new Int8Array([127, 128, -129]), new Uint8ClampedArray([300, -5, 1.5, 2.5, 254.5]));
// CHECK-NEXT: Int8Array(3) [ 127, -128, 127 ] Uint8ClampedArray(5) [ 255, 0, 2, 2, 254 ]
console.log(new Int16Array([70000]), new Uint32Array([-1]), new Float32Array([0.1, 1e40]));
// CHECK-NEXT: Int16Array(1) [ 4464 ] Uint32Array(1) [ 4294967295 ] Float32Array(2) [ 0.10000000149011612, Infinity ]
console.log(new BigInt64Array([2n ** 63n, -1n]), new BigUint64Array([-1n]));
// CHECK-NEXT: BigInt64Array(2) [ -9223372036854775808n, -1n ] BigUint64Array(1) [ 18446744073709551615n ]
const buf = new ArrayBuffer(16);
const i32 = new Int32Array(buf, 4, 2);
i32[0] = -2;
i32[1] = 0x01020304;
console.log(new Uint8Array(buf).join(","), i32.byteOffset, i32.length);
// CHECK-NEXT: 0,0,0,0,254,255,255,255,4,3,2,1,0,0,0,0 4 2
console.log(new Float64Array(new Set([1.5, 2.5])), Int16Array.from({ length: 3, 0: 7 }), Int16Array.of(1, 2));
// CHECK-NEXT: Float64Array(2) [ 1.5, 2.5 ] Int16Array(3) [ 7, 0, 0 ] Int16Array(2) [ 1, 2 ]
const f = new Float64Array([3, -0, 0, NaN, -Infinity, 1]);
console.log(f.slice().sort(), f.indexOf(NaN), f.includes(NaN), f.lastIndexOf(0));
// CHECK-NEXT: Float64Array(6) [ -Infinity, -0, 0, 1, 3, NaN ] -1 true 2
const n = Int32Array.from([5, 1, 4, 2, 3]);
console.log(n.map((x) => x * 10), n.filter((x) => x % 2), n.reduce((a, b) => a + b), n.toSorted((a, b) => b - a));
// CHECK-NEXT: Int32Array(5) [ 50, 10, 40, 20, 30 ] Int32Array(3) [ 5, 1, 3 ] 15 Int32Array(5) [ 5, 4, 3, 2, 1 ]
console.log(n.subarray(1, 3), n.subarray(-2).byteOffset, n.at(-1), n.with(0, 9), n.toReversed().join(" "));
// CHECK-NEXT: Int32Array(2) [ 1, 4 ] 12 3 Int32Array(5) [ 9, 1, 4, 2, 3 ] 3 2 4 1 5
n.copyWithin(0, 3);
n.subarray(3).fill(7);
console.log(n, [...n.entries()].length, [...n.keys()].join(""), n.find((x) => x > 4), n.findLastIndex((x) => x === 7));
// CHECK-NEXT: Int32Array(5) [ 2, 3, 4, 7, 7 ] 5 01234 7 4
const dst = new Uint16Array(6);
dst.set([1, 2]);
dst.set(new Uint8Array([200, 201]), 4);
dst.set(dst.subarray(0, 3), 1);
console.log(dst, Object.keys(dst).length, "2" in dst, "6" in dst, "-0" in dst, dst["1.5"]);
// CHECK-NEXT: Uint16Array(6) [ 1, 1, 2, 0, 200, 201 ] 6 true false false undefined
dst[10] = 5;
dst.foo = 1;
console.log(dst[10], Object.getOwnPropertyNames(dst).join(), delete dst[0], delete dst[10]);
// CHECK-NEXT: undefined 0,1,2,3,4,5,foo false true
console.log(JSON.stringify(Object.getOwnPropertyDescriptor(dst, 4)));
// CHECK-NEXT: {"value":200,"writable":true,"enumerable":true,"configurable":true}
const rab = new ArrayBuffer(8, { maxByteLength: 16 });
const tracking = new Uint16Array(rab);
const fixed = new Uint16Array(rab, 2, 2);
rab.resize(12);
console.log(tracking.length, fixed.length);
// CHECK-NEXT: 6 2
rab.resize(4);
console.log(tracking.length, fixed.length, fixed.byteOffset, fixed[0]);
// CHECK-NEXT: 2 0 0 undefined
try {
  fixed.fill(1);
} catch (e) {
  console.log(e.name);
}
// CHECK-NEXT: TypeError
for (const bad of [() => new Int32Array(new ArrayBuffer(5)), () => new Int32Array(new ArrayBuffer(8), 1), () => Uint8Array(2), () => new BigInt64Array([1])]) {
  try {
    bad();
  } catch (e) {
    console.log(e.name);
  }
}
// CHECK-NEXT: RangeError
// CHECK-NEXT: RangeError
// CHECK-NEXT: TypeError
// CHECK-NEXT: TypeError
class Bytes extends Uint8Array {
  sum() {
    return this.reduce((a, b) => a + b, 0);
  }
}
const b = new Bytes([1, 2, 3]);
console.log(b.sum(), b.map((x) => x * 2) instanceof Bytes, Object.prototype.toString.call(b), ArrayBuffer.isView(b));
// CHECK-NEXT: 6 true [object Uint8Array] true
