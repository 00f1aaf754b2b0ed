"""Tiny helper to write stridecheck programs (SSA names) from Python."""
import os

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"]
SIZE = {"bool": 1, "uint8": 1, "int8": 1, "int16": 2, "int32": 4, "int64": 8, "float16": 2,
        "bfloat16": 2, "float32": 4, "float64": 8}
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


class Prog:
    def __init__(self, path, header):
        self.path = path
        self.lines = ["# " + l if l else "#" for l in header.strip("\n").split("\n")]
        self.n = 0

    def name(self, prefix="v"):
        self.n += 1
        return f"{prefix}{self.n}"

    def c(self, text):
        self.lines.append("")
        for l in text.strip("\n").split("\n"):
            self.lines.append("# " + l)

    def s(self, rhs, out=True, prefix="v"):
        """emit `name = rhs`; returns name"""
        if not out:
            self.lines.append(rhs)
            return None
        n = self.name(prefix)
        self.lines.append(f"{n} = {rhs}")
        return n

    def many(self, rhs, k, prefix="v"):
        names = [self.name(prefix) for _ in range(k)]
        self.lines.append(", ".join(names) + " = " + rhs)
        return names

    def raw(self, line):
        self.lines.append(line)

    def make(self, shape, dtype="float32"):
        """a contiguous tensor of `shape` filled 0,1,2,... (bool via to)."""
        numel = 1
        for s in shape:
            numel *= s
        if dtype in ("bool", "uint8", "int8") and numel > 100:
            a = self.s(f"arange {numel} dtype=int64")
            a = self.s(f"to {a} dtype={dtype}")
        elif dtype == "bool":
            a = self.s(f"arange {numel} dtype=uint8")
            a = self.s(f"to {a} dtype=bool")
        else:
            a = self.s(f"arange {numel} dtype={dtype}")
        if list(shape) == [numel]:
            return a
        return self.s(f"view {a} {lst(shape)}")

    def write(self):
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        with open(self.path, "w") as f:
            f.write("\n".join(self.lines) + "\n")
        steps = sum(1 for l in self.lines if l and not l.startswith("#"))
        print(f"{self.path}: {steps} steps")


def lst(xs):
    return "[" + ",".join(str(x) for x in xs) + "]"
