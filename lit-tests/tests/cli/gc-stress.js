// --gc-stress (a collection at every allocation) gives the same output.
// RUN: %iris --gc-stress %s | %FileCheck %s
// RUN: %iris run --gc-stress -O0 %s | %FileCheck %s
function node(v, next) { return { v: v, next: next }; }
var list = null;
for (var i = 0; i < 200; i++) list = node("item" + i, list);
var n = 0, last;
for (var p = list; p; p = p.next) { n++; last = p.v; }
var strs = [];
for (var j = 0; j < 50; j++) strs.push(String.fromCharCode(97 + (j % 26)).repeat(j % 5 + 1));
print(n, last, strs.join("").length);
// CHECK: 200 item0 150
