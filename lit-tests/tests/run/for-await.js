// `for await` in async functions and async generators: async iterables, sync iterables of
// promises (through CreateAsyncFromSyncIterator), destructuring heads with per-iteration
// bindings, and AsyncIteratorClose on break, return, continue to an outer loop and throw
// (awaiting `return()`, whose failure is ignored only when the loop threw).
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris --gc-stress %s | %FileCheck %s --match-full-lines --strict-whitespace

function tracked(name, values) {
  let i = 0;
  return {
    [Symbol.asyncIterator]() {
      print(name, "opened");
      return this;
    },
    next() {
      const done = i >= values.length;
      const value = values[i++];
      return Promise.resolve({ value, done });
    },
    return() {
      print(name, "return() called");
      return new Promise((resolve) => Promise.resolve().then(() => {
        print(name, "return() settled");
        resolve({ done: true });
      }));
    },
  };
}

async function basics() {
  for await (const x of tracked("a", [1, 2])) print("a got", x);
  for await (const x of [Promise.resolve("p1"), "plain", Promise.resolve("p2")]) print("sync got", x);
  const fns = [];
  for await (let [k, v] of [["x", 1], Promise.resolve(["y", 2])]) fns.push(() => k + v);
  print("closures:", fns.map((f) => f()).join(","));
  for await (const x of tracked("b", [1, 2, 3])) {
    if (x === 2) break;
    print("b got", x);
  }
  print("after break");
  outer: for (const round of [1, 2]) {
    for await (const x of tracked("c" + round, ["u", "v"])) {
      if (x === "v") continue outer;
      print("c got", round, x);
    }
  }
  try {
    for await (const x of tracked("d", [1])) throw new Error("body threw " + x);
  } catch (e) {
    print("caught:", e.message);
  }
  const found = await (async () => {
    for await (const x of tracked("e", [5, 6])) if (x === 6) return "returned " + x;
  })();
  print(found);
  let target = {};
  for await (target.prop of ["assigned"]);
  print("target:", target.prop);
}

// A failing return() replaces a break but not an exception.
function badReturn(name) {
  return {
    [Symbol.asyncIterator]() { return this; },
    next() { return { value: name, done: false }; },
    return() { throw new Error(name + ": return() failed"); },
  };
}

async function closing() {
  try {
    for await (const x of badReturn("on break")) break;
  } catch (e) {
    print("caught:", e.message);
  }
  try {
    for await (const x of badReturn("on throw")) throw new Error("the body's error wins");
  } catch (e) {
    print("caught:", e.message);
  }
  try {
    for await (const x of { [Symbol.asyncIterator]() { return { next() { return 1; } }; } });
  } catch (e) {
    print("non-object result:", e.constructor.name);
  }
  try {
    for await (const x of 5);
  } catch (e) {
    print("not iterable:", e.constructor.name);
  }
}

// In an async generator, `for await` feeds `yield`.
async function* doubled(source) {
  for await (const x of source) yield x * 2;
}

async function main() {
  await basics();
  await closing();
  const out = [];
  for await (const y of doubled([1, Promise.resolve(2), 3])) out.push(y);
  print("doubled:", out.join(","));
}

main().then(() => print("main done"), (e) => print("main failed:", e));
Promise.resolve().then(() => print("tick 1")).then(() => print("tick 2"));

// CHECK: a opened
// CHECK-NEXT: a got 1
// CHECK-NEXT: tick 1
// CHECK-NEXT: a got 2
// CHECK-NEXT: tick 2
// CHECK-NEXT: sync got p1
// CHECK-NEXT: sync got plain
// CHECK-NEXT: sync got p2
// CHECK-NEXT: closures: x1,y2
// CHECK-NEXT: b opened
// CHECK-NEXT: b got 1
// CHECK-NEXT: b return() called
// CHECK-NEXT: b return() settled
// CHECK-NEXT: after break
// CHECK-NEXT: c1 opened
// CHECK-NEXT: c got 1 u
// CHECK-NEXT: c1 return() called
// CHECK-NEXT: c1 return() settled
// CHECK-NEXT: c2 opened
// CHECK-NEXT: c got 2 u
// CHECK-NEXT: c2 return() called
// CHECK-NEXT: c2 return() settled
// CHECK-NEXT: d opened
// CHECK-NEXT: d return() called
// CHECK-NEXT: d return() settled
// CHECK-NEXT: caught: body threw 1
// CHECK-NEXT: e opened
// CHECK-NEXT: e return() called
// CHECK-NEXT: e return() settled
// CHECK-NEXT: returned 6
// CHECK-NEXT: target: assigned
// CHECK-NEXT: caught: on break: return() failed
// CHECK-NEXT: caught: the body's error wins
// CHECK-NEXT: non-object result: TypeError
// CHECK-NEXT: not iterable: TypeError
// CHECK-NEXT: doubled: 2,4,6
// CHECK-NEXT: main done
