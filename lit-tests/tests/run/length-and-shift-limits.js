// Array length limits (push at 2^32 - 1 and 2^53 - 1, unshift, splice, concat) and BigInt
// shifts and asIntN/asUintN with counts past 64 bits.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris --jit-threshold 0 %s | %FileCheck %s --match-full-lines --strict-whitespace

var c = []; c.length = 2 ** 32 - 1;
try { c.push(1); console.log("pushed"); } catch (e) { console.log(e.name, c.length, c[4294967295]); }
var d = []; d.length = 2 ** 32 - 2;
console.log(d.push("x"), d.length, d[4294967294]);
try { d.push("y", "z"); } catch (e) { console.log(e.name, d.length, d[4294967295]); }
var o = { length: 2 ** 53 - 1 };
try { Array.prototype.push.call(o, 1); } catch (e) { console.log(e.name, o.length); }
var u = { length: 2 ** 53 - 1 };
try { Array.prototype.unshift.call(u, 1); } catch (e) { console.log(e.name, u.length); }
var s = { length: 2 ** 53 - 1 };
try { Array.prototype.splice.call(s, 0, 0, 1); } catch (e) { console.log(e.name, s.length); }
var big = { length: 2 ** 53 - 1, [Symbol.isConcatSpreadable]: true };
try { [1].concat(big); } catch (e) { console.log(e.name); }
// A sparse array of length 2^32 - 1 concatenated: its holes are skipped, not visited one
// by one, and the result's length is a RangeError.
var holes = []; holes.length = 2 ** 32 - 1; holes[5] = "h";
try { [1].concat(holes, [2]); } catch (e) { console.log(e.name, holes.length); }
var fits = []; fits.length = 2 ** 32 - 3; fits[7] = "f";
var joined = [1].concat(fits, [2]);
console.log(joined.length, joined[8], joined[4294967294], 4294967293 in joined);
// BigInt shifts by counts past 64 bits, and asIntN/asUintN with large widths.
console.log(5n >> 2n ** 64n, -5n >> 2n ** 64n, 5n << -(2n ** 64n), -5n << -(2n ** 64n), 0n << 2n ** 64n);
try { 1n << 2n ** 64n; } catch (e) { console.log(e.name); }
console.log(BigInt.asIntN(2 ** 53 - 1, 5n), BigInt.asIntN(2 ** 53 - 1, -5n), BigInt.asUintN(2 ** 40, 7n));
console.log(BigInt.asIntN(64, 2n ** 63n), BigInt.asUintN(64, -1n));

// CHECK: RangeError 4294967295 1
// CHECK-NEXT: 4294967295 4294967295 x
// CHECK-NEXT: RangeError 4294967295 y
// CHECK-NEXT: TypeError 9007199254740991
// CHECK-NEXT: TypeError 9007199254740991
// CHECK-NEXT: TypeError 9007199254740991
// CHECK-NEXT: TypeError
// CHECK-NEXT: RangeError 4294967295
// CHECK-NEXT: 4294967295 f 2 false
// CHECK-NEXT: 0n -1n 0n -1n 0n
// CHECK-NEXT: RangeError
// CHECK-NEXT: 5n -5n 7n
// CHECK-NEXT: -9223372036854775808n 18446744073709551615n
