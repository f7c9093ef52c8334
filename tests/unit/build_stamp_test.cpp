// The binary's code id (gluon::build::code, the tune cache's build key) is what
// cmake/build_stamp.cmake computes for the tree now. The stamp was once fixed when the build was
// configured, so a rebuild after an edit kept the old key, and the tune cache served launch shapes
// tuned for kernels that had since changed. (The git line, gluon::build::git, also changes with a
// commit or an edit to the docs, after which this binary is still current: not compared.)
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "gluon/build_info.h"
#include "test_support.h"

namespace {

TEST(BuildStamp, MatchesTheTreeItWasBuiltFrom) {
  const std::string dir = gluon::test::scratch_dir();
  const std::string out = dir + "/build_stamp.cpp";
  std::string log;
  const std::string cmd = std::string("\"") + GLUON_CMAKE_COMMAND + "\" -DSOURCE_DIR=\"" + GLUON_SOURCE_DIR +
                          "\" -DBINARY_DIR=\"" + dir + "\" -DOUT=\"" + out + "\" -P \"" + GLUON_SOURCE_DIR +
                          "/cmake/build_stamp.cmake\"";
  ASSERT_EQ(gluon::test::run_command(cmd, log), 0) << cmd << "\n" << log;
  std::ifstream in(out);
  ASSERT_TRUE(in) << "the stamp script wrote no " << out;
  std::stringstream text;
  text << in.rdbuf();
  std::smatch m;
  const std::string s = text.str();
  ASSERT_TRUE(std::regex_search(s, m, std::regex("code = \"([^\"]*)\""))) << s;
  EXPECT_EQ(std::string(gluon::build::code), m[1].str())
      << "the binary was compiled from other sources than the ones here: rebuild (an edit since the "
         "build), or the stamp is no longer written at build time";
  EXPECT_FALSE(m[1].str().empty());
  EXPECT_FALSE(std::string(gluon::build::git).empty());
}

}  // namespace
