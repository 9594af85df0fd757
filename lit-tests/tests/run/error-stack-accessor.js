// Error.prototype.stack is an accessor (the error-stack-accessor proposal): errors have no
// own `stack`; the getter gives the stack recorded at construction for objects with
// [[ErrorData]] and undefined for others; the setter makes an own data property.
// Error.captureStackTrace still defines an own `stack`. Written from the proposal (node 20
// gives errors an own `stack`).
// NODE-SKIP: node 20 gives every error an own `stack` data property
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --gc-stress %s | %FileCheck %s --match-full-lines
function make() { return new RangeError("far"); }
const e = make();
const { get, set } = Object.getOwnPropertyDescriptor(Error.prototype, "stack");
console.log(Object.hasOwn(e, "stack"), typeof get, typeof set, get.name, set.name);
// CHECK: false function function get stack set stack
console.log(e.stack.split("\n")[0], /at make \(.*error-stack-accessor\.js:9:/.test(e.stack));
// CHECK-NEXT: RangeError: far true
console.log(get.call({}), get.call(Object.create(Error.prototype)), get.call(Error.prototype));
// CHECK-NEXT: undefined undefined undefined
try { get.call(1); } catch (err) { console.log(err.constructor.name); }
// CHECK-NEXT: TypeError
try { e.stack = 42; } catch (err) { console.log(err.constructor.name); }
// CHECK-NEXT: TypeError
e.stack = "replaced";
console.log(e.stack, JSON.stringify(Object.getOwnPropertyDescriptor(e, "stack")));
// CHECK-NEXT: replaced {"value":"replaced","writable":true,"enumerable":true,"configurable":true}
const plain = {};
Error.captureStackTrace(plain);
console.log(Object.hasOwn(plain, "stack"), typeof plain.stack);
// CHECK-NEXT: true string
