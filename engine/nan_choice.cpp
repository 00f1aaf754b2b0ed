#include "engine/nan_choice.h"

#include <cstring>
#include <type_traits>

#include "engine/elementwise.h"
#include "engine/half.h"
#include "engine/kernels/cpu/loop.h"

namespace sc::engine {
namespace {

// The element's bits when it is a NaN of `d`, else nullopt-like 0 with nan = false.
inline bool nan_bits(DType d, const std::byte* p, uint64_t& bits) {
  switch (d) {
    case DType::Float16: {
      uint16_t h;
      std::memcpy(&h, p, 2);
      bits = h;
      return is_half_nan(h);
    }
    case DType::Float32: {
      uint32_t f;
      std::memcpy(&f, p, 4);
      bits = f;
      return (f & 0x7fffffffu) > 0x7f800000u;
    }
    case DType::Float64: {
      uint64_t x;
      std::memcpy(&x, p, 8);
      bits = x;
      return (x & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
    }
    default: return false;  // bfloat16 (no choice) and non-floating dtypes
  }
}

// Whether any of n contiguous elements of `d` at p is a NaN: a loop without
// branches, which the compiler vectorises.
template <DType d>
bool any_nan(const std::byte* p, int64_t n) {
  using Bits = std::conditional_t<d == DType::Float16, uint16_t, std::conditional_t<d == DType::Float32, uint32_t, uint64_t>>;
  bool any = false;
  for (int64_t i = 0; i < n; ++i) {
    Bits x;
    std::memcpy(&x, p + i * static_cast<int64_t>(sizeof(Bits)), sizeof(Bits));
    if constexpr (d == DType::Float16) any |= (x & 0x7fffu) > 0x7c00u;
    else if constexpr (d == DType::Float32) any |= (x & 0x7fffffffu) > 0x7f800000u;
    else any |= (x & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
  }
  return any;
}

}  // namespace

std::vector<int64_t> elements_choosing_between_nans(const Tensor& written, const Tensor& a, const Tensor& b) {
  std::vector<int64_t> out;
  if (written.numel() == 0 || a.dtype != b.dtype || a.device() != Device::CPU || b.device() != Device::CPU ||
      written.device() != Device::CPU)
    return out;
  if (a.dtype != DType::Float16 && a.dtype != DType::Float32 && a.dtype != DType::Float64) return out;
  const Tensor ab = broadcast_header(a, written.sizes), bb = broadcast_header(b, written.sizes);
  const std::byte* written_base = written.storage->data();
  // One loop per dtype, nan_bits' switch taken once (this scan runs over every
  // element of every floating binary op).
  auto scan = [&](auto dtype_tag) {
    constexpr DType kD = decltype(dtype_tag)::value;
    cpu::for_each_strided<3>(written.sizes, {&written, &ab, &bb},
                             [&](std::byte* const* p, const int64_t* st, int64_t n) {
                               if (st[1] == itemsize(kD) && !any_nan<kD>(p[1], n)) return;  // most runs hold none
                               for (int64_t i = 0; i < n; ++i) {
                                 uint64_t x = 0, y = 0;
                                 if (nan_bits(kD, p[1] + i * st[1], x) && nan_bits(kD, p[2] + i * st[2], y) && x != y)
                                   out.push_back((p[0] - written_base) + i * st[0]);
                               }
                             });
  };
  switch (a.dtype) {
    case DType::Float16: scan(std::integral_constant<DType, DType::Float16>{}); break;
    case DType::Float32: scan(std::integral_constant<DType, DType::Float32>{}); break;
    default: scan(std::integral_constant<DType, DType::Float64>{}); break;
  }
  return out;
}

std::vector<int64_t> elements_reading_nan_choice(const Tensor& written, const Tensor& read) {
  std::vector<int64_t> out;
  if (!read.storage->has_nan_choice() || written.numel() == 0) return out;
  const std::vector<uint8_t>& mask = read.storage->nan_choice_mask();
  const Tensor r = broadcast_header(read, written.sizes);
  const int64_t read_item = itemsize(read.dtype);
  const std::byte* read_base = read.storage->data();
  const std::byte* written_base = written.storage->data();
  cpu::for_each_strided<2>(written.sizes, {&written, &r}, [&](std::byte* const* p, const int64_t* st, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      const int64_t roff = (p[1] - read_base) + i * st[1];
      bool flagged = false;
      for (int64_t k = 0; k < read_item && !flagged; ++k) flagged = mask[static_cast<size_t>(roff + k)] != 0;
      if (flagged) out.push_back((p[0] - written_base) + i * st[0]);
    }
  });
  return out;
}

void mark_nan_choice(const Tensor& written, const std::vector<int64_t>& byte_offsets) {
  const int64_t item = itemsize(written.dtype);
  const uint8_t code = nan_choice_code(written.dtype);
  for (int64_t off : byte_offsets) written.storage->mark_nan_choice(off, item, code);
}

bool reads_chosen_bits_as_other_data(const uint8_t* flags, int64_t n, DType read) {
  const uint8_t own = is_floating(read) ? nan_choice_code(read) : 0;
  bool any = false, all_own = true;
  for (int64_t b = 0; b < n; ++b) {
    any |= flags[b] != 0;
    all_own &= flags[b] == own;
  }
  return any && !all_own;
}

void clear_nan_choice(const Tensor& written) {
  Storage& s = *written.storage;
  if (!s.has_nan_choice() || written.numel() == 0) return;
  const int64_t item = itemsize(written.dtype);
  const Tensor w = written;
  cpu::for_each_strided<1>(w.sizes, {&w}, [&](std::byte* const* p, const int64_t* st, int64_t n) {
    for (int64_t i = 0; i < n; ++i) s.clear_nan_choice((p[0] - s.data()) + i * st[0], item);
  });
}

}  // namespace sc::engine
