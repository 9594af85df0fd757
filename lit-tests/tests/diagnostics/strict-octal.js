// Legacy octal literals are fine in sloppy code and a syntax error under --strict.
// RUN: %iris %s | %FileCheck %s --check-prefix=SLOPPY
// RUN: not %iris --strict %s 2>&1 | %FileCheck %s --check-prefix=STRICT --match-full-lines --strict-whitespace
print(010);
// SLOPPY: 8
// STRICT: {{.*}}strict-octal.js:4:7: SyntaxError: {{.*}}strict mode
// STRICT-NEXT: print(010);
// STRICT-NEXT:       ^
