#include "engine/elementwise.h"

#include <algorithm>
#include <bit>

#include "engine/copy.h"
#include "engine/creation.h"
#include "engine/error.h"
#include "engine/kernels/cpu/loop.h"
#include "engine/kernels/kernels.h"
#include "engine/layout.h"
#include "engine/nan_choice.h"
#include "engine/views.h"
#include "engine/views/wrapping.h"
#include "engine/memory_format.h"
#include "engine/overlap.h"
#include "engine/undefined.h"
#include "engine/undefined_claims.h"
#include "engine/version_profile.h"
#include "engine/warnings.h"

namespace sc::engine {

namespace {
thread_local std::optional<std::string> undefined_reason;
}

std::optional<std::string> take_undefined_reason() {
  auto r = std::move(undefined_reason);
  undefined_reason.reset();
  return r;
}
void note_undefined(std::string reason) {
  if (!undefined_reason) undefined_reason = std::move(reason);
}

std::string shape_str(const Shape& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

DType wrapped_dtype(const Scalar& s) {
  if (s.is_floating()) return DType::Float64;
  if (s.is_bool()) return DType::Bool;
  return DType::Int64;
}

namespace {
// promote_skip_undefined over optional dtypes.
std::optional<DType> promote_opt(std::optional<DType> a, DType b) { return a ? promote_types(*a, b) : b; }

// combine_categories(higher, lower) (TypeProperties.cpp):
//   floating higher wins; if higher is bool or lower is floating -> promote;
//   else higher if defined, else lower.
std::optional<DType> combine_categories(std::optional<DType> higher, std::optional<DType> lower) {
  if (higher && is_floating(*higher)) return higher;
  if (!higher) return lower;
  if (*higher == DType::Bool || (lower && is_floating(*lower))) return lower ? promote_types(*higher, *lower) : higher;
  return higher;
}
}  // namespace

DType result_type(const std::vector<Operand>& ops) {
  std::optional<DType> dim_result, zero_result, wrapped_result;
  for (const Operand& op : ops) {
    if (op.is_scalar()) {
      DType d = wrapped_dtype(op.scalar);
      if (is_floating(d)) d = DType::Float32;  // the default dtype
      wrapped_result = promote_opt(wrapped_result, d);
    } else if (op.tensor->dim() > 0) {
      dim_result = promote_opt(dim_result, op.tensor->dtype);
    } else {
      zero_result = promote_opt(zero_result, op.tensor->dtype);
    }
  }
  auto r = combine_categories(dim_result, combine_categories(zero_result, wrapped_result));
  return r.value_or(DType::Float32);
}

bool can_cast(DType from, DType to) {
  if (is_floating(from) && is_integral(to, false)) return false;
  if (from != DType::Bool && to == DType::Bool) return false;
  return true;
}

Checked<Shape> broadcast_shapes_checked(const Shape& a, const Shape& b) {
  const size_t na = a.size(), nb = b.size(), n = std::max(na, nb);
  Shape out(n);
  for (size_t k = n; k-- > 0;) {
    const size_t offset = n - 1 - k;
    const int64_t sa = offset < na ? a[na - 1 - offset] : 1;
    const int64_t sb = offset < nb ? b[nb - 1 - offset] : 1;
    SC_CHECK_OR_RETURN(sa == sb || sa == 1 || sb == 1, "The size of tensor a (", sa,
                       ") must match the size of tensor b (", sb, ") at non-singleton dimension ", k);
    out[k] = sa == 1 ? sb : sa;
  }
  return out;
}

Shape broadcast_shapes(const Shape& a, const Shape& b) { return broadcast_shapes_checked(a, b).value_or_throw(); }

Tensor broadcast_header(const Tensor& t, const Shape& shape) {
  Tensor r = t;
  const size_t n = shape.size(), m = t.sizes.size();
  SC_ASSERT(n >= m);
  r.sizes = shape;
  r.strides.assign(n, 0);
  for (size_t i = 0; i < m; ++i) {
    const size_t j = n - m + i;
    r.strides[j] = (t.sizes[i] == 1 && shape[j] != 1) ? 0 : t.strides[i];
  }
  return r;
}

// ---------------------------------------------------------------------------
// Undefined-result bookkeeping (DESIGN.md: the engine answers exactly where
// LibTorch documents the result as undefined).

namespace {

// The byte offsets of the first bytes of t's elements lie in [lo, hi]
// (from its header; false when that arithmetic overflows int64).
bool element_offset_range(const Tensor& t, int64_t& lo, int64_t& hi) {
  const int64_t item = itemsize(t.dtype);
  if (__builtin_mul_overflow(t.storage_offset, item, &lo)) return false;
  hi = lo;
  for (size_t d = 0; d < t.sizes.size(); ++d) {
    if (t.sizes[d] <= 1) continue;
    int64_t extent = 0;
    if (__builtin_mul_overflow(t.sizes[d] - 1, t.strides[d], &extent) || __builtin_mul_overflow(extent, item, &extent))
      return false;
    if (extent < 0 ? __builtin_add_overflow(lo, extent, &lo) : __builtin_add_overflow(hi, extent, &hi)) return false;
  }
  return true;
}

// The byte offsets of the locations that two or more elements of t reach,
// each once. Counted in an array over the span t reaches when that span is
// not much longer than t (a hash map of every element's offset cost ~14
// instructions an element: 0.78 M of a fuzz execution's ~10 M in the engine,
// issue 10); otherwise the sorted offsets are scanned.
std::vector<int64_t> locations_reached_twice(const Tensor& t) {
  const int64_t item = itemsize(t.dtype);
  const int64_t numel = t.numel();
  std::vector<int64_t> twice;
  int64_t lo = 0, hi = 0;
  // Every offset is lo plus a multiple of item (a power of two): the element
  // offsets of one dtype's header.
  const int shift = std::countr_zero(static_cast<uint64_t>(item));
  if (element_offset_range(t, lo, hi) && lo <= hi &&
      (static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo)) >> shift < 4 * static_cast<uint64_t>(numel) + 4096) {
    std::vector<uint8_t> hits(((static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo)) >> shift) + 1, 0);
    cpu::for_each_strided<1>(t.sizes, {&t}, [&](std::byte* const* p, const int64_t* st, int64_t n) {
      const int64_t base = p[0] - t.storage->data();
      for (int64_t i = 0; i < n; ++i) {
        const int64_t off = base + i * st[0];
        uint8_t& h = hits[static_cast<uint64_t>(off - lo) >> shift];
        if (h == 1) twice.push_back(off);
        h = h == 0 ? 1 : 2;
      }
    });
    return twice;
  }
  std::vector<int64_t> offs;
  offs.reserve(static_cast<size_t>(numel));
  cpu::for_each_strided<1>(t.sizes, {&t}, [&](std::byte* const* p, const int64_t* st, int64_t n) {
    const int64_t base = p[0] - t.storage->data();
    for (int64_t i = 0; i < n; ++i) offs.push_back(base + i * st[0]);
  });
  std::sort(offs.begin(), offs.end());
  for (size_t i = 1; i < offs.size(); ++i)
    if (offs[i] == offs[i - 1] && (twice.empty() || twice.back() != offs[i])) twice.push_back(offs[i]);
  return twice;
}

void mark_all(const Tensor& t, bool defined) {
  const int64_t item = itemsize(t.dtype);
  Storage& s = *t.storage;
  if (defined && !s.has_undefined_bytes()) return;
  if (is_contiguous(t.sizes, t.strides) || is_non_overlapping_and_dense(t.sizes, t.strides)) {
    // a dense block: [offset, offset + numel) elements
    const int64_t n = t.numel();
    if (n == 0) return;
    const int64_t lo = t.storage_offset * item;
    if (defined) s.mark_defined(lo, n * item);
    else s.mark_undefined(lo, n * item);
    return;
  }
  cpu::for_each_strided<1>(t.sizes, {&t}, [&](std::byte* const* p, const int64_t* st, int64_t n) {
    const int64_t base = p[0] - s.data();
    if (defined) s.mark_defined_strided(base, st[0], n, item);
    else s.mark_undefined_strided(base, st[0], n, item);
  });
}

// Every element of `written` reads exactly its own bytes of `input` (same
// offset and element size, equal strides where the size is not 1): element i
// is read before it is written and by nobody else, so any order gives the same
// bytes (dtypes may differ: f32 <- int32 converts element by element).
bool same_geometry(const Tensor& written, const Tensor& input) {
  if (input.storage != written.storage || itemsize(input.dtype) != itemsize(written.dtype) ||
      input.storage_offset != written.storage_offset)
    return false;
  if (input.sizes.size() > written.sizes.size()) return false;
  Tensor b = broadcast_header(input, written.sizes);
  for (size_t i = 0; i < written.sizes.size(); ++i)
    if (written.sizes[i] != 1 && b.strides[i] != written.strides[i]) return false;
  return true;
}

// Whether a kernel writing `written` from `inputs` (broadcast to its sizes)
// reads every element's operands before anything it writes could change
// them, in any element order: each input is in another storage or reads
// exactly the written element's own bytes (same_geometry), and the written
// tensor reaches no location twice. (A CPU kernel on CPU operands; a wrapped
// number is a CPU tensor of its own.)
bool kernel_reads_before_writing(const Tensor& written, const std::vector<Tensor>& inputs) {
  if (written.device() != Device::CPU) return false;
  bool shares_storage = false;
  for (const Tensor& in : inputs) {
    if (in.device() != Device::CPU) return false;
    if (in.storage != written.storage) continue;
    if (!same_geometry(written, in)) return false;
    shares_storage = true;
  }
  return !shares_storage || has_internal_overlap(written) == MemOverlap::No;
}

}  // namespace

void account_write(const Tensor& written, const std::vector<const Tensor*>& inputs, bool idempotent) {
  if (written.numel() == 0) return;
  // Elements computed from undefined bytes stay undefined (engine/undefined.h);
  // collected before the write marks everything it wrote defined.
  std::vector<int64_t> from_undefined, from_nan_choice;
  for (const Tensor* in : inputs) {
    if (!in) continue;
    std::vector<int64_t> offs = elements_reading_undefined(written, *in);
    from_undefined.insert(from_undefined.end(), offs.begin(), offs.end());
    offs = elements_reading_nan_choice(written, *in);  // Note [NaN operand choice]
    from_nan_choice.insert(from_nan_choice.end(), offs.begin(), offs.end());
  }
  mark_all(written, true);
  mark_elements_undefined(written, from_undefined);
  clear_nan_choice(written);
  mark_nan_choice(written, from_nan_choice);
  const int64_t item = itemsize(written.dtype);
  Storage& s = *written.storage;
  // Elements of the written tensor reached more than once. Each decision,
  // "no" included, is a claim a driver may check (engine/undefined_claims.h).
  const bool log = claims_recorded();
  if (!idempotent && has_internal_overlap(written) != MemOverlap::No) {
    MemOverlap exact = exact_internal_overlap(written.sizes, written.strides);
    UndefinedClaim claim{.kind = UndefinedClaim::Kind::InternalOverlap, .written = geometry_of(written), .answer = exact};
    if (exact == MemOverlap::Yes) {
      std::vector<int64_t> twice = locations_reached_twice(written);
      s.mark_undefined_at(twice, item);
      note_undefined("the written-to tensor's elements overlap (exact analysis; LibTorch's has_internal_overlap "
                     "says TooHard): " + std::to_string(twice.size()) + " memory locations are written more than once");
      if (log) claim.marked = std::move(twice);  // a set: the checker sorts it (program/undefined_check.cpp)
    } else if (exact == MemOverlap::TooHard) {
      mark_all(written, false);
      note_undefined("the written-to tensor may overlap itself (exact analysis too hard)");
    }
    if (log) record_claim(std::move(claim));
  } else if (!idempotent && log) {
    record_claim({.kind = UndefinedClaim::Kind::InternalOverlap, .written = geometry_of(written)});
  }
  // Inputs that overlap the written tensor where LibTorch did not raise:
  // get_overlap_status said TooHard; or Full (the same byte range with the
  // same strides) while the elements do not line up (another element size,
  // a broadcast input: x.view(float16).copy_(x) reads x again after the first
  // half is written, or not, depending on the kernel); or Partial now but
  // LibTorch's check saw the out= tensor before its resize
  // (compute_mem_overlaps runs before allocate_or_resize_outputs, so an empty
  // out that grows over an input passes), or never checked (copy_'s float32 <->
  // float16 fast path, Change::CopyFloatHalfSkipsOverlapChecks). The bytes then depend on the
  // kernel's order and vector width: undefined.
  for (const Tensor* in : inputs) {
    if (!in || in->id == written.id || in->storage != written.storage) continue;
    const MemOverlapStatus status = get_overlap_status(written, *in);
    auto claim = [&](UndefinedClaim::Kind kind, MemOverlap answer) {
      if (log) record_claim({.kind = kind, .written = geometry_of(written), .input = geometry_of(*in), .answer = answer});
    };
    if (status == MemOverlapStatus::No) {
      claim(UndefinedClaim::Kind::InputOverlap, MemOverlap::No);
      continue;
    }
    if (same_geometry(written, *in)) {
      claim(UndefinedClaim::Kind::InputAligned, MemOverlap::No);
      continue;
    }
    MemOverlap ov = exact_overlap(written, *in);
    claim(UndefinedClaim::Kind::InputOverlap, ov);
    if (ov == MemOverlap::No) continue;
    mark_all(written, false);
    const char* says = status == MemOverlapStatus::Partial ? "Partial, unchecked (an out= resize, or copy_'s float32/float16 fast path)"
                       : status == MemOverlapStatus::Full  ? "Full, but the elements do not line up"
                                                           : "TooHard";
    note_undefined(ov == MemOverlap::Yes
                       ? std::string("an input overlaps the written-to tensor (exact analysis; LibTorch's "
                                     "get_overlap_status says ") + says + ")"
                       : std::string("an input may overlap the written-to tensor (exact analysis too hard)"));
    break;
  }
}

// ---------------------------------------------------------------------------
// The iterator (TensorIteratorBase::build, the parts our ops use).

namespace {

// A wrapped number stays a 0-d CPU tensor, also for a CUDA iterator (LibTorch
// hands CPU scalars to its CUDA kernels as kernel arguments).
Tensor wrapped_tensor(const Scalar& s, DType dtype) {
  Tensor t = empty({}, dtype);
  cpu::fill(t, s);
  return t;
}

// Note [CPU scalars in CUDA kernels]: a CUDA binary kernel reads a CPU
// scalar operand as opmath_t (iter.scalar_value<opmath_t>), straight from the
// wrapped number's own dtype: for a float16/bfloat16 common dtype the number
// becomes a float without first rounding to the common dtype (the CPU
// iterator rounds it to the common dtype). Float32 holds exactly what that
// read gives (double -> float), so the CUDA iterator wraps it as float32.
DType wrapped_number_dtype(DType common, Device device) {
  if (device == Device::CUDA && (common == DType::Float16 || common == DType::BFloat16)) return DType::Float32;
  return common;
}

// The device an iterator runs on: its first tensor operand's.
Device iterator_device(const Tensor* out, const std::vector<Operand>& inputs) {
  if (out) return out->device();
  for (const Operand& in : inputs)
    if (!in.is_scalar()) return in.tensor->device();
  return Device::CPU;
}

// at::native::resize_output's deprecation warning, for an out with elements.
void warn_out_resized(const Tensor& out, const Shape& shape) {
  if (cached_numel(out) == 0) return;
  warn("An output with one or more elements was resized since it had shape " + shape_str(out.sizes) +
       ", which does not match the required output shape " + shape_str(shape) +
       ". This behavior is deprecated, and in a future PyTorch release outputs will not be resized unless they "
       "have zero elements. You can explicitly reuse an out tensor t by resizing it, inplace, to zero elements "
       "with t.resize_(0).");
}

// at::native::resize_output + as_strided_ (resize_out in the structured kernels),
// after its warning (warn_out_resized).
// Its errors returned (Note [errors returned, not thrown]), with out's header
// as LibTorch leaves it.
MaybeFailure resize_out(Tensor& out, const Shape& shape, const std::optional<Shape>& strides) {
  // resize_: contiguous strides; the storage grows to (numel + offset) elements.
  // set_sizes_contiguous changes out's header before its checks, so a resize
  // that raises leaves out with the new sizes (generated seed 2277639):
  // set_sizes keeps the old strides, cut or extended with 0s to the new rank
  // (SizesAndStrides::resize); refresh_numel raises "numel: integer
  // multiplication overflow" for a negative size, unless a later size is 0
  // (view_chain_fuzzer ASan campaign against 2.15, the same on 1.13); then
  // empty_tensor_restride writes every contiguous stride, wrapped, before 2.x
  // checks their products ("Stride calculation overflowed"); then the storage grows.
  // Either error leaves LibTorch's cached layout flags as they were (Note
  // [stale layout flags]); a resize that passes refreshes them.
  // The numel overflow also leaves the cached numel (Tensor::stale_numel).
  const LayoutFlags before = layout_flags(out);
  const int64_t numel_before = cached_numel(out);
  out.sizes = shape;
  out.strides.resize(shape.size(), 0);
  if (MaybeFailure f = numel_failure(shape)) [[unlikely]] {
    out.stale_layout = before;
    out.stale_numel = numel_before;
    return f;
  }
  out.stale_numel.reset();
  out.strides = contiguous_strides(shape);
  if (MaybeFailure f = contiguous_stride_failure(shape)) [[unlikely]] {
    out.stale_layout = before;
    return f;
  }
  out.stale_layout.reset();
  // resize_impl_cpu_: computeStorageNbytesContiguous(size, itemsize,
  // storage_offset), checked even when the new shape is empty (an empty out
  // viewing offset 2^61 of a float32 storage raises "Storage size calculation
  // overflowed with sizes=[0, ...]"; 1.13 and 2.15 alike: generated seed
  // 911328); the storage grows to that many bytes unless numel is 0. (The
  // engine wrapped this product: an out at offset 2^62-1 resized to [10]
  // wrote past its storage.)
  const int64_t item = itemsize(out.dtype);
  int64_t need = 0;
  SC_TRY_ASSIGN(need, compute_storage_nbytes_contiguous_checked(shape, item, out.storage_offset));
  int64_t numel = 1;  // wraps as LibTorch's int64 product (a 0 later makes it 0: [2^62,2,0])
  for (int64_t s : shape) numel = wrapping::mul(numel, s);
  if (numel != 0 && need > out.storage->nbytes()) out.storage->resize_bytes(need);
  // as_strided_(shape, strides): setStrided's checks on the resized out
  // (negative strides from a size below 0: "as_strided: Negative strides are not supported ...").
  // A contiguous layout passes no strides (resize_output alone: generate seed
  // 403875's wrapped contiguous strides raise nothing).
  if (!strides || *strides == contiguous_strides(shape)) return std::nullopt;
  SC_TRY(as_strided_failure(out, shape, *strides, out.storage_offset));
  out.strides = *strides;
  return std::nullopt;
}

}  // namespace

Checked<Tensor> run_iterator_checked(Tensor* out, bool read_write, const std::vector<Operand>& inputs,
                                     const IterConfig& config, int op, IterKernel kernel) {
  const Device device = iterator_device(out, inputs);
  // compute_mem_overlaps
  if (out && config.check_mem_overlap) {
    SC_TRY(internal_overlap_failure(*out));
    for (const Operand& in : inputs) {
      if (in.is_scalar() || in.tensor->id == out->id) continue;
      SC_TRY(partial_overlap_failure(*out, *in.tensor));
    }
  }
  // compute_shape (outputs take part only when they may not be resized)
  Shape shape;
  bool all_same = true, has_scalars = false, has_tensors = false;
  auto take = [&](const Shape& s) -> MaybeFailure {
    if (s.empty()) has_scalars = true;
    else has_tensors = true;
    if (has_scalars && has_tensors) all_same = false;
    if (shape.empty()) {
      shape = s;
    } else if (s != shape) {
      all_same = false;
      SC_TRY_ASSIGN(shape, broadcast_shapes_checked(shape, s));
    }
    return std::nullopt;
  };
  if (out && !config.resize_outputs) SC_TRY(take(out->sizes));
  for (const Operand& in : inputs) SC_TRY(take(in.sizes()));
  // mark_resize_outputs
  bool will_resize = false;
  if (out && out->sizes != shape) {
    SC_CHECK_OR_RETURN(config.resize_outputs && !read_write, "output with shape ", shape_str(out->sizes),
                       " doesn't match the broadcast shape ", shape_str(shape));
    will_resize = true;
  }
  // compute_types
  DType common = result_type(inputs);
  if (config.promote_integer_to_float && is_integral(common, true)) common = DType::Float32;
  if (out) {
    if (config.check_all_same_dtype) {
      for (const Operand& in : inputs)
        if (!in.is_scalar())
          SC_CHECK_OR_RETURN(in.tensor->dtype == common, "Found dtype ", torch_scalar_type_name(in.tensor->dtype),
                             " but expected ", torch_scalar_type_name(common));
      SC_CHECK_OR_RETURN(out->dtype == common, "Found dtype ", torch_scalar_type_name(out->dtype), " but expected ",
                         torch_scalar_type_name(common));
    } else if (config.enforce_safe_casting) {
      SC_CHECK_OR_RETURN(can_cast(common, out->dtype), "result type ", torch_scalar_type_name(common),
                         " can't be cast to the desired output type ", torch_scalar_type_name(out->dtype));
    }
    // On CPU an output of another dtype is swapped for a temporary right away
    // (compute_types: at::empty_like(out, common, LEGACY_CONTIGUOUS) with out's
    // current shape, empty or not): at::empty's checks, in its order.
    if (!config.check_all_same_dtype && out->dtype != common && out->device() == Device::CPU) {
      SC_TRY(int_list_empty_sizes_failure(out->sizes));  // an out viewing a negative size (as_strided [-1, 0])
      int64_t temporary_nbytes = 0;
      SC_TRY_ASSIGN(temporary_nbytes, compute_storage_nbytes_contiguous_checked(out->sizes, itemsize(common)));
      (void)temporary_nbytes;
      SC_TRY(contiguous_stride_failure(out->sizes));
    }
  }
  // Output layout (fast_set_up / compute_strides / reorder_dimensions).
  // On CPU, compute_types swaps an input of another dtype than the common one
  // for `input.to(common)` before fast_set_up and compute_strides see it
  // (promote_inputs_to_common_dtype, binary ops): _to_copy's preserve format
  // keeps the strides when the input is non-overlapping and dense, else takes
  // infer_dense_strides, and the element size is the common dtype's.
  std::vector<Tensor> promoted;
  promoted.reserve(inputs.size());
  std::vector<IterOperand> iops;
  iops.push_back({out, true, will_resize});
  for (const Operand& in : inputs) {
    const Tensor* t = in.tensor;
    if (t && t->dtype != common && t->device() == Device::CPU && !config.check_all_same_dtype) {
      Tensor h = *t;
      h.dtype = common;
      SC_TRY_ASSIGN(h.strides, to_copy_strides_checked(*t, common));
      h.stale_layout.reset();  // a fresh tensor: its own flags
      h.stale_numel.reset();
      promoted.push_back(std::move(h));
      t = &promoted.back();
    }
    iops.push_back({t, false, false});
  }
  Tensor result;
  // Note [The temporary of an out of another dtype]: the CPU iterator writes
  // an out= of another dtype through a temporary of the common dtype, copied
  // into out at the end. compute_types makes it with at::empty_like(out,
  // LEGACY_CONTIGUOUS): contiguous; when out is resized, set_output_raw_strided
  // gives the temporary the iterator's output strides too (as_strided_). The
  // final copy's NaN bits depend on both layouts (a channels_last temporary
  // into a channels_last out is one contiguous run: float -> bfloat16 writes
  // 0xffff there, a contiguous temporary into it is strided: 0x7fc0;
  // generated seed 8085310 of the special-value runs, 1.13 and 2.15).
  std::optional<Shape> temporary_strides;
  if (!out) {
    // fast_set_up's contiguous and channels_last cases and an inverted
    // permutation allocate through at::empty(shape, format), whose checks
    // iterator_output_strides makes in at::empty's order; any other layout
    // goes to empty_strided, unchecked, even when it equals the contiguous one.
    Shape strides;
    SC_TRY_ASSIGN(strides, iterator_output_strides_checked(iops, shape, all_same, itemsize(common)));
    // the kernel writes every element
    SC_TRY_ASSIGN(result, empty_strided_for_overwrite_checked(shape, strides, common, device));
  } else {
    if (will_resize) {
      // On CPU an out of another dtype than the common one is swapped for a
      // temporary of the common dtype with out's old shape (Marker [Output
      // original_tensor is set]); set_output_raw_strided resizes both, so the
      // deprecation warning comes twice (measured). A CUDA iterator converts
      // per element in its kernels: no temporary, one warning. resize_output
      // warns before resize_ checks the new shape's strides, so the warning
      // comes even when that check raises (generated seed 314156). The
      // structured kernel resizes the original out first, the iterator the
      // temporary after it: when out's resize raises, one warning only
      // (ASan campaign finding: an out resized to [-1, 0]).
      const Tensor before = *out;  // the temporary has out's old shape
      warn_out_resized(*out, shape);
      // set_output_raw_strided: contiguous (strides omitted) unless the layout says otherwise.
      Shape strides;
      SC_TRY_ASSIGN(strides, iterator_output_strides_checked(iops, shape, all_same, itemsize(common)));
      const int64_t old_bytes = out->storage->nbytes();
      SC_TRY(resize_out(*out, shape, strides));
      temporary_strides = strides;
      if (out->storage->nbytes() > old_bytes)
        out->storage->mark_undefined(old_bytes, out->storage->nbytes() - old_bytes);
      if (out->dtype != common && device == Device::CPU) warn_out_resized(before, shape);
    }
    result = *out;
  }
  // Inputs in the common dtype (TensorIterator converts CPU inputs up front),
  // broadcast to the shape.
  std::vector<Tensor> ins;
  std::vector<const Tensor*> originals;
  for (const Operand& in : inputs) {
    Tensor t;
    if (in.is_scalar()) {
      // the wrapped number converted to the common dtype (an unchecked copy: int8 * 300 uses 44)
      t = wrapped_tensor(in.scalar, wrapped_number_dtype(common, device));
    } else if (in.tensor->dtype != common && in.tensor->numel() == 0) {
      // nothing to convert, and the result is empty too (returned below): no
      // engine-side allocation, whose contiguous stride check LibTorch never
      // makes here (its converted input keeps the preserved strides)
      t = *in.tensor;
      t.dtype = common;
    } else if (in.tensor->dtype != common) {
      Shape strides;
      SC_TRY_ASSIGN(strides, to_copy_strides_checked(*in.tensor, common));
      SC_TRY_ASSIGN(t, empty_strided_checked(in.tensor->sizes, strides, common, device));
      kernels::copy(t, *in.tensor);
      originals.push_back(in.tensor);
    } else {
      t = *in.tensor;
      originals.push_back(in.tensor);
    }
    ins.push_back(broadcast_header(t, shape));
  }
  if (result.numel() == 0) return result;
  WriteScope write_scope;  // the claims of this write (engine/undefined_claims.h)
  // Elements computed from undefined bytes, found before the kernel writes:
  // an in-place op reads the very bytes it writes (mul_ of a bool byte 2 reads
  // an undefined bool, then stores a clean 0 or 1 over it).
  std::vector<int64_t> from_undefined;
  // Elements computed from two NaN operands (Note [NaN operand choice]):
  // found by the kernel as it reads each element's operands when it writes
  // `result` itself and nothing it writes is read afterwards (Note [NaN
  // operand choice found by the kernel]); otherwise by a scan before the
  // kernel (before an in-place kernel overwrites its first operand).
  const bool kernel_finds_nan_choices = ins.size() == 2 && kernel_reads_before_writing(result, ins);
  std::vector<int64_t> nan_choices;
  for (const Tensor* in : originals) {
    std::vector<int64_t> offs = elements_reading_undefined(result, *in);
    from_undefined.insert(from_undefined.end(), offs.begin(), offs.end());
  }
  // TensorIterator's is_scalar(2): the second operand's iteration strides are
  // 0 wherever the shape is not 1 (a number, a 0-d or 1-element tensor, a
  // stride-0 expansion); its value is read from the original, uncast operand.
  auto iterates_as_scalar = [&](const Tensor& t) {
    for (size_t d = 0; d < t.sizes.size(); ++d)
      if (t.sizes[d] != 1 && t.strides[d] != 0) return false;
    return true;
  };
  // (CPU kernels only: the CUDA kernels' handling of scalars is not measured.)
  const bool opmath_scalar = config.wrapped_scalar_in_opmath && device == Device::CPU && inputs.size() == 2 &&
                             (common == DType::Float16 || common == DType::BFloat16) &&
                             (inputs[1].is_scalar() || iterates_as_scalar(ins[1]));
  const bool fused_nan_choices = kernel_finds_nan_choices && !opmath_scalar && result.dtype == common;
  if (ins.size() == 2 && !fused_nan_choices) nan_choices = elements_choosing_between_nans(result, ins[0], ins[1]);
  if (opmath_scalar) {
    Scalar b = inputs[1].is_scalar() ? inputs[1].scalar : Scalar{};
    if (!inputs[1].is_scalar()) {
      const Tensor& t = *inputs[1].tensor;
      b = Scalar::floating(load_double(t.dtype, t.storage->data() + t.storage_offset * itemsize(t.dtype)));
    }
    Tensor a32 = empty(shape, DType::Float32);
    cpu::convert(a32, ins[0]);
    Tensor b32 = broadcast_header(wrapped_tensor(b, DType::Float32), shape);
    Tensor tmp = empty(shape, DType::Float32);
    kernel(op, tmp, {a32, b32}, nullptr);
    // LibTorch's unary loop over (result, a) decides the NaN bits (Note [NaN
    // bits of LibTorch's loops]), not this copy's: the kernel rounds each
    // element itself (no copy_, so no fbgemm tail either).
    if (result.dtype == common) {
      cpu::copy_kernel_only(result, tmp);
      cpu::vector_loop_nans(result, ins[0]);
    } else {
      // an out= of another dtype: the kernel wrote the common-dtype temporary
      // (float16/bfloat16), copied into out afterwards (3 * 127 -> bfloat16 380)
      Tensor rounded = temporary_strides ? empty_strided(shape, *temporary_strides, common, device)
                                         : empty(shape, common, device);
      cpu::copy_kernel_only(rounded, tmp);
      cpu::vector_loop_nans(rounded, ins[0]);
      kernels::copy(result, rounded);
    }
  } else if (result.dtype == common) {
    kernel(op, result, ins, fused_nan_choices ? &nan_choices : nullptr);
  } else {  // Note [The temporary of an out of another dtype]
    Tensor tmp = temporary_strides ? empty_strided(shape, *temporary_strides, common, device)
                                   : empty(shape, common, device);
    kernel(op, tmp, ins, nullptr);
    kernels::copy(result, tmp);
  }
  account_write(result, originals, false);
  mark_elements_undefined(result, from_undefined);
  mark_nan_choice(result, nan_choices);
  write_scope.done(result);
  return result;
}

Tensor run_iterator(Tensor* out, bool read_write, const std::vector<Operand>& inputs, const IterConfig& config,
                    int op, IterKernel kernel) {
  return run_iterator_checked(out, read_write, inputs, config, op, kernel).value_or_throw();
}

// ---------------------------------------------------------------------------

namespace {

enum ElemOp { kAdd, kMul, kNeg };

void elem_kernel(int op, const Tensor& out, const std::vector<Tensor>& in, std::vector<int64_t>* nan_choices) {
  switch (op) {
    case kAdd: return kernels::binary(BinaryOp::Add, out, in[0], in[1], nan_choices);
    case kMul: return kernels::binary(BinaryOp::Mul, out, in[0], in[1], nan_choices);
    case kNeg: return kernels::neg(out, in[0]);
  }
}

MaybeFailure neg_failure(const Tensor& self) {
  if (self.dtype == DType::Bool)  // Change::BoolNegSubNotImplemented
    return fail(since(Change::BoolNegSubNotImplemented) ? ErrorKind::NotImplementedError : ErrorKind::RuntimeError,
                "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, "
                "use the `~` or `logical_not()` operator instead.");
  return std::nullopt;
}

const IterConfig kBinary{};
const IterConfig kUnary{true, true, false, true, false};

}  // namespace

Checked<Tensor> add_checked(const Tensor& self, const Operand& other) {
  return run_iterator_checked(nullptr, false, {Operand::of(self), other}, kBinary, kAdd, elem_kernel);
}
Tensor add(const Tensor& self, const Operand& other) { return add_checked(self, other).value_or_throw(); }
static IterConfig mul_config() {
  IterConfig c = kBinary;
  c.wrapped_scalar_in_opmath = since(Change::HalfScalarOpsInOpmath);
  return c;
}
Checked<Tensor> mul_checked(const Tensor& self, const Operand& other) {
  return run_iterator_checked(nullptr, false, {Operand::of(self), other}, mul_config(), kMul, elem_kernel);
}
Tensor mul(const Tensor& self, const Operand& other) { return mul_checked(self, other).value_or_throw(); }
Checked<Tensor> neg_checked(const Tensor& self) {
  SC_TRY(neg_failure(self));
  return run_iterator_checked(nullptr, false, {Operand::of(self)}, kUnary, kNeg, elem_kernel);
}
Tensor neg(const Tensor& self) { return neg_checked(self).value_or_throw(); }

namespace {
Checked<Tensor> out_form(Tensor& out, const std::vector<Operand>& inputs, const IterConfig& config, int op) {
  bool read_write = false;
  for (const Operand& in : inputs)
    if (!in.is_scalar() && in.tensor->id == out.id) read_write = true;
  Tensor r;
  SC_TRY_ASSIGN(r, run_iterator_checked(&out, read_write, inputs, config, op, elem_kernel));
  out.version().value += 1;
  return r;
}
}  // namespace

Checked<Tensor> add_out_checked(Tensor& out, const Tensor& self, const Operand& other) {
  return out_form(out, {Operand::of(self), other}, kBinary, kAdd);
}
Checked<Tensor> mul_out_checked(Tensor& out, const Tensor& self, const Operand& other) {
  return out_form(out, {Operand::of(self), other}, mul_config(), kMul);
}
Tensor add_out(Tensor& out, const Tensor& self, const Operand& other) {
  return add_out_checked(out, self, other).value_or_throw();
}
Tensor mul_out(Tensor& out, const Tensor& self, const Operand& other) {
  return mul_out_checked(out, self, other).value_or_throw();
}
Checked<Tensor> neg_out_checked(Tensor& out, const Tensor& self) {
  SC_TRY(neg_failure(self));
  return out_form(out, {Operand::of(self)}, kUnary, kNeg);
}
Tensor neg_out(Tensor& out, const Tensor& self) { return neg_out_checked(out, self).value_or_throw(); }

}  // namespace sc::engine
