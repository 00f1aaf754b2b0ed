"""Dtype conversion through to() and copy_() for every dtype pair and layout.

Ported from PyTorch test/test_torch.py test_to (to(dtype) returns self for the
same dtype, a copy otherwise), test_memory_format_to and
test_memory_format_type_shortcuts (half(), float(), double(), ... keep a
channels_last or permuted dense layout, a non-dense input falls back to its
suggested format), test_copy_all_dtypes_and_devices, test_copy_dtypes, the
vectorized conversion paths of test_copy_transpose / test_copy_float16 (long
contiguous runs: 1000 elements, past every vector width, with a tail), and
aten/src/ATen/native/cpu/CopyKernel.cpp's cases (same-dtype memcpy, reduced
float <-> float fast paths, transposed 2-d blocks, strided and broadcast sources
into strided destinations). Values: small signed integers, halves, values past
int8/uint8/int16 and float16 ranges, and (for floating sources) inf/-inf/nan.
"""
from pg import Prog, DTYPES, lst, ROOT

FLOATS = ["float16", "bfloat16", "float32", "float64"]


def source(p, dt, n):
    """n values that exercise each conversion: a repeating pattern."""
    pat = "[-300.5,-129,-128,-1.5,-1,-0.5,0,0.5,1,1.5,2,127,128,255,256,1000.25,32767,32768,65504,65520]"
    a = p.s(f"tensor {pat}")
    reps = -(-n // 20)
    a = p.s(f"repeat {a} [{reps}]")
    a = p.s(f"slice {a} 0 0 {n} 1")
    return p.s(f"to {a} dtype={dt}")


for src in DTYPES:
    p = Prog(f"{ROOT}/convert_from_{src}.prog", __doc__ + f"\nThis file: source dtype {src}, to every dtype.\n")
    base = source(p, src, 1000)
    if src in FLOATS:
        sp = p.s(f"tensor [inf,-inf,nan,-0.0] dtype={src}")
    lays = []
    lays.append(base)                                               # contiguous 1000 (vector loops + tail)
    m = p.s(f"slice {base} 0 0 960 1"); m = p.s(f"view {m} [24,40]")
    lays.append(p.s(f"t {m}"))                                      # transposed 2-d
    lays.append(p.s(f"slice {base} 0 1 none 3"))                    # stepped, offset
    one = p.s(f"slice {base} 0 5 6 1"); lays.append(p.s(f"expand {one} [7,33]"))  # broadcast
    c = p.s(f"slice {base} 0 0 960 1"); c = p.s(f"view {c} [2,8,6,10]"); lays.append(p.s(f"contiguous {c} format=channels_last"))
    lays.append(p.s(f"permute {c} [3,1,0,2]"))                      # permuted dense
    lays.append(p.s(f"select {base} 0 7"))                          # 0-d
    lays.append(p.s(f"slice {base} 0 3 3 1"))                       # empty
    if src in FLOATS:
        lays.append(sp)
    for dst in DTYPES:
        p.c(f"{src} -> {dst}")
        for x in lays:
            p.s(f"to {x} dtype={dst}")
        p.s(f"to {lays[4]} dtype={dst} format=contiguous")
        p.s(f"to {lays[2]} dtype={dst} format=preserve")
        p.c("copy_ into a contiguous, a transposed and a stepped destination")
        d1 = p.s(f"zeros [1000] dtype={dst}"); p.s(f"copy_ {d1} {lays[0]}", out=False)
        d2 = p.s(f"zeros [24,40] dtype={dst}"); d2t = p.s(f"t {d2}"); p.s(f"copy_ {d2t} {m}", out=False)
        d3 = p.s(f"zeros [40,24] dtype={dst}"); p.s(f"copy_ {d3} {lays[1]}", out=False)
        d4 = p.s(f"zeros [1000] dtype={dst}"); d4s = p.s(f"slice {d4} 0 0 none 3"); p.s(f"copy_ {d4s} {lays[2]}", out=False)
        d5 = p.s(f"zeros [7,33] dtype={dst}"); p.s(f"copy_ {d5} {lays[3]}", out=False)
        d6 = p.s(f"zeros [2,8,6,10] dtype={dst}"); p.s(f"copy_ {d6} {lays[4]}", out=False)
        if src in FLOATS:
            d7 = p.s(f"zeros [4] dtype={dst}"); p.s(f"copy_ {d7} {sp}", out=False)
    p.write()
