#pragma once
// One interpreter for every backend (DESIGN.md "One language, two backends,
// one diff"). A backend supplies a Traits class that knows how to run one step
// on its tensor type and how to read a tensor's facts; TracedBackend<Traits>
// owns the environment, the skip and budget rules, and builds the Observation
// trace identically for all backends.
//
// Traits must provide (see program/engine_backend.cpp and oracle/):
//   using Tensor = ...;
//   explicit Traits(std::string_view device);         // fresh state per program
//   Applied<Tensor> apply(const Step&, const Lookup<Tensor>&);  // results, the error raised, or a refusal
//   TensorFacts facts(const Tensor&);
//   InputHeader header(const Tensor&);                // sizes, strides, itemsize (facts' first three)
//   StorageExtent extent(const Tensor&);              // the header, offset and its storage's nbytes
//   uintptr_t identity(const Tensor&);                // the tensor object (TensorImpl)
//   uintptr_t storage_identity(const Tensor&);        // the storage object (StorageImpl)
//   std::optional<uintptr_t> base_identity(const Tensor&);  // _base's identity when a view
//   int64_t version(const Tensor&);
//   StorageObs storage_contents(const Tensor&);       // nbytes, bytes, mask; id and hash filled here
//   StorageInPlace storage_in_place(const Tensor&);   // the bytes where they lie, when the host can read them
//   std::vector<std::string> take_warnings();
//   std::optional<std::string> take_undefined();      // engine: why the last step is undefined
// and may provide:
//   engine::MemOverlap exact_internal_overlap(const Tensor&);  // else asked on facts' sizes and strides
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "program/chosen_nans.h"

#include "engine/error.h"
#include "engine/overlap.h"
#include "program/backend.h"
#include "program/budget.h"
#include "program/step_writes.h"
#include "program/storage_bounds.h"

namespace sc {

template <class T>
using Lookup = std::function<const T&(const std::string&)>;

// What one step did on a backend: its results, or the error it raised (the
// kind and message LibTorch would give), or why the backend declined to run it
// (engine::StepRefused's message).
//
// Note [Errors cross the interpreter as values]: a generated program errors in
// about one step in six. Each backend catches its own exception once, where it
// is thrown from (LibTorch's c10::Error, the engine's TorchError), and hands
// it back as a value; rethrowing it to classify it and throwing a TorchError
// again on the way out cost a third of a differential fuzz execution's
// instructions (callgrind, issue 10).
template <class Tensor>
struct Applied {
  std::vector<Tensor> results;
  std::optional<engine::TorchError> error;
  std::optional<std::string> refused;
};

// Header facts as the backend itself reports them.
struct TensorFacts {
  std::string dtype;
  int64_t itemsize = 0;
  std::vector<int64_t> sizes, strides;
  int64_t storage_offset = 0;
  bool contiguous = false, channels_last = false, channels_last_3d = false;
  bool non_overlapping_and_dense = false;
  Overlap torch_overlap = Overlap::No;
};

Overlap to_overlap(engine::MemOverlap);

// A storage's bytes where they lie (a CPU storage): hashed, and copied only
// when contents are recorded. Not `readable` (device memory, the meta
// device): the interpreter asks storage_contents for a copy instead.
struct StorageInPlace {
  bool readable = false;
  const uint8_t* data = nullptr;
  int64_t nbytes = 0;
  // Snapshots of the backend's masks (Note [Masks shared as snapshots]).
  std::shared_ptr<const std::vector<uint8_t>> undefined;   // one flag per byte; null or empty: all defined
  std::shared_ptr<const std::vector<uint8_t>> nan_choice;  // StorageObs::nan_choice; null or empty: none
};

// Note [hashes shared between runs]: compare_backends runs the engine, then
// LibTorch, on one program, and after each step a storage nearly always holds
// the same bytes on both sides: the second run would hash again what the
// first has just hashed. So contents hashed lately (this thread's, at most
// kEntries of them and kBytes in all) are kept with their hash; a storage
// whose bytes changed is looked up there first, compared in full (bytes and
// undefined flags), and hashed only when no entry holds the very same bytes.
// The bytes decide, as in Note [Storage hashes are remembered]: the hash is
// a function of them, so every trace is what hashing would have written.
struct HashedBytes {
  std::vector<uint8_t> bytes, undefined;
  uint64_t hash = 0;
};

class RecentHashes {
 public:
  static RecentHashes& of_this_thread() {
    thread_local RecentHashes recent;
    return recent;
  }
  // The entry holding exactly these bytes and undefined flags, or null. The
  // size and first word of each entry are kept in an array of their own,
  // scanned newest first: most entries differ there, and the scan then reads
  // no entry's memory (a miss walked all of them, a cache miss each).
  std::shared_ptr<const HashedBytes> find(const uint8_t* data, size_t n, const std::vector<uint8_t>& undefined) const {
    const uint64_t head = head_word(data, n);
    for (size_t age = 0; age < count_; ++age) {
      const size_t k = (newest_ + kEntries - age) % kEntries;
      if (keys_[k].size != n || keys_[k].head != head) continue;
      const HashedBytes& e = *entries_[k];
      if (e.undefined == undefined && (n == 0 || std::memcmp(e.bytes.data(), data, n) == 0)) return entries_[k];
    }
    return nullptr;
  }
  void add(std::shared_ptr<const HashedBytes> e) {
    const size_t n = e->bytes.size();
    // the oldest entries leave: one for the slot, more while past kBytes
    while (count_ == kEntries || (count_ > 0 && bytes_ + n > kBytes)) drop_oldest();
    newest_ = (newest_ + 1) % kEntries;
    keys_[newest_] = {n, head_word(e->bytes.data(), n)};
    entries_[newest_] = std::move(e);
    bytes_ += n;
    ++count_;
  }

 private:
  static uint64_t head_word(const uint8_t* data, size_t n) {
    uint64_t w = 0;
    if (n > 0) std::memcpy(&w, data, n < 8 ? n : 8);
    return w;
  }
  void drop_oldest() {
    const size_t k = (newest_ + kEntries + 1 - count_) % kEntries;
    bytes_ -= keys_[k].size;
    entries_[k].reset();
    --count_;
  }
  struct Key {
    size_t size = 0;
    uint64_t head = 0;  // the first (up to) 8 bytes
  };
  static constexpr size_t kEntries = 64;
  static constexpr size_t kBytes = size_t{16} << 20;
  // A ring: slot newest_ is the latest, the count_ slots before it (mod kEntries) the others.
  std::array<Key, kEntries> keys_{};
  std::array<std::shared_ptr<const HashedBytes>, kEntries> entries_{};
  size_t newest_ = kEntries - 1, count_ = 0, bytes_ = 0;
};

// Whether Traits answers the exact internal overlap on its own header
// (Traits::exact_internal_overlap(const Tensor&)). The detection idiom, not a
// requires-expression: the oracle's files include this header and build as
// C++17 against LibTorch 1.13 with clang (CMakeLists.txt).
template <class Traits, class Tensor, class = void>
struct AnswersExactOverlap : std::false_type {};
template <class Traits, class Tensor>
struct AnswersExactOverlap<
    Traits, Tensor, std::void_t<decltype(std::declval<Traits&>().exact_internal_overlap(std::declval<const Tensor&>()))>>
    : std::true_type {};

template <class Traits>
class TracedBackend : public Backend {
 public:
  using Tensor = typename Traits::Tensor;

  TracedBackend(std::string name, std::string version, std::string device)
      : name_(std::move(name)), version_(std::move(version)), device_(std::move(device)) {}

  std::string name() const override { return name_; }
  std::string version() const override { return version_; }

  Trace run(const Program& program, const RunOptions& options) override {
    Traits traits(device_);
    Run r(traits, options);
    // Every binding the program can make, reserved once: env's Bound (a name
    // and a tensor) moved on each doubling, and index rehashed.
    size_t bindings = 0;
    for (const Step& s : program.steps) bindings += s.outputs.size();
    r.env.reserve(bindings);
    r.index.reserve(bindings);
    // Storages: a few per program, each first seen as a result or a binding
    // (a hint, not a bound: the vectors grow past it if they must).
    r.storage_ids.reserve(bindings);
    r.storage_owners.reserve(bindings);
    r.numbered_storage.reserve(bindings);  // grows with env, one slot a binding
    r.memo.reserve(bindings);              // by storage number
    Trace trace;
    trace.backend = name_;
    trace.backend_version = version_;
    trace.steps.reserve(program.steps.size());  // one allocation, not a doubling chain per run
    for (size_t i = 0; i < program.steps.size(); ++i) {
      if (options.on_step) options.on_step(name_, i);
      r.next_step = i + 1 < program.steps.size() ? &program.steps[i + 1] : nullptr;
      r.step(program.steps[i], trace.steps.emplace_back());  // built in place, never moved
    }
    if (r.lazy) trace.stale = r.check_carried();
    return trace;
  }

 private:
  struct Bound {
    std::string name;
    Tensor tensor;
  };

  struct Run {
    Run(Traits& t, const RunOptions& o)
        : traits(t), options(o), lazy(o.observe_written_only && !o.record_contents) {}
    Traits& traits;
    const RunOptions& options;
    std::vector<Bound> env;                       // binding order
    std::unordered_map<std::string, size_t> index;  // name -> env slot
    // Storage identity by number (a program has a few dozen storages at
    // most: a scan from the newest, without the map's node per storage).
    std::vector<uintptr_t> storage_ids;
    std::vector<std::pair<int, Tensor>> storage_owners;  // number -> a tensor on it
    int64_t allocated = 0;

    // Note [Storage hashes are remembered]: every live storage is hashed after
    // every step, and most steps write none of them (views, errors) or one. The
    // hash is serial (a multiply chain, about one byte per cycle); comparing
    // the bytes with a copy of those last hashed runs at memcmp's speed. So a
    // storage of up to kMemoBytes keeps a copy of its bytes (and undefined
    // flags) with their hash, and is hashed again only when they differ. The
    // bytes themselves decide, never a version counter or a backend's claim:
    // a write that no counter saw is what the diff is for.
    // The memo entries are shared with RecentHashes (Note [hashes shared
    // between runs]): a storage holding bytes that either run hashed lately
    // takes that entry, without copying or hashing them.
    static constexpr int64_t kMemoBytes = int64_t{1} << 20;
    std::vector<std::shared_ptr<const HashedBytes>> memo;  // by storage number

    uint64_t hash_in_place(int n, const uint8_t* data, int64_t nbytes, const std::vector<uint8_t>& undefined) {
      const uint8_t* mask = undefined.empty() ? nullptr : undefined.data();
      if (nbytes > kMemoBytes) return contents_hash(data, static_cast<size_t>(nbytes), mask);
      if (memo.size() <= static_cast<size_t>(n)) memo.resize(static_cast<size_t>(n) + 1);
      std::shared_ptr<const HashedBytes>& m = memo[static_cast<size_t>(n)];
      const size_t len = static_cast<size_t>(nbytes);
      if (m && m->bytes.size() == len && m->undefined == undefined &&
          (len == 0 || std::memcmp(m->bytes.data(), data, len) == 0))
        return m->hash;
      RecentHashes& recent = RecentHashes::of_this_thread();
      if (auto seen = recent.find(data, len, undefined)) {
        m = std::move(seen);
        return m->hash;
      }
      auto fresh = std::make_shared<HashedBytes>();
      fresh->bytes.assign(data, data + len);
      fresh->undefined = undefined;
      fresh->hash = contents_hash(data, len, mask);
      m = fresh;
      recent.add(std::move(fresh));
      return m->hash;
    }

    // Note [inputs resolved once per step]: a step's input names are looked
    // up in `index` once, when the step starts, and kept with their env
    // slots keyed by the address of the Step's own name string: the budget
    // checks, the op and the out= fix-up ask for the same names again (by
    // reference to those strings, through ArgReader::tensor) up to eight
    // times a step. An address names one live string, so a match is that
    // very name; any other string (a copy, kw_tensor's) goes to `index`.
    // Valid until the step binds its outputs; cleared when the next starts.
    struct Resolved {
      const std::string* name;
      size_t slot;
    };
    std::vector<Resolved> resolved;

    const Tensor& lookup(const std::string& n) const {
      for (const Resolved& r : resolved)
        if (r.name == &n) return env[r.slot].tensor;
      return env[index.at(n)].tensor;
    }

    // Note [Observing only the storages a step may write]
    // With RunOptions::observe_written_only (hashes only), the storages a
    // step reads back after it runs are the ones the program says it may
    // write: an in-place op's self, an out= tensor (program/step_writes.h),
    // a storage first seen at this step, and those the next step may write.
    // Every other storage carries its hash (and chosen-NaN number) from the
    // step before, unread, while its nbytes and mask snapshots are the ones
    // it had then. Which storage a name lives in is read from this backend's
    // own header, as for every result; what the backend's kernels actually
    // wrote is never asked. Nothing is missed that a persisting write leaves:
    //   - a storage read back at step k is compared with its memo (its bytes
    //     when last read), so a change is seen whenever it happened;
    //   - one that was carried at step k-1 and has changed at k changed at a
    //     step that the program says does not write it (a storage step k may
    //     write was read back at k-1, as the next step's), so the trace is
    //     `stale` and compare_backends runs it again reading every storage
    //     after every step: the diff then names the very step;
    //   - after the last step, every carried storage is read back
    //     (check_carried), so a stray write is seen however late it came; and
    //     a write the program does make is never read back over a stray one
    //     that came before it unseen, since the step before a write reads
    //     that storage back.
    // What the full observation would see and this does not: a stray write
    // that stray writes undo, byte for byte, before the storage is next read
    // back, with no step in between whose own results read it (those are
    // compared). Measured on the bench's 64 programs: 72% of the storage
    // observations are carried, 65% of the bytes (issue 10).
    const bool lazy;
    const Step* next_step = nullptr;  // set by run() before each step
    const StepObs* last_obs = nullptr;  // the last observation made
    std::vector<uintptr_t> writes;       // storage identities this step may write
    std::vector<uintptr_t> next_writes;  // ... the next step, asked after this one (env is as it will start)
    bool writes_unknown = false, next_unknown = false;  // an op that may write anything
    bool next_asked = false;
    std::vector<char> carried;      // by storage number: its hash was carried at the last observation
    bool stale = false;

    void ask_writes(const Step& s, std::vector<uintptr_t>& out, bool& unknown) {
      out.clear();
      const StepWrites w = written_inputs(s);
      unknown = w.unknown_op;
      for (const std::string* n : w.names) {
        if (!n) continue;
        auto it = index.find(*n);
        if (it != index.end()) out.push_back(traits.storage_identity(env[it->second].tensor));
      }
    }
    bool may_write(uintptr_t sid) const {
      for (uintptr_t w : writes)
        if (w == sid) return true;
      for (uintptr_t w : next_writes)
        if (w == sid) return true;
      return writes_unknown || next_unknown;
    }

    // After the last step: whether a carried storage changed (a stale trace).
    bool check_carried() {
      for (size_t n = 0; n < carried.size() && last_obs; ++n) {
        if (!carried[n]) continue;
        const StorageInPlace in = traits.storage_in_place(storage_owners[n].second);
        const StorageObs& p = last_obs->storages[n];
        ByteMask undefined = in.undefined ? ByteMask::shared(in.undefined) : ByteMask();
        if (in.nbytes != p.nbytes || !undefined.same_flags(p.undefined) ||
            hash_in_place(static_cast<int>(n), in.data, in.nbytes, undefined) != p.hash)
          stale = true;
      }
      return stale;
    }

    // Note [The trace budget]
    // Every step observes every live value's version and every storage
    // (observe_state), so a trace grows as steps times live values: 2,000
    // steps of live clones held 2.3 GB in `run`, 20,001 exhausted run, record
    // and replay alike. A step cap would cut legitimate programs (the
    // corpus's 7,018-step domain_slice.prog holds 17 M versions), so the
    // trace's own size is bounded, as the allocation budget bounds the bytes
    // a program allocates (DESIGN.md Limits):
    //   bytes(observation) = kValueBytes * live values + kStorageBytes * storages
    //                        + the storages' nbytes when contents are kept
    // (about what a trace holds in memory; `run` and `repro` keep contents,
    // the other tools hashes). Before step k runs, the observations of steps
    // 0..k-1 plus the last one's bytes (the least step k's own observation
    // holds: values and storages only accumulate) must fit
    // RunOptions::trace_budget_bytes; else step k and every later step are
    // over budget, neither run nor observed, and the diff counts the
    // program as skipped, naming step k. Both backends count the same
    // observations while their traces agree; where they differ, the diff
    // reports that earlier step first.
    static constexpr int64_t kValueBytes = 48;
    static constexpr int64_t kStorageBytes = 128;
    int64_t trace_bytes = 0;  // the observations so far (saturating)
    int64_t state_bytes = 0;  // the last observation's
    size_t state_values = 0, state_storages = 0;
    size_t steps_begun = 0;
    bool trace_full = false;

    static int64_t sat_add(int64_t a, int64_t b) {
      return a > std::numeric_limits<int64_t>::max() - b ? std::numeric_limits<int64_t>::max() : a + b;
    }

    // True when step `at` is not run: the trace budget is spent.
    bool past_trace_budget(size_t at, StepObs& obs) {
      if (!trace_full && state_bytes <= options.trace_budget_bytes - trace_bytes) return false;
      obs.outcome = Outcome::OverBudget;
      if (trace_full) {
        obs.note = "not run: the trace budget stopped the program at an earlier step";
        return true;
      }
      trace_full = true;
      obs.note = "the trace would pass its budget of " + std::to_string(options.trace_budget_bytes) + " bytes: the " +
                 std::to_string(at) + " steps before observed " + std::to_string(trace_bytes) +
                 " bytes, and each step from here observes at least " + std::to_string(state_bytes) + " (" +
                 std::to_string(state_values) + " live values, " + std::to_string(state_storages) +
                 " storages); the rest of the program is not run (--trace-budget)";
      return true;
    }

    void count_observation(const StepObs& obs) {
      state_values = obs.versions.size();
      state_storages = obs.storages.size();
      state_bytes = kValueBytes * static_cast<int64_t>(state_values) + kStorageBytes * static_cast<int64_t>(state_storages);
      if (options.record_contents)
        for (const StorageObs& so : obs.storages) state_bytes = sat_add(state_bytes, std::max<int64_t>(0, so.nbytes));
      trace_bytes = sat_add(trace_bytes, state_bytes);
    }

    // Observes step s into obs (a fresh StepObs).
    void step(const Step& s, StepObs& obs) {
      if (past_trace_budget(steps_begun++, obs)) return;
      if (lazy) {
        if (next_asked) {  // by the step before, with env as it is now
          writes.swap(next_writes);
          writes_unknown = next_unknown;
        } else {
          ask_writes(s, writes, writes_unknown);
        }
        next_writes.clear();
        next_unknown = next_asked = false;
      }
      const std::string* unbound = nullptr;
      resolved.clear();
      s.for_each_input([&](const std::string& in) {
        if (unbound) return;
        auto it = index.find(in);
        if (it == index.end()) unbound = &in;
        else resolved.push_back({&in, it->second});
      });
      if (unbound) {
        obs.outcome = Outcome::Skipped;
        obs.note = "'" + *unbound + "' is unbound";
        observe_state(obs);
        return;
      }
      // The budget checks read the header only, not every fact (facts() asks
      // LibTorch five layout questions and runs the overlap test).
      auto header = [&](const std::string& n) { return traits.header(lookup(n)); };
      auto extent = [&](const std::string& n) { return traits.extent(lookup(n)); };
      if (auto why = refuse_out_of_storage(s, extent)) {
        obs.outcome = Outcome::Refused;
        obs.note = *why;
        observe_state(obs);
        return;
      }
      if (auto n = inplace_elements(s, header); n && *n > options.max_step_elements) {
        obs.outcome = Outcome::OverBudget;
        obs.note = s.op + " would write " + std::to_string(*n) + " elements, past the limit of " +
                   std::to_string(options.max_step_elements) + " for one step";
        observe_state(obs);
        return;
      }
      auto est = allocation_estimate(s, header, /*describe=*/false);
      if (est && (est->bytes > options.budget_bytes - allocated)) {
        est = allocation_estimate(s, header, /*describe=*/true);  // the same bytes, and what they are for
        obs.outcome = Outcome::OverBudget;
        obs.note = est->what + " would allocate " + std::to_string(est->bytes) + " bytes; " +
                   std::to_string(allocated) + " of the budget of " + std::to_string(options.budget_bytes) +
                   " bytes are already used";
        observe_state(obs);
        return;
      }
      Lookup<Tensor> lk = [this](const std::string& n) -> const Tensor& { return lookup(n); };
      Applied<Tensor> applied = traits.apply(s, lk);
      std::vector<Tensor>& results = applied.results;
      if (applied.refused) {
        obs.outcome = Outcome::Refused;
        obs.note = std::move(*applied.refused);
      } else if (applied.error) {
        obs.outcome = Outcome::Error;
        obs.error_kind = std::string(engine::error_kind_name(applied.error->kind));
        obs.error_message = std::move(applied.error->message);
        // An out= resize that raised may have changed out's header already
        // (resize_ sets the sizes before its checks): every name bound to
        // that tensor object sees it (generated seed 2341050: `d = clamp_ c`,
        // then `add ... out=c` raises, then d is c's new header). A no-op for
        // LibTorch.
        for (const KwArg& k : s.kwargs) {
          const auto* n = std::get_if<Name>(&k.value);
          if (k.key != "out" || !n || !index.count(n->id)) continue;
          const Tensor out = lookup(n->id);
          for (Bound& b : env)
            if (traits.identity(b.tensor) == traits.identity(out)) b.tensor = out;
        }
      } else if (est) {
        allocated += est->bytes;
      }
      obs.warnings = traits.take_warnings();
      if (auto u = traits.take_undefined()) {
        obs.undefined = true;
        obs.undefined_reason = *u;
      }
      if (obs.outcome == Outcome::Ok) {
        obs.results.reserve(results.size());
        for (const Tensor& t : results) observe(t, obs.results.emplace_back());
        // A result that is an already-bound tensor object (out=, in-place,
        // view-or-self ops) is that object as it is now: every name bound to
        // it sees its current header (an out= resize of `b = to a` resizes a,
        // since both names hold one TensorImpl). A no-op for LibTorch.
        for (const Tensor& t : results)
          for (Bound& b : env)
            if (traits.identity(b.tensor) == traits.identity(t)) b.tensor = t;
        for (size_t i = 0; i < s.outputs.size() && i < results.size(); ++i) {
          index[s.outputs[i]] = env.size();
          env.push_back({s.outputs[i], std::move(results[i])});  // results are not read after this
        }
      }
      observe_state(obs);
    }

    // The name of the earliest bound value whose tensor object is `id`, or null.
    const std::string* name_of(uintptr_t id) const {
      for (const Bound& b : env)
        if (traits.identity(b.tensor) == id) return &b.name;
      return nullptr;
    }

    int storage_number(const Tensor& t) {
      const uintptr_t sid = traits.storage_identity(t);
      for (size_t k = storage_ids.size(); k-- > 0;)
        if (storage_ids[k] == sid) return static_cast<int>(k);
      const int n = static_cast<int>(storage_ids.size());
      storage_ids.push_back(sid);
      storage_owners.push_back({n, t});
      return n;
    }

    // Observes t into o (a fresh TensorObs).
    void observe(const Tensor& t, TensorObs& o) {
      TensorFacts f = traits.facts(t);
      // A backend whose header is already an engine::Shape answers on it (no conversion from f's vectors).
      if constexpr (AnswersExactOverlap<Traits, Tensor>::value)
        o.exact_overlap = to_overlap(traits.exact_internal_overlap(t));
      else
        o.exact_overlap = to_overlap(engine::exact_internal_overlap(f.sizes, f.strides));
      o.dtype = std::move(f.dtype);  // f's strings and vectors move: built per result, used once
      o.sizes = std::move(f.sizes);
      o.strides = std::move(f.strides);
      o.storage_offset = f.storage_offset;
      o.contiguous = f.contiguous;
      o.channels_last = f.channels_last;
      o.channels_last_3d = f.channels_last_3d;
      o.non_overlapping_and_dense = f.non_overlapping_and_dense;
      if (const std::string* same = name_of(traits.identity(t))) o.same_as = *same;
      if (auto b = traits.base_identity(t)) {
        o.is_view = true;
        const std::string* base = name_of(*b);
        o.base = base && !base->empty() ? *base : "?";
      }
      o.storage = storage_number(t);
      o.torch_overlap = f.torch_overlap;
    }

    // The storage identity each env slot was last numbered with: a slot whose
    // tensor still lives there needs no storage_number lookup (it numbered
    // that storage already; every numbered storage stays alive in
    // storage_owners, so an identity is never reused within a run).
    std::vector<uintptr_t> numbered_storage;

    void observe_state(StepObs& obs) {
      obs.versions.reserve(env.size());
      numbered_storage.resize(env.size(), 0);
      for (size_t k = 0; k < env.size(); ++k) {
        const Bound& b = env[k];
        obs.versions.emplace_back(b.name, traits.version(b.tensor));
        const uintptr_t sid = traits.storage_identity(b.tensor);
        if (numbered_storage[k] == sid && sid != 0) continue;
        storage_number(b.tensor);
        numbered_storage[k] = sid;
      }
      obs.storages.reserve(storage_owners.size());
      // Note [Observing only the storages a step may write]
      const size_t known = lazy && last_obs ? last_obs->storages.size() : 0;
      if (lazy) {
        if (next_step) {
          ask_writes(*next_step, next_writes, next_unknown);
          next_asked = true;
        }
        carried.resize(storage_owners.size(), 0);
      }
      for (auto& [n, t] : storage_owners) {
        const StorageInPlace in = traits.storage_in_place(t);
        if (in.readable) {
          StorageObs& so = obs.storages.emplace_back();
          so.id = n;
          so.nbytes = in.nbytes;
          if (in.undefined) so.undefined = ByteMask::shared(in.undefined);
          if (in.nan_choice) so.nan_choice = ByteMask::shared(in.nan_choice);
          const StorageObs* before = static_cast<size_t>(n) < known ? &last_obs->storages[static_cast<size_t>(n)] : nullptr;
          if (before && before->nbytes == so.nbytes && before->undefined.same_flags(so.undefined) &&
              before->nan_choice.same_flags(so.nan_choice) && !may_write(storage_ids[static_cast<size_t>(n)])) {
            so.hash = before->hash;
            so.chosen_nan_number = before->chosen_nan_number;
            carried[static_cast<size_t>(n)] = 1;
            continue;
          }
          if (!so.nan_choice.empty()) {
            so.chosen_nan_number = first_flagged_number(in.data, in.nbytes, so.nan_choice, so.undefined);
          }
          so.hash = hash_in_place(n, in.data, in.nbytes, so.undefined);
          if (options.record_contents && in.nbytes > 0) so.bytes.assign(in.data, in.data + in.nbytes);
          if (before && carried[static_cast<size_t>(n)] && (so.hash != before->hash || so.nbytes != before->nbytes))
            stale = true;
          if (lazy) carried[static_cast<size_t>(n)] = 0;
          continue;
        }
        StorageObs so = traits.storage_contents(t);
        so.id = n;
        if (so.has_contents) {
          so.hash = contents_hash(so.bytes.data(), so.bytes.size(), so.undefined.empty() ? nullptr : so.undefined.data());
          if (!options.record_contents) so.bytes.clear();
        }
        obs.storages.push_back(std::move(so));
      }
      last_obs = &obs;
      count_observation(obs);
    }
  };

  std::string name_, version_, device_;
};

}  // namespace sc
