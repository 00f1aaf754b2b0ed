// stridecheck replay: every program on two backends (or against its
// recording), each in a forked child with a wall-time limit, so a crash or a
// hang in LibTorch or the engine is a reported failure, never the tool's end.
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>

#include "program/compare.h"
#include "program/known_divergences.h"
#include "program/parser.h"
#include "program/trace_text.h"
#include "tools/tool.h"

namespace sc::tool {
namespace {
namespace fs = std::filesystem;

// Files to replay: files as given, directories searched recursively for *.prog, sorted.
std::vector<std::string> collect_programs(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<std::string> found;
      for (auto it = fs::recursive_directory_iterator(p, fs::directory_options::skip_permission_denied, ec);
           !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
        if (it->path().extension() == ".prog" && it->is_regular_file(ec)) found.push_back(it->path().string());
      if (ec) throw UsageError("cannot read the folder " + p + ": " + ec.message());
      std::sort(found.begin(), found.end());
      out.insert(out.end(), found.begin(), found.end());
    } else {
      out.push_back(p);  // a missing file is reported as unreadable when it is parsed
    }
  }
  return out;
}

// What a child reports: one word, the oracle's version, then the report text.
struct ChildReport {
  std::string verdict;  // pass, fail, undefined, skipped, error, crashed, timeout
  std::string version;
  std::string text;
};

// "LibTorch 1.13.0 (Debian package ...)" -> "1.13.0", what known-divergence globs match.
std::string strip_libtorch(std::string v) {
  if (v.rfind("LibTorch ", 0) == 0) v = v.substr(9);
  return v.substr(0, v.find(' '));
}

// Where the child is: written by the child before each step, read by the
// parent when the child crashes or hangs (a page shared across the fork).
struct Progress {
  char backend[64];
  int64_t step;
};

// "at step 3 on libtorch:cpu (file.prog:4: y = view x [-1])", or "" before the first step.
std::string where(const Progress* p, const Program& program) {
  if (!p || p->step < 0) return "";
  return " at step " + std::to_string(p->step + 1) + " on " + std::string(p->backend) + " (" +
         step_source(program, static_cast<size_t>(p->step)) + ")";
}

// The child's report: "<verdict>\n<oracle version>\n<text>".
std::string child_report(const Program& program, const Options& o, const std::vector<std::string>& names,
                         Progress* progress) {
  try {
    if (o.against_recorded && program.recorded.empty())
      return "skipped\n\nskipped: no recorded observations ('#>' lines): run `stridecheck record` on it\n";
    auto on_step = [progress](const std::string& backend, size_t step) {
      if (!progress) return;
      std::snprintf(progress->backend, sizeof progress->backend, "%s", backend.c_str());
      progress->step = static_cast<int64_t>(step);
    };
    Comparison c = compare_program(program, o, names, /*record_contents=*/false, on_step);
    return std::string(verdict_name(c.diff.verdict)) + "\n" + strip_libtorch(c.right.backend_version) + "\n" +
           format_diff(program, c.left, c.right, c.diff);
  } catch (const std::exception& e) {
    return "error\n\n" + std::string(e.what()) + "\n";
  } catch (...) {
    return "error\n\nunknown exception\n";
  }
}

// Runs in the child: never returns normally.
[[noreturn]] void child_main(int fd, const Program& program, const Options& o, const std::vector<std::string>& names,
                             Progress* progress) {
  std::string out = child_report(program, o, names, progress);
  const char* p = out.data();
  size_t left = out.size();
  while (left > 0) {
    ssize_t w = write(fd, p, left);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) break;
    p += w;
    left -= static_cast<size_t>(w);
  }
  close(fd);
  std::fflush(nullptr);
  _exit(0);
}

ChildReport run_in_child(const Program& program, const Options& o, const std::vector<std::string>& names) {
  int fds[2];
  if (pipe(fds) != 0) return {"error", "", std::string("pipe: ") + std::strerror(errno) + "\n"};
  void* shared = mmap(nullptr, sizeof(Progress), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  Progress* progress = shared == MAP_FAILED ? nullptr : static_cast<Progress*>(shared);
  if (progress) progress->step = -1;
  struct Unmap {
    Progress* p;
    ~Unmap() {
      if (p) munmap(p, sizeof(Progress));
    }
  } unmap{progress};
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return {"error", "", std::string("fork: ") + std::strerror(errno) + "\n"};
  }
  if (pid == 0) {
    close(fds[0]);
    child_main(fds[1], program, o, names, progress);
  }
  close(fds[1]);
  std::string data;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(o.timeout_s);
  bool timed_out = false;
  char buf[65536];
  while (true) {
    auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      timed_out = true;
      break;
    }
    int ms = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count()) + 1;
    pollfd pfd{fds[0], POLLIN, 0};
    int r = poll(&pfd, 1, ms);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;  // timeout: the loop checks the deadline
    ssize_t n = read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // EOF: the child closed its end (finished or died)
    data.append(buf, static_cast<size_t>(n));
  }
  close(fds[0]);
  if (timed_out) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) {
    char t[64];
    std::snprintf(t, sizeof t, "%g", o.timeout_s);
    return {"timeout", "",
            std::string("timed out: still running after ") + t + " s (--timeout)" + where(progress, program) +
                "; killed\n"};
  }
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    return {"crashed", "",
            "crashed: killed by signal " + std::to_string(sig) + " (" + strsignal(sig) + ")" + where(progress, program) +
                "\n"};
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return {"crashed", "", "crashed: exited with status " + std::to_string(WEXITSTATUS(status)) + "\n"};
  size_t a = data.find('\n');
  size_t b = a == std::string::npos ? a : data.find('\n', a + 1);
  if (b == std::string::npos) return {"crashed", "", "crashed: the child's report is incomplete\n"};
  return {data.substr(0, a), data.substr(a + 1, b - a - 1), data.substr(b + 1)};
}

std::string indent(const std::string& text) {
  std::string out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    std::string line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    out += "  " + line + "\n";
    pos = nl == std::string::npos ? text.size() : nl + 1;
  }
  return out;
}

struct Counts {
  int passed = 0, failed = 0, undefined = 0, skipped = 0, known = 0;
  bool malformed = false;
};

}  // namespace

int replay_main(const std::vector<std::string>& args) {
  Options o = parse_options(args, {"--device", "--backends", "--budget", "--timeout", "--quiet",
                                   "--against-recorded", "--known"});
  if (o.paths.empty()) throw UsageError("replay needs at least one program file or folder");
  std::vector<std::string> names;
  if (o.against_recorded) {
    names = {o.backends.empty() ? "engine:" + o.device : o.backends[0]};
    if (o.backends.size() > 1) throw UsageError("--against-recorded compares one backend with the recording");
  } else {
    names = backend_pair(o);
  }
  check_backend_names(names);
  std::vector<std::string> programs = collect_programs(o.paths);
  // Can the backends be made on this device? Asked in a child too, so that the
  // parent never initialises a device runtime (CUDA) before forking.
  if (!o.against_recorded) {
    ChildReport probe = run_in_child(Program{}, o, names);
    if (probe.verdict == "error") throw UsageError(probe.text.substr(0, probe.text.find_last_not_of('\n') + 1));
  }

  std::optional<KnownDivergences> explicit_known;
  if (!o.known_file.empty()) {
    try {
      explicit_known = read_known_divergences(o.known_file);
    } catch (const std::exception& e) {
      throw UsageError(e.what());
    }
  }
  std::map<std::string, KnownDivergences> known_cache;  // file -> entries

  std::string oracle = oracle_version();
  std::printf("stridecheck %s; oracle: %s\n", STRIDECHECK_VERSION, oracle.empty() ? "none (built without LibTorch)" : oracle.c_str());
  std::printf("comparing %s\n", o.against_recorded ? (names[0] + " with the recorded observations").c_str()
                                                    : (names[0] + " with " + names[1]).c_str());
  std::fflush(stdout);

  Counts n;
  for (const std::string& path : programs) {
    Program program;
    try {
      program = parse_file(path);
    } catch (const ParseError& e) {
      std::printf("FAIL %s\n  %s\n", path.c_str(), e.text.c_str());
      ++n.failed;
      n.malformed = true;
      continue;
    }
    ChildReport r = run_in_child(program, o, names);

    // Known divergences: the explicit --known file, or the nearest one above the program.
    const KnownDivergences* known = explicit_known ? &*explicit_known : nullptr;
    if (!known) {
      if (auto f = find_known_divergences_file(path)) {
        auto it = known_cache.find(*f);
        if (it == known_cache.end()) {
          try {
            it = known_cache.emplace(*f, read_known_divergences(*f)).first;
          } catch (const std::exception& e) {
            throw UsageError(e.what());
          }
        }
        known = &it->second;
      }
    }
    std::string version = r.version.empty() ? strip_libtorch(oracle) : r.version;
    const KnownDivergence* entry = known ? known->find(path, version) : nullptr;

    bool failing = r.verdict == "fail" || r.verdict == "error" || r.verdict == "crashed" || r.verdict == "timeout";
    if (failing && entry) {
      ++n.known;
      if (!o.quiet) std::printf("KNOWN %s (%s:%d: %s)\n", path.c_str(), known->file.c_str(), entry->line, entry->reason.c_str());
    } else if (failing) {
      ++n.failed;
      std::printf("FAIL %s\n%s", path.c_str(), indent(r.text).c_str());
    } else if (r.verdict == "pass" && entry) {
      ++n.failed;
      std::printf("FAIL %s\n  known divergence now passes: remove it from known_divergences.txt (%s:%d)\n",
                  path.c_str(), known->file.c_str(), entry->line);
    } else if (r.verdict == "pass") {
      ++n.passed;
    } else if (r.verdict == "undefined") {
      ++n.undefined;
      if (!o.quiet) std::printf("UNDEFINED %s\n%s", path.c_str(), indent(r.text).c_str());
    } else if (r.verdict == "skipped") {
      ++n.skipped;
      if (!o.quiet) std::printf("SKIPPED %s\n%s", path.c_str(), indent(r.text).c_str());
    } else {
      ++n.failed;
      std::printf("FAIL %s\n  unexpected report '%s'\n", path.c_str(), r.verdict.c_str());
    }
    std::fflush(stdout);
  }
  std::printf("%d passed, %d failed\n", n.passed, n.failed);
  std::printf("undefined: %d, skipped: %d, known: %d\n", n.undefined, n.skipped, n.known);
  if (n.malformed) return kExitUsage;
  return n.failed ? kExitFailed : kExitOk;
}

}  // namespace sc::tool
