// detach and alias: the same geometry on the same storage.
#include "engine/views.h"
#include "engine/version_profile.h"

namespace sc::engine {

// detach(): a new tensor object sharing storage and version counter. In C++
// LibTorch it is a non-differentiable view: is_view() is false and _base is
// undefined (measured with LibTorch 1.13: x.detach().is_view() == false).
// 2.x copies the cached metadata (copy_tensor_metadata), stale layout flags
// included; 1.13 refreshes numel (raising its overflow) and the flags
// (Change::DetachCopiesCachedMetadata, Note [stale layout flags]).
Tensor detach(const Tensor& self) {
  if (!since(Change::DetachCopiesCachedMetadata)) check_numel(self.sizes);
  Tensor t = make_nonview_alias(self, self.sizes, self.strides, self.storage_offset, self.dtype);
  if (since(Change::DetachCopiesCachedMetadata)) {
    t.stale_layout = self.stale_layout;
    t.stale_numel = self.stale_numel;
  }
  return t;
}

// alias(): alias_with_sizes_and_strides(self, sizes, strides): a real view.
Tensor alias(const Tensor& self) { return alias_with_sizes_and_strides(self, self.sizes, self.strides); }

}  // namespace sc::engine
