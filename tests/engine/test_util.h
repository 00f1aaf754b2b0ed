#pragma once
// Helpers for the data-op tests: read elements of any dtype as double.
#include <functional>
#include <string>
#include <vector>

#include "engine/error.h"
#include "engine/scalar.h"
#include "engine/tensor.h"

namespace sc::engine::testing {

inline std::vector<double> values(const Tensor& t) {
  std::vector<double> out;
  const int64_t n = t.numel();
  for (int64_t k = 0; k < n; ++k) {
    int64_t rem = k, off = t.storage_offset;
    for (size_t d = t.sizes.size(); d-- > 0;) {
      off += (rem % t.sizes[d]) * t.strides[d];
      rem /= t.sizes[d];
    }
    out.push_back(load_double(t.dtype, t.storage->data() + off * itemsize(t.dtype)));
  }
  return out;
}

inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const TorchError& e) {
    return e.message;
  }
  return "";
}

}  // namespace sc::engine::testing
