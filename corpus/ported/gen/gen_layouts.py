"""Output layout of elementwise ops and of like/clone ops for every dim order.

Ported from PyTorch test/test_torch.py test_strides_propagation (every
permutation of the input, out=empty(0)), test_memory_format_propagation_rules
(ambiguous [N,C,1,1] and bias [1,1,1,1] operands), test_tensoriterator_output_setup,
test_memory_format_clone / empty_like / factory_like_functions_preserve, and
TensorIterator's reorder_dimensions / compute_strides and
suggest_memory_format / empty_like's preserve rule (aten/src/ATen/TensorIterator.cpp,
aten/src/ATen/native/TensorFactories.cpp): for 4-d shapes with size-1 dims in
every position (where strides tie and the permutation is ambiguous), every
dim order of each operand, both operand orders.
"""
import itertools
from pg import Prog, lst, ROOT


def inverse(perm):
    inv = [0] * len(perm)
    for i, q in enumerate(perm):
        inv[q] = i
    return inv


def with_order(p, shape, perm):
    """a tensor of `shape` whose memory order (outermost first) is perm."""
    phys = [shape[q] for q in perm]
    x = p.make(phys)
    return p.s(f"permute {x} {lst(inverse(perm))}")


SHAPES = [[2, 3, 4, 5], [2, 1, 3, 4], [2, 3, 1, 1], [1, 3, 4, 1], [1, 1, 1, 1], [2, 3, 4, 1]]
for shape in SHAPES:
    name = "x".join(str(s) for s in shape)
    p = Prog(f"{ROOT}/layouts_{name}.prog", __doc__ + f"\nThis file: shape {shape}.\n")
    perms = list(itertools.permutations(range(4)))
    xs = [with_order(p, shape, list(pm)) for pm in perms]
    p.c("each dim order alone: clone(preserve), zeros_like (empty_like takes the same path), contiguous(channels_last), to(float64), neg, add scalar, add with itself")
    for x in xs:
        p.s(f"clone {x}")
        p.s(f"zeros_like {x}")
        p.s(f"contiguous {x} format=channels_last")
        p.s(f"to {x} dtype=float64")
        p.s(f"neg {x}")
        p.s(f"add {x} 1")
        o = p.s("zeros [0]"); p.s(f"add {x} {x} out={o}")
    p.c("every ordered pair of dim orders")
    for i, j in itertools.product(range(len(xs)), repeat=2):
        if (i + j) % 2 and shape == [2, 3, 4, 5]:
            continue  # half the pairs of the shape without ties (every tie-free order is still both first and second)
        p.s(f"add {xs[i]} {xs[j]}")
    p.c("against a broadcast operand: [C,1,1]-like bias, a row, a 0-d tensor")
    bias = p.make([shape[1], 1, 1]); row = p.make([shape[3]]); z = p.s("full [] 2")
    for x in xs:
        p.s(f"add {x} {bias}"); p.s(f"mul {bias} {x}"); p.s(f"add {row} {x}"); p.s(f"mul {x} {z}")
    p.write()
