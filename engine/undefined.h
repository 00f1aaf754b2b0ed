#pragma once
// Undefined contents flow: where a kernel reads bytes whose contents LibTorch
// leaves undefined (empty_like before it is written, locations written twice
// through an overlapping view), what it writes from them is undefined too, so
// the diff never compares values computed from garbage.
#include <cstdint>
#include <vector>

#include "engine/tensor.h"

namespace sc::engine {

// Byte offsets (in written's storage) of the elements of `written` whose
// corresponding element of `read` (broadcast to written's sizes) is undefined:
// an undefined byte, or a bool byte other than 0 and 1. Empty at once when
// read's storage is fully defined and read is not bool (the common case).
// A read of bytes flagged as a chosen NaN counts as undefined too, unless it
// reads that NaN in its own floating dtype: an integer or bool read, or a
// floating one at another width or format (Note [NaN choices read as
// integers], undefined.cpp).
std::vector<int64_t> elements_reading_undefined(const Tensor& written, const Tensor& read);
// May `read` see chosen NaN bits as other data (its storage has flags)? The
// rule per element is engine::reads_chosen_bits_as_other_data (nan_choice.h).
bool reads_nan_choice_bits(const Tensor& read);

// Marks each element starting at those byte offsets undefined.
void mark_elements_undefined(const Tensor& written, const std::vector<int64_t>& byte_offsets);

}  // namespace sc::engine
