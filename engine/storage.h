#pragma once
// Storage: reference-counted bytes on a device (c10::StorageImpl).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace sc::engine {

enum class Device : uint8_t { CPU, CUDA };

// The version counter shared by a tensor, its views and its detach()es
// (c10::VariableVersion): bumped by every in-place op. It lives in the
// storage (Note [one version counter per storage] in engine/tensor.h).
struct VersionCounter {
  int64_t value = 0;
};

// Note [Poisoned fresh storage]: allocate_for_overwrite's bytes are whatever
// the heap held, so a kernel that leaves one of them unwritten (a lost piece
// of a parallel loop, an off-by-one) writes a value that depends on the
// process's history: a finding that the fuzzer saw and its triage, in a fresh
// process, does not (fresh pages are zero). With poisoning on, those bytes
// are kPoisonByte instead, the same in every run. The harness's engine
// backend switches it on (program/engine_backend.cpp); the engine as a
// library leaves it off, which is the point of allocate_for_overwrite. CPU
// storages only.
inline constexpr unsigned char kPoisonByte = 0xa5;
void set_poison_fresh_storage(bool on);
bool poison_fresh_storage();

class Storage {
 public:
  // Zero-filled bytes. CUDA storages live in device memory (engine/kernels/cuda).
  static std::shared_ptr<Storage> allocate(int64_t nbytes, Device device = Device::CPU);
  // Bytes with unspecified contents, for a caller that writes every one of
  // them at once (a copy into a fresh dense tensor): saves the zero-fill pass.
  static std::shared_ptr<Storage> allocate_for_overwrite(int64_t nbytes, Device device = Device::CPU);
  // Bytes left as the heap holds them, not even poisoned: only for a creation
  // op whose own loop writes every byte right away, before anything can read
  // one (arange, full, empty_strided's 0,1,2,...), so no byte is ever seen
  // unwritten (Note [Poisoned fresh storage] has nothing to catch there).
  static std::shared_ptr<Storage> allocate_unfilled(int64_t nbytes, Device device = Device::CPU);

  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  int64_t nbytes() const { return nbytes_; }
  Device device() const { return device_; }
  std::byte* data() { return data_; }
  const std::byte* data() const { return data_; }

  // The version counter of every tensor on this storage (Note [one version
  // counter per storage] in engine/tensor.h); a fresh storage starts at 0.
  VersionCounter& version() { return version_; }
  const VersionCounter& version() const { return version_; }

  // Bytes whose contents LibTorch leaves undefined (empty_like before it is
  // written, elements written twice by an in-place op on an overlapping view).
  // Empty means every byte is defined; otherwise one flag per byte.
  const std::vector<uint8_t>& undefined_mask() const { return undefined_.flags(); }
  // The same flags as a snapshot that stays as it is: the storage copies
  // them before its next change while a snapshot is held (Note [Masks shared
  // as snapshots] in program/observation.h). Null when every byte is defined.
  std::shared_ptr<const std::vector<uint8_t>> undefined_snapshot() const { return undefined_.mask; }
  void mark_undefined(int64_t byte_offset, int64_t nbytes);
  void mark_defined(int64_t byte_offset, int64_t nbytes);
  bool has_undefined_bytes() const { return undefined_.mask != nullptr; }
  // The same flags as mark_undefined / mark_defined(base + k * step, item)
  // for k in [0, n), and as mark_undefined(off, item) for each of `offsets`,
  // in one call: the undefined-contents flow marks element by element, up to
  // tens of thousands of elements a step (issue 10).
  void mark_undefined_strided(int64_t base, int64_t step, int64_t n, int64_t item);
  void mark_defined_strided(int64_t base, int64_t step, int64_t n, int64_t item);
  void mark_undefined_at(const std::vector<int64_t>& offsets, int64_t item);
  // A check of the undefined-contents flow (properties/undefined_scribble_test.cpp):
  // with a byte value 0..255 set, mark_undefined on a CPU storage also
  // overwrites the marked bytes with it, so a value computed from undefined
  // bytes that the engine forgot to mark differs between two runs with two
  // values. -1 (the default) leaves the bytes alone. Process-wide.
  static void set_undefined_scribble(int byte);

  // Bytes of NaNs whose sign and payload LibTorch's compiled loops choose
  // (Note [NaN operand choice] in engine/nan_choice.h). Empty means none;
  // otherwise one flag per byte: 0, or the code of the dtype the flagged NaN
  // was written as (engine::nan_choice_code; Note [NaN choices read as
  // integers] in engine/undefined.cpp tells reads at another width by it).
  const std::vector<uint8_t>& nan_choice_mask() const { return nan_choice_.flags(); }
  std::shared_ptr<const std::vector<uint8_t>> nan_choice_snapshot() const { return nan_choice_.mask; }
  void mark_nan_choice(int64_t byte_offset, int64_t nbytes, uint8_t code);
  void clear_nan_choice(int64_t byte_offset, int64_t nbytes);
  bool has_nan_choice() const { return nan_choice_.mask != nullptr; }

  // Grow to `nbytes` in place, keeping the contents (resize_bytes_cpu /
  // resize_bytes_cuda, as an out= tensor's resize_ does); the new bytes are zero.
  void resize_bytes(int64_t nbytes);

  // Host copies of bytes [offset, offset + n), whatever the device (a CUDA
  // storage is read back: the Observation's contents, a 0-d fill_ value).
  void read(int64_t offset, int64_t n, std::byte* host) const;
  // Overwrites bytes [offset, offset + n) from the host (creation ops build
  // their contents on the host, then move them to the device).
  void write(int64_t offset, int64_t n, const std::byte* host);

 private:
  enum class Fill : uint8_t { Zero, PoisonWhenOn, None };
  Storage(int64_t nbytes, Device device, Fill fill);
  int64_t nbytes_;
  Device device_;
  std::byte* data_ = nullptr;
  VersionCounter version_;
  // One flag per byte, allocated on the first set and dropped when the last
  // one clears; `count` (flags set) makes noticing the last clear O(1).
  // A set flag holds a nonzero value (1 for the undefined flags). The flags
  // may be shared with snapshots (undefined_snapshot): a change copies them
  // first while one is held (own()).
  struct ByteFlags {
    std::shared_ptr<std::vector<uint8_t>> mask;  // null: no flag set
    int64_t count = 0;
    const std::vector<uint8_t>& flags() const;  // empty when null
    std::vector<uint8_t>& own();  // mask's flags, copied first when a snapshot shares them; mask not null
    void set(int64_t off, int64_t n, int64_t nbytes, uint8_t value = 1);
    void clear(int64_t off, int64_t n);
    // set(base + k * step, item, nbytes) and clear(...) for k in [0, n).
    void set_strided(int64_t base, int64_t step, int64_t n, int64_t item, int64_t nbytes);
    void clear_strided(int64_t base, int64_t step, int64_t n, int64_t item);
    void resize(int64_t nbytes);  // keeps an empty mask empty
  };
  ByteFlags undefined_;
  ByteFlags nan_choice_;
};

// True when engine/kernels/cuda is linked in and installed (CUDA storages and kernels exist).
bool cuda_kernels_built();

}  // namespace sc::engine
