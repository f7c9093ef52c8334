// runtime::env_switched_off: "0" turns a switch off, unset or empty leaves it on, anything else is
// refused naming the variable and the value.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "gluon/runtime/env.h"
#include "gluon/runtime/error.h"

using gluon::InputError;
using gluon::runtime::env_switched_off;

TEST(RuntimeEnv, SwitchedOffOnlyByZeroAndAnythingElseIsRefused) {
  const char* name = "GLUON_TEST_ENV_SWITCH";
  ::unsetenv(name);
  EXPECT_FALSE(env_switched_off(name));
  ::setenv(name, "", 1);
  EXPECT_FALSE(env_switched_off(name));
  ::setenv(name, "0", 1);
  EXPECT_TRUE(env_switched_off(name));
  for (const char* bad : {"off", "false", "1", "00", " 0"}) {
    ::setenv(name, bad, 1);
    try {
      env_switched_off(name);
      FAIL() << "accepted '" << bad << "'";
    } catch (const InputError& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find(name), std::string::npos) << m;
      EXPECT_NE(m.find(std::string("'") + bad + "'"), std::string::npos) << m;
    }
  }
  ::unsetenv(name);
}
