#!/usr/bin/env bash
# Checks that each binary loads LibTorch (libc10, libtorch*) from one folder
# only, and from the expected one when given: a binary that mixed Debian's
# /usr/lib/x86_64-linux-gnu/libc10.so with the wheel's libtorch_cpu.so would run
# two LibTorch versions in one process (cmake/torch.cmake).
#
#   linked_libtorch_test.sh EXPECTED_LIB_DIR|"" BINARY...
set -uo pipefail
expected="${1:-}"; shift
status=0
for bin in "$@"; do
  out=$(ldd "$bin" 2>&1) || { echo "FAIL $bin: ldd failed: $out"; status=1; continue; }
  if grep -q "not found" <<<"$out"; then
    echo "FAIL $bin: unresolved libraries:"; grep "not found" <<<"$out"; status=1; continue
  fi
  # "libc10.so => /path/libc10.so (0x...)": the folders of every LibTorch library.
  libs=$(awk '$1 ~ /^lib(c10|torch|caffe2)/ && $2 == "=>" {print $3}' <<<"$out")
  if [ -z "$libs" ]; then echo "FAIL $bin: links no LibTorch library"; status=1; continue; fi
  dirs=$(for l in $libs; do dirname "$(readlink -f "$l")"; done | sort -u)
  if [ "$(wc -l <<<"$dirs")" -ne 1 ]; then
    echo "FAIL $bin: LibTorch libraries from several folders:"; awk '$1 ~ /^lib(c10|torch|caffe2)/' <<<"$out"; status=1; continue
  fi
  if [ -n "$expected" ] && [ "$dirs" != "$(readlink -f "$expected")" ]; then
    echo "FAIL $bin: LibTorch from $dirs, expected $expected"; status=1; continue
  fi
  echo "ok   $bin: $(wc -w <<<"$libs") LibTorch libraries, all from $dirs"
done
exit $status
