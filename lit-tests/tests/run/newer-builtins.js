// Small ES2025/ES2026 built-ins: RegExp.escape, Error.isError, Math.f16round, and Annex B's
// escape/unescape and the String HTML methods.
// NODE-SKIP: node 20 has no RegExp.escape, Error.isError or Math.f16round (written from the spec)
// RUN: %iris %s | %FileCheck %s --match-full-lines
console.log(RegExp.escape("1+1=2? (a.b) x/y"));
// CHECK: \x31\+1\x3d2\?\x20\(a\.b\)\x20x\/y
console.log(RegExp.escape("foo-bar\n\u2028"), RegExp.escape("_ok"), RegExp.escape("z"));
// CHECK-NEXT: \x66oo\x2dbar\n\u2028 _ok \x7a
console.log(new RegExp(RegExp.escape("a.b*c")).test("a.b*c"), new RegExp(RegExp.escape("a.b")).test("axb"));
// CHECK-NEXT: true false
try { RegExp.escape(1); } catch (e) { console.log(e.constructor.name); }
// CHECK-NEXT: TypeError
console.log(Error.isError(new TypeError()), Error.isError({ __proto__: Error.prototype }), Error.isError(new Proxy(new Error(), {})));
// CHECK-NEXT: true false false
console.log(Math.f16round(1.337), Math.f16round(65520), Math.f16round(-0), Math.f16round(5e-8));
// CHECK-NEXT: 1.3369140625 Infinity -0 5.960464477539063e-8
console.log(escape("a b+ü€/"), unescape("%u20AC%FC%zz%4"));
// CHECK-NEXT: a%20b+%FC%u20AC/ €ü%zz%4
console.log("x".anchor('a"b'), "y".bold(), "z".link("u"), "w".fontsize(3));
// CHECK-NEXT: <a name="a&quot;b">x</a> <b>y</b> <a href="u">z</a> <font size="3">w</font>
