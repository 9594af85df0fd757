// Atomics on integer TypedArrays over SharedArrayBuffers and ArrayBuffers: the
// read-modify-write operations wrap to the element type and return the old value,
// compareExchange compares the converted expected value, store returns what it stored,
// and wait/notify answer without blocking when nothing can wake them.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines
const sab = new SharedArrayBuffer(16);
const i32 = new Int32Array(sab);
const u8 = new Uint8Array(sab);
console.log(Atomics.add(i32, 0, 5), Atomics.sub(i32, 0, 7), Atomics.load(i32, 0), Atomics.or(i32, 1, 0xf0), Atomics.and(i32, 1, 0x3c), Atomics.xor(i32, 1, 1));
// CHECK: 0 5 -2 0 240 48
console.log(Atomics.add(u8, 12, 300), Atomics.load(u8, 12), Atomics.exchange(u8, 12, -1), u8[12]);
// CHECK-NEXT: 0 44 44 255
console.log(Atomics.compareExchange(i32, 2, 0, 9), Atomics.compareExchange(i32, 2, 1, 3), i32[2], Atomics.store(i32, 3, -0), Atomics.store(i32, 3, 3.7), i32[3]);
// CHECK-NEXT: 0 9 9 0 3 3
const big = new BigInt64Array(new SharedArrayBuffer(16));
console.log(Atomics.add(big, 0, 2n ** 63n), Atomics.sub(big, 0, 1n), big[0], Atomics.compareExchange(big, 1, 0n, -5n), big[1]);
// CHECK-NEXT: 0n -9223372036854775808n 9223372036854775807n 0n -5n
console.log(Atomics.wait(i32, 2, 0), Atomics.wait(i32, 2, 9, 0), Atomics.wait(i32, 2, 9, 10), Atomics.notify(i32, 2), Atomics.notify(new Int32Array(4), 0));
// CHECK-NEXT: not-equal timed-out timed-out 0 0
const plain = new Int16Array(2);
console.log(Atomics.add(plain, 1, 40000), plain[1], Atomics.isLockFree(4), Atomics.isLockFree(3), Object.prototype.toString.call(Atomics));
// CHECK-NEXT: 0 -25536 true false [object Atomics]
for (const bad of [() => Atomics.add(new Float64Array(1), 0, 1), () => Atomics.load(i32, 4), () => Atomics.wait(new Int32Array(4), 0, 0), () => Atomics.wait(u8, 0, 0)]) {
  try {
    bad();
  } catch (e) {
    console.log(e.name);
  }
}
// CHECK-NEXT: TypeError
// CHECK-NEXT: RangeError
// CHECK-NEXT: TypeError
// CHECK-NEXT: TypeError
