// The runtime on a real GPU: parallel_for/parallel_reduce on CUDA equal the CPU results, device
// memory errors, streams and events, device listing. Needs a CUDA device (label gpu).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gluon/runtime/device_info.h"
#include "gluon/runtime/env.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/exec.h"
#include "gluon/runtime/memory.h"
#include "gluon/runtime/scalar_slots.h"
#include "gluon/runtime/selftest.h"
#include "gluon/runtime/stream.h"
#include "gluon/runtime/timer.h"
#include "test_support.h"

using namespace gluon;
using namespace gluon::runtime;

namespace {
std::uint64_t bits(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
std::string mib(std::size_t bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return buf;
}
}  // namespace

TEST(GpuRuntime, ListDevicesAndExec) {
  GLUON_REQUIRE_GPU();
  const auto devices = list_devices();
  ASSERT_FALSE(devices.empty());
  EXPECT_EQ(static_cast<int>(devices.size()), cuda_device_count());
  for (const auto& d : devices) {
    EXPECT_FALSE(d.name.empty());
    EXPECT_GE(d.cc_major, 7);
    EXPECT_GT(d.multiprocessors, 0);
    EXPECT_GT(d.total_memory, std::size_t{1} << 30);
    EXPECT_GT(d.free_memory, 0u);
    EXPECT_LE(d.free_memory, d.total_memory);
    EXPECT_GT(d.l2_bytes, 0u);
    std::printf("%s\n", describe(d).c_str());
  }
  const Exec ex = cuda_exec();
  EXPECT_EQ(ex.backend, Backend::cuda);
  EXPECT_EQ(default_exec().backend, Backend::cuda);
  EXPECT_EQ(memspace_for(ex), MemSpace::device);
  EXPECT_THROW(cuda_exec(cuda_device_count()), DeviceError);
  std::printf("%s\n", describe(host_info()).c_str());
}

TEST(GpuRuntime, ReductionsEqualTheCpuBitwise) {
  GLUON_REQUIRE_GPU();
  const Exec gpu = cuda_exec(), cpu = cpu_exec();
  for (std::int64_t n : {std::int64_t{1}, std::int64_t{255}, std::int64_t{257}, std::int64_t{100003},
                         std::int64_t{1} << 24}) {
    // selftest values are multiples of 1/1024: their sums are exact in any order
    EXPECT_EQ(bits(selftest_sum(gpu, n)), bits(selftest_sum(cpu, n))) << "n = " << n;
    const auto g = selftest_moments(gpu, n), c = selftest_moments(cpu, n);
    EXPECT_EQ(bits(g.sum), bits(c.sum)) << "n = " << n;
    EXPECT_EQ(bits(g.sum_sq), bits(c.sum_sq)) << "n = " << n;
    EXPECT_EQ(g.count, n);
    EXPECT_EQ(g.min, c.min);
    EXPECT_EQ(g.max, c.max);
  }
  // order-dependent rounding: equal to a tolerance, and the GPU result is itself reproducible
  const std::int64_t n = 10000000;
  const double hg = selftest_harmonic(gpu, n), hc = selftest_harmonic(cpu, n);
  EXPECT_NEAR(hg, hc, 1e-12 * hc);
  EXPECT_EQ(bits(selftest_harmonic(gpu, n)), bits(hg));
  EXPECT_EQ(selftest_sum(gpu, 0), 0.0);
}

// The block sums (warp shuffles, one barrier) and the last block's pass over the partials, at
// launch shapes the tuner may pick: any multiple of 32 threads, grids from one block to more
// blocks than sites. The values' sums are exact, so every shape must give the CPU's bits.
TEST(GpuRuntime, ReductionsAtEveryBlockShapeEqualTheCpu) {
  GLUON_REQUIRE_GPU();
  const Exec gpu = cuda_exec(), cpu = cpu_exec();
  for (std::int64_t n : {std::int64_t{1}, std::int64_t{1000}, std::int64_t{100003}})
    for (int block : {32, 96, 160, 256, 480, 992, 1024})
      for (int grid : {1, 7, 264, 5000})
        EXPECT_EQ(bits(selftest_sum_shaped(gpu, n, block, grid)), bits(selftest_sum(cpu, n)))
            << "n = " << n << ", block " << block << ", grid " << grid;
  EXPECT_THROW(selftest_sum_shaped(gpu, 10, 48, 1), InputError);
}

// A queued reduction lands in the slot (read by later kernels) and its mirror (read by the host
// after the wait); two in a row into different slots, with no wait between; an empty range writes 0.
TEST(GpuRuntime, QueuedReductionsFillTheSlotsAndTheirMirrors) {
  GLUON_REQUIRE_GPU();
  const Exec gpu = cuda_exec(), cpu = cpu_exec();
  ScalarSlots slots(gpu, 3);
  slots.set(2, 5.0);
  selftest_sum_into(gpu, 100003, slots, 0);
  selftest_sum_into(gpu, 777, slots, 1);
  selftest_sum_into(gpu, 0, slots, 2);
  slots.record();
  slots.wait();
  EXPECT_EQ(bits(slots.host(0)), bits(selftest_sum(cpu, 100003)));
  EXPECT_EQ(bits(slots.host(1)), bits(selftest_sum(cpu, 777)));
  EXPECT_EQ(slots.host(2), 0.0);
  double dev[3];
  copy_bytes(dev, MemSpace::host, slots.device(0), MemSpace::device, sizeof dev);
  EXPECT_EQ(bits(dev[0]), bits(slots.host(0)));
  EXPECT_EQ(bits(dev[1]), bits(slots.host(1)));
  EXPECT_EQ(dev[2], 0.0);
}

// Released slots are reused by the next ScalarSlots of their size (a solve makes one): the reused
// ones start at zero on the device and in the mirror, as new ones do.
TEST(GpuRuntime, ReusedSlotsStartAtZero) {
  GLUON_REQUIRE_GPU();
  const Exec gpu = cuda_exec();
  for (int round = 0; round < 3; ++round) {
    ScalarSlots slots(gpu, 5);
    for (int i = 0; i < 5; ++i) EXPECT_EQ(slots.host(i), 0.0) << "round " << round << ", slot " << i;
    slots.record();
    slots.wait();
    double dev[5];
    copy_bytes(dev, MemSpace::host, slots.device(0), MemSpace::device, sizeof dev);
    for (int i = 0; i < 5; ++i) EXPECT_EQ(dev[i], 0.0) << "round " << round << ", slot " << i;
    for (int i = 0; i < 5; ++i) slots.set(i, 7.0 + i);
    selftest_sum_into(gpu, 1000, slots, 3);
    slots.record();
    slots.wait();
  }
}

TEST(GpuRuntime, ParallelForWritesEveryElementInDeviceMemory) {
  GLUON_REQUIRE_GPU();
  const Exec gpu = cuda_exec();
  for (std::int64_t n : {std::int64_t{1}, std::int64_t{1000}, std::int64_t{3} << 20}) {
    Buffer d(MemSpace::device, static_cast<std::size_t>(n) * sizeof(std::int64_t), "iota", gpu.device);
    fill_bytes(d, 0xff);
    selftest_iota(gpu, d);
    std::vector<std::int64_t> h(static_cast<std::size_t>(n));
    copy_bytes(h.data(), MemSpace::host, d.data(), MemSpace::device, d.bytes());
    std::int64_t wrong = 0;
    for (std::int64_t i = 0; i < n; ++i) wrong += h[static_cast<std::size_t>(i)] != i;
    EXPECT_EQ(wrong, 0) << "n = " << n;
  }
  Buffer host(MemSpace::host, 64, "host");
  EXPECT_THROW(selftest_iota(gpu, host), InputError);  // host memory handed to a GPU kernel
}

TEST(GpuRuntime, DeviceCopiesRoundTrip) {
  GLUON_REQUIRE_GPU();
  const std::size_t n = (std::size_t{5} << 20) + 7;
  Buffer a(MemSpace::pinned, n, "a"), d1(MemSpace::device, n, "d1"), d2(MemSpace::device, n, "d2"),
      b(MemSpace::host, n, "b");
  auto* pa = static_cast<unsigned char*>(a.data());
  for (std::size_t i = 0; i < n; ++i) pa[i] = static_cast<unsigned char>((i * 2654435761u) >> 13);
  copy(d1, a);
  copy(d2, d1);  // device to device
  copy(b, d2);
  EXPECT_EQ(std::memcmp(a.data(), b.data(), n), 0);

  Stream s(cuda_exec());
  std::memset(b.data(), 0, n);
  Buffer p(MemSpace::pinned, n, "p");
  copy_bytes_async(p.data(), MemSpace::pinned, d2.data(), MemSpace::device, n, s.exec());
  s.synchronize();
  EXPECT_EQ(std::memcmp(a.data(), p.data(), n), 0);

  const auto info = device_memory_info(0);
  EXPECT_GT(info.total, 0u);
  EXPECT_LE(info.free, info.total);
}

TEST(GpuRuntime, AllocationBeyondFreeMemoryNamesFreeAndRequestedMiB) {
  GLUON_REQUIRE_GPU();
  const auto info = device_memory_info(0);
  const std::size_t ask = info.total + (std::size_t{4} << 30);  // more than the device has
  try {
    Buffer b(MemSpace::device, ask, "huge spinor field", 0);
    FAIL() << "expected OutOfMemoryError";
  } catch (const OutOfMemoryError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(mib(ask)), std::string::npos) << msg;
    EXPECT_NE(msg.find("huge spinor field"), std::string::npos) << msg;
    EXPECT_NE(msg.find("MiB free"), std::string::npos) << msg;
    EXPECT_NE(msg.find(mib(info.total)), std::string::npos) << msg;
  }
  // the failure leaves the device usable
  Buffer ok(MemSpace::device, 1 << 20, "after", 0);
  EXPECT_EQ(bits(selftest_sum(cuda_exec(), 1000)), bits(selftest_sum(cpu_exec(), 1000)));
}

// Released device blocks are kept for the next Buffer of their size (memory.h): a solve's work
// vectors then cost no cudaMalloc/cudaFree. When the device is full of cached blocks, an
// allocation that fits only without them frees them and succeeds.
TEST(GpuRuntime, ReleasedDeviceBlocksAreReusedAndFreedWhenMemoryRunsOut) {
  GLUON_REQUIRE_GPU();
  if (env_switched_off("GLUON_DEVICE_CACHE")) GTEST_SKIP() << "GLUON_DEVICE_CACHE=0: blocks are freed at once";
  release_cached_device_memory(0);
  void* first = nullptr;
  {
    Buffer a(MemSpace::device, std::size_t{3} << 20, "a", 0);
    first = a.data();
  }
  EXPECT_EQ(device_memory_info(0).cached, std::size_t{3} << 20);
  {
    Buffer b(MemSpace::device, std::size_t{3} << 20, "b", 0);
    EXPECT_EQ(b.data(), first) << "a block of the same size should come from the cache";
    EXPECT_EQ(device_memory_info(0).cached, 0u);
    Buffer c(MemSpace::device, std::size_t{5} << 20, "c", 0);  // another size: a new block
    EXPECT_NE(c.data(), first);
  }
  EXPECT_EQ(release_cached_device_memory(0), std::size_t{8} << 20);
  EXPECT_EQ(device_memory_info(0).cached, 0u);

  // Fill 60% of the free memory with one cached block, then ask for 60% in another size.
  const std::size_t big = device_memory_info(0).free / 10 * 6;
  { Buffer held(MemSpace::device, big, "held", 0); }
  EXPECT_EQ(device_memory_info(0).cached, big);
  {
    Buffer other(MemSpace::device, big + (std::size_t{1} << 20), "other", 0);
    EXPECT_NE(other.data(), nullptr);
    EXPECT_EQ(device_memory_info(0).cached, 0u) << "the cached block should have been freed to make room";
  }
  release_cached_device_memory(0);
  EXPECT_EQ(bits(selftest_sum(cuda_exec(), 1000)), bits(selftest_sum(cpu_exec(), 1000)));
}

TEST(GpuRuntime, StreamsAndEventsTimeKernels) {
  GLUON_REQUIRE_GPU();
  Stream s1(cuda_exec()), s2(cuda_exec());
  ASSERT_NE(s1.native(), nullptr);
  EXPECT_NE(s1.native(), s2.native());
  EXPECT_EQ(s1.exec().backend, Backend::cuda);
  EXPECT_EQ(s1.exec().stream, s1.native());

  // Kernels on a stream give the same result as on the default stream.
  const std::int64_t n = std::int64_t{1} << 25;
  EXPECT_EQ(bits(selftest_sum(s1.exec(), n)), bits(selftest_sum(cuda_exec(), n)));

  Buffer d(MemSpace::device, static_cast<std::size_t>(n) * sizeof(std::int64_t), "timed", 0);
  Event a, b;
  a.record(s2);
  for (int k = 0; k < 5; ++k) selftest_iota(s2.exec(), d);
  b.record(s2);
  b.synchronize();
  EXPECT_TRUE(b.ready());
  const double ms = elapsed_ms(a, b);
  EXPECT_GT(ms, 0.0);
  EXPECT_LT(ms, 10000.0);
  // 5 x 256 MiB written: the time must be plausible for a GPU (> 1 us, and at least not faster
  // than 20 TB/s)
  EXPECT_GT(ms, 5.0 * static_cast<double>(d.bytes()) / 20e12 * 1e3);

  DeviceTimer t(s2.exec());
  for (int k = 0; k < 3; ++k) {
    t.start();
    selftest_iota(s2.exec(), d);
    t.stop();
  }
  EXPECT_EQ(t.laps(), 3);
  for (int k = 0; k < 200; ++k) {  // many short laps: finished ones are folded as it goes
    t.start();
    selftest_iota(s2.exec(), d);
    t.stop();
  }
  EXPECT_EQ(t.laps(), 203);
  const double tms = t.elapsed_ms();
  EXPECT_GT(tms, 0.0);
  EXPECT_LT(tms, 10000.0);

  Event cpu_event;
  cpu_event.record(cpu_exec());
  EXPECT_THROW(elapsed_ms(a, cpu_event), InputError);  // mixed backends

  Stream moved(std::move(s1));
  EXPECT_EQ(s1.native(), nullptr);  // NOLINT(bugprone-use-after-move)
  EXPECT_NO_THROW(moved.synchronize());
}
