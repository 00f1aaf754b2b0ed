#!/usr/bin/env python3
"""scripts/mutation.py's saved outcomes and --run-files: a run appends each
mutant's outcome with the search's fingerprint; a re-run reads back only the
lines of the same search (a line cut short by a stop is skipped, a later line
wins), so a stopped run keeps what it scored; --run-files keeps the members of
the sample taken over every file, not a new sample of the named files; a
reused build older than an engine header is found (its objects would be
linked with mutants compiled against the new headers); the kills only the
corpus made (what a --no-corpus run would score survived) are told apart;
--property-seeds K runs every seed (a kill does not stop the others), the
corpus only when none killed, and the per-seed kill rate is the mean share."""
import argparse
import json
import os
import stat
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


def fake_bin(path, body):
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body + "\n")
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)


def test_property_seeds():
    with tempfile.TemporaryDirectory() as tmp:
        bdir = os.path.join(tmp, "b")
        os.makedirs(os.path.join(bdir, "bin"))
        log = os.path.join(tmp, "ran")
        # A property that the mutant "7" fails under even seeds only; the corpus fails under mutant "8".
        fake_bin(os.path.join(bdir, "bin", "property_tests"),
                 f'echo "property $RC_PARAMS" >> {log}\n'
                 'seed=$(echo "$RC_PARAMS" | sed "s/.*seed=\\([0-9]*\\).*/\\1/")\n'
                 '[ "$STRIDECHECK_MUTANT" = 7 ] && [ $((seed % 2)) = 0 ] && exit 1\nexit 0')
        fake_bin(os.path.join(bdir, "bin", "stridecheck"),
                 f'echo corpus >> {log}\n[ "$STRIDECHECK_MUTANT" = 8 ] && exit 1\nexit 0')
        args = argparse.Namespace(root=tmp, no_corpus=False, property="*", seed=10, programs=5, max_size=3,
                                  property_seeds=3)
        check(mutation.property_seeds(args) == [10, 11, 12], "K seeds from --seed up")

        def ran():
            with open(log) as f:
                lines = f.read().split("\n")[:-1]
            os.unlink(log)
            return lines
        st, by, _, kills = mutation.run_seeds(args, bdir, {"STRIDECHECK_MUTANT": "7"}, 20)
        check((st, by, kills) == ("killed", "property", 2), f"seeds 10 and 12 kill: {st} {by} {kills}")
        lines = ran()
        check(len(lines) == 3 and all(ln.startswith("property") for ln in lines),
              f"every seed runs after the first kill, the corpus does not: {lines}")
        st, by, _, kills = mutation.run_seeds(args, bdir, {"STRIDECHECK_MUTANT": "8"}, 20)
        check((st, by, kills) == ("killed", "corpus", 0), f"no seed kills, the corpus does: {st} {by} {kills}")
        check(ran()[-1] == "corpus", "the corpus runs when no seed killed")
        st, by, _, kills = mutation.run_seeds(args, bdir, {"STRIDECHECK_MUTANT": "9"}, 20)
        check((st, by, kills) == ("pass", "", 0), "a survivor")
        ran()
        # K = 1 (the default): one property run, the first failure stops (the runs before the option).
        args.property_seeds, args.seed = 1, 11
        check(mutation.run_checks(args, bdir, {"STRIDECHECK_MUTANT": "7"}, 20)[:2] == ("pass", "")
              and len(ran()) == 2, "seed 11 alone: property and corpus, both pass")
        args.seed = 12
        check(mutation.run_checks(args, bdir, {"STRIDECHECK_MUTANT": "7"}, 20)[:2] == ("killed", "property")
              and len(ran()) == 1, "seed 12 alone kills; the corpus does not run")
        # The fingerprint: K = 1 is the fingerprint of the runs before --property-seeds; K = 3 another.
        fp1 = mutation.search_fingerprint(argparse.Namespace(**dict(vars(args), no_corpus=True)), bdir)
        legacy = argparse.Namespace(**{k: v for k, v in vars(args).items() if k != "property_seeds"})
        legacy.no_corpus = True
        check(fp1 == mutation.search_fingerprint(legacy, bdir), "K = 1: the old fingerprint")
        args.property_seeds = 3
        check(mutation.search_fingerprint(argparse.Namespace(**dict(vars(args), no_corpus=True)), bdir) != fp1,
              "K = 3: another search")
    results = [dict(outcome("f@1", "killed", "property"), seed_kills=3),
               dict(outcome("f@2", "killed", "property"), seed_kills=1),
               dict(outcome("f@3", "killed", "corpus"), seed_kills=0),
               dict(outcome("f@4", "survived"), seed_kills=0),
               dict(outcome("f@5", "survived"), seed_kills=0)]  # listed as equivalent
    rate, any_seed, n = mutation.per_seed_rate(results, 3, {"f@5"})
    check((any_seed, n) == (2, 4), f"any seed: 2 of the 4 scored: {any_seed}/{n}")
    check(abs(rate - 100.0 * (1 + 1 / 3) / 4) < 1e-9, f"per-seed rate is the mean of kills/K: {rate}")


def test_exhaust_killer():
    """The enumeration runs after the property and before the corpus; after its kill the corpus still
    runs (the kill rate without it stays exact), after a property kill nothing does (but with
    --every-killer); killed_only_by tells apart what only it or only the corpus killed."""
    with tempfile.TemporaryDirectory() as tmp:
        bdir = os.path.join(tmp, "b")
        os.makedirs(os.path.join(bdir, "bin"))
        log = os.path.join(tmp, "ran")
        # Mutant 1: the property kills; 2: the enumeration alone; 3: the enumeration and the corpus;
        # 4: the corpus alone. The enumeration gets a fresh --out folder each run.
        fake_bin(os.path.join(bdir, "bin", "property_tests"),
                 f'echo property >> {log}\n[ "$STRIDECHECK_MUTANT" = 1 ] && exit 1\nexit 0')
        fake_bin(os.path.join(bdir, "bin", "stridecheck"),
                 f'echo "$1" >> {log}\n'
                 'if [ "$1" = exhaust ]; then [ -d "$4" ] || exit 3; '
                 'case "$STRIDECHECK_MUTANT" in 1|2|3) exit 1;; esac; exit 0; fi\n'
                 'case "$STRIDECHECK_MUTANT" in 1|3|4) exit 1;; esac; exit 0')
        args = argparse.Namespace(root=tmp, no_corpus=False, property="*", seed=10, programs=5, max_size=3,
                                  exhaust_args="--first-failure")

        def ran():
            with open(log) as f:
                lines = f.read().split("\n")[:-1]
            os.unlink(log)
            return lines
        results = []
        for m, by, killers, order in [("1", "property", ["property"], ["property"]),
                                      ("2", "exhaust", ["exhaust"], ["property", "exhaust", "replay"]),
                                      ("3", "exhaust", ["exhaust", "corpus"], ["property", "exhaust", "replay"]),
                                      ("4", "corpus", ["corpus"], ["property", "exhaust", "replay"]),
                                      ("5", "", [], ["property", "exhaust", "replay"])]:
            st, got_by, _, detail = mutation.run_checks(args, bdir, {"STRIDECHECK_MUTANT": m}, 20)
            check((got_by, detail["killers"]) == (by, killers), f"mutant {m}: {got_by} {detail['killers']}")
            check(ran() == order, f"mutant {m}: the checks run in order {order}")
            results.append(dict(outcome(f"f@{m}", "killed" if by else "survived", by), killers=killers))
        check([r["key"] for r in mutation.killed_only_by(results, "exhaust")] == ["f@2"], "only the enumeration: 2")
        check([r["key"] for r in mutation.killed_only_by(results, "corpus")] == ["f@4"], "only the corpus: 4")
        st, by, _, detail = mutation.run_checks(args, bdir, {"STRIDECHECK_MUTANT": "1"}, 20, every=True)
        check(detail["killers"] == ["property", "exhaust", "corpus"] and len(ran()) == 3, "--every-killer runs all")
        fp = mutation.search_fingerprint(args, bdir)
        check(fp != mutation.search_fingerprint(argparse.Namespace(**dict(vars(args), exhaust_args=None)), bdir),
              "with and without the enumeration: two searches")


def main():
    test_exhaust_killer()
    test_property_seeds()
    test_killed_only_by_corpus()
    test_stale_headers()
    test_results_file()
    test_fingerprint()
    test_run_files_keeps_the_sample()
    print("mutation_results_test: ok")


if __name__ == "__main__":
    main()
