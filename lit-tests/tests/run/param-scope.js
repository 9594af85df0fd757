// Functions whose parameters contain expressions get a separate environment for the
// body's `var`s (FunctionDeclarationInstantiation step 28): closures in parameter
// defaults do not see the body's declarations, and a `var` named like a parameter starts
// with the parameter's value.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace

var x = "outside";
function h(p = function () { return x; }) {
  var x = "inside";
  return p() + " " + x;
}
print(h());
function h2(a, b = () => a) {
  var a = 5;
  return a + " " + b();
}
print(h2(1));
function h3(a = 1, f = () => typeof g) {
  function g() {}
  return f();
}
print(h3());
function h4(a = 1) {
  var arguments;
  return arguments.length;
}
print(h4(1, 2, 3));
var arrow = (a, f = () => a) => {
  var a = 9;
  return [a, f()].join();
};
print(arrow(3));
function h5(a = 1) {
  let b = a + 1;
  {
    function inner() { return b; }
  }
  return inner();
}
print(h5());

// CHECK: outside inside
// CHECK-NEXT: 5 1
// CHECK-NEXT: undefined
// CHECK-NEXT: 3
// CHECK-NEXT: 9,3
// CHECK-NEXT: 2
