// Buffers in host/pinned memory, copies, moves, and allocation/placement errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "gluon/runtime/env.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/memory.h"

using namespace gluon;
using namespace gluon::runtime;

namespace {
std::vector<unsigned char> random_bytes(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<unsigned char> v(n);
  for (auto& b : v) b = static_cast<unsigned char>(rng());
  return v;
}
}  // namespace

TEST(RuntimeMemory, HostAndPinnedBuffersHoldDataAndAreAligned) {
  for (MemSpace s : {MemSpace::host, MemSpace::pinned}) {
    const std::size_t n = 1000003;  // not a multiple of 64
    Buffer b(s, n, "data");
    EXPECT_EQ(b.bytes(), n);
    EXPECT_EQ(b.space(), s);
    EXPECT_FALSE(b.empty());
    ASSERT_NE(b.data(), nullptr);
    if (s == MemSpace::host) EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.data()) % 64, 0u);
    const auto src = random_bytes(n, 3);
    copy_bytes(b.data(), s, src.data(), MemSpace::host, n);
    EXPECT_EQ(std::memcmp(b.data(), src.data(), n), 0) << to_string(s);
  }
}

// Host buffers of 2 MiB or more start on a 2 MiB boundary (whole huge pages, advised as such)
// unless GLUON_HUGE_PAGES=0; smaller ones on 64 bytes. Both hold and return their data.
TEST(RuntimeMemory, LargeHostBuffersAreHugePageAligned) {
  const bool huge = !env_switched_off("GLUON_HUGE_PAGES");
  const std::size_t two_mib = std::size_t(2) << 20;
  Buffer big(MemSpace::host, 3 * two_mib + 100, "big");
  if (huge) EXPECT_EQ(reinterpret_cast<std::uintptr_t>(big.data()) % two_mib, 0u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(big.data()) % 64, 0u);
  EXPECT_EQ(big.bytes(), 3 * two_mib + 100);
  auto* b = static_cast<unsigned char*>(big.data());
  for (std::size_t i = 0; i < big.bytes(); i += 4096) b[i] = static_cast<unsigned char>(i / 4096);
  b[big.bytes() - 1] = 7;
  for (std::size_t i = 0; i < big.bytes(); i += 4096) ASSERT_EQ(b[i], static_cast<unsigned char>(i / 4096));
  EXPECT_EQ(b[big.bytes() - 1], 7);
  Buffer small(MemSpace::host, two_mib - 1, "small");
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(small.data()) % 64, 0u);
}

TEST(RuntimeMemory, CopyBetweenBuffersAndFill) {
  const std::size_t n = 4097;
  Buffer a(MemSpace::host, n, "a"), p(MemSpace::pinned, n, "p"), c(MemSpace::host, n, "c");
  const auto src = random_bytes(n, 4);
  std::memcpy(a.data(), src.data(), n);
  copy(p, a);
  copy(c, p);
  EXPECT_EQ(std::memcmp(c.data(), src.data(), n), 0);
  copy_bytes_async(a.data(), MemSpace::host, src.data(), MemSpace::host, n, cpu_exec());
  EXPECT_EQ(std::memcmp(a.data(), src.data(), n), 0);
  fill_bytes(c, 0xab);
  const auto* q = static_cast<const unsigned char*>(c.data());
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(q[i], 0xab);
  Buffer small(MemSpace::host, n - 1, "small");
  try {
    copy(small, a);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(std::to_string(n)), std::string::npos) << e.what();
  }
}

TEST(RuntimeMemory, MoveTransfersOwnership) {
  Buffer a(MemSpace::host, 256, "a");
  void* p = a.data();
  Buffer b(std::move(a));
  EXPECT_EQ(b.data(), p);
  EXPECT_EQ(b.bytes(), 256u);
  EXPECT_EQ(a.data(), nullptr);  // NOLINT(bugprone-use-after-move): documented moved-from state
  EXPECT_TRUE(a.empty());
  Buffer c(MemSpace::pinned, 64, "c");
  c = std::move(b);
  EXPECT_EQ(c.data(), p);
  EXPECT_EQ(c.space(), MemSpace::host);
  EXPECT_TRUE(b.empty());
  c = std::move(c);  // self-move keeps the buffer
  EXPECT_EQ(c.data(), p);
  Buffer empty;
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(empty.data(), nullptr);
  Buffer zero(MemSpace::host, 0, "zero");
  EXPECT_TRUE(zero.empty());
}

TEST(RuntimeMemory, AbsurdHostAllocationNamesSizeAndLabel) {
  const std::size_t huge = std::size_t{1} << 60;
  char expected_size[64];
  std::snprintf(expected_size, sizeof expected_size, "%.1f MiB",
                static_cast<double>(huge) / (1024.0 * 1024.0));
  for (MemSpace s : {MemSpace::host, MemSpace::pinned}) {
    try {
      Buffer b(s, huge, "gauge links");
      FAIL() << "expected OutOfMemoryError for " << to_string(s);
    } catch (const OutOfMemoryError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find(expected_size), std::string::npos) << msg;
      EXPECT_NE(msg.find("gauge links"), std::string::npos) << msg;
    }
  }
}

TEST(RuntimeMemory, SpacesAndNames) {
  EXPECT_EQ(to_string(MemSpace::host), "host");
  EXPECT_EQ(to_string(MemSpace::pinned), "pinned");
  EXPECT_EQ(to_string(MemSpace::device), "device");
  EXPECT_EQ(memspace_for(cpu_exec()), MemSpace::host);
  EXPECT_EQ(memspace_for(Exec{Backend::cuda, 0, nullptr}), MemSpace::device);
}

TEST(RuntimeMemory, DeviceMemoryInACpuBuildIsADeviceError) {
#if GLUON_HAVE_CUDA
  GTEST_SKIP() << "CUDA build: device allocation is tested in tests/gpu/runtime_test.cpp";
#else
  try {
    Buffer b(MemSpace::device, 1024, "spinor");
    FAIL() << "expected DeviceError";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("spinor"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("without CUDA"), std::string::npos) << e.what();
  }
  EXPECT_THROW(device_memory_info(0), DeviceError);
  std::vector<char> h(16);
  EXPECT_THROW(copy_bytes(h.data(), MemSpace::host, h.data() + 8, MemSpace::device, 8), DeviceError);
#endif
}
