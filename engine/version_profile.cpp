#include "engine/version_profile.h"

#include <array>
#include <charconv>
#include <cstdlib>

#include "engine/error.h"

namespace sc::engine {
namespace {

constexpr PyTorchVersion k1_13{1, 13};
constexpr PyTorchVersion k2_0{2, 0};
constexpr PyTorchVersion k2_5{2, 5};
constexpr PyTorchVersion k2_6{2, 6};
constexpr PyTorchVersion k2_7{2, 7};
constexpr PyTorchVersion k2_8{2, 8};
constexpr PyTorchVersion k2_9{2, 9};
constexpr PyTorchVersion k2_10{2, 10};
constexpr PyTorchVersion k2_11{2, 11};
constexpr PyTorchVersion k2_12{2, 12};
constexpr PyTorchVersion k2_13{2, 13};
constexpr PyTorchVersion k2_14{2, 14};
constexpr PyTorchVersion k2_15{2, 15};

// The table: one entry per behaviour that differs between the profiles, in enum
// order. `since` is the first measured profile that has it (a release before it
// may have it too, where no PR says otherwise: 2.5 is the oldest 2.x measured),
// or the release that introduced it where the PR is known and older than every
// measured 2.x. Measured: Debian's libtorch-dev 1.13.1 against the PyPI wheel
// torch 2.15.0, through `stridecheck replay` and the EngineMatches property;
// then the PyPI wheels 2.11.0, 2.12.1, 2.13.0 and 2.14.1, the CUDA 12 wheels
// 2.8.0, 2.9.1 and 2.10.0 and the pre-C++11-ABI wheel 2.5.1, through
// `stridecheck replay corpus/` and 20,000-program generate sweeps, each with
// its own profile; each entry has a corpus program that shows it.
constexpr std::array<ChangeInfo, static_cast<size_t>(Change::kCount)> kChanges{{
    {Change::ViewShapeErrorNamesIndex, "ViewShapeErrorNamesIndex", k2_8,
     "view/reshape/unflatten with a size < -1: 'invalid shape dimension -2' gains ' at index 0 of shape [-2, 6]'",
     "measured (infer_size_impl in ATen/InferSize.h): 2.7.1 has the short message, 2.8.0 the long one; "
     "corpus/views/view_errors.prog, corpus/versions/view_shape_error_index.prog"},
    {Change::DispatchErrorIsNotImplemented, "DispatchErrorIsNotImplemented", {2, 8},
     "'\"<kernel>\" not implemented for '<dtype>'' (AT_DISPATCH) is a NotImplementedError, was a RuntimeError",
     "pytorch#155470 ([BE] Raise NotImplementedError when op is unimplemented for a dtype); measured: 2.7.1 "
     "raises RuntimeError, every 2.x wheel from 2.8.0 NotImplementedError"},
    {Change::BoolNegSubNotImplemented, "BoolNegSubNotImplemented", k2_14,
     "neg and sub on bool tensors raise NotImplementedError, were RuntimeError (same messages)",
     "measured: RuntimeError in the 2.13.0 wheel, NotImplementedError in 2.14.1 (the dtype dispatch error of "
     "pytorch#155470 changed before 2.11); corpus/data/inplace_errors.prog"},
    {Change::ClampScalarKernelNames, "ClampScalarKernelNames", k2_0,
     "clamp_ with scalar bounds dispatches to clamp_min_scalar_cpu/clamp_max_scalar_cpu/clamp_scalar_cpu "
     "(the dtype error names them), was clamp_min_cpu/clamp_max_cpu/clamp_cpu",
     "measured (the 2.0.1 wheel has it); corpus/regressions/clamp_bool.prog"},
    {Change::HalfScalarOpsInOpmath, "HalfScalarOpsInOpmath", k2_5,
     "mul, mul_, div_ of a float16/bfloat16 tensor by a Python number compute in float32 with the number "
     "unrounded (BinaryOpsKernel: original_scalar_value<opmath_t>), were with the number first rounded to the "
     "tensor's dtype; add/sub and 0-d tensor operands are unchanged",
     "measured; corpus/data/inplace_values.prog, corpus/data/half_scalar_opmath.prog"},
    {Change::TransposeProperties0dWarn, "TransposeProperties0dWarn", {2, 0},
     "T and mT on a 0-d tensor warn 'Tensor.T is deprecated on 0-D tensors. ...' (mT: 'Tensor.mT ...')",
     "pytorch#92143 (Deprecate .mT,.T,.mH,.H on 0D tensors)"},
    {Change::UnflattenWrapsErrors, "UnflattenWrapsErrors", k2_8,
     "unflatten's errors from the dim and size checks are RuntimeErrors 'unflatten got an unexpected error:\\n  <msg>'",
     "handle_unflatten_exception (TensorShape.cpp) catches std::exception, was std::runtime_error, which "
     "c10::Error is not; measured: 2.7.1 unwrapped, 2.8.0 wrapped; corpus/views/unflatten.prog, "
     "corpus/versions/unflatten_wraps_errors.prog"},
    {Change::NarrowChecksStartInRange, "NarrowChecksStartInRange", k2_5,
     "narrow checks start against [-size, size] first: IndexError 'start out of range (expected to be in range "
     "of [-s, s], but got x)'",
     "measured; corpus/views/narrow.prog"},
    {Change::NarrowLengthNonNegative, "NarrowLengthNonNegative", k2_0,
     "narrow/split with a negative length: RuntimeError 'narrow(): length must be non-negative.', was "
     "IndexError 'Rank cannot be negative ...' from maybe_wrap_dim",
     "measured (the 2.0.1 wheel has it); corpus/regressions/unbind_negative_size.prog"},
    {Change::UnfoldChecksSize, "UnfoldChecksSize", k2_6,
     "unfold with a negative size: 'size is -1 but must be >= 0', was the storage-size overflow message",
     "pytorch#139965 (Add size param check of unfold, for pytorch#76617); measured: 2.5.1 lacks it, 2.6.0 has "
     "it; corpus/views/unfold_errors.prog, corpus/versions/unfold_checks_size.prog"},
    {Change::LargeNegativeSymInt, "LargeNegativeSymInt", {2, 1},
     "a single int below -2^62 (slice start/end/step, as_strided's offset) is a valid SymInt, was the error "
     "'Expected !is_symbolic() to be true, ...'; int lists still raise 'IntArrayRef contains an int that "
     "cannot be represented as a SymInt'. So is a SymInt product that wraps below -2^62 (reshape's infer_size and "
     "computeStride, flatten's size: Note [SymInt arithmetic]), which 1.13 raised the same way; flatten's reshape "
     "then refuses it: 'SymIntArrayRef expected to contain only concrete integers that are stored inline ...'",
     "pytorch#99157 (Support large negative SymInt); corpus/views/slice_errors.prog, as_strided_errors.prog, "
     "corpus/versions/reshape_symint_arithmetic.prog"},
    {Change::AsStridedChecksOffsetOverflow, "AsStridedChecksOffsetOverflow", k2_7,
     "as_strided counts the offset in the storage-size overflow check ('Storage size calculation overflowed "
     "with sizes=[2] and strides=[1]'), as c10 does: in uint64, so a negative offset overflows it (for offset "
     "-1 the sum wraps to a small size instead); 1.13 added offset * itemsize to the size afterwards",
     "measured (1.13.1, 2.11.0; 2.5.1 and 2.6.0 lack it, 2.7.1 has it); corpus/views/edge_cases_04.prog, "
     "edge_cases_07.prog, corpus/edges/as_strided.prog, corpus/versions/as_strided_offset_overflow.prog"},
    {Change::UnflattenTakesSymInts, "UnflattenTakesSymInts", k2_5,
     "unflatten's sizes are SymInts: a size below -2^62 raises 'IntArrayRef contains an int that cannot be "
     "represented as a SymInt: <v>' before any other check",
     "measured; corpus/views/edge_cases_07.prog"},
    {Change::CheckedConvertC10Names, "CheckedConvertC10Names", k2_10,
     "'value cannot be converted to type c10::Half without overflow' (and c10::BFloat16), was at::Half",
     "measured (c10::Half is no longer re-exported as at::Half in the type name): the 2.8.0 and 2.9.1 wheels "
     "still say at::Half, 2.10.0 c10::Half; corpus/data/creation_values.prog, corpus/versions/c10_type_names.prog"},
    {Change::IndexSelectScalarChecksCount, "IndexSelectScalarChecksCount", {2, 1},
     "index_select on a 0-d tensor first requires exactly one index: RuntimeError 'index_select(): Index to "
     "scalar can have only 1 value, got 0 value(s)' (also for 2 or more); 1.13 checked each index against size "
     "1, returned an undefined 0-d result for none, and wrote past the result for two valid ones",
     "pytorch#94347 (forbid multi-index for index_select over scalar, the fix of pytorch#88940 and "
     "pytorch#90998); corpus/data/index_select_scalar.prog, corpus/versions/index_select_0d.prog"},
    {Change::CopySameDataEarlyExit, "CopySameDataEarlyExit", k2_0,
     "copy_ between two tensors over the very same data (same storage, offset, sizes, strides, dtype) returns at "
     "once: no overlap errors (x.expand(...).copy_(x.expand(...)) with distinct objects passes), no kernel run",
     "measured (the 2.0.1 wheel has it); requested in pytorch#34525 (copy_ should not copy when src and dst are "
     "the same memory); "
     "corpus/regressions/copy_same_data_runs_kernel.prog, corpus/data/copy_same_data.prog"},
    {Change::ZerosChecksSizes, "ZerosChecksSizes", k2_9,
     "zeros with a negative size: 'zeros: Dimension size must be non-negative.', was 'Trying to create tensor "
     "with negative dimension -1: [-1]' (ones, full, empty_strided keep the old message)",
     "pytorch#161976 (torch.zeros bound checks for symint, for pytorch#161490); measured: the 2.8.0 wheel has the "
     "old message, 2.9.1 the new one; corpus/data/creation_errors.prog, corpus/versions/zeros_checks_sizes.prog"},
    {Change::ArangeBoundMessage, "ArangeBoundMessage", k2_8,
     "arange with end < 0: 'upper bound and lower bound inconsistent with step sign', was '... larger bound ...'",
     "measured: 2.7.1 the old message, 2.8.0 the new; corpus/data/creation_errors.prog, "
     "corpus/versions/arange_bound_message.prog"},
    {Change::ClampHalfSupported, "ClampHalfSupported", {2, 1},
     "clamp_ on float16 runs (CPU kernels dispatch Half too), was '\"clamp_scalar_cpu\" not implemented for 'Half''",
     "pytorch#98493 (reported as pytorch#99563; the 2.0.1 wheel lacks it); corpus/regressions/clamp_bool.prog, "
     "corpus/versions/clamp_half_cpu.prog"},
    {Change::ClampNanSingleBound, "ClampNanSingleBound", k2_12,
     "clamp_ with only one bound, NaN, fills NaN (was: only when both bounds are given and one is NaN; a single "
     "NaN min left the tensor unchanged)",
     "measured: the 2.11.0 wheel still leaves the tensor unchanged, 2.12.1 fills NaN; corpus/data/inplace_values.prog"},
    {Change::ClampIntegerBoundsSaturate, "ClampIntegerBoundsSaturate", k2_15,
     "clamp_ of an integer tensor by an integer bound outside its dtype's range: a min above the range or a max "
     "below it raises 'Clamp min value 300 is outside the representable range of Char'; any other out-of-range "
     "bound saturates; was 'value cannot be converted to type int8_t without overflow'",
     "pytorch#193169 ([BE] Saturate out-of-range integer scalar clamp bounds, for pytorch#107702; measured: "
     "not in the 2.14.1 wheel); "
     "corpus/data/inplace_errors.prog, corpus/versions/clamp_integer_bounds.prog"},
    {Change::FillTensorValueIsCopy, "FillTensorValueIsCopy", {2, 2},
     "fill_ with a 0-d tensor value is self.copy_(value) (the value cloned first when it aliases self): an "
     "expanded destination raises 'unsupported operation: more than one element of the written-to tensor ...' "
     "and the value converts unchecked (1e10 into float16 is inf); was fill_(value.item()), no overlap check "
     "and 'value cannot be converted to type at::Half without overflow'",
     "pytorch#109533 (fill_ through copy_; pytorch#109835 clones a value that aliases self); found by "
     "stridecheck versions (docs/versions.md, change 7); corpus/versions/fill_tensor_overlap.prog"},
    {Change::StrideCalculationChecksOverflow, "StrideCalculationChecksOverflow", k2_5,
     "the strides TensorImpl computes (empty_tensor_restride for contiguous results: stride[i] = "
     "stride[i+1] * max(size[i+1], 1); set_sizes_and_strides replacing a negative stride the same way) are "
     "checked with c10::mul_overflows: 'Stride calculation overflowed' (zeros [0,2^62,4], empty_strided "
     "[0,2^62] [-2,3]); 1.13 let the product wrap",
     "measured against the 2.15 wheel (PR not found yet); corpus/regressions/creation_storage_size_overflow.prog, "
     "empty_strided_negative_strides.prog, huge_zero_size_strides_symint.prog, size_overflow_wraps.prog"},
    {Change::ScalarFillReducedFloatUnchecked, "ScalarFillReducedFloatUnchecked", k2_8,
     "fill_ (and full) of a one-element CPU tensor of float16/bfloat16 converts the value unchecked "
     "(full [] 1e10 dtype=float16 is inf; full [2] 1e10 still raises 'value cannot be converted to type "
     "c10::Half without overflow'); 1.13 checked every fill",
     "measured against the 2.15 wheel: fill_out's numel() == 1 path (scalar_fill); PR not found yet; 2.5.1 "
     "checks (generated seeds 62016333, 62019883), so does 2.7.1, 2.8.0 does not; "
     "corpus/versions/scalar_fill_reduced_float_unchecked.prog"},
    {Change::SplitWithSizesTakesSymInts, "SplitWithSizesTakesSymInts", k2_0,
     "split with a list of sizes (split_with_sizes) takes SymInts: a size below -2^62 raises 'IntArrayRef "
     "contains an int that cannot be represented as a SymInt: <v>' before any other check (1.13: int[], so "
     "the non-negative check names the whole list)",
     "measured against the 2.15 wheel (the 2.0.1 wheel has it); corpus/edges/split.prog"},
    {Change::FloatToIntOverflowsAtMaxPlusOne, "FloatToIntOverflowsAtMaxPlusOne", k2_14,
     "c10::checked_convert of a double into an integer dtype (full, fill_, tensor) overflows at f >= max + 1: "
     "255.5 -> uint8 is 255, 2147483647.5 -> int32 converts, 2^63 -> int64 raises 'value cannot be converted "
     "to type int64_t without overflow'; 1.13: f > max (255.5 raised; INT64_MAX is 2^63 as a double, so 2^63 "
     "went through as INT64_MIN). The lower bound is unchanged (f < lowest: -0.5 -> uint8 raises)",
     "measured against the 2.15 wheel; corpus/edges/full.prog, corpus/versions/checked_convert_upper_bound.prog; "
     "cause: pytorch#190651 (c10/util/overflows.h: fix float->int range check at wide-integer boundary); measured: "
     "the 2.13.0 wheel still has 1.13's bound, 2.14.1 the new one"},
    {Change::HeapSymIntInIntArrayRef, "HeapSymIntInIntArrayRef", k2_15,
     "a SymInt list holding a value below -2^62 (heap-allocated since LargeNegativeSymInt) viewed as an "
     "IntArrayRef raises 'SymIntArrayRef expected to contain only concrete integers that are stored inline "
     "and can be viewed as an IntArrayRef. Found heap-allocated concrete SymInt at index I: V in SymIntArrayRef "
     "[..]. ...' (1.13 to 2.14: 'SymIntArrayRef expected to contain only concrete integers')",
     "measured against the 2.15 wheel (C10_AS_INTARRAYREF_SLOW in the CPU as_strided wrapper), and the short "
     "message in the 2.14.1 wheel; PR not found; corpus/versions/unsqueeze_symint_geometry.prog, "
     "flatten_symint_size.prog"},
    {Change::CopyFloatHalfSkipsOverlapChecks, "CopyFloatHalfSkipsOverlapChecks", k2_0,
     "copy_ between float32 and float16 CPU tensors of the same sizes, both contiguous (or self "
     "non-overlapping and dense with src's strides), converts with fbgemm before any other check: no "
     "internal or partial overlap error ('some elements of the input tensor and the written-to tensor refer "
     "to a single memory location'); it converts in memory order, 16 or 8 elements at a time, then one by one "
     "(measured: copy_ of 4 float32 from a float16 view of their own first 8 bytes gives [0,0,0,0], of 8 reads "
     "all 8 first), so an element whose source an earlier element overwrote reads width-dependent bytes "
     "(undefined), every other one is exact. Debian's 1.13 is built without FBGEMM and checks",
     "USE_FBGEMM block at the top of copy_impl (aten/src/ATen/native/Copy.cpp; its sizes check from "
     "pytorch#88543; the 2.0.1 wheel has it); found by helper edgesdata; "
     "corpus/versions/copy_float_half_overlap.prog, "
     "copy_float_half_overlap_undefined.prog"},
    {Change::HalfFromFloatKeepsNanPayload, "HalfFromFloatKeepsNanPayload", k2_5,
     "float -> float16 of a NaN (copies, float16 arithmetic's result) quiets it and keeps its payload's top 10 "
     "bits: float 0xffe00000 -> 0xff00, float16 0xfc01 * 1 -> 0xfe01; 1.13 wrote sign | 0x7e00 (0xfe00)",
     "measured: 2.15's c10::Half(float) is _cvtss_sh (torch/headeronly/util/Half.h, C10_X86_F16 in the F16C "
     "kernels), 1.13's the software fp16_ieee_from_fp32_value; Note [NaN bits of conversions]; the 2.0.1 wheel's "
     "arithmetic lacks it, its fbgemm copy float32 -> float16 keeps the payload (corpus/versions/"
     "float_to_half_copy_tail_nan.prog: 0xff00, the engine 0xfe00 under a 2.0 profile); corpus/versions/half_nan_payload.prog"},
    {Change::HalfToFloatCopyTailAllOnes, "HalfToFloatCopyTailAllOnes", k2_0,
     "copy_'s fbgemm path (float16 -> float32, same sizes, both contiguous or dst dense with src's strides: "
     "to(), promoted inputs) writes 0x7fffffff for the NaNs of its scalar tail (the last numel % 8 in memory "
     "order; [1] 0xfc01 -> 0x7fffffff), the quieted NaN (0xffc02000) in its 8-wide chunks; the copy kernel "
     "(any other copy) and 1.13 quiet them all",
     "measured (the 2.0.1 wheel has it; fbgemm's Float16ToFloat_simd in copy_impl's USE_FBGEMM block); "
     "Note [NaN bits of LibTorch's "
     "loops]; corpus/versions/half_to_float_copy_tail_nan.prog"},
    {Change::FloatToHalfCopyTailKeepsPayload, "FloatToHalfCopyTailKeepsPayload", k2_8,
     "copy_'s fbgemm path float32 -> float16 (same sizes, both contiguous or dst dense with src's strides: to(), "
     "an in-place float16 result computed in float32) converts the NaNs of its scalar tail (the last numel % 8 in "
     "memory order) like its 8-wide chunks: quiet, payload's top 10 bits (0xffe00000 -> 0xff00); before, the "
     "tail wrote 0x7fff for every NaN, sign and payload dropped (2.5.1: [3] of 0xffe00000 -> 0x7fff x3)",
     "measured (2.5.1: [27] -> 24 x 0xff00, 3 x 0x7fff; 2.6.0 and 2.7.1 the same; 2.8.0 keeps the payload); "
     "the tail is fbgemm's "
     "FloatToFloat16_ref -> cpu_float2half_rn, which returned 0x7fff for a NaN (the cuDNN-sample conversion) "
     "and is now FloatConversion.h's ieee754_trunc (NaN: sign | exponent | quiet bit | mantissa >> 13); "
     "corpus/versions/half_nan_payload.prog, float_to_half_copy_tail_nan.prog"},
    {Change::ViewDtypeSameDtypeUnchecked, "ViewDtypeSameDtypeUnchecked", k2_5,
     "view(dtype) to self's own dtype makes a new tensor with self's sizes and strides unchecked (until "
     "ViewDtypeSameDtypeChecked); 1.13 went through set_sizes_and_strides",
     "measured: 2.5.1 (view b dtype=float32 of a float32 out= whose resize failed is ok); 2.0.1 could not tell "
     "(it has no stride overflow check); corpus/regressions/view_dtype_same_size_failed_out.prog"},
    {Change::ViewDtypeSameDtypeChecked, "ViewDtypeSameDtypeChecked", k2_6,
     "view(dtype) to self's own dtype goes through set_sizes_and_strides again (whose checks see what a failed "
     "out= resize left: 'Stride calculation overflowed'), was unchecked",
     "measured: 2.5.1 is ok (a new tensor), 2.6.0 raises; corpus/regressions/view_dtype_same_size_failed_out.prog"},
    {Change::NegReducedFloatVectorFlipsSign, "NegReducedFloatVectorFlipsSign", k2_5,
     "neg of a float16/bfloat16 NaN in a vector chunk flips its sign bit (bfloat16 0x7f81 -> 0xff81); 1.13 "
     "negated in float and converted back (0xffff, float16 sign | 0x7e00); the scalar tail does so in both",
     "measured; Note [NaN bits of LibTorch's loops]; corpus/versions/neg_reduced_float_nan.prog"},
    {Change::DetachCopiesCachedMetadata, "DetachCopiesCachedMetadata", k2_5,
     "detach copies the cached numel and layout flags of a tensor whose header a failed out= resize changed "
     "(Note [stale layout flags]): a rank-5 detach still says channels_last, sizes [2,-1,0] detach fine; 1.13 "
     "refreshes them, raising 'numel: integer multiplication overflow' for [2,-1,0]",
     "measured; 1.13's shallow_copy_and_detach_core ends with refresh_numel() and refresh_contiguous(), 2.x's "
     "copies them in copy_tensor_metadata; corpus/versions/out_resize_stale_layout_flags.prog (search215b)"},
    {Change::AsStridedChecksNegativeOffsetFirst, "AsStridedChecksNegativeOffsetFirst", k2_12,
     "as_strided refuses a negative storage_offset right after the stride checks, before any storage size is "
     "computed: as_strided [-3] [4] -2 raises 'Tensor: invalid storage offset -2', where 2.11 named the size "
     "overflow its uint64 offset caused ('Storage size calculation overflowed with sizes=[-3] and strides=[4]')",
     "measured: 2.11.0 overflows, 2.12.1 refuses the offset; corpus/edges/as_strided.prog, "
     "corpus/versions/as_strided_offset_overflow.prog"},
    {Change::SymbolicResultNoPythonError, "SymbolicResultNoPythonError", k2_13,
     "reading the sizes of a result with symbolic sizes (Note [results with symbolic sizes]) in a process "
     "without Python raises 'PyTorch was compiled without Python support. Cannot access Python interpreter "
     "from C++.', where 2.11 and 2.12 failed an internal assert ('interpreter INTERNAL ASSERT FAILED at "
     "\"/pytorch/c10/core/impl/PyObjectSlot.h\":29, ... cannot access PyObject for Tensor - no interpreter set')",
     "measured (2.11.0, 2.12.1: the assert; 2.13.0: this); corpus/versions/view_dtype_symbolic_result.prog"},
    {Change::SymbolicResultStorageOffsetError, "SymbolicResultStorageOffsetError", k2_14,
     "reading a result with symbolic sizes raises 'Cannot call storage_offset() on tensor with symbolic "
     "sizes/strides' (its sizes and strides read without the Python interpreter)",
     "measured (2.13.0: the no-Python error; 2.14.1 and 2.15.0: this); "
     "corpus/versions/view_dtype_symbolic_result.prog"},
    {Change::UnsqueezeSymIntGeometry, "UnsqueezeSymIntGeometry", k2_5,
     "unsqueeze builds its geometry as SymInts (inferUnsqueezeGeometry_symint, then as_strided_symint), so its "
     "wrapped stride size*stride below -2^62 raises as a heap-allocated SymInt viewed as an IntArrayRef "
     "(HeapSymIntInIntArrayRef's message); 1.13: int geometry, 'IntArrayRef contains an int that cannot be "
     "represented as a SymInt: V'",
     "measured (2.11.0 to 2.15.0); corpus/versions/unsqueeze_symint_geometry.prog"},
    {Change::SymbolicResultReadRaises, "SymbolicResultReadRaises", k2_9,
     "reading the sizes of a result with symbolic sizes (Note [results with symbolic sizes]) raises 'cannot access "
     "PyObject for Tensor - no interpreter set' (later SymbolicResultReadInternalAssert's, "
     "SymbolicResultNoPythonError's errors); before, PyObjectSlot::load_pyobj_interpreter's check formatted the "
     "unset interpreter's name: SIGSEGV, so the oracle and the engine refuse the step",
     "measured: the 2.8.0 wheel crashes, 2.9.1 raises; corpus/versions/view_dtype_symbolic_result.prog"},
    {Change::SymbolicResultReadInternalAssert, "SymbolicResultReadInternalAssert", k2_10,
     "the error of reading a result with symbolic sizes is an internal assert: 'interpreter INTERNAL ASSERT FAILED "
     "at \"/pytorch/c10/core/impl/PyObjectSlot.h\":29, please report a bug to PyTorch. cannot access PyObject for "
     "Tensor - no interpreter set', was the plain message",
     "measured: 2.9.1 the plain message, 2.10.0 the assert; corpus/versions/view_dtype_symbolic_result.prog"},
    {Change::IndexSelectScalarRejectsSeveral, "IndexSelectScalarRejectsSeveral", k2_0,
     "index_select on a 0-d CPU tensor with several indices raises 'index_select(): Index to scalar cannot have "
     "multiple values.' (RuntimeError) before checking them (until IndexSelectScalarChecksCount's message); 1.13 "
     "checked each index and wrote past its result",
     "measured: the 2.0.1 wheel (corpus/versions/index_select_0d.prog, corpus/data/index_select_scalar.prog)"},
    {Change::NarrowTakesSymInts, "NarrowTakesSymInts", k2_0,
     "narrow's start and length are SymInts (narrow_symint): before LargeNegativeSymInt (2.1), one below -2^62 "
     "raises 'Expected !is_symbolic() to be true, ...' before any other check, and so does the wrap of start "
     "(maybe_wrap_dim's size * -1, for a size above 2^62: narrow v 0 2^62 1 of an expand to INT64_MAX) and size - "
     "length when it wraps there (narrow x 0 0 INT64_MAX); 1.13 took ints",
     "measured: the 2.0.1 wheel (corpus/edges/narrow.prog, corpus/edges/views_on_*.prog, corpus/ported/huge_views.prog)"},
    {Change::SelectTakesSymInts, "SelectTakesSymInts", k2_0,
     "select's index is a SymInt (select_symint): before LargeNegativeSymInt (2.1), an index below -2^62 raises "
     "'Expected !is_symbolic() to be true, ...' before any other check, and so does one above 2^62 (its range "
     "check negates it: -index wraps below -2^62); 1.13 took an int",
     "measured: the 2.0.1 wheel (corpus/edges/select.prog, corpus/views/select.prog, corpus/edges/views_on_*.prog)"},
    {Change::SplitTakesSymInt, "SplitTakesSymInt", k2_0,
     "split's split_size is a SymInt (split.Tensor's SymInt split_size): before LargeNegativeSymInt (2.1), one below "
     "-2^62 raises 'Expected !is_symbolic() to be true, ...' before any other check; 1.13 took an int ('split "
     "expects split_size be non-negative')",
     "measured: the 2.0.1 wheel (corpus/edges/split.prog, corpus/edges/views_on_*.prog)"},
    {Change::ChunkSymIntArithmetic, "ChunkSymIntArithmetic", k2_0,
     "chunk computes its split size (sym_size(dim) + chunks - 1) / chunks in SymInts: before LargeNegativeSymInt "
     "(2.1), a sum that wraps below -2^62 (chunk x INT64_MAX) raises 'Expected !is_symbolic() to be true, ...'; "
     "1.13 wrapped in int64 and raised split's own checks",
     "measured: the 2.0.1 wheel (corpus/edges/chunk.prog, corpus/views/chunk.prog, corpus/views/edge_cases_06.prog)"},
    {Change::FbgemmFloatToHalfChunksKeepPayload, "FbgemmFloatToHalfChunksKeepPayload", k2_0,
     "copy_'s fbgemm path float32 -> float16 (CopyFloatHalfSkipsOverlapChecks) converts its 8-wide chunks with "
     "fbgemm's own vector conversion, which quiets a NaN and keeps its payload's top 10 bits (0xffe00000 -> 0xff00) "
     "even where c10::Half does not yet (HalfFromFloatKeepsNanPayload, 2.5: sign | 0x7e00); the tail is the "
     "scalar one (0x7fff before FloatToHalfCopyTailKeepsPayload)",
     "measured: the 2.0.1 wheel (corpus/versions/float_to_half_copy_tail_nan.prog: [27] -> 24 x 0xff00, 3 x "
     "0x7fff; float16 arithmetic's results there 0xfe00, corpus/versions/half_nan_payload.prog)"},
}};

// Every LibTorch the corpus and the sweeps were run against (docs/versions.md,
// "Measured LibTorch versions"): a version of its own gets its own answers.
// 2.0's profile is not green yet (docs/versions.md, "2.0.1"): the 2.0.1 wheel's
// corpus leaves 24 programs failing under it (split and chunk take SymInt
// arguments there; fbgemm's float16 NaN payload), against 116 under 2.5's
// answers, which it got before.
constexpr std::array<PyTorchVersion, 13> kProfiles{k1_13, k2_0,  k2_5,  k2_6,  k2_7,  k2_8,  k2_9,
                                                   k2_10, k2_11, k2_12, k2_13, k2_14, k2_15};

// The newest profile until a driver sets one.
ProfileChoice& current() {
  static ProfileChoice choice{k2_15, "2.15", true};
  return choice;
}

// since()'s answers for one profile, one per Change: since() is asked on
// every view op's path, so it reads this table instead of the version
// comparison (kept equal to it by set_profile; constant-initialised, so
// right before any static initialiser runs).
using Answers = std::array<bool, static_cast<size_t>(Change::kCount)>;
constexpr Answers answers_for(PyTorchVersion profile) {
  Answers a{};
  for (size_t i = 0; i < a.size(); ++i) a[i] = profile >= kChanges[i].since;
  return a;
}
constinit Answers active_answers = answers_for(k2_15);
constexpr bool table_in_enum_order() {
  for (size_t i = 0; i < kChanges.size(); ++i)
    if (kChanges[i].change != static_cast<Change>(i)) return false;
  return true;
}
static_assert(table_in_enum_order(), "kChanges must list every Change in enum order (answers_for indexes it)");

}  // namespace

std::string to_string(PyTorchVersion v) { return std::to_string(v.major) + "." + std::to_string(v.minor); }

std::optional<PyTorchVersion> parse_pytorch_version(std::string_view s) {
  PyTorchVersion v;
  const char* p = s.data();
  const char* end = s.data() + s.size();
  auto r = std::from_chars(p, end, v.major);
  if (r.ec != std::errc() || r.ptr == end || *r.ptr != '.') return std::nullopt;
  r = std::from_chars(r.ptr + 1, end, v.minor);
  if (r.ec != std::errc()) return std::nullopt;
  if (r.ptr != end && *r.ptr != '.' && *r.ptr != '+' && *r.ptr != 'a' && *r.ptr != ' ') return std::nullopt;
  if (v.major < 0 || v.minor < 0) return std::nullopt;
  return v;
}

std::span<const ChangeInfo> version_changes() { return kChanges; }

const ChangeInfo& change_info(Change c) {
  auto i = static_cast<size_t>(c);
  SC_ASSERT(i < kChanges.size() && kChanges[i].change == c, "version profile table out of enum order");
  return kChanges[i];
}

std::span<const PyTorchVersion> known_profiles() { return kProfiles; }

std::string ProfileChoice::note() const {
  if (exact) return "";
  return "PyTorch " + asked + " has no profile of its own: the engine imitates " + to_string(profile) +
         ", the nearest";
}

std::optional<ProfileChoice> choose_profile(std::string_view version) {
  auto v = parse_pytorch_version(version);
  if (!v) return std::nullopt;
  auto key = [](PyTorchVersion p) { return p.major * 100 + p.minor; };
  PyTorchVersion best = kProfiles[0];
  for (PyTorchVersion p : kProfiles)
    if (std::abs(key(p) - key(*v)) <= std::abs(key(best) - key(*v))) best = p;  // ties: the newer
  ProfileChoice c;
  c.profile = best;
  c.asked = std::string(version);
  c.exact = best == *v;
  return c;
}

void set_profile(const ProfileChoice& c) {
  current() = c;
  active_answers = answers_for(c.profile);
}

const ProfileChoice& current_profile() { return current(); }

ProfileScope::ProfileScope(std::string_view version) : previous_(current()) {
  auto c = choose_profile(version);
  SC_ASSERT(c.has_value(), "ProfileScope: unreadable version");
  set_profile(*c);
}
ProfileScope::~ProfileScope() { set_profile(previous_); }

bool since(Change c) {
  const auto i = static_cast<size_t>(c);
  SC_ASSERT(i < active_answers.size(), "since: Change out of range");
  return active_answers[i];
}

ErrorKind dtype_dispatch_error_kind() {
  return since(Change::DispatchErrorIsNotImplemented) ? ErrorKind::NotImplementedError : ErrorKind::RuntimeError;
}

}  // namespace sc::engine
