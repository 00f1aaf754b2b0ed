"""OpInfo's as_strided samples (torch/testing/_internal/common_methods_invocations.py
sample_inputs_as_strided, sample_inputs_as_strided_partial_views,
sample_inputs_as_strided_scatter's layouts, error_inputs_as_strided_scatter's
out-of-bounds storage: "setStorage: sizes [2, 2], strides [200, 200], storage
offset 0, and itemsize 4 requiring a storage size of 1604 are out of bounds for
storage of size 64"), for every dtype, on fresh tensors and on partial views
base[5:15] (the default storage_offset is the view's own), then a write
through each non-overlapping result.
"""
from pg import Prog, DTYPES, lst, ROOT

p = Prog(f"{ROOT}/opinfo_as_strided.prog", __doc__)
cases = [((1,), (1,), (1,), 0), ((3, 3), (2, 2), (1, 2), 0), ((3, 3), (2, 2), (1, 2), 1), ((16,), (2, 2, 2, 2), (1, 1, 1, 1), 0),
         ((16,), (2, 1, 1, 2), (1, 7, 7, 1), 0), ((1,), (), (), 0), ((3, 3), (2, 2), (2, 1), 0), ((16,), (2, 2, 2, 2), (8, 4, 2, 1), 0),
         ((16,), (2, 1, 1, 2), (1, 2, 4, 8), 0), ((4, 4), (2, 2), (200, 200), 0)]
for dt in DTYPES:
    p.c(f"dtype {dt}")
    for shape, size, stride, off in cases:
        x = p.make(list(shape), dt)
        r = p.s(f"as_strided {x} {lst(size)} {lst(stride)} {off}")
        if stride not in [(1, 1, 1, 1)]:
            p.s(f"fill_ {r} 1", out=False)
    base = p.make([20], dt)
    v = p.s(f"slice {base} 0 5 15 1")
    a = p.s(f"as_strided {v} [2,2] [1,2]"); p.s(f"fill_ {a} 0", out=False)
    p.s(f"as_strided {v} [2,2] [1,2] 0")
    b = p.s(f"as_strided {v} [2,2] [1,2] 10"); p.s(f"zero_ {b}", out=False)
    p.s(f"as_strided {v} [2,2] [1,2] 17"); p.s(f"as_strided {v} [2,2] [1,2] 16")
    vv = p.s(f"view {v} [2,5]"); p.s(f"as_strided {vv} [5] [2]"); p.s(f"as_strided {vv} [10] [1] 10")
p.write()
