// Krylov solvers (qcd/solvers/*.h) on the test operator of solver_test_operator.h: every solver
// reaches its tolerance with the true residual checked independently (plain double loops);
// the solvers agree with each other; multi-shift equals single-shift solves per shift; mixed
// double-single and double-half reach 1e-10 with reliable updates; breakdown, NaN and max_iter
// end quickly with the documented error; input checks. Then the same on the real Wilson, clover
// and staggered operators (even-odd, full solution checked against the unpreconditioned M).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "gluon/qcd/blas.h"
#include "gluon/qcd/dirac/dirac.h"
#include "gluon/qcd/dirac/staggered.h"
#include "gluon/qcd/gauge_start.h"
#include "gluon/qcd/field_convert.h"
#include "gluon/qcd/random_fields.h"
#include "gluon/qcd/solvers/bicgstab.h"
#include "gluon/qcd/solvers/cg.h"
#include "gluon/qcd/solvers/multishift_cg.h"
#include "gluon/qcd/solvers/solver.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/log.h"
#include "solver_test_operator.h"

using namespace gluon;
using namespace gluon::qcd;
using test::TestDirac;
using test::TestOperatorOptions;

namespace {

const Geometry kGeom({4, 4, 4, 4});
const runtime::Exec kCpu = runtime::cpu_exec();

TestOperatorOptions nonhermitian() {
  TestOperatorOptions o;
  o.kappa = 0.5;
  return o;
}

SpinorFieldParams canonical() {
  SpinorFieldParams p;
  p.geometry = kGeom;
  return p;
}

SpinorField source(const DiracOperator& op, std::uint64_t seed = 5) {
  SpinorField c(canonical());
  fill_gaussian(c, seed, 0, kCpu);
  return converted(c, op.vector_params(), kCpu);
}

double norm(const SpinorField& c) { return std::sqrt(blas::norm2(c, kCpu)); }

// |b - A x| / |b| with A = M (normal = false) or M^+ M (+ shift), in double on canonical copies.
double residual(const TestDirac& op, const SpinorField& x, const SpinorField& b, bool normal,
                double shift = 0.0) {
  SpinorField xc = converted(x, canonical(), kCpu), bc = converted(b, canonical(), kCpu);
  SpinorField t(canonical()), ax(canonical());
  op.apply_canonical(ax, xc, false);
  if (normal) {
    op.apply_canonical(t, ax, true);
    blas::copy(ax, t, kCpu);
  }
  blas::axpy(shift, xc, ax, kCpu);
  return std::sqrt(blas::xmy_norm2(bc, ax, kCpu)) / norm(bc);
}

double rel_distance(const SpinorField& a, const SpinorField& b) {
  SpinorField ac = converted(a, canonical(), kCpu), bc = converted(b, canonical(), kCpu);
  const double nb = norm(bc);
  blas::axpy(-1.0, ac, bc, kCpu);
  return norm(bc) / nb;
}

void expect_good_history(const SolverResult& r) {
  ASSERT_EQ(static_cast<int>(r.history.size()), r.iterations);
  ASSERT_GT(r.iterations, 3);
  double best = 1e300;
  for (double h : r.history) {
    EXPECT_TRUE(std::isfinite(h));
    EXPECT_LT(h, 100 * best + 1e-300) << "residual jumped far above the best so far";
    best = std::min(best, h);
  }
  EXPECT_LT(r.history.back(), 1e-3 * r.history.front());
  EXPECT_GT(r.flops, 0.0);
  EXPECT_GE(r.seconds, 0.0);
}

}  // namespace

TEST(Solver, CgOnHermitianPositiveOperatorUsesM) {
  TestOperatorOptions o;
  o.hermitian = true;
  o.kappa = 0.3;
  TestDirac op(kGeom, 11, o, Precision::double_, kCpu);
  ASSERT_TRUE(op.hermitian_positive());
  SpinorField b = source(op), x(op.vector_params());
  SolverParams p;
  p.tol = 1e-10;
  const SolverResult r = cg(op, x, b, p);
  EXPECT_TRUE(r.converged);
  EXPECT_LE(r.true_residual, 1e-10);
  EXPECT_LE(residual(op, x, b, false), 1e-10);
  EXPECT_EQ(r.solver, "cg");
  EXPECT_EQ(r.precision, "double");
  EXPECT_TRUE(r.failure.empty());
  expect_good_history(r);
}

TEST(Solver, CgOnNormalOperator) {
  TestDirac op(kGeom, 12, nonhermitian(), Precision::double_, kCpu);
  ASSERT_FALSE(op.hermitian_positive());
  SpinorField b = source(op), x(op.vector_params());
  SolverParams p;
  p.tol = 1e-10;
  const SolverResult r = cg(op, x, b, p);
  EXPECT_TRUE(r.converged);
  EXPECT_LE(r.true_residual, 1e-10);
  EXPECT_LE(residual(op, x, b, true), 1.5e-10);
  EXPECT_GT(residual(op, x, b, false), 1e-3);  // M x != b: the system solved is M^+ M x = b
  expect_good_history(r);
}

TEST(Solver, CgnrCgneBicgstabSolveMxEqualsB) {
  TestDirac op(kGeom, 13, nonhermitian(), Precision::double_, kCpu);
  SpinorField b = source(op);
  SolverParams p;
  p.tol = 1e-10;
  std::vector<SpinorField> xs;
  for (SolverType t : {SolverType::cgnr, SolverType::cgne, SolverType::bicgstab}) {
    SCOPED_TRACE(to_string(t));
    SpinorField x(op.vector_params());
    const SolverResult r = solve(t, op, x, b, p);
    EXPECT_TRUE(r.converged);
    EXPECT_EQ(r.solver, to_string(t));
    EXPECT_LE(r.true_residual, 1e-10);
    EXPECT_LE(residual(op, x, b, false), 1.5e-10);
    EXPECT_NEAR(r.true_residual, residual(op, x, b, false), 1e-12);
    expect_good_history(r);
    xs.push_back(std::move(x));
  }
  // Same solution (cond(M) is small here, so the error is of the order of the residual).
  EXPECT_LT(rel_distance(xs[0], xs[1]), 1e-8);
  EXPECT_LT(rel_distance(xs[0], xs[2]), 1e-8);
}

TEST(Solver, BlockedVectorsGiveTheSameSolution) {
  TestDirac op_s(kGeom, 14, nonhermitian(), Precision::double_, kCpu);
  TestDirac op_b(kGeom, 14, nonhermitian(), Precision::double_, kCpu, FieldOrder::blocked);
  SpinorField bs = source(op_s), bb = source(op_b);
  SpinorField xs(op_s.vector_params()), xb(op_b.vector_params());
  SolverParams p;
  p.tol = 1e-11;
  const SolverResult rs = bicgstab(op_s, xs, bs, p);
  const SolverResult rb = bicgstab(op_b, xb, bb, p);
  EXPECT_EQ(rs.iterations, rb.iterations);
  EXPECT_LT(rel_distance(xs, xb), 1e-13);
}

TEST(Solver, InitialGuessAndZeroSource) {
  TestDirac op(kGeom, 15, nonhermitian(), Precision::double_, kCpu);
  SpinorField b = source(op), x(op.vector_params());
  SolverParams p;
  p.tol = 1e-9;
  ASSERT_TRUE(bicgstab(op, x, b, p).converged);
  p.use_initial_guess = true;
  const SolverResult again = bicgstab(op, x, b, p);
  EXPECT_TRUE(again.converged);
  EXPECT_EQ(again.iterations, 0);
  // A zero guess takes r = b without applying the operator; a guess of 1e-30 b, below rounding
  // against b, takes r = b - M x. The two solve alike, and the zero start's flop count lacks
  // exactly that operator and the residual's pass (M plus 3 reals a real: 2 for the copy's norm
  // instead of 5 for M x's residual and x's norm).
  SpinorField x0(op.vector_params()), x1(op.vector_params());
  blas::zero(x0, kCpu);
  const SolverResult zero_guess = bicgstab(op, x0, b, p);
  blas::copy(x1, b, kCpu);
  blas::scale(1e-30, x1, kCpu);
  const SolverResult tiny_guess = bicgstab(op, x1, b, p);
  EXPECT_TRUE(zero_guess.converged);
  EXPECT_EQ(zero_guess.iterations, tiny_guess.iterations);
  EXPECT_LT(rel_distance(x0, x1), 1e-14);
  const SpinorFieldParams vp = op.vector_params();
  const double nr = static_cast<double>(vp.sites()) * vp.reals_per_site();
  EXPECT_DOUBLE_EQ(tiny_guess.flops - zero_guess.flops, op.flops_M() + 3 * nr);
  // b = 0: x = 0 at once.
  SpinorField z(op.vector_params());
  blas::zero(z, kCpu);
  p.use_initial_guess = false;
  for (SolverType t : {SolverType::cg, SolverType::cgnr, SolverType::cgne, SolverType::bicgstab}) {
    const SolverResult r = solve(t, op, x, z, p);
    EXPECT_TRUE(r.converged) << to_string(t);
    EXPECT_EQ(r.iterations, 0);
    EXPECT_EQ(norm(x), 0.0);
  }
}

TEST(Solver, MultiShiftMatchesSingleShiftSolves) {
  TestDirac op(kGeom, 16, nonhermitian(), Precision::double_, kCpu);
  SpinorField b = source(op);
  const std::vector<double> shifts{0.3, 0.02, 1.5, 0.1};
  const std::vector<double> tols{1e-10, 1e-10, 1e-8, 1e-9};
  std::vector<SpinorField> x;
  SolverParams p;
  const MultiShiftResult r = multishift_cg(op, x, b, shifts, tols, p);
  ASSERT_TRUE(r.converged);
  ASSERT_EQ(x.size(), shifts.size());
  EXPECT_EQ(static_cast<int>(r.total.history.size()), r.total.iterations);
  for (std::size_t i = 0; i < shifts.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_LE(r.true_residual[i], tols[i]);
    EXPECT_LE(residual(op, x[i], b, true, shifts[i]), 1.5 * tols[i]);
    SpinorField y(op.vector_params());
    SolverParams q;
    q.tol = 1e-12;
    ASSERT_TRUE(cg_shifted(op, shifts[i], y, b, q).converged);
    EXPECT_LT(rel_distance(x[i], y), 500 * tols[i]);
  }
  // Larger shifts converge earlier and then stop being updated; the smallest one runs longest.
  EXPECT_LT(r.shift_iterations[2], r.shift_iterations[1]);
  EXPECT_LT(r.shift_iterations[0], r.shift_iterations[1]);
  EXPECT_EQ(r.shift_iterations[1], *std::max_element(r.shift_iterations.begin(), r.shift_iterations.end()));
}

// Multi-shift CG's windowed shift updates (SolverParams::multishift_window) record the non-base
// shifts' updates as coefficients and apply them a window at a time. The base shift's recurrence
// is not touched: in double the residual history and every shift's iteration count are the same
// to the last bit for every window, and the solutions differ by rounding, also when the iteration
// limit stops the solve with a window part-recorded. Mixed precision: every shift still meets
// its tolerance.
TEST(Solver, MultiShiftWindowKeepsTheIterationAndTheSolutions) {
  TestDirac op(kGeom, 16, nonhermitian(), Precision::double_, kCpu);
  SpinorField b = source(op);
  const std::vector<double> shifts{0.3, 0.02, 1.5, 0.1, 0.7};
  SolverParams p;
  p.tol = 1e-10;
  p.multishift_window = 1;
  std::vector<SpinorField> x1;
  const MultiShiftResult r1 = multishift_cg(op, x1, b, shifts, {}, p);
  ASSERT_TRUE(r1.converged);
  for (int w : {2, 3, blas::kMaxShiftWindow}) {
    SCOPED_TRACE(w);
    p.multishift_window = w;
    std::vector<SpinorField> x;
    const MultiShiftResult r = multishift_cg(op, x, b, shifts, {}, p);
    EXPECT_TRUE(r.converged);
    EXPECT_EQ(r.total.history, r1.total.history);
    EXPECT_EQ(r.shift_iterations, r1.shift_iterations);
    for (std::size_t i = 0; i < shifts.size(); ++i) {
      EXPECT_LT(rel_distance(x[i], x1[i]), 1e-12) << i;
      EXPECT_LE(r.true_residual[i], 1e-10) << i;
    }
  }
  // Stopped by max_iter (7 iterations: a window of 3 part-recorded, one of 8 never full).
  p.max_iter = 7;
  p.throw_on_failure = false;
  p.multishift_window = 1;
  const MultiShiftResult s1 = multishift_cg(op, x1, b, shifts, {}, p);
  ASSERT_FALSE(s1.converged);
  for (int w : {3, 8}) {
    p.multishift_window = w;
    std::vector<SpinorField> x;
    const MultiShiftResult s = multishift_cg(op, x, b, shifts, {}, p);
    EXPECT_FALSE(s.converged);
    for (std::size_t i = 0; i < shifts.size(); ++i) EXPECT_LT(rel_distance(x[i], x1[i]), 1e-13) << w << " " << i;
  }
  for (Precision sp : {Precision::single, Precision::half}) {
    SCOPED_TRACE(to_string(sp));
    TestOperatorOptions so = nonhermitian();
    so.float_coefficients = true;
    TestDirac sloppy(kGeom, 16, so, sp, kCpu);
    SolverParams q;
    q.tol = 1e-10;
    std::vector<SpinorField> x;
    const MultiShiftResult r = multishift_cg(op, x, b, shifts, {}, q, &sloppy);
    ASSERT_TRUE(r.converged);
    for (std::size_t i = 0; i < shifts.size(); ++i) {
      EXPECT_LE(r.true_residual[i], 1e-10) << i;
      EXPECT_LE(residual(op, x[i], b, true, shifts[i]), 1.5e-10) << i;
    }
  }
}

// The batched solution update (SolverParams::x_update_batch) defers x += alpha p but leaves the
// residual and direction recurrences alone: in double the residual history is the same to the
// last bit for every batch, and so is the iteration count; the solutions differ by rounding. The
// solution handed back also holds the steps still waiting when the iteration limit ends the solve.
TEST(Solver, BatchedSolutionUpdateKeepsTheIterationAndTheSolution) {
  TestDirac op(kGeom, 12, nonhermitian(), Precision::double_, kCpu);
  SpinorField b = source(op);
  for (SolverType t : {SolverType::cg, SolverType::cgnr, SolverType::cgne}) {
    SCOPED_TRACE(to_string(t));
    SolverParams p;
    p.tol = 1e-10;
    p.x_update_batch = 1;
    SpinorField x1(op.vector_params());
    const SolverResult r1 = solve(t, op, x1, b, p);
    ASSERT_TRUE(r1.converged);
    for (int batch : {2, 3, 4, blas::kMaxAxpyTerms}) {
      SCOPED_TRACE(batch);
      p.x_update_batch = batch;
      SpinorField x(op.vector_params());
      const SolverResult r = solve(t, op, x, b, p);
      EXPECT_TRUE(r.converged);
      // CGNR's outer pass restarts CG from x when M's residual is not yet met: from then on the
      // histories differ by x's rounding. Up to the first restart they are the same bits.
      if (r1.restarts == 0) {
        EXPECT_EQ(r.iterations, r1.iterations);
        EXPECT_EQ(r.history, r1.history);
      } else {
        EXPECT_NEAR(r.iterations, r1.iterations, 2);
        std::size_t same = 0;
        while (same < std::min(r.history.size(), r1.history.size()) && r.history[same] == r1.history[same]) ++same;
        EXPECT_GT(same, r1.history.size() / 2) << r1.restarts << " restarts";
      }
      EXPECT_LT(rel_distance(x, x1), 1e-12);
      EXPECT_LE(residual(op, x, b, t == SolverType::cg), 1.5e-10);
    }
  }
  // Stopped by max_iter with steps still pending (5 iterations, batch 4 and 8): the same x as
  // the unbatched solve.
  SolverParams p;
  p.tol = 1e-12;
  p.max_iter = 5;
  p.throw_on_failure = false;
  p.x_update_batch = 1;
  SpinorField x1(op.vector_params());
  const SolverResult r1 = cg(op, x1, b, p);
  ASSERT_FALSE(r1.converged);
  for (int batch : {4, 8}) {
    p.x_update_batch = batch;
    SpinorField x(op.vector_params());
    const SolverResult r = cg(op, x, b, p);
    EXPECT_EQ(r.iterations, 5);
    EXPECT_LT(rel_distance(x, x1), 1e-13) << batch;
    EXPECT_NEAR(r.true_residual, r1.true_residual, 1e-12 * r1.true_residual) << batch;
  }
}

// Mixed precision: the sloppy operator stores its coefficients in float and its vectors in
// single or half precision; the outer solve is double.
class MixedSolver : public ::testing::TestWithParam<Precision> {};

TEST_P(MixedSolver, CgReachesDoubleAccuracyWithReliableUpdates) {
  TestDirac op(kGeom, 17, nonhermitian(), Precision::double_, kCpu);
  TestOperatorOptions so = nonhermitian();
  so.float_coefficients = true;
  TestDirac sloppy(kGeom, 17, so, GetParam(), kCpu);
  SpinorField b = source(op);
  SolverParams p;
  p.tol = 1e-10;
  for (SolverType t : {SolverType::cg, SolverType::cgnr, SolverType::cgne, SolverType::bicgstab}) {
    SCOPED_TRACE(to_string(t));
    SpinorField x(op.vector_params());
    const SolverResult r = solve(t, op, x, b, p, &sloppy);
    EXPECT_TRUE(r.converged);
    EXPECT_EQ(r.precision, "double-" + to_string(GetParam()));
    EXPECT_LE(r.true_residual, 1e-10);
    EXPECT_LE(residual(op, x, b, t == SolverType::cg), 1.5e-10);
    EXPECT_GE(r.reliable_updates, 2);  // during the iteration, not only the final check
    EXPECT_EQ(r.reliable_delta, GetParam() != Precision::half ? (t == SolverType::bicgstab ? 0.001 : 0.0001)
                                : t == SolverType::bicgstab ? 0.02 : 0.1);
    expect_good_history(r);
  }
}

// The default threshold follows the sloppy precision and, in half, the solver; an explicit delta
// overrides it and is the one the solve reports and uses (a looser delta: fewer reliable updates on
// the same solve).
TEST_P(MixedSolver, ReliableDeltaDefaultsBySloppyPrecisionAndCanBeSet) {
  SolverParams p;
  const bool half = GetParam() == Precision::half;
  for (SolverType t : {SolverType::cg, SolverType::cgnr, SolverType::cgne})
    EXPECT_EQ(reliable_delta(p, GetParam(), t), half ? 0.1 : 0.0001) << to_string(t);
  EXPECT_EQ(reliable_delta(p, GetParam(), SolverType::bicgstab), half ? 0.02 : 0.001);
  EXPECT_EQ(reliable_delta(p, Precision::double_, SolverType::bicgstab), 0.001);
  TestDirac op(kGeom, 17, nonhermitian(), Precision::double_, kCpu);
  TestOperatorOptions so = nonhermitian();
  so.float_coefficients = true;
  TestDirac sloppy(kGeom, 17, so, GetParam(), kCpu);
  SpinorField b = source(op);
  p.tol = 1e-10;
  int updates[2] = {0, 0};
  const double deltas[2] = {0.3, 1e-3};
  for (int k = 0; k < 2; ++k) {
    p.delta = deltas[k];
    EXPECT_EQ(reliable_delta(p, GetParam(), SolverType::bicgstab), deltas[k]);
    SpinorField x(op.vector_params());
    const SolverResult r = cg(op, x, b, p, &sloppy);
    EXPECT_TRUE(r.converged);
    EXPECT_EQ(r.reliable_delta, deltas[k]);
    updates[k] = r.reliable_updates;
  }
  EXPECT_GT(updates[0], updates[1] + 2) << "delta 0.3: " << updates[0] << ", delta 1e-3: " << updates[1];
}

TEST_P(MixedSolver, MultiShiftRefinesEveryShift) {
  TestDirac op(kGeom, 18, nonhermitian(), Precision::double_, kCpu);
  TestOperatorOptions so = nonhermitian();
  so.float_coefficients = true;
  TestDirac sloppy(kGeom, 18, so, GetParam(), kCpu);
  SpinorField b = source(op);
  const std::vector<double> shifts{0.05, 0.5};
  std::vector<SpinorField> x;
  SolverParams p;
  p.tol = 1e-10;
  const MultiShiftResult r = multishift_cg(op, x, b, shifts, {}, p, &sloppy);
  ASSERT_TRUE(r.converged);
  for (std::size_t i = 0; i < shifts.size(); ++i) {
    EXPECT_LE(r.true_residual[i], 1e-10);
    EXPECT_LE(residual(op, x[i], b, true, shifts[i]), 1.5e-10);
  }
  // Reliable updates of the base shift during the sloppy iteration keep its true residual in
  // step, so it needs (almost) no refinement: without them it needed 32 (single) and 58 (half)
  // refinement iterations after 93 multi-shift ones; with them, 0.
  EXPECT_GT(r.total.reliable_updates, static_cast<int>(shifts.size()) + 1);
  EXPECT_LE(r.refine_iterations[0], r.shift_iterations[0] / 10)
      << "refinement " << r.refine_iterations[0] << ", multi-shift " << r.shift_iterations[0];
}

INSTANTIATE_TEST_SUITE_P(Sloppy, MixedSolver, ::testing::Values(Precision::single, Precision::half),
                         [](const auto& info) { return to_string(info.param); });

TEST(SolverFailure, BreakdownIsANumericalErrorAtOnce) {
  TestOperatorOptions o;
  o.zero = true;
  o.hermitian = true;
  TestDirac op(kGeom, 19, o, Precision::double_, kCpu);
  SpinorField b = source(op), x(op.vector_params());
  SolverParams p;
  for (SolverType t : {SolverType::cg, SolverType::bicgstab}) {
    SCOPED_TRACE(to_string(t));
    try {
      solve(t, op, x, b, p);
      FAIL() << "no error";
    } catch (const NumericalError& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("breakdown"), std::string::npos) << m;
      EXPECT_NE(m.find(to_string(t)), std::string::npos) << m;
      EXPECT_NE(m.find("iteration 0"), std::string::npos) << m;
    }
  }
  std::vector<SpinorField> xs;
  EXPECT_THROW(multishift_cg(op, xs, b, {0.0, 1.0}, {}, p), NumericalError);
}

TEST(SolverFailure, NanIsDetected) {
  TestOperatorOptions o = nonhermitian();
  o.nan_after = 12;
  for (SolverType t : {SolverType::cg, SolverType::cgnr, SolverType::cgne, SolverType::bicgstab}) {
    SCOPED_TRACE(to_string(t));
    TestDirac op(kGeom, 20, o, Precision::double_, kCpu);
    SpinorField b = source(op), x(op.vector_params());
    SolverParams p;
    p.tol = 1e-14;
    try {
      solve(t, op, x, b, p);
      FAIL() << "no error";
    } catch (const NumericalError& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("NaN"), std::string::npos) << m;
      EXPECT_NE(m.find("history"), std::string::npos) << m;
    }
    EXPECT_LE(op.applications(), 16);  // stopped at once
  }
}

TEST(SolverFailure, MaxIterThrowsOrReturnsAsAsked) {
  TestDirac op(kGeom, 21, nonhermitian(), Precision::double_, kCpu);
  SpinorField b = source(op), x(op.vector_params());
  SolverParams p;
  p.tol = 1e-12;
  p.max_iter = 3;
  for (SolverType t : {SolverType::cg, SolverType::cgnr, SolverType::cgne, SolverType::bicgstab}) {
    SCOPED_TRACE(to_string(t));
    try {
      solve(t, op, x, b, p);
      FAIL() << "no error";
    } catch (const NumericalError& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("max_iter = 3"), std::string::npos) << m;
      EXPECT_NE(m.find("last 3 of 3"), std::string::npos) << m;
    }
  }
  p.throw_on_failure = false;
  const SolverResult r = cg(op, x, b, p);
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(r.iterations, 3);
  EXPECT_EQ(r.history.size(), 3u);
  EXPECT_NE(r.failure.find("max_iter"), std::string::npos);
  EXPECT_GT(r.true_residual, p.tol);
  EXPECT_LT(r.true_residual, 1.0);  // x holds the last iterate
  EXPECT_NEAR(r.true_residual, residual(op, x, b, true), 1e-12);
  std::vector<SpinorField> xs;
  const MultiShiftResult ms = multishift_cg(op, xs, b, {0.0, 0.1}, {}, p);
  EXPECT_FALSE(ms.converged);
  EXPECT_FALSE(ms.total.failure.empty());
}

TEST(SolverFailure, MixedMaxIterAlsoEndsQuickly) {
  // "Quickly" is counted in iterations, not seconds (no timed tests): the solve stops at the
  // limit, reliable updates and restarts included, and says why.
  TestDirac op(kGeom, 22, nonhermitian(), Precision::double_, kCpu);
  TestDirac sloppy(kGeom, 22, nonhermitian(), Precision::half, kCpu);
  SpinorField b = source(op), x(op.vector_params());
  SolverParams p;
  p.tol = 1e-16;  // beyond double precision: never met
  p.max_iter = 60;
  EXPECT_THROW(cg(op, x, b, p, &sloppy), NumericalError);
  EXPECT_THROW(bicgstab(op, x, b, p, &sloppy), NumericalError);
  p.throw_on_failure = false;
  for (SolverType t : {SolverType::cg, SolverType::bicgstab}) {
    const SolverResult r = solve(t, op, x, b, p, &sloppy);
    EXPECT_FALSE(r.converged) << to_string(t);
    EXPECT_LE(r.iterations, p.max_iter) << to_string(t);
    EXPECT_FALSE(r.failure.empty()) << to_string(t);
  }
}

TEST(SolverFailure, StagnationIsDetectedLongBeforeMaxIter) {
  // A sloppy operator that is not the precise one (other random links): the true residual never
  // improves, and the solve stops after max_stagnant_updates checks, not after max_iter.
  TestDirac op(kGeom, 25, nonhermitian(), Precision::double_, kCpu);
  TestDirac wrong(kGeom, 26, nonhermitian(), Precision::single, kCpu);
  SpinorField b = source(op), x(op.vector_params());
  SolverParams p;
  p.max_iter = 20000;
  p.max_stagnant_updates = 3;
  p.throw_on_failure = false;
  for (SolverType t : {SolverType::cg, SolverType::bicgstab}) {
    SCOPED_TRACE(to_string(t));
    const SolverResult r = solve(t, op, x, b, p, &wrong);
    EXPECT_FALSE(r.converged);
    EXPECT_NE(r.failure.find("stagnation"), std::string::npos) << r.failure;
    EXPECT_LT(r.iterations, 2000);
  }
  // Double alone with an unreachable tolerance stops the same way.
  p.tol = 1e-18;
  for (SolverType t : {SolverType::cg, SolverType::bicgstab}) {
    SCOPED_TRACE(to_string(t));
    const SolverResult r = solve(t, op, x, b, p);
    EXPECT_FALSE(r.converged);
    EXPECT_NE(r.failure.find("stagnation"), std::string::npos) << r.failure;
    EXPECT_LT(r.iterations, 5000);
  }
}

TEST(SolverInput, BadArgumentsAreInputErrors) {
  TestDirac op(kGeom, 23, nonhermitian(), Precision::double_, kCpu);
  SpinorField b = source(op), x(op.vector_params());
  SpinorFieldParams sp = op.vector_params();
  sp.precision = Precision::single;
  SpinorField xs(sp);
  SolverParams p;
  EXPECT_THROW(cg(op, xs, b, p), InputError);
  EXPECT_THROW(bicgstab(op, x, xs, p), InputError);
  EXPECT_THROW(cg(op, b, b, p), InputError);
  p.tol = 0;
  EXPECT_THROW(cg(op, x, b, p), InputError);
  p.tol = 1e-8;
  p.delta = 1.5;
  EXPECT_THROW(cgnr(op, x, b, p), InputError);
  p.delta = -0.1;
  EXPECT_THROW(cg(op, x, b, p), InputError);
  p.delta = 0.1;
  // call() must throw an InputError whose message holds `what`.
  auto expect_refused = [](const auto& call, const std::string& what) {
    try {
      call();
      ADD_FAILURE() << "no error for " << what;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  for (int bad : {0, blas::kMaxAxpyTerms + 1}) {
    p.x_update_batch = bad;
    expect_refused([&] { cg(op, x, b, p); }, "x_update_batch: expected 1 to 8, found " + std::to_string(bad));
  }
  p.x_update_batch = 4;
  std::vector<SpinorField> xv;
  for (int bad : {0, blas::kMaxShiftWindow + 1}) {
    p.multishift_window = bad;
    expect_refused([&] { multishift_cg(op, xv, b, {0.1, 0.2}, {}, p); },
                   "multishift_window: expected 1 to 8, found " + std::to_string(bad));
  }
  p.multishift_window = 8;
  for (int bad : {-2, 2}) {
    p.cg_lookahead = bad;
    expect_refused([&] { cg(op, x, b, p); },
                   "cg_lookahead: expected -1 (on a GPU), 0 or 1, found " + std::to_string(bad));
  }
  p.cg_lookahead = -1;
  EXPECT_THROW(multishift_cg(op, xv, b, {}, {}, p), InputError);
  EXPECT_THROW(multishift_cg(op, xv, b, {0.1, 0.2}, {1e-8}, p), InputError);
  TestDirac other(Geometry({4, 4, 4, 6}), 1, nonhermitian(), Precision::single, kCpu);
  EXPECT_THROW(cg(op, x, b, p, &other), InputError);
  EXPECT_EQ(parse_solver_type("bicgstab"), SolverType::bicgstab);
  EXPECT_EQ(parse_solver_type("cgne"), SolverType::cgne);
  EXPECT_THROW(parse_solver_type("gmres"), InputError);
}

TEST(SolverLog, VerboseWritesProgressLines) {
  TestDirac op(kGeom, 24, nonhermitian(), Precision::double_, kCpu);
  SpinorField b = source(op), x(op.vector_params());
  SolverParams p;
  p.verbose = true;
  p.log_every = 5;
  std::ostringstream out;
  runtime::log::set_sink(&out);
  const SolverResult r = bicgstab(op, x, b, p);
  runtime::log::set_sink(nullptr);
  const std::string s = out.str();
  EXPECT_NE(s.find("bicgstab (double): iteration 5, relative residual"), std::string::npos) << s;
  EXPECT_NE(s.find("converged in " + std::to_string(r.iterations) + " iterations"), std::string::npos) << s;
  EXPECT_NE(s.find("GFLOP/s"), std::string::npos) << s;
}

// ---- The solvers on the real operators (make_dirac): even-odd systems solved, the full solution
// reconstructed and checked against the unpreconditioned operator.

namespace {

struct RealCase {
  DiracType type;
  double kappa_or_mass;
};

struct RealSetup {
  std::unique_ptr<DiracOperator> op, sloppy, full;
  SpinorField b_full, b_pc;
};

RealSetup real_setup(DiracType type, double km, Precision sloppy_precision, const GaugeField& u) {
  DiracParams dp;
  dp.type = type;
  dp.kappa = km;
  dp.mass = km;
  dp.csw = 1.0;
  RealSetup s;
  s.op = make_dirac(dp, u, kCpu);
  DiracParams ds = dp;
  ds.precision = sloppy_precision;
  ds.reconstruct = Reconstruct::r12;
  s.sloppy = make_dirac(ds, u, kCpu);
  DiracParams df = dp;
  df.even_odd = false;
  s.full = make_dirac(df, u, kCpu);
  SpinorFieldParams c = s.op->full_params();
  c.precision = Precision::double_;
  c.order = FieldOrder::site_major;
  SpinorField bc(c);
  fill_gaussian(bc, 8, 0, kCpu);
  s.b_full = converted(bc, s.op->full_params(), kCpu);
  s.b_pc = SpinorField(s.op->vector_params());
  s.op->prepare(s.b_pc, s.b_full);
  return s;
}

// |b - M x| / |b| of the full (unpreconditioned) system for the reconstructed solution.
double full_residual(const RealSetup& s, const SpinorField& x_pc) {
  SpinorField xf(s.op->full_params()), t(s.full->full_params());
  s.op->reconstruct(xf, x_pc, s.b_full);
  s.full->M(t, xf);
  return std::sqrt(blas::xmy_norm2(s.b_full, t, kCpu) / blas::norm2(s.b_full, kCpu));
}

}  // namespace

TEST(SolverOnDirac, WilsonAndCloverEvenOddPureAndMixed) {
  const Geometry g({4, 4, 4, 4});
  GaugeField u = GaugeField::canonical(g);
  set_hot(u, 3, kCpu);
  for (DiracType type : {DiracType::wilson, DiracType::clover}) {
    for (Precision sp : {Precision::single, Precision::half}) {
      SCOPED_TRACE(to_string(type) + " sloppy " + to_string(sp));
      RealSetup s = real_setup(type, 0.15, sp, u);
      ASSERT_FALSE(s.op->hermitian_positive());
      SolverParams p;
      p.tol = 1e-10;
      for (SolverType t : {SolverType::cgnr, SolverType::cgne, SolverType::bicgstab}) {
        for (const DiracOperator* sl : std::vector<const DiracOperator*>{nullptr, s.sloppy.get()}) {
          SCOPED_TRACE(to_string(t) + (sl ? " mixed" : " pure"));
          SpinorField x(s.op->vector_params());
          const SolverResult r = solve(t, *s.op, x, s.b_pc, p, sl);
          EXPECT_TRUE(r.converged);
          EXPECT_LE(r.true_residual, 1e-10);
          EXPECT_LT(full_residual(s, x), 3e-10);
          // The reported residual is |b - M x| / |b| of the returned x (CGNR takes it from its
          // last reliable update, cg.cpp), not a stale or a normal-equation one.
          SpinorField mx(s.op->vector_params());
          s.op->M(mx, x);
          const double rel = std::sqrt(blas::xmy_norm2(s.b_pc, mx, kCpu) / blas::norm2(s.b_pc, kCpu));
          EXPECT_NEAR(r.true_residual, rel, 1e-3 * rel);
          if (sl) EXPECT_GE(r.reliable_updates, 2);
          expect_good_history(r);
        }
      }
    }
  }
}

// Multi-shift CG on the even-odd Wilson and clover normal operators, M^+ M + sigma, with positive
// shifts (RHMC's): every CG step, the loop's and the refinements', is shifted, and on this 4^4
// lattice (the scalar kernel) in double and single it runs in the operator's folded kernels
// (sigma |p|^2 in the sum, sigma p in the update; ctest runs this again with GLUON_SHIFT_FOLD=0,
// the default sequence). Each solution is checked against M^+ M x + sigma x formed apart.
TEST(SolverOnDirac, WilsonFamilyMultiShiftWithPositiveShifts) {
  const Geometry g({4, 4, 4, 4});
  GaugeField u = GaugeField::canonical(g);
  set_hot(u, 6, kCpu);
  const std::vector<double> shifts{0.02, 0.15, 1.2};
  const std::vector<double> tols{1e-10, 1e-10, 1e-9};
  for (DiracType type : {DiracType::wilson, DiracType::clover}) {
    RealSetup s = real_setup(type, 0.12, Precision::single, u);
    for (const DiracOperator* sl : std::vector<const DiracOperator*>{nullptr, s.sloppy.get()})
    for (int together : {-1, 1}) {  // the CPU's default (one by one), and the refinements together on M^+ M
      SCOPED_TRACE(to_string(type) + (sl ? " double-single" : " double") + (together == 1 ? " together" : ""));
      SolverParams p;
      p.multishift_together = together;
      std::vector<SpinorField> xs;
      const MultiShiftResult ms = multishift_cg(*s.op, xs, s.b_pc, shifts, tols, p, sl);
      ASSERT_TRUE(ms.converged) << ms.total.failure;
      EXPECT_EQ(ms.refined_together, together == 1);
      if (sl) EXPECT_GT(ms.refine_iterations[1] + ms.refine_iterations[2], 0) << "refinements ran";
      for (std::size_t i = 0; i < shifts.size(); ++i) {
        SCOPED_TRACE(i);
        EXPECT_LE(ms.true_residual[i], tols[i]);
        SpinorField t(s.op->vector_params());
        s.op->MdagM(t, xs[i]);
        blas::axpy(shifts[i], xs[i], t, kCpu);
        EXPECT_LE(std::sqrt(blas::xmy_norm2(s.b_pc, t, kCpu) / blas::norm2(s.b_pc, kCpu)), 1.5 * tols[i]);
      }
    }
  }
}

// CG's look-ahead (SolverParams::cg_lookahead) queues the next iteration's first kernel before
// the host reads this one's scalars: the same kernels on the same data in the same order, so the
// same bits, in pure double, double-single (the folded hops) and double-half, for CG, a shifted CG
// and multi-shift CG's refinements; and it did look ahead (the test is not vacuous).
TEST(SolverOnDirac, StaggeredCgLookAheadKeepsEveryBit) {
  const Geometry g({4, 4, 4, 8});
  GaugeField u = GaugeField::canonical(g);
  set_hot(u, 4, kCpu);
  for (Precision sloppy : {Precision::single, Precision::half}) {
    RealSetup s = real_setup(DiracType::staggered, 0.2, sloppy, u);
    // Site-major fields: the scalar kernel, whose CG step in double and single is the two folded
    // hops (half: M_dot and blas::cg_residual), so both splits are covered.
    ASSERT_FALSE(dynamic_cast<const StaggeredDirac&>(*s.sloppy).vectorised());
    for (const DiracOperator* sl : std::vector<const DiracOperator*>{nullptr, s.sloppy.get()}) {
      if (!sl && sloppy == Precision::half) continue;  // (pure double once)
      SCOPED_TRACE(sl ? "mixed, sloppy " + to_string(sloppy) : "double");
      for (double shift : {0.0, 0.05}) {
        SCOPED_TRACE(shift);
        SolverParams p;
        p.tol = 1e-10;
        p.cg_lookahead = 0;
        SpinorField x0(s.op->vector_params()), x1(s.op->vector_params());
        const SolverResult r0 = cg_shifted(*s.op, shift, x0, s.b_pc, p, sl);
        p.cg_lookahead = 1;
        const SolverResult r1 = cg_shifted(*s.op, shift, x1, s.b_pc, p, sl);
        ASSERT_TRUE(r0.converged);
        ASSERT_TRUE(r1.converged);
        EXPECT_EQ(r0.lookaheads, 0);
        EXPECT_GT(r1.lookaheads, r1.iterations / 2);
        EXPECT_LT(r1.lookaheads_void, r1.lookaheads / 4);
        EXPECT_EQ(r1.iterations, r0.iterations);
        EXPECT_EQ(r1.reliable_updates, r0.reliable_updates);
        EXPECT_EQ(r1.history, r0.history);
        EXPECT_EQ(r1.true_residual, r0.true_residual);
        EXPECT_EQ(rel_distance(x1, x0), 0.0);
      }
    }
    // Multi-shift CG: its refinements are shifted CG solves.
    const std::vector<double> shifts{0.001, 0.02, 0.5};
    std::vector<SpinorField> xs0, xs1;
    SolverParams p;
    p.tol = 1e-10;
    p.cg_lookahead = 0;
    const MultiShiftResult m0 = multishift_cg(*s.op, xs0, s.b_pc, shifts, {}, p, s.sloppy.get());
    p.cg_lookahead = 1;
    const MultiShiftResult m1 = multishift_cg(*s.op, xs1, s.b_pc, shifts, {}, p, s.sloppy.get());
    ASSERT_TRUE(m0.converged);
    EXPECT_GT(m1.total.lookaheads, 0);
    EXPECT_EQ(m1.refine_iterations, m0.refine_iterations);
    EXPECT_EQ(m1.true_residual, m0.true_residual);
    for (std::size_t i = 0; i < shifts.size(); ++i) EXPECT_EQ(rel_distance(xs1[i], xs0[i]), 0.0) << i;
  }
}

TEST(SolverOnDirac, StaggeredEvenOddCgOnMAndMultiShift) {
  const Geometry g({4, 4, 4, 8});
  GaugeField u = GaugeField::canonical(g);
  set_hot(u, 4, kCpu);
  RealSetup s = real_setup(DiracType::staggered, 0.2, Precision::half, u);
  ASSERT_TRUE(s.op->hermitian_positive());
  SolverParams p;
  p.tol = 1e-10;
  for (const DiracOperator* sl : std::vector<const DiracOperator*>{nullptr, s.sloppy.get()}) {
    SCOPED_TRACE(sl ? "mixed double-half" : "double");
    SpinorField x(s.op->vector_params());
    const SolverResult r = cg(*s.op, x, s.b_pc, p, sl);
    EXPECT_TRUE(r.converged);
    EXPECT_LE(r.true_residual, 1e-10);
    EXPECT_LT(full_residual(s, x), 1e-8);  // the odd sites divide by the mass
    expect_good_history(r);
  }
  // RHMC-style multi-shift on M_ee = m^2 - D_eo D_oe, mixed double-single.
  RealSetup s1 = real_setup(DiracType::staggered, 0.2, Precision::single, u);
  const std::vector<double> shifts{0.001, 0.02, 0.5};
  const std::vector<double> tols{1e-10, 1e-9, 1e-9};
  std::vector<SpinorField> xs;
  const MultiShiftResult ms = multishift_cg(*s1.op, xs, s1.b_pc, shifts, tols, p, s1.sloppy.get());
  ASSERT_TRUE(ms.converged);
  for (std::size_t i = 0; i < shifts.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_LE(ms.true_residual[i], tols[i]);
    SpinorField y(s1.op->vector_params()), t(s1.op->vector_params());
    s1.op->M(t, xs[i]);
    blas::axpy(shifts[i], xs[i], t, kCpu);
    EXPECT_LE(std::sqrt(blas::xmy_norm2(s1.b_pc, t, kCpu) / blas::norm2(s1.b_pc, kCpu)), 1.5 * tols[i]);
  }
}

// Multi-shift CG's refinements together (SolverParams::multishift_together = 1; on a GPU the
// default): the non-base shifts, left at the sloppy recurrence's accuracy, are refined by one CG
// each whose operator steps run in one normal_shifted_multi call an iteration. On site_major
// vectors (the scalar kernel, as on the GPU) that is the multi-vector kernel; on the default (the
// CPU vector kernel's tiled vectors) the one-by-one default. Both give every shift its tolerance
// (checked here against the operator itself) with the refinement iterations of the one-by-one
// refinements within rounding; a shift whose refinement cannot converge in max_iter fails the solve.
TEST(SolverOnDirac, StaggeredMultiShiftRefinesTogether) {
  const Geometry g({4, 4, 4, 8});
  GaugeField u = GaugeField::canonical(g);
  set_hot(u, 5, kCpu);
  const std::vector<double> shifts{0.001, 0.004, 0.02, 0.08, 0.5, 2.0};
  const std::vector<double> tols{1e-10, 1e-10, 1e-10, 1e-9, 1e-10, 1e-10};
  for (Precision sp : {Precision::single, Precision::half})
    for (bool plain : {true, false}) {
      SCOPED_TRACE(to_string(sp) + (plain ? " site_major" : " default order"));
      DiracParams dp;
      dp.type = DiracType::staggered;
      dp.mass = 0.1;
      DiracParams ds = dp;
      ds.precision = sp;
      ds.reconstruct = Reconstruct::r12;
      const StaggeredDirac op = plain ? StaggeredDirac(dp, u, kCpu, FieldOrder::site_major) : StaggeredDirac(dp, u, kCpu);
      const StaggeredDirac sloppy = plain ? StaggeredDirac(ds, u, kCpu, FieldOrder::site_major) : StaggeredDirac(ds, u, kCpu);
      SpinorField b(op.vector_params());
      {
        SpinorFieldParams c = op.vector_params();
        c.order = FieldOrder::site_major;
        SpinorField bc(c);
        fill_gaussian(bc, 9, 0, kCpu);
        b = converted(bc, op.vector_params(), kCpu);
      }
      SolverParams p;
      p.tol = 1e-10;
      MultiShiftResult r[2];
      std::vector<SpinorField> xs[2];
      for (int t : {0, 1}) {
        p.multishift_together = t;
        r[t] = multishift_cg(op, xs[t], b, shifts, tols, p, &sloppy);
        ASSERT_TRUE(r[t].converged) << r[t].total.failure;
      }
      int refined = 0;
      for (std::size_t i = 0; i < shifts.size(); ++i) {
        SCOPED_TRACE("shift " + std::to_string(i));
        EXPECT_LE(r[1].true_residual[i], tols[i]);
        SpinorField t(op.vector_params());
        op.M(t, xs[1][i]);
        blas::axpy(shifts[i], xs[1][i], t, kCpu);
        EXPECT_LE(std::sqrt(blas::xmy_norm2(b, t, kCpu) / blas::norm2(b, kCpu)), 1.5 * tols[i]);
        const int a = r[0].refine_iterations[i], c = r[1].refine_iterations[i];
        EXPECT_LE(std::abs(a - c), 2 + a / 20) << "one by one " << a << ", together " << c;
        refined += c > 0 ? 1 : 0;
      }
      EXPECT_GE(refined, 2) << "the case refines at least two shifts together";
      if (plain) EXPECT_EQ(op.vector_launches() + sloppy.vector_launches(), 0);
      // Too few iterations left for the refinements: a clear failure, not a hang.
      p.multishift_together = 1;
      p.max_iter = r[1].total.iterations - 3;
      p.throw_on_failure = false;
      std::vector<SpinorField> xf;
      const MultiShiftResult f = multishift_cg(op, xf, b, shifts, tols, p, &sloppy);
      EXPECT_FALSE(f.converged);
      EXPECT_NE(f.total.failure.find("shift"), std::string::npos) << f.total.failure;
    }
}
