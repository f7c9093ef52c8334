// The GPU LU (P = 1, one GPU), resident and out of core: every NB / NBMIN / NDIV / DEPTH and
// window tried solves HPL's matrix to the x of a plain Gaussian elimination and of the host LU,
// the run reports its placement, and placement errors are clear.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gluon/comm/communicator.h"
#include "gluon/hpl/lu.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/exec.h"
#include "hpl_reference.h"
#include "test_support.h"

namespace {

using namespace gluon::hpl;

double max_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0;
  for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]));
  return d;
}

HplGrid single_grid() {
  static auto world = gluon::comm::make_single_communicator();
  auto g = make_grid(*world, 1, 1, false);
  return std::move(*g);
}

RunOptions with(UpdateEngine& e) {
  RunOptions o;
  o.engine = &e;
  o.progress_interval_s = 0;
  return o;
}

std::unique_ptr<UpdateEngine> gpu_engine(const std::string& placement, std::size_t limit = 0) {
  CudaEngineOptions o;
  o.mode = "gpu";
  o.placement = placement;
  o.memory_limit = limit;
  return make_cuda_engine(o);
}

}  // namespace

TEST(HplDeviceLu, SolvesLikeTheReferenceForEveryBlocking) {
  GLUON_REQUIRE_GPU();
  auto g = single_grid();
  auto eng = gpu_engine("resident");
  for (long n : {1L, 50L, 333L}) {
    const auto ref = gluon::test::hpl_reference_solve(n);
    for (int nb : {1, 16, 64, 500})
      for (int depth : {0, 1})
        for (auto [nbmin, ndiv] : {std::pair{2, 2}, std::pair{4, 3}, std::pair{16, 2}}) {
          HplRunParams p;
          p.n = n, p.nb = nb, p.depth = depth, p.nbmin = nbmin, p.ndiv = ndiv;
          const auto r = run_hpl(p, g, with(*eng));
          SCOPED_TRACE("N=" + std::to_string(n) + " NB=" + std::to_string(nb) + " depth " + std::to_string(depth) +
                       " nbmin " + std::to_string(nbmin) + " ndiv " + std::to_string(ndiv));
          EXPECT_EQ(r.placement, "resident");
          EXPECT_TRUE(r.passed) << "resid " << r.resid;
          ASSERT_EQ(r.x.size(), static_cast<std::size_t>(n));
          EXPECT_LT(max_diff(r.x, ref), 1e-9 * (1 + r.norm_x));
        }
  }
}

TEST(HplDeviceLu, AgreesWithTheHostLuOnALargerMatrix) {
  GLUON_REQUIRE_GPU();
  auto g = single_grid();
  HplRunParams p;
  p.n = 3001, p.nb = 128, p.depth = 1, p.nbmin = 16, p.ndiv = 2;
  auto dev = gpu_engine("auto");
  const auto rd = run_hpl(p, g, with(*dev));
  EXPECT_EQ(rd.placement, "resident");
  EXPECT_TRUE(rd.passed) << "resid " << rd.resid;
  EXPECT_NE(rd.breakdown.find("DGEMM"), std::string::npos) << rd.breakdown;
  EXPECT_LT(rd.resid, 1.0);
  auto cpu = make_cpu_engine();
  const auto rc = run_hpl(p, g, with(*cpu));
  EXPECT_EQ(rc.placement, "host");
  EXPECT_TRUE(rc.passed);
  // Same pivots (both pick the first largest |a|), different rounding: x agrees to a few ulps of
  // the condition number.
  EXPECT_LT(max_diff(rd.x, rc.x), 1e-8 * (1 + rc.norm_x));
  // A corrupted solution still FAILS on the resident path.
  auto o = with(*dev);
  o.corrupt_solution = true;
  EXPECT_FALSE(run_hpl(p, g, o).passed);
}

TEST(HplDeviceLu, PlacementFollowsTheMemoryLimit) {
  GLUON_REQUIRE_GPU();
  auto g = single_grid();
  HplRunParams p;
  p.n = 2000, p.nb = 64;
  // 2000 x 2001 doubles are 32 MB: a 100 MB cap (the GPU LU also wants 256 MB of slack, resident
  // or out of core) streams the update instead, and still solves.
  auto capped = gpu_engine("auto", 100u << 20);
  const auto r = run_hpl(p, g, with(*capped));
  EXPECT_EQ(r.placement, "host");
  EXPECT_TRUE(r.passed);
  EXPECT_NE(capped->summary().find("streamed update"), std::string::npos) << capped->summary();
  auto forced = gpu_engine("resident", 100u << 20);
  try {
    run_hpl(p, g, with(*forced));
    FAIL() << "--placement resident over the memory cap must be refused";
  } catch (const gluon::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("GB of device memory"), std::string::npos) << e.what();
  }
  auto streamed = gpu_engine("streamed");
  EXPECT_EQ(run_hpl(p, g, with(*streamed)).placement, "host");
}

// Out of core: windows of W columns (a memory cap of 256 MB slack + two L buffers + W columns),
// several windows, one panel per window, a last window holding only b, N not a multiple of NB,
// DEPTH 0 and 1: the same x as the reference elimination.
TEST(HplDeviceLu, OutOfCoreWindowsSolveLikeTheReference) {
  GLUON_REQUIRE_GPU();
  auto g = single_grid();
  struct Case {
    long n;
    int nb;
    long window;
  };
  for (const Case c : {Case{1501, 128, 512}, Case{500, 64, 64}, Case{512, 64, 256}, Case{700, 100, 300}}) {
    const auto ref = gluon::test::hpl_reference_solve(c.n);
    const long ld = (c.n + 31) / 32 * 32;
    const std::size_t cap = (std::size_t{256} << 20) + 2 * 8 * static_cast<std::size_t>(c.n * c.nb) +
                            8 * static_cast<std::size_t>(ld) * static_cast<std::size_t>(c.window + c.nb / 2);
    auto eng = gpu_engine("auto", cap);
    for (int depth : {0, 1}) {
      HplRunParams p;
      p.n = c.n, p.nb = c.nb, p.depth = depth, p.nbmin = 8, p.ndiv = 2;
      const auto r = run_hpl(p, g, with(*eng));
      SCOPED_TRACE("N=" + std::to_string(c.n) + " NB=" + std::to_string(c.nb) + " window " + std::to_string(c.window) +
                   " depth " + std::to_string(depth));
      EXPECT_EQ(r.placement, "out-of-core");
      EXPECT_TRUE(r.passed) << "resid " << r.resid;
      EXPECT_LT(max_diff(r.x, ref), 1e-9 * (1 + r.norm_x));
    }
    EXPECT_NE(eng->summary().find("out-of-core GPU LU"), std::string::npos) << eng->summary();
  }
  // Forced out of core with memory to spare: one window holds everything.
  HplRunParams p;
  p.n = 1000, p.nb = 96;
  auto eng = gpu_engine("out-of-core");
  const auto r = run_hpl(p, g, with(*eng));
  EXPECT_EQ(r.placement, "out-of-core");
  EXPECT_TRUE(r.passed) << "resid " << r.resid;
  EXPECT_LT(max_diff(r.x, gluon::test::hpl_reference_solve(p.n)), 1e-9 * (1 + r.norm_x));
}
