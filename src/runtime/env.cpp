// Environment switches (env.h).
#include "gluon/runtime/env.h"

#include <cstdlib>
#include <string>

#include "gluon/runtime/error.h"

namespace gluon::runtime {

bool env_switched_off(const char* name) {
  const char* e = std::getenv(name);
  if (!e || !*e) return false;
  if (std::string(e) == "0") return true;
  throw InputError(std::string(name) + ": expected 0 (or unset), found '" + e + "'");
}

}  // namespace gluon::runtime
