#pragma once
// The tensor header: a value type (sizes, strides, storage_offset, dtype,
// storage with its version counter, identity, _base). View ops are pure functions from
// header to header (engine/views.h); they never touch bytes.
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "engine/dim_vector.h"
#include "engine/dtype.h"
#include "engine/storage.h"

namespace sc::engine {

// Sizes, strides, dim lists: inline up to DimVector::kInlineDims dims (view
// ops allocate nothing for such ranks), on the heap beyond.
using Shape = DimVector;

// Note [stale layout flags]
// LibTorch caches is_contiguous(), the two channels-last answers and
// is_non_overlapping_and_dense() in the TensorImpl, refreshed wherever it sets
// sizes and strides through its checked paths. A resize_ that raises after
// set_sizes_contiguous changed the header (refresh_numel's numel overflow,
// 2.x's "Stride calculation overflowed") leaves the old answers: a [0,1,1,1]
// out resized to a rank-5 shape still says channels_last (generated seed
// 2444201 against 2.15). They travel with the tensor object (in-place ops,
// out=, ops returning self) and, in 2.x, with detach's metadata copy; views
// compute fresh ones.
// LibTorch caches numel() the same way: refresh_numel's overflow leaves the
// old count (a [5,7] out resized to [2,-1,0] still has 35 elements), which
// view/reshape's infer_size, the out= resize warning, get_overlap_status and
// index_select read (2.15 view_as: "input of size 35"); Tensor::stale_numel.
struct LayoutFlags {
  bool contiguous = false;
  bool channels_last = false;
  bool channels_last_3d = false;
  bool non_overlapping_and_dense = false;
};

// Note [one version counter per storage]
// LibTorch keeps the version counter (c10::VariableVersion) in the
// TensorImpl and shares it between a tensor, its views and its detach()es,
// which share the storage too; every other engine op that makes a tensor
// makes a fresh storage for it (creation, copies, out-of-place results,
// reshape's copy). So in the engine "shares the version counter" is the same
// relation as "shares the storage", and the counter lives in the Storage: a
// header holds one reference count (the storage's), so a view op costs one
// atomic increment and one atomic decrement instead of two of each (about
// 5 ns each here). The LibTorch ops that put a fresh counter on an existing
// storage (`.data`, `set_`, a tensor made from `x.storage()`) are not in the
// language; one that is added needs a counter of its own in the header.
struct Tensor {
  // Shared by views and detach()es; also holds the version counter.
  std::shared_ptr<Storage> storage;
  int64_t storage_offset = 0;
  Shape sizes;
  Shape strides;
  DType dtype = DType::Float32;
  // Identity of this tensor object (a TensorImpl): every op result gets a fresh
  // one, except ops that return self (contiguous() of a contiguous tensor...).
  uint64_t id = 0;
  // The root this tensor is a view of (LibTorch's _base: the root, never the
  // parent). Empty when this tensor is not a view.
  std::optional<uint64_t> base_id;
  // Set only where LibTorch's cached answers disagree with sizes and strides
  // (Note [stale layout flags]); engine/layout.h's Tensor overloads read them.
  std::optional<LayoutFlags> stale_layout;
  // Set only where LibTorch's cached numel disagrees with sizes (same Note);
  // engine/layout.h's cached_numel reads it. Kernels use numel(): the elements.
  std::optional<int64_t> stale_numel;

  Tensor() = default;
  // A non-view header (make_tensor; make_view then sets base_id), each field
  // written once.
  Tensor(std::shared_ptr<Storage> storage, int64_t storage_offset, Shape&& sizes, Shape&& strides, DType dtype,
         uint64_t id)
      : storage(std::move(storage)),
        storage_offset(storage_offset),
        sizes(std::move(sizes)),
        strides(std::move(strides)),
        dtype(dtype),
        id(id) {}
  // The same with copies of sizes and strides, copied straight into the
  // header (make_view's const& overloads: one copy of each, no move after).
  Tensor(std::shared_ptr<Storage> storage, int64_t storage_offset, const Shape& sizes, const Shape& strides,
         DType dtype, uint64_t id)
      : storage(std::move(storage)),
        storage_offset(storage_offset),
        sizes(sizes),
        strides(strides),
        dtype(dtype),
        id(id) {}
  // The same with `rank` zeros for sizes and strides, for the caller to fill
  // in place (make_view_of_rank).
  Tensor(std::shared_ptr<Storage> storage, int64_t storage_offset, size_t rank, DType dtype, uint64_t id)
      : storage(std::move(storage)), storage_offset(storage_offset), sizes(rank), strides(rank), dtype(dtype), id(id) {}

  int64_t dim() const { return static_cast<int64_t>(sizes.size()); }
  // The product of the sizes in uint64, as TensorImpl::safe_compute_numel
  // computes it. LibTorch raises when it overflows, so only a header LibTorch
  // would reject has a wrapped product; computing it is never undefined.
  int64_t numel() const {
    uint64_t n = 1;
    for (int64_t s : sizes) n *= static_cast<uint64_t>(s);
    return static_cast<int64_t>(n);
  }
  bool is_view() const { return base_id.has_value(); }
  Device device() const { return storage->device(); }
  // The version counter this tensor shares with every tensor on its storage
  // (Note [one version counter per storage]).
  VersionCounter& version() const { return storage->version(); }
};

// A fresh identity for a new tensor object.
// Each thread takes ids in blocks of 1024 from one shared counter
// (next_tensor_id_block) and hands them out without an atomic operation (a
// view op makes one id; the lock-prefixed increment was a measurable part of
// it). Ids stay unique across threads and increase within each thread; 0 is
// never an id. Inline: every view op takes one.
uint64_t next_tensor_id_block(uint64_t& next, uint64_t& end);
inline uint64_t next_tensor_id() {
  static thread_local uint64_t next = 0, end = 0;  // one pair per thread, program-wide (an inline function's)
  if (next == end) [[unlikely]]
    return next_tensor_id_block(next, end);
  return next++;
}

// A new, non-view tensor owning `storage` (creation and copy results).
Tensor make_tensor(std::shared_ptr<Storage> storage, Shape sizes, Shape strides,
                   int64_t storage_offset, DType dtype);

// A view of `self` with the given geometry: same storage (and so version
// counter), a fresh identity, and _base = self's base if self is a view, else
// self. The rvalue overloads move the geometry in (a view op's own sizes and
// strides); the const& ones copy it straight into the header.
// _base is assigned, not passed to the constructor: an optional built as an
// argument is written in two stores and read back as one 16-byte load, which
// stalls (no store-to-load forwarding; it was most of make_view's time).
// Inline, as view ops call them once per call.
inline Tensor make_view(const Tensor& self, Shape&& sizes, Shape&& strides, int64_t storage_offset, DType dtype) {
  Tensor t(self.storage, storage_offset, std::move(sizes), std::move(strides), dtype, next_tensor_id());
  t.base_id = self.base_id ? *self.base_id : self.id;
  return t;
}
inline Tensor make_view(const Tensor& self, Shape&& sizes, Shape&& strides, int64_t storage_offset) {
  return make_view(self, std::move(sizes), std::move(strides), storage_offset, self.dtype);
}
inline Tensor make_view(const Tensor& self, const Shape& sizes, const Shape& strides, int64_t storage_offset,
                        DType dtype) {
  Tensor t(self.storage, storage_offset, sizes, strides, dtype, next_tensor_id());
  t.base_id = self.base_id ? *self.base_id : self.id;
  return t;
}
inline Tensor make_view(const Tensor& self, const Shape& sizes, const Shape& strides, int64_t storage_offset) {
  return make_view(self, sizes, strides, storage_offset, self.dtype);
}
// The same view with `rank` zeros for sizes and strides, which the view op
// then fills in place: neither the geometry nor (returned by name) the
// header is moved.
inline Tensor make_view_of_rank(const Tensor& self, size_t rank, int64_t storage_offset) {
  Tensor t(self.storage, storage_offset, rank, self.dtype, next_tensor_id());
  t.base_id = self.base_id ? *self.base_id : self.id;
  return t;
}

}  // namespace sc::engine
