#include "program/trace_text.h"

#include <algorithm>
#include <charconv>
#include <functional>
#include <map>
#include <sstream>

#include "engine/dtype.h"
#include "program/diff.h"

namespace sc {
namespace {

std::string ints(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

std::string hex64(uint64_t h) {
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

constexpr size_t kShownElements = 8;

// The first few elements of a storage, decoded with `dtype` when known, else as bytes.
std::string first_elements(const StorageObs& s, const std::string& dtype) {
  if (!s.has_contents) return "no contents (this device has none)";
  if (s.bytes.empty()) return s.nbytes == 0 ? "[]" : "contents not recorded";
  auto dt = engine::parse_dtype(dtype);
  int64_t isz = dt ? engine::itemsize(*dt) : 1;
  std::string out = dt ? std::string(engine::dtype_name(*dt)) + " [" : "bytes [";
  size_t n = s.bytes.size() / static_cast<size_t>(isz);
  for (size_t e = 0; e < n && e < kShownElements; ++e) {
    bool undef = false;
    for (int64_t k = 0; k < isz; ++k)
      undef |= e * isz + k < s.undefined.size() && s.undefined[e * isz + k];
    std::string v;
    if (undef) {
      v = "?";
    } else if (dt) {
      v = element_text(s.bytes.data() + e * isz, *dt, /*detailed=*/false);
    } else {
      char b[4];
      std::snprintf(b, sizeof b, "%02x", s.bytes[e]);
      v = b;
    }
    out += (e ? ", " : "") + v;
  }
  if (n > kShownElements) out += ", ... (" + std::to_string(n) + " elements)";
  return out + "]";
}

// A step's readable text in keyed sections ("head", "result 0", "warnings",
// "versions", "storage 0", ...), so two traces can be laid side by side with
// the same facts on the same lines.
using Sections = std::vector<std::pair<std::string, std::vector<std::string>>>;

Sections render_sections(const StepObs& o, const std::map<int, std::string>& storage_dtype) {
  Sections out;
  std::string head(outcome_name(o.outcome));
  if (!o.note.empty()) head += " (" + o.note + ")";
  out.push_back({"head", {head}});
  if (o.outcome == Outcome::Error) out.push_back({"error", {"error " + o.error_kind + ": " + o.error_message}});
  auto yes = [](bool b) { return b ? std::string("yes") : std::string("no"); };
  for (size_t r = 0; r < o.results.size(); ++r) {
    const TensorObs& t = o.results[r];
    std::vector<std::string> lines;
    lines.push_back("result " + std::to_string(r) + ": " + t.dtype + " sizes " + ints(t.sizes) + " strides " +
                    ints(t.strides) + " offset " + std::to_string(t.storage_offset) + " storage " +
                    std::to_string(t.storage));
    lines.push_back("  contiguous " + yes(t.contiguous) + ", channels_last " + yes(t.channels_last) +
                    ", channels_last_3d " + yes(t.channels_last_3d));
    lines.push_back("  non_overlapping_and_dense " + yes(t.non_overlapping_and_dense) + ", overlap: torch " +
                    std::string(overlap_name(t.torch_overlap)) + ", exact " + std::string(overlap_name(t.exact_overlap)));
    std::string alias = t.is_view ? "  view of " + (t.base.empty() ? std::string("?") : t.base) : std::string("  not a view");
    if (!t.same_as.empty()) alias += ", same tensor as " + t.same_as;
    lines.push_back(alias);
    out.push_back({"result " + std::to_string(r), lines});
  }
  if (!o.warnings.empty()) {
    std::vector<std::string> w;
    for (const std::string& x : o.warnings) w.push_back("warning: " + x);
    out.push_back({"warnings", w});
  }
  if (o.undefined) out.push_back({"undefined", {"undefined: " + o.undefined_reason}});
  std::string v = "versions:";
  for (auto& [n, ver] : o.versions) v += " " + n + ":" + std::to_string(ver);
  out.push_back({"versions", {v}});
  for (const StorageObs& s : o.storages) {
    auto it = storage_dtype.find(s.id);
    out.push_back({"storage " + std::to_string(s.id),
                   {"storage " + std::to_string(s.id) + ": " + std::to_string(s.nbytes) + " bytes, hash " +
                        (s.has_contents ? hex64(s.hash) : std::string("-")),
                    "  " + first_elements(s, it == storage_dtype.end() ? "" : it->second)}});
  }
  return out;
}

std::vector<std::string> flatten(const Sections& sections) {
  std::vector<std::string> out;
  for (auto& [key, lines] : sections) out.insert(out.end(), lines.begin(), lines.end());
  return out;
}

// Renders a trace's steps in order, one at a time, tracking which dtype each
// storage was last seen with.
class BlockRenderer {
 public:
  Sections next(const StepObs& o) {
    for (const TensorObs& r : o.results) storage_dtype_[r.storage] = r.dtype;
    return render_sections(o, storage_dtype_);
  }

 private:
  std::map<int, std::string> storage_dtype_;
};

// ---- recorded lines ---------------------------------------------------------

std::string quote(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      q += '\\';
      q += c;
    } else if (c == '\n') {
      q += "\\n";
    } else if (c == '\t') {
      q += "\\t";
    } else if (c == '\r') {
      q += "\\r";
    } else if (u < 0x20 || u == 0x7f) {
      char b[8];
      std::snprintf(b, sizeof b, "\\x%02x", u);
      q += b;
    } else {
      q += c;
    }
  }
  return q + "\"";
}

std::string name_or_dash(const std::string& s) { return s.empty() ? "-" : s; }

std::string flags(const TensorObs& t) {
  std::string f;
  f += t.contiguous ? 'c' : '-';
  f += t.channels_last ? 'l' : '-';
  f += t.channels_last_3d ? 'L' : '-';
  f += t.non_overlapping_and_dense ? 'd' : '-';
  return f;
}

// Byte ranges [a,b) where the mask is set: "a-b,c-d".
std::string mask_ranges(const std::vector<uint8_t>& m) {
  std::string s;
  size_t k = 0;
  while (k < m.size()) {
    if (!m[k]) {
      ++k;
      continue;
    }
    size_t e = k;
    while (e < m.size() && m[e]) ++e;
    s += (s.empty() ? "" : ",") + std::to_string(k) + "-" + std::to_string(e);
    k = e;
  }
  return s;
}

[[noreturn]] void bad(size_t line, const std::string& why) {
  throw RecordingError("recorded line " + std::to_string(line + 1) + ": " + why, static_cast<int>(line), why);
}

// Splits on spaces; a '"' opens a quoted run (C escapes) that may hold spaces.
std::vector<std::string> split_fields(const std::string& s, size_t line) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    if (s[i] == ' ' || s[i] == '\t') {
      ++i;
      continue;
    }
    std::string f;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') {
      if (s[i] != '"') {
        f += s[i++];
        continue;
      }
      f += s[i++];
      bool closed = false;
      while (i < s.size()) {
        char c = s[i++];
        f += c;
        if (c == '\\') {
          if (i >= s.size()) bad(line, "unterminated escape");
          f += s[i++];
        } else if (c == '"') {
          closed = true;
          break;
        }
      }
      if (!closed) bad(line, "unterminated string");
    }
    out.push_back(f);
  }
  return out;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string unquote(const std::string& q, size_t line) {
  if (q.size() < 2 || q.front() != '"' || q.back() != '"') bad(line, "expected a quoted string, got " + q);
  std::string s;
  for (size_t i = 1; i + 1 < q.size(); ++i) {
    char c = q[i];
    if (c != '\\') {
      s += c;
      continue;
    }
    if (++i + 1 > q.size() - 1) bad(line, "bad escape");
    char e = q[i];
    switch (e) {
      case 'n': s += '\n'; break;
      case 't': s += '\t'; break;
      case 'r': s += '\r'; break;
      case '\\': s += '\\'; break;
      case '"': s += '"'; break;
      case 'x': {
        if (i + 2 >= q.size() - 1 || hex_digit(q[i + 1]) < 0 || hex_digit(q[i + 2]) < 0) bad(line, "bad \\x escape");
        s += static_cast<char>(hex_digit(q[i + 1]) * 16 + hex_digit(q[i + 2]));
        i += 2;
        break;
      }
      default: bad(line, std::string("unknown escape \\") + e);
    }
  }
  return s;
}

int64_t to_int(std::string_view s, size_t line) {
  int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) bad(line, "expected an integer, got '" + std::string(s) + "'");
  return v;
}

uint64_t to_hash(std::string_view s, size_t line) {
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty()) bad(line, "expected a hex hash, got '" + std::string(s) + "'");
  return v;
}

std::vector<int64_t> to_ints(std::string_view s, size_t line) {
  if (s.size() < 2 || s.front() != '[' || s.back() != ']') bad(line, "expected [a,b,...], got '" + std::string(s) + "'");
  s = s.substr(1, s.size() - 2);
  std::vector<int64_t> v;
  while (!s.empty()) {
    size_t c = s.find(',');
    v.push_back(to_int(s.substr(0, c), line));
    if (c == std::string_view::npos) break;
    s.remove_prefix(c + 1);
  }
  return v;
}

Overlap to_overlap_answer(std::string_view s, size_t line) {
  for (Overlap o : {Overlap::No, Overlap::Yes, Overlap::TooHard})
    if (overlap_name(o) == s) return o;
  bad(line, "unknown overlap answer '" + std::string(s) + "'");
}

Outcome to_outcome(std::string_view s, size_t line) {
  for (Outcome o : {Outcome::Ok, Outcome::Error, Outcome::Skipped, Outcome::OverBudget, Outcome::TimedOut, Outcome::Refused})
    if (outcome_name(o) == s) return o;
  bad(line, "unknown outcome '" + std::string(s) + "'");
}

// key=value -> value (for the expected key), else error.
std::string kv(const std::string& field, std::string_view key, size_t line) {
  if (field.size() <= key.size() || field.compare(0, key.size(), key) != 0 || field[key.size()] != '=')
    bad(line, "expected " + std::string(key) + "=..., got '" + field + "'");
  return field.substr(key.size() + 1);
}

}  // namespace

std::vector<std::string> render_step(const StepObs& o) { return flatten(render_sections(o, {})); }

std::string render_trace(const Program& p, const Trace& t) {
  std::string out = t.backend + " (" + t.backend_version + ")\n";
  BlockRenderer blocks;
  for (size_t i = 0; i < t.steps.size(); ++i) {
    out += "step " + std::to_string(i + 1) + ": " + step_source(p, i) + "\n";
    for (const std::string& l : flatten(blocks.next(t.steps[i]))) out += "  " + l + "\n";
  }
  return out;
}

// Step by step: the text of a long trace is never held whole (`run` of a
// program near the trace budget prints gigabytes; Note [The trace budget]).
void render_side_by_side(const Program& p, const Trace& a, const Trace& b,
                         const std::function<void(const std::string&)>& emit) {
  size_t w = std::max(a.backend.size() + a.backend_version.size() + 3, size_t{20});
  {
    BlockRenderer left;
    for (const StepObs& o : a.steps)
      for (auto& [key, lines] : left.next(o))
        for (const std::string& l : lines) w = std::max(w, l.size());
  }
  w = std::min(w, size_t{72});
  auto pad = [&](const std::string& s) { return s.size() >= w ? s : s + std::string(w - s.size(), ' '); };
  emit("  " + pad(a.backend + " (" + a.backend_version + ")") + "   " + b.backend + " (" + b.backend_version + ")\n");
  BlockRenderer left, right;
  const size_t n = std::max(a.steps.size(), b.steps.size());
  for (size_t i = 0; i < n; ++i) {
    std::string out = "step " + std::to_string(i + 1) + ": " + step_source(p, i) + "\n";
    const Sections x = i < a.steps.size() ? left.next(a.steps[i]) : Sections{};
    const Sections y = i < b.steps.size() ? right.next(b.steps[i]) : Sections{};
    // Keys in order of first appearance on the left, then those only on the right
    // placed after the last key they follow on the right.
    std::vector<std::string> keys;
    for (auto& [k, l] : x) keys.push_back(k);
    size_t at = 0;
    for (auto& [k, l] : y) {
      auto it = std::find(keys.begin(), keys.end(), k);
      if (it == keys.end()) {
        keys.insert(keys.begin() + static_cast<long>(std::min(at, keys.size())), k);
        ++at;
      } else {
        at = static_cast<size_t>(it - keys.begin()) + 1;
      }
    }
    auto lines_of = [](const Sections& s, const std::string& k) {
      for (auto& [key, l] : s)
        if (key == k) return l;
      return std::vector<std::string>{};
    };
    for (const std::string& k : keys) {
      auto l = lines_of(x, k), r = lines_of(y, k);
      for (size_t j = 0; j < std::max(l.size(), r.size()); ++j) {
        std::string sl = j < l.size() ? l[j] : "", sr = j < r.size() ? r[j] : "";
        out += "  " + pad(sl) + (sl == sr ? " | " : " ! ") + sr + "\n";
      }
    }
    emit(out);
  }
}

std::string render_side_by_side(const Program& p, const Trace& a, const Trace& b) {
  std::string out;
  render_side_by_side(p, a, b, [&](const std::string& s) { out += s; });
  return out;
}

std::vector<std::string> serialize_trace(const Trace& t) {
  std::vector<std::string> out;
  out.push_back("#> trace " + (t.backend.empty() ? std::string("-") : t.backend) + " " + quote(t.backend_version));
  for (size_t i = 0; i < t.steps.size(); ++i) {
    const StepObs& o = t.steps[i];
    std::string n = std::to_string(i);
    std::string head = "#> step " + n + " " + std::string(outcome_name(o.outcome));
    if (o.outcome == Outcome::Error) head += " kind=" + quote(o.error_kind) + " message=" + quote(o.error_message);
    if (!o.note.empty()) head += " note=" + quote(o.note);
    out.push_back(head);
    for (const TensorObs& r : o.results)
      out.push_back("#> result " + n + " " + r.dtype + " sizes=" + ints(r.sizes) + " strides=" + ints(r.strides) +
                    " offset=" + std::to_string(r.storage_offset) + " flags=" + flags(r) +
                    " same=" + name_or_dash(r.same_as) + " view=" + (r.is_view ? "1" : "0") +
                    " base=" + name_or_dash(r.base) + " storage=" + std::to_string(r.storage) + " overlap=" +
                    std::string(overlap_name(r.torch_overlap)) + "/" + std::string(overlap_name(r.exact_overlap)));
    for (const std::string& w : o.warnings) out.push_back("#> warning " + n + " " + quote(w));
    if (o.undefined) out.push_back("#> undefined " + n + " " + quote(o.undefined_reason));
    std::string v = "#> versions " + n;
    for (auto& [name, ver] : o.versions) v += " " + name + ":" + std::to_string(ver);
    out.push_back(v);
    std::string s = "#> storages " + n;
    for (const StorageObs& st : o.storages) {
      s += " " + std::to_string(st.id) + ":" + std::to_string(st.nbytes) + ":" + (st.has_contents ? hex64(st.hash) : "-");
      std::string m = mask_ranges(st.undefined);
      if (!m.empty()) s += ":u=" + m;
      m = mask_ranges(st.nan_choice);
      if (!m.empty()) s += ":n=" + m;
    }
    out.push_back(s);
  }
  return out;
}

Trace parse_recorded(const std::vector<std::string>& lines) {
  Trace t;
  bool have_header = false;
  for (size_t ln = 0; ln < lines.size(); ++ln) {
    std::string body = lines[ln];
    size_t p = body.find("#>");
    if (p == std::string::npos) bad(ln, "not a recorded line (no '#>')");
    body = body.substr(p + 2);
    std::vector<std::string> f = split_fields(body, ln);
    if (f.empty()) continue;
    const std::string& kind = f[0];
    if (kind == "trace") {
      if (have_header) bad(ln, "a second 'trace' line: one recording per file");
      if (f.size() != 3) bad(ln, "expected: trace <backend> \"<version>\"");
      t.backend = f[1];
      t.backend_version = unquote(f[2], ln);
      have_header = true;
      continue;
    }
    if (!have_header) bad(ln, "the recording must start with a 'trace' line");
    if (f.size() < 2) bad(ln, "expected a step index after '" + kind + "'");
    int64_t idx = to_int(f[1], ln);
    if (kind == "step") {
      if (idx != static_cast<int64_t>(t.steps.size())) bad(ln, "steps must be recorded in order, expected step " + std::to_string(t.steps.size()));
      if (f.size() < 3) bad(ln, "expected an outcome");
      StepObs o;
      o.outcome = to_outcome(f[2], ln);
      for (size_t k = 3; k < f.size(); ++k) {
        if (f[k].rfind("kind=", 0) == 0) o.error_kind = unquote(kv(f[k], "kind", ln), ln);
        else if (f[k].rfind("message=", 0) == 0) o.error_message = unquote(kv(f[k], "message", ln), ln);
        else if (f[k].rfind("note=", 0) == 0) o.note = unquote(kv(f[k], "note", ln), ln);
        else bad(ln, "unknown field '" + f[k] + "'");
      }
      t.steps.push_back(std::move(o));
      continue;
    }
    // (idx is any int64 the line holds: compared without adding to it)
    if (idx < 0 || idx != static_cast<int64_t>(t.steps.size()) - 1) bad(ln, "'" + kind + "' does not follow its 'step' line");
    StepObs& o = t.steps.back();
    if (kind == "result") {
      if (f.size() != 12) bad(ln, "expected: result <i> <dtype> sizes= strides= offset= flags= same= view= base= storage= overlap=");
      TensorObs r;
      r.dtype = f[2];
      r.sizes = to_ints(kv(f[3], "sizes", ln), ln);
      r.strides = to_ints(kv(f[4], "strides", ln), ln);
      r.storage_offset = to_int(kv(f[5], "offset", ln), ln);
      std::string fl = kv(f[6], "flags", ln);
      if (fl.size() != 4) bad(ln, "flags= takes four characters");
      r.contiguous = fl[0] == 'c';
      r.channels_last = fl[1] == 'l';
      r.channels_last_3d = fl[2] == 'L';
      r.non_overlapping_and_dense = fl[3] == 'd';
      r.same_as = kv(f[7], "same", ln);
      if (r.same_as == "-") r.same_as.clear();
      std::string view = kv(f[8], "view", ln);
      if (view != "0" && view != "1") bad(ln, "view= takes 0 or 1");
      r.is_view = view == "1";
      r.base = kv(f[9], "base", ln);
      if (r.base == "-") r.base.clear();
      r.storage = static_cast<int>(to_int(kv(f[10], "storage", ln), ln));
      std::string ov = kv(f[11], "overlap", ln);
      size_t slash = ov.find('/');
      if (slash == std::string::npos) bad(ln, "overlap= takes <torch>/<exact>");
      r.torch_overlap = to_overlap_answer(std::string_view(ov).substr(0, slash), ln);
      r.exact_overlap = to_overlap_answer(std::string_view(ov).substr(slash + 1), ln);
      o.results.push_back(std::move(r));
    } else if (kind == "warning") {
      if (f.size() != 3) bad(ln, "expected: warning <i> \"<text>\"");
      o.warnings.push_back(unquote(f[2], ln));
    } else if (kind == "undefined") {
      if (f.size() != 3) bad(ln, "expected: undefined <i> \"<reason>\"");
      o.undefined = true;
      o.undefined_reason = unquote(f[2], ln);
    } else if (kind == "versions") {
      for (size_t k = 2; k < f.size(); ++k) {
        size_t c = f[k].rfind(':');
        if (c == std::string::npos || c == 0) bad(ln, "expected name:version, got '" + f[k] + "'");
        o.versions.push_back({f[k].substr(0, c), to_int(std::string_view(f[k]).substr(c + 1), ln)});
      }
    } else if (kind == "storages") {
      for (size_t k = 2; k < f.size(); ++k) {
        std::string_view s = f[k];
        StorageObs st;
        size_t c1 = s.find(':');
        size_t c2 = c1 == std::string_view::npos ? c1 : s.find(':', c1 + 1);
        if (c2 == std::string_view::npos) bad(ln, "expected id:nbytes:hash, got '" + f[k] + "'");
        st.id = static_cast<int>(to_int(s.substr(0, c1), ln));
        st.nbytes = to_int(s.substr(c1 + 1, c2 - c1 - 1), ln);
        if (st.nbytes < 0 || st.nbytes > (int64_t{1} << 40)) bad(ln, "nbytes out of range");
        size_t c3 = s.find(':', c2 + 1);
        std::string_view h = s.substr(c2 + 1, c3 == std::string_view::npos ? std::string_view::npos : c3 - c2 - 1);
        if (h == "-") {
          st.has_contents = false;
        } else {
          st.hash = to_hash(h, ln);
        }
        // ":u=<ranges>" (undefined bytes), then ":n=<ranges>" (NaN operand choices).
        for (size_t from = c3; from != std::string_view::npos;) {
          size_t next = s.find(':', from + 1);
          std::string_view m = s.substr(from + 1, next == std::string_view::npos ? std::string_view::npos : next - from - 1);
          from = next;
          ByteMask* mask = nullptr;
          if (m.substr(0, 2) == "u=") mask = &st.undefined;
          else if (m.substr(0, 2) == "n=") mask = &st.nan_choice;
          else bad(ln, "expected u=<ranges> or n=<ranges>, got '" + std::string(m) + "'");
          m.remove_prefix(2);
          if (st.nbytes > (int64_t{1} << 32)) bad(ln, "byte ranges in a storage past 4 GiB are not supported");
          std::vector<uint8_t>& flags = mask->edit();
          flags.assign(static_cast<size_t>(st.nbytes), 0);
          while (!m.empty()) {
            size_t comma = m.find(',');
            std::string_view r = m.substr(0, comma);
            size_t dash = r.find('-');
            if (dash == std::string_view::npos) bad(ln, "expected a-b in a byte range");
            int64_t a = to_int(r.substr(0, dash), ln), b = to_int(r.substr(dash + 1), ln);
            if (a < 0 || b < a || b > st.nbytes) bad(ln, "byte range out of the storage");
            for (int64_t x = a; x < b; ++x) flags[static_cast<size_t>(x)] = 1;
            if (comma == std::string_view::npos) break;
            m.remove_prefix(comma + 1);
          }
        }
        o.storages.push_back(std::move(st));
      }
    } else {
      bad(ln, "unknown recorded line kind '" + kind + "'");
    }
  }
  if (!have_header && !lines.empty()) bad(0, "no 'trace' line");
  return t;
}

}  // namespace sc
