#!/usr/bin/env bash
# The device check, for a machine with an NVIDIA GPU and a CUDA-enabled torch
# wheel (no GoogleTest needed): builds stridecheck against that LibTorch and
# replays the corpus and generated programs across backends:
#   engine:cpu     vs libtorch:cpu   (this LibTorch version against the engine)
#   libtorch:cpu   vs libtorch:cuda  (LibTorch against itself)
#   engine:cpu     vs libtorch:cuda
# Reports go to $OUT (default ./out/gpu): summary.txt and one file per replay.
# The five replays run at once, each under its own time limit.
#
#   scripts/gpu_check.sh [GENERATED_PROGRAMS]     (default 300; REPLAY_LIMIT=seconds, default 150)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-$root/out/gpu}"
count="${1:-300}"
build="$root/build-gpu"
mkdir -p "$out"

main() {

echo "== machine"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
prefix="${TORCH_PREFIX:-$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')}"
python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "available", torch.cuda.is_available())' || true

echo "== build against $prefix"
gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
mkdir -p "$build"
timeout 300 cmake -S "$root" -B "$build" "${gen[@]}" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
  -DSTRIDECHECK_WITH_TESTS=OFF >"$build/configure.log" 2>&1 || { echo "configure failed"; tail -30 "$build/configure.log"; return 1; }
timeout 400 cmake --build "$build" --parallel "$(nproc)" --target stridecheck >"$build/build.log" 2>&1 \
  || { echo "build failed"; grep -m20 -E "error|Error" "$build/build.log"; return 1; }
sc="$build/bin/stridecheck"
"$sc" --version

generated="$build/generated"   # outside $OUT: only the reports come back
rm -rf "$generated" && mkdir -p "$generated"
"$sc" generate --seed 1 --count "$count" --out "$generated" || true

replay() {  # name, time limit, args...: runs in the background, all five at once
  local name=$1 limit=$2; shift 2
  timeout "$limit" "$sc" replay --quiet --timeout 30 "$@" >"$out/$name.txt" 2>&1
  echo "exit $?" >>"$out/$name.txt"
}
limit="${REPLAY_LIMIT:-150}"
replay corpus-engine-vs-libtorch-cpu "$limit" "$root/corpus" &
replay corpus-libtorch-cpu-vs-cuda "$limit" --backends libtorch:cpu,libtorch:cuda "$root/corpus" &
replay corpus-engine-vs-libtorch-cuda "$limit" --backends engine:cpu,libtorch:cuda "$root/corpus" &
replay generated-engine-vs-libtorch-cpu "$limit" "$generated" &
replay generated-libtorch-cpu-vs-cuda "$limit" --backends libtorch:cpu,libtorch:cuda "$generated" &
wait
for f in corpus-engine-vs-libtorch-cpu corpus-libtorch-cpu-vs-cuda corpus-engine-vs-libtorch-cuda \
         generated-engine-vs-libtorch-cpu generated-libtorch-cpu-vs-cuda; do
  echo "== $f"; tail -3 "$out/$f.txt" | sed 's/^/   /'
done
}

main 2>&1 | tee "$out/summary.txt"
exit 0
