// `yield*` hands the inner iterator's result objects to the caller as they are: their
// `value` is not read while the inner iterator is not done.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace

var inner = {
  [Symbol.iterator]() { return this; },
  next(v) {
    print("next", v);
    return { get value() { print("value read"); return 1; }, done: false, extra: 42 };
  },
  return(v) {
    print("return", v);
    return { value: v, done: true };
  }
};
function* g() {
  var r = yield* inner;
  print("r", r);
}
var it = g();
var r1 = it.next("a");
print(r1.extra, Object.keys(r1).join());
var r2 = it.next("b");
print(r2 === r1, r2.extra);
print(JSON.stringify(it.return("z")));
function* g2() {
  yield* [1, 2];
  return 3;
}
var i2 = g2();
print(JSON.stringify([i2.next(), i2.next(), i2.next(), i2.next()]));

// CHECK: next undefined
// CHECK-NEXT: 42 value,done,extra
// CHECK-NEXT: next b
// CHECK-NEXT: false 42
// CHECK-NEXT: return z
// CHECK-NEXT: {"value":"z","done":true}
// CHECK-NEXT: [{"value":1,"done":false},{"value":2,"done":false},{"value":3,"done":true},{"done":true}]
