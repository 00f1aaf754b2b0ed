#include "engine/undefined.h"

#include <cstring>

#include "engine/elementwise.h"
#include "engine/kernels/cpu/loop.h"
#include "engine/nan_choice.h"
#include "engine/undefined_claims.h"

namespace sc::engine {

namespace {

// An element read is undefined when one of its bytes is, or when it is a bool
// whose byte is neither 0 nor 1 (a `view dtype=bool` of other data): reading
// such a bool is undefined behaviour in C++, and LibTorch's kernels disagree
// with each other on its value (1 in the scalar loops, the byte in vector ones).
// Note [NaN choices read as integers]: so is an element that reads a byte
// flagged as a NaN whose bits LibTorch's loops chose between two NaN operands
// (Note [NaN operand choice], engine/nan_choice.h), unless it reads exactly
// that NaN in its own floating dtype. The diff lets those bytes differ only
// while both sides read them as NaNs. As integers or bools the two choices are
// two different numbers, and what is computed or converted from them (copy_ of
// an int32 view into float32, generated seed 6832213) differs with no NaN left
// to excuse it. The same holds for a floating read at another width or format:
// a float16 or bfloat16 view of a flagged float32 reads its halves (the low
// half of 0x7fc00001 vs 0x7fc00000 is 6e-8 vs 0), a float64 view spanning it
// reads it as the low or high word of a number, a bfloat16 view of a flagged
// float16 reads 0x7e01 vs 0xfe00 as two huge numbers
// (corpus/regressions/nan_choice_read_at_another_width.prog). Each flag holds
// the code of the dtype the NaN was written as (nan_choice_code), so the rule
// is per element: reads_chosen_bits_as_other_data.
// Appends to `out` the byte offset in written's storage of each element of
// `written` whose element of `r` (read, broadcast) has an undefined flag set:
// an element's flags are read as one word W (the element's size).
template <class W>
void scan_undefined_flags(const Tensor& written, const Tensor& r, const uint8_t* mask, std::vector<int64_t>& out) {
  const std::byte* read_base = r.storage->data();
  const std::byte* written_base = written.storage->data();
  cpu::for_each_strided<2>(written.sizes, {&written, &r}, [&](std::byte* const* p, const int64_t* st, int64_t n) {
    const uint8_t* m = mask + (p[1] - read_base);
    const int64_t wbase = p[0] - written_base;
    for (int64_t i = 0; i < n; ++i) {
      W w;
      std::memcpy(&w, m + i * st[1], sizeof(W));
      if (w != 0) out.push_back(wbase + i * st[0]);
    }
  });
}

std::vector<int64_t> find_elements_reading_undefined(const Tensor& written, const Tensor& read) {
  std::vector<int64_t> out;
  const bool check_bool = read.dtype == DType::Bool;
  const bool reads_chosen_nans = reads_nan_choice_bits(read);
  if ((!read.storage->has_undefined_bytes() && !check_bool && !reads_chosen_nans) || written.numel() == 0) return out;
  const std::vector<uint8_t>& mask = read.storage->undefined_mask();
  const std::vector<uint8_t>& chosen = read.storage->nan_choice_mask();
  const Tensor r = broadcast_header(read, written.sizes);
  const int64_t read_item = itemsize(read.dtype);
  const std::byte* read_base = read.storage->data();
  // Bool bytes are looked at on the host (a device storage is read back once).
  std::vector<std::byte> host_copy;
  const std::byte* read_bytes = read_base;
  if (check_bool && read.device() != Device::CPU) {
    host_copy.resize(static_cast<size_t>(read.storage->nbytes()));
    read.storage->read(0, read.storage->nbytes(), host_copy.data());
    read_bytes = host_copy.data();
  }
  const std::byte* written_base = written.storage->data();
  if (!check_bool && !reads_chosen_nans) {
    // Only undefined flags to look at: the common case once an overlapping
    // write left some (issue 10: ~20 instructions an element byte by byte).
    switch (read_item) {
      case 1: scan_undefined_flags<uint8_t>(written, r, mask.data(), out); return out;
      case 2: scan_undefined_flags<uint16_t>(written, r, mask.data(), out); return out;
      case 4: scan_undefined_flags<uint32_t>(written, r, mask.data(), out); return out;
      case 8: scan_undefined_flags<uint64_t>(written, r, mask.data(), out); return out;
      default: break;  // any other size: byte by byte, below
    }
  }
  cpu::for_each_strided<2>(written.sizes, {&written, &r}, [&](std::byte* const* p, const int64_t* st, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      const int64_t roff = (p[1] - read_base) + i * st[1];
      bool undefined = check_bool && static_cast<uint8_t>(read_bytes[roff]) > 1;
      for (int64_t b = 0; b < read_item && !undefined && !mask.empty(); ++b)
        undefined = mask[static_cast<size_t>(roff + b)] != 0;
      if (!undefined && reads_chosen_nans)
        undefined = reads_chosen_bits_as_other_data(chosen.data() + roff, read_item, read.dtype);
      if (undefined) out.push_back((p[0] - written_base) + i * st[0]);
    }
  });
  return out;
}

}  // namespace

bool reads_nan_choice_bits(const Tensor& read) { return read.storage->has_nan_choice(); }

std::vector<int64_t> elements_reading_undefined(const Tensor& written, const Tensor& read) {
  std::vector<int64_t> out = find_elements_reading_undefined(written, read);
  if (claims_recorded()) record_reads_undefined(written, read, out);  // engine/undefined_claims.h
  return out;
}

void mark_elements_undefined(const Tensor& written, const std::vector<int64_t>& byte_offsets) {
  written.storage->mark_undefined_at(byte_offsets, itemsize(written.dtype));
}

}  // namespace sc::engine
