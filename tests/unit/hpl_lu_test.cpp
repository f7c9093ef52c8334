// hpl::run_hpl on one process: every PFACT x RFACT x DEPTH (and NBMIN/NDIV, N not a multiple of
// NB) solves HPL's matrix; x is checked against a plain Gaussian elimination of the same matrix,
// and a corrupted solution or a tiny threshold reports FAILED.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gluon/comm/communicator.h"
#include "gluon/hpl/lu.h"
#include "gluon/hpl/matrix.h"
#include "hpl_reference.h"
#include "gluon/runtime/error.h"

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

RunOptions quiet() {
  RunOptions o;
  o.progress_interval_s = 0;
  return o;
}

}  // namespace

TEST(HplLu, EveryFactorisationVariantPasses) {
  auto g = single_grid();
  for (long n : {1L, 37L, 100L}) {
    const auto ref = gluon::test::hpl_reference_solve(n);
    for (int nb : {1, 8, 13})
      for (Fact pf : {Fact::left, Fact::crout, Fact::right})
        for (Fact rf : {Fact::left, Fact::crout, Fact::right})
          for (int depth : {0, 1})
            for (auto [nbmin, ndiv] : {std::pair{1, 2}, std::pair{2, 3}, std::pair{4, 2}}) {
              HplRunParams p;
              p.n = n, p.nb = nb, p.pfact = pf, p.rfact = rf, p.depth = depth, p.nbmin = nbmin, p.ndiv = ndiv;
              const auto r = run_hpl(p, g, quiet());
              SCOPED_TRACE(variant_code(p) + " N=" + std::to_string(n) + " NB=" + std::to_string(nb));
              EXPECT_TRUE(r.passed) << "resid " << r.resid;
              EXPECT_LT(r.resid, 1.0);
              ASSERT_EQ(r.x.size(), static_cast<std::size_t>(n));
              EXPECT_LT(max_diff(r.x, ref), 1e-9 * (1 + r.norm_x));
            }
  }
}

TEST(HplLu, SwapVariantsAndLargerBlocks) {
  auto g = single_grid();
  const long n = 150;
  const auto ref = gluon::test::hpl_reference_solve(n);
  for (Swap s : {Swap::bin_exch, Swap::spread_roll, Swap::mix})
    for (int nb : {32, 64, 200}) {
      HplRunParams p;
      p.n = n, p.nb = nb, p.swap = s, p.swap_threshold = 40;
      const auto r = run_hpl(p, g, quiet());
      EXPECT_TRUE(r.passed) << swap_name(s) << " NB=" << nb << " resid " << r.resid;
      EXPECT_LT(max_diff(r.x, ref), 1e-9 * (1 + r.norm_x));
    }
}

TEST(HplLu, FailedResidualIsReported) {
  auto g = single_grid();
  HplRunParams p;
  p.n = 80, p.nb = 16;
  auto o = quiet();
  o.corrupt_solution = true;
  const auto bad = run_hpl(p, g, o);
  EXPECT_FALSE(bad.passed);
  EXPECT_GT(bad.resid, 16.0);
  p.threshold = 1e-30;  // a threshold no rounding error passes
  const auto strict = run_hpl(p, g, quiet());
  EXPECT_FALSE(strict.passed);
  EXPECT_GT(strict.resid, 0.0);
}

TEST(HplLu, FlopCountAndBadInput) {
  EXPECT_DOUBLE_EQ(hpl_flops(1000), 2.0 / 3.0 * 1e9 + 1.5e6);
  auto g = single_grid();
  HplRunParams p;
  p.n = 0, p.nb = 4;
  EXPECT_THROW(run_hpl(p, g, quiet()), gluon::InputError);
  p.n = 10, p.p = 2;
  EXPECT_THROW(run_hpl(p, g, quiet()), gluon::InputError);
}

#if GLUON_HAVE_CUDA
#include "gluon/runtime/exec.h"

// On a GPU: the GPU-only and a fixed 50/50 hybrid update give the CPU's solution (N large enough
// that the updates reach the GPU, a memory cap small enough to need several tiles).
TEST(HplLu, CudaEnginesMatchTheCpu) {
  if (!gluon::runtime::cuda_available()) GTEST_SKIP() << "no CUDA device: gpu part not run";
  auto g = single_grid();
  HplRunParams p;
  p.n = 1800, p.nb = 64;
  const auto cpu = run_hpl(p, g, quiet());
  ASSERT_TRUE(cpu.passed);
  for (double fraction : {1.0, 0.5}) {
    CudaEngineOptions co;
    co.mode = fraction == 1.0 ? "gpu" : "hybrid";
    co.fixed_fraction = fraction;
    co.placement = "streamed";  // this test is about the streamed engine
    co.memory_limit = 2 * 8 * (512 * 512 + 2 * 512 * 64);  // two slots of 512 x 512 tiles
    auto eng = make_cuda_engine(co);
    auto o = quiet();
    o.engine = eng.get();
    const auto r = run_hpl(p, g, o);
    EXPECT_TRUE(r.passed) << co.mode << " resid " << r.resid;
    EXPECT_LT(max_diff(r.x, cpu.x), 1e-8 * (1 + cpu.norm_x)) << co.mode;
    EXPECT_NE(eng->summary().find("tile 512x512"), std::string::npos) << eng->summary();
  }
}
#endif

// The device LU and the host LU both turn a panel's interchanges into one permutation: it must
// equal the swaps applied one after another, and list only the rows that moved, by row.
TEST(HplLu, PanelRowMovesEqualTheSwapsInOrder) {
  std::uint64_t state = 12345;
  auto next = [&](long range) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<long>((state >> 33) % static_cast<std::uint64_t>(range));
  };
  for (int trial = 0; trial < 200; ++trial) {
    const long n = 5 + next(60), j = next(n - 1);
    const int jb = static_cast<int>(1 + next(std::min<long>(n - j, 12)));
    std::vector<double> ipiv(jb);
    for (int k = 0; k < jb; ++k) ipiv[k] = static_cast<double>(j + k + next(n - j - k));  // pivot row >= j + k
    std::vector<long> rows(n);
    for (long r = 0; r < n; ++r) rows[r] = r;
    for (int k = 0; k < jb; ++k) std::swap(rows[j + k], rows[static_cast<long>(ipiv[k])]);
    const auto moves = panel_row_moves(ipiv.data(), j, jb);
    std::vector<long> via(n);
    for (long r = 0; r < n; ++r) via[r] = r;
    long last = -1;
    for (const RowMove& mv : moves) {
      EXPECT_NE(mv.dst, mv.src);
      EXPECT_GT(mv.dst, last);
      last = mv.dst;
      via[mv.dst] = mv.src;
    }
    ASSERT_EQ(via, rows) << "trial " << trial << " n " << n << " j " << j << " jb " << jb;
  }
}
