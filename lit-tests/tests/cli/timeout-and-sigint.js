// --timeout and Ctrl-C (SIGINT) stop a program that runs on: it ends with an uncaught
// "execution interrupted" and the JavaScript stack where it was, after what it printed,
// with exit status 124 and 130.
// NODE-SKIP: the program never ends by itself
// `timeout -s INT` sends SIGINT to iris and then to its process group: iris may see it
// twice, which is still one Ctrl-C (a second press ends the process at once, with nothing
// reported; it did so here at times).
// RUN: (%iris --timeout 0.2 %s 2>&1; echo "status $?") | %FileCheck %s --check-prefix=TIMEOUT
// RUN: (timeout --preserve-status -s INT 1 %iris %s 2>&1; echo "status $?") | %FileCheck %s --check-prefix=SIGINT
// iris-run, which runs the bundle without compiling anything, stops the same way.
// RUN: %iris compile %s -o %t.irb
// RUN: (%iris-run --timeout 0.5 %t.irb 2>&1; echo "status $?") | %FileCheck %s --check-prefix=RUN-TIMEOUT
function spin(n) {
  let x = 0;
  for (;;) x += n;
}
function outer() {
  print("started");
  spin(1);
}
outer();
// TIMEOUT: started
// TIMEOUT-NEXT: Uncaught Error: execution interrupted
// TIMEOUT-NEXT:     at spin ({{.*}}timeout-and-sigint.js:15:{{[0-9]+}})
// TIMEOUT-NEXT:     at outer ({{.*}}timeout-and-sigint.js:19:3)
// TIMEOUT-NEXT:     at {{.*}}timeout-and-sigint.js:21:1
// TIMEOUT-NEXT: iris: stopped after --timeout 0.2 seconds
// TIMEOUT-NEXT: status 124
// SIGINT: started
// SIGINT-NEXT: Uncaught Error: execution interrupted
// SIGINT-NEXT:     at spin ({{.*}}timeout-and-sigint.js:15:{{[0-9]+}})
// SIGINT-NEXT:     at outer ({{.*}}timeout-and-sigint.js:19:3)
// SIGINT-NEXT:     at {{.*}}timeout-and-sigint.js:21:1
// SIGINT-NEXT: status 130
// RUN-TIMEOUT: started
// RUN-TIMEOUT-NEXT: Uncaught Error: execution interrupted
// RUN-TIMEOUT-NEXT:     at spin ({{.*}}timeout-and-sigint.js:15:{{[0-9]+}})
// RUN-TIMEOUT-NEXT:     at outer ({{.*}}timeout-and-sigint.js:19:3)
// RUN-TIMEOUT-NEXT:     at {{.*}}timeout-and-sigint.js:21:1
// RUN-TIMEOUT-NEXT: iris-run: stopped after --timeout 0.5 seconds
// RUN-TIMEOUT-NEXT: status 124
