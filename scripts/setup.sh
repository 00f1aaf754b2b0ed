#!/usr/bin/env bash
# Installs what stridecheck needs, only when something is missing; idempotent and
# quiet when everything is already there.
#
# 1. Debian packages (apt-get): compilers, cmake, GoogleTest, RapidCheck, Google
#    Benchmark, and Debian's libtorch-dev 1.13.1 (the second oracle, build-1.13/).
# 2. The default oracle, LibTorch 2.15.0, from the pinned PyPI wheel (a CUDA build
#    whose CPU part needs only the CUDA runtime), into
#    ${STRIDECHECK_CACHE:-$HOME/.cache/stridecheck}/libtorch-2.15.0/
#    (torch/lib, torch/include, torch/share only). The wheel's sha256 is checked;
#    nothing is downloaded when the folder is complete. STRIDECHECK_WHEEL=/path/x.whl
#    uses a wheel already on disk (it is still checked).
# 3. The CUDA runtime that libtorch_cpu.so needs (libcudart.so.13, libcupti.so.13):
#    the CUDA toolkit's when /usr/local/cuda has them, else the PyPI packages
#    nvidia-cuda-runtime and nvidia-cuda-cupti into the same cache folder.
#
# Prints nothing when everything is present. `scripts/setup.sh --print-prefix`
# prints the LibTorch 2.15 folder (what cmake/torch.cmake looks for by default).
set -euo pipefail

torch_version=2.15.0
wheel_name=torch-${torch_version}-cp311-cp311-manylinux_2_28_x86_64.whl
wheel_sha256=48c2d861134c0b5697c7602cb5ffa68f62a2989fdcd1717e593356f67996ca1e
cache="${STRIDECHECK_CACHE:-$HOME/.cache/stridecheck}"
prefix="$cache/libtorch-$torch_version"

if [ "${1:-}" = "--print-prefix" ]; then echo "$prefix"; exit 0; fi

packages=(cmake ninja-build g++ clang libclang-rt-14-dev libtorch-dev librapidcheck-dev
          libgtest-dev libgmock-dev libbenchmark-dev python3-pip unzip)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# python3-pip is only needed when pip is not there already (pyenv, venv).
if python3 -m pip --version >/dev/null 2>&1; then
  missing=("${missing[@]/python3-pip}")
fi
missing=($(printf '%s\n' "${missing[@]}" | grep -v '^$' || true))

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# ---- LibTorch 2.15.0 from the PyPI wheel -----------------------------------
# The .complete stamp is written last, so an interrupted install is redone.
if [ ! -e "$prefix/.complete" ]; then
  mkdir -p "$cache"
  exec 9>"$cache/.setup.lock"
  flock 9   # several builds may run setup at once
  if [ ! -e "$prefix/.complete" ]; then
    wheel="${STRIDECHECK_WHEEL:-$cache/downloads/$wheel_name}"
    if [ ! -e "$wheel" ]; then
      echo "setup: downloading $wheel_name from PyPI (539 MB)" >&2
      mkdir -p "$cache/downloads"
      python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.11 \
        --platform manylinux_2_28_x86_64 --dest "$cache/downloads" "torch==$torch_version" >&2
    fi
    echo "setup: checking $wheel" >&2
    echo "$wheel_sha256  $wheel" | sha256sum --check --quiet - \
      || { echo "setup: $wheel: sha256 is not $wheel_sha256" >&2; exit 1; }
    echo "setup: unpacking LibTorch $torch_version into $prefix" >&2
    rm -rf "$prefix.tmp"
    mkdir -p "$prefix.tmp"
    unzip -q "$wheel" 'torch/lib/*' 'torch/include/*' 'torch/share/*' 'torch/version.py' -d "$prefix.tmp"
    rm -rf "$prefix"
    mv "$prefix.tmp" "$prefix"
    echo "$wheel_name $wheel_sha256" >"$prefix/.complete"
  fi
  flock -u 9
fi

# ---- the CUDA runtime libtorch_cpu.so links against -------------------------
cuda_ok=1
for lib in libcudart.so.13 libcupti.so.13; do
  [ -e "/usr/local/cuda/lib64/$lib" ] || [ -e "/usr/local/cuda/extras/CUPTI/lib64/$lib" ] || cuda_ok=0
done
if [ "$cuda_ok" = 0 ] && [ ! -e "$cache/cuda-runtime/.complete" ]; then
  echo "setup: no CUDA 13 runtime in /usr/local/cuda: installing nvidia-cuda-runtime and nvidia-cuda-cupti into $cache/cuda-runtime" >&2
  rm -rf "$cache/cuda-runtime"
  python3 -m pip install --quiet --no-deps --target "$cache/cuda-runtime" \
    'nvidia-cuda-runtime==13.*' 'nvidia-cuda-cupti==13.*' >&2
  touch "$cache/cuda-runtime/.complete"
fi
