// The order of promise reactions: jobs run after the script, FIFO, one chain step per job;
// adopting a promise or a thenable takes extra jobs. Expected output is node's (checked by
// `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris --gc-stress %s | %FileCheck %s --match-full-lines --strict-whitespace

print("script start");
var p = Promise.resolve();
p.then(function () { print("a1"); }).then(function () { print("a2"); }).then(function () { print("a3"); }).then(function () { print("a4"); });
p.then(function () { print("b1"); }).then(function () { print("b2"); });
new Promise(function (resolve) { print("executor runs at once"); resolve(p); }).then(function () { print("adopted promise"); });
Promise.resolve({ then: function (r) { print("thenable.then"); r("t"); } }).then(function (v) { print("adopted thenable " + v); });
p.then(function () { return Promise.resolve("inner"); }).then(function (v) { print("returned promise " + v); });
Promise.reject(new Error("no")).catch(function (e) { print("caught " + e.message); return "recovered"; }).then(function (v) { print(v); });
Promise.resolve(1).finally(function () { print("finally"); }).then(function (v) { print("after finally " + v); });
print("script end");


// CHECK: script start
// CHECK-NEXT: executor runs at once
// CHECK-NEXT: script end
// CHECK-NEXT: a1
// CHECK-NEXT: b1
// CHECK-NEXT: thenable.then
// CHECK-NEXT: caught no
// CHECK-NEXT: finally
// CHECK-NEXT: a2
// CHECK-NEXT: b2
// CHECK-NEXT: adopted thenable t
// CHECK-NEXT: recovered
// CHECK-NEXT: a3
// CHECK-NEXT: adopted promise
// CHECK-NEXT: a4
// CHECK-NEXT: returned promise inner
// CHECK-NEXT: after finally 1
