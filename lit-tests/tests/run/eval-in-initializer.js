// Direct eval in a class field initializer or static block (or an arrow in one) may not
// name `arguments` (PerformEval's rules for eval inside an initializer); a function in it may.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
let executed = false;
let C = class { x = eval('executed = true; () => arguments;'); };
try { new C().x(); console.log('no error', executed); } catch (e) { console.log(e.name, executed); }
class D { x = eval('arguments'); }
try { new D(); console.log('no error'); } catch (e) { console.log(e.name, e.message); }
class E { x = () => eval('arguments'); }
try { new E().x(); console.log('no error'); } catch (e) { console.log(e.name, e.message); }
class F { x = function () { return eval('arguments.length'); }; }
console.log(new F().x(1, 2));
try { class G { static { eval('arguments'); } } console.log('no error'); } catch (e) { console.log(e.name); }
class H { x = () => () => eval('arguments'); }
try { new H().x()(); console.log('no error'); } catch (e) { console.log(e.name); }
class I { x = () => eval('(function () { return arguments.length; })(1, 2, 3)'); }
console.log(new I().x());
class J { x = eval('eval("arguments")'); }
try { new J(); console.log('no error'); } catch (e) { console.log(e.name); }
function outer() { return eval('arguments.length'); }
console.log(outer(1));
// CHECK: SyntaxError false
// CHECK-NEXT: SyntaxError 'arguments' is not allowed in class field initializer or static initialization block
// CHECK-NEXT: SyntaxError 'arguments' is not allowed in class field initializer or static initialization block
// CHECK-NEXT: 2
// CHECK-NEXT: SyntaxError
// CHECK-NEXT: SyntaxError
// CHECK-NEXT: 3
// CHECK-NEXT: SyntaxError
// CHECK-NEXT: 1
