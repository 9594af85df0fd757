// Reads of a global through the inline cache when the global object is in dictionary
// mode (a program with many globals), across deletion, re-creation and redefinition.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
for (var i = 0; i < 300; i++) globalThis["g" + i] = i;
var seen = [];
function read() { return g150; }
for (var k = 0; k < 3; k++) seen.push(read());
delete globalThis.g150;
try { read(); } catch (e) { seen.push(e.constructor.name); }
globalThis.g150 = "again";
seen.push(read());
Object.defineProperty(globalThis, "g150", { get() { return "getter"; }, configurable: true });
seen.push(read());
delete globalThis.g149;
globalThis.g151 = "changed";
Object.defineProperty(globalThis, "g150", { value: "data", writable: true, configurable: true });
seen.push(read(), g151);
var o = {};
for (var j = 0; j < 300; j++) o["p" + j] = j;
function readO(x) { return x.p7; }
var r = [];
for (var m = 0; m < 3; m++) r.push(readO(o));
delete o.p7;
r.push(readO(o));
o.p7 = "back";
r.push(readO(o));
console.log(seen.join(" "), "|", r.join(" "));
// Writes through the cache, then to a property made read-only, then deleted and re-added.
function write(v) { g200 = v; }
for (var n = 0; n < 3; n++) write(n);
var w = [g200];
Object.defineProperty(globalThis, "g200", { writable: false });
write("ignored");
w.push(g200);
Object.defineProperty(globalThis, "g200", { writable: true });
delete globalThis.g200;
globalThis.g200 = "fresh";
write("written");
w.push(g200);
console.log(w.join(" "));

// CHECK: 150 150 150 ReferenceError again getter data changed | 7 7 7  back
// CHECK-NEXT: 2 2 written
