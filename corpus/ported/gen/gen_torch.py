import itertools
from pg import Prog, DTYPES, SIZE, lst, ROOT

# ---------------------------------------------------------------- memory formats
p = Prog(f"{ROOT}/test_torch_memory_format.prog", """
Ported from PyTorch test/test_torch.py (TestTorchDeviceType):
test_memory_format_propagation_rules (contiguous / channels_last / ambiguous
[10,3,1,1] / bias [1,1,1,1] operands of add, both orders, and with out=),
test_memory_format_clone and test_memory_format_to / _type_shortcuts via
_test_memory_format_transformations (channels_last [4,3,8,8] and
channels_last_3d [4,3,8,8,8]: preserve on a non-dense [..., ::2, ::2] slice,
contiguous_format, the default; preserve keeps the strides of a randomly
permuted 7-d tensor), test_memory_format_factory_like_functions_preserve
(empty_like / zeros_like), test_memory_format_preserved_after_permute,
test_memory_format_contiguous_returns_same_tensor_if_already_satisfies,
test_memory_format_operators (add/mul/neg with channels_last operands and
contiguous ones), test_memory_format_empty_like (its errors on non-4-d inputs).
""")
p.c("test_memory_format_propagation_rules")
con = p.make([10, 3, 5, 5])
cl = p.make([10, 3, 5, 5]); cl = p.s(f"contiguous {cl} format=channels_last")
amb = p.make([10, 3, 1, 1]); amb = p.s(f"contiguous {amb} format=channels_last")
bias = p.s("ones [1,1,1,1]"); bias = p.s(f"contiguous {bias} format=channels_last")
for a, b in [(amb, con), (con, amb), (amb, cl), (cl, amb), (bias, cl), (cl, bias), (bias, con), (con, bias)]:
    p.s(f"add {a} {b}")
    p.s(f"mul {a} {b}")
    o = p.s("zeros [0]")
    p.s(f"add {a} {b} out={o}")
p.c("the same with the 3-d formats")
con5 = p.make([4, 3, 5, 5, 5])
cl5 = p.make([4, 3, 5, 5, 5]); cl5 = p.s(f"contiguous {cl5} format=channels_last_3d")
amb5 = p.make([4, 3, 1, 1, 1]); amb5 = p.s(f"contiguous {amb5} format=channels_last_3d")
for a, b in [(amb5, con5), (con5, amb5), (amb5, cl5), (cl5, amb5)]:
    p.s(f"add {a} {b}")

for fmt, shape in [("channels_last", [4, 3, 8, 8]), ("channels_last_3d", [4, 3, 8, 8, 8])]:
    p.c(f"_test_memory_format_transformations for {fmt} {shape}: clone, to(dtype), empty_like, zeros_like")
    for op in ["clone {x}", "to {x} dtype=float64", "to {x} dtype=float16", "empty_like {x}", "zeros_like {x}", "to {x} dtype=int32"]:
        xc = p.make(shape); xc = p.s(f"contiguous {xc} format={fmt}")
        sl = p.s(f"slice {xc} -1 none none 2"); sl = p.s(f"slice {sl} -2 none none 2")
        for r in [op.format(x=sl) + " format=preserve", op.format(x=xc) + " format=contiguous", op.format(x=xc),
                  op.format(x=xc) + f" format={fmt}", op.format(x=sl) + " format=contiguous"]:
            v = p.s(r)
            if op.startswith("empty_like"):
                p.s(f"zero_ {v}", out=False)
    x = p.make([3, 4, 5, 6, 7, 8, 9], "float32")
    for perm in [[6, 0, 3, 1, 5, 2, 4], [1, 0, 2, 3, 4, 6, 5], [4, 5, 6, 0, 1, 2, 3], [2, 6, 1, 5, 0, 4, 3]]:
        x = p.s(f"permute {x} {lst(perm)}")
        p.s(f"clone {x} format=preserve")
        el = p.s(f"empty_like {x}")
        p.s(f"zero_ {el}", out=False)
        p.s(f"to {x} dtype=float64 format=preserve")
p.c("channels_last_3d / channels_last requested for the wrong rank: errors")
x3 = p.make([2, 3, 4])
for fmt in ["channels_last", "channels_last_3d"]:
    p.s(f"contiguous {x3} format={fmt}"); p.s(f"clone {x3} format={fmt}"); v = p.s(f"empty_like {x3} format={fmt}"); p.s(f"zero_ {v}", out=False); p.s(f"zeros_like {x3} format={fmt}"); p.s(f"to {x3} format={fmt}")
x4 = p.make([2, 3, 4, 5])
p.s(f"contiguous {x4} format=channels_last_3d"); p.s(f"clone {x4} format=channels_last_3d"); v = p.s(f"empty_like {x4} format=channels_last_3d"); p.s(f"zero_ {v}", out=False)
x5 = p.make([2, 3, 4, 5, 6])
p.s(f"contiguous {x5} format=channels_last"); p.s(f"clone {x5} format=channels_last"); v = p.s(f"empty_like {x5} format=channels_last"); p.s(f"zero_ {v}", out=False)
p.s(f"contiguous {x4} format=preserve")
p.c("test_memory_format_preserved_after_permute")
x = p.make([4, 3, 8, 8]); nhwc = p.s(f"contiguous {x} format=channels_last")
y = p.s(f"permute {nhwc} [0,1,3,2]"); y = p.s(f"permute {y} [0,1,3,2]")
x = p.make([4, 3, 8, 8, 8]); ndhwc = p.s(f"contiguous {x} format=channels_last_3d")
y = p.s(f"permute {ndhwc} [0,1,4,3,2]"); y = p.s(f"permute {y} [0,1,4,3,2]")
p.c("test_memory_format_contiguous_returns_same_tensor_if_already_satisfies")
x = p.make([10, 3, 32, 32]); x = p.s(f"permute {x} [0,2,3,1]"); alias = p.s(f"contiguous {x}"); alias = p.s(f"permute {x} [0,3,1,2]")
p.s(f"contiguous {alias} format=channels_last"); p.s(f"fill_ {alias} 7", out=False)
x = p.make([4, 8, 8, 8, 3]); x = p.s(f"permute {x} [0,4,1,2,3]"); p.s(f"contiguous {x} format=channels_last_3d")
p.c("test_memory_format_operators: binary ops with channels_last and contiguous operands, 4-d and 5-d, and neg")
for fmt, shape in [("channels_last", [4, 3, 8, 8]), ("channels_last_3d", [4, 3, 8, 8, 8])]:
    xc = p.make(shape); yc = p.make(shape)
    xn = p.s(f"contiguous {xc} format={fmt}"); yn = p.s(f"contiguous {yc} format={fmt}")
    for a, b in [(xn, yn), (xc, yn), (xn, yc), (xc, yc)]:
        p.s(f"add {a} {b}"); p.s(f"mul {a} {b}")
    p.s(f"add {xn} 3"); p.s(f"mul {xn} 2.5"); p.s(f"neg {xn}")
    p.s(f"add_ {xn} {yc}", out=False); p.s(f"mul_ {xc} {yn}", out=False); p.s(f"copy_ {xc} {yn}", out=False)
    o = p.s(f"zeros {lst(shape)}"); p.s(f"add {xn} {yn} out={o}")
    o = p.s("zeros [1]"); p.s(f"add {xn} {yn} out={o}")
    o = p.s("zeros [1]"); p.s(f"neg {xn} out={o}")
p.write()

# ---------------------------------------------------------------- strides propagation
p = Prog(f"{ROOT}/test_torch_strides_propagation.prog", """
Ported from PyTorch test/test_torch.py, TestTorchDeviceType.test_strides_propagation:
for a dense [2,3,4], a sliced [2,3,8][:, :, ::2] and an ambiguous sliced
[1,1,4,12][..., ::2], every permutation xp; add(xp, xp), add(xp, y), add(y, xp)
with y of size xp.size(-1), each also with out=empty(0) (resized by the op);
neg(xp) for the unary case (the test's exp). Result strides must follow xp's.
""")
for shape, sl in [([2, 3, 4], None), ([2, 3, 8], 2), ([1, 1, 4, 12], 3)]:
    x = p.make(shape)
    if sl is not None:
        x = p.s(f"slice {x} {sl} none none 2")
        shape = shape[:-1] + [shape[-1] // 2]
    for perm in itertools.permutations(range(len(shape))):
        xp = p.s(f"permute {x} {lst(perm)}")
        y = p.s(f"arange {shape[perm[-1]]}")
        for a, b in [(xp, xp), (xp, y), (y, xp)]:
            p.s(f"add {a} {b}")
            o = p.s("zeros [0]")
            p.s(f"add {a} {b} out={o}")
        p.s(f"neg {xp}")
        o = p.s("zeros [0]")
        p.s(f"neg {xp} out={o}")
        p.s(f"clone {xp}")
        el = p.s(f"empty_like {xp}")
        p.s(f"zero_ {el}", out=False)
        p.s(f"add {xp} 1")
p.write()

# ---------------------------------------------------------------- copy
p = Prog(f"{ROOT}/test_torch_copy.prog", """
Ported from PyTorch test/test_torch.py: test_copy_broadcast, test_copy_many_to_one,
test_copy_float16 (every (out_shape, src_shape, is_ok) case with out/src dtypes
float32<-float16, float16<-float32, float32<-float32), test_copy_transpose (a
transposed 100x100 copied into float32 / float64 / every dtype), test_copy_mem_overlap
(check_internal_mem_overlap: copy_ into expand(3,3) of one element;
unary_check_input_output_mem_overlap: identical, independent and partially
overlapping data[0:9] / data[1:10]), test_copy_all_dtypes_and_devices,
test_copy_dtypes (every dtype pair, contiguous and transposed).
""")
p.c("test_copy_broadcast / test_copy_many_to_one")
z = p.s("zeros [5,6]"); s = p.s("arange 6"); p.s(f"copy_ {z} {s}", out=False)
s30 = p.s("zeros [30]"); p.s(f"copy_ {z} {s30}", out=False)
o = p.s("zeros [1,6]"); e = p.s(f"expand {o} [5,6]"); s56 = p.s("ones [5,6]"); p.s(f"copy_ {e} {s56}", out=False)
p.c("test_copy_float16")
cases = [((1, 2, 3), (0, 2, 3)), ((1, 5, 6), (4, 5, 6)), ((1,), (0, 2, 3)), ((4, 5, 6), (0, 2, 3)), ((4, 5, 6), (1, 2, 3)),
         ((4, 5, 6), (6, 5, 4)), ((4, 5, 6), (1, 5, 6)), ((4, 5, 6), (4, 5, 6)), ((0, 2, 3), (1,)), ((4, 5, 6), (4, 5, 1))]
for out_shape, src_shape in cases:
    for od, sd in [("float32", "float16"), ("float16", "float32"), ("float32", "float32"), ("bfloat16", "float32"), ("float32", "bfloat16")]:
        out = p.s(f"zeros {lst(out_shape)} dtype={od}")
        src = p.s(f"ones {lst(src_shape)} dtype={sd}")
        p.s(f"copy_ {out} {src}", out=False)
p.c("test_copy_transpose: 100x100 transposed into every dtype; also 37x53 and 1024x3")
for n, m in [(100, 100), (37, 53), (1024, 3)]:
    x = p.s(f"arange {n * m}"); x = p.s(f"view {x} [{n},{m}]"); xt = p.s(f"t {x}")
    for d in DTYPES:
        y = p.s(f"zeros [{m},{n}] dtype={d}"); p.s(f"copy_ {y} {xt}", out=False)
        xd = p.s(f"to {x} dtype={d}"); xdt = p.s(f"t {xd}")
        y2 = p.s(f"zeros [{m},{n}] dtype={d}"); p.s(f"copy_ {y2} {xdt}", out=False)
        p.s(f"contiguous {xdt}")
p.c("test_copy_mem_overlap")
for d in ["float32", "float64", "int64", "float16"]:
    one = p.s(f"full [1] 3 dtype={d}"); inp = p.s(f"expand {one} [3,3]"); other = p.s(f"ones [3,3] dtype={d}")
    p.s(f"copy_ {inp} {other}", out=False)
    data = p.s(f"arange 18 dtype={d}")
    a = p.s(f"slice {data} 0 0 9 1"); p.s(f"copy_ {a} {a}", out=False)
    b = p.s(f"slice {data} 0 9 18 1"); p.s(f"copy_ {a} {b}", out=False)
    c = p.s(f"slice {data} 0 1 10 1"); p.s(f"copy_ {a} {c}", out=False); p.s(f"copy_ {c} {a}", out=False)
p.c("test_copy_dtypes / test_copy_all_dtypes_and_devices: every dtype pair, contiguous and transposed sources, with values that overflow the narrow types")
for sd in DTYPES:
    src = p.s("tensor [-300.5,-1.5,-1,0,0.5,1,127.5,128,255,256,65504,70000]")
    src = p.s(f"view {src} [3,4]")
    src = p.s(f"to {src} dtype={sd}")
    st = p.s(f"t {src}")
    for dd in DTYPES:
        o = p.s(f"zeros [3,4] dtype={dd}"); p.s(f"copy_ {o} {src}", out=False)
        o2 = p.s(f"zeros [4,3] dtype={dd}"); p.s(f"copy_ {o2} {st}", out=False)
p.write()

# ---------------------------------------------------------------- mem overlap for the ufuncs
p = Prog(f"{ROOT}/test_binary_ufuncs_mem_overlap.prog", """
Ported from PyTorch test/test_binary_ufuncs.py test_binary_op_mem_overlap (add,
mul, sub, div) and test/test_unary_ufuncs.py (neg, clamp): check_internal_mem_overlap
(the in-place op on expand(3,3) of one element: "unsupported operation: more than
one element of the written-to tensor refers to a single memory location"),
binary_check_input_output_mem_overlap / unary_check_input_output_mem_overlap
(out identical to an input, independent, partially overlapping: "unsupported
operation: some elements of the input tensor and the written-to tensor refer to a
single memory location. Please clone() the tensor before performing the operation.")
for every dtype.
""")
for d in DTYPES:
    p.c(f"dtype {d}")
    one = p.s(f"full [1] 1 dtype={d}"); inp = p.s(f"expand {one} [3,3]"); other = p.s(f"ones [3,3] dtype={d}")
    for op in ["add_", "sub_", "mul_", "div_"]:
        p.s(f"{op} {inp} {other}", out=False)
        p.s(f"{op} {inp} 1", out=False)
    p.s(f"clamp_ {inp} 0 1", out=False); p.s(f"fill_ {inp} 1", out=False); p.s(f"zero_ {inp}", out=False)
    data = p.s(f"arange 6 dtype={d}") if d != "bool" else p.s("ones [6] dtype=bool")
    oth = p.s(f"ones [3] dtype={d}")
    a = p.s(f"slice {data} 0 0 3 1"); b = p.s(f"slice {data} 0 3 6 1"); c = p.s(f"slice {data} 0 1 4 1")
    for op in ["add", "mul"]:
        for inp_, out_ in [(a, a), (b, a), (c, a), (a, c)]:
            p.s(f"{op} {oth} {inp_} out={out_}")
            p.s(f"{op} {inp_} {oth} out={out_}")
            p.s(f"{op} {inp_} {inp_} out={out_}")
    for inp_, out_ in [(a, a), (b, a), (c, a), (a, c)]:
        p.s(f"neg {inp_} out={out_}")
    for op in ["add_", "sub_", "mul_", "div_", "copy_"]:
        p.s(f"{op} {a} {c}", out=False)
        p.s(f"{op} {a} {a}", out=False)
        p.s(f"{op} {a} {b}", out=False)
p.write()
