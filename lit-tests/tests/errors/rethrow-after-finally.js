// finally blocks run before an exception escapes the script.
// RUN: not %iris %s 2>&1 | %FileCheck %s --match-full-lines
function f() {
  try {
    throw new Error("escaping");
  } finally {
    print("finally ran");
  }
}
try {
  f();
} catch (e) {
  print("caught", e.message);
  throw e;
}
// CHECK: finally ran
// CHECK-NEXT: caught escaping
// CHECK-NEXT: Uncaught Error: escaping
// CHECK-NEXT:     at f ({{.*}}rethrow-after-finally.js:5:11)
// CHECK-NEXT:     at {{.*}}rethrow-after-finally.js:11:3
