#!/usr/bin/env bash
# The test command: set up, build, and run the tests with ctest.
#
#   scripts/test.sh [--oracle=2.15|1.13|2.0|2.5|2.6|2.7|2.8|2.9|2.10|2.11|2.12|2.13|2.14] [CMAKE ARGS...]
#
#   --oracle=2.15 (default)  LibTorch 2.15.0 from the PyPI wheel (scripts/setup.sh
#                            installs it), in ./build: every test (unit, property,
#                            oracle, corpus replay, linkage).
#   --oracle=1.13            Debian's libtorch-dev 1.13.1, in ./build-1.13: the tests
#                            that involve LibTorch (oracle unit tests, the property
#                            sample, corpus replay, linkage); the engine's own unit
#                            tests do not depend on LibTorch and run in ./build.
#   --oracle=2.0 ... 2.14    the PyPI wheel 2.0.1, 2.5.1, 2.6.0, 2.7.1, 2.8.0, 2.9.1, 2.10.0,
#                            2.11.0, 2.12.1, 2.13.0 or 2.14.1 (setup.sh --torch; those
#                            before 2.11 bring the CUDA 12/11 runtime their libtorch_cpu.so
#                            needs), in ./build-2.X: the same tests as 1.13 (2.0, 2.5 and
#                            2.6, pre-C++11-ABI builds: corpus replay and linkage
#                            only). The engine has a measured profile for each; CI
#                            runs 2.15 and 1.13 only, and downloads none of these
#                            (docs/versions.md, "Measured LibTorch versions").
# $BUILD_DIR overrides the build folder. Other CMAKE ARGS (e.g. -DCMAKE_PREFIX_PATH=...)
# go to the configure step.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
oracle=2.15
if [[ "${1:-}" == --oracle=* ]]; then oracle="${1#--oracle=}"; shift; fi
case "$oracle" in
  2.15)
    build="${BUILD_DIR:-$root/build}"
    BUILD_DIR="$build" "$root/scripts/build.sh" "$@"
    echo "test.sh: set-up and build done at ${SECONDS} s"
    cd "$build"
    ctest --output-on-failure --parallel "$(nproc)"
    echo "test.sh: ctest done at ${SECONDS} s"
    [ "${STRIDECHECK_SANITIZE_STAGE:-1}" = 0 ] || "$root/scripts/sanitize_test.sh" "$@"  # ASan+UBSan build of the same tests
    ;;
  1.13)
    build="${BUILD_DIR:-$root/build-1.13}"
    BUILD_DIR="$build" BUILD_TARGETS="stridecheck oracle_tests property_tests" \
      "$root/scripts/build.sh" -DSTRIDECHECK_ORACLE=find "$@"
    cd "$build"
    echo "test.sh: set-up and build (1.13) done at ${SECONDS} s"
    ctest --output-on-failure --parallel "$(nproc)" -L 'oracle|property|corpus|linkage'
    echo "test.sh: ctest (1.13) done at ${SECONDS} s"
    ;;
  2.0|2.5|2.6|2.7|2.8|2.9|2.10|2.11|2.12|2.13|2.14)
    declare -A wheels=([2.0]=2.0.1 [2.5]=2.5.1 [2.6]=2.6.0 [2.7]=2.7.1 [2.8]=2.8.0 [2.9]=2.9.1 [2.10]=2.10.0 [2.11]=2.11.0 [2.12]=2.12.1
                       [2.13]=2.13.0 [2.14]=2.14.1)
    export STRIDECHECK_TORCH_VERSION="${wheels[$oracle]}"
    build="${BUILD_DIR:-$root/build-$oracle}"
    targets="stridecheck oracle_tests property_tests" labels='oracle|property|corpus|linkage'
    case "$oracle" in
      # pre-C++11-ABI wheels: no GoogleTest/RapidCheck binaries (cmake/torch.cmake)
      2.0|2.5|2.6) targets="stridecheck" labels='corpus|linkage' ;;
    esac
    BUILD_DIR="$build" BUILD_TARGETS="$targets" \
      "$root/scripts/build.sh" -DSTRIDECHECK_LIBTORCH_WHEEL="$("$root/scripts/setup.sh" --print-prefix)/torch" "$@"
    cd "$build"
    ctest --output-on-failure --parallel "$(nproc)" -L "$labels"
    ;;
  *)
    echo "test.sh: --oracle takes 2.15, 1.13, 2.0, 2.5, 2.6, 2.7, 2.8, 2.9, 2.10, 2.11, 2.12, 2.13 or 2.14, not '$oracle'" >&2
    exit 2
    ;;
esac
