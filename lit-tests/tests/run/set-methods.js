// The ES2025 Set methods (union, intersection, difference, symmetricDifference,
// isSubsetOf, isSupersetOf, isDisjointFrom) with sets and set-like objects: results,
// element order, -0 canonicalization, GetSetRecord validation, the order of observable
// calls, mutation of the receiver during iteration and closing other's iterator.
// NODE-SKIP: node 20 has no Set methods
// Expected output is derived from ECMA-262 24.2.4.
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
const show = (s) => (s instanceof Set ? "Set{" + [...s].join(",") + "}" : String(s));
const a = new Set([1, 2, 3, 4]);
const b = new Set([3, 4, 5]);
console.log(show(a.union(b)), show(a.intersection(b)), show(a.difference(b)), show(a.symmetricDifference(b)));
// CHECK:Set{1,2,3,4,5} Set{3,4} Set{1,2} Set{1,2,5}
console.log(b.intersection(a) instanceof Set, Object.getPrototypeOf(a.union(b)) === Set.prototype);
// CHECK:true true
console.log(a.isSubsetOf(b), new Set([3]).isSubsetOf(b), a.isSupersetOf(new Set([1, 4])), a.isDisjointFrom(b), a.isDisjointFrom(new Set([9])));
// CHECK:false true true false true
console.log(Object.is([...new Set([0]).union(new Set([-0]))][1], undefined), Object.is([...new Set().union(new Set([-0]))][0], 0));
// CHECK:true true

// A set-like object: size, has and keys are read in that order.
const log = [];
function setLike(values, size = values.length) {
  return {
    get size() { log.push("size"); return { valueOf() { log.push("valueOf"); return size; } }; },
    get has() { log.push("has"); return (v) => { log.push("has(" + v + ")"); return values.includes(v); }; },
    get keys() {
      log.push("keys");
      return () => {
        log.push("keys()");
        let i = 0;
        return {
          get next() {
            log.push("next");
            return () => (i < values.length ? { value: values[i++], done: false } : { value: undefined, done: true });
          },
          return() { log.push("return"); return {}; },
        };
      };
    },
  };
}
console.log(show(new Set([1, 2]).intersection(setLike([2, 3, 4]))), log.join(" "));
// CHECK:Set{2} size valueOf has keys has(1) has(2)
log.length = 0;
console.log(show(new Set([1, 2, 3]).intersection(setLike([3, 1]))), log.join(" "));
// CHECK:Set{3,1} size valueOf has keys keys() next
log.length = 0;
console.log(new Set([1, 2, 3]).isSupersetOf(setLike([1, 7, 2])), log.join(" "));
// CHECK:false size valueOf has keys keys() next return
log.length = 0;
console.log(new Set([1, 2, 3]).isDisjointFrom(setLike([9, 2])), log.join(" "));
// CHECK:false size valueOf has keys keys() next return
log.length = 0;
console.log(new Set([1, 2, 3]).isSubsetOf(setLike([1, 2])), log.join(" "));
// CHECK:false size valueOf has keys
log.length = 0;
console.log(show(new Set([1]).union(setLike([5, 1, 6]))), log.join(" "));
// CHECK:Set{1,5,6} size valueOf has keys keys() next

// GetSetRecord validation.
for (const bad of [[1], { size: undefined, has() {}, keys() {} }, { size: -1, has() {}, keys() {} }, { size: 1, has: 1, keys() {} }, { size: 1, has() {}, keys: null }]) {
  try {
    new Set().union(bad);
  } catch (e) {
    console.log(e.constructor.name);
  }
}
// CHECK:TypeError
// CHECK-NEXT:TypeError
// CHECK-NEXT:RangeError
// CHECK-NEXT:TypeError
// CHECK-NEXT:TypeError
try {
  Set.prototype.union.call(new Map(), new Set());
} catch (e) {
  console.log(e.constructor.name);
}
// CHECK:TypeError

// The receiver changing under has(): appended elements are visited, deleted ones skipped.
const r = new Set([1, 2, 3]);
const seen = [];
const other = { size: 10, has(v) { seen.push(v); if (v === 1) { r.delete(2); r.add(4); } return true; }, keys() {} };
console.log(show(r.intersection(other)), seen.join(","));
// CHECK:Set{1,3,4} 1,3,4
// difference walks a copy: elements deleted from the receiver are still checked.
const r2 = new Set([1, 2, 3]);
const seen2 = [];
console.log(show(r2.difference({ size: 10, has(v) { seen2.push(v); r2.clear(); return v === 2; }, keys() {} })), seen2.join(","));
// CHECK:Set{1,3} 1,2,3
// Subclasses and @@species are ignored: results are plain Sets.
class MySet extends Set {
  static get [Symbol.species]() { throw new Error("species read"); }
}
console.log(new MySet([1]).union(new Set([2])).constructor === Set);
// CHECK:true
console.log(Set.prototype.union.length, Set.prototype.isDisjointFrom.name);
// CHECK:1 isDisjointFrom
