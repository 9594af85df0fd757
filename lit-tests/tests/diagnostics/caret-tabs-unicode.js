// Columns count UTF-16 code units; the caret line keeps the tabs and puts one space per
// character before the error, so it lines up under the error in a terminal.
// RUN: not %iris %s 2>&1 | %FileCheck %s --match-full-lines --strict-whitespace
	var é = "😀"; var t = `x` +;
// CHECK: {{.*}}caret-tabs-unicode.js:4:29: SyntaxError: Expression expected
// CHECK-NEXT: 	var é = "😀"; var t = `x` +;
// CHECK-NEXT: 	                          ^
