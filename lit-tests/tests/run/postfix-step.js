// A postfix `++`/`--` whose old value is read is one `post_inc`/`post_dec` (ToNumeric and
// the step in one instruction): numbers, strings, BigInts, objects whose valueOf runs (or
// throws), the old value in the same register as the variable, and inside loops the JIT
// compiles. Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 0 %s | %FileCheck %s --match-full-lines
function post(x) { const a = x++; const b = x--; const c = x--; return [typeof a, a, b, c, x]; }
print(post(1).join());
// CHECK: number,1,2,1,0
print(post('7').join());
// CHECK: number,7,8,7,6
print(post(10n).join());
// CHECK: bigint,10,11,10,9
print(post(null).join());
// CHECK: number,0,1,0,-1
print(post(undefined).join());
// CHECK: number,NaN,NaN,NaN,NaN
let calls = 0;
print(post({ valueOf() { calls++; return 41; } }).join(), calls);
// CHECK: number,41,42,41,40 1
function throwing() {
  let o = { valueOf() { throw new Error('no'); } };
  try { const v = o++; return 'not thrown ' + v; } catch (e) { return e.message + ' ' + typeof o; }
}
print(throwing());
// CHECK: no object
// The old values index an array while the counters step (as a bignum loop does).
function copy(src, n) {
  const dst = [];
  let i = 0, j = 0;
  while (n-- > 0) dst[j++] = src[i++] * 2;
  return [dst.join(), i, j, n];
}
for (let k = 0; k < 3; k++) print(copy([1, 2, 3, 4], 3).join(' '));
// CHECK: 2,4,6 3 3 -1
// CHECK-NEXT: 2,4,6 3 3 -1
// CHECK-NEXT: 2,4,6 3 3 -1
// A counter that turns into a double, then into a BigInt (the compiled loop leaves).
function mixed(x) { const out = []; for (let k = 0; k < 3; k++) out.push(x++); return out.join() + ' ' + x; }
print(mixed(2147483646), mixed(0.5), mixed(5n));
// CHECK: 2147483646,2147483647,2147483648 2147483649 0.5,1.5,2.5 3.5 5,6,7 8
