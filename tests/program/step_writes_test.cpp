// Note [Observing only the storages a step may write] (program/traced_backend.h):
// a hashes-only run reads back only the storages a step may write, yet a
// backend that writes a storage no step names is still caught, at the very
// step, as a full observation would catch it. The backend here is a toy (one
// byte per element, `zeros [n]` and `fill_ x v`) whose fill_ on the device
// "stray" also writes the first storage it made: a kernel writing through a
// stale pointer.
#include <gtest/gtest.h>

#include <memory>
#include <variant>

#include "program/compare.h"
#include "program/parser.h"
#include "program/step_writes.h"
#include "program/traced_backend.h"
#include "tests/program/engine_run_util.h"

namespace sc {
namespace {

struct ToyStorage {
  std::vector<uint8_t> bytes;
  int64_t version = 0;
};

struct ToyTensor {
  std::shared_ptr<ToyStorage> storage;
};

struct ToyTraits {
  using Tensor = ToyTensor;
  explicit ToyTraits(std::string_view device) : stray(device == "stray") {}
  bool stray;
  std::weak_ptr<ToyStorage> first;  // the first storage made: the stale pointer

  Applied<Tensor> apply(const Step& s, const Lookup<Tensor>& env) {
    Applied<Tensor> a;
    if (s.op == "zeros") {
      auto st = std::make_shared<ToyStorage>();
      st->bytes.assign(static_cast<size_t>(std::get<List>(s.args[0]).items.at(0).i), 0);
      if (first.expired()) first = st;
      a.results.push_back({st});
    } else if (s.op == "fill_") {
      const Tensor& self = env(std::get<Name>(s.args[0]).id);
      const auto v = static_cast<uint8_t>(std::get<Number>(s.args[1]).i);
      for (uint8_t& b : self.storage->bytes) b = v;
      ++self.storage->version;
      if (auto f = first.lock(); stray && f && f != self.storage) f->bytes[0] = static_cast<uint8_t>(v + 100);
      a.results.push_back(self);
    } else {
      a.error = engine::TorchError(engine::ErrorKind::NotImplementedError, "toy: no op " + s.op);
    }
    return a;
  }
  static int64_t numel(const Tensor& t) { return static_cast<int64_t>(t.storage->bytes.size()); }
  TensorFacts facts(const Tensor& t) {
    TensorFacts f;
    f.dtype = "uint8";
    f.itemsize = 1;
    f.sizes = {numel(t)};
    f.strides = {1};
    f.contiguous = f.non_overlapping_and_dense = true;
    return f;
  }
  InputHeader header(const Tensor& t) {
    InputHeader h;
    h.sizes = {numel(t)};
    h.strides = {1};
    h.itemsize = 1;
    return h;
  }
  StorageExtent extent(const Tensor& t) { return {{numel(t)}, {1}, 0, 1, numel(t)}; }
  uintptr_t identity(const Tensor& t) { return reinterpret_cast<uintptr_t>(t.storage.get()); }
  uintptr_t storage_identity(const Tensor& t) { return reinterpret_cast<uintptr_t>(t.storage.get()); }
  std::optional<uintptr_t> base_identity(const Tensor&) { return std::nullopt; }
  int64_t version(const Tensor& t) { return t.storage->version; }
  StorageObs storage_contents(const Tensor& t) {
    StorageObs o;
    o.nbytes = numel(t);
    o.bytes = t.storage->bytes;
    return o;
  }
  StorageInPlace storage_in_place(const Tensor& t) {
    StorageInPlace in;
    in.readable = true;
    in.data = t.storage->bytes.data();
    in.nbytes = numel(t);
    return in;
  }
  std::vector<std::string> take_warnings() { return {}; }
  std::optional<std::string> take_undefined() { return std::nullopt; }
};

TracedBackend<ToyTraits> toy(const std::string& device) { return {"toy:" + device, "toy", device}; }

RunOptions hashes(bool written_only) {
  RunOptions o;
  o.record_contents = false;
  o.observe_written_only = written_only;
  return o;
}

// a's storage (0) is the stale pointer; fill_ of b (step `stray_at`) writes it too.
constexpr const char* kStrayWrite =
    "a = zeros [4] dtype=uint8\n"
    "b = zeros [4] dtype=uint8\n"
    "c = fill_ b 1\n"
    "d = fill_ b 2\n"
    "e = fill_ b 3\n";
// The same stray write, then a write the program makes to a, over it: at
// the next step, and two steps later.
constexpr const char* kStrayWriteOverwritten =
    "a = zeros [4] dtype=uint8\n"
    "b = zeros [4] dtype=uint8\n"
    "c = fill_ b 1\n"
    "d = fill_ a 7\n"
    "e = fill_ b 3\n";
constexpr const char* kStrayWriteOverwrittenLater =
    "a = zeros [4] dtype=uint8\n"
    "b = zeros [4] dtype=uint8\n"
    "c = fill_ b 1\n"
    "d = fill_ b 2\n"
    "e = fill_ a 7\n";

TEST(StepWrites, AreTheInPlaceSelfAndTheOutTensor) {
  const Program p = parse_program(
      "a = zeros [4]\nb = add_ a 1\nc = copy_ b a\nd = add a b out=b\ne = view a [2,2]\nf = clone a\n", "t.prog");
  auto names = [&](size_t i) {
    std::vector<std::string> out;
    for (const std::string* n : written_inputs(p.steps[i]).names)
      if (n) out.push_back(*n);
    return out;
  };
  EXPECT_EQ(names(0), std::vector<std::string>{});
  EXPECT_EQ(names(1), std::vector<std::string>{"a"});
  EXPECT_EQ(names(2), std::vector<std::string>{"b"});  // copy_ writes its destination, not its source
  EXPECT_EQ(names(3), std::vector<std::string>{"b"});
  EXPECT_EQ(names(4), std::vector<std::string>{});
  EXPECT_EQ(names(5), std::vector<std::string>{});
  Step unknown;
  unknown.op = "no_such_op";
  EXPECT_TRUE(written_inputs(unknown).unknown_op);
}

// Without the stray write, reading back only what a step may write gives the
// very trace that reading back everything gives, and it is not stale.
TEST(StepWrites, AnHonestRunCarriesExactlyTheHashesAFullObservationRecords) {
  for (const char* text : {kStrayWrite, kStrayWriteOverwritten, kStrayWriteOverwrittenLater}) {
    const Program p = parse_program(text, "t.prog");
    auto backend = toy("cpu");
    const Trace every = backend.run(p, hashes(false)), written = backend.run(p, hashes(true));
    EXPECT_FALSE(written.stale);
    ASSERT_EQ(every.steps.size(), written.steps.size());
    for (size_t i = 0; i < every.steps.size(); ++i) {
      ASSERT_EQ(every.steps[i].storages.size(), written.steps[i].storages.size());
      for (size_t k = 0; k < every.steps[i].storages.size(); ++k)
        EXPECT_EQ(every.steps[i].storages[k].hash, written.steps[i].storages[k].hash) << text << i << k;
    }
  }
}

// The engine's own runs, on a program that writes small and large storages
// through views: the same hashes, not stale.
TEST(StepWrites, TheEnginesRunsCarryExactlyTheHashesAFullObservationRecords) {
  const char* text =
      "a = arange 6\nbig = zeros [196608] dtype=int64\nb = view a [2,3]\nc = zero_ b\nd = view a [3,2]\n"
      "e = add_ a 1\nf = fill_ big 7\ng = view big [2,-1]\nh = clone a\ni = add h 1 out=h\nj = add_ a 1\n";
  const Trace every = testing::run_on_engine(text, hashes(false)), written = testing::run_on_engine(text, hashes(true));
  EXPECT_FALSE(written.stale);
  ASSERT_EQ(every.steps.size(), written.steps.size());
  for (size_t i = 0; i < every.steps.size(); ++i) {
    ASSERT_EQ(every.steps[i].storages.size(), written.steps[i].storages.size());
    for (size_t k = 0; k < every.steps[i].storages.size(); ++k)
      EXPECT_EQ(every.steps[i].storages[k].hash, written.steps[i].storages[k].hash) << i << " " << k;
  }
}

// The stray write lands in a storage no step names: the trace that carried
// its hash is stale, and compare_backends names the step of the stray write
// and the storage, as the full observation does, whether the storage is
// left alone afterwards or the program writes it later.
TEST(StepWrites, AStrayWriteToAStorageNoStepNamesIsCaughtAtItsStep) {
  for (const char* text : {kStrayWrite, kStrayWriteOverwritten, kStrayWriteOverwrittenLater}) {
    const Program p = parse_program(text, "t.prog");
    auto stray = toy("stray"), honest = toy("cpu");
    EXPECT_TRUE(stray.run(p, hashes(true)).stale) << text;
    for (bool record : {false, true}) {
      RunOptions o;
      o.record_contents = record;
      const Comparison c = compare_backends(p, stray, honest, o);
      ASSERT_EQ(c.diff.verdict, Verdict::Fail) << text << record;
      EXPECT_EQ(c.diff.first->step, 2u) << text << record;
      EXPECT_EQ(c.diff.first->field, "storage 0 contents") << text << record;
    }
  }
}

}  // namespace
}  // namespace sc
