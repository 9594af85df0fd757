// `not` inverts a failure, %t names a temporary file, and several RUN lines share it.
// RUN: not false
// RUN: printf 'first\nsecond\n' > %t
// RUN: %FileCheck %s --input-file=%t --match-full-lines
// RUN: cat %t | %FileCheck %s --check-prefix=SAME
// CHECK: first
// CHECK-NEXT: second
// SAME: {{^}}sec{{o+}}nd{{$}}
