#!/usr/bin/env bash
# The test command: set up, build, and run the tests with ctest.
#
#   scripts/test.sh [--oracle=2.15|1.13] [CMAKE ARGS...]
#
#   --oracle=2.15 (default)  LibTorch 2.15.0 from the PyPI wheel (scripts/setup.sh
#                            installs it), in ./build: every test (unit, property,
#                            oracle, corpus replay, linkage).
#   --oracle=1.13            Debian's libtorch-dev 1.13.1, in ./build-1.13: the tests
#                            that involve LibTorch (oracle unit tests, the property
#                            sample, corpus replay, linkage); the engine's own unit
#                            tests do not depend on LibTorch and run in ./build.
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
    cd "$build"
    ctest --output-on-failure --parallel "$(nproc)"
    [ "${STRIDECHECK_SANITIZE_STAGE:-1}" = 0 ] || "$root/scripts/sanitize_test.sh" "$@"  # ASan+UBSan build of the same tests
    ;;
  1.13)
    build="${BUILD_DIR:-$root/build-1.13}"
    BUILD_DIR="$build" BUILD_TARGETS="stridecheck oracle_tests property_tests" \
      "$root/scripts/build.sh" -DSTRIDECHECK_ORACLE=find "$@"
    cd "$build"
    ctest --output-on-failure --parallel "$(nproc)" -L 'oracle|property|corpus|linkage'
    ;;
  *)
    echo "test.sh: --oracle takes 2.15 or 1.13, not '$oracle'" >&2
    exit 2
    ;;
esac
