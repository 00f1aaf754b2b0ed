#!/usr/bin/env bash
# Instruction counts of one fuzz execution (BM_FuzzExec, bench/fuzz_exec_bench.cpp)
# under callgrind: reliable on a loaded machine, where times are not (issue 10).
# Prints, per 64 programs (one benchmark iteration):
#   differential     compare_backends: engine:cpu run, libtorch:cpu run, the diff
#   libtorch alone   the same programs on libtorch:cpu alone (the ceiling)
#   engine alone     the same on engine:cpu alone
# and the differential's split: each backend's op calls (Traits::apply), each
# run's interpreter and trace (its run() less its apply), the diff.
#
#   bench/fuzz_exec_callgrind.sh [BENCH_BINARY]   (default build/bin/stridecheck_bench)
#   OUT=dir keeps the callgrind files (default: a temporary folder);
#   ANALYSE_ONLY=1 OUT=dir prints the figures of files kept there
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bench="${1:-$root/build/bin/stridecheck_bench}"
out="${OUT:-$(mktemp -d)}"
mkdir -p "$out"

# One iteration each (the first timing round of Google Benchmark under
# valgrind already passes the minimum time); only the toggled function and
# its callees are counted, so program generation and start-up are not.
profile() {  # name filter toggle
  valgrind --tool=callgrind --compress-strings=no --callgrind-out-file="$out/$1.cg" --toggle-collect="$3" \
    "$bench" --benchmark_filter="$2" --benchmark_min_time=0.000001 >/dev/null 2>"$out/$1.log"
}
if [ -z "${ANALYSE_ONLY:-}" ]; then
  profile differential 'BM_FuzzExec/differential' 'sc::compare_backends(*'
  profile libtorch 'BM_FuzzExec/libtorch' 'sc::TracedBackend<*>::run(*'
  profile engine 'BM_FuzzExec/engine' 'sc::TracedBackend<*>::run(*'
fi

python3 - "$out" <<'PY'
import re, subprocess, sys
out = sys.argv[1]

def inclusive(name):
    """{function: inclusive Ir} and the total, from callgrind_annotate."""
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", f"{out}/{name}.cg"],
                          capture_output=True, text=True, check=True).stdout
    total = int(re.search(r"^([\d,]+) +\(100\.0%\) +PROGRAM TOTALS", text, re.M).group(1).replace(",", ""))
    fns = {}
    for m in re.finditer(r"^ *([\d,]+) \([ \d.]+%\)  [^:\s]*:(.*?)(?: \[/[^\]]*\])?$", text, re.M):
        fns.setdefault(m.group(2).strip(), int(m.group(1).replace(",", "")))
    return total, fns

def calls(name, pattern):
    """How many times a function matching pattern was called (callgrind 'calls=' lines)."""
    n, cur = 0, None
    for line in open(f"{out}/{name}.cg"):
        if line.startswith("cfn="):
            cur = line
        elif line.startswith("calls=") and cur and re.search(pattern, cur):
            n += int(line.split("=")[1].split()[0])
    return n

def pick(fns, pattern):
    return sum(v for k, v in fns.items() if re.search(pattern, k) and "'" not in k)

M = lambda x: f"{x / 1e6:7.2f} M"
d_total, d = inclusive("differential")
d_iters = max(1, calls("differential", r"sc::compare_backends\(") // 64)
t_total, _ = inclusive("libtorch")
t_iters = max(1, calls("libtorch", r"TracedBackend<.*>::run\(") // 64)
e_total, _ = inclusive("engine")
e_iters = max(1, calls("engine", r"TracedBackend<.*>::run\(") // 64)
dif, tor, eng = d_total / d_iters, t_total / t_iters, e_total / e_iters
print(f"instructions per 64 programs (callgrind; {d_iters}, {t_iters}, {e_iters} iterations)")
print(f"  differential    {M(dif)}")
print(f"  libtorch alone  {M(tor)}")
print(f"  engine alone    {M(eng)}")
print(f"  ratio differential / libtorch alone: {dif / tor:.3f}x")
run_e = pick(d, r"TracedBackend<sc::\(anonymous namespace\)::EngineTraits>::run\(") / d_iters
run_t = pick(d, r"TracedBackend<sc::oracle::.*TorchTraits>::run\(") / d_iters
app_e = pick(d, r"EngineTraits::apply\(") / d_iters
app_t = pick(d, r"TorchTraits::apply\(") / d_iters
diff = pick(d, r"^sc::diff_traces\(") / d_iters
print("differential split per 64 programs:")
print(f"  engine ops (EngineTraits::apply)          {M(app_e)}")
print(f"  engine side interpreter and trace         {M(run_e - app_e)}")
print(f"  LibTorch ops (TorchTraits::apply)         {M(app_t)}")
print(f"  LibTorch side interpreter and trace       {M(run_t - app_t)}")
print(f"  diff (diff_traces)                        {M(diff)}")
print(f"  rest (compare_backends itself, trace destruction) {M(dif - run_e - run_t - diff)}")
thrown = calls("differential", r"__cxa_throw") / d_iters
print(f"C++ throws per 64 programs in the differential: {thrown:.0f}")
PY
echo "callgrind files: $out"
