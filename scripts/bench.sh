#!/usr/bin/env bash
# Side-by-side benchmarks, engine vs LibTorch (bench/): sets up, builds
# stridecheck_bench into ./build (or $BUILD_DIR), runs every suite in one run
# and prints the engine/LibTorch ratio of each pair (bench/ratio_table.py).
#
#   scripts/bench.sh [BENCHMARK ARGS...]     e.g. --benchmark_filter=Copy
#
# Environment:
#   BUILD_DIR   build directory (default ./build)
#   BUILD_TYPE  CMAKE_BUILD_TYPE (default Release: it reconfigures BUILD_DIR)
#   MIN_TIME    --benchmark_min_time in seconds (default 0.2; the 4096x4096
#               copies and the channels_last conversion set 0.3 themselves)
#   RATIO_TIME  cpu_time (default) or real_time for the ratio table
#   BENCH_OUT   where the JSON goes (default ./out/bench)
# Both sides run on one thread (at::set_num_threads(1); the engine's kernels
# are single-threaded); the run's context says so.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
out="${BENCH_OUT:-$root/out/bench}"

"$root/scripts/setup.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" \
  -DSTRIDECHECK_WITH_BENCH=ON >/dev/null
cmake --build "$build" --parallel "$(nproc)" --target stridecheck_bench

mkdir -p "$out"
json="$out/bench-$(date +%Y%m%d-%H%M%S).json"
"$build/bin/stridecheck_bench" --benchmark_counters_tabular=true \
  --benchmark_min_time="${MIN_TIME:-0.2}" \
  --benchmark_out="$json" --benchmark_out_format=json "$@"
python3 "$root/bench/ratio_table.py" --time "${RATIO_TIME:-cpu_time}" "$json"
echo "   JSON: $json"
