#pragma once
// The Observation trace: what each backend reports after every step, and what
// the diff compares (DESIGN.md "The Observation trace").
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace sc {

// LibTorch's MemOverlap: an answer that may be "too hard" (STYLE lesson 3).
enum class Overlap { No, Yes, TooHard };
std::string_view overlap_name(Overlap);

struct TensorObs {
  std::string dtype;  // "float32", ...
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  int64_t storage_offset = 0;
  bool contiguous = false;        // is_contiguous()
  bool channels_last = false;     // is_contiguous(channels_last)
  bool channels_last_3d = false;  // is_contiguous(channels_last_3d)
  bool non_overlapping_and_dense = false;
  // The earlier program value that is this very tensor object (x.contiguous() is x), or "".
  std::string same_as;
  bool is_view = false;
  // The program value that is this tensor's _base; "" when not a view, "?" when
  // _base is no program value.
  std::string base;
  int storage = -1;  // storages are numbered in order of first appearance
  Overlap torch_overlap = Overlap::No;  // has_internal_overlap as LibTorch answers it
  Overlap exact_overlap = Overlap::No;  // the exact answer (TooHard past the work bound)

  bool operator==(const TensorObs&) const = default;
};

// Note [Masks shared as snapshots]: one flag per byte of a storage (its
// undefined bytes, its NaN choices), read like a const std::vector<uint8_t>.
// The engine keeps its masks behind a shared pointer and copies one only when
// it writes to it while an observation still holds it
// (engine::Storage::undefined_snapshot), so after each step every storage
// shares its masks with the step before instead of copying them into every
// StepObs (0.54 M instructions per 64 fuzz programs, issue 10). Writing
// through edit() copies the flags first when they are shared (copy on write):
// a mask read by one trace never changes under it.
class ByteMask {
 public:
  ByteMask() = default;
  ByteMask(std::vector<uint8_t> flags)  // NOLINT: a mask is read and built as its vector
      : flags_(flags.empty() ? nullptr : std::make_shared<std::vector<uint8_t>>(std::move(flags))) {}
  ByteMask(std::initializer_list<uint8_t> flags) : ByteMask(std::vector<uint8_t>(flags)) {}
  // The engine's own snapshot, shared (null or empty: no flags).
  static ByteMask shared(std::shared_ptr<const std::vector<uint8_t>> snapshot) {
    ByteMask m;
    if (snapshot && !snapshot->empty()) m.flags_ = std::move(snapshot);
    return m;
  }

  const std::vector<uint8_t>& get() const { return flags_ ? *flags_ : none(); }
  operator const std::vector<uint8_t>&() const { return get(); }  // NOLINT
  bool empty() const { return !flags_ || flags_->empty(); }
  size_t size() const { return flags_ ? flags_->size() : 0; }
  const uint8_t* data() const { return get().data(); }
  uint8_t operator[](size_t k) const { return (*flags_)[k]; }
  auto begin() const { return get().begin(); }
  auto end() const { return get().end(); }
  bool operator==(const ByteMask& o) const { return flags_ == o.flags_ || get() == o.get(); }
  // The very same flags (one snapshot), not only equal ones.
  bool same_flags(const ByteMask& o) const { return flags_ == o.flags_; }

  // The flags to write, copied first when another mask shares them.
  std::vector<uint8_t>& edit() {
    if (!flags_) flags_ = std::make_shared<std::vector<uint8_t>>();
    else if (flags_.use_count() > 1) flags_ = std::make_shared<std::vector<uint8_t>>(*flags_);
    // Only this mask holds the flags now; every vector behind a ByteMask was
    // made non-const (here, in the constructor, or by the engine's storage).
    return const_cast<std::vector<uint8_t>&>(*flags_);
  }
  void assign(size_t n, uint8_t value) { edit().assign(n, value); }
  void clear() { flags_.reset(); }

 private:
  // A namespace-scope constant, not a function's static: no guard to check on every read.
  static const std::vector<uint8_t>& none() { return kNoFlags; }
  static inline const std::vector<uint8_t> kNoFlags;
  std::shared_ptr<const std::vector<uint8_t>> flags_;
};

struct StorageObs {
  int id = -1;
  int64_t nbytes = 0;
  bool has_contents = true;     // false on the meta device
  std::vector<uint8_t> bytes;   // full contents when has_contents
  ByteMask undefined;  // one flag per byte, empty when all are defined
  // One flag per byte, empty when none: NaNs whose bits the compiled loops
  // choose (engine/nan_choice.h); the diff compares them as NaNs.
  ByteMask nan_choice;
  // The byte offset of the first element flagged in nan_choice that holds no
  // NaN of its flagged dtype (Note [Chosen NaNs checked],
  // program/chosen_nans.h); -1: none (or not checked).
  int64_t chosen_nan_number = -1;
  uint64_t hash = 0;            // contents_hash of the bytes (undefined ones read as 0)
};

enum class Outcome {
  Ok,          // ran; results (possibly none, for in-place ops without a bound name)
  Error,       // raised: error_kind and error_message
  Skipped,     // an input name is unbound (an earlier step raised)
  OverBudget,  // would allocate past the budget: not run (note says why)
  TimedOut,    // ran past the step time limit
  Refused,     // the backend declined to run it (it would crash or corrupt memory): note says why
};
std::string_view outcome_name(Outcome);

struct StepObs {
  Outcome outcome = Outcome::Ok;
  std::vector<TensorObs> results;
  std::string error_kind;     // "RuntimeError", "IndexError", ...
  std::string error_message;  // without backtrace or "Exception raised from" lines
  std::vector<std::string> warnings;
  // After the step: every bound program value's version counter, in binding order.
  std::vector<std::pair<std::string, int64_t>> versions;
  // After the step: every live storage, in storage-number order.
  std::vector<StorageObs> storages;
  // LibTorch documents the step's result as undefined (in-place op on a tensor
  // whose elements overlap): the diff skips the undefined bytes and reports it.
  bool undefined = false;
  std::string undefined_reason;
  std::string note;  // why it was skipped / over budget
};

struct Trace {
  std::string backend;          // "engine:cpu", "libtorch:cpu", ...
  std::string backend_version;  // "stridecheck engine 0.1.0", "LibTorch 1.13.1"
  std::vector<StepObs> steps;
  // RunOptions::observe_written_only found a storage changed that a step
  // carried unread: the hashes may be stale; run again without it (Note
  // [Observing only the storages a step may write], program/traced_backend.h).
  bool stale = false;
};

// A 64-bit hash of n bytes, eight at a time (it runs after every step on every
// storage, so it bounds the fuzzer's speed); bytes whose mask flag is set read as 0.
uint64_t contents_hash(const uint8_t* data, size_t n, const uint8_t* undefined_mask);

}  // namespace sc
