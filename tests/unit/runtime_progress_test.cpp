// Progress lines: throttling, first/last always, percent, rate, ETA; with a fake clock.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "gluon/runtime/progress.h"

using gluon::runtime::Progress;

namespace {
struct FakeClock {
  double t = 100.0;  // an arbitrary origin: only differences matter
};

Progress::Options opts(FakeClock& c, std::ostream& out, double interval) {
  Progress::Options o;
  o.interval_s = interval;
  o.out = &out;
  o.clock = [&c] { return c.t; };
  return o;
}

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> v;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}
}  // namespace

TEST(RuntimeProgress, ThrottlesAndAlwaysPrintsFirstAndLast) {
  FakeClock clock;
  std::ostringstream out;
  Progress p("thermalise", 100, "traj", opts(clock, out, 10.0));
  for (int i = 1; i <= 100; ++i) {
    clock.t += 0.5;  // 2 traj/s
    p.update(i);
  }
  // first at t=0.5, then every >= 10 s (i = 21, 41, 61, 81), and the last at i = 100
  const auto l = lines(out.str());
  ASSERT_EQ(l.size(), 6u) << out.str();
  EXPECT_EQ(p.lines_printed(), 6);
  EXPECT_EQ(l[0], "thermalise: 1/100 traj (1.0%), 2.00 traj/s, elapsed 0.50s, ETA 49.5s");
  EXPECT_EQ(l[1], "thermalise: 21/100 traj (21.0%), 2.00 traj/s, elapsed 10.5s, ETA 39.5s");
  EXPECT_EQ(l[5], "thermalise: 100/100 traj (100.0%), 2.00 traj/s, elapsed 50.0s, ETA 0.00s");
  p.finish();  // already printed: nothing more
  EXPECT_EQ(lines(out.str()).size(), 6u);
}

TEST(RuntimeProgress, RateAndEtaFollowTheClock) {
  FakeClock clock;
  std::ostringstream out;
  Progress p("solve", 1000, "iter", opts(clock, out, 0.0));
  clock.t += 4.0;
  p.update(250);
  EXPECT_DOUBLE_EQ(p.elapsed_s(), 4.0);
  EXPECT_DOUBLE_EQ(p.rate(), 62.5);
  EXPECT_DOUBLE_EQ(p.eta_s(), 12.0);
  EXPECT_EQ(p.line(), "solve: 250/1000 iter (25.0%), 62.5 iter/s, elapsed 4.00s, ETA 12.0s");
  clock.t += 296.0;  // slow down: 500 in 300 s
  p.update(500);
  EXPECT_EQ(p.line(), "solve: 500/1000 iter (50.0%), 1.67 iter/s, elapsed 5m00s, ETA 5m00s");
  EXPECT_EQ(lines(out.str()).size(), 2u);  // interval 0: every update prints
  p.update(500);                           // unchanged state is not printed twice
  EXPECT_EQ(lines(out.str()).size(), 2u);
}

TEST(RuntimeProgress, UnknownTotalSilenceAndFinish) {
  FakeClock clock;
  std::ostringstream out;
  Progress p("read", 0, "MB", opts(clock, out, 60.0));
  clock.t += 2.0;
  p.update(5000);
  clock.t += 2.0;
  p.update(10000);  // within the interval: not printed
  EXPECT_EQ(lines(out.str()).size(), 1u);
  EXPECT_LT(p.eta_s(), 0.0);
  p.finish();  // the unprinted last state appears
  const auto l = lines(out.str());
  ASSERT_EQ(l.size(), 2u);
  EXPECT_EQ(l[1], "read: 10000 MB, 2500 MB/s, elapsed 4.00s");

  std::ostringstream quiet;
  auto o = opts(clock, quiet, 0.0);
  o.silent = true;
  Progress s("quiet", 10, "steps", o);
  for (int i = 1; i <= 10; ++i) s.update(i);
  s.finish();
  EXPECT_TRUE(quiet.str().empty());
  EXPECT_EQ(s.done(), 10);
}

TEST(RuntimeProgress, DurationFormat) {
  EXPECT_EQ(Progress::format_duration(0.0), "0.00s");
  EXPECT_EQ(Progress::format_duration(0.421), "0.42s");
  EXPECT_EQ(Progress::format_duration(12.34), "12.3s");
  EXPECT_EQ(Progress::format_duration(245.0), "4m05s");
  EXPECT_EQ(Progress::format_duration(7620.0), "2h07m");
  EXPECT_EQ(Progress::format_duration(-1.0), "?");
}

TEST(RuntimeProgress, RealClockWritesToTheGivenStream) {
  std::ostringstream out;
  Progress::Options o;
  o.out = &out;
  o.interval_s = 1e9;
  Progress p("loop", 3, "items", o);
  p.update(1);
  p.update(2);
  p.update(3);
  const auto l = lines(out.str());
  ASSERT_EQ(l.size(), 2u) << out.str();  // first and last
  EXPECT_EQ(l[0].rfind("loop: 1/3 items (33.3%), ", 0), 0u) << l[0];
  EXPECT_NE(l[1].find("3/3 items (100.0%)"), std::string::npos) << l[1];
  EXPECT_NE(l[1].find("ETA 0.00s"), std::string::npos) << l[1];
}
