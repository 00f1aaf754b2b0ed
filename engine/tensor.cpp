#include "engine/tensor.h"

#include <atomic>

namespace sc::engine {

// The product of the sizes in uint64, as TensorImpl::safe_compute_numel
// computes it. LibTorch raises when it overflows, so only a header LibTorch
// would reject has a wrapped product; computing it is never undefined.
int64_t Tensor::numel() const {
  uint64_t n = 1;
  for (int64_t s : sizes) n *= static_cast<uint64_t>(s);
  return static_cast<int64_t>(n);
}

// Each thread takes ids in blocks of kIdBlock from one shared counter and
// hands them out without an atomic operation (a view op makes one id; the
// lock-prefixed increment was a measurable part of it). Ids stay unique
// across threads and increase within each thread; 0 is never an id.
uint64_t next_tensor_id() {
  constexpr uint64_t kIdBlock = 1024;
  static std::atomic<uint64_t> next_block{1};
  thread_local uint64_t next = 0, end = 0;
  if (next == end) {
    next = next_block.fetch_add(1, std::memory_order_relaxed) * kIdBlock;
    end = next + kIdBlock;
  }
  return next++;
}

Tensor make_tensor(std::shared_ptr<Storage> storage, Shape sizes, Shape strides,
                   int64_t storage_offset, DType dtype) {
  return Tensor(std::move(storage), storage_offset, std::move(sizes), std::move(strides), dtype, next_tensor_id());
}

// _base is assigned, not passed to the constructor: an optional built as an
// argument is written in two stores and read back as one 16-byte load, which
// stalls (no store-to-load forwarding; it was most of this function's time).
Tensor make_view(const Tensor& self, Shape&& sizes, Shape&& strides, int64_t storage_offset, DType dtype) {
  Tensor t(self.storage, storage_offset, std::move(sizes), std::move(strides), dtype, next_tensor_id());
  t.base_id = self.base_id ? *self.base_id : self.id;
  return t;
}

Tensor make_view(const Tensor& self, Shape&& sizes, Shape&& strides, int64_t storage_offset) {
  return make_view(self, std::move(sizes), std::move(strides), storage_offset, self.dtype);
}

// Copies moved in. (Copy-assigning into an empty header's Shapes is slower:
// measured 20 ns vs 12.5 ns per transpose, from the stores of the empty
// Shapes' size and capacity read back wider than written.)
Tensor make_view(const Tensor& self, const Shape& sizes, const Shape& strides, int64_t storage_offset,
                 DType dtype) {
  return make_view(self, Shape(sizes), Shape(strides), storage_offset, dtype);
}

Tensor make_view(const Tensor& self, const Shape& sizes, const Shape& strides, int64_t storage_offset) {
  return make_view(self, sizes, strides, storage_offset, self.dtype);
}

}  // namespace sc::engine
