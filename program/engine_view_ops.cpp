// Engine backend: view ops (DESIGN.md view list) mapped onto engine/views.h.
#include "engine/views.h"
#include "program/engine_ops.h"

namespace sc {

void add_engine_view_ops(EngineOpTable& t) {
  (void)t;  // filled in by the view-ops work
}

}  // namespace sc
