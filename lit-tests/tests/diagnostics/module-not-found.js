// An import that resolves to no file is an error naming the importing file, the line and
// column of the import, and the specifier; at run time and when compiling the graph.
// RUN: not %iris --module %s 2>&1 | %FileCheck %s --check-prefix=RUNTIME
// RUN: not %iris compile --module %s -o %t.irb 2>&1 | %FileCheck %s --check-prefix=COMPILE
let before = 1;
  import { x } from './no-such-module.mjs';
// RUNTIME: Uncaught Error: Cannot find module '{{.*}}no-such-module.mjs' (from the specifier './no-such-module.mjs') (imported at {{.*}}module-not-found.js:6:3)
// COMPILE: {{.*}}module-not-found.js:6:3: cannot import './no-such-module.mjs': Cannot find module
