// A call as the target of `=`, a compound assignment, `++`/`--` or a for-in/of head is, in
// sloppy code, a ReferenceError when it runs, after the call (Annex B, Runtime Errors for
// Function Call Assignment Targets); the right-hand side is not evaluated.
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold=0 %s | %FileCheck %s --match-full-lines
var calls = [];
function f(a, b) { calls.push('f(' + [a, b].join(',') + ')'); return { valueOf() { calls.push('valueOf'); return 1; } }; }
var o = { m(x) { calls.push('m this ok: ' + (this === o) + ' ' + x); return 0; } };
function attempt(label, fn) {
  try { fn(); console.log(label, 'no error'); } catch (e) { console.log(label, e.constructor.name, calls.join(' ')); }
  calls.length = 0;
}
attempt('=', function () { f(1, 2) = calls.push('rhs'); });
attempt('+=', function () { f() += 1; });
attempt('++', function () { f()++; });
attempt('--pre', function () { --f(3); });
attempt('method', function () { o.m(7) = 1; });
attempt('for-in', function () { for (f() in { a: 1 }) ; });
attempt('for-of', function () { for (f(4) of [1]) ; });
attempt('for-in none', function () { for (f() in {}) ; });
attempt('paren arg', function () { f((1, 2)) = 0; });
attempt('not run', function () { if (false) f() = 1; });
// CHECK: = ReferenceError f(1,2)
// CHECK-NEXT: += ReferenceError f(,)
// CHECK-NEXT: ++ ReferenceError f(,)
// CHECK-NEXT: --pre ReferenceError f(3,)
// CHECK-NEXT: method ReferenceError m this ok: true 7
// CHECK-NEXT: for-in ReferenceError f(,)
// CHECK-NEXT: for-of ReferenceError f(4,)
// CHECK-NEXT: for-in none no error
// CHECK-NEXT: paren arg ReferenceError f(2,)
// CHECK-NEXT: not run no error
