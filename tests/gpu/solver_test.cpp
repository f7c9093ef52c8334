// Solvers with vectors in device memory and the BLAS-1 kernels on the GPU: CG, BiCGstab and mixed
// double-single / double-half CG give the CPU's solution to tolerance. The test operator
// (tests/unit/solver_test_operator.h) applies M on the host (the fields make a round trip), so
// this exercises the solver logic and the GPU BLAS, not a GPU Dirac operator.
#include <gtest/gtest.h>

#include <cmath>

#include "../unit/solver_test_operator.h"
#include "gluon/qcd/blas.h"
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
  SpinorFieldParams c;
  c.geometry = kGeom;
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
