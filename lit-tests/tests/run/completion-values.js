// A script's completion value (what indirect eval, the Function constructor and
// $262.evalScript return): the value of the last value-producing statement, with
// UpdateEmpty(…, undefined) for if, loops, switch and try, and finally blocks that do not
// change it.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace

var f = new Function("a", "b", "return a + b");
print(f(1, 2), f.name, f.length);
var ev = eval;
var tests = ["1; 2", "1; var x = 5;", "1; if (true) {}", "1; if (true) { 2; }", "1; while (false);", "1; {}",
  "1; try { 2; } finally { 3; }", "1; try { 2; throw 0; } catch (e) {}", "1; l: { 2; break l; }",
  "1; do { 2; break; } while (false)", "1; switch (1) { case 1: 5; case 2: }", "1; function q() {}",
  "1; l: try { 2 } finally { 3; break l; }", "1; for (var i = 0; i < 2; i++) { if (i == 1) continue; 7; }",
  "1; class K {}", "1; let z = 3;", "1; for (var k in null) ;", "1; try { 2 } catch (e) {} finally { 3 }",
  "1; outer: while (true) { inner: while (true) { 5; break outer; } }", "1; ;", "1; try { } finally { }"];
for (var t of tests) print(JSON.stringify(t), String(ev(t)));

// CHECK: 3 anonymous 2
// CHECK-NEXT: "1; 2" 2
// CHECK-NEXT: "1; var x = 5;" 1
// CHECK-NEXT: "1; if (true) {}" undefined
// CHECK-NEXT: "1; if (true) { 2; }" 2
// CHECK-NEXT: "1; while (false);" undefined
// CHECK-NEXT: "1; {}" 1
// CHECK-NEXT: "1; try { 2; } finally { 3; }" 2
// CHECK-NEXT: "1; try { 2; throw 0; } catch (e) {}" undefined
// CHECK-NEXT: "1; l: { 2; break l; }" 2
// CHECK-NEXT: "1; do { 2; break; } while (false)" 2
// CHECK-NEXT: "1; switch (1) { case 1: 5; case 2: }" 5
// CHECK-NEXT: "1; function q() {}" 1
// CHECK-NEXT: "1; l: try { 2 } finally { 3; break l; }" 3
// CHECK-NEXT: "1; for (var i = 0; i < 2; i++) { if (i == 1) continue; 7; }" undefined
// CHECK-NEXT: "1; class K {}" 1
// CHECK-NEXT: "1; let z = 3;" 1
// CHECK-NEXT: "1; for (var k in null) ;" undefined
// CHECK-NEXT: "1; try { 2 } catch (e) {} finally { 3 }" 2
// CHECK-NEXT: "1; outer: while (true) { inner: while (true) { 5; break outer; } }" 5
// CHECK-NEXT: "1; ;" 1
// CHECK-NEXT: "1; try { } finally { }" undefined
