#pragma once
// Tiny kernels that exercise the execution interface itself, so that host-only test files (and
// `gluon info`) can check that parallel_for/parallel_reduce work on every backend. They live in
// src/runtime/selftest_kernels.cpp, compiled by nvcc in CUDA builds.
//
//   selftest_value(i)          a pseudo-random multiple of 1/1024 in [-1, 1], from a hash of i;
//                              sums of up to 2^30 of them (and of their squares) are exact in
//                              double, so any summation order gives the same bits
//   SelftestMoments            {sum, sum_sq, count, min, max}: a small struct reduced by +=
//   selftest_sum(ex, n)        sum of selftest_value(i), i < n (exact: bit-identical on all backends)
//   selftest_moments(ex, n)    the moments of selftest_value(i), i < n (exact likewise)
//   selftest_harmonic(ex, n)   sum of 1/(i+1): rounding depends on order, compare to a tolerance
//   selftest_iota(ex, buf)     buf (int64 elements, in memspace_for(ex)) gets buf[i] = i
//   selftest_sum_shaped(ex, n, block, grid)
//                              selftest_sum through the GPU reduction kernel at a given launch
//                              shape (block a multiple of 32 up to 1024, grid >= 1): every shape
//                              the tuner may pick (InputError otherwise); the CPU ignores the shape
//   selftest_sum_into(ex, n, slots, i)
//                              selftest_sum queued into slot i of slots (parallel_reduce_into);
//                              read it with slots.host(i) after slots.record() and slots.wait()
#include <cstdint>

#include "gluon/runtime/exec.h"
#include "gluon/runtime/hd.h"
#include "gluon/runtime/memory.h"
#include "gluon/runtime/scalar_slots.h"

namespace gluon::runtime {

GLUON_HD_INLINE double selftest_value(std::int64_t i) {
  // splitmix64 finaliser
  auto z = static_cast<std::uint64_t>(i) + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return static_cast<double>(static_cast<std::int64_t>(z % 2049u) - 1024) / 1024.0;
}

struct SelftestMoments {
  double sum = 0.0, sum_sq = 0.0;
  std::int64_t count = 0;
  double min = 2.0, max = -2.0;  // outside selftest_value's range: the identity of min/max

  GLUON_HD_INLINE SelftestMoments& operator+=(const SelftestMoments& o) {
    sum += o.sum;
    sum_sq += o.sum_sq;
    count += o.count;
    min = o.min < min ? o.min : min;
    max = o.max > max ? o.max : max;
    return *this;
  }
};

double selftest_sum(const Exec& ex, std::int64_t n);
SelftestMoments selftest_moments(const Exec& ex, std::int64_t n);
double selftest_harmonic(const Exec& ex, std::int64_t n);
void selftest_iota(const Exec& ex, Buffer& buf);
double selftest_sum_shaped(const Exec& ex, std::int64_t n, int block, int grid);
void selftest_sum_into(const Exec& ex, std::int64_t n, ScalarSlots& slots, int i);

}  // namespace gluon::runtime
