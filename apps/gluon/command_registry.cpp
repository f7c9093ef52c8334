#include <map>
#include <string>

#include "commands.h"

namespace gluon::apps {

namespace {
// A function-local static: registrations run during static initialisation, in any order.
std::map<std::string, RegisterFn>& registry() {
  static std::map<std::string, RegisterFn> r;
  return r;
}
}  // namespace

CommandRegistration::CommandRegistration(const char* name, RegisterFn fn) { registry()[name] = fn; }

void register_self_registered(CLI::App& app) {
  for (const auto& [name, fn] : registry()) fn(app);
}

}  // namespace gluon::apps
