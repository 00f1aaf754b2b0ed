#!/usr/bin/env bash
# Builds stridecheck (scripts/build.sh) and replays the regression corpus:
# every corpus/**/*.prog on engine:cpu and libtorch:cpu, diffed step by step.
#
#   scripts/replay.sh [--oracle=2.15|1.13] [CMAKE ARGS...] [-- REPLAY ARGS...]
#
# --oracle=1.13 builds against Debian's libtorch-dev 1.13.1 in ./build-1.13
# (the default, 2.15, is the PyPI wheel's LibTorch in ./build), e.g.
#   scripts/replay.sh --oracle=1.13
#   scripts/replay.sh -DCMAKE_PREFIX_PATH=/path/to/libtorch -- --device meta
# Exit status: that of `stridecheck replay` (0 only when nothing failed).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
cmake_args=()
if [ "${1:-}" = "--oracle=1.13" ]; then
  build="${BUILD_DIR:-$root/build-1.13}"; cmake_args+=(-DSTRIDECHECK_ORACLE=find); shift
elif [ "${1:-}" = "--oracle=2.15" ]; then
  shift
fi
while (($#)); do
  if [ "$1" = "--" ]; then shift; break; fi
  cmake_args+=("$1"); shift
done
BUILD_DIR="$build" BUILD_TARGETS=stridecheck "$root/scripts/build.sh" "${cmake_args[@]}"
exec "$build/bin/stridecheck" replay "$@" "$root/corpus"
