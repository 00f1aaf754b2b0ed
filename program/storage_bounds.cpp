#include "program/storage_bounds.h"

#include "program/ops.h"

namespace sc {

// lo = offset + sum(min(0, (size - 1) * stride)), hi = offset + sum(max(0, ...))
// (in elements); inside iff lo >= 0 and (hi + 1) * itemsize <= storage_nbytes.
bool elements_inside_storage(const StorageExtent& e) {
  for (int64_t s : e.sizes)
    if (s <= 0) return true;  // no elements (a negative size: none either)
  if (e.sizes.size() != e.strides.size()) return false;
  // Each span is below 2^126 in magnitude, but several of them summed, or the
  // sum times the itemsize, can pass 2^127: an overflow means outside.
  __int128 lo = e.storage_offset, hi = e.storage_offset;
  for (size_t d = 0; d < e.sizes.size(); ++d) {
    const __int128 span = static_cast<__int128>(e.sizes[d] - 1) * e.strides[d];
    if (__builtin_add_overflow(span < 0 ? lo : hi, span, span < 0 ? &lo : &hi)) return false;
  }
  __int128 end = 0;
  if (__builtin_mul_overflow(hi + 1, static_cast<__int128>(e.itemsize), &end)) return false;
  return lo >= 0 && end <= e.storage_nbytes;
}

// A view op that copies when no view fits (view_op_may_copy) reads its
// input's elements then. Whether it copies depends on the shape argument, so
// a step of one on a tensor outside its storage is refused either way
// (generated seed 5134728 on 1.13: as_strided to offset INT64_MAX, then
// reshape, faulted in clone).
bool may_read_elements(const OpSpec& spec) {
  if (spec.category == OpCategory::Creation) return false;
  if (spec.category == OpCategory::View) return view_op_may_copy(spec.name);
  return true;
}

std::optional<std::string> refuse_out_of_storage(const Step& step,
                                                 const std::function<StorageExtent(const std::string&)>& input) {
  const OpSpec* spec = find_op(step.op);
  if (!spec || !may_read_elements(*spec)) return std::nullopt;
  std::optional<std::string> why;
  step.for_each_input([&](const std::string& name) {
    if (why) return;
    const StorageExtent extent = input(name);
    if (elements_inside_storage(extent)) return;
    why = "stridecheck: not run: the elements of '" + name + "' lie outside its storage of " +
          std::to_string(extent.storage_nbytes) + " bytes (offset " + std::to_string(extent.storage_offset) +
          "; before AsStridedChecksOffsetOverflow LibTorch's view bounds check wraps in int64, Note [elements outside their storage])";
  });
  return why;
}

}  // namespace sc
