// Default parameters, rest parameters, `arguments` and `.length`.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

function defaults(a, b = a + 1, c = b * 2) { return [a, b, c].join(","); }
print(defaults(1), defaults(1, 5), defaults(1, undefined, 0));
function rest(first, ...others) { return first + ":" + others.length + ":" + others.join("|"); }
print(rest(1), rest(1, 2, 3));
function args() { return arguments.length + " " + Array.prototype.join.call(arguments, "-"); }
print(args(), args("a", "b", "c"));
print(defaults.length, rest.length, args.length, ((a, b) => 0).length);
function sloppyAlias(a) { arguments[0] = 9; return a; }
print(sloppyAlias(1));

// CHECK: 1,2,4 1,5,10 1,2,0
// CHECK-NEXT: 1:0: 1:2:2|3
// CHECK-NEXT: 0  3 a-b-c
// CHECK-NEXT: 1 1 0 2
// CHECK-NEXT: 9
