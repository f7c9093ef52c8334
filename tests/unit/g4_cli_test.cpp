// `gluon g4` end to end on one process: the JSON keys and --verify, the text report, and bad flags
// rejected with a message naming the flag.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "test_support.h"

using namespace gluon;

TEST(G4Cli, JsonWithVerifyOnOneRank) {
  std::string out;
  const int rc = test::run_command(test::gluon_binary() +
                                       " g4 --backend cpu --bands 1 --cluster 2x2 --frequencies 2 "
                                       "--transfers 3 --channels all --measurements 3 --rings 2 "
                                       "--precision single --verify --json",
                                   out);
  ASSERT_EQ(rc, 0) << out;
  const auto j = nlohmann::json::parse(out);
  EXPECT_LT(j["l1_error"].get<double>(), 5e-7);
  EXPECT_LT(j["l2_error"].get<double>(), 5e-7);
  EXPECT_EQ(j["g4_bytes_total"].get<std::int64_t>(), 4 * 16 * 16 * 3 * 8);
  EXPECT_EQ(j["g4_bytes_per_rank"].get<std::int64_t>(), j["g4_bytes_total"].get<std::int64_t>());
  EXPECT_TRUE(j["verified"].get<bool>());
}

TEST(G4Cli, TextOutputNamesTimesBandwidthAndOverlap) {
  std::string out;
  const int rc = test::run_command(test::gluon_binary() + " g4 --backend cpu --cluster 2 --frequencies 2", out);
  ASSERT_EQ(rc, 0) << out;
  for (const char* key : {"memory", "time", "ring", "overlap", "update", "checksum"})
    EXPECT_NE(out.find(key), std::string::npos) << key << "\n" << out;
}

TEST(G4Cli, BadFlagsAreRejectedClearly) {
  const std::pair<const char*, const char*> cases[] = {
      {"--ring-size 2", "--ring-size"},
      {"--rings 0", "--rings"},
      {"--measurements 0", "--measurements"},
      {"--precision half", "--precision"},
      {"--cluster 4y4", "--cluster"},
      {"--channels pp,foo", "--channels"},
      {"--memory-limit 12Q", "--memory-limit"},
      {"--memory-limit 1K", "does not fit"},
      {"--bands 0", "--bands"},
  };
  for (const auto& [flags, expect] : cases) {
    std::string out;
    const int rc = test::run_command(test::gluon_binary() + " g4 --backend cpu --cluster 2 --frequencies 2 " + flags, out);
    EXPECT_NE(rc, 0) << flags;
    EXPECT_NE(out.find(expect), std::string::npos) << flags << "\n" << out;
  }
}
