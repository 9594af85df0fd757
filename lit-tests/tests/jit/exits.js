// Compiled code that leaves through an exit resumes the interpreter at the exit's
// instruction, with the registers live there: work done before the exit is not done
// again, in a function called from compiled code as in one called from the interpreter.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 0 %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold 3 --gc-stress %s | %FileCheck %s --match-full-lines
// RUN: %iris --no-jit %s | %FileCheck %s --match-full-lines

let log = [];
function callee(x) {
  log.push("in");
  return x + 1;
}
function caller(v) {
  return callee(v) * 2;
}
let sum = 0;
for (let i = 0; i < 300; i++) sum += caller(i);
console.log(sum);
log.length = 0;
// int32 feedback so far: the addition exits on a double, after the push.
console.log(caller(1.5), log.length);
console.log(caller(2 ** 31 - 1), log.length);
console.log(caller("s"), log.length);

// An exit inside a loop: the loop goes on in the interpreter (and may enter compiled code
// again at its header).
function total(arr) {
  let t = 0;
  for (let i = 0; i < arr.length; i++) t += arr[i];
  return t;
}
let ints = [];
for (let i = 0; i < 1000; i++) ints.push(i);
console.log(total(ints));
for (let i = 0; i < 200; i++) total(ints);
ints[500] = 0.5;
console.log(total(ints));
ints[700] = "x";
console.log(total(ints));

// CHECK: 90300
// CHECK-NEXT: 5 1
// CHECK-NEXT: 4294967296 2
// CHECK-NEXT: NaN 3
// CHECK-NEXT: 499500
// CHECK-NEXT: 499000.5
// CHECK-NEXT: 244150.5x701702703704705706707708709710711712713714715716717718719720721722723724725726727728729730731732733734735736737738739740741742743744745746747748749750751752753754755756757758759760761762763764765766767768769770771772773774775776777778779780781782783784785786787788789790791792793794795796797798799800801802803804805806807808809810811812813814815816817818819820821822823824825826827828829830831832833834835836837838839840841842843844845846847848849850851852853854855856857858859860861862863864865866867868869870871872873874875876877878879880881882883884885886887888889890891892893894895896897898899900901902903904905906907908909910911912913914915916917918919920921922923924925926927928929930931932933934935936937938939940941942943944945946947948949950951952953954955956957958959960961962963964965966967968969970971972973974975976977978979980981982983984985986987988989990991992993994995996997998999
