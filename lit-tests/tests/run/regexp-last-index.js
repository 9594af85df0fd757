// lastIndex: read with ToLength before a global or sticky match, written after it; a read-only
// lastIndex makes the write throw, and a non-global match reads it (its valueOf runs) but
// leaves it alone.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace

var re = /o/g;
print(re.test("foo"), re.lastIndex, re.test("foo"), re.lastIndex, re.test("foo"), re.lastIndex);
re.lastIndex = { valueOf() { print("valueOf"); return 2; } };
print(re.exec("foo").index, re.lastIndex);
var plain = /o/;
plain.lastIndex = { valueOf() { print("plain valueOf"); return 7; } };
print(plain.exec("foo").index, typeof plain.lastIndex);
var ro = /o/g;
Object.defineProperty(ro, "lastIndex", { writable: false, value: 0 });
try { ro.exec("foo"); } catch (e) { print(e.constructor.name); }
try { "foo".replace(ro, "0"); } catch (e) { print(e.constructor.name); }
var sticky = /o/y;
sticky.lastIndex = 1;
print(sticky.test("foo"), sticky.lastIndex, sticky.test("fxo"), sticky.lastIndex);
print(JSON.stringify("a1b2".match(/\d/g)), "a1b2".replace(/\d/g, "#"));
var frozen = Object.freeze(/x/);
print(frozen.exec("xx").index, frozen.lastIndex);

// CHECK: true 2 true 3 false 0
// CHECK-NEXT: valueOf
// CHECK-NEXT: 2 3
// CHECK-NEXT: plain valueOf
// CHECK-NEXT: 1 object
// CHECK-NEXT: TypeError
// CHECK-NEXT: TypeError
// CHECK-NEXT: true 2 true 3
// CHECK-NEXT: ["1","2"] a#b#
// CHECK-NEXT: 0 0
