#include "oracle/oracle.h"

#include <torch/version.h>

namespace sc::oracle {

void register_backends() {}
std::string libtorch_version() { return TORCH_VERSION; }

}  // namespace sc::oracle
