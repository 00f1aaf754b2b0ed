#!/usr/bin/env bash
# A differential fuzzing campaign: engine:cpu vs libtorch:cpu on generated
# view-chain programs, with libFuzzer in fork mode over a shared corpus
# directory, then a summary.
#
#   scripts/fuzz.sh [SECONDS] [JOBS]      (defaults: 300 s, all cores)
#
# Findings (inputs that make the backends diverge) land in out/fuzz/findings/
# and are turned into readable programs in out/fuzz/findings/*.prog.
# SANITIZE=ON builds with ASan+UBSan. FUZZ_TARGET=parser_fuzzer or
# overlap_fuzzer runs that target instead (corpus and findings in out/fuzz/<target>/).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-300}"
jobs="${2:-$(nproc)}"
build="${FUZZ_BUILD_DIR:-$root/build-fuzz}"
target="${FUZZ_TARGET:-view_chain_fuzzer}"
out="$root/out/fuzz${FUZZ_TARGET:+/$target}"
extra=()  # the parser's dictionary, and the regression corpus as read-only seeds
[ "$target" != parser_fuzzer ] || extra=(-dict="$root/fuzz/parser_fuzzer.dict" -max_len=4096)

"$root/scripts/setup.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DSTRIDECHECK_FUZZ=ON -DSTRIDECHECK_SANITIZE="${SANITIZE:-OFF}" -DSTRIDECHECK_WITH_TESTS=OFF >/dev/null
cmake --build "$build" --parallel "$(nproc)" --target "$target" stridecheck

mkdir -p "$out/corpus" "$out/findings"
log="$out/campaign-$(date +%Y%m%d-%H%M%S).log"
echo "campaign: ${seconds}s, ${jobs} jobs, corpus $out/corpus, log $log"
set +e
"$build/bin/$target" -fork="$jobs" -ignore_crashes=1 -max_total_time="$seconds" \
  -max_len=512 "${extra[@]}" -artifact_prefix="$out/findings/" "$out/corpus" \
  $([ "$target" != parser_fuzzer ] || echo "$root/corpus") >"$log" 2>&1
status=$?
set -e

# Turn each finding into a program file a person can read and replay.
for f in "$out/findings"/crash-*; do
  [ "$target" = view_chain_fuzzer ] || break
  [ -e "$f" ] || continue
  case "$f" in *.prog) continue ;; esac
  [ -e "$f.prog" ] || "$build/bin/stridecheck" decode "$f" >"$f.prog"
done

echo
echo "== campaign summary =="
"$build/bin/stridecheck" --version | sed 's/^/  /'
# Fork mode reports "#<total runs>: cov: ... exec/s <rate> ..." for all jobs together.
last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
runs=$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$last")
execs=$(sed -nE 's/.*exec\/s:? ([0-9]+).*/\1/p' <<<"$last")
echo "  wall time: ${seconds} s, jobs: ${jobs}"
echo "  programs executed: ${runs:-0} (each on engine:cpu and libtorch:cpu, diffed)"
echo "  executions/s (all jobs, libFuzzer's last report): ${execs:-0}"
echo "  corpus entries: $(find "$out/corpus" -type f | wc -l)"
findings=$(find "$out/findings" -name 'crash-*' ! -name '*.prog' | wc -l)
echo "  findings (divergences): $findings in $out/findings"
if [ "$findings" -gt 0 ] && [ "$target" = view_chain_fuzzer ]; then
  echo
  echo "== findings replayed (first difference of each) =="
  "$build/bin/stridecheck" replay --quiet "$out/findings" || true
fi
[ "$findings" -eq 0 ]
