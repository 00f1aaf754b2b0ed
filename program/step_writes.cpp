#include "program/step_writes.h"

#include <variant>

#include "program/ops.h"

namespace sc {

StepWrites written_inputs(const Step& s) {
  StepWrites w;
  const OpSpec* spec = find_op(s.op);
  if (!spec) {
    w.unknown_op = true;
    return w;
  }
  if (spec->category == OpCategory::InPlace && !s.args.empty())
    if (const auto* n = std::get_if<Name>(&s.args.front())) w.names[0] = &n->id;
  if (const KwArg* k = s.kwarg("out"))
    if (const auto* n = std::get_if<Name>(&k->value)) w.names[1] = &n->id;
  return w;
}

}  // namespace sc
