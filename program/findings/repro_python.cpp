// The Python form of a reproduction (program/findings/repro.h): each step is
// the Python line that makes the call the oracle makes (oracle/torch_*_ops.cpp).
#include <cmath>
#include <cstdio>
#include <set>

#include "engine/dtype.h"
#include "program/findings/repro.h"
#include "program/ops.h"
#include "program/printer.h"

namespace sc {
namespace {

// Program names that are Python keywords or names the script uses get a trailing '_'.
std::string var(const std::string& n) {
  static const std::set<std::string> reserved = {
      "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif", "else", "except",
      "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass",
      "raise", "return", "try", "while", "with", "yield", "None", "True", "False", "torch", "warnings", "show",
      "empty_strided_iota", "print", "list", "str", "e", "n", "globals", "caught", "hex", "float", "_result"};
  return reserved.count(n) ? n + "_" : n;
}

std::string py_number(const Number& n) {
  if (n.is_bool()) return n.i ? "True" : "False";
  if (n.is_int()) return std::to_string(n.i);
  if (std::isnan(n.f)) return "float('nan')";
  if (std::isinf(n.f)) return n.f > 0 ? "float('inf')" : "float('-inf')";
  return finite_float_text(n.f);
}

std::string py_list(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string py_values(const std::vector<Number>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + py_number(v[i]);
  return s + "]";
}

std::string py_dtype(const std::string& written) {
  auto d = engine::parse_dtype(written);
  return "torch." + std::string(d ? engine::dtype_name(*d) : written);
}

std::string py_format(FormatArg f) {
  switch (f) {
    case FormatArg::Preserve: return "torch.preserve_format";
    case FormatArg::Contiguous: return "torch.contiguous_format";
    case FormatArg::ChannelsLast: return "torch.channels_last";
    case FormatArg::ChannelsLast3d: return "torch.channels_last_3d";
  }
  return "?";
}

std::string opt_int(const ArgReader& a, size_t i) {
  auto v = a.opt_int(i);
  return v ? std::to_string(*v) : "None";
}

// A number where LibTorch takes a tensor, or a program value.
std::string operand(const ArgReader& a, size_t i) { return a.is_tensor(i) ? var(a.tensor(i)) : py_number(a.scalar(i)); }

// ", dtype=..., memory_format=..." for the kwargs given.
std::string kw_tail(const ArgReader& a, bool dtype, bool format) {
  std::string s;
  if (dtype)
    if (auto d = a.kw_dtype()) s += ", dtype=" + py_dtype(*d);
  if (format)
    if (auto f = a.kw_format()) s += ", memory_format=" + py_format(*f);
  return s;
}

std::string creation_dtype(const ArgReader& a) { return "dtype=" + py_dtype(a.kw_dtype().value_or("float32")); }

// The Python expression for a step's call.
std::string call(const Step& s) {
  ArgReader a(s);
  const std::string& op = s.op;
  auto self = [&] { return var(a.tensor(0)); };
  if (op == "arange") return "torch.arange(" + std::to_string(a.int_(0)) + ", " + creation_dtype(a) + ")";
  if (op == "zeros" || op == "ones") return "torch." + op + "(" + py_list(a.int_list(0)) + ", " + creation_dtype(a) + ")";
  if (op == "full") return "torch.full(" + py_list(a.int_list(0)) + ", " + py_number(a.scalar(1)) + ", " + creation_dtype(a) + ")";
  if (op == "tensor") {
    auto v = a.values(0);
    std::string values = a.values_is_scalar(0) ? py_number(v[0]) : py_values(v);
    auto d = a.kw_dtype();
    return "torch.tensor(" + values + (d ? ", dtype=" + py_dtype(*d) : "") + ")";
  }
  if (op == "empty_strided")
    return "empty_strided_iota(" + py_list(a.int_list(0)) + ", " + py_list(a.int_list(1)) + ", " + creation_dtype(a) + ")";
  if (op == "view") {
    if (auto d = a.kw_dtype()) return self() + ".view(" + py_dtype(*d) + ")";
    return self() + ".view(" + py_list(a.int_list(1)) + ")";
  }
  if (op == "view_as" || op == "expand_as") return self() + "." + op + "(" + var(a.tensor(1)) + ")";
  if (op == "reshape" || op == "permute" || op == "expand" || op == "broadcast_to" || op == "repeat" || op == "flip")
    return self() + "." + op + "(" + py_list(a.int_list(1)) + ")";
  if (op == "flatten" || op == "transpose")
    return self() + "." + op + "(" + std::to_string(a.int_(1)) + ", " + std::to_string(a.int_(2)) + ")";
  // Tensor.unflatten (torch/_tensor.py) raises IndexError where C++'s Tensor::unflatten raises
  // RuntimeError (a dim out of range), so call aten::unflatten as the C++ side does.
  if (op == "unflatten")
    return "torch.ops.aten.unflatten.int(" + self() + ", " + std::to_string(a.int_(1)) + ", " + py_list(a.int_list(2)) +
           ")";
  if (op == "t" || op == "detach") return self() + "." + op + "()";
  if (op == "mT" || op == "T") return self() + "." + op;
  if (op == "movedim") {
    auto side = [&](size_t i) { return a.is_list(i) ? py_list(a.int_list(i)) : std::to_string(a.int_(i)); };
    return "torch.movedim(" + self() + ", " + side(1) + ", " + side(2) + ")";
  }
  if (op == "unsqueeze") return self() + ".unsqueeze(" + std::to_string(a.int_(1)) + ")";
  if (op == "squeeze") return self() + ".squeeze(" + (a.opt_int(1) ? std::to_string(*a.opt_int(1)) : "") + ")";
  if (op == "narrow" || op == "diagonal" || op == "unfold")
    return self() + "." + op + "(" + std::to_string(a.int_(1)) + ", " + std::to_string(a.int_(2)) + ", " +
           std::to_string(a.int_(3)) + ")";
  // Tensor.slice is C++ only; Python's x[a:b:c] adds its own checks, so call aten::slice.
  if (op == "slice")
    return "torch.ops.aten.slice.Tensor(" + self() + ", " + std::to_string(a.int_(1)) + ", " + opt_int(a, 2) + ", " +
           opt_int(a, 3) + ", " + std::to_string(a.int_(4)) + ")";
  if (op == "select") return self() + ".select(" + std::to_string(a.int_(1)) + ", " + std::to_string(a.int_(2)) + ")";
  if (op == "as_strided")
    return self() + ".as_strided(" + py_list(a.int_list(1)) + ", " + py_list(a.int_list(2)) + ", " + opt_int(a, 3) + ")";
  if (op == "alias") return "torch.ops.aten.alias(" + self() + ")";
  if (op == "split")
    return self() + ".split(" + (a.is_list(1) ? py_list(a.int_list(1)) : std::to_string(a.int_(1))) + ", " +
           std::to_string(a.int_(2)) + ")";
  if (op == "chunk") return self() + ".chunk(" + std::to_string(a.int_(1)) + ", " + std::to_string(a.int_(2)) + ")";
  if (op == "unbind") return self() + ".unbind(" + std::to_string(a.int_(1)) + ")";
  if (op == "contiguous") {
    auto f = a.kw_format();
    return self() + ".contiguous(" + (f ? "memory_format=" + py_format(*f) : "") + ")";
  }
  if (op == "clone") {
    auto f = a.kw_format();
    return self() + ".clone(" + (f ? "memory_format=" + py_format(*f) : "") + ")";
  }
  if (op == "to") {
    std::string args = kw_tail(a, true, true);
    return self() + ".to(" + (args.empty() ? self() + ".dtype" : args.substr(2)) + ")";
  }
  if (op == "index_select")
    return self() + ".index_select(" + std::to_string(a.int_(1)) + ", torch.tensor(" + py_list(a.int_list(2)) +
           ", dtype=torch.int64))";
  if (op == "empty_like" || op == "zeros_like") return "torch." + op + "(" + self() + kw_tail(a, true, true) + ")";
  if (op == "add_" || op == "sub_" || op == "mul_" || op == "div_" || op == "fill_" || op == "copy_")
    return self() + "." + op + "(" + operand(a, 1) + ")";
  if (op == "zero_") return self() + ".zero_()";
  if (op == "clamp_") {
    auto bound = [&](size_t i) { return a.is_none(i) ? std::string("None") : py_number(a.scalar(i)); };
    return self() + ".clamp_(" + bound(1) + ", " + bound(2) + ")";
  }
  if (op == "add" || op == "mul" || op == "neg") {
    std::string args = self() + (op == "neg" ? "" : ", " + operand(a, 1));
    if (auto out = a.kw_tensor("out")) args += ", out=" + var(*out);
    return "torch." + op + "(" + args + ")";
  }
  return "None  # '" + op + "' has no Python form yet";
}

// The names a step binds (or the value an in-place step changes), to show after it.
std::vector<std::string> shown(const Step& s) {
  if (!s.outputs.empty()) return s.outputs;
  std::string r = result_name(s, 0);
  return r.empty() ? std::vector<std::string>{} : std::vector<std::string>{r};
}

std::string assignment(const Step& s) {
  const OpSpec* spec = find_op(s.op);
  std::string lhs;
  for (size_t i = 0; i < s.outputs.size(); ++i) lhs += (i ? ", " : "") + var(s.outputs[i]);
  if (lhs.empty()) return call(s);
  if (spec && spec->results == Results::Many && s.outputs.size() == 1) lhs += ",";
  return lhs + " = " + call(s);
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string comment(const std::string& text) {
  std::string out;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    out += "# " + text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos) + "\n";
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  return out;
}

// "reached by a[2], b[1,0]" -> {"a[2]", "b[1,0]"} (Python index syntax is the same).
std::vector<std::string> reached_by(const std::string& detail) {
  std::vector<std::string> out;
  size_t p = detail.find("reached by ");
  if (p == std::string::npos) return out;
  std::string rest = detail.substr(p + 11);
  size_t start = 0;
  while (start < rest.size() && out.size() < 4) {
    size_t close = rest.find(']', start);
    if (close == std::string::npos) break;
    std::string item = rest.substr(start, close + 1 - start);
    if (item.find('?') == std::string::npos) out.push_back(item);
    start = rest.find_first_not_of(", ", close + 1);
    if (start == std::string::npos) break;
  }
  return out;
}

// Python lines that print the fact the sides disagree on, as this torch has it.
std::string disagreement(const Program& program, const ReproPlan& plan, const std::vector<std::string>& live) {
  const Difference& d = *plan.difference;
  const Step& s = program.steps[d.step];
  std::string out = comment("stridecheck: first difference at step " + std::to_string(d.step + 1) + ", " + d.field) +
                    comment("  " + plan.oracle + " said: " + plan.oracle_value) +
                    comment("  " + plan.other + " said: " + plan.other_value);
  if (!d.detail.empty()) out += comment("  " + d.detail);
  const std::string field = d.field;
  const int r = result_index(field);
  std::string x = result_name(s, r).empty() ? "" : var(result_name(s, r));
  if (r >= 0 && x.empty()) x = "_result";
  const std::string note = "  # " + plan.other + " said " + plan.other_value;
  auto print = [&](const std::string& label, const std::string& expr) {
    return "print(" + quoted(label + " =") + ", " + expr + ", " + quoted(note) + ")\n";
  };
  std::string cls = r >= 0 ? field.substr(field.find(' ', 7) + 1) : field;
  if (cls == "dtype") return out + print(x + ".dtype", "str(" + x + ".dtype).replace('torch.', '')");
  if (cls == "sizes") return out + print(x + ".shape", "list(" + x + ".shape)");
  if (cls == "strides") return out + print(x + ".stride()", "list(" + x + ".stride())");
  if (cls == "storage_offset") return out + print(x + ".storage_offset()", x + ".storage_offset()");
  if (cls == "is_contiguous") return out + print(x + ".is_contiguous()", x + ".is_contiguous()");
  if (cls == "is_contiguous(channels_last)")
    return out + print(x + ".is_contiguous(memory_format=torch.channels_last)",
                       x + ".is_contiguous(memory_format=torch.channels_last)");
  if (cls == "is_contiguous(channels_last_3d)")
    return out + print(x + ".is_contiguous(memory_format=torch.channels_last_3d)",
                       x + ".is_contiguous(memory_format=torch.channels_last_3d)");
  if (cls == "is_non_overlapping_and_dense")
    return out + print(x + ".is_non_overlapping_and_dense()", "torch._prims_common.is_non_overlapping_and_dense(" + x + ")");
  if (cls == "is_view") return out + print(x + "._is_view()", x + "._is_view()");
  if (cls == "same tensor as" || cls == "_base") {
    std::string expr = cls == "_base" ? x + "._base" : x;
    std::string names;
    for (const std::string& n : live) names += (names.empty() ? "" : ", ") + quoted(n);
    return out + print(cls == "_base" ? x + "._base is" : x + " is",
                       "[n for n in [" + names + "] if n in globals() and globals()[n] is " + expr + " and n != " +
                           quoted(cls == "_base" ? "" : x) + "] or '(none of the values)'");
  }
  if (cls == "storage" || (cls.rfind("storage", 0) == 0 && cls.find("nbytes") != std::string::npos) ||
      cls == "storage count" || cls == "storage numbering") {
    std::string names;
    for (const std::string& n : live) names += (names.empty() ? "" : ", ") + quoted(n);
    return out + "for n in [" + names + "]:\n    if n in globals():\n        print(n, \"storage\", " +
           "hex(globals()[n].untyped_storage().data_ptr()), \"nbytes\", globals()[n].untyped_storage().nbytes())\n";
  }
  if (cls == "has_internal_overlap" || cls == "exact internal overlap")
    return out + print("torch._debug_has_internal_overlap(" + x + ") (0: No, 1: Yes, 2: TooHard)",
                       "torch._debug_has_internal_overlap(" + x + ")");
  if (cls == "versions") {
    std::string names;
    for (const std::string& n : live) names += (names.empty() ? "" : ", ") + quoted(n);
    return out + print("versions", "{n: globals()[n]._version for n in [" + names + "] if n in globals()}");
  }
  if (field.size() > 9 && field.ends_with(" contents")) {
    std::string lines;
    for (const std::string& e : reached_by(d.detail)) {
      std::string name = var(e.substr(0, e.find('[')));
      std::string index = e.substr(e.find('['));
      std::string expr = index == "[]" ? name + ".item()" : name + index + ".item()";
      lines += print(e, expr);
    }
    if (lines.empty()) lines = "# no program value reaches the element: see the storage above\n";
    return out + lines;
  }
  return out;  // outcome, error kind, error message, warnings: the step above printed them
}

}  // namespace

std::string ints(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string python_repro(const Program& program, const ReproPlan& plan) {
  std::string out = "# A standalone reproduction";
  out += plan.source.empty() ? "" : " of " + plan.source;
  out += ", written by `stridecheck repro --as python`.\n# It needs only PyTorch: python3 this_file.py\n";
  if (!plan.oracle.empty()) {
    out += comment("stridecheck compared " + plan.oracle + " (" + plan.oracle_version + ") with " + plan.other + ": " +
                   plan.verdict);
    if (plan.difference)
      out += comment("they first differ at step " + std::to_string(plan.difference->step + 1) + " (" +
                     plan.difference->field + "); the script ends there");
  }
  out += R"PY(# Each step runs through step(), which prints what it raised (and any
# warnings) and goes on, as stridecheck does; names a step did not bind are None.
import sys
import warnings

import torch
import torch._prims_common

print("torch", torch.__version__)
OUTCOMES = {}  # step -> "ok" or the exception's type name
FACTS = {}  # step -> [(sizes, strides, storage_offset) of each result]


def step(n, call, results=None):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            r = call()
            OUTCOMES[n] = "ok"
        except Exception as e:
            OUTCOMES[n] = type(e).__name__
            print(f"step {n} raised {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
            r = None
    for w in caught:
        print(f"step {n} warned: {w.message}")
    got = list(r) if isinstance(r, (list, tuple)) else [r]
    FACTS[n] = [(list(t.shape), list(t.stride()), t.storage_offset()) for t in got if isinstance(t, torch.Tensor)]
    if results is not None:  # several results, bound to `results` names
        r = (list(r) if r is not None else []) + [None] * results
        r = r[0] if results == 1 else r[:results]
    return r


def show(name, t):
    if t is None:
        print(f"{name}: not bound")
        return
    print(f"{name}: {str(t.dtype).replace('torch.', '')} sizes={list(t.shape)} strides={list(t.stride())} "
          f"storage_offset={t.storage_offset()} version={t._version}")

)PY";
  bool need_iota = false;
  for (const Step& s : program.steps) need_iota |= s.op == "empty_strided";
  if (need_iota)
    out += R"PY(
def empty_strided_iota(size, stride, dtype):
    # empty_strided with its whole storage filled 0, 1, 2, ... (as stridecheck does, so contents are defined)
    t = torch.empty_strided(size, stride, dtype=dtype)
    n = t.untyped_storage().nbytes() // t.element_size()
    if n > 0:
        torch.empty(0, dtype=dtype).set_(t.untyped_storage(), 0, (n,), (1,)).copy_(torch.arange(n))
    return t

)PY";
  std::vector<std::string> live;  // names bound so far (in order)
  std::string expected_outcomes, expected_facts;
  for (const ReproStep& rs : plan.steps) {
    const Step& s = program.steps[rs.index];
    const std::string n = std::to_string(rs.index + 1);
    out += "\n" + comment("step " + n + ": " + print_step(s));
    const bool at_difference = plan.difference && plan.difference->step == rs.index;
    if (rs.kind == ReproStep::Kind::Skipped) {
      out += "# skipped: an input is unbound because an earlier step raised\n";
      continue;
    }
    if (rs.kind == ReproStep::Kind::NotRun) {
      out += comment("not run (stridecheck did not run it either, and compared nothing after it):") +
             comment("  " + plan.oracle + ": " + rs.oracle_said) + comment("  " + plan.other + ": " + rs.other_said) +
             comment(assignment(s));
      break;
    }
    if (!rs.oracle_said.empty() && rs.oracle_said != "ok") out += comment(plan.oracle + ": " + rs.oracle_said);
    if (!rs.other_said.empty() && rs.other_said != rs.oracle_said) out += comment(plan.other + ": " + rs.other_said);
    const OpSpec* spec = find_op(s.op);
    std::string lhs;
    for (size_t i = 0; i < s.outputs.size(); ++i) lhs += (i ? ", " : "") + var(s.outputs[i]);
    const int r = at_difference ? result_index(plan.difference->field) : -1;
    if (r >= 0 && result_name(s, r).empty()) lhs = "_result";
    std::string many = spec && spec->results == Results::Many && lhs != "_result"
                           ? ", results=" + std::to_string(s.outputs.size())
                           : "";
    out += (lhs.empty() ? "" : lhs + " = ") + "step(" + n + ", lambda: " + call(s) + many + ")\n";
    if (lhs == "_result" && r > 0) out += "_result = _result[" + std::to_string(r) + "] if _result is not None else None\n";
    for (const std::string& name : shown(s)) out += "show(" + quoted(name) + ", " + var(name) + ")\n";
    if (!rs.oracle_kind.empty()) {
      expected_outcomes += (expected_outcomes.empty() ? "" : ", ") + n + ": " + quoted(rs.oracle_kind);
      std::string facts;
      for (const TensorObs& t : rs.oracle_results)
        facts += (facts.empty() ? "" : ", ") + std::string("(") + ints(t.sizes) + ", " + ints(t.strides) + ", " +
                 std::to_string(t.storage_offset) + ")";
      if (rs.oracle_kind == "ok") expected_facts += (expected_facts.empty() ? "" : ", ") + n + ": [" + facts + "]";
    }
    for (const std::string& o : s.outputs) live.push_back(var(o));
    if (at_difference) out += disagreement(program, plan, live);
  }
  if (!plan.oracle.empty()) {
    std::string version = plan.oracle_version;
    if (version.rfind("LibTorch ", 0) == 0) version = version.substr(9);
    version = version.substr(0, version.find(' '));
    out += "\n" + comment("What " + plan.oracle + " (LibTorch " + version +
                          ") did in stridecheck's run: each step's outcome, and each result's sizes, strides and "
                          "storage_offset.") +
           "ORACLE_VERSION = " + quoted(version) + "\nORACLE_OUTCOMES = {" + expected_outcomes +
           "}\nORACLE_FACTS = {" + expected_facts + "}\n" + R"PY(MISMATCHES = [f"step {n}: {ORACLE_OUTCOMES[n]} there, {OUTCOMES.get(n)} here"
              for n in ORACLE_OUTCOMES if OUTCOMES.get(n) != ORACLE_OUTCOMES[n]]
MISMATCHES += [f"step {n}: results {ORACLE_FACTS[n]} there, {FACTS.get(n)} here"
               for n in ORACLE_FACTS if OUTCOMES.get(n) == "ok" and [tuple(f) for f in FACTS.get(n, [])] != [tuple(f) for f in ORACLE_FACTS[n]]]
same_version = torch.__version__.split("+")[0] == ORACLE_VERSION
print(("this torch did what LibTorch " + ORACLE_VERSION + " did in stridecheck's run") if not MISMATCHES else
      (f"{len(MISMATCHES)} steps differ from LibTorch {ORACLE_VERSION} in stridecheck's run" +
       ("" if same_version else " (another version: expected where behaviour changed)") + ":\n  " + "\n  ".join(MISMATCHES)))
)PY";
  }
  return out;
}

}  // namespace sc
