"""Which ops return self, which a view of self's base, which a copy: every op on
a base, on a view, on a view of a view, on a 0-d and an empty tensor, with the
no-op arguments that tempt an implementation to return self. Then a write
through each result, so the storage, version counters and _base all show.

Ported from PyTorch test/test_view_ops.py: test_contiguous_self,
test_flatten_nonview ("flatten returns the original object if start_dim=end_dim"),
test_conj_self (same object), TestViewOps.is_view_of (_base is the root, never
a view), test_view_copy; test/test_torch.py test_to (x.to(x.dtype) is x;
to(..., copy) and memory formats), test_memory_format_contiguous_returns_same_tensor_if_already_satisfies,
test_detach* (detach shares storage and version counter).
"""
from pg import Prog, lst, ROOT

NOOPS = [
    "contiguous {x}", "contiguous {x} format=contiguous", "contiguous {x} format=channels_last",
    "clone {x}", "clone {x} format=preserve",
    "to {x} dtype=float32", "to {x} format=preserve", "to {x} dtype=float32 format=preserve", "to {x} format=contiguous",
    "to {x} dtype=float64", "to {x} format=channels_last",
    "view {x} dtype=float32", "view {x} dtype=int32", "view_as {x} {x}", "reshape {x} {shape}", "view {x} {shape}",
    "flatten {x} 0 0", "flatten {x} -1 -1", "flatten {x} 1 1", "flatten {x}",
    "squeeze {x}", "unsqueeze {x} 0", "permute {x} {ident}", "movedim {x} [] []", "movedim {x} 0 0",
    "transpose {x} 0 0", "t {x}", "T {x}", "mT {x}",
    "expand {x} {shape}", "expand_as {x} {x}", "broadcast_to {x} {shape}",
    "narrow {x} 0 0 {s0}", "slice {x} 0 none none 1", "slice {x}", "as_strided {x} {shape} {strides}",
    "detach {x}", "alias {x}", "split {x} 100 0", "chunk {x} 1 0", "unflatten {x} 0 [{s0}]",
    "repeat {x} {ones}", "flip {x} []", "index_select {x} 0 [0]", "diagonal {x} 0 0 -1",
    "empty_like {x}", "zeros_like {x}",
]

p = Prog(f"{ROOT}/test_view_ops_identity.prog", __doc__)
cases = []
p.c("a base, a view (slice), a view of a view, a non-contiguous view, channels_last, 0-d, empty, 1-d")
a = p.make([2, 3, 4]); cases.append((a, [2, 3, 4], [12, 4, 1]))
v = p.s(f"slice {a} 0 0 2 1"); cases.append((v, [2, 3, 4], [12, 4, 1]))
vv = p.s(f"view {v} [2,3,4]"); vv = p.s(f"slice {vv} 2 0 4 1"); cases.append((vv, [2, 3, 4], [12, 4, 1]))
nt = p.s(f"transpose {a} 0 2"); cases.append((nt, [4, 3, 2], [1, 4, 12]))
c4 = p.make([2, 3, 2, 2]); cl = p.s(f"contiguous {c4} format=channels_last"); cases.append((cl, [2, 3, 2, 2], [12, 1, 6, 3]))
z = p.s("full [] 1.5"); cases.append((z, [], []))
e = p.s("zeros [0,3]"); cases.append((e, [0, 3], [3, 1]))
o = p.make([5]); o = p.s(f"slice {o} 0 1 4 1"); cases.append((o, [3], [1]))
for x, shape, strides in cases:
    fmt = dict(x=x, shape=lst(shape), strides=lst(strides), ident=lst(list(range(len(shape)))),
               ones=lst([1] * len(shape)), s0=shape[0] if shape else 1)
    for op in NOOPS:
        r = p.s(op.format(**fmt))
        if op.startswith("empty_like"):
            p.s(f"zero_ {r}", out=False)
        else:
            p.s(f"mul_ {r} 1", out=False)
    p.s(f"add_ {x} 1", out=False)
p.write()
