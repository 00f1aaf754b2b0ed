#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build script: honours $CXX, $CXXFLAGS,
# $LIB_FUZZING_ENGINE and $OUT. The project's Dockerfile installs
# libtorch-dev (Debian) and copies this repository to $SRC/stridecheck.
#
# Each target's options file sits beside it in $OUT.
src="${SRC:-$(cd "$(dirname "$0")/.." && pwd)}"
src="${src%/}"
[ -d "$src/stridecheck" ] && src="$src/stridecheck"
build="${WORK:-/tmp}/stridecheck-build"

cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER="${CC:-clang}" -DCMAKE_CXX_COMPILER="${CXX:-clang++}" \
  -DCMAKE_CXX_FLAGS="${CXXFLAGS:-}" \
  -DSTRIDECHECK_FUZZ=ON -DSTRIDECHECK_FUZZING_ENGINE="${LIB_FUZZING_ENGINE:--fsanitize=fuzzer}" \
  -DSTRIDECHECK_WITH_TESTS=OFF -DSTRIDECHECK_WITH_BENCH=OFF
cmake --build "$build" --target view_chain_fuzzer parser_fuzzer overlap_fuzzer --parallel "$(nproc)"

out="${OUT:-$build/out}"
mkdir -p "$out"
for t in view_chain_fuzzer parser_fuzzer overlap_fuzzer; do
  cp "$build/bin/$t" "$src/fuzz/$t.options" "$out/"
done
cp "$src/fuzz/parser_fuzzer.dict" "$out/"
# The parser's seed corpus: every program of the regression corpus.
(cd "$src/corpus" && find . -name '*.prog' -print | zip -q -j "$out/parser_fuzzer_seed_corpus.zip" -@)
