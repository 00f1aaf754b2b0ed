// Each op of program/ops.h runs on LibTorch with the meaning DESIGN.md gives
// it; the expected values were measured with LibTorch 1.13.1.
#include <gtest/gtest.h>
#include <torch/version.h>

#include <cstring>

#include "oracle/oracle.h"
#include "oracle/torch_ops.h"
#include "program/backend.h"
#include "program/ops.h"
#include "program/parser.h"
#include "tests/oracle/oracle_test_util.h"

namespace sc::oracle {
namespace {

using V = std::vector<int64_t>;

using test_util::run;

const StepObs& last(const Trace& t) { return t.steps.back(); }

const TensorObs& result(const Trace& t, size_t i = 0) {
  EXPECT_EQ(last(t).outcome, Outcome::Ok) << last(t).error_kind << ": " << last(t).error_message;
  return last(t).results.at(i);
}

template <class E>
std::vector<E> elements(const StorageObs& s) {
  std::vector<E> out(s.bytes.size() / sizeof(E));
  std::memcpy(out.data(), s.bytes.data(), out.size() * sizeof(E));
  return out;
}

// The contents of the storage that result i of the last step lives in.
template <class E>
std::vector<E> contents(const Trace& t, size_t i = 0) {
  int id = result(t, i).storage;
  for (const StorageObs& s : last(t).storages)
    if (s.id == id) return elements<E>(s);
  ADD_FAILURE() << "no storage " << id;
  return {};
}

// ---- creation

TEST(TorchCreation, ArangeIsFloat32UnlessDtypeIsGiven) {
  Trace t = run("a = arange 4");
  EXPECT_EQ(result(t).dtype, "float32");
  EXPECT_EQ(contents<float>(t), (std::vector<float>{0, 1, 2, 3}));
  Trace u = run("a = arange 3 dtype=int64");
  EXPECT_EQ(result(u).dtype, "int64");
  EXPECT_EQ(contents<int64_t>(u), (std::vector<int64_t>{0, 1, 2}));
}

TEST(TorchCreation, ZerosOnesFull) {
  Trace t = run("a = full [2,2] 7 dtype=int32");
  EXPECT_EQ(result(t).dtype, "int32");
  EXPECT_EQ(contents<int32_t>(t), (std::vector<int32_t>{7, 7, 7, 7}));
  EXPECT_EQ(contents<float>(run("a = ones [3]")), (std::vector<float>{1, 1, 1}));
  EXPECT_EQ(result(run("a = full [2] 1")).dtype, "float32");
  EXPECT_EQ(result(run("a = zeros [2,3] dtype=float64")).strides, (V{3, 1}));
}

TEST(TorchCreation, FullChecksOverflowLikeLibTorch) {
  Trace t = run("a = full [2] 300 dtype=uint8");
  EXPECT_EQ(last(t).error_message, "value cannot be converted to type uint8_t without overflow");
}

// torch.tensor: any float -> float32, else ints -> int64, else bool; a number is 0-d.
TEST(TorchCreation, TensorInfersItsDtypeLikeTorchTensor) {
  EXPECT_EQ(result(run("a = tensor [1,2.5]")).dtype, "float32");
  EXPECT_EQ(result(run("a = tensor [1,2]")).dtype, "int64");
  EXPECT_EQ(result(run("a = tensor [true,false]")).dtype, "bool");
  EXPECT_EQ(result(run("a = tensor [true,2]")).dtype, "int64");
  EXPECT_EQ(result(run("a = tensor []")).dtype, "float32");
  EXPECT_EQ(result(run("a = tensor []")).sizes, V{0});
  Trace zero_d = run("a = tensor 5");
  EXPECT_EQ(result(zero_d).dtype, "int64");
  EXPECT_TRUE(result(zero_d).sizes.empty());
  EXPECT_FALSE(result(zero_d).is_view);
  EXPECT_EQ(contents<int64_t>(zero_d), std::vector<int64_t>{5});
}

// torch.tensor(values, dtype=D) stores each value with Python's conversions.
TEST(TorchCreation, TensorConvertsValuesLikeTorchTensor) {
  EXPECT_EQ(contents<int32_t>(run("a = tensor [1.7,-1.7] dtype=int32")), (std::vector<int32_t>{1, -1}));
  EXPECT_EQ(contents<uint8_t>(run("a = tensor [-1] dtype=uint8")), std::vector<uint8_t>{255});
  EXPECT_EQ(last(run("a = tensor [10000000000.0] dtype=int32")).error_message,
            "value cannot be converted to type int32 without overflow");
  EXPECT_EQ(contents<uint8_t>(run("a = tensor [2,0] dtype=bool")), (std::vector<uint8_t>{1, 0}));
  EXPECT_EQ(contents<float>(run("a = tensor true dtype=float32")), std::vector<float>{1});
}

// empty_strided fills its whole storage 0,1,2,... in storage order.
TEST(TorchCreation, EmptyStridedFillsItsStorageInOrder) {
  Trace t = run("a = empty_strided [2,2] [1,3]");
  EXPECT_EQ(result(t).strides, (V{1, 3}));
  EXPECT_EQ(contents<float>(t), (std::vector<float>{0, 1, 2, 3, 4}));  // needs 1*1 + 1*3 + 1 elements
  Trace u = run("a = empty_strided [3] [2] dtype=int16");
  EXPECT_EQ(contents<int16_t>(u), (std::vector<int16_t>{0, 1, 2, 3, 4}));
}

// ---- views

TEST(TorchViews, SqueezeAllVersusOneDim) {
  EXPECT_EQ(result(run("a = zeros [1,3,1]\nb = squeeze a")).sizes, V{3});
  EXPECT_EQ(result(run("a = zeros [1,3,1]\nb = squeeze a 2")).sizes, (V{1, 3}));
  EXPECT_EQ(result(run("a = zeros [1,3,1]\nb = squeeze a 1")).sizes, (V{1, 3, 1}));
}

TEST(TorchViews, SplitBySizeOrBySizes) {
  Trace t = run("a = arange 5\nb, c, d = split a 2");
  ASSERT_EQ(last(t).results.size(), 3u);
  EXPECT_EQ(last(t).results[2].sizes, V{1});
  EXPECT_EQ(last(t).results[2].storage_offset, 4);
  Trace u = run("a = arange 5\nb, c = split a [1,4]");
  ASSERT_EQ(last(u).results.size(), 2u);
  EXPECT_EQ(last(u).results[1].sizes, V{4});
  EXPECT_EQ(last(u).results[1].storage_offset, 1);
}

TEST(TorchViews, ChunkAndUnbind) {
  Trace t = run("a = arange 6\nb = view a [2,3]\nc, d, e = unbind b 1");
  ASSERT_EQ(last(t).results.size(), 3u);
  EXPECT_EQ(last(t).results[1].strides, V{3});
  EXPECT_EQ(last(t).results[1].storage_offset, 1);
  EXPECT_EQ(last(run("a = arange 5\nb, c, d = chunk a 3")).results.size(), 3u);
}

TEST(TorchViews, ViewAsAnotherDtype) {
  Trace t = run("a = arange 4\nb = view a dtype=int16");
  EXPECT_EQ(result(t).dtype, "int16");
  EXPECT_EQ(result(t).sizes, V{8});
  EXPECT_EQ(result(t).storage, 0);
}

// as_strided's offset defaults to the input's storage_offset and is absolute.
TEST(TorchViews, AsStridedOffset) {
  EXPECT_EQ(result(run("a = arange 10\nb = slice a 0 2\nc = as_strided b [2] [1]")).storage_offset, 2);
  EXPECT_EQ(result(run("a = arange 10\nb = slice a 0 2\nc = as_strided b [2] [1] 1")).storage_offset, 1);
  Trace t = run("a = arange 10\nw = as_strided a [4,4] [3,1] 0");
  EXPECT_EQ(last(t).error_message,
            "setStorage: sizes [4, 4], strides [3, 1], storage offset 0, and itemsize 4 requiring a storage size of "
            "52 are out of bounds for storage of size 40");
}

TEST(TorchViews, SliceDefaultsAndSteps) {
  Trace t = run("a = arange 24\nb = view a [2,3,4]\nc = slice b 2 none none 2");
  EXPECT_EQ(result(t).sizes, (V{2, 3, 2}));
  EXPECT_EQ(result(t).strides, (V{12, 4, 2}));
  EXPECT_EQ(result(run("a = arange 10\nb = slice a")).sizes, V{10});
  EXPECT_EQ(result(run("a = arange 10\nb = slice a 0 -3")).storage_offset, 7);
}

TEST(TorchViews, MovedimWithIntsOrLists) {
  EXPECT_EQ(result(run("a = zeros [2,3,4]\nb = movedim a 0 2")).sizes, (V{3, 4, 2}));
  EXPECT_EQ(result(run("a = zeros [2,3,4]\nb = movedim a [0,1] [2,0]")).sizes, (V{3, 4, 2}));
}

TEST(TorchViews, TransposesOfSeveralKinds) {
  EXPECT_EQ(result(run("a = zeros [2,3,4]\nb = mT a")).strides, (V{12, 1, 4}));  // seed
  EXPECT_EQ(result(run("a = zeros [2,3,4]\nb = T a")).strides, (V{1, 4, 12}));
  EXPECT_EQ(result(run("a = zeros [2,3]\nb = t a")).strides, (V{1, 3}));
  EXPECT_EQ(result(run("a = zeros [2,3,4]\nb = permute a [2,0,1]")).strides, (V{1, 12, 4}));
}

TEST(TorchViews, UnfoldAndDiagonal) {
  Trace t = run("a = arange 10\nu = unfold a 0 4 2");  // seed fence 5
  EXPECT_EQ(result(t).sizes, (V{4, 4}));
  EXPECT_EQ(result(t).strides, (V{2, 1}));
  EXPECT_EQ(result(run("a = arange 12\nb = view a [3,4]\nd = diagonal b")).strides, V{5});
}

TEST(TorchViews, AliasIsAViewOfItsInput) {
  Trace t = run("a = arange 4\nb = alias a");
  EXPECT_TRUE(result(t).is_view);
  EXPECT_EQ(result(t).base, "a");
  EXPECT_EQ(result(t).same_as, "");
}

TEST(TorchViews, OtherViewOps) {
  EXPECT_EQ(result(run("a = arange 6\nb = zeros [3,2]\nc = view_as a b")).sizes, (V{3, 2}));
  EXPECT_EQ(result(run("a = zeros [2,3,4]\nb = flatten a 1")).sizes, (V{2, 12}));
  EXPECT_EQ(result(run("a = zeros [2,12]\nb = unflatten a 1 [3,4]")).strides, (V{12, 4, 1}));
  EXPECT_EQ(result(run("a = zeros [3]\nb = zeros [2,3]\nc = expand_as a b")).strides, (V{0, 1}));
  EXPECT_EQ(result(run("a = zeros [3]\nb = broadcast_to a [2,3]")).strides, (V{0, 1}));
  EXPECT_EQ(result(run("a = zeros [3]\nb = unsqueeze a 1")).strides, (V{1, 1}));
  EXPECT_EQ(result(run("a = arange 10\nb = narrow a 0 2 3")).storage_offset, 2);
  EXPECT_EQ(result(run("a = arange 6\nb = reshape a [3,2]")).storage, 0);
}

// ---- copies

TEST(TorchCopies, CloneAndToPreserveLayoutUnlessTold) {
  const char* setup = "a = arange 24\nb = view a [2,3,4]\nc = transpose b 0 2\n";
  EXPECT_EQ(result(run(std::string(setup) + "d = clone c")).strides, (V{1, 4, 12}));
  EXPECT_EQ(result(run(std::string(setup) + "d = clone c format=contiguous")).strides, (V{6, 2, 1}));
  EXPECT_EQ(result(run(std::string(setup) + "d = empty_like c")).strides, (V{1, 4, 12}));
  Trace t = run(std::string(setup) + "d = to c dtype=float64");
  EXPECT_EQ(result(t).dtype, "float64");
  EXPECT_EQ(result(t).strides, (V{1, 4, 12}));
  EXPECT_EQ(result(run("a = arange 3\nb = to a dtype=float32")).same_as, "a");  // nothing to do: self
}

TEST(TorchCopies, ContiguousWithAFormat) {
  Trace t = run("a = arange 120\nb = view a [2,3,4,5]\nc = contiguous b format=channels_last");
  EXPECT_EQ(result(t).strides, (V{60, 1, 15, 3}));
  Trace u = run("a = arange 240\nb = view a [2,3,2,4,5]\nc = contiguous b format=channels_last_3d");
  EXPECT_TRUE(result(u).channels_last_3d);
}

TEST(TorchCopies, RepeatIndexSelectFlip) {
  Trace t = run("a = arange 3\nb = repeat a [2]");
  EXPECT_EQ(contents<float>(t), (std::vector<float>{0, 1, 2, 0, 1, 2}));
  Trace u = run("a = arange 6\nb = view a [3,2]\nc = index_select b 0 [2,0]");
  EXPECT_EQ(contents<float>(u), (std::vector<float>{4, 5, 0, 1}));
  EXPECT_EQ(result(u).storage, 1);
  Trace v = run("a = arange 4\nb = flip a [0]");
  EXPECT_EQ(contents<float>(v), (std::vector<float>{3, 2, 1, 0}));
  Trace w = run("a = arange 4\nb = index_select a 0 [7]");
  EXPECT_EQ(last(w).error_kind, "IndexError");
}

// Note [index_select on a 0-d tensor]: LibTorch < 2.1 would write past the
// 1-element result when the first two indices are both 0; the oracle refuses
// that call there (the step is Refused, with the reason). An out-of-range index
// in second place raises before any write past the end, so LibTorch runs it.
TEST(TorchCopies, IndexSelectOnAZeroDimTensorWithSeveralIndices) {
  Trace t = run(
      "a = tensor 2\nb = index_select a 0 [0,0,0,0]\nc = zeros [100]\nd = index_select a 0 [0,5]\n"
      "e = index_select a 0 [0]");
#if TORCH_VERSION_MAJOR < 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR < 1)
  EXPECT_EQ(t.steps[1].outcome, Outcome::Refused);
  EXPECT_EQ(t.steps[1].note.rfind("stridecheck oracle: not run: LibTorch ", 0), 0u) << t.steps[1].note;
  EXPECT_EQ(t.steps[3].error_kind, "IndexError");
  EXPECT_EQ(t.steps[3].error_message, "index out of range in self");
#else
  EXPECT_EQ(t.steps[1].error_kind, "RuntimeError");
  EXPECT_EQ(t.steps[1].error_message, "index_select(): Index to scalar can have only 1 value, got 4 value(s)");
  EXPECT_EQ(t.steps[3].error_message, "index_select(): Index to scalar can have only 1 value, got 2 value(s)");
#endif
  EXPECT_TRUE(result(t).sizes.empty());  // one index is fine: a 0-d result
}

TEST(TorchCopies, ZerosLikeWithDtype) {
  Trace t = run("a = arange 4\nb = zeros_like a dtype=int32");
  EXPECT_EQ(result(t).dtype, "int32");
  EXPECT_EQ(contents<int32_t>(t), (std::vector<int32_t>{0, 0, 0, 0}));
}

// ---- in-place

TEST(TorchInPlace, ScalarKindsFollowLibTorch) {
  EXPECT_EQ(contents<int64_t>(run("a = arange 3 dtype=int64\nadd_ a 2")), (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(contents<float>(run("a = arange 3\nsub_ a 1")), (std::vector<float>{-1, 0, 1}));
  EXPECT_EQ(contents<float>(run("a = arange 3\nmul_ a 2.5")), (std::vector<float>{0, 2.5, 5}));
  EXPECT_EQ(contents<float>(run("a = arange 3\ndiv_ a 2")), (std::vector<float>{0, 0.5, 1}));
  EXPECT_EQ(contents<uint8_t>(run("a = zeros [2] dtype=uint8\nadd_ a 300")), (std::vector<uint8_t>{44, 44}));
  Trace t = run("a = arange 3 dtype=int64\ndiv_ a 2");
  EXPECT_EQ(last(t).error_message, "result type Float can't be cast to the desired output type Long");
}

TEST(TorchInPlace, TensorOperandsBroadcast) {
  Trace t = run("a = zeros [2,3]\nb = arange 3\nadd_ a b");
  EXPECT_EQ(contents<float>(t), (std::vector<float>{0, 1, 2, 0, 1, 2}));
  Trace u = run("j = zeros [2,3] dtype=float64\ni = tensor [1,2,3] dtype=int32\ncopy_ j i");  // seed
  EXPECT_EQ(contents<double>(u), (std::vector<double>{1, 2, 3, 1, 2, 3}));
}

TEST(TorchInPlace, FillZeroClamp) {
  EXPECT_EQ(contents<float>(run("a = arange 3\nfill_ a 4")), (std::vector<float>{4, 4, 4}));
  EXPECT_EQ(contents<float>(run("a = arange 3\nb = tensor 2.5\nfill_ a b")), (std::vector<float>{2.5, 2.5, 2.5}));
  EXPECT_EQ(contents<float>(run("a = arange 3\nzero_ a")), (std::vector<float>{0, 0, 0}));
  EXPECT_EQ(contents<float>(run("a = arange 5\nclamp_ a 1 3")), (std::vector<float>{1, 1, 2, 3, 3}));
  EXPECT_EQ(contents<float>(run("a = arange 5\nclamp_ a none 2")), (std::vector<float>{0, 1, 2, 2, 2}));
  EXPECT_EQ(last(run("a = arange 5\nclamp_ a")).error_message,
            "torch.clamp: At least one of 'min' or 'max' must not be None");
}

// ---- elementwise

TEST(TorchElementwise, PromotionWithScalarsAndTensors) {
  EXPECT_EQ(result(run("a = arange 3 dtype=int64\nb = add a 1.5")).dtype, "float32");
  EXPECT_EQ(result(run("a = arange 3 dtype=int32\nb = tensor 2\nc = mul a b")).dtype, "int32");
  EXPECT_EQ(result(run("a = arange 3 dtype=int32\nb = add a 2")).dtype, "int32");
  EXPECT_EQ(contents<float>(run("a = arange 3\nb = neg a")), (std::vector<float>{0, -1, -2}));
}

// The output-layout rule: a transposed input gives a transposed output.
TEST(TorchElementwise, OutputFollowsInputLayout) {
  Trace t = run("a = arange 120\nb = view a [2,3,4,5]\nc = to b format=channels_last\nd = add c 1");
  EXPECT_EQ(result(t).strides, (V{60, 1, 15, 3}));  // seed fence 4
}

TEST(TorchElementwise, OutFormReturnsTheOutTensor) {
  Trace t = run("z = zeros [3]\na = arange 3 dtype=int64\nb = add a 1.5 out=z");
  EXPECT_EQ(result(t).same_as, "z");
  EXPECT_EQ(contents<float>(t), (std::vector<float>{1.5, 2.5, 3.5}));
  EXPECT_EQ(result(run("z = zeros [3]\na = arange 3\nb = mul a a out=z")).same_as, "z");
  EXPECT_EQ(result(run("z = zeros [3]\na = arange 3\nb = neg a out=z")).same_as, "z");
}

// Every op of the language is mapped onto LibTorch, and nothing else is.
TEST(TorchOps, TheOpTableCoversTheLanguage) {
  for (const OpSpec& op : all_ops()) EXPECT_TRUE(torch_op_table().count(std::string(op.name))) << op.name;
  for (const auto& [name, fn] : torch_op_table()) EXPECT_NE(find_op(name), nullptr) << name;
}

}  // namespace
}  // namespace sc::oracle
