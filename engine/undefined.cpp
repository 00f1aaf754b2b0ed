#include "engine/undefined.h"

#include "engine/elementwise.h"
#include "engine/kernels/cpu/loop.h"

namespace sc::engine {

std::vector<int64_t> elements_reading_undefined(const Tensor& written, const Tensor& read) {
  std::vector<int64_t> out;
  if (!read.storage->has_undefined_bytes() || written.numel() == 0) return out;
  const std::vector<uint8_t>& mask = read.storage->undefined_mask();
  const Tensor r = broadcast_header(read, written.sizes);
  const int64_t read_item = itemsize(read.dtype);
  const std::byte* read_base = read.storage->data();
  const std::byte* written_base = written.storage->data();
  cpu::for_each_strided<2>(written.sizes, {&written, &r}, [&](std::byte* const* p, const int64_t* st, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      const int64_t roff = (p[1] - read_base) + i * st[1];
      for (int64_t b = 0; b < read_item; ++b) {
        if (mask[static_cast<size_t>(roff + b)]) {
          out.push_back((p[0] - written_base) + i * st[0]);
          break;
        }
      }
    }
  });
  return out;
}

void mark_elements_undefined(const Tensor& written, const std::vector<int64_t>& byte_offsets) {
  const int64_t item = itemsize(written.dtype);
  for (int64_t off : byte_offsets) written.storage->mark_undefined(off, item);
}

}  // namespace sc::engine
