#!/usr/bin/env bash
# The mutator comparison: the view-chain fuzzer with libFuzzer's own mutations
# only (STRIDECHECK_MUTATOR=bytes) against the default mix of libFuzzer's and
# the structure-aware ones (program/choice_mutator.h; `mixed`), or the
# structure-aware ones only (`units`), over equal time, each from a copy of the
# same generated seeds, side by side (one fork-mode job each, so run it on an
# otherwise idle machine or read the figures as relative). Prints, per mode,
# what libFuzzer reported last (programs, execs/s, coverage, features, corpus)
# and the findings (inputs saved, seconds to the first one).
#
#   scripts/fuzz_mutators.sh [SECONDS] [MODES...]   (default: 120 bytes mixed)
#
# Uses $FUZZ_BUILD_DIR (default build-fuzz/, as scripts/fuzz.sh builds it);
# work folders in out/fuzz-mutators/<mode>/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-120}"
shift || true
modes=("$@")
[ "${#modes[@]}" -gt 0 ] || modes=(bytes mixed)
build="${FUZZ_BUILD_DIR:-$root/build-fuzz}"
fuzzer="$build/bin/view_chain_fuzzer"
tool="$build/bin/stridecheck"
[ -x "$fuzzer" ] && [ -x "$tool" ] || { echo "no $fuzzer: run scripts/fuzz.sh once (it builds it)" >&2; exit 2; }
out="$root/out/fuzz-mutators"
rm -rf "$out"
mkdir -p "$out/seeds"
"$tool" seeds --count 64 --out "$out/seeds"

pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done' INT TERM EXIT
start=$(date +%s)
for m in "${modes[@]}"; do
  mkdir -p "$out/$m/corpus" "$out/$m/findings"
  cp "$out/seeds"/* "$out/$m/corpus/"
  STRIDECHECK_MUTATOR="$m" "$fuzzer" -fork=1 -ignore_crashes=1 -max_total_time="$seconds" -max_len=512 \
    -artifact_prefix="$out/$m/findings/" "$out/$m/corpus" >"$out/$m/log" 2>&1 &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || true; done
trap - INT TERM EXIT

field() { sed -nE "s|.*$1:? ([0-9]+).*|\\1|p" <<<"$2"; }
printf '%-6s %9s %7s %7s %9s %7s %9s %s\n' mode programs exec/s cov features corpus findings first-finding
for m in "${modes[@]}"; do
  last=$(grep -E '^#[0-9]+' "$out/$m/log" | tail -1 || true)
  n=$(find "$out/$m/findings" -maxdepth 1 -name 'crash-*' | wc -l)
  first="-"
  if [ "$n" -gt 0 ]; then
    t=$(find "$out/$m/findings" -maxdepth 1 -name 'crash-*' -printf '%T@\n' | sort -n | head -1 | cut -d. -f1)
    first="$((t - start)) s"
  fi
  printf '%-6s %9s %7s %7s %9s %7s %9s %s\n' "$m" "$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$last")" \
    "$(field 'exec/s' "$last")" "$(field cov "$last")" "$(field ft "$last")" \
    "$(find "$out/$m/corpus" -type f | wc -l)" "$n" "$first"
done
