#!/usr/bin/env bash
# Semantic plants: how quickly does the random search find a plausible
# mistake in the engine, one derived from a rule LibTorch implements?
# scripts/plants/NN-name.plant each plant one such mistake (the header names
# the rule and its LibTorch file) as exact-text replacements, which
# scripts/plant.py applies: an old text must occur exactly once, so a plant
# survives edits that move its lines and fails loudly when its line changed.
# For each plant this script applies it to a scratch copy of the tree, builds
# `stridecheck` there incrementally (one build folder reused, ccache), runs
#   stridecheck generate --stats --first-failure --engine-threads random --seed S --count N
# (stops at the first failing program) once per run, optionally the corpus
# replay alone (stridecheck replay corpus/, stopped at its first FAIL),
# reverts the plant, and prints one table row: programs until the first
# divergence (the median and the max over the runs, and each run), CPU
# seconds of those searches, the first failing op and field, and whether the
# corpus catches it (the first program that fails).
#
#   scripts/plants.sh                        # every plant, N = 20000, with the corpus replay
#   scripts/plants.sh --count 5000 --no-replay --only 'squeeze|unsqueeze'
#   scripts/plants.sh --runs 3 --seed 80000000 --no-replay   # seeds 80.00M.., 80.02M.., 80.04M..
#   scripts/plants.sh --check                # only: does every plant still apply to this tree?
#   scripts/plants.sh --search exhaust --no-replay --only "^(63|90)-"
#
# --search exhaust runs `stridecheck exhaust --first-failure --engine-threads
# random` instead (the domain enumeration, program/exhaust.h: deterministic,
# so one run; the programs until its first failure are the figure);
# --exhaust-args 'ARGS' adds ARGS to it (--phase 2-3: the overlapping pairs
# and the chains alone, Note [Exhaust chains]).
# Options: --count N (default 20000), --seed S (default 71000000), --runs K
# (default 1; run k searches from seed S + k*N, a plant not found counting as
# N), --swarm PERCENT (generate's swarm programs), --only REGEX (plant file
# names), --no-replay, --no-search (the corpus column alone), --no-sync (use
# the scratch copy as it is), --tree DIR (scratch copy, default
# out/plants/tree; its build folder is DIR/build; `--tree .` plants in this
# tree itself and its build/, reverting each plant), --out FILE (the table,
# default out/plants/table.md; logs beside it). A scratch tree is built without
# the CUDA kernels (-DSTRIDECHECK_WITH_CUDA=OFF: the searches run the CPU
# engine, and a plant in a header the .cu files include would rebuild them with
# nvcc); PLANTS_CMAKE_ARGS goes to the scratch build's configure step after it
# (e.g. -DSTRIDECHECK_ORACLE=find for Debian's LibTorch 1.13). Exit status: 0
# when every plant applied and built, 1 otherwise (a plant the search misses
# is a row, not an error), 2 for usage.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
count=20000
runs=1
swarm=""
seed=71000000
search_mode=generate
exhaust_args=""
replay=1
search=1
sync=1
only=""
check=0
tree="$root/out/plants/tree"
table=""
usage() { sed -n '2,42p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --count) count="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --swarm) swarm="--swarm $2"; shift 2 ;;
    --search) search_mode="$2"; shift 2
      [ "$search_mode" = generate ] || [ "$search_mode" = exhaust ] || { echo "plants.sh: --search generate|exhaust" >&2; exit 2; } ;;
    --only) only="$2"; shift 2 ;;
    --exhaust-args) exhaust_args="$2"; shift 2 ;;
    --no-replay) replay=0; shift ;;
    --no-search) search=0; shift ;;
    --no-sync) sync=0; shift ;;
    --check) check=1; shift ;;
    --tree) tree="$2"; shift 2 ;;
    --out) table="$2"; shift 2 ;;
    -h|--help) usage ;;
    *) echo "plants.sh: unknown option '$1'" >&2; usage ;;
  esac
done

plants=()
for p in "$root"/scripts/plants/*.plant; do
  [ -n "$only" ] && ! [[ "$(basename "$p")" =~ $only ]] && continue
  plants+=("$p")
done
[ ${#plants[@]} -gt 0 ] || { echo "plants.sh: no plant matches" >&2; exit 2; }

plant() { python3 "$root/scripts/plant.py" "$@"; }
# --check: every plant applies to this tree as it is (and reverts); nothing is written.
if [ "$check" = 1 ]; then
  plant check "$root" "${plants[@]}" || exit 1
  echo "${#plants[@]} plants apply"
  exit 0
fi

out_dir="$(dirname "${table:-$root/out/plants/table.md}")"
table="${table:-$out_dir/table.md}"
mkdir -p "$tree" "$out_dir/logs"
tree="$(cd "$tree" && pwd)"
# The plants as they are now, copied beside the logs: the scratch copy below
# is synced once, at the start, and a plant read from this tree later (after
# a rebase that changed it with the engine text it plants in) would not apply
# to the scratch copy's older text (plant 85 in exhaust12's hour-long run: its
# text followed an engine/inplace.cpp change landed while the run went on).
snapshot="$out_dir/logs/plants"
rm -rf "$snapshot" && mkdir -p "$snapshot"
for i in "${!plants[@]}"; do
  cp "${plants[$i]}" "$snapshot/" && plants[i]="$snapshot/$(basename "${plants[$i]}")"
done
# The scratch copy: the tracked and untracked, not ignored files of this tree.
# Only a file whose contents differ is copied, and it gets the copy's time: an
# unchanged file is not rebuilt, and a changed one always is (keeping its own
# older time, as tar -p did, left objects built in the scratch tree after that
# time stale: a header edited before the last scratch build was never rebuilt).
if [ "$tree" != "$root" ] && [ "$sync" = 1 ]; then
  (cd "$root" && git ls-files -z -c -o --exclude-standard) | while IFS= read -r -d '' f; do
    [ -f "$root/$f" ] && ! cmp -s "$root/$f" "$tree/$f" || continue
    mkdir -p "$tree/$(dirname "$f")" && cp "$root/$f" "$tree/$f"
  done
fi
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$tree}"
build() { cmake --build "$tree/build" --target stridecheck >"$out_dir/logs/build.log" 2>&1; }
no_cuda=-DSTRIDECHECK_WITH_CUDA=OFF
[ "$tree" = "$root" ] && no_cuda=""  # --tree .: this tree's own build/ keeps its configuration
# shellcheck disable=SC2086
BUILD_DIR="$tree/build" BUILD_TARGETS=stridecheck "$tree/scripts/build.sh" $no_cuda ${PLANTS_CMAKE_ARGS:-} \
  >"$out_dir/logs/build.log" 2>&1 || { echo "plants.sh: the unplanted build failed (see $out_dir/logs/build.log)" >&2; exit 1; }
bin="$tree/build/bin/stridecheck"

applied=""
revert() { [ -n "$applied" ] && plant revert "$tree" "$applied"; applied=""; }
trap revert EXIT

{
  if [ "$search" = 1 ] && [ "$search_mode" = exhaust ]; then
    echo "plants: ${#plants[@]}, search: exhaust --first-failure --engine-threads random${exhaust_args:+ $exhaust_args} (programs until the first failure)"
  elif [ "$search" = 1 ]; then
    echo "plants: ${#plants[@]}, search: generate --stats --first-failure --engine-threads random${swarm:+ $swarm} --seed S --count $count," \
      "S = $seed + k * $count for run k = 0..$((runs - 1))"
  else
    echo "plants: ${#plants[@]}, corpus replay only"
  fi
  "$bin" --version | sed -n 2p
  echo
  echo "| plant | found after (programs, median) | max | each run | CPU s | first failure (seed: step, op, field) | corpus replay |"
  echo "|---|---|---|---|---|---|---|"
} | tee "$table"
status=0
for p in "${plants[@]}"; do
  name="$(basename "$p" .plant)"
  log="$out_dir/logs/$name"
  if ! plant apply "$tree" "$p" >"$log.apply" 2>&1; then
    echo "| $name | does not apply: $(tail -1 "$log.apply") | | | | | |" | tee -a "$table"; status=1; continue
  fi
  applied="$p"
  if ! build; then
    cp "$out_dir/logs/build.log" "$log.build"
    echo "| $name | build failed | | | | | |" | tee -a "$table"; status=1; revert; build || true; continue
  fi
  found="-" worst="" runs_found="" cpu="" what=""
  if [ "$search" = 1 ]; then
    # run k searches seeds S + k*N .. (disjoint); a plant not found counts as N
    firsts=() cpu=0 limit=""
    for ((k = 0; k < runs; k++)); do
      s=$((seed + k * count)) rc=0
      TIMEFORMAT='%U %S'
      if [ "$search_mode" = exhaust ]; then
        # shellcheck disable=SC2086
        { time "$bin" exhaust --quiet --first-failure --engine-threads random $exhaust_args --known "$tree/corpus/known_divergences.txt" \
            --out "$out_dir/exhaust-found" >"$log.search.$k" 2>"$log.search.$k.err"; } 2>"$log.time.$k" || rc=$?
      else
        # shellcheck disable=SC2086
        { time "$bin" generate --stats --first-failure --engine-threads random $swarm --seed "$s" --count "$count" \
            >"$log.search.$k" 2>"$log.search.$k.err"; } 2>"$log.time.$k" || rc=$?
      fi
      cpu="$(tail -1 "$log.time.$k" | awk -v c="$cpu" '{printf "%.1f", c + $1 + $2}')"
      first="$(sed -n 's/^first failure: program \([0-9]*\), seed.*/\1/p; s/^first failure: case \([0-9]*\)$/\1/p' "$log.search.$k")"
      if [ -n "$first" ]; then
        firsts+=("$first")
        [ -n "$what" ] || what="$(grep -m1 -E '^  (seed [0-9]*|/.*\.prog): ' "$log.search.$k" | sed 's/^  seed //; s/^  [^ ]*: //' || true)"
      elif [ "$rc" -gt 1 ]; then
        # the planted engine killed the process (generate --stats and exhaust name the program): found there
        died="$(sed -n 's/^stridecheck generate --stats: the process died in seed [0-9]*, program \([0-9]*\) of.*/\1/p; s/^stridecheck exhaust: the process died in program \([0-9]*\),.*/\1/p' "$log.search.$k")"
        firsts+=("${died:-$count}crash")
        [ -n "$what" ] || what="crash (exit $rc): $(tail -1 "$log.search.$k.err")"
      elif [ "$search_mode" = exhaust ]; then
        # a plant not found counts as every case the enumeration made
        limit="$(sed -n 's/^cases: \([0-9]*\) .*/\1/p' "$log.search.$k")"; firsts+=(">$limit")
      else firsts+=(">$count"); fi
    done
    runs_found="$(IFS=,; echo "${firsts[*]}")"
    [ "$search_mode" = exhaust ] && [ -z "$limit" ] && limit=1000000000  # found: no cap to mark
    # median and max, '>N' counting as N, 'Ncrash' as N
    read -r found worst < <(printf '%s\n' "${firsts[@]}" | sed "s/^>//; s/crash$//" | sort -n |
      awk -v n="${limit:-$count}" '{v[NR] = $1} END {m = v[int((NR + 1) / 2)];
        printf "%s %s\n", (m >= n ? ">" n : m), (v[NR] >= n ? ">" n : v[NR])}')
  fi
  caught="-"
  if [ "$replay" = 1 ]; then
    # stopped at the first failing program (replay flushes each verdict)
    (cd "$tree" && "$bin" replay --quiet corpus/ 2>&1 | tee "$log.replay" | grep -m1 '^FAIL ' >"$log.caught") || true
    first_fail="$(sed 's/^FAIL //' "$log.caught")"
    tally="$(grep -m1 -E '^[0-9]+ passed, [0-9]+ failed' "$log.replay" || true)"
    if [ -n "$first_fail" ]; then caught="yes (${first_fail#corpus/})"
    elif [ -n "$tally" ]; then caught="no ($tally)"
    else caught="? (see $log.replay)"; fi
  fi
  echo "| $name | $found | $worst | $runs_found | $cpu | $what | $caught |" | tee -a "$table"
  revert
done
build || true  # leave the scratch build unplanted
echo
echo "table: $table"
exit "$status"
