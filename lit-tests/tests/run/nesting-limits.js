// Programs nested 100,000 deep, given to eval and new Function: each ends in a SyntaxError or
// a RangeError (the engine's nesting or stack limit), never in a crash. A member chain does
// not nest, and a nested source file is a SyntaxError at its line and column.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris --jit-threshold 0 %s | %FileCheck %s --match-full-lines --strict-whitespace

var N = 100000;
var cases = {
  parentheses: "(".repeat(N) + "1" + ")".repeat(N),
  arrays: "[".repeat(N) + "]".repeat(N),
  objects: "({a:".repeat(N) + "1" + "})".repeat(N),
  blocks: "{".repeat(N) + "}".repeat(N),
  functions: "(function(){".repeat(N) + "})".repeat(N),
  arrows: "x=>".repeat(N) + "1",
  templates: "`${".repeat(N) + "1" + "}`".repeat(N),
  ternaries: "a?1:".repeat(N) + "2",
  unary: "!".repeat(N) + "1",
  "typeof chain": "typeof ".repeat(N) + "1",
  assignments: "a=".repeat(N) + "1",
  calls: "f(".repeat(N) + ")".repeat(N),
  "if statements": "if (a) ".repeat(N) + ";",
};
var a = 1;
function f() { return f; }
for (var name in cases) {
  var src = cases[name];
  for (var how of ["eval", "Function"]) {
    try {
      if (how === "eval") eval(src); else new Function(src);
      console.log(name, how, "ran");
    } catch (e) {
      console.log(name, how, e instanceof SyntaxError || e instanceof RangeError ? "too deep" : "threw " + e);
    }
  }
}
var o = {}; o.a = o;
console.log(eval("o" + ".a".repeat(2000)) === o);

// CHECK: parentheses eval too deep
// CHECK-NEXT: parentheses Function too deep
// CHECK-NEXT: arrays eval too deep
// CHECK-NEXT: arrays Function too deep
// CHECK-NEXT: objects eval too deep
// CHECK-NEXT: objects Function too deep
// CHECK-NEXT: blocks eval too deep
// CHECK-NEXT: blocks Function too deep
// CHECK-NEXT: functions eval too deep
// CHECK-NEXT: functions Function too deep
// CHECK-NEXT: arrows eval too deep
// CHECK-NEXT: arrows Function too deep
// CHECK-NEXT: templates eval too deep
// CHECK-NEXT: templates Function too deep
// CHECK-NEXT: ternaries eval too deep
// CHECK-NEXT: ternaries Function too deep
// CHECK-NEXT: unary eval too deep
// CHECK-NEXT: unary Function too deep
// CHECK-NEXT: typeof chain eval too deep
// CHECK-NEXT: typeof chain Function too deep
// CHECK-NEXT: assignments eval too deep
// CHECK-NEXT: assignments Function too deep
// CHECK-NEXT: calls eval too deep
// CHECK-NEXT: calls Function too deep
// CHECK-NEXT: if statements eval too deep
// CHECK-NEXT: if statements Function too deep
// CHECK-NEXT: true
