# The LibTorch oracle: which LibTorch the build links, as one target,
# stridecheck::torch, and STRIDECHECK_HAVE_TORCH.
#
# STRIDECHECK_ORACLE picks it:
#   wheel   (default) LibTorch 2.15.0 from the pinned PyPI wheel that
#           scripts/setup.sh unpacks into STRIDECHECK_LIBTORCH_WHEEL
#           ($STRIDECHECK_CACHE or ~/.cache/stridecheck, libtorch-2.15.0/torch).
#           The wheel is a CUDA build; the oracle links only its CPU part
#           (torch_cpu + c10), through targets defined here, because the wheel's
#           TorchConfig.cmake probes GPUs and links libtorch_cuda (cuSPARSELt,
#           NVSHMEM, NCCL), and with Debian's libtorch-dev installed it linked
#           Debian's libc10.so next to the wheel's libtorch_cpu.so.
#           Another measured wheel (scripts/setup.sh --torch=VERSION) through
#           -DSTRIDECHECK_LIBTORCH_WHEEL=<its folder>/torch. The wheels before
#           2.11 are CUDA 12 (2.0.1: CUDA 11) builds: their libtorch_cpu.so needs
#           libcudart.so.12 and libcupti.so.12, which setup.sh puts beside the
#           wheel (nvidia/cuda_runtime/lib, nvidia/cuda_cupti/lib); nothing of
#           libtorch_cuda is linked, so no CUDA 12 toolkit is needed.
#   find    find_package(Torch): any LibTorch found through CMAKE_PREFIX_PATH or
#           Torch_DIR (a pip-installed CUDA torch, a libtorch zip), or Debian's
#           libtorch-dev 1.13.1 in /usr (scripts/test.sh --oracle=1.13).
# Passing CMAKE_PREFIX_PATH or Torch_DIR without STRIDECHECK_ORACLE selects `find`.
#
# Whatever is picked, tests/oracle/linked_libtorch_test.sh checks with ldd that no
# binary loads libc10/libtorch from two folders.

set(_sc_default_oracle wheel)
if(CMAKE_PREFIX_PATH OR Torch_DIR)
  set(_sc_default_oracle find)
endif()
set(STRIDECHECK_ORACLE ${_sc_default_oracle} CACHE STRING "LibTorch oracle: wheel (LibTorch 2.15.0 from scripts/setup.sh) or find (find_package(Torch))")
set_property(CACHE STRIDECHECK_ORACLE PROPERTY STRINGS wheel find)

if(DEFINED ENV{STRIDECHECK_CACHE})
  set(_sc_cache "$ENV{STRIDECHECK_CACHE}")
else()
  set(_sc_cache "$ENV{HOME}/.cache/stridecheck")
endif()
set(STRIDECHECK_LIBTORCH_WHEEL "${_sc_cache}/libtorch-2.15.0/torch" CACHE PATH
    "The unpacked torch/ folder of the LibTorch wheel (scripts/setup.sh)")

set(STRIDECHECK_HAVE_TORCH OFF)
set(STRIDECHECK_TORCH_OLD_ABI OFF)
set(STRIDECHECK_TORCH_SOURCE "")
set(STRIDECHECK_TORCH_LIB_DIR "")

if(STRIDECHECK_ORACLE STREQUAL "wheel")
  set(_w "${STRIDECHECK_LIBTORCH_WHEEL}")
  if(NOT EXISTS "${_w}/lib/libtorch_cpu.so" OR NOT EXISTS "${_w}/include/ATen/ATen.h")
    message(WARNING "LibTorch wheel not found in ${_w}: run scripts/setup.sh (the build scripts do), "
                    "or pass -DSTRIDECHECK_ORACLE=find [-DCMAKE_PREFIX_PATH=...]. Building without the oracle.")
  else()
    # The CUDA runtime libtorch_cpu.so needs (libcudart.so.N, libcupti.so.N: 13
    # from 2.11, 12 or 11 before): the wheel's own rpath looks in
    # ../../nvidia/cu13/lib (where setup.sh puts the PyPI packages when the
    # toolkit lacks them) and ../../nvidia/cuda_runtime/lib, cuda_cupti/lib (an
    # older wheel's, from setup.sh); then the CUDA toolkit's. Each folder that
    # has one of the sonames the wheel's libtorch_cpu.so names.
    set(_sc_cuda_sonames libcudart.so.13 libcupti.so.13)
    file(GLOB _sc_wheel_runtime "${_w}/../nvidia/cuda_runtime/lib/libcudart.so.*"
                                "${_w}/../nvidia/cuda_cupti/lib/libcupti.so.*")
    if(_sc_wheel_runtime)
      set(_sc_cuda_sonames "")
      foreach(f ${_sc_wheel_runtime})
        get_filename_component(n "${f}" NAME)
        list(APPEND _sc_cuda_sonames "${n}")
      endforeach()
    endif()
    set(_sc_cuda_dirs "")
    foreach(d "${_w}/../nvidia/cu13/lib" "${_w}/../nvidia/cuda_runtime/lib" "${_w}/../nvidia/cuda_cupti/lib"
              /usr/local/cuda/lib64 /usr/local/cuda/extras/CUPTI/lib64 /usr/local/cuda/lib)
      get_filename_component(d "${d}" ABSOLUTE)
      foreach(n ${_sc_cuda_sonames})
        if(EXISTS "${d}/${n}" AND NOT d IN_LIST _sc_cuda_dirs)
          list(APPEND _sc_cuda_dirs "${d}")
        endif()
      endforeach()
    endforeach()
    if(NOT _sc_cuda_dirs)
      message(WARNING "No ${_sc_cuda_sonames} found for the LibTorch wheel: run scripts/setup.sh")
    endif()

    add_library(stridecheck_torch_c10 SHARED IMPORTED)
    set_target_properties(stridecheck_torch_c10 PROPERTIES IMPORTED_LOCATION "${_w}/lib/libc10.so")
    add_library(stridecheck_torch_cpu SHARED IMPORTED)
    set_target_properties(stridecheck_torch_cpu PROPERTIES
      IMPORTED_LOCATION "${_w}/lib/libtorch_cpu.so"
      INTERFACE_LINK_LIBRARIES stridecheck_torch_c10)
    add_library(stridecheck_torch INTERFACE)
    # -isystem: LibTorch's headers are not ours to warn about.
    target_include_directories(stridecheck_torch SYSTEM INTERFACE
      "${_w}/include" "${_w}/include/torch/csrc/api/include")
    # The libstdc++ ABI: C++11 (PyPI's manylinux_2_28 wheels, from 2.7), or the
    # old one (the manylinux1 wheels before: 2.0.1, 2.5.1), which their
    # TorchConfig.cmake imposes on "dependent libraries". std::string crosses
    # from the engine to the oracle, so then every stridecheck library builds
    # with the old ABI (PUBLIC on the engine, which all of them link), and
    # nothing that links Debian's C++11-ABI GoogleTest, RapidCheck or Google
    # Benchmark can be built (STRIDECHECK_TORCH_OLD_ABI: tests/, bench/).
    set(STRIDECHECK_TORCH_OLD_ABI OFF)
    if(EXISTS "${_w}/share/cmake/Torch/TorchConfig.cmake")
      file(STRINGS "${_w}/share/cmake/Torch/TorchConfig.cmake" _sc_abi REGEX "_GLIBCXX_USE_CXX11_ABI=0")
      if(_sc_abi)
        set(STRIDECHECK_TORCH_OLD_ABI ON)
      endif()
    endif()
    if(STRIDECHECK_TORCH_OLD_ABI)
      target_compile_definitions(stridecheck_engine PUBLIC _GLIBCXX_USE_CXX11_ABI=0)
      target_compile_definitions(stridecheck_torch INTERFACE _GLIBCXX_USE_CXX11_ABI=0)
      message(STATUS "stridecheck: the wheel uses the pre-C++11 libstdc++ ABI: every library builds with it; "
                     "no unit tests or benchmarks (Debian's GoogleTest, RapidCheck, Benchmark use the C++11 ABI)")
    else()
      target_compile_definitions(stridecheck_torch INTERFACE _GLIBCXX_USE_CXX11_ABI=1)
    endif()
    target_link_libraries(stridecheck_torch INTERFACE stridecheck_torch_cpu stridecheck_torch_c10)
    # DT_RPATH (not RUNPATH): it is searched before LD_LIBRARY_PATH and also for
    # the libraries' own dependencies (libcudart.so.13 of libtorch_cpu.so), so a
    # binary never picks Debian's libc10.so from the system folder.
    list(JOIN _sc_cuda_dirs ":" _sc_cuda_rpath)
    target_link_options(stridecheck_torch INTERFACE
      "LINKER:--disable-new-dtags" "LINKER:-rpath,${_w}/lib:${_sc_cuda_rpath}")
    add_library(stridecheck::torch ALIAS stridecheck_torch)

    set(_sc_wheel_version "")
    if(EXISTS "${_w}/version.py")
      file(STRINGS "${_w}/version.py" _sc_v REGEX "^__version__")
      string(REGEX REPLACE ".*'(.*)'.*" "\\1" _sc_wheel_version "${_sc_v}")
    endif()
    set(STRIDECHECK_TORCH_SOURCE "PyPI wheel torch ${_sc_wheel_version}")
    set(STRIDECHECK_TORCH_LIB_DIR "${_w}/lib")
    set(STRIDECHECK_HAVE_TORCH ON)
    message(STATUS "stridecheck: LibTorch from the PyPI wheel torch ${_sc_wheel_version} in ${_w} (torch_cpu + c10; CUDA runtime from ${_sc_cuda_rpath})")
  endif()
elseif(STRIDECHECK_ORACLE STREQUAL "find")
  find_package(Torch QUIET)
  if(Torch_FOUND)
    add_library(stridecheck_torch INTERFACE)
    # TorchConfig adds -D_GLIBCXX_USE_CXX11_ABI and include dirs through the imported targets.
    target_link_libraries(stridecheck_torch INTERFACE ${TORCH_LIBRARIES})
    add_library(stridecheck::torch ALIAS stridecheck_torch)
    set(STRIDECHECK_HAVE_TORCH ON)
    get_filename_component(STRIDECHECK_TORCH_LIB_DIR "${Torch_DIR}/../../../lib" ABSOLUTE)
    # Debian's libtorch-dev 1.13.1 says 1.13.0 in its headers: reports name the
    # package too, when a Debian package owns the LibTorch found.
    execute_process(COMMAND dpkg -S "${Torch_DIR}/TorchConfig.cmake"
                    OUTPUT_VARIABLE torch_pkg ERROR_QUIET RESULT_VARIABLE torch_pkg_rc)
    if(torch_pkg_rc EQUAL 0)
      string(REGEX REPLACE ":.*" "" torch_pkg_name "${torch_pkg}")
      execute_process(COMMAND dpkg-query -W -f=\${Version} ${torch_pkg_name}
                      OUTPUT_VARIABLE torch_pkg_version ERROR_QUIET)
      set(STRIDECHECK_TORCH_SOURCE "Debian package ${torch_pkg_name} ${torch_pkg_version}")
      set(STRIDECHECK_TORCH_LIB_DIR "")   # Debian's libraries are spread over the system folder
      message(STATUS "stridecheck: LibTorch from Debian package ${torch_pkg_name} ${torch_pkg_version}")
    else()
      set(STRIDECHECK_TORCH_SOURCE "${Torch_DIR}")
      message(STATUS "stridecheck: LibTorch from ${Torch_DIR}")
    endif()
  else()
    message(WARNING "LibTorch not found: building without the oracle. "
                    "Install libtorch-dev or set CMAKE_PREFIX_PATH.")
  endif()
else()
  message(FATAL_ERROR "STRIDECHECK_ORACLE is '${STRIDECHECK_ORACLE}': use wheel or find")
endif()
