#!/usr/bin/env bash
# Installs what is missing, configures and builds into ./build (or $BUILD_DIR).
# Extra arguments go to cmake's configure step (e.g. -DCMAKE_PREFIX_PATH=...).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
"$root/scripts/setup.sh"
cmake -S "$root" -B "$build" -G Ninja "$@" >/dev/null
cmake --build "$build" --parallel "$(nproc)"
