// Direct eval sees and changes the caller's scope: its variables (let, const, var,
// parameters, arguments), `this`, `new.target` and `super`; sloppy eval code declares its
// `var`s and functions in the calling function, strict eval code keeps them; eval that is
// not %eval% (renamed, shadowed) is an ordinary call.
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold=0 %s | %FileCheck %s --match-full-lines
// RUN: %iris --gc-stress %s | %FileCheck %s --match-full-lines
function scope(a, b) {
  let l = 'let'; const c = 'const'; var v = 'var';
  eval('v = v + "!"; a = a * 10');
  return eval('[a, b, l, c, v, arguments.length].join(" ")');
}
console.log(scope(1, 2));
// CHECK: 10 2 let const var! 2

function declares() {
  eval('var added = 1; function made() { return added + 1; }');
  added++;
  return [typeof added, added, made(), delete added, typeof added].join(' ');
}
console.log(declares(), typeof added, typeof made);
// CHECK-NEXT: number 2 3 true undefined undefined undefined

function strictEval() {
  'use strict';
  eval('var own = 1; function f() {}');
  return typeof own + ' ' + typeof f;
}
console.log(strictEval());
// CHECK-NEXT: undefined undefined

function inner() {
  let x = 'outer';
  { let x = 'block'; return eval('x') + ' ' + (() => eval('x'))(); }
}
console.log(inner());
// CHECK-NEXT: block block

const o = {
  name: 'o',
  m() { return eval('this.name + " " + typeof new.target + " " + super.toString.name'); },
};
console.log(o.m());
// CHECK-NEXT: o undefined toString
function Ctor() { this.t = eval('new.target === Ctor'); }
console.log(new Ctor().t);
// CHECK-NEXT: true
class Base { constructor() { this.base = true; } }
class Derived extends Base { constructor() { eval('super()'); this.after = eval('this.base'); } }
console.log(new Derived().after);
// CHECK-NEXT: true

var globalVar = 'g';
function indirect() {
  var globalVar = 'local';
  const e = eval;
  return [eval('globalVar'), e('globalVar'), (0, eval)('globalVar')].join(' ');
}
console.log(indirect());
// CHECK-NEXT: local g g
function shadowed() {
  const eval = (s) => 'not eval: ' + s;
  return eval('1 + 1');
}
console.log(shadowed());
// CHECK-NEXT: not eval: 1 + 1

try { (function () { let conflict; { eval('var conflict'); } })(); } catch (e) { console.log(e.name); }
// CHECK-NEXT: SyntaxError
let counter = 0;
eval('var topVar = ++counter; let topLet = 5;');
console.log(topVar, typeof topLet, counter, eval('1; if (true) { 2; }'));
// CHECK-NEXT: 1 undefined 1 2
with ({ fromWith: 'w' }) { console.log(eval('fromWith')); }
// CHECK-NEXT: w
(0, eval)('"use strict"; var strictGlobalVar = 1; function strictGlobalFn() {}');
(0, eval)('var sloppyGlobalVar = 2;');
console.log('strictGlobalVar' in globalThis, 'strictGlobalFn' in globalThis, globalThis.sloppyGlobalVar);
// CHECK-NEXT: false false 2
console.log((0, eval)('"use strict"; var own = 3; this === globalThis ? own : -1'));
// CHECK-NEXT: 3
