// `iris compile --sizes` reports every section of the bundle it writes; the source text is
// there unless the bundle is compiled with --strip-source.
// RUN: %iris compile --sizes %s -o %t.irb | %FileCheck %s --match-full-lines
// RUN: %iris compile --strip-source --sizes %s -o %t-stripped.irb | %FileCheck %s --check-prefix=STRIPPED --match-full-lines
function square(x) {
  return x * x;
}
print(square(12));
// CHECK: functions {{ +}}48
// CHECK-NEXT: function info {{ +}}{{[0-9]+}}
// CHECK-NEXT: string table {{ +}}{{[0-9]+}}
// CHECK-NEXT: one-byte chars {{ +}}{{[0-9]+}}
// CHECK-NEXT: code {{ +}}{{[0-9]+}}
// CHECK-NEXT: locations {{ +}}{{[0-9]+}}
// CHECK-NEXT: source name {{ +}}{{[0-9]+}}
// CHECK-NEXT: source text {{ +}}{{[0-9]+}}
// CHECK-NEXT: header and padding {{ +}}{{[0-9]+}}
// CHECK-NEXT: total {{ +}}{{[0-9]+}}
// STRIPPED: functions {{ +}}48
// STRIPPED-NOT: source text
// STRIPPED: total {{ +}}{{[0-9]+}}
