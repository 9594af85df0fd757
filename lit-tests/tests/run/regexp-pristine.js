// The RegExp methods' shortcuts for RegExps whose prototype is untouched (split without a
// splitter object, flags and exec without lookups) give what the spec's steps give, and are not
// taken once exec, a flag getter or the class is the user's.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace

print(JSON.stringify("a1b22c333".split(/(\d)+/)));
print(JSON.stringify("a1b22c333".split(/\d/, 3)));
print(JSON.stringify("abc".split(/(?:)/)), JSON.stringify("".split(/x/)), JSON.stringify("".split(/(?:)/)));
print(JSON.stringify("\ud83d\ude00x\ud83d\ude00".split(/(?:)/u)));
print(JSON.stringify("\ud83d\ude00x".split(/(?:)/)).length);
print(JSON.stringify("a,b,,c".split(/,/y)));
print("x-y-z".replace(/-/g, "+"), "x-y-z".replace(/-/, "+"), JSON.stringify("aXbX".match(/X/g)));
var re = /-/g;
re.exec = function (s) { print("own exec called"); return null; };
print("x-y".replace(re, "+"));
var saved = RegExp.prototype.exec;
RegExp.prototype.exec = function (s) { print("exec on", this.source); return saved.call(this, s); };
print(JSON.stringify("p-q".split(/-/)));
RegExp.prototype.exec = saved;
var g = Object.getOwnPropertyDescriptor(RegExp.prototype, "global");
Object.defineProperty(RegExp.prototype, "global", { get() { return false; }, configurable: true });
print("x-y-z".replace(/-/g, "+"));
Object.defineProperty(RegExp.prototype, "global", g);
print("x-y-z".replace(/-/g, "+"));
var fl = Object.getOwnPropertyDescriptor(RegExp.prototype, "flags");
Object.defineProperty(RegExp.prototype, "flags", { get() { print("flags getter"); return fl.get.call(this); }, configurable: true });
print(JSON.stringify("a-b".split(/-/)));
Object.defineProperty(RegExp.prototype, "flags", fl);
print(JSON.stringify("a-b".split(/-/)));
class R extends RegExp { exec(s) { print("subclass exec"); return super.exec(s); } }
print(JSON.stringify("m-n".split(new R("-"))));
var frozen = Object.freeze(/a/g);
try { "aa".replace(frozen, "b"); } catch (e) { print(e.constructor.name); }

// CHECK: ["a","1","b","2","c","3",""]
// CHECK-NEXT: ["a","b",""]
// CHECK-NEXT: ["a","b","c"] [""] []
// CHECK-NEXT: ["😀","x","😀"]
// CHECK-NEXT: 23
// CHECK-NEXT: ["a","b","","c"]
// CHECK-NEXT: x+y+z x+y-z ["X","X"]
// CHECK-NEXT: own exec called
// CHECK-NEXT: x-y
// CHECK-NEXT: exec on -
// CHECK-NEXT: exec on -
// CHECK-NEXT: exec on -
// CHECK-NEXT: ["p","q"]
// CHECK-NEXT: x+y-z
// CHECK-NEXT: x+y+z
// CHECK-NEXT: flags getter
// CHECK-NEXT: ["a","b"]
// CHECK-NEXT: ["a","b"]
// CHECK-NEXT: subclass exec
// CHECK-NEXT: subclass exec
// CHECK-NEXT: subclass exec
// CHECK-NEXT: ["m","n"]
// CHECK-NEXT: TypeError
