// slice, narrow, select and the ops built on them: split, split_with_sizes,
// chunk, unbind (TensorShape.cpp at v1.13). Every result is a view.
#include <cstdint>
#include <limits>

#include "engine/error.h"
#include "engine/version_profile.h"
#include "engine/views.h"
#include "engine/views/wrapping.h"

namespace sc::engine {

namespace {
// c10::SymInt(int64_t) of an int below -2^62 before LargeNegativeSymInt.
constexpr const char* kSymbolicMessage =
    "Expected !is_symbolic() to be true, but got false.  (Could this error message be improved?  If so, please "
    "report an enhancement request to PyTorch.)";
}  // namespace

// Note [slice clamping] (at::native::slice, step > 0 only):
//   start = none ? 0 : start;  end = none ? INT64_MAX : end
//   negative start/end += size; then start in [0, size], end in [start, size]
//   offset += start * stride[dim]; size = ceil((end - start) / step); stride[dim] *= step
namespace {
// Note [view ops built in place]: a view op's checks are written once and
// return their error (MaybeFailure: nothing is built on success); each form
// then builds the header itself, so the throwing form (the benchmarks', and
// the engine's own callers') builds it in its caller's slot, while a
// Checked<Tensor> would move the header in and out again and carry the
// Failure's frame (slice 38 -> ~25 ns, bench/view_ops_bench). The checks, their
// order and the messages are the same in both forms.
//
// at::native::slice's checks and clamping, called directly (no SymInt
// conversion of start/end/step): dim wrapped, [start, start + len) clamped.
struct SliceSpan {
  int64_t dim = 0, start = 0, len = 0;
};
MaybeFailure slice_span_failure(const Tensor& self, int64_t dim, std::optional<int64_t> start,
                                std::optional<int64_t> end, int64_t step, SliceSpan& span) {
  SC_CHECK_KIND_OR_RETURN(self.dim() != 0, IndexError, "slice() cannot be applied to a 0-dim tensor.");
  SC_TRY_ASSIGN(dim, maybe_wrap_dim_checked(dim, self.dim()));
  int64_t start_val = start.value_or(0);
  int64_t end_val = end.value_or(std::numeric_limits<int64_t>::max());
  SC_CHECK_OR_RETURN(step > 0, "slice step must be positive");
  const int64_t size = self.sizes[dim];
  // wrapping: as_strided may make a size negative (with another of 0), and
  // LibTorch's int64 addition wraps for a start of INT64_MIN then
  if (start_val < 0) start_val = wrapping::add(start_val, size);
  if (end_val < 0) end_val = wrapping::add(end_val, size);
  if (start_val < 0) start_val = 0;
  else if (start_val >= size) start_val = size;
  if (end_val < start_val) end_val = start_val;
  else if (end_val >= size) end_val = size;
  span = {dim, start_val, end_val - start_val};
  return std::nullopt;
}
// The sliced header (step > 0), before as_strided's checks.
Tensor sliced(const Tensor& self, const SliceSpan& span, int64_t step) {
  const int64_t dim = span.dim, len = span.len, stride = self.strides[dim];
  // int64 arithmetic that wraps, as LibTorch's (huge strides from the domain generator)
  const int64_t storage_offset = wrapping::add(self.storage_offset, wrapping::mul(span.start, stride));
  Tensor out = make_view(self, self.sizes, self.strides, storage_offset);  // edited in place
  out.sizes[dim] = wrapping::div(wrapping::sub(wrapping::add(len, step), 1), step);  // round up
  out.strides[dim] = wrapping::mul(stride, step);
  return out;
}
// at::native::slice, checked form.
Checked<Tensor> slice_impl(const Tensor& self, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
                           int64_t step) {
  SliceSpan span;
  SC_TRY(slice_span_failure(self, dim, start, end, step, span));
  Tensor out = sliced(self, span, step);
  SC_TRY(as_strided_failure(self, out.sizes, out.strides, out.storage_offset));
  return out;
}
// Tensor::slice converts start, end and step to SymInts first (check_symint).
MaybeFailure slice_symint_failure(std::optional<int64_t> start, std::optional<int64_t> end, int64_t step) {
  SC_TRY(symint_failure(step));
  if (end) SC_TRY(symint_failure(*end));
  if (start) SC_TRY(symint_failure(*start));
  return std::nullopt;
}
}  // namespace

Checked<Tensor> slice_checked(const Tensor& self, int64_t dim, std::optional<int64_t> start,
                              std::optional<int64_t> end, int64_t step) {
  SC_TRY(slice_symint_failure(start, end, step));
  return slice_impl(self, dim, start, end, step);
}

// The same checks, thrown; the header built in place (Note [view ops built in place]).
Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
             int64_t step) {
  throw_if(slice_symint_failure(start, end, step));
  SliceSpan span;
  throw_if(slice_span_failure(self, dim, start, end, step, span));
  Tensor out = sliced(self, span, step);
  check_as_strided(self, out.sizes, out.strides, out.storage_offset);
  return out;
}

// narrow(dim, start, length) = slice(dim, start', start' + length, 1), where
// start' = wrap(start, size(dim)) unless start == size(dim) (start may be the end).
// Since 2.x (Change::NarrowLengthNonNegative, Change::NarrowChecksStartInRange):
// length >= 0 first, then start in [-size, size] (IndexError), wrapped by + size.
Checked<Tensor> narrow_checked(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  // Change::NarrowTakesSymInts before Change::LargeNegativeSymInt (2.0): the
  // SymInt arguments and size - length are checked as 1.13 checks a SymInt.
  const bool symint_args = since(Change::NarrowTakesSymInts) && !since(Change::LargeNegativeSymInt);
  constexpr const char* kSymbolic =
      "Expected !is_symbolic() to be true, but got false.  (Could this error message be improved?  If so, please "
      "report an enhancement request to PyTorch.)";
  if (symint_args)
    SC_CHECK_OR_RETURN(start >= kMinSymIntRepresentable && length >= kMinSymIntRepresentable, kSymbolic);
  SC_CHECK_OR_RETURN(self.dim() > 0, "narrow() cannot be applied to a 0-dim tensor.");
  if (since(Change::NarrowLengthNonNegative))
    SC_CHECK_OR_RETURN(length >= 0, "narrow(): length must be non-negative.");
  int64_t cur_size = 0;
  SC_TRY_ASSIGN(cur_size, size_at_checked(self, dim));
  if (since(Change::NarrowChecksStartInRange)) {
    SC_CHECK_KIND_OR_RETURN(-cur_size <= start && start <= cur_size, IndexError,
                            "start out of range (expected to be in range of [", -cur_size, ", ", cur_size,
                            "], but got ", start, ")");
    if (start < 0) start += cur_size;
  } else if (start != cur_size) {
    // maybe_wrap_dim's fast path tests `size * -1 <= start` first
    if (symint_args) SC_CHECK_OR_RETURN(wrapping::mul(cur_size, -1) >= kMinSymIntRepresentable, kSymbolic);
    SC_TRY_ASSIGN(start, maybe_wrap_dim_checked(start, cur_size));
  }
  if (symint_args) SC_CHECK_OR_RETURN(wrapping::sub(cur_size, length) >= kMinSymIntRepresentable, kSymbolic);
  SC_CHECK_OR_RETURN(length >= 0 && start <= cur_size - length, "start (", start, ") + length (", length,
                     ") exceeds dimension size (", cur_size, ").");
  return slice_impl(self, dim, start, start + length, 1);
}

Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  return narrow_checked(self, dim, start, length).value_or_throw();
}

// select(dim, index), index in [-size, size): drop dim, offset += index * stride[dim].
Checked<Tensor> select_checked(const Tensor& self, int64_t dim, int64_t index) {
  // Change::SelectTakesSymInts before Change::LargeNegativeSymInt (2.0): the
  // SymInt index, then -index in the range check, checked as 1.13 checks a SymInt.
  const bool symint_index = since(Change::SelectTakesSymInts) && !since(Change::LargeNegativeSymInt);
  constexpr const char* kSymbolic =
      "Expected !is_symbolic() to be true, but got false.  (Could this error message be improved?  If so, please "
      "report an enhancement request to PyTorch.)";
  if (symint_index) SC_CHECK_OR_RETURN(index >= kMinSymIntRepresentable, kSymbolic);
  SC_CHECK_KIND_OR_RETURN(self.dim() != 0, IndexError, "select() cannot be applied to a 0-dim tensor.");
  SC_TRY_ASSIGN(dim, maybe_wrap_dim_checked(dim, self.dim()));
  const int64_t size = self.sizes[dim];
  if (symint_index) SC_CHECK_OR_RETURN(wrapping::sub(0, index) >= kMinSymIntRepresentable, kSymbolic);
  SC_CHECK_KIND_OR_RETURN(index >= -size && index < size, IndexError, "select(): index ", index,
                          " out of range for tensor of size ", format_int_list(self.sizes), " at dimension ", dim);
  if (index < 0) index += size;
  // int64 that wraps, as LibTorch's (UBSan: 2 * 2^62 from the domain generator's strides)
  const int64_t storage_offset = wrapping::add(self.storage_offset, wrapping::mul(index, self.strides[dim]));
  Tensor out = make_view(self, self.sizes, self.strides, storage_offset);  // edited in place
  out.sizes.erase(out.sizes.begin() + dim);
  out.strides.erase(out.strides.begin() + dim);
  SC_TRY(as_strided_failure(self, out.sizes, out.strides, out.storage_offset));
  return out;
}

Tensor select(const Tensor& self, int64_t dim, int64_t index) { return select_checked(self, dim, index).value_or_throw(); }

// split(split_size, dim): max(ceil(size / split_size), 1) pieces (one piece
// when split_size is 0 and the dim is empty), each narrow(dim, i * split_size, len).
Checked<std::vector<Tensor>> split_checked(const Tensor& self, int64_t split_size, int64_t dim) {
  // Change::SplitTakesSymInt before Change::LargeNegativeSymInt (2.0): the
  // SymInt split_size is made first, checked as 1.13 checks a SymInt.
  if (since(Change::SplitTakesSymInt) && !since(Change::LargeNegativeSymInt))
    SC_CHECK_OR_RETURN(split_size >= kMinSymIntRepresentable, kSymbolicMessage);
  SC_CHECK_OR_RETURN(self.dim() != 0, "split expects at least a 1-dimensional tensor");
  SC_CHECK_OR_RETURN(split_size >= 0, "split expects split_size be non-negative, but got split_size=", split_size);
  int64_t dim_size = 0;
  SC_TRY_ASSIGN(dim_size, size_at_checked(self, dim));
  SC_CHECK_OR_RETURN(split_size > 0 || dim_size == 0,
                     "split_size can only be 0 if dimension size is 0, but got dimension size of ", dim_size);
  int64_t num_splits = 1;
  if (split_size != 0) num_splits = std::max<int64_t>(wrapping::div(wrapping::sub(wrapping::add(dim_size, split_size), 1), split_size), 1);
  const int64_t last_split_size = wrapping::sub(split_size, wrapping::sub(wrapping::mul(split_size, num_splits), dim_size));
  std::vector<Tensor> splits;
  splits.reserve(static_cast<size_t>(num_splits));
  for (int64_t i = 0; i < num_splits; ++i) {
    const int64_t length = i < num_splits - 1 ? split_size : last_split_size;
    auto piece = narrow_checked(self, dim, wrapping::mul(i, split_size), length);
    if (!piece.ok()) return std::move(piece).failure();
    splits.push_back(std::move(piece).value());
  }
  return splits;
}

std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim) {
  return split_checked(self, split_size, dim).value_or_throw();
}

// split_with_sizes: piece i = at::native::slice(dim, start_i, start_i + len_i)
// with start_i the (wrapping) sum of the lengths before it. Piece by piece:
// length >= 0, then the slice (whose as_strided checks can raise: a start
// past 2^62 on a stride-2 dim wraps the offset); after the last piece the
// lengths must sum to size(dim) (1.13 and 2.15 alike, measured).
Checked<std::vector<Tensor>> split_with_sizes_checked(const Tensor& self, const Shape& split_sizes, int64_t dim) {
  if (since(Change::SplitWithSizesTakesSymInts)) SC_TRY(symint_list_failure(split_sizes));
  SC_CHECK_OR_RETURN(self.dim() != 0, "split expects at least a 1-dimensional tensor");
  int64_t dim_size = 0;
  SC_TRY_ASSIGN(dim_size, size_at_checked(self, dim));
  std::vector<Tensor> splits;
  int64_t start = 0;
  for (int64_t length : split_sizes) {
    SC_CHECK_OR_RETURN(length >= 0,
                       "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=",
                       format_int_list(split_sizes));
    Tensor piece;
    SC_TRY_ASSIGN(piece, slice_impl(self, dim, start, wrapping::add(start, length), 1));
    splits.push_back(std::move(piece));
    start = wrapping::add(start, length);
  }
  SC_CHECK_OR_RETURN(start == dim_size, "split_with_sizes expects split_sizes to sum exactly to ", dim_size,
                     " (input tensor's size at dimension ", dim,
                     "), but got split_sizes=", format_int_list(split_sizes));
  return splits;
}

std::vector<Tensor> split_with_sizes(const Tensor& self, const Shape& split_sizes, int64_t dim) {
  return split_with_sizes_checked(self, split_sizes, dim).value_or_throw();
}

// chunk(chunks, dim) = split(ceil(size / chunks), dim); for an empty dim,
// split_with_sizes([0] * chunks) so that there are exactly `chunks` pieces.
Checked<std::vector<Tensor>> chunk_checked(const Tensor& self, int64_t chunks, int64_t dim) {
  SC_CHECK_OR_RETURN(self.dim() > 0, "chunk expects at least a 1-dimensional tensor");
  SC_CHECK_OR_RETURN(chunks > 0, "chunk expects `chunks` to be greater than 0, got: ", chunks);
  int64_t dim_size = 0;
  SC_TRY_ASSIGN(dim_size, size_at_checked(self, dim));
  // Change::ChunkSymIntArithmetic before Change::LargeNegativeSymInt (2.0):
  // sym_size(dim) + chunks, then - 1, each a SymInt checked as 1.13 checks one.
  if (since(Change::ChunkSymIntArithmetic) && !since(Change::LargeNegativeSymInt)) {
    SC_CHECK_OR_RETURN(wrapping::add(dim_size, chunks) >= kMinSymIntRepresentable, kSymbolicMessage);
    SC_CHECK_OR_RETURN(wrapping::sub(wrapping::add(dim_size, chunks), 1) >= kMinSymIntRepresentable, kSymbolicMessage);
  }
  const int64_t split_size = wrapping::div(wrapping::sub(wrapping::add(dim_size, chunks), 1), chunks);
  if (split_size == 0 && dim_size == 0) {
    Shape split_sizes(static_cast<size_t>(chunks), split_size);
    split_sizes[chunks - 1] = split_size - (split_size * chunks - dim_size);
    return split_with_sizes_checked(self, split_sizes, dim);
  }
  return split_checked(self, split_size, dim);
}

std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim) {
  return chunk_checked(self, chunks, dim).value_or_throw();
}

// unbind(dim) = [select(dim, i) for i in range(size(dim))], into a
// std::vector<Tensor>(size(dim)): a negative size (broadcast_to accepts one in
// a new leading dim) makes that constructor throw std::length_error, which
// reaches the user as a RuntimeError with libstdc++'s message.
Checked<std::vector<Tensor>> unbind_checked(const Tensor& self, int64_t dim) {
  SC_TRY_ASSIGN(dim, maybe_wrap_dim_checked(dim, self.dim()));
  int64_t size = 0;
  SC_TRY_ASSIGN(size, size_at_checked(self, dim));
  SC_CHECK_OR_RETURN(size >= 0, "cannot create std::vector larger than max_size()");
  std::vector<Tensor> out;
  out.reserve(static_cast<size_t>(size));
  for (int64_t i = 0; i < size; ++i) {
    auto piece = select_checked(self, dim, i);
    if (!piece.ok()) return std::move(piece).failure();
    out.push_back(std::move(piece).value());
  }
  return out;
}

std::vector<Tensor> unbind(const Tensor& self, int64_t dim) { return unbind_checked(self, dim).value_or_throw(); }

}  // namespace sc::engine
