#include "program/diff.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <sstream>

#include "engine/dtype.h"
#include "engine/half.h"
#include "engine/scalar.h"
#include "program/printer.h"

namespace sc {

std::string_view verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Pass: return "pass";
    case Verdict::Fail: return "fail";
    case Verdict::Undefined: return "undefined";
    case Verdict::Skipped: return "skipped";
  }
  return "?";
}

std::string step_source(const Program& program, size_t i) {
  if (i >= program.steps.size()) return "step " + std::to_string(i) + " (past the program's end)";
  const Step& s = program.steps[i];
  std::string where = s.pos.line > 0 ? (program.source_name.empty() ? std::string("<string>") : program.source_name) +
                                           ":" + std::to_string(s.pos.line)
                                     : "step " + std::to_string(i);
  return where + ": " + print_step(s);
}

// One element of `dtype` at bytes [p, p + itemsize) as text.
std::string element_text(const uint8_t* p, engine::DType d, bool detailed) {
  auto load = [&](auto v) {
    std::memcpy(&v, p, sizeof v);
    return v;
  };
  std::ostringstream o;
  auto precision = [&](int digits) {
    if (detailed) o.precision(digits);
  };
  switch (d) {
    case engine::DType::Bool:
      o << (p[0] ? "true" : "false") << (detailed && p[0] > 1 ? " (byte " + std::to_string(p[0]) + ")" : "");
      break;
    case engine::DType::UInt8: o << static_cast<int>(p[0]); break;
    case engine::DType::Int8: o << static_cast<int>(static_cast<int8_t>(p[0])); break;
    case engine::DType::Int16: o << load(int16_t{}); break;
    case engine::DType::Int32: o << load(int32_t{}); break;
    case engine::DType::Int64: o << load(int64_t{}); break;
    case engine::DType::Float16: precision(8); o << engine::half_to_float(load(uint16_t{})); break;
    case engine::DType::BFloat16: precision(8); o << engine::bfloat16_to_float(load(uint16_t{})); break;
    case engine::DType::Float32: precision(9); o << load(float{}); break;
    case engine::DType::Float64: precision(17); o << load(double{}); break;
  }
  return o.str();
}

namespace {

std::string ints(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}
std::string boolean(bool b) { return b ? "true" : "false"; }
std::string quoted(const std::string& s) { return s.empty() ? "\"\"" : "\"" + s + "\""; }
std::string strings(const std::vector<std::string>& v) {
  if (v.empty()) return "(none)";
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "; " : "") + quoted(v[i]);
  return s;
}
std::string versions_text(const std::vector<std::pair<std::string, int64_t>>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? " " : "") + v[i].first + ":" + std::to_string(v[i].second);
  return s.empty() ? "(none)" : s;
}

bool any_set(const std::vector<uint8_t>& mask) {
  for (uint8_t m : mask)
    if (m) return true;
  return false;
}
bool masked(const std::vector<uint8_t>& mask, size_t k) { return k < mask.size() && mask[k]; }
bool has_all_bytes(const StorageObs& s) {
  return s.has_contents && static_cast<int64_t>(s.bytes.size()) == s.nbytes;
}

bool is_nan(const uint8_t* p, engine::DType d) {
  return engine::is_floating(d) && std::isnan(engine::load_double(d, reinterpret_cast<const std::byte*>(p)));
}

// An element's bits as one hex number (little-endian bytes, most significant first).
std::string element_bits(const uint8_t* p, int64_t isz) {
  std::string s = "0x";
  char buf[4];
  for (int64_t k = isz; k-- > 0;) {
    std::snprintf(buf, sizeof buf, "%02x", p[k]);
    s += buf;
  }
  return s;
}

std::string hex_bytes(const std::vector<uint8_t>& b, size_t from, size_t n) {
  std::string s;
  char buf[4];
  for (size_t k = from; k < from + n && k < b.size(); ++k) {
    std::snprintf(buf, sizeof buf, "%02x", b[k]);
    s += (k > from ? " " : "") + std::string(buf);
  }
  return s;
}

// What the diff knows about program values up to a step: each bound name's
// header. It points into the trace being compared (which outlives the
// Differ) instead of copying every result: it is built for every step of
// every comparison and read only at a contents difference.
struct ValueTable {
  std::map<std::string, const TensorObs*> by_name;
  std::vector<const TensorObs*> all;  // every result so far, in order

  void add_step(const Step& s, const StepObs& obs) {
    for (const TensorObs& t : obs.results) all.push_back(&t);
    if (obs.outcome != Outcome::Ok) return;
    for (size_t j = 0; j < s.outputs.size() && j < obs.results.size(); ++j) by_name[s.outputs[j]] = &obs.results[j];
  }
  // The dtype of the latest result living in storage `id`.
  std::optional<engine::DType> dtype_of_storage(int id) const {
    for (auto it = all.rbegin(); it != all.rend(); ++it)
      if ((*it)->storage == id) return engine::parse_dtype((*it)->dtype);
    return std::nullopt;
  }
};

// The program values (live after the step) whose elements cover storage byte `k`
// of storage `id`, as "name[i,j]"; at most a few, bounded work per value.
std::string values_reaching(const ValueTable& vt, const StepObs& obs, int id, int64_t k) {
  std::vector<std::string> hits;
  for (const auto& [name, version] : obs.versions) {
    auto it = vt.by_name.find(name);
    if (it == vt.by_name.end() || it->second->storage != id) continue;
    const TensorObs& t = *it->second;
    auto dt = engine::parse_dtype(t.dtype);
    if (!dt) continue;
    int64_t isz = engine::itemsize(*dt);
    int64_t numel = 1;
    for (int64_t s : t.sizes) numel = (s <= 0 || numel > (int64_t{1} << 22) / std::max<int64_t>(s, 1)) ? -1 : numel * s;
    if (numel < 0) {
      bool empty = false;
      for (int64_t s : t.sizes) empty |= s == 0;
      if (!empty) hits.push_back(name + "[?] (too many elements to search)");
      continue;
    }
    std::vector<int64_t> idx(t.sizes.size(), 0);
    for (int64_t e = 0; e < numel; ++e) {
      int64_t off = t.storage_offset;
      for (size_t d = 0; d < idx.size(); ++d) off += idx[d] * t.strides[d];
      if (off * isz <= k && k < off * isz + isz) {
        std::string s = name + "[";
        for (size_t d = 0; d < idx.size(); ++d) s += (d ? "," : "") + std::to_string(idx[d]);
        hits.push_back(s + "]");
        break;  // one index per value is enough to locate it
      }
      for (size_t d = idx.size(); d-- > 0;) {
        if (++idx[d] < t.sizes[d]) break;
        idx[d] = 0;
      }
    }
    if (hits.size() >= 8) break;
  }
  if (hits.empty()) return "no live program value reaches it";
  std::string s;
  for (size_t i = 0; i < hits.size(); ++i) s += (i ? ", " : "") + hits[i];
  return "reached by " + s;
}

class Differ {
 public:
  Differ(const Program& p, const Trace& a, const Trace& b) : p_(p), a_(a), b_(b) {}

  DiffResult run() {
    DiffResult r;
    size_t n = std::min(a_.steps.size(), b_.steps.size());
    for (size_t i = 0; i < n; ++i) {
      const StepObs& sa = a_.steps[i];
      const StepObs& sb = b_.steps[i];
      for (const StepObs* s : {&sa, &sb}) {
        if (s->outcome == Outcome::OverBudget || s->outcome == Outcome::TimedOut ||
            s->outcome == Outcome::Refused) {
          r.verdict = Verdict::Skipped;
          r.note = step_source(p_, i) + ": " + std::string(outcome_name(s->outcome)) + " on " +
                   (s == &sa ? a_.backend : b_.backend) + (s->note.empty() ? "" : ": " + s->note);
          return r;
        }
      }
      if (auto d = step(i, sa, sb)) {
        r.verdict = Verdict::Fail;
        r.first = std::move(d);
        return r;
      }
    }
    if (a_.steps.size() != b_.steps.size()) {
      r.verdict = Verdict::Fail;
      r.first = Difference{n, "step count", std::to_string(a_.steps.size()), std::to_string(b_.steps.size()), ""};
      return r;
    }
    if (!undefined_note_.empty()) {
      r.verdict = Verdict::Undefined;
      r.note = undefined_note_;
    }
    return r;
  }

 private:
  bool created_by_step(size_t i, int id) const {
    if (i == 0) return true;
    for (const StorageObs& st : a_.steps[i - 1].storages)
      if (st.id == id) return false;
    return true;
  }

  void mark_undefined(size_t i, const std::string& why) {
    if (undefined_note_.empty()) undefined_note_ = step_source(p_, i) + ": " + why;
  }

  std::optional<Difference> step(size_t i, const StepObs& sa, const StepObs& sb) {
    auto diff = [&](std::string field, std::string l, std::string r, std::string detail = "") {
      return std::optional<Difference>(Difference{i, std::move(field), std::move(l), std::move(r), std::move(detail)});
    };
    if (sa.outcome != sb.outcome) {
      auto side = [](const StepObs& s) {
        std::string t(outcome_name(s.outcome));
        if (s.outcome == Outcome::Error) t += " " + s.error_kind + ": " + s.error_message;
        if (s.outcome == Outcome::Skipped && !s.note.empty()) t += " (" + s.note + ")";
        return t;
      };
      return diff("outcome", side(sa), side(sb));
    }
    if (sa.outcome == Outcome::Error) {
      if (sa.error_kind != sb.error_kind) return diff("error kind", sa.error_kind, sb.error_kind, "messages: " + quoted(sa.error_message) + " vs " + quoted(sb.error_message));
      if (sa.error_message != sb.error_message) return diff("error message", quoted(sa.error_message), quoted(sb.error_message));
    }
    if (sa.results.size() != sb.results.size())
      return diff("result count", std::to_string(sa.results.size()), std::to_string(sb.results.size()));
    for (size_t r = 0; r < sa.results.size(); ++r)
      if (auto d = result(i, r, sa.results[r], sb.results[r])) return d;
    if (sa.warnings != sb.warnings) return diff("warnings", strings(sa.warnings), strings(sb.warnings));
    if (sa.undefined || sb.undefined)
      mark_undefined(i, "result documented as undefined (" + (sa.undefined ? sa.undefined_reason : sb.undefined_reason) + ")");
    if (sa.versions != sb.versions) {
      std::string detail;
      size_t m = std::min(sa.versions.size(), sb.versions.size());
      for (size_t k = 0; k < m; ++k)
        if (sa.versions[k] != sb.versions[k]) {
          detail = "first difference: " + sa.versions[k].first + ":" + std::to_string(sa.versions[k].second) + " vs " +
                   sb.versions[k].first + ":" + std::to_string(sb.versions[k].second);
          break;
        }
      return diff("versions", versions_text(sa.versions), versions_text(sb.versions), detail);
    }
    if (sa.storages.size() != sb.storages.size())
      return diff("storage count", std::to_string(sa.storages.size()), std::to_string(sb.storages.size()));
    bool step_has_mask = false;
    for (const StepObs* s : {&sa, &sb})
      for (const StorageObs& st : s->storages) step_has_mask |= any_set(st.undefined);
    // A step marked undefined without any undefined byte marked: its contents
    // (and every later step's) are not comparable.
    if ((sa.undefined || sb.undefined) && !step_has_mask) contents_unreliable_ = true;
    for (size_t k = 0; k < sa.storages.size(); ++k)
      if (auto d = storage(i, sa, sb, sa.storages[k], sb.storages[k])) return d;
    return std::nullopt;
  }

  std::optional<Difference> result(size_t i, size_t r, const TensorObs& x, const TensorObs& y) {
    // The field's name is made only for a difference (this runs for every result of every step).
    auto d = [&](const char* f, std::string l, std::string rt) {
      return std::optional<Difference>(
          Difference{i, "result " + std::to_string(r) + " " + f, std::move(l), std::move(rt), ""});
    };
    if (x.dtype != y.dtype) return d("dtype", x.dtype, y.dtype);
    if (x.sizes != y.sizes) return d("sizes", ints(x.sizes), ints(y.sizes));
    if (x.strides != y.strides) return d("strides", ints(x.strides), ints(y.strides));
    if (x.storage_offset != y.storage_offset) return d("storage_offset", std::to_string(x.storage_offset), std::to_string(y.storage_offset));
    if (x.contiguous != y.contiguous) return d("is_contiguous", boolean(x.contiguous), boolean(y.contiguous));
    if (x.channels_last != y.channels_last) return d("is_contiguous(channels_last)", boolean(x.channels_last), boolean(y.channels_last));
    if (x.channels_last_3d != y.channels_last_3d) return d("is_contiguous(channels_last_3d)", boolean(x.channels_last_3d), boolean(y.channels_last_3d));
    if (x.non_overlapping_and_dense != y.non_overlapping_and_dense) return d("is_non_overlapping_and_dense", boolean(x.non_overlapping_and_dense), boolean(y.non_overlapping_and_dense));
    if (x.same_as != y.same_as) return d("same tensor as", x.same_as.empty() ? "(new tensor)" : x.same_as, y.same_as.empty() ? "(new tensor)" : y.same_as);
    if (x.is_view != y.is_view) return d("is_view", boolean(x.is_view), boolean(y.is_view));
    if (x.base != y.base) return d("_base", x.base.empty() ? "(none)" : x.base, y.base.empty() ? "(none)" : y.base);
    if (x.storage != y.storage) return d("storage", "storage " + std::to_string(x.storage), "storage " + std::to_string(y.storage));
    if (x.torch_overlap != y.torch_overlap) return d("has_internal_overlap", std::string(overlap_name(x.torch_overlap)), std::string(overlap_name(y.torch_overlap)));
    if (x.exact_overlap != y.exact_overlap) return d("exact internal overlap", std::string(overlap_name(x.exact_overlap)), std::string(overlap_name(y.exact_overlap)));
    return std::nullopt;
  }

  std::optional<Difference> storage(size_t i, const StepObs& sa, const StepObs& sb, const StorageObs& x, const StorageObs& y) {
    auto pre = [&] { return "storage " + std::to_string(x.id) + " "; };  // for a difference only
    if (x.id != y.id) return Difference{i, "storage numbering", std::to_string(x.id), std::to_string(y.id), ""};
    if (x.nbytes != y.nbytes) return Difference{i, pre() + "nbytes", std::to_string(x.nbytes), std::to_string(y.nbytes), ""};
    if (!x.has_contents || !y.has_contents || contents_unreliable_) return std::nullopt;  // meta: headers only
    if (auto d = chosen_nans(i, x, y)) return d;
    bool mask = any_set(x.undefined) || any_set(y.undefined);
    // Note [fresh undefined bytes]: a storage that this very step created
    // (empty_like) holds garbage on LibTorch's side: nothing defined was there
    // to compare, so its undefined bytes do not make the program undefined
    // yet. If they are still undefined after the next step (nobody wrote
    // them), or were copied elsewhere, that step marks the program.
    if (mask && !created_by_step(i, x.id))
      mark_undefined(i, "storage " + std::to_string(x.id) + " has bytes whose contents are undefined");
    if (has_all_bytes(x) && has_all_bytes(y)) {
      std::optional<std::vector<engine::DType>> reads;  // computed at the first difference
      for (size_t k = 0; k < x.bytes.size(); ++k) {
        if (x.bytes[k] == y.bytes[k] || masked(x.undefined, k) || masked(y.undefined, k)) continue;
        if (!reads) reads = storage_dtypes(x.id);
        if (auto last = nan_pair_excused(*reads, x, y, k)) {
          k = *last;
          continue;
        }
        return contents_difference(i, sb, x, y, static_cast<int64_t>(k));
      }
      return std::nullopt;
    }
    // Only hashes on one side (a recording): the hashes agree only when both
    // sides masked the same bytes; otherwise the contents cannot be compared.
    bool same_mask = (!any_set(x.undefined) && !any_set(y.undefined)) || x.undefined == y.undefined;
    if (!same_mask) return std::nullopt;
    if (x.hash != y.hash) {
      char l[32], r[32];
      std::snprintf(l, sizeof l, "hash %016llx", static_cast<unsigned long long>(x.hash));
      std::snprintf(r, sizeof r, "hash %016llx", static_cast<unsigned long long>(y.hash));
      return Difference{i, pre() + "contents", l, r, "only hashes are recorded on one side: the first differing element is unknown"};
    }
    return std::nullopt;
  }

  // Note [NaN bits]: the one rule that lets two different bytes pass as
  // equal NaNs. Returns the last byte of the NaN pair covering byte k when
  // it is excused:
  //   - every value of the program that lives in this storage reads it as
  //     one floating dtype: a NaN's sign and payload are invisible to the
  //     program, so two NaNs of that dtype are equal;
  //   - or the engine flagged the byte as a NaN whose bits LibTorch's
  //     compiled loops choose between two NaN operands (Note [NaN operand
  //     choice], engine/nan_choice.h), and both sides hold a NaN there in a
  //     floating dtype some value reads.
  // Anywhere else, where a value reads the bytes as an integer (`view
  // dtype=int16`) or as another floating dtype (a float32 view of float16
  // pairs), the bits are compared: the engine writes LibTorch's bits on every
  // path where LibTorch's are deterministic (Note [NaN bits of conversions]
  // in engine/half.h, Note [NaN bits of LibTorch's loops] in
  // engine/nan_bits.h).
  static std::optional<size_t> nan_pair_excused(const std::vector<engine::DType>& reads, const StorageObs& x,
                                                const StorageObs& y, size_t k) {
    const bool single_floating = reads.size() == 1 && engine::is_floating(reads.front());
    const bool chosen = masked(x.nan_choice, k) || masked(y.nan_choice, k);
    if (!single_floating && !chosen) return std::nullopt;
    std::optional<size_t> last;
    for (engine::DType dt : reads) {
      if (!engine::is_floating(dt)) continue;
      const size_t isz = static_cast<size_t>(engine::itemsize(dt));
      const size_t e = k / isz * isz;
      if (e + isz <= x.bytes.size() && is_nan(x.bytes.data() + e, dt) && is_nan(y.bytes.data() + e, dt))
        last = std::max(last.value_or(k), e + isz - 1);
    }
    return last;
  }

  // Note [Chosen NaNs checked] (program/chosen_nans.h): an element flagged
  // as a chosen NaN holds a number (StorageObs::chosen_nan_number, found
  // where the backend observed the storage): a difference, contents recorded
  // or not.
  std::optional<Difference> chosen_nans(size_t i, const StorageObs& x, const StorageObs& y) {
    for (const StorageObs* s : {&x, &y}) {
      if (s->chosen_nan_number < 0) continue;
      const auto k = static_cast<size_t>(s->chosen_nan_number);
      const auto d = static_cast<engine::DType>(s->nan_choice[k] - 1);
      const size_t isz = static_cast<size_t>(engine::itemsize(d));
      bool undefined = false;  // on the other side: not compared
      for (size_t b = k; b < k + isz; ++b) undefined |= masked(x.undefined, b) || masked(y.undefined, b);
      if (undefined) continue;
      auto text = [&](const StorageObs& o) {
        return k + isz <= o.bytes.size() ? element_text(o.bytes.data() + k, d, /*detailed=*/true)
                                         : std::string("(contents not recorded)");
      };
      ValueTable vt;
      for (size_t j = 0; j <= i && j < p_.steps.size(); ++j) vt.add_step(p_.steps[j], a_.steps[j]);
      return Difference{i, "storage " + std::to_string(x.id) + " chosen NaN", text(x), text(y),
                        (s == &x ? a_.backend : b_.backend) + " flags " + std::string(engine::dtype_name(d)) +
                            " element " + std::to_string(k / isz) + " (byte " + std::to_string(k) +
                            ") as a NaN whose bits LibTorch's loops choose, so the diff compares it as a NaN, "
                            "but it holds a number (Note [Chosen NaNs checked]); " +
                            values_reaching(vt, a_.steps[i], x.id, static_cast<int64_t>(k))};
    }
    return std::nullopt;
  }

  // Every dtype that a value of the program (any step, either trace) reads
  // storage `id` as.
  std::vector<engine::DType> storage_dtypes(int id) const {
    std::vector<engine::DType> out;
    for (const Trace* t : {&a_, &b_})
      for (const StepObs& s : t->steps)
        for (const TensorObs& r : s.results) {
          auto dt = engine::parse_dtype(r.dtype);
          if (r.storage == id && dt && std::find(out.begin(), out.end(), *dt) == out.end()) out.push_back(*dt);
        }
    return out;
  }

  Difference contents_difference(size_t i, const StepObs& sb, const StorageObs& x, const StorageObs& y, int64_t k) {
    std::string field = "storage " + std::to_string(x.id) + " contents";
    // Every step up to this one passed (this is the first difference): the
    // values they bound, as the left trace records them, and this step's.
    ValueTable vt;
    for (size_t j = 0; j <= i && j < p_.steps.size(); ++j) vt.add_step(p_.steps[j], a_.steps[j]);
    auto dt = vt.dtype_of_storage(x.id);
    int64_t isz = dt ? engine::itemsize(*dt) : 1;
    int64_t e = k / isz;
    std::string l, r;
    if (dt && (e + 1) * isz <= x.nbytes) {
      l = element_text(x.bytes.data() + e * isz, *dt, /*detailed=*/true);
      r = element_text(y.bytes.data() + e * isz, *dt, /*detailed=*/true);
      // Two NaNs print alike: show their bits (Note [NaN bits]).
      if (l == r) {
        l += " (bits " + element_bits(x.bytes.data() + e * isz, isz) + ")";
        r += " (bits " + element_bits(y.bytes.data() + e * isz, isz) + ")";
      }
    } else {
      l = hex_bytes(x.bytes, static_cast<size_t>(k), 1);
      r = hex_bytes(y.bytes, static_cast<size_t>(k), 1);
    }
    std::string detail = "first differing element: " +
                         (dt ? std::string(engine::dtype_name(*dt)) + " element " + std::to_string(e) + " (byte " +
                                   std::to_string(e * isz) + ")"
                             : "byte " + std::to_string(k) + " (no result known in this storage to give a dtype)") +
                         "; " + values_reaching(vt, a_.steps[i], x.id, e * isz);
    (void)sb;
    return Difference{i, field, l, r, detail};
  }

  const Program& p_;
  const Trace& a_;
  const Trace& b_;
  std::string undefined_note_;
  bool contents_unreliable_ = false;
};

}  // namespace

DiffResult diff_traces(const Program& program, const Trace& a, const Trace& b) { return Differ(program, a, b).run(); }

std::string format_diff(const Program& program, const Trace& a, const Trace& b, const DiffResult& d) {
  std::string out;
  switch (d.verdict) {
    case Verdict::Pass: return "pass\n";
    case Verdict::Skipped: return "skipped: " + d.note + "\n";
    case Verdict::Undefined: return "undefined: " + d.note + "\n";
    case Verdict::Fail: break;
  }
  const Difference& f = *d.first;
  size_t w = std::max(a.backend.size(), b.backend.size());
  auto pad = [&](const std::string& s) { return s + std::string(w - s.size(), ' '); };
  out += "first difference at step " + std::to_string(f.step + 1) + ", " + f.field + "\n";
  out += "  " + step_source(program, f.step) + "\n";
  out += "  " + pad(a.backend) + " : " + f.left + "\n";
  out += "  " + pad(b.backend) + " : " + f.right + "\n";
  if (!f.detail.empty()) out += "  " + f.detail + "\n";
  return out;
}

}  // namespace sc
