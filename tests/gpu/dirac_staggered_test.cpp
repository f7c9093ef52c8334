// Staggered operators on the GPU: the CUDA dslash, M, prepare and reconstruct equal the CPU ones
// (same precision, compression and layout) to rounding: the same operations in the same order,
// apart from FMA contraction and the r12/r8 rebuild in the GPU's libm, so double agrees to
// ~1e-14, single to ~1e-6 and half to one quantisation step of the result.
#include <gtest/gtest.h>

#include "gluon/qcd/blas.h"
#include "gluon/runtime/scalar_slots.h"

#include <cmath>
#include <span>
#include <vector>
#include <string>

#include "gluon/qcd/dirac/staggered.h"
#include "gluon/qcd/dirac/staggered_links.h"
#include "gluon/qcd/field_convert.h"
#include "gluon/qcd/gauge_start.h"
#include "gluon/qcd/random_fields.h"
#include "gluon/qcd/solvers/multishift_cg.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/exec.h"
#include "gluon/runtime/tune.h"
#include "canonical_spinor.h"
#include "test_support.h"

using namespace gluon;
using namespace gluon::qcd;

namespace {

const Geometry kGeom({8, 4, 4, 8});

double max_rel_diff(const SpinorField& a, const SpinorField& b) {
  double d = 0, m = 0;
  for (std::int64_t i = 0; i < a.params().sites(); ++i)
    for (int c = 0; c < 3; ++c) {
      const auto& x = a.color_vector(i).c[c];
      const auto& y = b.color_vector(i).c[c];
      d = std::fmax(d, std::fmax(std::fabs(x.re - y.re), std::fabs(x.im - y.im)));
      m = std::fmax(m, std::fmax(std::fabs(y.re), std::fabs(y.im)));
    }
  return d / m;
}

double tolerance(Precision p) {
  return p == Precision::double_ ? 1e-13 : (p == Precision::single ? 2e-6 : 2e-3);
}

DiracParams params(bool improved, Precision prec, Reconstruct r, Reconstruct lr) {
  DiracParams p;
  p.type = improved ? DiracType::improved_staggered : DiracType::staggered;
  p.mass = 0.1;
  p.precision = prec;
  p.reconstruct = r;
  p.long_reconstruct = lr;
  p.even_odd = true;
  return p;
}

// Runs dslash on both parities, M (even-odd) and its hop, prepare and reconstruct on both backends.
void compare(const StaggeredDirac& cpu_op, const StaggeredDirac& gpu_op, const runtime::Exec& cpu,
             const runtime::Exec& gpu) {
  const double tol = tolerance(cpu_op.params().precision);
  SpinorField src(cpu_op.full_params());
  fill_gaussian(src, 17, 3, cpu);
  SpinorField src_d = converted(src, gpu_op.full_params(), gpu);

  for (int parity : {0, 1}) {
    SpinorFieldParams pc = cpu_op.full_params(), pg = gpu_op.full_params();
    pc.subset = pg.subset = parity == 0 ? SiteSubset::even : SiteSubset::odd;
    SpinorFieldParams ic = cpu_op.full_params(), ig = gpu_op.full_params();
    ic.subset = ig.subset = parity == 0 ? SiteSubset::odd : SiteSubset::even;
    SpinorField in_c(ic);
    fill_gaussian(in_c, 23 + parity, 4, cpu);
    SpinorField in_g = converted(in_c, ig, gpu);
    SpinorField out_c(pc), out_g(pg);
    for (bool dagger : {false, true}) {
      cpu_op.dslash(out_c, in_c, parity, dagger);
      gpu_op.dslash(out_g, in_g, parity, dagger);
      runtime::synchronize(gpu);
      EXPECT_LT(max_rel_diff(test::canonical_copy(out_g, gpu), test::canonical_copy(out_c, cpu)), tol)
          << "dslash parity " << parity << " dagger " << dagger;
    }
  }

  SpinorField bpc_c(cpu_op.vector_params()), bpc_g(gpu_op.vector_params());
  cpu_op.prepare(bpc_c, src);
  gpu_op.prepare(bpc_g, src_d);
  runtime::synchronize(gpu);
  EXPECT_LT(max_rel_diff(test::canonical_copy(bpc_g, gpu), test::canonical_copy(bpc_c, cpu)), tol) << "prepare";

  SpinorField m_c(cpu_op.vector_params()), m_g(gpu_op.vector_params());
  cpu_op.M(m_c, bpc_c);
  gpu_op.M(m_g, converted(bpc_c, gpu_op.vector_params(), gpu));
  runtime::synchronize(gpu);
  EXPECT_LT(max_rel_diff(test::canonical_copy(m_g, gpu), test::canonical_copy(m_c, cpu)), tol) << "M";

  // The one-parity hop that `gluon bench dslash` times (D_oe on the even sites).
  SpinorField h_c(cpu_op.hop_params()), h_g(gpu_op.hop_params());
  cpu_op.hop(h_c, bpc_c);
  gpu_op.hop(h_g, converted(bpc_c, gpu_op.vector_params(), gpu));
  runtime::synchronize(gpu);
  EXPECT_LT(max_rel_diff(test::canonical_copy(h_g, gpu), test::canonical_copy(h_c, cpu)), tol) << "hop";

  // M with p^dagger M p folded into its last kernel (CG's operator) against M and re_dot on the CPU.
  runtime::ScalarSlots slots(gpu, 1);
  SpinorField md_g(gpu_op.vector_params());
  gpu_op.M_dot(md_g, converted(bpc_c, gpu_op.vector_params(), gpu), {&slots, 0});
  slots.record();
  slots.wait();
  EXPECT_LT(max_rel_diff(test::canonical_copy(md_g, gpu), test::canonical_copy(m_c, cpu)), tol) << "M_dot's M";
  const double want = blas::re_dot(bpc_c, m_c, cpu);
  EXPECT_NEAR(slots.host(0), want, 10 * tol * std::fabs(want)) << "M_dot's dot";

  // CG's step with the residual update folded into M's two kernels (M_cg_residual: p^dagger M p
  // from |p|^2 and |D_oe p|^2, r -= alpha M p, |r|^2; M p never stored) against the CPU's default.
  SpinorField r_c(cpu_op.vector_params()), ap_c(cpu_op.vector_params());
  fill_gaussian(r_c, 29, 5, cpu);
  SpinorField r_g = converted(r_c, gpu_op.vector_params(), gpu), ap_g(gpu_op.vector_params());
  blas::zero(ap_g, gpu);
  const double r2 = blas::norm2(r_c, cpu);
  runtime::ScalarSlots cs(cpu, 4), gs(gpu, 4);
  cs.set(0, r2);
  gs.set(0, r2);
  cpu_op.DiracOperator::M_cg_residual(ap_c, bpc_c, r_c, {&cs, 0}, {&cs, 1}, {&cs, 3}, 0.0);
  gpu_op.M_cg_residual(ap_g, converted(bpc_c, gpu_op.vector_params(), gpu), r_g, {&gs, 0}, {&gs, 1}, {&gs, 3},
                       0.0);
  gs.record();
  gs.wait();
  EXPECT_NEAR(gs.host(1), cs.host(1), 10 * tol * cs.host(1)) << "M_cg_residual's p^dagger M p";
  EXPECT_NEAR(gs.host(3), cs.host(3), 10 * tol * cs.host(3)) << "M_cg_residual's |r|^2";
  EXPECT_LT(max_rel_diff(test::canonical_copy(r_g, gpu), test::canonical_copy(r_c, cpu)), tol) << "M_cg_residual's r";
  if (gpu_op.params().precision == Precision::half)  // the default (M_dot, cg_residual) in half
    EXPECT_LT(max_rel_diff(test::canonical_copy(ap_g, gpu), test::canonical_copy(m_c, cpu)), tol) << "M_cg_residual's M p";
  else
    EXPECT_EQ(blas::norm2(ap_g, gpu), 0.0) << "M_cg_residual stored M p";

  SpinorField x_c(cpu_op.full_params()), x_g(gpu_op.full_params());
  cpu_op.reconstruct(x_c, bpc_c, src);
  gpu_op.reconstruct(x_g, converted(bpc_c, gpu_op.vector_params(), gpu), src_d);
  runtime::synchronize(gpu);
  EXPECT_LT(max_rel_diff(test::canonical_copy(x_g, gpu), test::canonical_copy(x_c, cpu)), tol) << "reconstruct";
}

}  // namespace

TEST(StaggeredGpu, NaiveCudaEqualsCpu) {
  GLUON_REQUIRE_GPU();
  const auto cpu = runtime::cpu_exec();
  const auto gpu = runtime::cuda_exec();
  GaugeField u = GaugeField::canonical(kGeom);
  set_hot(u, 5, cpu);
  for (Precision p : {Precision::double_, Precision::single, Precision::half})
    for (Reconstruct r : {Reconstruct::r18, Reconstruct::r12, Reconstruct::r8})
    {
      SCOPED_TRACE(to_string(p) + " " + to_string(r));
      const StaggeredDirac cpu_op(params(false, p, r, Reconstruct::r18), u, cpu, FieldOrder::site_major);
      const StaggeredDirac gpu_op(params(false, p, r, Reconstruct::r18), u, gpu, FieldOrder::blocked);
      compare(cpu_op, gpu_op, cpu, gpu);
    }
}

// Each launch variant (runtime::set_forced_variant: the plain kernel and every occupancy floor)
// of the even-odd M and of CG's folded step (M_cg_residual), which the other tests see only when
// the tuner picks it, against the CPU.
TEST(StaggeredGpu, EveryLaunchVariantOfMAndTheCgStepMatchesTheCpu) {
  GLUON_REQUIRE_GPU();
  const auto cpu = runtime::cpu_exec();
  const auto gpu = runtime::cuda_exec();
  struct Reset {
    ~Reset() { runtime::set_forced_variant(-1); }
  } reset;
  GaugeField u = GaugeField::canonical(kGeom);
  set_hot(u, 7, cpu);
  const auto links = unsmeared_improved_links(u, cpu);
  for (bool improved : {false, true})
    for (Precision p : {Precision::double_, Precision::single, Precision::half}) {
      SCOPED_TRACE(std::string(improved ? "improved " : "naive ") + to_string(p));
      const DiracParams dp = params(improved, p, improved ? Reconstruct::r18 : Reconstruct::r12, Reconstruct::r12);
      const StaggeredDirac cpu_op = improved ? StaggeredDirac(dp, links.fat, links.longlinks, cpu, FieldOrder::site_major)
                                             : StaggeredDirac(dp, u, cpu, FieldOrder::site_major);
      const StaggeredDirac gpu_op =
          improved ? StaggeredDirac(dp, links.fat, links.longlinks, gpu) : StaggeredDirac(dp, u, gpu);
      const double tol = tolerance(p);
      SpinorField p_c(cpu_op.vector_params()), r_c(cpu_op.vector_params()), m_c(cpu_op.vector_params());
      fill_gaussian(p_c, 31, 6, cpu);
      fill_gaussian(r_c, 32, 7, cpu);
      const SpinorField p_g = converted(p_c, gpu_op.vector_params(), gpu);
      const SpinorField r0_g = converted(r_c, gpu_op.vector_params(), gpu);
      // With a shift too (A = M + shift, multi-shift CG), whose fold takes it into the mass term.
      for (double shift : {0.0, 0.3}) {
      SCOPED_TRACE("shift " + std::to_string(shift));
      SpinorField rs_c(cpu_op.vector_params());
      blas::copy(rs_c, r_c, cpu);
      runtime::ScalarSlots cs(cpu, 4);
      cs.set(0, blas::norm2(rs_c, cpu));
      cpu_op.DiracOperator::M_cg_residual(m_c, p_c, rs_c, {&cs, 0}, {&cs, 1}, {&cs, 3}, shift);
      cpu_op.M(m_c, p_c);
      for (int v = 0; v < 7; ++v) {
        SCOPED_TRACE("variant " + std::to_string(v));
        runtime::set_forced_variant(v);
        SpinorField m_g(gpu_op.vector_params()), r_g(gpu_op.vector_params()), ap_g(gpu_op.vector_params());
        gpu_op.M(m_g, p_g);
        blas::copy(r_g, r0_g, gpu);
        runtime::ScalarSlots gs(gpu, 4);
        gs.set(0, cs.host(0));
        gpu_op.M_cg_residual(ap_g, p_g, r_g, {&gs, 0}, {&gs, 1}, {&gs, 3}, shift);
        gs.record();
        gs.wait();
        EXPECT_LT(max_rel_diff(test::canonical_copy(m_g, gpu), test::canonical_copy(m_c, cpu)), tol) << "M";
        EXPECT_LT(max_rel_diff(test::canonical_copy(r_g, gpu), test::canonical_copy(rs_c, cpu)), tol) << "r";
        EXPECT_NEAR(gs.host(1), cs.host(1), 10 * tol * cs.host(1)) << "p^dagger A p";
        EXPECT_NEAR(gs.host(3), cs.host(3), 10 * tol * cs.host(3)) << "|r|^2";
      }
      }
      runtime::set_forced_variant(-1);
    }
}

// The GPU kernels read the blocked order only (field_layout.h, BlockedOnDevice): another order
// is refused up front, naming it, rather than read wrongly.
TEST(StaggeredGpu, OtherOrdersThanBlockedAreRefused) {
  GLUON_REQUIRE_GPU();
  const auto gpu = runtime::cuda_exec();
  GaugeField u = GaugeField::canonical(kGeom);
  set_hot(u, 5, runtime::cpu_exec());
  try {
    const StaggeredDirac op(params(false, Precision::single, Reconstruct::r12, Reconstruct::r18), u, gpu,
                            FieldOrder::site_major);
    FAIL() << "a site_major GPU operator was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("found site_major"), std::string::npos) << e.what();
  }
  const StaggeredDirac op(params(false, Precision::single, Reconstruct::r12, Reconstruct::r18), u, gpu);
  SpinorFieldParams sp = op.vector_params();
  sp.order = FieldOrder::site_major;
  SpinorField in(sp), out(sp);
  try {
    op.M(out, in);
    FAIL() << "a site_major input was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("found site_major"), std::string::npos) << e.what();
  }
}

TEST(StaggeredGpu, ImprovedCudaEqualsCpu) {
  GLUON_REQUIRE_GPU();
  const auto cpu = runtime::cpu_exec();
  const auto gpu = runtime::cuda_exec();
  GaugeField u = GaugeField::canonical(kGeom);
  set_hot(u, 6, cpu);
  const auto links = unsmeared_improved_links(u, cpu);
  for (Precision p : {Precision::double_, Precision::single, Precision::half})
    for (Reconstruct lr : {Reconstruct::r18, Reconstruct::r12}) {
      SCOPED_TRACE(to_string(p) + " long " + to_string(lr));
      const StaggeredDirac cpu_op(params(true, p, Reconstruct::r18, lr), links.fat, links.longlinks, cpu,
                                  FieldOrder::site_major);
      const StaggeredDirac gpu_op(params(true, p, Reconstruct::r18, lr), links.fat, links.longlinks, gpu);
      EXPECT_EQ(gpu_op.order(), FieldOrder::blocked);
      compare(cpu_op, gpu_op, cpu, gpu);
    }
}

// The multi-vector kernel (normal_shifted_multi, up to 4 vectors a launch) on the GPU against the
// CPU's scalar multi-vector kernel, naive r12/r8 and improved r18/r12 in every precision, 1 to 6
// vectors with different shifts; then multi-shift CG on the GPU with its refinements together
// (the default there) and one by one: every shift at its tolerance, the same refinement
// iterations within rounding.
TEST(StaggeredGpu, ShiftedMultiAndRefinementsTogetherMatchTheCpu) {
  GLUON_REQUIRE_GPU();
  const auto cpu = runtime::cpu_exec();
  const auto gpu = runtime::cuda_exec();
  GaugeField u = GaugeField::canonical(kGeom);
  set_hot(u, 9, cpu);
  const auto links = unsmeared_improved_links(u, cpu);
  const double shifts_all[] = {0.0, 0.01, 0.3, 2.5, 0.0, 10.24};
  for (bool improved : {false, true})
    for (Reconstruct r : {Reconstruct::r12, improved ? Reconstruct::r18 : Reconstruct::r8})
      for (Precision p : {Precision::double_, Precision::single, Precision::half}) {
        SCOPED_TRACE(std::string(improved ? "improved long " : "naive ") + to_string(r) + " " + to_string(p));
        const DiracParams dp = params(improved, p, improved ? Reconstruct::r18 : r, r);
        const StaggeredDirac cpu_op = improved ? StaggeredDirac(dp, links.fat, links.longlinks, cpu, FieldOrder::site_major)
                                               : StaggeredDirac(dp, u, cpu, FieldOrder::site_major);
        const StaggeredDirac gpu_op =
            improved ? StaggeredDirac(dp, links.fat, links.longlinks, gpu) : StaggeredDirac(dp, u, gpu);
        for (std::size_t n : {1u, 4u, 6u}) {
          SCOPED_TRACE(std::to_string(n) + " vectors");
          std::vector<SpinorField> in_c, out_c, in_g, out_g;
          for (std::size_t j = 0; j < n; ++j) {
            in_c.emplace_back(cpu_op.vector_params());
            fill_gaussian(in_c.back(), 40 + j, 0, cpu);
            in_g.push_back(converted(in_c.back(), gpu_op.vector_params(), gpu));
            out_c.emplace_back(cpu_op.vector_params());
            out_g.emplace_back(gpu_op.vector_params());
          }
          std::vector<SpinorField*> oc, og;
          std::vector<const SpinorField*> ic, ig;
          for (std::size_t j = 0; j < n; ++j) {
            oc.push_back(&out_c[j]);
            og.push_back(&out_g[j]);
            ic.push_back(&in_c[j]);
            ig.push_back(&in_g[j]);
          }
          const std::span<const double> sh(shifts_all, n);
          runtime::ScalarSlots dc(cpu, 6), dg(gpu, 6);
          std::vector<blas::Slot> pc, pg;
          for (std::size_t j = 0; j < n; ++j) {
            pc.push_back({&dc, static_cast<int>(j)});
            pg.push_back({&dg, static_cast<int>(j)});
          }
          cpu_op.normal_shifted_multi(oc, ic, sh, pc);
          gpu_op.normal_shifted_multi(og, ig, sh, pg);
          dg.record();
          dg.wait();
          for (std::size_t j = 0; j < n; ++j) {
            EXPECT_LT(max_rel_diff(test::canonical_copy(out_g[j], gpu), test::canonical_copy(out_c[j], cpu)), tolerance(p))
                << "vector " << j;
            EXPECT_NEAR(dg.host(static_cast<int>(j)), dc.host(static_cast<int>(j)),
                        10 * tolerance(p) * std::fabs(dc.host(static_cast<int>(j))))
                << "p^dagger A p of vector " << j;
          }
        }
      }
  // Multi-shift CG, double-single and double-half, naive r12.
  const std::vector<double> shifts{0.001, 0.004, 0.02, 0.08, 0.5, 2.0};
  const StaggeredDirac op(params(false, Precision::double_, Reconstruct::r12, Reconstruct::r18), u, gpu);
  SpinorField bc(op.vector_params());
  {
    SpinorFieldParams c = op.vector_params();
    c.order = FieldOrder::site_major;
    c.space = runtime::MemSpace::host;
    c.pad = 0;
    SpinorField h(c);
    fill_gaussian(h, 50, 0, cpu);
    bc = converted(h, op.vector_params(), gpu);
  }
  for (Precision sp : {Precision::single, Precision::half}) {
    SCOPED_TRACE(to_string(sp));
    const StaggeredDirac sloppy(params(false, sp, Reconstruct::r12, Reconstruct::r18), u, gpu);
    SolverParams q;
    q.tol = 1e-10;
    MultiShiftResult res[2];
    std::vector<SpinorField> xs[2];
    const int modes[2] = {0, -1};  // one by one, then the GPU's default (together)
    for (int k : {0, 1}) {
      q.multishift_together = modes[k];
      res[k] = multishift_cg(op, xs[k], bc, shifts, {}, q, &sloppy);
      ASSERT_TRUE(res[k].converged) << res[k].total.failure;
      EXPECT_EQ(res[k].refined_together, k == 1);
    }
    int refined = 0;
    for (std::size_t i = 0; i < shifts.size(); ++i) {
      SCOPED_TRACE("shift " + std::to_string(i));
      EXPECT_LE(res[1].true_residual[i], 1e-10);
      SpinorField t(op.vector_params());
      op.M(t, xs[1][i]);
      blas::axpy(shifts[i], xs[1][i], t, gpu);
      EXPECT_LE(std::sqrt(blas::xmy_norm2(bc, t, gpu) / blas::norm2(bc, gpu)), 1.5e-10);
      const int a = res[0].refine_iterations[i], c = res[1].refine_iterations[i];
      EXPECT_LE(std::abs(a - c), 2 + a / 20) << "one by one " << a << ", together " << c;
      refined += c > 0 ? 1 : 0;
    }
    EXPECT_GE(refined, 2);
  }
}
