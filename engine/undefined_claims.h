#pragma once
// The engine's undefined claims, as records a driver can check by brute force
// (program/undefined_check.h). The exact overlap solver (engine/overlap.h) and
// the undefined-contents flow (engine/undefined.h) decide which bytes the diff
// skips; a wrong "overlaps" answer silently hides comparisons, and both
// backends call the same solver, so the diff alone never notices. While a
// ClaimLog is alive on a thread, every such decision the engine takes on that
// thread -- "these bytes are undefined" and "nothing here is undefined" alike
// -- is recorded with the geometry it was taken on.
#include <cstdint>
#include <vector>

#include "engine/overlap.h"
#include "engine/overlap_brute_force.h"
#include "engine/tensor.h"

namespace sc::engine {

// Claims on tensors of at most this many elements are checked by enumeration;
// larger ones are recorded without the snapshot a check needs.
inline constexpr int64_t kBruteForceElements = kBruteForceMaxElements;

// A header's geometry without its storage: element i of the index space lives
// at bytes [(storage_offset + sum_d i_d * strides[d]) * itemsize, ... + itemsize).
struct ClaimGeometry {
  Shape sizes, strides;
  int64_t storage_offset = 0;
  int64_t itemsize = 1;
  const void* storage = nullptr;  // identity only (which storage), never read through
};
ClaimGeometry geometry_of(const Tensor&);

struct UndefinedClaim {
  enum class Kind {
    // `written` (an op's output, not idempotent): does a memory location
    // belong to two index tuples? `answer`; for Yes, `marked` holds the byte
    // offsets of the elements marked undefined as written more than once.
    InternalOverlap,
    // `written` and `input` on one storage, not lined up: do they share a
    // byte? `answer` (Yes or TooHard marks all of `written` undefined).
    InputOverlap,
    // `written` and `input` on one storage, taken as lined up (every element
    // reads exactly its own bytes), so nothing is marked undefined.
    InputAligned,
    // `written` and `input` on one storage, both dense with the same element
    // order, converted element by element in memory order by a loop of
    // unknown vector width (copy_'s fbgemm float32 <-> float16 path): `marked`
    // holds the byte offsets of the written elements whose input bytes an
    // earlier element writes (what they read depends on the width); every
    // other element reads its input before anything overwrites it.
    InputReadInMemoryOrder,
    // `written` reads `input` broadcast to written's sizes: `marked` holds the
    // byte offsets of the elements of `written` whose read element is
    // undefined (a flagged byte in `window_mask`, or a bool byte other than
    // 0/1 in `window_bytes`).
    ReadsUndefined,
    // An op that writes (copy_, fill_, clamp_, an elementwise result) begins:
    // the claims up to its WriteDone are that write's.
    WriteBegin,
    // The op wrote `written`: `window_mask` holds the written storage's
    // undefined flags over [window_begin, ...) (empty: none), so a check can
    // tell that the elements left undefined are exactly those the write's
    // claims justify (over-claiming hides comparisons, too).
    WriteDone,
  };
  Kind kind = Kind::InternalOverlap;
  ClaimGeometry written, input;
  MemOverlap answer = MemOverlap::No;
  std::vector<int64_t> marked;
  // ReadsUndefined: the input storage's undefined flags (empty: all defined)
  // and, for a bool input, its bytes, over [window_begin, window_begin + n).
  bool input_is_bool = false;
  int64_t window_begin = 0;
  std::vector<uint8_t> window_mask, window_bytes;
  // False when the claim was too big to snapshot: it is not checked.
  bool checkable = true;
};

// Records the claims taken on this thread while alive (one log per thread at a time).
class ClaimLog {
 public:
  ClaimLog();
  ~ClaimLog();
  ClaimLog(const ClaimLog&) = delete;
  ClaimLog& operator=(const ClaimLog&) = delete;
  const std::vector<UndefinedClaim>& claims() const { return claims_; }
  void clear() { claims_.clear(); }

 private:
  friend void record_claim(UndefinedClaim);
  std::vector<UndefinedClaim> claims_;
};

// For the engine's writing ops: the claims taken inside the outermost scope
// are one write's; done(written) records the state it left (WriteDone). An op
// that raises records no WriteDone (the next WriteBegin starts afresh).
class WriteScope {
 public:
  WriteScope();
  ~WriteScope();
  WriteScope(const WriteScope&) = delete;
  WriteScope& operator=(const WriteScope&) = delete;
  void done(const Tensor& written);

 private:
  bool active_ = false;
};

// For the engine: is a log recording on this thread? Record one claim.
bool claims_recorded();
void record_claim(UndefinedClaim);

// The ReadsUndefined claim for elements_reading_undefined(written, read) -> marked.
void record_reads_undefined(const Tensor& written, const Tensor& read, const std::vector<int64_t>& marked);

}  // namespace sc::engine
