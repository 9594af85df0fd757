// Closures capture variables through heap scopes; each call gets its own environment.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

function makeCounter(start) {
  var count = start;
  return {
    inc: function () { count++; return count; },
    add: function (n) { count += n; return count; },
    get: function () { return count; }
  };
}
var a = makeCounter(0);
var b = makeCounter(10);
a.inc(); a.inc();
b.add(5);
print(a.get(), b.get());
function adders() {
  var fs = [];
  for (var i = 0; i < 3; i++) fs.push(function (x) { return x + i; });
  return fs;
}
print(adders().map(function (f) { return f(1); }).join(","));

// CHECK: 2 15
// CHECK-NEXT: 4,4,4
