// The autotuner on a real GPU: a tuned launch gives the same result as an untuned one (an
// in-place kernel tuned with backup/restore is applied exactly once), the tune cache file
// appears with the kernel's entry, a second run starts tuned, GLUON_TUNE=0 launches untuned,
// and the copy benchmark's kernel copies on the device.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <vector>

#include "gluon/qcd/bench/copy.h"
#include "gluon/runtime/exec.h"
#include "gluon/runtime/memory.h"
#include "gluon/runtime/selftest.h"
#include "gluon/runtime/tune.h"
#include "test_support.h"

using namespace gluon;
using namespace gluon::runtime;

namespace {

std::uint64_t bits(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct SettingsGuard {
  ~SettingsGuard() {
    unsetenv("GLUON_TUNE");
    reload_tune_settings();
  }
};

}  // namespace

TEST(GpuTune, TunedInPlaceKernelEqualsUntunedAndIsAppliedOnce) {
  GLUON_REQUIRE_GPU();
  SettingsGuard guard;
  const std::string dir = test::scratch_dir();
  const std::string path = dir + "/tunecache.json";
  set_tune_cache_path(path);
  set_tuning_enabled(true);
  const Exec gpu = cuda_exec();

  const std::int64_t n = (std::int64_t{1} << 22) + 37;
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(double);
  std::vector<double> x(n), y(n);
  std::mt19937_64 rng(42);
  std::normal_distribution<double> g;
  for (std::int64_t i = 0; i < n; ++i) x[i] = g(rng), y[i] = g(rng);
  Buffer dx(MemSpace::device, bytes, "x"), dy_tuned(MemSpace::device, bytes, "y tuned"),
      dy_plain(MemSpace::device, bytes, "y plain");
  copy_bytes(dx.data(), MemSpace::device, x.data(), MemSpace::host, bytes);
  copy_bytes(dy_tuned.data(), MemSpace::device, y.data(), MemSpace::host, bytes);
  copy_bytes(dy_plain.data(), MemSpace::device, y.data(), MemSpace::host, bytes);

  const auto before = tune_stats();
  // a = 0.5: a x is exact, so the GPU's fused multiply-add rounds like the host's a x + y
  tune_selftest_axpy(gpu, dy_tuned, dx, 0.5, Tuning::restore);  // first use: tuned
  tune_selftest_axpy(gpu, dy_plain, dx, 0.5, Tuning::off);
  std::vector<double> yt(n), yp(n);
  copy_bytes(yt.data(), MemSpace::host, dy_tuned.data(), MemSpace::device, bytes);
  copy_bytes(yp.data(), MemSpace::host, dy_plain.data(), MemSpace::device, bytes);
  std::int64_t wrong = 0;
  for (std::int64_t i = 0; i < n; ++i) wrong += bits(yt[i]) != bits(yp[i]) || yt[i] != y[i] + 0.5 * x[i];
  EXPECT_EQ(wrong, 0) << "tuning changed an in-place result (backup/restore)";
  EXPECT_EQ(tune_stats().tuned, before.tuned + 1);

  ASSERT_TRUE(std::filesystem::exists(path)) << "no tune cache file written";
  const std::string text = slurp(path);
  EXPECT_NE(text.find("tune_selftest_axpy"), std::string::npos) << text;
  EXPECT_NE(text.find(build_signature()), std::string::npos) << text;
  EXPECT_NE(text.find(device_signature(0)), std::string::npos) << text;
  std::printf("%s", text.c_str());

  // A second "run": the cache reloaded from the file, the launch is not tuned again.
  set_tune_cache_path(path);
  const auto mid = tune_stats();
  tune_selftest_axpy(gpu, dy_tuned, dx, -0.5, Tuning::restore);
  EXPECT_EQ(tune_stats().tuned, mid.tuned);
  EXPECT_GT(tune_stats().hits, mid.hits);
  copy_bytes(yt.data(), MemSpace::host, dy_tuned.data(), MemSpace::device, bytes);
  for (std::int64_t i = 0; i < n; ++i) wrong += yt[i] != (y[i] + 0.5 * x[i]) + -0.5 * x[i];
  EXPECT_EQ(wrong, 0);
}

TEST(GpuTune, TunedReductionEqualsCpuAndTuneOffLaunchesDefault) {
  GLUON_REQUIRE_GPU();
  SettingsGuard guard;
  const std::string dir = test::scratch_dir();
  const std::string path = dir + "/tunecache.json";
  set_tune_cache_path(path);
  const Exec gpu = cuda_exec(), cpu = cpu_exec();
  for (std::int64_t n : {std::int64_t{1}, std::int64_t{1000}, std::int64_t{3} << 22}) {
    // exact sums (multiples of 1/1024): any block/grid gives the same bits
    EXPECT_EQ(bits(tune_selftest_sum(gpu, n, Tuning::idempotent)), bits(selftest_sum(cpu, n))) << n;
    EXPECT_EQ(bits(tune_selftest_sum(gpu, n, Tuning::idempotent)), bits(selftest_sum(cpu, n))) << n;
  }
  EXPECT_NE(slurp(path).find("tune_selftest_sum"), std::string::npos);

  setenv("GLUON_TUNE", "0", 1);
  reload_tune_settings();
  set_tune_cache_path(dir + "/off.json");
  EXPECT_FALSE(tuning_enabled());
  const auto before = tune_stats();
  EXPECT_EQ(bits(tune_selftest_sum(gpu, 12345, Tuning::idempotent)), bits(selftest_sum(cpu, 12345)));
  EXPECT_EQ(tune_stats().tuned, before.tuned);
  EXPECT_GT(tune_stats().untuned, before.untuned);
  EXPECT_FALSE(std::filesystem::exists(dir + "/off.json"));
}

TEST(GpuTune, CopyBenchmarkCopiesOnTheDevice) {
  GLUON_REQUIRE_GPU();
  const Exec gpu = cuda_exec();
  const auto r = qcd::bench::measure_copy(gpu, qcd::bench::CopyBenchParams{std::size_t{64} << 20, 10});
  EXPECT_GT(r.kernel_gbs, 50.0);   // any GPU of this decade
  EXPECT_GT(r.memcpy_gbs, 50.0);
  EXPECT_LT(r.copy_gbs, 20000.0);  // 20 TB/s: beyond any HBM
  std::printf("copy 64 MiB: kernel %.1f GB/s, cudaMemcpy %.1f GB/s\n", r.kernel_gbs, r.memcpy_gbs);
}
