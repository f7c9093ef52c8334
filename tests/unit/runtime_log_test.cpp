// Levelled logging: filtering, format, environment, thread safety.
#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gluon/runtime/error.h"
#include "gluon/runtime/log.h"

using namespace gluon;
namespace log = gluon::runtime::log;

namespace {
// Captures log output for one test and restores sink and level afterwards.
struct Capture {
  std::ostringstream out;
  log::Level saved = log::level();
  Capture() { log::set_sink(&out); }
  ~Capture() {
    log::set_sink(nullptr);
    log::set_level(saved);
  }
};

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> v;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}
}  // namespace

TEST(RuntimeLog, LevelsFilter) {
  Capture cap;
  log::set_level(log::Level::warn);
  log::error("e1");
  log::warn("w1");
  log::info("i1");
  log::debug("d1");
  log::trace("t1");
  EXPECT_EQ(cap.out.str().find("i1"), std::string::npos);
  EXPECT_EQ(cap.out.str().find("d1"), std::string::npos);
  EXPECT_EQ(lines(cap.out.str()).size(), 2u) << cap.out.str();
  EXPECT_TRUE(log::enabled(log::Level::error));
  EXPECT_TRUE(log::enabled(log::Level::warn));
  EXPECT_FALSE(log::enabled(log::Level::info));

  cap.out.str("");
  log::set_level(log::Level::trace);
  log::trace("t2");
  log::debug("d2");
  EXPECT_EQ(lines(cap.out.str()).size(), 2u) << cap.out.str();

  cap.out.str("");
  log::set_level(log::Level::error);
  log::warn("w3");
  log::error("e3");
  EXPECT_EQ(lines(cap.out.str()).size(), 1u) << cap.out.str();
}

TEST(RuntimeLog, LineFormatHasTagAndElapsedTime) {
  Capture cap;
  log::set_level(log::Level::debug);
  log::warn("disk almost full");
  log::debug("two\nlines");
  const auto l = lines(cap.out.str());
  ASSERT_EQ(l.size(), 3u) << cap.out.str();
  const std::regex line_re(R"(\[gluon +[0-9]+\.[0-9]{3}s (ERROR|WARN |INFO |DEBUG|TRACE)\] .*)");
  for (const auto& s : l) EXPECT_TRUE(std::regex_match(s, line_re)) << s;
  EXPECT_NE(l[0].find("WARN ] disk almost full"), std::string::npos) << l[0];
  EXPECT_NE(l[1].find("DEBUG] two"), std::string::npos) << l[1];
  EXPECT_NE(l[2].find("DEBUG] lines"), std::string::npos) << l[2];
}

TEST(RuntimeLog, NamesAndEnvironment) {
  Capture cap;
  EXPECT_EQ(log::level_from_name("error"), log::Level::error);
  EXPECT_EQ(log::level_from_name("WARNING"), log::Level::warn);
  EXPECT_EQ(log::level_from_name("Info"), log::Level::info);
  EXPECT_EQ(log::level_from_name("3"), log::Level::debug);
  EXPECT_EQ(log::level_from_name("trace"), log::Level::trace);
  for (auto l : {log::Level::error, log::Level::warn, log::Level::info, log::Level::debug, log::Level::trace})
    EXPECT_EQ(log::level_from_name(log::to_string(l)), l);
  try {
    log::level_from_name("loud");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'loud'"), std::string::npos) << e.what();
  }

  ::setenv("GLUON_LOG_LEVEL", "debug", 1);
  log::init_from_env();
  EXPECT_EQ(log::level(), log::Level::debug);
  ::setenv("GLUON_LOG_LEVEL", "error", 1);
  log::init_from_env();
  EXPECT_EQ(log::level(), log::Level::error);
  ::setenv("GLUON_LOG_LEVEL", "nonsense", 1);
  log::init_from_env();  // reported on stderr, falls back to info
  EXPECT_EQ(log::level(), log::Level::info);
  ::unsetenv("GLUON_LOG_LEVEL");
  log::init_from_env();
  EXPECT_EQ(log::level(), log::Level::info);
}

TEST(RuntimeLog, ConcurrentMessagesDoNotInterleave) {
  Capture cap;
  log::set_level(log::Level::info);
  const int threads = 4, per_thread = 200;
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([t] {
      for (int i = 0; i < per_thread; ++i)
        log::info("thread " + std::to_string(t) + " message " + std::to_string(i) + " end");
    });
  for (auto& th : pool) th.join();
  const auto l = lines(cap.out.str());
  ASSERT_EQ(l.size(), static_cast<std::size_t>(threads * per_thread));
  const std::regex re(R"(\[gluon +[0-9.]+s INFO \] thread [0-9] message [0-9]+ end)");
  int bad = 0;
  for (const auto& s : l) bad += !std::regex_match(s, re);
  EXPECT_EQ(bad, 0);
}
