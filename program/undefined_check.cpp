#include "program/undefined_check.h"

#include <algorithm>
#include <climits>
#include <functional>
#include <iterator>
#include <optional>
#include <set>
#include <tuple>

namespace sc {

namespace {

using engine::ClaimGeometry;
using engine::MemOverlap;
using engine::UndefinedClaim;
using Kind = UndefinedClaim::Kind;

std::string list(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

std::string text(const ClaimGeometry& g) {
  return "sizes " + list(g.sizes) + " strides " + list(g.strides) + " offset " + std::to_string(g.storage_offset) +
         " itemsize " + std::to_string(g.itemsize);
}

// The strides `in` has when broadcast to `sizes` (right-aligned; a size-1 or
// missing dim reads stride 0), or nothing when it does not broadcast.
std::optional<std::vector<int64_t>> broadcast_strides(const ClaimGeometry& in, const std::vector<int64_t>& sizes) {
  if (in.sizes.size() > sizes.size() || in.strides.size() != in.sizes.size()) return std::nullopt;
  std::vector<int64_t> st(sizes.size(), 0);
  const size_t lead = sizes.size() - in.sizes.size();
  for (size_t k = 0; k < in.sizes.size(); ++k) {
    if (in.sizes[k] == sizes[lead + k]) st[lead + k] = in.strides[k];
    else if (in.sizes[k] != 1) return std::nullopt;
  }
  return st;
}

// Calls f(byte offset in `a`, byte offset in `b`) for every index tuple of
// `sizes`, where a and b have the given element strides, offsets and
// itemsizes. False (and no calls past that point) on more than
// kBruteForceElements tuples or an offset past int64.
// (A template, not a std::function: it runs once per element of every result
// of every fuzz execution.)
template <class F>
bool enumerate(const std::vector<int64_t>& sizes, const ClaimGeometry& a, const std::vector<int64_t>& b_strides,
               const ClaimGeometry& b, F&& f) {
  int64_t numel = 1;
  for (int64_t n : sizes) {
    if (n < 0) return false;
    if (n == 0) return true;
    if (__builtin_mul_overflow(numel, n, &numel) || numel > engine::kBruteForceElements) return false;
  }
  const size_t nd = sizes.size();
  std::vector<int64_t> idx(nd, 0);
  for (int64_t e = 0; e < numel; ++e) {
    int64_t oa = a.storage_offset, ob = b.storage_offset;
    for (size_t d = 0; d < nd; ++d) {
      int64_t ta, tb;
      if (__builtin_mul_overflow(idx[d], a.strides[d], &ta) || __builtin_add_overflow(oa, ta, &oa)) return false;
      if (__builtin_mul_overflow(idx[d], b_strides[d], &tb) || __builtin_add_overflow(ob, tb, &ob)) return false;
    }
    int64_t ba, bb;
    if (__builtin_mul_overflow(oa, a.itemsize, &ba) || __builtin_mul_overflow(ob, b.itemsize, &bb)) return false;
    f(ba, bb);
    for (size_t d = nd; d-- > 0;) {
      if (++idx[d] < sizes[d]) break;
      idx[d] = 0;
    }
  }
  return true;
}

// Byte offsets of the elements of g, in index order; nothing when too big.
std::optional<std::vector<int64_t>> offsets(const ClaimGeometry& g) {
  if (g.strides.size() != g.sizes.size()) return std::nullopt;
  std::vector<int64_t> out;
  if (!enumerate(g.sizes, g, g.strides, g, [&](int64_t o, int64_t) { out.push_back(o); })) return std::nullopt;
  return out;
}

// std::sort's result, found without sorting when the offsets come in
// ascending or descending order (a layout with strides of one sign, the
// common case): the sorted order of integers is unique.
void sort_offsets(std::vector<int64_t>& v) {
  if (std::is_sorted(v.begin(), v.end())) return;
  if (std::is_sorted(v.begin(), v.end(), std::greater<int64_t>())) {
    std::reverse(v.begin(), v.end());
    return;
  }
  std::sort(v.begin(), v.end());
}

std::vector<int64_t> sorted_unique(std::vector<int64_t> v) {
  sort_offsets(v);
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// Locations (byte offsets) reached by more than one index tuple.
std::vector<int64_t> reached_twice(std::vector<int64_t> offs) {
  sort_offsets(offs);
  std::vector<int64_t> twice;
  for (size_t i = 1; i < offs.size(); ++i)
    if (offs[i] == offs[i - 1] && (twice.empty() || twice.back() != offs[i])) twice.push_back(offs[i]);
  return twice;
}

// "" when equal, else the first element in one set and not the other.
std::string set_difference_text(const std::vector<int64_t>& claimed, const std::vector<int64_t>& found) {
  if (claimed == found) return "";
  std::vector<int64_t> extra, missing;
  std::set_difference(claimed.begin(), claimed.end(), found.begin(), found.end(), std::back_inserter(extra));
  std::set_difference(found.begin(), found.end(), claimed.begin(), claimed.end(), std::back_inserter(missing));
  std::string s = std::to_string(claimed.size()) + " claimed, " + std::to_string(found.size()) + " by enumeration";
  if (!extra.empty()) s += "; claimed but not found: byte " + std::to_string(extra.front());
  if (!missing.empty()) s += "; found but not claimed: byte " + std::to_string(missing.front());
  return s;
}

// answer_only: c.marked is not compared (the trace's results carry the
// answer, not the marked locations).
std::string check_internal(const UndefinedClaim& c, bool* too_big, bool answer_only = false) {
  auto offs = offsets(c.written);
  if (!offs) return *too_big = true, "";
  const std::vector<int64_t> twice = reached_twice(*offs);
  const std::string where = "internal overlap of (" + text(c.written) + "): ";
  if (c.answer == MemOverlap::No && !twice.empty())
    return where + "claimed No, but " + std::to_string(twice.size()) + " locations are reached twice (first: byte " +
           std::to_string(twice.front()) + ")";
  if (c.answer == MemOverlap::Yes && twice.empty())
    return where + "claimed Yes, but no location is reached twice";
  if (c.answer == MemOverlap::Yes && !answer_only) {
    std::string diff = set_difference_text(sorted_unique(c.marked), twice);
    if (!diff.empty()) return where + "locations marked as written twice differ: " + diff;
  }
  if (c.answer == MemOverlap::TooHard)
    return where + "claimed TooHard (everything marked undefined) on " + std::to_string(offs->size()) +
           " elements; enumeration: " + (twice.empty() ? "No" : "Yes");
  return "";
}

// Does every element of `written` read exactly its own bytes of `input` (same
// element size, input broadcast to written's sizes)? Too big counts as no.
bool lined_up(const UndefinedClaim& c) {
  if (c.written.itemsize != c.input.itemsize) return false;
  auto st = broadcast_strides(c.input, c.written.sizes);
  if (!st) return false;
  bool same = true;
  bool ok = enumerate(c.written.sizes, c.written, *st, c.input, [&](int64_t w, int64_t r) { same = same && w == r; });
  return ok && same;
}

std::string check_input_overlap(const UndefinedClaim& c, bool* too_big) {
  auto w = offsets(c.written);
  auto in = offsets(c.input);
  if (!w || !in) return *too_big = true, "";
  // A shared byte: some written element [x, x + wi) meets an input element [y, y + ii).
  sort_offsets(*w);
  bool shared = false;
  int64_t at = 0;
  for (int64_t y : *in) {
    auto it = std::lower_bound(w->begin(), w->end(), y - c.written.itemsize + 1);
    if (it != w->end() && *it < y + c.input.itemsize) {
      shared = true;
      at = std::max(*it, y);
      break;
    }
  }
  const std::string where =
      "overlap of the written tensor (" + text(c.written) + ") and an input (" + text(c.input) + "): ";
  if (c.answer == MemOverlap::No && shared) return where + "claimed No, but both reach byte " + std::to_string(at);
  if (c.answer == MemOverlap::Yes && !shared) return where + "claimed Yes, but they share no byte";
  if (c.answer != MemOverlap::No && lined_up(c)) {
    return where + "claimed " + (c.answer == MemOverlap::Yes ? "Yes" : "TooHard") +
           " (everything marked undefined), but every element reads exactly its own bytes (lined up: the result "
           "is defined in any order)";
  }
  if (c.answer == MemOverlap::TooHard)
    return where + "claimed TooHard (everything marked undefined) on tensors small enough to enumerate; enumeration: " +
           (shared ? "Yes" : "No");
  return "";
}

std::string check_input_aligned(const UndefinedClaim& c, bool* too_big) {
  const std::string where = "the written tensor (" + text(c.written) + ") and an input (" + text(c.input) +
                            ") claimed lined up (each element reads its own bytes): ";
  if (c.written.itemsize != c.input.itemsize) return where + "but their element sizes differ";
  auto st = broadcast_strides(c.input, c.written.sizes);
  if (!st) return where + "but the input does not broadcast to the written sizes";
  std::string finding;
  bool ok = enumerate(c.written.sizes, c.written, *st, c.input, [&](int64_t w, int64_t r) {
    if (w != r && finding.empty())
      finding = where + "but an element at byte " + std::to_string(w) + " reads byte " + std::to_string(r);
  });
  if (!ok) return *too_big = true, "";
  return finding;
}

// Both dense in the same element order (element k of each at its base + k *
// itemsize); `marked`: the written elements whose input bytes an earlier
// element's write reaches.
std::string check_input_read_in_memory_order(const UndefinedClaim& c, bool* too_big) {
  const std::string where = "the written tensor (" + text(c.written) + ") converted in memory order from an input (" +
                            text(c.input) + "): ";
  if (c.written.sizes != c.input.sizes) return where + "but their sizes differ";
  auto w_offs = offsets(c.written);
  auto r_offs = offsets(c.input);
  if (!w_offs || !r_offs) return *too_big = true, "";
  if (w_offs->empty()) return "";
  const int64_t d = *std::min_element(w_offs->begin(), w_offs->end());
  const int64_t s = *std::min_element(r_offs->begin(), r_offs->end());
  const int64_t dw = c.written.itemsize, sr = c.input.itemsize;
  const int64_t n = static_cast<int64_t>(w_offs->size());
  std::vector<int64_t> expected;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t kw = ((*w_offs)[static_cast<size_t>(i)] - d), kr = ((*r_offs)[static_cast<size_t>(i)] - s);
    if (kw % dw != 0 || kr % sr != 0 || kw / dw != kr / sr)
      return where + "but the element at byte " + std::to_string((*w_offs)[static_cast<size_t>(i)]) +
             " is not at the input's memory rank";
    const int64_t k = kw / dw;
    if (s + k * sr < d + k * dw && s + (k + 1) * sr > d) expected.push_back(d + k * dw);
  }
  // dense: the ranks are 0..n-1, each once
  if (sorted_unique(*w_offs).size() != w_offs->size() ||
      (n > 0 && sorted_unique(*w_offs).back() != d + (n - 1) * dw))
    return where + "but the written tensor is not dense";
  std::string diff = set_difference_text(sorted_unique(c.marked), sorted_unique(expected));
  return diff.empty() ? "" : where + "the elements read after an earlier write differ: " + diff;
}

std::string check_reads_undefined(const UndefinedClaim& c, bool* too_big) {
  if (!c.checkable) return *too_big = true, "";
  const std::string where =
      "elements of the written tensor (" + text(c.written) + ") reading undefined bytes of an input (" +
      text(c.input) + (c.input_is_bool ? ", bool" : "") + "): ";
  auto st = broadcast_strides(c.input, c.written.sizes);
  if (!st) return where + "the input does not broadcast to the written sizes";
  const int64_t n = static_cast<int64_t>(std::max(c.window_mask.size(), c.window_bytes.size()));
  std::vector<int64_t> expected;
  std::string finding;
  bool ok = enumerate(c.written.sizes, c.written, *st, c.input, [&](int64_t w, int64_t r) {
    const int64_t k = r - c.window_begin;
    bool undefined = false;
    if (c.input_is_bool) {
      if (k < 0 || k >= static_cast<int64_t>(c.window_bytes.size())) {
        if (finding.empty()) finding = where + "a read at byte " + std::to_string(r) + " falls outside the input's extent";
        return;
      }
      undefined = c.window_bytes[static_cast<size_t>(k)] > 1;
    }
    for (int64_t b = 0; b < c.input.itemsize && !c.window_mask.empty() && !undefined; ++b) {
      if (k + b < 0 || k + b >= n) {
        if (finding.empty()) finding = where + "a read at byte " + std::to_string(r) + " falls outside the input's extent";
        return;
      }
      undefined = c.window_mask[static_cast<size_t>(k + b)] != 0;
    }
    if (undefined) expected.push_back(w);
  });
  if (!ok) return *too_big = true, "";
  if (!finding.empty()) return finding;
  std::string diff = set_difference_text(sorted_unique(c.marked), sorted_unique(expected));
  return diff.empty() ? "" : where + diff;
}

bool same_place(const ClaimGeometry& a, const ClaimGeometry& b) {
  return a.storage == b.storage && a.sizes == b.sizes && a.strides == b.strides &&
         a.storage_offset == b.storage_offset && a.itemsize == b.itemsize;
}

// A write's end state: the elements of `done.written` flagged undefined must
// be exactly those its claims (`write`, from WriteBegin on) justify -- every
// element after an overlapping input or a TooHard answer, else the elements
// written twice and those computed from undefined bytes. A needless undefined
// flag hides a comparison as surely as a wrong overlap answer does.
std::string check_write_done(const UndefinedClaim& done, const std::vector<const UndefinedClaim*>& write,
                             bool* too_big) {
  if (!done.checkable) return *too_big = true, "";
  auto offs = offsets(done.written);
  if (!offs) return *too_big = true, "";
  const int64_t item = done.written.itemsize;
  const int64_t n = static_cast<int64_t>(done.window_mask.size());
  std::vector<int64_t> flagged;
  for (int64_t o : *offs) {
    const int64_t k = o - done.window_begin;
    for (int64_t b = 0; b < item && n > 0; ++b)
      if (k + b >= 0 && k + b < n && done.window_mask[static_cast<size_t>(k + b)] != 0) {
        flagged.push_back(o);
        break;
      }
  }
  bool all = false;
  std::vector<int64_t> justified;
  for (const UndefinedClaim* c : write) {
    if (!same_place(c->written, done.written)) continue;
    if (c->kind == Kind::InputOverlap && c->answer != MemOverlap::No) all = true;
    if (c->kind == Kind::InternalOverlap && c->answer == MemOverlap::TooHard) all = true;
    if (c->kind == Kind::InternalOverlap || c->kind == Kind::ReadsUndefined ||
        c->kind == Kind::InputReadInMemoryOrder)
      justified.insert(justified.end(), c->marked.begin(), c->marked.end());
  }
  std::vector<int64_t> expected = all ? *offs : justified;
  std::string diff = set_difference_text(sorted_unique(flagged), sorted_unique(expected));
  if (diff.empty()) return "";
  return "after a write to (" + text(done.written) + "), the elements left undefined are not those its claims justify" +
         (all ? " (an overlapping input or TooHard: all)" : "") + ": " + diff;
}

}  // namespace

std::string check_claim(const UndefinedClaim& c, bool* too_big) {
  bool big = false;
  std::string finding;
  switch (c.kind) {
    case Kind::InternalOverlap: finding = check_internal(c, &big); break;
    case Kind::InputOverlap: finding = check_input_overlap(c, &big); break;
    case Kind::InputAligned: finding = check_input_aligned(c, &big); break;
    case Kind::InputReadInMemoryOrder: finding = check_input_read_in_memory_order(c, &big); break;
    case Kind::ReadsUndefined: finding = check_reads_undefined(c, &big); break;
    case Kind::WriteBegin: break;
    case Kind::WriteDone: break;  // needs the write's claims: check_undefined
  }
  if (too_big) *too_big = big;
  return finding;
}

UndefinedCheck check_undefined(const std::vector<UndefinedClaim>& claims, const Trace& engine_trace) {
  UndefinedCheck r;
  auto take = [&](std::string finding, bool big) {
    if (big) ++r.too_big;
    else ++r.checked;
    if (!finding.empty()) r.findings.push_back(std::move(finding));
  };
  std::vector<const UndefinedClaim*> write;  // the claims since the last WriteBegin
  for (const UndefinedClaim& c : claims) {
    bool big = false;
    if (c.kind == Kind::WriteBegin) {
      write.clear();
      continue;
    }
    if (c.kind == Kind::WriteDone) {
      std::string f = check_write_done(c, write, &big);
      take(std::move(f), big);
      write.clear();
      continue;
    }
    write.push_back(&c);
    std::string f = check_claim(c, &big);
    take(std::move(f), big);
  }
  // Each result's exact internal overlap, as the trace reports it (both
  // backends' traces take it from the same solver). Note [The trace's
  // overlap answers, enumerated once per geometry]: internal overlap does not
  // depend on the storage offset, so results of one sizes, strides and answer
  // (unbind's or split's pieces: 1,604 results of 39,501 elements in the
  // 2026-12-02 ASan campaign's timeout, 63 M offsets sorted twice) are
  // enumerated once, a wrong answer reported for the first; and at most
  // kTraceOverlapElements elements are enumerated per trace, the rest
  // counted too big.
  std::set<std::tuple<std::vector<int64_t>, std::vector<int64_t>, MemOverlap>> seen;
  int64_t budget = kTraceOverlapElements;
  for (size_t i = 0; i < engine_trace.steps.size(); ++i) {
    const StepObs& s = engine_trace.steps[i];
    for (size_t k = 0; k < s.results.size(); ++k) {
      const TensorObs& t = s.results[k];
      UndefinedClaim c;
      c.kind = Kind::InternalOverlap;
      c.written = {t.sizes, t.strides, t.storage_offset, 1};
      c.answer = t.exact_overlap == Overlap::Yes ? MemOverlap::Yes
                 : t.exact_overlap == Overlap::No ? MemOverlap::No
                                                  : MemOverlap::TooHard;
      if (!seen.emplace(t.sizes, t.strides, c.answer).second) {
        take("", false);  // the geometry's first result was checked
        continue;
      }
      int64_t n = 1;  // elements, saturated at INT64_MAX (a negative size: too big below)
      for (int64_t d : t.sizes)
        if (d <= 0 || __builtin_mul_overflow(n, d, &n)) n = d == 0 ? 0 : INT64_MAX;
      if (n > budget) {
        take("", true);
        continue;
      }
      budget -= std::max<int64_t>(n, 0);
      bool big = false;
      std::string f = check_internal(c, &big, /*answer_only=*/true);
      if (!f.empty()) f = "step " + std::to_string(i) + " result " + std::to_string(k) + " exact overlap: " + f;
      take(std::move(f), big);
    }
  }
  return r;
}

std::string format_undefined_check(const UndefinedCheck& u) {
  std::string s = "UNDEFINED claim check: " + std::to_string(u.findings.size()) + " wrong claim(s) of " +
                  std::to_string(u.checked) + " checked by enumeration\n";
  for (size_t i = 0; i < u.findings.size() && i < 5; ++i) s += "  " + u.findings[i] + "\n";
  if (u.findings.size() > 5) s += "  ... and " + std::to_string(u.findings.size() - 5) + " more\n";
  return s;
}

bool claims_checkable(const std::vector<std::string>& names) {
  return names.size() == 2 && names[0] == "engine:cpu" && names[1].rfind("libtorch:", 0) == 0;
}

ClaimCheckedComparison compare_checking_claims(const std::function<Comparison()>& compare, bool check) {
  if (!check) return {compare(), {}};
  engine::ClaimLog log;
  ClaimCheckedComparison r{compare(), {}};
  r.claims = check_undefined(log.claims(), r.comparison.left);
  return r;
}

}  // namespace sc
