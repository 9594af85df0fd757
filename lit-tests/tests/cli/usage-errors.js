// Usage errors exit with status 2 and say what is wrong.
// RUN: not %iris 2>&1 | %FileCheck %s --check-prefix=NOFILE
// RUN: not %iris dump %s 2>&1 | %FileCheck %s --check-prefix=NOKIND
// RUN: not %iris dump --ir --bytecode %s 2>&1 | %FileCheck %s --check-prefix=TWOKINDS
// RUN: not %iris -O7 %s 2>&1 | %FileCheck %s --check-prefix=LEVEL
// RUN: not %iris dump --bytecode --pass dce %s 2>&1 | %FileCheck %s --check-prefix=PASS
// RUN: %iris %s; test $? -eq 0
// RUN: bash -c '%iris; test $? -eq 2'
// RUN: bash -c '%iris dump %s; test $? -eq 2'
// NOFILE: iris: no file given
// NOKIND: error: the following required arguments were not provided:
// TWOKINDS: error: the argument '--ir' cannot be used with '--bytecode'
// LEVEL: error: invalid value '7' for '-O <LEVEL>'
// PASS: iris: --pass goes with --ir-opt
