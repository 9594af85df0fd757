// Past --heap-limit, allocating throws a RangeError the program can catch, whatever holds
// the memory: Map and Set tables, an object's property table, BigInt digits, array storage,
// strings, regexp match results, ArrayBuffer bytes (many small buffers, or one larger than
// the limit). After each, the garbage is collected and the program goes on.
// NODE-SKIP: node has no heap limit a program can catch (past --max-old-space-size it aborts)
// RUN: %iris --heap-limit 48 %s | %FileCheck %s --match-full-lines
// RUN: %iris --no-jit --heap-limit 48 %s | %FileCheck %s --match-full-lines
function attempt(name, f) {
  try {
    f();
    print(name + ": finished");
  } catch (e) {
    print(name + ": " + (e instanceof RangeError ? "RangeError" : e));
  }
}
attempt("Map", () => { const m = new Map(); for (let i = 0;; i++) m.set(i, i); });
attempt("Set", () => { const s = new Set(); for (let i = 0;; i++) s.add(i + 0.5); });
attempt("property table", () => { const o = {}; for (let i = 0;; i++) o["k" + i] = i; });
attempt("BigInt", () => { const a = []; for (let i = 0;; i++) a.push(1n << 100000n); });
attempt("array", () => { const a = []; for (let i = 0;; i++) a.push(i); });
attempt("strings", () => { const a = []; for (let i = 0;; i++) a.push("x" + i); });
attempt("match results", () => { const a = []; for (;;) a.push("abab".match(/a/g)); });
attempt("buffers", () => { const a = []; for (;;) a.push(new ArrayBuffer(4096)); });
attempt("one buffer", () => new ArrayBuffer(64 << 20));
print("after: " + new Map([[1, 2]]).get(1));
// CHECK: Map: RangeError
// CHECK-NEXT: Set: RangeError
// CHECK-NEXT: property table: RangeError
// CHECK-NEXT: BigInt: RangeError
// CHECK-NEXT: array: RangeError
// CHECK-NEXT: strings: RangeError
// CHECK-NEXT: match results: RangeError
// CHECK-NEXT: buffers: RangeError
// CHECK-NEXT: one buffer: RangeError
// CHECK-NEXT: after: 2
