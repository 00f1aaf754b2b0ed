#include "oracle/torch_runtime.h"

#include <ATen/Parallel.h>
#include <c10/util/Logging.h>

#include <algorithm>
#include <exception>
#include <functional>
#include <stdexcept>

namespace sc::oracle {

void ensure_torch_runtime() {
  static const bool done = [] {
    // An empty backtrace: a thrown c10::Error costs ~19 us instead of ~4.6 ms.
    // LibTorch 2.x adds a lazy Backtrace overload; the std::string one stays.
    c10::SetStackTraceFetcher(std::function<std::string()>([] { return std::string(); }));
    // TORCH_WARN_ONCE warns every time, as the engine does.
    c10_warning::set_warnAlways(true);
    // One intra-op thread, whatever the machine: some results depend on it.
    // at::parallel_for splits a loop into one chunk per thread and each chunk
    // restarts the vectorized loop, whose lanes round their vector's base to
    // the dtype first: arange(70000, float16)[35032] is 35040 with 2 threads
    // (chunks of 35000) and 35008 with 1 (measured with 2.15, whose default
    // is the core count; 1.13's here is 1). The engine imitates one thread.
    at::set_num_threads(1);
    return true;
  }();
  (void)done;
}

namespace {
bool ends_with(std::string_view s, std::string_view suffix) {  // C++17: the oracle's files build as C++17 for 1.13
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}
}  // namespace

std::string clean_error_message(std::string_view what) {
  constexpr std::string_view kRaised = "Exception raised from";
  size_t cut = std::string_view::npos;
  for (size_t line = 0; line < what.size();) {
    if (what.substr(line, kRaised.size()) == kRaised) {
      cut = line;
      break;
    }
    size_t nl = what.find('\n', line);
    if (nl == std::string_view::npos) break;
    line = nl + 1;
  }
  std::string_view kept = what.substr(0, cut);
  // A leading source location ("/__w/pytorch/pytorch/build/aten/src/ATen/
  // RegisterCPU_0.cpp:1766: SymIntArrayRef expected ...", from the c10 checks
  // that are passed __FILE__ and __LINE__) says where this LibTorch was built,
  // not what it did: dropped.
  if (size_t colon = kept.find(": "); colon != std::string_view::npos) {
    std::string_view location = kept.substr(0, colon);
    size_t line_colon = location.rfind(':');
    auto is_digit = [](char ch) { return ch >= '0' && ch <= '9'; };
    if (line_colon != std::string_view::npos && line_colon + 1 < location.size() &&
        location.find_first_of(" \n") == std::string_view::npos &&
        std::all_of(location.begin() + line_colon + 1, location.end(), is_digit) &&
        (ends_with(location.substr(0, line_colon), ".cpp") || ends_with(location.substr(0, line_colon), ".h")))
      kept.remove_prefix(colon + 2);
  }
  while (!kept.empty() && (kept.back() == ' ' || kept.back() == '\n' || kept.back() == '\t' || kept.back() == '\r'))
    kept.remove_suffix(1);
  return std::string(kept);
}

engine::TorchError as_torch_error(const c10::Error& e) {
  using engine::ErrorKind;
  // The subclasses, by a type test each (no rethrow: Note [Errors cross the
  // interpreter as values], program/traced_backend.h).
  ErrorKind kind = ErrorKind::RuntimeError;
  if (dynamic_cast<const c10::IndexError*>(&e)) kind = ErrorKind::IndexError;
  else if (dynamic_cast<const c10::ValueError*>(&e)) kind = ErrorKind::ValueError;
  else if (dynamic_cast<const c10::TypeError*>(&e)) kind = ErrorKind::TypeError;
  else if (dynamic_cast<const c10::NotImplementedError*>(&e)) kind = ErrorKind::NotImplementedError;
  return engine::TorchError(kind, clean_error_message(e.what_without_backtrace()));
}

engine::TorchError as_torch_error(const std::exception& e) {
  if (auto c10e = dynamic_cast<const c10::Error*>(&e)) return as_torch_error(*c10e);
  if (auto te = dynamic_cast<const engine::TorchError*>(&e)) return *te;
  return engine::TorchError(engine::ErrorKind::RuntimeError, clean_error_message(e.what()));
}

engine::TorchError current_exception_as_torch_error() {
  try {
    throw;
  } catch (const engine::StepRefused&) {
    throw;  // not an error of LibTorch's: the interpreter reports the step as refused
  } catch (const std::exception& e) {
    return as_torch_error(e);
  }
}

}  // namespace sc::oracle
