// Solver reductions folded into the Wilson-family operators' last kernels, against the default
// sequences (M, then the BLAS kernels), for Wilson and both clover preconditionings in every
// precision:
// - BiCGstab's (DiracOperator::M_r0v, M_ts): the output is M's, bit for bit, and the slots hold
//   what M followed by blas::bicgstab_r0v / bicgstab_ts writes;
// - CG's on the normal equations (DiracOperator::normal_cg_residual, CGNR and CGNE): the
//   intermediate B p, p^dagger A p = |B p|^2, the updated residual and |r|^2.
// On the 4^4 lattice the CPU runs the scalar kernel, which folds in double and single
// (WilsonFamily::folds; nowhere under GLUON_WILSON_FOLD=0); on 16x4x4x4 (where the CPU vector
// kernel takes the lattice, if this CPU has it), in half and for full (unpreconditioned)
// operators the default path runs.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "gluon/qcd/blas.h"
#include "gluon/qcd/dirac/dirac.h"
#include "gluon/qcd/random_fields.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/scalar_slots.h"
#include "dirac_test_helpers.h"
#include "wilson_fold_rule.h"

using namespace gluon;
using namespace gluon::qcd;
using namespace gluon::test::dirac;

namespace {

struct Case {
  DiracType type;
  bool eo;
  CloverPreconditioning pc;
  const char* name;
};
const Case kCases[] = {{DiracType::wilson, true, CloverPreconditioning::asymmetric, "wilson eo"},
                       {DiracType::clover, true, CloverPreconditioning::asymmetric, "clover asymmetric"},
                       {DiracType::clover, true, CloverPreconditioning::symmetric, "clover symmetric"},
                       {DiracType::wilson, false, CloverPreconditioning::asymmetric, "wilson full"},
                       {DiracType::clover, false, CloverPreconditioning::asymmetric, "clover full"}};

DiracParams params_of(const Case& c, Precision p) {
  DiracParams d;
  d.type = c.type;
  d.kappa = 0.12;
  d.csw = 1.1;
  d.even_odd = c.eo;
  d.clover_pc = c.pc;
  d.precision = p;
  d.reconstruct = Reconstruct::r12;
  return d;
}

// The fold sums the values before the store rounds them (single, half); its site order differs
// from the BLAS kernel's (double: rounding of the sum only).
double sum_tol(Precision p) { return p == Precision::double_ ? 1e-12 : p == Precision::single ? 1e-5 : 3e-3; }

void expect_pair_near(const runtime::ScalarSlots& s, int i, complexd want, double tol, const char* what) {
  const double scale = std::hypot(want.re, want.im);
  EXPECT_NEAR(s.host(i), want.re, tol * scale) << what << " (Re)";
  EXPECT_NEAR(s.host(i + 1), want.im, tol * scale) << what << " (Im)";
}

}  // namespace

TEST(BicgstabFold, MR0vAndMTsEqualMThenTheBlasReductions) {
  for (const Geometry& g : {Geometry({4, 4, 4, 4}), Geometry({16, 4, 4, 4})}) {
    const GaugeField u = hot_field(g, 301);
    for (const Case& c : kCases)
      for (Precision prec : {Precision::double_, Precision::single, Precision::half}) {
        SCOPED_TRACE(std::string(c.name) + " " + to_string(prec) + " on " + g.to_string());
        const std::unique_ptr<DiracOperator> op = make_dirac(params_of(c, prec), u, cpu);
        const SpinorFieldParams vp = op->vector_params();
        SpinorField p(vp), r0(vp), want(vp), got(vp);
        fill_gaussian(p, 302, 0, cpu);
        fill_gaussian(r0, 303, 0, cpu);
        op->M(want, p);
        const double tol = sum_tol(prec);

        // Slots: rho {0, 1}; r0v {2, 3, 4}; alpha {5, 6}; ts {7 .. 13}; omega {14, 15}; rho_next
        // {16, 17}; beta {18, 19}.
        runtime::ScalarSlots slots(cpu, 20);
        const complexd rho(0.7, -0.4);
        slots.set(0, rho.re);
        slots.set(1, rho.im);
        op->M_r0v(got, p, r0, {&slots, 0}, {&slots, 2}, {&slots, 5});
        SpinorField diff(vp);
        blas::copy(diff, got, cpu);
        blas::axpy(-1.0, want, diff, cpu);
        EXPECT_EQ(blas::norm2(diff, cpu), 0.0) << "M_r0v's M is M's";
        const blas::DotNorm r0v = blas::cdot_norm2(r0, want, cpu);
        expect_pair_near(slots, 2, r0v.dot, tol, "<r0, M p>");
        EXPECT_NEAR(slots.host(4), r0v.norm2, 1e-12 * r0v.norm2) << "|r0|^2";
        expect_pair_near(slots, 5, rho / r0v.dot, 2 * tol, "alpha = rho / <r0, M p>");

        op->M_ts(got, p, r0, {{&slots, 0}, {&slots, 5}, {&slots, 7}, {&slots, 14}, {&slots, 16}, {&slots, 18}});
        blas::copy(diff, got, cpu);
        blas::axpy(-1.0, want, diff, cpu);
        EXPECT_EQ(blas::norm2(diff, cpu), 0.0) << "M_ts's M is M's";
        const blas::DotNorm ts = blas::cdot_norm2(want, p, cpu);
        expect_pair_near(slots, 7, ts.dot, tol, "<M s, s>");
        EXPECT_NEAR(slots.host(9), ts.norm2, tol * ts.norm2) << "|M s|^2";
        // <r0, s> and <r0, t>: r0 and s are independent Gaussians, so the scale is |r0| |s|.
        const double r0n = std::sqrt(blas::norm2(r0, cpu));
        const complexd r0s = blas::cdot(r0, p, cpu), r0t = blas::cdot(r0, want, cpu);
        const double ss = r0n * std::sqrt(blas::norm2(p, cpu)), st = r0n * std::sqrt(ts.norm2);
        EXPECT_NEAR(slots.host(10), r0s.re, tol * ss) << "Re <r0, s>";
        EXPECT_NEAR(slots.host(11), r0s.im, tol * ss) << "Im <r0, s>";
        EXPECT_NEAR(slots.host(12), r0t.re, tol * st) << "Re <r0, M s>";
        EXPECT_NEAR(slots.host(13), r0t.im, tol * st) << "Im <r0, M s>";
        const complexd omega = ts.dot / ts.norm2;
        expect_pair_near(slots, 14, omega, 2 * tol, "omega = <t, s> / |t|^2");
        // rho_next and beta, from the slots' own sums (the finisher's formula, not its accuracy).
        const complexd rn = complexd(slots.host(10), slots.host(11)) -
                            complexd(slots.host(14), slots.host(15)) * complexd(slots.host(12), slots.host(13));
        expect_pair_near(slots, 16, rn, 1e-12, "rho_next = <r0, s> - omega <r0, t>");
        const complexd alpha(slots.host(5), slots.host(6));
        expect_pair_near(slots, 18, (rn / rho) * (alpha / complexd(slots.host(14), slots.host(15))), 1e-12,
                         "beta = (rho_next / rho)(alpha / omega)");
      }
  }
}

// A zero <r0, M p> (r0 = 0) gives alpha = 0 in the folded kernel's finisher, as in the BLAS one.
TEST(BicgstabFold, ZeroDotGivesZeroAlpha) {
  const Geometry g({4, 4, 4, 4});
  const GaugeField u = hot_field(g, 311);
  const std::unique_ptr<DiracOperator> op = make_dirac(params_of(kCases[1], Precision::double_), u, cpu);
  SpinorField p(op->vector_params()), r0(op->vector_params()), v(op->vector_params());
  fill_gaussian(p, 312, 0, cpu);
  blas::zero(r0, cpu);
  runtime::ScalarSlots slots(cpu, 7);
  slots.set(0, 1.0);
  slots.set(1, 0.0);
  slots.set(5, 9.0);
  op->M_r0v(v, p, r0, {&slots, 0}, {&slots, 2}, {&slots, 5});
  EXPECT_EQ(slots.host(2), 0.0);
  EXPECT_EQ(slots.host(3), 0.0);
  EXPECT_EQ(slots.host(5), 0.0);
  EXPECT_EQ(slots.host(6), 0.0);
}

TEST(BicgstabFold, BadArgumentsAreRefused) {
  const Geometry g({4, 4, 4, 4});
  const GaugeField u = hot_field(g, 321);
  const std::unique_ptr<DiracOperator> op = make_dirac(params_of(kCases[0], Precision::double_), u, cpu);
  SpinorField p(op->vector_params()), r0(op->vector_params()), v(op->vector_params());
  runtime::ScalarSlots slots(cpu, 7);
  // r0v needs three slots from index 5: only two are left.
  EXPECT_THROW(op->M_r0v(v, p, r0, {&slots, 0}, {&slots, 5}, {&slots, 2}), InputError);
  // r0 on the wrong subset (a full field).
  SpinorField full(op->full_params());
  EXPECT_THROW(op->M_r0v(v, p, full, {&slots, 0}, {&slots, 2}, {&slots, 5}), InputError);
}

// CGNR's and CGNE's operator step: the folded kernels against the default sequence (B, re_dot,
// B^dagger, cg_residual) on the same inputs; with a shift (A = B^+ B + shift, multi-shift CG's
// refinements) against B, B^dagger, axpy, re_dot and cg_residual, whose p^dagger A p is also
// checked against |B p|^2 + shift |p|^2 summed apart.
TEST(NormalCgFold, EqualsTheDefaultSequence) {
  for (const Geometry& g : {Geometry({4, 4, 4, 4}), Geometry({16, 4, 4, 4})}) {
    const GaugeField u = hot_field(g, 331);
    for (const Case& c : kCases)
      for (Precision prec : {Precision::double_, Precision::single, Precision::half})
        for (bool mdag_first : {false, true})
        for (double shift : {0.0, 0.45}) {
          SCOPED_TRACE(std::string(c.name) + " " + to_string(prec) + " on " + g.to_string() +
                       (mdag_first ? " (CGNE)" : " (CGNR)") + " shift " + std::to_string(shift));
          const std::unique_ptr<DiracOperator> op = make_dirac(params_of(c, prec), u, cpu);
          const SpinorFieldParams vp = op->vector_params();
          SpinorField p(vp), r0(vp), r_fold(vp), r_def(vp), mid_fold(vp), mid_def(vp), ap_fold(vp), ap_def(vp);
          fill_gaussian(p, 332, 0, cpu);
          fill_gaussian(r0, 333, 0, cpu);
          blas::copy(r_fold, r0, cpu);
          blas::copy(r_def, r0, cpu);
          const double r2 = blas::norm2(r0, cpu);
          blas::zero(ap_fold, cpu);
          // Where the fold runs (WilsonFamily::folds on the scalar kernel), A p is never stored.
          const bool folded =
              g == Geometry({4, 4, 4, 4}) && c.eo && test::wilson_fold_runs(prec);
          // Slots: fold r2 0, pAp {1, 2}, r2_new 3; default r2 4, pAp {5, 6}, r2_new 7.
          runtime::ScalarSlots slots(cpu, 8);
          slots.set(0, r2);
          slots.set(4, r2);
          op->normal_cg_residual(ap_fold, mid_fold, p, r_fold, {&slots, 0}, {&slots, 1}, {&slots, 3}, mdag_first,
                                 shift);
          op->DiracOperator::normal_cg_residual(ap_def, mid_def, p, r_def, {&slots, 4}, {&slots, 5}, {&slots, 7},
                                                mdag_first, shift);
          const double tol = sum_tol(prec);
          if (folded) EXPECT_EQ(blas::norm2(ap_fold, cpu), 0.0) << "A p was stored: the folded kernels did not run";
          else EXPECT_GT(blas::norm2(ap_fold, cpu), 0.0) << "the default sequence stores A p";
          SpinorField diff(vp);
          blas::copy(diff, mid_fold, cpu);
          blas::axpy(-1.0, mid_def, diff, cpu);
          EXPECT_EQ(blas::norm2(diff, cpu), 0.0) << "B p";
          EXPECT_NEAR(slots.host(1), slots.host(5), tol * slots.host(5)) << "p^dagger A p = |B p|^2 + shift |p|^2";
          const double want = blas::norm2(mid_def, cpu) + shift * blas::norm2(p, cpu);
          EXPECT_NEAR(slots.host(5), want, tol * want) << "the default's p^dagger A p";
          // r moved: alpha A p is not small against r.
          blas::copy(diff, r_def, cpu);
          blas::axpy(-1.0, r0, diff, cpu);
          ASSERT_GT(blas::norm2(diff, cpu), 1e-3 * r2);
          blas::copy(diff, r_fold, cpu);
          blas::axpy(-1.0, r_def, diff, cpu);
          EXPECT_LE(std::sqrt(blas::norm2(diff, cpu) / blas::norm2(r_def, cpu)), 10 * tol) << "r -= alpha A p";
          EXPECT_NEAR(slots.host(3), slots.host(7), 10 * tol * slots.host(7)) << "|r|^2";
        }
  }
}

TEST(NormalCgFold, OneFieldTwiceIsRefused) {
  const Geometry g({4, 4, 4, 4});
  const GaugeField u = hot_field(g, 341);
  const std::unique_ptr<DiracOperator> op = make_dirac(params_of(kCases[0], Precision::double_), u, cpu);
  SpinorField p(op->vector_params()), mid(op->vector_params()), ap(op->vector_params());
  runtime::ScalarSlots slots(cpu, 4);
  EXPECT_THROW(op->normal_cg_residual(ap, mid, p, p, {&slots, 0}, {&slots, 1}, {&slots, 3}, false, 0.0), InputError);
  EXPECT_THROW(op->normal_cg_residual(ap, mid, p, mid, {&slots, 0}, {&slots, 1}, {&slots, 3}, false, 0.0), InputError);
}
