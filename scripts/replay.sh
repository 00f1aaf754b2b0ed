#!/usr/bin/env bash
# Builds stridecheck (scripts/build.sh) and replays the regression corpus:
# every corpus/**/*.prog on engine:cpu and libtorch:cpu, diffed step by step.
#
#   scripts/replay.sh [CMAKE ARGS...] [-- REPLAY ARGS...]
#
# e.g. scripts/replay.sh -DCMAKE_PREFIX_PATH=/path/to/libtorch -- --device meta
# Exit status: that of `stridecheck replay` (0 only when nothing failed).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
cmake_args=()
while (($#)); do
  if [ "$1" = "--" ]; then shift; break; fi
  cmake_args+=("$1"); shift
done
"$root/scripts/build.sh" "${cmake_args[@]}"
exec "$build/bin/stridecheck" replay "$@" "$root/corpus"
