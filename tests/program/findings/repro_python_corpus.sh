#!/usr/bin/env bash
# ctest: the Python reproduction (`stridecheck repro --as python`) of every
# corpus program runs under the PyTorch that `python3 -c 'import torch'` finds
# ($STRIDECHECK_PYTHON instead of python3, if set; else, when python3 has no
# torch, the one `scripts/setup.sh --python-torch` installs); skipped (exit 77)
# without one.
#   repro_python_corpus.sh STRIDECHECK CORPUS_DIR
set -uo pipefail
tool="$1"
corpus="$2"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python="${STRIDECHECK_PYTHON:-python3}"
setup_python="${STRIDECHECK_CACHE:-$HOME/.cache/stridecheck}/python-torch-2.15.0/python3"
if [ -z "${STRIDECHECK_PYTHON:-}" ] && ! python3 -c 'import torch' >/dev/null 2>&1 && [ -x "$setup_python" ]; then
  python="$setup_python"
fi
if ! why=$("$python" -c 'import torch' 2>&1); then
  echo "SKIPPED: no PyTorch for $python ('import torch' says: $(tail -1 <<<"$why"));" \
       "scripts/setup.sh --python-torch installs one"
  exit 77
fi
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
mapfile -t programs < <(find "$corpus" -name '*.prog' | sort)
"$tool" repro --as python --out "$dir" "${programs[@]}" || { echo "stridecheck repro failed"; exit 1; }
"$python" "$here/run_repros.py" "$dir"/*.py
