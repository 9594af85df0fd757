// A promise rejected with no handler once the job queue is empty ends the program like an
// uncaught exception, marked "(in promise)"; rejections handled in a later job are not
// reported.
// RUN: not %iris %s 2>&1 | %FileCheck %s --match-full-lines
var late = Promise.reject(new Error("handled in a job"));
Promise.resolve().then(function () {
  late.catch(function (e) { print("caught: " + e.message); });
});
function fail() {
  return Promise.reject(new TypeError("nobody listens"));
}
fail().then(function () { print("not reached"); });
print("end of script");
// CHECK: end of script
// CHECK-NEXT: caught: handled in a job
// CHECK-NEXT: Uncaught (in promise) TypeError: nobody listens
// CHECK-NEXT:     at fail ({{.*}}unhandled-rejection.js:10:25)
