#!/usr/bin/env bash
# Runs every test of Iris, in this order:
#   0. the tree is formatted (`cargo fmt --check`) and lint-free (`cargo clippy ... -D warnings`),
#   1. unit tests of every crate and the lit-tests (`cargo test --workspace`; the lit-tests build
#      the `iris` binary themselves),
#   2. the lit-test programs again under `--gc-stress` (same output with a collection at every
#      allocation),
#   3. when node is installed, the lit-test programs' expected output against node,
#   4. the test262 gate (`test262-runner --check` against test262-runner/expectations.txt) when
#      test262 is at $TEST262_DIR or ../shared/test262.
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

step() { printf '\n=== %s\n' "$*"; }

step "formatting (cargo fmt --check) and lints (cargo clippy -D warnings)"
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings

step "unit tests and lit-tests (cargo test --workspace)"
cargo test --workspace --no-fail-fast

if [ "$quick" = 0 ]; then
  step "lit-test programs under --gc-stress"
  cargo run -q -p lit-tests -- --no-build --iris target/debug/iris --iris-arg=--gc-stress lit-tests/tests/run
fi

if command -v node >/dev/null 2>&1; then
  step "lit-test expected output against node"
  cargo run -q -p lit-tests -- --node
else
  step "node not installed: skipping the node check of the lit-test programs"
fi

if [ "$quick" = 0 ]; then
  t262="${TEST262_DIR:-../shared/test262}"
  if [ -d "$t262/test" ]; then
    step "test262 gate ($t262)"
    cargo run -q -p test262-runner -- --test262-dir "$t262" --check
  else
    step "no test262 at $t262: skipping the conformance gate (set TEST262_DIR to run it)"
  fi
fi
