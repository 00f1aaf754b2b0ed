#!/usr/bin/env bash
# A differential fuzzing campaign: engine:cpu vs libtorch:cpu on generated
# view-chain programs: libFuzzer processes side by side over a shared corpus
# directory, and (by default one of the jobs) sweeps of generated programs from
# fresh seeds. While it runs, one status line every few seconds; at the end a
# summary that lists each distinct finding once (grouped by failure signature,
# known or new, minimized), and a report folder with plots.
#
#   scripts/fuzz.sh [SECONDS] [JOBS]      (defaults: 300 s, all cores)
#
# Findings (inputs that make the backends diverge or crash) land in
# out/fuzz/findings/ with the programs they stand for (*.prog); the report
# (summary.md, coverage.png, op_outcome_matrix.png, one minimized program and
# one PyTorch script per distinct finding) in out/fuzz/report/.
# SANITIZE=ON builds with ASan+UBSan. FUZZ_TARGET=parser_fuzzer or
# overlap_fuzzer runs that target instead (corpus and findings in
# out/fuzz/<target>/; no grouping or report). FUZZ_STATUS_EVERY=N: status
# line period in seconds (default 5). FUZZ_OUT=DIR: the campaign's folder
# (corpus/, findings/, report/) instead of out/fuzz, e.g. one per oracle.
# The oracle is LibTorch 2.15 (the wheel of scripts/setup.sh); FUZZ_ORACLE=find
# uses find_package(Torch) instead (Debian's 1.13, or $CMAKE_PREFIX_PATH's),
# best with its own FUZZ_BUILD_DIR and FUZZ_OUT.
# FUZZ_SWEEPERS=N: how many of the JOBS run generated sweeps instead of
# libFuzzer (default 1 when JOBS >= 2, else 0; Note [A sweeping worker]).
# FUZZ_SWARM=PERCENT: the sweeps' `generate --swarm` (default 50: half the
# programs are swarm programs, Note [Swarm programs] in program/generator.h).
# FUZZ_STALE_HEADERS=PERCENT and FUZZ_MAX_STEPS=N: the sweeps' `generate
# --stale-headers` and `--max-steps` (defaults: generate's, 2 and 16).
# STRIDECHECK_MUTATOR=bytes|units: libFuzzer's mutations only, or the
# structure-aware ones only (default: half each; fuzz/view_chain_fuzzer.cpp).
# FUZZ_EXHAUST=0: skip the domain enumeration that opens a view-chain campaign
# (scripts/fuzz_exhaust.sh; its time comes before the campaign's SECONDS);
# FUZZ_EXHAUST_SEED=S: its classes' draws (default: a fresh seed, printed).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-300}"
jobs="${2:-$(nproc)}"
build="${FUZZ_BUILD_DIR:-$root/build-fuzz}"
target="${FUZZ_TARGET:-view_chain_fuzzer}"
out="${FUZZ_OUT:-$root/out/fuzz}${FUZZ_TARGET:+/$target}"
every="${FUZZ_STATUS_EVERY:-5}"
sweepers="${FUZZ_SWEEPERS:-$([ "$jobs" -ge 2 ] && echo 1 || echo 0)}"
swarm="${FUZZ_SWARM:-50}"
# the sweeps' generator options (every sweep and every reproduction of a seed)
gen_opts=(--swarm "$swarm" --stale-headers "${FUZZ_STALE_HEADERS:-2}" --max-steps "${FUZZ_MAX_STEPS:-16}")
[ "$target" = view_chain_fuzzer ] || sweepers=0
[ "$sweepers" -le "$jobs" ] || sweepers=$jobs
known="$root/corpus/known_divergences.txt"
extra=()  # the parser's dictionary, and the regression corpus as read-only seeds
[ "$target" != parser_fuzzer ] || extra=(-dict="$root/fuzz/parser_fuzzer.dict" -max_len=4096)

"$root/scripts/setup.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DSTRIDECHECK_ORACLE="${FUZZ_ORACLE:-wheel}" \
  -DSTRIDECHECK_FUZZ=ON -DSTRIDECHECK_SANITIZE="${SANITIZE:-OFF}" -DSTRIDECHECK_WITH_TESTS=OFF >/dev/null
cmake --build "$build" --parallel "$(nproc)" --target "$target" stridecheck
tool="$build/bin/stridecheck"
# Under the sanitizers a report aborts (SIGABRT) rather than exiting, so a
# report in the generator or an engine step leaves its crash trail (Note [The
# crash trail], program/crash_trail.h) like any other crash.
if [ "${SANITIZE:-OFF}" = ON ]; then
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:abort_on_error=1}"
  export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1}"
fi

report="$out/report"
mkdir -p "$out/corpus" "$out/findings"
rm -rf "$report"
mkdir -p "$report"
signatures="$out/findings/signatures.tsv"  # <finding>\t<signature>\t<known (...)|new>, one line per finding
touch "$signatures"
timeline="$report/timeline.csv"
echo "elapsed_s,programs,execs_per_s,corpus,coverage,features,findings,distinct" >"$timeline"
logs="$out/logs-$(date +%Y%m%d-%H%M%S)"  # one log per fuzzer process
mkdir -p "$logs"
echo "campaign: ${seconds}s, ${jobs} jobs, corpus $out/corpus, logs $logs"

# The program a crashed generate/decode wrote to stderr after its crash trail
# marker (program/crash_trail.h); fails when there is none.
trail() {  # the crash trail's program, or failure when there is none
  local t
  t=$(awk 'f; /^# stridecheck crash trail/ {f = 1}' "$1")
  [ -n "$t" ] && printf '%s\n' "$t"
}
# Each finding as the program it stands for, and its failure signature. A
# finding that trips the tools themselves (a sanitized decode) is recorded as
# such: the campaign always reaches its summary.
triage() {
  [ "$target" = view_chain_fuzzer ] || return 0
  local fresh=() f
  for f in "$out/findings"/crash-* "$out/findings"/divergence-* "$out/findings"/timeout-* "$out/findings"/oom-*; do
    [ -e "$f" ] || continue
    case "$f" in *.prog | *.tsv | *.decode-error | *.crashed) continue ;; esac
    grep -q "^$(basename "$f")	" "$signatures" && continue
    if [ ! -s "$f.prog" ] && ! "$tool" decode "$f" >"$f.prog" 2>"$f.decode-error"; then
      if ! trail "$f.decode-error" >"$f.prog"; then
        printf '%s\t%s\t%s\n' "$(basename "$f")" "decode failed: $(head -c 200 "$f.decode-error" | tr '\t\n' '  ')" new >>"$signatures"
        continue
      fi
      echo "crash while decoding$(report_line "$f.decode-error")" >"$f.crashed"
    fi
    rm -f "$f.decode-error"
    fresh+=("$f.prog")
  done
  for f in "$out/findings"/generated-*.prog "$out/findings"/exhaust-*.prog; do
    [ -e "$f" ] || continue
    grep -q "^$(basename "${f%.prog}")	" "$signatures" || fresh+=("$f")
  done
  [ "${#fresh[@]}" -gt 0 ] || return 0
  "$tool" signature --known "$known" --timeout 30 "${fresh[@]}" 2>/dev/null |
    while IFS=$'\t' read -r sig file mark; do
      # A program cut from a crash trail that replays cleanly: the crash was
      # in the generator itself, not in an engine step; that is the finding.
      case "$sig" in pass | undefined | skipped) [ ! -s "${file%.prog}.crashed" ] || sig=$(cat "${file%.prog}.crashed") mark=new ;; esac
      printf '%s\t%s\t%s\n' "$(basename "${file%.prog}")" "$sig" "${mark:-new}"
    done >>"$signatures" || true
}

# Each fuzzer process writes its own log, logs/w<worker>-<run>.log; libFuzzer's
# lines there read "#<runs> NEW cov: C ft: F corp: N/.. exec/s: R ...".
last_line() { grep -aE '^#[0-9]+' "$1" 2>/dev/null | tail -1 || true; }
field() { sed -nE "s|.*$1:? ([0-9]+).*|\\1|p" <<<"$2"; }
# Programs run by every fuzzer process so far (a restarted process counts from 0
# again, so the logs are summed); coverage: the largest any process reports.
totals() {  # prints "<programs> <cov> <ft>"
  local f l programs=0 cov=0 ft=0 n
  for f in "$logs"/*.log; do
    [ -e "$f" ] || continue
    l=$(last_line "$f")
    n=$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$l"); programs=$((programs + ${n:-0}))
    n=$(field cov "$l"); [ "${n:-0}" -le "$cov" ] || cov=$n
    n=$(field ft "$l"); [ "${n:-0}" -le "$ft" ] || ft=$n
  done
  echo "$((programs + $(swept))) $cov $ft"
}
swept() { cat "$logs"/sweep-*.tsv 2>/dev/null | awk '{n += $2} END {print n + 0}'; }
count_findings() {
  find "$out/findings" -maxdepth 1 \( -name 'crash-*' -o -name 'divergence-*' -o -name 'timeout-*' -o -name 'oom-*' \) \
    ! -name '*.prog' ! -name '*.decode-error' ! -name '*.crashed' -o -name 'generated-*.prog' -o -name 'generated-*.crash' \
    -o -name 'exhaust-*.prog' | wc -l
}
distinct() { awk -F'\t' '$2 !~ /^(pass|undefined|skipped)$/ {print $2}' "$signatures" | sort -u | grep -c . || true; }
distinct_new() { awk -F'\t' '$2 !~ /^(pass|undefined|skipped)$/ && $3 == "new" {print $2}' "$signatures" | sort -u | grep -c . || true; }

status() {
  local now runs execs corp cov ft n d
  now=$(($(date +%s) - start))
  read -r runs cov ft < <(totals)
  execs=$((runs / (now > 0 ? now : 1)))
  corp=$(find "$out/corpus" -type f | wc -l)
  n=$(count_findings)
  d=$(distinct)
  echo "$now,${runs:-0},${execs:-0},$corp,${cov:-0},${ft:-0},$n,$d" >>"$timeline"
  printf '[%4ds / %ds] programs %s (%s generated) | %s exec/s | corpus %s | cov %s ft %s | findings %s inputs, %s distinct (%s new)\n' \
    "$now" "$seconds" "${runs:-0}" "$(swept)" "${execs:-0}" "$corp" "${cov:-0}" "${ft:-0}" "$n" "$d" "$(distinct_new)"
}

# A new campaign starts from generated full-length programs, not libFuzzer's empty input.
if [ "$target" = view_chain_fuzzer ] && [ -z "$(ls -A "$out/corpus")" ]; then
  "$tool" seeds --count 64 --out "$out/corpus"
fi
# Note [The campaign opens with the domain enumeration] (scripts/fuzz_exhaust.sh).
exhausted=""
if [ "$target" = view_chain_fuzzer ] && [ "${FUZZ_EXHAUST:-1}" != 0 ]; then
  exhausted=$("$root/scripts/fuzz_exhaust.sh" "$tool" "$out/findings" "$logs/exhaust.log" \
    "${FUZZ_EXHAUST_SEED:-$((RANDOM * 32768 + RANDOM))}" "$known") || true
  echo "$exhausted"
  triage
fi
# Note [Workers, not fork mode]: $jobs independent fuzzer processes share the
# corpus folder (libFuzzer reloads it every second), each run back to back until
# the time is up: the view-chain target reports a divergence without dying
# (STRIDECHECK_FINDINGS_DIR, fuzz/view_chain_fuzzer.cpp), so a process lives
# the whole campaign, where fork mode's children die on each finding and live
# one second, two, three... and each start loads LibTorch and re-runs its
# inputs. Measured on one core, 40 s: 10,186 programs in one process, 1,971 in
# fork mode. A real crash or hang ends a process (libFuzzer saves the input);
# its worker starts another.
start=$(date +%s)
worker() {
  local k=$1 run=0 left began
  while :; do
    left=$((start + seconds - $(date +%s)))
    [ "$left" -gt 0 ] || break
    run=$((run + 1))
    began=$(date +%s)
    STRIDECHECK_FINDINGS_DIR="$out/findings" "$build/bin/$target" -max_total_time="$left" -timeout=60 \
      -max_len=512 "${extra[@]}" -artifact_prefix="$out/findings/" "$out/corpus" \
      $([ "$target" != parser_fuzzer ] || echo "$root/corpus") >"$logs/w$k-$run.log" 2>&1 || true
    [ $(($(date +%s) - began)) -ge 2 ] || sleep 1  # a process that dies at once is not restarted in a busy loop
  done
}
# Note [A sweeping worker]: by default one of the jobs (FUZZ_SWEEPERS) runs
# `stridecheck generate --stats` over fresh random seeds in chunks instead of
# libFuzzer: no coverage guidance, but each program costs a fraction of a fuzz
# execution (no mutation, no instrumentation callbacks into libFuzzer, a 16 MiB
# budget), so it runs many times more programs, and the domain classes are
# drawn by the generator's weights. A failing seed (a divergence or a wrong
# UNDEFINED claim) becomes findings/generated-<seed>.prog; a chunk that crashes
# or hangs is bisected (a child per half, `timeout`) down to the seed.
sweep_chunk() {  # seed count: succeeds when the tool got through the chunk (failing programs or not)
  timeout -k 5 120 "$tool" generate --stats --engine-threads random "${gen_opts[@]}" --seed "$1" --count "$2" >"$logs/sweep-$k.out" 2>&1
  grep -q '^programs: pass' "$logs/sweep-$k.out"
}
bisect_chunk() {  # seed count: the first seed of the range the tool does not get through, alone
  local s=$1 n=$2 half named
  # A fatal signal names its seed (Note [A report that survives a crash]); a
  # hang or a sanitizer's plain exit does not, and is bisected (a child per half).
  named=$(sed -nE 's/^stridecheck generate --stats: the process died in seed ([0-9]+),.*/\1/p' "$logs/sweep-$k.out" | head -n1)
  if [ -n "$named" ]; then echo "$named"; return; fi
  while [ "$n" -gt 1 ]; do
    half=$((n / 2))
    if sweep_chunk "$s" "$half"; then s=$((s + half)); n=$((n - half)); else n=$half; fi
  done
  echo "$s"
}
report_line() {  # ": <the sanitizer's report line>" from a tool's stderr, if there is one
  local l
  l=$(grep -m1 -E 'runtime error:|ERROR: AddressSanitizer|ERROR: LeakSanitizer' "$1" | sed -E 's/^[^ ]*\/([^/ ]+:[0-9]+)/\1/' | cut -c1-200)
  [ -z "$l" ] || printf ': %s' "$l"
}
save_generated() {  # seed: its program as a finding, whole before triage can see it
  local rc=0 tmp="$out/findings/.generated-$1.tmp" report
  "$tool" generate --engine-threads random "${gen_opts[@]}" --seed "$1" --count 1 >"$tmp" 2>"$tmp.err" || rc=$?
  report=$(report_line "$tmp.err")
  if [ "$rc" -ne 0 ] && trail "$tmp.err" >"$tmp"; then  # Note [The crash trail] (program/crash_trail.h)
    sed -i "1i # seed $1: stridecheck crashed while generating it (status $rc$report); the steps up to the one it crashed in" "$tmp"
    echo "crash while generating (status $rc)$report" >"$out/findings/generated-$1.crashed"
    rc=0
  fi
  if [ "$rc" -eq 0 ]; then
    mv "$tmp" "$out/findings/generated-$1.prog"
  else
    head -c 20000 "$tmp.err" >"$out/findings/generated-$1.crash"  # counted as an input (count_findings)
    printf 'generated-%s\t%s\tnew\n' "$1" \
      "crash while generating seed $1 (status $rc; stridecheck generate --seed $1 --engine-threads random ${gen_opts[*]})$report" >>"$signatures"
  fi
  rm -f "$tmp" "$tmp.err"
}
sweeper() {
  local k=$1 seed count=200 began took bad ran key
  local -A saved=()
  seed=$(od -An -N5 -tu8 /dev/urandom | tr -d ' ')  # 40 random bits
  while [ $(($(date +%s))) -lt $((start + seconds)) ]; do
    began=$(date +%s%N)
    if ! sweep_chunk "$seed" "$count"; then  # a crash (a signal, or a sanitizer's exit) or a hang
      bad=$(bisect_chunk "$seed" "$count")
      if [ "${saved[crash]:-0}" -lt 3 ]; then saved[crash]=$((${saved[crash]:-0} + 1)); save_generated "$bad"; fi
      echo "$seed $((bad - seed + 1))" >>"$logs/sweep-$k.tsv"
      seed=$((bad + 1))
      continue
    fi
    # At most 3 seeds per kind of failure ("(op) field" without step and result
    # numbers, or the claim's kind) per sweeper, as the fuzz target keeps 3 per
    # signature: each one saved costs a process.
    while read -r bad key; do
      [ "${saved[$key]:-0}" -lt 3 ] || continue
      saved[$key]=$((${saved[$key]:-0} + 1))
      save_generated "$bad"
    done < <(sed -nE 's/^  seed ([0-9]+): (step [0-9]+ )?(.*)/\1 \3/p' "$logs/sweep-$k.out" |
             sed -E 's/(result|storage) [0-9]+ //; s/; engine threads [0-9]+$//; s/ /_/g; s/_/ /; s/_\(.*//' | cut -c1-64)
    ran=$(sed -nE 's/^programs: pass ([0-9]+) .*, fail ([0-9]+) .*, undefined ([0-9]+) .*, skipped ([0-9]+) .*/\1 \2 \3 \4/p' \
          "$logs/sweep-$k.out" | awk '{print $1 + $2 + $3 + $4}')
    echo "$seed $ran" >>"$logs/sweep-$k.tsv"
    seed=$((seed + count))
    took=$((($(date +%s%N) - began) / 1000000))  # ms; chunks of 5 to 20 s (each loads LibTorch)
    if [ "$took" -lt 5000 ] && [ "$count" -lt 50000 ]; then count=$((count * 2)); fi
    if [ "$took" -gt 20000 ] && [ "$count" -gt 50 ]; then count=$((count / 2)); fi
  done
}
workers=()
for k in $(seq "$jobs"); do
  if [ "$k" -le "$sweepers" ]; then sweeper "$k" & else worker "$k" & fi
  workers+=($!)
done
stop_workers() {
  local w kids
  for w in "${workers[@]}"; do
    kids=$(pgrep -P "$w" || true)
    kill "$w" 2>/dev/null || true
    [ -z "$kids" ] || kill $kids 2>/dev/null || true
  done
}
trap stop_workers INT TERM EXIT
running() { local w; for w in "${workers[@]}"; do kill -0 "$w" 2>/dev/null && return 0; done; return 1; }
while running; do
  for _ in $(seq "$every"); do
    running || break
    sleep 1
  done
  triage
  status
done
set +e
wait "${workers[@]}"
set -e
trap - INT TERM EXIT
triage
final=$(status)

echo
echo "== campaign summary =="
"$tool" --version | sed 's/^/  /'
read -r runs cov ft < <(totals)
echo "  wall time: ${seconds} s, jobs: ${jobs} (side by side: $((jobs - sweepers)) libFuzzer, $sweepers generated sweeps)"
if [ "$target" = view_chain_fuzzer ]; then
  echo "  programs executed: $runs, of which $(swept) generated from fresh seeds (each on engine:cpu and libtorch:cpu, diffed)"
else
  echo "  inputs executed: $runs"
fi
echo "  executions/s (all jobs: programs / wall time): $((runs / seconds))"
[ -z "$exhausted" ] || echo "  first, the domain enumeration: ${exhausted#exhaust: } (log: $logs/exhaust.log)"
echo "  corpus entries: $(find "$out/corpus" -type f | wc -l)"
echo "  coverage (libFuzzer, the largest of the processes): $cov edges, $ft features"
findings=$(count_findings)
echo "  findings: $findings inputs, $(distinct) distinct ($(distinct_new) new) in $out/findings"
echo "  last status: $final"

# Each distinct signature once: how many inputs hit it, known or new, and its
# smallest input minimized (stridecheck minimize) with a PyTorch script.
summary="$report/summary.md"
{
  echo "# Campaign report"
  echo
  echo '```'
  "$tool" --version
  echo "wall time: ${seconds} s, jobs: ${jobs}, target: $target"
  [ -z "$exhausted" ] || echo "first, $exhausted"
  echo "last status: $final"
  echo '```'
  echo
  echo "![coverage, findings and speed over time](coverage.png)"
  echo
  echo "![op x outcome matrix](op_outcome_matrix.png)"
  echo
  echo "## Distinct findings"
  echo
} >"$summary"
new=0
if [ "$target" = view_chain_fuzzer ] && [ "$findings" -gt 0 ]; then
  echo
  echo "== distinct findings (grouped by failure signature) =="
  k=0
  while IFS=$'\t' read -r hits sig; do
    k=$((k + 1))
    mark=$(awk -F'\t' -v s="$sig" '$2 == s {print $3; exit}' "$signatures")
    [ "$mark" = new ] && new=$((new + 1))
    # The smallest program with this signature is the one to minimize.
    rep=""
    best=999999
    while IFS= read -r name; do
      p="$out/findings/$name.prog"
      [ -s "$p" ] || continue
      n=$(grep -cv '^#' "$p" || true)
      if [ "$n" -lt "$best" ]; then best=$n; rep=$p; fi
    done < <(awk -F'\t' -v s="$sig" '$2 == s {print $1}' "$signatures")
    echo
    echo "[$k] $sig  ($hits inputs, $mark)"
    {
      echo "### [$k] \`$sig\`"
      echo
      echo "$hits inputs; $mark."
    } >>"$summary"
    if [ -n "$rep" ] && "$tool" minimize --timeout 30 --max-tests 1500 "$rep" -o "$report/finding-$k.prog" \
         >"$report/finding-$k.minimize.log" 2>&1; then
      "$tool" repro --as python "$report/finding-$k.prog" >"$report/finding-$k.py" 2>/dev/null || rm -f "$report/finding-$k.py"
      echo "    minimized from $(basename "$rep") ($best steps) to $report/finding-$k.prog:"
      grep -v '^#' "$report/finding-$k.prog" | sed 's/^/      /'
      "$tool" replay --quiet "$report/finding-$k.prog" 2>/dev/null | sed -n '/first difference/,/^[0-9]* passed/p' | grep -v 'passed' | sed 's/^/    /' || true
      {
        echo "Minimized from \`$(basename "$rep")\` ($best steps) by \`stridecheck minimize\` ([finding-$k.prog](finding-$k.prog); PyTorch script: [finding-$k.py](finding-$k.py)):"
        echo
        echo '```'
        grep -v '^#' "$report/finding-$k.prog"
        echo '```'
        echo
        echo '```'
        "$tool" replay --quiet "$report/finding-$k.prog" 2>/dev/null | sed -n '/first difference/,/^[0-9]* passed/p' | grep -v 'passed' || true
        echo '```'
        echo
      } >>"$summary"
    else
      echo "    not minimized (see $report/finding-$k.minimize.log); input: ${rep:-none decoded}"
      echo "Not minimized: see \`finding-$k.minimize.log\`." >>"$summary"
      echo >>"$summary"
    fi
  done < <(awk -F'\t' '$2 !~ /^(pass|undefined|skipped)$/ {print $2}' "$signatures" | sort | uniq -c | sort -rn |
           sed -E 's/^ *([0-9]+) /\1\t/')
  flaky=$(awk -F'\t' '$2 ~ /^(pass|undefined|skipped)$/' "$signatures" | wc -l)
  [ "$flaky" -eq 0 ] || echo "  ($flaky findings no longer fail when replayed: listed in $signatures)"
fi
[ "$findings" -gt 0 ] || echo "None." >>"$summary"

# What the campaign exercised (over its final corpus), and the plots.
if [ "$target" = view_chain_fuzzer ]; then
  "$tool" exercise "$out/corpus" >"$report/exercise.csv" 2>/dev/null || rm -f "$report/exercise.csv"
  python3 -c 'import matplotlib' 2>/dev/null || python3 -m pip install --quiet matplotlib >/dev/null 2>&1 || true
  if python3 "$root/scripts/fuzz_report.py" "$report"; then
    echo
    echo "report: $summary (plots: coverage.png, op_outcome_matrix.png)"
  else
    echo "report: $summary (no plots: matplotlib is missing and could not be installed)"
  fi
fi
# Fails on new findings only (known ones are listed above); other targets on any finding.
if [ "$target" = view_chain_fuzzer ]; then [ "$new" -eq 0 ]; else [ "$findings" -eq 0 ]; fi
