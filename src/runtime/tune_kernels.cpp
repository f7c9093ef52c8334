// Small tuned kernels for the gpu tests of the autotuner (runtime/tune.h); compiled by nvcc in
// CUDA builds. On the CPU they run as plain OpenMP loops (nothing is tuned there).
#include <string>

#include "gluon/runtime/error.h"
#include "gluon/runtime/parallel.h"
#include "gluon/runtime/selftest.h"
#include "gluon/runtime/tune.h"

namespace gluon::runtime {

namespace {

// In place: tuning must back y up and restore it (Tuning::restore), or y gets a x added once per
// timed launch.
struct AxpyF {
  double a;
  const double* x;
  double* y;
  GLUON_HD void operator()(std::int64_t i) const { y[i] += a * x[i]; }
};

struct SumF {
  static constexpr Tuning tuning = Tuning::idempotent;  // declared on the functor
  GLUON_HD double operator()(std::int64_t i) const { return selftest_value(i); }
};

void require_space(const Exec& ex, const Buffer& b, const char* what) {
  if (b.space() != memspace_for(ex) && !(b.space() == MemSpace::pinned && !ex.on_device()))
    throw InputError(std::string("tune_selftest_axpy: ") + what + " in " + to_string(b.space()) +
                     " memory, expected " + to_string(memspace_for(ex)));
}

}  // namespace

void tune_selftest_axpy(const Exec& ex, Buffer& y, const Buffer& x, double a, Tuning tuning) {
  require_space(ex, y, "y");
  require_space(ex, x, "x");
  if (x.bytes() != y.bytes() || y.bytes() % sizeof(double) != 0)
    throw InputError("tune_selftest_axpy: x and y must hold the same number of doubles (" +
                     std::to_string(x.bytes()) + " vs " + std::to_string(y.bytes()) + " bytes)");
  const auto n = static_cast<std::int64_t>(y.bytes() / sizeof(double));
  TuneSpec spec{"tune_selftest_axpy", tuning, "double", {}};
  if (tuning == Tuning::restore) spec.outputs.add(y.data(), y.bytes());
  parallel_for(ex, spec, n,
               AxpyF{a, static_cast<const double*>(x.data()), static_cast<double*>(y.data())});
}

double tune_selftest_sum(const Exec& ex, std::int64_t n, Tuning tuning) {
  if (tuning == Tuning::idempotent) return parallel_reduce<double>(ex, "tune_selftest_sum", n, SumF{});
  return parallel_reduce<double>(ex, TuneSpec{"tune_selftest_sum", tuning, "", {}}, n, SumF{});
}

}  // namespace gluon::runtime
