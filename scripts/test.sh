#!/usr/bin/env bash
# The test command: set up, build, and run every test (unit, property, corpus replay) with ctest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
"$root/scripts/build.sh" "$@"
cd "$build"
ctest --output-on-failure --parallel "$(nproc)"
[ "${STRIDECHECK_SANITIZE_STAGE:-1}" = 0 ] || "$root/scripts/sanitize_test.sh" "$@"  # ASan+UBSan build of the same tests
