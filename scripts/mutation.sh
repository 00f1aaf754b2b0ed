#!/usr/bin/env bash
# Mutation testing of the engine: how much of the engine does the search (the
# differential property and the corpus replay) really check? Systematic
# mutations of engine/**/*.cpp and .h (Mull's operators: relational,
# arithmetic, bitwise and logical operators, negated conditions, constants,
# deleted checks, removed void calls), compiled in as mutant schemata and
# activated one at a time (STRIDECHECK_MUTANT=<id>); prints the kill rate and
# every survivor with file:line and the mutation. Survivors accepted as
# equivalent are listed in scripts/mutation_equivalent.txt (key, reason).
#
#   scripts/mutation.sh --reuse-build build --sample 400   # .cpp files; compiles only those, relinks
#   scripts/mutation.sh --sample 400                      # a Release build of its own in build-mutation/
#   scripts/mutation.sh --files engine/overlap.cpp --only KEY,KEY
#   scripts/mutation.sh --help
#
# Needs clang++ (its JSON AST finds the mutation points), python3, cmake, ninja
# and a build with LibTorch and RapidCheck. Exit status: 0 when every mutant
# run was killed or is listed as equivalent, 1 when a survivor is new.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
for tool in clang++ python3 cmake ninja; do
  command -v "$tool" >/dev/null || { echo "mutation.sh: $tool is needed" >&2; exit 2; }
done
exec python3 "$root/scripts/mutation.py" "$@"
