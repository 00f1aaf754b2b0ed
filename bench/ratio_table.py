#!/usr/bin/env python3
"""Prints the engine/LibTorch ratio of every benchmark pair in a Google
Benchmark JSON file written by stridecheck_bench (--benchmark_out=FILE
--benchmark_out_format=json).

Benchmarks are named BM_<op>/<backend>[/<arg>...] (bench/bench_common.h);
segments Google Benchmark appends ("min_time:0.300", "iterations:10") are
ignored, so BM_X/engine/A pairs with BM_X/libtorch/A. Ratio > 1: the engine
is slower. A BM_X/differential/A (both backends and the diff) takes the
engine's column; a BM_X/memcpy/A (a memcpy of the bytes the op writes) adds
the engine's and LibTorch's share of memcpy's bandwidth (memcpy time / their
time, 100% = at the limit).

    ratio_table.py FILE.json [--time cpu_time|real_time]
"""
import argparse
import json
import re
import sys

UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
SIDES = ("engine", "libtorch", "libtorch_inference", "differential", "memcpy")


def fmt_time(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def fmt_share(limit, t):
    if limit is None or t is None or t == 0:
        return ""
    return f"{100.0 * limit / t:.0f}%"


def fmt_ratio(num, den):
    if num is None or den is None or den == 0:
        return "-"
    return f"{num / den:.2f}x"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("json_file")
    ap.add_argument("--time", default="cpu_time", choices=("cpu_time", "real_time"))
    args = ap.parse_args()
    with open(args.json_file) as f:
        data = json.load(f)

    pairs = {}  # (op, arg) -> {side: ns}
    order = []
    unpaired = []
    errors = []
    benches = data.get("benchmarks", [])
    # With --benchmark_repetitions, each benchmark's median is its figure.
    medians = [b for b in benches if b.get("run_type") == "aggregate" and b.get("aggregate_name") == "median"]
    use_medians = bool(medians)
    for b in benches:
        if use_medians:
            if not (b.get("run_type") == "aggregate" and b.get("aggregate_name") == "median"):
                if b.get("error_occurred"):
                    errors.append((b["name"], b.get("error_message", "")))
                continue
            name = b.get("run_name", b["name"])
        else:
            if b.get("run_type", "iteration") != "iteration":
                continue
            name = b["name"]
        parts = [p for p in name.split("/") if not re.match(r"^[a-z_]+:", p)]
        if b.get("error_occurred"):
            errors.append((b["name"], b.get("error_message", "")))
            continue
        ns = b[args.time] * UNIT_NS[b.get("time_unit", "ns")]
        if len(parts) < 2 or parts[1] not in SIDES:
            unpaired.append((name, ns, b))
            continue
        key = (parts[0], "/".join(parts[2:]))
        if key not in pairs:
            pairs[key] = {}
            order.append(key)
        pairs[key][parts[1]] = ns

    ctx = data.get("context", {})
    print()
    print(f"== engine vs LibTorch ({args.time} per iteration{', median of the repetitions' if use_medians else ''};"
          " ratio = engine / LibTorch, > 1: engine slower)")
    for k in ("threads", "libtorch", "libtorch_cpu_capability", "build_type"):
        if k in ctx:
            print(f"   {k}: {ctx[k]}")
    if ctx.get("library_build_type") == "debug":
        print("   (Debian built Google Benchmark's library without NDEBUG, hence its DEBUG warning; the timed\n"
              "    loop is inline in its header, so the code measured is not slowed)")
    rows = [("benchmark", "engine", "libtorch", "engine/libtorch", "libtorch(inference)", "engine/inference",
             "memcpy", "engine%memcpy", "libtorch%memcpy")]
    for op, arg in order:
        s = pairs[(op, arg)]
        for left in ("engine", "differential"):
            if left not in s:
                continue
            e = s[left]
            t, ti, m = s.get("libtorch"), s.get("libtorch_inference"), s.get("memcpy")
            name = op + ("/" + arg if arg else "") + (" (differential)" if left == "differential" else "")
            rows.append((name,
                         fmt_time(e) if e is not None else "-",
                         fmt_time(t) if t is not None else "-",
                         fmt_ratio(e, t),
                         fmt_time(ti) if ti is not None else "",
                         fmt_ratio(e, ti) if ti is not None else "",
                         fmt_time(m) if m is not None else "",
                         fmt_share(m, e),
                         fmt_share(m, t)))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for i, r in enumerate(rows):
        line = "  ".join(c.ljust(widths[j]) if j == 0 else c.rjust(widths[j]) for j, c in enumerate(r))
        print("  " + line.rstrip())
        if i == 0:
            print("  " + "  ".join("-" * w for w in widths))
    if unpaired:
        print()
        print("== without a pair")
        for name, ns, b in unpaired:
            extra = "".join(f"  {k}={b[k]:.4g}" for k in ("execs_per_s", "programs_per_s") if k in b)
            print(f"  {name}  {fmt_time(ns)}{extra}")
    if errors:
        print()
        print("== skipped with an error")
        for name, msg in errors:
            print(f"  {name}: {msg}")
    slower = [(op, arg) for op, arg in order
              if "engine" in pairs[(op, arg)] and "libtorch" in pairs[(op, arg)]
              and pairs[(op, arg)]["engine"] > pairs[(op, arg)]["libtorch"]]
    print()
    print(f"   engine slower than LibTorch in {len(slower)} of {len(order)} pairs")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
