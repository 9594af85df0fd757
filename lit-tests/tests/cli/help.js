// `iris --help` explains every subcommand and flag.
// RUN: %iris --help | %FileCheck %s
// RUN: %iris dump --help | %FileCheck %s --check-prefix=DUMP
// CHECK: Usage: iris [OPTIONS] [FILE] [COMMAND]
// CHECK-DAG: run {{.*}}Run a JavaScript file
// CHECK-DAG: compile {{.*}}Compile a JavaScript
// CHECK-DAG: dump {{.*}}Print an intermediate form
// CHECK-DAG: -O <LEVEL>
// CHECK-DAG: --gc-stress
// CHECK-DAG: --strict
// CHECK-DAG: --verify
// CHECK: Examples:
// CHECK: Exit status:
// DUMP-DAG: --ir
// DUMP-DAG: --ir-opt
// DUMP-DAG: --bytecode
// DUMP-DAG: --stats
// DUMP-DAG: --pass <PASS>
