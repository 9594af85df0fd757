// Bytecode: a postfix `++`/`--` whose old value is read is one `post_inc`/`post_dec` (the
// old value and the stepped variable in two registers); one whose old value nobody reads is
// a plain `inc`, with no ToNumeric.
// RUN: %iris dump --bytecode %s | %FileCheck %s
function read(a, i) { return a[i++] + a[i--]; }
function unread(i) { i++; return i; }
// CHECK-LABEL: function 1 "read"
// CHECK-NOT: to_numeric
// CHECK: post_inc [[OLD:r[0-9]+]], [[I:r[0-9]+]], {{r[0-9]+}}
// CHECK-NEXT: get_by_val {{r[0-9]+}}, {{r[0-9]+}}, [[OLD]]
// CHECK-NEXT: post_dec [[OLD2:r[0-9]+]], {{r[0-9]+}}, [[I]]
// CHECK-NEXT: get_by_val {{r[0-9]+}}, {{r[0-9]+}}, [[OLD2]]
// CHECK-LABEL: function 2 "unread"
// CHECK-NOT: to_numeric
// CHECK: inc
