#include "engine/storage.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

#include "engine/error.h"
#include "engine/kernels/kernels.h"

namespace sc::engine {

// CUDA memory lives in engine/kernels/cuda, which registers itself
// (engine/kernels/kernels.h), so the engine links without it.
bool cuda_kernels_built() { return cuda_kernels() != nullptr; }

namespace {
std::atomic<bool> g_poison{false};
}  // namespace

void set_poison_fresh_storage(bool on) { g_poison.store(on, std::memory_order_relaxed); }
bool poison_fresh_storage() { return g_poison.load(std::memory_order_relaxed); }

Storage::Storage(int64_t nbytes, Device device, Fill fill) : nbytes_(nbytes), device_(device) {
  SC_ASSERT(nbytes >= 0);
  if (nbytes == 0) return;
  if (device == Device::CPU) {
    // 64-byte alignment, as c10's CPU allocator gives.
    size_t rounded = (static_cast<size_t>(nbytes) + 63) / 64 * 64;
    data_ = static_cast<std::byte*>(std::aligned_alloc(64, rounded));
    if (!data_) throw std::bad_alloc();
    if (fill == Fill::Zero) std::memset(data_, 0, static_cast<size_t>(nbytes));
    else if (fill == Fill::PoisonWhenOn && poison_fresh_storage())
      std::memset(data_, kPoisonByte, static_cast<size_t>(nbytes));  // Note [Poisoned fresh storage]
  } else {
    const DeviceKernels& k = device_kernels(device);
    data_ = fill == Fill::Zero ? k.allocate_zeroed(nbytes) : k.allocate(nbytes);
  }
}

Storage::~Storage() {
  if (!data_) return;
  if (device_ == Device::CPU) {
    std::free(data_);
  } else {
    device_kernels(device_).free(data_);
  }
}

std::shared_ptr<Storage> Storage::allocate(int64_t nbytes, Device device) {
  return std::shared_ptr<Storage>(new Storage(nbytes, device, Fill::Zero));
}

std::shared_ptr<Storage> Storage::allocate_for_overwrite(int64_t nbytes, Device device) {
  return std::shared_ptr<Storage>(new Storage(nbytes, device, Fill::PoisonWhenOn));
}

std::shared_ptr<Storage> Storage::allocate_unfilled(int64_t nbytes, Device device) {
  return std::shared_ptr<Storage>(new Storage(nbytes, device, Fill::None));
}

void Storage::resize_bytes(int64_t nbytes) {
  SC_ASSERT(nbytes >= nbytes_);
  if (nbytes == nbytes_) return;
  if (device_ != Device::CPU) {
    const DeviceKernels& k = device_kernels(device_);
    std::byte* fresh = k.allocate_zeroed(nbytes);
    if (data_) {
      k.device_to_device(fresh, data_, nbytes_);
      k.free(data_);
    }
    data_ = fresh;
    undefined_.resize(nbytes);
    nan_choice_.resize(nbytes);
    nbytes_ = nbytes;
    return;
  }
  size_t rounded = (static_cast<size_t>(nbytes) + 63) / 64 * 64;
  auto* fresh = static_cast<std::byte*>(std::aligned_alloc(64, rounded));
  if (!fresh) throw std::bad_alloc();
  std::memset(fresh, 0, static_cast<size_t>(nbytes));
  if (data_) {
    std::memcpy(fresh, data_, static_cast<size_t>(nbytes_));
    std::free(data_);
  }
  data_ = fresh;
  undefined_.resize(nbytes);
  nan_choice_.resize(nbytes);
  nbytes_ = nbytes;
}

void Storage::read(int64_t off, int64_t n, std::byte* host) const {
  SC_ASSERT(off >= 0 && n >= 0 && off + n <= nbytes_);
  if (n == 0) return;
  if (device_ == Device::CPU) std::memcpy(host, data_ + off, static_cast<size_t>(n));
  else device_kernels(device_).to_host(host, data_ + off, n);
}

void Storage::write(int64_t off, int64_t n, const std::byte* host) {
  SC_ASSERT(off >= 0 && n >= 0 && off + n <= nbytes_);
  if (n == 0) return;
  if (device_ == Device::CPU) std::memcpy(data_ + off, host, static_cast<size_t>(n));
  else device_kernels(device_).from_host(data_ + off, host, n);
}

const std::vector<uint8_t>& Storage::ByteFlags::flags() const {
  static const std::vector<uint8_t> none;
  return mask ? *mask : none;
}

std::vector<uint8_t>& Storage::ByteFlags::own() {
  SC_ASSERT(mask != nullptr);
  if (mask.use_count() > 1) mask = std::make_shared<std::vector<uint8_t>>(*mask);
  return *mask;
}

void Storage::ByteFlags::set(int64_t off, int64_t n, int64_t nbytes, uint8_t value) {
  SC_ASSERT(off >= 0 && n >= 0 && off + n <= nbytes && value != 0);
  if (n == 0) return;
  if (!mask) {  // every flag 0 before: all n are newly set (empty_like marks a whole storage so)
    if (n == nbytes) {
      mask = std::make_shared<std::vector<uint8_t>>(static_cast<size_t>(nbytes), value);
    } else {
      mask = std::make_shared<std::vector<uint8_t>>(static_cast<size_t>(nbytes), 0);
      std::memset(mask->data() + off, value, static_cast<size_t>(n));
    }
    count += n;
    return;
  }
  std::vector<uint8_t>& m = own();
  for (auto it = m.begin() + off, end = it + n; it != end; ++it) {
    count += *it == 0;
    *it = value;
  }
}

namespace {
// How many of the n flags at f are set (non-zero), eight at a time: a byte
// is non-zero when its low seven bits carry into its high bit or it was set
// there already; the 0/1 per byte is summed in the byte lanes of one word
// (at most 255 words before the lanes are added up, so none overflows). A
// storage's write clears its range (mark_defined) while a flag is left
// anywhere in the storage: a byte loop there cost 0.62 M instructions per 64
// fuzz programs (issue 10).
int64_t flags_set(const uint8_t* f, int64_t n) {
  constexpr uint64_t kLow7 = 0x7f7f7f7f7f7f7f7full, kOnes = 0x0101010101010101ull;
  int64_t set = 0, k = 0;
  while (k + 8 <= n) {
    uint64_t lanes = 0;
    for (int words = 0; words < 255 && k + 8 <= n; ++words, k += 8) {
      uint64_t w;
      std::memcpy(&w, f + k, 8);
      lanes += ((((w & kLow7) + kLow7) | w) >> 7) & kOnes;
    }
    constexpr uint64_t kEven = 0x00ff00ff00ff00ffull;  // the byte lanes as four 16-bit ones, then their sum
    const uint64_t pairs = (lanes & kEven) + ((lanes >> 8) & kEven);
    set += static_cast<int64_t>((pairs * 0x0001000100010001ull) >> 48);
  }
  for (; k < n; ++k) set += f[k] != 0;
  return set;
}
}  // namespace

void Storage::ByteFlags::clear(int64_t off, int64_t n) {
  if (!mask) return;
  SC_ASSERT(off >= 0 && n >= 0 && off + n <= static_cast<int64_t>(mask->size()));
  if (off == 0 && n == static_cast<int64_t>(mask->size())) {  // the whole storage: no flag is left
    mask.reset();
    count = 0;
    return;
  }
  // Only the set flags change anything: none in the range leaves the mask
  // as it is (a shared one is not copied).
  const int64_t set = flags_set(mask->data() + off, n);
  if (set > 0) {
    std::memset(own().data() + off, 0, static_cast<size_t>(n));
    count -= set;
  }
  if (count == 0) mask.reset();
}

namespace {
// The undefined flags are 0 or 1 (ByteFlags::set's default value). These set
// (to 1) or clear the `item` flags at m and answer how many changed; an
// element of 2, 4 or 8 flags is one word, whose bytes sum by a multiply.
inline int64_t sum_of_bytes(uint64_t w) { return static_cast<int64_t>((w * 0x0101010101010101ull) >> 56); }

template <class W>
inline int64_t word_flags_set(uint8_t* m, int64_t item) {
  W w;
  std::memcpy(&w, m, sizeof(W));
  const W ones = static_cast<W>(0x0101010101010101ull);
  std::memcpy(m, &ones, sizeof(W));
  return item - sum_of_bytes(w);
}

inline int64_t set_ones(uint8_t* m, int64_t item) {
  switch (item) {
    case 2: return word_flags_set<uint16_t>(m, item);
    case 4: return word_flags_set<uint32_t>(m, item);
    case 8: return word_flags_set<uint64_t>(m, item);
    default: {
      int64_t added = 0;
      for (uint8_t *b = m, *end = m + item; b != end; ++b) {
        added += *b == 0;
        *b = 1;
      }
      return added;
    }
  }
}

template <class W>
inline int64_t word_flags_clear(uint8_t* m) {
  W w;
  std::memcpy(&w, m, sizeof(W));
  const W zero = 0;
  std::memcpy(m, &zero, sizeof(W));
  return sum_of_bytes(w);
}

inline int64_t clear_ones(uint8_t* m, int64_t item) {
  switch (item) {
    case 2: return word_flags_clear<uint16_t>(m);
    case 4: return word_flags_clear<uint32_t>(m);
    case 8: return word_flags_clear<uint64_t>(m);
    default: {
      int64_t cleared = 0;
      for (uint8_t *b = m, *end = m + item; b != end; ++b) {
        cleared += *b != 0;
        *b = 0;
      }
      return cleared;
    }
  }
}

// Whether elements base + k * step, k in [0, n), of `item` bytes lie in [0, nbytes):
// the first and the last do (the offsets are linear in k).
bool strided_in_bounds(int64_t base, int64_t step, int64_t n, int64_t item, int64_t nbytes) {
  if (n <= 0) return n == 0;
  const int64_t last = base + (n - 1) * step;
  return item >= 0 && std::min(base, last) >= 0 && std::max(base, last) <= nbytes - item;
}
}  // namespace

void Storage::ByteFlags::set_strided(int64_t base, int64_t step, int64_t n, int64_t item, int64_t nbytes) {
  SC_ASSERT(strided_in_bounds(base, step, n, item, nbytes));
  if (n == 0 || item == 0) return;
  if (!mask) mask = std::make_shared<std::vector<uint8_t>>(static_cast<size_t>(nbytes), 0);
  uint8_t* m = own().data() + base;
  int64_t added = 0;
  for (int64_t k = 0; k < n; ++k) added += set_ones(m + k * step, item);
  count += added;
}

void Storage::ByteFlags::clear_strided(int64_t base, int64_t step, int64_t n, int64_t item) {
  if (!mask) return;
  SC_ASSERT(strided_in_bounds(base, step, n, item, static_cast<int64_t>(mask->size())));
  uint8_t* m = own().data() + base;
  int64_t cleared = 0;
  for (int64_t k = 0; k < n; ++k) cleared += clear_ones(m + k * step, item);
  count -= cleared;
  if (count == 0) mask.reset();
}

void Storage::ByteFlags::resize(int64_t nbytes) {
  if (mask) own().resize(static_cast<size_t>(nbytes), 0);
}

namespace {
std::atomic<int> undefined_scribble{-1};
}  // namespace

void Storage::set_undefined_scribble(int byte) { undefined_scribble.store(byte, std::memory_order_relaxed); }

void Storage::mark_undefined(int64_t off, int64_t n) {
  undefined_.set(off, n, nbytes_);
  const int scribble = undefined_scribble.load(std::memory_order_relaxed);
  if (scribble >= 0 && device_ == Device::CPU && n > 0) std::memset(data_ + off, scribble, static_cast<size_t>(n));
}
void Storage::mark_defined(int64_t off, int64_t n) { undefined_.clear(off, n); }

void Storage::mark_undefined_strided(int64_t base, int64_t step, int64_t n, int64_t item) {
  undefined_.set_strided(base, step, n, item, nbytes_);
  const int scribble = undefined_scribble.load(std::memory_order_relaxed);
  if (scribble >= 0 && device_ == Device::CPU && item > 0)
    for (int64_t k = 0; k < n; ++k) std::memset(data_ + base + k * step, scribble, static_cast<size_t>(item));
}

void Storage::mark_defined_strided(int64_t base, int64_t step, int64_t n, int64_t item) {
  undefined_.clear_strided(base, step, n, item);
}

void Storage::mark_undefined_at(const std::vector<int64_t>& offsets, int64_t item) {
  if (offsets.empty() || item == 0) return;
  SC_ASSERT(item > 0);
  if (!undefined_.mask) undefined_.mask = std::make_shared<std::vector<uint8_t>>(static_cast<size_t>(nbytes_), 0);
  uint8_t* m = undefined_.own().data();
  auto set_all = [&]<class W>(W) {
    int64_t added = 0;
    for (int64_t off : offsets) {
      SC_ASSERT(off >= 0 && off <= nbytes_ - item);
      added += sizeof(W) == static_cast<size_t>(item) ? word_flags_set<W>(m + off, item) : set_ones(m + off, item);
    }
    undefined_.count += added;
  };
  switch (item) {
    case 2: set_all(uint16_t{}); break;
    case 4: set_all(uint32_t{}); break;
    case 8: set_all(uint64_t{}); break;
    default: set_all(uint8_t{}); break;  // 1 byte or another size: set_ones
  }
  const int scribble = undefined_scribble.load(std::memory_order_relaxed);
  if (scribble >= 0 && device_ == Device::CPU)
    for (int64_t off : offsets) std::memset(data_ + off, scribble, static_cast<size_t>(item));
}
void Storage::mark_nan_choice(int64_t off, int64_t n, uint8_t code) { nan_choice_.set(off, n, nbytes_, code); }
void Storage::clear_nan_choice(int64_t off, int64_t n) { nan_choice_.clear(off, n); }

}  // namespace sc::engine
