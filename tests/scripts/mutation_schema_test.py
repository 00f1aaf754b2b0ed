#!/usr/bin/env python3
"""scripts/mutation_schema.py on a small engine-like file: every mutation kind
is found where a person planting a bug would put it (inside SC_CHECK's
arguments too), the rewritten file compiles, and each mutant, switched on
through STRIDECHECK_MUTANT, changes what the program prints."""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import mutation_schema as schema  # noqa: E402

SOURCE = r'''
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include "engine/error.h"
#include "engine/views/wrapping.h"
namespace sc::engine {
int64_t sc_pick(int64_t a, int64_t b) { return (a - b) * 1; }
int64_t sc_narrow(int64_t size, int64_t start, int64_t length) {
  SC_CHECK(length >= 0, "length must be non-negative, but got ", length);
  SC_CHECK(start <= size - length, "start (", start, ") + length (", length, ") exceeds ", size);
  int64_t end = start;
  end = wrapping::add(start, length);
  return std::max<int64_t>(sc_pick(end, start), 0);
}
}  // namespace sc::engine
int main(int argc, char** argv) {
  int64_t v[3] = {5, 1, 2};
  if (argc == 4) for (int i = 0; i < 3; ++i) v[i] = std::atoll(argv[i + 1]);
  try {
    std::printf("%lld\n", static_cast<long long>(sc::engine::sc_narrow(v[0], v[1], v[2])));
  } catch (const sc::engine::TorchError& e) {
    std::printf("error: %s\n", e.message.c_str());
  }
}
'''


def main():
    with tempfile.TemporaryDirectory() as tmp:
        path = "engine/sc_test_mutants.cpp"
        os.makedirs(os.path.join(tmp, "engine"))
        for rel in ("engine/error.h", "engine/views/wrapping.h"):
            os.makedirs(os.path.dirname(os.path.join(tmp, rel)), exist_ok=True)
            with open(os.path.join(ROOT, rel), "rb") as f, open(os.path.join(tmp, rel), "wb") as g:
                g.write(f.read())
        text = SOURCE.encode()
        with open(os.path.join(tmp, path), "wb") as f:
            f.write(text)
        points = schema.find_points(path, [f"-I{tmp}"], tmp, text)
        found = {(p.op, v, p.in_check) for p in points for v in p.variants}
        expected = {("rel", ">= -> >", True), ("rel", "<= -> <", True), ("arith", "- -> +", True),
                    ("check", "SC_CHECK deleted", False), ("msg", "text changed", True),
                    ("msg", "x -> x + 1", True), ("order", "checks 1 and 2 swapped", False),
                    ("stmt", "assignment removed", False), ("fn", "add -> sub", False),
                    ("fn", "max -> min", False), ("args", "swap arguments 1 and 2", False),
                    ("const", "1 -> 2", False)}
        missing = expected - found
        assert not missing, f"mutation kinds not found: {sorted(missing)}"
        # The same functions in a header (parsed through a stub that includes it by the absolute -I,
        # as mutation.py does): clang names the header by its absolute path, the points are found.
        header, htext = "engine/sc_test_mutants.h", text.split(b"int main")[0]
        with open(os.path.join(tmp, header), "wb") as f:
            f.write(htext)
        hfound = {(p.op, v, p.in_check) for p in schema.find_points(header, [f"-I{tmp}"], tmp, htext)
                  for v in p.variants}
        assert not expected - hfound, f"mutation kinds not found in a header: {sorted(expected - hfound)}"
        ids = 0
        for p in points:
            p.ids = [str(ids + i) for i in range(len(p.variants))]
            ids += len(p.variants)
        body = schema.render(text, points)
        for p in points:
            assert f"({p.ids[0]}" in body or f"({p.ids[0]}," in body, f"point not rendered: {p.op} {p.variants}"
        with open(os.path.join(tmp, schema.SCHEMA_HEADER), "w") as f:
            f.write(schema.schema_header(ids))
        with open(os.path.join(tmp, path), "w") as f:
            f.write(f'#include "{schema.SCHEMA_HEADER}"\n' + body)
        exe = os.path.join(tmp, "m")
        subprocess.run(["clang++", "-std=c++20", f"-I{tmp}", os.path.join(tmp, path), "-o", exe], check=True)

        def run(mutant, args=()):
            env = dict(os.environ, STRIDECHECK_MUTANT=str(mutant))
            return subprocess.run([exe, *args], env=env, capture_output=True, text=True, check=True).stdout

        inputs = [(), ("5", "4", "2"), ("5", "1", "-1"), ("5", "3", "2"), ("5", "7", "-1"), ("5", "2", "0")]
        clean = [run(-1, a) for a in inputs]
        assert clean[0] == "2\n" and clean[1].startswith("error: start (4)"), clean
        for p in points:
            if p.op not in ("rel", "msg", "order", "stmt", "fn", "args", "check"):
                continue
            for k, v in enumerate(p.variants):
                mutant = int(p.ids[0]) + k
                outs = [run(mutant, a) for a in inputs]
                assert outs != clean, f"mutant {p.op} '{v}' at line {p.line} changes nothing on {inputs}"
    print("mutation_schema_test: ok")


if __name__ == "__main__":
    main()
