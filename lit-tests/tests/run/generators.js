// Generators: yield, yield*, return, arguments and two-way communication.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

function* range(from, to) {
  for (let i = from; i < to; i++) yield i;
  return "done";
}
var it = range(0, 3);
var step;
var seen = [];
while (!(step = it.next()).done) seen.push(step.value);
print(seen.join(), step.value);
function* inner() { yield "a"; yield "b"; return "inner result"; }
function* outer() { const r = yield* inner(); yield r; yield* [1, 2]; }
print([...outer()].join("|"));
function* echo() {
  var received = yield "first";
  while (true) received = yield "got " + received;
}
var e = echo();
print(e.next("ignored").value, e.next("x").value, e.next("y").value);
function* withFinally() { try { yield 1; yield 2; } finally { print("cleanup"); } }
var w = withFinally();
print(w.next().value);
print(JSON.stringify(w.return(9)));
print(JSON.stringify(w.next()));
var fib = function* () { let [a, b] = [0, 1]; for (;;) { yield a; [a, b] = [b, a + b]; } };
var out = [];
for (const v of fib()) { if (v > 50) break; out.push(v); }
print(out.join(" "));

// CHECK: 0,1,2 done
// CHECK-NEXT: a|b|inner result|1|2
// CHECK-NEXT: first got x got y
// CHECK-NEXT: 1
// CHECK-NEXT: cleanup
// CHECK-NEXT: {"value":9,"done":true}
// CHECK-NEXT: {"done":true}
// CHECK-NEXT: 0 1 1 2 3 5 8 13 21 34
