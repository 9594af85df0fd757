// The collector drops a Map's or Set's deleted entries once they are as many as the live
// ones; iterators in flight then continue at the same next entry, and forEach (which holds
// a position while its callback runs) sees every entry it would have seen.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines
// Allocates past the collector's budget (8 MiB): a collection follows.
function churn() {
  let g = "";
  for (let i = 0; i < 3; i++) g = "x".repeat(4 << 20) + i;
  return g.length;
}
const m = new Map();
for (let i = 0; i < 100; i++) m.set(i, "v" + i);
const it = m.keys();
it.next();
it.next();
const it2 = m.entries();
for (let i = 0; i < 50; i++) it2.next();
for (let i = 0; i < 95; i++) if (i !== 60) m.delete(i);
churn();
m.set("new", 1);
console.log([...it].join(","));
// CHECK: 60,95,96,97,98,99,new
console.log(JSON.stringify([...it2]));
// CHECK-NEXT: {{\[\[}}60,"v60"],[95,"v95"],[96,"v96"],[97,"v97"],[98,"v98"],[99,"v99"],["new",1]]

// After clear, an iterator goes on with what is added next.
const s = new Set(Array.from({ length: 20 }, (_, i) => i));
const si = s.values();
si.next();
s.clear();
churn();
s.add(7);
s.add(8);
console.log([...si].join(","));
// CHECK-NEXT: 7,8

// forEach while its callback deletes ahead and behind and makes garbage.
const f = new Map();
for (let i = 0; i < 40; i++) f.set(i, i);
const seen = [];
f.forEach((v, k) => {
  seen.push(k);
  if (k < 20) f.delete(k + 1);
  if (k > 0 && k < 30) f.delete(k - 1);
  churn();
});
console.log(seen.join(","), f.size);
// CHECK-NEXT: 0,2,4,6,8,10,12,14,16,18,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39 21

// A key deleted and set again goes to the end, also across a compaction.
const o = new Map([["a", 1], ["b", 2], ["c", 3]]);
for (let i = 0; i < 100; i++) { o.set(i, i); o.delete(i); }
o.delete("a");
churn();
o.set("a", 4);
console.log([...o.keys()].join(","), o.get("b"), o.has(5));
// CHECK-NEXT: b,c,a 2 false
