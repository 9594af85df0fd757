// A member chain longer than scope analysis takes (3,000 levels; the pre-scan does not count
// member accesses) is a SyntaxError at the expression it gives up in. Chains of binary
// operators are lists, not nesting (run/long-operator-chains.js); 300,000 of them are too
// many for the pre-scan, which stops at the operator where the estimate passes its limit.
// RUN: { printf 'var x = 1;\nvar s = x'; for i in $(seq 5000); do printf '.a'; done; printf ';\n'; } > %t.js
// RUN: not %iris %t.js 2>&1 | %FileCheck %s --match-full-lines
// CHECK: {{.*}}.js:2:9: SyntaxError: the program is nested too deeply
// RUN: { printf 'var x = 1;\nvar s = x'; head -c 600000 /dev/zero | tr '\0' '+' | sed 's/+/+x/g'; printf ';\n'; } > %t2.js
// RUN: not %iris %t2.js 2>&1 | %FileCheck %s --check-prefix=OPS --match-full-lines
// OPS: {{.*}}.js:2:576008: SyntaxError: the program is nested too deeply
// From eval, the SyntaxError is catchable.
// RUN: echo 'try { eval("1" + " + 1".repeat(400000)); } catch (e) { console.log(e.name, e.message); }' > %t3.js
// RUN: %iris %t3.js | %FileCheck %s --check-prefix=EVAL --match-full-lines
// EVAL: SyntaxError the program is nested too deeply
