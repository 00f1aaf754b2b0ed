#!/usr/bin/env bash
# Installs what is missing (scripts/setup.sh), configures and builds into ./build
# (or $BUILD_DIR). Extra arguments go to cmake's configure step, e.g.
#   -DSTRIDECHECK_ORACLE=find                 Debian's LibTorch 1.13 (use BUILD_DIR=build-1.13)
#   -DCMAKE_PREFIX_PATH=/path/to/libtorch     any other LibTorch (implies STRIDECHECK_ORACLE=find)
# The default oracle is LibTorch 2.15.0 from the PyPI wheel that setup.sh unpacks.
# BUILD_TARGETS="a b" builds only those targets. When ccache is installed it is
# the compiler launcher (CI's two builds share the engine's objects through it);
# STRIDECHECK_CCACHE=0 turns that off.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
"$root/scripts/setup.sh"
launcher=()
if [ "${STRIDECHECK_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null && [[ " $* " != *CMAKE_CXX_COMPILER_LAUNCHER* ]]; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S "$root" -B "$build" -G Ninja "${launcher[@]}" "$@" >/dev/null
targets=()
for t in ${BUILD_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$build" --parallel "$(nproc)" "${targets[@]}"
