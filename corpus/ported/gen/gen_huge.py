"""Huge sizes, strides, offsets and arguments: the int64 boundary of every op.

Ported from PyTorch test/test_view_ops.py test_resize_overflow ("Storage size
calculation overflowed"), test/test_torch.py test_storage_size_overflow-style
checks, test/test_tensor_creation_ops.py test_empty_overflow / test_large_linspace-style
size limits, and the SymInt arithmetic of TensorShape.cpp (sizes and strides are
SymInts: products wrap in int64, checks compare the wrapped values;
c10/core/SymInt.h, c10/util/safe_numerics.h). Every tensor here has zero
elements or is a stride-0 view of one element, so nothing large is allocated.
"""
from pg import Prog, lst, ROOT

H = 4611686018427387904  # 2^62
M = 9223372036854775807  # int64 max
N = -9223372036854775808
B = 2147483648  # 2^31
HUGE = [H, M, N, B, 4294967296, 3037000500, H + 1, M - 1, -H]

p = Prog(f"{ROOT}/huge_views.prog", __doc__ + """
This file: zero-numel tensors with huge other dims and one-element tensors
expanded to huge sizes, through every view op with ordinary and huge arguments.
""")
bases = []
p.c("bases")
bases.append((p.s(f"zeros [0,{H},4]"), 3))
bases.append((p.s(f"zeros [{H},0]"), 2))
bases.append((p.s(f"empty_strided [0,{B},{B}] [1,1,1]"), 3))
one = p.s("ones [1]")
bases.append((p.s(f"expand {one} [{H}]"), 1))
bases.append((p.s(f"as_strided {one} [{B},{B},4] [0,0,0] 0"), 3))
z1 = p.s("zeros [1,0]")
bases.append((p.s(f"expand {z1} [{M},0]"), 2))
bases.append((p.s(f"as_strided {z1} [0,{H}] [{H},{H}] 0"), 2))
for x, n in bases:
    for h in [H, M, N, B, -1, 0, 1, 3]:
        for d in [0, n - 1]:
            p.s(f"select {x} {d} {h}")
            p.s(f"narrow {x} {d} {h} 1")
            p.s(f"narrow {x} {d} 0 {h}")
            p.s(f"slice {x} {d} {h} none 1")
            p.s(f"slice {x} {d} none {h} 1")
            p.s(f"slice {x} {d} 0 none {h}")
            p.s(f"unfold {x} {d} {h} 1")
            p.s(f"unfold {x} {d} 1 {h}")
            if h in (H, M, 0, -1):  # few pieces (or an error); a small split of a huge dim is over the budget
                p.s(f"split {x} {h} {d}")
            if h in (0, 1, 3, -1):
                p.s(f"chunk {x} {h} {d}")
            p.s(f"diagonal {x} {h} 0 {n - 1}")
    p.s(f"flatten {x}")
    p.s(f"flatten {x} 0 1")
    p.s(f"reshape {x} [-1]")
    p.s(f"view {x} [-1]")
    p.s(f"reshape {x} [0,-1]")
    p.s(f"view {x} [-1,2]")
    for h in HUGE:
        p.s(f"view {x} [{h},-1]")
        p.s(f"reshape {x} [-1,{h}]")
        p.s(f"expand {x} [{h}" + ",-1" * n + "]")
        p.s(f"unflatten {x} 0 [{h},-1]")
        p.s(f"unflatten {x} -1 [-1,{h}]")
        p.s(f"as_strided {x} [{h}] [{h}] 0")
        p.s(f"as_strided {x} [0,{h}] [{h},1] {h}")
        p.s(f"unsqueeze {x} 0")
    p.s(f"t {x}") if n <= 2 else p.s(f"transpose {x} 0 2")
    p.s(f"mT {x}")
    p.s(f"T {x}")
    p.s(f"permute {x} {lst(list(reversed(range(n))))}")
    p.s(f"movedim {x} 0 -1")
    p.s(f"squeeze {x}")
    p.s(f"unbind {x} 0") if x in (bases[0][0], bases[2][0], bases[6][0]) else None
    p.s(f"view {x} dtype=uint8")
    p.s(f"view {x} dtype=float64")
    p.s(f"view {x} dtype=int16")
    p.s(f"diagonal {x}") if n >= 2 else None
    if x in (bases[3][0], bases[4][0]):
        continue  # huge numel: the data ops would be over the budget
    p.s(f"fill_ {x} 2", out=False)
    p.s(f"zero_ {x}", out=False)
    p.s(f"add_ {x} 1", out=False)
    p.s(f"contiguous {x}")
    p.s(f"clone {x}")
    p.s(f"empty_like {x}")
    p.s(f"zeros_like {x}")
    p.s(f"neg {x}")
    p.s(f"add {x} {x}")
    p.s(f"repeat {x}" + " " + lst([1] * n))
    p.s(f"repeat {x}" + " " + lst([0] + [H] * n))
    p.s(f"flip {x} [0]")
    p.s(f"index_select {x} 0 []")
    p.s(f"to {x} dtype=float64")
p.c("creation at the boundary")
for h in HUGE:
    p.s(f"zeros [0,{h}]")
    p.s(f"zeros [{h},{h},0]")
    p.s(f"empty_strided [0,{h}] [{h},{h}]")
    p.s(f"empty_strided [1,{h}] [0,0]")
    p.s(f"full [0,{h},{h}] 1")
    if h < 0:  # negative sizes raise before allocating; positive huge ones are over the budget
        p.s(f"ones [{h}] dtype=bool")
        p.s(f"arange {h} dtype=uint8")
        p.s(f"zeros [2,{h}] dtype=float64")
p.write()
