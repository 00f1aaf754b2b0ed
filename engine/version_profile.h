#pragma once
// Which PyTorch the engine imitates (STYLE lesson 13): one profile at a time,
// 1.13, 2.0, 2.5, 2.6, 2.7, 2.8, 2.9, 2.10, 2.11, 2.12, 2.13, 2.14 or 2.15, and one table (version_profile.cpp,
// kChanges) of every behaviour that differs between them, each entry naming the PyTorch change behind it.
//
// Engine code asks `since(Change::X)` ("does the imitated PyTorch have change X?")
// where the behaviours part; never a version number, never a scattered `if`.
//
// The profile is process-wide. Drivers set it once at startup: from the oracle's
// LibTorch version (oracle::register_backends), or from `--semantics VERSION`
// where no oracle runs (replay --against-recorded). Until then it is the newest.
#include <cstdint>
#include <optional>
#if __cplusplus >= 202002L
#include <span>
#endif
#include <string>
#include <string_view>

#include "engine/error.h"

namespace sc::engine {

// A PyTorch release as major.minor (patch releases never change semantics here).
struct PyTorchVersion {
  int major = 0;
  int minor = 0;
  // Spelled out, not `<=> = default`: this header is also compiled as C++17
  // (the oracle's files under clang, CMakeLists.txt).
  friend constexpr bool operator==(const PyTorchVersion& a, const PyTorchVersion& b) {
    return a.major == b.major && a.minor == b.minor;
  }
  friend constexpr bool operator!=(const PyTorchVersion& a, const PyTorchVersion& b) { return !(a == b); }
  friend constexpr bool operator<(const PyTorchVersion& a, const PyTorchVersion& b) {
    return a.major != b.major ? a.major < b.major : a.minor < b.minor;
  }
  friend constexpr bool operator>(const PyTorchVersion& a, const PyTorchVersion& b) { return b < a; }
  friend constexpr bool operator<=(const PyTorchVersion& a, const PyTorchVersion& b) { return !(b < a); }
  friend constexpr bool operator>=(const PyTorchVersion& a, const PyTorchVersion& b) { return !(a < b); }
};
std::string to_string(PyTorchVersion);
// "2.15.0", "2.15", "2.15.0+cu132", "1.13.0a0+git..." -> {2,15}; nullopt when unreadable.
std::optional<PyTorchVersion> parse_pytorch_version(std::string_view);

// Each behaviour that changed between the profiles. Meanings in kChanges.
enum class Change : int {
  ViewShapeErrorNamesIndex,
  DispatchErrorIsNotImplemented,
  BoolNegSubNotImplemented,
  ClampScalarKernelNames,
  HalfScalarOpsInOpmath,
  TransposeProperties0dWarn,
  UnflattenWrapsErrors,
  NarrowChecksStartInRange,
  NarrowLengthNonNegative,
  UnfoldChecksSize,
  LargeNegativeSymInt,
  AsStridedChecksOffsetOverflow,
  UnflattenTakesSymInts,
  CheckedConvertC10Names,
  IndexSelectScalarChecksCount,
  CopySameDataEarlyExit,
  ZerosChecksSizes,
  ArangeBoundMessage,
  ClampHalfSupported,
  ClampNanSingleBound,
  ClampIntegerBoundsSaturate,
  FillTensorValueIsCopy,
  StrideCalculationChecksOverflow,
  ScalarFillReducedFloatUnchecked,
  SplitWithSizesTakesSymInts,
  FloatToIntOverflowsAtMaxPlusOne,
  HeapSymIntInIntArrayRef,
  CopyFloatHalfSkipsOverlapChecks,
  HalfFromFloatKeepsNanPayload,
  HalfToFloatCopyTailAllOnes,
  FloatToHalfCopyTailKeepsPayload,
  ViewDtypeSameDtypeUnchecked,
  ViewDtypeSameDtypeChecked,
  NegReducedFloatVectorFlipsSign,
  DetachCopiesCachedMetadata,
  AsStridedChecksNegativeOffsetFirst,
  SymbolicResultNoPythonError,
  SymbolicResultStorageOffsetError,
  UnsqueezeSymIntGeometry,
  SymbolicResultReadRaises,
  SymbolicResultReadInternalAssert,
  IndexSelectScalarRejectsSeveral,
  NarrowTakesSymInts,
  SelectTakesSymInts,
  SplitTakesSymInt,
  ChunkSymIntArithmetic,
  FbgemmFloatToHalfChunksKeepPayload,
  kCount
};

struct ChangeInfo {
  Change change;
  std::string_view name;     // the enumerator, for reports and tests
  PyTorchVersion since;      // the first profile that has it (or the release that introduced it)
  std::string_view what;     // before -> after, as measured
  std::string_view cause;    // the PyTorch PR/commit, or what was measured where none was found
};

#if __cplusplus >= 202002L  // the C++17 oracle files (clang) use neither table
// Every entry, in enum order.
std::span<const ChangeInfo> version_changes();
const ChangeInfo& change_info(Change);

// The profiles the engine has been checked against: 1.13, 2.0 (not green yet), 2.5, 2.6, 2.7, 2.8,
// 2.9, 2.10, 2.11, 2.12, 2.13, 2.14, 2.15.
std::span<const PyTorchVersion> known_profiles();
#endif

struct ProfileChoice {
  PyTorchVersion profile;  // one of known_profiles()
  std::string asked;       // what the caller gave ("2.11.0")
  bool exact = true;       // false: no profile of its own; the nearest was picked
  // "" when exact; else "PyTorch 2.11 has no profile: the engine imitates 2.15, the nearest".
  std::string note() const;
};
// The profile for a version string; the nearest (by major*100+minor, ties to
// the newer) when there is none of its own. nullopt when `version` is unreadable.
std::optional<ProfileChoice> choose_profile(std::string_view version);

// The process-wide profile.
void set_profile(const ProfileChoice&);
const ProfileChoice& current_profile();
// Sets a profile for its lifetime, then restores the previous one (tests).
class ProfileScope {
 public:
  explicit ProfileScope(std::string_view version);
  ~ProfileScope();
  ProfileScope(const ProfileScope&) = delete;
  ProfileScope& operator=(const ProfileScope&) = delete;

 private:
  ProfileChoice previous_;
};

// Does the imitated PyTorch have this change?
bool since(Change);

// The kind of AT_DISPATCH's '"<kernel>" not implemented for '<dtype>'' error
// (Change::DispatchErrorIsNotImplemented).
ErrorKind dtype_dispatch_error_kind();

}  // namespace sc::engine
