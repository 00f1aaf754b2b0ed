"""Scalar arguments over their whole domain, for every dtype.

Ported from PyTorch's test/test_tensor_creation_ops.py (test_full_inference,
test_full_out, test_tensor_factory_type_inference, test_tensor_factories_empty,
test_fill_all_dtypes_and_devices), test/test_torch.py (test_fill_diagonal style
fill_ calls, test_scalar_check), test/test_binary_ufuncs.py
(test_add_with_tail_overflow-ish scalar ranges, test_int_and_float_pow-like
scalar promotion, test_binary_ops_with_scalars, test_wrapped_number_promotion)
and c10/util/TypeCast.h / ScalarOps' checked_convert: "value cannot be converted
to type X without overflow".
"""
from pg import Prog, DTYPES, lst, ROOT

VALUES = ["0", "1", "-1", "127", "128", "-128", "-129", "255", "256", "32767", "32768", "-32769", "65504", "65520", "65536",
          "2147483647", "2147483648", "-2147483649", "9007199254740993", "9223372036854775807", "-9223372036854775808",
          "0.5", "-0.5", "2.5", "1e-40", "3.4028234663852886e38", "3.5e38", "1e300", "inf", "-inf", "nan", "true", "false",
          "-0.0", "1.0000001", "65519.99", "3.3895313892515355e38"]

for part, dts in [("ints", ["bool", "uint8", "int8", "int16", "int32", "int64"]), ("floats", ["float16", "bfloat16", "float32", "float64"])]:
    p = Prog(f"{ROOT}/scalars_fill_full_{part}.prog", __doc__ + f"""
This file: full, fill_, tensor and zero_ for {', '.join(dts)}, every value in
the boundary list (each dtype's limits and one past them, 2^31, 2^53 + 1,
int64's limits, tiny and huge floats, inf, nan, -0.0, bools).
""")
    for d in dts:
        p.c(f"dtype {d}")
        t = p.s(f"zeros [3] dtype={d}")
        tt = p.s(f"zeros [2,3] dtype={d}")
        col = p.s(f"select {tt} 1 1")
        for v in VALUES:
            p.s(f"full [2] {v} dtype={d}")
            p.s(f"fill_ {t} {v}", out=False)
            p.s(f"fill_ {col} {v}", out=False)
            p.s(f"tensor {v} dtype={d}")
            p.s(f"tensor [{v},1] dtype={d}")
        p.s(f"zero_ {t}", out=False)
    p.write()

p = Prog(f"{ROOT}/scalars_inference.prog", __doc__ + """
This file: dtype inference of full and tensor from the value alone
(test_full_inference: full(size, True) is bool, full(size, 1) is int64,
full(size, 1.) is the default float; test_tensor_factory_type_inference),
fill_ with 0-d tensors of every dtype and its errors ("fill_ only supports
0-dimension value tensor but got tensor with 1 dimensions"), fill_ from a view
of the same storage.
""")
for v in VALUES:
    p.s(f"full [2] {v}")
    p.s(f"tensor {v}")
    p.s(f"tensor [{v}]")
for vs in ["[]", "[1,2.5]", "[true,1]", "[true,false]", "[1,-1]", "[nan,1]", "[9223372036854775807,1.5]"]:
    p.s(f"tensor {vs}")
    p.s(f"tensor {vs} dtype=int8")
p.s("full [] 1"); p.s("full [0] 1.5"); p.s("full [-1] 1"); p.s("full [2,-3] 1"); p.s("zeros [-1]"); p.s("ones [0,-2]")
for d in DTYPES:
    t = p.s(f"zeros [4] dtype={d}")
    for d2 in DTYPES:
        z = p.s(f"full [] 300 dtype={d2}") if d2 not in ("bool",) else p.s(f"full [] true dtype={d2}")
        p.s(f"fill_ {t} {z}", out=False)
    one = p.s(f"ones [1] dtype={d}"); p.s(f"fill_ {t} {one}", out=False)
    two = p.s(f"ones [2] dtype={d}"); p.s(f"fill_ {t} {two}", out=False)
    e0 = p.s(f"zeros [0] dtype={d}"); p.s(f"fill_ {t} {e0}", out=False)
    s0 = p.s(f"select {t} 0 2"); p.s(f"fill_ {t} {s0}", out=False)
    p.s(f"fill_ {s0} {s0}", out=False)
p.write()

for part, ops in [("inplace", ["add_", "sub_", "mul_", "div_"]), ("outplace", ["add", "mul"])]:
    p = Prog(f"{ROOT}/scalars_arith_{part}.prog", __doc__ + f"""
This file: {', '.join(ops)} of every dtype with every boundary scalar (wrapped
numbers: they take part in type promotion only by category; in-place results
must be castable to self's dtype: "result type Float can't be cast to the
desired output type Long"; bool subtraction: "Subtraction, the `-` operator, with
a bool tensor is not supported"; integer division by zero: "ZeroDivisionError").
""")
    for d in DTYPES:
        p.c(f"dtype {d}")
        for v in VALUES:
            for op in ops:
                if op.endswith("_"):
                    t = p.s(f"tensor [0,1,-1,100,-100,7] dtype={d}")
                    p.s(f"{op} {t} {v}", out=False)
                else:
                    t = p.s(f"tensor [0,1,-1,100,-100,7] dtype={d}")
                    p.s(f"{op} {t} {v}")
    p.write()

p = Prog(f"{ROOT}/scalars_clamp_neg.prog", __doc__ + """
This file: clamp_ of every dtype with every boundary bound as min and as max
(test_unary_ufuncs / test_shape_ops test_clamp*; clamp of an integer tensor by a
floating bound "result type Float can't be cast to the desired output type";
bool clamp), and neg of every dtype (neg of bool: "Negation, the `-` operator, on
a bool tensor is not supported. If you are trying to invert a mask, use the `~`
or `logical_not()` operator instead."), with out= of every dtype.
""")
for d in DTYPES:
    p.c(f"dtype {d}")
    for v in VALUES:
        t = p.s(f"tensor [0,1,-1,100,-100,7] dtype={d}")
        p.s(f"clamp_ {t} {v}", out=False)
        t = p.s(f"tensor [0,1,-1,100,-100,7] dtype={d}")
        p.s(f"clamp_ {t} none {v}", out=False)
        t = p.s(f"tensor [0,1,-1,100,-100,7] dtype={d}")
        p.s(f"clamp_ {t} {v} -1", out=False)
    t = p.s(f"tensor [0,1,-1,100,-100,7,127,-128,255] dtype={d}")
    p.s(f"neg {t}")
    for d2 in DTYPES:
        o = p.s(f"zeros [9] dtype={d2}")
        p.s(f"neg {t} out={o}")
p.write()
