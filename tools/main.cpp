// stridecheck: replay, run and record programs of the view-chain language.
#include <cstdio>
#include <string>
#include <vector>

#include "program/backend.h"
#include "tools/tool.h"
#ifdef STRIDECHECK_HAVE_TORCH
#include "oracle/oracle.h"
#endif

int main(int argc, char** argv) {
  sc::register_engine_backend();
#ifdef STRIDECHECK_HAVE_TORCH
  sc::oracle::register_backends();
#endif
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string cmd = args.empty() ? "--help" : args[0];
  std::vector<std::string> rest(args.begin() + (args.empty() ? 0 : 1), args.end());
  try {
    if (cmd == "--help" || cmd == "-h" || cmd == "help") return std::fputs(sc::tool::help_text().c_str(), stdout), 0;
    if (cmd == "--version") return std::fputs(sc::tool::version_text().c_str(), stdout), 0;
    if (cmd == "replay") return sc::tool::replay_main(rest);
    if (cmd == "run") return sc::tool::run_main(rest);
    if (cmd == "record") return sc::tool::record_main(rest);
    if (cmd == "decode") return sc::tool::decode_main(rest);
    if (cmd == "generate") return sc::tool::generate_main(rest);
    if (cmd == "minimize") return sc::tool::minimize_main(rest);
    if (cmd == "signature") return sc::tool::signature_main(rest);
    if (cmd == "serve") return sc::tool::serve_main(rest);
    if (cmd == "versions") return sc::tool::versions_main(rest);
    if (cmd == "repro") return sc::tool::repro_main(rest);
    if (cmd == "exercise") return sc::tool::exercise_main(rest);
    if (cmd == "seeds") return sc::tool::seeds_main(rest);
    if (cmd == "neighbours") return sc::tool::neighbours_main(rest);
    if (cmd == "exhaust") return sc::tool::exhaust_main(rest);
    throw sc::tool::UsageError("unknown command '" + cmd + "'");
  } catch (const sc::tool::UsageError& e) {
    std::fprintf(stderr, "stridecheck: %s\n(see stridecheck --help)\n", e.what());
    return sc::tool::kExitUsage;
  }
}
