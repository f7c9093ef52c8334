#pragma once
// Shared helpers for the test suite.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "gluon/runtime/exec.h"

namespace gluon::test {

// ../shared/testdata beside the checkout (GLUON_TESTDATA_DIR), overridable by $GLUON_TESTDATA.
std::string testdata_dir();
// testdata_dir() + "/gauge/" + name; the test FAILS naming the path when the file is absent.
std::string gauge_file(const std::string& name);
// The built gluon executable.
std::string gluon_binary();
// A fresh, empty directory under the build tree for this test's files.
std::string scratch_dir();
// Runs a shell command; returns its exit status and captures stdout+stderr into `output`.
int run_command(const std::string& command, std::string& output);

// Sets an environment variable for its lifetime and then puts back what was there (ctest may run
// a whole executable under a setting).
class ScopedEnv {
 public:
  ScopedEnv(const char* var, const char* value) : var_(var) {
    if (const char* old = std::getenv(var)) old_ = old, had_ = true;
    ::setenv(var, value, 1);
  }
  ~ScopedEnv() {
    if (had_) ::setenv(var_, old_.c_str(), 1);
    else ::unsetenv(var_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* var_;
  std::string old_;
  bool had_ = false;
};

}  // namespace gluon::test

// In gpu tests: skip with a clear message when no CUDA device is usable.
#define GLUON_REQUIRE_GPU()                                                                  \
  do {                                                                                       \
    if (!gluon::runtime::cuda_available())                                                   \
      GTEST_SKIP() << "no CUDA device (CPU-only build or no GPU): gpu test not run";         \
  } while (0)
