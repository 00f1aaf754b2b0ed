#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build script: honours $CXX, $CXXFLAGS,
# $LIB_FUZZING_ENGINE, $OUT (and $SRC, $WORK). The project's Dockerfile copies
# this repository to $SRC/stridecheck and unpacks LibTorch 2.15 with
# scripts/setup.sh --libtorch-only. By hand, from the repository root:
#
#   SRC=$PWD CXX=clang++ CC=clang CXXFLAGS='-fsanitize=address,fuzzer-no-link' \
#     LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=/tmp/ossfuzz-out fuzz/build.sh
#
# Leaves in $OUT, for each target (view_chain_fuzzer, parser_fuzzer,
# overlap_fuzzer): the binary, <target>.options, <target>_seed_corpus.zip, and
# parser_fuzzer.dict. The view-chain fuzzer reads choice bytes, so its seeds
# are `stridecheck seeds --count 256` (generated full-length programs); the
# parser's are the regression corpus (corpus/**/*.prog); the overlap fuzzer's
# are the inputs a short deterministic run of it keeps (-seed=1 -runs=20000).
# The LibTorch libraries the view-chain fuzzer loads are copied into $OUT/lib
# (it finds them through an $ORIGIN/lib rpath), since the runner image has no
# LibTorch of its own.
src="${SRC:-$(cd "$(dirname "$0")/.." && pwd)}"
src="${src%/}"
[ -d "$src/stridecheck" ] && src="$src/stridecheck"
build="${WORK:-/tmp}/stridecheck-build"
out="${OUT:-$build/out}"
targets=(view_chain_fuzzer parser_fuzzer overlap_fuzzer)

cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER="${CXX:-clang++}" -DCMAKE_CXX_FLAGS="${CXXFLAGS:-}" \
  -DCMAKE_EXE_LINKER_FLAGS='-Wl,-rpath,\$ORIGIN/lib' \
  -DSTRIDECHECK_FUZZ=ON -DSTRIDECHECK_FUZZING_ENGINE="${LIB_FUZZING_ENGINE:--fsanitize=fuzzer}" \
  -DSTRIDECHECK_WITH_TESTS=OFF -DSTRIDECHECK_WITH_BENCH=OFF
cmake --build "$build" --target "${targets[@]}" stridecheck --parallel "$(nproc)"

mkdir -p "$out"
for t in "${targets[@]}"; do
  cp "$build/bin/$t" "$src/fuzz/$t.options" "$out/"
done
cp "$src/fuzz/parser_fuzzer.dict" "$out/"

# The shared libraries of the LibTorch the view-chain fuzzer was linked with
# (libtorch_cpu, libc10, libgomp, the CUDA runtime it names), found by ldd.
mkdir -p "$out/lib"
ldd "$build/bin/view_chain_fuzzer" |
  awk '$3 ~ /\/(libtorch[^/]*|libc10[^/]*|libgomp[^/]*|libcudart[^/]*|libcupti[^/]*)$/ {print $3}' |
  while read -r lib; do cp -L "$lib" "$out/lib/"; done

seeds="$(mktemp -d)"
trap 'rm -rf "$seeds"' EXIT
# view_chain_fuzzer: 256 generated programs as choice bytes.
ASAN_OPTIONS=detect_leaks=0 "$build/bin/stridecheck" seeds --count 256 --out "$seeds/view_chain"
rm -f "$out"/*_seed_corpus.zip
(cd "$seeds/view_chain" && zip -q "$out/view_chain_fuzzer_seed_corpus.zip" seed-*)
# parser_fuzzer: every program of the regression corpus (flat: views/x.prog -> views__x.prog,
# since names repeat across folders).
mkdir -p "$seeds/parser"
(cd "$src/corpus" && find . -name '*.prog' -printf '%P\n') | while read -r p; do
  cp "$src/corpus/$p" "$seeds/parser/${p//\//__}"
done
(cd "$seeds/parser" && zip -q "$out/parser_fuzzer_seed_corpus.zip" ./*.prog)
# overlap_fuzzer: what a short deterministic run keeps (its coverage's inputs).
mkdir -p "$seeds/overlap"
ASAN_OPTIONS=detect_leaks=0 "$out/overlap_fuzzer" -seed=1 -runs=20000 -max_len=256 "$seeds/overlap" >"$seeds/overlap.log" 2>&1 ||
  { tail -20 "$seeds/overlap.log"; exit 1; }
(cd "$seeds/overlap" && zip -q "$out/overlap_fuzzer_seed_corpus.zip" ./*)

for t in "${targets[@]}"; do
  printf '%-20s %s  seeds: %s inputs\n' "$t" "$(du -h "$out/$t" | cut -f1)" \
    "$(unzip -l "$out/${t}_seed_corpus.zip" | tail -1 | awk '{print $2}')"
done
