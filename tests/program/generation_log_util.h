// What the generator's log says it drew (program/generator.h, GenerationLog),
// for the tests that check a class is drawn and makes what it is for.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "program/generator.h"

namespace sc::testing {

// The class drawn for `param` in one step's draws, or none.
inline std::optional<std::string_view> klass(const std::vector<DrawnClass>& drawn, std::string_view param) {
  for (const DrawnClass& d : drawn)
    if (d.param == param) return d.klass;
  return std::nullopt;
}

}  // namespace sc::testing
