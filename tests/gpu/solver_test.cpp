// Solvers with vectors in device memory and the BLAS-1 kernels on the GPU: CG, BiCGstab and mixed
// double-single / double-half CG give the CPU's solution to tolerance. The test operator
// (tests/unit/solver_test_operator.h) applies M on the host (the fields make a round trip), so
// those tests exercise the solver logic and the GPU BLAS; the last one runs the real even-odd
// Wilson operator on the GPU (pure double BiCGstab and mixed double-half CG).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "../unit/solver_test_operator.h"
#include "gluon/qcd/blas.h"
#include "gluon/qcd/dirac/dirac.h"
#include "gluon/qcd/gauge_start.h"
#include "gluon/qcd/field_convert.h"
#include "gluon/qcd/random_fields.h"
#include "gluon/qcd/solvers/bicgstab.h"
#include "gluon/qcd/solvers/cg.h"
#include "gluon/qcd/solvers/multishift_cg.h"
#include "gluon/runtime/exec.h"
#include "test_support.h"

using namespace gluon;
using namespace gluon::qcd;

namespace {
const Geometry kGeom({4, 4, 4, 8});

SpinorField on(const DiracOperator& op, const SpinorField& c) {
  return converted(c, op.vector_params(), op.exec());
}

double rel_distance(const SpinorField& a, const SpinorField& b) {
  const auto cpu = runtime::cpu_exec();
  SpinorFieldParams c = b.params();
  c.precision = Precision::double_;
  c.order = FieldOrder::site_major;
  c.space = runtime::MemSpace::host;
  c.pad = 0;
  SpinorField ac = converted(a, c, cpu), bc = converted(b, c, cpu);
  const double nb = std::sqrt(blas::norm2(bc, cpu));
  blas::axpy(-1.0, ac, bc, cpu);
  return std::sqrt(blas::norm2(bc, cpu)) / nb;
}
}  // namespace

TEST(SolverGpu, CgAndBicgstabMatchCpu) {
  GLUON_REQUIRE_GPU();
  const auto cpu = runtime::cpu_exec();
  const auto gpu = runtime::cuda_exec();
  test::TestOperatorOptions o;
  o.kappa = 0.4;
  test::TestDirac op_c(kGeom, 31, o, Precision::double_, cpu);
  test::TestDirac op_g(kGeom, 31, o, Precision::double_, gpu, FieldOrder::blocked);
  SpinorFieldParams c;
  c.geometry = kGeom;
  SpinorField src(c);
  fill_gaussian(src, 3, 0, cpu);
  SpinorField bc = on(op_c, src), bg = on(op_g, src);
  SolverParams p;
  p.tol = 1e-10;
  for (int which = 0; which < 2; ++which) {
    SCOPED_TRACE(which == 0 ? "cg" : "bicgstab");
    SpinorField xc(op_c.vector_params()), xg(op_g.vector_params());
    const SolverResult rc = which == 0 ? cg(op_c, xc, bc, p) : bicgstab(op_c, xc, bc, p);
    const SolverResult rg = which == 0 ? cg(op_g, xg, bg, p) : bicgstab(op_g, xg, bg, p);
    EXPECT_TRUE(rg.converged);
    EXPECT_LE(rg.true_residual, 1e-10);
    EXPECT_NEAR(rg.iterations, rc.iterations, 2);
    EXPECT_LT(rel_distance(xg, xc), 1e-8);
  }
}

TEST(SolverGpu, MixedPrecisionCgMatchesCpu) {
  GLUON_REQUIRE_GPU();
  const auto cpu = runtime::cpu_exec();
  const auto gpu = runtime::cuda_exec();
  test::TestOperatorOptions o;
  o.kappa = 0.4;
  test::TestOperatorOptions so = o;
  so.float_coefficients = true;
  test::TestDirac op_c(kGeom, 32, o, Precision::double_, cpu);
  test::TestDirac op_g(kGeom, 32, o, Precision::double_, gpu, FieldOrder::blocked);
  SpinorFieldParams c;
  c.geometry = kGeom;
  SpinorField src(c);
  fill_gaussian(src, 4, 0, cpu);
  for (Precision sp : {Precision::single, Precision::half}) {
    SCOPED_TRACE(to_string(sp));
    test::TestDirac sl_c(kGeom, 32, so, sp, cpu);
    test::TestDirac sl_g(kGeom, 32, so, sp, gpu, FieldOrder::blocked);
    SpinorField bc = on(op_c, src), bg = on(op_g, src);
    SpinorField xc(op_c.vector_params()), xg(op_g.vector_params());
    SolverParams p;
    p.tol = 1e-10;
    const SolverResult rc = cg(op_c, xc, bc, p, &sl_c);
    const SolverResult rg = cg(op_g, xg, bg, p, &sl_g);
    EXPECT_TRUE(rg.converged);
    EXPECT_LE(rg.true_residual, 1e-10);
    EXPECT_GE(rg.reliable_updates, 2);
    EXPECT_LT(rel_distance(xg, xc), 1e-8);
    std::vector<SpinorField> xs;
    const MultiShiftResult ms = multishift_cg(op_g, xs, bg, {0.01, 0.2}, {}, p, &sl_g);
    EXPECT_TRUE(ms.converged);
  }
}

TEST(SolverGpu, WilsonEvenOddOnTheGpuMatchesCpu) {
  GLUON_REQUIRE_GPU();
  const auto cpu = runtime::cpu_exec();
  const auto gpu = runtime::cuda_exec();
  const Geometry g({8, 8, 8, 8});
  GaugeField u = GaugeField::canonical(g);
  set_hot(u, 3, cpu);
  DiracParams dp;
  dp.kappa = 0.15;
  auto op_c = make_dirac(dp, u, cpu);
  auto op_g = make_dirac(dp, u, gpu);
  DiracParams ds = dp;
  ds.precision = Precision::half;
  ds.reconstruct = Reconstruct::r12;
  auto sl_g = make_dirac(ds, u, gpu);
  SpinorFieldParams c;
  c.geometry = g;
  SpinorField src(c);
  fill_gaussian(src, 9, 0, cpu);
  SpinorField bfc = converted(src, op_c->full_params(), cpu), bfg = converted(src, op_g->full_params(), gpu);
  SpinorField bc(op_c->vector_params()), bg(op_g->vector_params());
  op_c->prepare(bc, bfc);
  op_g->prepare(bg, bfg);
  SolverParams p;
  p.tol = 1e-10;
  SpinorField xc(op_c->vector_params()), xg(op_g->vector_params());
  ASSERT_TRUE(bicgstab(*op_c, xc, bc, p).converged);
  const SolverResult rg = bicgstab(*op_g, xg, bg, p);
  EXPECT_TRUE(rg.converged);
  EXPECT_LE(rg.true_residual, 1e-10);
  EXPECT_LT(rel_distance(xg, xc), 1e-8);
  SpinorField xm(op_g->vector_params());
  const SolverResult rm = cg(*op_g, xm, bg, p, sl_g.get());
  EXPECT_TRUE(rm.converged);
  EXPECT_GE(rm.reliable_updates, 2);
  // cg solves M^+ M x = b; compare with the same solve on the CPU.
  SpinorField xcg(op_c->vector_params());
  ASSERT_TRUE(cg(*op_c, xcg, bc, p).converged);
  EXPECT_LT(rel_distance(xm, xcg), 1e-8);
  // CGNR and CGNE double-half on the GPU. CGNR's reliable updates apply M^+ in half to b - M x;
  // CGNE reports its CG core's last check on M M^+ y, which is b - M x for the x = M^+ y it
  // returns (cg.cpp). Both solve M x = b, and the residual each reports is that of its x.
  for (auto [name, solver] : {std::pair{"cgnr", &cgnr}, std::pair{"cgne", &cgne}}) {
    SCOPED_TRACE(name);
    SpinorField xn(op_g->vector_params()), mx(op_g->vector_params());
    const SolverResult rn = solver(*op_g, xn, bg, p, sl_g.get());
    EXPECT_TRUE(rn.converged);
    EXPECT_GE(rn.reliable_updates, 2);
    EXPECT_LE(rn.true_residual, 1e-10);
    EXPECT_LT(rel_distance(xn, xc), 1e-8);
    op_g->M(mx, xn);
    const double rel = std::sqrt(blas::xmy_norm2(bg, mx, gpu) / blas::norm2(bg, gpu));
    EXPECT_NEAR(rn.true_residual, rel, 1e-3 * rel);
  }
}

// Even-odd staggered CG on the GPU, where the look-ahead is on by default (SolverParams::
// cg_lookahead -1): the next iteration's first hop queued before the host's wait gives the same
// bits as without it (the same kernels on the same data in the same order), in pure double,
// double-single (the folded hops) and double-half, and the CPU's solution.
TEST(SolverGpu, StaggeredCgLookAheadKeepsEveryBit) {
  GLUON_REQUIRE_GPU();
  const auto cpu = runtime::cpu_exec();
  const auto gpu = runtime::cuda_exec();
  const Geometry g({8, 8, 8, 8});
  GaugeField u = GaugeField::canonical(g);
  set_hot(u, 5, cpu);
  DiracParams dp;
  dp.type = DiracType::staggered;
  dp.mass = 0.1;
  dp.even_odd = true;
  auto op_c = make_dirac(dp, u, cpu);
  auto op_g = make_dirac(dp, u, gpu);
  SpinorField bfc(op_c->full_params());
  fill_gaussian(bfc, 11, 0, cpu);
  SpinorField bfg = converted(bfc, op_g->full_params(), gpu);
  SpinorField bc(op_c->vector_params()), bg(op_g->vector_params());
  op_c->prepare(bc, bfc);
  op_g->prepare(bg, bfg);
  SolverParams p;
  p.tol = 1e-10;
  SpinorField xc(op_c->vector_params());
  ASSERT_TRUE(cg(*op_c, xc, bc, p).converged);
  for (Precision sloppy : {Precision::double_, Precision::single, Precision::half}) {
    SCOPED_TRACE(to_string(sloppy));
    std::unique_ptr<DiracOperator> sl_g;
    if (sloppy != Precision::double_) {
      DiracParams ds = dp;
      ds.precision = sloppy;
      ds.reconstruct = Reconstruct::r12;
      sl_g = make_dirac(ds, u, gpu);
    }
    p.cg_lookahead = 0;
    SpinorField x0(op_g->vector_params()), x1(op_g->vector_params());
    const SolverResult r0 = cg(*op_g, x0, bg, p, sl_g.get());
    p.cg_lookahead = -1;
    const SolverResult r1 = cg(*op_g, x1, bg, p, sl_g.get());
    ASSERT_TRUE(r0.converged);
    ASSERT_TRUE(r1.converged);
    EXPECT_EQ(r0.lookaheads, 0);
    EXPECT_GT(r1.lookaheads, r1.iterations / 2);
    EXPECT_EQ(r1.iterations, r0.iterations);
    EXPECT_EQ(r1.history, r0.history);
    EXPECT_EQ(r1.true_residual, r0.true_residual);
    EXPECT_EQ(rel_distance(x1, x0), 0.0);
    EXPECT_LT(rel_distance(x1, xc), 1e-8);
  }
}
