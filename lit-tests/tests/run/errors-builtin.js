// Error objects and the native error subclasses.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

var errs = [new Error("e"), new TypeError("t"), new RangeError("r"), new SyntaxError("s"), new ReferenceError("x")];
print(errs.map(function (e) { return e.name + ":" + e.message + ":" + (e instanceof Error); }).join(" "));
print(String(new TypeError("msg")), Object.prototype.toString.call(new Error()));
print(typeof new Error("x").stack);
try { (void 0).prop; } catch (e) { print(e instanceof TypeError); }
try { [].reduce(function () {}); } catch (e) { print(e.name); }
try { new Array(-1); } catch (e) { print(e.name); }
function MyError(msg) { this.message = msg; }
MyError.prototype = Object.create(Error.prototype);
MyError.prototype.name = "MyError";
try { throw new MyError("custom"); } catch (e) { print(e.name, e.message, e instanceof Error); }

// CHECK: Error:e:true TypeError:t:true RangeError:r:true SyntaxError:s:true ReferenceError:x:true
// CHECK-NEXT: TypeError: msg [object Error]
// CHECK-NEXT: string
// CHECK-NEXT: true
// CHECK-NEXT: TypeError
// CHECK-NEXT: RangeError
// CHECK-NEXT: MyError custom true
