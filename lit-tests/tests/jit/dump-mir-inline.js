// `iris dump --mir` of a caller with an inlined callee: the call site always called
// `getX`, so the caller checks that the callee is a closure of it (the cell kind and the
// closure's function, leaving through the call's exit otherwise) and runs its code, with
// no call left. Exits inside the callee rebuild its frame: they list the caller's
// registers live at the call, then the callee's live ones at `window` + r, and name the
// callee and the call.
// RUN: %iris dump --mir --jit-threshold 4 %s | %FileCheck %s

function Point(x) {
  this.x = x;
}
Point.prototype.getX = function () {
  return this.x;
};
function sum(p, n) {
  let s = 0;
  for (let i = 0; i < n; i++) s += p.getX();
  return s;
}
const p = new Point(2);
for (let i = 0; i < 10; i++) sum(p, 10);

// CHECK: ; sum#{{[0-9]+}} (entry)
// CHECK: e{{[0-9]+}} = exit @0 [r0: v{{[0-9]+}}, {{.*}}] inlined 0x{{[0-9a-f]+}} at @7 window 7
// CHECK-NOT: call_helper @call
// CHECK: load.i64 v{{[0-9]+}}, 32
// CHECK-NOT: call_helper @call
// CHECK: load_slot
// CHECK-NOT: call_helper @call
// CHECK: }
