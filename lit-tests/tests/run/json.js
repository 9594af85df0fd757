// JSON.stringify and JSON.parse.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

var o = { a: 1, b: "two", c: [true, null, 3.5], d: { e: undefined, f: function () {} }, "g\n": "\u0001" };
print(JSON.stringify(o));
print(JSON.stringify([undefined, function () {}, NaN, Infinity]));
print(JSON.stringify({ b: 1, a: [1, 2] }, null, 2));
print(JSON.stringify("he said \"hi\""), JSON.stringify(42), JSON.stringify(null), JSON.stringify(undefined));
print(JSON.stringify({ toJSON: function () { return "custom"; } }));
var p = JSON.parse('{"x": [1, 2, {"y": "z"}], "n": -1.5e2, "t": true, "u": null}');
print(p.x[2].y, p.n, p.t, p.u, p.x.length);
try { JSON.parse("{bad}"); } catch (e) { print(e.name); }
print(JSON.stringify(JSON.parse("[1,\"\\u0041\"]")));

// CHECK: {"a":1,"b":"two","c":[true,null,3.5],"d":{},"g\n":"\u0001"}
// CHECK-NEXT: [null,null,null,null]
// CHECK-NEXT: {
// CHECK-NEXT:   "b": 1,
// CHECK-NEXT:   "a": [
// CHECK-NEXT:     1,
// CHECK-NEXT:     2
// CHECK-NEXT:   ]
// CHECK-NEXT: }
// CHECK-NEXT: "he said \"hi\"" 42 null undefined
// CHECK-NEXT: "custom"
// CHECK-NEXT: z -150 true null 3
// CHECK-NEXT: SyntaxError
// CHECK-NEXT: [1,"A"]
