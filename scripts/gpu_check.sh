#!/usr/bin/env bash
# The device check, in one call, for a machine with an NVIDIA GPU and a
# CUDA-enabled torch wheel (GoogleTest not needed). Under 8 minutes on
# 16 cores and one H200 with the defaults:
#   1. builds stridecheck, the GPU unit tests and the CUDA benchmarks against
#      that LibTorch (Release, sm_90 + PTX);
#   2. runs the GPU unit tests (tests/**/*_device_test.cpp);
#   3. replays the corpus and GENERATED generated programs, all at once, on
#        engine:cuda   vs libtorch:cuda   (the engine's CUDA half against the oracle)
#        engine:cuda   vs engine:cpu      (the engine against itself)
#        libtorch:cuda vs libtorch:cpu    (LibTorch against itself)
#        engine:cpu    vs libtorch:cpu    (this LibTorch version against the engine)
#      generated programs in SHARDS shards per pair, each replay under REPLAY_LIMIT s;
#   4. runs INPROCESS (default 20,000) generated programs per pair in one
#      process each (stridecheck generate --stats) on engine:cuda vs
#      libtorch:cuda and engine:cuda vs engine:cpu (INPROCESS_LIMIT s, 180);
#   5. runs the CUDA benchmarks alone on the GPU and prints the table
#      (engine, LibTorch, memcpy; ratios).
# Reports go to $OUT (default ./out/gpu): summary.txt, one file per replay,
# <name>_device_test.txt, program_tests_cuda.txt, bench.json and bench.txt.
#
#   scripts/gpu_check.sh [GENERATED]          (default 200: each replayed program forks a
#   child that initialises CUDA, ~0.3-0.5 s (not yet measured); the 20,000
#   generated programs per pair run in process, step 4)
# Environment: REPLAY_LIMIT (default 150 s), SHARDS (default 4), TORCH_PREFIX
# (default: the installed torch's cmake prefix), BUILD_DIR (default
# ./build-gpu), SKIP_BUILD=1 (use BUILD_DIR as it is), BENCH_MIN_TIME (0.1 s),
# SEED (the generator seed, default 1), INPROCESS (20000; 0 skips step 4),
# INPROCESS_LIMIT (180 s).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-$root/out/gpu}"
count="${1:-200}"
build="${BUILD_DIR:-$root/build-gpu}"
shards="${SHARDS:-4}"
limit="${REPLAY_LIMIT:-150}"
mkdir -p "$out"
start=$(date +%s)
elapsed() { echo "$(( $(date +%s) - start )) s"; }

build_all() {
  local prefix="${TORCH_PREFIX:-$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)' 2>/dev/null)}"
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "available", torch.cuda.is_available())' || true
  echo "== build against ${prefix:-<no torch found>} ($(elapsed))"
  local gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
  mkdir -p "$build"
  # TORCH_CUDA_ARCH_LIST: the wheel's TorchConfig probes the GPUs without it.
  TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST:-9.0}" timeout 200 cmake -S "$root" -B "$build" "${gen[@]}" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release -DSTRIDECHECK_WITH_TESTS=ON \
    >"$build/configure.log" 2>&1 || { echo "configure failed"; tail -30 "$build/configure.log"; return 1; }
  grep -E "stridecheck: (CUDA|LibTorch)" "$build/configure.log"
  local targets=(stridecheck)
  ninja -C "$build" -t targets all 2>/dev/null | grep -q "^kernels_device_test:" && targets+=(kernels_device_test)
  ninja -C "$build" -t targets all 2>/dev/null | grep -q "^stridecheck_cuda_bench:" && targets+=(stridecheck_cuda_bench)
  ninja -C "$build" -t targets all 2>/dev/null | grep -q "^program_tests:" && targets+=(program_tests)
  timeout 300 cmake --build "$build" --parallel "$(nproc)" --target "${targets[@]}" >"$build/build.log" 2>&1 \
    || { echo "build failed"; grep -m20 -E "error|Error" "$build/build.log"; return 1; }
  echo "built: ${targets[*]} ($(elapsed))"
}

device_tests() {
  echo "== GPU unit tests ($(elapsed))"
  local t rc
  for t in "$build"/bin/*_device_test; do
    [ -x "$t" ] || continue
    timeout 180 "$t" >"$out/$(basename "$t").txt" 2>&1
    rc=$?
    echo "   $(basename "$t"): exit $rc$( [ $rc = 77 ] && echo ' (skipped)') ($(tail -1 "$out/$(basename "$t").txt"))"
  done
  if [ -x "$build/bin/program_tests" ]; then
    timeout 120 "$build/bin/program_tests" --gtest_filter='EngineCudaBackend*' >"$out/program_tests_cuda.txt" 2>&1
    rc=$?
    echo "   program_tests EngineCudaBackend*: exit $rc ($(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out/program_tests_cuda.txt" | head -3 | tr '\n' ' '))"
  fi
}

replays() {
  local sc="$build/bin/stridecheck"
  local generated="$build/generated"   # outside $OUT: only the reports come back
  rm -rf "$generated" && mkdir -p "$generated"
  "$sc" generate --seed "${SEED:-1}" --count "$count" --out "$generated" >/dev/null || true
  # Shards: the generated files split round-robin into $shards folders.
  local i=0 f
  for f in "$generated"/*.prog; do
    mkdir -p "$generated/shard$((i % shards))"; mv "$f" "$generated/shard$((i % shards))/"; i=$((i + 1))
  done
  echo "== replays: corpus ($(find "$root/corpus" -name '*.prog' | wc -l) programs) and $i generated, $shards shards ($(elapsed))"
  report_line() {  # label, file: the summary lines, or what stopped the replay
    local counts; counts="$(grep -E '^[0-9]+ passed' "$2" | tail -1)"
    if [ -n "$counts" ]; then echo "   $1: $counts | $(grep -E '^undefined' "$2" | tail -1) | $(tail -1 "$2")"
    else echo "   $1: $(tail -1 "$2"): $(grep -v '^exit' "$2" | grep -v '^(see' | tail -1)"; fi
  }
  replay() {  # name, args...: one replay in the background, under $limit
    local name=$1; shift
    timeout "$limit" "$sc" replay --quiet --timeout 30 "$@" >"$out/$name.txt" 2>&1
    echo "exit $?" >>"$out/$name.txt"
  }
  local pairs=("engine:cuda,libtorch:cuda" "engine:cuda,engine:cpu" "libtorch:cuda,libtorch:cpu" "engine:cpu,libtorch:cpu")
  local p tag s known
  for p in "${pairs[@]}"; do
    tag="${p//:/-}"; tag="${tag//,/-vs-}"
    # engine:cuda vs engine:cpu: the engine's own device rules are listed (corpus/known_device_differences.txt).
    known=(); [ "$p" = "engine:cuda,engine:cpu" ] && known=(--known "$root/corpus/known_device_differences.txt")
    replay "corpus-$tag" --backends "$p" "${known[@]}" "$root/corpus" &
    for s in $(seq 0 $((shards - 1))); do
      [ -d "$generated/shard$s" ] && replay "generated-$tag-shard$s" --backends "$p" "$generated/shard$s" &
    done
  done
  wait
  for p in "${pairs[@]}"; do
    tag="${p//:/-}"; tag="${tag//,/-vs-}"
    echo "== $p"
    report_line "corpus" "$out/corpus-$tag.txt"
    for s in $(seq 0 $((shards - 1))); do
      [ -f "$out/generated-$tag-shard$s.txt" ] && report_line "generated shard $s" "$out/generated-$tag-shard$s.txt"
    done
  done
  echo "   (failures: grep -l '^FAIL' $out/*.txt; each FAIL line names the program and the first difference)"
}

# The issue's 20,000 generated programs per pair, in one process per pair
# (generate --stats: no fork per program, so no CUDA initialisation per
# program; a crash ends that pair's run, and its output says where it stopped).
inprocess() {
  local sc="$build/bin/stridecheck" n="${INPROCESS:-20000}" p tag
  [ "$n" -gt 0 ] || return 0
  echo "== in-process: $n generated programs per pair, seeds ${SEED:-1}.. ($(elapsed))"
  for p in "engine:cuda,libtorch:cuda" "engine:cuda,engine:cpu"; do
    tag="${p//:/-}"; tag="${tag//,/-vs-}"
    ( timeout "${INPROCESS_LIMIT:-180}" "$sc" generate --stats --seed "${SEED:-1}" --count "$n" --backends "$p" \
        >"$out/inprocess-$tag.txt" 2>&1; echo "exit $?" >>"$out/inprocess-$tag.txt" ) &
  done
  wait
  for p in "engine:cuda,libtorch:cuda" "engine:cuda,engine:cpu"; do
    tag="${p//:/-}"; tag="${tag//,/-vs-}"
    echo "   $p: $(grep -m1 '^programs:' "$out/inprocess-$tag.txt" || echo 'no summary') | $(tail -1 "$out/inprocess-$tag.txt")"
    sed -n '/^failing programs/,$p' "$out/inprocess-$tag.txt" | head -12 | sed 's/^/     /'
  done
}

bench() {
  local b="$build/bin/stridecheck_cuda_bench"
  [ -x "$b" ] || { echo "== CUDA benchmarks: not built (no Google Benchmark or no LibTorch)"; return 0; }
  echo "== CUDA benchmarks ($(elapsed))"
  timeout 150 "$b" --benchmark_min_time="${BENCH_MIN_TIME:-0.1}" --benchmark_counters_tabular=true \
    --benchmark_out="$out/bench.json" --benchmark_out_format=json >"$out/bench.txt" 2>&1
  echo "   exit $?"
  if [ -s "$out/bench.json" ]; then python3 "$root/bench/cuda/cuda_table.py" "$out/bench.json"; else tail -5 "$out/bench.txt"; fi
}

main() {
  echo "== machine"; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
  if [ "${SKIP_BUILD:-0}" != 1 ]; then build_all || return 1; fi
  "$build/bin/stridecheck" --version
  device_tests
  replays
  inprocess
  bench
  echo "== done ($(elapsed))"
}

main 2>&1 | tee "$out/summary.txt"
exit 0
