#!/usr/bin/env python3
"""Apply, revert or check the semantic plants of scripts/plants/ (scripts/plants.sh).

A plant is a text file, scripts/plants/NN-name.plant: '#' header lines (the
LibTorch rule it breaks, the mistake it plants), then one or more exact-text
replacements, each

    @@@ file engine/views/slice.cpp
    @@@ old
    <the engine's text, whole lines, exactly as it stands>
    @@@ new
    <the planted text>
    @@@ end

A replacement applies when its old text occurs exactly once in the file; it
reverts when its new text occurs exactly once. So a plant survives unrelated
edits that move lines (a patch's context would break), and fails loudly when
the line it plants in has changed or become ambiguous: refresh the old text
then (a plant whose old text is ambiguous takes a line of context more).

    plant.py check TREE PLANT...    every plant applies to TREE and reverts to it (nothing written)
    plant.py apply TREE PLANT       write the plant into TREE's files
    plant.py revert TREE PLANT      undo an applied plant
Exit status 1 (with one line per problem on stderr) when a plant does not
apply/revert, 2 when a plant file is malformed.
"""
import sys
from pathlib import Path


class Malformed(Exception):
    pass


def parse(path):
    """[(file, old, new)] of a .plant file."""
    edits, section, cur = [], None, None
    for n, line in enumerate(Path(path).read_text().splitlines(keepends=True), 1):
        if line.startswith("@@@ "):
            word = line[4:].strip()
            if word.startswith("file "):
                if section not in (None, "end"):
                    raise Malformed(f"{path}:{n}: '@@@ file' inside a replacement")
                cur = {"file": word[5:].strip(), "old": "", "new": ""}
                section = "file"
            elif word in ("old", "new"):
                if cur is None or (word == "old") != (section == "file") or (word == "new") != (section == "old"):
                    raise Malformed(f"{path}:{n}: '@@@ {word}' out of order (file, old, new, end)")
                section = word
            elif word == "end":
                if section != "new":
                    raise Malformed(f"{path}:{n}: '@@@ end' before '@@@ new'")
                edits.append((cur["file"], cur["old"], cur["new"]))
                section, cur = "end", None
            else:
                raise Malformed(f"{path}:{n}: unknown '@@@ {word}'")
        elif section in ("old", "new"):
            cur[section] += line
        elif line.strip() and not line.startswith("#"):
            raise Malformed(f"{path}:{n}: text outside a replacement")
    if section not in ("end",) or not edits:
        raise Malformed(f"{path}: no complete replacement (file, old, new, end)")
    for f, old, new in edits:
        if not old or old == new:
            raise Malformed(f"{path}: {f}: the old text is empty or equals the new text")
    return edits


def transform(tree, plant, reverse):
    """{file: new text} of the plant applied (or reverted) in TREE, or raise ValueError."""
    texts = {}
    for f, old, new in parse(plant):
        frm, to = (new, old) if reverse else (old, new)
        p = Path(tree) / f
        if f not in texts:
            if not p.is_file():
                raise ValueError(f"{plant.name}: {f}: no such file")
            texts[f] = p.read_text()
        n = texts[f].count(frm)
        if n != 1:
            what = "new (planted)" if reverse else "old"
            first = frm.strip().splitlines()[0] if frm.strip() else frm
            raise ValueError(f"{plant.name}: {f}: the {what} text occurs {n} times, not once: {first.strip()!r}")
        texts[f] = texts[f].replace(frm, to)
    return texts


def main(argv):
    if len(argv) < 3 or argv[0] not in ("check", "apply", "revert"):
        sys.stderr.write(__doc__)
        return 2
    cmd, tree, plants = argv[0], Path(argv[1]), [Path(p) for p in argv[2:]]
    bad = 0
    for plant in plants:
        try:
            if cmd == "check":
                planted = transform(tree, plant, reverse=False)
                # reverting the planted text must give the tree back
                for f, text in planted.items():
                    for g, old, new in parse(plant):
                        if g == f and text.count(new) != 1:
                            raise ValueError(f"{plant.name}: {f}: the planted text occurs {text.count(new)} times: it would not revert")
            else:
                for f, text in transform(tree, plant, reverse=(cmd == "revert")).items():
                    (tree / f).write_text(text)
        except Malformed as e:
            print(f"malformed plant: {e}", file=sys.stderr)
            return 2
        except ValueError as e:
            print(f"does not {'apply' if cmd != 'revert' else 'revert'}: {e}", file=sys.stderr)
            bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
