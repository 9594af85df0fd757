// Unreadable files and non-UTF-8 sources are reported, not crashed on.
// RUN: not %iris %t.does-not-exist.js 2>&1 | %FileCheck %s --check-prefix=MISSING
// RUN: printf 'print(1);\377\n' > %t.latin1.js
// RUN: not %iris %t.latin1.js 2>&1 | %FileCheck %s --check-prefix=UTF8
// RUN: printf '' > %t.empty.js && %iris %t.empty.js | %FileCheck %s --check-prefix=EMPTY --allow-empty
// MISSING: iris: cannot read {{.*}}does-not-exist.js: No such file or directory
// UTF8: iris: {{.*}}latin1.js is not UTF-8 text (byte 9 is invalid)
// EMPTY-NOT: {{.}}
