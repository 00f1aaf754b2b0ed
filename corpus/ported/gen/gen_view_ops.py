import itertools
from pg import Prog, DTYPES, SIZE, lst, ROOT

# ---------------------------------------------------------------- view(dtype)
for src in DTYPES:
    p = Prog(f"{ROOT}/view_dtype_{src}.prog", f"""
Ported from PyTorch test/test_view_ops.py, TestViewOps.test_view_dtype_new and
test_view_dtype_upsize_errors, for source dtype {src}: each of the test's seven
inputs viewed as every dtype our language has, and back; then the three upsize
errors (size(-1) divisible, storage_offset divisible, stride divisible).
""")
    inputs = []
    p.c("make_tensor((4, 4, 64))")
    a = p.make([4, 4, 64], src); inputs.append(a)
    p.c("make_tensor((4, 4, 64)).permute(1, 0, 2)")
    a = p.make([4, 4, 64], src); inputs.append(p.s(f"permute {a} [1,0,2]"))
    p.c("make_tensor((4, 64, 4)).permute(2, 0, 1): stride(-1) != 1")
    a = p.make([4, 64, 4], src); inputs.append(p.s(f"permute {a} [2,0,1]"))
    p.c("make_tensor((1, 5, 1)).expand(5, 5, 64): stride(-1) == 0")
    a = p.make([1, 5, 1], src); inputs.append(p.s(f"expand {a} [5,5,64]"))
    p.c("make_tensor((2, 5, 256))[1::2, 1:, ::2]")
    a = p.make([2, 5, 256], src)
    a = p.s(f"slice {a} 0 1 none 2")
    a = p.s(f"slice {a} 1 1 none 1")
    inputs.append(p.s(f"slice {a} 2 0 none 2"))
    p.c("make_tensor((0, 5, 64))")
    inputs.append(p.s(f"zeros [0,5,64] dtype={src}"))
    p.c("make_tensor(()): 0-d, element size must match")
    inputs.append(p.s(f"full [] 3 dtype={src}"))
    for x in inputs:
        p.c(f"{x}.view(d) for every d, then .view({src}) back")
        for d in DTYPES:
            v = p.s(f"view {x} dtype={d}")
            p.s(f"view {v} dtype={src}")
    p.c("test_view_dtype_upsize_errors")
    for d in DTYPES:
        if SIZE[d] <= SIZE[src]:
            continue
        r = SIZE[d] // SIZE[src]
        p.c(f"to {d}: ratio {r}")
        a = p.make([4, 4, r + 1], src)
        p.s(f"view {a} dtype={d}")
        s = p.s(f"slice {a} 2 1 none 1")
        p.s(f"view {s} dtype={d}")
        b = p.make([4, 4, r], src)
        b = p.s(f"as_strided {b} [4,4,{r}] [{r},1,1]")
        p.s(f"view {b} dtype={d}")
    p.write()

# ---------------------------------------------------------------- view-ness
p = Prog(f"{ROOT}/test_view_ops_views.prog", """
Ported from PyTorch test/test_view_ops.py, TestViewOps: the "is a view, and a
write through it is seen by the base" tests (test_diagonal_view, test_select_view,
test_unbind_view, test_expand_view, test_expand_as_view, test_narrow_view,
test_permute_view, test_transpose_view, test_t_view, test_T_view,
test_unfold_view, test_squeeze_view, test_unsqueeze_view, test_as_strided_view,
test_view_view, test_view_as_view, test_contiguous_self,
test_contiguous_nonview, test_reshape_view, test_reshape_nonview,
test_basic_indexing_*_view, test_movedim_view, test_conj_self), with writes
done as select(...).fill_(0).
""")


def write0(p, v, idx):
    x = v
    for i in idx:
        x = p.s(f"select {x} 0 {i}")
    p.s(f"fill_ {x} 0", out=False)


p.c("test_diagonal_view")
t = p.s("ones [5,5]"); v = p.s(f"diagonal {t}"); write0(p, v, [0])
t = p.s("ones [3,3,3]"); v = p.s(f"diagonal {t} 1 1 2"); write0(p, v, [0, 0])
p.c("test_select_view")
t = p.s("ones [5,5]"); v = p.s(f"select {t} 0 2"); write0(p, v, [0])
p.c("test_unbind_view")
t = p.s("zeros [5,5]")
vs = p.many(f"unbind {t}", 5)
for i, v in enumerate(vs):
    x = p.s(f"select {v} 0 0"); p.s(f"fill_ {x} {i + 1}", out=False)
p.c("test_expand_view / test_expand_as_view: writing one element of an expanded view writes the row")
t = p.s("ones [5,1]"); v = p.s(f"expand {t} [5,5]"); x = p.s(f"select {v} 0 2"); x = p.s(f"select {x} 0 2"); p.s(f"fill_ {x} 0", out=False)
t = p.s("ones [5,1]"); e = p.s("zeros [5,5]"); v = p.s(f"expand_as {t} {e}"); x = p.s(f"select {v} 0 2"); x = p.s(f"select {x} 0 2"); p.s(f"fill_ {x} 0", out=False)
p.c("test_narrow_view")
t = p.s("ones [5,5]"); v = p.s(f"narrow {t} 1 2 2"); write0(p, v, [0, 0])
p.c("test_permute_view, test_transpose_view, test_t_view, test_T_view (T, mT)")
for op in ["permute {} [1,0]", "transpose {} 0 1", "t {}", "T {}", "mT {}"]:
    t = p.s("ones [5,5]"); v = p.s(op.format(t)); x = p.s(f"select {v} 0 0"); x = p.s(f"select {x} 0 1"); p.s(f"fill_ {x} 0", out=False)
p.c("test_transpose_inplace_view / test_t_inplace_view: view_as then transpose")
t = p.s("ones [5,5]"); v = p.s(f"view_as {t} {t}"); v = p.s(f"transpose {v} 0 1"); write0(p, v, [0, 1])
t = p.s("ones [5,5]"); v = p.s(f"view_as {t} {t}"); v = p.s(f"t {v}"); write0(p, v, [0, 1])
p.c("test_unfold_view")
t = p.s("ones [10]"); v = p.s(f"unfold {t} 0 3 2"); write0(p, v, [1, 0])
p.c("test_squeeze_view / test_squeeze_inplace_view")
t = p.s("ones [5,1,5]"); v = p.s(f"squeeze {t}"); write0(p, v, [0, 1])
t = p.s("ones [5,5]"); v = p.s(f"view_as {t} {t}"); v = p.s(f"squeeze {v}"); write0(p, v, [0, 1])
p.c("test_unsqueeze_view / test_unsqueeze_inplace_view")
t = p.s("ones [5,5]"); v = p.s(f"unsqueeze {t} 1"); write0(p, v, [0, 0, 1])
t = p.s("ones [5,5]"); v = p.s(f"view_as {t} {t}"); v = p.s(f"unsqueeze {v} 1"); write0(p, v, [0, 0, 1])
p.c("test_as_strided_view / test_as_strided_inplace_view")
t = p.s("ones [5,5]"); v = p.s(f"as_strided {t} [25] [1]"); write0(p, v, [6])
t = p.s("ones [5,5]"); v = p.s(f"view_as {t} {t}"); v = p.s(f"as_strided {v} [25] [1]"); write0(p, v, [6])
p.c("test_view_view / test_view_as_view")
t = p.s("ones [5,5]"); v = p.s(f"view {t} [25]"); write0(p, v, [6])
t = p.s("ones [5,5]"); e = p.s("zeros [25]"); v = p.s(f"view_as {t} {e}"); write0(p, v, [6])
p.c("test_contiguous_self: contiguous() of a contiguous tensor is the tensor itself")
t = p.s("ones [5,5]"); p.s(f"contiguous {t}")
p.c("test_contiguous_nonview")
t = p.s("ones [5,5]"); v = p.s(f"t {t}"); nv = p.s(f"contiguous {v}"); write0(p, nv, [0, 0])
p.c("test_reshape_view / test_reshape_as_view / test_reshape_nonview")
t = p.s("ones [5,5]"); v = p.s(f"reshape {t} [25]"); write0(p, v, [6])
t = p.s("ones [5,5]"); v = p.s(f"t {t}"); nv = p.s(f"reshape {v} [25]"); write0(p, nv, [6])
p.c("test_basic_indexing_slice_view: t[:2, :3]")
t = p.s("ones [5,5]"); v = p.s(f"slice {t} 0 none 2 1"); v = p.s(f"slice {v} 1 none 3 1"); write0(p, v, [0, 0])
p.c("test_basic_indexing_ellipses_view: t[..., :2]")
t = p.s("ones [5,5]"); v = p.s(f"slice {t} -1 none 2 1"); write0(p, v, [0, 0])
p.c("test_basic_indexing_newaxis_view: t[None, :2, 3]")
t = p.s("ones [5,5]"); v = p.s(f"unsqueeze {t} 0"); v = p.s(f"slice {v} 1 none 2 1"); v = p.s(f"select {v} 2 3"); write0(p, v, [0, 0])
p.c("test_movedim_view: movedim((0,1),(1,0)) and movedim(0,1)")
t = p.s("zeros [3,3]"); v = p.s(f"movedim {t} [0,1] [1,0]"); x = p.s(f"select {v} 0 2"); x = p.s(f"select {x} 0 1"); p.s(f"fill_ {x} 7", out=False)
t = p.s("zeros [3,3]"); v = p.s(f"movedim {t} 0 1"); x = p.s(f"select {v} 0 0"); x = p.s(f"select {x} 0 2"); p.s(f"fill_ {x} 5", out=False)
p.c("test_view_copy_out: diagonal / split of a fresh tensor (the *_copy ops are not in the language: the views)")
a = p.s("arange 4"); a2 = p.s(f"view {a} [2,2]"); p.s(f"diagonal {a2}")
p.many(f"split {a} 2", 2)
p.write()

# ---------------------------------------------------------------- as_strided
p = Prog(f"{ROOT}/test_view_ops_as_strided.prog", """
Ported from PyTorch test/test_view_ops.py, TestViewOps.test_as_strided_gradients:
the forward as_strided calls of every case (crazy stride at a size-1 dim,
expand-like stride 0, overlapping, transpose-like, reading outside the input
view but inside the storage, select on an expanded input); then writes
through each (an overlapping write is undefined in LibTorch: the harness says so).
""")
cases = [
    ("arange 25", "view {} [5,5]", [3, 3], [6, 2], 2),
    ("arange 12", None, [1, 2, 1, 5], [0, 5, 100, 1], 2),
    ("arange 5", None, [3, 3, 3], [0, 1, 0], 2),
    ("arange 5", None, [3, 3, 3], [0, 0, 0], 4),
    ("arange 5", "expand {} [5,5]", [5, 5], [0, 1], 0),
    ("arange 35", None, [6, 6], [5, 1], 2),
    ("arange 15", None, [3, 2], [3, 6], 2),
    ("arange 12", "view {} [3,4]", [4, 3], [1, 4], None),
    ("arange 12", "view {} [6,2]", None, None, None),  # special: x[3:]
    ("arange 6", "view {} [2,3]", None, None, None),  # special: expand(10,2,3)
]
for i, (mk, pre, size, stride, off) in enumerate(cases):
    p.c(f"case {i}")
    for dt in ["float64", "int64"]:
        x = p.s(f"{mk} dtype={dt}")
        if i == 8:
            x = p.s(f"view {x} [6,2]")
            y = p.s(f"slice {x} 0 3 none 1")
            r = p.s(f"as_strided {y} [3,2] [2,1] 0")
            p.s(f"as_strided {y} [3,2] [2,1]")
            p.s(f"add_ {r} 1", out=False)
            continue
        if i == 9:
            x = p.s(f"view {x} [2,3]")
            y = p.s(f"expand {x} [10,2,3]")
            r = p.s(f"as_strided {y} [2,3] [3,1] 0")
            p.s(f"mul_ {r} 2", out=False)
            continue
        y = p.s(pre.format(x)) if pre else x
        r = p.s(f"as_strided {y} {lst(size)} {lst(stride)}" + (f" {off}" if off is not None else ""))
        p.s(f"contiguous {r}")
        if i not in (5, 6):  # 5 and 6 overlap without stride 0: the write is undefined in 1.13
            p.s(f"add_ {r} 1", out=False)
p.write()

# ---------------------------------------------------------------- flatten
p = Prog(f"{ROOT}/test_view_ops_flatten.prog", """
Ported from PyTorch test/test_view_ops.py: TestViewOps.test_flatten_view,
test_flatten_nonview, TestOldViewOps.test_flatten, test_ravel (ravel is
flatten()), test_unsqueeze, test_squeeze_view.
""")
p.c("test_flatten_view")
t = p.s("ones [1,2,3,4]"); v = p.s(f"flatten {t}"); write0(p, v, [0])
t = p.s("tensor 1"); v = p.s(f"flatten {t}"); write0(p, v, [0])
t = p.s("ones [1,2,3,4]"); t = p.s(f"transpose {t} 2 3"); v = p.s(f"flatten {t} 0 1"); write0(p, v, [0, 0, 0])
p.c("stride[i] = stride[i + 1] * size[i + 1] holds for 3 groups")
t = p.s("ones [720]")
t = p.s(f"as_strided {t} [2,3,2,3,5,4] [6,2,15,5,1,0]")
v1 = p.s(f"flatten {t} 0 1"); v2 = p.s(f"flatten {v1} 1 3"); v3 = p.s(f"flatten {v2} 2 2")
write0(p, v1, [0, 0, 0, 0, 0]); write0(p, v2, [0, 0, 0]); write0(p, v3, [0, 0, 0])
p.s(f"flatten {t}"); p.s(f"flatten {t} 3 5"); p.s(f"flatten {t} 4 5"); p.s(f"flatten {t} 2 3")
p.c("test_flatten_nonview")
t = p.s("ones [2,3,2,3]"); t = p.s(f"transpose {t} 2 3"); nv = p.s(f"flatten {t} 1 3"); write0(p, nv, [0, 0])
t = p.s("ones [2,2]"); t = p.s(f"T {t}"); nv = p.s(f"flatten {t}"); write0(p, nv, [0])
t = p.s("ones [2,2]"); p.s(f"flatten {t} 1 1")
p.c("test_flatten: 0-d, every (start, end), out of range, start after end")
z = p.s("tensor 123"); p.s(f"flatten {z}"); p.s(f"flatten {z} 0 0"); p.s(f"flatten {z} -1 -1"); p.s(f"flatten {z} 0 1"); p.s(f"flatten {z} 1 0")
src = p.make([5, 5, 5, 5])
for (s, e) in [(0, -1), (0, 2), (0, 1), (1, 2), (2, 3), (-2, -1), (2, 2), (5, 10), (2, 0), (-5, 0), (0, 4), (3, 3), (-4, -4), (-1, -2)]:
    p.s(f"flatten {src} {s} {e}")
p.c("test_ravel: contiguous -> view, t() -> copy, empty, [::2]")
for shape in [[5, 5, 5, 5], [0, 2, 3], [3, 0, 2], [5, 5]]:
    x = p.make(shape) if 0 not in shape else p.s(f"zeros {lst(shape)}")
    p.s(f"flatten {x}")
    if len(shape) == 2:
        xt = p.s(f"t {x}"); p.s(f"flatten {xt}")
x = p.s("ones [10]"); x = p.s(f"slice {x} 0 none none 2"); p.s(f"flatten {x}")
p.c("test_unsqueeze: contiguous and x[:, 1] (non-contiguous), every dim incl. out of range")
x = p.make([2, 3, 4])
for d in [-5, -4, -1, 0, 1, 2, 3, 4]:
    p.s(f"unsqueeze {x} {d}")
xs = p.s(f"select {x} 1 1")
for d in [-4, -3, 0, 1, 2, 3]:
    p.s(f"unsqueeze {xs} {d}")
z = p.s("tensor 5")
for d in [-2, -1, 0, 1]:
    p.s(f"unsqueeze {z} {d}")
p.c("squeeze: all, each dim, out of range, 0-d, size-0 dims")
x = p.s("ones [5,1,5]")
for d in ["", " 0", " 1", " -2", " 3", " -4"]:
    p.s(f"squeeze {x}{d}")
x = p.s("zeros [1,0,1]")
for d in ["", " 0", " 1", " 2"]:
    p.s(f"squeeze {x}{d}")
for d in ["", " 0", " -1", " 1"]:
    p.s(f"squeeze {z}{d}")
p.write()
