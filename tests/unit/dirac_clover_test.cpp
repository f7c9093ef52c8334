// Wilson-clover operator: the clover term (vanishes on the unit field, A A^-1 = 1, equals the
// dense reference), every storage of the full and even-odd (asymmetric, symmetric) operators
// and their daggers against the plain double reference, gamma5 hermiticity, gauge covariance,
// even-odd prepare/reconstruct, the fused clover dslash on blocked fields, error paths.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "gluon/qcd/dirac/clover.h"
#include "gluon/qcd/dirac/dirac.h"
#include "gluon/qcd/dirac/reference_wilson.h"
#include "gluon/qcd/dirac/wilson.h"
#include "gluon/qcd/field_convert.h"
#include "gluon/qcd/gamma.h"
#include "gluon/qcd/gauge_start.h"
#include "gluon/qcd/gauge_transform.h"
#include "gluon/qcd/random_fields.h"
#include "gluon/runtime/error.h"
#include "dirac_test_helpers.h"

using namespace gluon;
using namespace gluon::qcd;
using namespace gluon::test::dirac;

namespace {

struct Variant {
  bool eo;
  CloverPreconditioning pc;
  const char* name;
};
const Variant kVariants[] = {{false, CloverPreconditioning::asymmetric, "full"},
                             {true, CloverPreconditioning::asymmetric, "asymmetric"},
                             {true, CloverPreconditioning::symmetric, "symmetric"}};

DiracParams clover_params(Precision p, Reconstruct r, const Variant& v, double kappa = 0.115, double csw = 1.2) {
  DiracParams d;
  d.type = DiracType::clover;
  d.kappa = kappa;
  d.csw = csw;
  d.precision = p;
  d.reconstruct = r;
  d.even_odd = v.eo;
  d.clover_pc = v.pc;
  return d;
}

const Precision kPrecisions[] = {Precision::double_, Precision::single, Precision::half};
const Reconstruct kRecons[] = {Reconstruct::r18, Reconstruct::r12, Reconstruct::r8};

}  // namespace

TEST(CloverTerm, VanishesOnTheUnitField) {
  const Geometry g({4, 4, 4, 4});
  GaugeField u = GaugeField::canonical(g);
  set_unit(u, cpu);
  const reference::ReferenceWilson ref(clover_params(Precision::double_, Reconstruct::r18, kVariants[0]), u);
  for (std::int64_t s = 0; s < g.volume(); s += 7)
    for (int i = 0; i < 12; ++i)
      for (int j = 0; j < 12; ++j) {
        EXPECT_NEAR(ref.site_clover(s, false).e[i][j].re, i == j ? 1.0 : 0.0, 1e-15);
        EXPECT_NEAR(ref.site_clover(s, false).e[i][j].im, 0.0, 1e-15);
      }
  const SpinorField psi = gaussian(g, 2);
  for (Precision p : kPrecisions) {
    const CloverTerm a(u, 0.12, 1.5, p, cpu);
    SpinorFieldParams sp;
    sp.geometry = g;
    sp.precision = p;
    const SpinorField in = converted(psi, sp, cpu);
    SpinorField out(sp);
    a.apply(out, in, 0, false);
    a.apply(out, in, 1, true);
    EXPECT_EQ(rel_diff(as_canonical(out), as_canonical(in)), 0.0) << to_string(p);
  }
  // clover M equals Wilson M there
  DiracParams w = clover_params(Precision::double_, Reconstruct::r12, kVariants[1]);
  const auto mc = make_dirac(w, u, cpu);
  w.type = DiracType::wilson;
  const auto mw = make_dirac(w, u, cpu);
  const SpinorField in = in_storage(psi, mc->vector_params());
  SpinorField a(mc->vector_params()), b(mc->vector_params());
  mc->M(a, in);
  mw->M(b, in);
  EXPECT_LT(rel_diff(a, b), 1e-15);
}

TEST(CloverTerm, MatchesTheDenseReferenceAndItsInverse) {
  const Geometry g({4, 4, 4, 8});
  const GaugeField u = hot_field(g, 5);
  const reference::ReferenceWilson ref(clover_params(Precision::double_, Reconstruct::r18, kVariants[0]), u);
  const SpinorField psi = gaussian(g, 6);
  SpinorField ra = canonical_full(g), rinv = canonical_full(g);
  ref.clover(ra, psi, false);
  ref.clover(rinv, psi, true);
  // the reference term is not trivial on a hot field
  EXPECT_GT(rel_diff(ra, psi), 0.05);
  for (Precision p : kPrecisions)
    for (FieldOrder order : {FieldOrder::site_major, FieldOrder::blocked}) {
      const CloverTerm a(u, 0.115, 1.2, p, cpu, order);
      SpinorFieldParams sp;
      sp.geometry = g;
      sp.precision = p;
      sp.order = order;
      const SpinorField in = converted(psi, sp, cpu);
      SpinorField out(sp), back(sp);
      for (int parity : {0, 1}) {
        a.apply(out, in, parity, false);
        a.apply(back, out, parity, true);
      }
      EXPECT_LT(rel_diff(as_canonical(out), ra), tolerance(p)) << to_string(p);
      EXPECT_LT(rel_diff(as_canonical(back), psi), 3 * tolerance(p)) << to_string(p);  // A^-1 A = 1
      for (int parity : {0, 1}) a.apply(out, in, parity, true);
      EXPECT_LT(rel_diff(as_canonical(out), rinv), tolerance(p)) << to_string(p);
      // in place
      SpinorField inplace = converted(psi, sp, cpu);
      for (int parity : {0, 1}) a.apply(inplace, inplace, parity, false);
      EXPECT_LT(rel_diff(as_canonical(inplace), ra), tolerance(p));
    }
}

TEST(CloverOperator, EveryStorageMatchesTheReference) {
  const Geometry g({4, 4, 4, 4});
  const GaugeField u = hot_field(g, 11);
  const SpinorField in = gaussian(g, 12);
  for (const Variant& v : kVariants) {
    const reference::ReferenceWilson ref(clover_params(Precision::double_, Reconstruct::r18, v), u);
    SpinorField want[2] = {canonical_full(g), canonical_full(g)};
    ref.M(want[0], in, false);
    ref.M(want[1], in, true);
    for (Precision p : kPrecisions)
      for (Reconstruct r : kRecons) {
        // every storage for the asymmetric operator; a diagonal of them for the others (time)
        if (v.pc != CloverPreconditioning::asymmetric || !v.eo)
          if (static_cast<int>(p) != (r == Reconstruct::r18 ? 0 : r == Reconstruct::r12 ? 1 : 2)) continue;
        const auto op = make_dirac(clover_params(p, r, v), u, cpu);
        const SpinorField fin = in_storage(in, op->vector_params());
        SpinorField out(op->vector_params());
        op->M(out, fin);
        EXPECT_LT(rel_diff_to_ref(out, want[0]), tolerance(p)) << v.name << " " << to_string(p) << to_string(r);
        op->Mdag(out, fin);
        EXPECT_LT(rel_diff_to_ref(out, want[1]), tolerance(p)) << v.name << " dagger " << to_string(p) << to_string(r);
      }
  }
}

// DiracOperator::hop for clover: A_oo^-1 D_oe on an even input, in both preconditionings (the
// same kernel), against the dense reference.
TEST(CloverOperator, HopIsTheReferenceInverseCloverTimesDoe) {
  const Geometry g({4, 4, 4, 4});
  const GaugeField u = hot_field(g, 16);
  const SpinorField in_e = reference::extend_parity(reference::restrict_parity(gaussian(g, 17), 0));
  const reference::ReferenceWilson ref(clover_params(Precision::double_, Reconstruct::r18, kVariants[1]), u);
  SpinorField d = canonical_full(g), ad = canonical_full(g);
  ref.hop(d, in_e, false);
  ref.clover(ad, d, true);
  const SpinorField want = reference::restrict_parity(ad, 1);
  EXPECT_GT(rel_diff(reference::restrict_parity(d, 1), want), 0.01) << "A^-1 must matter";
  for (const Variant& v : {kVariants[1], kVariants[2]})
    for (Precision p : kPrecisions) {
      const auto op = make_dirac(clover_params(p, Reconstruct::r12, v), u, cpu);
      SpinorField out(op->hop_params());
      op->hop(out, in_storage(in_e, op->vector_params()));
      EXPECT_LT(rel_diff(as_canonical(out), want), tolerance(p)) << v.name << " " << to_string(p);
      EXPECT_EQ(op->hop_flops(), g.half_volume() * 1824.0);
    }
}

TEST(CloverOperator, FusedCloverDslashOnBlockedFields) {
  const Geometry g({4, 4, 4, 8});
  const GaugeField u = hot_field(g, 13);
  const SpinorField in = gaussian(g, 14), x = gaussian(g, 15);
  const reference::ReferenceWilson ref(clover_params(Precision::double_, Reconstruct::r18, kVariants[0]), u);
  SpinorField d = canonical_full(g), ad = canonical_full(g), ax = canonical_full(g);
  ref.hop(d, in, true);
  ref.clover(ad, d, true);  // A^-1 D^dagger in
  ref.clover(ax, x, false);
  for (Precision p : {Precision::double_, Precision::single}) {
    const WilsonDslash w(u, {1, 1, 1, -1}, p, Reconstruct::r12, cpu, FieldOrder::blocked);
    const CloverTerm a(u, 0.115, 1.2, p, cpu, FieldOrder::blocked);
    SpinorFieldParams sp;
    sp.geometry = g;
    sp.precision = p;
    sp.order = FieldOrder::blocked;
    const SpinorField fin = converted(in, sp, cpu), fx = converted(x, sp, cpu);
    SpinorField out(sp);
    // out = x + 0.5 A^-1 D^dagger in
    for (int parity : {0, 1}) w.dslash_clover(out, fin, parity, true, a.field(true), &fx, 0.5);
    SpinorField want = canonical_full(g);
    for (std::int64_t s = 0; s < g.volume(); ++s)
      for (int sp2 = 0; sp2 < 4; ++sp2)
        for (int c = 0; c < 3; ++c)
          want.site(s).s[sp2].c[c] = x.site(s).s[sp2].c[c] + 0.5 * ad.site(s).s[sp2].c[c];
    EXPECT_LT(rel_diff(as_canonical(out), want), tolerance(p));
    // out = A x - 0.25 D^dagger in
    for (int parity : {0, 1}) w.dslash_clover_on_x(out, fin, parity, true, a.field(false), fx, -0.25);
    for (std::int64_t s = 0; s < g.volume(); ++s)
      for (int sp2 = 0; sp2 < 4; ++sp2)
        for (int c = 0; c < 3; ++c)
          want.site(s).s[sp2].c[c] = ax.site(s).s[sp2].c[c] - 0.25 * d.site(s).s[sp2].c[c];
    EXPECT_LT(rel_diff(as_canonical(out), want), tolerance(p));
  }
}

TEST(CloverOperator, Gamma5HermiticityAndAdjoint) {
  const Geometry g({4, 4, 4, 8});
  const GaugeField u = hot_field(g, 21);
  for (const Variant& v : kVariants) {
    const auto op = make_dirac(clover_params(Precision::double_, Reconstruct::r18, v), u, cpu);
    const SpinorField psi = in_storage(gaussian(g, 22), op->vector_params());
    const SpinorField chi = in_storage(gaussian(g, 23), op->vector_params());
    SpinorField mpsi(op->vector_params()), mdchi(op->vector_params());
    op->M(mpsi, psi);
    op->Mdag(mdchi, chi);
    const complexd a = dot(chi, mpsi), b = dot(mdchi, psi);
    EXPECT_NEAR(a.re, b.re, 1e-12 * std::sqrt(norm2(a))) << v.name;
    EXPECT_NEAR(a.im, b.im, 1e-12 * std::sqrt(norm2(a))) << v.name;
    SpinorField g5psi(op->vector_params()), t(op->vector_params()), mdpsi(op->vector_params());
    for (std::int64_t s = 0; s < psi.params().sites(); ++s) g5psi.site(s) = apply_gamma5(psi.site(s));
    op->M(t, g5psi);
    for (std::int64_t s = 0; s < t.params().sites(); ++s) t.site(s) = apply_gamma5(t.site(s));
    op->Mdag(mdpsi, psi);
    // g5 M g5 = M^dagger holds for the full and asymmetric operators; the symmetric one is
    // A_ee^-1 times the asymmetric one, so g5-hermiticity there reads M^dagger = g5 A M A^-1 g5.
    if (v.eo && v.pc == CloverPreconditioning::symmetric) {
      EXPECT_GT(rel_diff(t, mdpsi), 1e-3) << "symmetric M is not g5-Hermitian by itself";
      // Its identity, in the form M^dagger (g5 A phi) = g5 A (M phi), with A_ee phi read off the
      // unpreconditioned operator: M_full (phi_e, 0) has even part A_ee phi_e.
      Variant full = v;
      full.eo = false;
      const auto mf = make_dirac(clover_params(Precision::double_, Reconstruct::r18, full), u, cpu);
      const auto times_g5A = [&](const SpinorField& phi_e) {
        SpinorField f(mf->vector_params()), mf_out(mf->vector_params());
        f = in_storage(reference::extend_parity(phi_e), mf->vector_params());
        mf->M(mf_out, f);
        SpinorField r = reference::restrict_parity(as_canonical(mf_out), 0);
        for (std::int64_t s = 0; s < r.params().sites(); ++s) r.site(s) = apply_gamma5(r.site(s));
        return r;
      };
      SpinorField mphi(op->vector_params()), lhs(op->vector_params());
      op->Mdag(lhs, in_storage(reference::extend_parity(times_g5A(as_canonical(psi))), op->vector_params()));
      op->M(mphi, psi);
      EXPECT_LT(rel_diff(as_canonical(lhs), times_g5A(as_canonical(mphi))), 1e-13) << "M^+ = g5 A M A^-1 g5";
    } else {
      EXPECT_LT(rel_diff(t, mdpsi), 1e-14) << v.name;
    }
  }
}

TEST(CloverOperator, GaugeCovariance) {
  const Geometry g({4, 4, 4, 4});
  const GaugeField u = hot_field(g, 31);
  GaugeField ug = GaugeField::canonical(g);
  std::memcpy(ug.data(), u.data(), u.bytes());
  const GaugeTransform t = random_gauge_transform(g, 32, cpu);
  apply_gauge_transform(ug, t, cpu);
  const SpinorField psi = gaussian(g, 33);
  SpinorField gpsi = canonical_full(g);
  for (std::int64_t s = 0; s < g.volume(); ++s) gpsi.site(s) = t.at(s) * psi.site(s);
  for (const Variant& v : kVariants) {
    const auto m = make_dirac(clover_params(Precision::double_, Reconstruct::r18, v), u, cpu);
    const auto mg = make_dirac(clover_params(Precision::double_, Reconstruct::r18, v), ug, cpu);
    SpinorField a(m->vector_params()), b(m->vector_params());
    m->M(a, in_storage(psi, m->vector_params()));
    mg->M(b, in_storage(gpsi, m->vector_params()));
    for (std::int64_t s = 0; s < a.params().sites(); ++s) a.site(s) = t.at(s) * a.site(s);
    EXPECT_LT(rel_diff(b, a), 1e-13) << v.name;
  }
}

TEST(CloverOperator, EvenOddPrepareAndReconstructGiveTheFullSolution) {
  const Geometry g({4, 4, 4, 8});
  const GaugeField u = hot_field(g, 41);
  const SpinorField x = gaussian(g, 42);
  const reference::ReferenceWilson full(clover_params(Precision::double_, Reconstruct::r18, kVariants[0]), u);
  SpinorField b = canonical_full(g);
  full.M_full(b, x, false);
  const SpinorField xe = reference::restrict_parity(x, 0);
  for (const Variant& v : {kVariants[1], kVariants[2]}) {
    const auto op = make_dirac(clover_params(Precision::double_, Reconstruct::r18, v), u, cpu);
    SpinorField bpc(op->vector_params()), mx(op->vector_params());
    op->prepare(bpc, b);
    op->M(mx, xe);
    EXPECT_LT(rel_diff(mx, bpc), 1e-13) << v.name;
    const reference::ReferenceWilson eo(clover_params(Precision::double_, Reconstruct::r18, v), u);
    SpinorField rb = canonical_full(g);
    eo.prepare(rb, b);
    EXPECT_LT(rel_diff(bpc, reference::restrict_parity(rb, 0)), 1e-13) << v.name;
    SpinorField xf = canonical_full(g);
    op->reconstruct(xf, xe, b);
    EXPECT_LT(rel_diff(xf, x), 1e-13) << v.name;
  }
}

TEST(CloverOperator, FlopCounts) {
  const Geometry g({4, 4, 4, 4});
  const GaugeField u = hot_field(g, 51);
  const double half = g.half_volume();
  EXPECT_EQ(make_dirac(clover_params(Precision::single, Reconstruct::r12, kVariants[0]), u, cpu)->flops_M(),
            2 * half * 1872);
  EXPECT_EQ(make_dirac(clover_params(Precision::single, Reconstruct::r12, kVariants[1]), u, cpu)->flops_M(),
            half * (1824 + 1872));
  EXPECT_EQ(make_dirac(clover_params(Precision::single, Reconstruct::r12, kVariants[2]), u, cpu)->flops_M(),
            half * (1824 + 1872));
}

TEST(CloverOperator, ErrorPaths) {
  const Geometry g({4, 4, 4, 4});
  const GaugeField u = hot_field(g, 61);
  // kappa c_sw far too large for a hot field: A is not positive definite
  EXPECT_THROW(make_dirac(clover_params(Precision::double_, Reconstruct::r18, kVariants[1], 0.125, 40.0), u, cpu),
               NumericalError);
  const CloverTerm a(u, 0.1, 1.0, Precision::single, cpu);
  SpinorFieldParams sp;
  sp.geometry = g;
  SpinorField dbl(sp);
  EXPECT_THROW(a.apply(dbl, dbl, 0, false), InputError);  // precision
  sp.precision = Precision::single;
  sp.subset = SiteSubset::odd;
  SpinorField odd(sp);
  EXPECT_THROW(a.apply(odd, odd, 0, false), InputError);  // parity
  EXPECT_THROW(a.apply(odd, odd, 3, false), InputError);
  EXPECT_NO_THROW(a.apply(odd, odd, 1, false));
  const WilsonDslash w(u, {1, 1, 1, -1}, Precision::double_, Reconstruct::r18, cpu);
  sp.precision = Precision::double_;
  sp.subset = SiteSubset::full;
  SpinorField f1(sp), f2(sp);
  EXPECT_THROW(w.dslash_clover(f1, f2, 0, false, a.field(false), nullptr, 1.0), InputError);  // clover precision
}
