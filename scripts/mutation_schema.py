#!/usr/bin/env python3
"""Mutant schemata for the engine (scripts/mutation.sh).

Finds mutation points in a C++ file from clang's JSON AST and rewrites the
file so that every mutant is compiled in at once, each guarded by its numeric
id (Mull's and Dextool's "mutant schemata"): the running program reads the
active id once from STRIDECHECK_MUTANT (engine/mutant_schema.h, written
beside the rewritten files), so one build serves every mutant.

Operators (Mull's names where Mull has one):
  rel      relational boundary and negation: < <= > >= (cxx_lt_to_le,
           cxx_lt_to_ge, ...), == != (cxx_eq_to_ne, cxx_ne_to_eq)
  arith    + - * / % (cxx_add_to_sub, cxx_sub_to_add, cxx_mul_to_div,
           cxx_div_to_mul, cxx_rem_to_div), also their compound assignments
  bit      & | ^ << >> (cxx_and_to_or, cxx_or_to_and, cxx_xor_to_or,
           cxx_lshift_to_rshift, cxx_rshift_to_lshift)
  logic    && <-> || (cxx_logical_and_to_or, cxx_logical_or_to_and)
  unary    ++ <-> -- (cxx_pre_inc_to_pre_dec, ...), -x -> x
           (cxx_minus_to_noop), !x -> x (cxx_remove_negation)
  negate   the condition of if / while / for / do / ?: negated (negate_mutator)
  const    integer literals 0 -> 1, 1 -> 0 and 2, n -> n+1 and n-1; true <-> false
           (cxx_replace_scalar_call, scalar_value_mutator)
  check    a check deleted: SC_CHECK / SC_CHECK_KIND (and their _OR_RETURN
           forms) with the condition taken as true, an `if (c) raise(...)` /
           `if (c) throw` / `if (c) return fail(...)` never taken
  call     a call to a void function removed (cxx_remove_void_call)
  stmt     an assignment statement removed (a stride, size or offset never
           updated; a version bump `+= 1` lost)
  fn       a call to the wrong one of a pair: wrapping::add <-> sub,
           wrapping::mul <-> div, std::max <-> std::min
  args     two adjacent arguments of the same type swapped in a call
           (narrow(t, d, start, length) -> narrow(t, d, length, start))
  order    two consecutive checks (SC_CHECK or `if (c) raise`) run in the
           other order: which error comes first
  msg      an error message's text changed (its first literal piece) or one
           of its integer values off by one (`dim` -> `dim + 1`)
The conditions and the message pieces of SC_CHECK / SC_CHECK_KIND (and
their _OR_RETURN forms) are mutated like any other code (their macro arguments are spelled in the file):
a bound check's `<=` can become `<` there too.

Each mutant has a stable key, file@<hash of its line's text>#<n-th such
line>:<column>:<operator>, that survives edits elsewhere in the file
(scripts/mutation_equivalent.txt is keyed by it).
"""
import hashlib
import json
import os
import re
import subprocess
import tempfile

SCHEMA_HEADER = "engine/mutant_schema.h"

# Relational and arithmetic replacements, in variant order.
BINARY = {
    "<": ("rel", ["<=", ">="]), "<=": ("rel", ["<", ">"]), ">": ("rel", [">=", "<="]),
    ">=": ("rel", [">", "<"]), "==": ("rel", ["!="]), "!=": ("rel", ["=="]),
    "+": ("arith", ["-"]), "-": ("arith", ["+"]), "*": ("arith", ["/"]), "/": ("arith", ["*"]),
    "%": ("arith", ["/"]),
    "&": ("bit", ["|"]), "|": ("bit", ["&"]), "^": ("bit", ["|"]), "<<": ("bit", [">>"]), ">>": ("bit", ["<<"]),
    "&&": ("logic", ["||"]), "||": ("logic", ["&&"]),
}
COMPOUND = {"+=": "-=", "-=": "+=", "*=": "/=", "/=": "*=", "%=": "/=", "&=": "|=", "|=": "&=", "^=": "|=",
            "<<=": ">>=", ">>=": "<<="}
INTEGER_ONLY = {"%", "&", "|", "^", "<<", ">>", "%=", "&=", "|=", "^=", "<<=", ">>="}
ARITH_TYPE = re.compile(
    r"^(const |volatile )*((un)?signed )?(bool|char|short|int|long|long long|long int|short int|__int128|"
    r"float|double|long double|(u)?int(8|16|32|64)_t|size_t|ptrdiff_t|std::size_t|std::(u)?int(8|16|32|64)_t|"
    r"unsigned|signed)( int)?$")
SKIP_CONTEXT = {"ConstantExpr", "StaticAssertDecl", "EnumConstantDecl", "TemplateArgument",
                "NonTypeTemplateParmDecl", "TemplateTypeParmDecl", "CXXRecordDecl_bitfield"}


class Point:
    """One mutation point: a source range [b, e) and its variants (one mutant each)."""

    def __init__(self, b, e, op, variants, parts, render, line, col, order):
        self.b, self.e = b, e
        self.op = op              # operator family (rel, arith, ...)
        self.variants = variants  # descriptions, e.g. "< -> <="
        self.parts = parts        # sub-ranges the rewrite keeps (rendered with their own points)
        self.render = render      # f(ids, rendered_parts) -> replacement text
        self.line, self.col = line, col
        self.order = order
        self.ids = []


def _type(node):
    t = node.get("type") or {}
    return t.get("desugaredQualType") or t.get("qualType") or ""


def _arith(node):
    t = _type(node)
    return bool(ARITH_TYPE.match(t)) or "dependent" in t or t.startswith("type-parameter")


def _annotate_files(obj, state, cwd=None):
    """Adds '_file' to every location dict (clang writes "file" only when it changes), relative to
    cwd: a header reached through an absolute -I is named by its absolute path, and would otherwise
    never match the (relative) file being mutated."""
    if isinstance(obj, dict):
        if "offset" in obj:
            if "file" in obj:
                f = obj["file"]
                state[0] = os.path.relpath(f, cwd) if cwd and f and os.path.isabs(f) else f
            obj["_file"] = state[0]
        for k, v in obj.items():
            if k != "includedFrom":
                _annotate_files(v, state, cwd)
    elif isinstance(obj, list):
        for v in obj:
            _annotate_files(v, state, cwd)


def ast_objects(path, flags, cwd):
    """clang's JSON AST of the decls named sc... in `path` (a .cpp, or a header through a stub)."""
    stub = None
    src = path
    if path.endswith(".h"):
        fd, stub = tempfile.mkstemp(suffix=".cpp")
        os.write(fd, f'#include "{path}"\n'.encode())
        os.close(fd)
        src = stub
    try:
        cmd = ["clang++", "-std=c++20", "-fsyntax-only", "-Xclang", "-ast-dump=json", "-Xclang",
               "-ast-dump-filter", "-Xclang", "sc", *flags, src]
        out = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True).stdout
    finally:
        if stub:
            os.unlink(stub)
    dec = json.JSONDecoder()
    i, objs = 0, []
    while i < len(out):
        while i < len(out) and out[i].isspace():
            i += 1
        if i >= len(out):
            break
        o, i = dec.raw_decode(out, i)
        state = [None]
        _annotate_files(o, state, os.path.abspath(cwd))
        objs.append(o)
    return objs


def _range(node, target):
    """[b, e) of node when it lies wholly in `target` and outside macros, else None."""
    r = node.get("range")
    if not r:
        return None
    b, e = r.get("begin", {}), r.get("end", {})
    if "spellingLoc" in b or "spellingLoc" in e or "offset" not in b or "offset" not in e:
        return None
    if os.path.normpath(b.get("_file") or "") != target or os.path.normpath(e.get("_file") or "") != target:
        return None
    return b["offset"], e["offset"] + e.get("tokLen", 0), b.get("line"), b.get("col")


# Macros whose arguments are mutated like the code around them (a check's condition and message).
CHECK_MACRO = re.compile(rb"SC_CHECK(_KIND)?(_OR_RETURN)?\s*\(")


def _macro_arg_range(node, target, text):
    """[b, e) of node when it is spelled wholly inside one argument list of an SC_CHECK /
    SC_CHECK_KIND invocation in `target` (the condition or a message piece), else None."""
    r = node.get("range")
    if not r:
        return None
    b, e = r.get("begin", {}), r.get("end", {})
    sb, se, xb, xe = b.get("spellingLoc"), e.get("spellingLoc"), b.get("expansionLoc"), e.get("expansionLoc")
    if not (sb and se and xb and xe) or "offset" not in sb or "offset" not in se or "offset" not in xb:
        return None
    if not (xb.get("isMacroArgExpansion") and xe.get("isMacroArgExpansion")) or xb.get("offset") != xe.get("offset"):
        return None
    if any(os.path.normpath(loc.get("_file") or "") != target for loc in (sb, se, xb)):
        return None
    if not CHECK_MACRO.match(text, xb["offset"]):
        return None
    lo, hi = sb["offset"], se["offset"] + se.get("tokLen", 0)
    if not (xb["offset"] < lo < hi):
        return None
    return lo, hi, sb.get("line"), sb.get("col")


def _children(n):
    return [c for c in (n.get("inner") or []) if isinstance(c, dict) and c.get("kind")]


def _strip(n):
    """The expression under implicit casts and parentheses (same text range or inner)."""
    while n.get("kind") in ("ImplicitCastExpr", "ExprWithCleanups", "MaterializeTemporaryExpr") and _children(n):
        n = _children(n)[0]
    return n


def find_points(path, flags, cwd, text):
    """Mutation points of `path` (relative to cwd); `text` is its bytes."""
    target = os.path.normpath(path)
    points = {}
    lines = text.split(b"\n")
    line_starts = [0]
    for ln in lines:
        line_starts.append(line_starts[-1] + len(ln) + 1)

    def line_col(off):
        lo, hi = 0, len(line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if line_starts[mid] <= off:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1, off - line_starts[lo] + 1

    cuda_now = [False]  # the node being walked lies on a CUDA-only host path

    def rng_of(node):
        """The node's range in the file: plain code or an SC_CHECK's argument."""
        return _range(node, target) or _macro_arg_range(node, target, text)

    def add(b, e, op, variants, parts, render):
        key = (b, e, op, tuple(variants))
        if key in points:
            return
        line, col = line_col(b)
        points[key] = Point(b, e, op, variants, parts, render, line, col, len(points))
        points[key].cuda_only = cuda_now[0]

    def src(b, e):
        return text[b:e].decode()

    def device_test(node):
        """'cuda' when `node` holds only on a CUDA tensor, 'cpu' only on a CPU one, else None."""
        r = rng_of(node)
        return _device_test(src(r[0], r[1])) if r else None

    def cuda_children(n, kind, ch):
        """Indices of the children of `n` that run only for a CUDA tensor (and, for a
        CompoundStmt, every statement after an `if (<cpu>) return ...;`)."""
        out = set()
        if kind == "IfStmt" and not n.get("hasVar"):
            ci = 1 if n.get("hasInit") else 0
            if len(ch) > ci + 1:
                c = _strip(ch[ci])
                t = device_test(c)
                if t is None and c.get("kind") == "BinaryOperator" and c.get("opcode") == "&&":
                    t = "cuda" if any(device_test(_strip(x)) == "cuda" for x in _conjuncts(c)) else None
                if t == "cuda":
                    out.add(ci + 1)
                elif t == "cpu" and n.get("hasElse") and len(ch) > ci + 2:
                    out.add(ci + 2)
        elif kind == "ConditionalOperator" and len(ch) == 3:
            t = device_test(_strip(ch[0]))
            if t:
                out.add(1 if t == "cuda" else 2)
        elif kind == "BinaryOperator" and n.get("opcode") == "&&" and len(ch) == 2:
            if device_test(_strip(ch[0])) == "cuda":
                out.add(1)
        elif kind == "CompoundStmt":
            for i, s in enumerate(ch):
                if (s.get("kind") == "IfStmt" and not s.get("hasElse") and not s.get("hasInit") and
                        not s.get("hasVar") and len(_children(s)) == 2 and
                        device_test(_strip(_children(s)[0])) == "cpu" and _returns(_children(s)[1])):
                    out.update(range(i + 1, len(ch)))
                    break
        return out

    def walk(n, ctx):
        kind = n.get("kind")
        if kind == "FunctionDecl" and (n.get("name") in CUDA_ONLY_FUNCTIONS or
                                       (n.get("name") or "").endswith("_cuda")):
            ctx = dict(ctx, cuda=True)
        cuda_now[0] = ctx.get("cuda", False)
        skip = ctx["skip"] or kind in SKIP_CONTEXT
        if kind in ("VarDecl", "FunctionDecl", "CXXMethodDecl") and n.get("constexpr"):
            skip = True
        if kind == "IfStmt" and n.get("isConstexpr"):
            skip = True
        if kind == "FieldDecl" and n.get("isBitfield"):
            skip = True
        braced = ctx["braced"] or kind == "InitListExpr"
        rng = None if skip else rng_of(n)
        ch = _children(n)
        if rng:
            b, e = rng[0], rng[1]
            if kind in ("BinaryOperator", "CompoundAssignOperator") and len(ch) == 2:
                opc = n.get("opcode")
                l, r = rng_of(ch[0]), rng_of(ch[1])
                # The operator must be spelled between the operands (not an implicit node of a
                # range-for or a C++20 rewritten comparison).
                if l and r and l[1] <= r[0] and text[l[1]:r[0]].strip().decode() == opc:
                    L, R = (l[0], l[1]), (r[0], r[1])
                    if kind == "BinaryOperator" and opc in BINARY:
                        fam, alts = BINARY[opc]
                        ok = fam in ("rel", "logic") or (_arith(ch[0]) and _arith(ch[1]))
                        if opc in INTEGER_ONLY and ("float" in _type(ch[0]) + _type(ch[1]) or
                                                    "double" in _type(ch[0]) + _type(ch[1])):
                            ok = False
                        if ok and fam == "logic":
                            add(b, e, fam, [f"{opc} -> {alts[0]}"], [L, R],
                                lambda ids, p, opc=opc, alt=alts[0]:
                                f"(sc_mutant::on({ids[0]}) ? (({p[0]}) {alt} ({p[1]})) : (({p[0]}) {opc} ({p[1]})))")
                        elif ok:
                            names = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq", "!=": "ne", "+": "add",
                                     "-": "sub", "*": "mul", "/": "div", "%": "rem", "&": "band", "|": "bor",
                                     "^": "bxor", "<<": "shl", ">>": "shr"}
                            add(b, e, fam, [f"{opc} -> {a}" for a in alts], [L, R],
                                lambda ids, p, f=names[opc]: f"sc_mutant::{f}({ids[0]}, {p[0]}, {p[1]})")
                    elif kind == "CompoundAssignOperator" and opc in COMPOUND:
                        ok = _arith(ch[0]) and _arith(ch[1])
                        if opc in INTEGER_ONLY and "float" in _type(ch[0]) + _type(ch[1]):
                            ok = False
                        if ok:
                            alt = COMPOUND[opc]
                            add(b, e, "arith", [f"{opc} -> {alt}"], [L, R],
                                lambda ids, p, opc=opc, alt=alt:
                                f"(sc_mutant::on({ids[0]}) ? ({p[0]} {alt} {p[1]}) : ({p[0]} {opc} {p[1]}))")
            elif kind == "UnaryOperator" and len(ch) == 1:
                opc = n.get("opcode")
                x = rng_of(ch[0])
                post = n.get("isPostfix")
                spelled = x and ((post and text[x[1]:e].strip().decode() == opc) or
                                 (not post and text[b:x[0]].strip().decode() == opc))
                if spelled:
                    X = (x[0], x[1])
                    if opc in ("++", "--") and _arith(ch[0]):
                        alt = "--" if opc == "++" else "++"
                        if post:
                            add(b, e, "unary", [f"x{opc} -> x{alt}"], [X],
                                lambda ids, p, opc=opc, alt=alt: f"(sc_mutant::on({ids[0]}) ? {p[0]}{alt} : {p[0]}{opc})")
                        else:
                            add(b, e, "unary", [f"{opc}x -> {alt}x"], [X],
                                lambda ids, p, opc=opc, alt=alt: f"(sc_mutant::on({ids[0]}) ? {alt}{p[0]} : {opc}{p[0]})")
                    elif opc == "-" and _arith(ch[0]):
                        add(b, e, "unary", ["-x -> x"], [X], lambda ids, p: f"(sc_mutant::on({ids[0]}) ? ({p[0]}) : -({p[0]}))")
                    elif opc == "!":
                        add(b, e, "unary", ["!x -> x"], [X],
                            lambda ids, p: f"(sc_mutant::on({ids[0]}) ? static_cast<bool>({p[0]}) : !({p[0]}))")
            elif kind == "IntegerLiteral" and not braced:
                tok = src(b, e)
                m = re.match(r"^(0[xX][0-9a-fA-F']+|[0-9']+)([uUlL]*)$", tok)
                if m:
                    v = int(m.group(1).replace("'", ""), 0)
                    suf = m.group(2)
                    alts = [1] if v == 0 else [0, 2] if v == 1 else [v + 1, v - 1]
                    if v < (1 << 62):
                        add(b, e, "const", [f"{tok} -> {a}{suf}" for a in alts], [],
                            lambda ids, p, tok=tok, alts=alts, suf=suf:
                            "(" + "".join(f"sc_mutant::on({i}) ? {a}{suf} : " for i, a in zip(ids, alts)) + tok + ")")
            elif kind == "CXXBoolLiteralExpr" and not braced:
                tok = src(b, e)
                if tok in ("true", "false"):
                    alt = "false" if tok == "true" else "true"
                    add(b, e, "const", [f"{tok} -> {alt}"], [], lambda ids, p, tok=tok, alt=alt:
                        f"(sc_mutant::on({ids[0]}) ? {alt} : {tok})")
            # Conditions: negated; a check (then-branch raises or throws) deleted.
            cond = None
            if kind == "IfStmt" and not n.get("hasVar"):
                cond = ch[1] if n.get("hasInit") and len(ch) > 1 else (ch[0] if ch else None)
            elif kind in ("WhileStmt",) and not n.get("hasVar") and ch:
                cond = ch[0]
            elif kind == "DoStmt" and len(ch) > 1:
                cond = ch[1]
            elif kind == "ConditionalOperator" and ch:
                cond = ch[0]
            elif kind == "ForStmt":
                inner = n.get("inner") or []
                if len(inner) >= 3 and isinstance(inner[2], dict) and inner[2].get("kind"):
                    cond = inner[2]
            if cond is not None:
                c = rng_of(cond)
                if c:
                    C = (c[0], c[1])
                    add(C[0], C[1], "negate", ["c -> !c"], [C], lambda ids, p: f"sc_mutant::neg({ids[0]}, {p[0]})")
                    if kind == "IfStmt" and _raises(ch[-1] if not n.get("hasElse") else None):
                        add(C[0], C[1], "check", ["if (c) raise -> never"], [C],
                            lambda ids, p: f"sc_mutant::off({ids[0]}, {p[0]})")
            if kind == "CompoundStmt":
                cuda = cuda_children(n, kind, ch)
                for i, s in enumerate(ch):
                    cuda_now[0] = ctx.get("cuda", False) or i in cuda
                    if s.get("kind") in ("CallExpr", "CXXMemberCallExpr") and _type(s) == "void":
                        r = rng_of(s)
                        if r:
                            add(r[0], r[1], "call", ["call removed"], [(r[0], r[1])],
                                lambda ids, p: f"(sc_mutant::on({ids[0]}) ? void() : void({p[0]}))")
        if not skip and kind in ("CallExpr", "CXXMemberCallExpr") and ch:
            call_points(n, ch, rng)
        if rng and kind == "CompoundStmt":
            statement_points(ch)
        cuda = cuda_children(n, kind, ch)
        for i, c in enumerate(ch):
            walk(c, {"skip": skip, "braced": braced, "cuda": ctx.get("cuda", False) or i in cuda})

    def call_points(n, ch, rng):
        """msg (raise's pieces), fn (the other of a pair of functions), args (two swapped)."""
        callee = _strip(ch[0])
        name = _callee_name(callee)
        args = ch[1:]
        if name in MESSAGE_FUNCTIONS and n.get("kind") == "CallExpr":
            lit = False
            for a in args[MESSAGE_FUNCTIONS[name]:]:
                a0 = _strip(a)
                r = rng_of(a0)
                if not r:
                    continue
                if a0.get("kind") == "StringLiteral" and not lit:
                    lit = True
                    tok = src(r[0], r[1])
                    add(r[0], r[1], "msg", ["text changed"], [], lambda ids, p, tok=tok:
                        f'(sc_mutant::on({ids[0]}) ? "~" {tok} : {tok})')
                elif a0.get("kind") != "IntegerLiteral" and INT_TYPE.match(_type(a0)):
                    add(r[0], r[1], "msg", ["x -> x + 1"], [(r[0], r[1])], lambda ids, p:
                        f"(sc_mutant::on({ids[0]}) ? ({p[0]}) + 1 : ({p[0]}))")
            return
        if not rng or name in ("str_cat", "assertion_failed"):
            return
        ctext = src(*rng_of(callee)[:2]) if rng_of(callee) else ""
        ranges = [rng_of(a) for a in args]
        m = _fn_pair(ctext)
        if m and len(args) == 2 and all(ranges):
            alt = ctext[:m[0]] + FN_SWAP[m[2]] + ctext[m[1]:]
            add(rng[0], rng[1], "fn", [f"{m[2]} -> {FN_SWAP[m[2]]}"], [r[:2] for r in ranges],
                lambda ids, p, f=ctext, alt=alt: f"(sc_mutant::on({ids[0]}) ? {alt}({p[0]}, {p[1]}) : {f}({p[0]}, {p[1]}))")
        if ctext.startswith("std::") or m or name in COMMUTATIVE:
            return
        for i in range(len(args) - 1):
            a, b = args[i], args[i + 1]
            ra, rb = ranges[i], ranges[i + 1]
            if not ra or not rb or ra[1] > rb[0] or text[ra[1]:rb[0]].strip() != b",":
                continue
            if _type(a) != _type(b) or _type(_strip(a)) != _type(_strip(b)) or not _type(a):
                continue
            if any(w in _type(x) for x in (a, b, _strip(a), _strip(b)) for w in ("dependent", "type-parameter")):
                continue  # a template's operands: equal types in one instantiation, not in another
            ta, tb = src(ra[0], ra[1]), src(rb[0], rb[1])
            if ta == tb or ta.startswith("{") or tb.startswith("{"):
                continue
            add(ra[0], rb[1], "args", [f"swap arguments {i + 1} and {i + 2}"], [ra[:2], rb[:2]], lambda ids, p:
                f"(sc_mutant::on({ids[0]}) ? ({p[1]}) : ({p[0]})), (sc_mutant::on({ids[0]}) ? ({p[0]}) : ({p[1]}))")

    def check_span(s):
        """[b, e) of a statement that is a check (`if (c) raise(...);` or `SC_CHECK...(...);`,
        with its semicolon), else None."""
        if s.get("kind") == "IfStmt" and not (s.get("hasElse") or s.get("hasInit") or s.get("hasVar")):
            sc = _children(s)
            r = rng_of(s)
            if r and len(sc) == 2 and _raises(sc[1]):
                e = r[1]
                if sc[1].get("kind") != "CompoundStmt":
                    m = re.compile(rb"\s*;").match(text, e)
                    if not m:
                        return None
                    e = m.end()
                return r[0], e
            return None
        if s.get("kind") == "DoStmt":
            x = ((s.get("range") or {}).get("begin") or {}).get("expansionLoc")
            if not x or x.get("isMacroArgExpansion") or os.path.normpath(x.get("_file") or "") != target:
                return None
            m = CHECK_MACRO.match(text, x["offset"])
            if not m:
                return None
            end = _matching_paren(text, m.end())
            m2 = re.compile(rb"\s*;").match(text, end) if end else None
            return (x["offset"], m2.end()) if m2 else None
        return None

    def statement_points(ch):
        """stmt (an assignment removed) and order (two consecutive checks swapped)."""
        for s in ch:
            if _is_assignment(s):
                r = rng_of(s)
                if r:
                    add(r[0], r[1], "stmt", ["assignment removed"], [(r[0], r[1])],
                        lambda ids, p: f"(sc_mutant::on({ids[0]}) ? void() : void({p[0]}))")
        runs, cur = [], []
        for s in ch:
            sp = check_span(s)
            if sp and cur and _only_blank(text[cur[-1][1]:sp[0]]):
                cur.append(sp)
                continue
            if len(cur) > 1:
                runs.append(cur)
            cur = [sp] if sp else []
        if len(cur) > 1:
            runs.append(cur)
        for run in runs:
            k = len(run)
            add(run[0][0], run[-1][1], "order", [f"checks {i + 1} and {i + 2} swapped" for i in range(k - 1)], run,
                lambda ids, p, k=k: "switch (sc_mutant::pick(" + ids[0] + f", {k - 1})) {{ " + "".join(
                    f"case {i}: {{ " + " ".join(p[j] for j in list(range(i)) + [i + 1, i] + list(range(i + 2, k)))
                    + " } break; " for i in range(k - 1)) + "default: { " + " ".join(p) + " } }")

    for o in ast_objects(path, flags, cwd):
        walk(o, {"skip": False, "braced": False, "cuda": False})

    # SC_CHECK(cond, ...) / SC_CHECK_KIND(cond, kind, ...): the check deleted (text level; macros are
    # invisible to the AST walk above).
    check_args = []
    for m in re.finditer(rb"\bSC_CHECK(_KIND)?(_OR_RETURN)?\s*\(", text):
        start = m.end()
        depth, i = 0, start
        while i < len(text):
            ch_ = text[i:i + 1]
            if ch_ in (b"(", b"[", b"{"):
                depth += 1
            elif ch_ in (b")", b"]", b"}"):
                if depth == 0:
                    break
                depth -= 1
            elif ch_ == b"," and depth == 0:
                break
            elif ch_ == b'"':
                i += 1
                while i < len(text) and text[i:i + 1] != b'"':
                    i += 2 if text[i:i + 1] == b"\\" else 1
            i += 1
        if text[i:i + 1] == b",":
            add(start, i, "check", ["SC_CHECK deleted"], [(start, i)],
                lambda ids, p: f"sc_mutant::on({ids[0]}) || ({p[0]})")
            end = _matching_paren(text, start)
            if end:
                check_args.append((start, end))
    # Points inside an SC_CHECK's arguments (its condition's operators, its message's pieces) are
    # marked: --list shows them, --ops in-check selects them.
    for p in points.values():
        p.in_check = p.op != "check" and any(b <= p.b and p.e <= e for b, e in check_args)
    # Of two points on the same range, the one whose part is that whole range is rendered outside
    # (the other one is rendered inside that part; the reverse would drop it).
    return sorted(points.values(), key=lambda p: (p.b, -p.e, 0 if p.parts == [(p.b, p.e)] else 1, p.order))


INT_TYPE = re.compile(r"^(const )?((un)?signed )?(short|int|long|long long|long int|unsigned|(u)?int(8|16|32|64)_t|"
                      r"size_t|ptrdiff_t|std::size_t|std::(u)?int(8|16|32|64)_t)( int)?$")
# Functions that build a TorchError's message from their arguments after the first k (the kind):
# raise (throws), fail and fail_plain (return it: Note [errors returned, not thrown]).
MESSAGE_FUNCTIONS = {"raise": 1, "fail": 1, "fail_plain": 0}
# args: functions whose two arguments commute (a swap is equivalent).
COMMUTATIVE = {"promote_types", "symint_mul", "__builtin_mul_overflow", "__builtin_add_overflow"}
# fn: a function and the one a slip of the pen calls instead.
FN_SWAP = {"add": "sub", "sub": "add", "mul": "div", "div": "mul", "max": "min", "min": "max"}
FN_PAIR = re.compile(r"^(?:(?:(?:::)?sc::)?(?:engine::)?wrapping::(?P<w>add|sub|mul|div)|std::(?P<s>max|min)(<[^<>]*>)?)$")


def _fn_pair(ctext):
    """(begin, end, name) of the function name in a callee's text that has a twin in FN_SWAP."""
    m = FN_PAIR.match(ctext)
    if not m:
        return None
    g = "w" if m.group("w") else "s"
    return m.start(g), m.end(g), m.group(g)


def _callee_name(callee):
    """The name a call's callee refers to (a function or a member), or ""."""
    if callee.get("kind") == "DeclRefExpr":
        return (callee.get("referencedDecl") or {}).get("name") or ""
    if callee.get("kind") == "MemberExpr":
        return callee.get("name") or ""
    if callee.get("kind") == "UnresolvedLookupExpr":
        return callee.get("name") or ""
    return ""


def _is_assignment(s):
    s = _strip(s)
    if s.get("kind") == "BinaryOperator" and s.get("opcode") == "=":
        return True
    if s.get("kind") == "CompoundAssignOperator":
        return True
    if s.get("kind") == "CXXOperatorCallExpr" and _children(s):
        name = _callee_name(_strip(_children(s)[0]))
        return name in ("operator=", "operator+=", "operator-=", "operator*=", "operator/=")
    return False


def _only_blank(between):
    """Only whitespace and // comments between two statements."""
    return not re.sub(rb"//[^\n]*", b"", between).strip()


def _matching_paren(text, i):
    """The offset after the ')' closing the '(' just before i (strings skipped), or None."""
    depth = 0
    while i < len(text):
        c = text[i:i + 1]
        if c == b'"':
            i += 1
            while i < len(text) and text[i:i + 1] != b'"':
                i += 2 if text[i:i + 1] == b"\\" else 1
        elif c in (b"(", b"[", b"{"):
            depth += 1
        elif c in (b")", b"]", b"}"):
            if depth == 0:
                return i + 1 if c == b")" else None
            depth -= 1
        i += 1
    return None


DEVICE_CUDA = re.compile(r"^(.*(==\s*Device::CUDA|!=\s*Device::CPU)|cuda)$", re.S)
DEVICE_CPU = re.compile(r"^(.*(==\s*Device::CPU|!=\s*Device::CUDA)|!\s*cuda)$", re.S)


# Functions called only for a CUDA tensor or by the CUDA kernels' registration.
# Functions whose every call is on a CUDA tensor; also every function named `*_cuda`
# (index_select_cuda: called only for self.device() == Device::CUDA).
CUDA_ONLY_FUNCTIONS = {"register_cuda_kernels", "device_kernels"}


def _device_test(expr):
    """'cuda' / 'cpu' for a device test's text (`x.device() == Device::CUDA`, `d != Device::CPU`,
    a flag named `cuda`), else None. CUDA-only host paths cannot run without a GPU build."""
    e = expr.strip()
    while e.startswith("(") and e.endswith(")"):
        e = e[1:-1].strip()
    if "&&" in e or "||" in e or "?" in e:
        return None
    if DEVICE_CUDA.match(e):
        return "cuda"
    if DEVICE_CPU.match(e):
        return "cpu"
    return None


def _conjuncts(n):
    n = _strip(n)
    if n.get("kind") == "ParenExpr" and _children(n):
        return _conjuncts(_children(n)[0])
    if n.get("kind") == "BinaryOperator" and n.get("opcode") == "&&":
        a, b = _children(n)
        return _conjuncts(a) + _conjuncts(b)
    return [n]


def _returns(stmt):
    """Is `stmt` a return, alone or last in braces?"""
    s = stmt
    if s.get("kind") == "CompoundStmt":
        ch = _children(s)
        if not ch:
            return False
        s = ch[-1]
    return s.get("kind") == "ReturnStmt"


def _raises(stmt):
    """Is `stmt` (an if's then-branch) a raise(...) call or a throw, alone or in braces?"""
    if not stmt:
        return False
    s = stmt
    if s.get("kind") == "CompoundStmt":
        ch = _children(s)
        if len(ch) != 1:
            return False
        s = ch[0]
    s = _strip(s)
    if s.get("kind") == "CXXThrowExpr":
        return True
    if s.get("kind") == "CallExpr":
        blob = json.dumps(s)[:4000]
        return '"name": "raise"' in blob
    if s.get("kind") == "ReturnStmt" and _children(s):  # return fail(...); (a returned error)
        blob = json.dumps(_children(s)[0])[:4000]
        return '"name": "fail"' in blob or '"name": "fail_plain"' in blob
    return False


def render(text, points):
    """The file with every point rewritten (nested points inside each part)."""

    def rec(b, e, applied):
        out, pos = [], b
        taken = []
        for p in points:
            if p in applied or p.b < b or p.e > e:
                continue
            if any(t.b <= p.b and p.e <= t.e for t in taken):
                continue
            if taken and p.b < taken[-1].e:  # overlapping, not nested: skip
                continue
            taken.append(p)
        for p in taken:
            out.append(text[pos:p.b].decode())
            parts = [rec(pb, pe, applied | {p}) for (pb, pe) in p.parts]
            out.append(p.render(p.ids, parts))
            pos = p.e
        out.append(text[pos:e].decode())
        return "".join(out)

    return rec(0, len(text), frozenset())


def stable_keys(path, text, points):
    """file@<hash of the line text>#<occurrence>:<col>:<op>:<variant> for each mutant, in id order."""
    lines = text.decode().split("\n")
    seen = {}
    line_key = {}
    for i, ln in enumerate(lines, 1):
        h = hashlib.sha1(ln.strip().encode()).hexdigest()[:8]
        k = seen.get(h, 0)
        seen[h] = k + 1
        line_key[i] = f"{h}#{k}"
    # Two mutants can share line, column, operator and variant (`a && b && c`: both `&&` start at
    # `a`): the second and later ones get `~2`, `~3`, ... so that each key names one mutant.
    keys, count = [], {}
    for p in points:
        for v in p.variants:
            k = f"{path}@{line_key[p.line]}:{p.col}:{p.op}:{v.replace(' ', '')}"
            count[k] = count.get(k, 0) + 1
            keys.append(k if count[k] == 1 else f"{k}~{count[k]}")
    return keys


def schema_header(count):
    return f"""#pragma once
// Generated by scripts/mutation_schema.py: the mutant schemata's runtime. The
// active mutant's id is read once from STRIDECHECK_MUTANT (none: -1). With
// STRIDECHECK_MUTANT_TRACE=<file> every mutation point reached marks its ids
// in that file (a shared map, so forked children count too).
#include <cstdlib>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wparentheses"
namespace sc_mutant {{
inline constexpr long kCount = {count};
inline unsigned char* trace_map() {{
  static unsigned char* map = [] {{
    const char* path = std::getenv("STRIDECHECK_MUTANT_TRACE");
    if (!path) return static_cast<unsigned char*>(nullptr);
    int fd = ::open(path, O_RDWR);
    if (fd < 0) return static_cast<unsigned char*>(nullptr);
    void* p = ::mmap(nullptr, kCount > 0 ? kCount : 1, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    ::close(fd);
    return p == MAP_FAILED ? static_cast<unsigned char*>(nullptr) : static_cast<unsigned char*>(p);
  }}();
  return map;
}}
inline long active() {{
  static const long id = [] {{
    const char* e = std::getenv("STRIDECHECK_MUTANT");
    return e ? std::atol(e) : -1L;
  }}();
  return id;
}}
inline bool on(long id) {{
  if (unsigned char* t = trace_map(); t && id >= 0 && id < kCount) t[id] = 1;
  return active() == id;
}}
// Variant k of a point whose ids start at `id` (-1: the original). The trace
// marks every id of the point: each variant is reached.
inline long pick(long id, long n) {{
  if (unsigned char* t = trace_map(); t && id >= 0 && id + n <= kCount)
    for (long k = 0; k < n; ++k) t[id + k] = 1;
  const long k = active() - id;
  return k >= 0 && k < n ? k : -1;
}}
template <class T> bool neg(long id, const T& c) {{ const bool v = static_cast<bool>(c); return on(id) ? !v : v; }}
template <class T> bool off(long id, const T& c) {{ const bool v = static_cast<bool>(c); return on(id) ? false : v; }}
#define SC_MUTANT_REL(name, op, a0, a1) \\
  template <class A, class B> bool name(long id, const A& a, const B& b) {{ \\
    switch (pick(id, 2)) {{ case 0: return a a0 b; case 1: return a a1 b; default: return a op b; }} }}
#define SC_MUTANT_EQ(name, op, a0) \\
  template <class A, class B> bool name(long id, const A& a, const B& b) {{ \\
    return pick(id, 1) == 0 ? (a a0 b) : (a op b); }}
#define SC_MUTANT_ARITH(name, op, a0) \\
  template <class A, class B> auto name(long id, const A& a, const B& b) -> decltype(a op b) {{ \\
    return pick(id, 1) == 0 ? static_cast<decltype(a op b)>(a a0 b) : (a op b); }}
SC_MUTANT_REL(lt, <, <=, >=)
SC_MUTANT_REL(le, <=, <, >)
SC_MUTANT_REL(gt, >, >=, <=)
SC_MUTANT_REL(ge, >=, >, <)
SC_MUTANT_EQ(eq, ==, !=)
SC_MUTANT_EQ(ne, !=, ==)
SC_MUTANT_ARITH(add, +, -)
SC_MUTANT_ARITH(sub, -, +)
SC_MUTANT_ARITH(mul, *, /)
SC_MUTANT_ARITH(div, /, *)
SC_MUTANT_ARITH(rem, %, /)
SC_MUTANT_ARITH(band, &, |)
SC_MUTANT_ARITH(bor, |, &)
SC_MUTANT_ARITH(bxor, ^, |)
SC_MUTANT_ARITH(shl, <<, >>)
SC_MUTANT_ARITH(shr, >>, <<)
#undef SC_MUTANT_REL
#undef SC_MUTANT_EQ
#undef SC_MUTANT_ARITH
}}  // namespace sc_mutant
"""
