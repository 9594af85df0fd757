// Annex B: `for (var x = init in obj)` in sloppy code evaluates the initializer once, before
// the object expression (which may read it), and then iterates as usual.
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold=0 %s | %FileCheck %s --match-full-lines
var effects = 0;
for (var a = ++effects in {});
console.log(a, effects);
var stored;
for (var b = (effects++, 'init') in stored = b, { x: 1, y: 2 }) console.log('key', b);
console.log(stored, effects);
function inner() {
  for (var c = function () { return 'closure'; } in {}) ;
  return typeof c === 'function' ? c() : c;
}
console.log(inner());
for (var d = 'x' in (0, { z: 0 })) console.log('d', d);
var e = 'keep';
for (var e = [1, 2].length in null) console.log('never');
console.log(e);
// CHECK: 1 1
// CHECK-NEXT: key x
// CHECK-NEXT: key y
// CHECK-NEXT: init 2
// CHECK-NEXT: closure
// CHECK-NEXT: d z
// CHECK-NEXT: 2
