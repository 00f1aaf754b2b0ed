// stridecheck versions: runs the same programs on two backends that live in
// two processes -- by default LibTorch in this binary and LibTorch in another
// stridecheck binary built against another LibTorch version (--other) -- and
// collects every class of difference, each with a minimized program.
//
// Two LibTorch versions cannot share one process, so each side is a
// `stridecheck serve` child (tools/serve.cpp) answering with recorded traces;
// this process generates the programs, diffs the two traces (program/diff,
// the same diff as every other driver; contents are compared as hashes) and
// never loads LibTorch itself. Both children run at once (two cores), and a
// crash or hang of either is itself a class, never the campaign's end.
//
// A class is the op of the first differing step and the field (results and
// storages numbered '#'); for outcome, error kind and error message
// differences also both sides' texts with numbers and lists blanked, so
// "view error message 'shape '[..]' is invalid' -> '... at index N of shape [..]'"
// is one class however many programs show it.
//
// Minimizing: the smallest program seen in a class goes through the reducer
// of `stridecheck minimize` (program/findings/shrink.h), with "shows the same
// class here" as its test.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "program/backend.h"
#include "program/diff.h"
#include "program/findings/shrink.h"
#include "program/generator.h"
#include "program/parser.h"
#include "program/printer.h"
#include "program/trace_text.h"
#include "tools/trace_client.h"
#include "tools/tool.h"

namespace sc::tool {
namespace {
namespace fs = std::filesystem;

struct VersionsOptions {
  std::string other;  // the binary of the right side; "" = this binary
  uint64_t seed = 0;
  int64_t count = 0;
  std::string out_dir;  // one minimized program per class
  bool reduce = true;
  bool first_only = false;  // classify only each program's first difference
  int64_t max_classes_reduced = 1000;
  int max_tests = 1000;            // candidate programs tried per class
  double max_reduce_seconds = 60;  // wall time per class
  Options common;  // --backends, --budget, --timeout, --quiet, paths
};

// Digit runs -> N, bracketed lists -> [..], LibTorch's tensor type names
// (CPUFloatType, MetaLongType) -> <Device><Dtype>Type, so messages that differ
// only in the numbers, dtype or device they quote fall into one class.
std::string blank_numbers(const std::string& text) {
  static const std::regex tensor_type("\\b(CPU|CUDA|Meta)[A-Z][A-Za-z0-9]*Type\\b");
  const std::string s = std::regex_replace(text, tensor_type, "<Device><Dtype>Type");
  std::string out;
  for (size_t i = 0; i < s.size();) {
    char c = s[i];
    if (c == '[' || c == '(') {
      char close = c == '[' ? ']' : ')';
      size_t j = s.find(close, i);
      bool numeric = j != std::string::npos;
      for (size_t k = i + 1; numeric && k < j; ++k)
        numeric = std::isdigit(static_cast<unsigned char>(s[k])) || std::string_view(" ,-").find(s[k]) != std::string_view::npos;
      if (numeric) {
        out += c;
        out += "..";
        out += close;
        i = j + 1;
        continue;
      }
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || (c == '-' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])) &&
                                                       (i == 0 || !std::isalnum(static_cast<unsigned char>(s[i - 1]))))) {
      size_t j = i + 1;
      while (j < s.size() && (std::isdigit(static_cast<unsigned char>(s[j])) || s[j] == '.')) ++j;
      out += 'N';
      i = j;
      continue;
    }
    out += c;
    ++i;
  }
  return out;
}

std::string blank_digits(const std::string& field) {
  std::string out;
  for (char c : field) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      if (out.empty() || out.back() != '#') out += '#';
    } else {
      out += c;
    }
  }
  return out;
}

// One program's result.
struct Checked {
  std::string verdict;  // pass, fail, undefined, skipped, server
  std::string cls;      // for fail and server
  std::string report;   // the diff (or the server's reason), for the report
  std::string left_version, right_version;
  bool contents_differ = false;  // the first difference is in storage contents (hashes only)
  size_t step = 0;               // the first differing step, for a fail
};

class Campaign {
 public:
  Campaign(const VersionsOptions& o, const std::vector<std::string>& names)
      : o_(o),
        left_(self(), names[0], o.common.budget_bytes),
        right_(o.other.empty() ? self() : o.other, names[1], o.common.budget_bytes) {}

  static std::string self() { return fs::read_symlink("/proc/self/exe").string(); }

  Checked check(const std::string& text) {
    Program program;
    try {
      program = parse_program(text, "<program>");
    } catch (const ParseError& e) {
      return {"server", "program does not parse (a tool bug)", e.text, "", ""};
    }
    Checked c = check_once(program, text, /*contents=*/false);
    // Hashes differ: ask both sides for the bytes, so that the diff names the
    // element, NaNs compare as Note [NaN bits] says and bytes LibTorch leaves
    // undefined (empty_like) are left out.
    if (c.contents_differ) c = check_once(program, text, /*contents=*/true);
    return c;
  }

  // The smallest program that still shows class `cls` (program/findings/shrink.h).
  // At most `max_tests` candidates and `max_seconds` of wall time (the best
  // program so far is kept).
  std::string reduce(const std::string& text, const std::string& cls, int max_tests, double max_seconds) {
    ShrinkPolicy policy;
    policy.max_tests = max_tests;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(max_seconds);
    ShrinkResult r = shrink_program(
        parse_program(text, "<program>"),
        [&](const Program& q) { return std::chrono::steady_clock::now() < deadline && check(print_program(q)).cls == cls; },
        policy);
    return print_program(r.program);
  }

 private:
  Checked check_once(const Program& program, const std::string& text, bool contents) {
    Checked c;
    left_.send(text, contents);
    right_.send(text, contents);
    ServedTrace a = left_.receive(o_.common.timeout_s);
    ServedTrace b = right_.receive(o_.common.timeout_s);
    if (a.kind != ServedTrace::Kind::Trace || b.kind != ServedTrace::Kind::Trace) {
      auto side = [](const TraceServer& s, const ServedTrace& t) {
        return s.backend() + " " + std::string(served_kind_name(t.kind)) + ": " + blank_numbers(t.body);
      };
      c.verdict = "server";
      c.cls = "(server) " + (a.kind != ServedTrace::Kind::Trace ? side(left_, a) : std::string("ok")) + " | " +
              (b.kind != ServedTrace::Kind::Trace ? side(right_, b) : std::string("ok"));
      c.report = "left: " + std::string(served_kind_name(a.kind)) + (a.kind == ServedTrace::Kind::Trace ? "" : " " + a.body) +
                 "\nright: " + std::string(served_kind_name(b.kind)) + (b.kind == ServedTrace::Kind::Trace ? "" : " " + b.body) + "\n";
      return c;
    }
    Trace ta, tb;
    try {
      ta = read_served(a.body);
      tb = read_served(b.body);
    } catch (const std::exception& e) {
      return {"server", "unreadable trace from a server (a tool bug)", e.what(), "", ""};
    }
    if (contents) {
      mark_undefined_bytes(program, ta);
      mark_undefined_bytes(program, tb);
    }
    c.left_version = ta.backend_version;
    c.right_version = tb.backend_version;
    DiffResult d = diff_traces(program, ta, tb);
    c.verdict = std::string(verdict_name(d.verdict));
    c.report = format_diff(program, label(ta), label(tb), d);
    if (d.verdict == Verdict::Fail) {
      c.cls = class_of(program, *d.first);
      c.step = d.first->step;
      c.contents_differ = !contents && d.first->field.ends_with(" contents");
    }
    return c;
  }

  // The recorded lines, with the bytes of "#= <step> <storage> <hex>" lines.
  static Trace read_served(const std::string& body) {
    std::vector<std::string> recorded, bytes;
    for (std::string& l : split_lines(body)) (l.rfind("#=", 0) == 0 ? bytes : recorded).push_back(std::move(l));
    Trace t = parse_recorded(recorded);
    for (const std::string& l : bytes) {
      size_t step = 0;
      int id = -1;
      char hex_start = 0;
      int used = 0;
      if (std::sscanf(l.c_str(), "#= %zu %d %n%c", &step, &id, &used, &hex_start) < 2 || step >= t.steps.size())
        throw std::runtime_error("bad contents line: " + l.substr(0, 60));
      for (StorageObs& s : t.steps[step].storages) {
        if (s.id != id) continue;
        std::string_view hex(l.c_str() + used, l.size() - static_cast<size_t>(used));
        if (static_cast<int64_t>(hex.size()) != 2 * s.nbytes) throw std::runtime_error("contents of the wrong size: " + l.substr(0, 60));
        s.bytes.resize(static_cast<size_t>(s.nbytes));
        auto nib = [](char ch) { return ch <= '9' ? ch - '0' : ch - 'a' + 10; };
        for (size_t k = 0; k < s.bytes.size(); ++k) s.bytes[k] = static_cast<uint8_t>(nib(hex[2 * k]) * 16 + nib(hex[2 * k + 1]));
      }
    }
    return t;
  }

  // LibTorch does not say which bytes it left undefined (empty_like's); the
  // engine does, exactly. Its marks are copied onto a LibTorch trace for every
  // storage with the same number and size at the same step.
  void mark_undefined_bytes(const Program& program, Trace& t) {
    if (!engine_) engine_ = make_backend("engine:cpu");
    RunOptions ro;
    ro.budget_bytes = o_.common.budget_bytes;
    ro.trace_budget_bytes = o_.common.trace_budget_bytes;
    ro.record_contents = false;
    Trace e;
    try {
      e = engine_->run(program, ro);
    } catch (const std::exception&) {
      return;
    }
    for (size_t i = 0; i < t.steps.size() && i < e.steps.size(); ++i)
      for (StorageObs& s : t.steps[i].storages)
        for (const StorageObs& m : e.steps[i].storages)
          if (m.id == s.id && m.nbytes == s.nbytes && !m.undefined.empty()) s.undefined = m.undefined;
  }

  static std::vector<std::string> split_lines(const std::string& body) {
    std::vector<std::string> lines;
    std::istringstream in(body);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
  }

  // The backend names as the diff prints them, with the LibTorch version.
  static Trace label(Trace t) {
    std::string v = t.backend_version;
    if (v.rfind("LibTorch ", 0) == 0) v = v.substr(9, v.find(' ', 9) - 9);
    t.backend += " (" + v + ")";
    return t;
  }

  // One line: a class is printed as "# class: ..." above each minimized program.
  static std::string class_of(const Program& p, const Difference& d) {
    std::string k = class_text(p, d), out;
    for (char ch : k) out += ch == '\n' ? std::string("\\n") : std::string(1, ch);
    return out;
  }

  static std::string class_text(const Program& p, const Difference& d) {
    std::string op = d.step < p.steps.size() ? p.steps[d.step].op : "?";
    // A backend without a kernel for the op: one class per op and backend,
    // whatever the other side did (a kernel, or another error first).
    for (const std::string* s : {&d.left, &d.right, &d.detail}) {
      // 2.x: "aten::flip: attempted to run this operator with Meta tensors, but
      // there was no fake impl or Meta kernel registered. ..."
      size_t m = s->find(": attempted to run this operator with ");
      if (m != std::string::npos) {
        size_t b = s->rfind(' ', m);
        b = b == std::string::npos ? 0 : b + 1;
        while (b < m && ((*s)[b] == '"' || (*s)[b] == '\'')) ++b;
        size_t te = s->find(" tensors", m);
        std::string backend = te == std::string::npos ? "?" : s->substr(m + 38, te - m - 38);
        return "(no kernel) " + s->substr(b, m - b) + " on the " + backend + " backend";
      }
      size_t a = s->find("Could not run '");
      if (a == std::string::npos) continue;
      size_t e = s->find('\'', a + 15);
      size_t b = s->find("from the '", e);
      size_t be = b == std::string::npos ? b : s->find('\'', b + 10);
      if (e == std::string::npos || be == std::string::npos) continue;
      return "(no kernel) " + s->substr(a + 15, e - a - 15) + " on the " + s->substr(b + 10, be - b - 10) + " backend";
    }
    std::string field = blank_digits(d.field);
    if (d.field == "outcome" || d.field == "error kind" || d.field == "error message" || d.field == "warnings") {
      std::string l = blank_numbers(d.left), r = blank_numbers(d.right);
      if (l == r) return op + " | " + field + " | " + l + " | (the same once numbers and device names are blanked)";
      // Long texts that share a beginning: keep the part around the first difference.
      size_t common = 0;
      while (common < l.size() && common < r.size() && l[common] == r[common]) ++common;
      if (common > 60) {
        l = "..." + l.substr(common - 30);
        r = "..." + r.substr(common - 30);
      }
      auto cut = [](std::string t) { return t.size() > 200 ? t.substr(0, 200) + "..." : t; };
      return op + " | " + field + " | " + cut(l) + " | " + cut(r);
    }
    return op + " | " + field;
  }

  const VersionsOptions& o_;
  TraceServer left_, right_;
  std::unique_ptr<Backend> engine_;  // for the undefined-byte marks
};

// `text` without step i and every later step that reads a name it (or a
// removed step) binds; "" when nothing is left.
std::string without_step(const std::string& text, size_t i) {
  Program p = parse_program(text, "<program>");
  if (i >= p.steps.size()) return "";
  Program q;
  std::set<std::string> gone(p.steps[i].outputs.begin(), p.steps[i].outputs.end());
  for (size_t k = 0; k < p.steps.size(); ++k) {
    if (k == i) continue;
    bool reads_gone = false;
    for (const std::string& in : p.steps[k].inputs()) reads_gone |= gone.count(in) > 0;
    if (reads_gone) {
      gone.insert(p.steps[k].outputs.begin(), p.steps[k].outputs.end());
      continue;
    }
    q.steps.push_back(p.steps[k]);
  }
  return q.steps.empty() ? "" : print_program(q, /*with_comments=*/false);
}

struct ClassInfo {
  int64_t count = 0;
  std::string first_source;  // "seed 123" or a file name
  std::string smallest;      // program text with the fewest steps seen
  size_t smallest_steps = SIZE_MAX;
  std::string minimized, report;
};

VersionsOptions parse_versions_options(const std::vector<std::string>& args) {
  VersionsOptions o;
  std::vector<std::string> rest;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) throw UsageError(a + " needs a value");
      return args[++i];
    };
    try {
      if (a == "--other") o.other = value();
      else if (a == "--seed") o.seed = std::stoull(value());
      else if (a == "--count") o.count = std::stoll(value());
      else if (a == "--out") o.out_dir = value();
      else if (a == "--no-reduce") o.reduce = false;
      else if (a == "--first-only") o.first_only = true;
      else rest.push_back(a);
    } catch (const std::logic_error&) {
      throw UsageError("versions: " + a + " needs a number");
    }
  }
  if (o.count < 0) throw UsageError("versions: --count must be >= 0");
  o.common = parse_options(rest, {"--backends", "--budget", "--timeout", "--quiet"});
  if (o.common.timeout_s == 60) o.common.timeout_s = 30;
  return o;
}

std::vector<std::string> collect(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<std::string> found;
      for (auto it = fs::recursive_directory_iterator(p, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
        if (it->path().extension() == ".prog") found.push_back(it->path().string());
      std::sort(found.begin(), found.end());
      out.insert(out.end(), found.begin(), found.end());
    } else {
      out.push_back(p);
    }
  }
  return out;
}

std::string slug(const std::string& cls, size_t n) {
  std::string s;
  for (char c : cls.substr(0, cls.find(" | ", cls.find(" | ") + 3))) {
    if (std::isalnum(static_cast<unsigned char>(c))) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (!s.empty() && s.back() != '_') s += '_';
  }
  while (!s.empty() && s.back() == '_') s.pop_back();
  char num[16];
  std::snprintf(num, sizeof num, "%03zu-", n);
  return num + s;
}

std::string commented(const std::string& text) {
  std::string out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out += "# " + l + "\n";
  return out;
}

}  // namespace

int versions_main(const std::vector<std::string>& args) {
  VersionsOptions o = parse_versions_options(args);
  std::vector<std::string> names =
      o.common.backends.empty() ? std::vector<std::string>{"libtorch:cpu", "libtorch:cpu"} : backend_pair(o.common);
  if (!o.other.empty() && access(o.other.c_str(), X_OK) != 0) throw UsageError("--other " + o.other + ": not an executable");
  std::vector<std::string> files = collect(o.common.paths);
  if (files.empty() && o.count == 0) throw UsageError("versions needs program files or folders, or --count K generated programs");
  if (!o.out_dir.empty()) {
    std::error_code ec;
    fs::create_directories(o.out_dir, ec);
    if (ec) throw UsageError("--out " + o.out_dir + ": " + ec.message());
  }
  signal(SIGPIPE, SIG_IGN);
  Campaign campaign(o, names);

  std::map<std::string, int64_t> verdicts;
  std::map<std::string, ClassInfo> classes;
  std::string left_version, right_version;
  int64_t done = 0;
  auto start = std::chrono::steady_clock::now();
  auto add_class = [&](const std::string& source, const std::string& text, const Checked& c) {
    ClassInfo& k = classes[c.cls];
    if (k.count++ == 0) {
      k.first_source = source;
      k.report = c.report;
      if (!o.common.quiet) std::fprintf(stderr, "new class %zu (%s): %s\n", classes.size(), source.c_str(), c.cls.c_str());
    }
    size_t steps = static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
    if (steps < k.smallest_steps) k.smallest_steps = steps, k.smallest = text;
  };
  // The first difference can hide later ones (a program stops at its first
  // difference): the step that differs goes, with every step that reads what
  // it binds, and the rest is checked again, until it agrees (--first-only: no).
  int64_t later = 0;
  auto note = [&](const std::string& source, const std::string& text, const Checked& c) {
    ++verdicts[c.verdict];
    ++done;
    if (left_version.empty() && !c.left_version.empty()) left_version = c.left_version, right_version = c.right_version;
    if (c.cls.empty()) return;
    add_class(source, text, c);
    if (o.first_only || c.verdict != "fail") return;
    Checked d = c;
    std::string t = text;
    for (int round = 0; round < 16 && d.verdict == "fail"; ++round) {
      t = without_step(t, d.step);
      if (t.empty()) break;
      d = campaign.check(t);
      if (d.verdict != "fail" || d.cls.empty()) break;
      ++later;
      add_class(source + " without its first differing steps", t, d);
    }
  };

  for (const std::string& path : files) {
    std::string text;
    try {
      Program p = parse_file(path);
      p.recorded.clear();
      text = print_program(p);
    } catch (const ParseError& e) {
      std::fprintf(stderr, "%s\n", e.text.c_str());
      return kExitUsage;
    }
    note(path, text, campaign.check(text));
  }
  for (int64_t k = 0; k < o.count; ++k) {
    uint64_t s = o.seed + static_cast<uint64_t>(k);
    Choices choices = Choices::from_seed(s);
    std::string text = print_program(generate_program(choices));
    note("seed " + std::to_string(s), text, campaign.check(text));
    if ((k + 1) % 10000 == 0 && !o.common.quiet) {
      double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::fprintf(stderr, "%lld programs, %.0f s, %zu classes\n", static_cast<long long>(k + 1), t, classes.size());
    }
  }
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  size_t n = 0;
  for (auto& [cls, k] : classes) {
    ++n;
    k.minimized = k.smallest;
    // A class of timeouts is not reduced: every candidate that keeps the slow
    // step costs the whole --timeout.
    const bool timeouts = cls.find(" timeout: ") != std::string::npos;
    if (o.reduce && !timeouts && static_cast<int64_t>(n) <= o.max_classes_reduced) {
      if (!o.common.quiet) std::fprintf(stderr, "reducing class %zu of %zu\n", n, classes.size());
      try {
        k.minimized = campaign.reduce(k.smallest, cls, o.max_tests, o.max_reduce_seconds);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "reducing class %zu: %s\n", n, e.what());
      }
      Checked c = campaign.check(k.minimized);
      k.report = c.report;
    }
  }

  std::printf("stridecheck versions: %s in %s vs %s in %s\n", names[0].c_str(), Campaign::self().c_str(),
              names[1].c_str(), o.other.empty() ? "the same binary" : o.other.c_str());
  std::printf("left: %s; right: %s\n", left_version.empty() ? "?" : left_version.c_str(),
              right_version.empty() ? "?" : right_version.c_str());
  std::printf("programs: %lld (%zu files, %lld generated from seed %llu), %.1f s, %.0f programs/s\n",
              static_cast<long long>(done), files.size(), static_cast<long long>(o.count),
              static_cast<unsigned long long>(o.seed), wall, done / std::max(wall, 1e-9));
  std::string vs;
  for (auto& [v, c] : verdicts) vs += (vs.empty() ? "" : ", ") + v + " " + std::to_string(c);
  std::printf("verdicts: %s\n", vs.c_str());
  std::printf("later differences (found after removing a program's first differing steps): %lld\n",
              static_cast<long long>(later));
  std::printf("difference classes: %zu\n", classes.size());
  n = 0;
  for (auto& [cls, k] : classes) {
    ++n;
    std::printf("\n== class %zu: %s\n   %lld programs; first: %s\n", n, cls.c_str(), static_cast<long long>(k.count),
                k.first_source.c_str());
    std::printf("%s", k.minimized.c_str());
    std::printf("%s", k.report.c_str());
    if (!o.out_dir.empty()) {
      std::string path = (fs::path(o.out_dir) / (slug(cls, n) + ".prog")).string();
      std::ofstream out(path);
      out << "# class: " << cls << "\n# " << k.count << " programs; first: " << k.first_source << "\n"
          << commented(k.report) << k.minimized;
      std::printf("   written to %s\n", path.c_str());
    }
  }
  return classes.empty() ? kExitOk : kExitFailed;
}

}  // namespace sc::tool
