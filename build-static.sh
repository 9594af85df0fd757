#!/usr/bin/env bash
# Builds the `iris` command-line binary linked statically (glibc and libgcc inside it, no
# dynamic loader at start-up), as a Linux release ships it; Hermes's published CLI is linked
# the same way. A hello-world bundle starts in 1.5 ms instead of 2.0 (`perf stat -r 300`):
# the loader's mapping, symbol binding and libgcc's and glibc's start-up for three shared
# libraries was a quarter of its start-up.
#
# Cargo cannot build this in the workspace's default build: `crt-static` applied to every
# crate fails for the proc-macro crates, which are shared libraries. With an explicit
# `--target`, the flags (appended to .cargo/config.toml's) apply to the target's crates only.
# `relocation-model=static` makes it a static executable at fixed addresses (as the default
# build is position-dependent: see compiler/build.rs), not a static PIE that relocates itself.
#
# Usage: ./build-static.sh [TRIPLE] [CARGO BUILD ARGUMENTS...]   (TRIPLE defaults to the host's;
# *-linux-gnu targets only; for a cross target, set the linker as test.sh does for AArch64).
# Further arguments name more binaries to build the same way in the same build, as test.sh
# builds its release test runners (e.g. `-p test262-runner --bin test262-runner`).
# Writes target/TRIPLE/release/iris (and those) and prints the path of iris.
set -euo pipefail
cd "$(dirname "$0")"

triple="$(rustc -vV | sed -n 's/^host: //p')"
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
  triple="$1"
  shift
fi
case "$triple" in
  *-linux-gnu) ;;
  *) echo "build-static.sh: a static build is for *-linux-gnu targets, not $triple" >&2; exit 2 ;;
esac
cargo build -q --release --target "$triple" -p compiler --bin iris "$@" \
  --config 'build.rustflags = ["-C", "target-feature=+crt-static", "-C", "relocation-model=static"]'
echo "target/$triple/release/iris"
