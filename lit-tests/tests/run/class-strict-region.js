// A class's heritage and computed keys are strict mode code, also inside a sloppy function:
// assignments to undeclared names, failed assignments and failed deletes throw there, and
// only there.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace

function sloppy() {
  var frozen = Object.freeze({ a: 1 });
  try { class A extends (undeclared1 = Object) {} } catch (e) { print("heritage:", e.constructor.name); }
  try { class B { [(frozen.a = 2, "m")]() {} } } catch (e) { print("computed key:", e.constructor.name); }
  try { class C { [delete frozen.a]() {} } } catch (e) { print("delete:", e.constructor.name); }
  undeclared2 = 1;
  frozen.a = 3;
  print("outside the class stays sloppy:", typeof undeclared2, frozen.a, delete frozen.a);
}
sloppy();

// CHECK: heritage: ReferenceError
// CHECK-NEXT: computed key: TypeError
// CHECK-NEXT: delete: TypeError
// CHECK-NEXT: outside the class stays sloppy: number 1 false
