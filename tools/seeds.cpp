// stridecheck seeds [--seed N] [--count K] --out DIR: fuzzer inputs that
// stand for K generated programs (seeds N, N+1, ...), to start a campaign or
// a ClusterFuzzLite seed corpus from varied, full-length programs instead of
// libFuzzer's empty input. Each input holds the choices the generator used,
// two bytes each (Choices::from_bytes reads them back), and the one after
// them that draws the engine thread count, at most 512 bytes.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "program/engine_threads.h"
#include "program/generator.h"
#include "tools/tool.h"

namespace sc::tool {

int seeds_main(const std::vector<std::string>& args) {
  uint64_t seed = 0;
  int count = 64;
  std::string out_dir;
  for (size_t i = 0; i < args.size(); ++i) {
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) throw UsageError(args[i] + " needs a value");
      return args[++i];
    };
    try {
      if (args[i] == "--seed") seed = std::stoull(value());
      else if (args[i] == "--count") count = std::stoi(value());
      else if (args[i] == "--out") out_dir = value();
      else throw UsageError("seeds: unknown option '" + args[i] + "'");
    } catch (const std::logic_error&) {
      throw UsageError("seeds: " + args[i] + " needs a number");
    }
  }
  if (out_dir.empty()) throw UsageError("seeds needs --out DIR");
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) throw UsageError("cannot create " + out_dir + ": " + ec.message());
  for (int k = 0; k < count; ++k) {
    // 16-bit choices (what two input bytes can say), then as many as the program used.
    Choices full = Choices::from_seed(seed + static_cast<uint64_t>(k), 256);
    std::vector<uint8_t> bytes;
    for (int j = 0; j < 256; ++j) {
      uint32_t v = full.below(65536);
      bytes.push_back(static_cast<uint8_t>(v >> 8));
      bytes.push_back(static_cast<uint8_t>(v & 0xff));
    }
    Choices choices = Choices::from_bytes(bytes.data(), bytes.size());
    generate_program(choices);
    draw_engine_threads(choices);  // and the engine thread count (Note [Searched engine threads])
    bytes.resize(std::min(bytes.size(), 2 * choices.used()));
    const std::string path = out_dir + "/seed-" + std::to_string(seed + static_cast<uint64_t>(k));
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!f.flush()) throw UsageError("cannot write " + path);
  }
  return kExitOk;
}

}  // namespace sc::tool
