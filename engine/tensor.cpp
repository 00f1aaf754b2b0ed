#include "engine/tensor.h"

#include <atomic>

namespace sc::engine {

// next_tensor_id's refill (tensor.h): the thread's next block of ids.
uint64_t next_tensor_id_block(uint64_t& next, uint64_t& end) {
  constexpr uint64_t kIdBlock = 1024;
  static std::atomic<uint64_t> next_block{1};
  next = next_block.fetch_add(1, std::memory_order_relaxed) * kIdBlock;
  end = next + kIdBlock;
  return next++;
}

Tensor make_tensor(std::shared_ptr<Storage> storage, Shape sizes, Shape strides,
                   int64_t storage_offset, DType dtype) {
  return Tensor(std::move(storage), storage_offset, std::move(sizes), std::move(strides), dtype, next_tensor_id());
}

}  // namespace sc::engine
