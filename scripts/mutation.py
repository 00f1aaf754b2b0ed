#!/usr/bin/env python3
"""Mutation testing of the engine against the search (scripts/mutation.sh --help).

1. Copies the tree into <build-dir>/src and rewrites the engine's files as
   mutant schemata (scripts/mutation_schema.py): every mutant is compiled in,
   guarded by its id, so one Release build serves them all. A mutant that does
   not compile is dropped (build failure) and the file is rewritten without it.
2. Runs the search once with no mutant active, tracing which mutation points
   it reaches: it must pass, and a mutant whose point it never reaches cannot
   be killed (reported as survived, "not reached", without a run).
3. For each selected mutant: STRIDECHECK_MUTANT=<id>, the differential
   property (fixed seed and budget, no shrinking), then the corpus replay,
   stopping at the first failure: killed, survived or timeout. With
   --property-seeds K the property runs with K seeds, every one of them (a
   kill does not stop the others), then the corpus when none killed: a hard
   mutant's kill is a draw, and how many of the K seeds kill it says how
   often the generator alone finds it (the per-seed kill rate is their mean).
4. Prints the kill rate and every survivor with file:line and the mutation;
   survivors listed in scripts/mutation_equivalent.txt (by stable key) are
   counted as equivalent, not as new survivors; those listed with a tag
   `[only X.Y]` lie on a path only the X.Y profile takes: under another
   oracle they are counted on their own line (version-gated), under X.Y they
   must be killed like any other. Exit status 1 when a survivor is new.
5. Each mutant's outcome is appended to <build-dir>/results.jsonl as it is
   scored. A re-run in the same build folder skips the selected mutants
   already scored there by the same search (the same two binaries, corpus and
   check parameters: their fingerprint is on each line), so a stopped run
   keeps what it scored; --fresh ignores the file.
"""
import argparse
import concurrent.futures
import fnmatch
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mutation_schema as schema  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_FILES = ["engine/*.cpp", "engine/*.h", "engine/*/*.cpp", "engine/*/*.h", "engine/*/*/*.cpp",
                 "engine/*/*/*.h"]
# Not mutated: the claim recorder is part of the checking machinery (program/undefined_check.h),
# the brute-force overlap enumeration is the solver properties' reference (properties/
# overlap_solver_test.cpp), CUDA is not built here.
EXCLUDE = ["engine/undefined_claims.*", "engine/overlap_brute_force.*", "engine/kernels/cuda/*",
           schema.SCHEMA_HEADER]


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def tracked_files(root):
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=root, capture_output=True,
                         text=True, check=True).stdout.split("\n")
    return [f for f in out if f and os.path.isfile(os.path.join(root, f))]


def write_if_changed(path, data):
    if isinstance(data, str):
        data = data.encode()
    if os.path.exists(path):
        with open(path, "rb") as f:
            if f.read() == data:
                return False
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    return True


def target_files(files, patterns):
    sel = [f for f in files if any(fnmatch.fnmatch(f, p) for p in patterns)]
    sel = [f for f in sel if not any(fnmatch.fnmatch(f, p) for p in EXCLUDE)]
    return sorted(set(sel))


class Schemata:
    """The rewritten files and their mutants; cached by file contents in <build>/schemata.json."""

    def __init__(self, build, root):
        self.build, self.root = build, root
        self.cache_path = os.path.join(build, "schemata.json")
        self.cache = json.load(open(self.cache_path)) if os.path.exists(self.cache_path) else {}
        with open(schema.__file__, "rb") as f:  # a new rewriter: nothing cached holds
            self.rewriter = hashlib.sha1(f.read()).hexdigest()
        if self.cache.get("_rewriter") != self.rewriter:
            self.cache = {}
        self.dropped = set(self.cache.get("_dropped", []))

    def file_entry(self, path):
        with open(os.path.join(self.root, path), "rb") as f:
            text = f.read()
        mine = sorted(k for k in self.dropped if k.startswith(path + "@"))
        digest = hashlib.sha1(text + json.dumps(mine).encode()).hexdigest()
        c = self.cache.get(path)
        if c and c["digest"] == digest:
            return c
        log(f"mutation: finding mutation points in {path}")
        points = schema.find_points(path, [f"-I{self.root}"], self.root, text)
        keys = schema.stable_keys(path, text, points)
        # Drop the points with a mutant that did not compile (all its variants).
        k = 0
        kept = []
        for p in points:
            pk = keys[k:k + len(p.variants)]
            k += len(p.variants)
            if not any(x in self.dropped for x in pk):
                kept.append((p, pk))
        # A point the rewrite cannot place (overlapping another, not nested) would be a mutant
        # that changes nothing: such points are left out, and the rest rendered again.
        while True:
            mutants = []
            for p, pk in kept:
                p.ids = [f"@@M{len(mutants) + i}@@" for i in range(len(p.variants))]
                for v, key in zip(p.variants, pk):
                    mutants.append({"key": key, "file": path, "line": p.line, "col": p.col, "op": p.op,
                                    "mutation": v, "cuda_only": p.cuda_only, "in_check": p.in_check})
            body = schema.render(text, [p for p, _ in kept])
            placed = set(re.findall(r"@@M(\d+)@@", body))
            lost = [(p, pk) for p, pk in kept if p.ids[0][3:-2] not in placed]
            if not lost:
                break
            log(f"mutation: {path}: {len(lost)} point(s) overlap others and are left out: "
                + ", ".join(pk[0] for _, pk in lost[:5]))
            kept = [x for x in kept if x not in lost]
        c = {"digest": digest, "text": body, "mutants": mutants}
        self.cache[path] = c
        return c

    def save(self):
        self.cache["_dropped"] = sorted(self.dropped)
        self.cache["_rewriter"] = self.rewriter
        with open(self.cache_path, "w") as f:
            json.dump(self.cache, f)


def sync_tree(root, src, files):
    for f in files:
        with open(os.path.join(root, f), "rb") as fh:
            write_if_changed(os.path.join(src, f), fh.read())


def write_schemata(sch, targets, src):
    """Writes the rewritten files; returns the mutant list (id = index) and the id -> file map."""
    mutants = []
    for path in targets:
        e = sch.file_entry(path)
        base = len(mutants)
        text = re.sub(r"@@M(\d+)@@", lambda m: str(base + int(m.group(1))), e["text"])
        if e["mutants"]:
            text = f'#include "{schema.SCHEMA_HEADER}"  // mutant schemata (scripts/mutation.sh)\n' + text
        write_if_changed(os.path.join(src, path), text)
        for m in e["mutants"]:
            mutants.append(dict(m, id=len(mutants)))
    write_if_changed(os.path.join(src, schema.SCHEMA_HEADER), schema.schema_header(len(mutants)))
    sch.save()
    return mutants


ERROR_LINE = re.compile(r"^(\S+?):(\d+):(?:\d+:)? (?:error|.*required from|.*In instantiation|note: in instantiation)")


def blame(output, cwd, src, targets, mutants):
    """Keys of the mutants on the lines the compiler's errors point at."""
    bad = set()
    by_id = {m["id"]: m for m in mutants}
    for ln in output.split("\n"):
        m = ERROR_LINE.match(ln)
        if not m:
            continue
        f = m.group(1) if os.path.isabs(m.group(1)) else os.path.normpath(os.path.join(cwd, m.group(1)))
        rel = os.path.relpath(f, src)
        if rel not in targets:
            continue
        with open(os.path.join(src, rel)) as fh:
            lines = fh.read().split("\n")
        n = int(m.group(2))
        if 0 < n <= len(lines):
            for i in re.findall(r"sc_mutant::\w+\((\d+)", lines[n - 1]):
                if int(i) in by_id:
                    bad.add(by_id[int(i)]["key"])
    return bad


def build_cmake(args, src, bdir):
    """A Release build of the copied tree (headers may be mutated too)."""
    if not os.path.exists(os.path.join(bdir, "build.ninja")):
        cmd = ["cmake", "-S", src, "-B", bdir, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
               "-DSTRIDECHECK_WITH_BENCH=OFF", "-DSTRIDECHECK_WITH_CUDA=OFF"]
        if shutil.which("ccache"):
            cmd.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    r = subprocess.run(["ninja", "-C", bdir, "-k", "0", f"-j{args.build_jobs}", "property_tests", "stridecheck"],
                       capture_output=True, text=True)
    return r.returncode == 0, r.stdout + r.stderr, bdir


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def includes(root, path, memo):
    """The quoted includes of `path` (relative to root), transitively."""
    if path in memo:
        return memo[path]
    memo[path] = set()
    try:
        text = open(os.path.join(root, path), errors="replace").read()
    except OSError:
        return memo[path]
    out = set()
    for inc in INCLUDE.findall(text):
        if os.path.isfile(os.path.join(root, inc)):
            out |= {inc} | includes(root, inc, memo)
    memo[path] = out
    return out


def engine_internal_headers(root, files):
    """The engine headers no file outside engine/ includes, even through another header (tests/ aside:
    the mutants run in property_tests and stridecheck only). --reuse-build mutates them too: every
    engine .cpp including one is compiled again, so each inline function has one (mutated) body."""
    memo = {}
    public = set()
    for f in files:
        if not f.startswith(("engine/", "tests/")) and f.endswith((".cpp", ".h", ".cc")):
            public |= includes(root, f, memo)
    return sorted(f for f in files if f.startswith("engine/") and f.endswith(".h") and f not in public)


def stale_headers(root, reuse, files):
    """The engine headers changed since the reused build's engine library was made: the mutated .cpp
    files would be compiled against them and linked with objects compiled against the old ones."""
    lib = os.path.join(reuse, "libstridecheck_engine.a")
    if not os.path.exists(lib):
        return []
    t = os.path.getmtime(lib)
    return sorted(f for f in files if f.startswith("engine/") and f.endswith(".h")
                  and os.path.getmtime(os.path.join(root, f)) > t)


def build_reusing(args, src, bdir, targets):
    """Only the mutated engine .cpp files are compiled (with the reused build's flags); the engine
    library is re-archived and the two programs relinked against the reused build's other libraries."""
    reuse = os.path.abspath(args.reuse_build)
    commands = {os.path.normpath(e["file"]): e for e in json.load(open(os.path.join(reuse, "compile_commands.json")))}
    objdir = os.path.join(bdir, "obj")
    os.makedirs(os.path.join(bdir, "bin"), exist_ok=True)
    engine_objs, jobs, memo = [], [], {}
    for f, e in sorted(commands.items()):
        rel = os.path.relpath(f, args.root)
        if not (rel.startswith("engine/") and rel.endswith(".cpp")) or "/cuda/" in rel:
            continue
        argv = shlex.split(e["command"])
        out_i = argv.index("-o") + 1
        orig_obj = os.path.join(reuse, argv[out_i])
        mutated_headers = [h for h in includes(src, rel, memo) if h in targets]
        if rel not in targets and not mutated_headers:
            engine_objs.append(orig_obj)
            continue
        obj = os.path.join(objdir, rel + ".o")
        engine_objs.append(obj)
        mine = os.path.join(src, rel)
        newest = max(os.path.getmtime(p) for p in [mine, orig_obj] + [os.path.join(src, h) for h in mutated_headers])
        if os.path.exists(obj) and os.path.getmtime(obj) >= newest:
            continue
        os.makedirs(os.path.dirname(obj), exist_ok=True)
        argv[out_i] = obj
        argv[argv.index("-c") + 1] = mine
        argv.insert(1, f"-I{src}")  # before the tree's own -I: the mutated headers are src's
        jobs.append(argv)
    output, ok = "", True
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.build_jobs) as ex:
        for argv, r in zip(jobs, ex.map(lambda a: subprocess.run(a, cwd=reuse, capture_output=True, text=True), jobs)):
            output += r.stdout + r.stderr
            ok &= r.returncode == 0
    if not ok:
        return False, output, reuse
    lib = os.path.join(bdir, "libstridecheck_engine.a")
    if os.path.exists(lib):
        os.unlink(lib)
    subprocess.run(["ar", "qcs", lib, *engine_objs], check=True)
    for prog in ("property_tests", "stridecheck"):
        cmd = subprocess.run(["ninja", "-C", reuse, "-t", "commands", f"bin/{prog}"], capture_output=True,
                             text=True, check=True).stdout.strip().split("\n")[-1]
        cmd = cmd.removeprefix(": && ").split(" && cd ")[0].removesuffix(" && :")
        argv = shlex.split(cmd)
        argv[argv.index("-o") + 1] = os.path.join(bdir, "bin", prog)
        argv = [lib if a == "libstridecheck_engine.a" else a for a in argv]
        r = subprocess.run(argv, cwd=reuse, capture_output=True, text=True)
        if r.returncode != 0:
            return False, r.stdout + r.stderr, reuse
    return True, "", reuse


def build(args, sch, targets, src, bdir):
    for attempt in range(8):
        mutants = write_schemata(sch, targets, src)
        log(f"mutation: building {len(mutants)} mutants into {bdir} (attempt {attempt + 1})")
        if args.reuse_build:
            ok, output, cwd = build_reusing(args, src, bdir, targets)
        else:
            ok, output, cwd = build_cmake(args, src, bdir)
        if ok:
            return mutants
        bad = blame(output, cwd, src, targets, mutants)
        if not bad:
            sys.stderr.write(output[-8000:])
            raise SystemExit("mutation: the build fails and no mutant is to blame (see above)")
        log(f"mutation: {len(bad)} mutant(s) do not compile; rewriting without them")
        sch.dropped |= bad
    raise SystemExit("mutation: the build still fails after dropping mutants")


def property_seeds(args):
    """The property's seeds: --seed, and with --property-seeds K the K seeds from --seed up."""
    return [args.seed + i for i in range(max(1, getattr(args, "property_seeds", 1)))]


OUT_DIR = "@OUT@"  # in a check's argv: a fresh scratch folder per run (exhaust writes its failures there)


def exhaust_argv(args, bdir):
    """`stridecheck exhaust` as a killer (the domain enumeration, tools/exhaust.cpp), or None
    (--no-exhaust, or an args without the option: the runs before it)."""
    extra = getattr(args, "exhaust_args", None)
    if extra is None:
        return None
    return [os.path.join(bdir, "bin", "stridecheck"), "exhaust", "--quiet", "--out", OUT_DIR, "--known",
            os.path.join(args.root, "corpus", "known_divergences.txt"), *shlex.split(extra)]


def checks(args, bdir):
    """The search's checks, cheapest first: (name, argv, env); one property check per seed, then
    the enumeration (8 s on an idle core, its --first-failure stops at a kill), then the corpus
    replay (21 s)."""
    prop = [os.path.join(bdir, "bin", "property_tests"), f"--gtest_filter={args.property}"]
    replay = [os.path.join(bdir, "bin", "stridecheck"), "replay", os.path.join(args.root, "corpus")]
    out = [("property", prop, {"RC_PARAMS": f"seed={s} max_success={args.programs} max_size={args.max_size} noshrink=1"})
           for s in property_seeds(args)]
    if (exhaust := exhaust_argv(args, bdir)) is not None:
        out.append(("exhaust", exhaust, {}))
    if not args.no_corpus:
        out.append(("corpus", replay, {}))
    return out


def run_one(argv, env, timeout):
    """'pass', 'killed' or 'timeout'."""
    scratch = tempfile.mkdtemp(prefix="mutation-") if OUT_DIR in argv else None
    argv = [scratch if a == OUT_DIR else a for a in argv]
    try:
        r = subprocess.run(argv, env=dict(os.environ, **env), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout"
    finally:
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)
    return "pass" if r.returncode == 0 else "killed"


def run_checks(args, bdir, env_extra, timeout, durations=None, every=False):
    """('pass'|'killed'|'timeout', which check, seconds, detail), stopping at the first failure
    except that after a kill by the enumeration the corpus still runs (so the kill rate without the
    enumeration is known), and with every=True (--every-killer) every check runs; detail holds
    killers (the checks that failed or timed out, in order) and check_secs (each check's seconds).
    Each check's seconds are also appended to `durations` when given."""
    t0 = time.time()
    first, killers, check_secs = None, [], {}
    for name, argv, env in checks(args, bdir):
        if first and not every and not (first[1] == "exhaust" and name == "corpus"):
            break
        t1 = time.time()
        st = run_one(argv, dict(env, **env_extra), timeout)
        check_secs[name] = round(check_secs.get(name, 0.0) + time.time() - t1, 2)
        if durations is not None:
            durations.append(time.time() - t1)
        if st != "pass":
            killers.append(name)
            first = first or (st, name)
    st, by = first or ("pass", "")
    return st, by, time.time() - t0, {"killers": killers, "check_secs": check_secs}


def run_seeds(args, bdir, env_extra, timeout):
    """--property-seeds K: every property seed is run (a kill does not stop the others), then the corpus
    when no seed killed. ('pass'|'killed'|'timeout' of the first check that failed, which check,
    seconds, how many of the K seeds killed: failed or timed out)."""
    t0 = time.time()
    first, seed_kills = None, 0
    for name, argv, env in checks(args, bdir):
        if name != "property" and first:
            break
        st = run_one(argv, dict(env, **env_extra), timeout)
        if name == "property" and st != "pass":
            seed_kills += 1
        if st != "pass" and not first:
            first = (st, name)
    st, by = first or ("pass", "")
    return st, by, time.time() - t0, seed_kills


def per_seed_rate(results, k, excluded):
    """The generator alone's per-seed kill rate: the mean over the scored mutants (not `excluded`:
    equivalent or version-gated keys) of the share of the K property seeds that killed each; with the
    any-seed count (the mutants some seed killed) and how many were scored. (rate %, any, n)"""
    scored = [r for r in results if r["key"] not in excluded]
    if not scored:
        return 100.0, 0, 0
    rate = 100.0 * sum(r.get("seed_kills", 0) / k for r in scored) / len(scored)
    return rate, sum(1 for r in scored if r.get("seed_kills", 0) > 0), len(scored)


def killed_only_by_corpus(results):
    """The mutants (killed or timed out) that only the corpus replay caught. The property runs first
    and alone decides a --no-corpus run (same seed and budget), so every other kill is the generator's
    own; these are gaps in the generator (a --no-corpus run would score them survived)."""
    return [r for r in results if r["status"] in ("killed", "timeout") and r["by"] == "corpus"]


def killed_only_by(results, name):
    """The mutants (killed or timed out) that of the checks run on them only `name` killed. Without
    --every-killer a kill stops the later checks, so this is exact for the last checks run: the
    corpus (the property and the enumeration passed) and the enumeration (the property passed and
    the corpus, run after its kill, passed); a property kill is its own only with --every-killer."""
    return [r for r in results if r["status"] in ("killed", "timeout") and r.get("killers", [r["by"]]) == [name]]


def exhaust_seconds(results):
    """The enumeration's seconds per mutant it ran on (recorded per check in `check_secs`)."""
    secs = [r["check_secs"]["exhaust"] for r in results if "exhaust" in r.get("check_secs", {})]
    if not secs:
        return "no mutant"
    secs.sort()
    return f"{len(secs)} mutants, median {secs[len(secs) // 2]:.1f} s, mean {sum(secs) / len(secs):.1f} s"


def load_equivalent(path):
    """key -> (version, reason): version "" for an equivalent mutant, "X.Y" for one on a path only
    the X.Y profile takes (listed as `<key> [only X.Y] <reason>`)."""
    eq = {}
    if os.path.exists(path):
        for ln in open(path):
            ln = ln.strip()
            if not ln or ln.startswith("#"):
                continue
            key, _, reason = ln.partition(" ")
            m = re.match(r"\[only (\d+\.\d+)\]\s*(.*)", reason.strip())
            eq[key] = (m.group(1), m.group(2)) if m else ("", reason.strip())
    return eq


def engine_semantics(bdir):
    """The PyTorch version the built engine imitates ("2.15"), from `stridecheck --version`."""
    r = subprocess.run([os.path.join(bdir, "bin", "stridecheck"), "--version"], capture_output=True, text=True)
    m = re.search(r"engine semantics: PyTorch (\d+\.\d+)", r.stdout)
    return m.group(1) if m else ""


def op_matches(m, o):
    """--ops entry `o`: an operator family (rel), one of its mutations (const:1->2, spaces dropped),
    or in-check (any mutant inside an SC_CHECK's arguments)."""
    if o == "in-check":
        return bool(m.get("in_check"))
    fam, _, mutation = o.partition(":")
    return m["op"] == fam and (not mutation or m["mutation"].replace(" ", "") == mutation)


def select(mutants, args):
    sel = mutants
    if args.ops:
        sel = [m for m in sel if any(op_matches(m, o) for o in args.ops.split(","))]
    if args.only:
        wanted = set(args.only.split(","))
        sel = [m for m in mutants if m["key"] in wanted or str(m["id"]) in wanted]
        missing = wanted - {m["key"] for m in sel} - {str(m["id"]) for m in sel}
        if missing:  # the line changed since the key was taken
            log(f"mutation: no such mutant (any more): {', '.join(sorted(missing))}")
    if args.sample and args.sample < len(sel):
        sel = sorted(sel, key=lambda m: hashlib.sha1(f"{args.sample_seed}:{m['key']}".encode()).hexdigest())
        sel = sorted(sel[:args.sample], key=lambda m: m["id"])
    return sel


def select_in_files(universe, args, patterns):
    """The mutants select() chooses from the whole universe that lie in files matching patterns."""
    return [m for m in select([m for m in universe if not m.get("cuda_only")], args)
            if any(fnmatch.fnmatch(m["file"], p) for p in patterns)]


def source_line(root, m):
    try:
        return open(os.path.join(root, m["file"])).read().split("\n")[m["line"] - 1].strip()
    except (OSError, IndexError):
        return ""


def sha1_of_files(paths, base):
    h = hashlib.sha1()
    for p in paths:
        h.update(os.path.relpath(p, base).encode() + b"\0")
        with open(p, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
    return h.hexdigest()


def search_fingerprint(args, bdir):
    """What a mutant's outcome depends on besides its key: the mutant binaries (they hold every
    schema and the properties), the corpus and the check parameters (not the timeout)."""
    corpus = []
    if not args.no_corpus:
        for d, _, fs in os.walk(os.path.join(args.root, "corpus")):
            corpus += [os.path.join(d, f) for f in fs]
    params = [args.property, args.seed, args.programs, args.max_size, args.no_corpus]
    if getattr(args, "exhaust_args", None) is not None:  # the runs before the enumeration keep their fingerprint
        params.append(["exhaust", args.exhaust_args, getattr(args, "every_killer", False)])
    if len(property_seeds(args)) > 1:  # K = 1 keeps the fingerprint of the runs before --property-seeds
        params.append(len(property_seeds(args)))
    params = json.dumps(params)
    bins = [os.path.join(bdir, "bin", p) for p in ("property_tests", "stridecheck")]
    return hashlib.sha1((params + sha1_of_files(bins, bdir)
                          + sha1_of_files(sorted(corpus), args.root)).encode()).hexdigest()[:16]


RESULT_FIELDS = ("status", "by", "secs")
SEED_FIELDS = RESULT_FIELDS + ("seed_kills",)  # --property-seeds K > 1
OPTIONAL_FIELDS = ("killers", "check_secs")  # not on the lines written before the enumeration killer


def load_results(path, fingerprint, fields=RESULT_FIELDS):
    """key -> the outcome recorded for it by a run with this fingerprint (the last one wins);
    a line cut short by a stop (or written by another search) is ignored."""
    done = {}
    if not os.path.exists(path):
        return done
    with open(path) as f:
        for ln in f:
            try:
                r = json.loads(ln)
            except ValueError:
                continue
            if isinstance(r, dict) and r.get("fingerprint") == fingerprint and "key" in r \
                    and all(k in r for k in fields):
                done[r["key"]] = r
    return done


def append_result(path, r, fingerprint):
    with open(path, "a+b") as f:
        if f.tell() > 0:  # a line cut short by a stop ends here: the next line must not join it
            f.seek(f.tell() - 1)
            if f.read(1) != b"\n":
                f.write(b"\n")
        f.write((json.dumps(dict(r, fingerprint=fingerprint), sort_keys=True) + "\n").encode())
        f.flush()
        os.fsync(f.fileno())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default=ROOT)
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build-mutation"))
    ap.add_argument("--files", default=",".join(DEFAULT_FILES), help="comma-separated globs of files to mutate")
    ap.add_argument("--only", help="comma-separated mutant keys or ids to run")
    ap.add_argument("--run-files", help="comma-separated globs: after --ops/--only/--sample chose the mutants "
                    "(from all of --files), run only those in these files; only these files are built as "
                    "schemata (so a sample's members in some files are run without building the rest)")
    ap.add_argument("--ops", help="comma-separated operator families to run (rel, msg, ...), a single mutation "
                    "(const:1->2) or in-check (mutants inside SC_CHECK's arguments); before --sample")
    ap.add_argument("--sample", type=int, default=0, help="run a fixed pseudo-random sample of this many mutants")
    ap.add_argument("--sample-seed", default="1")
    ap.add_argument("--shuffle", action="store_true", help="run the selected mutants in a pseudo-random order "
                    "(by --sample-seed), not file by file: a run stopped early (its outcomes are kept) has "
                    "sampled every file")
    ap.add_argument("--programs", type=int, default=1000, help="generated programs per mutant (property budget)")
    ap.add_argument("--max-size", type=int, default=300)
    ap.add_argument("--seed", type=int, default=20261130)
    ap.add_argument("--property-seeds", type=int, default=1, metavar="K",
                    help="run the property with K seeds (--seed, --seed+1, ...) per mutant, each one even after "
                    "another killed it, and report per mutant how many killed it and the generator alone's "
                    "per-seed kill rate (the mean of kills/K) beside the any-seed rate; the corpus runs only "
                    "when no seed killed")
    ap.add_argument("--property", default="*:-PlantedBug.*",
                    help="gtest filter of property_tests (default: every property but the planted-bug demo)")
    ap.add_argument("--no-corpus", action="store_true", help="skip the corpus replay")
    ap.add_argument("--exhaust-args", default="--first-failure",
                    help="options of the enumeration killer, `stridecheck exhaust` run after the property and "
                    "before the corpus (default %(default)s; e.g. '--first-failure --phase 1')")
    ap.add_argument("--no-exhaust", action="store_true", help="skip the enumeration (the runs before it)")
    ap.add_argument("--every-killer", action="store_true",
                    help="run every check on every reached mutant, even after one killed it, and report per "
                    "check the mutants only it killed (by default the first kill stops, but after a kill by the "
                    "enumeration the corpus still runs: the kill rate without the enumeration stays exact)")
    ap.add_argument("--jobs", type=int, default=1, help="mutants run at once")
    ap.add_argument("--build-jobs", type=int, default=2)
    ap.add_argument("--reuse-build", help="an existing build folder (e.g. build/): compile only the mutated engine "
                    ".cpp files with its flags and relink against its other libraries (headers are not mutated); it must "
                    "be built at the tree's engine headers (refused when one is newer than its engine library)")
    ap.add_argument("--timeout", type=float, default=0, help="seconds per check (default: 5x the clean run, >= 20)")
    ap.add_argument("--equivalent", default=os.path.join(ROOT, "scripts", "mutation_equivalent.txt"))
    ap.add_argument("--list", action="store_true", help="list the mutants and exit (no build)")
    ap.add_argument("--build-only", action="store_true", help="build the schemata and exit")
    ap.add_argument("--json", help="write every mutant's outcome here")
    ap.add_argument("--results", help="the outcomes as they are scored, one JSON line each, read back to "
                    "skip those already scored (default <build-dir>/results.jsonl)")
    ap.add_argument("--fresh", action="store_true", help="score every selected mutant again (ignore --results)")
    args = ap.parse_args()
    args.root = os.path.abspath(args.root)
    if args.no_exhaust:
        args.exhaust_args = None
    bdir_root = os.path.abspath(args.build_dir)
    src, bdir = os.path.join(bdir_root, "src"), os.path.join(bdir_root, "build")
    os.makedirs(bdir_root, exist_ok=True)

    files = tracked_files(args.root)
    targets = target_files(files, args.files.split(","))
    if args.reuse_build:  # headers only where no file outside the engine includes them
        internal = set(engine_internal_headers(args.root, files))
        targets = [t for t in targets if t.endswith(".cpp") or t in internal]
    sch = Schemata(bdir_root, args.root)
    if args.list:
        for m in write_schemata(sch, targets, src):
            flags = ("\tcuda-only" if m.get("cuda_only") else "") + ("\tin-check" if m.get("in_check") else "")
            print(f"{m['id']}\t{m['file']}:{m['line']}:{m['col']}\t{m['op']}\t{m['mutation']}\t{m['key']}{flags}")
        return 0
    chosen = None
    if args.run_files:
        # The selection is made over every file of --files (the same sample as a run without
        # --run-files), then cut to the files named; only those are rewritten and built.
        universe = []
        for path in targets:
            universe += [dict(m, id=len(universe) + i) for i, m in enumerate(sch.file_entry(path)["mutants"])]
        sch.save()
        chosen = select_in_files(universe, args, args.run_files.split(","))
        log(f"mutation: {len(chosen)} selected mutant(s) lie in --run-files")
        targets = sorted({m["file"] for m in chosen})
    if args.reuse_build and (stale := stale_headers(args.root, os.path.abspath(args.reuse_build), files)):
        raise SystemExit(f"mutation: {args.reuse_build} was built before {', '.join(stale[:5])}"
                         + (f" (and {len(stale) - 5} more)" if len(stale) > 5 else "") + " changed: rebuild it first "
                         f"(cmake --build {args.reuse_build} --target stridecheck property_tests)")
    sync_tree(args.root, src, [f for f in files if f not in targets])
    mutants = build(args, sch, targets, src, bdir)
    if args.build_only:
        log(f"mutation: built {len(mutants)} mutants")
        return 0
    dropped = sorted(sch.dropped)
    # Neither build mode builds the CUDA kernels, so a mutant on a CUDA-only host path cannot be
    # reached: not run, not sampled, counted on its own line (not as a survivor).
    cuda_only = [m for m in mutants if m.get("cuda_only")]
    if chosen is None:
        sel = select([m for m in mutants if not m.get("cuda_only")], args)
    else:  # the ids are this build's; a mutant dropped by the build is gone
        keys = {m["key"] for m in chosen}
        sel = [m for m in mutants if m["key"] in keys]
        if len(sel) != len(keys):
            log(f"mutation: {len(keys) - len(sel)} selected mutant(s) did not compile (dropped)")

    # Outcomes saved by an earlier run of this search (a stopped one) are not run again.
    results_path = args.results or os.path.join(bdir_root, "results.jsonl")
    fingerprint = search_fingerprint(args, bdir)
    k_seeds = len(property_seeds(args))
    fields = SEED_FIELDS if k_seeds > 1 else RESULT_FIELDS
    done = {} if args.fresh else load_results(results_path, fingerprint, fields)
    results = [dict(m, **{k: done[m["key"]][k] for k in fields + OPTIONAL_FIELDS if k in done[m["key"]]})
               for m in sel if m["key"] in done]
    todo = [m for m in sel if m["key"] not in done]
    if args.shuffle:  # a run stopped early has still scored a sample of every file
        todo.sort(key=lambda m: hashlib.sha1(f"{args.sample_seed}:run:{m['key']}".encode()).hexdigest())
    log(f"mutation: {len(results)} of {len(sel)} already scored by this search in {results_path} "
        f"(fingerprint {fingerprint}); running {len(todo)}")

    # The clean run, tracing the points it reaches (not needed when nothing is left to run).
    reached, timeout = b"", 0.0
    if todo:
        trace = os.path.join(bdir_root, "trace.bin")
        with open(trace, "wb") as f:
            f.write(b"\0" * max(1, len(mutants)))
        durations = []
        status, which, secs, _ = run_checks(args, bdir, {"STRIDECHECK_MUTANT_TRACE": trace}, None, durations)
        if status != "pass":
            raise SystemExit(f"mutation: the search fails with no mutant active ({which}): fix that first")
        reached = open(trace, "rb").read()
        # K seeds: a check's timeout is 5x the longest clean check (5x the whole clean run would let
        # a hanging mutant cost K times as much).
        timeout = args.timeout or max(20.0, 5 * (max(durations) if k_seeds > 1 else secs))
        log(f"mutation: clean run {secs:.1f} s; {sum(1 for b in reached if b)} of {len(mutants)} mutants "
            f"reached; running {len(todo)} (timeout {timeout:.0f} s per check)")

    def one(m):
        if not reached[m["id"]]:
            return dict(m, status="survived", by="not reached", secs=0.0, killers=[],
                        **({"seed_kills": 0} if k_seeds > 1 else {}))
        if k_seeds > 1:
            st, by, s, kills = run_seeds(args, bdir, {"STRIDECHECK_MUTANT": str(m["id"])}, timeout)
            return dict(m, status="survived" if st == "pass" else st, by=by, secs=s, seed_kills=kills)
        st, by, s, detail = run_checks(args, bdir, {"STRIDECHECK_MUTANT": str(m["id"])}, timeout,
                                       every=args.every_killer)
        return dict(m, status="survived" if st == "pass" else st, by=by, secs=s, **detail)

    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        futures = [ex.submit(one, m) for m in todo]
        for i, fut in enumerate(concurrent.futures.as_completed(futures), 1):
            r = fut.result()
            append_result(results_path, r, fingerprint)
            results.append(r)
            kills = f" seeds {r['seed_kills']}/{k_seeds}" if k_seeds > 1 else ""
            log(f"mutation: {i}/{len(todo)} {r['status']}{' (' + r['by'] + ')' if r['by'] else ''}{kills} "
                f"{r['file']}:{r['line']} {r['mutation']} ({time.time() - t0:.0f} s)")
    results.sort(key=lambda r: r["id"])

    listed = load_equivalent(args.equivalent)
    semantics = engine_semantics(bdir)
    # A mutant on a path only another profile takes cannot be killed by this oracle's run (the
    # other oracle's run kills it): counted on its own line, like the CUDA-only ones. Under its
    # own profile it is an ordinary mutant that must be killed.
    gated_keys = {k for k, (v, _) in listed.items() if v and v != semantics}
    eq = {k: why for k, (v, why) in listed.items() if not v}
    killed = [r for r in results if r["status"] == "killed"]
    timeouts = [r for r in results if r["status"] == "timeout"]
    survived = [r for r in results if r["status"] == "survived"]
    equivalent = [r for r in survived if r["key"] in eq]
    gated = [r for r in survived if r["key"] in gated_keys]
    new = [r for r in survived if r["key"] not in eq and r["key"] not in gated_keys]
    stale = [r for r in results if (r["key"] in eq or r["key"] in gated_keys) and r["status"] != "survived"]
    denom = len(results) - len(equivalent) - len(gated)
    rate = 100.0 * (len(killed) + len(timeouts)) / denom if denom else 100.0
    by = {}
    for r in killed:
        by[r["by"]] = by.get(r["by"], 0) + 1
    print("== mutation summary ==")
    print(f"  files mutated: {len(targets)}; mutants compiled: {len(mutants)} "
          f"(build failures dropped: {len(dropped)}); run: {len(results)}")
    seeds = property_seeds(args)
    print(f"  search: property '{args.property}' seed={args.seed}"
          + (f"..{seeds[-1]} ({k_seeds} seeds)" if k_seeds > 1 else "") + f" programs={args.programs}"
          + ("" if args.no_corpus else " + corpus replay"))
    print(f"  killed: {len(killed)} (" + ", ".join(f"{k} {v}" for k, v in sorted(by.items())) + f"), timeout: "
          f"{len(timeouts)}, survived: {len(survived)} (not reached: "
          f"{sum(1 for r in survived if r['by'] == 'not reached')}), equivalent (listed): {len(equivalent)}")
    print(f"  kill rate: {rate:.1f}% ((killed + timeout) / (run - equivalent"
          + (" - version-gated" if gated else "") + f") = {len(killed) + len(timeouts)}/{denom})")
    corpus_only = killed_only_by_corpus(results)
    exhaust_only = killed_only_by(results, "exhaust") if args.exhaust_args is not None else []
    if not args.no_corpus or args.exhaust_args is not None:
        alone = sum(1 for r in killed + timeouts if r["by"] == "property")
        print(f"  generator alone (the property, as --no-corpus --no-exhaust scores it): "
              f"{100.0 * alone / denom if denom else 100.0:.1f}% ({alone}/{denom}; killed only by the corpus: "
              f"{len(corpus_only)}" + ("" if args.exhaust_args is None else
                                       f", by the enumeration and not the corpus: {len(exhaust_only)}") + ")")
    if args.exhaust_args is not None:
        without = len(killed) + len(timeouts) - len(exhaust_only)
        print(f"  without the enumeration (property + corpus): {100.0 * without / denom if denom else 100.0:.1f}% "
              f"({without}/{denom}); exhaust {args.exhaust_args}: per mutant it ran "
              + exhaust_seconds(results))
    if args.every_killer:
        names = [n for n, _, _ in checks(args, bdir)]
        print("  killed only by (--every-killer): " + ", ".join(
            f"{n} {len(killed_only_by(results, n))}" for n in dict.fromkeys(names)))
    if k_seeds > 1:
        ps_rate, ps_any, ps_n = per_seed_rate(results, k_seeds, set(eq) | gated_keys)
        print(f"  generator alone, per-seed kill rate: {ps_rate:.1f}% (mean over {ps_n} mutants of the share of "
              f"the {k_seeds} property seeds that killed each); any seed: "
              f"{100.0 * ps_any / ps_n if ps_n else 100.0:.1f}% ({ps_any}/{ps_n})")
    if gated:
        print(f"  version-gated (engine semantics {semantics or '?'}; listed as [only X.Y]: killable only under "
              f"that oracle, not counted): {len(gated)}")
    if cuda_only:
        files_cuda = sorted({m["file"] for m in cuda_only})
        print(f"  CUDA-only host paths (no GPU build mutated: not sampled, not run): {len(cuda_only)} mutants in "
              + ", ".join(files_cuda) + " (--list marks them)")
    ops = {}
    for r in results:
        st = r["status"]
        if st == "survived" and r["key"] in eq:
            st = "equivalent"
        elif st == "survived" and r["key"] in gated_keys:
            st = "gated"
        ops.setdefault(r["op"], {}).setdefault(st, 0)
        ops[r["op"]][st] += 1
    print("  per operator (killed/timeout/survived/equivalent" + ("/version-gated" if gated else "") + "): " + ", ".join(
        f"{op} {c.get('killed', 0)}/{c.get('timeout', 0)}/{c.get('survived', 0)}/{c.get('equivalent', 0)}"
        + (f"/{c.get('gated', 0)}" if gated else "")
        for op, c in sorted(ops.items())))
    if new:
        print(f"== survivors ({len(new)}, not in {os.path.relpath(args.equivalent, args.root)}) ==")
        for r in sorted(new, key=lambda r: (r["file"], r["line"], r["col"])):
            note = " [not reached]" if r["by"] == "not reached" else ""
            print(f"{r['file']}:{r['line']}:{r['col']}: {r['op']}: {r['mutation']}{note}  key={r['key']}")
            print(f"    {source_line(args.root, r)}")
    if k_seeds > 1:
        hard = [r for r in results if r["key"] not in eq and r["key"] not in gated_keys
                and r.get("seed_kills", 0) < k_seeds]
        print(f"== property seeds that killed each mutant, below {k_seeds}/{k_seeds} ({len(hard)}; every other "
              f"scored mutant: {k_seeds}/{k_seeds}) ==")
        for r in sorted(hard, key=lambda r: (r.get("seed_kills", 0), r["file"], r["line"], r["col"])):
            print(f"{r.get('seed_kills', 0)}/{k_seeds} {r['file']}:{r['line']}:{r['col']}: {r['op']}: "
                  f"{r['mutation']}  key={r['key']}")
    if corpus_only and not args.no_corpus:
        print(f"== killed only by the corpus ({len(corpus_only)}: the generator alone misses them) ==")
        for r in sorted(corpus_only, key=lambda r: (r["file"], r["line"], r["col"])):
            print(f"{r['file']}:{r['line']}:{r['col']}: {r['op']}: {r['mutation']}  key={r['key']}")
            print(f"    {source_line(args.root, r)}")
    if stale:
        print("== listed as equivalent (or version-gated) but killed now (remove them from the list) ==")
        for r in stale:
            print(f"{r['file']}:{r['line']}:{r['col']}: {r['mutation']}  key={r['key']}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 1 if new else 0


if __name__ == "__main__":
    sys.exit(main())
