#!/usr/bin/env bash
# scripts/fuzz_exhaust.sh's bookkeeping, against a stand-in for stridecheck:
# ops a, b, c, d of two cases each; b's case 1 fails (written to --out, as the
# tool writes it), c's case 0 kills the process (the crash note on stdout). The
# phase must save both as findings, run d after the death, count the cases of
# the ops that finished, and never write over a finding already there.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat >"$work/tool" <<'EOF'
#!/usr/bin/env bash
ops=() print=0 list=0 chains=0 out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --op) ops+=("$2"); shift ;;
    --out) out="$2"; shift ;;
    --seed | --engine-threads | --known) shift ;;
    --phase) [ "$2" = 1 ] || chains=1; shift ;;
    --print) print=1 ;;
    --list-ops) list=1 ;;
  esac
  shift
done
[ "${#ops[@]}" -gt 0 ] || ops=(a b c d)
if [ "$list" = 1 ]; then printf '%s\n' "${ops[@]}"; exit 0; fi
echo "${ops[*]}" >>"$(dirname "$0")/calls"
for op in "${ops[@]}"; do
  if [ "$print" = 1 ]; then
    for k in 0 1; do printf '# exhaust %s %s: case %s of %s\nx = zeros [%s]\n\n' "$op" "$k" "$k" "$op" "$k"; done
    continue
  fi
  if [ "$chains" = 1 ]; then  # phases 2 to 4: none (this stand-in's ops take no input)
    echo "$op cases 0 (of 0 combinations, 0 gave none): pass 0, fail 0, known 0, undefined 0, skipped 0; at the op: ok 0, raised 0 (0 distinct), unbound 0; 0.0 s"
    continue
  fi
  if [ "$op" = c ]; then
    echo "# stridecheck: killed by signal 11 (SIGSEGV)"
    echo "stridecheck exhaust: the process died in program 5, op c, case 0 (case 0 of c); \`stridecheck exhaust --print --op c\` prints it"
    exit 139
  fi
  f=0
  if [ "$op" = b ]; then mkdir -p "$out"; echo "x = zeros [1]  # b's failing case" >"$out/b-1.prog"; f=1; fi
  echo "$op cases 2 (of 2 combinations, 0 gave none): pass $((2 - f)), fail $f, known 0, undefined 0, skipped 0; at the op: ok 2, raised 0 (0 distinct), unbound 0; 0.0 s"
done
exit 0
EOF
chmod +x "$work/tool"
mkdir -p "$work/findings"
echo "kept" >"$work/findings/exhaust-b-1.prog.keep"

line=$("$root/scripts/fuzz_exhaust.sh" "$work/tool" "$work/findings" "$work/log" 42)
echo "$line"
[ "$line" = "exhaust: 6 cases in $(sed -nE 's/.* in ([0-9]+) s .*/\1/p' <<<"$line") s (seed 42): pass 5, fail 1, known 0, undefined 0, skipped 0; 1 deaths" ] ||
  fail "summary line: $line"
[ -s "$work/findings/exhaust-b-1.prog" ] || fail "b's failing case was not saved"
grep -q "b's failing case" "$work/findings/exhaust-b-1.prog" || fail "b's finding is not the tool's file"
grep -q '^# stridecheck exhaust --seed 42 --op c, case 0: the process died here' "$work/findings/exhaust-c-0.prog" ||
  fail "the death's finding has no header"
grep -qx 'x = zeros \[0\]' "$work/findings/exhaust-c-0.prog" || fail "the death's finding is not case 0 of c"
grep -q 'x = zeros \[1\]' "$work/findings/exhaust-c-0.prog" && fail "the death's finding holds another case"
# The run after the death takes the ops not yet run, d alone; then phases 2 to 4 of every op.
[ "$(tail -n 4 "$work/calls" | head -n 1)" = d ] || fail "after the death it ran: $(tail -n 4 "$work/calls" | head -n 1)"
[ "$(tail -n 3 "$work/calls" | sort -u)" = "a b c d" ] || fail "phases 2 to 4 ran on: $(tail -n 3 "$work/calls")"

# A second campaign into the same folder writes over nothing.
echo "# edited by a user" >>"$work/findings/exhaust-c-0.prog"
"$root/scripts/fuzz_exhaust.sh" "$work/tool" "$work/findings" "$work/log" 42 >/dev/null
grep -q '^# edited by a user' "$work/findings/exhaust-c-0.prog" || fail "a finding was written over"
[ "$(ls "$work/findings" | wc -l)" = 3 ] || fail "findings: $(ls "$work/findings")"
echo "fuzz_exhaust: ok"
