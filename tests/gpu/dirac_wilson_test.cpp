// Wilson and clover operators on the GPU (blocked fields in device memory) against the same
// operators on the CPU: M and Mdag for every precision x reconstruct, full and even-odd
// (clover asymmetric and symmetric) and the even-odd ones' hop, BiCGstab's reductions folded
// into M, prepare/reconstruct, and the bare one-parity dslash.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include "gluon/qcd/blas.h"
#include "gluon/qcd/dirac/clover.h"
#include "gluon/qcd/dirac/dirac.h"
#include "gluon/qcd/dirac/halo.h"
#include "gluon/qcd/dirac/reference_wilson.h"
#include "gluon/qcd/dirac/wilson.h"
#include "gluon/qcd/field_convert.h"
#include "gluon/qcd/gauge_start.h"
#include "gluon/qcd/random_fields.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/scalar_slots.h"
#include "gluon/runtime/tune.h"
#include "canonical_spinor.h"
#include "test_support.h"
#include "wilson_fold_rule.h"

using namespace gluon;
using namespace gluon::qcd;

namespace {

const runtime::Exec cpu = runtime::cpu_exec();

double tolerance(Precision p) {
  return p == Precision::double_ ? 1e-12 : p == Precision::single ? 1e-5 : 1e-2;
}

double rel_diff(const SpinorField& a, const SpinorField& b) {
  double num = 0, den = 0;
  for (std::int64_t s = 0; s < a.params().sites(); ++s)
    for (int sp = 0; sp < 4; ++sp)
      for (int c = 0; c < 3; ++c) {
        num += norm2(a.site(s).s[sp].c[c] - b.site(s).s[sp].c[c]);
        den += norm2(b.site(s).s[sp].c[c]);
      }
  return std::sqrt(num / den);
}

SpinorField source(const Geometry& g, const SpinorFieldParams& vp, std::uint64_t seed) {
  SpinorFieldParams cp;
  cp.geometry = g;
  SpinorField full(cp);
  fill_gaussian(full, seed, 0, cpu);
  SpinorField host = vp.subset == SiteSubset::full ? std::move(full) : reference::restrict_parity(full, 0);
  SpinorFieldParams want = host.params();
  want.precision = vp.precision;
  return converted(host, want, cpu);
}

// The operators the CPU/GPU comparisons build: kappa 0.115, c_sw 1.2.
DiracParams family_params(DiracType type, bool eo, CloverPreconditioning pc, Precision p, Reconstruct r) {
  DiracParams dp;
  dp.type = type;
  dp.kappa = 0.115;
  dp.csw = 1.2;
  dp.even_odd = eo;
  dp.clover_pc = pc;
  dp.precision = p;
  dp.reconstruct = r;
  return dp;
}

// Wilson and clover, full and even-odd, clover in both even-odd forms.
struct FamilyVariant {
  DiracType type;
  bool eo;
  CloverPreconditioning pc;
};
const FamilyVariant kFamilyVariants[] = {{DiracType::wilson, false, CloverPreconditioning::asymmetric},
                                         {DiracType::wilson, true, CloverPreconditioning::asymmetric},
                                         {DiracType::clover, false, CloverPreconditioning::asymmetric},
                                         {DiracType::clover, true, CloverPreconditioning::asymmetric},
                                         {DiracType::clover, true, CloverPreconditioning::symmetric}};

}  // namespace

TEST(DiracWilsonGpu, OperatorsMatchTheCpu) {
  GLUON_REQUIRE_GPU();
  const runtime::Exec gpu = runtime::cuda_exec();
  const Geometry g({8, 8, 8, 16});
  GaugeField u = GaugeField::canonical(g);
  set_hot(u, 7, cpu);
  for (const FamilyVariant& v : kFamilyVariants)
    for (Precision p : {Precision::double_, Precision::single, Precision::half})
      for (Reconstruct r : {Reconstruct::r18, Reconstruct::r12, Reconstruct::r8}) {
        const DiracParams dp = family_params(v.type, v.eo, v.pc, p, r);
        const auto mc = make_dirac(dp, u, cpu);
        const auto mg = make_dirac(dp, u, gpu);
        EXPECT_EQ(mg->vector_params().order, FieldOrder::blocked);
        EXPECT_EQ(mg->vector_params().space, runtime::MemSpace::device);
        const SpinorField in_c = source(g, mc->vector_params(), 8);
        const SpinorField in_g = converted(in_c, mg->vector_params(), gpu);
        SpinorField out_c(mc->vector_params()), out_g(mg->vector_params());
        for (bool dag : {false, true}) {
          if (dag) {
            mc->Mdag(out_c, in_c);
            mg->Mdag(out_g, in_g);
          } else {
            mc->M(out_c, in_c);
            mg->M(out_g, in_g);
          }
          const double e = rel_diff(test::canonical_copy(out_g, gpu), test::canonical_copy(out_c, cpu));
          EXPECT_LT(e, tolerance(p)) << to_string(v.type) << " eo " << v.eo << " pc "
                                     << static_cast<int>(v.pc) << " " << to_string(p) << " "
                                     << to_string(r) << " dagger " << dag;
        }
        if (v.eo) {  // the one-parity hop that `gluon bench dslash` times
          SpinorField h_c(mc->hop_params()), h_g(mg->hop_params());
          mc->hop(h_c, in_c);
          mg->hop(h_g, in_g);
          EXPECT_LT(rel_diff(test::canonical_copy(h_g, gpu), test::canonical_copy(h_c, cpu)), tolerance(p))
              << "hop " << to_string(v.type) << " pc " << static_cast<int>(v.pc) << " " << to_string(p) << " "
              << to_string(r);
        }
      }
}

// BiCGstab's operator applications with their reductions (M_r0v, M_ts) on the GPU: M's output as
// M writes it, and the slots (queued sums, their mirrors, alpha and omega) against M and the BLAS
// reductions on the CPU. Folded into M's last kernel in double and single (dslash_fold_pays;
// nowhere under GLUON_WILSON_FOLD=0); M and then the BLAS kernels otherwise.
TEST(DiracWilsonGpu, FoldedBicgstabReductionsMatchTheCpu) {
  GLUON_REQUIRE_GPU();
  const runtime::Exec gpu = runtime::cuda_exec();
  struct Reset {
    ~Reset() { runtime::set_forced_variant(-1); }
  } reset;
  const Geometry g({8, 8, 8, 16});
  GaugeField u = GaugeField::canonical(g);
  set_hot(u, 17, cpu);
  struct Variant {
    DiracType type;
    CloverPreconditioning pc;
  };
  const Variant variants[] = {{DiracType::wilson, CloverPreconditioning::asymmetric},
                              {DiracType::clover, CloverPreconditioning::asymmetric},
                              {DiracType::clover, CloverPreconditioning::symmetric}};
  for (const Variant& v : variants)
    for (Precision p : {Precision::double_, Precision::single, Precision::half}) {
      SCOPED_TRACE(to_string(v.type) + " pc " + std::to_string(static_cast<int>(v.pc)) + " " + to_string(p));
      const DiracParams dp = family_params(v.type, true, v.pc, p, Reconstruct::r12);
      const auto mc = make_dirac(dp, u, cpu);
      const auto mg = make_dirac(dp, u, gpu);
      const SpinorField p_c = source(g, mc->vector_params(), 18), r0_c = source(g, mc->vector_params(), 19);
      const SpinorField p_g = converted(p_c, mg->vector_params(), gpu);
      const SpinorField r0_g = converted(r0_c, mg->vector_params(), gpu);
      SpinorField want(mc->vector_params()), got(mg->vector_params());
      mc->M(want, p_c);
      const blas::DotNorm r0v = blas::cdot_norm2(r0_c, want, cpu);
      const blas::DotNorm ts = blas::cdot_norm2(want, p_c, cpu);
      const complexd r0s = blas::cdot(r0_c, p_c, cpu), r0t = blas::cdot(r0_c, want, cpu);
      const double r0n = std::sqrt(blas::norm2(r0_c, cpu));
      const double ss = r0n * std::sqrt(blas::norm2(p_c, cpu)), st = r0n * std::sqrt(ts.norm2);
      const complexd rho(0.3, 0.8);
      runtime::ScalarSlots slots(gpu, 20);  // rho 0-1; r0v 2-4; alpha 5-6; ts 7-13; omega 14-15; rho_next; beta
      slots.set(0, rho.re);
      slots.set(1, rho.im);
      const double tol = tolerance(p);
      auto near = [&](int i, complexd z, double t, const char* what) {
        const double scale = std::hypot(z.re, z.im);
        EXPECT_NEAR(slots.host(i), z.re, t * scale) << what;
        EXPECT_NEAR(slots.host(i + 1), z.im, t * scale) << what;
      };
      // Every launch variant (the plain reduction and each occupancy floor; the tuned one when
      // v is past the kernel's count), which the other tests see only when the tuner picks it.
      for (int v = 0; v < 7; ++v) {
        SCOPED_TRACE("variant " + std::to_string(v));
        runtime::set_forced_variant(v);
        mg->M_r0v(got, p_g, r0_g, {&slots, 0}, {&slots, 2}, {&slots, 5});
        slots.record();
        slots.wait();
        EXPECT_LT(rel_diff(test::canonical_copy(got, gpu), test::canonical_copy(want, cpu)), tol) << "M_r0v's M";
        near(2, r0v.dot, tol, "<r0, M p>");
        EXPECT_NEAR(slots.host(4), r0v.norm2, tol * r0v.norm2) << "|r0|^2";
        near(5, rho / r0v.dot, 4 * tol, "alpha");
        mg->M_ts(got, p_g, r0_g, {{&slots, 0}, {&slots, 5}, {&slots, 7}, {&slots, 14}, {&slots, 16}, {&slots, 18}});
        slots.record();
        slots.wait();
        EXPECT_LT(rel_diff(test::canonical_copy(got, gpu), test::canonical_copy(want, cpu)), tol) << "M_ts's M";
        near(7, ts.dot, tol, "<M s, s>");
        EXPECT_NEAR(slots.host(9), ts.norm2, tol * ts.norm2) << "|M s|^2";
        EXPECT_NEAR(slots.host(10), r0s.re, tol * ss) << "Re <r0, s>";
        EXPECT_NEAR(slots.host(11), r0s.im, tol * ss) << "Im <r0, s>";
        EXPECT_NEAR(slots.host(12), r0t.re, tol * st) << "Re <r0, M s>";
        EXPECT_NEAR(slots.host(13), r0t.im, tol * st) << "Im <r0, M s>";
        near(14, ts.dot / ts.norm2, 4 * tol, "omega");
        const complexd om(slots.host(14), slots.host(15));
        const complexd rn = complexd(slots.host(10), slots.host(11)) - om * complexd(slots.host(12), slots.host(13));
        near(16, rn, 1e-12, "rho_next from the slots' sums");
        near(18, (rn / rho) * (complexd(slots.host(5), slots.host(6)) / om), 1e-12, "beta from the slots");
      }
      runtime::set_forced_variant(-1);
    }
}

// CGNR's and CGNE's operator step with its reductions (normal_cg_residual) on the GPU: the
// intermediate B p, p^dagger A p = |B p|^2 (+ shift |p|^2), the updated residual and |r|^2 against
// the default sequence on the CPU, without and with a shift (A = B^+ B + shift). Folded into B's
// and B^dagger's last kernels in double and single (dslash_fold_pays; nowhere under
// GLUON_WILSON_FOLD=0); the default sequence otherwise.
TEST(DiracWilsonGpu, FoldedNormalCgStepMatchesTheCpu) {
  GLUON_REQUIRE_GPU();
  const runtime::Exec gpu = runtime::cuda_exec();
  struct Reset {
    ~Reset() { runtime::set_forced_variant(-1); }
  } reset;
  const Geometry g({8, 8, 8, 16});
  GaugeField u = GaugeField::canonical(g);
  set_hot(u, 37, cpu);
  for (DiracType type : {DiracType::wilson, DiracType::clover})
    for (CloverPreconditioning pc : {CloverPreconditioning::asymmetric, CloverPreconditioning::symmetric}) {
      if (type == DiracType::wilson && pc == CloverPreconditioning::symmetric) continue;
      for (Precision p : {Precision::double_, Precision::single, Precision::half})
        for (bool mdag_first : {false, true})
        for (double shift : {0.0, 0.45}) {
          SCOPED_TRACE(to_string(type) + " pc " + std::to_string(static_cast<int>(pc)) + " " + to_string(p) +
                       (mdag_first ? " CGNE" : " CGNR") + " shift " + std::to_string(shift));
          const DiracParams dp = family_params(type, true, pc, p, Reconstruct::r12);
          const auto mc = make_dirac(dp, u, cpu);
          const auto mg = make_dirac(dp, u, gpu);
          const SpinorFieldParams vc = mc->vector_params(), vg = mg->vector_params();
          // The CPU side runs on the GPU's rounded inputs, so that only the operator differs.
          const SpinorField p_g = converted(source(g, vc, 38), vg, gpu);
          const SpinorField r0_g = converted(source(g, vc, 39), vg, gpu);
          const SpinorField p_c = converted(p_g, vc, gpu);
          SpinorField r_c = converted(r0_g, vc, gpu);
          SpinorField mid_c(vc), ap_c(vc);
          const bool folded = test::wilson_fold_runs(p);
          const double r2 = blas::norm2(r_c, cpu);
          runtime::ScalarSlots cs(cpu, 4);  // r2 0; pAp {1, 2}; r2_new 3
          cs.set(0, r2);
          mc->DiracOperator::normal_cg_residual(ap_c, mid_c, p_c, r_c, {&cs, 0}, {&cs, 1}, {&cs, 3}, mdag_first,
                                                shift);
          const double tol = tolerance(p);
          // Every launch variant of the folded kernels (the tuned one when v is past their count).
          for (int v = 0; v < 7; ++v) {
            SCOPED_TRACE("variant " + std::to_string(v));
            runtime::set_forced_variant(v);
            SpinorField r_g = converted(r0_g, vg, gpu), mid_g(vg), ap_g(vg);
            blas::zero(ap_g, gpu);
            runtime::ScalarSlots gs(gpu, 4);
            gs.set(0, r2);
            mg->normal_cg_residual(ap_g, mid_g, p_g, r_g, {&gs, 0}, {&gs, 1}, {&gs, 3}, mdag_first, shift);
            gs.record();
            gs.wait();
            EXPECT_LT(rel_diff(test::canonical_copy(mid_g, gpu), test::canonical_copy(mid_c, cpu)), tol) << "B p";
            EXPECT_NEAR(gs.host(1), cs.host(1), 4 * tol * cs.host(1)) << "p^dagger A p";
            EXPECT_LT(rel_diff(test::canonical_copy(r_g, gpu), test::canonical_copy(r_c, cpu)), 4 * tol) << "r -= alpha A p";
            EXPECT_NEAR(gs.host(3), cs.host(3), 8 * tol * cs.host(3)) << "|r|^2";
            EXPECT_GT(std::abs(cs.host(3) - r2), 0.01 * r2) << "the step moved r";
            if (folded) EXPECT_EQ(blas::norm2(ap_g, gpu), 0.0) << "A p was stored: the folded kernels did not run";
          }
          runtime::set_forced_variant(-1);
        }
    }
}

// Each launch variant of the dslash (runtime::set_forced_variant): variant 0 at the tuned block,
// and every occupancy floor (__launch_bounds__(128, B): fewer registers, other spills), then in
// double and single the two-thread kernel and its floors, which the other tests see only when
// the tuner picks them; on lattices of 8-, 16- and 12-site x-rows.
TEST(DiracWilsonGpu, EveryLaunchVariantMatchesTheCpu) {
  GLUON_REQUIRE_GPU();
  const runtime::Exec gpu = runtime::cuda_exec();
  const test::ScopedEnv both("GLUON_GPU_SITE_THREADS", "auto");  // both kinds' variants
  struct Reset {
    ~Reset() { runtime::set_forced_variant(-1); }
  } reset;
  for (const Geometry& g : {Geometry({8, 8, 8, 16}), Geometry({16, 4, 4, 8}), Geometry({12, 4, 4, 8})}) {
    GaugeField u = GaugeField::canonical(g);
    set_hot(u, 27, cpu);
    for (DiracType type : {DiracType::wilson, DiracType::clover})
      for (Precision p : {Precision::double_, Precision::single, Precision::half}) {
        const DiracParams dp = family_params(type, true, CloverPreconditioning::asymmetric, p, Reconstruct::r12);
        const auto mc = make_dirac(dp, u, cpu);
        const auto mg = make_dirac(dp, u, gpu);
        const SpinorField in_c = source(g, mc->vector_params(), 28);
        const SpinorField in_g = converted(in_c, mg->vector_params(), gpu);
        SpinorField want(mc->vector_params()), got(mg->vector_params());
        for (bool dag : {false, true}) {
          if (dag) mc->Mdag(want, in_c);
          else mc->M(want, in_c);
          for (int v = 0; v < 13; ++v) {
            runtime::set_forced_variant(v);
            if (dag) mg->Mdag(got, in_g);
            else mg->M(got, in_g);
            EXPECT_LT(rel_diff(test::canonical_copy(got, gpu), test::canonical_copy(want, cpu)), tolerance(p))
                << to_string(type) << " " << to_string(p) << " on " << g.to_string() << " dagger " << dag
                << " variant " << v;
          }
          runtime::set_forced_variant(-1);
        }
      }
  }
}

// The two-thread kernel (GLUON_GPU_SITE_THREADS=2: a site's forward hops on one thread, its
// backward hops on the next, each storing one chiral half), in each of its launch variants, for
// double and single with r18 and r12 links, D and D^dagger, Wilson and both clover forms (whose
// epilogues take one clover block a thread), with antiperiodic boundary phases in y and t (the
// hops' run-time choice of phase); and on the halo path (dimensions forced cut, both policies:
// ghosts read in the body, or added by the exterior kernels). GLUON_GPU_SITE_THREADS=7 is an
// error naming it.
TEST(DiracWilsonGpu, TwoThreadsASiteMatchTheCpu) {
  GLUON_REQUIRE_GPU();
  const runtime::Exec gpu = runtime::cuda_exec();
  struct Reset {
    ~Reset() {
      runtime::set_forced_variant(-1);
      set_default_halo_policy(HaloPolicy::auto_);
    }
  } reset;
  const Geometry g({8, 6, 8, 12});
  GaugeField u = GaugeField::canonical(g);
  set_hot(u, 91, cpu);
  for (const FamilyVariant& v : kFamilyVariants)
    for (Precision p : {Precision::double_, Precision::single})
      for (Reconstruct r : {Reconstruct::r18, Reconstruct::r12, Reconstruct::r8}) {
        DiracParams dp = family_params(v.type, v.eo, v.pc, p, r);
        dp.boundary = {1, -1, 1, -1};
        const auto mc = make_dirac(dp, u, cpu);
        const SpinorField in_c = source(g, mc->vector_params(), 92);
        SpinorField want(mc->vector_params()), wantd(mc->vector_params());
        mc->M(want, in_c);
        mc->Mdag(wantd, in_c);
        const std::string what = to_string(v.type) + " eo " + std::to_string(v.eo) + " pc " +
                                 std::to_string(static_cast<int>(v.pc)) + " " + to_string(p) + " " + to_string(r);
        // Two threads a site, and (single) the one-thread kernel with a two-thread tail: at the
        // default (512 a multiprocessor, at most a quarter) the tail is this lattice's last
        // quarter, at 2 a multiprocessor fewer sites, not a multiple of the block (both parts run).
        for (const char* kind : {"2", "tail", "tail 2"}) {
          if (std::string(kind) != "2" && p != Precision::single) continue;
          if (std::string(kind) == "tail 2" && r != Reconstruct::r12) continue;
          for (const char* cuts : {"", "1,1,1,1"})
            for (HaloPolicy pol : {HaloPolicy::no_overlap, HaloPolicy::overlap}) {
              if (!*cuts && pol == HaloPolicy::overlap) continue;
              test::ScopedEnv threads("GLUON_GPU_SITE_THREADS", std::string(kind) == "2" ? "2" : "tail");
              std::optional<test::ScopedEnv> per_sm, cut;
              if (std::string(kind) == "tail 2") per_sm.emplace("GLUON_GPU_TAIL_SITES_PER_SM", "2");
              if (*cuts) cut.emplace("GLUON_HALO_FORCE_CUT", cuts);
              set_default_halo_policy(pol);
              const auto mg = make_dirac(dp, u, gpu);
              const SpinorField in_g = converted(in_c, mg->vector_params(), gpu);
              SpinorField got(mg->vector_params());
              for (int var = 0; var < 7; ++var) {  // past the kernel's count: the tuned one
                runtime::set_forced_variant(var);
                mg->M(got, in_g);
                EXPECT_LT(rel_diff(test::canonical_copy(got, gpu), test::canonical_copy(want, cpu)), tolerance(p))
                    << what << " " << kind << " cuts '" << cuts << "' " << to_string(pol) << " variant " << var << " M";
                mg->Mdag(got, in_g);
                EXPECT_LT(rel_diff(test::canonical_copy(got, gpu), test::canonical_copy(wantd, cpu)), tolerance(p))
                    << what << " " << kind << " cuts '" << cuts << "' " << to_string(pol) << " variant " << var << " Mdag";
              }
              runtime::set_forced_variant(-1);
            }
        }
      }
  const auto mg = make_dirac(family_params(DiracType::wilson, true, CloverPreconditioning::asymmetric,
                                           Precision::single, Reconstruct::r12),
                             u, gpu);
  const SpinorField in_g = converted(source(g, mg->vector_params(), 93), mg->vector_params(), gpu);
  SpinorField got(mg->vector_params());
  for (const auto& [name, value] : {std::pair{"GLUON_GPU_SITE_THREADS", "7"}, std::pair{"GLUON_GPU_TAIL_SITES_PER_SM", "1"},
                                    std::pair{"GLUON_GPU_TAIL_SITES_PER_SM", "64k"}}) {
    test::ScopedEnv bad(name, value);
    try {
      mg->M(got, in_g);
      ADD_FAILURE() << name << "=" << value << " was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("'" + std::string(value) + "'"), std::string::npos) << e.what();
    }
  }
}

TEST(DiracWilsonGpu, PrepareReconstructAndBareDslashMatchTheCpu) {
  GLUON_REQUIRE_GPU();
  const runtime::Exec gpu = runtime::cuda_exec();
  const Geometry g({8, 8, 8, 8});
  GaugeField u = GaugeField::canonical(g);
  set_hot(u, 17, cpu);
  DiracParams dp;
  dp.type = DiracType::clover;
  dp.kappa = 0.11;
  dp.csw = 1.0;
  dp.even_odd = true;
  const auto mc = make_dirac(dp, u, cpu);
  const auto mg = make_dirac(dp, u, gpu);
  SpinorFieldParams fp;
  fp.geometry = g;
  SpinorField b(fp);
  fill_gaussian(b, 18, 0, cpu);
  const SpinorField bg = converted(b, mg->full_params(), gpu);
  SpinorField pc_c(mc->vector_params()), pc_g(mg->vector_params());
  mc->prepare(pc_c, b);
  mg->prepare(pc_g, bg);
  EXPECT_LT(rel_diff(test::canonical_copy(pc_g, gpu), test::canonical_copy(pc_c, cpu)), 1e-12);
  SpinorField x_c(fp), x_g(mg->full_params());
  mc->reconstruct(x_c, pc_c, b);
  mg->reconstruct(x_g, pc_g, bg);
  EXPECT_LT(rel_diff(test::canonical_copy(x_g, gpu), x_c), 1e-12);

  for (Precision p : {Precision::double_, Precision::single, Precision::half}) {
    const WilsonDslash dc(u, dp.boundary, p, Reconstruct::r12, cpu);
    const WilsonDslash dg(u, dp.boundary, p, Reconstruct::r12, gpu);
    SpinorFieldParams sc = fp;
    sc.precision = p;
    SpinorFieldParams sg = sc;
    sg.order = FieldOrder::blocked;
    sg.space = runtime::MemSpace::device;
    sg.device = gpu.device;
    const SpinorField in_c = converted(b, sc, cpu);
    const SpinorField in_g = converted(in_c, sg, gpu);
    SpinorField out_c(sc), out_g(sg);
    for (int parity : {0, 1}) {
      dc.dslash(out_c, in_c, parity, parity == 1);
      dg.dslash(out_g, in_g, parity, parity == 1);
    }
    runtime::synchronize(gpu);
    EXPECT_LT(rel_diff(test::canonical_copy(out_g, gpu), test::canonical_copy(out_c, cpu)), tolerance(p)) << to_string(p);
    EXPECT_GT(dslash_bytes(p, Reconstruct::r12, g.half_volume(), DslashKind::plain), 0.0);
  }
}

// The GPU Wilson/clover kernels read the blocked order only (field_layout.h, BlockedOnDevice): a
// device field of another order is refused at launch, naming the field and the order found.
TEST(DiracWilsonGpu, OtherOrdersThanBlockedAreRefused) {
  GLUON_REQUIRE_GPU();
  const runtime::Exec gpu = runtime::cuda_exec();
  const Geometry g({4, 4, 4, 4});
  GaugeField u = GaugeField::canonical(g);
  set_hot(u, 21, cpu);
  DiracParams dp;
  dp.type = DiracType::wilson;
  dp.kappa = 0.12;
  dp.even_odd = true;
  dp.precision = Precision::single;
  const auto m = make_dirac(dp, u, gpu);
  SpinorFieldParams sp = m->vector_params();
  sp.order = FieldOrder::site_major;
  SpinorField in(sp), out(m->vector_params());
  try {
    m->M(out, in);
    FAIL() << "a site_major input was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("input spinor"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("found site_major"), std::string::npos) << e.what();
  }
}
