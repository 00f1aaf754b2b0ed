#!/usr/bin/env python3
"""The CUDA benchmark table from stridecheck_cuda_bench's JSON
(--benchmark_out=FILE --benchmark_out_format=json): per case, the engine's,
LibTorch's and the cudaMemcpy limit's time (GPU time, CUDA events) and
bandwidth (bytes read + written per second), engine/LibTorch (<= 1.0: the
engine is at least as fast) and the engine's share of the memcpy bandwidth.

    cuda_table.py FILE.json
"""
import json
import re
import sys

UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def main():
    with open(sys.argv[1]) as f:
        data = json.load(f)
    rows, order = {}, []
    for b in data.get("benchmarks", []):
        if b.get("run_type", "iteration") != "iteration" or b.get("error_occurred"):
            continue
        parts = [p for p in b["name"].split("/") if not re.match(r"^[a-z_]+:", p)]
        if len(parts) < 3:
            continue
        key = (parts[0][3:] if parts[0].startswith("BM_") else parts[0], parts[2])
        if key not in rows:
            rows[key] = {}
            order.append(key)
        ns = b["real_time"] * UNIT_NS[b.get("time_unit", "ns")]
        rows[key][parts[1]] = (ns, b.get("bytes_per_second"))
    print(f"{'case':44} {'engine':>10} {'libtorch':>10} {'memcpy':>10} {'eng GB/s':>9} {'lt GB/s':>9}"
          f" {'mc GB/s':>9} {'eng/lt':>7} {'eng/mc bw':>9}")
    for key in order:
        r = rows[key]
        def t(side):
            return f"{r[side][0] / 1e3:.1f}us" if side in r else "-"
        def bw(side):
            return f"{r[side][1] / 1e9:.0f}" if side in r and r[side][1] else "-"
        ratio = f"{r['engine'][0] / r['libtorch'][0]:.2f}" if "engine" in r and "libtorch" in r else "-"
        share = f"{r['memcpy'][0] / r['engine'][0] * 100:.0f}%" if "engine" in r and "memcpy" in r else "-"
        print(f"{key[0] + '/' + key[1]:44} {t('engine'):>10} {t('libtorch'):>10} {t('memcpy'):>10} {bw('engine'):>9}"
              f" {bw('libtorch'):>9} {bw('memcpy'):>9} {ratio:>7} {share:>9}")


if __name__ == "__main__":
    main()
