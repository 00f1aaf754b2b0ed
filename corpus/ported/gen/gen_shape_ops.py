import itertools
from pg import Prog, DTYPES, SIZE, lst, ROOT

# ---------------------------------------------------------------- movedim / transpose
p = Prog(f"{ROOT}/test_shape_ops_movedim.prog", """
Ported from PyTorch test/test_shape_ops.py, TestShapeOps.test_movedim_invalid and
test_movedim, and test/test_view_ops.py, TestOldViewOps.test_transpose_invalid and
test_transpose_vs_numpy: every ordered pair of dims of 0-d..4-d tensors, in
positive and negative forms, as ints and as sequences; the invalid and repeated
dims; moving a dim to its own place; the empty sequence.
""")
shapes = {0: [], 1: [5], 2: [5, 6], 3: [5, 6, 7], 4: [5, 6, 7, 8]}
p.c("test_movedim_invalid / test_transpose_invalid on a 4-d tensor")
x = p.make([5, 6, 7, 8], "int64")
for a in ["5 0", "0 5", "-5 0", "0 -5", "[1,0] [0]", "[0,0] [0,1]", "[0,1,0] [0,1,2]", "[0,1] [1,1]", "[0,1,2] [1,0,1]",
          "[0,-4] [1,2]", "[0,1] [-4,0]", "[4] [0]", "[] [0]", "[0] []"]:
    p.s(f"movedim {x} {a}")
for a in ["5 0", "0 5", "-5 0", "0 -5", "4 4", "-4 -4"]:
    p.s(f"transpose {x} {a}")
for nd in range(5):
    x = p.make(shapes[nd], "float32") if nd else p.s("full [] 7")
    p.c(f"{nd}-d: int source/destination, every ordered pair, plain and negative")
    for s, d in itertools.permutations(range(nd), 2):
        for ss, dd in [(s, d), (s - nd, d), (s, d - nd), (s - nd, d - nd)]:
            p.s(f"movedim {x} {ss} {dd}")
            p.s(f"transpose {x} {ss} {dd}")
    for d in range(-max(nd, 1) - 1, max(nd, 1) + 1):
        p.s(f"movedim {x} {d} {d}")
        p.s(f"transpose {x} {d} 0")
    if nd == 0:
        continue
    p.c(f"{nd}-d: sequences (every permutation of length 1..{nd} to a rotation of it)")
    for r in range(1, nd + 1):
        for src in list(itertools.permutations(range(nd), r))[:6]:
            dst = tuple(reversed(src))
            p.s(f"movedim {x} {lst(src)} {lst(dst)}")
            neg = [v - nd for v in src]
            p.s(f"movedim {x} {lst(neg)} {lst(dst)}")
p.c("move dim to the same position; the empty sequence")
x = p.make([2, 3, 5, 7, 11])
p.s(f"movedim {x} [0,1] [0,1]"); p.s(f"movedim {x} 1 1"); p.s(f"movedim {x} [] []")
p.s(f"transpose {x} 0 0")
p.c("non-contiguous input (transposed, sliced, expanded)")
xt = p.s(f"transpose {x} 1 3"); p.s(f"movedim {xt} [0,2] [4,1]")
xs = p.s(f"slice {x} 2 1 none 2"); p.s(f"movedim {xs} -1 0")
e = p.s("zeros [1,3,1]"); e = p.s(f"expand {e} [4,3,5]"); p.s(f"movedim {e} [0,1,2] [2,0,1]")
p.write()

# ---------------------------------------------------------------- unbind / diagonal
p = Prog(f"{ROOT}/test_shape_ops_unbind_diagonal.prog", """
Ported from PyTorch test/test_shape_ops.py, TestShapeOps.test_unbind,
test_tolist (select of a 3-d tensor), test_diagonal, test_diagonal_multidim,
and the diagonal OpInfo's sample inputs (common_methods_invocations.py:
sample_inputs_diagonal_diag_embed: shapes (S,S), (S,M), (M,S), (S,S,S), (S,0,S)
... with offsets 0, 1, -1, 5, -5 and dims).
""")
x = p.make([2, 3, 4, 5])
for d in range(-5, 5):
    n = [2, 3, 4, 5][d] if -4 <= d < 4 else 1
    if -4 <= d < 4:
        p.many(f"unbind {x} {d}", n)
    else:
        p.s(f"unbind {x} {d}")
z = p.s("tensor 3"); p.s(f"unbind {z} 0")
e = p.s("zeros [0,3]"); p.s(f"unbind {e} 0"); p.many(f"unbind {e} 1", 3)
t3 = p.s("tensor [1,2,3,4,5,6,7,8]"); t3 = p.s(f"view {t3} [2,2,2]"); s = p.s(f"select {t3} 1 1")
p.c("test_diagonal: (100,100) with offset 0 and 17")
x = p.make([100, 100]); p.s(f"diagonal {x}"); p.s(f"diagonal {x} 17"); p.s(f"diagonal {x} -17"); p.s(f"diagonal {x} 100"); p.s(f"diagonal {x} -101")
p.c("test_diagonal_multidim on (10,11,12,13) and its permute(1,2,3,0)")
x = p.make([10, 11, 12, 13])
for a in ["2 2 3", "2", "-2 1 2", "0 -2 -1", "0 0 0", "0 4 0", "0 0 -5", "20 0 3", "-20 0 3", "13 2 3", "-12 2 3"]:
    p.s(f"diagonal {x} {a}")
xp = p.s(f"permute {x} [1,2,3,0]"); d = p.s(f"diagonal {xp} 0 -2 -1"); p.s(f"contiguous {d}")
p.c("OpInfo diagonal samples: (S,S) (S,M) (M,S) (S,S,S) and an empty middle dim")
for shape in [[5, 5], [5, 10], [10, 5], [5, 5, 5], [5, 0, 5], [0, 5]]:
    x = p.make(shape) if 0 not in shape else p.s(f"zeros {lst(shape)}")
    for off in [0, 1, -1, 5, -5, 6]:
        for dims in (["0 1", "1 0", "-1 0"] if len(shape) == 2 else ["0 1", "1 2", "2 0", "-1 -3"]):
            p.s(f"diagonal {x} {off} {dims}")
p.c("diagonal of 0-d and 1-d: fewer than two dims")
z = p.s("tensor 1"); p.s(f"diagonal {z}"); o = p.s("zeros [3]"); p.s(f"diagonal {o}")
p.c("writes through a diagonal (test_diagonal_view) of a transposed input")
x = p.s("zeros [4,4]"); xt = p.s(f"t {x}"); d = p.s(f"diagonal {xt} 1"); p.s(f"fill_ {d} 1", out=False)
p.write()

# ---------------------------------------------------------------- clamp
p = Prog(f"{ROOT}/test_shape_ops_clamp.prog", """
Ported from PyTorch test/test_shape_ops.py, TestShapeOps.test_clamp (int64,
float32; min/max in (-10, None) x (10, None)), test_clamp_propagates_nans,
test_clamp_scalar_nan_bounds, test_clamp_raises_arg_errors; clamp_ is the
only clamp form in the language. Inputs: [-25, 25) as in generate_clamp_baseline.
""")
for dt in ["int64", "float32", "float64", "int32", "int16", "int8", "uint8", "float16", "bfloat16", "bool"]:
    p.c(f"dtype {dt}")
    for mn, mx in [("-10", "10"), ("-10", "none"), ("none", "10"), ("none", "none"), ("10", "-10"), ("-10.5", "10.5"), ("nan", "none"), ("none", "nan")]:
        x = p.s("arange 50")
        x = p.s(f"sub_ {x} 25")
        x = p.s(f"to {x} dtype={dt}")
        p.s(f"clamp_ {x} {mn} {mx}", out=False)
p.c("test_clamp_propagates_nans: nan inputs survive clamp")
x = p.s("tensor [nan,-30,0,nan,30,nan]")
p.s(f"clamp_ {x} -10 10", out=False)
x = p.s("tensor [nan,-30,0,nan,30,nan] dtype=float64")
p.s(f"clamp_ {x} -10", out=False)
x = p.s("tensor [nan,-30,0,nan,30,nan] dtype=float16")
p.s(f"clamp_ {x} none 10", out=False)
x = p.s("tensor [nan,-30,0,nan,30,nan] dtype=bfloat16")
p.s(f"clamp_ {x} -inf inf", out=False)
p.c("test_clamp_scalar_nan_bounds")
x = p.s("ones [3]"); p.s(f"clamp_ {x} none nan", out=False)
x = p.s("ones [3]"); p.s(f"clamp_ {x} nan none", out=False)
p.c("test_clamp_raises_arg_errors")
x = p.s("ones [100]"); p.s(f"clamp_ {x}", out=False); p.s(f"clamp_ {x} none none", out=False)
p.c("clamp_ through non-contiguous, expanded (internal overlap) and 0-d/empty inputs")
x = p.make([4, 6]); xt = p.s(f"t {x}"); p.s(f"clamp_ {xt} 3 20", out=False)
xs = p.s(f"slice {x} 1 0 none 2"); p.s(f"clamp_ {xs} none 2", out=False)
c = p.s("zeros [4,1]"); e = p.s(f"expand {c} [4,3]"); p.s(f"clamp_ {e} 1 2", out=False)
z = p.s("tensor 7"); p.s(f"clamp_ {z} 0 5", out=False)
em = p.s("zeros [0,3]"); p.s(f"clamp_ {em} 0 5", out=False)
p.write()

# ---------------------------------------------------------------- flip
p = Prog(f"{ROOT}/test_shape_ops_flip.prog", """
Ported from PyTorch test/test_shape_ops.py, TestShapeOps.test_flip (basic,
non-contiguous, expanded, transposed, rectangular, the vectorised NCHW image
cases in contiguous and channels_last formats and their [..., ::2, :] and
[..., ::2] slices, the no-op edge cases), test_flip_errors, test_flip_numpy,
and the shape test over every 1- and 2-combination of dims.
""")
for dt in ["float32", "int64", "bool", "float16", "bfloat16", "uint8"]:
    p.c(f"dtype {dt}: basic data [1..8].view(2,2,2), every dims set in every order and with the first wrapped")
    d = p.s(f"tensor [1,2,3,4,5,6,7,8] dtype={dt}"); d = p.s(f"view {d} [2,2,2]")
    nc = p.s(f"zeros [2,2,4] dtype={dt}"); nc = p.s(f"slice {nc} 2 0 none 2"); p.s(f"copy_ {nc} {d}", out=False)
    for x in [d, nc]:
        for dims in [(0,), (1,), (2,), (0, 1), (0, 1, 2)]:
            for pd in itertools.permutations(dims):
                p.s(f"flip {x} {lst(pd)}")
            p.s(f"flip {x} {lst((dims[0] - 3,) + dims[1:])}")
    p.c("expanded, and flip of the expanded dim; transposed; rectangular")
    e = p.s(f"tensor [1,2,3] dtype={dt}"); e = p.s(f"view {e} [3,1]"); e = p.s(f"expand {e} [3,2]")
    p.s(f"flip {e} [0]"); p.s(f"flip {e} [1]"); p.s(f"flip {e} [-1]")
    t = p.s(f"transpose {d} 0 1"); p.s(f"flip {t} [0,1,2]")
    r = p.s(f"tensor [1,2,3,4,5,6] dtype={dt}"); r = p.s(f"view {r} [2,3]"); p.s(f"flip {r} [0]"); p.s(f"flip {r} [1]")
    p.c("no-ops: empty 1-d, dims=(), zero elements, size 1, 0-d")
    z = p.s(f"zeros [0] dtype={dt}"); p.s(f"flip {z} [0]"); p.s(f"flip {z} []")
    m = p.s(f"ones [3,2,1] dtype={dt}"); p.s(f"flip {m} []")
    m = p.s(f"zeros [3,0,2] dtype={dt}")
    for i in range(3):
        p.s(f"flip {m} [{i}]")
    s0 = p.s(f"full [] 4 dtype={dt}"); p.s(f"flip {s0} [0]"); p.s(f"flip {s0} []"); p.s(f"flip {s0} [-1]"); p.s(f"flip {s0} [1]")
    s1 = p.s(f"ones [1] dtype={dt}"); p.s(f"flip {s1} [0]")
    p.c("test_flip_errors: repeated dim, out of range")
    p.s(f"flip {d} [0,1,1]"); p.s(f"flip {d} [0,1,2,3]"); p.s(f"flip {d} [3]"); p.s(f"flip {d} [-4]"); p.s(f"flip {d} [0,-3]")
p.c("vectorised NCHW images (contiguous, channels_last) with c in 2,3,8,16; flip 3 and 2; [..., ::2, :] and [..., ::2]")
for fmt in ["contiguous", "channels_last"]:
    for c in [2, 3, 8, 16]:
        x = p.make([2, c, 32, 32])
        x = p.s(f"contiguous {x} format={fmt}")
        p.s(f"flip {x} [3]"); p.s(f"flip {x} [2]"); p.s(f"flip {x} [1]"); p.s(f"flip {x} [0,1,2,3]")
        a = p.s(f"slice {x} 2 none none 2"); p.s(f"flip {a} [3]")
        b = p.s(f"slice {x} 3 none none 2"); p.s(f"flip {b} [3]")
p.c("test_flip_numpy: every combination of axes of a 3-d and a 4-d tensor; the shape test")
for shape in [[5, 6, 7], [5, 6, 7, 8]]:
    x = p.make(shape, "int32")
    for i in range(1, len(shape) + 1):
        for comb in itertools.combinations(range(len(shape)), i):
            p.s(f"flip {x} {lst(comb)}")
p.write()
