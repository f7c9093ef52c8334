// hpl on P x Q grids of the MPI ranks (1, 2 or 4 of them): the panel broadcasts and row-swap
// gathers move the right bytes, and every BCAST x SWAP x DEPTH variant (with each PFACT/RFACT)
// solves HPL's matrix to the same x as a plain Gaussian elimination, on 1x2, 2x1, 2x2, 1x4, 4x1
// and with idle ranks. With one GPU per rank (and NCCL), the device-resident LU on 1 x Q grids
// solves to the same x.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gluon/comm/environment.h"
#include "gluon/hpl/lu.h"
#include "gluon/hpl/matrix.h"
#include "gluon/runtime/exec.h"
#include "hpl_reference.h"

using namespace gluon::hpl;

namespace {


std::vector<std::pair<int, int>> grids_that_fit(int size) {
  const std::vector<std::pair<int, int>> all{{1, 1}, {1, 2}, {2, 1}, {2, 2}, {1, 4}, {4, 1}, {3, 1}};
  const std::size_t fit = size >= 4 ? all.size() : size >= 2 ? 3 : 1;
  return {all.begin(), all.begin() + static_cast<std::ptrdiff_t>(fit)};
}

}  // namespace

TEST(HplGrid, PanelBroadcastEveryTopologyAndRoot) {
  auto& w = gluon::comm::world();
  for (int b = 0; b < 6; ++b)
    for (int root = 0; root < w.size(); ++root) {
      std::vector<double> v(37, -1.0);
      if (w.rank() == root)
        for (int i = 0; i < 37; ++i) v[i] = 100.0 * root + i;
      panel_broadcast(w, v.data(), v.size() * sizeof(double), root, static_cast<Bcast>(b), 16 * b);
      for (int i = 0; i < 37; ++i) ASSERT_EQ(v[i], 100.0 * root + i) << bcast_name(static_cast<Bcast>(b)) << " root " << root;
    }
}

TEST(HplGrid, AllgatherBlocksBothAlgorithms) {
  auto& w = gluon::comm::world();
  for (bool binexch : {true, false}) {
    std::vector<std::vector<double>> blocks(w.size());
    for (int r = 0; r < w.size(); ++r) blocks[r].assign(static_cast<std::size_t>(r % 3 == 0 ? 0 : r + 2), -1.0);
    for (auto& x : blocks[w.rank()]) x = w.rank() + 0.5;
    allgather_blocks(w, blocks, binexch, 3);
    for (int r = 0; r < w.size(); ++r)
      for (double x : blocks[r]) ASSERT_EQ(x, r + 0.5) << (binexch ? "binary exchange" : "roll") << " block " << r;
  }
  // Three ranks: binary exchange folds the rank above the power of two.
  if (w.size() >= 4) {
    auto sub = w.split(w.rank() < 3 ? 0 : 1, w.rank());
    if (w.rank() < 3) {
      std::vector<std::vector<double>> blocks(3);
      for (int r = 0; r < 3; ++r) blocks[r].assign(static_cast<std::size_t>(2 * r + 1), -1.0);
      for (auto& x : blocks[sub->rank()]) x = 7.0 * sub->rank();
      allgather_blocks(*sub, blocks, true, 5);
      for (int r = 0; r < 3; ++r)
        for (double x : blocks[r]) ASSERT_EQ(x, 7.0 * r) << "3-rank binary exchange, block " << r;
    }
  }
}

TEST(HplGrid, EveryBroadcastSwapAndDepthOnEveryGrid) {
  auto& w = gluon::comm::world();
  const long n = 53;
  const auto ref = gluon::test::hpl_reference_solve(n);
  for (auto [p, q] : grids_that_fit(w.size()))
    for (bool colmajor : {false, true}) {
      if (colmajor && p * q == 1) continue;
      auto grid = make_grid(w, p, q, colmajor);
      int combo = 0;
      for (int b = 0; b < 6; ++b)
        for (Swap s : {Swap::bin_exch, Swap::spread_roll, Swap::mix})
          for (int depth : {0, 1}) {
            ++combo;
            if (!grid) continue;
            HplRunParams prm;
            prm.n = n, prm.nb = 6, prm.p = p, prm.q = q, prm.column_major = colmajor;
            prm.bcast = static_cast<Bcast>(b), prm.swap = s, prm.swap_threshold = 20, prm.depth = depth;
            prm.pfact = static_cast<Fact>(combo % 3), prm.rfact = static_cast<Fact>((combo / 3) % 3);
            prm.nbmin = 1 + combo % 3, prm.ndiv = 2 + combo % 2;
            RunOptions o;
            o.progress_interval_s = 0;
            const auto r = run_hpl(prm, *grid, o);
            SCOPED_TRACE(variant_code(prm) + " " + swap_name(s) + " grid " + std::to_string(p) + "x" + std::to_string(q));
            EXPECT_TRUE(r.passed) << "resid " << r.resid;
            ASSERT_EQ(r.x.size(), ref.size());
            double d = 0;
            for (long i = 0; i < n; ++i) d = std::max(d, std::abs(r.x[i] - ref[i]));
            EXPECT_LT(d, 1e-9 * (1 + r.norm_x));
          }
      w.barrier();
    }
}

TEST(HplGrid, CorruptedSolutionFailsOnEveryRank) {
  auto& w = gluon::comm::world();
  const int q = w.size() >= 2 ? 2 : 1;
  auto grid = make_grid(w, 1, q, false);
  if (grid) {
    HplRunParams prm;
    prm.n = 40, prm.nb = 8, prm.q = q;
    RunOptions o;
    o.progress_interval_s = 0;
    o.corrupt_solution = true;
    EXPECT_FALSE(run_hpl(prm, *grid, o).passed);
  }
  w.barrier();
}

// The device-resident LU over all ranks as a 1 x Q grid: NCCL panel broadcasts, the backward
// solve's row sums, each rank's columns on its own GPU; then a 2 x 1 grid, which must fall back
// to the host LU (P > 1) and still solve.
TEST(HplGrid, DeviceResidentOnOneRowOfGpus) {
  auto& w = gluon::comm::world();
  const bool ok = gluon::runtime::cuda_available() && w.local_size() <= gluon::runtime::cuda_device_count() &&
                  (w.size() == 1 || gluon::comm::nccl_compiled());
  double all_ok = ok ? 1.0 : 0.0;
  w.allreduce_min(&all_ok, 1);
  if (all_ok == 0.0) GTEST_SKIP() << "needs one CUDA device per rank on the node (and NCCL for several ranks)";
  CudaEngineOptions co;
  co.mode = "gpu";
  co.device = w.local_rank();
  auto eng = make_cuda_engine(co);
  const long n = 777;
  const auto ref = gluon::test::hpl_reference_solve(n);
  for (int nb : {32, 100})
    for (int depth : {0, 1}) {
      auto grid = make_grid(w, 1, w.size(), false);
      HplRunParams prm;
      prm.n = n, prm.nb = nb, prm.q = w.size(), prm.depth = depth, prm.nbmin = 8;
      RunOptions o;
      o.engine = eng.get();
      o.progress_interval_s = 0;
      const auto r = run_hpl(prm, *grid, o);
      SCOPED_TRACE("1x" + std::to_string(w.size()) + " NB=" + std::to_string(nb) + " depth " + std::to_string(depth));
      EXPECT_EQ(r.placement, "resident");
      EXPECT_TRUE(r.passed) << "resid " << r.resid;
      double d = 0;
      for (long i = 0; i < n; ++i) d = std::max(d, std::abs(r.x[i] - ref[i]));
      EXPECT_LT(d, 1e-9 * (1 + r.norm_x));
    }
  if (w.size() >= 2) {
    auto grid = make_grid(w, 2, 1, false);
    if (grid) {
      HplRunParams prm;
      prm.n = n, prm.nb = 64, prm.p = 2;
      RunOptions o;
      o.engine = eng.get();
      o.progress_interval_s = 0;
      const auto r = run_hpl(prm, *grid, o);
      EXPECT_EQ(r.placement, "host");
      EXPECT_TRUE(r.passed) << "resid " << r.resid;
    }
  }
  w.barrier();
}
