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

// Note [A write that cuts a chosen NaN]: a write narrower than a flagged
// element, or straddling its edge (`neg` on an int16 view of the top two
// bytes of a flagged float64), leaves the rest of its bytes holding the
// payload LibTorch's loop chose, in an element that is no NaN any more: the
// diff's NaN-bits excuse (both sides NaNs) no longer covers them, and 2.0.1,
// whose mul_ chose the other operand, differs there from the engine (2.0.1
// sweep seed 90820756). Those bytes are the loop's choice, which the engine
// cannot know, so they become undefined, their flags cleared; reads of them
// were undefined already (Note [NaN choices read as integers]).
void clear_nan_choice(const Tensor& written) {
  Storage& s = *written.storage;
  if (!s.has_nan_choice() || written.numel() == 0) return;
  const int64_t item = itemsize(written.dtype);
  const Tensor w = written;
  auto each_element = [&](auto fn) {
    cpu::for_each_strided<1>(w.sizes, {&w}, [&](std::byte* const* p, const int64_t* st, int64_t n) {
      for (int64_t i = 0; i < n; ++i) fn((p[0] - s.data()) + i * st[0]);
    });
  };
  // The flags before the write: a snapshot the storage copies before its change.
  const std::shared_ptr<const std::vector<uint8_t>> before = s.nan_choice_snapshot();
  each_element([&](int64_t off) { s.clear_nan_choice(off, item); });
  if (!s.has_nan_choice()) return;
  const std::vector<uint8_t>& was = *before;
  each_element([&](int64_t off) {
    for (int64_t edge : {off, off + item - 1}) {
      const uint8_t code = was[static_cast<size_t>(edge)];
      if (code == 0) continue;
      const int64_t isz = itemsize(static_cast<DType>(code - 1));
      const int64_t e = edge / isz * isz;  // the flagged element (elements of a dtype lie at its multiples)
      if (e >= off && e + isz <= off + item) continue;  // written whole: its flags are gone
      for (int64_t b = e; b < e + isz && b < s.nbytes(); ++b) {
        const std::vector<uint8_t>& now = s.nan_choice_mask();
        if (now.empty()) return;
        if (now[static_cast<size_t>(b)] != code) continue;  // written by this write, or another element's
        s.clear_nan_choice(b, 1);
        s.mark_undefined(b, 1);
      }
    }
  });
}

}  // namespace sc::engine
