#!/usr/bin/env bash
# Runs every test of Iris, in this order:
#   0. the tree is formatted (`cargo fmt --check`) and lint-free (`cargo clippy ... -D warnings`),
#   1. unit tests of every crate and the lit-tests (`cargo test --workspace`; the lit-tests build
#      the `iris` binary themselves), and the embedding examples (examples/rust-host, and
#      examples/c-host built with `cc` against iris.h and libiris_c) against their expected
#      output, and the embedding API's documentation (cargo doc, warnings as errors),
#   2. the lit-test programs again under `--gc-stress` (same output with a collection at every
#      allocation), and every lit-test with the JIT compiling each function at its first call
#      (`--jit-threshold 0`), with and without `--gc-stress`,
#   3. when node is installed, the lit-test programs' expected output against node,
#   4. the test262 gate (`test262-runner --check` against test262-runner/expectations.txt, a
#      release build) when test262 is at $TEST262_DIR or ../shared/test262, in the interpreter,
#      and with the JIT: half of the tests compiling every function at its first call, the
#      other half compiling at the second call (where callers have call feedback and inline
#      their callees), these running each test in one mode, and every 50th test under
#      `--gc-stress` (a collection at every safepoint),
#   5. the generated large and hostile programs (`iris-stress`), each within a time and a
#      memory limit, and 5,000 randomly mutated bundles (`iris-mutate`, checksums
#      recomputed), each rejected by the verifier or run within its limits, in a release build,
#      and on Linux the lit-test programs with the statically linked `iris` that
#      ./build-static.sh builds (a release ships that one; on Linux steps 4 and 5 use the
#      release build that builds: one release build instead of two),
#   6. the native tier on AArch64: iris cross-built for aarch64-unknown-linux-gnu, its runnable
#      MIR tests and the lit-test programs with `--jit-threshold 0` run under qemu-aarch64
#      (and iris-run, cross-built too, running a bundle compiled here),
#      when the cross toolchain and qemu are installed (IRIS_REQUIRE_AARCH64=1, as CI sets it,
#      makes their absence a failure).
# Usage: ./test.sh [--quick]   (--quick: steps 0, 1 and 3 only)
set -euo pipefail
cd "$(dirname "$0")"

quick=0
for arg in "$@"; do
  case "$arg" in
    --quick) quick=1 ;;
    *) echo "usage: ./test.sh [--quick]" >&2; exit 2 ;;
  esac
done

step() { printf '\n=== %s (at %ss)\n' "$*" "$SECONDS"; }

step "formatting (cargo fmt --check) and lints (cargo clippy -D warnings)"
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings

step "unit tests and lit-tests (cargo test --workspace)"
cargo test --workspace --no-fail-fast

step "examples: the Rust host (examples/rust-host) and the C host (examples/c-host, linked statically and dynamically) print what they should"
cargo run -q -p rust-host-example | diff - examples/rust-host/expected-output.txt
cargo build -q -p iris-c
cc -Wall -Wextra -Werror -Iiris-c/include examples/c-host/main.c target/debug/libiris_c.a -lpthread -ldl -lm \
  -o target/c-host-static
target/c-host-static | diff - examples/c-host/expected-output.txt
cc -Wall -Wextra -Werror -Iiris-c/include examples/c-host/main.c -Ltarget/debug -liris_c -o target/c-host-shared
LD_LIBRARY_PATH=target/debug target/c-host-shared | diff - examples/c-host/expected-output.txt

step "the embedding API's documentation builds without a warning (cargo doc -p iris -p vm -p iris-c)"
RUSTDOCFLAGS="-D warnings" cargo doc -q --no-deps -p iris -p vm -p iris-c

if [ "$quick" = 0 ]; then
  step "lit-test programs under --gc-stress, minor collections verified (--gc-verify)"
  cargo run -q -p lit-tests -- --no-build --iris target/debug/iris --iris-arg=--gc-stress \
    --iris-arg=--gc-verify lit-tests/tests/run
  step "lit-tests with the JIT compiling every function at its first call (--jit-threshold 0)"
  cargo run -q -p lit-tests -- --no-build --iris target/debug/iris --iris-arg=--jit-threshold=0
  step "lit-test programs with --jit-threshold 0 under --gc-stress and --gc-verify"
  cargo run -q -p lit-tests -- --no-build --iris target/debug/iris --iris-arg=--jit-threshold=0 \
    --iris-arg=--gc-stress --iris-arg=--gc-verify lit-tests/tests/run lit-tests/tests/jit
fi

if command -v node >/dev/null 2>&1; then
  step "lit-test expected output against node"
  cargo run -q -p lit-tests -- --node
else
  step "node not installed: skipping the node check of the lit-test programs"
fi

if [ "$quick" = 0 ]; then
  # The release builds of the steps below, built once: on Linux statically linked, as
  # ./build-static.sh builds the iris a release ships (one build instead of two), elsewhere
  # the default release build. $rel is their directory.
  rel_bins=(-p test262-runner --bin test262-runner -p iris-bench --bin iris-stress --bin iris-mutate)
  step "release build of iris, test262-runner, iris-stress and iris-mutate"
  if [ "$(uname -s)" = Linux ]; then
    rel="$(dirname "$(./build-static.sh "${rel_bins[@]}")")"
  else
    cargo build -q --release -p compiler --bin iris "${rel_bins[@]}"
    rel=target/release
  fi

  t262="${TEST262_DIR:-../shared/test262}"
  if [ -d "$t262/test" ]; then
    # A release build: the JIT compiles every function of every test, which the debug
    # build's MIR and Cranelift verifiers make twice as slow (they run in the lit-tests),
    # and the interpreter's run takes half the time of a debug build's (with the HIR
    # verifier after every pass, as a debug build runs it).
    step "test262 gate ($t262), release build, HIR verified after every pass"
    "$rel/test262-runner" --test262-dir "$t262" --check --verify
    # The JIT gates run each test in one mode (non-strict where it allows both): strict code
    # differs little in compiled code, and the interpreter's gate runs both modes. They split
    # the suite (every other test each), which keeps CI within its time: each test runs
    # compiled once.
    step "test262 gate with --jit-threshold 0 ($t262), release build, one mode per test, even tests"
    "$rel/test262-runner" --test262-dir "$t262" --check --jit-threshold 0 --one-mode \
      --shard 0/2 --json target/test262-results-jit.json
    # Compiled at their first call, functions have no call feedback and inline nothing: a
    # threshold of 2 compiles callers that have some (and inlines their callees).
    step "test262 gate with --jit-threshold 2 ($t262), release build, one mode per test, odd tests"
    "$rel/test262-runner" --test262-dir "$t262" --check --jit-threshold 2 --one-mode \
      --shard 1/2 --json target/test262-results-jit2.json
    # A collection at every safepoint makes a missing GC root a use of a freed cell, which
    # the heap reports: every 50th test, in the interpreter (about 1,000 runs, 3 minutes).
    step "test262 gate under --gc-stress ($t262), release build, one mode per test, every 50th test"
    "$rel/test262-runner" --test262-dir "$t262" --check --gc-stress --one-mode \
      --shard 0/50 --json target/test262-results-gc-stress.json
  else
    step "no test262 at $t262: skipping the conformance gate (set TEST262_DIR to run it)"
  fi
fi

if [ "$quick" = 0 ]; then
  # Release builds: the limits are about what users run.
  step "large and hostile programs (iris-stress: each within its time and memory limits), release build"
  "$rel/iris-stress" --iris "$rel/iris"
  # Bundles with a few bytes changed and the checksum recomputed: each must be rejected by
  # the verifier or run safely within its limits (the full campaign is 100,000 of them).
  step "mutated bundles (iris-mutate: 5,000 of the lit-test programs' bundles, rejected or run safely), release build"
  "$rel/iris-mutate" --iris "$rel/iris" -n 5000 --seed 1 --dir target/iris-mutate lit-tests/tests/run
  if [ "$(uname -s)" = Linux ]; then
    step "the statically linked iris (./build-static.sh): lit-test programs, release build"
    cargo run -q -p lit-tests -- --no-build --iris "$rel/iris" lit-tests/tests/run
  fi
fi

if [ "$quick" = 0 ]; then
  a64_tools=1
  for tool in qemu-aarch64 aarch64-linux-gnu-gcc; do
    command -v "$tool" >/dev/null 2>&1 || a64_tools=0
  done
  rustup target list --installed 2>/dev/null | grep -qx aarch64-unknown-linux-gnu || a64_tools=0
  if [ "$a64_tools" = 1 ]; then
    step "native tier on AArch64: iris cross-built, MIR programs and lit-test programs with --jit-threshold 0 under qemu-aarch64"
    CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc \
      cargo build -q --target aarch64-unknown-linux-gnu -p compiler --bin iris -p host --bin iris-run
    # A debug build (its MIR and Cranelift verifiers check the AArch64 code too) emulated:
    # the programs that collect at every safepoint (--gc-stress) take minutes.
    IRIS_AARCH64="$PWD/target/aarch64-unknown-linux-gnu/debug/iris" \
      cargo run -q -p lit-tests -- --no-build --timeout 300 --iris "$PWD/lit-tests/qemu-aarch64-iris" lit-tests/tests/mir/run
    IRIS_AARCH64="$PWD/target/aarch64-unknown-linux-gnu/debug/iris" \
      cargo run -q -p lit-tests -- --no-build --timeout 300 --iris "$PWD/lit-tests/qemu-aarch64-iris" \
      --iris-arg=--jit-threshold=0 lit-tests/tests/run lit-tests/tests/jit
    # iris-run (no compiler) cross-built: a bundle compiled here runs there, compiled code too.
    target/debug/iris compile examples/hello.js -o target/hello.irb
    a64_out="$(qemu-aarch64 -L /usr/aarch64-linux-gnu target/aarch64-unknown-linux-gnu/debug/iris-run \
      --jit-threshold=0 target/hello.irb)"
    if [ "$a64_out" != "$(printf 'Hello, Iris!\n1 4 9')" ]; then
      echo "test.sh: iris-run on AArch64 printed: $a64_out" >&2
      exit 1
    fi
  elif [ "${IRIS_REQUIRE_AARCH64:-0}" = 1 ]; then
    echo "test.sh: the AArch64 tests need qemu-aarch64, aarch64-linux-gnu-gcc and the rust target aarch64-unknown-linux-gnu" >&2
    exit 1
  else
    step "no AArch64 cross toolchain or qemu: skipping the native tier's AArch64 run (CI requires it)"
  fi
fi
