// detach and alias: the same geometry on the same storage.
#include "engine/views.h"

namespace sc::engine {

// detach(): a new tensor object sharing storage and version counter. In C++
// LibTorch it is a non-differentiable view: is_view() is false and _base is
// undefined (measured with LibTorch 1.13: x.detach().is_view() == false).
Tensor detach(const Tensor& self) {
  return make_nonview_alias(self, self.sizes, self.strides, self.storage_offset, self.dtype);
}

// alias(): alias_with_sizes_and_strides(self, sizes, strides): a real view.
Tensor alias(const Tensor& self) { return alias_with_sizes_and_strides(self, self.sizes, self.strides); }

}  // namespace sc::engine
