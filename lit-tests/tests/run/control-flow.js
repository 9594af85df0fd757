// if/else, switch with fallthrough and default, loops, labels, break and continue.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

function classify(n) {
  if (n < 0) return "neg";
  else if (n === 0) return "zero";
  else return "pos";
}
print(classify(-2), classify(0), classify(3));
function sw(x) {
  var out = [];
  switch (x) {
    case 1: out.push("one");
    case 2: out.push("two"); break;
    default: out.push("default");
    case 3: out.push("three"); break;
    case "1": out.push("string one");
  }
  return out.join("+");
}
print(sw(1), sw(2), sw(3), sw("1"), sw(9));
var s = 0, i = 0;
while (i < 10) { i++; if (i % 2) continue; s += i; }
do { s -= 1; } while (s > 25);
print(s, i);
outer: for (var a = 0; a < 5; a++) {
  for (var b = 0; b < 5; b++) {
    if (b === 3) continue outer;
    if (a === 3) break outer;
    s += a * b;
  }
}
print(s, a, b);
block: { if (s > 0) break block; print("not printed"); }
var count = 0;
for (;;) { if (++count > 6) break; }
print(count);

// CHECK: neg zero pos
// CHECK-NEXT: one+two two three string one default+three
// CHECK-NEXT: 25 10
// CHECK-NEXT: 34 3 0
// CHECK-NEXT: 7
