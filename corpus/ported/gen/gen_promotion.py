import itertools
from pg import Prog, DTYPES, SIZE, lst, ROOT

FLOATS = ["float16", "bfloat16", "float32", "float64"]
INTS = ["uint8", "int8", "int16", "int32", "int64"]


def test_tensor(p, dt, shape=(5, 5, 5), nonzero=False):
    n = 1
    for s in shape:
        n *= s
    a = p.s(f"arange {n} dtype=int64")
    a = p.s(f"sub_ {a} {n // 2 - (0 if not nonzero else 0)}")
    if nonzero:
        # no zeros: odd numbers only
        a = p.s(f"mul_ {a} 2")
        a = p.s(f"add_ {a} 1")
    a = p.s(f"to {a} dtype={dt}")
    return p.s(f"view {a} {lst(shape)}")


# ---------------------------------------------------------------- many promotions
for op in ["add", "mul"]:
    p = Prog(f"{ROOT}/test_type_promotion_{op}.prog", f"""
Ported from PyTorch test/test_type_promotion.py, TestTypePromotion.test_many_promotions
for {op}: every pair of dtypes, contiguous and non-contiguous (first.transpose(0, 2),
second.transpose(2, 1)), each compared (by the harness) with LibTorch's result
dtype, strides and values. Inputs as _get_test_tensor: [5,5,5] of small signed
integers cast to the dtype.
""")
    for dt1 in DTYPES:
        p.c(f"first operand {dt1}")
        a = test_tensor(p, dt1)
        at = p.s(f"transpose {a} 0 2")
        for dt2 in DTYPES:
            b = test_tensor(p, dt2)
            bt = p.s(f"transpose {b} 2 1")
            p.s(f"{op} {a} {b}")
            p.s(f"{op} {at} {bt}")
    p.write()

# ---------------------------------------------------------------- scalars, wrapped numbers, 0-d
p = Prog(f"{ROOT}/test_type_promotion_scalars.prog", """
Ported from PyTorch test/test_type_promotion.py: test_unsinged (uint8 + 5 stays
uint8), test_int_promotion, test_float_promotion, test_add_wrapped,
test_int_to_float, test_from_issue (u + 1000 overflows in uint8; u + 5.5 is the
default float; a 0-d double tensor is not a wrapped number: u + other is double,
float + other stays float), test_half (half + 2.2), test_booleans (bool + bool,
bool + True), test_indexing (float + uint8 slice); for every dtype with int,
float, bool and out-of-range scalars, and with 0-d tensors of every dtype
(dimension category below tensor category).
""")
p.c("test_unsinged / test_from_issue")
u = p.s("tensor [0,0,1] dtype=uint8")
p.s(f"add {u} 5"); p.s(f"add {u} 1"); p.s(f"add {u} 1000"); p.s(f"add {u} 5.5"); p.s(f"add {u} -1"); p.s(f"mul {u} 300")
other = p.s("tensor 5.5 dtype=float64")
p.s(f"add {u} {other}")
a = p.s("tensor [0.5,0.25,1]"); p.s(f"mul {a} 5"); p.s(f"add {a} {other}")
p.c("test_int_promotion / test_float_promotion / test_add_wrapped / test_int_to_float")
a = p.s("ones [4,4,4] dtype=int32"); b = p.s("ones [4,4,4] dtype=int64"); p.s(f"add {a} {b}"); p.s(f"add {a} 1")
f = p.s("ones [4,4,4]"); d = p.s("ones [4,4,4] dtype=float64"); p.s(f"add {f} {d}"); p.s(f"add {d} {f}"); p.s(f"add {a} {f}")
p.c("test_half: half + 2.2, half + 100000 (inf), half + default tensor")
h = p.s("tensor 5.5 dtype=float16"); p.s(f"add {h} 2.2"); p.s(f"add {h} 100000"); dft = p.s("tensor 100000.0"); p.s(f"add {h} {dft}")
h1 = p.s("tensor [5.5,1] dtype=float16"); p.s(f"add {h1} 2.2"); p.s(f"add {h1} 100000"); p.s(f"mul {h1} 1e30")
p.c("test_booleans")
o = p.s("tensor [true]"); p.s(f"add {o} {o}"); p.s(f"add {o} true"); p.s(f"mul {o} false"); p.s(f"add {o} 1"); p.s(f"add {o} 1.5")
t0 = p.s("tensor true"); p.s(f"add {t0} {t0}")
p.c("test_indexing: float + uint8 slice")
tmp = p.s("ones [9,9]"); m = p.s("ones [10,10] dtype=uint8"); m = p.s(f"slice {m} 0 1 none 1"); m = p.s(f"slice {m} 1 1 none 1"); p.s(f"add {tmp} {m}")
p.c("test_transpose: bool t()")
bt = p.s("tensor [true,true,false,true]"); bt = p.s(f"view {bt} [2,2]"); btt = p.s(f"t {bt}"); p.s(f"add {btt} 0"); p.s(f"mul {btt} false")
p.c("every dtype with scalars: int, negative int, big int, float, bool, inf, nan")
for dt in DTYPES:
    x = test_tensor(p, dt, (2, 3))
    for s in ["1", "-1", "1000", "100000", "2.5", "-0.5", "true", "false", "inf", "nan", "1e40", "9223372036854775807"]:
        p.s(f"add {x} {s}")
        p.s(f"mul {x} {s}")
p.c("every dtype with a 0-d tensor of every dtype, both orders: dimension category < tensor category")
for dt1 in DTYPES:
    x = test_tensor(p, dt1, (2, 3))
    for dt2 in DTYPES:
        z = p.s(f"full [] 3 dtype={dt2}")
        p.s(f"add {x} {z}")
        p.s(f"mul {z} {x}")
        p.s(f"add {z} {z}")
p.write()

# ---------------------------------------------------------------- in-place and out=
p = Prog(f"{ROOT}/test_type_promotion_inplace_out.prog", """
Ported from PyTorch test/test_type_promotion.py: test_inplace (int.add_(1.5)
raises "can't be cast to"; int32.add_(int64) is fine; bool.add_(uint8) raises;
uint8 *= int16 demotes), test_alternate_result (add(f, f, out=long) raises,
out=double works), test_non_promoting_ops (neg(float, out=double)),
test_true_divide_inplace (div_ of integer tensors raises), test_true_divide
(tensor / tensor, tensor / scalar); then every (self dtype, other dtype) pair
for add_/sub_/mul_/div_/copy_ and every (input dtype, out dtype) pair for
add/mul/neg out=.
""")
p.c("test_inplace")
it = p.s("ones [4,4,4] dtype=int32"); p.s(f"add_ {it} 1.5", out=False)
lt = p.s("ones [4,4,4] dtype=int64"); p.s(f"add_ {it} {lt}", out=False); p.s(f"add_ {it} 1", out=False)
bt = p.s("tensor [1,1,1] dtype=bool"); u8 = p.s("tensor [1,1,1] dtype=uint8"); p.s(f"add_ {bt} {u8}", out=False)
i16 = p.s("tensor [1,1,1] dtype=int16"); p.s(f"mul_ {u8} {i16}", out=False)
p.c("test_alternate_result / test_non_promoting_ops")
f = p.s("tensor [1,1,1,1] dtype=float32"); o = p.s("tensor [0,0,0,0] dtype=int64"); p.s(f"add {f} {f} out={o}")
d = p.s("tensor [1,1,1,1] dtype=float64"); p.s(f"add {f} {f} out={d}")
x = p.s("ones [4] dtype=float64"); y = p.s("ones [4]"); p.s(f"neg {y} out={x}")
p.c("test_true_divide_inplace / test_true_divide (div_ is true division)")
for dt in DTYPES:
    a = test_tensor(p, dt, (5,))
    b = p.s("arange 5"); b = p.s(f"add_ {b} 1"); b = p.s(f"to {b} dtype={dt}")
    a2 = p.s(f"clone {a}")
    p.s(f"div_ {a2} {b}", out=False)
    a3 = p.s(f"clone {a}")
    p.s(f"div_ {a3} 2", out=False)
    a4 = p.s(f"to {a} dtype=float32"); p.s(f"div_ {a4} {b}", out=False)
p.c("in-place: every (self, other) dtype pair, tensor other and 0-d other")
for dt1 in DTYPES:
    for dt2 in DTYPES:
        a = test_tensor(p, dt1, (2, 3), nonzero=True)
        b = test_tensor(p, dt2, (2, 3), nonzero=True)
        z = p.s(f"full [] 2 dtype={dt2}")
        for op in ["add_", "sub_", "mul_", "div_"]:
            p.s(f"{op} {a} {b}", out=False)
            p.s(f"{op} {a} {z}", out=False)
        p.s(f"copy_ {a} {b}", out=False)
p.c("out=: every (input, out) dtype pair for add (tensor + tensor of the same dtype) and neg")
for dt1 in DTYPES:
    a = test_tensor(p, dt1, (2, 3))
    for dt2 in DTYPES:
        o1 = p.s(f"zeros [2,3] dtype={dt2}")
        p.s(f"add {a} {a} out={o1}")
        o2 = p.s(f"zeros [2,3] dtype={dt2}")
        p.s(f"neg {a} out={o2}")
        o3 = p.s(f"zeros [2,3] dtype={dt2}")
        p.s(f"mul {a} 2.5 out={o3}")
p.write()
