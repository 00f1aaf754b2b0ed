// Laws of the engine's headers that hold for every view chain, without an
// oracle: they read like the spec (DESIGN.md, seeds §3).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "engine/copy.h"
#include "engine/creation.h"
#include "engine/layout.h"
#include "engine/scalar.h"
#include "engine/views.h"
#include "properties/generators.h"
#include "program/parser.h"

namespace sc::properties {
namespace {

using engine::Shape;
using engine::Tensor;

// Called inside a property: draws a rank in [min_rank, max_rank] and sizes in [min_size, max_size].
Shape gen_shape(int min_rank = 0, int max_rank = 4, int64_t min_size = 0, int64_t max_size = 4) {
  auto rank = static_cast<size_t>(*rc::gen::inRange(min_rank, max_rank + 1));
  return *rc::gen::container<Shape>(rank, rc::gen::inRange<int64_t>(min_size, max_size + 1));
}

// Every element of a header, read in row-major order, as doubles.
std::vector<double> elements(const Tensor& t) {
  Tensor c = engine::clone(t, engine::MemoryFormat::Contiguous);
  std::vector<double> out;
  for (int64_t k = 0; k < c.numel(); ++k)
    out.push_back(engine::load_double(c.dtype, c.storage->data() + (c.storage_offset + k) * engine::itemsize(c.dtype)));
  return out;
}

// The highest storage element a header reaches (all strides are >= 0 here).
int64_t max_reach(const Tensor& t) {
  int64_t m = t.storage_offset;
  for (size_t i = 0; i < t.sizes.size(); ++i) m += (t.sizes[i] - 1) * t.strides[i];
  return m;
}

RC_GTEST_PROP(ViewLaws, TransposeIsAnInvolution, ()) {
  Shape s = gen_shape(1);
  Tensor x = engine::empty_strided(s, engine::contiguous_strides(s), engine::DType::Float32);
  int64_t r = static_cast<int64_t>(s.size());
  int64_t a = *rc::gen::inRange<int64_t>(-r, r), b = *rc::gen::inRange<int64_t>(-r, r);
  Tensor y = engine::transpose(engine::transpose(x, a, b), a, b);
  RC_ASSERT(y.sizes == x.sizes);
  RC_ASSERT(y.strides == x.strides);
  RC_ASSERT(y.storage == x.storage);
  RC_ASSERT(y.base_id == std::optional<uint64_t>(x.id));  // _base is the root
}

RC_GTEST_PROP(ViewLaws, ReshapeKeepsRowMajorElements, ()) {
  Shape s = gen_shape();
  Tensor x = engine::empty_strided_iota(s, engine::contiguous_strides(s), engine::DType::Float64);
  int64_t r = static_cast<int64_t>(s.size());
  if (r >= 2) x = engine::transpose(x, 0, r - 1);  // often not viewable any more
  Tensor y = engine::reshape(x, {-1});
  RC_ASSERT(elements(y) == elements(x));
  // A view shares storage; a copy is contiguous and fresh.
  RC_ASSERT((y.storage == x.storage) == y.is_view());
  RC_ASSERT(engine::is_contiguous(y));
}

RC_GTEST_PROP(ViewLaws, ViewsStayInsideTheirStorage, ()) {
  Shape s = gen_shape(1, 3, 1, 4);
  Tensor x = engine::empty_strided_iota(s, engine::contiguous_strides(s), engine::DType::Int32);
  int64_t d = *rc::gen::inRange<int64_t>(0, static_cast<int64_t>(s.size()));
  int64_t start = *rc::gen::inRange<int64_t>(0, s[d]);
  int64_t step = *rc::gen::inRange<int64_t>(1, 4);
  Tensor v = engine::slice(x, d, start, std::nullopt, step);
  RC_ASSERT(v.storage == x.storage);
  if (v.numel() > 0) {
    RC_ASSERT(max_reach(v) * engine::itemsize(v.dtype) < v.storage->nbytes());
    // element 0 of the slice is element `start` of the input along d
    RC_ASSERT(v.storage_offset == start * x.strides[d]);
  }
}

RC_GTEST_PROP(LayoutLaws, ContiguousImpliesNonOverlappingAndDense, ()) {
  Shape s = gen_shape();
  Shape st = *rc::gen::container<Shape>(s.size(), rc::gen::inRange<int64_t>(0, 30));
  if (engine::is_contiguous(s, st) || engine::is_channels_last_contiguous(s, st))
    RC_ASSERT(engine::is_non_overlapping_and_dense(s, st));
}

RC_GTEST_PROP(ProgramLaws, PrintThenParseGivesTheSameProgram, (const GeneratedProgram& g)) {
  std::string text = print_program(g.program);
  Program back = parse_program(text, "<generated>");
  RC_ASSERT(back.same_as(g.program));
}

}  // namespace
}  // namespace sc::properties
