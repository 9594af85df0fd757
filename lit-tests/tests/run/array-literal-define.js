// Array literals fill the holes of a fresh array: a setter or a read-only index on
// Array.prototype does not see the definition; elisions stay holes.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines
Object.defineProperty(Array.prototype, '1', { set(v) { print('setter', v); }, get() { return 'proto'; }, configurable: true });
Object.defineProperty(Array.prototype, '2', { value: 'ro', writable: false, configurable: true });
for (let i = 0; i < 3; i++) {
  const a = [i, i + 1, i + 2, , i + 4];
  print(a.length, a[1], a[2], a[3], 3 in a, Object.keys(a).join());
}
delete Array.prototype[1];
delete Array.prototype[2];

// CHECK: 5 1 2 undefined false 0,1,2,4
// CHECK-NEXT: 5 2 3 undefined false 0,1,2,4
// CHECK-NEXT: 5 3 4 undefined false 0,1,2,4
