#!/usr/bin/env bash
# Installs what stridecheck needs, only when something is missing; idempotent and
# quiet when everything is already there.
#
# 1. Debian packages (apt-get): compilers, cmake, ccache, GoogleTest, RapidCheck, Google
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
#
# Options:
#   --torch=VERSION  2. for another measured wheel instead of 2.15.0: 2.0.1, 2.5.1, 2.6.0,
#                    2.7.1, 2.8.0, 2.9.1, 2.10.0, 2.11.0, 2.12.1, 2.13.0 or 2.14.1 (the engine has a profile
#                    for each, pinned by sha256 below; docs/versions.md), into
#                    $cache/libtorch-VERSION/; $STRIDECHECK_TORCH_VERSION sets it too.
#                    With --print-prefix prints that folder. Build against it with
#                    -DSTRIDECHECK_LIBTORCH_WHEEL=<folder>/torch (scripts/test.sh
#                    --oracle=2.11 does). The wheels before 2.11 are CUDA 12 (2.0.1:
#                    CUDA 11) builds whose libtorch_cpu.so needs that CUDA's
#                    libcudart and libcupti, which the toolkit here (13) lacks: the
#                    pinned PyPI wheels nvidia-cuda-runtime-cuXX and
#                    nvidia-cuda-cupti-cuXX (the versions the torch wheel requires)
#                    are unpacked into $cache/libtorch-VERSION/nvidia/, where the
#                    wheel's own rpath and cmake/torch.cmake look; only LibTorch's
#                    CPU part is unpacked from these (no libtorch_cuda.so: 1 GB).
#   --libtorch-only  skip 1. (the ClusterFuzzLite image brings its own compilers)
#   --python-torch   also (optional; CI does not need it) a Python `torch` 2.15.0
#                    for the reproductions (`stridecheck repro --as python`, ctest
#                    repro/python_corpus) without a system-wide install: the same
#                    wheel, its small pure-Python dependencies and the NVIDIA
#                    libraries `import torch` loads that the CUDA 13 toolkit lacks
#                    (cuFile, cuSPARSELt, NCCL, NVSHMEM: about 700 MB), into
#                    $cache/python-torch-2.15.0/, with a `python3` wrapper there
#                    that sets PYTHONPATH and LD_LIBRARY_PATH. The ctest finds it.
set -euo pipefail

# The wheels measured against the engine's profiles (cp311; CUDA 13 builds from 2.11).
declare -A wheel_sha256s=(
  [2.15.0]=48c2d861134c0b5697c7602cb5ffa68f62a2989fdcd1717e593356f67996ca1e
  [2.14.1]=305a61f61f35f128579f299c5bd33d475f6a01c6307336139632e30856c4854d
  [2.13.0]=60fcdcb2f3876e21146cb4524ef06397d727ca9ad5f020818547e25075fe3cb7
  [2.12.1]=6e29e7e74d05bda7d955c75e99459f878ebd970ef851b4057edbd3b34a5eb4a3
  [2.11.0]=7aa2f9bbc6d4595ba72138026b2074be1233186150e9292865e04b7a63b8c67a
  [2.10.0]=ac5bdcbb074384c66fa160c15b1ead77839e3fe7ed117d667249afce0acabfac
  [2.9.1]=d033ff0ac3f5400df862a51bdde9bad83561f3739ea0046e68f5401ebfa67c1b
  [2.8.0]=c12fa219f51a933d5f80eeb3a7a5d0cbe9168c0a14bbb4055f1979431660879b
  [2.7.1]=06eea61f859436622e78dd0cdd51dbc8f8c6d76917a9cf0555a333f9eac31ec1
  [2.6.0]=7979834102cd5b7a43cc64e87f2f3b14bd0e1458f06e9f88ffa386d07c7446e1
  [2.5.1]=de5b7d6740c4b636ef4db92be922f0edc425b65ed78c5076c43c42d362a45457
  [2.0.1]=e617b1d0abaf6ced02dbb9486803abfef0d581609b09641b34fa315c9c40766d
)
# The older wheels' platform tag (the others: manylinux_2_28_x86_64), and a
# wheel's build tag where PyPI holds a rebuilt one (pip downloads the highest).
declare -A wheel_platforms=([2.6.0]=manylinux1_x86_64 [2.5.1]=manylinux1_x86_64 [2.0.1]=manylinux1_x86_64)
declare -A wheel_builds=([2.10.0]=-3)
# The CUDA runtime a wheel before 2.11 needs (its METADATA's Requires-Dist pins):
# "wheel-file sha256" pairs, unpacked into its prefix (nvidia/cuda_runtime/lib,
# nvidia/cuda_cupti/lib). The CUDA 13 wheels take the toolkit's (below).
cu128="nvidia_cuda_runtime_cu12-12.8.90-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl adade8dcbd0edf427b7204d480d6066d33902cab2a4707dcfc48a2d0fd44ab90
       nvidia_cuda_cupti_cu12-12.8.90-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl ea0cb07ebda26bb9b29ba82cda34849e73c166c18162d3913575b0c9db9a6182"
cu124="nvidia_cuda_runtime_cu12-12.4.127-py3-none-manylinux2014_x86_64.whl 64403288fa2136ee8e467cdc9c9427e0434110899d07c779f25b5c068934faa5
       nvidia_cuda_cupti_cu12-12.4.127-py3-none-manylinux2014_x86_64.whl 9dec60f5ac126f7bb551c055072b69d85392b13311fcc1bcda2202d172df30fb"
declare -A cuda_runtime_wheels=(
  [2.10.0]="$cu128"
  [2.9.1]="$cu128"
  [2.8.0]="$cu128"
  [2.7.1]="nvidia_cuda_runtime_cu12-12.6.77-py3-none-manylinux2014_x86_64.whl a84d15d5e1da416dd4774cb42edf5e954a3e60cc945698dc1d5be02321c44dc8
           nvidia_cuda_cupti_cu12-12.6.80-py3-none-manylinux2014_x86_64.whl a3eff6cdfcc6a4c35db968a06fcadb061cbc7d6dde548609a941ff8701b98b73"
  [2.6.0]="$cu124"
  [2.5.1]="$cu124"
  [2.0.1]="nvidia_cuda_runtime_cu11-11.7.99-py3-none-manylinux1_x86_64.whl cc768314ae58d2641f07eac350f40f99dcb35719c4faff4bc458a7cd2b119e31
           nvidia_cuda_cupti_cu11-11.7.101-py3-none-manylinux1_x86_64.whl e0cfd9854e1f2edaa36ca20d21cd0bdd5dcfca4e3b9e130a082e05b33b6c5895"
)
torch_version="${STRIDECHECK_TORCH_VERSION:-2.15.0}"
print_prefix=0
libtorch_only=0
python_torch=0
for arg in "$@"; do
  case "$arg" in
    --torch=*) torch_version="${arg#--torch=}" ;;
    --print-prefix) print_prefix=1 ;;
    --libtorch-only) libtorch_only=1 ;;
    --python-torch) python_torch=1 ;;
    *) echo "setup: unknown option '$arg' (--torch=VERSION, --print-prefix, --libtorch-only, --python-torch)" >&2; exit 2 ;;
  esac
done
if [ -z "${wheel_sha256s[$torch_version]:-}" ]; then
  echo "setup: --torch takes a measured wheel (2.0.1, 2.5.1, 2.6.0, 2.7.1, 2.8.0, 2.9.1, 2.10.0, 2.11.0, 2.12.1, 2.13.0, 2.14.1, 2.15.0), not '$torch_version'" >&2
  exit 2
fi
wheel_platform=${wheel_platforms[$torch_version]:-manylinux_2_28_x86_64}
wheel_name=torch-${torch_version}${wheel_builds[$torch_version]:-}-cp311-cp311-${wheel_platform}.whl
wheel_sha256=${wheel_sha256s[$torch_version]}
cache="${STRIDECHECK_CACHE:-$HOME/.cache/stridecheck}"
prefix="$cache/libtorch-$torch_version"
if [ "$print_prefix" = 1 ]; then echo "$prefix"; exit 0; fi

packages=(cmake ninja-build g++ clang libclang-rt-14-dev libtorch-dev librapidcheck-dev
          libgtest-dev libgmock-dev libbenchmark-dev python3-pip unzip ccache)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# python3-pip is only needed when pip is not there already (pyenv, venv).
if python3 -m pip --version >/dev/null 2>&1; then
  missing=("${missing[@]/python3-pip}")
fi
missing=($(printf '%s\n' "${missing[@]}" | grep -v '^$' || true))

if ((${#missing[@]})) && [ "$libtorch_only" = 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# ---- LibTorch 2.15.0 (or --torch's) from the PyPI wheel ----------------------
# The .complete stamp is written last, so an interrupted install is redone.
if [ ! -e "$prefix/.complete" ]; then
  mkdir -p "$cache"
  exec 9>"$cache/.setup.lock"
  flock 9   # several builds may run setup at once
  if [ ! -e "$prefix/.complete" ]; then
    wheel="${STRIDECHECK_WHEEL:-$cache/downloads/$wheel_name}"
    if [ ! -e "$wheel" ]; then
      echo "setup: downloading $wheel_name from PyPI (about 540 MB)" >&2
      mkdir -p "$cache/downloads"
      python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.11 \
        --platform "$wheel_platform" --dest "$cache/downloads" "torch==$torch_version" >&2
    fi
    echo "setup: checking $wheel" >&2
    echo "$wheel_sha256  $wheel" | sha256sum --check --quiet - \
      || { echo "setup: $wheel: sha256 is not $wheel_sha256" >&2; exit 1; }
    echo "setup: unpacking LibTorch $torch_version into $prefix" >&2
    rm -rf "$prefix.tmp"
    mkdir -p "$prefix.tmp"
    runtime="${cuda_runtime_wheels[$torch_version]:-}"
    if [ -z "$runtime" ]; then
      unzip -q "$wheel" 'torch/lib/*' 'torch/include/*' 'torch/share/*' 'torch/version.py' -d "$prefix.tmp"
    else
      # LibTorch's CPU part only, and the CUDA runtime its libtorch_cpu.so needs.
      unzip -qq "$wheel" 'torch/lib/*' 'torch/include/*' 'torch/share/*' 'torch/version.py' \
        -x 'torch/lib/libtorch_cuda*' 'torch/lib/libc10_cuda.so' 'torch/lib/libcusparseLt*' \
           'torch/lib/libnvfuser*' 'torch/lib/libtorch_python.so' 'torch/lib/libcaffe2_nvrtc.so' -d "$prefix.tmp" \
        2>/dev/null   # unzip's "caution: excluded filename not matched" for what a wheel lacks
      while read -r name sha; do
        [ -n "$name" ] || continue
        dep="$cache/downloads/$name"
        if [ ! -e "$dep" ]; then
          spec=$(sed -E 's/^([a-z0-9_]+)-([^-]+)-.*/\1==\2/; s/_/-/g' <<<"$name")
          echo "setup: downloading $spec from PyPI" >&2
          python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.11 \
            --platform manylinux2014_x86_64 --platform manylinux1_x86_64 --dest "$cache/downloads" "$spec" >&2
        fi
        echo "$sha  $dep" | sha256sum --check --quiet - \
          || { echo "setup: $dep: sha256 is not $sha" >&2; exit 1; }
        unzip -qq "$dep" 'nvidia/*/lib/libcudart.so.*' 'nvidia/*/lib/libcupti.so.*' -d "$prefix.tmp" 2>/dev/null \
          || [ $? = 11 ]   # 11: one of the two patterns matched nothing (each wheel has one)
      done <<<"$runtime"
    fi
    rm -rf "$prefix"
    mv "$prefix.tmp" "$prefix"
    echo "$wheel_name $wheel_sha256" >"$prefix/.complete"
  fi
  flock -u 9
fi

# ---- the CUDA runtime libtorch_cpu.so links against -------------------------
# (the CUDA 13 wheels; an older wheel's runtime is in its prefix, above)
cuda_ok=1
if [ -z "${cuda_runtime_wheels[$torch_version]:-}" ]; then
  for lib in libcudart.so.13 libcupti.so.13; do
    [ -e "/usr/local/cuda/lib64/$lib" ] || [ -e "/usr/local/cuda/extras/CUPTI/lib64/$lib" ] || cuda_ok=0
  done
fi
if [ "$cuda_ok" = 0 ] && [ ! -e "$cache/cuda-runtime/.complete" ]; then
  echo "setup: no CUDA 13 runtime in /usr/local/cuda: installing nvidia-cuda-runtime and nvidia-cuda-cupti into $cache/cuda-runtime" >&2
  rm -rf "$cache/cuda-runtime"
  python3 -m pip install --quiet --no-deps --target "$cache/cuda-runtime" \
    'nvidia-cuda-runtime==13.*' 'nvidia-cuda-cupti==13.*' >&2
  touch "$cache/cuda-runtime/.complete"
fi

# ---- optional: a Python torch 2.15.0 for the reproductions ------------------
# Pins from the wheel's METADATA (Requires-Dist); the rest of the CUDA 13
# libraries libtorch_cuda.so loads at import come from the toolkit.
pytorch="$cache/python-torch-$torch_version"
if [ "$python_torch" = 1 ] && [ ! -e "$pytorch/.complete" ]; then
  wheel="${STRIDECHECK_WHEEL:-$cache/downloads/$wheel_name}"
  if [ ! -e "$wheel" ]; then
    mkdir -p "$cache/downloads"
    python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.11 \
      --platform manylinux_2_28_x86_64 --dest "$cache/downloads" "torch==$torch_version" >&2
  fi
  echo "$wheel_sha256  $wheel" | sha256sum --check --quiet - \
    || { echo "setup: $wheel: sha256 is not $wheel_sha256" >&2; exit 1; }
  echo "setup: installing Python torch $torch_version into $pytorch" >&2
  rm -rf "$pytorch"
  PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet --no-deps --target "$pytorch/site" "$wheel" \
    filelock fsspec 'typing-extensions>=4.13.0' 'sympy>=1.13.3' mpmath 'networkx>=2.5.1' jinja2 markupsafe >&2
  PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet --no-deps --target "$pytorch/nvidia-libs" \
    'nvidia-cufile==1.*' 'nvidia-cusparselt-cu13==0.8.1' 'nvidia-nccl-cu13==2.30.7' 'nvidia-nvshmem-cu13==3.7.2' >&2
  nv="$pytorch/nvidia-libs/nvidia"
  cat >"$pytorch/python3" <<WRAPPER
#!/bin/sh
# python3 with torch $torch_version (scripts/setup.sh --python-torch)
export PYTHONPATH="$pytorch/site\${PYTHONPATH:+:\$PYTHONPATH}"
export LD_LIBRARY_PATH="$nv/cu13/lib:$nv/cusparselt/lib:$nv/nccl/lib:$nv/nvshmem/lib:/usr/local/cuda/lib64\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
exec python3 "\$@"
WRAPPER
  chmod +x "$pytorch/python3"
  if ! why=$("$pytorch/python3" -c 'import torch; print(torch.__version__)' 2>&1); then
    echo "setup: $pytorch/python3 cannot import torch: $(tail -1 <<<"$why")" >&2
    exit 1
  fi
  touch "$pytorch/.complete"
  echo "setup: $pytorch/python3 has torch $why" >&2
fi
