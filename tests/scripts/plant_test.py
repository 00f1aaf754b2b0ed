#!/usr/bin/env python3
"""scripts/plant.py, the applier of scripts/plants.sh's semantic plants: a
plant applies wherever its old text now stands (lines moved above it do not
matter), reverts to the very same file, and `check` fails (exit 1, the plant
and the file named) when its old text changed, occurs twice, or the file is
gone; a malformed plant file is exit 2."""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLANT = os.path.join(ROOT, "scripts", "plant.py")

ENGINE = """int select_checked(int index, int size) {
  if (!(index >= -size && index < size)) return -1;
  return index < 0 ? index + size : index;
}
"""
PLANTED = ENGINE.replace("index >= -size", "index > -size")
PLANT_TEXT = """# LibTorch rule: select (TensorShape.cpp): index in [-size, size)
# Plant: index -size raises
@@@ file engine/slice.cpp
@@@ old
  if (!(index >= -size && index < size)) return -1;
@@@ new
  if (!(index > -size && index < size)) return -1;
@@@ end
"""


def check(cond, what):
    if not cond:
        raise SystemExit(f"plant_test: FAILED: {what}")


def run(*args):
    r = subprocess.run([sys.executable, PLANT, *args], capture_output=True, text=True)
    return r.returncode, r.stderr


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def read(path):
    with open(path) as f:
        return f.read()


def main():
    with tempfile.TemporaryDirectory() as tree:
        src = os.path.join(tree, "engine", "slice.cpp")
        plant = os.path.join(tree, "01-select.plant")
        write(plant, PLANT_TEXT)

        # lines moved: a function added above the planted line
        moved = "// a new helper\nint helper() { return 0; }\n\n" + ENGINE
        write(src, moved)
        check(run("check", tree, plant)[0] == 0, "check passes on a tree whose lines moved")
        check(read(src) == moved, "check writes nothing")
        check(run("apply", tree, plant)[0] == 0, "apply succeeds")
        check(read(src) == moved.replace(ENGINE, PLANTED), "apply writes the new text in place of the old")
        check(run("revert", tree, plant)[0] == 0, "revert succeeds")
        check(read(src) == moved, "revert gives the same file back")

        # the planted line itself changed: check and apply fail loudly, naming the plant and file
        write(src, ENGINE.replace("index >= -size", "index >= -size /* wrapped */"))
        rc, err = run("check", tree, plant)
        check(rc == 1, f"check fails when the old text changed (rc {rc})")
        check("01-select.plant" in err and "engine/slice.cpp" in err and "0 times" in err,
              f"the failure names the plant, the file and the count: {err!r}")
        check(run("apply", tree, plant)[0] == 1, "apply fails when the old text changed")

        # the old text twice: ambiguous, refused
        write(src, ENGINE + ENGINE)
        rc, err = run("check", tree, plant)
        check(rc == 1 and "2 times" in err, f"check fails when the old text is ambiguous: {err!r}")

        # no such file
        os.remove(src)
        check(run("check", tree, plant)[0] == 1, "check fails when the file is gone")

        # malformed: 'new' before 'old'
        write(src, ENGINE)
        write(plant, PLANT_TEXT.replace("@@@ old", "@@@ tmp").replace("@@@ new", "@@@ old").replace("@@@ tmp", "@@@ new"))
        check(run("check", tree, plant)[0] == 2, "a malformed plant is exit 2")
    print("plant_test: ok")


if __name__ == "__main__":
    main()
