// Mapped arguments objects: in sloppy functions with simple parameters, arguments[i]
// aliases parameter i (while i was passed and is not deleted or redefined as an accessor or
// non-writable); duplicate names alias the last parameter.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris --gc-stress %s | %FileCheck %s --match-full-lines --strict-whitespace

function f(a, b) { arguments[0] = 9; b = 7; return [a, arguments[1], arguments.length]; }
print(f(1, 2).join(), f(1).join());
function g(a) { delete arguments[0]; arguments[0] = 5; return a; }
print(g(1));
function h(a) { Object.defineProperty(arguments, "0", { value: 3, writable: false }); a = 4; return [a, arguments[0]].join(); }
print(h(1));
function k(a, a) { arguments[1] = 8; arguments[0] = 6; return a; }
print(k(1, 2));
function cl(a) { var get = () => a; arguments[0] = "x"; return get(); }
print(cl(1));
function esc(a) { mod(arguments); return a; }
function mod(args) { args[0] = "modified"; }
print(esc(1));
function plain(a) { return arguments.length + a; }
print(plain(1, 2));
function fr(a) { Object.freeze(arguments); a = 2; return arguments[0]; }
print(fr(1));
function acc(a) { Object.defineProperty(arguments, "0", { get() { return "getter"; } }); a = 3; return [a, arguments[0]].join(); }
print(acc(1));
function callee() { return arguments.callee === callee; }
print(callee());
function spl(a, b, c) { Array.prototype.shift.call(arguments); return [a, b, c, arguments.length].join(); }
print(spl(1, 2, 3));
function strictFn(a) { "use strict"; arguments[0] = 2; return a; }
print(strictFn(1));

// CHECK: 9,7,2 9,,1
// CHECK-NEXT: 1
// CHECK-NEXT: 4,3
// CHECK-NEXT: 8
// CHECK-NEXT: x
// CHECK-NEXT: modified
// CHECK-NEXT: 3
// CHECK-NEXT: 1
// CHECK-NEXT: 3,getter
// CHECK-NEXT: true
// CHECK-NEXT: 2,3,3,2
// CHECK-NEXT: 1
