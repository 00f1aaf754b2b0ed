"""ATen's own C++ tests (aten/src/ATen/test/), translated.

memory_format_test.cpp: SetMemoryFormat (sizes {4,4,4,4}, {4,4,1,1}, {4,1,4,4},
{4,1,4,1}, {4,1,1,4}, {1,4,1,4}, {1,4,4,1} in channels_last and contiguous;
{4,1,1,1}), TransposeMemoryFormat (transpose_ chains and their corner cases),
SliceStepTwoMemoryFormat and SliceFirstMemoryFormat (slice chains that keep or
lose the suggested format). suggest_memory_format is observed through what
follows it: clone / empty_like / zeros_like / to of a non-dense result (the
preserve rule falls back to the suggested format), contiguous(channels_last)
and the elementwise output of an add.
scalar_tensor_test.cpp: sizes {}, {0}, {1}, {1,1}, {2}: unsqueeze, squeeze(0),
squeeze(), t[0], fill_ with a tensor of each size, view to each other size,
expand to each other size, add_ of each other size.
broadcast_test.cpp: expand of an empty tensor, out-of-place and in-place
broadcasting with 1-element and mismatched operands.
wrapdim_test.cpp: unsqueeze(-5) == unsqueeze(0), unsqueeze of a 0-d tensor.
native_test.cpp: split(1, 0), chunk(3, 0) of a 3x3, size/stride of 0-d and
empty tensors (through select and narrow).
"""
import itertools
from pg import Prog, lst, ROOT

p = Prog(f"{ROOT}/aten_memory_format_test.prog", __doc__)


def observe(p, t):
    for r in [f"clone {t}", f"zeros_like {t}", f"to {t} dtype=float64", f"contiguous {t} format=channels_last"]:
        p.s(r)
    p.s(f"add {t} {t}")
    p.s(f"add {t} 1")


SIZES = [[4, 4, 4, 4], [4, 4, 1, 1], [4, 1, 4, 4], [4, 1, 4, 1], [4, 1, 1, 4], [1, 4, 1, 4], [1, 4, 4, 1], [4, 1, 1, 1]]
p.c("SetMemoryFormat: each size in channels_last and contiguous")
for s in SIZES:
    t = p.make(s)
    for f in ["channels_last", "contiguous"]:
        x = p.s(f"contiguous {t} format={f}")
        observe(p, x)
p.c("TransposeMemoryFormat")
for shape, chain in [([2, 3, 4, 5], [(1, 3)]), ([2, 3, 4, 5], [(1, 3), (2, 3)]), ([2, 3, 4, 5], [(1, 2)]), ([2, 3, 4, 5], [(2, 3)]),
                     ([1, 4, 1, 4], [(1, 3)]), ([1, 4, 1, 4], [(1, 2)]), ([1, 4, 1, 4], [(2, 3)]), ([1, 4, 1, 4], [(2, 3), (1, 2)]),
                     ([1, 4, 4, 1], [(1, 3)]), ([1, 4, 4, 1], [(1, 2)]), ([1, 4, 4, 1], [(2, 3)]), ([1, 4, 4, 1], [(2, 3), (1, 2)])]:
    t = p.make(shape)
    for a, b in chain:
        t = p.s(f"transpose {t} {a} {b}")
    observe(p, t)
    s = p.s(f"slice {t} 0 0 1 1"); s = p.s(f"slice {s} -1 0 none 2"); observe(p, s)
p.c("SliceStepTwoMemoryFormat / SliceFirstMemoryFormat")
for shape, fmt, dims, kind in [
        ([4, 4, 4, 4], "contiguous", [1, 2, 3], "two"), ([4, 4, 4, 4], "contiguous", [2, 3, 1], "two"),
        ([4, 4, 4, 4], "channels_last", [1, 2, 3], "two"), ([4, 4, 4, 4], "channels_last", [2, 3, 1], "two"),
        ([4, 4, 1, 1], "contiguous", [1], "two"), ([4, 4, 1, 1], "channels_last", [1], "two"),
        ([4, 1, 4, 4], "contiguous", [2, 3], "two"), ([4, 1, 4, 4], "channels_last", [2, 3], "two"),
        ([4, 1, 1, 4], "contiguous", [3], "two"), ([4, 1, 1, 4], "channels_last", [3], "two"),
        ([4, 1, 4, 1], "contiguous", [2], "two"), ([4, 1, 4, 1], "channels_last", [2], "two"),
        ([4, 4, 4, 4], "contiguous", [1, 2, 3], "first"), ([4, 4, 4, 4], "channels_last", [1, 2, 3], "first"),
        ([4, 4, 4, 4], "channels_last", [2, 3, 1], "first"), ([4, 4, 1, 1], "channels_last", [1], "first"),
        ([4, 1, 4, 4], "channels_last", [2, 3], "first"), ([4, 1, 1, 4], "channels_last", [3], "first"),
        ([4, 1, 4, 1], "contiguous", [2], "first"), ([4, 1, 4, 1], "channels_last", [2], "first")]:
    t = p.make(shape)
    t = p.s(f"contiguous {t} format={fmt}")
    for d in dims:
        reps = 2 if kind == "two" else 1
        for _ in range(reps):
            t = p.s(f"slice {t} {d} 0 3 2" if kind == "two" else f"slice {t} {d} 0 1 1")
            observe(p, t)
p.write()

p = Prog(f"{ROOT}/aten_scalar_broadcast_native_test.prog", __doc__)
sizes = [[], [0], [1], [1, 1], [2]]
p.c("scalar_tensor_test: single-tensor tests")
for s in sizes:
    t = p.s(f"ones {lst(s)}")
    p.s(f"unsqueeze {t} 0"); p.s(f"squeeze {t} 0"); p.s(f"squeeze {t}"); p.s(f"select {t} 0 0")
    t2 = p.s(f"ones {lst(s)}")
    for s2 in sizes:
        v = p.s(f"zeros {lst(s2)}")
        p.s(f"fill_ {t2} {v}", out=False)
p.c("scalar_tensor_test: every pair: view, expand, add_")
for s1, s2 in itertools.product(sizes, repeat=2):
    lhs = p.s(f"ones {lst(s1)}"); rhs = p.s(f"ones {lst(s2)}")
    p.s(f"view {lhs} {lst(s2)}")
    p.s(f"expand {lhs} {lst(s2)}")
    p.s(f"add_ {lhs} {rhs}", out=False)
    p.s(f"copy_ {lhs} {rhs}", out=False)
    p.s(f"add {lhs} {rhs}")
p.c("broadcast_test")
e = p.s("zeros [0]"); p.s(f"expand {e} [3]")
a = p.make([3, 1]); b = p.make([5]); p.s(f"add {a} {b}")
one = p.s("ones [1]"); b35 = p.make([3, 5]); p.s(f"add {one} {b35}")
a35 = p.make([3, 5]); b53 = p.make([5, 3]); p.s(f"add {a35} {b53}")
b75 = p.make([7, 5]); p.s(f"add {a35} {b75}")
a1 = p.make([3, 1, 1]); b1 = p.make([1, 2, 1]); c1 = p.make([1, 1, 5]); ab = p.s(f"add {a1} {b1}"); p.s(f"add {ab} {c1}")
b31 = p.make([3, 1]); p.s(f"add {a35} {b31}"); p.s(f"add_ {a35} {b31}", out=False); p.s(f"add_ {a35} {one}", out=False)
a15 = p.make([1, 5]); p.s(f"add_ {a15} {b31}", out=False)
p.c("wrapdim_test")
a = p.make([2, 3, 4, 5]); p.s(f"unsqueeze {a} -5"); p.s(f"unsqueeze {a} 0"); p.s(f"unsqueeze {a} 4"); p.s(f"unsqueeze {a} -1")
z = p.s("full [] 1.5"); p.s(f"unsqueeze {z} 0"); p.s(f"unsqueeze {z} -1")
p.c("native_test: split / chunk of a 3x3; size and stride of 0-d and empty")
t = p.make([3, 3]); p.s(f"split {t} 1 0"); p.s(f"chunk {t} 3 0")
s = p.s("full [] 2"); p.s(f"select {s} 0 0"); p.s(f"select {s} -1 0"); p.s(f"narrow {s} 0 0 1")
e = p.s("zeros [0]"); p.s(f"narrow {e} 0 0 0"); p.s(f"narrow {e} -1 0 0"); p.s(f"select {e} 0 0")
p.write()
