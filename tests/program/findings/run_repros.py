"""Runs `stridecheck repro --as python` scripts in one interpreter (torch is
imported once), each in a fresh namespace with its output captured. A script
fails when it raises, or when this torch is the version stridecheck's oracle
was and a step's outcome or a result's sizes/strides/storage_offset differ
from what the oracle recorded (the script's MISMATCHES): the reproduction must
be faithful. Under another version, differences are counted, not failed.
Usage: run_repros.py SCRIPT...   Exit 1 if any failed."""
import contextlib
import io
import runpy
import sys
import traceback
import warnings

import torch

failed, other_version = [], []
for path in sys.argv[1:]:
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            g = runpy.run_path(path, run_name="__main__")
    except BaseException:  # a script must run to its end, whatever a step does
        failed.append((path, traceback.format_exc(limit=-2), out.getvalue()[-600:]))
        continue
    mismatches = g.get("MISMATCHES", [])
    if mismatches and g.get("same_version"):
        failed.append((path, "differs from the oracle's recorded run:\n  " + "\n  ".join(mismatches) + "\n", ""))
    elif mismatches:
        other_version.append((path, len(mismatches)))
n = len(sys.argv) - 1
print(f"{n - len(failed)} of {n} reproductions ran under torch {torch.__version__}"
      f" and did what the oracle did" + (f" ({len(other_version)} differ: the oracle was another version)" if other_version else ""))
for path, count in other_version:
    print(f"  {path}: {count} steps differ (another LibTorch version)")
for path, why, tail in failed:
    print(f"FAILED {path}\n{why}--- its last output:\n{tail}")
sys.exit(1 if failed else 0)
