// Kernels of runtime/selftest.h (compiled by nvcc in CUDA builds).
#include "gluon/runtime/selftest.h"

#include <string>

#include "gluon/runtime/error.h"
#include "gluon/runtime/parallel.h"

namespace gluon::runtime {

namespace {

struct ValueF {
  GLUON_HD double operator()(std::int64_t i) const { return selftest_value(i); }
};

struct MomentsF {
  GLUON_HD SelftestMoments operator()(std::int64_t i) const {
    const double v = selftest_value(i);
    SelftestMoments m;
    m.sum = v;
    m.sum_sq = v * v;
    m.count = 1;
    m.min = v;
    m.max = v;
    return m;
  }
};

struct HarmonicF {
  GLUON_HD double operator()(std::int64_t i) const { return 1.0 / static_cast<double>(i + 1); }
};

struct IotaF {
  std::int64_t* out;
  GLUON_HD void operator()(std::int64_t i) const { out[i] = i; }
};

}  // namespace

double selftest_sum(const Exec& ex, std::int64_t n) {
  return parallel_reduce<double>(ex, "selftest_sum", n, ValueF{});
}

SelftestMoments selftest_moments(const Exec& ex, std::int64_t n) {
  return parallel_reduce<SelftestMoments>(ex, "selftest_moments", n, MomentsF{});
}

double selftest_harmonic(const Exec& ex, std::int64_t n) {
  return parallel_reduce<double>(ex, "selftest_harmonic", n, HarmonicF{});
}

void selftest_iota(const Exec& ex, Buffer& buf) {
  if (buf.space() != memspace_for(ex) && !(buf.space() == MemSpace::pinned && !ex.on_device()))
    throw InputError("selftest_iota: buffer in " + to_string(buf.space()) + " memory, expected " +
                     to_string(memspace_for(ex)) + " for the " + to_string(ex.backend) + " backend");
  if (buf.bytes() % sizeof(std::int64_t) != 0)
    throw InputError("selftest_iota: buffer of " + std::to_string(buf.bytes()) +
                     " bytes is not a whole number of int64 elements");
  const auto n = static_cast<std::int64_t>(buf.bytes() / sizeof(std::int64_t));
  parallel_for(ex, "selftest_iota", n, IotaF{static_cast<std::int64_t*>(buf.data())});
}

double selftest_sum_shaped(const Exec& ex, std::int64_t n, int block, int grid) {
  if (block < 32 || block > 1024 || block % 32 != 0 || grid < 1)
    throw InputError("selftest_sum_shaped: expected a block of 32..1024 threads in steps of 32 and a grid >= 1, found " +
                     std::to_string(block) + " x " + std::to_string(grid));
  if (!ex.on_device()) return selftest_sum(ex, n);
#if defined(__CUDACC__)
  cuda::set_device(ex);
  auto stream = static_cast<cudaStream_t>(ex.stream);
  const cuda::ReduceScratch s = cuda::reduce_scratch(ex, sizeof(double) * static_cast<std::size_t>(grid));
  cuda::reduce_kernel<double><<<grid, block, block * sizeof(double), stream>>>(
      n, ValueF{}, static_cast<double*>(s.device), s.ticket, static_cast<double*>(s.result_device), nullptr);
  cuda::check(cudaGetLastError(), "kernel launch", "selftest_sum_shaped");
  cuda::check(cudaStreamSynchronize(stream), "kernel execution", "selftest_sum_shaped");
  return *static_cast<const double*>(s.result);
#else
  detail::kernel_not_compiled_for_cuda("selftest_sum_shaped");
#endif
}

void selftest_sum_into(const Exec& ex, std::int64_t n, ScalarSlots& slots, int i) {
  parallel_reduce_into<double>(ex, "selftest_sum", n, ValueF{}, slots.mirror(i), slots.device(i));
}

}  // namespace gluon::runtime
