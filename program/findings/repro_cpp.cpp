// The C++ form of a reproduction (program/findings/repro.h): one main() that
// makes the oracle's calls (oracle/torch_*_ops.cpp) with ATen only, so it
// compiles in ~10 s (not <torch/torch.h>'s ~26 s).
#include <cmath>
#include <cstdio>
#include <set>

#include "engine/dtype.h"
#include "program/findings/repro.h"
#include "program/ops.h"
#include "program/printer.h"

namespace sc {
namespace {

// Program names that are C++ keywords or clash with the file's helpers get a trailing '_'.
std::string var(const std::string& n) {
  static const std::set<std::string> reserved = {
      "auto", "bool", "break", "case", "catch", "char", "class", "const", "continue", "default", "delete", "do",
      "double", "else", "enum", "extern", "false", "float", "for", "goto", "if", "inline", "int", "long", "new",
      "operator", "private", "protected", "public", "return", "short", "signed", "sizeof", "static", "struct",
      "switch", "template", "this", "throw", "true", "try", "typedef", "union", "unsigned", "using", "virtual",
      "void", "volatile", "while", "and", "or", "not", "xor", "at", "c10", "std", "show", "number", "factory",
      "main", "e", "empty_strided_iota", "values", "torch", "assert", "_result"};
  return reserved.count(n) ? n + "_" : n;
}

std::string cpp_number(const Number& n) {
  if (n.is_bool()) return n.i ? "true" : "false";
  if (n.is_int()) return "int64_t{" + std::to_string(n.i) + "}";
  if (std::isnan(n.f)) return "std::nan(\"\")";
  if (std::isinf(n.f)) return n.f > 0 ? "INFINITY" : "-INFINITY";
  return finite_float_text(n.f);
}

std::string cpp_list(const std::vector<int64_t>& v) {
  std::string s = "std::vector<int64_t>{";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "}";
}

std::string cpp_dtype(const std::string& written) {
  auto d = engine::parse_dtype(written);
  if (!d) return "at::kFloat";
  return "at::ScalarType::" + std::string(engine::torch_scalar_type_name(*d));
}

std::string cpp_format(FormatArg f) {
  switch (f) {
    case FormatArg::Preserve: return "at::MemoryFormat::Preserve";
    case FormatArg::Contiguous: return "at::MemoryFormat::Contiguous";
    case FormatArg::ChannelsLast: return "at::MemoryFormat::ChannelsLast";
    case FormatArg::ChannelsLast3d: return "at::MemoryFormat::ChannelsLast3d";
  }
  return "?";
}

std::string opt_format(const ArgReader& a) {
  auto f = a.kw_format();
  return f ? "c10::optional<at::MemoryFormat>(" + cpp_format(*f) + ")" : "c10::nullopt";
}

std::string opt_int(const ArgReader& a, size_t i) {
  auto v = a.opt_int(i);
  return v ? "c10::optional<int64_t>(" + std::to_string(*v) + ")" : "c10::nullopt";
}

// A Python number where LibTorch takes a tensor becomes a wrapped 0-d tensor (number()).
std::string operand(const ArgReader& a, size_t i) {
  return a.is_tensor(i) ? var(a.tensor(i)) : "number(" + cpp_number(a.scalar(i)) + ")";
}

std::string options(const ArgReader& a) {
  return "at::TensorOptions().dtype(" + cpp_dtype(a.kw_dtype().value_or("float32")) + ")";
}

// The C++ expression for a step's call (a Tensor, or a vector of them for split/chunk/unbind).
std::string call(const Step& s) {
  ArgReader a(s);
  const std::string& op = s.op;
  std::string self = a.size() > 0 && a.given(0) && a.is_tensor(0) ? var(a.tensor(0)) : "";
  auto i = [&](size_t k) { return std::to_string(a.int_(k)); };
  if (op == "arange") return "factory([&] { return at::arange(" + i(0) + ", " + options(a) + "); })";
  if (op == "zeros" || op == "ones")
    return "factory([&] { return at::" + op + "(" + cpp_list(a.int_list(0)) + ", " + options(a) + "); })";
  if (op == "full")
    return "factory([&] { return at::full(" + cpp_list(a.int_list(0)) + ", " + cpp_number(a.scalar(1)) + ", " +
           options(a) + "); })";
  if (op == "tensor") {
    auto v = a.values(0);
    bool any_float = false, any_int = false;
    for (const Number& n : v) any_float |= n.is_float(), any_int |= n.is_int();
    std::string inferred = any_float || v.empty() ? "float32" : any_int ? "int64" : "bool";
    std::string list = "std::vector<double>{";
    for (size_t k = 0; k < v.size(); ++k) list += (k ? ", " : "") + cpp_number(Number::floating(v[k].as_double()));
    list += "}";
    return "values(" + list + ", " + (a.values_is_scalar(0) ? "true" : "false") + ", " +
           cpp_dtype(a.kw_dtype().value_or(inferred)) + ")";
  }
  if (op == "empty_strided")
    return "factory([&] { return empty_strided_iota(" + cpp_list(a.int_list(0)) + ", " + cpp_list(a.int_list(1)) + ", " +
           options(a) + "); })";
  if (op == "view") {
    if (auto d = a.kw_dtype()) return self + ".view(" + cpp_dtype(*d) + ")";
    return self + ".view(" + cpp_list(a.int_list(1)) + ")";
  }
  if (op == "view_as" || op == "expand_as") return self + "." + op + "(" + var(a.tensor(1)) + ")";
  if (op == "reshape" || op == "permute" || op == "expand" || op == "broadcast_to" || op == "repeat")
    return self + "." + op + "(" + cpp_list(a.int_list(1)) + ")";
  if (op == "flip") return "at::flip(" + self + ", " + cpp_list(a.int_list(1)) + ")";
  if (op == "flatten" || op == "transpose") return self + "." + op + "(" + i(1) + ", " + i(2) + ")";
  if (op == "unflatten") return self + ".unflatten(" + i(1) + ", " + cpp_list(a.int_list(2)) + ")";
  if (op == "t" || op == "detach" || op == "mT") return self + "." + op + "()";
  if (op == "T") return self + ".numpy_T()";  // Python's x.T
  if (op == "movedim") {
    if (!a.is_list(1) && !a.is_list(2)) return "at::movedim(" + self + ", " + i(1) + ", " + i(2) + ")";
    return "at::movedim(" + self + ", " + cpp_list(a.int_list(1)) + ", " + cpp_list(a.int_list(2)) + ")";
  }
  if (op == "unsqueeze") return self + ".unsqueeze(" + i(1) + ")";
  if (op == "squeeze") return self + ".squeeze(" + (a.opt_int(1) ? std::to_string(*a.opt_int(1)) : "") + ")";
  if (op == "narrow" || op == "diagonal" || op == "unfold")
    return self + "." + op + "(" + i(1) + ", " + i(2) + ", " + i(3) + ")";
  if (op == "slice") return self + ".slice(" + i(1) + ", " + opt_int(a, 2) + ", " + opt_int(a, 3) + ", " + i(4) + ")";
  if (op == "select") return self + ".select(" + i(1) + ", " + i(2) + ")";
  if (op == "as_strided")
    return self + ".as_strided(" + cpp_list(a.int_list(1)) + ", " + cpp_list(a.int_list(2)) + ", " + opt_int(a, 3) + ")";
  if (op == "alias") return "at::alias(" + self + ")";
  if (op == "split") {
    if (a.is_list(1)) return "at::split_with_sizes(" + self + ", " + cpp_list(a.int_list(1)) + ", " + i(2) + ")";
    return self + ".split(" + i(1) + ", " + i(2) + ")";
  }
  if (op == "chunk") return self + ".chunk(" + i(1) + ", " + i(2) + ")";
  if (op == "unbind") return self + ".unbind(" + i(1) + ")";
  if (op == "contiguous") {
    auto f = a.kw_format();
    return self + ".contiguous(" + (f ? cpp_format(*f) : "") + ")";
  }
  if (op == "clone") return self + ".clone(" + opt_format(a) + ")";
  if (op == "to") {
    if (auto d = a.kw_dtype()) return self + ".to(" + cpp_dtype(*d) + ", false, false, " + opt_format(a) + ")";
    return self + ".to(" + self + ".options(), false, false, " + opt_format(a) + ")";
  }
  if (op == "index_select")
    return "at::index_select(" + self + ", " + i(1) + ", at::tensor(" + cpp_list(a.int_list(2)) + ", at::kLong))";
  if (op == "empty_like" || op == "zeros_like") {
    auto d = a.kw_dtype();
    std::string o = d ? "at::TensorOptions().dtype(" + cpp_dtype(*d) + ")" : "at::TensorOptions()";
    return "factory([&] { return at::" + op + "(" + self + ", " + o + ", " + opt_format(a) + "); })";
  }
  if (op == "add_" || op == "sub_" || op == "mul_" || op == "div_" || op == "copy_")
    return self + "." + op + "(" + operand(a, 1) + ")";
  if (op == "fill_")
    return self + ".fill_(" + (a.is_tensor(1) ? var(a.tensor(1)) : "at::Scalar(" + cpp_number(a.scalar(1)) + ")") + ")";
  if (op == "zero_") return self + ".zero_()";
  if (op == "clamp_") {
    auto bound = [&](size_t k) {
      return a.is_none(k) ? std::string("c10::optional<at::Scalar>()")
                          : "c10::optional<at::Scalar>(at::Scalar(" + cpp_number(a.scalar(k)) + "))";
    };
    return self + ".clamp_(" + bound(1) + ", " + bound(2) + ")";
  }
  if (op == "add" || op == "mul" || op == "neg") {
    std::string args = self + (op == "neg" ? "" : ", " + operand(a, 1));
    if (auto out = a.kw_tensor("out")) return "at::" + op + "_out(" + var(*out) + ", " + args + ")";
    return "at::" + op + "(" + args + ")";
  }
  return "at::Tensor() /* '" + op + "' has no C++ form yet */";
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

std::string comment(const std::string& text, const std::string& indent = "  ") {
  std::string out;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    out += indent + "// " + text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos) + "\n";
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  return out;
}

std::string disagreement(const Program& program, const ReproPlan& plan) {
  const Difference& d = *plan.difference;
  const Step& s = program.steps[d.step];
  std::string out = comment("stridecheck: first difference at step " + std::to_string(d.step + 1) + ", " + d.field) +
                    comment("  " + plan.oracle + " said: " + plan.oracle_value) +
                    comment("  " + plan.other + " said: " + plan.other_value);
  if (!d.detail.empty()) out += comment("  " + d.detail);
  const int r = result_index(d.field);
  std::string x = r >= 0 ? var(result_name(s, r)) : "";
  if (r >= 0 && result_name(s, r).empty()) x = "_result";
  const std::string cls = r >= 0 ? d.field.substr(d.field.find(' ', 7) + 1) : d.field;
  auto print = [&](const std::string& label, const std::string& expr) {
    return "  std::cout << " + quoted(label + " = ") + " << " + expr + " << " +
           quoted("  // " + plan.other + " said " + plan.other_value + "\n") + ";\n";
  };
  if (x.empty()) return out;
  if (cls == "dtype") return out + print(x + ".dtype()", x + ".dtype()");
  if (cls == "sizes") return out + print(x + ".sizes()", x + ".sizes()");
  if (cls == "strides") return out + print(x + ".strides()", x + ".strides()");
  if (cls == "storage_offset") return out + print(x + ".storage_offset()", x + ".storage_offset()");
  if (cls == "is_contiguous") return out + print(x + ".is_contiguous()", x + ".is_contiguous()");
  if (cls == "is_contiguous(channels_last)")
    return out + print(x + ".is_contiguous(ChannelsLast)", x + ".is_contiguous(at::MemoryFormat::ChannelsLast)");
  if (cls == "is_contiguous(channels_last_3d)")
    return out + print(x + ".is_contiguous(ChannelsLast3d)", x + ".is_contiguous(at::MemoryFormat::ChannelsLast3d)");
  if (cls == "is_non_overlapping_and_dense")
    return out + print(x + ".is_non_overlapping_and_dense()", x + ".is_non_overlapping_and_dense()");
  if (cls == "is_view") return out + print(x + ".is_view()", x + ".is_view()");
  if (cls == "has_internal_overlap" || cls == "exact internal overlap")
    return out + print("at::has_internal_overlap(" + x + ") (0: No, 1: Yes, 2: TooHard)",
                       "static_cast<int>(at::has_internal_overlap(" + x + "))");
  return out;
}

}  // namespace

std::string cpp_repro(const Program& program, const ReproPlan& plan, const std::string& compile_line) {
  std::string out = "// A standalone reproduction";
  out += plan.source.empty() ? "" : " of " + plan.source;
  out += ", written by `stridecheck repro --as cpp`.\n// It needs only LibTorch (ATen). Compile and run:\n";
  out += comment(compile_line, "");
  if (!plan.oracle.empty()) {
    out += comment("stridecheck compared " + plan.oracle + " (" + plan.oracle_version + ") with " + plan.other + ": " +
                   plan.verdict, "");
    if (plan.difference)
      out += comment("they first differ at step " + std::to_string(plan.difference->step + 1) + " (" +
                     plan.difference->field + "); the program ends there", "");
  }
  out += R"(#include <ATen/ATen.h>
#include <ATen/MemoryOverlap.h>
#include <ATen/ScalarOps.h>
#include <ATen/core/LegacyTypeDispatch.h>
#include <torch/version.h>

#include <cmath>
#include <cstdint>
#include <iostream>
#include <vector>

// Python's factory functions run below the ADInplaceOrView key, so a new
// tensor's version starts at 0 (at::zeros alone would say 1).
template <class F>
at::Tensor factory(F&& make) {
  at::AutoDispatchBelowADInplaceOrView guard;
  return make();
}

// A Python number where LibTorch takes a tensor: a wrapped 0-d tensor.
at::Tensor number(const at::Scalar& s) {
  at::Tensor t = c10::scalar_to_tensor(s);
  t.unsafeGetTensorImpl()->set_wrapped_number(true);
  return t;
}

// torch.tensor(values, dtype=D).
at::Tensor values(const std::vector<double>& v, bool zero_dim, at::ScalarType dtype) {
  at::Tensor t = at::tensor(v, at::kDouble).to(dtype);
  return factory([&] { return zero_dim ? t.reshape({}).clone() : t.clone(); });
}

// empty_strided with its whole storage filled 0, 1, 2, ... (as stridecheck does, so contents are defined).
at::Tensor empty_strided_iota(at::IntArrayRef size, at::IntArrayRef stride, const at::TensorOptions& options) {
  at::Tensor t = at::empty_strided(size, stride, options);
  const int64_t n = static_cast<int64_t>(t.storage().nbytes()) / static_cast<int64_t>(t.element_size());
  if (n > 0) {
    at::Tensor flat = at::empty({0}, options);
    flat.set_(t.storage(), 0, {n}, {1});
    flat.copy_(at::arange(n, options.dtype(at::kLong)));
  }
  return t;
}

void show(const char* name, const at::Tensor& t) {
  std::cout << name << ": " << t.dtype() << " sizes=" << t.sizes() << " strides=" << t.strides()
            << " storage_offset=" << t.storage_offset() << " version=" << t._version() << "\n";
}

int main() {
  std::cout << "LibTorch " << TORCH_VERSION << "\n";
)";
  std::set<std::string> declared;
  std::string decls;
  for (const ReproStep& rs : plan.steps)
    for (const std::string& o : program.steps[rs.index].outputs)
      if (declared.insert(o).second) decls += (decls.empty() ? "" : ", ") + var(o);
  if (!decls.empty()) out += "  at::Tensor " + decls + ";\n";
  for (const ReproStep& rs : plan.steps) {
    const Step& s = program.steps[rs.index];
    const OpSpec* spec = find_op(s.op);
    out += "\n" + comment("step " + std::to_string(rs.index + 1) + ": " + print_step(s));
    if (rs.kind == ReproStep::Kind::Skipped) {
      out += "  // skipped: an input is unbound because an earlier step raised\n";
      continue;
    }
    if (rs.kind == ReproStep::Kind::NotRun) {
      out += comment("not run (stridecheck did not run it either, and compared nothing after it):") +
             comment("  " + plan.oracle + ": " + rs.oracle_said) + comment("  " + plan.other + ": " + rs.other_said) +
             comment(call(s));
      break;
    }
    if (!rs.oracle_said.empty() && rs.oracle_said != "ok") out += comment(plan.oracle + ": " + rs.oracle_said);
    if (!rs.other_said.empty() && rs.other_said != rs.oracle_said) out += comment(plan.other + ": " + rs.other_said);
    const bool at_difference = plan.difference && plan.difference->step == rs.index;
    std::string body, show_lines;
    if (spec && spec->results == Results::Many) {
      body = "{\n    auto r = " + call(s) + ";\n";
      for (size_t k = 0; k < s.outputs.size(); ++k)
        body += "    if (r.size() > " + std::to_string(k) + ") " + var(s.outputs[k]) + " = r[" + std::to_string(k) + "];\n";
      body += "  }";
    } else if (!s.outputs.empty()) {
      body = var(s.outputs[0]) + " = " + call(s) + ";";
    } else if (at_difference && result_index(plan.difference->field) >= 0 && result_name(s, 0).empty()) {
      body = "at::Tensor _result = " + call(s) + ";";
    } else {
      body = call(s) + ";";
    }
    std::vector<std::string> names = s.outputs;
    if (names.empty() && !result_name(s, 0).empty()) names.push_back(result_name(s, 0));
    for (const std::string& n : names) show_lines += "  show(" + quoted(n) + ", " + var(n) + ");\n";
    const bool guard = rs.kind == ReproStep::Kind::Raises;
    if (guard) {
      out += "  try {\n    " + body + "\n";
      for (const std::string& n : names) out += "    show(" + quoted(n) + ", " + var(n) + ");\n";
      out += "  } catch (const std::exception& e) {\n    std::cout << \"step " + std::to_string(rs.index + 1) +
             " raised: \" << std::string(e.what()).substr(0, std::string(e.what()).find('\\n')) << \"\\n\";\n  }\n";
    } else {
      out += "  " + body + "\n" + show_lines;
    }
    if (at_difference) out += disagreement(program, plan);
  }
  out += "}\n";
  return out;
}

}  // namespace sc
