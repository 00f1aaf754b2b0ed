"""Which error wins when several apply: every pair (and the triple) of error
conditions of one call. A held-out program that hits two checks sees the one
LibTorch runs first; the engine must run its checks in the same order.

The conditions come from PyTorch's tests of each check (test_binary_ufuncs
test_binary_op_mem_overlap / check_internal_mem_overlap, test_type_promotion
test_inplace / test_alternate_result, test_torch test_copy_many_to_one /
test_copy_broadcast, test_view_ops test_view / test_view_dtype_upsize_errors,
error_inputs_narrow_narrow_copy, error_inputs_view_reshape) and TensorIterator's
build() order in aten/src/ATen/TensorIterator.cpp (mem overlap, shape,
resize, types) and TensorShape.cpp's checks.
"""
import itertools
from pg import Prog, lst, ROOT

p = Prog(f"{ROOT}/error_order_elementwise.prog", __doc__ + """
This file: in-place ops, copy_, and out= ops. Conditions: self/out has internal
overlap (expanded); self/out partially overlaps an input; other does not
broadcast to self's shape; self is smaller than the broadcast shape; result
dtype can't be cast to self/out; bool subtraction; integer true division;
wrong-shape out (resized, with a warning), out that is an input.
""")


def self_variants(p, dt):
    """(description, tensor) candidates for self/out."""
    out = []
    base = p.s(f"zeros [1,4] dtype={dt}")
    out.append(("internal overlap", p.s(f"expand {base} [3,4]")))
    big = p.s(f"arange 16 dtype={dt}")
    out.append(("plain", p.s(f"zeros [3,4] dtype={dt}")))
    out.append(("small", p.s(f"zeros [4] dtype={dt}")))
    out.append(("part of big", p.s(f"as_strided {big} [3,4] [4,1] 0")))
    out.append(("0-d", p.s(f"full [] 1 dtype={dt}")))
    return out, big


for sdt in ["int64", "bool", "float32"]:
    for odt in ["float32", "int64", "bool"]:
        p.c(f"self {sdt}, other {odt}")
        selfs, big = self_variants(p, sdt)
        others = [
            ("fits", p.s(f"ones [3,4] dtype={odt}")),
            ("no broadcast", p.s(f"ones [5] dtype={odt}")),
            ("bigger", p.s(f"ones [2,3,4] dtype={odt}")),
            ("overlaps self", p.s(f"as_strided {big} [3,4] [4,1] 1") if sdt == odt else p.s(f"ones [3,4] dtype={odt}")),
            ("0-d", p.s(f"full [] 2 dtype={odt}")),
        ]
        for (_, s), (_, o) in itertools.product(selfs, others):
            for op in ["add_", "sub_", "mul_", "div_", "copy_"]:
                p.s(f"{op} {s} {o}", out=False)
            p.s(f"add {o} {o} out={s}")
            p.s(f"mul {o} 2.5 out={s}")
            p.s(f"neg {o} out={s}")
            p.s(f"add {s} {o} out={s}")
        for _, s in selfs:
            for v in ["1", "2.5", "true", "nan"]:
                for op in ["add_", "sub_", "div_", "clamp_", "fill_"]:
                    p.s(f"{op} {s} {v}", out=False)
p.write()

p = Prog(f"{ROOT}/error_order_views.prog", __doc__ + """
This file: view ops whose arguments are wrong in two ways at once: a view
size that is both invalid and not viewable, two -1 and a bad numel, a negative
size with -1; narrow with a bad dim and a bad start; select on a 0-d tensor with
a bad dim; view(dtype) upsizing with a 0-d input and bad strides and offsets;
unfold with bad dim and size and step; diagonal with same dims out of range;
as_strided with negative sizes and strides and offset together; expand with
fewer dims and negative sizes; permute with wrong length and repeats;
split/chunk with bad dim and bad size; flatten on 0-d with bad dims.
""")
a = p.make([2, 3, 4]); at = p.s(f"transpose {a} 0 2")
z = p.s("full [] 2")
e = p.s("zeros [0,4]")
xs = [a, at, z, e]
for x in xs:
    for vs in [[-1, -1, 5], [-2, -1], [5, -1, 0], [0, -1], [-1, 7], [25], [-3, 8], [4, 6], [2, 12], [-9223372036854775808, 1],
               [4611686018427387904, 4611686018427387904], [-1, 0, 0]]:
        p.s(f"view {x} {lst(vs)}")
        p.s(f"reshape {x} {lst(vs)}")
    for d, st, ln in [(5, 10, -1), (-5, 0, 0), (0, -10, 100), (0, 100, -1), (0, 1, -2), (2, 4, 1), (2, 5, 0), (0, -9223372036854775808, 1),
                      (0, 9223372036854775807, 9223372036854775807)]:
        p.s(f"narrow {x} {d} {st} {ln}")
    for d, i in [(5, 10), (-4, 0), (0, -10), (2, 4), (3, 0), (0, -9223372036854775808)]:
        p.s(f"select {x} {d} {i}")
    for d, sz, st in [(5, -1, 0), (0, -1, 0), (0, 100, -1), (0, 0, 0), (3, 1, 1), (-4, 2, 1), (0, 3, 0), (2, 5, -5)]:
        p.s(f"unfold {x} {d} {sz} {st}")
    for off, d1, d2 in [(0, 5, 5), (0, 0, 0), (100, 0, 5), (-9223372036854775808, 0, 1), (9223372036854775807, 1, 0)]:
        p.s(f"diagonal {x} {off} {d1} {d2}")
    for sz, st, off in [([-1], [-1], -1), ([2, -2], [1], 0), ([3], [-1], 100), ([2], [1], -5), ([100], [100], 0), ([-1, 2], [1, -1], 0)]:
        p.s(f"as_strided {x} {lst(sz)} {lst(st)} {off}")
    for sz in [[-1], [-2, 3], [], [3, -1, -1, -1, -1], [0, -1, 3, 4], [-1, 2, 3, 4]]:
        p.s(f"expand {x} {lst(sz)}")
    for pm in [[0, 0, 5], [3, 2, 1, 0], [0], [-4, 0, 1], [0, 0]]:
        p.s(f"permute {x} {lst(pm)}")
    for k, d in [(-1, 5), (0, 5), (0, 0), (-5, 0), (2, -4)]:
        p.s(f"split {x} {k} {d}")
        p.s(f"chunk {x} {k} {d}")
        p.s(f"split {x} [1,-1] {d}")
    for s, e2 in [(5, 0), (0, 5), (2, 0), (-4, -5), (1, 0)]:
        p.s(f"flatten {x} {s} {e2}")
    for d, sz in [(5, []), (0, []), (0, [-1, -1]), (3, [1, 1]), (0, [5, 5])]:
        p.s(f"unflatten {x} {d} {lst(sz)}")
    for dt in ["float64", "int16", "uint8"]:
        s1 = p.s(f"slice {x} -1 1 none 2") if x not in (z,) else x
        p.s(f"view {s1} dtype={dt}")
p.write()
