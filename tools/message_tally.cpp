#include "tools/message_tally.h"

#include <set>

namespace sc::tool {

std::vector<ErrorTemplate> listed_templates(const MessageReport& messages) {
  if (messages.templates_file.empty()) return {};
  try {
    return read_error_templates(messages.templates_file);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
}

void MessageTally::add(const std::string& op, const StepObs& step, const std::string& where) {
  if (step.outcome != Outcome::Error) return;
  Seen& s = seen_[{op, step.error_kind, message_template(step.error_message)}];
  if (s.count++ == 0) {
    s.first_where = where;
    s.first_message = step.error_message;
  }
}

std::vector<const ErrorTemplate*> MessageTally::missing(const std::vector<ErrorTemplate>& listed) const {
  std::vector<const ErrorTemplate*> out;
  for (const ErrorTemplate& t : listed)
    if (!t.engine_only && !seen_.count({t.op, t.kind, t.text})) out.push_back(&t);
  return out;
}

void MessageTally::print(std::FILE* out, const std::string& side, const std::vector<ErrorTemplate>* listed) const {
  std::set<Key> in_list;
  if (listed)
    for (const ErrorTemplate& t : *listed) in_list.insert({t.op, t.kind, t.text});
  std::fprintf(out, "\nerror templates raised on the %s side: %zu distinct (op, kind, template)%s\n", side.c_str(),
               seen_.size(), listed ? "; '+' marks one the template list lacks" : "");
  std::fprintf(out, "%-13s %-19s %9s  %s\n", "op", "kind", "count", "template  [first program]");
  for (const auto& [key, s] : seen_) {
    const auto& [op, kind, text] = key;
    std::fprintf(out, "%-13s %-19s %9lld %s%s  [%s]\n", op.c_str(), kind.c_str(), static_cast<long long>(s.count),
                 listed && !in_list.count(key) ? "+" : " ", text.c_str(), s.first_where.c_str());
  }
  if (!listed) return;
  const std::vector<const ErrorTemplate*> never = missing(*listed);
  std::fprintf(out, "listed templates never reached: %zu of %zu\n", never.size(), listed->size());
  for (const ErrorTemplate* t : never)
    std::fprintf(out, "  line %d: %-13s %-19s %s\n", t->line, t->op.c_str(), t->kind.c_str(), t->text.c_str());
}

}  // namespace sc::tool
