#!/usr/bin/env python3
"""scripts/mutation.py's saved outcomes and --run-files: a run appends each
mutant's outcome with the search's fingerprint; a re-run reads back only the
lines of the same search (a line cut short by a stop is skipped, a later line
wins), so a stopped run keeps what it scored; --run-files keeps the members of
the sample taken over every file, not a new sample of the named files; a
reused build older than an engine header is found (its objects would be
linked with mutants compiled against the new headers); the kills only the
corpus made (what a --no-corpus run would score survived) are told apart."""
import argparse
import json
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True  # no scripts/__pycache__ in the source tree
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import mutation  # noqa: E402


def check(cond, what):
    if not cond:
        raise SystemExit(f"mutation_results_test: FAILED: {what}")


def outcome(key, status, by=""):
    return {"key": key, "id": 0, "file": key.split("@")[0], "line": 1, "col": 1, "op": "rel",
            "mutation": "< -> <=", "status": status, "by": by, "secs": 1.5}


def test_results_file():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "results.jsonl")
        check(mutation.load_results(path, "A") == {}, "no file: nothing scored")
        mutation.append_result(path, outcome("f@1", "killed", "property"), "A")
        mutation.append_result(path, outcome("f@2", "survived"), "A")
        mutation.append_result(path, outcome("f@3", "killed", "corpus"), "B")  # another search
        mutation.append_result(path, outcome("f@2", "killed", "corpus"), "A")  # scored again: this one wins
        with open(path, "a") as f:  # the line a stop cut short
            f.write(json.dumps(dict(outcome("f@4", "killed"), fingerprint="A"))[:40])
        done = mutation.load_results(path, "A")
        check(sorted(done) == ["f@1", "f@2"], f"keys of search A: {sorted(done)}")
        check(done["f@1"]["status"] == "killed" and done["f@1"]["by"] == "property", "f@1's outcome")
        check(done["f@2"]["status"] == "killed" and done["f@2"]["by"] == "corpus", "the later line wins")
        check(sorted(mutation.load_results(path, "B")) == ["f@3"], "search B sees only its own line")
        # A run appending after the cut line: the cut line is lost, the next one is read.
        mutation.append_result(path, outcome("f@5", "timeout", "property"), "A")
        check(sorted(mutation.load_results(path, "A")) == ["f@1", "f@2", "f@5"], "a line after a cut one")


def test_fingerprint():
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "b", "bin"))
        os.makedirs(os.path.join(tmp, "root", "corpus", "edges"))
        for name in ("property_tests", "stridecheck"):
            with open(os.path.join(tmp, "b", "bin", name), "wb") as f:
                f.write(b"binary " + name.encode())
        prog = os.path.join(tmp, "root", "corpus", "edges", "a.prog")
        with open(prog, "w") as f:
            f.write("t = arange(4)\n")
        args = argparse.Namespace(root=os.path.join(tmp, "root"), no_corpus=False, property="*", seed=1,
                                  programs=1000, max_size=300)
        bdir = os.path.join(tmp, "b")
        a = mutation.search_fingerprint(args, bdir)
        check(a == mutation.search_fingerprint(args, bdir), "the same search, the same fingerprint")
        with open(prog, "a") as f:
            f.write("u = neg(t)\n")
        b = mutation.search_fingerprint(args, bdir)
        check(b != a, "a corpus program changed: another search")
        args.programs = 300
        check(mutation.search_fingerprint(args, bdir) != b, "another property budget: another search")
        args.programs = 1000
        with open(os.path.join(tmp, "b", "bin", "stridecheck"), "ab") as f:
            f.write(b"relinked")
        check(mutation.search_fingerprint(args, bdir) != b, "another binary: another search")


def test_run_files_keeps_the_sample():
    universe = []
    for f in ("engine/a.cpp", "engine/b.cpp", "engine/views/c.cpp", "engine/views/d.cpp"):
        for i in range(50):
            universe.append({"key": f"{f}@{i:04x}#0:1:rel:<-><=", "file": f, "op": "rel", "id": len(universe),
                             "mutation": "< -> <="})
    args = argparse.Namespace(ops=None, only=None, sample=40, sample_seed="11")
    whole = mutation.select(universe, args)
    part = mutation.select_in_files(universe, args, ["engine/views/*"])
    check(len(whole) == 40, "the sample's size")
    check([m["key"] for m in part] == [m["key"] for m in whole if m["file"].startswith("engine/views/")],
          "--run-files keeps the sample's members in those files")
    check(0 < len(part) < 40, f"members in engine/views: {len(part)}")
    # A new sample of the views files alone would be other mutants.
    alone = mutation.select([m for m in universe if m["file"].startswith("engine/views/")], args)
    check({m["key"] for m in alone} != {m["key"] for m in part}, "not a new sample of those files")


def test_stale_headers():
    with tempfile.TemporaryDirectory() as tmp:
        root, reuse = os.path.join(tmp, "root"), os.path.join(tmp, "reuse")
        os.makedirs(os.path.join(root, "engine", "views"))
        os.makedirs(reuse)
        files = ["engine/a.h", "engine/views/b.h", "engine/c.cpp", "program/d.h"]
        for f in files:
            os.makedirs(os.path.dirname(os.path.join(root, f)), exist_ok=True)
            open(os.path.join(root, f), "w").close()
            os.utime(os.path.join(root, f), (1000, 1000))
        check(mutation.stale_headers(root, reuse, files) == [], "no engine library: nothing to compare")
        lib = os.path.join(reuse, "libstridecheck_engine.a")
        open(lib, "w").close()
        os.utime(lib, (2000, 2000))
        check(mutation.stale_headers(root, reuse, files) == [], "built after every header")
        for f in ("engine/views/b.h", "engine/c.cpp", "program/d.h"):
            os.utime(os.path.join(root, f), (3000, 3000))
        check(mutation.stale_headers(root, reuse, files) == ["engine/views/b.h"],
              "only engine headers count (a .cpp is compiled from the tree, program/ is not mutated)")


def test_killed_only_by_corpus():
    results = [outcome("f@1", "killed", "property"), outcome("f@2", "killed", "corpus"),
               outcome("f@3", "timeout", "corpus"), outcome("f@4", "timeout", "property"),
               outcome("f@5", "survived"), outcome("f@6", "survived", "not reached")]
    check([r["key"] for r in mutation.killed_only_by_corpus(results)] == ["f@2", "f@3"],
          "only the corpus's kills and timeouts are the generator's gaps")


def main():
    test_killed_only_by_corpus()
    test_stale_headers()
    test_results_file()
    test_fingerprint()
    test_run_files_keeps_the_sample()
    print("mutation_results_test: ok")


if __name__ == "__main__":
    main()
