// Wilson operator: the fast one-parity dslash and the DiracOperator (full and even-odd, dagger)
// against the plain double reference for every precision x reconstruct x layout; gamma5
// hermiticity; gauge covariance; the free-field spectrum with periodic and antiperiodic phases;
// even-odd prepare/reconstruct; flop and byte counts; error paths.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <numbers>

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

DiracParams wilson_params(Precision p, Reconstruct r, bool eo, double kappa = 0.124) {
  DiracParams d;
  d.type = DiracType::wilson;
  d.kappa = kappa;
  d.precision = p;
  d.reconstruct = r;
  d.even_odd = eo;
  return d;
}

const Precision kPrecisions[] = {Precision::double_, Precision::single, Precision::half};
const Reconstruct kRecons[] = {Reconstruct::r18, Reconstruct::r12, Reconstruct::r8};

}  // namespace

TEST(WilsonDslash, EveryStorageMatchesTheReference) {
  const Geometry g({4, 4, 4, 8});
  const GaugeField u = hot_field(g, 11);
  const SpinorField in = gaussian(g, 12);
  const std::array<double, 4> bc{-1.0, 1.0, 1.0, -1.0};
  DiracParams rp = wilson_params(Precision::double_, Reconstruct::r18, false);
  rp.boundary = bc;
  const reference::ReferenceWilson ref(rp, u);
  SpinorField want[2] = {canonical_full(g), canonical_full(g)};
  ref.hop(want[0], in, false);
  ref.hop(want[1], in, true);
  for (Precision p : kPrecisions)
    for (Reconstruct r : kRecons)
      for (FieldOrder order : {FieldOrder::site_major, FieldOrder::blocked}) {
        const WilsonDslash d(u, bc, p, r, cpu, order);
        SpinorFieldParams sp;
        sp.geometry = g;
        sp.precision = p;
        sp.order = order;
        const SpinorField fin = converted(in, sp, cpu);
        for (bool dag : {false, true}) {
          SpinorField out(sp);
          d.dslash(out, fin, 0, dag);
          d.dslash(out, fin, 1, dag);
          const double e = rel_diff(as_canonical(out), want[dag ? 1 : 0]);
          EXPECT_LT(e, tolerance(p)) << to_string(p) << " " << to_string(r) << " order "
                                     << static_cast<int>(order) << " dagger " << dag;
        }
      }
}

TEST(WilsonDslash, ParitySubsetFieldsAndXpay) {
  const Geometry g({4, 4, 4, 4});
  const GaugeField u = hot_field(g, 21);
  const SpinorField in = gaussian(g, 22), x = gaussian(g, 23);
  const DiracParams rp = wilson_params(Precision::double_, Reconstruct::r18, false);
  const reference::ReferenceWilson ref(rp, u);
  SpinorField d = canonical_full(g);
  ref.hop(d, in, false);
  const WilsonDslash w(u, rp.boundary, Precision::double_, Reconstruct::r12, cpu);
  for (int parity : {0, 1}) {
    const SpinorField in_sub = reference::restrict_parity(in, 1 - parity);
    const SpinorField x_sub = reference::restrict_parity(x, parity);
    SpinorField out = reference::restrict_parity(x, parity);  // overwritten
    w.dslash_xpay(out, in_sub, parity, false, x_sub, -0.3);
    const SpinorField want_d = reference::restrict_parity(d, parity);
    SpinorField want = reference::restrict_parity(x, parity);
    for (std::int64_t s = 0; s < g.half_volume(); ++s)
      for (int sp = 0; sp < 4; ++sp)
        for (int c = 0; c < 3; ++c) want.site(s).s[sp].c[c] += -0.3 * want_d.site(s).s[sp].c[c];
    EXPECT_LT(rel_diff(out, want), 1e-14);
    // plain, with a full input field and a subset output
    SpinorField out2 = reference::restrict_parity(x, parity);
    w.dslash(out2, in, parity, false);
    EXPECT_LT(rel_diff(out2, want_d), 1e-14);
  }
}

TEST(WilsonOperator, FullAndEvenOddMatchTheReference) {
  const Geometry g({4, 4, 4, 4});
  const GaugeField u = hot_field(g, 31);
  const SpinorField in = gaussian(g, 32);
  for (bool eo : {false, true}) {
    const reference::ReferenceWilson ref(wilson_params(Precision::double_, Reconstruct::r18, eo), u);
    SpinorField want[2] = {canonical_full(g), canonical_full(g)};
    ref.M(want[0], in, false);
    ref.M(want[1], in, true);
    for (Precision p : kPrecisions)
      for (Reconstruct r : kRecons) {
        const auto op = make_dirac(wilson_params(p, r, eo), u, cpu);
        const SpinorField fin = in_storage(in, op->vector_params());
        SpinorField out(op->vector_params());
        op->M(out, fin);
        EXPECT_LT(rel_diff_to_ref(out, want[0]), tolerance(p)) << to_string(p) << to_string(r) << " eo " << eo;
        op->Mdag(out, fin);
        EXPECT_LT(rel_diff_to_ref(out, want[1]), tolerance(p)) << to_string(p) << to_string(r) << " eo " << eo;
      }
  }
}

TEST(WilsonOperator, Gamma5HermiticityAndAdjoint) {
  const Geometry g({4, 4, 4, 8});
  const GaugeField u = hot_field(g, 41);
  for (bool eo : {false, true}) {
    const auto op = make_dirac(wilson_params(Precision::double_, Reconstruct::r18, eo), u, cpu);
    const SpinorField psi = in_storage(gaussian(g, 42), op->vector_params());
    const SpinorField chi = in_storage(gaussian(g, 43), op->vector_params());
    SpinorField mpsi(op->vector_params()), mdchi(op->vector_params());
    op->M(mpsi, psi);
    op->Mdag(mdchi, chi);
    const complexd a = dot(chi, mpsi), b = dot(mdchi, psi);
    EXPECT_NEAR(a.re, b.re, 1e-12 * std::sqrt(norm2(a)));
    EXPECT_NEAR(a.im, b.im, 1e-12 * std::sqrt(norm2(a)));
    // Mdag = g5 M g5
    SpinorField g5psi(op->vector_params()), t(op->vector_params());
    for (std::int64_t s = 0; s < psi.params().sites(); ++s) g5psi.site(s) = apply_gamma5(psi.site(s));
    op->M(t, g5psi);
    for (std::int64_t s = 0; s < t.params().sites(); ++s) t.site(s) = apply_gamma5(t.site(s));
    SpinorField mdpsi(op->vector_params());
    op->Mdag(mdpsi, psi);
    EXPECT_LT(rel_diff(t, mdpsi), 1e-14) << "eo " << eo;
    // MdagM = Mdag M
    SpinorField n(op->vector_params());
    op->MdagM(n, psi);
    SpinorField n2(op->vector_params());
    op->Mdag(n2, mpsi);
    EXPECT_LT(rel_diff(n, n2), 1e-15);
  }
}

TEST(WilsonOperator, GaugeCovariance) {
  const Geometry g({4, 4, 4, 4});
  const GaugeField u = hot_field(g, 51);
  GaugeField ug = GaugeField::canonical(g);
  std::memcpy(ug.data(), u.data(), u.bytes());
  const GaugeTransform t = random_gauge_transform(g, 52, cpu);
  apply_gauge_transform(ug, t, cpu);
  const SpinorField psi = gaussian(g, 53);
  SpinorField gpsi = canonical_full(g);
  for (std::int64_t s = 0; s < g.volume(); ++s) gpsi.site(s) = t.at(s) * psi.site(s);
  for (bool eo : {false, true})
    for (Reconstruct r : kRecons) {
      const auto m = make_dirac(wilson_params(Precision::double_, r, eo), u, cpu);
      const auto mg = make_dirac(wilson_params(Precision::double_, r, eo), ug, cpu);
      const SpinorField a_in = in_storage(psi, m->vector_params()), b_in = in_storage(gpsi, m->vector_params());
      SpinorField a(m->vector_params()), b(m->vector_params());
      m->M(a, a_in);
      mg->M(b, b_in);
      // b should be g a (the even sites of a full field are its first half: same site index)
      for (std::int64_t s = 0; s < a.params().sites(); ++s) a.site(s) = t.at(s) * a.site(s);
      EXPECT_LT(rel_diff(b, a), 1e-13) << "eo " << eo << " " << to_string(r);
    }
}

TEST(WilsonOperator, FreeFieldPlaneWavesAreEigenvectors) {
  const Geometry g({4, 4, 4, 8});
  GaugeField u = GaugeField::canonical(g);
  set_unit(u, cpu);
  const double kappa = 0.1;
  const double pi = std::numbers::pi;
  struct Case {
    std::array<double, 4> bc;
    std::array<int, 4> n;
  };
  const Case cases[] = {{{1, 1, 1, 1}, {0, 0, 0, 0}},
                        {{1, 1, 1, 1}, {1, 0, 2, 3}},
                        {{1, 1, 1, -1}, {0, 0, 0, 0}},
                        {{1, 1, 1, -1}, {1, 3, 0, 5}},
                        {{-1, 1, 1, -1}, {2, 1, 1, 7}}};
  const Coords L = g.local_dims();
  const complexd u0[4] = {{0.3, -0.2}, {-0.7, 0.1}, {0.25, 0.5}, {0.05, -0.9}};  // spin part (colour 1)
  for (const Case& cs : cases) {
    double p[4];
    for (int mu = 0; mu < 4; ++mu) p[mu] = (2 * pi * cs.n[mu] + (cs.bc[mu] < 0 ? pi : 0.0)) / L[mu];
    // eigen-matrix E = sum_mu e^{ip}(1 - g) + e^{-ip}(1 + g)
    Matrix4 e = Matrix4::zero();
    for (int mu = 0; mu < 4; ++mu) {
      const complexd ep(std::cos(p[mu]), std::sin(p[mu])), em(std::cos(p[mu]), -std::sin(p[mu]));
      e = e + ep * (Matrix4::identity() - gamma_matrix(mu)) + em * (Matrix4::identity() + gamma_matrix(mu));
    }
    complexd eu[4];
    for (int a = 0; a < 4; ++a) {
      eu[a] = complexd(0, 0);
      for (int b = 0; b < 4; ++b) eu[a] += e.e[a][b] * u0[b];
    }
    SpinorField psi = canonical_full(g), want = canonical_full(g);
    for (std::int64_t s = 0; s < g.volume(); ++s) {
      const Coords x = g.coords(s);
      double ph = 0;
      for (int mu = 0; mu < 4; ++mu) ph += p[mu] * x[mu];
      const complexd w(std::cos(ph), std::sin(ph));
      for (int a = 0; a < 4; ++a)
        for (int c = 0; c < 3; ++c) {
          psi.site(s).s[a].c[c] = c == 1 ? w * u0[a] : complexd(0, 0);
          // M psi = psi - kappa E psi
          want.site(s).s[a].c[c] = c == 1 ? w * (u0[a] - kappa * eu[a]) : complexd(0, 0);
        }
    }
    DiracParams dp = wilson_params(Precision::double_, Reconstruct::r12, false, kappa);
    dp.boundary = cs.bc;
    const auto op = make_dirac(dp, u, cpu);
    SpinorField out(op->vector_params());
    op->M(out, psi);
    EXPECT_LT(rel_diff(out, want), 1e-14) << "n " << cs.n[0] << cs.n[1] << cs.n[2] << cs.n[3] << " bc_t " << cs.bc[3];
    const reference::ReferenceWilson ref(dp, u);
    ref.M(out, psi, false);
    EXPECT_LT(rel_diff(out, want), 1e-14);
  }
}

TEST(WilsonOperator, EvenOddPrepareAndReconstructGiveTheFullSolution) {
  const Geometry g({4, 4, 4, 8});
  const GaugeField u = hot_field(g, 61);
  const SpinorField x = gaussian(g, 62);
  const reference::ReferenceWilson full(wilson_params(Precision::double_, Reconstruct::r18, false), u);
  SpinorField b = canonical_full(g);
  full.M_full(b, x, false);  // b = M x
  const auto op = make_dirac(wilson_params(Precision::double_, Reconstruct::r18, true), u, cpu);
  SpinorField bpc(op->vector_params());
  op->prepare(bpc, b);
  // x_e solves M_ee x_e = b_pc
  const SpinorField xe = reference::restrict_parity(x, 0);
  SpinorField mx(op->vector_params());
  op->M(mx, xe);
  EXPECT_LT(rel_diff(mx, bpc), 1e-13);
  // the reference's prepare agrees
  const reference::ReferenceWilson eo(wilson_params(Precision::double_, Reconstruct::r18, true), u);
  SpinorField rb = canonical_full(g);
  eo.prepare(rb, b);
  EXPECT_LT(rel_diff(bpc, reference::restrict_parity(rb, 0)), 1e-14);
  // reconstruct gives back x
  SpinorField xf = canonical_full(g);
  op->reconstruct(xf, xe, b);
  EXPECT_LT(rel_diff(xf, x), 1e-13);
  // full operator: prepare/reconstruct are copies
  const auto opf = make_dirac(wilson_params(Precision::double_, Reconstruct::r18, false), u, cpu);
  SpinorField bf(opf->vector_params()), xr = canonical_full(g);
  opf->prepare(bf, b);
  EXPECT_EQ(rel_diff(bf, b), 0.0);
  opf->reconstruct(xr, x, b);
  EXPECT_EQ(rel_diff(xr, x), 0.0);
  // a single-precision source is converted
  const auto ops = make_dirac(wilson_params(Precision::single, Reconstruct::r12, true), u, cpu);
  SpinorField bs(ops->vector_params());
  ops->prepare(bs, b);
  EXPECT_LT(rel_diff(as_canonical(bs), bpc), 1e-5);
}

// DiracOperator::hop (what `gluon bench dslash` times): D_oe on an even input, odd output, in
// every precision and compression; refused for the unpreconditioned operator and the wrong subsets.
TEST(WilsonOperator, HopIsTheReferenceDoeOnTheOddSites) {
  const Geometry g({4, 4, 4, 4});
  const GaugeField u = hot_field(g, 35);
  const SpinorField in_e = reference::extend_parity(reference::restrict_parity(gaussian(g, 36), 0));
  const reference::ReferenceWilson ref(wilson_params(Precision::double_, Reconstruct::r18, true), u);
  SpinorField d = canonical_full(g);
  ref.hop(d, in_e, false);
  const SpinorField want = reference::restrict_parity(d, 1);
  for (Precision p : kPrecisions)
    for (Reconstruct r : kRecons) {
      const auto op = make_dirac(wilson_params(p, r, true), u, cpu);
      EXPECT_EQ(op->hop_params().subset, SiteSubset::odd);
      const SpinorField fin = in_storage(in_e, op->vector_params());
      SpinorField out(op->hop_params());
      op->hop(out, fin);
      EXPECT_LT(rel_diff(as_canonical(out), want), tolerance(p)) << to_string(p) << to_string(r);
      EXPECT_EQ(op->hop_flops(), g.half_volume() * 1320.0);
      SpinorField even_out(op->vector_params());
      EXPECT_THROW(op->hop(even_out, fin), InputError);  // the output holds the odd sites
      EXPECT_THROW(op->hop(out, out), InputError);       // the input the even ones
    }
  const auto full = make_dirac(wilson_params(Precision::double_, Reconstruct::r18, false), u, cpu);
  SpinorField fo(full->hop_params()), fi(full->vector_params());
  EXPECT_THROW(full->hop(fo, fi), InputError);
}

TEST(WilsonOperator, FlopAndByteCounts) {
  const Geometry g({4, 4, 4, 8});
  const GaugeField u = hot_field(g, 71);
  const double half = g.half_volume();
  EXPECT_EQ(make_dirac(wilson_params(Precision::single, Reconstruct::r12, true), u, cpu)->flops_M(),
            half * (1320 + 1368));
  EXPECT_EQ(make_dirac(wilson_params(Precision::single, Reconstruct::r12, false), u, cpu)->flops_M(),
            2 * half * 1368);
  EXPECT_EQ(dslash_flops_per_site(DslashKind::plain), 1320.0);
  EXPECT_EQ(dslash_flops_per_site(DslashKind::clover_xpay), 1872.0);
  // single r12: (24 + 24 + 8 x 12) x 4 bytes = 576 per site
  EXPECT_EQ(dslash_bytes(Precision::single, Reconstruct::r12, 10, DslashKind::plain), 5760.0);
  // double r18: (48 + 144) x 8 = 1536
  EXPECT_EQ(dslash_bytes(Precision::double_, Reconstruct::r18, 1, DslashKind::plain), 1536.0);
  // half r12: (48 + 96) x 2 + 2 norms x 4 = 296
  EXPECT_EQ(dslash_bytes(Precision::half, Reconstruct::r12, 1, DslashKind::plain), 296.0);
  // clover_xpay single r12: 576 + 24 x 4 (x) + 72 x 4 (clover) = 960
  EXPECT_EQ(dslash_bytes(Precision::single, Reconstruct::r12, 1, DslashKind::clover_xpay), 960.0);
}

TEST(WilsonOperator, VectorParams) {
  const Geometry g({4, 4, 4, 4});
  const GaugeField u = hot_field(g, 81);
  const auto op = make_dirac(wilson_params(Precision::half, Reconstruct::r8, true), u, cpu);
  const SpinorFieldParams v = op->vector_params();
  EXPECT_EQ(v.subset, SiteSubset::even);
  EXPECT_EQ(v.nspin, 4);
  EXPECT_EQ(v.precision, Precision::half);
  EXPECT_EQ(v.order, FieldOrder::site_major);
  EXPECT_EQ(v.space, runtime::MemSpace::host);
  EXPECT_EQ(op->full_params().subset, SiteSubset::full);
  EXPECT_EQ(op->params().type, DiracType::wilson);
  EXPECT_EQ(make_dirac(wilson_params(Precision::half, Reconstruct::r8, false), u, cpu)->vector_params().subset,
            SiteSubset::full);
}

TEST(WilsonOperator, ErrorPaths) {
  const Geometry g({4, 4, 4, 4});
  const GaugeField u = hot_field(g, 91);
  const auto op = make_dirac(wilson_params(Precision::double_, Reconstruct::r18, true), u, cpu);
  const SpinorField full = gaussian(g, 92);
  SpinorField out(op->vector_params());
  EXPECT_THROW(op->M(out, full), InputError);  // full field into an even-odd operator
  SpinorField even = reference::restrict_parity(full, 0);
  EXPECT_THROW(op->M(even, even), InputError);  // aliasing
  SpinorFieldParams sp = op->vector_params();
  sp.precision = Precision::single;
  SpinorField wrong(sp);
  EXPECT_THROW(op->M(wrong, even), InputError);  // precision
  const WilsonDslash d(u, {1, 1, 1, -1}, Precision::double_, Reconstruct::r18, cpu);
  SpinorField odd = reference::restrict_parity(full, 1);
  EXPECT_THROW(d.dslash(out, even, 0, false), InputError);  // in must be odd for an even output
  EXPECT_THROW(d.dslash(odd, even, 0, false), InputError);  // out must be even
  EXPECT_THROW(d.dslash(out, odd, 2, false), InputError);   // parity
  EXPECT_NO_THROW(d.dslash(out, odd, 0, false));
  const Geometry other({4, 4, 4, 8});
  SpinorFieldParams op2 = op->vector_params();
  op2.geometry = other;
  SpinorField big(op2);
  EXPECT_THROW(d.dslash(big, odd, 0, false), InputError);  // geometry
  DiracParams bad = wilson_params(Precision::double_, Reconstruct::r18, true, 0.0);
  EXPECT_THROW(make_dirac(bad, u, cpu), InputError);
  const Geometry split({4, 4, 4, 8}, {1, 1, 1, 2}, {0, 0, 0, 0});
  const GaugeField us = hot_field(split, 1);
  EXPECT_THROW(make_dirac(wilson_params(Precision::double_, Reconstruct::r18, true), us, cpu), InputError);
}
