#pragma once
// Helpers for the view-op tests: build headers, check geometry, catch errors.
// Expected values in these tests were measured with LibTorch 1.13.1 (C++ and
// the torch 1.13.1 Python build over the same ATen), unless a comment says otherwise.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "engine/creation.h"
#include "engine/error.h"
#include "engine/views.h"

namespace sc::engine::testing {

// arange(prod(sizes)) viewed as `sizes`: contiguous, a view of the arange.
inline Tensor iota(const Shape& sizes, DType dtype = DType::Float32) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return view(arange(n, dtype), sizes);
}

// A non-view tensor with any header over a storage of `nelem` elements.
inline Tensor strided(int64_t nelem, const Shape& sizes, const Shape& strides, int64_t offset = 0,
                      DType dtype = DType::Float32) {
  return make_tensor(Storage::allocate(nelem * itemsize(dtype)), sizes, strides, offset, dtype);
}

struct Geometry {
  Shape sizes, strides;
  int64_t offset = 0;
  bool operator==(const Geometry&) const = default;
};
inline Geometry geometry(const Tensor& t) { return {t.sizes, t.strides, t.storage_offset}; }
inline std::ostream& operator<<(std::ostream& os, const Geometry& g) {
  return os << "sizes " << format_int_list(g.sizes) << " strides " << format_int_list(g.strides) << " offset "
            << g.offset;
}

struct Raised {
  bool raised = false;
  ErrorKind kind = ErrorKind::RuntimeError;
  std::string message;
};
inline Raised raised_by(const std::function<void()>& f) {
  try {
    f();
  } catch (const TorchError& e) {
    return {true, e.kind, e.message};
  }
  return {};
}

// A view of `base`'s root that shares its storage and version counter.
inline void expect_view_of(const Tensor& v, const Tensor& base) {
  EXPECT_TRUE(v.is_view());
  EXPECT_EQ(v.base_id, base.base_id ? base.base_id : std::optional<uint64_t>(base.id));
  EXPECT_EQ(v.storage, base.storage);
  EXPECT_EQ(&v.version(), &base.version());
  EXPECT_NE(v.id, base.id);
}

}  // namespace sc::engine::testing

#define EXPECT_RAISES(stmt, KIND, MSG)                                           \
  do {                                                                           \
    auto r_ = ::sc::engine::testing::raised_by([&] { (void)(stmt); });           \
    EXPECT_TRUE(r_.raised) << #stmt " did not raise";                            \
    EXPECT_EQ(r_.kind, ::sc::engine::ErrorKind::KIND) << r_.message;             \
    EXPECT_EQ(r_.message, MSG);                                                  \
  } while (false)
