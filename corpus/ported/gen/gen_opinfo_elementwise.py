"""OpInfo's elementwise sample generators, for add, mul, neg and the in-place ops.

Ported from PyTorch torch/testing/_internal/opinfo/core.py:
generate_elementwise_binary_tensors (shapes (0,), (1,0,3), (), (20,), (812,),
(1029,917)), generate_elementwise_binary_noncontiguous_tensors (make_tensor
noncontiguous=True = repeat_interleave(2, -1)[..., ::2]; transposed (789,357);
[..., 0] of a (shape + (2,)) tensor; lhs[:, 1, ...] of (2,2,1,2); expand(3,-1,-1)
of (1,3), (1,7), (5,7)), generate_elementwise_binary_arbitrarily_strided_tensors
(as_strided views of a 500-element tensor, overlapping), 
generate_elementwise_binary_broadcasting_tensors, the small / large / extremal
value tensors (every pair of _float_vals, _large_float_vals, _large_int_vals,
inf/-inf/nan, as lhs x rhs) and their unary counterparts for neg; plus
test/test_torch.py test_tensoriterator_output_setup (fast setup for
contiguous, channels_last, same-permutation inputs, an out= with its own
strides, the non-fast setup), test_clone_zero_stride_dim,
test_clone_not_memory_dense, test_unfold_scalars,
test_unfold_all_devices_and_dtypes, test_fill_all_dtypes_and_devices.
"""
import itertools
import math
from pg import Prog, DTYPES, lst, ROOT

FLOAT_VALS = [0.0, -0.0, -.001, .001, -.25, .25, -1.0, 1.0, -math.pi / 2, math.pi / 2, -math.pi + .00001, math.pi - .00001,
              -math.pi, math.pi, -math.pi - .00001, math.pi + .00001]
LARGE_F16 = [-501, 501, -1001.2, 1001.2, -13437.7, 13437.7]
LARGE_F = LARGE_F16 + [-4988429.2, 4988429.2, -1e20, 1e20]
LARGE_INT = [-1113, 1113, -10701, 10701]
SMALL_INT = [0, -1, 1, -2, 2, -3, 3, 127, -128, 100, -100]
EXTREMAL = ["inf", "-inf", "nan"]


def fmt(v):
    if isinstance(v, str):
        return v
    r = repr(float(v))
    return "-0.0" if r == "-0.0" else r


def noncontig(p, shape, dt):
    """make_tensor(shape, noncontiguous=True): last dim stride 2."""
    if not shape:
        return p.make(shape, dt) if False else p.s(f"full [] 3 dtype={dt}")
    big = p.make(shape[:-1] + [shape[-1] * 2], dt)
    return p.s(f"slice {big} -1 none none 2")


for dt in DTYPES:
    p = Prog(f"{ROOT}/opinfo_elementwise_{dt}.prog", __doc__ + f"\nThis file: dtype {dt} (both operands; the value pairs also against float32 and int64).\n")
    p.c("generate_elementwise_binary_tensors")
    for shape in [[0], [1, 0, 3], [], [20], [812]]:  # (1029, 917): opinfo_elementwise_large.prog
        if 0 in shape:
            a = p.s(f"zeros {lst(shape)} dtype={dt}"); b = p.s(f"ones {lst(shape)} dtype={dt}")
        elif not shape:
            a = p.s(f"full [] 3 dtype={dt}"); b = p.s(f"full [] -2 dtype={dt}")
        else:
            a = p.make(shape, dt); b = p.make(shape, dt)
        p.s(f"add {a} {b}"); p.s(f"mul {a} {b}"); p.s(f"neg {a}")
        if shape != [1029, 917]:
            p.s(f"add_ {a} {b}", out=False); p.s(f"mul_ {a} {b}", out=False); p.s(f"sub_ {a} {b}", out=False); p.s(f"div_ {a} {b}", out=False)
    p.c("generate_elementwise_binary_noncontiguous_tensors")
    l = noncontig(p, [1026], dt); r = noncontig(p, [1026], dt)
    lc = p.s(f"clone {l}"); rc = p.s(f"clone {r}"); p.s(f"add {lc} {rc}"); p.s(f"mul {lc} {rc}")
    lcc = p.s(f"contiguous {l}"); p.s(f"add {lcc} {r}"); p.s(f"mul {lcc} {r}"); p.s(f"neg {l}")
    p.s(f"add_ {l} {r}", out=False); p.s(f"mul_ {lcc} {r}", out=False)
    l = p.make([789, 357], dt); r = p.make([789, 357], dt); lt = p.s(f"T {l}"); rt = p.s(f"T {r}")
    p.s(f"add {lt} {rt}"); p.s(f"mul {lt} {rt}"); p.s(f"add {lt} {r}") ; p.s(f"neg {lt}")
    for shape in [[5, 7], [1024]]:
        l = p.make(shape, dt); r = p.make(shape, dt)
        ln = p.s(f"zeros {lst(shape + [2])} dtype={dt}"); ln = p.s(f"select {ln} -1 0"); p.s(f"copy_ {ln} {l}", out=False)
        rn = p.s(f"zeros {lst(shape + [2])} dtype={dt}"); rn = p.s(f"select {rn} -1 0"); p.s(f"copy_ {rn} {r}", out=False)
        a = p.s(f"clone {ln}"); b = p.s(f"clone {rn}"); p.s(f"add {a} {b}"); p.s(f"mul {a} {b}")
        a = p.s(f"contiguous {ln}"); p.s(f"add {a} {rn}"); p.s(f"mul {a} {rn}"); p.s(f"neg {rn}")
    l = p.make([2, 2, 1, 2], dt); r = p.make([2, 2, 1, 2], dt)
    ln = p.s(f"select {l} 1 1"); rn = p.s(f"select {r} 1 1")
    a = p.s(f"clone {ln}"); b = p.s(f"clone {rn}"); p.s(f"add {a} {b}")
    a = p.s(f"contiguous {ln}"); p.s(f"add {a} {rn}"); p.s(f"mul {ln} {rn}")
    for shape in [[1, 3], [1, 7], [5, 7]]:
        l = p.make(shape, dt); r = p.make(shape, dt)
        le = p.s(f"expand {l} [3,-1,-1]"); re = p.s(f"expand {r} [3,-1,-1]")
        p.s(f"add {le} {re}"); p.s(f"mul {le} {re}"); p.s(f"neg {le}"); p.s(f"add_ {le} {re}", out=False)
    p.c("generate_elementwise_binary_arbitrarily_strided_tensors (and the unary one)")
    for shape, strides, off in [((5, 6, 2), (1, 1, 7), 2), ((5, 5, 4), (1, 1, 7), 2), ((5, 5, 2), (4, 5, 7), 3),
                                ((5, 5, 2), (5, 5, 7), 3), ((5, 5, 2), (5, 5, 5), 3), ((9, 5, 2), (0, 1, 7), 3)]:
        base = p.make([500], dt)
        a = p.s(f"as_strided {base} {lst(shape)} {lst(strides)} {off}")
        b = p.make(list(shape), dt)
        p.s(f"add {a} {b}"); p.s(f"mul {a} {b}"); p.s(f"neg {a}"); p.s(f"add {b} {a}"); p.s(f"clone {a}"); p.s(f"contiguous {a}")
        o = p.s(f"zeros {lst(shape)} dtype={dt}"); p.s(f"copy_ {o} {a}", out=False); p.s(f"add_ {o} {a}", out=False)
    p.c("generate_elementwise_binary_broadcasting_tensors, contiguous and not")
    for sl, sr in [((1,), ()), ((2,), ()), ((1,), (2,)), ((2, 1), (2,)), ((1, 2), (2,)), ((3, 2), (2,)), ((1, 3, 2), (2,)),
                   ((1, 3, 2), (3, 2)), ((3, 1, 2), (3, 2)), ((2, 3, 2), ()), ((3, 1, 2), (1, 3, 2))]:
        for nc in [True, False]:
            l = noncontig(p, list(sl), dt) if nc else (p.make(list(sl), dt) if sl else p.s(f"full [] 2 dtype={dt}"))
            r = noncontig(p, list(sr), dt) if nc else (p.make(list(sr), dt) if sr else p.s(f"full [] 2 dtype={dt}"))
            p.s(f"add {l} {r}"); p.s(f"mul {r} {l}")
            o = p.s(f"zeros [0] dtype={dt}"); p.s(f"add {l} {r} out={o}")
    p.c("small / large / extremal value tensors: every lhs x rhs pair")
    is_float = dt.startswith("float") or dt == "bfloat16"
    if is_float:
        vals = FLOAT_VALS + (LARGE_F16 if dt == "float16" else LARGE_F) + EXTREMAL
    elif dt == "bool":
        vals = ["true", "false"]
    elif dt in ("uint8", "int8"):
        vals = SMALL_INT
    else:
        vals = SMALL_INT + LARGE_INT
    vs = [fmt(v) for v in vals]
    lhs = ",".join(a for a, b in itertools.product(vs, vs))
    rhs = ",".join(b for a, b in itertools.product(vs, vs))
    L = p.s(f"tensor [{lhs}] dtype={dt}")
    R = p.s(f"tensor [{rhs}] dtype={dt}")
    p.s(f"add {L} {R}"); p.s(f"mul {L} {R}"); p.s(f"neg {L}")
    for other in ["float32", "int64", "float16", "bfloat16"]:
        R2 = p.s(f"to {R} dtype={other}")
        p.s(f"add {L} {R2}"); p.s(f"mul {R2} {L}")
    for op in ["add_", "sub_", "mul_", "div_"]:
        L2 = p.s(f"clone {L}"); p.s(f"{op} {L2} {R}", out=False)
    for v in vs[:12]:
        p.s(f"add {L} {v}"); p.s(f"mul {L} {v}")
        L3 = p.s(f"clone {L}"); p.s(f"div_ {L3} {v}", out=False)
        L4 = p.s(f"clone {L}"); p.s(f"clamp_ {L4} {v} none", out=False)
    p.c("test_fill_all_dtypes_and_devices: a 2-element and a 10000-element tensor, n in range(-bound, bound, bound // 10)")
    bound = 100 if dt in ("uint8", "int8") else 2000
    for x in [p.s(f"tensor [10,10] dtype={dt}"), p.s(f"zeros [10000] dtype={dt}")]:
        for n in range(-bound, bound, bound // 10):
            p.s(f"fill_ {x} {n}", out=False)
    p.c("test_unfold_all_devices_and_dtypes, test_unfold_scalars")
    x = p.s(f"zeros [0,1,3,0] dtype={dt}"); p.s(f"unfold {x} 2 3 2")
    s = p.s(f"full [] 1 dtype={dt}"); p.s(f"unfold {s} 0 0 1"); p.s(f"unfold {s} 0 0 2"); p.s(f"unfold {s} 0 1 1"); p.s(f"unfold {s} 0 2 1"); p.s(f"unfold {s} 1 1 1")
    p.write()

p = Prog(f"{ROOT}/opinfo_elementwise_large.prog", __doc__ + """
This file: generate_elementwise_binary_tensors' large 2-D case (1029, 917), past
the parallel grain size and through every vector width, for the dtypes with
their own kernels (kept apart: every step snapshots every live storage).
""")
for dt in ["float32", "float16", "bfloat16", "int64", "uint8", "bool", "float64"]:
    a = p.make([1029, 917], dt); b = p.make([1029, 917], dt)
    p.s(f"add {a} {b}"); p.s(f"mul {a} {b}"); p.s(f"neg {a}")
    p.s(f"add_ {a} {b}", out=False); p.s(f"mul_ {b} 3", out=False)
p.write()

p = Prog(f"{ROOT}/test_torch_tensoriterator_output_setup.prog", __doc__ + "\nThis file: test_tensoriterator_output_setup, test_clone_zero_stride_dim, test_clone_not_memory_dense.\n")
for dt in ["float32", "float64", "int32", "float16", "uint8"]:
    xr = p.make([2, 3, 4, 4], dt); yr = p.make([2, 3, 4, 4], dt)
    p.s(f"add {xr} {yr}")
    x = p.s(f"contiguous {xr} format=channels_last"); y = p.s(f"contiguous {yr} format=channels_last"); p.s(f"add {x} {y}"); p.s(f"mul {x} {y}")
    x = p.s(f"permute {xr} [0,2,3,1]"); y = p.s(f"permute {yr} [0,2,3,1]"); p.s(f"add {x} {y}")
    out = p.s(f"zeros_like {xr}"); out = p.s(f"permute {out} [0,3,2,1]"); p.s(f"add {x} {y} out={out}")
    y2 = p.s(f"permute {yr} [0,3,1,2]"); p.s(f"add {x} {y2}"); p.s(f"mul {y2} {x}")
    out2 = p.s(f"zeros [2,4,4,3] dtype={dt}"); p.s(f"add {x} {y2} out={out2}")
    xs = p.make([10], dt); ys = p.s(f"as_strided {xs} [2,1,5] [1,0,2]"); p.s(f"clone {ys}"); p.s(f"contiguous {ys}"); p.s(f"add {ys} {ys}")
    xn = p.make([10, 8], dt); xn = p.s(f"t {xn}"); xn = p.s(f"slice {xn} 0 none none 2"); xn = p.s(f"slice {xn} 1 none none 2")
    p.s(f"clone {xn}"); p.s(f"clone {xn} format=preserve"); p.s(f"add {xn} 1"); p.s(f"neg {xn}"); p.s(f"add {xn} {xn}")
p.write()
