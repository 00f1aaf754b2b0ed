#!/usr/bin/env bash
# The domain enumeration as a campaign's first phase (scripts/fuzz.sh):
#   scripts/fuzz_exhaust.sh TOOL FINDINGS_DIR LOG SEED [KNOWN]
# runs `TOOL exhaust` (program/exhaust.h) over every op and leaves each new
# failing case in FINDINGS_DIR as exhaust-<op>-<case>.prog, where the
# campaign's triage takes it like a generated finding (its signature, then
# minimize and repro in the summary). A case that kills the process (a crash in
# a backend: the tool's crash note on stdout names the op and the case) is
# saved the same way, from `exhaust --print`, and the enumeration goes on with
# the ops not yet run; after 5 such deaths it stops. Prints one line:
#   exhaust: <cases> cases in <s> s (seed <S>): pass P, fail F, ...; <D> deaths
# and exits 0 (the campaign decides what a finding means).
#
# Note [The campaign opens with the domain enumeration]
# The random search and libFuzzer meet a rule that needs one combination (a
# layout x a dtype pair x a boundary value) late or never; the enumeration
# meets every such combination of its catalogue in seconds (README: it finds
# the semantic plants the random search missed in 3 x 20,000 programs within
# 5 s of CPU). Its boundary values are written out; only the classes' draws
# follow the seed, so each campaign draws them afresh (SEED) and a finding
# replays from its file, or from `exhaust --seed SEED --print --op OP`.
set -uo pipefail
tool="$1" findings="$2" log="$3" seed="$4" known="${5:-}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Every op, in the table's order (program/ops.h), as `exhaust --list-ops` lists them.
mapfile -t left < <("$tool" exhaust --list-ops)
[ "${#left[@]}" -gt 0 ] || { echo "exhaust: no ops listed by '$tool exhaust --list-ops'"; exit 0; }

# Saves case K of op OP as a finding (never over a file).
save_case() {  # op case first-line-of-the-finding
  local dest="$findings/exhaust-$1-$2.prog"
  [ -e "$dest" ] && return 0
  {
    echo "# $3"
    "$tool" exhaust --seed "$seed" --print --op "$1" |
      awk -v k="$2" '/^# exhaust / {on = ($4 == k":")} on && !/^# exhaust /'
  } >"$dest.tmp" && mv "$dest.tmp" "$dest"
}

: >"$log"
cases=0 pass=0 fail=0 known_n=0 undef=0 skipped=0 deaths=0
began=$(date +%s)
# The four phases, as one run makes them (ExhaustPolicy::phase): every op's
# one-step cases on the catalogue, its overlapping pairs, its chains, then
# the data ops' other dtypes in the other layouts; a death restarts its own
# phase with the ops it had not finished.
all=("${left[@]}")
for phase in 1 2 3 4; do
  [ "$deaths" -lt 5 ] || break
  left=("${all[@]}")
  while [ "${#left[@]}" -gt 0 ]; do
    ops=()
    for op in "${left[@]}"; do ops+=(--op "$op"); done
    out="$work/run-$phase-$deaths"
    rc=0
    "$tool" exhaust --seed "$seed" --phase "$phase" --engine-threads random --out "$work/fails" \
      ${known:+--known "$known"} "${ops[@]}" >"$out" 2>&1 || rc=$?
    cat "$out" >>"$log"
    # The ops this run finished print a row each ("<op> cases N ...").
    done_ops=$(awk '$2 == "cases" {print $1}' "$out")
    read -r c p f k u s < <(awk '$2 == "cases" {
        for (i = 1; i <= NF; ++i) {
          if ($i == "cases") c += $(i + 1); if ($i == "pass") p += $(i + 1); if ($i == "fail") f += $(i + 1)
          if ($i == "known") k += $(i + 1); if ($i == "undefined") u += $(i + 1); if ($i == "skipped") s += $(i + 1)
        }
      } END {print c + 0, p + 0, f + 0, k + 0, u + 0, s + 0}' "$out")
    cases=$((cases + c)) pass=$((pass + p)) fail=$((fail + f)) known_n=$((known_n + k)) undef=$((undef + u))
    skipped=$((skipped + s))
    died=""
    if [ "$rc" -ge 128 ] || grep -q '^# stridecheck: killed by signal' "$out"; then
      # "stridecheck exhaust: the process died in program N, op OP, case K (...)"
      read -r dop dcase < <(sed -nE 's/.*the process died in program [0-9]+, op ([^,]+), case ([0-9]+) .*/\1 \2/p' "$out" | tail -1)
      if [ -n "${dop:-}" ]; then
        deaths=$((deaths + 1))
        died=$dop
        save_case "$dop" "$dcase" "stridecheck exhaust --seed $seed --op $dop, case $dcase: the process died here (status $rc)"
      fi
    elif [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
      echo "exhaust: stopped with status $rc (see $log)"
      break 2
    fi
    next=()
    for op in "${left[@]}"; do
      grep -qxF "$op" <<<"$done_ops" || [ "$op" = "$died" ] || next+=("$op")
    done
    [ -n "$died" ] && [ "$deaths" -lt 5 ] || next=()
    left=("${next[@]}")
  done
done
# Each failing case the tool wrote (<op>-<case>.prog) becomes a finding.
for f in "$work/fails"/*.prog; do
  [ -e "$f" ] || continue
  name=$(basename "$f" .prog)
  [ -e "$findings/exhaust-$name.prog" ] || cp "$f" "$findings/exhaust-$name.prog"
done
echo "exhaust: $cases cases in $(($(date +%s) - began)) s (seed $seed): pass $pass, fail $fail, known $known_n, undefined $undef, skipped $skipped; $deaths deaths"
