// Feedback the interpreter records for the JIT: the operand kinds an arithmetic site saw
// (int32 until a double, a string and undefined arrive), element reads served by the dense
// fast path or not (a hole takes the slow path), a call site with one closure target and
// one with a native function, and how often each function ran and looped.
// RUN: %iris dump --feedback %s | %FileCheck %s
function add(a, b) { return a + b; }
function sum(arr) { let s = 0; for (let i = 0; i < arr.length; i++) s = add(s, arr[i]); return s; }
print(sum([1, 2, 3]), sum([0.5, 1]), add("a", 1));
print(sum([1, , 3]));

// CHECK:      6 1.5 a1
// CHECK-NEXT: NaN
// CHECK:      function <global>#0: entries 1, back-edges 0
// CHECK:      call {{.*}} many targets
// CHECK:      function add#1: entries 9, back-edges 0
// CHECK-NEXT:   @{{[0-9]+}} {{ *}}add r0, r0, r1 {{ *}}int32|double|string|other
// CHECK-NEXT: function sum#2: entries 3, back-edges 8
// CHECK-NEXT:   @{{[0-9]+}} {{ *}}get_by_val {{.*}}int32|double|dense|slow
// CHECK-NEXT:   @{{[0-9]+}} {{ *}}call {{.*}}calls add#1
// CHECK-NEXT:   @{{[0-9]+}} {{ *}}inc r2, r2 {{ *}}int32
// CHECK-NEXT:   @{{[0-9]+}} {{ *}}jmp_less {{.*}}int32
