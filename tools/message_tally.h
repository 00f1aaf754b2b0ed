#pragma once
// The message-reach report (`generate --stats --messages`, `exercise
// --messages`): per op, each distinct error template (program/message_template.h)
// the oracle side raised, how often, and one program that raised it; with a
// checked-in list (--templates FILE, corpus/error_templates.txt) also the
// listed templates never reached and the reached ones the list lacks.
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "program/message_template.h"
#include "program/observation.h"
#include "tools/tool.h"

namespace sc::tool {

// The checked-in list of --templates FILE, or none without one; a list that
// cannot be read is a usage error.
std::vector<ErrorTemplate> listed_templates(const MessageReport&);

class MessageTally {
 public:
  // Counts the step when it raised. `where` names the program (a seed, a path).
  void add(const std::string& op, const StepObs& step, const std::string& where);
  // Sorted by op, kind, template.
  void print(std::FILE* out, const std::string& side, const std::vector<ErrorTemplate>* listed) const;
  // The listed templates never counted.
  std::vector<const ErrorTemplate*> missing(const std::vector<ErrorTemplate>& listed) const;
  size_t distinct() const { return seen_.size(); }

 private:
  using Key = std::tuple<std::string, std::string, std::string>;  // op, kind, template
  struct Seen {
    int64_t count = 0;
    std::string first_where;
    std::string first_message;
  };
  std::map<Key, Seen> seen_;
};

}  // namespace sc::tool
