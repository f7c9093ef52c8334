// sched::SplitTable: convergence to R_gpu / (R_gpu + R_cpu), buckets, per-core fractions, the file.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "gluon/runtime/error.h"
#include "gluon/sched/split_table.h"
#include "test_support.h"

using gluon::sched::SplitTable;

TEST(SchedSplitTable, ConvergesToTheRateRatio) {
  SplitTable t(2, 0.5, 0.5);
  const double work = 1e12;
  EXPECT_DOUBLE_EQ(t.gpu_fraction(work), 0.5);  // initial value
  // Rates that wobble around 9:1.
  for (int i = 0; i < 20; ++i) {
    const double wobble = (i % 2 == 0) ? 1.05 : 0.95;
    t.update(work, 9e12 * wobble, 1e12);
  }
  EXPECT_NEAR(t.gpu_fraction(work), 0.9, 0.01);
  // The first sample is taken as it is: a fresh table answers 0.75 after one 3:1 measurement.
  SplitTable u(1, 0.2, 0.5);
  u.update(work, 3e12, 1e12);
  EXPECT_NEAR(u.gpu_fraction(work), 0.75, 1e-12);
  // A one-sided measurement does not move the fraction.
  u.update(work, 5e12, 0.0);
  EXPECT_NEAR(u.gpu_fraction(work), 0.75, 1e-12);
}

TEST(SchedSplitTable, BucketsAndNearest) {
  SplitTable t(1, 0.3, 1.0);
  EXPECT_EQ(SplitTable::bucket_of(1024.0), 10);
  EXPECT_EQ(SplitTable::bucket_of(1500.0), 10);
  EXPECT_EQ(SplitTable::bucket_of(0.5), 0);
  t.update(std::ldexp(1.0, 30), 1.0, 1.0);  // bucket 30 -> 0.5
  t.update(std::ldexp(1.0, 40), 3.0, 1.0);  // bucket 40 -> 0.75
  EXPECT_DOUBLE_EQ(t.gpu_fraction(std::ldexp(1.0, 31)), 0.5);
  EXPECT_DOUBLE_EQ(t.gpu_fraction(std::ldexp(1.0, 39)), 0.75);
  EXPECT_EQ(t.entries().size(), 2u);
  t.force(0.0);
  EXPECT_DOUBLE_EQ(t.gpu_fraction(std::ldexp(1.0, 40)), 0.0);
  t.force(-1.0);
  EXPECT_DOUBLE_EQ(t.gpu_fraction(std::ldexp(1.0, 40)), 0.75);
}

TEST(SchedSplitTable, PerCoreFractions) {
  SplitTable t(3, 0.5, 1.0);
  auto f = t.core_fractions(1e9);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_DOUBLE_EQ(f[0], 1.0 / 3);
  t.update(1e9, 2.0, 1.0, {1.0, 2.0, 1.0});
  f = t.core_fractions(1e9);
  EXPECT_DOUBLE_EQ(f[0], 0.25);
  EXPECT_DOUBLE_EQ(f[1], 0.5);
  EXPECT_DOUBLE_EQ(f[2], 0.25);
  const auto c = gluon::sched::split_counts(10, f);
  EXPECT_EQ(c[0] + c[1] + c[2], 10);
  EXPECT_EQ(c[1], 5);
  const auto z = gluon::sched::split_counts(7, {0.0, 0.0});
  EXPECT_EQ(z[0] + z[1], 7);
}

TEST(SchedSplitTable, SaveAndLoad) {
  const std::string dir = gluon::test::scratch_dir();
  const std::string path = dir + "/split.txt";
  SplitTable t(2, 0.5, 0.5);
  t.update(1e10, 8e12, 2e12, {1.0, 3.0});
  t.update(1e12, 9e12, 1e12);
  t.save(path);
  for (const auto& e : std::filesystem::directory_iterator(dir))
    EXPECT_EQ(e.path().filename().string(), "split.txt") << "a temporary file was left behind";
  const SplitTable u = SplitTable::load(path);
  EXPECT_EQ(u.cores(), 2);
  ASSERT_EQ(u.entries().size(), 2u);
  EXPECT_NEAR(u.gpu_fraction(1e10), t.gpu_fraction(1e10), 1e-6);
  EXPECT_NEAR(u.gpu_fraction(1e12), t.gpu_fraction(1e12), 1e-6);
  EXPECT_NEAR(u.core_fractions(1e10)[1], t.core_fractions(1e10)[1], 1e-6);
  EXPECT_EQ(u.to_text(), t.to_text());
}

TEST(SchedSplitTable, BadFilesNameTheLine) {
  try {
    SplitTable::parse("gluon-split-table 1\ncores 2\n12 3 1.5 1 1 0.5 0.5\n", "t.txt");
    FAIL() << "a fraction of 1.5 was accepted";
  } catch (const gluon::FileFormatError& e) {
    EXPECT_NE(std::string(e.what()).find("t.txt"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("line 3"), std::string::npos) << e.what();
  }
  EXPECT_THROW(SplitTable::parse("something else\n", "t.txt"), gluon::FileFormatError);
  EXPECT_THROW(SplitTable::parse("gluon-split-table 1\ncores 2\n12 3 0.5 1 1 0.5\n", "t.txt"), gluon::FileFormatError);
  EXPECT_THROW(SplitTable::load("/nonexistent/dir/split.txt"), gluon::IoError);
  EXPECT_THROW(SplitTable(0), gluon::InputError);
}
