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

uint64_t next_tensor_id() {
  static std::atomic<uint64_t> counter{1};
  return counter.fetch_add(1, std::memory_order_relaxed);
}

Tensor make_tensor(std::shared_ptr<Storage> storage, Shape sizes, Shape strides,
                   int64_t storage_offset, DType dtype) {
  Tensor t;
  t.storage = std::move(storage);
  t.storage_offset = storage_offset;
  t.sizes = std::move(sizes);
  t.strides = std::move(strides);
  t.dtype = dtype;
  t.version = std::make_shared<VersionCounter>();
  t.id = next_tensor_id();
  return t;
}

Tensor make_view(const Tensor& self, Shape sizes, Shape strides, int64_t storage_offset) {
  return make_view(self, std::move(sizes), std::move(strides), storage_offset, self.dtype);
}

Tensor make_view(const Tensor& self, Shape sizes, Shape strides, int64_t storage_offset,
                 DType dtype) {
  Tensor t;
  t.storage = self.storage;
  t.storage_offset = storage_offset;
  t.sizes = std::move(sizes);
  t.strides = std::move(strides);
  t.dtype = dtype;
  t.version = self.version;
  t.id = next_tensor_id();
  t.base_id = self.base_id ? self.base_id : std::optional<uint64_t>(self.id);
  return t;
}

}  // namespace sc::engine
