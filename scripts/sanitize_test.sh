#!/usr/bin/env bash
# CI's sanitizer stage: the unit, property and corpus tests built with clang,
# AddressSanitizer and UBSan in their own build folder (build-asan/), run with
# ctest. Any ASan report or any UBSan report (-fno-sanitize-recover) fails
# the test that triggered it.
#
#   scripts/sanitize_test.sh [extra cmake configure arguments]
#
# Called by scripts/test.sh after the plain build's tests; ASAN_BUILD_DIR
# overrides the folder.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${ASAN_BUILD_DIR:-$root/build-asan}"
flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"

"$root/scripts/setup.sh"
# The oracle builds as C++17 under clang (CMakeLists.txt: LibTorch 1.13's headers).
# No benchmarks and no CUDA kernels here: they are not what this stage tests.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" -DCMAKE_SHARED_LINKER_FLAGS="$flags" \
  -DSTRIDECHECK_WITH_BENCH=OFF -DSTRIDECHECK_WITH_CUDA=OFF "$@" >/dev/null
cmake --build "$build" --parallel "$(nproc)"
elapsed() { echo "sanitize_test.sh: $1 done at ${SECONDS} s"; }  # where CI's 30 minutes go
elapsed "ASan+UBSan build"

# halt_on_error: the first report ends the process with a failing status.
# handle_segv=0: a segfault stays a SIGSEGV (tests of the crash isolation of
# replay/minimize plant one and expect the signal, not ASan's exit 1).
export ASAN_OPTIONS="${ASAN_OPTIONS:-halt_on_error=1:abort_on_error=0:detect_leaks=1:strict_string_checks=1:handle_segv=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
cd "$build"
# Unit and property tests; the corpus in one process below (one LibTorch
# start-up under ASan instead of one per file: 10 s instead of about 5 min here).
# mutation_smoke (label mutation) builds its own mutant engines: not this stage's subject.
ctest --output-on-failure --parallel "$(nproc)" --label-exclude 'corpus|mutation'
elapsed ctest
"$build/bin/stridecheck" replay --quiet "$root/corpus"
# Again with every engine loop split over 3 threads: the kernels' parallel
# paths under ASan/UBSan (the plain stage's ctest replay-engine-threads/corpus).
"$build/bin/stridecheck" replay --quiet --engine-threads 3 "$root/corpus"
elapsed "corpus replays"
# A fixed sample of generated programs under ASan/UBSan (the plain stage runs
# 100,000 from the same first seed: ctest generate-sample/seeds-20261201).
"$build/bin/stridecheck" generate --stats --engine-threads random --seed 20261201 --count 20000 >"$build/generate-sample.txt" ||
  { tail -n 60 "$build/generate-sample.txt"; exit 1; }
sed -n '1,4p' "$build/generate-sample.txt"
# Swarm programs (Note [Swarm programs], program/generator.h; the campaign's
# sweeper runs half of its programs so) reach states the sample above does
# not: a sanitized fuzz.sh campaign found a signed overflow in the engine's
# UNDEFINED-claim code on one (2026-12-01), which only --stats runs.
"$build/bin/stridecheck" generate --stats --engine-threads random --swarm 100 --seed 20261202 --count 10000 >"$build/generate-swarm-sample.txt" ||
  { tail -n 60 "$build/generate-swarm-sample.txt"; exit 1; }
sed -n '4p' "$build/generate-swarm-sample.txt"
elapsed "generated samples"
# Generation alone (the generator runs every step on the engine, not on
# LibTorch) is ten times cheaper: 200,000 more programs for undefined
# behaviour in the generator and the engine at rare draws (a scan like this
# found four signed overflows and a hang, 2026-12-01), half of them swarm
# programs (here 5,000 took 3.7 s of CPU by default and 5.9 s at --swarm 50).
"$build/bin/stridecheck" generate --engine-threads random --seed 1000001 --count 100000 >/dev/null
"$build/bin/stridecheck" generate --engine-threads random --swarm 50 --seed 2000001 --count 100000 >/dev/null
echo "generated 200000 programs (seeds 1000001.., and 2000001.. at --swarm 50) under ASan/UBSan: no report"
elapsed "generation scan"
