// parallel_for / parallel_reduce on the CPU backend: coverage of every index, determinism of
// reductions across OpenMP thread counts, the selftest kernels, backend selection errors.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "gluon/runtime/error.h"
#include "gluon/runtime/exec.h"
#include "gluon/runtime/memory.h"
#include "gluon/runtime/parallel.h"
#include "gluon/runtime/scalar_slots.h"
#include "gluon/runtime/selftest.h"

using namespace gluon;
using namespace gluon::runtime;

namespace {

// Restores the OpenMP thread count at scope end.
struct ThreadCountGuard {
  int saved = omp_get_max_threads();
  ~ThreadCountGuard() { omp_set_num_threads(saved); }
};

std::uint64_t bits(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

struct Stats {  // a small struct reduced with +=
  double sum = 0.0, sum_abs = 0.0;
  std::int64_t count = 0;
  Stats& operator+=(const Stats& o) {
    sum += o.sum;
    sum_abs += o.sum_abs;
    count += o.count;
    return *this;
  }
};

// Values spanning many magnitudes and both signs, so that the summation order changes the bits.
std::vector<double> wide_random(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::uniform_int_distribution<int> e(-30, 30);
  std::vector<double> v(n);
  for (auto& x : v) x = std::ldexp(u(rng), e(rng));
  return v;
}

}  // namespace

TEST(RuntimeParallel, ForCoversEveryIndexExactlyOnce) {
  ThreadCountGuard guard;
  omp_set_num_threads(3);
  for (std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{7}, std::int64_t{2049},
                         std::int64_t{3 * kReduceChunk + 17}, std::int64_t{1} << 21}) {
    std::unique_ptr<std::atomic<int>[]> hits(new std::atomic<int>[static_cast<std::size_t>(n) + 1]);
    for (std::int64_t i = 0; i <= n; ++i) hits[i].store(0);
    parallel_for(cpu_exec(), "cover", n, [&](std::int64_t i) { hits[i].fetch_add(1); });
    std::int64_t wrong = 0;
    for (std::int64_t i = 0; i < n; ++i) wrong += hits[i].load() != 1;
    EXPECT_EQ(wrong, 0) << "n = " << n;
    EXPECT_EQ(hits[n].load(), 0) << "index n touched, n = " << n;
  }
}

TEST(RuntimeParallel, NegativeCountRunsNothing) {
  int calls = 0;
  parallel_for(cpu_exec(), "negative", -5, [&](std::int64_t) { ++calls; });
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(parallel_reduce<double>(cpu_exec(), "negative", -5, [](std::int64_t) { return 1.0; }), 0.0);
}

TEST(RuntimeParallel, ReduceOfDoublesIsBitwiseIndependentOfThreadCount) {
  ThreadCountGuard guard;
  const auto v = wide_random(5 * kReduceChunk + 123, 11);
  const auto n = static_cast<std::int64_t>(v.size());
  // Reference: the documented order (fixed chunks, then the chunk partials in order).
  double reference = 0.0;
  for (std::int64_t c = 0; c * kReduceChunk < n; ++c) {
    double acc = 0.0;
    for (std::int64_t i = c * kReduceChunk; i < std::min(n, (c + 1) * kReduceChunk); ++i) acc += v[i];
    reference += acc;
  }
  double plain = 0.0;
  for (double x : v) plain += x;
  // The data are chosen so that order matters; otherwise the test could not fail.
  ASSERT_NE(bits(plain), bits(reference));
  for (int threads : {1, 2, 3, 7}) {
    omp_set_num_threads(threads);
    const double r = parallel_reduce<double>(cpu_exec(), "sum", n, [&](std::int64_t i) { return v[i]; });
    EXPECT_EQ(bits(r), bits(reference)) << threads << " threads: " << r << " vs " << reference;
  }
}

TEST(RuntimeParallel, ReduceOfAStructIsBitwiseIndependentOfThreadCount) {
  ThreadCountGuard guard;
  const auto v = wide_random(3 * kReduceChunk + 5, 12);
  const auto n = static_cast<std::int64_t>(v.size());
  auto f = [&](std::int64_t i) { return Stats{v[i], std::abs(v[i]), 1}; };
  omp_set_num_threads(1);
  const Stats ref = parallel_reduce<Stats>(cpu_exec(), "stats", n, f);
  EXPECT_EQ(ref.count, n);
  double sum_abs = 0.0;
  for (double x : v) sum_abs += std::abs(x);
  EXPECT_NEAR(ref.sum_abs, sum_abs, 1e-12 * sum_abs);
  for (int threads : {2, 3, 7}) {
    omp_set_num_threads(threads);
    const Stats r = parallel_reduce<Stats>(cpu_exec(), "stats", n, f);
    EXPECT_EQ(bits(r.sum), bits(ref.sum)) << threads << " threads";
    EXPECT_EQ(bits(r.sum_abs), bits(ref.sum_abs)) << threads << " threads";
    EXPECT_EQ(r.count, ref.count);
  }
}

TEST(RuntimeParallel, ReduceSmallCounts) {
  for (std::int64_t n : {1, 2, 3, 2047, 2048, 2049}) {
    const auto r = parallel_reduce<std::int64_t>(cpu_exec(), "count", n, [](std::int64_t i) { return i + 1; });
    EXPECT_EQ(r, n * (n + 1) / 2) << "n = " << n;
  }
}

// On the CPU a queued reduction completes before returning: slot and mirror are one value.
TEST(RuntimeParallel, QueuedReductionOnCpuWritesItsSlot) {
  const Exec cpu = cpu_exec();
  ScalarSlots slots(cpu, 2);
  selftest_sum_into(cpu, 5000, slots, 1);
  EXPECT_EQ(slots.host(1), selftest_sum(cpu, 5000));
  EXPECT_EQ(*slots.device(1), slots.host(1));
  selftest_sum_into(cpu, 0, slots, 1);
  EXPECT_EQ(slots.host(1), 0.0);
  slots.set(0, -3.5);
  EXPECT_EQ(slots.host(0), -3.5);
  EXPECT_THROW(slots.host(2), InputError);
  EXPECT_THROW(selftest_sum_shaped(cpu, 10, 33, 1), InputError);
}

TEST(RuntimeParallel, SelftestKernelsOnCpu) {
  ThreadCountGuard guard;
  const std::int64_t n = 100003;
  double sum = 0.0, sum_sq = 0.0, mn = 2.0, mx = -2.0;
  for (std::int64_t i = 0; i < n; ++i) {
    const double x = selftest_value(i);
    ASSERT_GE(x, -1.0);
    ASSERT_LE(x, 1.0);
    sum += x;
    sum_sq += x * x;
    mn = std::min(mn, x);
    mx = std::max(mx, x);
  }
  for (int threads : {1, 3}) {
    omp_set_num_threads(threads);
    EXPECT_EQ(bits(selftest_sum(cpu_exec(), n)), bits(sum));  // exact in any order
    const auto m = selftest_moments(cpu_exec(), n);
    EXPECT_EQ(bits(m.sum), bits(sum));
    EXPECT_EQ(bits(m.sum_sq), bits(sum_sq));
    EXPECT_EQ(m.count, n);
    EXPECT_EQ(m.min, mn);
    EXPECT_EQ(m.max, mx);
  }
  EXPECT_LT(mn, -0.99);  // the values really spread over [-1, 1]
  EXPECT_GT(mx, 0.99);
  EXPECT_NEAR(selftest_harmonic(cpu_exec(), 1000000), 14.392726722865723631, 1e-12);

  Buffer b(MemSpace::host, 1001 * sizeof(std::int64_t), "iota");
  selftest_iota(cpu_exec(), b);
  const auto* p = static_cast<const std::int64_t*>(b.data());
  for (std::int64_t i = 0; i < 1001; ++i) ASSERT_EQ(p[i], i);
  Buffer odd(MemSpace::host, 13, "odd");
  EXPECT_THROW(selftest_iota(cpu_exec(), odd), InputError);
}

TEST(RuntimeParallel, CudaExecOnAFileCompiledWithoutNvccThrowsNamingTheKernel) {
  // This test file is plain C++, so its lambdas exist only for the CPU.
  const Exec gpu{Backend::cuda, 0, nullptr};
  try {
    parallel_for(gpu, "my_kernel", 10, [](std::int64_t) {});
    FAIL() << "expected DeviceError";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("my_kernel"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("_kernels.cpp"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parallel_reduce<double>(gpu, "my_reduce", 10, [](std::int64_t) { return 1.0; }),
               DeviceError);
}

TEST(RuntimeExec, NamesAndErrors) {
  EXPECT_EQ(exec_from_name("cpu").backend, Backend::cpu);
  EXPECT_EQ(to_string(Backend::cpu), "cpu");
  EXPECT_EQ(to_string(Backend::cuda), "cuda");
  EXPECT_FALSE(cpu_exec().on_device());
  try {
    exec_from_name("bogus");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'bogus'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cpu"), std::string::npos) << e.what();
  }
  // auto picks cuda exactly when a device is usable
  EXPECT_EQ(default_exec().backend, cuda_available() ? Backend::cuda : Backend::cpu);
  EXPECT_NO_THROW(synchronize(cpu_exec()));
}

TEST(RuntimeExec, CudaExecWithoutCudaIsAnActionableDeviceError) {
  if (cuda_available()) GTEST_SKIP() << "a CUDA device is present; see tests/gpu/runtime_test.cpp";
  EXPECT_EQ(cuda_device_count(), 0);
  try {
    cuda_exec();
    FAIL() << "expected DeviceError";
  } catch (const DeviceError& e) {
    const std::string msg = e.what();
#if GLUON_HAVE_CUDA
    EXPECT_NE(msg.find("--backend cpu"), std::string::npos) << msg;
#else
    EXPECT_NE(msg.find("without CUDA"), std::string::npos) << msg;
    EXPECT_NE(msg.find("preset"), std::string::npos) << msg;
#endif
  }
  EXPECT_THROW(exec_from_name("cuda"), DeviceError);
  EXPECT_EQ(exec_from_name("auto").backend, Backend::cpu);
}
