# A standalone reproduction of out/fuzz/report/finding-1.prog, written by `stridecheck repro --as python`.
# It needs only PyTorch: python3 this_file.py
# stridecheck compared libtorch:cpu (LibTorch 2.15.0 (PyPI wheel torch 2.15.0+cu132)) with engine:cpu: fail
# they first differ at step 3 (result 0 storage_offset); the script ends there
# Each step runs through step(), which prints what it raised (and any
# warnings) and goes on, as stridecheck does; names a step did not bind are None.
import sys
import warnings

import torch
import torch._prims_common

print("torch", torch.__version__)
OUTCOMES = {}  # step -> "ok" or the exception's type name
FACTS = {}  # step -> [(sizes, strides, storage_offset) of each result]


def step(n, call, results=None):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            r = call()
            OUTCOMES[n] = "ok"
        except Exception as e:
            OUTCOMES[n] = type(e).__name__
            print(f"step {n} raised {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
            r = None
    for w in caught:
        print(f"step {n} warned: {w.message}")
    got = list(r) if isinstance(r, (list, tuple)) else [r]
    FACTS[n] = [(list(t.shape), list(t.stride()), t.storage_offset()) for t in got if isinstance(t, torch.Tensor)]
    if results is not None:  # several results, bound to `results` names
        r = (list(r) if r is not None else []) + [None] * results
        r = r[0] if results == 1 else r[:results]
    return r


def show(name, t):
    if t is None:
        print(f"{name}: not bound")
        return
    print(f"{name}: {str(t.dtype).replace('torch.', '')} sizes={list(t.shape)} strides={list(t.stride())} "
          f"storage_offset={t.storage_offset()} version={t._version}")


# step 1: a = zeros [2]
a = step(1, lambda: torch.zeros([2], dtype=torch.float32))
show("a", a)

# step 2: b = as_strided a [1,2] [0,1]
b = step(2, lambda: a.as_strided([1, 2], [0, 1], None))
show("b", b)

# step 3: c = diagonal b 1
c = step(3, lambda: b.diagonal(1, 0, 1))
show("c", c)
# stridecheck: first difference at step 3, result 0 storage_offset
#   libtorch:cpu said: 1
#   engine:cpu said: 0
print("c.storage_offset() =", c.storage_offset(), "  # engine:cpu said 0")

# What libtorch:cpu (LibTorch 2.15.0) did in stridecheck's run: each step's outcome, and each result's sizes, strides and storage_offset.
ORACLE_VERSION = "2.15.0"
ORACLE_OUTCOMES = {1: "ok", 2: "ok", 3: "ok"}
ORACLE_FACTS = {1: [([2], [1], 0)], 2: [([1, 2], [0, 1], 0)], 3: [([1], [1], 1)]}
MISMATCHES = [f"step {n}: {ORACLE_OUTCOMES[n]} there, {OUTCOMES.get(n)} here"
              for n in ORACLE_OUTCOMES if OUTCOMES.get(n) != ORACLE_OUTCOMES[n]]
MISMATCHES += [f"step {n}: results {ORACLE_FACTS[n]} there, {FACTS.get(n)} here"
               for n in ORACLE_FACTS if OUTCOMES.get(n) == "ok" and [tuple(f) for f in FACTS.get(n, [])] != [tuple(f) for f in ORACLE_FACTS[n]]]
same_version = torch.__version__.split("+")[0] == ORACLE_VERSION
print(("this torch did what LibTorch " + ORACLE_VERSION + " did in stridecheck's run") if not MISMATCHES else
      (f"{len(MISMATCHES)} steps differ from LibTorch {ORACLE_VERSION} in stridecheck's run" +
       ("" if same_version else " (another version: expected where behaviour changed)") + ":\n  " + "\n  ".join(MISMATCHES)))
